//! HTTP/1.x responses as WARC `response` records hold them: the head
//! parser, the one `Content-Type` parser (media type and charset, names
//! compared case-insensitively) and de-chunking (`Content-Encoding` is
//! [`crate::identify`]'s).

/// The longest WARC or HTTP header accepted, in bytes.
pub const MAX_HEADER: usize = 64 << 10;

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

/// What de-chunking a body (`Transfer-Encoding: chunked`) gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Dechunked {
    /// The whole body, up to its last (zero-size) chunk.
    Whole(Vec<u8>),
    /// The body ends before its last chunk (a truncated record or
    /// download): the data of the chunks it has, the last one possibly part.
    Cut(Vec<u8>),
    /// The body does not start with a chunk-size line: not chunked (many
    /// archives store bodies already de-chunked but keep the header).
    NotChunked,
    /// Chunked at first, then, at this byte of the body, a line where a
    /// chunk size belongs that is not one.
    Corrupt(usize),
}

/// Decodes `Transfer-Encoding: chunked`; see [`Dechunked`].
pub fn dechunk(body: &[u8]) -> Dechunked {
    let mut out = Vec::with_capacity(body.len());
    let mut pos = 0;
    loop {
        let rest = &body[pos..];
        let Some(nl) = memchr::memchr(b'\n', rest) else {
            // The end, before a size line or inside one.
            return match pos {
                0 => Dechunked::NotChunked,
                _ => Dechunked::Cut(out),
            };
        };
        let size_line = rest[..nl].trim_ascii();
        let hex = size_line
            .split(|&b| b == b';')
            .next()
            .unwrap_or_default()
            .trim_ascii();
        let size = (!hex.is_empty() && hex.len() <= 12)
            .then(|| std::str::from_utf8(hex).ok())
            .flatten()
            .and_then(|h| usize::from_str_radix(h, 16).ok());
        let Some(size) = size else {
            return match pos {
                0 => Dechunked::NotChunked,
                _ => Dechunked::Corrupt(pos),
            };
        };
        pos += nl + 1;
        if size == 0 {
            return Dechunked::Whole(out);
        }
        let end = pos.saturating_add(size);
        if end > body.len() {
            out.extend_from_slice(&body[pos..]);
            return Dechunked::Cut(out);
        }
        out.extend_from_slice(&body[pos..end]);
        pos = end;
        // The CRLF after the chunk.
        while pos < body.len() && (body[pos] == b'\r' || body[pos] == b'\n') {
            pos += 1;
            if body.get(pos - 1) == Some(&b'\n') {
                break;
            }
        }
        if pos >= body.len() {
            return Dechunked::Cut(out);
        }
    }
}
