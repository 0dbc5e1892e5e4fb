//! Request bodies identified before they are cleaned (issue 35): a body
//! compressed (declared by `Content-Encoding` or not) is decompressed, a
//! binary one refused (415), a bomb refused by its decompressed size (413),
//! a truncated stream cleaned and marked; the server answers on.

mod common;

use std::io::Write;

use common::*;
use serde_json::Value;

const PAGE: &str = "<html><body><p>Bodyquux is the name of this page, and this paragraph of \
    ordinary English prose tells the reader about it at some length, so that any cleaner keeps \
    it as the main text of the page.</p></body></html>";

fn gzip(b: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(6));
    e.write_all(b).unwrap();
    e.finish().unwrap()
}

async fn post(s: &TestServer, headers: &[(&str, &str)], body: Vec<u8>) -> (u16, Value) {
    let mut r = reqwest::Client::new().post(s.url("/api/clean")).body(body);
    for (k, v) in headers {
        r = r.header(*k, *v);
    }
    let r = r.send().await.unwrap();
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or(Value::Null))
}

#[tokio::test(flavor = "multi_thread")]
async fn compressed_bodies_are_decompressed() {
    let s = start(default_config());
    let html = ("Content-Type", "text/html");
    for (headers, body) in [
        (
            vec![html, ("Content-Encoding", "gzip")],
            gzip(PAGE.as_bytes()),
        ),
        (vec![html], gzip(PAGE.as_bytes())),
        (vec![html], zstd::encode_all(PAGE.as_bytes(), 3).unwrap()),
        // Labelled gzip but already decoded: read as it is.
        (
            vec![html, ("Content-Encoding", "gzip")],
            PAGE.as_bytes().to_vec(),
        ),
    ] {
        let (status, v) = post(&s, &headers, body).await;
        assert_eq!(status, 200, "{headers:?}: {v}");
        assert!(
            v["text"].as_str().unwrap().contains("Bodyquux"),
            "{headers:?}: {v}"
        );
        assert!(v["truncated"].is_null(), "{v}");
    }
    // In a JSON body, compressed bytes stored one character per byte.
    let latin1: String = gzip(PAGE.as_bytes())
        .iter()
        .map(|&b| char::from(b))
        .collect();
    let r = reqwest::Client::new()
        .post(s.url("/api/clean"))
        .json(&serde_json::json!({ "html": latin1 }))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let v: Value = r.json().await.unwrap();
    assert!(v["text"].as_str().unwrap().contains("Bodyquux"), "{v}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_truncated_stream_is_cleaned_and_marked() {
    let s = start(default_config());
    let long = PAGE.replace(
        "</body>",
        &"<p>More words of the page, so that the stream is long enough to cut in two.</p>"
            .repeat(300),
    );
    let packed = gzip(long.as_bytes());
    let (status, v) = post(
        &s,
        &[("Content-Type", "text/html"), ("Content-Encoding", "gzip")],
        packed[..packed.len() / 2].to_vec(),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    assert!(v["text"].as_str().unwrap().contains("Bodyquux"), "{v}");
    assert!(
        v["truncated"].as_str().unwrap().contains("cut short"),
        "{v}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn binary_bodies_and_bombs_are_refused() {
    let s = start(default_config());
    let mut seed = 7u64;
    let random: Vec<u8> = (0..100_000)
        .map(|_| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
            (seed >> 56) as u8
        })
        .collect();
    for (what, body) in [
        ("binary data", random),
        (
            "PDF document",
            b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj".to_vec(),
        ),
    ] {
        let (status, v) = post(&s, &[("Content-Type", "text/html")], body).await;
        assert_eq!(status, 415, "{v}");
        assert!(v["error"].as_str().unwrap().contains(what), "{v}");
    }
    // Past the body limit once decompressed (10 MB by default).
    let bomb = gzip(&vec![b' '; 20 << 20]);
    let (status, v) = post(&s, &[("Content-Encoding", "gzip")], bomb).await;
    assert_eq!(status, 413, "{v}");
    let e = v["error"].as_str().unwrap();
    assert!(
        e.contains("decompresses (gzip) to more than 10485760 bytes"),
        "{e}"
    );
    let (status, v) = post(&s, &[("Content-Encoding", "compress")], PAGE.into()).await;
    assert_eq!(status, 415, "{v}");
    // And the server answers on.
    let (status, v) = post(&s, &[("Content-Type", "text/html")], PAGE.into()).await;
    assert_eq!(status, 200, "{v}");
}
