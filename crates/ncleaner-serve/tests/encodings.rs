//! Issue 70: the server reads a page's bytes as their writers meant them,
//! whatever the charset its `Content-Type` names, in a raw body and in a
//! fetched page: UTF-8 under a stale GB2312 label is UTF-8, GBK under a
//! UTF-8 label is GBK, GBK under its own label stays GBK.

mod common;

use axum::Router;
use axum::routing::get;
use common::*;
use ncleaner_serve::fetch::FetchConfig;
use serde_json::{Value, json};

const BODY: &str = "新华社北京十二月十五日电，记者从国家气象局获悉，受强冷空气影响，未来三天我国北方大部分地区将出现大风降温天气，气温普遍下降八到十度。";

fn page() -> String {
    format!("<html><head><title>天气</title></head><body><p>{BODY}</p></body></html>")
}

fn gbk() -> Vec<u8> {
    encoding_rs::GBK.encode(&page()).0.into_owned()
}

/// (the charset the `Content-Type` names, the page's bytes).
fn cases() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("gb2312", page().into_bytes()),
        ("utf-8", gbk()),
        ("gbk", gbk()),
    ]
}

fn assert_reads(charset: &str, v: &Value) {
    let text = v["text"]
        .as_str()
        .unwrap_or_else(|| panic!("{charset}: {v}"));
    assert!(text.contains(BODY), "charset={charset}: {text:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_raw_body_is_read_as_its_bytes_say() {
    let s = start(default_config());
    for (charset, bytes) in cases() {
        let r = reqwest::Client::new()
            .post(s.url("/api/clean?method=keep-all"))
            .header("Content-Type", format!("text/html; charset={charset}"))
            .body(bytes)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status().as_u16(), 200, "{charset}");
        assert_reads(charset, &r.json().await.unwrap());
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_fetched_page_is_read_as_its_bytes_say() {
    let mut app = Router::new();
    for (charset, bytes) in cases() {
        let ct = format!("text/html; charset={charset}");
        app = app.route(
            &format!("/{charset}"),
            get(move || async move { ([("content-type", ct)], bytes) }),
        );
    }
    let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let origin = l.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(l, app).await.unwrap() });
    let mut cfg = default_config();
    cfg.fetch = Some(FetchConfig {
        allow_private: true,
        ..FetchConfig::default()
    });
    let s = start(cfg);
    for (charset, _) in cases() {
        let r = reqwest::Client::new()
            .post(s.url("/api/clean"))
            .json(&json!({ "fetch": format!("http://{origin}/{charset}"), "method": "keep-all" }))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status().as_u16(), 200, "{charset}");
        assert_reads(charset, &r.json().await.unwrap());
    }
}
