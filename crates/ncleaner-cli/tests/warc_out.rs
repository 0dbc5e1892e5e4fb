//! WARC out, read back by warcio (the Python WARC library) rather than by
//! our own reader: every original record intact, one conversion record per
//! cleaned response.

mod common;

use std::path::PathBuf;
use std::process::Command;

use common::*;

fn readback(py: &PathBuf, input: &std::path::Path, output: &std::path::Path) -> serde_json::Value {
    let script = repo().join("crates/ncleaner-cli/tests/py/warc_readback.py");
    let out = Command::new(py)
        .arg(&script)
        .arg(input)
        .arg(output)
        .output()
        .expect("running python");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("a JSON summary")
}

#[cfg_attr(
    not(feature = "shared-data"),
    ignore = "needs ../shared/data, Python, Java or Chromium: scripts/test runs it"
)]
#[test]
fn warc_out_reads_back_with_warcio() {
    let py = python_with("warcio");
    let data = shared_data();
    let dir = tempdir();
    let input = dir.path().join("in.warc.gz");
    let pages: Vec<String> = (1..=12)
        .map(|i| {
            data.join(format!("cleaneval/dev/{i}.html"))
                .display()
                .to_string()
        })
        .filter(|p| std::path::Path::new(p).exists())
        .collect();
    assert!(pages.len() >= 10, "expected CleanEval dev pages 1..12");
    let mut make = Command::new("python3");
    make.arg(repo().join("scripts/make-warc.py"))
        .arg("--warcinfo")
        .arg(&input)
        .args(&pages);
    assert!(make.status().expect("python3").success());
    for (method, name) in [("perplexity", "ppl.warc.gz"), ("ncleaner", "nc.warc")] {
        let output = dir.path().join(name);
        ok(&[
            "clean",
            "-q",
            "--method",
            method,
            "-o",
            output.to_str().unwrap(),
            input.to_str().unwrap(),
        ]);
        let summary = readback(&py, &input, &output);
        let n = pages.len() as u64;
        // warcinfo + a request and a response per page; a conversion per response.
        assert_eq!(summary["input"], 1 + 2 * n, "{method}: {summary}");
        assert_eq!(summary["conversions"], n, "{method}: {summary}");
        assert_eq!(summary["output"], 1 + 3 * n, "{method}: {summary}");
    }
    // `strip` writes the same layout.
    let output = dir.path().join("strip.warc.gz");
    ok(&[
        "strip",
        "-q",
        "-o",
        output.to_str().unwrap(),
        input.to_str().unwrap(),
    ]);
    assert_eq!(
        readback(&py, &input, &output)["conversions"],
        pages.len() as u64
    );
}
