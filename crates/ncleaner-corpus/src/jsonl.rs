//! JSON Lines input: one document per line, an object with the page in
//! `"html"` (read as HTML) or `"text"` (read as a text dump), and optionally
//! `"id"` (a string or a number; kept in the output) and `"url"`. When a
//! line gives both `"html"` and `"text"`, the HTML is cleaned (a dataset's
//! `text` is often an earlier extraction of its `html`), as in Parquet
//! inputs and the web API.
//!
//! A line is read as the files that crawlers and scripts write are, not
//! only as the JSON standard allows ([`object`], which the web API reads
//! its JSON bodies with too): a byte-order mark at its start is skipped
//! (Windows tools write one), a lone UTF-16 surrogate escape (`\ud800`,
//! which Python's `json` writes for strings it was given as bytes) is read
//! as U+FFFD, and a line that is not UTF-8 is decoded as Windows-1252 (a
//! Latin-1 byte is the character it stands for) when none of its bytes
//! form UTF-8, else with U+FFFD for what is not UTF-8. A key given twice
//! is refused, naming the key, rather than one of its values taken.
//!
//! A line that is not such an object is one failed document, reported with
//! its line number; blank lines are not documents. Lines longer than the
//! reader's limit are skipped without being held in memory, and fail.

use std::borrow::Cow;
use std::io::BufRead;

use ncleaner::InputKind;
use serde::de::{Deserialize, Deserializer, Error as _, MapAccess, Visitor};
use serde_json::{Map, Value};

/// One document of a JSON Lines file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonDocument {
    /// `"id"` as a string, if present.
    pub id: Option<String>,
    /// `"url"`, if present.
    pub url: Option<String>,
    /// HTML for `"html"`, text for `"text"`.
    pub kind: InputKind,
    /// The page (UTF-8).
    pub body: String,
    /// The line number (from 1).
    pub line: u64,
}

/// A line that is not a document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineError {
    /// The line number (from 1).
    pub line: u64,
    /// `"id"`, if the line is JSON and has one.
    pub id: Option<String>,
    /// What is wrong.
    pub reason: String,
}

/// A JSON object whose keys are each given once.
struct Object(Map<String, Value>);

impl<'de> Deserialize<'de> for Object {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Object, D::Error> {
        struct Keys;
        impl<'de> Visitor<'de> for Keys {
            type Value = Object;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Object, A::Error> {
                let mut map = Map::new();
                while let Some(k) = m.next_key::<String>()? {
                    if map.contains_key(&k) {
                        return Err(A::Error::custom(format!(
                            "the key {k:?} is given twice (which value is meant is unknown)"
                        )));
                    }
                    let v: Value = m.next_value()?;
                    map.insert(k, v);
                }
                Ok(Object(map))
            }
        }
        d.deserialize_map(Keys)
    }
}

/// Reads one JSON object as JSON Lines and the web API read them (see the
/// module documentation): a leading byte-order mark skipped, lone
/// surrogate escapes read as U+FFFD, a key given twice refused.
pub fn object(text: &str) -> Result<Map<String, Value>, serde_json::Error> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    match serde_json::from_str::<Object>(text) {
        Ok(o) => Ok(o.0),
        Err(e) => match lone_surrogates_replaced(text) {
            Cow::Owned(fixed) => serde_json::from_str::<Object>(&fixed).map(|o| o.0),
            Cow::Borrowed(_) => Err(e),
        },
    }
}

/// `text` with each `\uXXXX` escape of a UTF-16 surrogate that is not
/// half of a pair replaced by `\ufffd` (the same length); borrowed when
/// there is none.
fn lone_surrogates_replaced(text: &str) -> Cow<'_, str> {
    let b = text.as_bytes();
    let hex = |at: usize| -> Option<u32> {
        let h = std::str::from_utf8(b.get(at..at + 4)?).ok()?;
        u32::from_str_radix(h, 16)
            .ok()
            .filter(|_| h.bytes().all(|c| c.is_ascii_hexdigit()))
    };
    let escape = |at: usize| -> Option<u32> {
        (b.get(at) == Some(&b'\\') && b.get(at + 1) == Some(&b'u'))
            .then(|| hex(at + 2))
            .flatten()
    };
    let mut out: Option<Vec<u8>> = None;
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' {
            i += 1;
            continue;
        }
        let Some(unit) = escape(i) else {
            // Another escape (`\\` among them): the character after it is not one.
            i += 2;
            continue;
        };
        let lone = match unit {
            0xD800..=0xDBFF => match escape(i + 6) {
                Some(0xDC00..=0xDFFF) => {
                    i += 12;
                    continue;
                }
                _ => true,
            },
            0xDC00..=0xDFFF => true,
            _ => false,
        };
        if lone {
            out.get_or_insert_with(|| b.to_vec())[i..i + 6].copy_from_slice(b"\\ufffd");
        }
        i += 6;
    }
    match out {
        // Only ASCII replaced ASCII: still UTF-8.
        Some(v) => Cow::Owned(String::from_utf8(v).expect("ASCII replaced by ASCII")),
        None => Cow::Borrowed(text),
    }
}

/// A line's bytes as text: UTF-8 as it is; otherwise Windows-1252 when no
/// bytes of it form UTF-8 beyond ASCII (a file written in Latin-1), else
/// UTF-8 with U+FFFD for the bytes that are not.
pub fn line_text(line: &[u8]) -> Cow<'_, str> {
    if let Ok(s) = std::str::from_utf8(line) {
        return Cow::Borrowed(s);
    }
    let utf8_beyond_ascii = line.utf8_chunks().any(|c| !c.valid().is_ascii());
    match utf8_beyond_ascii {
        true => String::from_utf8_lossy(line),
        false => {
            encoding_rs::WINDOWS_1252
                .decode_without_bom_handling(line)
                .0
        }
    }
}

/// Parses one JSON line.
pub fn parse_line(line: &[u8], number: u64) -> Result<JsonDocument, LineError> {
    let err = |id: Option<String>, reason: String| LineError {
        line: number,
        id,
        reason,
    };
    let text = line_text(line);
    let id_of = |v: Value| match v {
        Value::String(s) => Some(s),
        Value::Null => None,
        other => Some(other.to_string()),
    };
    let mut map = object(&text).map_err(|e| {
        // The record of a line refused as a whole still names its document
        // when the line is JSON at all (a key given twice).
        let id = serde_json::from_str::<Value>(&text)
            .ok()
            .and_then(|mut v| v.get_mut("id").map(Value::take))
            .and_then(id_of);
        err(id, format!("not a JSON object with string fields: {e}"))
    })?;
    let id = map.remove("id").and_then(id_of);
    let mut string = |key: &str| match map.remove(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(other) => Err(err(
            id.clone(),
            format!(
                "not a JSON object with string fields: \"{key}\" is {}, not a string",
                kind_of(&other)
            ),
        )),
    };
    let (url, html, text) = (string("url")?, string("html")?, string("text")?);
    let (kind, body) = match (html, text) {
        (Some(h), _) => (InputKind::Html, h),
        (None, Some(t)) => (InputKind::Text, t),
        (None, None) => {
            return Err(err(id, "no \"html\" or \"text\" field".into()));
        }
    };
    Ok(JsonDocument {
        id,
        url,
        kind,
        body,
        line: number,
    })
}

/// What kind of JSON value `v` is, in words.
fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Reads the documents of a JSON Lines stream.
pub struct Reader<R> {
    r: R,
    line: u64,
    max_line: usize,
    buf: Vec<u8>,
    done: bool,
}

impl<R: BufRead> Reader<R> {
    /// Reads `r`; lines longer than `max_line` bytes fail.
    pub fn new(r: R, max_line: usize) -> Self {
        Reader {
            r,
            line: 0,
            max_line,
            buf: Vec::new(),
            done: false,
        }
    }

    /// Reads the next line into `buf`; returns whether it fit, or an I/O error.
    fn next_line(&mut self) -> std::io::Result<Option<bool>> {
        self.buf.clear();
        let mut fits = true;
        let mut any = false;
        loop {
            let avail = match self.r.fill_buf() {
                Ok(a) => a,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if avail.is_empty() {
                return Ok(any.then_some(fits));
            }
            any = true;
            let (chunk, done) = match memchr::memchr(b'\n', avail) {
                Some(p) => (&avail[..p], Some(p + 1)),
                None => (avail, None),
            };
            if fits && self.buf.len() + chunk.len() <= self.max_line {
                self.buf.extend_from_slice(chunk);
            } else {
                fits = false;
                self.buf.clear();
            }
            let n = done.unwrap_or(avail.len());
            self.r.consume(n);
            if done.is_some() {
                return Ok(Some(fits));
            }
        }
    }
}

impl<R: BufRead> Iterator for Reader<R> {
    type Item = Result<JsonDocument, LineError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if self.done {
                return None;
            }
            self.line += 1;
            let line = self.line;
            match self.next_line() {
                Ok(None) => {
                    self.done = true;
                    return None;
                }
                Ok(Some(false)) => {
                    return Some(Err(LineError {
                        line,
                        id: None,
                        reason: format!("line longer than {} bytes; skipped", self.max_line),
                    }));
                }
                Ok(Some(true)) => {
                    if self.buf.trim_ascii().is_empty() {
                        continue;
                    }
                    return Some(parse_line(&self.buf, line));
                }
                Err(e) => {
                    // A decompression error: the rest of the stream is unreliable,
                    // but a multi-member gzip reader may resume after it.
                    if e.kind() == std::io::ErrorKind::UnexpectedEof {
                        self.done = true;
                    }
                    return Some(Err(LineError {
                        line,
                        id: None,
                        reason: format!("unreadable ({e})"),
                    }));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines() {
        let data = b"{\"id\":\"a\",\"url\":\"http://x/\",\"html\":\"<p>Hi</p>\"}\n\n\
                     {\"id\":7,\"text\":\"plain\"}\n\
                     {broken\n\
                     {\"url\":\"u\"}\n\
                     [1,2]\n\
                     {\"html\":\"last, no newline\"}";
        let got: Vec<_> = Reader::new(&data[..], 1 << 20).collect();
        assert_eq!(got.len(), 6, "{got:?}");
        let a = got[0].as_ref().unwrap();
        assert_eq!(a.id.as_deref(), Some("a"));
        assert_eq!(a.kind, InputKind::Html);
        let b = got[1].as_ref().unwrap();
        assert_eq!(b.id.as_deref(), Some("7"));
        assert_eq!(b.kind, InputKind::Text);
        assert_eq!(got[2].as_ref().unwrap_err().line, 4);
        assert!(got[3].as_ref().unwrap_err().reason.contains("no \"html\""));
        assert!(got[4].is_err());
        assert_eq!(got[5].as_ref().unwrap().body, "last, no newline");
    }

    #[test]
    fn long_lines_are_skipped() {
        let mut data = format!("{{\"html\":\"{}\"}}\n", "x".repeat(5000)).into_bytes();
        data.extend_from_slice(b"{\"html\":\"short\"}\n");
        let got: Vec<_> = Reader::new(&data[..], 100).collect();
        assert_eq!(got.len(), 2);
        assert!(got[0].as_ref().unwrap_err().reason.contains("longer"));
        assert_eq!(got[1].as_ref().unwrap().body, "short");
    }

    /// Issue 52, 12: a Latin-1 byte, a lone surrogate, a byte-order mark
    /// on line 1: each line is a document, read as it was meant.
    #[test]
    fn lines_as_crawlers_and_scripts_write_them() {
        let data = b"\xef\xbb\xbf{\"id\":\"bom\",\"html\":\"<p>first</p>\"}\n\
                     {\"id\":\"latin1\",\"html\":\"<p>caf\xe9 cr\xe8me</p>\"}\n\
                     {\"id\":\"mixed\",\"html\":\"<p>caf\xc3\xa9 \xff</p>\"}\n\
                     {\"id\":\"lone\",\"html\":\"<p>a\\ud800b \\udc00c</p>\"}\n\
                     {\"id\":\"pair\",\"html\":\"<p>\\ud83d\\ude00 \\\\ud800</p>\"}\n";
        let got: Vec<_> = Reader::new(&data[..], 1 << 20).collect();
        let body = |i: usize| got[i].as_ref().map(|d| d.body.as_str()).unwrap();
        assert_eq!(body(0), "<p>first</p>");
        assert_eq!(body(1), "<p>caf\u{e9} cr\u{e8}me</p>");
        assert_eq!(body(2), "<p>caf\u{e9} \u{fffd}</p>");
        assert_eq!(body(3), "<p>a\u{fffd}b \u{fffd}c</p>");
        // A pair stays a pair; an escaped backslash is no escape.
        assert_eq!(body(4), "<p>\u{1f600} \\ud800</p>");
    }

    /// Issue 52, 12: a key given twice is refused, naming it; `html` is
    /// cleaned when `text` is given too.
    #[test]
    fn duplicate_keys_are_refused_and_html_comes_first() {
        let e = parse_line(br#"{"id":"x","html":"<p>a</p>","html":"<p>b</p>"}"#, 3).unwrap_err();
        assert!(e.reason.contains("\"html\" is given twice"), "{}", e.reason);
        assert_eq!(e.id.as_deref(), Some("x"));
        let d = parse_line(br#"{"text":"a text","html":"<p>a page</p>"}"#, 1).unwrap();
        assert_eq!(
            (d.kind, d.body.as_str()),
            (InputKind::Html, "<p>a page</p>")
        );
        let e = parse_line(br#"{"html":["x"]}"#, 1).unwrap_err();
        assert!(e.reason.contains("\"html\" is an array"), "{}", e.reason);
    }
}
