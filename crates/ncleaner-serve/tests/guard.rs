//! Issue 52, item 10: the server answers only to the names it knows as
//! `Host` (DNS rebinding), and every answer carries the security headers.

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use common::*;
use ncleaner_serve::fetch::FetchConfig;

/// Sends one request with `host` as its `Host` (none when `None`); returns
/// the status, the headers (names lowercased) and the body.
fn request(
    s: &TestServer,
    method: &str,
    path: &str,
    host: Option<&str>,
    body: &str,
) -> (u16, Vec<(String, String)>, String) {
    let mut c = TcpStream::connect(s.addr).unwrap();
    c.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    // Without a Host, as HTTP/1.0.
    let (version, host) = host.map_or(("1.0", String::new()), |h| {
        ("1.1", format!("Host: {h}\r\n"))
    });
    let head = format!(
        "{method} {path} HTTP/{version}\r\n{host}Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    c.write_all(head.as_bytes()).unwrap();
    let mut out = Vec::new();
    let _ = c.read_to_end(&mut out);
    let text = String::from_utf8_lossy(&out).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    (status, headers, body.to_string())
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

/// A page on another site that points its own name at the server (DNS
/// rebinding) reaches it with that name as `Host`: refused, and so never
/// cleaned or fetched; the server's own addresses and localhost pass, as
/// do the names given with `--allow-host`.
#[test]
fn names_the_server_was_not_given_are_refused() {
    let mut cfg = default_config();
    cfg.fetch = Some(FetchConfig {
        allow_private: true,
        ..FetchConfig::default()
    });
    let s = start(cfg);
    let bound = s.addr.to_string();
    let fetch = format!(r#"{{"fetch": "http://{bound}/healthz"}}"#);
    for host in [
        "evil.example",
        "evil.example:8080",
        "intranet.localhost.evil.example",
    ] {
        for (method, path, body) in [
            ("GET", "/", ""),
            ("GET", "/api/models", ""),
            ("POST", "/api/clean", fetch.as_str()),
            ("POST", "/api/perplexity", r#"{"text": "One sentence."}"#),
        ] {
            let (status, headers, body) = request(&s, method, path, Some(host), body);
            assert_eq!(status, 403, "{host} {method} {path}: {body}");
            assert!(body.contains("--allow-host"), "{body}");
            assert_eq!(header(&headers, "x-content-type-options"), Some("nosniff"));
        }
    }
    for host in [
        bound.as_str(),
        "127.0.0.1",
        "localhost",
        "localhost:8080",
        "[::1]:8080",
        "demo.localhost",
    ] {
        let (status, _, body) = request(&s, "GET", "/api/models", Some(host), "");
        assert_eq!(status, 200, "{host}: {body}");
    }
    // HTTP/1.0 has no Host; browsers always send one.
    let (status, _, _) = request(&s, "GET", "/healthz", None, "");
    assert_eq!(status, 200);

    let mut cfg = default_config();
    cfg.allow_hosts = vec!["demo.example.org".into()];
    let s = start(cfg);
    let (status, _, body) = request(&s, "GET", "/healthz", Some("Demo.Example.org:443"), "");
    assert_eq!((status, body.as_str()), (200, "ok\n"));
    let (status, _, _) = request(&s, "GET", "/healthz", Some("evil.example"), "");
    assert_eq!(status, 403);
}

/// Every answer says nosniff and may not be framed; the page's policy
/// allows its own inline script and style and requests to its origin.
#[test]
fn answers_carry_the_security_headers() {
    let s = start(default_config());
    for (path, page) in [
        ("/", true),
        ("/api/models", false),
        ("/api/openapi.json", false),
        ("/healthz", false),
        ("/nothing", false),
    ] {
        let (status, h, _) = request(&s, "GET", path, Some("localhost"), "");
        assert!(status == 200 || path == "/nothing", "{path}: {status}");
        assert_eq!(
            header(&h, "x-content-type-options"),
            Some("nosniff"),
            "{path}"
        );
        assert_eq!(header(&h, "x-frame-options"), Some("DENY"), "{path}");
        assert_eq!(header(&h, "referrer-policy"), Some("no-referrer"), "{path}");
        let csp = header(&h, "content-security-policy").unwrap_or_default();
        assert!(csp.contains("frame-ancestors 'none'"), "{path}: {csp}");
        assert!(csp.starts_with("default-src 'none'"), "{path}: {csp}");
        assert_eq!(csp.contains("script-src 'sha256-"), page, "{path}: {csp}");
        assert!(!csp.contains("unsafe"), "{path}: {csp}");
    }
}
