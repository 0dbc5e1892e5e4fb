//! JSON Lines input: one document per line, an object with the page in
//! `"html"` (read as HTML) or `"text"` (read as a text dump), and optionally
//! `"id"` (a string or a number; kept in the output) and `"url"`.
//!
//! A line that is not such an object is one failed document, reported with
//! its line number; blank lines are not documents. Lines longer than the
//! reader's limit are skipped without being held in memory, and fail.

use std::io::BufRead;

use ncleaner::InputKind;

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

#[derive(serde::Deserialize)]
struct Line {
    #[serde(default)]
    id: Option<serde_json::Value>,
    #[serde(default)]
    url: Option<String>,
    #[serde(default)]
    html: Option<String>,
    #[serde(default)]
    text: Option<String>,
}

/// Parses one JSON line.
pub fn parse_line(line: &[u8], number: u64) -> Result<JsonDocument, LineError> {
    let err = |id: Option<String>, reason: String| LineError {
        line: number,
        id,
        reason,
    };
    let parsed: Line = serde_json::from_slice(line)
        .map_err(|e| err(None, format!("not a JSON object with string fields: {e}")))?;
    let id = parsed.id.and_then(|v| match v {
        serde_json::Value::String(s) => Some(s),
        serde_json::Value::Null => None,
        other => Some(other.to_string()),
    });
    let (kind, body) = match (parsed.html, parsed.text) {
        (Some(h), _) => (InputKind::Html, h),
        (None, Some(t)) => (InputKind::Text, t),
        (None, None) => {
            return Err(err(id, "no \"html\" or \"text\" field".into()));
        }
    };
    Ok(JsonDocument {
        id,
        url: parsed.url,
        kind,
        body,
        line: number,
    })
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

    #[test]
    fn invalid_utf8_is_an_error() {
        let got: Vec<_> = Reader::new(&b"{\"html\":\"\xff\"}\n"[..], 100).collect();
        assert!(got[0].is_err());
    }
}
