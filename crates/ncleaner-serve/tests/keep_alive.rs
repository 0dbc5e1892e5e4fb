//! Issue 70, P6: the server announces every close it makes on a
//! keep-alive connection (`Connection: close` on the answer), its idle
//! clock starts when an answer is written, and a client still sending a
//! refused body is not cut off mid-body (a broken pipe).

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use common::*;

/// Reads an answer's head (up to its blank line) from `c`, byte by byte.
fn read_head(c: &mut TcpStream) -> String {
    let mut head = Vec::new();
    let mut b = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        match c.read(&mut b) {
            Ok(1) => head.push(b[0]),
            other => panic!(
                "the head ends early: {other:?} after {:?}",
                String::from_utf8_lossy(&head)
            ),
        }
    }
    String::from_utf8_lossy(&head).to_ascii_lowercase()
}

fn content_length(head: &str) -> usize {
    head.lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse().ok())
        .expect("a content-length")
}

/// A request refused before its body is read (503: the byte budget is
/// spent; 413: the body is over the limit) is answered with `Connection:
/// close`, and the client, which goes on sending its whole body, is not
/// cut off: its writes succeed, it reads the answer, then the close.
#[test]
fn an_early_refusal_announces_its_close_and_breaks_no_pipe() {
    let s = start(four_mib_budget());
    // A client announces 3 MB and sends a few bytes: it holds 3 MB of the budget.
    let mut first = TcpStream::connect(s.addr).unwrap();
    let head = |len: usize| {
        format!(
            "POST /api/clean HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/plain\r\nContent-Length: {len}\r\n\r\n"
        )
    };
    first.write_all(head(3 << 20).as_bytes()).unwrap();
    first.write_all(b"some bytes").unwrap();
    std::thread::sleep(Duration::from_millis(300));
    for (len, status) in [(3 << 20, "503"), (5 << 20, "413")] {
        let mut c = TcpStream::connect(s.addr).unwrap();
        c.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        c.write_all(head(len).as_bytes()).unwrap();
        let body = vec![b'x'; len];
        c.write_all(&body)
            .unwrap_or_else(|e| panic!("{status}: the body's writes broke: {e}"));
        let answer = read_head(&mut c);
        assert!(
            answer.starts_with(&format!("http/1.1 {status}")),
            "{answer}"
        );
        assert!(answer.contains("connection: close"), "{answer}");
        let mut rest = Vec::new();
        c.read_to_end(&mut rest)
            .unwrap_or_else(|e| panic!("{status}: the answer's end is lost: {e}"));
        assert_eq!(rest.len(), content_length(&answer));
    }
    drop(first);
}

/// An answer that takes longer to download than the idle timeout does not
/// start the idle clock until its last byte is written: the connection
/// stays open after it, and the next request on it is answered.
#[test]
fn the_idle_clock_starts_when_the_answer_is_written() {
    let mut cfg = default_config();
    cfg.idle_timeout = Duration::from_millis(300);
    cfg.timeout = Duration::from_secs(60);
    let s = start(cfg);
    // About 6 MB of text lines: an answer of about 20 MB (each line is a
    // segment, its text twice), far more than the sockets' buffers.
    let line = "A line of a long text dump that is kept whole by keep-all.\n";
    let text = line.repeat((6 << 20) / line.len());
    // A receive buffer of fixed, small size: left to the kernel, it grows
    // (to 32 MB where `net.ipv4.tcp_rmem` allows it) until it holds the
    // whole answer, and the server's last write is long past before the
    // client has read it.
    let socket = socket2::Socket::new(
        socket2::Domain::for_address(s.addr),
        socket2::Type::STREAM,
        None,
    )
    .unwrap();
    socket.set_recv_buffer_size(64 << 10).unwrap();
    socket.connect(&s.addr.into()).unwrap();
    let mut c: TcpStream = socket.into();
    c.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let head = format!(
        "POST /api/clean?method=keep-all HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/plain\r\nContent-Length: {}\r\n\r\n",
        text.len()
    );
    c.write_all(head.as_bytes()).unwrap();
    c.write_all(text.as_bytes()).unwrap();
    let answer = read_head(&mut c);
    assert!(answer.starts_with("http/1.1 200"), "{answer}");
    assert!(!answer.contains("connection: close"), "{answer}");
    // Read slowly: the download takes several idle timeouts. The last 8 MB
    // are read at once: more than the server's send buffer holds (at most
    // 4 MB by `net.ipv4.tcp_wmem`'s default), so its last write is still
    // to come when the slow part ends, and the next request follows it
    // within milliseconds.
    let len = content_length(&answer);
    assert!(len > 16 << 20, "an answer of {len} bytes");
    let mut buf = vec![0u8; 256 << 10];
    let mut got = 0;
    while got < len {
        let n = c.read(&mut buf[..(len - got).min(256 << 10)]).unwrap();
        assert!(n > 0, "the connection closed after {got} of {len} bytes");
        got += n;
        if got < len - (8 << 20) {
            std::thread::sleep(Duration::from_millis(15));
        }
    }
    // The same connection takes the next request.
    c.write_all(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
        .unwrap();
    let answer = read_head(&mut c);
    assert!(answer.starts_with("http/1.1 200"), "{answer}");
    // Every answer that keeps the connection says how long it stays idle.
    assert!(answer.contains("keep-alive: timeout=1"), "{answer}");
}
