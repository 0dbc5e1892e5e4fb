//! Options that would be ignored are refused with a message that says what
//! they need (`ncleaner::CleanOptions::validate` for the cleaning options,
//! `cmd::common::check_clean_options` for the outputs).

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
        "--mark: needs --method perplexity",
    );
    refused(
        &["clean", "--max-perplexity", "500", &example()],
        "--max-perplexity: needs --method perplexity",
    );
}

#[test]
fn numbers_out_of_range_are_refused_naming_the_flag() {
    refused(
        &["clean", "--threshold", "NaN", &example()],
        "--threshold: NaN is not a finite number",
    );
    refused(
        &["clean", "--threshold", "inf", &example()],
        "--threshold: inf is not a finite number",
    );
    refused(
        &["clean", "--min-probability", "1.5", &example()],
        "--min-probability: 1.5 is not a probability strictly between 0 and 1",
    );
    refused(
        &["clean", "--min-page-quality", "NaN", &example()],
        "--min-page-quality: NaN is not between 0 and 1",
    );
    refused(
        &[
            "clean",
            "--threshold",
            "1",
            "--min-probability",
            "0.5",
            &example(),
        ],
        "--threshold: give --threshold or --min-probability, not both",
    );
    refused(
        &[
            "clean",
            "--method",
            "keep-all",
            "--threshold",
            "1",
            &example(),
        ],
        "--threshold: --method keep-all has no scores",
    );
    refused(
        &[
            "clean",
            "--no-route",
            "--model",
            "en",
            "--model",
            "en-nonlex",
            &example(),
        ],
        "--model: without routing one model cleans every page (2 given)",
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
