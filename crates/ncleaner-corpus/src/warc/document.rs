//! What a WARC record is to the cleaner: a document (the HTTP body,
//! de-chunked and decoded), or a record to skip or fail, with why.

use ncleaner::InputKind;

use std::borrow::Cow;

use crate::http::HttpResponse;
use crate::identify::{Identified, IdentifyOptions, identify};
use crate::warc::Dechunked;
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
/// documents, with the HTTP charset as transport charset. A response
/// without the record's own `Content-Type` (`application/http`) is read by
/// its bytes: an HTTP response when it starts with a status line, else a
/// payload alone, a document when it looks like HTML. The body is
/// de-chunked when the HTTP headers say it is chunked, then identified
/// ([`crate::identify`]): decompressed as its `Content-Encoding` says or,
/// without one, as its magic bytes say; skipped when it is binary.
///
/// A body that is not whole says so in the document
/// ([`Document::truncated`]): a record marked `WARC-Truncated`, a chunked
/// body that ends before its last chunk (what its chunks hold is cleaned),
/// a compressed body cut short (what decodes is cleaned). A chunked body
/// whose chunk sizes break off in the middle fails: read as it is, its
/// chunk-size lines would be read as text.
pub fn warc_document(record: &warc::Record, max: usize) -> WarcDocument {
    let rtype = record.record_type().unwrap_or("(none)");
    if !rtype.eq_ignore_ascii_case("response") {
        return WarcDocument::Skip(format!("{rtype} record"));
    }
    let ct = record.get("Content-Type").filter(|c| !c.trim().is_empty());
    let http = match ct {
        Some(ct) if warc::media_type(ct).starts_with("application/http") => {
            warc::parse_http(&record.block)
        }
        Some(ct) => return WarcDocument::Skip(format!("response of Content-Type {ct:?}")),
        // No Content-Type: the bytes say what the block is, as a file's
        // do: an HTTP response, or else the payload alone.
        None if record.block.starts_with(b"HTTP/") => warc::parse_http(&record.block),
        None => Ok(HttpResponse {
            status: None,
            content_type: None,
            transfer_encoding: None,
            content_encoding: None,
            body_start: 0,
        }),
    };
    let http = match http {
        Ok(h) => h,
        Err(e) => return WarcDocument::Fail(e),
    };
    let media = http.media_type().filter(|m| !m.is_empty()).or_else(|| {
        record
            .get("WARC-Identified-Payload-Type")
            .map(warc::media_type)
    });
    let is_html = |m: &str| {
        matches!(
            m,
            "text/html" | "application/xhtml+xml" | "application/xhtml"
        ) || m.ends_with("/html")
    };
    let typed = match media.as_deref() {
        Some(m) if is_html(m) => true,
        Some("") | None | Some("application/octet-stream") | Some("unk") => false,
        Some(m) => return WarcDocument::Skip(format!("response of type {m}")),
    };
    let body = &record.block[http.body_start..];
    let stored_cut = record
        .get("WARC-Truncated")
        .map(|why| format!("the WARC record is truncated (WARC-Truncated: {why})"));
    let chunked = http
        .transfer_encoding
        .as_deref()
        .is_some_and(|t| t.to_ascii_lowercase().contains("chunked"));
    let mut truncated = None;
    let dechunked: Cow<'_, [u8]> = match chunked.then(|| warc::dechunk(body)) {
        Some(Dechunked::Whole(v)) => Cow::Owned(v),
        Some(Dechunked::Cut(v)) => {
            truncated = Some(format!(
                "{}the chunked body ends before its last chunk; the {} bytes of its chunks were cleaned",
                stored_cut
                    .as_ref()
                    .map_or_else(String::new, |w| format!("{w}: ")),
                v.len()
            ));
            Cow::Owned(v)
        }
        Some(Dechunked::Corrupt(at)) => {
            return WarcDocument::Fail(format!(
                "Transfer-Encoding: chunked, but byte {at} of the body is not a chunk size; \
                 not cleaned (read as it is, its chunk-size lines would be read as text)"
            ));
        }
        // Many archives store bodies already de-chunked but keep the header.
        Some(Dechunked::NotChunked) | None => Cow::Borrowed(body),
    };
    let truncated = truncated.or(stored_cut.map(|w| format!("{w}; the part stored was cleaned")));
    let opts = IdentifyOptions {
        content_encoding: http.content_encoding.as_deref(),
        max,
        detect_binary: true,
    };
    let (bytes, cut) = match identify(dechunked, opts) {
        Identified::Document {
            bytes, truncated, ..
        } => (bytes, truncated),
        Identified::NotADocument(what) => {
            return WarcDocument::Skip(format!("not a document: {what}"));
        }
        Identified::Failed(why) | Identified::TooLarge(why) => return WarcDocument::Fail(why),
    };
    if !typed {
        let head = &bytes[..bytes.len().min(64 << 10)];
        if !ncleaner::page::looks_like_html(&String::from_utf8_lossy(head)) {
            return WarcDocument::Skip(
                "response without a content type that does not look like HTML".into(),
            );
        }
    }
    let body = match bytes {
        Cow::Borrowed(_) => Body::InRecord(http.body_start..record.block.len()),
        Cow::Owned(v) => Body::Owned(v),
    };
    WarcDocument::Document(Document {
        body,
        charset: http.charset(),
        kind: Some(InputKind::Html),
        truncated: match (truncated, cut) {
            (Some(a), Some(b)) => Some(format!("{a}; {b}")),
            (a, b) => a.or(b),
        },
    })
}
