//! Snapshot tests: small pages of our own making (`tests/snapshots/pages/`:
//! an article, a forum thread, a product, a listing, documentation, a
//! recipe, a data table, comments, a German page, a windows-1252 page, a
//! text dump, a WARC record, JSON Lines) cleaned by `ncleaner clean` into
//! text, Markdown and JSON Lines (with every segment and the Markdown), each
//! compared byte for byte with its committed output in
//! `tests/snapshots/expected/`. Any change to any output fails here until
//! the snapshots are updated on purpose:
//!
//! ```text
//! scripts/update-snapshots      # NCLEANER_UPDATE_SNAPSHOTS=1 cargo test -p ncleaner-cli --test snapshots
//! git diff crates/ncleaner-cli/tests/snapshots/expected/
//! ```
//!
//! and the diff is read, and committed with the change that made it.

mod common;

use std::path::{Path, PathBuf};

use common::*;

/// The formats each page is written in: the expected file's extension and
/// the arguments that ask for it.
const FORMATS: [(&str, &[&str]); 3] = [
    ("txt", &["--format", "text"]),
    ("md", &["--format", "markdown"]),
    ("jsonl", &["--format", "jsonl", "--segments", "--markdown"]),
];

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots")
}

fn pages() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir().join("pages"))
        .expect("tests/snapshots/pages")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|n| !n.starts_with('.'))
        .collect();
    names.sort();
    names
}

fn updating() -> bool {
    std::env::var_os("NCLEANER_UPDATE_SNAPSHOTS").is_some_and(|v| v != "0" && !v.is_empty())
}

/// The first line where `got` and `want` differ, from a little before the
/// first character that differs (JSON Lines' lines are long).
fn first_difference(got: &str, want: &str) -> String {
    let (g, w): (Vec<&str>, Vec<&str>) = (got.lines().collect(), want.lines().collect());
    let i = (0..g.len().max(w.len()))
        .find(|&i| g.get(i) != w.get(i))
        .unwrap_or(g.len().min(w.len()));
    let (gl, wl) = (g.get(i).copied(), w.get(i).copied());
    // The character where the two lines part, and a window from 60 before it.
    let at = match (gl, wl) {
        (Some(a), Some(b)) => a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count(),
        _ => 0,
    };
    let clip = |s: Option<&str>| {
        s.map_or("(no line)".to_string(), |s| {
            let from = at.saturating_sub(60);
            let part: String = s.chars().skip(from).take(200).collect();
            format!("{}{part:?}", if from > 0 { "…" } else { "" })
        })
    };
    format!(
        "line {}, character {}:\n  expected {}\n  got      {}",
        i + 1,
        at + 1,
        clip(wl),
        clip(gl)
    )
}

#[test]
fn outputs_are_the_committed_snapshots() {
    let pages = pages();
    assert!(pages.len() >= 12, "{pages:?}");
    let expected = dir().join("expected");
    if updating() {
        std::fs::create_dir_all(&expected).unwrap();
    }
    let mut failures = Vec::new();
    let mut written = Vec::new();
    for page in &pages {
        for (ext, args) in FORMATS {
            // Run from the snapshot folder so that ids are `pages/NAME`, the same on every machine.
            let out = bin()
                .current_dir(dir())
                .args(["clean", "-q", "-j", "1"])
                .args(args)
                .arg(format!("pages/{page}"))
                .output()
                .expect("running ncleaner");
            assert!(
                out.status.success(),
                "{page} ({ext}): {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let got = String::from_utf8(out.stdout).expect("UTF-8 output");
            let path = expected.join(format!("{page}.{ext}"));
            if updating() {
                if std::fs::read_to_string(&path).ok().as_deref() != Some(&got) {
                    std::fs::write(&path, &got).unwrap();
                    written.push(path.display().to_string());
                }
                continue;
            }
            match std::fs::read_to_string(&path) {
                Err(_) => failures.push(format!("{}: missing", path.display())),
                Ok(want) if want != got => failures.push(format!(
                    "{}: the output changed, {}",
                    path.display(),
                    first_difference(&got, &want)
                )),
                Ok(_) => {}
            }
        }
    }
    if !written.is_empty() {
        eprintln!("snapshots rewritten:\n  {}", written.join("\n  "));
    }
    assert!(
        failures.is_empty(),
        "{} snapshot(s) differ:\n{}\n\nIf the change is meant, rewrite them with scripts/update-snapshots \
         (NCLEANER_UPDATE_SNAPSHOTS=1 cargo test -p ncleaner-cli --test snapshots), read `git diff` \
         and commit them with the change.",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_snapshot_has_its_page() {
    let pages = pages();
    let Ok(entries) = std::fs::read_dir(dir().join("expected")) else {
        panic!("tests/snapshots/expected is missing: run scripts/update-snapshots");
    };
    for e in entries {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        let page = name.rsplit_once('.').map_or(name.as_str(), |(p, _)| p);
        assert!(
            pages.iter().any(|p| p == page),
            "expected/{name} has no page in pages/: remove it (scripts/update-snapshots does not)"
        );
    }
}
