//! `ncleaner eval` against the reference scorer `cleaneval_score.py`, end to end:
//! same output lines and same per-file table on the same directories.
//!
//! Needs `python3` on PATH and the shared data (`$NCLEANER_SHARED` or
//! `../shared`); fails, saying so, without them.

#[path = "../../ncleaner/tests/common/mod.rs"]
mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::{Rng, perturb, shared_dir, txt_files};

/// Builds GOLDDIR (gold files of several sets, in nested folders) and OUTDIR
/// (perturbed copies, some missing, some empty, some with invalid UTF-8).
fn make_dirs(root: &Path) -> (PathBuf, PathBuf) {
    let gold_src = shared_dir().join("data/gold");
    let (gold, out) = (root.join("gold"), root.join("out"));
    let mut rng = Rng(0xc1ea_2e7a1);
    let mut n = 0;
    let mut prev = String::new();
    for (sub, dest, take) in [
        ("cleaneval/dev", "cleaneval/dev", 58),
        ("cleaneval/train", "cleaneval/train", 12),
        ("cleanportaleval", "portal/2013", 10),
        ("googlenews/train", "gn", 6),
        ("dragnet/train", "dragnet", 6),
        // Five languages, three of the ten pages Chinese (for --cjk-chars).
        ("daniel/train", "daniel", 10),
    ] {
        let files = txt_files(&gold_src.join(sub));
        assert!(
            !files.is_empty(),
            "{sub}: no gold files under {}",
            gold_src.display()
        );
        let step = (files.len() / take).max(1);
        for src in files.into_iter().step_by(step).take(take) {
            let rel = Path::new(dest).join(src.file_name().unwrap());
            let bytes = fs::read(&src).unwrap();
            fs::create_dir_all(gold.join(&rel).parent().unwrap()).unwrap();
            fs::write(gold.join(&rel), &bytes).unwrap();
            n += 1;
            let text = String::from_utf8_lossy(&bytes);
            let mut cleaned: Vec<u8> = match n % 9 {
                0 => continue, // no output file: an empty output
                1 => Vec::new(),
                // Boilerplate: lines of another page around the text.
                5 => format!(
                    "{}\n{}\n{}",
                    &prev[..(0..=prev.len() / 3)
                        .rfind(|&k| prev.is_char_boundary(k))
                        .unwrap()],
                    perturb(&text, &mut rng),
                    prev
                )
                .into_bytes(),
                _ => perturb(&text, &mut rng).into_bytes(),
            };
            prev = text.into_owned();
            if n % 4 == 0 && !cleaned.is_empty() {
                // Invalid and truncated UTF-8, and the lone replacement it becomes.
                let at = rng.below(cleaned.len());
                let junks: [&[u8]; 4] = [b"\xff", b"\xc3", b"\xe2\x82 ", b"\xed\xa0\x80"];
                let junk = *rng.pick(&junks);
                cleaned.splice(at..at, junk.iter().copied());
            }
            fs::create_dir_all(out.join(&rel).parent().unwrap()).unwrap();
            fs::write(out.join(&rel), cleaned).unwrap();
        }
    }
    // Not gold files: ignored by both.
    fs::write(gold.join("cleaneval/README.md"), "not a gold file").unwrap();
    fs::write(out.join("extra.txt"), "<p> an output with no gold file").unwrap();
    (out, gold)
}

fn run(cmd: &mut Command) -> Output {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

#[cfg_attr(
    not(feature = "shared-data"),
    ignore = "needs ../shared/data, Python, Java or Chromium: scripts/test runs it"
)]
#[test]
fn same_output_as_the_reference_scorer() {
    let tmp = tempfile::tempdir().unwrap();
    let (out, gold) = make_dirs(tmp.path());
    let script = shared_dir().join("tools/cleaneval_score.py");
    let modes: [&[&str]; 5] = [
        &[],
        &["--ascii"],
        &["--words-only"],
        &["--ascii", "--words-only"],
        &["--words-only", "--cjk-chars"],
    ];
    // The reference is slow: run every mode at once.
    let children: Vec<_> = modes
        .iter()
        .enumerate()
        .map(|(k, flags)| {
            let tsv = tmp.path().join(format!("py{k}.tsv"));
            let child = Command::new("python3")
                .arg(&script)
                .args(*flags)
                .arg("--per-file")
                .arg(&tsv)
                .arg(&out)
                .arg(&gold)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap_or_else(|e| {
                    panic!("cannot run python3 ({e}): this test compares with the reference scorer")
                });
            (child, tsv)
        })
        .collect();
    for ((child, py_tsv), flags) in children.into_iter().zip(modes) {
        let py = child.wait_with_output().unwrap();
        assert!(
            py.status.success(),
            "reference scorer failed: {}",
            String::from_utf8_lossy(&py.stderr)
        );
        let rs_tsv = py_tsv.with_extension("rs.tsv");
        let rs = run(Command::new(env!("CARGO_BIN_EXE_ncleaner"))
            .arg("eval")
            .args(flags)
            .arg("--per-file")
            .arg(&rs_tsv)
            .arg(&out)
            .arg(&gold));
        let (py_out, rs_out) = (
            String::from_utf8(py.stdout).unwrap(),
            String::from_utf8(rs.stdout).unwrap(),
        );
        assert_eq!(rs_out, py_out, "flags {flags:?}");
        assert!(rs_out.starts_with("files\t102\n"), "{rs_out}");
        let (py_t, rs_t) = (
            fs::read_to_string(&py_tsv).unwrap(),
            fs::read_to_string(&rs_tsv).unwrap(),
        );
        assert_eq!(rs_t, py_t, "per-file table, flags {flags:?}");
    }
}

#[test]
fn json_and_unlabelled() {
    let tmp = tempfile::tempdir().unwrap();
    let (gold, out) = (tmp.path().join("gold"), tmp.path().join("out"));
    fs::create_dir_all(gold.join("a")).unwrap();
    fs::create_dir_all(&out).unwrap();
    fs::write(
        gold.join("a/1.txt"),
        "URL: x\n<h> Title\n<p> Body text here.\n",
    )
    .unwrap();
    fs::write(gold.join("2.txt"), "<l> item").unwrap();
    fs::create_dir_all(out.join("a")).unwrap();
    fs::write(out.join("a/1.txt"), "<p> Title\n<p> Body text here.\n").unwrap();
    let bin = env!("CARGO_BIN_EXE_ncleaner");
    let json = run(Command::new(bin)
        .args(["eval", "--json"])
        .arg(&out)
        .arg(&gold));
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(v["files"], 2);
    assert_eq!(v["per_file"][0]["name"], "2.txt");
    assert_eq!(v["per_file"][1]["name"], "a/1.txt");
    assert_eq!(v["per_file"][1]["tp"], 7);
    assert_eq!(v["seg_labelled"]["tp"], 1);
    assert_eq!(v["seg_unlabelled"]["tp"], 2);
    let u = run(Command::new(bin)
        .args(["eval", "--unlabelled", "--json"])
        .arg(&out)
        .arg(&gold));
    let u: serde_json::Value = serde_json::from_slice(&u.stdout).unwrap();
    // `<h>` read as `<p>` now matches in the word counts too.
    assert_eq!(u["per_file"][1]["tp"], 8);
    assert_eq!(u["seg_labelled"], v["seg_labelled"]);
}

#[test]
fn errors_name_the_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let bin = env!("CARGO_BIN_EXE_ncleaner");
    let missing = tmp.path().join("no-such-dir");
    let r = Command::new(bin)
        .arg("eval")
        .arg(&missing)
        .arg(tmp.path())
        .output()
        .unwrap();
    assert_eq!(r.status.code(), Some(1));
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.contains("no-such-dir"), "{err}");
    let r = Command::new(bin)
        .arg("eval")
        .arg(tmp.path())
        .arg(tmp.path())
        .output()
        .unwrap();
    assert_eq!(r.status.code(), Some(1));
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(
        err.contains("no gold files") && err.contains(&*tmp.path().to_string_lossy()),
        "{err}"
    );
}

/// `--metric levenshtein`: gold against itself is 100, nothing is 0, and on
/// perturbed outputs every page's score equals an independent Python
/// implementation of the documented definition (the reference scorer's
/// tokens without markers, a textbook edit-distance table).
#[cfg_attr(
    not(feature = "shared-data"),
    ignore = "needs ../shared/data, Python, Java or Chromium: scripts/test runs it"
)]
#[test]
fn levenshtein_metric() {
    let tmp = tempfile::tempdir().unwrap();
    let (out, gold) = make_dirs(tmp.path());
    let bin = env!("CARGO_BIN_EXE_ncleaner");
    let json = |dir: &Path| -> serde_json::Value {
        let o = run(Command::new(bin)
            .args(["eval", "--metric", "levenshtein", "--json"])
            .arg(dir)
            .arg(&gold));
        serde_json::from_slice(&o.stdout).unwrap()
    };
    let same = json(&gold);
    assert_eq!(same["mean"], 100.0);
    let empty_dir = tmp.path().join("none");
    fs::create_dir(&empty_dir).unwrap();
    // No output: 0 for every page with words in its gold text, 100 for the rest.
    for f in json(&empty_dir)["per_file"].as_array().unwrap() {
        let want = if f["gold_words"] == 0 { 100.0 } else { 0.0 };
        assert_eq!(f["score"], want, "{f}");
    }
    let ours = json(&out);
    let files = ours["per_file"].as_array().unwrap();
    assert!(files.len() >= 10);
    let script = r#"
import json, sys, pathlib, importlib.util
spec = importlib.util.spec_from_file_location("ref", sys.argv[1])
ref = importlib.util.module_from_spec(spec); spec.loader.exec_module(ref)
out, gold = pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
def words(p):
    t = p.read_bytes().decode("utf-8", "replace") if p.exists() else ""
    return [w for w in ref.tokens(t) if w and w.lower() not in ("<p>", "<h>", "<l>")]
def dist(a, b):
    prev = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        cur = [i]
        for j, y in enumerate(b, 1):
            cur.append(min(prev[j - 1] + (x != y), prev[j] + 1, cur[j - 1] + 1))
        prev = cur
    return prev[-1]
res = {}
for g in sorted(gold.rglob("*.txt")):
    rel = g.relative_to(gold)
    o, w = words(out / rel), words(g)
    n = max(len(o), len(w))
    if n > 400:  # pure Python is slow: the shorter pages suffice
        continue
    res[str(rel)] = 100.0 if n == 0 else 100.0 * (1 - dist(o, w) / n)
print(json.dumps(res))
"#;
    let py = run(Command::new("python3")
        .arg("-c")
        .arg(script)
        .arg(shared_dir().join("tools/cleaneval_score.py"))
        .arg(&out)
        .arg(&gold));
    let theirs: serde_json::Map<String, serde_json::Value> =
        serde_json::from_slice(&py.stdout).unwrap();
    assert!(theirs.len() >= 5, "only {} short pages", theirs.len());
    for (rel, want) in &theirs {
        let want = want.as_f64().unwrap();
        let f = files
            .iter()
            .find(|f| {
                f["name"].as_str().unwrap().trim_end_matches(".txt") == rel.trim_end_matches(".txt")
            })
            .unwrap_or_else(|| panic!("{rel} missing from our report"));
        let name = rel;
        let got = f["score"].as_f64().unwrap();
        assert!(
            (got - want).abs() < 1e-9,
            "{name}: ours {got}, Python {want}"
        );
    }
}
