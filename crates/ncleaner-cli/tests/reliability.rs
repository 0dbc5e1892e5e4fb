//! `ncleaner clean` on the inputs a real file system and real crawls hold:
//! non-ASCII names, files compressed by `gzip`, binary files, symlink loops,
//! FIFOs, unreadable folders, WARC records with lying lengths, colliding
//! output paths. Every readable document comes out once, every problem is
//! named, and the run never panics or hangs.

mod common;

use std::path::Path;
use std::process::Output;

use common::{bin, json_lines, run_clean, tempdir};

const PAGE: &str = "<html><head><title>A page</title></head><body>\
    <p>This is a page with a paragraph of ordinary prose that a reader would \
    want to keep, long enough to be kept by every cleaning method.</p>\
    <p>A second paragraph follows with more words about nothing at all, \
    written only to be read back by the test.</p></body></html>";

#[test]
fn non_ascii_file_names() {
    let dir = tempdir();
    let d = dir.path().join("in");
    std::fs::create_dir(&d).unwrap();
    let names = ["café.htm", "résumé.html", "日本.html", "naïve.txt"];
    for n in names {
        std::fs::write(d.join(n), PAGE).unwrap();
    }
    let out = dir.path().join("out.jsonl");
    let o = run_clean(&[
        "-q",
        "--method",
        "keep-all",
        "-o",
        out.to_str().unwrap(),
        d.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let lines = json_lines(&out);
    assert_eq!(lines.len(), names.len());
    for n in names {
        assert!(
            lines
                .iter()
                .any(|l| l["id"].as_str().unwrap().ends_with(n) && l.get("text").is_some()),
            "{n}: {lines:?}"
        );
    }
    // And to a directory: one file each, named after the input.
    let outdir = dir.path().join("outdir");
    let o = run_clean(&[
        "-q",
        "-o",
        &format!("{}/", outdir.display()),
        d.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for n in ["café.txt", "résumé.txt", "日本.txt", "naïve.txt"] {
        assert!(outdir.join(n).is_file(), "{n}");
    }
}

/// `data` as one gzip member whose header carries the optional fields the
/// `gzip` command writes (FNAME; here FEXTRA and FCOMMENT too when `all`).
fn gzip_with_header_fields(data: &[u8], all: bool) -> Vec<u8> {
    let m = ncleaner_corpus::compress::gzip_member(data, 6);
    let mut out = m[..10].to_vec();
    out[3] = if all { 0x04 | 0x08 | 0x10 } else { 0x08 };
    if all {
        out.extend_from_slice(&[3, 0, b'a', b'b', b'c']);
    }
    out.extend_from_slice(b"page.html\0");
    if all {
        out.extend_from_slice(b"a comment\0");
    }
    out.extend_from_slice(&m[10..]);
    out
}

#[test]
fn compressed_pages_are_read_decompressed_and_liars_fail() {
    let dir = tempdir();
    let d = dir.path().join("in");
    std::fs::create_dir(&d).unwrap();
    std::fs::write(
        d.join("a.html.gz"),
        gzip_with_header_fields(PAGE.as_bytes(), false),
    )
    .unwrap();
    std::fs::write(
        d.join("b.html.gz"),
        gzip_with_header_fields(PAGE.as_bytes(), true),
    )
    .unwrap();
    // Two members, as `cat x.gz y.gz` makes.
    let half = PAGE.len() / 2;
    let mut two = gzip_with_header_fields(&PAGE.as_bytes()[..half], false);
    two.extend(gzip_with_header_fields(&PAGE.as_bytes()[half..], true));
    std::fs::write(d.join("c.html.gz"), two).unwrap();
    // A zstd page, and a page without a compression suffix that is gzip.
    let zst = dir.path().join("z.html");
    std::fs::write(&zst, PAGE).unwrap();
    let ok = std::process::Command::new("zstd")
        .args(["-q", "-f", zst.to_str().unwrap(), "-o"])
        .arg(d.join("d.html.zst"))
        .status()
        .is_ok_and(|s| s.success());
    std::fs::write(
        d.join("e.html"),
        gzip_with_header_fields(PAGE.as_bytes(), false),
    )
    .unwrap();
    // Liars: a .gz that is plain text; a .zst that is gzip.
    std::fs::write(d.join("f.html.gz"), PAGE).unwrap();
    std::fs::write(
        d.join("g.html.zst"),
        gzip_with_header_fields(PAGE.as_bytes(), false),
    )
    .unwrap();
    let out = dir.path().join("out.jsonl");
    let o = run_clean(&[
        "--method",
        "keep-all",
        "-o",
        out.to_str().unwrap(),
        d.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "the liars fail the run: {stderr}");
    let lines = json_lines(&out);
    let by = |n: &str| {
        lines
            .iter()
            .find(|l| l["id"].as_str().unwrap().ends_with(n))
            .unwrap_or_else(|| panic!("no record for {n}: {lines:?}"))
    };
    let mut good = vec!["a.html.gz", "b.html.gz", "c.html.gz", "e.html"];
    if ok {
        good.push("d.html.zst");
    }
    for n in good {
        let text = by(n)["text"]
            .as_str()
            .unwrap_or_else(|| panic!("{n}: {:?}", by(n)));
        assert!(text.contains("ordinary prose"), "{n}: {text:?}");
        assert!(text.contains("read back by the test"), "{n}: {text:?}");
    }
    for n in ["f.html.gz", "g.html.zst"] {
        assert!(by(n).get("error").is_some(), "{n}: {:?}", by(n));
        assert!(stderr.contains(n), "{stderr}");
    }
}

#[test]
fn binary_and_code_files_are_skipped_with_a_reason() {
    let dir = tempdir();
    let d = dir.path().join("site");
    std::fs::create_dir(&d).unwrap();
    std::fs::write(d.join("index.html"), PAGE).unwrap();
    let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    png.extend(b"some text chunk words words words words ".repeat(200));
    std::fs::write(d.join("logo.png"), png).unwrap();
    std::fs::write(
        d.join("style.css"),
        "body { color: red; }\np { margin: 0 }\n".repeat(50),
    )
    .unwrap();
    std::fs::write(
        d.join("app.js"),
        "function hello(words) { return words.map(w => w + ' is a word'); }\n".repeat(50),
    )
    .unwrap();
    let mut elf = b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0".to_vec();
    elf.extend(b"GLIBC_2.2.5 main printf puts libc.so.6 the quick brown fox ".repeat(300));
    std::fs::write(d.join("tool"), elf).unwrap();
    let out = dir.path().join("out.jsonl");
    let o = run_clean(&["-o", out.to_str().unwrap(), d.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 1, "only the page is a document: {lines:?}");
    assert!(lines[0]["id"].as_str().unwrap().ends_with("index.html"));
    assert!(stderr.contains("4 skipped"), "{stderr}");
    assert!(stderr.contains("ncleaner: complete in "), "{stderr}");
    for why in [
        "PNG image",
        "CSS stylesheet",
        "JavaScript",
        "ELF executable",
    ] {
        assert!(stderr.contains(why), "{why}: {stderr}");
    }
    // --input text forces them through.
    let o = run_clean(&[
        "-q",
        "--input",
        "text",
        "-o",
        out.to_str().unwrap(),
        d.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    assert_eq!(json_lines(&out).len(), 5);
}

/// Runs `ncleaner clean ARGS`, killing it (and failing) after `secs`.
#[cfg(unix)]
fn clean_within(secs: u64, args: &[&str]) -> Output {
    let mut child = bin()
        .arg("clean")
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("running ncleaner");
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed().as_secs() > secs {
            child.kill().unwrap();
            panic!("ncleaner clean {args:?} hangs");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

#[cfg(unix)]
#[test]
fn folder_walk_survives_loops_fifos_and_unreadable_folders() {
    use std::os::unix::fs::{PermissionsExt, symlink};
    let dir = tempdir();
    let d = dir.path().join("site");
    std::fs::create_dir_all(d.join("a/b")).unwrap();
    std::fs::write(d.join("a/b/page.html"), PAGE).unwrap();
    std::fs::write(d.join("top.html"), PAGE).unwrap();
    symlink(&d, d.join("a/b/loop-to-root")).unwrap();
    symlink(d.join("a"), d.join("a/b/loop-to-a")).unwrap();
    assert!(
        std::process::Command::new("mkfifo")
            .arg(d.join("a/pipe.html"))
            .status()
            .unwrap()
            .success()
    );
    std::fs::create_dir(d.join("locked")).unwrap();
    std::fs::write(d.join("locked/hidden.html"), PAGE).unwrap();
    std::fs::set_permissions(d.join("locked"), std::fs::Permissions::from_mode(0o000)).unwrap();
    let root = std::fs::read_dir(d.join("locked")).is_ok();
    let out = dir.path().join("out.jsonl");
    let o = clean_within(60, &["-o", out.to_str().unwrap(), d.to_str().unwrap()]);
    std::fs::set_permissions(d.join("locked"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    let lines = json_lines(&out);
    let texts = lines.iter().filter(|l| l.get("text").is_some()).count();
    assert_eq!(
        texts,
        if root { 3 } else { 2 },
        "every page once: {lines:?}"
    );
    for what in ["loop-to-root", "loop-to-a", "pipe.html", "FIFO"] {
        assert!(stderr.contains(what), "{what}: {stderr}");
    }
    assert_eq!(stderr.matches("loop-to-root").count(), 1, "{stderr}");
    if !root {
        assert!(stderr.contains("locked"), "{stderr}");
    }
}

#[test]
fn outputs_are_never_overwritten() {
    let dir = tempdir();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    for (d, word) in [(&a, "alpha"), (&b, "bravo")] {
        std::fs::create_dir(d).unwrap();
        std::fs::write(
            d.join("page.html"),
            PAGE.replace("ordinary prose", &format!("ordinary prose {word}")),
        )
        .unwrap();
    }
    std::fs::write(
        a.join("page.htm"),
        PAGE.replace("ordinary prose", "ordinary prose charlie"),
    )
    .unwrap();
    let coll = dir.path().join("coll");
    let o = run_clean(&[
        "--method",
        "keep-all",
        "-o",
        &format!("{}/", coll.display()),
        a.to_str().unwrap(),
        b.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let mut texts = Vec::new();
    for e in walk(&coll) {
        texts.push(std::fs::read_to_string(e).unwrap());
    }
    assert_eq!(texts.len(), 3, "three inputs, three outputs: {texts:?}");
    for word in ["alpha", "bravo", "charlie"] {
        assert_eq!(
            texts.iter().filter(|t| t.contains(word)).count(),
            1,
            "{word}"
        );
    }
}

fn walk(d: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(d).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

/// SIGINT and SIGTERM: what was read is finished and written, the output
/// stays under its temporary name (never the final one: it is incomplete),
/// the summary says the run is incomplete and where its output is, and the
/// exit status is 128 + the signal — even while the reader waits on a pipe
/// that never ends.
#[cfg(unix)]
#[test]
fn signals_finish_what_was_read_and_exit_130_or_143() {
    use std::io::Write;
    for (sig, code) in [("-INT", 130), ("-TERM", 143)] {
        let dir = tempdir();
        let out = dir.path().join("out.jsonl");
        let mut child = bin()
            .args(["clean", "-j", "1", "--method", "keep-all", "-o"])
            .arg(&out)
            .arg("-")
            .stdin(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        for i in 0..200 {
            let line = serde_json::json!({"id": format!("d{i}"), "html": PAGE});
            writeln!(stdin, "{line}").unwrap();
        }
        stdin.flush().unwrap();
        // The temporary file exists while the run goes on; the final one not.
        let start = std::time::Instant::now();
        let partial = dir.path().join(".out.jsonl.partial");
        while !partial.exists() {
            assert!(start.elapsed().as_secs() < 30, "no temporary output");
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        assert!(!out.exists());
        std::thread::sleep(std::time::Duration::from_secs(3));
        let pid = child.id().to_string();
        assert!(
            std::process::Command::new("kill")
                .args([sig, &pid])
                .status()
                .unwrap()
                .success()
        );
        let start = std::time::Instant::now();
        while child.try_wait().unwrap().is_none() {
            if start.elapsed().as_secs() > 30 {
                child.kill().unwrap();
                panic!("{sig}: the run did not stop");
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        drop(stdin);
        let o = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(code), "{sig}: {stderr}");
        assert!(stderr.contains("INCOMPLETE"), "{stderr}");
        assert!(stderr.contains(" s;"), "elapsed time: {stderr}");
        assert!(
            !out.exists() && partial.exists(),
            "left under its temporary name"
        );
        assert!(stderr.contains(".out.jsonl.partial"), "{stderr}");
        let lines = json_lines(&partial);
        assert!(
            lines.len() >= 64,
            "the whole batches read were written: {}",
            lines.len()
        );
        assert!(
            stderr.contains(&format!("{} documents:", lines.len())),
            "{stderr}"
        );
    }
}

#[test]
fn resume_continues_into_the_same_output() {
    let dir = tempdir();
    let d = dir.path().join("in");
    std::fs::create_dir(&d).unwrap();
    for n in ["a.html", "b.html"] {
        std::fs::write(d.join(n), PAGE).unwrap();
    }
    let out = dir.path().join("out.jsonl");
    let outdir = dir.path().join("outdir");
    let outdir_arg = format!("{}/", outdir.display());
    for o in [out.to_str().unwrap(), outdir_arg.as_str()] {
        let r = run_clean(&["-q", "--method", "keep-all", "-o", o, d.to_str().unwrap()]);
        assert!(r.status.success());
    }
    // As if the run had been interrupted before c.html.
    std::fs::write(d.join("c.html"), PAGE).unwrap();
    let before = std::fs::metadata(outdir.join("a.txt"))
        .unwrap()
        .modified()
        .unwrap();
    for o in [out.to_str().unwrap(), outdir_arg.as_str()] {
        let r = run_clean(&[
            "--resume",
            "--method",
            "keep-all",
            "-o",
            o,
            d.to_str().unwrap(),
        ]);
        let stderr = String::from_utf8_lossy(&r.stderr);
        assert!(r.status.success(), "{stderr}");
        assert!(stderr.contains("1 document:"), "{stderr}");
        assert!(stderr.contains("resumed: 2 documents"), "{stderr}");
    }
    let lines = json_lines(&out);
    let mut ids: Vec<&str> = lines.iter().map(|l| l["id"].as_str().unwrap()).collect();
    ids.sort();
    assert_eq!(ids.len(), 3, "{ids:?}");
    for (id, n) in ids.iter().zip(["a.html", "b.html", "c.html"]) {
        assert!(id.ends_with(n), "{ids:?}");
    }
    assert!(outdir.join("c.txt").is_file());
    let after = std::fs::metadata(outdir.join("a.txt"))
        .unwrap()
        .modified()
        .unwrap();
    assert_eq!(before, after, "a.txt was not written again");
}
