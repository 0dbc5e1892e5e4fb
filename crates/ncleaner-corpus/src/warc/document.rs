//! What a WARC record is to the cleaner: a document (the HTTP body,
//! de-chunked and decoded), or a record to skip or fail, with why.

use ncleaner::pipeline::InputKind;

use crate::{Body, Document, warc};

/// What a WARC record is to the cleaner.
#[derive(Debug)]
pub enum WarcDocument {
    /// A document to clean.
    Document(Document),
    /// Not a document (a `request`, `metadata`, `warcinfo` record; a
    /// response that is not HTML): why.
    Skip(String),
    /// A response that should be a document but cannot be read: why.
    Fail(String),
}

/// Decides what a WARC record is: `response` records of HTML (by the HTTP
/// `Content-Type`; when it is missing, by Common Crawl's
/// `WARC-Identified-Payload-Type`, and failing that by looking for tags) are
/// documents, with the HTTP charset as transport charset; the body is
/// de-chunked and decompressed when the HTTP headers say it is encoded.
pub fn warc_document(record: &warc::Record, max: usize) -> WarcDocument {
    let rtype = record.record_type().unwrap_or("(none)");
    if !rtype.eq_ignore_ascii_case("response") {
        return WarcDocument::Skip(format!("{rtype} record"));
    }
    let ct = record.get("Content-Type").unwrap_or("");
    if !warc::media_type(ct).starts_with("application/http") {
        return WarcDocument::Skip(format!("response of Content-Type {ct:?}"));
    }
    let http = match warc::parse_http(&record.block) {
        Ok(h) => h,
        Err(e) => return WarcDocument::Fail(e),
    };
    let media = http.media_type().filter(|m| !m.is_empty()).or_else(|| {
        record
            .get("WARC-Identified-Payload-Type")
            .map(warc::media_type)
    });
    let body = &record.block[http.body_start..];
    let is_html = |m: &str| {
        matches!(
            m,
            "text/html" | "application/xhtml+xml" | "application/xhtml"
        ) || m.ends_with("/html")
    };
    let kind = match media.as_deref() {
        Some(m) if is_html(m) => InputKind::Html,
        Some("") | None | Some("application/octet-stream") | Some("unk") => {
            let head = &body[..body.len().min(64 << 10)];
            if ncleaner::pipeline::looks_like_html(&String::from_utf8_lossy(head)) {
                InputKind::Html
            } else {
                return WarcDocument::Skip(
                    "response without a content type that does not look like HTML".into(),
                );
            }
        }
        Some(m) => return WarcDocument::Skip(format!("response of type {m}")),
    };
    let mut owned: Option<Vec<u8>> = None;
    if http
        .transfer_encoding
        .as_deref()
        .is_some_and(|t| t.to_ascii_lowercase().contains("chunked"))
        && let Some(d) = warc::dechunk(body)
    {
        owned = Some(d);
    }
    if let Some(enc) = http.content_encoding.as_deref() {
        let src = owned.as_deref().unwrap_or(body);
        match warc::decode_content(enc, src, max) {
            Ok(d) if d.as_slice() != src => owned = Some(d),
            Ok(_) => {}
            Err(e) => return WarcDocument::Fail(e),
        }
    }
    let body = match owned {
        Some(v) => Body::Owned(v),
        None => Body::InRecord(http.body_start..record.block.len()),
    };
    WarcDocument::Document(Document {
        body,
        charset: http.charset(),
        kind: Some(kind),
    })
}
