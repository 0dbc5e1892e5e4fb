//! Issue 70: every input of `ncleaner clean` reads bytes as their writers
//! meant them. A page saved again as UTF-8 that keeps a legacy multi-byte
//! label (GB2312 in its `<meta>`, or in a WARC record's HTTP header) is read
//! as UTF-8; a GBK page labelled UTF-8 is read as GBK; a GBK page labelled
//! GBK stays GBK. Each as a file, a WARC record and a JSON Lines string of
//! compressed bytes (Parquet's binary column: the corpus crate's tests;
//! Python and the server: their own).

mod common;

use std::path::Path;

use common::{json_lines, run_clean, tempdir};
use ncleaner_corpus::compress::gzip_member;

const BODY: [&str; 2] = [
    "新华社北京十二月十五日电，记者从国家气象局获悉，受强冷空气影响，未来三天我国北方大部分地区将出现大风降温天气，气温普遍下降八到十度。",
    "气象专家提醒，此次降温过程持续时间较长，影响范围较广，各地应提前做好防寒保暖工作，特别是老人和儿童要注意添加衣物，出行时注意交通安全。",
];

/// The page, declaring `meta` in a `<meta>` when given.
fn page(meta: Option<&str>) -> String {
    let declared = meta.map_or(String::new(), |c| {
        format!("<meta http-equiv=\"Content-Type\" content=\"text/html; charset={c}\">")
    });
    format!(
        "<html><head>{declared}<title>天气</title></head><body><p>{}</p><p>{}</p></body></html>",
        BODY[0], BODY[1]
    )
}

fn gbk(s: &str) -> Vec<u8> {
    encoding_rs::GBK.encode(s).0.into_owned()
}

/// The cases: (what, page bytes, the HTTP header's charset for WARC).
fn cases() -> Vec<(&'static str, Vec<u8>, Option<&'static str>)> {
    vec![
        (
            "UTF-8 under a GB2312 <meta>",
            page(Some("gb2312")).into_bytes(),
            None,
        ),
        (
            "UTF-8 under a GB2312 header",
            page(None).into_bytes(),
            Some("gb2312"),
        ),
        ("GBK under a UTF-8 <meta>", gbk(&page(Some("utf-8"))), None),
        ("GBK under a UTF-8 header", gbk(&page(None)), Some("utf-8")),
        ("GBK under a GBK <meta>", gbk(&page(Some("gbk"))), None),
    ]
}

/// A WARC `response` record of `html`, its header naming `charset`.
fn response(id: usize, html: &[u8], charset: Option<&str>) -> Vec<u8> {
    let ct = charset.map_or("text/html".to_string(), |c| {
        format!("text/html; charset={c}")
    });
    let mut block = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: {ct}\r\nContent-Length: {}\r\n\r\n",
        html.len()
    )
    .into_bytes();
    block.extend_from_slice(html);
    let mut v = format!(
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-{id:012}>\r\n\
         WARC-Target-URI: http://example.cn/{id}\r\nWARC-Date: 2024-01-01T00:00:00Z\r\n\
         Content-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n",
        block.len()
    )
    .into_bytes();
    v.extend_from_slice(&block);
    v.extend_from_slice(b"\r\n\r\n");
    v
}

/// Cleans `input` with every segment kept and asserts that each of the
/// records' texts reads the body, in the order of `whats`.
fn reads_right(input: &Path, whats: &[&str]) {
    let out = input.with_extension("out.jsonl");
    let o = run_clean(&[
        "--method",
        "keep-all",
        "-o",
        out.to_str().unwrap(),
        input.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let records = json_lines(&out);
    assert_eq!(records.len(), whats.len());
    for (r, what) in records.iter().zip(whats) {
        let text = r["text"].as_str().unwrap_or_else(|| panic!("{what}: {r}"));
        for p in BODY {
            assert!(text.contains(p), "{what}: {p:?} not in {text:?}");
        }
    }
}

#[test]
fn a_file_is_read_as_its_bytes_say() {
    let dir = tempdir();
    for (what, bytes, charset) in cases() {
        if charset.is_some() {
            continue;
        }
        let path = dir.path().join("page.html");
        std::fs::write(&path, bytes).unwrap();
        reads_right(&path, &[what]);
    }
}

#[test]
fn a_warc_record_is_read_as_its_bytes_say_whatever_its_header() {
    let dir = tempdir();
    let path = dir.path().join("pages.warc.gz");
    let (mut warc, mut whats) = (Vec::new(), Vec::new());
    for (i, (what, bytes, charset)) in cases().into_iter().enumerate() {
        warc.extend(gzip_member(&response(i, &bytes, charset), 6));
        whats.push(what);
    }
    std::fs::write(&path, warc).unwrap();
    reads_right(&path, &whats);
}

/// A JSON string holding a page's gzip bytes one per character (as scripts
/// store bytes): decompressed, the page's bytes are read as a file's.
#[test]
fn json_lines_of_compressed_bytes_are_read_as_their_bytes_say() {
    let dir = tempdir();
    let path = dir.path().join("pages.jsonl");
    let (mut lines, mut whats) = (String::new(), Vec::new());
    for (i, (what, bytes, charset)) in cases().into_iter().enumerate() {
        if charset.is_some() {
            continue;
        }
        let packed: String = gzip_member(&bytes, 6)
            .iter()
            .map(|&b| char::from(b))
            .collect();
        let line = serde_json::json!({"id": format!("p{i}"), "html": packed});
        lines.push_str(&format!("{line}\n"));
        whats.push(what);
    }
    // A JSON string is Unicode: a UTF-8 page's stale label cannot mangle it.
    let line = serde_json::json!({"id": "s", "html": page(Some("gb2312"))});
    lines.push_str(&format!("{line}\n"));
    whats.push("a string under a GB2312 <meta>");
    std::fs::write(&path, lines).unwrap();
    reads_right(&path, &whats);
}
