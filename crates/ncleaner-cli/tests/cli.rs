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
    // Plain text by default: the kept segments, one per line.
    let text = ok(&["clean", &example()]);
    assert!(
        text.lines()
            .any(|l| l.starts_with("Tomatoes are among the easiest vegetables")),
        "{text}"
    );
    assert!(!text.contains("<p>") && !text.contains("URL:"), "{text}");
    // CleanEval's markup is one flag away, as are the other formats.
    let out = ok(&["clean", "--format", "cleaneval", &example()]);
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
    assert!(v.get("markdown").is_none(), "Markdown only when asked for");

    // Markdown: the same kept text, with its structure; in JSON Lines on request.
    let md = ok(&["clean", "--format", "markdown", &example()]);
    assert!(
        md.lines().any(|l| l.starts_with("Tomatoes are among")),
        "{md}"
    );
    let v: serde_json::Value =
        serde_json::from_str(ok(&["clean", "--format", "jsonl", "--markdown", &example()]).trim())
            .unwrap();
    assert_eq!(v["markdown"], md.as_str());
    let dir = tempdir();
    let out = dir.path().join("page.md");
    ok(&["clean", "-o", out.to_str().unwrap(), &example()]);
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        md,
        "-o NAME.md writes Markdown"
    );
    let refused = run(&["clean", "--format", "text", "--markdown", &example()]);
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--markdown"));

    // Links and images on request, in Markdown only; the kept text is the same.
    let page = dir.path().join("linked.html");
    let html = std::fs::read_to_string(example()).unwrap().replacen(
        "easiest vegetables",
        "easiest <a href=\"/veg\">vegetables</a><img src=\"t.png\" alt=\"A tomato\">",
        1,
    );
    std::fs::write(&page, html).unwrap();
    let page = page.to_str().unwrap();
    let md = ok(&["clean", "--format", "markdown", page]);
    let linked = ok(&["clean", "--format", "markdown", "--links", "--images", page]);
    assert!(
        linked.contains("easiest [vegetables](/veg) ![A tomato](t.png)"),
        "{linked}"
    );
    assert_eq!(
        linked.replace("[vegetables](/veg) ![A tomato](t.png)", "vegetables"),
        md
    );
    let refused = run(&["clean", "--format", "text", "--links", &example()]);
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--links"));
}

#[test]
fn documents_sharing_a_stream_are_named() {
    let dir = tempdir();
    let page = |body: &str| format!("<html><body><p>{body}</p></body></html>");
    std::fs::write(
        dir.path().join("a.html"),
        page("The first page has a sentence that is long enough to be kept by the cleaner."),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("b -->.html"),
        page("The second page has a sentence that is long enough to be kept as well."),
    )
    .unwrap();
    let d = dir.path().to_str().unwrap();
    let a = dir.path().join("a.html");
    let b = dir.path().join("b -->.html");
    let line = |p: &std::path::Path| {
        let id = serde_json::to_string(p.to_str().unwrap())
            .unwrap()
            .replace('>', "\\u003e");
        format!("<!-- ncleaner document id={id} url=null -->")
    };
    let text = ok(&["clean", "-q", "--format", "text", d]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], line(&a), "{text}");
    assert!(lines[1].starts_with("The first page"), "{text}");
    assert_eq!(lines[2], line(&b), "no id can end the comment: {text}");
    assert!(lines[3].starts_with("The second page"), "{text}");
    let md = ok(&["clean", "-q", "--format", "markdown", d]);
    assert!(
        md.starts_with(&format!("{}\n\nThe first page", line(&a))),
        "{md}"
    );
    assert!(
        md.contains(&format!(
            "kept by the cleaner.\n\n{}\n\nThe second",
            line(&b)
        )),
        "{md}"
    );
    // CleanEval's own first line, which its scorer skips.
    let ce = ok(&["clean", "-q", "--format", "cleaneval", d]);
    assert!(
        ce.starts_with(&format!("URL: {}\n\n<p> The first", a.display())),
        "{ce}"
    );
    assert!(
        ce.contains(&format!("URL: {}\n\n<p> The second", b.display())),
        "{ce}"
    );
    // A lone document is written as it always was.
    let one = ok(&["clean", "-q", "--format", "text", a.to_str().unwrap()]);
    assert!(one.starts_with("The first page"), "{one}");
    // JSON Lines records name their documents themselves.
    let jsonl = ok(&["clean", "-q", "--format", "jsonl", d]);
    assert!(!jsonl.contains("ncleaner document"), "{jsonl}");
    assert_eq!(jsonl.lines().count(), 2);
}

#[test]
fn warc_conversion_records_carry_the_pages_metadata() {
    let dir = tempdir();
    let page = dir.path().join("story.html");
    std::fs::write(
        &page,
        "<html lang=en><head><title>A Story</title>\
         <meta name=author content=\"Ann Writer\">\
         <meta property=\"article:published_time\" content=\"2025-03-04T10:00:00Z\">\
         <meta name=description content=\"What happened,\r\n in short.\">\
         <meta name=keywords content=\"bridges, rivers\">\
         <meta property=\"article:section\" content=\"Local news\"></head>\
         <body><p>The story has a sentence that is long enough to be kept by the cleaner, and more.</p></body></html>",
    )
    .unwrap();
    let out = dir.path().join("out.warc");
    ok(&[
        "clean",
        "-q",
        "-o",
        out.to_str().unwrap(),
        page.to_str().unwrap(),
    ]);
    let warc = std::fs::read_to_string(&out).unwrap();
    let conversion = &warc[warc
        .find("WARC-Type: conversion")
        .expect("a conversion record")..];
    let header = &conversion[..conversion.find("\r\n\r\n").unwrap()];
    for field in [
        "ncleaner-Title: A Story\r\n",
        "ncleaner-Author: Ann Writer\r\n",
        "ncleaner-Date-Published: 2025-03-04",
        // One line whatever the page wrote.
        "ncleaner-Description: What happened, in short.\r\n",
        // Tags and categories apart, as the record has them.
        "ncleaner-Tags: bridges, rivers\r\n",
        "ncleaner-Categories: Local news\r\n",
    ] {
        assert!(header.contains(field), "{field} missing in:\n{header}");
    }
    assert!(
        !header.contains("ncleaner-Site-Name"),
        "no field that nobody stated: {header}"
    );
}

#[test]
fn jsonl_carries_the_pages_metadata() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("moon.html");
    std::fs::write(
        &page,
        "<html lang=en><head><title>Moon pulls sea | The Tide</title>\
         <meta property=og:site_name content='The Tide'>\
         <meta property=article:published_time content='2025-03-04T10:00:00+01:00'>\
         <script type=application/ld+json>{\"@graph\":[{\"@type\":\"NewsArticle\",\
         \"author\":[{\"@type\":\"Person\",\"name\":\"Jane Doe\"},\"Bob Poe\"]}]}</script>\
         </head><body><p>The Moon pulls the sea twice a day. (c) 2019</p></body></html>",
    )
    .unwrap();
    let bare = dir.path().join("bare.html");
    std::fs::write(
        &bare,
        "<p>No metadata at all, only text. Copyright 2024.</p>",
    )
    .unwrap();
    let text = dir.path().join("t.txt");
    std::fs::write(&text, "Just some text.\n").unwrap();
    let out = ok(&[
        "clean",
        "-q",
        "-j",
        "1",
        "--format",
        "jsonl",
        page.to_str().unwrap(),
        bare.to_str().unwrap(),
    ]);
    let records: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let m = &records[0]["metadata"];
    assert_eq!(m["title"], "Moon pulls sea", "{m}");
    assert_eq!(m["authors"], serde_json::json!(["Jane Doe", "Bob Poe"]));
    assert_eq!(m["date_published"], "2025-03-04T10:00:00+01:00");
    assert_eq!(m["site_name"], "The Tide");
    assert_eq!(m["language"], "en");
    // Nothing stated: nulls and empty lists, never a guess (not the copyright year).
    let m = &records[1]["metadata"];
    for k in [
        "title",
        "date_published",
        "date_modified",
        "site_name",
        "canonical_url",
        "description",
    ] {
        assert!(m[k].is_null() && m.get(k).is_some(), "{k}: {m}");
    }
    assert_eq!(m["authors"], serde_json::json!([]));
    // The example page: its one h1, and the byline's name.
    let out = ok(&["clean", "-q", "--format", "jsonl", &example()]);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["metadata"]["title"], "Growing tomatoes on a balcony");
    assert_eq!(
        v["metadata"]["authors"],
        serde_json::json!(["Margaret Hill"])
    );
    // Text input: no metadata field.
    let out = ok(&[
        "clean",
        "-q",
        "--input",
        "text",
        "--format",
        "jsonl",
        text.to_str().unwrap(),
    ]);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert!(v.get("metadata").is_none(), "{v}");
}

/// The metadata completed from the decisions (the example page's date is
/// in the text of its byline alone, which the completion reads) reaches
/// every format that prints metadata; the formats that print none are
/// cleaned without the completion and write the same text.
#[test]
fn completed_metadata_reaches_the_formats_that_print_it() {
    let page = example();
    let v: serde_json::Value =
        serde_json::from_str(ok(&["clean", "-q", "--format", "jsonl", "--markdown", &page]).trim())
            .unwrap();
    assert_eq!(v["metadata"]["date_published"], "2007-05-14", "{v}");
    assert_eq!(
        v["metadata"]["authors"],
        serde_json::json!(["Margaret Hill"])
    );
    let dir = tempdir();
    let out = dir.path().join("page.warc");
    ok(&["clean", "-q", "-o", out.to_str().unwrap(), &page]);
    let warc = std::fs::read_to_string(&out).unwrap();
    assert!(
        warc.contains("ncleaner-Date-Published: 2007-05-14\r\n"),
        "{warc}"
    );
    let text = ok(&["clean", "-q", "--format", "text", &page]);
    assert_eq!(text, format!("{}\n", v["text"].as_str().unwrap()));
    let md = ok(&["clean", "-q", "--format", "markdown", &page]);
    assert_eq!(md, v["markdown"].as_str().unwrap());
}

#[test]
fn threshold_moves_the_decision() {
    let count = |t: &str| {
        ok(&[
            "clean",
            "--format",
            "cleaneval",
            "--threshold",
            t,
            &example(),
        ])
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
    assert_eq!(kept(&["--prefer", "f"]), default, "f is the default point");
    let (precise, recall) = (
        kept(&["--prefer", "precision"]),
        kept(&["--prefer", "recall"]),
    );
    assert!(precise <= recall, "{precise} > {recall}");
    assert_eq!(
        kept(&["--comments", "keep"]),
        default,
        "keep is the default"
    );
    assert!(kept(&["--comments", "drop"]) <= default);
    // --min-probability 0.5 is --threshold 0.
    assert_eq!(
        kept(&["--min-probability", "0.5"]),
        kept(&["--threshold", "0"])
    );
    for bad in [
        ["--min-probability", "1.5"].as_slice(),
        &["--min-probability", "0.5", "--threshold", "1"],
        &["--comments", "hide"],
        &["--prefer", "most"],
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
    let out = ok(&[
        "clean",
        "--format",
        "cleaneval",
        "--input",
        "text",
        dump.to_str().unwrap(),
    ]);
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

#[cfg_attr(
    not(feature = "shared-data"),
    ignore = "needs ../shared/data, Python, Java or Chromium: scripts/test runs it"
)]
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
        text.starts_with("ncleaner-model 4\nn 3\nq 0.5\nalphabet lexical\n")
            && text.contains("\nclassifier {"),
        "{}",
        &text[..200]
    );
    let a = ok(&["clean", "--model", model.to_str().unwrap(), &example()]);
    let b = ok(&["clean", "--model", text_model.to_str().unwrap(), &example()]);
    assert_eq!(a, b, "text and binary forms are the same model");
    assert!(a.contains("Tomatoes are among"));
}

#[cfg_attr(
    not(feature = "shared-data"),
    ignore = "needs ../shared/data, Python, Java or Chromium: scripts/test runs it"
)]
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
#[cfg_attr(
    not(feature = "shared-data"),
    ignore = "needs ../shared/data, Python, Java or Chromium: scripts/test runs it"
)]
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

/// The committed embedded `multi` model is what `scripts/build-models`
/// trains, byte for byte (run it after changing anything the training
/// depends on): DAnIEL's pages, one `--html`/`--gold` pair per language in
/// the script's order, tagged `zh,ru,pl,el`.
/// `multi` is trained by the code that trains `en` and `en-nonlex` (the
/// same features, aligned labels, classifier, trees and page-quality
/// models) in about two minutes; `en` takes about ten on two cores, which
/// was a third of CI's run, so `scripts/build-models --check` checks all
/// four models and this test the one that a change to the features or the
/// training changes as well. What it leaves to the script: the page-type classifier of `en`
/// and `en-nonlex` (DAnIEL's pages have no page types; the page-type tests
/// train one).
#[cfg_attr(
    not(feature = "shared-data"),
    ignore = "needs ../shared/data, Python, Java or Chromium: scripts/test runs it"
)]
#[test]
fn embedded_models_rebuild_bit_for_bit() {
    let data = shared_data();
    let dir = tempdir();
    let lang = std::fs::read_to_string(data.join("daniel/lang.tsv"))
        .expect("../shared/data/daniel/lang.tsv: the DAnIEL pages are missing");
    let mut args: Vec<String> = ["train", "--language", "zh,ru,pl,el"]
        .map(String::from)
        .to_vec();
    // Links named as the script names them: the provenance line the model
    // records reads `daniel/zh (257 pages)`.
    for l in ["en", "zh", "ru", "pl", "el"] {
        let html = dir.path().join("daniel").join(l);
        let gold = dir.path().join("gold").join(l);
        std::fs::create_dir_all(&html).unwrap();
        std::fs::create_dir_all(&gold).unwrap();
        for (id, _) in lang
            .lines()
            .filter_map(|line| line.split_once('\t'))
            .filter(|(_, pl)| *pl == l)
        {
            let page = format!("{id}.html.gz");
            let text = format!("{id}.txt");
            std::os::unix::fs::symlink(data.join("daniel/train").join(&page), html.join(&page))
                .unwrap();
            std::os::unix::fs::symlink(
                data.join("gold/daniel/train").join(&text),
                gold.join(&text),
            )
            .unwrap();
        }
        args.extend(["--html".into(), html.display().to_string()]);
        args.extend(["--gold".into(), gold.display().to_string()]);
    }
    let out = dir.path().join("multi.nclm");
    args.extend(["-o".into(), out.display().to_string()]);
    ok(&args.iter().map(String::as_str).collect::<Vec<_>>());
    let committed = std::fs::read(repo().join("crates/ncleaner/models/multi.nclm")).unwrap();
    assert!(
        std::fs::read(&out).unwrap() == committed,
        "crates/ncleaner/models/multi.nclm differs from what training gives now: run scripts/build-models"
    );
}

#[cfg_attr(
    not(feature = "shared-data"),
    ignore = "needs ../shared/data, Python, Java or Chromium: scripts/test runs it"
)]
#[test]
fn page_quality_is_predicted_and_filters_pages() {
    let data = shared_data();
    let dir = tempdir();
    let model = dir.path().join("m.nclm");
    let plain = dir.path().join("plain.nclm");
    let html = data.join("cleaneval/dev");
    let gold = data.join("gold/cleaneval/dev");
    let (h, g) = (html.to_str().unwrap(), gold.to_str().unwrap());
    ok(&[
        "train",
        "--html",
        h,
        "--gold",
        g,
        "-o",
        model.to_str().unwrap(),
    ]);
    ok(&[
        "train",
        "--no-page-quality",
        "--html",
        h,
        "--gold",
        g,
        "-o",
        plain.to_str().unwrap(),
    ]);
    let m = model.to_str().unwrap();
    // Every record carries a predicted precision and recall in [0, 1].
    let jsonl = ok(&["clean", "-q", "--model", m, "--format", "jsonl", h]);
    let records: Vec<serde_json::Value> = jsonl
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 58);
    let precisions: Vec<f64> = records
        .iter()
        .map(|r| {
            r["page_quality"]["precision"]
                .as_f64()
                .expect("a precision")
        })
        .collect();
    for r in &records {
        let q = &r["page_quality"];
        for k in ["precision", "recall"] {
            let v = q[k].as_f64().unwrap();
            assert!((0.0..=1.0).contains(&v), "{k} {v}");
        }
    }
    // The predictions differ between pages (not a constant).
    let (lo, hi) = precisions
        .iter()
        .fold((1.0f64, 0.0f64), |(a, b), &p| (a.min(p), b.max(p)));
    assert!(hi - lo > 0.05, "{lo} .. {hi}");

    // A least page quality between the extremes drops some pages, keeps their records.
    let median = {
        let mut p = precisions.clone();
        p.sort_by(f64::total_cmp);
        p[p.len() / 2]
    };
    let below = precisions.iter().filter(|&&p| p < median).count();
    let out = run(&[
        "clean",
        "--model",
        m,
        "--format",
        "jsonl",
        "--min-page-quality",
        &median.to_string(),
        h,
    ]);
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stdout.lines().count(), 58, "no document lost");
    let empty = stdout
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|r| r["text"] == "" && r["words_out"] == 0)
        .count();
    assert!(empty >= below && below > 0, "{empty} empty, {below} below");
    assert!(
        stderr.contains(&format!("{below} dropped below the least page quality")),
        "{stderr}"
    );

    // A model without a page-quality model says so.
    let out = run(&[
        "clean",
        "--model",
        plain.to_str().unwrap(),
        "--min-page-quality",
        "0.9",
        h,
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no page-quality model"), "{err}");
    let out = run(&["clean", "--min-page-quality", "1.5", h]);
    assert!(!out.status.success());
}

#[cfg_attr(
    not(feature = "shared-data"),
    ignore = "needs ../shared/data, Python, Java or Chromium: scripts/test runs it"
)]
#[test]
fn site_memory_lowers_segments_repeated_across_a_site() {
    let data = shared_data();
    let dir = tempdir();
    let model = dir.path().join("m.nclm");
    // cleaneval/train has a few hosts with several pages (dev has none): the
    // site features get their weights there.
    let html = data.join("cleaneval/train");
    let gold = data.join("gold/cleaneval/train");
    ok(&[
        "train",
        "--no-page-quality",
        "--html",
        html.to_str().unwrap(),
        "--gold",
        gold.to_str().unwrap(),
        "-o",
        model.to_str().unwrap(),
    ]);
    let m = model.to_str().unwrap();
    // Six pages of one site: the same sentence-like promo paragraph on each, an
    // article of its own on each.
    let repeated =
        "Our newsroom brings you the latest stories from around the region every single day.";
    let mut jsonl = String::new();
    for i in 0..6 {
        let article = format!(
            "<p>Story {i}: the council met on Tuesday and agreed, after a long debate about the harbour, to fund {} new benches along the promenade before the summer season begins.</p>",
            i + 2
        );
        let page = format!(
            "<html><body><div class=\"promo\"><p>{repeated}</p></div><article>{article}</article></body></html>"
        );
        jsonl.push_str(
            &serde_json::json!({"id": format!("p{i}"), "url": format!("http://news.example.org/story/{i}"), "html": page})
                .to_string(),
        );
        jsonl.push('\n');
    }
    let input = dir.path().join("site.jsonl");
    std::fs::write(&input, jsonl).unwrap();
    let input = input.to_str().unwrap();
    let prob = |extra: &[&str]| -> Vec<f64> {
        let mut a = vec![
            "clean",
            "-q",
            "--model",
            m,
            "--format",
            "jsonl",
            "--segments",
        ];
        a.extend_from_slice(extra);
        a.push(input);
        ok(&a)
            .lines()
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                let seg = v["segments"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|s| s["text"] == repeated)
                    .cloned()
                    .expect("the repeated segment");
                seg["probability"].as_f64().unwrap()
            })
            .collect()
    };
    let without = prob(&[]);
    let with = prob(&["--sites"]);
    assert_eq!(without.len(), 6);
    for (a, b) in without.iter().zip(&with) {
        assert!(b < a, "with the site memory {b}, without {a}");
    }
    // --site-memory saves the memory; a second run loads it and adds nothing
    // for pages it has seen, so the figures stay the same.
    let mem = dir.path().join("sites.mem");
    let mem_s = mem.to_str().unwrap();
    let first = prob(&["--site-memory", mem_s]);
    let bytes = std::fs::read(&mem).expect("the memory is saved");
    let second = prob(&["--site-memory", mem_s]);
    assert_eq!(first, with);
    assert_eq!(second, with);
    assert_eq!(std::fs::read(&mem).unwrap(), bytes);
    let frozen = prob(&["--site-memory", mem_s, "--no-site-pass"]);
    assert_eq!(frozen, with);
    // Standard input cannot be read twice.
    let out = run(&["clean", "--model", m, "--sites", "-"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("standard input"));
}

#[cfg(feature = "serve")]
#[test]
fn serve_help_lists_every_route() {
    let help = ok(&["serve", "--help"]);
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    let spec: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(repo().join("crates/ncleaner-serve/src/openapi.json")).unwrap(),
    )
    .unwrap();
    for (path, ops) in spec["paths"].as_object().unwrap() {
        for method in ops.as_object().unwrap().keys() {
            let route = format!("{} {path}", method.to_uppercase());
            assert!(help.contains(&route), "{route} missing from serve --help");
        }
    }
}

/// `clean -h` fits a screen (issue 38): one line per option at 100 columns,
/// and a pointer to `--help` and GUIDE.md. `--help` names every option `-h`
/// names, each with its full text, and the examples.
#[test]
fn clean_short_help_fits_a_screen_and_long_help_keeps_the_details() {
    let help = |flag: &str| {
        let out = bin()
            .args(["clean", flag])
            .env("COLUMNS", "100")
            .output()
            .unwrap();
        assert!(out.status.success(), "clean {flag} failed");
        String::from_utf8(out.stdout).unwrap()
    };
    let (short, long) = (help("-h"), help("--help"));
    assert!(
        short.lines().count() <= 45,
        "clean -h is {} lines:\n{short}",
        short.lines().count()
    );
    let last = short.lines().last().unwrap_or_default();
    assert!(
        last.contains("--help") && last.contains("GUIDE.md"),
        "{last}"
    );
    // Every option line of -h (`  -m, --model <MODEL>  ...`) names a long flag.
    let flags: Vec<&str> = short
        .lines()
        .filter(|l| l.trim_start().starts_with('-'))
        .filter_map(|l| l.split_whitespace().find(|w| w.starts_with("--")))
        .map(|w| w.trim_end_matches(','))
        .collect();
    assert!(flags.len() >= 25, "{flags:?}");
    for flag in &flags {
        assert!(long.contains(flag), "{flag} missing from clean --help");
    }
    // Only the long help has the details and the examples.
    for detail in ["carousel clones", "(0 ↔ p = 0.5", "Examples:"] {
        assert!(!short.contains(detail), "{detail} in clean -h");
        assert!(long.contains(detail), "{detail} missing from clean --help");
    }
}

/// `ncleaner --help` fits a screen: the user's commands first (the lab's
/// named on one line, each still there), examples, and the way to GUIDE.md.
#[test]
fn main_help_fits_a_screen_with_the_users_commands_first() {
    let out = bin().arg("--help").env("COLUMNS", "100").output().unwrap();
    assert!(out.status.success());
    let help = String::from_utf8(out.stdout).unwrap();
    assert!(
        help.lines().count() <= 30,
        "{} lines:\n{help}",
        help.lines().count()
    );
    let commands: Vec<&str> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    let users = if cfg!(feature = "serve") {
        vec!["clean", "serve", "strip", "perplexity", "help"]
    } else {
        vec!["clean", "strip", "perplexity", "help"]
    };
    assert_eq!(commands, users, "{help}");
    assert!(
        help.contains("Examples:\n  ncleaner clean page.html"),
        "{help}"
    );
    assert!(help.trim_end().ends_with("The guide: GUIDE.md."), "{help}");
    // The lab's commands: named, and each answers --help.
    let lab = [
        "train", "eval", "lm", "crossval", "tune", "curve", "heldout", "matrix", "pagetype",
    ];
    let named: Vec<&str> = help
        .lines()
        .skip_while(|l| !l.starts_with("Training and experiments"))
        .nth(1)
        .unwrap_or_default()
        .split(", ")
        .map(str::trim)
        .collect();
    if cfg!(feature = "lab") {
        assert_eq!(named, lab, "{help}");
        for c in lab {
            ok(&[c, "--help"]);
        }
    }
    // `clean --help` says what the default cut is, and names every kind of input.
    let clean = ok(&["clean", "--help"]);
    let clean = clean.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(!clean.contains("chosen for precision"), "{clean}");
    assert!(
        clean.contains("Default: the cut that --prefer chooses"),
        "{clean}"
    );
    for input in ["Parquet", "`page.html.gz`", "JSON Lines", "WARC"] {
        assert!(clean.contains(input), "{input} missing from clean --help");
    }
}

/// The default text is a page's main content (`--roles content`): the
/// comments under a post, which the model keeps, are left out of it, and
/// `--roles all` puts them back; `--segments` shows them dropped for
/// their role (issue 56).
#[test]
fn the_default_text_leaves_comments_out_and_roles_all_keeps_them() {
    let page = repo().join("crates/ncleaner-cli/tests/snapshots/pages/comments.html");
    let page = page.to_str().unwrap();
    let comment = "Worked for me, thanks.";
    let body = "Most dripping taps need a new washer";
    let default = ok(&["clean", "-q", page]);
    assert!(default.contains(body), "{default}");
    assert!(!default.contains(comment), "{default}");
    let all = ok(&["clean", "-q", "--roles", "all", page]);
    assert!(all.contains(body) && all.contains(comment), "{all}");
    let segments = ok(&["clean", "-q", "--segments", "--format", "jsonl", page]);
    let record: serde_json::Value = serde_json::from_str(segments.lines().next().unwrap()).unwrap();
    let seg = record["segments"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["text"].as_str().is_some_and(|t| t.starts_with(comment)))
        .expect("the comment is among the segments");
    assert_eq!(
        (
            seg["keep"].as_bool(),
            seg["reason"]["by"].as_str(),
            seg["role"].as_str()
        ),
        (Some(false), Some("role"), Some("comment")),
        "{seg}"
    );
}
