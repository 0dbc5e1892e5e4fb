//! The outputs part of the torture run (issue 52): a run stopped by
//! SIGTERM in every output format, and resumed where `--resume` can; two
//! runs on one output; a link from the output directory into an input
//! folder; a site memory named like the output. For each: nothing left
//! under a final name, nothing written over, nothing lost. Used by
//! `examples/torture.rs` (`scripts/torture`); the CI tests of the same
//! defects are `tests/io_safety.rs`.

#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// What one output case gave.
#[derive(Debug, Clone)]
pub struct OutputOutcome {
    /// The case.
    pub name: String,
    /// What happened, in a few words.
    pub what: String,
    /// What was wrong (empty: the case passed).
    pub problems: Vec<String>,
}

/// Documents on standard input, as JSON lines.
fn documents(n: usize) -> String {
    (0..n)
        .map(|i| {
            let page = format!(
                "<html><body><h1>Page {i}</h1><p>Doc{i} is a page of a few plain words, and a \
                 sentence of ordinary prose follows so that every method keeps it.</p></body></html>"
            );
            format!("{}\n", serde_json::json!({"id": format!("d{i}"), "html": page}))
        })
        .collect()
}

fn clean(bin: &Path, out: &Path, extra: &[&str]) -> Command {
    let mut cmd = Command::new(bin);
    cmd.args(["clean", "-j", "1", "--method", "keep-all", "-o"])
        .arg(out)
        .args(extra)
        .arg("-")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    cmd
}

/// Runs to the end with `input` on standard input: (exit code, stderr).
fn whole(mut cmd: Command, input: &str) -> (Option<i32>, String) {
    let mut child = cmd.spawn().expect("running ncleaner");
    let mut stdin = child.stdin.take().expect("piped");
    let data = input.to_string();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(data.as_bytes());
    });
    let o = child.wait_with_output().expect("waiting");
    let _ = writer.join();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Waits until `path` exists (30 s at most).
fn appears(path: &Path) -> bool {
    let start = Instant::now();
    while !path.exists() {
        if start.elapsed() > Duration::from_secs(30) {
            return false;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    true
}

fn sigterm(child: &Child) {
    let _ = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
}

/// The temporary name of an output file.
fn partial(out: &Path) -> PathBuf {
    let name = out.file_name().unwrap().to_string_lossy();
    out.with_file_name(format!(".{name}.partial"))
}

/// What an output holds, to compare a resumed run's with a whole run's:
/// decompressed bytes, or a Parquet file's ids.
fn contents(out: &Path) -> Vec<u8> {
    if out.is_dir() {
        return std::fs::read(out.join("stdin.txt")).unwrap_or_default();
    }
    #[cfg(feature = "parquet")]
    if out.extension().is_some_and(|e| e == "parquet") {
        let Ok(f) = std::fs::File::open(out) else {
            return Vec::new();
        };
        return match ncleaner_corpus::parquet::Reader::open(f, 64 << 20) {
            Ok(r) => r
                .map(|d| d.map_or_else(|e| e.id.unwrap_or_default(), |d| d.id.unwrap_or_default()))
                .collect::<Vec<_>>()
                .join("\n")
                .into_bytes(),
            Err(e) => e.into_bytes(),
        };
    }
    ncleaner_corpus::sink::read_output(out).unwrap_or_default()
}

/// A run stopped by SIGTERM writing `name` (under `work`): never under its
/// final name, the message true about `--resume`, and, where `--resume`
/// continues it, the resumed output that of a whole run.
fn interrupted(bin: &Path, work: &Path, name: &str, resumable: bool) -> OutputOutcome {
    let input = documents(400);
    let mut problems = Vec::new();
    let dir = work.join(name.replace(['/', '.'], "_"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let is_dir = name.ends_with('/');
    let (reference, out) = (dir.join(format!("whole-{name}")), dir.join(name));
    let (code, e) = whole(clean(bin, &reference, &[]), &input);
    if code != Some(0) {
        problems.push(format!("the whole run failed: {e}"));
    }
    let temporary = match is_dir {
        true => out.join(".stdin.txt.partial"),
        false => partial(&out),
    };
    let mut child = clean(bin, &out, &[]).spawn().expect("running ncleaner");
    let mut stdin = child.stdin.take().expect("piped");
    let _ = stdin.write_all(input.as_bytes());
    let _ = stdin.flush();
    if !appears(&temporary) {
        problems.push("no temporary output".into());
    }
    std::thread::sleep(Duration::from_millis(1000));
    sigterm(&child);
    let o = child.wait_with_output().expect("waiting");
    drop(stdin);
    let e = String::from_utf8_lossy(&o.stderr).into_owned();
    if o.status.code() != Some(143) {
        problems.push(format!("exit {:?}, not 143", o.status.code()));
    }
    let final_name = match is_dir {
        true => out.join("stdin.txt").exists(),
        false => out.exists(),
    };
    if final_name {
        problems.push("an interrupted output under its final name".into());
    }
    if !temporary.exists() {
        problems.push("no output under the temporary name".into());
    }
    let promises = e.contains("--resume completes");
    if promises != resumable {
        problems.push(format!("the message about --resume is not true: {e}"));
    }
    let mut what = format!("exit 143, final name absent: {}", !final_name);
    if resumable {
        let (code, e) = whole(clean(bin, &out, &["--resume"]), &input);
        let same = contents(&out) == contents(&reference);
        if code != Some(0) || !same || temporary.exists() {
            problems.push(format!(
                "--resume: exit {code:?}, the whole run's output: {same}: {e}"
            ));
        }
        what.push_str(&format!("; resumed to the whole run's output: {same}"));
    }
    OutputOutcome {
        name: format!("sigterm {name}"),
        what,
        problems,
    }
}

/// Two runs on one output: the second refused naming the first, the first
/// complete.
fn two_runs(bin: &Path, work: &Path) -> OutputOutcome {
    let dir = work.join("two-runs");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("same.jsonl");
    let input = documents(50);
    let mut problems = Vec::new();
    let mut first = clean(bin, &out, &[]).spawn().expect("running ncleaner");
    let mut stdin = first.stdin.take().expect("piped");
    let _ = stdin.write_all(&input.as_bytes()[..input.len() / 2]);
    let _ = stdin.flush();
    appears(&partial(&out));
    let (code, e) = whole(clean(bin, &out, &[]), &input);
    let refused = code != Some(0) && e.contains(&format!("pid {}", first.id()));
    if !refused {
        problems.push(format!("the second run was not refused: {e}"));
    }
    let _ = stdin.write_all(&input.as_bytes()[input.len() / 2..]);
    drop(stdin);
    let o = first.wait_with_output().expect("waiting");
    let records = std::fs::read_to_string(&out)
        .unwrap_or_default()
        .lines()
        .count();
    if !o.status.success() || records != 50 {
        problems.push(format!(
            "the first run: {:?}, {records} records",
            o.status.code()
        ));
    }
    OutputOutcome {
        name: "two runs, one output".into(),
        what: format!("second refused: {refused}; first wrote {records} of 50 records"),
        problems,
    }
}

/// A link from the output directory into an input folder: refused, the
/// input as it was.
#[cfg(unix)]
fn nested_link(bin: &Path, work: &Path) -> OutputOutcome {
    let dir = work.join("nested-link");
    let _ = std::fs::remove_dir_all(&dir);
    let (input, out) = (dir.join("in"), dir.join("out"));
    std::fs::create_dir_all(input.join("sub")).unwrap();
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(input.join("sub/page.txt"), "The input's own text.\n").unwrap();
    std::os::unix::fs::symlink("../in/sub", out.join("sub")).unwrap();
    let o = Command::new(bin)
        .args([
            "clean", "-q", "--method", "keep-all", "--input", "text", "-o",
        ])
        .arg(format!("{}/", out.display()))
        .arg(&input)
        .output()
        .expect("running ncleaner");
    let intact = std::fs::read_to_string(input.join("sub/page.txt"))
        .ok()
        .as_deref()
        == Some("The input's own text.\n");
    let mut problems = Vec::new();
    if o.status.success() || !intact {
        problems.push(format!(
            "exit {:?}, input intact: {intact}",
            o.status.code()
        ));
    }
    OutputOutcome {
        name: "out/sub -> ../in/sub".into(),
        what: format!("refused: {}; input intact: {intact}", !o.status.success()),
        problems,
    }
}

/// `--site-memory` naming the output: refused before any work.
fn site_memory_over_output(bin: &Path, work: &Path) -> OutputOutcome {
    let dir = work.join("site-memory");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("out.jsonl");
    let (code, e) = whole(
        clean(bin, &out, &["--site-memory", out.to_str().unwrap()]),
        "",
    );
    let mut problems = Vec::new();
    if code == Some(0) || out.exists() || !e.contains("--site-memory") {
        problems.push(format!("not refused: {e}"));
    }
    OutputOutcome {
        name: "--site-memory OUT -o OUT".into(),
        what: format!(
            "refused: {}; nothing written: {}",
            code != Some(0),
            !out.exists()
        ),
        problems,
    }
}

/// Every output case, run under `work`.
pub fn output_cases(bin: &Path, work: &Path) -> Vec<OutputOutcome> {
    let mut out = Vec::new();
    for (name, resumable) in [
        ("out.jsonl", true),
        ("out.jsonl.gz", true),
        ("out.jsonl.zst", true),
        ("out.parquet", cfg!(feature = "parquet")),
        ("out.txt", false),
        ("out.md", false),
        ("out.warc", false),
        ("outdir/", true),
    ] {
        if name.ends_with(".parquet") && !cfg!(feature = "parquet") {
            continue;
        }
        out.push(interrupted(bin, work, name, resumable));
    }
    out.push(two_runs(bin, work));
    #[cfg(unix)]
    out.push(nested_link(bin, work));
    out.push(site_memory_over_output(bin, work));
    out
}
