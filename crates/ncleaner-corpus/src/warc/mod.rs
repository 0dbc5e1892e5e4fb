//! WARC files (ISO 28500, versions 1.0 and 1.1): a streaming reader that
//! survives damaged files, the HTTP responses inside them, and a writer.
//!
//! # Reading
//!
//! [`Reader`] yields every record of a (decompressed) WARC stream in order,
//! each either a complete [`Record`] or a [`RecordError`] that says which
//! record is broken and why. It never stops early on bad data:
//!
//! - a record's block is read by its `Content-Length`, then the reader checks
//!   that the record really ends there (blank lines, then the next `WARC/`
//!   line or the end of the stream). When it does not, the length lied: if
//!   the block runs into a following record (the length is too long, or the
//!   file ends inside the block), the reader finds that record's start inside
//!   the block and goes on from there; if it is too short, it skips to the
//!   next `WARC/` line. Either way the lying record is reported as an error
//!   and the records after it are read normally;
//! - bytes between records that are not a record are reported once and
//!   skipped up to the next `WARC/` line;
//! - a truncated file ends with an error for the record it cuts;
//! - read errors of the decompressor (a corrupt gzip member, see
//!   [`super::compress`]) fail the record they hit, and reading resumes at
//!   the next record the decompressor delivers;
//! - headers are limited to [`MAX_HEADER`] bytes and blocks to the reader's
//!   `max_block`; larger blocks are skipped without being held in memory.
//!
//! # Why our own reader
//!
//! `fastwarc` 2.0 (the Resiliparse team's crate) was evaluated first; see
//! ARCHITECTURE.md. In short: its iterator ends at the first malformed
//! record (a lying `Content-Length` loses every record after it), it exposes
//! no way to resynchronise, and it pulls in brotli, lz4, zstd, md5, sha1,
//! sha2, time, uuid and the unmaintained `encoding` crate; reading is not
//! where the time goes (decompression is `zlib-rs` either way).
//!
//! # Writing
//!
//! [`Writer`] writes records, gzip-compressing each one as its own member
//! when asked (as Common Crawl does, so that any record can be read alone).
//! [`Writer::write_conversion`] writes the `conversion` record of a cleaned
//! document: `WARC-Refers-To` the original's `WARC-Record-ID`, the original's
//! `WARC-Target-URI` and `WARC-Date` (as Common Crawl's WET files do), and
//! `Content-Type: text/plain` holding UTF-8 text; the page's metadata
//! follows, where known, in the fields of [`metadata_fields`].

pub mod document;
mod read;
mod write;

pub use crate::http::{
    Dechunked, HttpResponse, MAX_HEADER, charset_param, dechunk, media_type, parse_http,
};
pub use read::Reader;
pub use write::{CONVERSION_CONTENT_TYPE, Writer, derived_id, now, uri_field};

/// The longest value of a metadata field in a conversion record, in bytes
/// (cut at a character boundary).
pub const METADATA_FIELD_MAX: usize = 1024;

/// The fields of a conversion record that carry a page's metadata:
/// `WARC-Identified-Content-Language` (the field Common Crawl's WET files
/// use; here the ISO 639-1 tag) and, as WARC allows for fields it does not
/// define, `ncleaner-Title`, `ncleaner-Author` (one field per author),
/// `ncleaner-Date-Published`, `ncleaner-Date-Modified`,
/// `ncleaner-Site-Name`, `ncleaner-Canonical-URL`, `ncleaner-Description`,
/// `ncleaner-Tags` and `ncleaner-Categories` (the record's `tags` and
/// `categories`, each list joined by `, `). A field
/// nobody stated is left out. Values are one line (control characters
/// become spaces, runs of whitespace one space) of at most
/// [`METADATA_FIELD_MAX`] bytes.
pub fn metadata_fields(m: &ncleaner::Metadata) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut add = |name: &str, value: &str| {
        let mut v: String = value
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect::<String>()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        if v.len() > METADATA_FIELD_MAX {
            let mut end = METADATA_FIELD_MAX;
            while !v.is_char_boundary(end) {
                end -= 1;
            }
            v.truncate(end);
        }
        if !v.is_empty() {
            out.push((name.to_string(), v));
        }
    };
    if let Some(l) = &m.language {
        add("WARC-Identified-Content-Language", l);
    }
    if let Some(t) = &m.title {
        add("ncleaner-Title", t);
    }
    for a in &m.authors {
        add("ncleaner-Author", a);
    }
    for (name, v) in [
        ("ncleaner-Date-Published", &m.date_published),
        ("ncleaner-Date-Modified", &m.date_modified),
        ("ncleaner-Site-Name", &m.site_name),
        ("ncleaner-Canonical-URL", &m.canonical_url),
        ("ncleaner-Description", &m.description),
    ] {
        if let Some(v) = v {
            add(name, v);
        }
    }
    for (name, list) in [
        ("ncleaner-Tags", &m.tags),
        ("ncleaner-Categories", &m.categories),
    ] {
        if !list.is_empty() {
            add(name, &list.join(", "));
        }
    }
    out
}

/// Blank lines of CR/LF accepted between records before the reader decides
/// that a record did not end where its `Content-Length` said.
const MAX_SEPARATOR: usize = 64;

/// One complete WARC record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// The header exactly as read: the version line, the fields and the
    /// blank line that ends them.
    pub header: Vec<u8>,
    /// The fields, in order: (name, value), continuation lines joined.
    pub fields: Vec<(String, String)>,
    /// The block (`Content-Length` bytes).
    pub block: Vec<u8>,
    /// Where the record starts in the decompressed stream.
    pub offset: u64,
}

impl Record {
    /// The value of the first field named `name` (case-insensitive).
    pub fn get(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// `WARC-Type`.
    pub fn record_type(&self) -> Option<&str> {
        self.get("WARC-Type")
    }

    /// `WARC-Record-ID`, as written (with its angle brackets).
    pub fn id(&self) -> Option<&str> {
        self.get("WARC-Record-ID")
    }

    /// The WARC version of its first line (`WARC/1.0`, `WARC/1.1`); `None`
    /// for a record made here rather than read (no header).
    pub fn version(&self) -> Option<&str> {
        let line = self.header.split(|&b| b == b'\n').next()?;
        let line = std::str::from_utf8(line).ok()?.trim();
        let number = line.strip_prefix("WARC/")?;
        (!number.is_empty()
            && number.len() <= 8
            && number.bytes().all(|b| b.is_ascii_digit() || b == b'.'))
        .then_some(line)
    }

    /// `WARC-Target-URI`, without the angle brackets some writers put around it.
    pub fn target_uri(&self) -> Option<&str> {
        self.get("WARC-Target-URI").map(strip_angle)
    }

    /// The record as bytes, as it would be written back (header, block, and
    /// the two CRLF that end a record).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut v = Vec::with_capacity(self.header.len() + self.block.len() + 4);
        v.extend_from_slice(&self.header);
        v.extend_from_slice(&self.block);
        v.extend_from_slice(b"\r\n\r\n");
        v
    }
}

fn strip_angle(s: &str) -> &str {
    s.strip_prefix('<')
        .and_then(|t| t.strip_suffix('>'))
        .unwrap_or(s)
}

/// A record (or a stretch of bytes) that could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordError {
    /// Where it starts in the decompressed stream.
    pub offset: u64,
    /// `WARC-Record-ID`, if the header could be read.
    pub id: Option<String>,
    /// `WARC-Target-URI`, if the header could be read.
    pub uri: Option<String>,
    /// `WARC-Type`, if the header could be read.
    pub record_type: Option<String>,
    /// What is wrong.
    pub reason: String,
}

impl RecordError {
    /// Whether the broken record was (or may have been) a document: a
    /// `response` record, or one whose type is unknown.
    pub fn may_be_document(&self) -> bool {
        self.record_type
            .as_deref()
            .is_none_or(|t| t.eq_ignore_ascii_case("response"))
    }
}

impl std::fmt::Display for RecordError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "record at offset {}", self.offset)?;
        if let Some(id) = &self.id {
            write!(f, " {id}")?;
        }
        if let Some(uri) = &self.uri {
            write!(f, " ({uri})")?;
        }
        write!(f, ": {}", self.reason)
    }
}
#[cfg(test)]
mod tests {
    use super::write::stable_hash;
    use super::*;
    use crate::compress;
    use std::io;

    fn record(id: &str, uri: &str, kind: &str, block: &[u8]) -> Vec<u8> {
        let mut v = format!(
            "WARC/1.0\r\nWARC-Type: {kind}\r\nWARC-Record-ID: <urn:uuid:{id}>\r\nWARC-Target-URI: {uri}\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n",
            block.len()
        )
        .into_bytes();
        v.extend_from_slice(block);
        v.extend_from_slice(b"\r\n\r\n");
        v
    }

    fn http(body: &str) -> Vec<u8> {
        format!("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=ISO-8859-1\r\n\r\n{body}")
            .into_bytes()
    }

    fn read(data: &[u8]) -> Vec<Result<Record, RecordError>> {
        Reader::new(data, 1 << 20).collect()
    }

    #[test]
    fn reads_records_and_fields() {
        let mut data = record("1", "http://a/", "warcinfo", b"software: x\r\n");
        data.extend(record("2", "http://b/", "response", &http("<p>Hello</p>")));
        let recs = read(&data);
        assert_eq!(recs.len(), 2);
        let r = recs[1].as_ref().unwrap();
        assert_eq!(r.record_type(), Some("response"));
        assert_eq!(r.id(), Some("<urn:uuid:2>"));
        assert_eq!(r.target_uri(), Some("http://b/"));
        let h = parse_http(&r.block).unwrap();
        assert_eq!(h.status, Some(200));
        assert_eq!(h.media_type().as_deref(), Some("text/html"));
        assert_eq!(h.charset().as_deref(), Some("ISO-8859-1"));
        assert_eq!(&r.block[h.body_start..], b"<p>Hello</p>");
        // Written back, the bytes are the same.
        let mut out = Vec::new();
        let mut w = Writer::new(&mut out, false);
        for r in &recs {
            w.write_record(r.as_ref().unwrap()).unwrap();
        }
        assert_eq!(out, data);
    }

    fn lying(delta: i64) -> (Vec<u8>, usize) {
        let mut data = Vec::new();
        for i in 0..5 {
            let mut rec = record(
                &i.to_string(),
                "http://x/",
                "response",
                &http(&"word ".repeat(30)),
            );
            if i == 2 {
                let s = String::from_utf8(rec).unwrap();
                let len = http(&"word ".repeat(30)).len() as i64;
                rec = s
                    .replace(
                        &format!("Content-Length: {len}"),
                        &format!("Content-Length: {}", len + delta),
                    )
                    .into_bytes();
            }
            data.extend(rec);
        }
        (data, 5)
    }

    #[test]
    fn too_long_content_length_loses_only_its_record() {
        for delta in [1, 4, 5, 40, 300, 10_000] {
            let (data, n) = lying(delta);
            let recs = read(&data);
            assert_eq!(recs.len(), n, "delta {delta}: {recs:?}");
            let bad: Vec<usize> = (0..n).filter(|&i| recs[i].is_err()).collect();
            // A length too long by at most the separator still ends at a record.
            if delta <= 4 {
                assert!(bad.is_empty(), "delta {delta}: {recs:?}");
            } else {
                assert_eq!(bad, vec![2], "delta {delta}: {recs:?}");
                assert_eq!(
                    recs[2].as_ref().unwrap_err().id.as_deref(),
                    Some("<urn:uuid:2>")
                );
            }
        }
    }

    #[test]
    fn too_short_content_length_loses_only_its_record() {
        for delta in [-1, -10, -100] {
            let (data, n) = lying(delta);
            let recs = read(&data);
            assert_eq!(recs.len(), n, "delta {delta}: {recs:?}");
            assert!(recs[2].is_err());
            assert!(recs.iter().enumerate().all(|(i, r)| i == 2 || r.is_ok()));
        }
    }

    #[test]
    fn truncated_file() {
        let mut data = record("1", "http://a/", "response", &http("<p>one</p>"));
        let second = record(
            "2",
            "http://b/",
            "response",
            &http(&"<p>two</p>".repeat(20)),
        );
        data.extend_from_slice(&second[..second.len() / 2]);
        let recs = read(&data);
        assert_eq!(recs.len(), 2);
        assert!(recs[0].is_ok());
        let e = recs[1].as_ref().unwrap_err();
        assert!(e.reason.contains("truncated"), "{e}");
        assert_eq!(e.id.as_deref(), Some("<urn:uuid:2>"));
        // Cut inside the header.
        let recs = read(&second[..40]);
        assert_eq!(recs.len(), 1);
        assert!(recs[0].as_ref().unwrap_err().reason.contains("truncated"));
    }

    #[test]
    fn garbage_between_records_is_reported_once() {
        let mut data = record("1", "http://a/", "response", &http("x"));
        data.extend_from_slice(b"some junk\nmore junk\n");
        data.extend(record("2", "http://b/", "response", &http("y")));
        let recs = read(&data);
        assert_eq!(recs.len(), 3, "{recs:?}");
        assert!(recs[0].is_ok() && recs[2].is_ok());
        assert!(recs[1].is_err());
    }

    #[test]
    fn not_a_warc() {
        let recs = read(b"<html><p>just a page</p></html>");
        assert_eq!(recs.len(), 1);
        assert!(recs[0].is_err());
        assert!(read(b"").is_empty());
    }

    #[test]
    fn missing_length_and_huge_header() {
        let data = b"WARC/1.0\r\nWARC-Type: response\r\n\r\nbody\r\n\r\n".to_vec();
        let recs = read(&data);
        assert!(
            recs[0]
                .as_ref()
                .unwrap_err()
                .reason
                .contains("Content-Length")
        );
        let mut data = b"WARC/1.0\r\nX: ".to_vec();
        data.extend(vec![b'a'; MAX_HEADER + 10]);
        data.extend(record("2", "http://b/", "response", &http("y")));
        let recs = read(&data);
        assert!(recs[0].is_err());
        assert!(recs.last().unwrap().is_ok(), "{recs:?}");
    }

    #[test]
    fn huge_lying_content_length_loses_only_its_record() {
        let mut data = Vec::new();
        for i in 0..3 {
            data.extend(record(
                &format!("a{i}"),
                "http://x/",
                "response",
                &http("<p>before</p>"),
            ));
        }
        let mut liar = record("liar", "http://x/", "response", &http("<p>liar</p>"));
        let at = memchr::memmem::find(&liar, b"Content-Length: ").unwrap() + 16;
        let end = at + liar[at..].iter().position(|&b| b == b'\r').unwrap();
        liar.splice(at..end, b"99999999999".iter().copied());
        data.extend(liar);
        for i in 0..5 {
            data.extend(record(
                &format!("b{i}"),
                "http://x/",
                "response",
                &http("<p>after</p>"),
            ));
        }
        // The limit is 64 KiB here: the lying length is far over it.
        let items: Vec<_> = Reader::new(&data[..], 64 << 10).collect();
        let ok: Vec<_> = items
            .iter()
            .filter_map(|r| r.as_ref().ok())
            .map(|r| r.id().unwrap().to_string())
            .collect();
        assert_eq!(
            ok,
            ["a0", "a1", "a2", "b0", "b1", "b2", "b3", "b4"].map(|i| format!("<urn:uuid:{i}>"))
        );
        let errs: Vec<_> = items.iter().filter_map(|r| r.as_ref().err()).collect();
        assert_eq!(errs.len(), 1, "{errs:?}");
        assert_eq!(errs[0].id.as_deref(), Some("<urn:uuid:liar>"));
    }

    #[test]
    fn oversized_block_is_skipped() {
        let mut data = record("1", "http://a/", "response", &http(&"x".repeat(5000)));
        data.extend(record("2", "http://b/", "response", &http("y")));
        let recs: Vec<_> = Reader::new(&data[..], 1000).collect();
        assert_eq!(recs.len(), 2);
        assert!(recs[0].as_ref().unwrap_err().reason.contains("limit"));
        assert!(recs[1].is_ok());
    }

    #[test]
    fn lf_only_records() {
        let data = b"WARC/1.0\nWARC-Type: warcinfo\nContent-Length: 3\n\nabc\n\nWARC/1.0\nWARC-Type: resource\nContent-Length: 2\n\nok\n\n";
        let recs = read(data);
        assert_eq!(recs.len(), 2);
        assert_eq!(recs[1].as_ref().unwrap().block, b"ok");
    }

    #[test]
    fn http_parsing() {
        assert!(parse_http(b"GET / HTTP/1.1\r\n\r\n").is_err());
        let h = parse_http(b"HTTP/1.0 404 Not Found\nContent-Type: text/html\n\nbody").unwrap();
        assert_eq!(h.status, Some(404));
        assert_eq!(h.body_start, 48);
        assert!(parse_http(b"HTTP/1.1 200 OK\r\nContent-Type: text/html").is_err());
        assert_eq!(
            charset_param("text/html; charset=\"utf-8\"").as_deref(),
            Some("utf-8")
        );
        assert_eq!(charset_param("text/html"), None);
    }

    /// D2: a chunked body cut before its last chunk gives its chunks'
    /// data, never its chunk-size lines; one that breaks off is corrupt.
    #[test]
    fn chunked_bodies_whole_cut_and_corrupt() {
        let whole = b"5\r\nhello\r\n6;x=y\r\n world\r\n0\r\n\r\n";
        assert_eq!(dechunk(whole), Dechunked::Whole(b"hello world".to_vec()));
        assert_eq!(dechunk(b"<html>"), Dechunked::NotChunked);
        assert_eq!(dechunk(b""), Dechunked::NotChunked);
        // Cut inside a chunk, after a chunk, inside a size line.
        assert_eq!(
            dechunk(b"5\r\nhello\r\n8\r\n cont"),
            Dechunked::Cut(b"hello cont".to_vec())
        );
        assert_eq!(
            dechunk(b"5\r\nhello\r\n"),
            Dechunked::Cut(b"hello".to_vec())
        );
        assert_eq!(
            dechunk(b"5\r\nhello\r\n1"),
            Dechunked::Cut(b"hello".to_vec())
        );
        assert_eq!(
            dechunk(b"5\r\nhello\r\nnot a size\r\nmore"),
            Dechunked::Corrupt(10)
        );
    }

    #[test]
    fn conversion_record_refers_to_original() {
        let data = record("7", "http://a/", "response", &http("<p>x</p>"));
        let rec = read(&data).remove(0).unwrap();
        let mut out = Vec::new();
        let mut w = Writer::new(&mut out, true);
        w.write_record(&rec).unwrap();
        w.write_conversion(&rec, "cleaned text\n".as_bytes())
            .unwrap();
        let (r, _) = compress::sniffing_decoder(io::Cursor::new(out)).unwrap();
        let recs: Vec<_> = Reader::new(r, 1 << 20).collect();
        assert_eq!(recs.len(), 2);
        assert_eq!(recs[0].as_ref().unwrap(), &rec);
        let conv = recs[1].as_ref().unwrap();
        assert_eq!(conv.record_type(), Some("conversion"));
        assert_eq!(conv.get("WARC-Refers-To"), Some("<urn:uuid:7>"));
        assert_eq!(conv.get("Content-Type"), Some("text/plain"));
        assert_eq!(conv.block, b"cleaned text\n");
        assert_eq!(
            conv.id(),
            Some(derived_id(b"<urn:uuid:7>", b"conversion").as_str())
        );
    }

    /// Issue 70: a record's version is its first line's; a URI is written
    /// percent-encoded once, whatever it holds.
    #[test]
    fn versions_and_uri_fields() {
        let rec = read(&record("1", "http://x/", "response", b"body"));
        assert_eq!(rec[0].as_ref().unwrap().version(), Some("WARC/1.0"));
        let mut v11 = record("2", "http://x/", "response", b"body");
        v11[..8].copy_from_slice(b"WARC/1.1");
        assert_eq!(read(&v11)[0].as_ref().unwrap().version(), Some("WARC/1.1"));
        assert_eq!(
            uri_field("http://x.org/a b/café?q=\"1\"&r=<2>"),
            "http://x.org/a%20b/caf%C3%A9?q=%221%22&r=%3C2%3E"
        );
        let once = uri_field("http://x.org/a%20b|c");
        assert_eq!(once, "http://x.org/a%20b%7Cc");
        assert_eq!(uri_field(&once), once);
    }

    #[test]
    fn derived_ids_are_fixed() {
        // Pinned: these must never change (they did with std's DefaultHasher
        // whenever its algorithm changed).
        assert_eq!(
            derived_id(b"<urn:uuid:7>", b"conversion"),
            "<urn:uuid:9d4de7d1-28db-8bf6-ab8b-192ca32b67de>"
        );
        assert_eq!(stable_hash(0, b"", b""), stable_hash(0, b"", b""));
        assert_ne!(stable_hash(0, b"ab", b"c"), stable_hash(0, b"a", b"bc"));
    }

    #[test]
    fn dates() {
        let d = now();
        assert_eq!(d.len(), 20, "{d}");
        assert!(d.starts_with("20") && d.ends_with('Z'));
    }
}
