//! Bytes identified before they are cleaned, wherever a document comes
//! from (a file, standard input, a WARC record's body, a JSON line's
//! string, a request to the server): compressed bytes are decompressed,
//! binary bytes are not documents, and bytes that cannot be read fail.
//!
//! - Compression is recognised by its magic bytes: gzip (`1f 8b 08` and a
//!   valid header), zstd (`28 b5 2f fd`, or a skippable frame), zlib
//!   (deflate with its two-byte header, checked by decoding). Brotli and
//!   raw deflate have no magic bytes: they are tried only on bytes that
//!   look binary, and taken when they decode to bytes that do not. A
//!   `Content-Encoding` the transport declares is decoded first, unless
//!   the bytes are plainly not so encoded (a body already decoded whose
//!   header was kept: the bytes are used as they are). Up to
//!   [`MAX_LAYERS`] layers are unwrapped (a server's gzip over a gzipped
//!   file).
//! - A stream that stops early (a truncated download, a corrupt member)
//!   gives what decoded before the damage, and the document says so
//!   ([`Identified::Document::truncated`]); a stream of which nothing
//!   decodes fails. More than the size limit once decompressed fails,
//!   naming the decompressed limit and the compressed size.
//! - Binary bytes are recognised by magic number ([`kind::binary_kind`]:
//!   images, PDF, archives, executables, fonts, …) or, without one, by
//!   their control characters ([`looks_binary`]): random bytes are about
//!   11 % C0 control characters, text in any ASCII-compatible encoding
//!   almost none (the most in the 4,472 shared pages is 0.16 %).

use std::borrow::Cow;
use std::io::Read;

use crate::compress::Compression;
use crate::kind;

/// Most compression layers unwrapped from one document.
pub const MAX_LAYERS: usize = 3;

/// Bytes looked at by [`looks_binary`].
pub const BINARY_SAMPLE: usize = 8 << 10;

/// What a document's bytes are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Identified<'a> {
    /// A document to clean.
    Document {
        /// Its bytes, decompressed when they were compressed (borrowed
        /// when they were not).
        bytes: Cow<'a, [u8]>,
        /// The compressions unwrapped, outermost first (`gzip`, `zstd`, …).
        unwrapped: Vec<&'static str>,
        /// Why the bytes are not the whole document: a compressed stream
        /// cut short or corrupt part-way (what decoded before is kept).
        truncated: Option<String>,
    },
    /// Not a document (an image, a PDF, random bytes): what it is.
    NotADocument(String),
    /// More than the size limit once decompressed: the message names the
    /// limit and the compressed size.
    TooLarge(String),
    /// Bytes that cannot be read: why (a compressed stream of which
    /// nothing decodes, an unknown `Content-Encoding`).
    Failed(String),
}

/// How [`identify`] reads bytes.
#[derive(Debug, Clone, Copy)]
pub struct IdentifyOptions<'a> {
    /// The `Content-Encoding` the transport declares (a WARC record's HTTP
    /// header, a request's header), if any.
    pub content_encoding: Option<&'a str>,
    /// The largest document once decompressed.
    pub max: usize,
    /// Whether binary bytes are [`Identified::NotADocument`] (`false`: the
    /// caller forces them through, as `clean --input html|text` does).
    pub detect_binary: bool,
}

/// Identifies `bytes`: see the module documentation.
pub fn identify<'a>(bytes: impl Into<Cow<'a, [u8]>>, opts: IdentifyOptions<'_>) -> Identified<'a> {
    let mut bytes: Cow<'a, [u8]> = bytes.into();
    let mut unwrapped = Vec::new();
    let mut truncated: Option<String> = None;
    let compressed_size = bytes.len();
    let mut layer = |bytes: &mut Cow<'a, [u8]>,
                     unwrapped: &mut Vec<&'static str>,
                     how: Codec,
                     decoded: Decoded|
     -> Result<(), Identified<'a>> {
        match decoded {
            Decoded::Whole(v) => *bytes = Cow::Owned(v),
            Decoded::Part(v, why) => {
                *bytes = Cow::Owned(v);
                truncated.get_or_insert(why);
            }
            Decoded::TooLarge => {
                return Err(Identified::TooLarge(format!(
                    "decompresses ({}) to more than {} bytes, the limit of one document \
                     ({compressed_size} bytes compressed); not cleaned: a decompression bomb, \
                     or a document to split",
                    how.name(),
                    opts.max
                )));
            }
            Decoded::Corrupt(e) => {
                return Err(Identified::Failed(format!(
                    "corrupt {} data: {e}",
                    how.name()
                )));
            }
        }
        unwrapped.push(how.name());
        Ok(())
    };
    // What the transport declares, innermost last (`gzip, br`: br applied last).
    if let Some(declared) = opts.content_encoding {
        for name in declared
            .rsplit(',')
            .map(str::trim)
            .filter(|n| !n.is_empty())
        {
            let Some(codec) = Codec::of_name(name) else {
                if name.eq_ignore_ascii_case("identity") {
                    continue;
                }
                return Identified::Failed(format!(
                    "unsupported Content-Encoding {name:?} (gzip, deflate, br and zstd are read)"
                ));
            };
            // A body already decoded whose header was kept: as it is.
            if codec.magic_absent(&bytes) && !looks_binary(&bytes) {
                continue;
            }
            let decoded = codec.decode(&bytes, opts.max);
            let r = match decoded {
                // Declared but not so (a codec without magic bytes cannot
                // tell before): the bytes are judged on their own below.
                Decoded::Corrupt(_) if !codec.has_magic() => continue,
                Decoded::Part(..) if !codec.has_magic() && !looks_binary(&bytes) => continue,
                d => layer(&mut bytes, &mut unwrapped, codec, d),
            };
            if let Err(failed) = r {
                return failed;
            }
        }
    }
    // What the bytes say (whether they look binary is asked once a layer).
    let mut binary = looks_binary(&bytes);
    while unwrapped.len() < MAX_LAYERS {
        let Some((codec, decoded)) = sniff_and_decode(&bytes, binary, opts.max) else {
            break;
        };
        if let Err(failed) = layer(&mut bytes, &mut unwrapped, codec, decoded) {
            return failed;
        }
        binary = looks_binary(&bytes);
    }
    if opts.detect_binary {
        if let Some(what) = kind::binary_kind(&bytes) {
            return Identified::NotADocument(what.to_string());
        }
        if binary {
            return Identified::NotADocument(format!(
                "binary data ({} of its first {} bytes are control characters)",
                control_bytes(&bytes[..bytes.len().min(BINARY_SAMPLE)]),
                bytes.len().min(BINARY_SAMPLE)
            ));
        }
    }
    Identified::Document {
        bytes,
        unwrapped,
        truncated,
    }
}

/// Whether bytes look binary: in the first [`BINARY_SAMPLE`], at least 4
/// C0 control characters other than tab, line feed, form feed, carriage
/// return and escape (ISO-2022 uses it), or DEL, making more than 2 % of
/// them; bytes laid out as UTF-16 ([`ncleaner::decode::utf16_by_bytes`])
/// are text.
pub fn looks_binary(bytes: &[u8]) -> bool {
    let sample = &bytes[..bytes.len().min(BINARY_SAMPLE)];
    let n = control_bytes(sample);
    n >= 4 && n * 50 > sample.len() && ncleaner::decode::utf16_by_bytes(sample).is_none()
}

/// The control characters of `bytes` that text does not hold (counted in
/// byte lanes, 255 bytes at a time, so that the loop vectorises).
fn control_bytes(bytes: &[u8]) -> usize {
    bytes
        .chunks(255)
        .map(|c| {
            c.iter().fold(0u8, |n, &b| {
                let text = (b == 9) | (b == 10) | (b == 12) | (b == 13) | (b == 27);
                n + u8::from(((b < 0x20) & !text) | (b == 0x7f))
            }) as usize
        })
        .sum()
}

/// A compression [`identify`] reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Codec {
    Gzip,
    Zstd,
    /// zlib-wrapped deflate.
    Zlib,
    /// Raw deflate (no header).
    Deflate,
    Brotli,
}

/// What decoding a compressed stream gave.
enum Decoded {
    /// The whole stream.
    Whole(Vec<u8>),
    /// What decoded before the stream stopped or broke, and why.
    Part(Vec<u8>, String),
    /// More than the limit.
    TooLarge,
    /// Nothing decodes.
    Corrupt(String),
}

impl Codec {
    fn name(self) -> &'static str {
        match self {
            Codec::Gzip => "gzip",
            Codec::Zstd => "zstd",
            Codec::Zlib => "zlib",
            Codec::Deflate => "deflate",
            Codec::Brotli => "brotli",
        }
    }

    /// The codec a `Content-Encoding` names (`deflate`: zlib-wrapped, or
    /// raw as some servers send it: see [`Codec::decode`]).
    fn of_name(name: &str) -> Option<Codec> {
        Some(match name.to_ascii_lowercase().as_str() {
            "gzip" | "x-gzip" => Codec::Gzip,
            "deflate" => Codec::Zlib,
            "br" => Codec::Brotli,
            "zstd" => Codec::Zstd,
            _ => return None,
        })
    }

    fn has_magic(self) -> bool {
        matches!(self, Codec::Gzip | Codec::Zstd)
    }

    /// The bytes lack the magic number of a codec that has one.
    fn magic_absent(self, bytes: &[u8]) -> bool {
        match self {
            Codec::Gzip => Compression::sniff(bytes) != Compression::Gzip,
            Codec::Zstd => Compression::sniff(bytes) != Compression::Zstd,
            Codec::Zlib => !zlib_header(bytes),
            Codec::Deflate | Codec::Brotli => false,
        }
    }

    /// Decodes at most `max` bytes of `bytes`.
    fn decode(self, bytes: &[u8], max: usize) -> Decoded {
        let r: Box<dyn Read + '_> = match self {
            Codec::Gzip => Box::new(flate2::read::MultiGzDecoder::new(bytes)),
            Codec::Zstd => match zstd::stream::read::Decoder::new(bytes) {
                Ok(d) => Box::new(d),
                Err(e) => return Decoded::Corrupt(e.to_string()),
            },
            Codec::Zlib => {
                // Servers send raw deflate under this name too.
                match read_limited(flate2::read::ZlibDecoder::new(bytes), max) {
                    Decoded::Corrupt(_) => return Codec::Deflate.decode(bytes, max),
                    d => return d,
                }
            }
            Codec::Deflate => Box::new(flate2::read::DeflateDecoder::new(bytes)),
            Codec::Brotli => Box::new(brotli_decompressor::Decompressor::new(bytes, 64 << 10)),
        };
        read_limited(r, max)
    }
}

/// Reads at most `max` bytes from a decoder.
fn read_limited(r: impl Read, max: usize) -> Decoded {
    let mut out = Vec::new();
    match r.take(max as u64 + 1).read_to_end(&mut out) {
        Ok(_) if out.len() > max => Decoded::TooLarge,
        Ok(_) => Decoded::Whole(out),
        Err(e) if out.is_empty() => Decoded::Corrupt(e.to_string()),
        Err(e) => {
            let how = match e.kind() {
                std::io::ErrorKind::UnexpectedEof => "cut short",
                _ => "corrupt",
            };
            let n = out.len();
            Decoded::Part(
                out,
                format!(
                    "the compressed stream is {how} after {n} decompressed bytes ({e}); the part before was cleaned"
                ),
            )
        }
    }
}

/// A zlib header: deflate (CM 8) with a window of at most 32 KiB, and the
/// header's check bits right (RFC 1950 §2.2).
fn zlib_header(b: &[u8]) -> bool {
    b.len() >= 2
        && b[0] & 0x0f == 8
        && b[0] >> 4 <= 7
        && u16::from_be_bytes([b[0], b[1]]).is_multiple_of(31)
}

/// The compression the bytes show, decoded; `None` when they show none.
/// `binary`: whether they look binary ([`looks_binary`]).
fn sniff_and_decode(bytes: &[u8], binary: bool, max: usize) -> Option<(Codec, Decoded)> {
    match Compression::sniff(bytes) {
        Compression::Gzip => return Some((Codec::Gzip, Codec::Gzip.decode(bytes, max))),
        Compression::Zstd => return Some((Codec::Zstd, Codec::Zstd.decode(bytes, max))),
        _ => {}
    }
    // A zlib header is two bytes that text can begin with (`x^`): taken
    // only when the stream decodes.
    if zlib_header(bytes) {
        match read_limited(flate2::read::ZlibDecoder::new(bytes), max) {
            Decoded::Corrupt(_) => {}
            d => return Some((Codec::Zlib, d)),
        }
    }
    // No magic bytes: tried only on bytes that look binary, and taken when
    // they decode to bytes that do not.
    if binary {
        for codec in [Codec::Brotli, Codec::Deflate] {
            match codec.decode(bytes, max) {
                Decoded::Whole(v) if !v.is_empty() && !looks_binary(&v) => {
                    return Some((codec, Decoded::Whole(v)));
                }
                Decoded::TooLarge => return Some((codec, Decoded::TooLarge)),
                _ => {}
            }
        }
    }
    None
}

/// The bytes of a JSON string that holds compressed bytes one character
/// per byte (a body stored as Latin-1 text): when its first characters
/// are a compression's magic bytes and every character is below U+0100.
pub fn latin1_compressed(s: &str) -> Option<Vec<u8>> {
    let head: Vec<u8> = s
        .chars()
        .take(4)
        .map(|c| u8::try_from(u32::from(c)).unwrap_or(0))
        .collect();
    let magic = Compression::sniff(&head) != Compression::None || zlib_header(&head);
    if !magic || s.chars().take(4).any(|c| u32::from(c) > 0xff) {
        return None;
    }
    s.chars().map(|c| u8::try_from(u32::from(c)).ok()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    const PAGE: &[u8] =
        b"<html><body><p>A page of text, long enough to be a page.</p></body></html>";

    fn opts(max: usize) -> IdentifyOptions<'static> {
        IdentifyOptions {
            content_encoding: None,
            max,
            detect_binary: true,
        }
    }

    fn doc(i: Identified<'_>) -> (Vec<u8>, Vec<&'static str>, Option<String>) {
        match i {
            Identified::Document {
                bytes,
                unwrapped,
                truncated,
            } => (bytes.into_owned(), unwrapped, truncated),
            other => panic!("not a document: {other:?}"),
        }
    }

    fn gzip(b: &[u8]) -> Vec<u8> {
        crate::compress::gzip_member(b, 6)
    }

    fn zlib(b: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::new(6));
        e.write_all(b).unwrap();
        e.finish().unwrap()
    }

    fn raw_deflate(b: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::new(6));
        e.write_all(b).unwrap();
        e.finish().unwrap()
    }

    fn brotli(b: &[u8]) -> Vec<u8> {
        // A brotli stream of one uncompressed meta-block (RFC 7932 §9.2),
        // as a server may label it: declared, it is decoded.
        assert!(b.len() <= 65536);
        let mut bits = BitWriter::default();
        bits.put(0, 1); // WBITS 16
        bits.put(0, 1); // ISLAST 0
        let mlen = b.len() - 1;
        bits.put(0, 2); // MNIBBLES 4
        bits.put(mlen as u64, 16);
        bits.put(1, 1); // ISUNCOMPRESSED
        let mut out = bits.finish();
        out.extend_from_slice(b);
        let mut end = BitWriter::default();
        end.put(1, 1); // ISLAST
        end.put(1, 1); // ISLASTEMPTY
        out.extend(end.finish());
        out
    }

    /// `brotli -q 11` of 40 lines `<p>Paragraph {i} of a page compressed
    /// with brotli.</p>` (the crate decodes brotli only).
    const BROTLI_PAGE: &str = "c12843006f9cee88c949743023547af2f840dddc4af54292ddf3b5788a4e41d918220e0ec08607828305520054dc7a516aedbcccae557dd5bca1c1b8a060563fe118df4f9dded7f8df6713d4d3e4c8893317aedcb8f3e079801dec239e3c7bf1eacdbb0f9e796a1e3d79f6e2d59b771f3cf3dc3c7af2ecc5ab37ef3e4402";

    fn hex(s: &str) -> Vec<u8> {
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect()
    }

    #[derive(Default)]
    struct BitWriter {
        bytes: Vec<u8>,
        bit: u32,
    }

    impl BitWriter {
        fn put(&mut self, v: u64, n: u32) {
            for i in 0..n {
                if self.bit.is_multiple_of(8) {
                    self.bytes.push(0);
                }
                let last = self.bytes.last_mut().unwrap();
                *last |= (((v >> i) & 1) as u8) << (self.bit % 8);
                self.bit += 1;
            }
        }
        fn finish(self) -> Vec<u8> {
            self.bytes
        }
    }

    fn random(n: usize, mut seed: u64) -> Vec<u8> {
        (0..n)
            .map(|_| {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (seed >> 56) as u8
            })
            .collect()
    }

    #[test]
    fn every_compression_by_its_bytes() {
        let zstd = zstd::encode_all(PAGE, 3).unwrap();
        for (packed, name) in [(gzip(PAGE), "gzip"), (zstd, "zstd"), (zlib(PAGE), "zlib")] {
            let (bytes, unwrapped, truncated) = doc(identify(packed, opts(1 << 20)));
            assert_eq!(bytes, PAGE, "{name}");
            assert_eq!(unwrapped, [name]);
            assert_eq!(truncated, None);
        }
        // Brotli has no magic bytes: compressed bytes look binary, and decode.
        let (bytes, unwrapped, _) = doc(identify(hex(BROTLI_PAGE), opts(1 << 20)));
        let want: String = (0..40)
            .map(|i| format!("<p>Paragraph {i} of a page compressed with brotli.</p>\n"))
            .collect();
        assert_eq!((bytes, unwrapped), (want.into_bytes(), vec!["brotli"]));
        // Two layers; plain bytes as they are.
        let (bytes, unwrapped, _) = doc(identify(gzip(&gzip(PAGE)), opts(1 << 20)));
        assert_eq!((bytes.as_slice(), unwrapped), (PAGE, vec!["gzip", "gzip"]));
        assert_eq!(doc(identify(PAGE.to_vec(), opts(1 << 20))).0, PAGE);
        // Raw deflate of text longer than a few bytes looks binary.
        let long = PAGE.repeat(20);
        let (bytes, unwrapped, _) = doc(identify(raw_deflate(&long), opts(1 << 20)));
        assert_eq!((bytes, unwrapped), (long, vec!["deflate"]));
    }

    #[test]
    fn declared_encodings_and_lying_labels() {
        let declared = |enc: &'static str, bytes: Vec<u8>| {
            identify(
                bytes,
                IdentifyOptions {
                    content_encoding: Some(enc),
                    ..opts(1 << 20)
                },
            )
        };
        assert_eq!(doc(declared("gzip", gzip(PAGE))).0, PAGE);
        assert_eq!(doc(declared("deflate", raw_deflate(PAGE))).0, PAGE);
        assert_eq!(doc(declared("deflate", zlib(PAGE))).0, PAGE);
        assert_eq!(doc(declared("br", brotli(PAGE))).0, PAGE);
        // D12: already decoded, still labelled: the bytes as they are.
        let (bytes, unwrapped, truncated) = doc(declared("gzip", PAGE.to_vec()));
        assert_eq!(
            (bytes.as_slice(), unwrapped.len(), truncated),
            (PAGE, 0, None)
        );
        assert_eq!(doc(declared("br", PAGE.to_vec())).0, PAGE);
        assert!(matches!(
            declared("compress", PAGE.to_vec()),
            Identified::Failed(why) if why.contains("unsupported Content-Encoding")
        ));
    }

    #[test]
    fn a_truncated_stream_gives_what_decodes_and_says_so() {
        let long: Vec<u8> = (0..4000)
            .flat_map(|i| format!("<p>Paragraph number {i} of a long page.</p>\n").into_bytes())
            .collect();
        let packed = gzip(&long);
        let cut = packed[..packed.len() / 2].to_vec();
        let (bytes, _, truncated) = doc(identify(cut, opts(1 << 24)));
        assert!(
            !bytes.is_empty() && long.starts_with(&bytes),
            "{}",
            bytes.len()
        );
        let why = truncated.expect("marked truncated");
        assert!(why.contains("cut short"), "{why}");
        // Nothing decodes: a failure, not a document.
        let mut broken = gzip(PAGE);
        for b in &mut broken[10..] {
            *b ^= 0xa5;
        }
        assert!(matches!(
            identify(broken, opts(1 << 20)),
            Identified::Failed(why) if why.starts_with("corrupt gzip data")
        ));
    }

    /// D11: a bomb names the decompressed limit and its compressed size.
    #[test]
    fn a_bomb_names_its_decompressed_limit() {
        let zeros = vec![b' '; 1 << 20];
        let packed = gzip(&zeros);
        let n = packed.len();
        match identify(packed, opts(1000)) {
            Identified::TooLarge(why) => {
                assert!(
                    why.contains("more than 1000 bytes")
                        && why.contains(&format!("{n} bytes compressed")),
                    "{why}"
                );
            }
            other => panic!("{other:?}"),
        }
    }

    /// D14: random bytes and binary files are not documents; text,
    /// legacy encodings and UTF-16 are.
    #[test]
    fn binary_bytes_are_not_documents() {
        for seed in 1..20 {
            let r = identify(random(5000, seed), opts(1 << 20));
            assert!(
                matches!(&r, Identified::NotADocument(w) if w.starts_with("binary data")),
                "{seed}: {r:?}"
            );
        }
        assert_eq!(
            identify(
                b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj".to_vec(),
                opts(1 << 20)
            ),
            Identified::NotADocument("PDF document".into())
        );
        let utf16: Vec<u8> = "<p>Text in UTF-16.</p>"
            .encode_utf16()
            .flat_map(|u| u.to_le_bytes())
            .collect();
        for text in [
            PAGE.to_vec(),
            b"caf\xe9 cr\xe8me br\xfbl\xe9e".to_vec(),
            b"\x1b$B%F%9%H\x1b(B ISO-2022-JP".to_vec(),
            b"A page with one stray NUL\0 in it.".to_vec(),
            utf16,
        ] {
            assert!(
                matches!(
                    identify(text.clone(), opts(1 << 20)),
                    Identified::Document { .. }
                ),
                "{text:?}"
            );
        }
        // Forced through when the caller asks.
        let forced = IdentifyOptions {
            detect_binary: false,
            ..opts(1 << 20)
        };
        assert!(matches!(
            identify(random(5000, 3), forced),
            Identified::Document { .. }
        ));
    }

    #[test]
    fn latin1_strings_holding_compressed_bytes() {
        let packed = gzip(PAGE);
        let s: String = packed.iter().map(|&b| char::from(b)).collect();
        assert_eq!(latin1_compressed(&s), Some(packed));
        assert_eq!(latin1_compressed("<p>plain</p>"), None);
        assert_eq!(latin1_compressed("\u{1f}\u{8b}\u{8}\u{0}ā"), None);
    }
}
