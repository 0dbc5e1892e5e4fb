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
//! `Content-Type: text/plain` holding UTF-8 text.

use std::io::{self, Read, Write};

use super::compress;

/// The longest WARC or HTTP header accepted, in bytes.
pub const MAX_HEADER: usize = 64 << 10;

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

/// The decompressed stream with a buffer that bytes can be pushed back into.
struct Input<R> {
    inner: R,
    buf: Vec<u8>,
    pos: usize,
    /// Offset of `buf[pos]` in the stream.
    offset: u64,
    eof: bool,
}

impl<R: Read> Input<R> {
    fn new(inner: R) -> Self {
        Input {
            inner,
            buf: Vec::with_capacity(64 << 10),
            pos: 0,
            offset: 0,
            eof: false,
        }
    }

    fn available(&self) -> &[u8] {
        &self.buf[self.pos..]
    }

    /// Reads more bytes into the buffer; false at the end of the stream.
    fn fill(&mut self) -> io::Result<bool> {
        if self.eof {
            return Ok(false);
        }
        if self.pos > 0 && self.pos == self.buf.len() {
            self.buf.clear();
            self.pos = 0;
        } else if self.pos > (64 << 10) {
            self.buf.drain(..self.pos);
            self.pos = 0;
        }
        let old = self.buf.len();
        self.buf.resize(old + (64 << 10), 0);
        let n = loop {
            match self.inner.read(&mut self.buf[old..]) {
                Ok(n) => break Ok(n),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => break Err(e),
            }
        };
        let n = match n {
            Ok(n) => n,
            Err(e) => {
                self.buf.truncate(old);
                return Err(e);
            }
        };
        self.buf.truncate(old + n);
        if n == 0 {
            self.eof = true;
        }
        Ok(n > 0)
    }

    /// Makes at least `n` bytes available unless the stream ends first.
    fn ensure(&mut self, n: usize) -> io::Result<&[u8]> {
        while self.available().len() < n && self.fill()? {}
        Ok(self.available())
    }

    fn consume(&mut self, n: usize) {
        self.pos += n;
        self.offset += n as u64;
    }

    /// Puts bytes back in front of the stream.
    fn unread(&mut self, bytes: &[u8]) {
        if bytes.len() <= self.pos {
            self.pos -= bytes.len();
            self.buf[self.pos..self.pos + bytes.len()].copy_from_slice(bytes);
        } else {
            let mut v = Vec::with_capacity(bytes.len() + self.available().len());
            v.extend_from_slice(bytes);
            v.extend_from_slice(self.available());
            self.buf = v;
            self.pos = 0;
        }
        self.offset -= bytes.len() as u64;
    }

    /// Reads one line (with its `\n`) into `line`, at most `max` bytes.
    /// Returns the bytes consumed (0 at the end of the stream) and whether
    /// the line was complete (false: longer than `max`, or cut by the end).
    fn read_line(&mut self, line: &mut Vec<u8>, max: usize) -> io::Result<(usize, bool)> {
        line.clear();
        loop {
            let avail = self.available();
            if let Some(p) = memchr::memchr(b'\n', avail) {
                let take = (p + 1).min(max - line.len());
                line.extend_from_slice(&avail[..take]);
                self.consume(take);
                return Ok((line.len(), take == p + 1));
            }
            let take = avail.len().min(max - line.len());
            line.extend_from_slice(&avail[..take]);
            self.consume(take);
            if line.len() >= max {
                return Ok((line.len(), false));
            }
            if !self.fill()? {
                return Ok((line.len(), false));
            }
        }
    }

    /// Appends up to `n` bytes to `out`; fewer only at the end of the stream.
    fn read_into(&mut self, out: &mut Vec<u8>, n: usize) -> io::Result<usize> {
        let mut got = 0;
        while got < n {
            if self.available().is_empty() && !self.fill()? {
                break;
            }
            let avail = self.available();
            let take = avail.len().min(n - got);
            out.extend_from_slice(&avail[..take]);
            self.consume(take);
            got += take;
        }
        Ok(got)
    }
}

impl<R: Read> Input<R> {
    /// Skips up to `n` bytes like [`Input::skip`], but stops before a record
    /// start (a version line after a blank line, or at the very start, right
    /// after the header's blank line): a block too large to read may have a
    /// lying `Content-Length`, and the records it would swallow must not be
    /// lost. Returns the bytes skipped and whether a record start stopped it.
    fn skip_to_record(&mut self, n: u64) -> io::Result<(u64, bool)> {
        fn push(tail: &mut [u8; 4], bytes: &[u8]) {
            for &b in &bytes[bytes.len().saturating_sub(4)..] {
                tail.rotate_left(1);
                tail[3] = b;
            }
        }
        let mut got = 0u64;
        let mut tail = *b"\r\n\r\n";
        while got < n {
            if self.available().is_empty() && !self.fill()? {
                break;
            }
            let avail = self.available();
            let limit = (avail.len() as u64).min(n - got) as usize;
            match memchr::memmem::find(&avail[..limit], b"WARC/") {
                None => {
                    push(&mut tail, &avail[..limit]);
                    self.consume(limit);
                    got += limit as u64;
                }
                Some(p) => {
                    push(&mut tail, &avail[..p]);
                    self.consume(p);
                    got += p as u64;
                    if tail.ends_with(b"\n\n") || tail == *b"\r\n\r\n" {
                        let here = self.ensure(16)?;
                        if is_version_line(line_at(here, 0)) {
                            return Ok((got, true));
                        }
                    }
                    push(&mut tail, b"W");
                    self.consume(1);
                    got += 1;
                }
            }
        }
        Ok((got, false))
    }
}

/// Whether a line starts a WARC record (`WARC/1.0`, `WARC/1.1`, and the
/// `WARC/0.x` of ClueWeb09).
fn is_version_line(line: &[u8]) -> bool {
    let t = line.trim_ascii_end();
    t.len() <= 12 && (t.starts_with(b"WARC/1.") || t.starts_with(b"WARC/0."))
}

/// Where a version line starts inside `line`, after other bytes.
fn glued_version_line(line: &[u8]) -> Option<usize> {
    memchr::memmem::rfind(line, b"WARC/").filter(|&p| p > 0 && is_version_line(&line[p..]))
}

/// A streaming reader of the records of a decompressed WARC stream; see the
/// module documentation.
pub struct Reader<R> {
    input: Input<R>,
    max_block: usize,
    /// Skipping bytes after an error: do not report them again.
    resyncing: bool,
    done: bool,
    /// Read errors in a row without progress; a stream that keeps failing ends.
    failures: u32,
}

impl<R: Read> Reader<R> {
    /// Reads the records of `inner`; blocks longer than `max_block` are
    /// skipped and reported.
    pub fn new(inner: R, max_block: usize) -> Self {
        Reader {
            input: Input::new(inner),
            max_block,
            resyncing: false,
            done: false,
            failures: 0,
        }
    }

    /// The offset of the next byte in the decompressed stream.
    pub fn offset(&self) -> u64 {
        self.input.offset
    }

    fn io_failure(&mut self, e: &io::Error) {
        self.failures += 1;
        if self.failures > 64 || e.kind() == io::ErrorKind::UnexpectedEof {
            self.done = true;
        }
    }

    /// Finds the next version line; returns its offset and the line, or
    /// reports skipped bytes.
    fn find_start(&mut self) -> Option<Result<(u64, Vec<u8>), RecordError>> {
        let mut line = Vec::with_capacity(128);
        let mut skipped = 0u64;
        let mut skipped_at = None;
        let mut io_error = None;
        loop {
            let at = self.input.offset;
            match self.input.read_line(&mut line, 1024) {
                Ok((0, _)) => {
                    self.done = true;
                    break;
                }
                Ok((mut n, complete)) => {
                    if complete && line.trim_ascii().is_empty() {
                        continue;
                    }
                    // A record glued to the bytes before it (a truncated gzip
                    // member followed by the next one): the version line starts
                    // inside this line.
                    if complete && !is_version_line(&line) {
                        if let Some(p) = glued_version_line(&line) {
                            // Count the bytes before it as skipped; the version
                            // line is read again on the next turn.
                            self.input.unread(&line[p..]);
                            skipped_at.get_or_insert(at);
                            skipped += p as u64;
                            continue;
                        }
                    }
                    if !complete && line.len() >= 1024 {
                        // Look at the last bytes again: a version line may
                        // start across the cut.
                        let keep = line.len() - 8;
                        self.input.unread(&line[keep..]);
                        line.truncate(keep);
                        n = keep;
                    }
                    if complete && is_version_line(&line) {
                        if skipped > 0 && !self.resyncing {
                            // Report the garbage first; the record comes next call.
                            self.input.unread(&line);
                            break;
                        }
                        self.resyncing = false;
                        self.failures = 0;
                        return Some(Ok((at, line)));
                    }
                    skipped_at.get_or_insert(at);
                    skipped += n as u64;
                }
                Err(e) => {
                    self.io_failure(&e);
                    skipped_at.get_or_insert(at);
                    io_error.get_or_insert_with(|| e.to_string());
                    if self.done {
                        break;
                    }
                }
            }
        }
        if (skipped > 0 || io_error.is_some()) && !self.resyncing {
            self.resyncing = true;
            let reason = match io_error {
                Some(e) => format!("unreadable data ({e})"),
                None => format!("{skipped} bytes that are not a WARC record, skipped"),
            };
            return Some(Err(RecordError {
                offset: skipped_at.unwrap_or(0),
                id: None,
                uri: None,
                record_type: None,
                reason,
            }));
        }
        None
    }

    fn read_record(&mut self, start: u64, version: Vec<u8>) -> Result<Record, RecordError> {
        let mut err = RecordError {
            offset: start,
            id: None,
            uri: None,
            record_type: None,
            reason: String::new(),
        };
        let fail = |this: &mut Self, mut err: RecordError, reason: String| {
            this.resyncing = true;
            err.reason = reason;
            err
        };
        let mut header = Vec::with_capacity(1024);
        header.extend_from_slice(&version);
        let mut line = Vec::with_capacity(256);
        let mut fields: Vec<(String, String)> = Vec::new();
        loop {
            match self.input.read_line(&mut line, MAX_HEADER) {
                Err(e) => {
                    self.io_failure(&e);
                    return Err(fail(self, err, format!("unreadable header ({e})")));
                }
                Ok((0, _)) => {
                    self.done = true;
                    return Err(fail(
                        self,
                        err,
                        "truncated: the file ends in the header".into(),
                    ));
                }
                Ok((_, complete)) => {
                    header.extend_from_slice(&line);
                    if !complete || header.len() > MAX_HEADER {
                        if self.input.eof && self.input.available().is_empty() {
                            self.done = true;
                            return Err(fail(
                                self,
                                err,
                                "truncated: the file ends in the header".into(),
                            ));
                        }
                        return Err(fail(
                            self,
                            err,
                            format!("header longer than {MAX_HEADER} bytes"),
                        ));
                    }
                    let t = line.trim_ascii_end();
                    if t.is_empty() {
                        break;
                    }
                    if (t[0] == b' ' || t[0] == b'\t') && !fields.is_empty() {
                        let last = fields.last_mut().expect("checked");
                        last.1.push(' ');
                        last.1
                            .push_str(String::from_utf8_lossy(t.trim_ascii()).as_ref());
                        continue;
                    }
                    if is_version_line(t) {
                        // A new record starts where this header should have ended.
                        self.input.unread(&line);
                        return Err(fail(
                            self,
                            err,
                            "header cut short by the next record".into(),
                        ));
                    }
                    if let Some(colon) = memchr::memchr(b':', t) {
                        let name = String::from_utf8_lossy(t[..colon].trim_ascii()).into_owned();
                        let value =
                            String::from_utf8_lossy(t[colon + 1..].trim_ascii()).into_owned();
                        match name.to_ascii_lowercase().as_str() {
                            "warc-record-id" => err.id = Some(value.clone()),
                            "warc-target-uri" => err.uri = Some(strip_angle(&value).to_string()),
                            "warc-type" => err.record_type = Some(value.clone()),
                            _ => {}
                        }
                        fields.push((name, value));
                    }
                }
            }
        }
        let length = fields
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case("Content-Length"))
            .map(|(_, v)| v.trim().parse::<u64>());
        let length = match length {
            Some(Ok(n)) => n,
            Some(Err(_)) => return Err(fail(self, err, "invalid Content-Length".into())),
            None => return Err(fail(self, err, "no Content-Length".into())),
        };
        if length > self.max_block as u64 {
            // Not read, but searched: a corrupt, huge length must not swallow
            // the records after it.
            let (skipped, found) = match self.input.skip_to_record(length) {
                Ok(r) => r,
                Err(e) => {
                    self.io_failure(&e);
                    return Err(fail(self, err, format!("unreadable block ({e})")));
                }
            };
            if found {
                self.resyncing = true;
                err.reason = format!(
                    "Content-Length {length} is larger than the limit of {} bytes and runs into the next record (the block ends after {skipped} bytes)",
                    self.max_block
                );
                return Err(err);
            }
            if skipped < length {
                self.done = true;
            }
            self.resyncing = true;
            err.reason = format!(
                "block of {length} bytes is larger than the limit of {} bytes; skipped",
                self.max_block
            );
            return Err(err);
        }
        let mut block = Vec::with_capacity((length as usize).min(1 << 20));
        let got = match self.input.read_into(&mut block, length as usize) {
            Ok(n) => n,
            Err(e) => {
                self.io_failure(&e);
                return Err(fail(self, err, format!("unreadable block ({e})")));
            }
        };
        let truncated = (got as u64) < length;
        if !truncated && self.ends_here() {
            self.failures = 0;
            return Ok(Record {
                header,
                fields,
                block,
                offset: start,
            });
        }
        // The record does not end where its length says. A record start
        // inside the block means the length ran into the next record.
        // The next record may start in the block's last bytes, cut by its end
        // (a length too long by a few bytes): search the block with the bytes
        // that follow it.
        let mut hay = block.clone();
        if let Ok(peek) = self.input.ensure(16) {
            hay.extend_from_slice(&peek[..peek.len().min(16)]);
        }
        let embedded = [&b"\r\n\r\nWARC/"[..], b"\n\nWARC/"]
            .iter()
            .filter_map(|pat| memchr::memmem::find(&hay, pat).map(|p| (p, pat.len() - 5)))
            .filter(|&(p, sep)| p + sep < block.len() && is_version_line(line_at(&hay, p + sep)))
            .min();
        let reason = match (embedded, truncated) {
            (Some((p, sep)), _) => {
                self.input.unread(&block[p + sep..]);
                self.done = false;
                format!(
                    "Content-Length {length} runs into the next record (the block ends after {p} bytes)"
                )
            }
            (None, true) => {
                self.done = true;
                format!("truncated: {got} of {length} bytes")
            }
            (None, false) => {
                format!("Content-Length {length} does not end at a record boundary")
            }
        };
        Err(fail(self, err, reason))
    }

    /// Whether the stream continues with blank lines and then a record or its end.
    fn ends_here(&mut self) -> bool {
        let Ok(avail) = self.input.ensure(MAX_SEPARATOR + 8) else {
            return false;
        };
        let sep = avail
            .iter()
            .take(MAX_SEPARATOR)
            .take_while(|&&b| b == b'\r' || b == b'\n')
            .count();
        let rest = &avail[sep..];
        if rest.is_empty() {
            // The end of the stream, after at most MAX_SEPARATOR blank bytes.
            return sep < MAX_SEPARATOR;
        }
        if !rest.starts_with(b"WARC/") {
            // The record ended properly (its two line ends) and junk follows:
            // the record is whole; the junk is reported by the next call. A
            // length too short by exactly a stretch that ends in a blank line
            // is taken for this case (the rest of its block is then reported as
            // junk): the bytes cannot tell the two apart.
            if avail.starts_with(b"\r\n\r\n") || avail.starts_with(b"\n\n") {
                let end = if avail[0] == b'\r' { 4 } else { 2 };
                self.input.consume(end);
                return true;
            }
            return false;
        }
        self.input.consume(sep);
        true
    }
}

/// The line of `s` starting at `at` (without its end).
fn line_at(s: &[u8], at: usize) -> &[u8] {
    let rest = &s[at.min(s.len())..];
    let end = memchr::memchr(b'\n', rest).unwrap_or(rest.len()).min(16);
    &rest[..end]
}

impl<R: Read> Iterator for Reader<R> {
    type Item = Result<Record, RecordError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        match self.find_start()? {
            Err(e) => Some(Err(e)),
            Ok((start, version)) => Some(self.read_record(start, version)),
        }
    }
}

/// The parts of an HTTP response that cleaning needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpResponse {
    /// The status code, if the status line has one.
    pub status: Option<u16>,
    /// `Content-Type`.
    pub content_type: Option<String>,
    /// `Transfer-Encoding`.
    pub transfer_encoding: Option<String>,
    /// `Content-Encoding`.
    pub content_encoding: Option<String>,
    /// Where the body starts in the block.
    pub body_start: usize,
}

impl HttpResponse {
    /// The media type of `Content-Type`, lower-case, without parameters.
    pub fn media_type(&self) -> Option<String> {
        self.content_type.as_deref().map(media_type)
    }

    /// The `charset` parameter of `Content-Type`.
    pub fn charset(&self) -> Option<String> {
        self.content_type.as_deref().and_then(charset_param)
    }
}

/// The media type of a `Content-Type` value, lower-case, without parameters.
pub fn media_type(content_type: &str) -> String {
    content_type
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase()
}

/// The `charset` parameter of a `Content-Type` value.
pub fn charset_param(content_type: &str) -> Option<String> {
    content_type.split(';').skip(1).find_map(|p| {
        let (k, v) = p.split_once('=')?;
        k.trim()
            .eq_ignore_ascii_case("charset")
            .then(|| v.trim().trim_matches(|c| c == '"' || c == '\'').to_string())
            .filter(|v| !v.is_empty())
    })
}

/// Parses the status line and headers of an HTTP response block.
pub fn parse_http(block: &[u8]) -> Result<HttpResponse, String> {
    if !block.starts_with(b"HTTP/") {
        return Err("the block is not an HTTP response (no HTTP/ status line)".into());
    }
    let mut pos = 0;
    let mut first = true;
    let mut resp = HttpResponse {
        status: None,
        content_type: None,
        transfer_encoding: None,
        content_encoding: None,
        body_start: block.len(),
    };
    loop {
        if pos > MAX_HEADER {
            return Err(format!("HTTP header longer than {MAX_HEADER} bytes"));
        }
        let rest = &block[pos..];
        let Some(nl) = memchr::memchr(b'\n', rest) else {
            if rest.trim_ascii().is_empty() {
                // Headers without a body, and without the final blank line.
                resp.body_start = block.len();
                return Ok(resp);
            }
            return Err("HTTP header without an end (no blank line)".into());
        };
        let line = rest[..nl].trim_ascii_end();
        pos += nl + 1;
        if first {
            first = false;
            resp.status = line
                .split(|&b| b == b' ')
                .nth(1)
                .and_then(|s| std::str::from_utf8(s).ok())
                .and_then(|s| s.parse().ok());
            continue;
        }
        if line.is_empty() {
            resp.body_start = pos;
            return Ok(resp);
        }
        if let Some(colon) = memchr::memchr(b':', line) {
            let name = &line[..colon];
            let value = || String::from_utf8_lossy(line[colon + 1..].trim_ascii()).into_owned();
            if name.eq_ignore_ascii_case(b"content-type") {
                resp.content_type.get_or_insert_with(value);
            } else if name.eq_ignore_ascii_case(b"transfer-encoding") {
                resp.transfer_encoding = Some(value());
            } else if name.eq_ignore_ascii_case(b"content-encoding") {
                resp.content_encoding = Some(value());
            }
        }
    }
}

/// Decodes `Transfer-Encoding: chunked`. Returns `None` when the body is not
/// validly chunked (many archives store bodies already de-chunked but keep
/// the header).
pub fn dechunk(body: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(body.len());
    let mut pos = 0;
    loop {
        let rest = body.get(pos..)?;
        let nl = memchr::memchr(b'\n', rest)?;
        let size_line = rest[..nl].trim_ascii();
        let hex = size_line.split(|&b| b == b';').next()?.trim_ascii();
        if hex.is_empty() || hex.len() > 12 {
            return None;
        }
        let size = usize::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok()?;
        pos += nl + 1;
        if size == 0 {
            return Some(out);
        }
        let chunk = body.get(pos..pos.checked_add(size)?)?;
        out.extend_from_slice(chunk);
        pos += size;
        // The CRLF after the chunk.
        while pos < body.len() && (body[pos] == b'\r' || body[pos] == b'\n') {
            pos += 1;
            if body.get(pos - 1) == Some(&b'\n') {
                break;
            }
        }
    }
}

/// Decodes a `Content-Encoding` (`gzip`, `x-gzip`, `deflate`, `br`, `zstd`;
/// `identity` and none are the body itself), producing at most `max` bytes.
pub fn decode_content(encoding: &str, body: &[u8], max: usize) -> Result<Vec<u8>, String> {
    let enc = encoding.trim().to_ascii_lowercase();
    let limit = max as u64 + 1;
    let mut out = Vec::with_capacity(body.len().saturating_mul(4).min(max));
    let result = match enc.as_str() {
        "" | "identity" => return Ok(body.to_vec()),
        "gzip" | "x-gzip" => flate2::read::MultiGzDecoder::new(body)
            .take(limit)
            .read_to_end(&mut out),
        "deflate" => {
            // Servers send zlib-wrapped or raw deflate under this name.
            let r = flate2::read::ZlibDecoder::new(body)
                .take(limit)
                .read_to_end(&mut out);
            if r.is_err() {
                out.clear();
                flate2::read::DeflateDecoder::new(body)
                    .take(limit)
                    .read_to_end(&mut out)
            } else {
                r
            }
        }
        "br" => brotli_decompressor::Decompressor::new(body, 64 << 10)
            .take(limit)
            .read_to_end(&mut out),
        "zstd" => match zstd::stream::read::Decoder::new(body) {
            Ok(d) => d.take(limit).read_to_end(&mut out),
            Err(e) => Err(e),
        },
        other => return Err(format!("unsupported Content-Encoding {other:?}")),
    };
    match result {
        Ok(_) if out.len() > max => Err(format!(
            "Content-Encoding {enc}: more than {max} bytes when decoded"
        )),
        Ok(_) => Ok(out),
        Err(e) => Err(format!("Content-Encoding {enc}: corrupt data ({e})")),
    }
}

/// A writer of WARC records; see the module documentation.
pub struct Writer<W: Write> {
    w: W,
    gzip: bool,
    buf: Vec<u8>,
}

/// The media type of conversion records.
pub const CONVERSION_CONTENT_TYPE: &str = "text/plain";

impl<W: Write> Writer<W> {
    /// Writes records to `w`, each as its own gzip member when `gzip`.
    pub fn new(w: W, gzip: bool) -> Self {
        Writer {
            w,
            gzip,
            buf: Vec::new(),
        }
    }

    /// The underlying writer.
    pub fn into_inner(self) -> W {
        self.w
    }

    /// The underlying writer.
    pub fn get_mut(&mut self) -> &mut W {
        &mut self.w
    }

    fn emit(&mut self, header: &[u8], block: &[u8]) -> io::Result<()> {
        if self.gzip {
            self.buf.clear();
            self.buf.extend_from_slice(header);
            self.buf.extend_from_slice(block);
            self.buf.extend_from_slice(b"\r\n\r\n");
            let member = compress::gzip_member(&self.buf, 6);
            self.w.write_all(&member)
        } else {
            self.w.write_all(header)?;
            self.w.write_all(block)?;
            self.w.write_all(b"\r\n\r\n")
        }
    }

    /// Writes a record back unchanged.
    pub fn write_record(&mut self, record: &Record) -> io::Result<()> {
        self.emit(&record.header, &record.block)
    }

    /// Writes a record from its fields (without `Content-Length`, which is
    /// added) and block.
    pub fn write_new(&mut self, fields: &[(&str, &str)], block: &[u8]) -> io::Result<()> {
        let mut header = Vec::with_capacity(512);
        header.extend_from_slice(b"WARC/1.0\r\n");
        for (k, v) in fields {
            // Field values must not break the header.
            let v: String = v
                .chars()
                .map(|c| if c.is_control() { ' ' } else { c })
                .collect();
            header.extend_from_slice(k.as_bytes());
            header.extend_from_slice(b": ");
            header.extend_from_slice(v.as_bytes());
            header.extend_from_slice(b"\r\n");
        }
        header.extend_from_slice(format!("Content-Length: {}\r\n\r\n", block.len()).as_bytes());
        self.emit(&header, block)
    }

    /// Writes the `conversion` record of `original` holding `text`.
    pub fn write_conversion(&mut self, original: &Record, text: &[u8]) -> io::Result<()> {
        let refers = original.id().unwrap_or("").to_string();
        let id = derived_id(refers.as_bytes(), b"conversion");
        let mut fields = vec![("WARC-Type", "conversion")];
        if let Some(uri) = original.get("WARC-Target-URI") {
            fields.push(("WARC-Target-URI", uri));
        }
        if let Some(date) = original.get("WARC-Date") {
            fields.push(("WARC-Date", date));
        }
        fields.push(("WARC-Record-ID", &id));
        if !refers.is_empty() {
            fields.push(("WARC-Refers-To", &refers));
        }
        fields.push(("Content-Type", CONVERSION_CONTENT_TYPE));
        self.write_new(&fields, text)
    }

    /// Writes a document that did not come from a WARC file as a `resource`
    /// record and returns that record (to refer to from its conversion).
    pub fn write_resource(
        &mut self,
        id_seed: &str,
        uri: &str,
        content_type: &str,
        date: &str,
        bytes: &[u8],
    ) -> io::Result<Record> {
        let id = derived_id(id_seed.as_bytes(), b"resource");
        let fields: Vec<(String, String)> = vec![
            ("WARC-Type".into(), "resource".into()),
            ("WARC-Target-URI".into(), uri.into()),
            ("WARC-Date".into(), date.into()),
            ("WARC-Record-ID".into(), id),
            ("Content-Type".into(), content_type.into()),
        ];
        let borrowed: Vec<(&str, &str)> = fields
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        self.write_new(&borrowed, bytes)?;
        Ok(Record {
            header: Vec::new(),
            fields,
            block: Vec::new(),
            offset: 0,
        })
    }
}

/// A record id (`<urn:uuid:…>`) derived from `seed` and `kind`: the same
/// input always gives the same id, so outputs are reproducible. The UUID is
/// of version 8 (custom): 122 bits of two salted `stable_hash` values, which
/// do not depend on the platform or the Rust release.
pub fn derived_id(seed: &[u8], kind: &[u8]) -> String {
    let (a, b) = (
        stable_hash(0x6e63_6c65_616e_6572, kind, seed),
        stable_hash(0x7761_7263_2d69_6473, kind, seed),
    );
    let a = (a & !0xf000) | 0x8000; // version 8
    let b = (b & !(0b11 << 62)) | (0b10 << 62); // RFC 4122 variant
    format!(
        "<urn:uuid:{:08x}-{:04x}-{:04x}-{:04x}-{:012x}>",
        a >> 32,
        (a >> 16) & 0xffff,
        a & 0xffff,
        b >> 48,
        b & 0xffff_ffff_ffff
    )
}

/// A hash that is the same on every platform and Rust release (std's
/// `DefaultHasher` is not: its algorithm may change between releases, and
/// with it every derived record id): 64-bit FNV-1a over `salt` (8 bytes,
/// little-endian), then `kind` and `seed` each preceded by its length (8
/// bytes, little-endian), finished by MurmurHash3's `fmix64` so that every
/// output bit depends on every input bit.
fn stable_hash(salt: u64, kind: &[u8], seed: &[u8]) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let mut h = OFFSET;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes {
            h ^= u64::from(b);
            h = h.wrapping_mul(PRIME);
        }
    };
    eat(&salt.to_le_bytes());
    eat(&(kind.len() as u64).to_le_bytes());
    eat(kind);
    eat(&(seed.len() as u64).to_le_bytes());
    eat(seed);
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

/// The current time as a WARC date (`2024-01-31T12:00:00Z`).
pub fn now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Howard Hinnant's days-to-civil algorithm.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn chunked_and_content_encodings() {
        assert_eq!(
            dechunk(b"5\r\nhello\r\n6;x=y\r\n world\r\n0\r\n\r\n").unwrap(),
            b"hello world"
        );
        assert_eq!(dechunk(b"<html>"), None);
        let gz = compress::gzip_member(b"<p>zipped</p>", 6);
        assert_eq!(decode_content("gzip", &gz, 100).unwrap(), b"<p>zipped</p>");
        assert!(
            decode_content("gzip", &gz, 5)
                .unwrap_err()
                .contains("more than")
        );
        assert!(decode_content("gzip", b"not gzip", 100).is_err());
        assert!(decode_content("compress", b"x", 100).is_err());
        let z = zstd::encode_all(&b"zst"[..], 1).unwrap();
        assert_eq!(decode_content("zstd", &z, 100).unwrap(), b"zst");
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
