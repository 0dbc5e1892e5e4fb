//! Issue 35's defects, one test each, through the `ncleaner` binary: no
//! input written over, no output read back, resume that neither loses nor
//! duplicates, bytes identified before they are cleaned, limits on options,
//! messages that say what to do. (The torture corpus, `tests/torture.rs`,
//! runs every case at scale; D5/D16 are also unit tests of `decode`, D8 of
//! the library's limits.)

mod common;

use std::io::Write;
use std::path::Path;

use common::{PAGE, json_lines, page, run_clean, stderr, tempdir};
use ncleaner_corpus::torture::warc_response;

fn ids(path: &Path) -> Vec<String> {
    json_lines(path)
        .iter()
        .map(|l| l["id"].as_str().unwrap_or("").to_string())
        .collect()
}

fn gzip(data: &[u8]) -> Vec<u8> {
    ncleaner_corpus::compress::gzip_member(data, 6)
}

fn http(head: &str, body: &[u8]) -> Vec<u8> {
    let mut v = format!("HTTP/1.1 200 OK\r\n{head}\r\n").into_bytes();
    v.extend_from_slice(body);
    v
}

// ---- D1, D15: no input written over, no output read back ----

#[test]
fn d1_an_output_that_is_its_input_is_refused() {
    let dir = tempdir();
    let jsonl = dir.path().join("in.jsonl");
    let lines = format!("{}\n", serde_json::json!({"id": "a", "html": PAGE}));
    std::fs::write(&jsonl, &lines).unwrap();
    let warc = dir.path().join("in.warc.gz");
    let record = gzip(&warc_response(
        "r",
        "http://x/",
        &http("Content-Type: text/html\r\n", PAGE.as_bytes()),
        &[],
    ));
    std::fs::write(&warc, &record).unwrap();
    for (input, before) in [(&jsonl, lines.as_bytes()), (&warc, record.as_slice())] {
        let p = input.to_str().unwrap();
        let o = run_clean(&["-o", p, p]);
        let e = stderr(&o);
        assert!(!o.status.success(), "{e}");
        assert!(
            e.contains(&format!("-o {p}")) && e.contains(&format!("the input {p}")),
            "{e}"
        );
        assert_eq!(
            std::fs::read(input).unwrap(),
            before,
            "the input is as it was"
        );
    }
}

/// A Parquet output is refused over its input as the other outputs are,
/// and `--resume` continues one (issue 52: an interrupted Parquet file is
/// closed whole, so its rows are kept): a complete one is left as it was.
#[cfg(feature = "parquet")]
#[test]
fn d1_a_parquet_output_over_its_input_is_refused_and_resumed() {
    let dir = tempdir();
    let html = dir.path().join("page.html");
    std::fs::write(&html, PAGE).unwrap();
    let pq = dir.path().join("in.parquet");
    let made = run_clean(&["-o", pq.to_str().unwrap(), html.to_str().unwrap()]);
    assert!(made.status.success(), "{}", stderr(&made));
    let before = std::fs::read(&pq).unwrap();
    assert!(before.starts_with(b"PAR1"));
    let p = pq.to_str().unwrap();
    let o = run_clean(&["-o", p, p]);
    let e = stderr(&o);
    assert!(!o.status.success(), "{e}");
    assert!(
        e.contains(&format!("-o {p}")) && e.contains(&format!("the input {p}")),
        "{e}"
    );
    assert_eq!(
        std::fs::read(&pq).unwrap(),
        before,
        "the input is as it was"
    );

    let out = dir.path().join("out.parquet");
    let o = clean_to(&out, &[html.to_str().unwrap()], true);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = clean_to(&out, &[html.to_str().unwrap()], true);
    let e = stderr(&o);
    assert!(o.status.success(), "{e}");
    assert!(e.contains("resumed: 1 document already"), "{e}");
    let f = std::fs::File::open(&out).unwrap();
    let rows: Vec<_> = ncleaner_corpus::parquet::Reader::open(f, 1 << 20)
        .unwrap()
        .collect();
    assert_eq!(rows.len(), 1, "the output holds its one row, once");
}

#[test]
fn d1_an_output_file_inside_the_input_folder_is_not_read_back() {
    let dir = tempdir();
    let d = dir.path().join("pages");
    std::fs::create_dir(&d).unwrap();
    for n in ["a.html", "b.html", "c.html"] {
        std::fs::write(d.join(n), PAGE).unwrap();
    }
    let out = d.join("all.jsonl");
    for _ in 0..2 {
        let o = run_clean(&["-q", "-o", out.to_str().unwrap(), d.to_str().unwrap()]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(
            json_lines(&out).len(),
            3,
            "run twice, still one record a page"
        );
    }
}

#[test]
fn d1_an_output_directory_among_the_inputs_is_refused() {
    let dir = tempdir();
    let d = dir.path().join("pages");
    std::fs::create_dir(&d).unwrap();
    std::fs::write(d.join("a.html"), PAGE).unwrap();
    let inside = format!("{}/out/", d.display());
    for (out, why) in [
        (inside.as_str(), "inside the input folder"),
        (d.to_str().unwrap(), "the input"),
        (
            dir.path().to_str().unwrap(),
            "is inside the output directory",
        ),
    ] {
        let o = run_clean(&["-o", out, d.to_str().unwrap()]);
        let e = stderr(&o);
        assert!(!o.status.success() && e.contains(why), "{out}: {e}");
        assert!(e.contains(d.to_str().unwrap()), "names the input: {e}");
    }
    assert_eq!(
        std::fs::read_dir(&d).unwrap().count(),
        1,
        "nothing written among the inputs"
    );
}

#[test]
fn d15_an_output_named_like_its_input_says_why() {
    let dir = tempdir();
    let p = dir.path().join("page.html");
    std::fs::write(&p, PAGE).unwrap();
    let o = run_clean(&["-o", p.to_str().unwrap(), p.to_str().unwrap()]);
    let e = stderr(&o);
    assert!(!o.status.success());
    assert!(!e.contains("os error 17"), "{e}");
    assert!(e.contains("the input") && e.contains("page.html"), "{e}");
    // Another existing file (not an input) named as a directory.
    let other = dir.path().join("other.html");
    std::fs::write(&other, PAGE).unwrap();
    let o = run_clean(&["-o", other.to_str().unwrap(), p.to_str().unwrap()]);
    let e = stderr(&o);
    assert!(
        e.contains("a file of that name exists") && e.contains(".jsonl"),
        "{e}"
    );
    assert_eq!(std::fs::read_to_string(&other).unwrap(), PAGE);
}

// ---- D3, D4, D10, D6: resume ----

/// Runs `clean --method keep-all -o OUT INPUTS` (with `--resume` when asked).
fn clean_to(out: &Path, inputs: &[&str], resume: bool) -> std::process::Output {
    let mut args = vec![
        "--method",
        "keep-all",
        "-j",
        "2",
        "-o",
        out.to_str().unwrap(),
    ];
    if resume {
        args.push("--resume");
    }
    args.extend_from_slice(inputs);
    run_clean(&args)
}

#[test]
fn d3_resume_keeps_documents_whose_ids_repeat() {
    let dir = tempdir();
    let input = dir.path().join("in.jsonl");
    let lines: String = ["a", "dup", "b", "dup", "c"]
        .iter()
        .enumerate()
        .map(|(i, id)| {
            format!(
                "{}\n",
                serde_json::json!({"id": id, "html": page(&format!("Doc{i}"))})
            )
        })
        .collect();
    std::fs::write(&input, lines).unwrap();
    let out = dir.path().join("out.jsonl");
    assert!(
        clean_to(&out, &[input.to_str().unwrap()], false)
            .status
            .success()
    );
    let full = std::fs::read_to_string(&out).unwrap();
    // As if interrupted after the first "dup": its records under the temporary name.
    let partial = dir.path().join(".out.jsonl.partial");
    let two: String = full.lines().take(2).map(|l| format!("{l}\n")).collect();
    std::fs::write(&partial, two).unwrap();
    std::fs::remove_file(&out).unwrap();
    let o = clean_to(&out, &[input.to_str().unwrap()], true);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("resumed: 2 documents"),
        "{}",
        stderr(&o)
    );
    assert_eq!(ids(&out), ["a", "dup", "b", "dup", "c"]);
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        full,
        "the same output as a whole run"
    );
    assert!(!partial.exists());
    // The same folder given three times: each copy kept.
    let d = dir.path().join("pages");
    std::fs::create_dir(&d).unwrap();
    std::fs::write(d.join("x.html"), page("Ex")).unwrap();
    std::fs::write(d.join("y.html"), page("Why")).unwrap();
    let ds = d.to_str().unwrap();
    let out = dir.path().join("thrice.jsonl");
    assert!(clean_to(&out, &[ds, ds, ds], false).status.success());
    let full = std::fs::read_to_string(&out).unwrap();
    let three: String = full.lines().take(3).map(|l| format!("{l}\n")).collect();
    std::fs::write(dir.path().join(".thrice.jsonl.partial"), three).unwrap();
    std::fs::remove_file(&out).unwrap();
    let o = clean_to(&out, &[ds, ds, ds], true);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(json_lines(&out).len(), 6);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), full);
}

#[test]
fn d3_resume_refuses_inputs_that_are_not_the_outputs() {
    let dir = tempdir();
    let d = dir.path().join("pages");
    std::fs::create_dir(&d).unwrap();
    for n in ["a.html", "b.html"] {
        std::fs::write(d.join(n), PAGE).unwrap();
    }
    let out = dir.path().join("out.jsonl");
    assert!(
        clean_to(&out, &[d.to_str().unwrap()], false)
            .status
            .success()
    );
    let before = std::fs::read(&out).unwrap();
    // A new first document: the output's first record is no longer the inputs' first.
    std::fs::write(d.join("0.html"), PAGE).unwrap();
    let o = clean_to(&out, &[d.to_str().unwrap()], true);
    let e = stderr(&o);
    assert!(!o.status.success(), "{e}");
    assert!(
        e.contains("record 1") && e.contains("0.html") && e.contains("without --resume"),
        "{e}"
    );
    assert_eq!(
        std::fs::read(&out).unwrap(),
        before,
        "the output is left as it was"
    );
}

#[test]
fn d4_resume_drops_a_torn_last_line() {
    let dir = tempdir();
    let input = dir.path().join("in.jsonl");
    let lines: String = (0..5)
        .map(|i| {
            format!(
                "{}\n",
                serde_json::json!({"id": format!("d{i}"), "html": page(&format!("Doc{i}"))})
            )
        })
        .collect();
    std::fs::write(&input, lines).unwrap();
    let out = dir.path().join("out.jsonl");
    assert!(
        clean_to(&out, &[input.to_str().unwrap()], false)
            .status
            .success()
    );
    let full = std::fs::read_to_string(&out).unwrap();
    // Killed while writing the third record.
    let cut = full
        .lines()
        .take(2)
        .map(|l| format!("{l}\n"))
        .collect::<String>()
        + &full.lines().nth(2).unwrap()[..20];
    std::fs::write(dir.path().join(".out.jsonl.partial"), cut).unwrap();
    std::fs::remove_file(&out).unwrap();
    let o = clean_to(&out, &[input.to_str().unwrap()], true);
    let e = stderr(&o);
    assert!(o.status.success(), "{e}");
    assert!(e.contains("dropped"), "{e}");
    assert_eq!(ids(&out), ["d0", "d1", "d2", "d3", "d4"]);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), full);
}

#[test]
fn d10_compressed_outputs_cut_by_a_kill_resume() {
    let dir = tempdir();
    let input = dir.path().join("in.jsonl");
    // About 3 MB of output: several 1 MiB members or frames.
    let long = (0..40)
        .map(|i| {
            format!(
                "<p>Paragraph {i} of a long page, with words enough to make the record long.</p>"
            )
        })
        .collect::<String>();
    let lines: String = (0..1200)
        .map(|i| format!("{}\n", serde_json::json!({"id": format!("d{i}"), "html": format!("<html><body>{long}<p>Doc{i}</p></body></html>")})))
        .collect();
    std::fs::write(&input, lines).unwrap();
    for name in ["out.jsonl.gz", "out.jsonl.zst"] {
        let out = dir.path().join(name);
        assert!(
            clean_to(&out, &[input.to_str().unwrap()], false)
                .status
                .success()
        );
        let full = ncleaner_corpus::sink::read_output(&out).unwrap();
        let packed = std::fs::read(&out).unwrap();
        // Killed: the file stops in the middle of its last member.
        let partial = dir.path().join(format!(".{name}.partial"));
        std::fs::write(&partial, &packed[..packed.len() - 100]).unwrap();
        std::fs::remove_file(&out).unwrap();
        let o = clean_to(&out, &[input.to_str().unwrap()], true);
        let e = stderr(&o);
        assert!(o.status.success(), "{name}: {e}");
        assert!(
            e.contains("resumed:") && !e.contains("resumed: 0"),
            "{name}: {e}"
        );
        assert_eq!(
            ncleaner_corpus::sink::read_output(&out).unwrap(),
            full,
            "{name}"
        );
    }
}

/// D6: SIGINT or SIGTERM leaves the output under its temporary name, never
/// the final one, and `--resume` completes it.
#[cfg(unix)]
#[test]
fn d6_an_interrupted_output_is_not_under_its_final_name() {
    let dir = tempdir();
    let lines: String = (0..300)
        .map(|i| {
            format!(
                "{}\n",
                serde_json::json!({"id": format!("d{i}"), "html": page(&format!("Doc{i}"))})
            )
        })
        .collect();
    let out = dir.path().join("out.jsonl");
    let partial = dir.path().join(".out.jsonl.partial");
    let mut child = common::bin()
        .args(["clean", "-j", "1", "--method", "keep-all", "-o"])
        .arg(&out)
        .arg("-")
        .stdin(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(lines.as_bytes()).unwrap();
    stdin.flush().unwrap();
    sigterm_once_written(&child, &partial);
    drop(stdin);
    let o = child.wait_with_output().unwrap();
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(143), "{e}");
    assert!(
        !out.exists(),
        "an interrupted run's output under the final name"
    );
    assert!(
        partial.exists() && e.contains(".out.jsonl.partial") && e.contains("--resume"),
        "{e}"
    );
    // The same command, resumed, completes it.
    let mut child = common::bin()
        .args(["clean", "-j", "1", "--method", "keep-all", "--resume", "-o"])
        .arg(&out)
        .arg("-")
        .stdin(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(lines.as_bytes())
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let got = ids(&out);
    assert_eq!(got.len(), 300);
    assert!(got.iter().enumerate().all(|(i, id)| *id == format!("d{i}")));
}

/// Files of JSON Lines (`f{k}-{i}` ids) and one WARC.gz, written in `dir`:
/// a crawl's many files, which a run with `-j` above 1 reads several at once.
fn many_files(dir: &Path) -> Vec<String> {
    let mut paths = Vec::new();
    for (k, n) in [(0, 150), (1, 90), (2, 200)] {
        let lines: String = (0..n)
            .map(|i| {
                format!(
                    "{}\n",
                    serde_json::json!({"id": format!("f{k}-{i}"), "html": page(&format!("F{k}D{i}"))})
                )
            })
            .collect();
        let (name, bytes) = match k {
            1 => (format!("f{k}.jsonl.gz"), gzip(lines.as_bytes())),
            _ => (format!("f{k}.jsonl"), lines.into_bytes()),
        };
        std::fs::write(dir.join(&name), bytes).unwrap();
        paths.push(dir.join(name).to_str().unwrap().to_string());
    }
    let warc: Vec<u8> = (0..120)
        .flat_map(|i| {
            let block = http(
                "Content-Type: text/html\r\n",
                page(&format!("W{i}")).as_bytes(),
            );
            gzip(&warc_response(
                &format!("w{i}"),
                "http://e.org/",
                &block,
                &[],
            ))
        })
        .collect();
    std::fs::write(dir.join("w.warc.gz"), warc).unwrap();
    paths.push(dir.join("w.warc.gz").to_str().unwrap().to_string());
    paths
}

/// D3 over many files read at once: an output cut anywhere (inside a file,
/// at a file's end) resumes, on four threads, to what one whole run writes.
#[test]
fn d3_resume_over_many_files_read_at_once() {
    let dir = tempdir();
    let inputs = many_files(dir.path());
    let inputs: Vec<&str> = inputs.iter().map(String::as_str).collect();
    let out = dir.path().join("out.jsonl");
    let run = |jobs: &str, resume: bool| {
        let mut args = vec![
            "--method",
            "keep-all",
            "-j",
            jobs,
            "-o",
            out.to_str().unwrap(),
        ];
        if resume {
            args.push("--resume");
        }
        args.extend_from_slice(&inputs);
        run_clean(&args)
    };
    assert!(run("1", false).status.success());
    let full = std::fs::read_to_string(&out).unwrap();
    assert_eq!(full.lines().count(), 150 + 90 + 200 + 120);
    assert!(run("4", false).status.success());
    assert_eq!(std::fs::read_to_string(&out).unwrap(), full, "-j 4 as -j 1");
    let partial = dir.path().join(".out.jsonl.partial");
    for cut in [1, 149, 150, 151, 239, 240, 300, 440, 559] {
        let kept: String = full.lines().take(cut).map(|l| format!("{l}\n")).collect();
        std::fs::write(&partial, kept).unwrap();
        std::fs::remove_file(&out).unwrap();
        let o = run("4", true);
        let e = stderr(&o);
        assert!(o.status.success(), "{cut}: {e}");
        assert!(
            e.contains(&match cut {
                1 => "resumed: 1 document already".to_string(),
                n => format!("resumed: {n} documents already"),
            }),
            "{cut}: {e}"
        );
        assert_eq!(
            std::fs::read_to_string(&out).unwrap(),
            full,
            "cut after {cut}"
        );
        assert!(!partial.exists());
    }
}

/// Waits for a running `clean` to have written its temporary output
/// `partial` (30 s at most), lets it run half a second more, and sends it
/// SIGTERM.
#[cfg(unix)]
fn sigterm_once_written(child: &std::process::Child, partial: &std::path::Path) {
    let started = std::time::Instant::now();
    while !partial.exists() {
        assert!(started.elapsed().as_secs() < 30, "no temporary output");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    std::thread::sleep(std::time::Duration::from_millis(500));
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
}

/// D6 over many files read at once: SIGTERM while later files are read
/// ahead (standard input, among the inputs, held open) leaves a prefix of
/// the output under the temporary name, and `--resume` completes it to what
/// one whole run writes.
#[cfg(unix)]
#[test]
fn d6_an_interrupted_run_over_many_files_resumes() {
    let dir = tempdir();
    let files = many_files(dir.path());
    let mut inputs: Vec<&str> = files.iter().map(String::as_str).collect();
    inputs.insert(1, "-");
    let stdin_lines: String = (0..40)
        .map(|i| {
            format!(
                "{}\n",
                serde_json::json!({"id": format!("s{i}"), "html": page(&format!("S{i}"))})
            )
        })
        .collect();
    let out = dir.path().join("out.jsonl");
    let partial = dir.path().join(".out.jsonl.partial");
    let start = |jobs: &str, resume: bool| {
        let mut args = vec!["clean", "-j", jobs, "--method", "keep-all", "-o"];
        args.push(out.to_str().unwrap());
        if resume {
            args.push("--resume");
        }
        args.extend_from_slice(&inputs);
        common::bin()
            .args(&args)
            .stdin(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    let whole = |jobs: &str, resume: bool| {
        let mut child = start(jobs, resume);
        child
            .stdin
            .take()
            .unwrap()
            .write_all(stdin_lines.as_bytes())
            .unwrap();
        let o = child.wait_with_output().unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
    };
    whole("1", false);
    let full = std::fs::read_to_string(&out).unwrap();
    std::fs::remove_file(&out).unwrap();
    // Half of standard input given, the rest never comes: the run waits.
    let mut child = start("4", false);
    let mut stdin = child.stdin.take().unwrap();
    let half: String = stdin_lines
        .lines()
        .take(20)
        .map(|l| format!("{l}\n"))
        .collect();
    stdin.write_all(half.as_bytes()).unwrap();
    stdin.flush().unwrap();
    sigterm_once_written(&child, &partial);
    let o = child.wait_with_output().unwrap();
    drop(stdin);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(143), "{e}");
    assert!(!out.exists() && partial.exists(), "{e}");
    let written = std::fs::read_to_string(&partial).unwrap();
    assert!(
        full.starts_with(&written),
        "the interrupted output is a prefix"
    );
    assert!(
        written.lines().count() <= 150 + 20,
        "nothing past standard input"
    );
    whole("4", true);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), full);
}

// ---- D2, D11, D12, D14: bytes identified before they are cleaned ----

/// A WARC response record's block and its extra header fields.
type Response = (Vec<u8>, Vec<(&'static str, String)>);

/// Cleans one WARC file of `blocks` (response records) to JSON Lines.
fn clean_warc(dir: &Path, blocks: &[Response]) -> (std::process::Output, Vec<serde_json::Value>) {
    let warc: Vec<u8> = blocks
        .iter()
        .enumerate()
        .flat_map(|(i, (b, extra))| {
            warc_response(&format!("r{i}"), &format!("http://x/{i}"), b, extra)
        })
        .collect();
    let input = dir.join("crawl.warc");
    std::fs::write(&input, warc).unwrap();
    let out = dir.join("out.jsonl");
    let o = run_clean(&["-o", out.to_str().unwrap(), input.to_str().unwrap()]);
    (o, json_lines(&out))
}

#[test]
fn d2_a_truncated_chunked_body_gives_its_text_without_chunk_sizes() {
    let dir = tempdir();
    let text = "<html><body><p>This paragraph of ordinary English prose is long enough to be kept, and the text contin";
    let rest =
        "ues here after a chunk boundary, as a crawler stored it before the record was cut.</p>";
    let mut body = format!("{:x}\r\n{text}\r\n", text.len()).into_bytes();
    body.extend_from_slice(format!("{:x}\r\n{rest}", rest.len() + 50).as_bytes());
    let missing_end = http(
        "Content-Type: text/html\r\nTransfer-Encoding: chunked\r\n",
        &body,
    );
    let (o, lines) = clean_warc(
        dir.path(),
        &[(missing_end, vec![("WARC-Truncated", "length".into())])],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let t = lines[0]["text"].as_str().unwrap();
    assert!(t.contains("the text continues here"), "{t}");
    assert!(!t.contains(&format!("{:x}", rest.len() + 50)), "{t}");
    let why = lines[0]["truncated"].as_str().unwrap();
    assert!(
        why.contains("WARC-Truncated") && why.contains("last chunk"),
        "{why}"
    );
    // Chunk sizes that break off: an error, not raw bytes.
    let mut broken = format!("{:x}\r\n{text}\r\n", text.len()).into_bytes();
    broken.extend_from_slice(b"zz not a size\r\nmore text");
    let (o, lines) = clean_warc(
        dir.path(),
        &[(
            http(
                "Content-Type: text/html\r\nTransfer-Encoding: chunked\r\n",
                &broken,
            ),
            vec![],
        )],
    );
    assert!(!o.status.success());
    assert!(
        lines[0]["error"]
            .as_str()
            .unwrap()
            .contains("not a chunk size"),
        "{lines:?}"
    );
}

#[test]
fn a_gzip_warc_body_without_content_encoding_is_decompressed() {
    let dir = tempdir();
    let body = gzip(page("Gzipquux").as_bytes());
    let (o, lines) = clean_warc(
        dir.path(),
        &[(http("Content-Type: text/html\r\n", &body), vec![])],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        lines[0]["text"].as_str().unwrap().contains("Gzipquux"),
        "{lines:?}"
    );
    assert!(lines[0]["words_in"].as_u64().unwrap() < 100);
}

#[test]
fn d12_truncated_and_mislabelled_gzip_bodies() {
    let dir = tempdir();
    let long = page("Cutquux")
        + &"<p>More words of the page, to make the stream long enough to cut.</p>".repeat(200);
    let packed = gzip(long.as_bytes());
    let cut = http(
        "Content-Type: text/html\r\nContent-Encoding: gzip\r\n",
        &packed[..packed.len() / 2],
    );
    let plain = http(
        "Content-Type: text/html\r\nContent-Encoding: gzip\r\n",
        page("Plainquux").as_bytes(),
    );
    let (o, lines) = clean_warc(dir.path(), &[(cut, vec![]), (plain, vec![])]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        lines[0]["text"].as_str().unwrap().contains("Cutquux"),
        "{lines:?}"
    );
    assert!(
        lines[0]["truncated"]
            .as_str()
            .unwrap()
            .contains("cut short"),
        "{lines:?}"
    );
    assert!(
        lines[1]["text"].as_str().unwrap().contains("Plainquux"),
        "{lines:?}"
    );
    assert!(lines[1].get("truncated").is_none());
}

#[test]
fn d11_a_bomb_is_reported_by_its_decompressed_limit() {
    let dir = tempdir();
    let bomb = dir.path().join("bomb.html.gz");
    let packed = gzip(&vec![b' '; 70 << 20]);
    std::fs::write(&bomb, &packed).unwrap();
    let o = run_clean(&[bomb.to_str().unwrap()]);
    let e = stderr(&o);
    assert!(!o.status.success());
    assert!(
        e.contains("decompresses to more than 67108864 bytes"),
        "{e}"
    );
    assert!(
        e.contains(&format!("{} bytes compressed", packed.len())),
        "{e}"
    );
    assert!(
        !e.contains(&format!("{} bytes, more than", packed.len())),
        "{e}"
    );
}

#[test]
fn d14_random_bytes_are_skipped_not_cleaned() {
    let dir = tempdir();
    let mut rng = ncleaner_corpus::torture::Rng::new(14);
    let bytes = rng.bytes(200_000);
    let f = dir.path().join("random.bin");
    std::fs::write(&f, &bytes).unwrap();
    let out = dir.path().join("out.jsonl");
    let o = run_clean(&["-o", out.to_str().unwrap(), f.to_str().unwrap()]);
    let e = stderr(&o);
    assert!(o.status.success(), "{e}");
    assert!(e.contains("0 cleaned") && e.contains("1 skipped"), "{e}");
    assert!(e.contains("not a document: binary data"), "{e}");
    assert!(json_lines(&out).is_empty());
    // On standard input too.
    let mut child = common::bin()
        .args(["clean", "--format", "jsonl", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&bytes).unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success());
    assert!(
        o.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    assert!(
        stderr(&o).contains("not a document: binary data"),
        "{}",
        stderr(&o)
    );
}

// ---- D5, D16: encodings, end to end ----

#[test]
fn d5_d16_encodings_end_to_end() {
    let dir = tempdir();
    let mut bad = "<html><body><p>Grüße aus München! Diese Seite erzählt ausführlich von einer Reise durch Bayern, von den Straßen der Stadt und den Bergen im Süden.".as_bytes().to_vec();
    bad.push(0xff);
    bad.extend_from_slice(b"</p></body></html>");
    let utf16: Vec<u8> = page("Sixteenquux")
        .encode_utf16()
        .flat_map(|u| u.to_le_bytes())
        .collect();
    let (o, lines) = clean_warc(
        dir.path(),
        &[
            (http("Content-Type: text/html\r\n", &bad), vec![]),
            (
                http("Content-Type: text/html; charset=utf-16le\r\n", &utf16),
                vec![],
            ),
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let t0 = lines[0]["text"].as_str().unwrap();
    assert!(t0.contains("Grüße aus München"), "{t0}");
    let t1 = lines[1]["text"].as_str().unwrap();
    assert!(t1.contains("Sixteenquux") && !t1.contains("<p>"), "{t1}");
}

// ---- D9: -j ----

#[test]
fn d9_jobs_beyond_the_machine_are_lowered_with_a_note() {
    let dir = tempdir();
    let p = dir.path().join("page.html");
    std::fs::write(&p, PAGE).unwrap();
    for j in ["10000", "99999999999"] {
        let o = run_clean(&["-j", j, p.to_str().unwrap()]);
        let e = stderr(&o);
        assert!(o.status.success(), "{e}");
        assert!(
            e.contains(&format!("-j {j} is more than 4 threads per core")),
            "{e}"
        );
    }
    let o = run_clean(&["-j", "0", p.to_str().unwrap()]);
    assert!(!o.status.success() && stderr(&o).contains("-j must be at least 1"));
}

// ---- D17: the server's second signal ----

#[cfg(unix)]
#[test]
fn d17_a_second_sigterm_ends_the_servers_shutdown_at_once() {
    use std::io::Read;
    let mut child = common::bin()
        .args([
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--quiet",
            "--shutdown-timeout",
            "120",
            "--timeout",
            "120",
        ])
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = child.stderr.take().unwrap();
    let mut seen = Vec::new();
    let mut b = [0u8; 1];
    let addr = loop {
        assert_eq!(
            err.read(&mut b).unwrap(),
            1,
            "{}",
            String::from_utf8_lossy(&seen)
        );
        seen.push(b[0]);
        let s = String::from_utf8_lossy(&seen).into_owned();
        if let Some(rest) = s.split("http://").nth(1)
            && rest.contains('/')
        {
            break rest.split('/').next().unwrap().to_string();
        }
    };
    // A request in flight that will not end: its body never comes.
    let mut hold = std::net::TcpStream::connect(&addr).unwrap();
    hold.write_all(b"POST /api/clean HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/html\r\nContent-Length: 100\r\n\r\nabc").unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    let pid = child.id().to_string();
    let term = || {
        assert!(
            std::process::Command::new("kill")
                .args(["-TERM", &pid])
                .status()
                .unwrap()
                .success()
        )
    };
    term();
    std::thread::sleep(std::time::Duration::from_millis(500));
    assert!(
        child.try_wait().unwrap().is_none(),
        "the first signal waits for the request in flight"
    );
    term();
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(
            start.elapsed().as_secs() < 60,
            "a second SIGTERM did not end the shutdown wait"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    assert_eq!(status.code(), Some(143));
    drop(hold);
}
