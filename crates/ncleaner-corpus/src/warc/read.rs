//! Reading WARC records: the buffered input and the [`Reader`] that
//! resynchronises on the next `WARC/1.` line after damage (see the module
//! documentation of [`super`]).

use std::io::{self, Read};

use super::{MAX_HEADER, MAX_SEPARATOR, Record, RecordError, strip_angle};

/// The decompressed stream with a buffer that bytes can be pushed back into.
struct Input<R> {
    inner: R,
    /// `buf[pos..end]` holds the bytes read and not yet consumed; the rest
    /// is room for the next read, zero-filled once when the buffer grows
    /// (not before every read: a 64 KB `memset` per read shows in a
    /// profile of `clean`).
    buf: Vec<u8>,
    pos: usize,
    end: usize,
    /// Offset of `buf[pos]` in the stream.
    offset: u64,
    eof: bool,
}

impl<R: Read> Input<R> {
    fn new(inner: R) -> Self {
        Input {
            inner,
            buf: Vec::new(),
            pos: 0,
            end: 0,
            offset: 0,
            eof: false,
        }
    }

    fn available(&self) -> &[u8] {
        &self.buf[self.pos..self.end]
    }

    /// Reads more bytes into the buffer; false at the end of the stream.
    fn fill(&mut self) -> io::Result<bool> {
        if self.eof {
            return Ok(false);
        }
        if self.pos == self.end {
            self.pos = 0;
            self.end = 0;
        } else if self.pos > (64 << 10) {
            self.buf.copy_within(self.pos..self.end, 0);
            self.end -= self.pos;
            self.pos = 0;
        }
        if self.buf.len() < self.end + (64 << 10) {
            self.buf.resize(self.end + (64 << 10), 0);
        }
        let n = loop {
            match self.inner.read(&mut self.buf[self.end..]) {
                Ok(n) => break n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        };
        self.end += n;
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
            self.end = v.len();
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
            if self.available().is_empty() && n - got >= (64 << 10) && !self.eof {
                // A large rest (most of a page's block) is read from the
                // stream into `out` itself, not copied through the buffer.
                let (want, before) = (n - got, out.len());
                out.reserve(want);
                let res = (&mut self.inner).take(want as u64).read_to_end(out);
                let k = out.len() - before;
                self.offset += k as u64;
                got += k;
                res?;
                self.eof = k < want;
                break;
            }
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

/// A record's header as read: its bytes (from the version line on) and its
/// fields, (name, value) in order.
type Header = (Vec<u8>, Vec<(String, String)>);

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
                    if complete
                        && !is_version_line(&line)
                        && let Some(p) = glued_version_line(&line)
                    {
                        // Count the bytes before it as skipped; the version
                        // line is read again on the next turn.
                        self.input.unread(&line[p..]);
                        skipped_at.get_or_insert(at);
                        skipped += p as u64;
                        continue;
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
        let (header, fields) = match self.read_header(version, &mut err) {
            Ok(h) => h,
            Err(reason) => return Err(fail(self, err, reason)),
        };
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
            let reason = self.skip_block(length);
            return Err(fail(self, err, reason));
        }
        let mut block = Vec::with_capacity((length as usize).min(1 << 20));
        let got = match self.input.read_into(&mut block, length as usize) {
            Ok(n) => n,
            Err(e) => {
                self.io_failure(&e);
                return Err(fail(self, err, format!("unreadable block ({e})")));
            }
        };
        if (got as u64) >= length && self.ends_here() {
            self.failures = 0;
            return Ok(Record {
                header,
                fields,
                block,
                offset: start,
            });
        }
        let reason = self.misframed(&block, got, length);
        Err(fail(self, err, reason))
    }

    /// Reads a record's header after its version line: the header's bytes
    /// (from the version line on) and its fields, `err` given the record's
    /// id, URI and type as they are read; or why the header cannot be read.
    fn read_header(&mut self, version: Vec<u8>, err: &mut RecordError) -> Result<Header, String> {
        let mut header = Vec::with_capacity(1024);
        header.extend_from_slice(&version);
        let mut line = Vec::with_capacity(256);
        let mut fields: Vec<(String, String)> = Vec::new();
        loop {
            let complete = match self.input.read_line(&mut line, MAX_HEADER) {
                Err(e) => {
                    self.io_failure(&e);
                    return Err(format!("unreadable header ({e})"));
                }
                Ok((0, _)) => {
                    self.done = true;
                    return Err("truncated: the file ends in the header".into());
                }
                Ok((_, complete)) => complete,
            };
            header.extend_from_slice(&line);
            if !complete || header.len() > MAX_HEADER {
                if self.input.eof && self.input.available().is_empty() {
                    self.done = true;
                    return Err("truncated: the file ends in the header".into());
                }
                return Err(format!("header longer than {MAX_HEADER} bytes"));
            }
            let t = line.trim_ascii_end();
            if t.is_empty() {
                return Ok((header, fields));
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
                return Err("header cut short by the next record".into());
            }
            if let Some(colon) = memchr::memchr(b':', t) {
                let name = String::from_utf8_lossy(t[..colon].trim_ascii()).into_owned();
                let value = String::from_utf8_lossy(t[colon + 1..].trim_ascii()).into_owned();
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

    /// Passes a block of `length` bytes, larger than the limit, and says
    /// why. Not read, but searched: a corrupt, huge length must not swallow
    /// the records after it.
    fn skip_block(&mut self, length: u64) -> String {
        let (skipped, found) = match self.input.skip_to_record(length) {
            Ok(r) => r,
            Err(e) => {
                self.io_failure(&e);
                return format!("unreadable block ({e})");
            }
        };
        if found {
            return format!(
                "Content-Length {length} is larger than the limit of {} bytes and runs into the next record (the block ends after {skipped} bytes)",
                self.max_block
            );
        }
        if skipped < length {
            self.done = true;
        }
        format!(
            "block of {length} bytes is larger than the limit of {} bytes; skipped",
            self.max_block
        )
    }

    /// Why a record does not end where its length says, `got` of its
    /// `length` bytes read into `block`; the bytes of a next record found
    /// in the block are given back to the stream. A record start inside
    /// the block means the length ran into the next record. The next record
    /// may start in the block's last bytes, cut by its end (a length too
    /// long by a few bytes): the block is searched with the bytes that
    /// follow it.
    fn misframed(&mut self, block: &[u8], got: usize, length: u64) -> String {
        let truncated = (got as u64) < length;
        let mut hay = block.to_vec();
        if let Ok(peek) = self.input.ensure(16) {
            hay.extend_from_slice(&peek[..peek.len().min(16)]);
        }
        let embedded = [&b"\r\n\r\nWARC/"[..], b"\n\nWARC/"]
            .iter()
            .filter_map(|pat| memchr::memmem::find(&hay, pat).map(|p| (p, pat.len() - 5)))
            .filter(|&(p, sep)| p + sep < block.len() && is_version_line(line_at(&hay, p + sep)))
            .min();
        match (embedded, truncated) {
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
        }
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
