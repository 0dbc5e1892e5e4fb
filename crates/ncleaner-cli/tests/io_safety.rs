//! Issue 52's defects of outputs, inputs and files, one test each, through
//! the `ncleaner` binary: an interrupted output never under its final name
//! (Parquet included), one run per output, outputs that never reach an
//! input through a link, the site memory never written over an output,
//! Parquet read in bounded memory, and JSON Lines, WARC and the text stream
//! read and written as a demanding user expects.

mod common;

use std::io::Write;
use std::path::Path;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use common::{PAGE, json_lines, page, run_clean, stderr, tempdir};

/// `n` JSON lines `{"id": "dI", "html": …}`.
fn jsonl_docs(n: usize) -> String {
    (0..n)
        .map(|i| {
            format!(
                "{}\n",
                serde_json::json!({"id": format!("d{i}"), "html": page(&format!("Doc{i}"))})
            )
        })
        .collect()
}

/// `clean -j 1 --method keep-all -o OUT ARGS… -` with standard input piped,
/// `lines` written to it and left open (the run waits for more).
fn start_on_stdin(out: &Path, args: &[&str], lines: &str) -> (Child, std::process::ChildStdin) {
    let mut child = common::bin()
        .args(["clean", "-j", "1", "--method", "keep-all", "-o"])
        .arg(out)
        .args(args)
        .arg("-")
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(lines.as_bytes()).unwrap();
    stdin.flush().unwrap();
    (child, stdin)
}

/// Waits until `path` exists (30 s at most).
fn wait_for(path: &Path) {
    let started = Instant::now();
    while !path.exists() {
        assert!(
            started.elapsed().as_secs() < 30,
            "{} never appeared",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Waits until the lock file `path` names its holder (30 s at most).
fn wait_for_holder(path: &Path) {
    let started = Instant::now();
    while !std::fs::read_to_string(path).is_ok_and(|s| s.starts_with("pid ")) {
        assert!(
            started.elapsed().as_secs() < 30,
            "{} never named its holder",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[cfg(unix)]
fn sigterm(child: &Child) {
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
}

/// The ids of a Parquet output, in order.
#[cfg(feature = "parquet")]
fn parquet_ids(path: &Path) -> Vec<String> {
    let f = std::fs::File::open(path).unwrap();
    let reader = ncleaner_corpus::parquet::Reader::open(f, 64 << 20)
        .unwrap_or_else(|e| panic!("{}: not a readable Parquet file: {e}", path.display()));
    reader
        .map(|r| match r {
            Ok(d) => d.id.unwrap_or_default(),
            Err(e) => e.id.unwrap_or_default(),
        })
        .collect()
}

// ---- 1: an interrupted Parquet output stays under its temporary name ----

/// Issue 52, 1: SIGTERM leaves a Parquet output under `.NAME.partial`
/// (readable: its footer written), never under its final name, the
/// message says so truly, and `--resume` completes it to what one whole
/// run writes.
#[cfg(all(unix, feature = "parquet"))]
#[test]
fn an_interrupted_parquet_output_is_partial_and_resumes() {
    let dir = tempdir();
    let lines = jsonl_docs(300);
    let out = dir.path().join("out.parquet");
    let partial = dir.path().join(".out.parquet.partial");
    let (child, stdin) = start_on_stdin(&out, &[], &lines);
    wait_for(&partial);
    std::thread::sleep(Duration::from_millis(1500));
    sigterm(&child);
    let o = child.wait_with_output().unwrap();
    drop(stdin);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(143), "{e}");
    assert!(
        !out.exists(),
        "an interrupted Parquet output under its final name: {e}"
    );
    assert!(partial.exists(), "{e}");
    let kept = parquet_ids(&partial);
    assert!(!kept.is_empty() && kept.len() <= 300, "{}", kept.len());
    assert!(
        e.contains(".out.parquet.partial") && e.contains("--resume"),
        "{e}"
    );

    let (child, stdin) = start_on_stdin(&out, &["--resume"], &lines);
    drop(stdin);
    let o = child.wait_with_output().unwrap();
    let e = stderr(&o);
    assert!(o.status.success(), "{e}");
    assert!(
        e.contains(&format!("resumed: {} documents", kept.len())),
        "{e}"
    );
    let ids = parquet_ids(&out);
    assert_eq!(ids.len(), 300);
    assert!(ids.iter().enumerate().all(|(i, id)| *id == format!("d{i}")));
    assert!(!partial.exists());
}

/// Issue 52, 1: the message of an interrupted run says what `--resume`
/// does for its output: a text output cannot be continued, and the message
/// does not say it can.
#[cfg(unix)]
#[test]
fn an_interrupted_text_output_does_not_promise_resume() {
    let dir = tempdir();
    let out = dir.path().join("out.txt");
    let (child, stdin) = start_on_stdin(&out, &[], &jsonl_docs(100));
    wait_for(&dir.path().join(".out.txt.partial"));
    std::thread::sleep(Duration::from_millis(1500));
    sigterm(&child);
    let o = child.wait_with_output().unwrap();
    drop(stdin);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(143), "{e}");
    assert!(!out.exists(), "{e}");
    assert!(!e.contains("--resume completes"), "{e}");
    assert!(e.contains("cannot continue"), "{e}");
}

// ---- 2: one run per output ----

/// Issue 52, 2: a second run on the output of a run still going is
/// refused, naming the other run; the first completes with all its records.
#[cfg(unix)]
#[test]
fn a_second_run_on_the_same_output_is_refused() {
    for name in ["same.jsonl", "same.parquet", "outdir"] {
        if name.ends_with(".parquet") && !cfg!(feature = "parquet") {
            continue;
        }
        let dir = tempdir();
        let out = dir.path().join(name);
        let lines = jsonl_docs(160);
        let half = lines.len() / 2;
        let (first, mut stdin) = start_on_stdin(&out, &[], &lines[..half]);
        // The first run holds the lock and has written its id there (a
        // directory output opens its first file only once documents come).
        let lock = match name {
            "outdir" => out.join(".ncleaner.lock"),
            n => dir.path().join(format!(".{n}.lock")),
        };
        wait_for_holder(&lock);
        let page = dir.path().join("page.html");
        std::fs::write(&page, page_text("Second")).unwrap();
        let second = run_clean(&["-q", "-o", out.to_str().unwrap(), page.to_str().unwrap()]);
        let e = stderr(&second);
        assert!(
            !second.status.success(),
            "{name}: the second run went on: {e}"
        );
        assert!(
            e.contains("another ncleaner run") && e.contains(&format!("pid {}", first.id())),
            "{name}: {e}"
        );
        stdin.write_all(&lines.as_bytes()[half..]).unwrap();
        drop(stdin);
        let o = first.wait_with_output().unwrap();
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        match name {
            "same.jsonl" => {
                let ids: Vec<String> = json_lines(&out)
                    .iter()
                    .map(|l| l["id"].as_str().unwrap().to_string())
                    .collect();
                assert_eq!(ids.len(), 160, "{name}");
                assert!(ids.iter().enumerate().all(|(i, id)| *id == format!("d{i}")));
            }
            #[cfg(feature = "parquet")]
            "same.parquet" => assert_eq!(parquet_ids(&out).len(), 160),
            _ => assert!(out.join("stdin.txt").is_file()),
        }
        // No lock is left behind; a later run goes ahead.
        let again = run_clean(&["-q", "-o", out.to_str().unwrap(), page.to_str().unwrap()]);
        assert!(again.status.success(), "{name}: {}", stderr(&again));
        let left: Vec<String> = std::fs::read_dir(if name == "outdir" {
            out.clone()
        } else {
            dir.path().to_path_buf()
        })
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
        assert!(left.is_empty(), "{name}: left behind: {left:?}");
    }
}

fn page_text(marker: &str) -> String {
    page(marker)
}

/// Issue 52, 2: a run killed outright (SIGKILL) leaves its lock file, but
/// not its lock: the next run goes ahead.
#[cfg(unix)]
#[test]
fn a_killed_runs_lock_does_not_block() {
    let dir = tempdir();
    let out = dir.path().join("out.jsonl");
    let (mut child, stdin) = start_on_stdin(&out, &[], &jsonl_docs(10));
    wait_for(&dir.path().join(".out.jsonl.partial"));
    child.kill().unwrap();
    child.wait().unwrap();
    drop(stdin);
    let page = dir.path().join("page.html");
    std::fs::write(&page, PAGE).unwrap();
    let o = run_clean(&["-q", "-o", out.to_str().unwrap(), page.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(json_lines(&out).len(), 1);
}

// ---- 5: Parquet input in bounded memory ----

#[cfg(unix)]
#[path = "torture/run.rs"]
mod run;

/// Runs `clean ARGS` (standard input from `stdin` when given) and returns
/// its output's status, standard error and peak resident memory in MiB.
#[cfg(unix)]
fn clean_peak(args: &[&str], stdin: Option<&Path>) -> (Option<i32>, String, u64) {
    let mut cmd = common::bin();
    cmd.arg("clean")
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    if let Some(f) = stdin {
        cmd.stdin(std::fs::File::open(f).unwrap());
    }
    let mut child = cmd.spawn().unwrap();
    let mut err = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut err, &mut s);
        s
    });
    let (code, _, peak_kb, _) = run::wait_with_usage(&mut child);
    (code, reader.join().unwrap(), peak_kb / 1024)
}

/// Issue 52, 5: a Parquet file of rows of large pages (here 24 rows of
/// 6 MB that compress to almost nothing) is read a few rows at a time,
/// not 64: from a file and from standard input, its peak memory stays
/// near that of one page.
#[cfg(all(unix, feature = "parquet"))]
#[test]
fn parquet_rows_of_large_pages_are_read_in_bounded_memory() {
    let dir = tempdir();
    let line = "A sentence of a long document that says nothing at all, again.\n";
    let text = line.repeat((6 << 20) / line.len());
    let jsonl = dir.path().join("big.jsonl");
    let mut f = std::io::BufWriter::new(std::fs::File::create(&jsonl).unwrap());
    for i in 0..24 {
        let doc = serde_json::json!({"id": format!("big{i}"), "text": format!("Row{i}\n{text}")});
        writeln!(f, "{doc}").unwrap();
    }
    f.flush().unwrap();
    drop(f);
    let pq = dir.path().join("big.parquet");
    let made = run_clean(&[
        "-q",
        "--method",
        "keep-all",
        "-o",
        pq.to_str().unwrap(),
        jsonl.to_str().unwrap(),
    ]);
    assert!(made.status.success(), "{}", stderr(&made));
    std::fs::remove_file(&jsonl).unwrap();
    let out = dir.path().join("out.jsonl");
    let args = |input: &str| {
        [
            "-j",
            "1",
            "--method",
            "keep-all",
            "-o",
            out.to_str().unwrap(),
            input,
        ]
        .map(String::from)
    };
    for (what, input, stdin) in [
        ("a file", pq.to_str().unwrap(), None),
        ("standard input", "-", Some(pq.as_path())),
    ] {
        let a = args(input);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        let (code, e, peak) = clean_peak(&a, stdin);
        assert_eq!(code, Some(0), "{what}: {e}");
        assert!(e.contains("24 documents: 24 cleaned"), "{what}: {e}");
        let records = json_lines(&out);
        assert!(records[23]["text"].as_str().unwrap().starts_with("Row23"));
        // 24 rows at once are 150 MB; one page and its cleaning are less
        // than half of that.
        assert!(peak < 200, "{what}: peak RSS {peak} MiB");
    }
}

// ---- 7: an output never reaches an input through a link ----

/// Issue 52, 7: a symbolic link inside the output directory that leads
/// into an input folder (`out/sub -> ../in/sub`) is caught when an output
/// would be written through it: the run fails naming both, and the input
/// is as it was.
#[cfg(unix)]
#[test]
fn a_nested_link_from_the_output_into_an_input_is_refused() {
    let dir = tempdir();
    let input = dir.path().join("in");
    std::fs::create_dir_all(input.join("sub")).unwrap();
    std::fs::write(input.join("a.txt"), "A first text of a few words.\n").unwrap();
    std::fs::write(input.join("sub/page.txt"), "The input's own text.\n").unwrap();
    let out = dir.path().join("out");
    std::fs::create_dir(&out).unwrap();
    std::os::unix::fs::symlink("../in/sub", out.join("sub")).unwrap();
    let o = run_clean(&[
        "-q",
        "--method",
        "keep-all",
        "--input",
        "text",
        "-o",
        &format!("{}/", out.display()),
        input.to_str().unwrap(),
    ]);
    let e = stderr(&o);
    assert!(!o.status.success(), "{e}");
    assert_eq!(
        std::fs::read_to_string(input.join("sub/page.txt")).unwrap(),
        "The input's own text.\n",
        "the input was written over: {e}"
    );
    assert!(
        e.contains("symbolic link") && e.contains(&input.join("sub").display().to_string()),
        "{e}"
    );
    let left: Vec<_> = std::fs::read_dir(input.join("sub")).unwrap().collect();
    assert_eq!(left.len(), 1, "nothing added to the input folder");
}

// ---- 8: the site memory never written over an output ----

/// Issue 52, 8: `--site-memory` naming the output (or an input) is refused
/// before any work, naming both; nothing is written.
#[test]
fn a_site_memory_over_the_output_or_an_input_is_refused() {
    let dir = tempdir();
    let page = dir.path().join("page.html");
    std::fs::write(&page, PAGE).unwrap();
    let out = dir.path().join("out.jsonl");
    let p = page.to_str().unwrap();
    let o = out.to_str().unwrap();
    for (memory, what) in [(o, "the output"), (p, "the input")] {
        let r = run_clean(&["-q", "--site-memory", memory, "-o", o, p]);
        let e = stderr(&r);
        assert!(!r.status.success(), "{e}");
        assert!(
            e.contains(&format!("--site-memory {memory}")) && e.contains(what),
            "{e}"
        );
        assert!(!out.exists(), "{e}");
        assert_eq!(std::fs::read_to_string(&page).unwrap(), PAGE);
    }
}

// ---- 12: inputs read, and outputs written, as a user expects ----

/// Issue 52, 12: JSON lines with a byte-order mark on line 1, a Latin-1
/// byte, a lone surrogate escape: each is a cleaned document; a line with
/// a key given twice fails naming the key; `html` is cleaned when `text`
/// is given too.
#[test]
fn json_lines_as_scripts_and_windows_tools_write_them() {
    let dir = tempdir();
    let line = |id: &str, body: &str| format!("{{\"id\":\"{id}\",\"html\":\"<p>{body}</p>\"}}\n");
    let mut data = b"\xef\xbb\xbf".to_vec();
    data.extend(line("bom", "Written by a Windows tool, with a mark before it.").bytes());
    data.extend(
        b"{\"id\":\"latin1\",\"html\":\"<p>Un caf\xe9 au lait, s'il vous pla\xeet.</p>\"}\n",
    );
    data.extend(line("lone", "Python wrote this half \\ud800 of a pair.").bytes());
    data.extend(b"{\"id\":\"twice\",\"html\":\"<p>One.</p>\",\"html\":\"<p>Two.</p>\"}\n");
    data.extend(
        b"{\"id\":\"both\",\"text\":\"an older extraction\",\"html\":\"<p>The page itself.</p>\"}\n",
    );
    let input = dir.path().join("in.jsonl");
    std::fs::write(&input, &data).unwrap();
    let out = dir.path().join("out.jsonl");
    let o = run_clean(&[
        "--method",
        "keep-all",
        "-o",
        out.to_str().unwrap(),
        input.to_str().unwrap(),
    ]);
    let e = stderr(&o);
    assert!(e.contains("5 documents: 4 cleaned, 1 failed"), "{e}");
    let records = json_lines(&out);
    let by_id = |id: &str| records.iter().find(|r| r["id"] == id).unwrap().clone();
    assert!(
        by_id("bom")["text"]
            .as_str()
            .unwrap()
            .contains("Windows tool")
    );
    assert!(
        by_id("latin1")["text"]
            .as_str()
            .unwrap()
            .contains("Un café au lait, s'il vous plaît."),
        "{}",
        by_id("latin1")
    );
    assert!(
        by_id("lone")["text"]
            .as_str()
            .unwrap()
            .contains("half \u{fffd} of a pair")
    );
    assert!(
        by_id("twice")["error"]
            .as_str()
            .unwrap()
            .contains("\"html\" is given twice")
    );
    assert_eq!(by_id("both")["text"], "The page itself.");
}

/// Issue 52, 12: hidden files and folders in an input folder are skipped,
/// and counted in the summary.
#[test]
fn hidden_files_are_counted_as_skipped() {
    let dir = tempdir();
    let d = dir.path().join("pages");
    std::fs::create_dir_all(d.join(".git/objects")).unwrap();
    std::fs::write(d.join(".git/objects/x.html"), PAGE).unwrap();
    std::fs::write(d.join(".draft.html"), PAGE).unwrap();
    std::fs::write(d.join("page.html"), PAGE).unwrap();
    let o = run_clean(&["--method", "keep-all", d.to_str().unwrap()]);
    let e = stderr(&o);
    assert!(o.status.success(), "{e}");
    assert!(
        e.contains("1 document: 1 cleaned, 0 failed, 2 skipped"),
        "{e}"
    );
    assert!(e.contains("hidden"), "{e}");
}

/// Issue 52, 12: a line of a page's text that reads like the line naming
/// a document in the text stream does not start a document: it is
/// escaped, so the stream splits into its real documents.
#[test]
fn page_text_cannot_forge_a_document_boundary() {
    let dir = tempdir();
    let forged = "<!-- ncleaner document id=\"forged\" url=null -->";
    let a = dir.path().join("a.txt");
    std::fs::write(
        &a,
        format!("The first dump starts here.\n{forged}\nIt goes on.\n"),
    )
    .unwrap();
    let b = dir.path().join("b.txt");
    std::fs::write(&b, "The second dump.\n").unwrap();
    let o = run_clean(&[
        "--method",
        "keep-all",
        "--input",
        "text",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8(o.stdout).unwrap();
    let starts: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("<!-- ncleaner document"))
        .collect();
    assert_eq!(starts.len(), 2, "{text}");
    assert!(starts.iter().all(|l| !l.contains("forged")), "{text}");
    assert!(text.contains(&format!("\\{forged}")), "{text}");
}

/// Issue 52, 12: a WARC response without a `Content-Type` is read by its
/// bytes: an HTTP response of HTML, or HTML alone, is cleaned; binary
/// bytes are skipped as such.
#[test]
fn warc_responses_without_a_content_type_are_sniffed() {
    let dir = tempdir();
    let record = |id: &str, block: &[u8]| {
        let mut v = format!(
            "WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:{id}>\r\n\
             WARC-Target-URI: http://{id}.example/\r\nWARC-Date: 2024-01-01T00:00:00Z\r\n\
             Content-Length: {}\r\n\r\n",
            block.len()
        )
        .into_bytes();
        v.extend_from_slice(block);
        v.extend_from_slice(b"\r\n\r\n");
        v
    };
    let mut warc = record(
        "http",
        format!(
            "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n{}",
            page("Httpquux")
        )
        .as_bytes(),
    );
    warc.extend(record("bare", page("Barequux").as_bytes()));
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    png.extend((0..4000u32).map(|i| (i * 7919 % 251) as u8));
    warc.extend(record("png", &png));
    let input = dir.path().join("in.warc");
    std::fs::write(&input, warc).unwrap();
    let out = dir.path().join("out.jsonl");
    let o = run_clean(&[
        "--method",
        "keep-all",
        "-o",
        out.to_str().unwrap(),
        input.to_str().unwrap(),
    ]);
    let e = stderr(&o);
    assert!(o.status.success(), "{e}");
    let records = json_lines(&out);
    assert_eq!(records.len(), 2, "{e}");
    assert!(records[0]["text"].as_str().unwrap().contains("Httpquux"));
    assert!(records[1]["text"].as_str().unwrap().contains("Barequux"));
    assert!(e.contains("PNG"), "{e}");
}

/// GUIDE.md ("Nothing is read back or left looking complete"): an output
/// file that was there is replaced whole when the run is complete, and the
/// summary names it; a first run says nothing of it. A directory output
/// counts the files it replaced.
#[test]
fn the_summary_names_an_output_it_replaced() {
    let dir = tempdir();
    let input = dir.path().join("page.html");
    std::fs::write(&input, page("Replaced")).unwrap();
    let input = input.to_str().unwrap();
    let out = dir.path().join("out.txt");
    let o = run_clean(&["-o", out.to_str().unwrap(), input]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stderr(&o).contains("replaced"), "{}", stderr(&o));
    std::fs::write(&out, "what another run wrote\n").unwrap();
    let o = run_clean(&["-o", out.to_str().unwrap(), input]);
    assert!(o.status.success(), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(
        e.contains(&format!(
            "ncleaner: replaced {}, which was there before this run",
            out.display()
        )),
        "{e}"
    );
    assert!(
        std::fs::read_to_string(&out)
            .unwrap()
            .contains("Replaced is a page")
    );

    let outdir = dir.path().join("cleaned");
    let o = run_clean(&["-o", outdir.to_str().unwrap(), input]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stderr(&o).contains("replaced"), "{}", stderr(&o));
    let o = run_clean(&["-o", outdir.to_str().unwrap(), input]);
    let e = stderr(&o);
    assert!(
        e.contains(&format!(
            "ncleaner: replaced 1 file under {} that was there before this run",
            outdir.display()
        )),
        "{e}"
    );
}

/// A missing input's message names its path once, and one document is one
/// document in the summary.
#[test]
fn a_missing_inputs_message_names_it_once() {
    let dir = tempdir();
    let missing = dir.path().join("nosuch.html");
    let missing = missing.to_str().unwrap();
    let o = run_clean(&[missing]);
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    let line = e
        .lines()
        .find(|l| l.contains("nosuch.html"))
        .unwrap_or_else(|| panic!("{e}"));
    assert_eq!(line.matches("nosuch.html").count(), 1, "{e}");
    assert!(line.starts_with(&format!("ncleaner: {missing}: ")), "{e}");
    assert!(
        e.contains("ncleaner: 1 document: 0 cleaned, 1 failed"),
        "{e}"
    );
    assert!(e.contains("1 of 1 document failed"), "{e}");
}
