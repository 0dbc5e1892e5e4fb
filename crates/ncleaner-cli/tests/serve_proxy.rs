//! Issue 52, item 4: `serve --allow-fetch` fetches through no proxy that
//! the environment names (through one, the check of the addresses a name
//! resolves to never runs), and through the one `--fetch-proxy` names.
#![cfg(feature = "serve")]

mod common;

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::process::{Child, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// What only the proxy reaches.
const SECRET: &str = "The intranet's admin page lists every employee's salary and home address.";

/// A fake HTTP proxy that answers every request with the intranet's page
/// and records the request lines it was sent.
fn proxy() -> (SocketAddr, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    std::thread::spawn(move || {
        for conn in listener.incoming() {
            let Ok(mut c) = conn else { continue };
            let mut head = Vec::new();
            let mut b = [0u8; 1];
            while !head.ends_with(b"\r\n\r\n") && c.read(&mut b).is_ok_and(|n| n == 1) {
                head.push(b[0]);
            }
            let line = String::from_utf8_lossy(&head)
                .lines()
                .next()
                .unwrap_or("")
                .to_string();
            log.lock().unwrap().push(line);
            let page = format!("<html><body><h1>Admin</h1><p>{SECRET}</p></body></html>");
            let _ = write!(
                c,
                "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{page}",
                page.len()
            );
        }
    });
    (addr, seen)
}

/// `ncleaner serve --allow-fetch ARGS` with the environment's proxies set
/// to `proxy`; killed when dropped.
struct Server(Child, SocketAddr);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn serve(proxy: SocketAddr, args: &[&str]) -> Server {
    let url = format!("http://{proxy}");
    let mut child = common::bin()
        .args(["serve", "--addr", "127.0.0.1:0", "--quiet", "--allow-fetch"])
        .args(args)
        .envs([
            ("HTTP_PROXY", &url),
            ("http_proxy", &url),
            ("HTTPS_PROXY", &url),
            ("https_proxy", &url),
            ("ALL_PROXY", &url),
            ("all_proxy", &url),
        ])
        .env_remove("NO_PROXY")
        .env_remove("no_proxy")
        .stderr(Stdio::piped())
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
            break rest.split('/').next().unwrap().parse().unwrap();
        }
    };
    std::thread::spawn(move || std::io::copy(&mut err, &mut std::io::sink()));
    Server(child, addr)
}

/// Asks `server` to fetch `url`; returns the status and the body.
fn fetch(server: &Server, url: &str) -> (u16, String) {
    let body = format!(r#"{{"fetch": "{url}"}}"#);
    let mut c = TcpStream::connect(server.1).unwrap();
    c.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    write!(
        c,
        "POST /api/clean HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut out = Vec::new();
    let _ = c.read_to_end(&mut out);
    let text = String::from_utf8_lossy(&out).into_owned();
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (
        status,
        text.split_once("\r\n\r\n")
            .map_or("", |(_, b)| b)
            .to_string(),
    )
}

#[test]
fn the_environments_proxy_is_not_used() {
    let (addr, seen) = proxy();
    let server = serve(addr, &[]);
    // A name that resolves nowhere but at the proxy, as an intranet's
    // names do.
    let (status, body) = fetch(&server, "http://intranet.invalid/admin");
    assert_ne!(status, 200, "{body}");
    assert!(!body.contains("salary"), "{body}");
    assert!(
        seen.lock().unwrap().is_empty(),
        "the proxy was asked: {:?}",
        seen.lock().unwrap()
    );
}

#[test]
fn a_fetch_proxy_is_used_and_address_literals_are_still_checked() {
    let (addr, seen) = proxy();
    let server = serve(addr, &["--fetch-proxy", &format!("http://{addr}")]);
    let (status, body) = fetch(&server, "http://intranet.invalid/admin");
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("salary"), "{body}");
    assert_eq!(
        seen.lock().unwrap().as_slice(),
        ["GET http://intranet.invalid/admin HTTP/1.1"]
    );
    for url in [
        "http://127.0.0.1/admin",
        "http://10.0.0.1/",
        "http://[::1]/",
        "http://localhost/",
    ] {
        let (status, body) = fetch(&server, url);
        assert_eq!(status, 403, "{url}: {body}");
    }
    assert_eq!(seen.lock().unwrap().len(), 1);
}

#[test]
fn a_fetch_proxy_must_be_http() {
    let out = common::run(&[
        "serve",
        "--addr",
        "127.0.0.1:0",
        "--allow-fetch",
        "--fetch-proxy",
        "socks5://127.0.0.1:1080",
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("must be an http:// or https:// URL"), "{err}");
    let out = common::run(&["serve", "--fetch-proxy", "http://127.0.0.1:3128"]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--allow-fetch"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
