//! `--allow-fetch`: pages fetched from a local server, with the limits.

mod common;

use std::time::Duration;

use axum::Router;
use axum::response::{Html, Redirect};
use axum::routing::get;
use common::*;
use ncleaner_serve::fetch::FetchConfig;
use serde_json::{Value, json};

/// A local origin server: the example page, a redirect loop, a huge page, a slow page.
async fn origin() -> std::net::SocketAddr {
    let app = Router::new()
        .route("/page", get(|| async { Html(example_page()) }))
        .route("/to-page", get(|| async { Redirect::temporary("/page") }))
        .route(
            "/loop/{n}",
            get(
                |axum::extract::Path(n): axum::extract::Path<u32>| async move {
                    Redirect::temporary(&format!("/loop/{}", n + 1))
                },
            ),
        )
        .route("/big", get(|| async { "x".repeat(3 << 20) }))
        .route(
            "/slow",
            get(|| async {
                tokio::time::sleep(Duration::from_secs(5)).await;
                "late"
            }),
        );
    let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = l.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(l, app).await.unwrap() });
    addr
}

async fn fetch(s: &TestServer, url: String) -> (u16, Value) {
    let r = reqwest::Client::new()
        .post(s.url("/api/clean"))
        .json(&json!({ "fetch": url }))
        .send()
        .await
        .unwrap();
    (r.status().as_u16(), r.json().await.unwrap())
}

#[tokio::test(flavor = "multi_thread")]
async fn fetching_is_off_by_default_and_private_addresses_are_refused() {
    let o = origin().await;
    let off = start(default_config());
    let (status, v) = fetch(&off, format!("http://{o}/page")).await;
    assert_eq!(status, 403, "{v}");
    assert!(v["error"].as_str().unwrap().contains("--allow-fetch"));

    let mut cfg = default_config();
    cfg.fetch = Some(FetchConfig::default());
    let public_only = start(cfg);
    for url in [
        format!("http://{o}/page"),
        format!("http://localhost:{}/page", o.port()),
        "http://[::1]/".into(),
        "http://169.254.169.254/latest/meta-data/".into(),
    ] {
        let (status, v) = fetch(&public_only, url.clone()).await;
        assert_eq!(status, 403, "{url}: {v}");
        assert!(v["error"].as_str().unwrap().contains("private"), "{v}");
    }
    for url in ["not a url", "ftp://example.org/x", "file:///etc/passwd"] {
        let (status, _) = fetch(&public_only, url.into()).await;
        assert_eq!(status, 400, "{url}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn fetched_pages_are_cleaned_within_limits() {
    let o = origin().await;
    let mut cfg = default_config();
    cfg.fetch = Some(FetchConfig {
        allow_private: true,
        timeout: Duration::from_secs(1),
        max_bytes: 1 << 20,
        ..FetchConfig::default()
    });
    let s = start(cfg);
    let (status, v) = fetch(&s, format!("http://{o}/to-page")).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(
        v["url"],
        format!("http://{o}/page"),
        "the final URL after the redirect"
    );
    assert!(v["text"].as_str().unwrap().contains("Tomatoes are among"));
    let (status, v) = fetch(&s, format!("http://{o}/loop/0")).await;
    assert_eq!(status, 502, "{v}");
    assert!(v["error"].as_str().unwrap().contains("redirects"), "{v}");
    let (status, v) = fetch(&s, format!("http://{o}/big")).await;
    assert_eq!(status, 413, "{v}");
    let (status, v) = fetch(&s, format!("http://{o}/slow")).await;
    assert_eq!(status, 504, "{v}");
    let (status, _) = fetch(&s, format!("http://{o}/missing")).await;
    assert_eq!(status, 502);
}

/// Item 15: a fetch takes a place among the pending requests (not a
/// worker: issue 70, P7): while it waits on a slow origin, another request
/// finds no place.
#[tokio::test(flavor = "multi_thread")]
async fn fetches_count_against_the_limits() {
    let o = origin().await;
    let mut cfg = default_config();
    cfg.max_pending = 1;
    cfg.fetch = Some(FetchConfig {
        allow_private: true,
        ..FetchConfig::default()
    });
    let s = start(cfg);
    let url = s.url("/api/clean");
    let slow = tokio::spawn(async move {
        reqwest::Client::new()
            .post(url)
            .json(&json!({ "fetch": format!("http://{o}/slow") }))
            .send()
            .await
            .unwrap()
            .status()
            .as_u16()
    });
    tokio::time::sleep(Duration::from_millis(500)).await;
    let r = reqwest::Client::new()
        .post(s.url("/api/clean"))
        .json(&json!({ "text": "A line of text." }))
        .send()
        .await
        .unwrap();
    let status = r.status().as_u16();
    let v: Value = r.json().await.unwrap();
    assert_eq!(status, 503, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("too many requests"),
        "{v}"
    );
    assert_eq!(slow.await.unwrap(), 200);
}

/// An origin that answers its headers at once, then sends `first` of a
/// body of `length` bytes and nothing more for `hold`.
async fn raw_origin(
    content_type: &'static str,
    first: &'static [u8],
    length: usize,
    hold: Duration,
) -> std::net::SocketAddr {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = l.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((mut c, _)) = l.accept().await {
            tokio::spawn(async move {
                let mut buf = [0u8; 4096];
                let _ = c.read(&mut buf).await;
                let head = format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\nContent-Length: {length}\r\n\r\n"
                );
                let _ = c.write_all(head.as_bytes()).await;
                let _ = c.write_all(first).await;
                tokio::time::sleep(hold).await;
            });
        }
    });
    addr
}

/// D13: a page whose body comes slower than the time limit is a timeout
/// (504, as GUIDE.md says under `ncleaner serve`), and a fetched PDF is refused, not cleaned.
#[tokio::test(flavor = "multi_thread")]
async fn slow_bodies_are_timeouts_and_pdfs_are_not_pages() {
    let mut cfg = default_config();
    cfg.fetch = Some(FetchConfig {
        allow_private: true,
        timeout: Duration::from_secs(1),
        ..FetchConfig::default()
    });
    let s = start(cfg);
    let slow = raw_origin("text/html", b"<p>the start", 1000, Duration::from_secs(5)).await;
    let (status, v) = fetch(&s, format!("http://{slow}/")).await;
    assert_eq!(status, 504, "{v}");
    let pdf = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj";
    for ct in ["application/pdf", "application/octet-stream"] {
        let o = raw_origin(ct, pdf, pdf.len(), Duration::ZERO).await;
        let (status, v) = fetch(&s, format!("http://{o}/x.pdf")).await;
        assert_eq!(status, 415, "{ct}: {v}");
        let e = v["error"].as_str().unwrap();
        assert!(e.contains("not a document"), "{ct}: {e}");
    }
}

/// Issue 70, P7: a fetch waits on the network without a cleaning worker.
/// With one worker and two fetches held by an origin that answers only
/// when the test lets it, a small page posted meanwhile is cleaned (were
/// the fetches holding the worker, it would wait for one until its time
/// limit and get 503); the fetches are answered once let go.
#[tokio::test(flavor = "multi_thread")]
async fn a_fetch_holds_no_cleaning_worker_while_it_waits() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let (release_tx, release_rx) = tokio::sync::watch::channel(false);
    let waiting = Arc::new(AtomicUsize::new(0));
    let seen = waiting.clone();
    let app = Router::new().route(
        "/held",
        get(move || {
            let mut rx = release_rx.clone();
            seen.fetch_add(1, Ordering::SeqCst);
            async move {
                while !*rx.borrow_and_update() {
                    if rx.changed().await.is_err() {
                        break;
                    }
                }
                Html(example_page())
            }
        }),
    );
    let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let o = l.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(l, app).await.unwrap() });
    let mut cfg = default_config();
    cfg.workers = 1;
    // Were a fetch to hold the worker, the small page would wait this long
    // for one and get 503.
    cfg.timeout = Duration::from_secs(10);
    cfg.fetch = Some(FetchConfig {
        allow_private: true,
        ..FetchConfig::default()
    });
    let s = start(cfg);
    let fetches: Vec<_> = (0..2)
        .map(|_| {
            let url = s.url("/api/clean");
            tokio::spawn(async move {
                reqwest::Client::new()
                    .post(url)
                    .json(&json!({ "fetch": format!("http://{o}/held") }))
                    .send()
                    .await
                    .unwrap()
                    .status()
                    .as_u16()
            })
        })
        .collect();
    // Both fetches wait on the origin, which holds them until released (a
    // fetch that needed the one worker would wait for it instead, and get
    // 503 at its time limit).
    let guard = std::time::Instant::now();
    while waiting.load(Ordering::SeqCst) < 2 {
        let n = waiting.load(Ordering::SeqCst);
        assert!(
            guard.elapsed() < Duration::from_secs(20),
            "only {n} of 2 fetches reached the origin: a fetch waits for a worker"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let r = reqwest::Client::new()
        .post(s.url("/api/clean"))
        .json(&json!({ "text": "A line of text that is cleaned while two fetches wait." }))
        .send()
        .await
        .unwrap();
    let status = r.status().as_u16();
    let v: Value = r.json().await.unwrap();
    assert_eq!(status, 200, "{v}");
    assert!(
        fetches.iter().all(|f| !f.is_finished()),
        "the fetches were held"
    );
    release_tx.send(true).unwrap();
    for f in fetches {
        assert_eq!(f.await.unwrap(), 200);
    }
}
