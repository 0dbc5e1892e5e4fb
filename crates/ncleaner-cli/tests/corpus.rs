//! `ncleaner clean` over corpora: WARC and JSON Lines in and out, input
//! order, every document accounted for, and hostile inputs that must give a
//! per-document error or a result — never a panic, a hang or a lost document.

mod common;

use std::io::Write;
use std::path::Path;

use common::{json_lines, repo, run_clean, shared_data, tempdir};
use ncleaner_corpus::compress::gzip_member;
use ncleaner_corpus::warc;

/// A WARC `response` record of an HTML page (with its HTTP header).
/// No charset in the header: the page's own `<meta>` or statistics decide, as
/// for a bare file.
fn response(id: &str, uri: &str, html: &[u8]) -> Vec<u8> {
    let mut block = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\n\r\n",
        html.len()
    )
    .into_bytes();
    block.extend_from_slice(html);
    raw_record("response", id, uri, &block, block.len())
}

/// A WARC record whose `Content-Length` says `length` (which may lie).
fn raw_record(kind: &str, id: &str, uri: &str, block: &[u8], length: usize) -> Vec<u8> {
    let mut v = format!(
        "WARC/1.0\r\nWARC-Type: {kind}\r\nWARC-Record-ID: <urn:uuid:{id}>\r\nWARC-Target-URI: {uri}\r\nWARC-Date: 2024-01-01T00:00:00Z\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: {length}\r\n\r\n"
    )
    .into_bytes();
    v.extend_from_slice(block);
    v.extend_from_slice(b"\r\n\r\n");
    v
}

/// The pages of `cleaneval/dev` (sorted by name) as (name, bytes).
fn dev_pages() -> Vec<(String, Vec<u8>)> {
    let dir = shared_data().join("cleaneval/dev");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .expect("cleaneval/dev")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.is_file())
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&p).expect("page"),
            )
        })
        .collect()
}

/// A gzip-per-record WARC of the dev pages, each with a request record
/// before its response; returns the number of responses.
fn write_dev_warc(path: &Path) -> usize {
    let pages = dev_pages();
    let mut f = std::fs::File::create(path).unwrap();
    f.write_all(&gzip_member(
        &raw_record("warcinfo", "info", "", b"software: test\r\n", 16),
        6,
    ))
    .unwrap();
    for (i, (name, html)) in pages.iter().enumerate() {
        let uri = format!("http://example.org/{name}");
        let req = format!("GET /{name} HTTP/1.1\r\n\r\n");
        f.write_all(&gzip_member(
            &raw_record("request", &format!("q{i}"), &uri, req.as_bytes(), req.len()),
            6,
        ))
        .unwrap();
        f.write_all(&gzip_member(&response(&format!("r{i}"), &uri, html), 6))
            .unwrap();
    }
    pages.len()
}

#[cfg_attr(
    not(feature = "shared-data"),
    ignore = "needs ../shared/data, Python, Java or Chromium: scripts/test runs it"
)]
#[test]
fn warc_gz_in_jsonl_out_in_input_order_on_several_threads() {
    let dir = tempdir();
    let warc_path = dir.path().join("dev.warc.gz");
    let n = write_dev_warc(&warc_path);
    let mut runs = Vec::new();
    for jobs in ["1", "4"] {
        let out = dir.path().join(format!("out{jobs}.jsonl"));
        let o = run_clean(&[
            "-j",
            jobs,
            "-o",
            out.to_str().unwrap(),
            warc_path.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(
            stderr.contains(&format!(
                "{n} documents: {n} cleaned, 0 failed, {} skipped",
                n + 1
            )),
            "summary: {stderr}"
        );
        let lines = json_lines(&out);
        assert_eq!(lines.len(), n);
        let pages = dev_pages();
        for (i, (line, (name, _))) in lines.iter().zip(&pages).enumerate() {
            assert_eq!(line["id"], format!("<urn:uuid:r{i}>"));
            assert_eq!(line["url"], format!("http://example.org/{name}"));
        }
        runs.push(std::fs::read(&out).unwrap());
    }
    assert_eq!(runs[0], runs[1], "-j 1 and -j 4 write the same bytes");
    // The same pages with the same URLs as JSON Lines give the same text,
    // page by page (the URL is an input: the page type reads its shape).
    let pages_in = dir.path().join("pages-in.jsonl");
    let mut jsonl = String::new();
    for (name, bytes) in dev_pages() {
        let record = serde_json::json!({
            "url": format!("http://example.org/{name}"),
            // Decoded as the WARC's records are (their HTTP header names no charset).
            "html": ncleaner::decode::decode(&bytes, None, None).text,
        });
        jsonl.push_str(&record.to_string());
        jsonl.push('\n');
    }
    std::fs::write(&pages_in, jsonl).unwrap();
    let pages_out = dir.path().join("pages.jsonl");
    let o = run_clean(&[
        "-o",
        pages_out.to_str().unwrap(),
        pages_in.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    let from_files = json_lines(&pages_out);
    let from_warc = json_lines(&dir.path().join("out1.jsonl"));
    let same = from_files
        .iter()
        .zip(&from_warc)
        .filter(|(a, b)| a["text"] == b["text"])
        .count();
    // A few pages may still differ (a record's bytes and the decoded text
    // are read by different paths); the rest must agree exactly.
    assert!(same + 5 >= n, "only {same} of {n} pages agree");
}

#[cfg_attr(
    not(feature = "shared-data"),
    ignore = "needs ../shared/data, Python, Java or Chromium: scripts/test runs it"
)]
#[test]
fn warc_out_passes_records_through_and_adds_conversions() {
    let dir = tempdir();
    let warc_path = dir.path().join("dev.warc.gz");
    let n = write_dev_warc(&warc_path);
    let out = dir.path().join("out.warc.gz");
    let o = run_clean(&["-o", out.to_str().unwrap(), warc_path.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let data = ncleaner_corpus::sink::read_output(&out).expect("read output");
    let records: Vec<_> = warc::Reader::new(&data[..], 1 << 26)
        .map(|r| r.expect("a whole record"))
        .collect();
    let input = ncleaner_corpus::sink::read_output(&warc_path).unwrap();
    let originals: Vec<_> = warc::Reader::new(&input[..], 1 << 26)
        .map(|r| r.unwrap())
        .collect();
    let passed: Vec<_> = records
        .iter()
        .filter(|r| r.record_type() != Some("conversion"))
        .collect();
    assert_eq!(passed.len(), originals.len());
    for (a, b) in passed.iter().zip(&originals) {
        assert_eq!(a.header, b.header);
        assert_eq!(a.block, b.block);
    }
    let conversions: Vec<_> = records
        .iter()
        .enumerate()
        .filter(|(_, r)| r.record_type() == Some("conversion"))
        .collect();
    assert_eq!(conversions.len(), n);
    for (i, c) in conversions {
        let prev = &records[i - 1];
        assert_eq!(prev.record_type(), Some("response"));
        assert_eq!(c.get("WARC-Refers-To"), prev.id());
        assert_eq!(c.get("Content-Type"), Some("text/plain"));
        assert!(std::str::from_utf8(&c.block).is_ok());
    }
}

#[cfg_attr(
    not(feature = "shared-data"),
    ignore = "needs ../shared/data, Python, Java or Chromium: scripts/test runs it"
)]
#[test]
fn jsonl_in_with_broken_lines_loses_nothing() {
    let dir = tempdir();
    let input = dir.path().join("in.jsonl");
    std::fs::write(
        &input,
        concat!(
            "{\"id\":\"a\",\"url\":\"http://a/\",\"html\":\"<p>The first page has a long enough sentence of words.</p>\"}\n",
            "this is not json\n",
            "{\"id\":\"c\",\"text\":\"A plain text document.\\nWith two lines of text in it.\"}\n",
            "{\"id\":\"d\",\"html\":\n",
            "\n",
            "{\"id\":\"e\",\"url\":\"http://e/\"}\n",
            "{\"id\":\"f\",\"html\":\"<p>no end of line at the end of the file</p>\"}",
        ),
    )
    .unwrap();
    let out = dir.path().join("out.jsonl");
    let o = run_clean(&["-o", out.to_str().unwrap(), input.to_str().unwrap()]);
    // Failed documents make the exit status non-zero, after writing all others.
    assert!(!o.status.success());
    let lines = json_lines(&out);
    let ids: Vec<_> = lines
        .iter()
        .map(|l| l["id"].as_str().unwrap_or("").to_string())
        .collect();
    assert_eq!(lines.len(), 6, "{ids:?}");
    assert_eq!(ids[0], "a");
    assert!(lines[1].get("error").is_some());
    assert_eq!(ids[2], "c");
    assert!(lines[3].get("error").is_some());
    assert!(
        lines[4].get("error").is_some(),
        "a record without html or text"
    );
    assert_eq!(ids[5], "f");
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("6 documents: 3 cleaned, 3 failed"),
        "{stderr}"
    );
}

/// Hostile inputs: each is a file; the number of output records must equal
/// the number of documents each input holds.
#[cfg_attr(
    not(feature = "shared-data"),
    ignore = "needs ../shared/data, Python, Java or Chromium: scripts/test runs it"
)]
#[test]
fn hostile_inputs_give_a_record_per_document_and_never_panic() {
    let dir = tempdir();
    let d = dir.path();
    let mut expected = 0usize;
    let mut add = |name: &str, bytes: Vec<u8>, docs: usize| {
        std::fs::write(d.join(name), bytes).unwrap();
        expected += docs;
    };
    add("empty.html", Vec::new(), 1);
    // Bytes of every value, pseudo-random.
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let binary: Vec<u8> = (0..200_000)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect();
    // Random bytes are not a document: skipped and counted under their
    // reason (issue 35, D14), never cleaned into a record.
    add("binary.bin", binary.clone(), 0);
    // 50 MB in one page: under the default document limit, so it is cleaned.
    let mut big = b"<html><body>".to_vec();
    while big.len() < 50 << 20 {
        big.extend_from_slice(b"<p>A sentence of a very long page, repeated many times.</p>\n");
    }
    add("huge.html", big, 1);
    let mut nested = String::from("<html><body>");
    nested.push_str(&"<div>".repeat(100_000));
    nested.push_str("<p>Deep inside a hundred thousand elements there is a sentence.</p>");
    nested.push_str(&"</div>".repeat(100_000));
    add("nested.html", nested.into_bytes(), 1);
    // UTF-8, Latin-1 and invalid sequences in one page.
    let mut mixed = "<html><head><meta charset=\"utf-8\"></head><body><p>Café naïve — "
        .as_bytes()
        .to_vec();
    mixed.extend_from_slice(b"caf\xe9 \xff\xfe\xc3 \xed\xa0\x80 end.</p></body></html>");
    add("mixed.html", mixed, 1);
    add(
        "utf16.html",
        {
            let mut v = vec![0xff, 0xfe];
            for u in "<p>Sixteen-bit text of a page with a sentence.</p>".encode_utf16() {
                v.extend_from_slice(&u.to_le_bytes());
            }
            v
        },
        1,
    );
    // A gzip-compressed page cut in half.
    let member = gzip_member(
        b"<html><body><p>A compressed page with some words in it.</p></body></html>",
        6,
    );
    add("cut.html.gz", member[..member.len() / 2].to_vec(), 1);
    // A WARC.gz cut inside its third record: two whole responses, one cut.
    let mut w = Vec::new();
    for i in 0..3 {
        w.extend(gzip_member(
            &response(
                &format!("t{i}"),
                "http://t/",
                format!("<p>Page {i} of a truncated file, with words.</p>").as_bytes(),
            ),
            6,
        ));
    }
    let cut = w.len() - 20;
    add("truncated.warc.gz", w[..cut].to_vec(), 3);
    // A WARC whose second record's Content-Length lies (too long by 300
    // bytes, running into the third), then one too short.
    let mut lying = response(
        "l0",
        "http://l/0",
        b"<p>The first record is fine and has words.</p>",
    );
    let html1 = b"<p>The second record says it is longer than it is.</p>";
    let block1 = {
        let mut b = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n".to_vec();
        b.extend_from_slice(html1);
        b
    };
    lying.extend(raw_record(
        "response",
        "l1",
        "http://l/1",
        &block1,
        block1.len() + 300,
    ));
    lying.extend(response(
        "l2",
        "http://l/2",
        b"<p>The third record follows the liar and is fine.</p>",
    ));
    lying.extend(raw_record(
        "response",
        "l3",
        "http://l/3",
        &block1,
        block1.len() - 10,
    ));
    lying.extend(response(
        "l4",
        "http://l/4",
        b"<p>The fifth record comes after a short one.</p>",
    ));
    add("lying.warc", lying, 5);
    // A WARC of nothing but junk: one error.
    add(
        "junk.warc",
        b"this is not a WARC file at all\n".repeat(100),
        1,
    );
    add("empty.warc.gz", Vec::new(), 0);
    add(
        "broken.jsonl",
        b"{\"id\":1}\n{not json\n\xff\xfe\n{\"id\":\"x\",\"html\":\"<p>ok</p>\"}\n".to_vec(),
        4,
    );

    // The whole path (models included), then keep-all to check what was read.
    let outdir = tempdir();
    for method in ["ncleaner", "keep-all"] {
        let out = outdir.path().join(format!("out-{method}.jsonl"));
        let o = run_clean(&[
            "-j",
            "2",
            "--method",
            method,
            "-o",
            out.to_str().unwrap(),
            d.to_str().unwrap(),
        ]);
        let stderr = String::from_utf8_lossy(&o.stderr);
        let lines = json_lines(&out);
        assert_eq!(
            lines.len(),
            expected,
            "{method}: records out ≠ documents in; stderr: {stderr}"
        );
        let failed = lines.iter().filter(|l| l.get("error").is_some()).count();
        assert!(
            stderr.contains(&format!("{expected} documents:")),
            "{stderr}"
        );
        assert!(stderr.contains(&format!("{failed} failed")), "{stderr}");
        let by_id = |id: &str| {
            lines
                .iter()
                .find(|l| l["id"].as_str().is_some_and(|s| s.ends_with(id)))
                .unwrap_or_else(|| panic!("no record for {id}: {lines:?}"))
        };
        let ok = |id: &str| by_id(id).get("text").is_some();
        let text = |id: &str| by_id(id)["text"].as_str().unwrap_or("").to_string();
        assert!(ok("huge.html"));
        assert!(ok("nested.html") && ok("mixed.html") && ok("utf16.html"));
        assert!(
            !lines
                .iter()
                .any(|l| l["id"].as_str().is_some_and(|s| s.ends_with("binary.bin"))),
            "random bytes give no record"
        );
        assert!(
            stderr.contains("1 skipped (not documents)") && stderr.contains("binary data"),
            "{stderr}"
        );
        if method == "keep-all" {
            // 50 MB of one-sentence paragraphs is past the 200,000 blocks a
            // document may hold (issue 35, D8): cleaned on what was read, and
            // the record says so.
            assert!(text("huge.html").len() > 5 << 20);
            assert!(
                by_id("huge.html")["truncated"].is_string(),
                "{:?}",
                by_id("huge.html").get("truncated")
            );
            assert!(text("nested.html").contains("Deep inside"));
            assert!(text("mixed.html").contains("Café"));
            assert!(text("utf16.html").contains("Sixteen-bit"));
        }
        assert!(ok("<urn:uuid:t0>") && ok("<urn:uuid:t1>"));
        assert!(!ok("<urn:uuid:t2>"), "the cut record fails");
        assert!(ok("<urn:uuid:l0>"));
        assert!(!ok("<urn:uuid:l1>"), "the liar fails");
        assert!(ok("<urn:uuid:l2>"), "the record after a liar");
        assert!(!ok("<urn:uuid:l3>"), "the short one fails");
        assert!(ok("<urn:uuid:l4>"), "the record after a short one");
    }
}

#[cfg_attr(
    not(feature = "shared-data"),
    ignore = "needs ../shared/data, Python, Java or Chromium: scripts/test runs it"
)]
#[test]
fn zstd_and_gzip_outputs_and_format_by_name() {
    let dir = tempdir();
    let page = shared_data().join("cleaneval/dev");
    let plain = dir.path().join("o.jsonl");
    let gz = dir.path().join("o.jsonl.gz");
    let zst = dir.path().join("o.jsonl.zst");
    for p in [&plain, &gz, &zst] {
        assert!(
            run_clean(&["-q", "-o", p.to_str().unwrap(), page.to_str().unwrap()])
                .status
                .success()
        );
    }
    let a = std::fs::read(&plain).unwrap();
    assert!(a.starts_with(b"{\""), "a .jsonl name asks for JSON Lines");
    assert_eq!(ncleaner_corpus::sink::read_output(&gz).unwrap(), a);
    assert_eq!(ncleaner_corpus::sink::read_output(&zst).unwrap(), a);
    assert_ne!(std::fs::read(&gz).unwrap(), a);
    // -q: nothing on standard error.
    let o = run_clean(&["-q", "-o", plain.to_str().unwrap(), page.to_str().unwrap()]);
    assert!(o.stderr.is_empty());
}

#[test]
fn missing_input_is_named() {
    let o = run_clean(&["/nonexistent/page.html"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("/nonexistent/page.html"));
}

/// README: "one record per input document, an `error` in it when a
/// document fails". A missing file among the inputs is one: it gets its
/// record in its place, the others are cleaned, and the exit status says
/// that one failed.
#[test]
fn a_missing_input_among_others_gets_its_record() {
    let dir = tempdir();
    let page = repo().join("examples/page.html");
    let page = page.to_str().unwrap();
    let missing = dir.path().join("no-such-page.html");
    let missing = missing.to_str().unwrap();
    let out = dir.path().join("out.jsonl");
    let o = run_clean(&["-o", out.to_str().unwrap(), page, missing, page]);
    assert_eq!(o.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.contains(missing), "{stderr}");
    assert!(stderr.contains("1 of 3 documents failed"), "{stderr}");
    let records = json_lines(&out);
    assert_eq!(records.len(), 3, "{records:?}");
    assert!(records[0]["text"].as_str().unwrap().contains("Tomatoes"));
    assert_eq!(records[1]["id"], missing);
    let error = records[1]["error"].as_str().unwrap();
    assert!(error.contains("no-such-page.html"), "{error}");
    assert_eq!(records[2]["text"], records[0]["text"]);
}

/// `-o` into folders that do not exist makes them, and says so (unless -q).
#[test]
fn an_output_in_new_folders_is_named_on_stderr() {
    let dir = tempdir();
    let page = repo().join("examples/page.html");
    let page = page.to_str().unwrap();
    let out = dir.path().join("new/sub/out.jsonl");
    let o = run_clean(&["-o", out.to_str().unwrap(), page]);
    assert!(o.status.success());
    let stderr = String::from_utf8_lossy(&o.stderr);
    let made = dir.path().join("new/sub");
    assert!(
        stderr.contains(&format!("making the folders {}", made.display())),
        "{stderr}"
    );
    assert_eq!(json_lines(&out).len(), 1);
    // An existing folder: no note; a new output folder: its name.
    let again = run_clean(&["-o", out.to_str().unwrap(), page]);
    assert!(!String::from_utf8_lossy(&again.stderr).contains("making"));
    let folder = dir.path().join("texts");
    let o = run_clean(&["-o", &format!("{}/", folder.display()), page]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains(&format!("making the folder {}", folder.display())),
        "{stderr}"
    );
    assert!(
        run_clean(&[
            "-q",
            "-o",
            dir.path().join("q/o.txt").to_str().unwrap(),
            page
        ])
        .stderr
        .is_empty()
    );
}

/// A crawl's many files, read several at once (one reader per file up to
/// `-j`), give the bytes one reader gives: the same records in input order,
/// file by file, with the same failures (a WARC.gz cut short, a broken JSON
/// line) and the same messages in the same order.
#[test]
fn many_files_give_the_same_output_on_one_thread_and_four() {
    let dir = tempdir();
    let page = |i: usize| {
        format!(
            "<html><head><title>Page {i}</title></head><body><ul><li>Home</li><li>News</li></ul>\
             <p>Page {i} holds a paragraph of ordinary prose, long enough to be kept, about \
             the {i}th thing a crawl found.</p></body></html>"
        )
    };
    let warc = |from: usize, n: usize| -> Vec<u8> {
        (from..from + n)
            .flat_map(|i| {
                gzip_member(
                    &response(
                        &format!("r{i}"),
                        &format!("http://e.org/{i}"),
                        page(i).as_bytes(),
                    ),
                    6,
                )
            })
            .collect()
    };
    let jsonl = |from: usize, n: usize| -> String {
        (from..from + n)
            .map(|i| match i % 40 {
                3 => "{\"id\": not json\n".to_string(),
                _ => format!(
                    "{}\n",
                    serde_json::json!({"id": format!("j{i}"), "html": page(i)})
                ),
            })
            .collect()
    };
    let mut cut = warc(3000, 30);
    cut.truncate(cut.len() - 50);
    let files: Vec<(&str, Vec<u8>)> = vec![
        ("0.warc.gz", warc(0, 200)),
        ("1.jsonl", jsonl(1000, 150).into_bytes()),
        ("2.warc.gz", cut),
        ("3.jsonl.gz", gzip_member(jsonl(4000, 120).as_bytes(), 6)),
        ("4.html", page(5000).into_bytes()),
        ("5.warc.gz", warc(6000, 70)),
    ];
    let mut inputs = Vec::new();
    for (name, bytes) in &files {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        inputs.push(path.to_str().unwrap().to_string());
    }
    for (format, ext) in [("jsonl", "jsonl"), ("text", "txt")] {
        let mut runs = Vec::new();
        for jobs in ["1", "4"] {
            let out = dir.path().join(format!("out-{jobs}.{ext}"));
            let mut args = vec!["-j", jobs, "--format", format, "-o", out.to_str().unwrap()];
            args.extend(inputs.iter().map(String::as_str));
            let o = run_clean(&args);
            let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
            assert!(
                stderr.contains("2.warc.gz") && stderr.contains("1.jsonl:"),
                "{stderr}"
            );
            // The failures' messages, in input order (the summary's timing left out).
            let failures: Vec<String> = stderr
                .lines()
                .filter(|l| !l.contains("complete in") && !l.contains("MB/s"))
                .map(str::to_string)
                .collect();
            assert!(failures.len() >= 9, "{stderr}");
            runs.push((std::fs::read(&out).unwrap(), failures));
        }
        assert_eq!(
            runs[0].0, runs[1].0,
            "{format}: -j 1 and -j 4 write the same bytes"
        );
        assert_eq!(runs[0].1, runs[1].1, "{format}: the same messages");
        if format == "jsonl" {
            let lines = json_lines(&dir.path().join("out-1.jsonl"));
            let ids: Vec<&str> = lines.iter().filter_map(|l| l["id"].as_str()).collect();
            // Every file's records, in input order, the broken ones among them.
            let at = |id: &str| ids.iter().position(|x| *x == id).unwrap_or(usize::MAX);
            assert!(at("<urn:uuid:r199>") < at("j1000") && at("j1149") < at("<urn:uuid:r3000>"));
            assert!(
                at("j4119") < at("<urn:uuid:r6000>") && at("<urn:uuid:r6069>") == ids.len() - 1
            );
            assert!(lines.iter().any(|l| l.get("error").is_some()));
        }
    }
}
