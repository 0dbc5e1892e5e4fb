//! Options that would be ignored are refused with a message that says what
//! they need (`cmd::common::check_clean_options`, called by `clean`).

mod common;

use common::*;

fn example() -> String {
    repo().join("examples/page.html").display().to_string()
}

fn refused(args: &[&str], needle: &str) {
    let out = run(args);
    assert!(!out.status.success(), "{args:?} was accepted");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(needle), "{args:?}: {err}");
}

#[test]
fn segments_need_json_lines() {
    refused(
        &["clean", "--segments", &example()],
        "--segments needs JSON Lines output",
    );
    refused(
        &["clean", "--segments", "--format", "text", &example()],
        "--format jsonl",
    );
    ok(&["clean", "--segments", "--format", "jsonl", &example()]);
}

#[test]
fn perplexity_options_need_the_perplexity_method() {
    refused(
        &["clean", "--mark", &example()],
        "--mark needs --method perplexity",
    );
    refused(
        &["clean", "--max-perplexity", "500", &example()],
        "--max-perplexity needs --method perplexity",
    );
}

#[test]
fn output_name_without_a_format_is_refused() {
    let dir = tempdir();
    let md = dir.path().join("out.csv");
    refused(
        &["clean", "-o", md.to_str().unwrap(), &example()],
        "the extension names no output format",
    );
    assert!(!md.exists());
}
