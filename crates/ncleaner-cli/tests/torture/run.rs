//! Runs the torture corpus ([`ncleaner_corpus::torture`]) through a built
//! `ncleaner`: each case through `clean` (between two ordinary documents of
//! its container) and through `serve`, measuring the exit, what came of the
//! case, peak resident memory and time. Shared by the CI test
//! (`tests/torture.rs`, a small version) and `examples/torture.rs` (the full
//! run of `scripts/torture`, whose table goes to BENCHMARKS.md).

#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use ncleaner_corpus::torture::{self, Carrier, Case, Expect, Rng};

/// What one run of a case through `clean` gave.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The case.
    pub name: String,
    /// The exit: `0`, `1`, or `signal N` (an abort).
    pub exit: String,
    /// What came of the case: `cleaned`, `truncated`, `skipped`, `failed`, `missing`.
    pub record: String,
    /// Peak resident memory of the process, in KiB.
    pub peak_kb: u64,
    /// CPU time (user + system) of the process.
    pub cpu: f64,
    /// Wall time of the process.
    pub wall: f64,
    /// What was wrong (empty: the case passed).
    pub problems: Vec<String>,
}

/// Waits for a child: its exit code or signal, its peak resident memory
/// in KiB and its CPU time (user + system).
///
/// The peak is the kernel's high-water mark of the child's own memory
/// (`VmHWM` of `/proc/PID/status`), read every 5 ms until it exits: it
/// only grows, so the last reading is the peak but for the child's last
/// milliseconds. (wait4's `ru_maxrss` would count the parent's memory at
/// the fork: Linux carries it over the exec.)
#[cfg(unix)]
pub fn wait_with_usage(child: &mut Child) -> (Option<i32>, Option<i32>, u64, f64) {
    let pid = child.id() as libc::pid_t;
    let status_file = format!("/proc/{pid}/status");
    let mut peak = 0u64;
    let mut status = 0;
    // SAFETY: `rusage` is plain data, written by wait4 for our own child,
    // which std has not reaped (its wait is never called).
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        if let Some(kb) = std::fs::read_to_string(&status_file).ok().and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
        }) {
            peak = peak.max(kb);
        }
        // SAFETY: as above.
        let r = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if r == pid {
            break;
        }
        assert!(r == 0, "wait4: {}", std::io::Error::last_os_error());
        std::thread::sleep(Duration::from_millis(5));
    }
    let cpu = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    let (code, signal) = if libc::WIFEXITED(status) {
        (Some(libc::WEXITSTATUS(status)), None)
    } else if libc::WIFSIGNALED(status) {
        (None, Some(libc::WTERMSIG(status)))
    } else {
        (None, None)
    };
    (
        code,
        signal,
        peak,
        cpu(usage.ru_utime) + cpu(usage.ru_stime),
    )
}

/// The bound on a case's peak resident memory: 1 GB, and less for small
/// cases: 350 MB (the program and its models, and 200,000 blocks at about
/// 1 KB each, the most one document holds) plus 10 times the case's bytes.
pub fn rss_bound_kb(case: &Case) -> u64 {
    let bytes = 350_000_000u64.saturating_add(10 * case.size as u64);
    bytes.min(1_000_000_000) / 1024
}

/// The ordinary documents around a case, and the markers their text holds.
const MARKERS: [&str; 2] = ["Alphaquux", "Charliequux"];

/// Runs `case` through `bin clean` in `work` (a fresh directory); a text
/// to score ([`Carrier::Perplexity`]) through `bin perplexity --json -`.
pub fn clean_case(bin: &Path, case: &Case, work: &Path) -> Outcome {
    if case.carrier == Carrier::Perplexity {
        return perplexity_case(bin, case);
    }
    let mut rng = Rng::new(case.size as u64);
    let pages = MARKERS.map(|m| torture::ordinary_page(&mut rng, m));
    let input = work.join("in");
    std::fs::create_dir_all(&input).unwrap();
    let out = work.join("out.jsonl");
    let bytes = case.bytes();
    let mut cmd = Command::new(bin);
    cmd.args(["clean", "-j", "2", "--format", "jsonl", "-o"])
        .arg(&out)
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    // The case's id in the output, and the ordinary documents' ids.
    let (case_id, others): (String, Vec<String>) = match &case.carrier {
        Carrier::File(name) => {
            std::fs::write(input.join("a.html"), &pages[0]).unwrap();
            std::fs::create_dir_all(input.join("b")).unwrap();
            std::fs::write(input.join("b").join(name), &bytes).unwrap();
            std::fs::write(input.join("c.html"), &pages[1]).unwrap();
            cmd.arg(&input);
            (
                format!("/b/{name}"),
                vec!["/a.html".into(), "/c.html".into()],
            )
        }
        Carrier::Stdin => {
            cmd.arg("-").stdin(Stdio::piped());
            ("-".into(), vec![])
        }
        Carrier::Warc(extra) => {
            let ordinary =
                |p: &str| format!("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n{p}");
            let mut w = torture::warc_response(
                "a",
                "http://a.example/",
                ordinary(&pages[0]).as_bytes(),
                &[],
            );
            let extra: Vec<(&str, String)> = extra.iter().map(|(k, v)| (*k, v.clone())).collect();
            w.extend(torture::warc_response(
                "b",
                "http://b.example/",
                &bytes,
                &extra,
            ));
            w.extend(torture::warc_response(
                "c",
                "http://c.example/",
                ordinary(&pages[1]).as_bytes(),
                &[],
            ));
            std::fs::write(input.join("crawl.warc"), w).unwrap();
            cmd.arg(input.join("crawl.warc"));
            (
                "<urn:uuid:b>".into(),
                vec!["<urn:uuid:a>".into(), "<urn:uuid:c>".into()],
            )
        }
        Carrier::Perplexity => unreachable!("scored by perplexity_case"),
        Carrier::Jsonl => {
            let line = |id: &str, html: String| {
                serde_json::json!({"id": id, "html": html}).to_string() + "\n"
            };
            let data = line("a", pages[0].clone())
                + &line("b", torture::json_string(&bytes))
                + &line("c", pages[1].clone());
            std::fs::write(input.join("docs.jsonl"), data).unwrap();
            cmd.arg(input.join("docs.jsonl"));
            ("b".into(), vec!["a".into(), "c".into()])
        }
        Carrier::JsonlLine => {
            let mut data = torture::json_line("a", &pages[0]).into_bytes();
            data.push(b'\n');
            data.extend_from_slice(&bytes);
            data.push(b'\n');
            data.extend(torture::json_line("c", &pages[1]).into_bytes());
            data.push(b'\n');
            std::fs::write(input.join("docs.jsonl"), data).unwrap();
            cmd.arg(input.join("docs.jsonl"));
            ("b".into(), vec!["a".into(), "c".into()])
        }
        Carrier::WarcUntyped => {
            let ordinary =
                |p: &str| format!("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n{p}");
            let mut w = torture::warc_response(
                "a",
                "http://a.example/",
                ordinary(&pages[0]).as_bytes(),
                &[],
            );
            w.extend(torture::warc_response_untyped(
                "b",
                "http://b.example/",
                &bytes,
            ));
            w.extend(torture::warc_response(
                "c",
                "http://c.example/",
                ordinary(&pages[1]).as_bytes(),
                &[],
            ));
            std::fs::write(input.join("crawl.warc"), w).unwrap();
            cmd.arg(input.join("crawl.warc"));
            (
                "<urn:uuid:b>".into(),
                vec!["<urn:uuid:a>".into(), "<urn:uuid:c>".into()],
            )
        }
        Carrier::Parquet(rows) | Carrier::ParquetStdin(rows) => {
            let path = input.join("rows.parquet");
            parquet_rows(&path, &pages, &bytes, *rows);
            match case.carrier {
                Carrier::ParquetStdin(_) => {
                    cmd.arg("-")
                        .stdin(Stdio::from(std::fs::File::open(&path).unwrap()));
                }
                _ => {
                    cmd.arg(&path);
                }
            }
            ("b0".into(), vec!["a".into(), "c".into()])
        }
    };
    let start = Instant::now();
    let mut child = cmd.spawn().expect("running ncleaner");
    if let Some(mut stdin) = child.stdin.take() {
        // A writer thread: the child may stop reading early (a limit).
        let data = bytes.clone();
        std::thread::spawn(move || {
            let _ = stdin.write_all(&data);
        });
    }
    let mut err = child.stderr.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    let (code, signal, peak_kb, cpu) = wait_with_usage(&mut child);
    let stderr = reader.join().unwrap_or_default();
    let wall = start.elapsed().as_secs_f64();
    drop(bytes);
    let mut problems = Vec::new();
    let exit = match (code, signal) {
        (Some(c), _) => c.to_string(),
        (_, Some(s)) => {
            problems.push(format!("aborted by signal {s}: {}", tail(&stderr)));
            format!("signal {s}")
        }
        _ => "?".into(),
    };
    let records: Vec<serde_json::Value> = std::fs::read_to_string(&out)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| match serde_json::from_str(l) {
            Ok(v) => Some(v),
            Err(e) => {
                problems.push(format!("invalid JSON line in the output: {e}"));
                None
            }
        })
        .collect();
    let find = |id: &str| {
        records
            .iter()
            .find(|r| r["id"].as_str().is_some_and(|x| x == id || x.ends_with(id)))
    };
    if let Carrier::Parquet(rows) | Carrier::ParquetStdin(rows) = case.carrier {
        // Every row of the case has its record.
        let missing: Vec<usize> = (0..rows)
            .filter(|i| find(&format!("b{i}")).is_none())
            .collect();
        if !missing.is_empty() && find("b0").is_some() {
            problems.push(format!("rows without a record: {missing:?}"));
        }
    }
    for (id, marker) in others.iter().zip(MARKERS) {
        match find(id) {
            Some(r) if r["text"].as_str().is_some_and(|t| t.contains(marker)) => {}
            other => problems.push(format!(
                "the ordinary document {id} is not there as it should be: {other:?}"
            )),
        }
    }
    let rec = find(&case_id);
    let record = match rec {
        None if stderr.contains("ncleaner: skipped: ") => "skipped",
        None => "missing",
        // A JSON line or a Parquet row that is no document has its record,
        // marked (issue 70, P3).
        Some(r) if r.get("skipped").is_some() => "skipped",
        Some(r) if r.get("error").is_some() => "failed",
        Some(r) if r.get("truncated").is_some() => "truncated",
        Some(_) => "cleaned",
    }
    .to_string();
    let text = rec.and_then(|r| r["text"].as_str()).unwrap_or("");
    let error = rec.and_then(|r| r["error"].as_str()).unwrap_or("");
    let holds = |want: &Option<&str>| want.is_none_or(|w| text.contains(w));
    let ok = match &case.expect {
        Expect::Cleaned(want) => record == "cleaned" && holds(want),
        Expect::Truncated(want) => record == "truncated" && holds(want),
        Expect::Skipped(why) => record == "skipped" && stderr.contains(why),
        Expect::Failed(why) => record == "failed" && error.contains(why),
        Expect::Scored => false,
    };
    if !ok {
        problems.push(format!(
            "expected {:?}, got {record} (text {:?}, error {error:?}); {}",
            case.expect,
            text.chars().take(120).collect::<String>(),
            tail(&stderr)
        ));
    }
    let want_exit = if matches!(case.expect, Expect::Failed(_)) {
        "1"
    } else {
        "0"
    };
    if signal.is_none() && exit != want_exit {
        problems.push(format!(
            "exit {exit}, expected {want_exit}: {}",
            tail(&stderr)
        ));
    }
    if peak_kb > rss_bound_kb(case) {
        problems.push(format!(
            "peak RSS {peak_kb} KiB, over the bound of {} KiB",
            rss_bound_kb(case)
        ));
    }
    Outcome {
        name: case.name.clone(),
        exit,
        record,
        peak_kb,
        cpu,
        wall,
        problems,
    }
}

/// Runs a text to score through `bin perplexity --json -`: it must exit 0
/// with a JSON line for each line of the text, within the memory bound.
fn perplexity_case(bin: &Path, case: &Case) -> Outcome {
    let bytes = case.bytes();
    let lines = bytes.split(|&b| b == b'\n').count() - usize::from(bytes.ends_with(b"\n"));
    let start = Instant::now();
    let mut child = Command::new(bin)
        .args(["perplexity", "--json", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("running ncleaner perplexity");
    let mut stdin = child.stdin.take().expect("piped");
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&bytes);
    });
    // The output is counted as it comes (its lines, and whether the first
    // is JSON), not kept: it is some ten times the text.
    let mut out = child.stdout.take().expect("piped");
    let counter = std::thread::spawn(move || {
        let (mut n, mut first) = (0usize, Vec::new());
        let mut buf = vec![0u8; 1 << 16];
        while let Ok(k) = out.read(&mut buf) {
            if k == 0 {
                break;
            }
            if n == 0 && first.len() < 1 << 20 {
                first.extend_from_slice(&buf[..k]);
            }
            n += buf[..k].iter().filter(|&&b| b == b'\n').count();
        }
        let first = first.split(|&b| b == b'\n').next().unwrap_or(b"").to_vec();
        (n, first)
    });
    let mut err = child.stderr.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    let (code, signal, peak_kb, cpu) = wait_with_usage(&mut child);
    let _ = writer.join();
    let (written, first) = counter.join().unwrap_or_default();
    let stderr = reader.join().unwrap_or_default();
    let wall = start.elapsed().as_secs_f64();
    let mut problems = Vec::new();
    let exit = match (code, signal) {
        (Some(c), _) => c.to_string(),
        (_, Some(s)) => {
            problems.push(format!("aborted by signal {s}: {}", tail(&stderr)));
            format!("signal {s}")
        }
        _ => "?".into(),
    };
    if exit != "0" {
        problems.push(format!("exit {exit}, expected 0: {}", tail(&stderr)));
    }
    if written != lines {
        problems.push(format!("{written} lines written for {lines} lines of text"));
    }
    // (A first line past 1 MiB is cut; only a shorter one is read.)
    if first.len() < 1 << 20
        && serde_json::from_slice::<serde_json::Value>(&first)
            .ok()
            .and_then(|v| v["perplexity"].as_f64())
            .is_none()
    {
        problems.push("the first line is no JSON object with a perplexity".into());
    }
    if peak_kb > rss_bound_kb(case) {
        problems.push(format!(
            "peak RSS {peak_kb} KiB, over the bound of {} KiB",
            rss_bound_kb(case)
        ));
    }
    Outcome {
        name: case.name.clone(),
        exit,
        record: "scored".into(),
        peak_kb,
        cpu,
        wall,
        problems,
    }
}

/// Posts a text to score ([`Carrier::Perplexity`]) to `POST /api/perplexity`
/// of a server of its own (`-j 1`, so that its peak is this request's):
/// 200 with its sentences, or 413 when the body or the answer passes the
/// server's limit, within the case's memory bound. Returns the status and
/// the problems.
pub fn perplexity_serve_case(bin: &Path, case: &Case) -> (u16, Vec<String>) {
    let mut server = Server::start(bin, &["-j", "1"]);
    let text = String::from_utf8_lossy(&case.bytes()).into_owned();
    let body = serde_json::to_vec(&serde_json::json!({ "text": text })).expect("JSON");
    drop(text);
    let mut problems = Vec::new();
    let (status, answer) =
        match server.request("POST", "/api/perplexity", "application/json", &body) {
            Ok(r) => r,
            Err(e) => {
                problems.push(format!("no answer: {e}"));
                (0, String::new())
            }
        };
    let json: serde_json::Value = serde_json::from_str(&answer).unwrap_or_default();
    let ok = match status {
        200 => json["sentences"].as_array().is_some_and(|s| !s.is_empty()),
        413 => {
            body.len() > MAX_BODY
                || json["error"]
                    .as_str()
                    .is_some_and(|e| e.contains("answer would be larger"))
        }
        _ => false,
    };
    if !ok {
        problems.push(format!(
            "expected 200 or 413, got {status}: {}",
            answer.chars().take(200).collect::<String>()
        ));
    }
    if !server.alive() {
        problems.push("the server died".into());
    }
    let (peak, _) = server.memory_kb();
    if peak > rss_bound_kb(case) {
        problems.push(format!(
            "the server peaked at {peak} KiB, over the bound of {} KiB",
            rss_bound_kb(case)
        ));
    }
    (status, problems)
}

/// Writes the Parquet file of a Parquet carrier: an ordinary row `a`, the
/// case's bytes as rows `b0`, `b1`, …, an ordinary row `c`.
#[cfg(feature = "parquet")]
fn parquet_rows(path: &Path, pages: &[String; 2], bytes: &[u8], rows: usize) {
    let cases = (0..rows).map(|i| (format!("b{i}"), bytes.to_vec()));
    let all = std::iter::once(("a".to_string(), pages[0].clone().into_bytes()))
        .chain(cases)
        .chain(std::iter::once((
            "c".to_string(),
            pages[1].clone().into_bytes(),
        )));
    torture::write_parquet(path, all).unwrap();
}

#[cfg(not(feature = "parquet"))]
fn parquet_rows(_: &Path, _: &[String; 2], _: &[u8], _: usize) {
    unreachable!("no Parquet case without the parquet feature")
}

/// The last lines of a process's standard error, for messages.
fn tail(stderr: &str) -> String {
    let lines: Vec<&str> = stderr.lines().collect();
    lines[lines.len().saturating_sub(3)..].join(" | ")
}

/// "Time roughly linear in size": each case ten times larger than another
/// must take at most 25 times its CPU time, plus 0.3 s of slack (a
/// quadratic step takes 100 times). CPU time, not wall time: the machine
/// may be busy. Returns the problems.
pub fn linear_in_size(cases: &[Case], outcomes: &[Outcome]) -> Vec<String> {
    let mut problems = Vec::new();
    for (case, big) in cases.iter().zip(outcomes) {
        let Some(small_name) = &case.smaller else {
            continue;
        };
        let Some(small) = outcomes.iter().find(|o| &o.name == small_name) else {
            continue;
        };
        if big.cpu > 25.0 * small.cpu + 0.3 {
            problems.push(format!(
                "{}: {:.2} s of CPU, {small_name}: {:.2} s: more than linear",
                big.name, big.cpu, small.cpu
            ));
        }
    }
    problems
}

/// A running `ncleaner serve`.
pub struct Server {
    child: Child,
    /// Its address.
    pub addr: SocketAddr,
}

impl Server {
    /// Starts `bin serve` on a free loopback port with `args`.
    pub fn start(bin: &Path, args: &[&str]) -> Server {
        let mut child = Command::new(bin)
            .args(["serve", "--addr", "127.0.0.1:0", "--quiet"])
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("running ncleaner serve");
        let mut stderr = child.stderr.take().unwrap();
        let mut seen = Vec::new();
        let mut byte = [0u8; 1];
        // The line that says where it listens.
        let addr = loop {
            match stderr.read(&mut byte) {
                Ok(1) => seen.push(byte[0]),
                _ => panic!("serve stopped: {}", String::from_utf8_lossy(&seen)),
            }
            let text = String::from_utf8_lossy(&seen);
            if let Some(rest) = text.split("http://").nth(1)
                && let Some(addr) = rest.split('/').next().filter(|_| rest.contains('/'))
            {
                break addr.parse().expect("an address");
            }
        };
        // Keep reading its standard error, so that it never blocks on it.
        std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
        Server { child, addr }
    }

    /// Whether the process still runs.
    pub fn alive(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }

    /// Peak and current resident memory of the process, in KiB (Linux).
    pub fn memory_kb(&self) -> (u64, u64) {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .unwrap_or_default();
        let field = |name: &str| {
            status
                .lines()
                .find(|l| l.starts_with(name))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
                .unwrap_or(0)
        };
        (field("VmHWM:"), field("VmRSS:"))
    }

    /// Sends one request; returns the status and the body.
    pub fn request(
        &self,
        method: &str,
        path: &str,
        content_type: &str,
        body: &[u8],
    ) -> std::io::Result<(u16, String)> {
        request(self.addr, method, path, content_type, body)
    }

    /// Whether `/healthz` answers, and how long it took.
    pub fn healthz(&self) -> (bool, Duration) {
        let t = Instant::now();
        let ok = matches!(
            self.request("GET", "/healthz", "text/plain", b""),
            Ok((200, _))
        );
        (ok, t.elapsed())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The largest request body of the server (its default, 10 MB).
pub const MAX_BODY: usize = 10 * 1024 * 1024;

/// Posts the cases carried by a file or standard input to the server, one
/// by one, each as a raw body, checking the answer and that `/healthz`
/// still answers. Returns (case, status, problems).
pub fn serve_cases(server: &mut Server, cases: &[Case]) -> Vec<(String, u16, Vec<String>)> {
    let mut out = Vec::new();
    for case in cases {
        // A hidden file is about the walk of a folder: a body is a body.
        match &case.carrier {
            Carrier::File(name) if !name.starts_with('.') => {}
            Carrier::Stdin => {}
            _ => continue,
        }
        let bytes = case.bytes();
        let mut problems = Vec::new();
        let content_type = match &case.carrier {
            Carrier::File(name) if name.ends_with(".txt") => "text/plain",
            _ => "text/html",
        };
        let (status, body) = match server.request("POST", "/api/clean", content_type, &bytes) {
            Ok(r) => r,
            Err(e) => {
                problems.push(format!("no answer: {e}"));
                (0, String::new())
            }
        };
        let json: serde_json::Value = serde_json::from_str(&body).unwrap_or_default();
        let truncated = json.get("truncated").is_some_and(|t| !t.is_null());
        let text = json["text"].as_str().unwrap_or("");
        let ok = match &case.expect {
            _ if bytes.len() > MAX_BODY => status == 413,
            Expect::Cleaned(want) => {
                status == 200 && !truncated && want.is_none_or(|w| text.contains(w))
            }
            Expect::Truncated(want) => {
                status == 200 && truncated && want.is_none_or(|w| text.contains(w))
            }
            Expect::Skipped(_) => status == 415,
            Expect::Failed(_) => (400..500).contains(&status),
            // Texts to score go to /api/perplexity (perplexity_serve_case).
            Expect::Scored => false,
        };
        if !ok {
            problems.push(format!(
                "expected {:?}, got {status}: {}",
                case.expect,
                body.chars().take(200).collect::<String>()
            ));
        }
        if !server.alive() {
            problems.push("the server died".into());
            out.push((case.name.clone(), status, problems));
            break;
        }
        if !server.healthz().0 {
            problems.push("/healthz does not answer".into());
        }
        out.push((case.name.clone(), status, problems));
    }
    out
}

/// Sends one request to `addr` (one connection, closed after); returns
/// the status and the body.
pub fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    content_type: &str,
    body: &[u8],
) -> std::io::Result<(u16, String)> {
    let mut s = TcpStream::connect(addr)?;
    s.set_read_timeout(Some(Duration::from_secs(300)))?;
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes())?;
    // The server may answer (413) before reading the whole body.
    let _ = s.write_all(body);
    let mut answer = Vec::new();
    s.read_to_end(&mut answer)?;
    let text = String::from_utf8_lossy(&answer).into_owned();
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = text
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    Ok((status, body))
}

/// `n` concurrent requests of `size` bytes of `<p>1` (the pathological
/// page of D8) to the server; returns their statuses.
pub fn concurrent_floods(server: &Server, size: usize, n: usize) -> Vec<u16> {
    let mut page = b"<html><body>".to_vec();
    while page.len() + 4 <= size {
        page.extend_from_slice(b"<p>1");
    }
    let page = std::sync::Arc::new(page);
    let addr = server.addr;
    let threads: Vec<_> = (0..n)
        .map(|_| {
            let page = page.clone();
            std::thread::spawn(move || {
                request(addr, "POST", "/api/clean", "text/html", &page).map_or(0, |(st, _)| st)
            })
        })
        .collect();
    threads.into_iter().map(|t| t.join().unwrap()).collect()
}

/// D7's check of the server: while a request with an attribute flood of
/// `size` bytes is cleaned, `/healthz` is asked every 50 ms; returns the
/// flood's status, the slowest `/healthz` and whether the server lived.
pub fn attribute_flood_healthz(server: &mut Server, size: usize) -> (u16, Duration, bool) {
    let mut page = String::from("<html><body><div");
    let mut rng = Rng::new(size as u64);
    let mut i = 0;
    while page.len() < size {
        page.push_str(&format!(" a{i}=\"{}\"", rng.word()));
        i += 1;
    }
    page.push_str(">text</div>");
    let addr = server.addr;
    let flood = std::thread::spawn(move || {
        request(addr, "POST", "/api/clean", "text/html", page.as_bytes()).map_or(0, |(s, _)| s)
    });
    let mut slowest = Duration::ZERO;
    let mut alive = true;
    let end_after = Instant::now() + Duration::from_secs(1);
    while !flood.is_finished() || Instant::now() < end_after {
        let (ok, took) = server.healthz();
        slowest = slowest.max(if ok { took } else { Duration::MAX });
        if !server.alive() {
            alive = false;
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let status = flood.join().unwrap_or(0);
    (status, slowest, alive && server.alive())
}

/// A fresh directory for a case under `root`.
pub fn workdir(root: &Path, name: &str) -> PathBuf {
    let d = root.join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}
