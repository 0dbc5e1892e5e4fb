//! Issue 70's probe of the crawl paths, one test per defect, through the
//! `ncleaner` binary: an output that cannot be made fails its document
//! alone (P1), every record of a JSON Lines or Parquet input gets an
//! output record (P3), WARC record ids are unique (P4), `-o` through links
//! and onto special files (P8), Parquet in every codec (P9), and the
//! smaller defects. The server's (P6, P7) are in `ncleaner-serve`'s tests.

mod common;

use std::path::Path;
use std::process::{Output, Stdio};

use common::{PAGE, json_lines, page, run_clean, stderr, tempdir};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `clean ARGS` with the file-size limit of the process set to `limit`
/// bytes (a write past it fails with "File too large", as one on a full
/// disk fails with "No space left on device"; SIGXFSZ ignored so that the
/// write fails rather than the process dies).
#[cfg(unix)]
fn clean_with_file_limit(args: &[&str], limit: u64) -> Output {
    use std::os::unix::process::CommandExt;
    let mut cmd = common::bin();
    cmd.arg("clean").args(args);
    // SAFETY: between fork and exec only async-signal-safe calls are made
    // (signal, setrlimit), on plain data.
    unsafe {
        cmd.pre_exec(move || {
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            let lim = libc::rlimit {
                rlim_cur: limit as libc::rlim_t,
                rlim_max: libc::RLIM_INFINITY,
            };
            if libc::setrlimit(libc::RLIMIT_FSIZE, &lim) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let out = cmd.output().unwrap();
    assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
    out
}

/// A page of about `bytes` bytes of prose, kept whole by keep-all.
fn long_page(marker: &str, bytes: usize) -> String {
    let para = "<p>A long paragraph of a long page that goes on and on about nothing.</p>";
    format!(
        "<html><body><p>{marker} starts here.</p>{}</body></html>",
        para.repeat(bytes / para.len() + 1)
    )
}

// ---- P1: one output that cannot be made fails alone; exit statuses ----

/// P1: an input named at the file system's limit (251 bytes: its output
/// `NAME.txt` fits, its temporary `.NAME.txt.partial` would not) is
/// written like the 200 pages beside it; and `in/sub.html` beside a
/// folder `in/sub.txt/` gives two outputs that do not collide.
#[cfg(unix)]
#[test]
fn p1_outputs_named_at_the_limit_and_beside_folders_are_written() {
    let dir = tempdir();
    let input = dir.path().join("in");
    std::fs::create_dir_all(input.join("sub.txt")).unwrap();
    for i in 0..200 {
        std::fs::write(input.join(format!("p{i:03}.html")), page(&format!("P{i}"))).unwrap();
    }
    let long = format!("{}.html", "n".repeat(246));
    assert_eq!(long.len(), 251);
    std::fs::write(input.join(&long), page("Long")).unwrap();
    std::fs::write(input.join("sub.html"), page("Sub")).unwrap();
    std::fs::write(input.join("sub.txt/inner.html"), page("Inner")).unwrap();
    let out = dir.path().join("out");
    let o = run_clean(&["-j", "2", "-o", &format!("{}/", s(&out)), s(&input)]);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{e}");
    assert!(e.contains("203 documents: 203 cleaned, 0 failed"), "{e}");
    let long_out = out.join(format!("{}.txt", "n".repeat(246)));
    assert!(
        std::fs::read_to_string(&long_out)
            .unwrap()
            .contains("Long is a page")
    );
    assert!(
        std::fs::read_to_string(out.join("sub.txt"))
            .unwrap()
            .contains("Sub is a page")
    );
    // The folder's page keeps its input root rather than go under a file.
    let inner = out.join("in/sub.txt/inner.txt");
    assert!(
        std::fs::read_to_string(&inner)
            .unwrap()
            .contains("Inner is a page"),
        "{e}"
    );
    assert_eq!(common::count_files(&out), 203);
}

/// P1: a document whose output cannot be made (a folder of the user's
/// stands where its file goes) fails alone, named, and the run goes on to
/// its summary with exit status 1; `--resume` runs to the end again
/// instead of dying at the same file.
#[cfg(unix)]
#[test]
fn p1_an_output_that_cannot_be_made_fails_its_document_alone() {
    let dir = tempdir();
    let input = dir.path().join("in");
    std::fs::create_dir_all(&input).unwrap();
    for i in 0..20 {
        std::fs::write(input.join(format!("p{i:02}.html")), page(&format!("P{i}"))).unwrap();
    }
    let out = dir.path().join("out");
    // A folder with a file in it where `p07.html`'s output goes.
    std::fs::create_dir_all(out.join("p07.txt")).unwrap();
    std::fs::write(out.join("p07.txt/keep.me"), "the user's").unwrap();
    for resume in [false, true] {
        let mut args = vec!["-j", "2", "-o", s(&out), s(&input)];
        if resume {
            args.insert(0, "--resume");
        }
        let o = run_clean(&args);
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "resume {resume}: {e}");
        assert!(
            e.contains("p07.html") && e.contains("its output could not be written"),
            "{e}"
        );
        assert!(e.contains("1 failed"), "{e}");
        assert!(e.contains("complete in"), "{e}");
        match resume {
            false => assert!(e.contains("1 of 20 documents failed"), "{e}"),
            // The 19 written are left out; the one that failed is tried again.
            true => assert!(
                e.contains("1 of 1 document failed") && e.contains("resumed: 19"),
                "{e}"
            ),
        }
        for i in (0..20).filter(|&i| i != 7) {
            let text = std::fs::read_to_string(out.join(format!("p{i:02}.txt"))).unwrap();
            assert!(text.contains(&format!("P{i} is a page")));
        }
        assert_eq!(
            std::fs::read_to_string(out.join("p07.txt/keep.me")).unwrap(),
            "the user's"
        );
        // No temporary file is left behind.
        let hidden = std::fs::read_dir(&out)
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .unwrap()
                    .file_name()
                    .to_string_lossy()
                    .ends_with(".partial")
            })
            .count();
        assert_eq!(hidden, 0);
    }
}

/// P1: a full disk under an output directory (here a file-size limit: a
/// write past it fails as one on a full disk does) fails the document
/// whose output does not fit, alone; the others are written.
#[cfg(unix)]
#[test]
fn p1_a_full_disk_fails_the_document_that_does_not_fit_alone() {
    let dir = tempdir();
    let input = dir.path().join("in");
    std::fs::create_dir_all(&input).unwrap();
    for i in 0..6 {
        std::fs::write(input.join(format!("p{i}.html")), page(&format!("P{i}"))).unwrap();
    }
    std::fs::write(input.join("p3.html"), long_page("Big", 400_000)).unwrap();
    let out = dir.path().join("out");
    let o = clean_with_file_limit(
        &[
            "-j",
            "1",
            "--method",
            "keep-all",
            "-o",
            &format!("{}/", s(&out)),
            s(&input),
        ],
        64 << 10,
    );
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(
        e.contains("p3.html") && e.contains("its output could not be written"),
        "{e}"
    );
    assert!(e.contains("6 documents: 5 cleaned, 1 failed"), "{e}");
    for i in [0, 1, 2, 4, 5] {
        assert!(out.join(format!("p{i}.txt")).exists(), "{e}");
    }
    assert!(!out.join("p3.txt").exists());
    assert!(!out.join(".p3.txt.partial").exists());
}

/// P1: the one output file of `-o FILE` that cannot be written any further
/// (a full disk) stops the run early: a summary marked INCOMPLETE, what was
/// written under its temporary name, exit status 3 (not 1, a finished run
/// with failures); `--resume` with room on the disk completes it.
#[cfg(unix)]
#[test]
fn p1_a_full_disk_stops_a_single_output_early_and_resume_completes_it() {
    let dir = tempdir();
    let input = dir.path().join("in.jsonl");
    let mut lines = String::new();
    for i in 0..40 {
        let doc = serde_json::json!({"id": format!("d{i}"), "html": long_page(&format!("Doc{i}"), 20_000)});
        lines.push_str(&format!("{doc}\n"));
    }
    std::fs::write(&input, lines).unwrap();
    let out = dir.path().join("out.jsonl");
    let o = clean_with_file_limit(
        &["-j", "1", "--method", "keep-all", "-o", s(&out), s(&input)],
        200 << 10,
    );
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(3), "{e}");
    assert!(
        e.contains("INCOMPLETE") && e.contains("could not be written"),
        "{e}"
    );
    assert!(e.contains("--resume"), "{e}");
    assert!(e.contains("File too large"), "{e}");
    assert!(!out.exists());
    let partial = dir.path().join(".out.jsonl.partial");
    assert!(partial.exists(), "{e}");
    let o = run_clean(&[
        "--resume",
        "-j",
        "1",
        "--method",
        "keep-all",
        "-o",
        s(&out),
        s(&input),
    ]);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{e}");
    let records = json_lines(&out);
    let ids: Vec<&str> = records.iter().map(|r| r["id"].as_str().unwrap()).collect();
    let want: Vec<String> = (0..40).map(|i| format!("d{i}")).collect();
    assert_eq!(ids, want.iter().map(String::as_str).collect::<Vec<_>>());
}

/// P1: the exit statuses, as `--help` lists them: 0 all cleaned, 1 complete
/// with failed documents, 2 refused before anything was written.
#[test]
fn p1_exit_statuses_tell_refused_from_failed_runs() {
    let dir = tempdir();
    let page_file = dir.path().join("a.html");
    std::fs::write(&page_file, PAGE).unwrap();
    let missing = dir.path().join("missing.html");
    assert_eq!(run_clean(&["-q", s(&page_file)]).status.code(), Some(0));
    let o = run_clean(&["-q", s(&page_file), s(&missing)]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    // An output over its input is refused before any work.
    let o = run_clean(&["-q", "-o", s(&page_file), s(&page_file)]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(!stderr(&o).contains("exit status"), "{}", stderr(&o));
    let help = common::ok(&["clean", "--help"]);
    for words in ["Exit status", "3 stopped early", "2 refused"] {
        assert!(help.contains(words), "{help}");
    }
}

/// `clean | head`: the reader closing standard output ends the run
/// quietly, with exit status 0, as it ends `cat`.
#[cfg(unix)]
#[test]
fn a_closed_standard_output_ends_the_run_quietly() {
    let dir = tempdir();
    let input = dir.path().join("in");
    std::fs::create_dir(&input).unwrap();
    for i in 0..400 {
        std::fs::write(input.join(format!("p{i:03}.html")), page(&format!("P{i}"))).unwrap();
    }
    let mut child = common::bin()
        .args(["clean", "-j", "1", s(&input)])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = child.stdout.take().unwrap();
    let mut first = [0u8; 64];
    std::io::Read::read_exact(&mut out, &mut first).unwrap();
    drop(out);
    let o = child.wait_with_output().unwrap();
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{e}");
    assert!(!e.contains("Broken pipe") && !e.contains("panicked"), "{e}");
}

// ---- P3: every record of a JSON Lines or Parquet input gets an output record ----

/// Bytes stored in a JSON string one character per byte (Latin-1), as
/// scripts store binary cells.
fn latin1(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| b as char).collect()
}

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10\0\0\0\x10\x08\x06\0\0\0\x1f\xf3\xffa";

/// P3: four JSON lines in, four records out: the PNG and the line of
/// control bytes are records marked `skipped` with the reason and their
/// id, in JSON Lines and in Parquet; `--resume` over the complete output
/// finds every record in its place.
#[test]
fn p3_records_judged_not_documents_get_skipped_records() {
    let dir = tempdir();
    let input = dir.path().join("in.jsonl");
    let controls = format!(
        "{} and then some words",
        "\u{1}\u{2}\u{3}\u{4}\u{5}\u{6}".repeat(40)
    );
    let lines = [
        serde_json::json!({"id": "a", "html": page("A")}),
        serde_json::json!({"id": "png", "url": "http://x/logo.png", "html": latin1(PNG)}),
        serde_json::json!({"id": "ctl", "text": controls}),
        serde_json::json!({"id": "b", "html": page("B")}),
    ];
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(&input, text).unwrap();
    let out = dir.path().join("out.jsonl");
    let o = run_clean(&["-o", s(&out), s(&input)]);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{e}");
    let records = json_lines(&out);
    let ids: Vec<&str> = records.iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["a", "png", "ctl", "b"], "{records:?}");
    assert!(
        records[1]["skipped"]
            .as_str()
            .unwrap()
            .starts_with("not a document"),
        "{records:?}"
    );
    assert_eq!(records[1]["url"], "http://x/logo.png");
    assert!(
        records[2]["skipped"]
            .as_str()
            .unwrap()
            .starts_with("not a document")
    );
    assert!(records[0].get("skipped").is_none() && records[0]["text"].is_string());
    // A resumed run over the complete output matches all four records.
    let before = std::fs::read(&out).unwrap();
    let o = run_clean(&["--resume", "-o", s(&out), s(&input)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("4 documents already in the output"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read(&out).unwrap(), before);
    #[cfg(feature = "parquet")]
    {
        use arrow_array::Array;
        use arrow_array::cast::AsArray;
        let pq = dir.path().join("out.parquet");
        let o = run_clean(&["-o", s(&pq), s(&input)]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let f = std::fs::File::open(&pq).unwrap();
        let batches: Vec<_> =
            parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(f)
                .unwrap()
                .build()
                .unwrap()
                .map(Result::unwrap)
                .collect();
        let b = arrow_select_concat(&batches);
        let ids = b.column_by_name("id").unwrap().as_string::<i32>();
        let skipped = b.column_by_name("skipped").unwrap().as_string::<i32>();
        assert_eq!(b.num_rows(), 4);
        assert_eq!(ids.value(1), "png");
        assert!(skipped.value(1).starts_with("not a document"));
        assert!(skipped.value(2).starts_with("not a document"));
        assert!(skipped.is_null(0) && skipped.is_null(3));
    }
}

#[cfg(feature = "parquet")]
fn arrow_select_concat(batches: &[arrow_array::RecordBatch]) -> arrow_array::RecordBatch {
    assert_eq!(batches.len(), 1, "one batch of a small file");
    batches[0].clone()
}

// ---- P4: record ids unique per record, and the WARC writer's fields ----

/// P4: JSON lines that share an id (per-shard row numbers) get distinct
/// `WARC-Record-ID`s, resources and conversions alike; a line without a
/// URL gets no `WARC-Target-URI` (its id, which names a file here, is
/// never looked up as a path).
#[test]
fn p4_warc_record_ids_are_unique_per_record() {
    let dir = tempdir();
    let named = dir.path().join("0");
    std::fs::write(&named, "a file named like the id").unwrap();
    let input = dir.path().join("shard.jsonl");
    let lines: String = (0..3)
        .map(|i| {
            format!(
                "{}\n",
                serde_json::json!({"id": 0, "html": page(&format!("Row{i}"))})
            )
        })
        .collect();
    std::fs::write(&input, lines).unwrap();
    let out = dir.path().join("out.warc");
    let o = common::bin()
        .current_dir(dir.path())
        .args(["clean", "-q", "-o", s(&out), s(&input)])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let warc = String::from_utf8_lossy(&std::fs::read(&out).unwrap()).into_owned();
    let ids: Vec<&str> = warc
        .lines()
        .filter_map(|l| l.strip_prefix("WARC-Record-ID: "))
        .collect();
    assert_eq!(ids.len(), 6, "{warc}");
    let unique: std::collections::HashSet<&&str> = ids.iter().collect();
    assert_eq!(unique.len(), 6, "{ids:?}");
    assert!(!warc.contains("WARC-Target-URI"), "{warc}");
    assert!(!warc.contains("file://"), "{warc}");
}

/// A WARC record of the standard's own form.
fn warc_record(version: &str, fields: &str, block: &[u8]) -> Vec<u8> {
    let mut v = format!(
        "{version}\r\n{fields}Content-Length: {}\r\n\r\n",
        block.len()
    )
    .into_bytes();
    v.extend_from_slice(block);
    v.extend_from_slice(b"\r\n\r\n");
    v
}

/// WARC output: a conversion record has a `WARC-Date` even when its
/// response has none (the run's date), is of its input's WARC version
/// (1.1 in, 1.1 out), and writes its URI percent-encoded; a resource
/// record (JSON Lines in) writes its URL so too.
#[test]
fn warc_conversions_are_dated_versioned_and_their_uris_encoded() {
    let dir = tempdir();
    let http = format!("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n{PAGE}");
    let input = dir.path().join("in.warc");
    std::fs::write(
        &input,
        warc_record(
            "WARC/1.1",
            "WARC-Type: response\r\nWARC-Record-ID: <urn:uuid:0000-1>\r\n\
             WARC-Target-URI: http://example.org/a page/café?q=\"x\"\r\n\
             Content-Type: application/http; msgtype=response\r\n",
            http.as_bytes(),
        ),
    )
    .unwrap();
    let out = dir.path().join("out.warc");
    let o = run_clean(&["-q", "-o", s(&out), s(&input)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let warc = String::from_utf8_lossy(&std::fs::read(&out).unwrap()).into_owned();
    let conversion = &warc[warc.find("WARC-Type: conversion").expect("a conversion")..];
    let head = &warc[..warc.find("WARC-Type: conversion").unwrap()];
    assert!(head.ends_with("WARC/1.1\r\n"), "{warc}");
    assert!(conversion.contains("\r\nWARC-Date: 2"), "{conversion}");
    assert!(
        conversion.contains("WARC-Target-URI: http://example.org/a%20page/caf%C3%A9?q=%22x%22\r\n"),
        "{conversion}"
    );
    let jsonl = dir.path().join("in.jsonl");
    let line = serde_json::json!({"id": "x", "url": "http://example.org/b c/ü", "html": PAGE});
    std::fs::write(&jsonl, format!("{line}\n")).unwrap();
    let out = dir.path().join("out2.warc");
    let o = run_clean(&["-q", "-o", s(&out), s(&jsonl)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let warc = String::from_utf8_lossy(&std::fs::read(&out).unwrap()).into_owned();
    assert_eq!(
        warc.matches("WARC-Target-URI: http://example.org/b%20c/%C3%BC\r\n")
            .count(),
        2,
        "{warc}"
    );
}

/// Makes a FIFO at `path` (the system's `mkfifo`).
#[cfg(unix)]
fn mkfifo(path: &Path) {
    let made = std::process::Command::new("mkfifo").arg(path).status();
    assert!(made.unwrap().success(), "mkfifo {}", path.display());
}

// ---- P8: -o onto special files, through links, onto folders ----

/// P8: `-o` naming an existing FIFO is refused with a clear message, and
/// the FIFO stays a FIFO.
#[cfg(unix)]
#[test]
fn p8_an_output_onto_a_fifo_is_refused() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tempdir();
    let page_file = dir.path().join("a.html");
    std::fs::write(&page_file, PAGE).unwrap();
    let fifo = dir.path().join("out.jsonl");
    mkfifo(&fifo);
    let o = run_clean(&["-o", s(&fifo), s(&page_file)]);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(e.contains("FIFO") && e.contains("> "), "{e}");
    assert!(
        std::fs::symlink_metadata(&fifo)
            .unwrap()
            .file_type()
            .is_fifo()
    );
    // A device is no output file either.
    let o = run_clean(&["-o", "/dev/null", s(&page_file)]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        std::fs::metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device()
    );
}

/// P8: `-o` through a symbolic link writes the link's target, and the
/// link stays a link; a link to a file not made yet makes it.
#[cfg(unix)]
#[test]
fn p8_an_output_through_a_link_writes_its_target() {
    let dir = tempdir();
    let page_file = dir.path().join("a.html");
    std::fs::write(&page_file, PAGE).unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir(&data).unwrap();
    for exists in [true, false] {
        let target = data.join(format!("target-{exists}.jsonl"));
        if exists {
            std::fs::write(&target, "old\n").unwrap();
        }
        let link = dir.path().join(format!("link-{exists}.jsonl"));
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let o = run_clean(&["-q", "-o", s(&link), s(&page_file)]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        let records = json_lines(&target);
        assert_eq!(records.len(), 1);
        assert!(
            records[0]["text"]
                .as_str()
                .unwrap()
                .contains("This is a page")
        );
    }
}

/// `-o X.jsonl` that is a folder is refused (the name says a file); `-o
/// X.jsonl/` writes into the folder.
#[test]
fn an_output_file_name_that_is_a_folder_is_refused() {
    let dir = tempdir();
    let page_file = dir.path().join("a.html");
    std::fs::write(&page_file, PAGE).unwrap();
    let folder = dir.path().join("X.jsonl");
    std::fs::create_dir(&folder).unwrap();
    let o = run_clean(&["-q", "-o", s(&folder), s(&page_file)]);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(
        e.contains("a folder of that name exists") && e.contains("X.jsonl/"),
        "{e}"
    );
    assert_eq!(std::fs::read_dir(&folder).unwrap().count(), 0);
    let o = run_clean(&[
        "-q",
        "--format",
        "jsonl",
        "-o",
        &format!("{}/", s(&folder)),
        s(&page_file),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(json_lines(&folder.join("a.jsonl")).len(), 1);
}

// ---- P9: Parquet in every codec, null-typed columns, binary URLs ----

/// P9: a Parquet file in each codec the format has is read; a `text` or
/// `id` column of the null type is read as absent; a binary `url` is read.
#[cfg(feature = "parquet")]
#[test]
fn p9_parquet_in_every_codec_with_null_and_binary_columns() {
    use arrow_array::{ArrayRef, BinaryArray, NullArray, RecordBatch, StringArray};
    use arrow_schema::{Field, Schema};
    use parquet::basic::{BrotliLevel, Compression, GzipLevel, ZstdLevel};
    use std::sync::Arc;
    let dir = tempdir();
    let write = |path: &Path, codec: Compression, columns: Vec<(&str, ArrayRef)>| {
        let schema = Arc::new(Schema::new(
            columns
                .iter()
                .map(|(n, a)| Field::new(*n, a.data_type().clone(), true))
                .collect::<Vec<_>>(),
        ));
        let batch =
            RecordBatch::try_new(schema.clone(), columns.into_iter().map(|c| c.1).collect())
                .unwrap();
        let props = parquet::file::properties::WriterProperties::builder()
            .set_compression(codec)
            .build();
        let f = std::fs::File::create(path).unwrap();
        let mut w = parquet::arrow::ArrowWriter::try_new(f, schema, Some(props)).unwrap();
        w.write(&batch).unwrap();
        w.close().unwrap();
    };
    let codecs = [
        ("snappy", Compression::SNAPPY),
        ("gzip", Compression::GZIP(GzipLevel::default())),
        ("brotli", Compression::BROTLI(BrotliLevel::default())),
        ("lz4", Compression::LZ4),
        ("lz4_raw", Compression::LZ4_RAW),
        ("zstd", Compression::ZSTD(ZstdLevel::default())),
    ];
    for (name, codec) in codecs {
        let path = dir.path().join(format!("{name}.parquet"));
        write(
            &path,
            codec,
            vec![
                (
                    "id",
                    Arc::new(StringArray::from(vec![format!("{name}-1")])) as ArrayRef,
                ),
                ("html", Arc::new(StringArray::from(vec![page(name)]))),
            ],
        );
        let out = dir.path().join(format!("{name}.jsonl"));
        let o = run_clean(&["-q", "-o", s(&out), s(&path)]);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        let records = json_lines(&out);
        assert_eq!(records[0]["id"], format!("{name}-1"));
        assert!(
            records[0]["text"]
                .as_str()
                .unwrap()
                .contains(&format!("{name} is a page"))
        );
    }
    // `text` and `id` of the null type, a binary `url`.
    let path = dir.path().join("nulls.parquet");
    write(
        &path,
        Compression::SNAPPY,
        vec![
            ("id", Arc::new(NullArray::new(2)) as ArrayRef),
            (
                "html",
                Arc::new(StringArray::from(vec![page("N0"), page("N1")])),
            ),
            ("text", Arc::new(NullArray::new(2))),
            (
                "url",
                Arc::new(BinaryArray::from_vec(vec![b"http://x/0", b"http://x/1"])),
            ),
        ],
    );
    let out = dir.path().join("nulls.jsonl");
    let o = run_clean(&["-q", "-o", s(&out), s(&path)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let records = json_lines(&out);
    assert_eq!(records.len(), 2);
    assert_eq!(records[1]["id"], format!("{}#1", s(&path)));
    assert_eq!(records[1]["url"], "http://x/1");
    assert!(
        records[1]["text"]
            .as_str()
            .unwrap()
            .contains("N1 is a page")
    );
}

// ---- The smaller defects ----

/// `--site-memory` is saved with the permissions of any file the user
/// makes: 0666 less the umask, not 0600.
#[cfg(unix)]
#[test]
fn the_site_memory_follows_the_umask() {
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::process::CommandExt;
    let dir = tempdir();
    let page_file = dir.path().join("a.html");
    std::fs::write(&page_file, PAGE).unwrap();
    for (umask, mode) in [(0o022, 0o644), (0o077, 0o600)] {
        let memory = dir.path().join(format!("sites-{umask:o}.mem"));
        let mut cmd = common::bin();
        cmd.args(["clean", "-q", "--site-memory", s(&memory), s(&page_file)])
            .stdout(Stdio::null());
        // SAFETY: umask is async-signal-safe and takes plain data.
        unsafe {
            cmd.pre_exec(move || {
                libc::umask(umask);
                Ok(())
            });
        }
        let o = cmd.output().unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        let got = std::fs::metadata(&memory).unwrap().permissions().mode() & 0o777;
        assert_eq!(got, mode, "umask {umask:o}");
    }
}

/// `clean /dev/zero`: a device past the limit is said to hold more than
/// the limit, not to be "0 bytes".
#[cfg(target_os = "linux")]
#[test]
fn a_device_past_the_limit_says_more_than_the_limit() {
    let o = run_clean(&["/dev/zero"]);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(e.contains("more than 67108864 bytes"), "{e}");
    assert!(!e.contains(" 0 bytes"), "{e}");
}

/// Two file names that are not UTF-8 and differ only in the byte that is
/// not get two ids (`\xNN`), not one.
#[cfg(target_os = "linux")]
#[test]
fn names_that_are_not_utf8_keep_distinct_ids() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempdir();
    let input = dir.path().join("in");
    std::fs::create_dir(&input).unwrap();
    for (b, marker) in [(0xe9u8, "E9"), (0xe8u8, "E8")] {
        let name = [b"page-".as_slice(), &[b], b".html"].concat();
        let path = input.join(std::ffi::OsStr::from_bytes(&name));
        std::fs::write(path, page(marker)).unwrap();
    }
    let out = dir.path().join("out.jsonl");
    let o = run_clean(&["-q", "-o", s(&out), s(&input)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let ids: Vec<String> = json_lines(&out)
        .iter()
        .map(|r| r["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(ids.len(), 2);
    assert_ne!(ids[0], ids[1]);
    assert!(
        ids[0].ends_with("page-\\xE8.html") && ids[1].ends_with("page-\\xE9.html"),
        "{ids:?}"
    );
}

/// A symbolic link in a folder to a file that blocks on read (a FIFO no
/// one writes) is skipped, named, and does not stall the walk.
#[cfg(unix)]
#[test]
fn a_link_to_a_fifo_does_not_stall_the_walk() {
    let dir = tempdir();
    let input = dir.path().join("in");
    std::fs::create_dir(&input).unwrap();
    std::fs::write(input.join("a.html"), page("A")).unwrap();
    std::fs::write(input.join("z.html"), page("Z")).unwrap();
    let fifo = dir.path().join("pipe");
    mkfifo(&fifo);
    std::os::unix::fs::symlink(&fifo, input.join("m.html")).unwrap();
    let out = dir.path().join("out.jsonl");
    let mut child = common::bin()
        .args(["clean", "-j", "2", "-o", s(&out), s(&input)])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break Some(st);
        }
        if start.elapsed() > std::time::Duration::from_secs(60) {
            break None;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    if status.is_none() {
        // Unblock the reader so that the test ends, then fail.
        let _ = std::fs::OpenOptions::new().write(true).open(&fifo);
        let _ = child.kill();
        panic!("the walk stalled on the link to a FIFO");
    }
    let o = child.wait_with_output().unwrap();
    let e = stderr(&o);
    assert!(e.contains("m.html") && e.contains("FIFO"), "{e}");
    assert_eq!(json_lines(&out).len(), 2, "{e}");
}
