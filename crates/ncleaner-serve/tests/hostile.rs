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
        "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
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
        "POST /api/clean HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 5000\r\nConnection: close\r\n\r\n",
        &[b'a'; 5000],
    );
    assert!(status.contains("413"), "{status}");
    assert!(body.contains("larger than 1000 bytes"), "{body}");
    // Chunked, so only reading finds out.
    let chunk = format!("{:x}\r\n{}\r\n", 800, "b".repeat(800));
    let chunks = format!("{chunk}{chunk}0\r\n\r\n");
    let (status, _) = raw(
        &s,
        "POST /api/clean HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n",
        chunks.as_bytes(),
    );
    assert!(status.contains("413"), "{status}");
    alive(&s);
}

#[test]
fn deep_nesting_and_binary_garbage_are_cleaned() {
    let s = start(default_config());
    let mut page = "<div>".repeat(100_000);
    page.push_str("<p>The text at the bottom of a very deep page is still found and judged like any other paragraph.</p>");
    page.push_str(&"</div>".repeat(100_000));
    let head = format!(
        "POST /api/clean HTTP/1.1\r\nHost: x\r\nContent-Type: text/html\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
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
        "POST /api/clean HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        garbage.len()
    );
    let (status, _) = raw(&s, &head, &garbage);
    assert!(status.contains("200"), "{status}");
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
        .write_all(b"POST /api/clean HTTP/1.1\r\nHost: x\r\nContent-Ty")
        .unwrap();
    // A client that announces a body and stalls gets 408 after the time limit.
    let start_t = Instant::now();
    let mut slow = TcpStream::connect(s.addr).unwrap();
    slow.set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    slow.write_all(b"POST /api/clean HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\nonly ten b").unwrap();
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

#[test]
#[ignore = "its 24 MB page is now refused at once by the answer cap (413), so it no longer holds the worker; limits.rs pending_places_and_bytes_are_checked_before_reading covers the 503 of a full waiting room: rework pending"]
fn too_many_waiting_requests_get_503() {
    let mut cfg = default_config();
    cfg.workers = 1;
    cfg.max_pending = 1;
    cfg.max_body = 64 << 20;
    let s = start(cfg);
    // A large page keeps the one worker busy for a while...
    let para = "<p>Tomatoes are among the easiest vegetables to grow in containers on a sunny balcony.</p>\n";
    let big = para.repeat((24 << 20) / para.len());
    let addr = s.addr;
    let first = std::thread::spawn(move || {
        let head = format!(
            "POST /api/clean HTTP/1.1\r\nHost: x\r\nContent-Type: text/html\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            big.len()
        );
        let mut c = TcpStream::connect(addr).unwrap();
        c.write_all(head.as_bytes()).unwrap();
        c.write_all(big.as_bytes()).unwrap();
        let mut out = Vec::new();
        let _ = c.read_to_end(&mut out);
        (
            Instant::now(),
            String::from_utf8_lossy(&out[..out.len().min(200)]).into_owned(),
        )
    });
    // ...so that another finds the waiting room full while it is cleaned.
    let mut busy = None;
    while !first.is_finished() {
        let (status, body) = raw(
            &s,
            "POST /api/clean HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 5\r\nConnection: close\r\n\r\n",
            b"hello",
        );
        assert!(status.contains("200") || status.contains("503"), "{status}");
        if status.contains("503") {
            busy = Some((Instant::now(), body));
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let (first_done, first_status) = first.join().unwrap();
    if first_status.starts_with("HTTP/1.1 503") {
        // A small request held the only place when the large page had been
        // read: the large one was refused instead, by the same rule.
        assert!(first_status.contains("server busy"), "{first_status}");
    } else {
        assert!(first_status.starts_with("HTTP/1.1 200"), "{first_status}");
        let (busy_at, body) = busy.expect("a request was refused while the worker was busy");
        assert!(busy_at < first_done);
        assert!(body.contains("server busy"), "{body}");
    }
    alive(&s);
}
