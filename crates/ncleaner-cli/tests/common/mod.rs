//! Helpers shared by the CLI tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The `ncleaner` binary under test.
pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ncleaner"))
}

/// Runs `ncleaner ARGS` and returns its output.
pub fn run(args: &[&str]) -> Output {
    bin().args(args).output().expect("running ncleaner")
}

/// Runs `ncleaner ARGS`, asserting success; returns stdout.
pub fn ok(args: &[&str]) -> String {
    let out = run(args);
    assert!(
        out.status.success(),
        "ncleaner {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// The repository root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("repo root")
}

/// `../shared/data`, or `$NCLEANER_SHARED/data`; panics with a clear message
/// when it is missing, so that tests needing it fail instead of passing silently.
pub fn shared_data() -> PathBuf {
    let shared = std::env::var_os("NCLEANER_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo().join("../shared"));
    let data = shared.join("data");
    assert!(
        data.join("cleaneval").is_dir(),
        "this test needs the shared evaluation data at {} (set NCLEANER_SHARED to the folder holding data/)",
        data.display()
    );
    data
}

/// A fresh temporary directory.
pub fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().expect("temp dir")
}

/// Number of regular files under a directory, recursively.
pub fn count_files(dir: &Path) -> usize {
    let mut n = 0;
    for e in std::fs::read_dir(dir).expect("read dir") {
        let e = e.expect("entry");
        if e.file_type().expect("type").is_dir() {
            n += count_files(&e.path());
        } else {
            n += 1;
        }
    }
    n
}

/// The Python that has `module`: `$NCLEANER_PYTHON`, else the repository's
/// `.venv` (`scripts/python-setup`, run by `.ci/run`). Fails, naming the
/// fix, when it is missing: a test must not pass without checking.
pub fn python_with(module: &str) -> PathBuf {
    let py = std::env::var_os("NCLEANER_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo().join(".venv/bin/python"));
    let ok = Command::new(&py)
        .args(["-c", &format!("import {module}")])
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        ok,
        "this test needs Python with `{module}` at {} (run scripts/python-setup, or set NCLEANER_PYTHON)",
        py.display()
    );
    py
}

/// Runs `ncleaner clean ARGS`, failing the test if it panicked.
pub fn run_clean(args: &[&str]) -> Output {
    let out = bin()
        .arg("clean")
        .args(args)
        .output()
        .expect("running ncleaner");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !stderr.contains("panicked"),
        "ncleaner clean {args:?} panicked: {stderr}"
    );
    out
}

/// The JSON objects of a JSON Lines file, one per line.
pub fn json_lines(path: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .expect("output")
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("bad JSON line {l:?}: {e}")))
        .collect()
}

/// A page of two paragraphs that every cleaning method keeps.
pub const PAGE: &str = "<html><head><title>A page</title></head><body>\
    <p>This is a page with a paragraph of ordinary prose that a reader would \
    want to keep, long enough to be kept by every cleaning method.</p>\
    <p>A second paragraph follows with more words about nothing at all, \
    written only to be read back by the test.</p></body></html>";

/// [`PAGE`] with `marker` in place of its first word ("MARKER is a page"),
/// to find the page in an output.
pub fn page(marker: &str) -> String {
    PAGE.replace("This is a page", &format!("{marker} is a page"))
}

/// A process's standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}
