//! HTTP/1.x responses as WARC `response` records hold them: the head
//! parser, the one `Content-Type` parser (media type and charset, names
//! compared case-insensitively), de-chunking and `Content-Encoding`.

use std::io::Read;

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
