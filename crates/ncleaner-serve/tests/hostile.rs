//! Hostile requests: each gets a clear 4xx/503 or a result, and the server lives on.

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use common::*;
use serde_json::Value;

fn alive(s: &TestServer) {
    let (status, body) = raw(
        s,
        "GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
        b"",
    );
    assert!(
        status.contains("200") && body == "ok\n",
        "the server still answers: {status} {body:?}"
    );
}

/// Sends `head` (and `body`), then reads the whole answer; returns the status line and the body.
fn raw(s: &TestServer, head: &str, body: &[u8]) -> (String, String) {
    let mut c = TcpStream::connect(s.addr).unwrap();
    c.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    c.write_all(head.as_bytes()).unwrap();
    c.write_all(body).unwrap();
    let mut out = Vec::new();
    let _ = c.read_to_end(&mut out);
    let text = String::from_utf8_lossy(&out).into_owned();
    let status = text.lines().next().unwrap_or("").to_owned();
    let body = text.split("\r\n\r\n").nth(1).unwrap_or("").to_owned();
    (status, body)
}

#[test]
fn oversized_bodies_get_413() {
    let mut cfg = default_config();
    cfg.max_body = 1000;
    let s = start(cfg);
    // Announced by Content-Length.
    let (status, body) = raw(
        &s,
        "POST /api/clean HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/plain\r\nContent-Length: 5000\r\nConnection: close\r\n\r\n",
        &[b'a'; 5000],
    );
    assert!(status.contains("413"), "{status}");
    assert!(body.contains("larger than 1000 bytes"), "{body}");
    // Chunked, so only reading finds out.
    let chunk = format!("{:x}\r\n{}\r\n", 800, "b".repeat(800));
    let chunks = format!("{chunk}{chunk}0\r\n\r\n");
    let (status, _) = raw(
        &s,
        "POST /api/clean HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n",
        chunks.as_bytes(),
    );
    assert!(status.contains("413"), "{status}");
    alive(&s);
}

/// Deep nesting is cleaned; binary garbage is refused as no document (415,
/// issue 35: not "cleaned" into text); the server lives on.
#[test]
fn deep_nesting_is_cleaned_and_binary_garbage_refused() {
    let s = start(default_config());
    let mut page = "<div>".repeat(100_000);
    page.push_str("<p>The text at the bottom of a very deep page is still found and judged like any other paragraph.</p>");
    page.push_str(&"</div>".repeat(100_000));
    let head = format!(
        "POST /api/clean HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/html\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        page.len()
    );
    let (status, body) = raw(&s, &head, page.as_bytes());
    assert!(status.contains("200"), "{status}");
    let v: Value = serde_json::from_str(&body).unwrap();
    assert!(
        v["segments"]
            .as_array()
            .unwrap()
            .iter()
            .any(|x| x["text"].as_str().unwrap().contains("very deep page"))
    );

    let garbage: Vec<u8> = (0..200_000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    let head = format!(
        "POST /api/clean HTTP/1.1\r\nHost: localhost\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        garbage.len()
    );
    let (status, body) = raw(&s, &head, &garbage);
    assert!(status.contains("415"), "{status}");
    assert!(body.contains("not a document: binary data"), "{body}");
    alive(&s);
}

#[test]
fn slow_clients_time_out_and_others_are_served() {
    let mut cfg = default_config();
    cfg.timeout = Duration::from_millis(800);
    let s = start(cfg);
    // A client that stalls inside its headers holds only its own connection.
    let mut stalled = TcpStream::connect(s.addr).unwrap();
    stalled
        .write_all(b"POST /api/clean HTTP/1.1\r\nHost: localhost\r\nContent-Ty")
        .unwrap();
    // A client that announces a body and stalls gets 408 after the time limit.
    let start_t = Instant::now();
    let mut slow = TcpStream::connect(s.addr).unwrap();
    slow.set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    slow.write_all(b"POST /api/clean HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\nonly ten b").unwrap();
    alive(&s);
    let mut out = Vec::new();
    let mut buf = [0u8; 4096];
    while let Ok(n) = slow.read(&mut buf) {
        if n == 0 {
            break;
        }
        out.extend_from_slice(&buf[..n]);
        if String::from_utf8_lossy(&out).contains("}") {
            break;
        }
    }
    let text = String::from_utf8_lossy(&out);
    assert!(text.starts_with("HTTP/1.1 408"), "{text}");
    assert!(text.contains("did not arrive"), "{text}");
    assert!(start_t.elapsed() >= Duration::from_millis(700));
    drop(stalled);
    alive(&s);
}

/// Reads from `c` until `needle` has arrived; returns what was read.
fn read_until(c: &mut TcpStream, needle: &str) -> String {
    let mut out = Vec::new();
    let mut buf = [0u8; 4096];
    while !String::from_utf8_lossy(&out).contains(needle) {
        let n = c.read(&mut buf).unwrap();
        assert!(
            n > 0,
            "closed before {needle:?}: {}",
            String::from_utf8_lossy(&out)
        );
        out.extend_from_slice(&buf[..n]);
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// With room for two requests in flight, two requests whose pages are being
/// fetched fill it (a fetch holds its place while it waits on the network,
/// though not a worker): a third gets 503 at once. What each side sees tells
/// the test where each request is, so no timing decides the outcome: the
/// origin server has received both fetches before the third is sent.
#[test]
fn too_many_waiting_requests_get_503() {
    // An origin that answers its two requests only when the test says so.
    let origin = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let origin_addr = origin.local_addr().unwrap();
    let (asked_tx, asked_rx) = std::sync::mpsc::channel();
    let (answer_tx, answer_rx) = std::sync::mpsc::channel::<()>();
    let origin = std::thread::spawn(move || {
        let mut held = Vec::new();
        for _ in 0..2 {
            let (mut c, _) = origin.accept().unwrap();
            c.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
            read_until(&mut c, "\r\n\r\n");
            asked_tx.send(()).unwrap();
            held.push(c);
        }
        answer_rx.recv_timeout(Duration::from_secs(120)).unwrap();
        let page = example_page();
        for mut c in held {
            let _ = write!(
                c,
                "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{page}",
                page.len()
            );
        }
    });
    let mut cfg = default_config();
    cfg.workers = 1;
    cfg.max_pending = 2;
    // Failure guards only: nothing here waits for a limit.
    cfg.timeout = Duration::from_secs(120);
    cfg.fetch = Some(ncleaner_serve::fetch::FetchConfig {
        allow_private: true,
        timeout: Duration::from_secs(120),
        ..Default::default()
    });
    let s = start(cfg);

    // Two requests fetch: each holds a place while the origin waits.
    let addr = s.addr;
    let fetch = move || {
        std::thread::spawn(move || {
            let json = format!(r#"{{"fetch": "http://{origin_addr}/page"}}"#);
            let head = format!(
                "POST /api/clean HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                json.len()
            );
            let mut c = TcpStream::connect(addr).unwrap();
            c.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
            c.write_all(head.as_bytes()).unwrap();
            c.write_all(json.as_bytes()).unwrap();
            let mut out = Vec::new();
            let _ = c.read_to_end(&mut out);
            String::from_utf8_lossy(&out).into_owned()
        })
    };
    let fetching = [fetch(), fetch()];
    for _ in 0..2 {
        asked_rx
            .recv_timeout(Duration::from_secs(120))
            .expect("each fetch reaches the origin");
    }

    // The third finds no room: 503 at once, not after the time limit.
    let t = Instant::now();
    let (status, body) = raw(
        &s,
        "POST /api/clean HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/plain\r\nContent-Length: 5\r\nConnection: close\r\n\r\n",
        b"hello",
    );
    assert!(status.contains("503"), "{status} {body}");
    assert!(
        body.contains("server busy: too many requests waiting"),
        "{body}"
    );
    assert!(t.elapsed() < Duration::from_secs(60), "{:?}", t.elapsed());
    alive(&s);

    // The origin answers: both fetched pages are cleaned.
    answer_tx.send(()).unwrap();
    for f in fetching {
        let answer = f.join().unwrap();
        assert!(
            answer.starts_with("HTTP/1.1 200"),
            "{}",
            &answer[..answer.len().min(300)]
        );
    }
    origin.join().unwrap();
    alive(&s);
}
