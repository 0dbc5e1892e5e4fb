//! End-to-end tests of the `ncleaner` command.

mod common;

use common::*;
use std::io::Write;
use std::process::Stdio;

fn example() -> String {
    repo().join("examples/page.html").display().to_string()
}

#[test]
fn clean_example_page_keeps_article_drops_boilerplate() {
    let out = ok(&["clean", &example()]);
    assert!(
        out.contains("<p> Tomatoes are among the easiest vegetables"),
        "{out}"
    );
    assert!(out.contains("<l> Pinch out the side shoots"), "{out}");
    assert!(!out.contains("Privacy policy"), "{out}");
    assert!(!out.contains("All rights reserved"), "{out}");
    assert!(!out.contains("Hidden keywords"), "{out}");
    assert!(!out.contains("dataLayer"), "{out}");
}

#[test]
fn formats() {
    let text = ok(&["clean", "--format", "text", &example()]);
    assert!(text.lines().any(|l| l.starts_with("Tomatoes are among")));
    assert!(!text.contains("<p>"));

    let jsonl = ok(&["clean", "--format", "jsonl", "--segments", &example()]);
    let lines: Vec<&str> = jsonl.lines().collect();
    assert_eq!(lines.len(), 1);
    let v: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
    let segs = v["segments"].as_array().unwrap();
    assert!(segs.iter().any(|s| s["keep"] == true));
    assert!(segs.iter().any(|s| s["keep"] == false));
    assert!(v["words_out"].as_u64().unwrap() < v["words_in"].as_u64().unwrap());
}

#[test]
fn threshold_moves_the_decision() {
    let count = |t: &str| {
        ok(&["clean", "--threshold", t, &example()])
            .lines()
            .filter(|l| l.starts_with('<'))
            .count()
    };
    assert!(count("30") < count("0"));
    assert!(count("-30") > count("0"));
}

#[test]
fn probability_and_operating_point_knobs() {
    let kept = |args: &[&str]| {
        let mut a = vec!["clean", "--format", "jsonl", "--segments"];
        a.extend_from_slice(args);
        let e = example();
        a.push(&e);
        let v: serde_json::Value = serde_json::from_str(ok(&a).trim()).unwrap();
        let segs = v["segments"].as_array().unwrap().clone();
        for s in &segs {
            if let Some(p) = s["probability"].as_f64() {
                assert!((0.0..=1.0).contains(&p), "{s}");
            }
        }
        segs.iter().filter(|s| s["keep"] == true).count()
    };
    let default = kept(&[]);
    assert!(kept(&["--min-probability", "0.999"]) < default);
    assert!(kept(&["--min-probability", "0.01"]) > default);
    assert!(kept(&["--prefer", "f"]) >= default);
    // --min-probability 0.5 is --threshold 0.
    assert_eq!(
        kept(&["--min-probability", "0.5"]),
        kept(&["--threshold", "0"])
    );
    for bad in [
        ["--min-probability", "1.5"].as_slice(),
        &["--min-probability", "0.5", "--threshold", "1"],
    ] {
        let mut a = vec!["clean"];
        a.extend_from_slice(bad);
        let e = example();
        a.push(&e);
        assert!(!run(&a).status.success(), "{bad:?} accepted");
    }
}

#[test]
fn stdin_input() {
    let mut child = bin()
        .args(["clean", "--format", "text", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(std::fs::read(example()).unwrap().as_slice())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("Tomatoes are among"));
}

#[test]
fn text_dump_input() {
    let dir = tempdir();
    let dump = dir.path().join("dump.txt");
    std::fs::write(
        &dump,
        "Home | News | Contact | About\n\nGrowing tomatoes\n\nTomatoes are among the easiest vegetables to grow in containers, and a sunny\n\
         balcony gives them everything they need: warmth, light and shelter from the\nwind.\n\n\
         * Water the compost, not the leaves.\n* Pinch out the side shoots every week.\n\nCopyright 2007. All rights reserved.\n",
    )
    .unwrap();
    let out = ok(&["clean", "--input", "text", dump.to_str().unwrap()]);
    assert!(out.contains("<p> Tomatoes are among the easiest vegetables to grow in containers, and a sunny balcony gives"), "{out}");
    assert!(out.contains("<l> Water the compost"), "{out}");
    assert!(!out.contains("Home | News"), "{out}");
}

#[test]
fn output_directory_mirrors_inputs() {
    let dir = tempdir();
    let input = dir.path().join("in");
    std::fs::create_dir_all(input.join("sub")).unwrap();
    std::fs::copy(example(), input.join("a.html")).unwrap();
    std::fs::copy(example(), input.join("sub/b.htm")).unwrap();
    std::fs::write(input.join("sub/empty.html"), b"").unwrap();
    let out = dir.path().join("out");
    ok(&[
        "clean",
        "-j",
        "2",
        "-o",
        out.to_str().unwrap(),
        input.to_str().unwrap(),
    ]);
    assert!(out.join("a.txt").is_file());
    assert!(out.join("sub/b.txt").is_file());
    assert!(out.join("sub/empty.txt").is_file());
    assert_eq!(count_files(&out), 3);
}

#[test]
fn missing_input_is_a_clear_error() {
    let out = run(&["clean", "/no/such/file.html"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("/no/such/file.html"), "{err}");
}

#[test]
fn bad_model_is_a_clear_error() {
    let dir = tempdir();
    let bad = dir.path().join("bad.nclm");
    std::fs::write(&bad, b"NCLM garbage").unwrap();
    let out = run(&["clean", "--model", bad.to_str().unwrap(), &example()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.nclm"), "{err}");
    let out = run(&["clean", "--model", "fr", &example()]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("not an embedded model"));
}

#[test]
fn train_then_clean_with_the_trained_model() {
    let data = shared_data();
    let dir = tempdir();
    let model = dir.path().join("m.nclm");
    let text_model = dir.path().join("m.txt");
    let html = data.join("cleaneval/dev");
    let gold = data.join("gold/cleaneval/dev");
    for m in [&model, &text_model] {
        ok(&[
            "train",
            "--html",
            html.to_str().unwrap(),
            "--gold",
            gold.to_str().unwrap(),
            "-o",
            m.to_str().unwrap(),
        ]);
    }
    let text = std::fs::read_to_string(&text_model).unwrap();
    assert!(
        text.starts_with("ncleaner-model 2\nn 3\nq 0.5\nalphabet lexical\n")
            && text.contains("\nclassifier {"),
        "{}",
        &text[..200]
    );
    let a = ok(&["clean", "--model", model.to_str().unwrap(), &example()]);
    let b = ok(&["clean", "--model", text_model.to_str().unwrap(), &example()]);
    assert_eq!(a, b, "text and binary forms are the same model");
    assert!(a.contains("Tomatoes are among"));
}

#[test]
fn train_rejects_unpaired_directories() {
    let data = shared_data();
    let out = run(&[
        "train",
        "--html",
        data.join("cleaneval/dev").to_str().unwrap(),
        "--gold",
        data.join("gold/cleaneval/train").to_str().unwrap(),
        "-o",
        "/tmp/never-written.nclm",
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("have no gold file"));
}

/// Every one of the 457 CleanEval pages gives exactly one output file.
#[test]
fn all_cleaneval_pages_give_one_output_each() {
    let data = shared_data();
    let dir = tempdir();
    let input = data.join("cleaneval");
    ok(&[
        "clean",
        "-o",
        dir.path().to_str().unwrap(),
        input.to_str().unwrap(),
    ]);
    assert_eq!(count_files(&input), 457);
    assert_eq!(count_files(dir.path()), 457);
}

/// The committed embedded models are what `scripts/build-models` trains,
/// byte for byte (run it after changing anything the training depends on).
#[test]
fn embedded_models_rebuild_bit_for_bit() {
    let data = shared_data();
    let dir = tempdir();
    let pool = |extra: &[&str], out: &std::path::Path| {
        let mut args = vec!["train"];
        args.extend_from_slice(extra);
        let p = |s: &str| data.join(s).display().to_string();
        // The pools of scripts/build-models, in its order.
        let owned: Vec<[String; 2]> = [
            "cleaneval/dev",
            "cleaneval/train",
            "dragnet/train",
            "googlenews/train",
        ]
        .iter()
        .map(|d| [p(d), p(&format!("gold/{d}"))])
        .collect();
        for [html, gold] in &owned {
            args.extend(["--html", html.as_str(), "--gold", gold.as_str()]);
        }
        args.extend(["-o", out.to_str().unwrap()]);
        ok(&args);
    };
    for (name, extra) in [
        ("en", &["--language", "en"][..]),
        ("en-nonlex", &["--nonlexical"][..]),
    ] {
        let out = dir.path().join(format!("{name}.nclm"));
        pool(extra, &out);
        let committed = std::fs::read(repo().join(format!("models/{name}.nclm"))).unwrap();
        assert!(
            std::fs::read(&out).unwrap() == committed,
            "models/{name}.nclm differs from what training gives now: run scripts/build-models"
        );
    }
}
