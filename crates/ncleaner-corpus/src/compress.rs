//! Compressed streams: gzip (multi-member, as Common Crawl writes WARC
//! files: one member per record) and zstd, recognised by magic bytes on
//! input and by file name on output.
//!
//! The gzip reader decodes member by member. A corrupt member is reported
//! once, as an [`std::io::ErrorKind::InvalidData`] error naming its offset,
//! and reading resumes at the next gzip member header in the compressed
//! bytes, so that one damaged record of a WARC.gz does not lose the records
//! after it. A truncated stream ends with an
//! [`std::io::ErrorKind::UnexpectedEof`] error.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::Path;

/// A compression format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Compression {
    /// Not compressed.
    None,
    /// gzip, possibly of several members.
    Gzip,
    /// Zstandard.
    Zstd,
    /// Brotli (input only, recognised by the `.br` name: a brotli stream
    /// has no magic number).
    Brotli,
}

const GZIP_MAGIC: [u8; 3] = [0x1f, 0x8b, 0x08];
const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];

impl Compression {
    /// The compression a file name asks for: `.gz` or `.zst` at its end.
    pub fn from_name(path: &Path) -> Compression {
        match path.extension().and_then(|e| e.to_str()) {
            Some(e) if e.eq_ignore_ascii_case("gz") => Compression::Gzip,
            Some(e) if e.eq_ignore_ascii_case("zst") || e.eq_ignore_ascii_case("zstd") => {
                Compression::Zstd
            }
            Some(e) if e.eq_ignore_ascii_case("br") => Compression::Brotli,
            _ => Compression::None,
        }
    }

    /// The compression of a stream that begins with `head`, from its magic
    /// number and header: a gzip member header (RFC 1952, with its optional
    /// FEXTRA, FNAME, FCOMMENT and FHCRC fields, as the `gzip` command writes
    /// them; see [`gzip_header_len`]) or a zstd frame or skippable frame.
    /// A header cut by the end of `head` still counts (the decoder then
    /// reports the truncation); bytes that contradict the format do not.
    /// Brotli has no magic number: see [`Compression::from_name`].
    pub fn sniff(head: &[u8]) -> Compression {
        if head.starts_with(&GZIP_MAGIC) && gzip_header_len(head).is_ok() {
            Compression::Gzip
        } else if head.starts_with(&ZSTD_MAGIC) && head.get(4).is_none_or(|fhd| fhd & 0x08 == 0) {
            // Frame header descriptor: bit 3 is reserved and must be zero.
            Compression::Zstd
        } else if head.len() >= 4 && head[0] & 0xf0 == 0x50 && head[1..4] == [0x2a, 0x4d, 0x18] {
            // A skippable frame (0x184D2A5?), which the zstd decoder passes over.
            Compression::Zstd
        } else {
            Compression::None
        }
    }

    /// The file-name suffix of the format (`.gz`, `.zst`, or empty).
    pub fn suffix(self) -> &'static str {
        match self {
            Compression::None => "",
            Compression::Gzip => ".gz",
            Compression::Zstd => ".zst",
            Compression::Brotli => ".br",
        }
    }
}

/// The length of the gzip member header at the start of `head` (RFC 1952
/// §2.3): `Ok(Some(n))`, `Ok(None)` when `head` ends inside it, `Err` when
/// the bytes are not a gzip header (wrong magic or method, reserved flags).
pub fn gzip_header_len(head: &[u8]) -> Result<Option<usize>, &'static str> {
    const FHCRC: u8 = 0x02;
    const FEXTRA: u8 = 0x04;
    const FNAME: u8 = 0x08;
    const FCOMMENT: u8 = 0x10;
    if head.len() < 3 {
        return if GZIP_MAGIC.starts_with(head) {
            Ok(None)
        } else {
            Err("not a gzip magic number")
        };
    }
    if head[..3] != GZIP_MAGIC {
        return Err("not a gzip magic number (or not deflate)");
    }
    let Some(&flags) = head.get(3) else {
        return Ok(None);
    };
    if flags & 0xe0 != 0 {
        return Err("reserved gzip header flags are set");
    }
    let mut at = 10;
    if head.len() < at {
        return Ok(None);
    }
    if flags & FEXTRA != 0 {
        let Some(xlen) = head.get(at..at + 2) else {
            return Ok(None);
        };
        at += 2 + usize::from(u16::from_le_bytes([xlen[0], xlen[1]]));
    }
    for flag in [FNAME, FCOMMENT] {
        if flags & flag != 0 {
            let Some(rest) = head.get(at..) else {
                return Ok(None);
            };
            match memchr::memchr(0, rest) {
                Some(z) => at += z + 1,
                None => return Ok(None),
            }
        }
    }
    if flags & FHCRC != 0 {
        at += 2;
    }
    Ok((head.len() >= at).then_some(at))
}

/// A boxed buffered reader that can move to another thread.
pub type BoxRead = Box<dyn BufRead + Send>;

/// Wraps `r` in a decoder for `compression`.
pub fn decoder<R: BufRead + Send + 'static>(r: R, compression: Compression) -> io::Result<BoxRead> {
    Ok(match compression {
        Compression::None => Box::new(r),
        Compression::Gzip => Box::new(BufReader::with_capacity(256 << 10, GzipMembers::new(r))),
        Compression::Zstd => Box::new(BufReader::with_capacity(
            256 << 10,
            zstd::stream::read::Decoder::with_buffer(r)?,
        )),
        Compression::Brotli => Box::new(BufReader::with_capacity(
            256 << 10,
            brotli_decompressor::Decompressor::new(r, 64 << 10),
        )),
    })
}

/// Opens `r` and decodes it according to its first bytes.
pub fn sniffing_decoder<R: Read + Send + 'static>(r: R) -> io::Result<(BoxRead, Compression)> {
    let mut r = BufReader::with_capacity(256 << 10, r);
    let c = Compression::sniff(r.fill_buf()?);
    Ok((decoder(r, c)?, c))
}

/// A reader of concatenated gzip members that survives corrupt members.
pub struct GzipMembers<R: BufRead> {
    state: State<R>,
    /// Compressed bytes consumed before the current member.
    member_start: u64,
}

enum State<R: BufRead> {
    /// Between members: the next bytes should be a member header.
    Between(CountingRead<R>),
    /// Inside a member.
    Member(Box<flate2::bufread::GzDecoder<CountingRead<R>>>),
    /// Scanning for the next member header after an error.
    Resync(CountingRead<R>),
    /// Placeholder while moving between states.
    Gone,
}

/// The compressed input: counts the bytes consumed (for error messages)
/// and can look a few bytes ahead across buffer refills (for member headers).
struct CountingRead<R> {
    inner: R,
    consumed: u64,
    /// Bytes taken from `inner` to look ahead, not consumed yet.
    spill: Vec<u8>,
    spill_pos: usize,
}

impl<R: BufRead> CountingRead<R> {
    /// Like `fill_buf`, but returns at least `n` bytes unless the stream ends first.
    fn fill_at_least(&mut self, n: usize) -> io::Result<&[u8]> {
        loop {
            let spilled = self.spill.len() - self.spill_pos;
            if spilled >= n {
                break;
            }
            let b = self.inner.fill_buf()?;
            if spilled == 0 && (b.len() >= n || b.is_empty()) {
                break;
            }
            if b.is_empty() {
                break;
            }
            if self.spill_pos > 0 {
                self.spill.drain(..self.spill_pos);
                self.spill_pos = 0;
            }
            let k = b.len().min(n - spilled);
            self.spill.extend_from_slice(&b[..k]);
            self.inner.consume(k);
        }
        self.fill_buf()
    }
}

impl<R: BufRead> Read for CountingRead<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let avail = self.fill_buf()?;
        let n = avail.len().min(buf.len());
        buf[..n].copy_from_slice(&avail[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for CountingRead<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.spill_pos < self.spill.len() {
            return Ok(&self.spill[self.spill_pos..]);
        }
        self.inner.fill_buf()
    }
    fn consume(&mut self, n: usize) {
        self.consumed += n as u64;
        if self.spill_pos < self.spill.len() {
            self.spill_pos += n;
            if self.spill_pos >= self.spill.len() {
                self.spill.clear();
                self.spill_pos = 0;
            }
        } else {
            self.inner.consume(n)
        }
    }
}

impl<R: BufRead> GzipMembers<R> {
    /// Decodes the gzip members of `r`.
    pub fn new(r: R) -> Self {
        GzipMembers {
            state: State::Between(CountingRead {
                inner: r,
                consumed: 0,
                spill: Vec::new(),
                spill_pos: 0,
            }),
            member_start: 0,
        }
    }
}

impl<R: BufRead> Read for GzipMembers<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            match std::mem::replace(&mut self.state, State::Gone) {
                State::Gone => return Ok(0),
                State::Between(mut r) => {
                    let head = r.fill_at_least(GZIP_MAGIC.len())?;
                    if head.is_empty() {
                        return Ok(0);
                    }
                    if !head.starts_with(&GZIP_MAGIC) {
                        let at = r.consumed;
                        self.state = State::Resync(r);
                        return Err(io::Error::new(
                            io::ErrorKind::InvalidData,
                            format!(
                                "gzip: no member header at compressed offset {at}; skipping to the next member"
                            ),
                        ));
                    }
                    self.member_start = r.consumed;
                    self.state = State::Member(Box::new(flate2::bufread::GzDecoder::new(r)));
                }
                State::Member(mut d) => match d.read(buf) {
                    Ok(0) => {
                        let r = d.into_inner();
                        self.state = State::Between(r);
                    }
                    Ok(n) => {
                        self.state = State::Member(d);
                        return Ok(n);
                    }
                    Err(e) => {
                        let start = self.member_start;
                        let mut r = d.into_inner();
                        let eof = r.fill_buf().map(|b| b.is_empty()).unwrap_or(true);
                        if !eof && r.consumed == start {
                            // Nothing was consumed: step over the false header.
                            r.consume(1);
                        }
                        if eof {
                            return Err(io::Error::new(
                                io::ErrorKind::UnexpectedEof,
                                format!(
                                    "gzip: member at compressed offset {start} is truncated ({e})"
                                ),
                            ));
                        }
                        self.state = State::Resync(r);
                        return Err(io::Error::new(
                            io::ErrorKind::InvalidData,
                            format!(
                                "gzip: member at compressed offset {start} is corrupt ({e}); skipping to the next member"
                            ),
                        ));
                    }
                },
                State::Resync(mut r) => {
                    loop {
                        let buf = r.fill_at_least(GZIP_MAGIC.len())?;
                        if buf.len() < GZIP_MAGIC.len() {
                            let n = buf.len();
                            r.consume(n);
                            return Ok(0);
                        }
                        match memchr::memmem::find(buf, &GZIP_MAGIC) {
                            Some(p) => {
                                r.consume(p);
                                break;
                            }
                            // Keep the last two bytes: a header may start there.
                            None => {
                                let n = buf.len() - (GZIP_MAGIC.len() - 1);
                                r.consume(n);
                            }
                        }
                    }
                    self.state = State::Between(r);
                }
            }
        }
    }
}

/// A writer that compresses according to an output file name; call
/// [`Output::finish`] to write the compressed stream's end.
pub enum Output {
    /// Uncompressed.
    Plain(Box<dyn Write + Send>),
    /// gzip.
    Gzip(flate2::write::GzEncoder<Box<dyn Write + Send>>),
    /// Zstandard.
    Zstd(zstd::stream::write::Encoder<'static, Box<dyn Write + Send>>),
}

impl Output {
    /// Wraps `w` in an encoder for `compression`.
    pub fn new(w: Box<dyn Write + Send>, compression: Compression) -> io::Result<Output> {
        Ok(match compression {
            Compression::None => Output::Plain(w),
            Compression::Gzip => Output::Gzip(flate2::write::GzEncoder::new(
                w,
                flate2::Compression::new(6),
            )),
            Compression::Zstd => Output::Zstd(zstd::stream::write::Encoder::new(w, 3)?),
            Compression::Brotli => {
                return Err(io::Error::new(
                    io::ErrorKind::Unsupported,
                    "brotli output is not supported (.br is read only)",
                ));
            }
        })
    }

    /// Creates (truncating) the file `path`, compressed as its name says.
    pub fn create(path: &Path) -> io::Result<Output> {
        let f = std::fs::File::create(path)?;
        let w: Box<dyn Write + Send> = Box::new(io::BufWriter::with_capacity(256 << 10, f));
        Output::new(w, Compression::from_name(path))
    }

    /// Whether the output is compressed (and [`Output::cut`] does something).
    pub fn is_compressed(&self) -> bool {
        !matches!(self, Output::Plain(_))
    }

    /// Ends the current gzip member or zstd frame and starts a new one, so
    /// that what was written so far decodes on its own: a file cut short
    /// later (a killed run) loses only its last member or frame, which a
    /// resumed run finds and drops (`clean --resume`). Plain output: nothing.
    pub fn cut(&mut self) -> io::Result<()> {
        let placeholder = || Output::Plain(Box::new(io::sink()));
        match std::mem::replace(self, placeholder()) {
            Output::Plain(w) => *self = Output::Plain(w),
            Output::Gzip(g) => {
                let w = g.finish()?;
                *self = Output::new(w, Compression::Gzip)?;
            }
            Output::Zstd(z) => {
                let w = z.finish()?;
                *self = Output::new(w, Compression::Zstd)?;
            }
        }
        Ok(())
    }

    /// Ends the compressed stream and flushes everything.
    pub fn finish(self) -> io::Result<()> {
        match self {
            Output::Plain(mut w) => w.flush(),
            Output::Gzip(g) => g.finish()?.flush(),
            Output::Zstd(z) => z.finish()?.flush(),
        }
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Output::Plain(w) => w.write(buf),
            Output::Gzip(w) => w.write(buf),
            Output::Zstd(w) => w.write(buf),
        }
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match self {
            Output::Plain(w) => w.write_all(buf),
            Output::Gzip(w) => w.write_all(buf),
            Output::Zstd(w) => w.write_all(buf),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        match self {
            Output::Plain(w) => w.flush(),
            Output::Gzip(w) => w.flush(),
            Output::Zstd(w) => w.flush(),
        }
    }
}

/// Compresses `data` as one complete gzip member.
pub fn gzip_member(data: &[u8], level: u32) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(
        Vec::with_capacity(data.len() / 3 + 64),
        flate2::Compression::new(level),
    );
    e.write_all(data).expect("writing to memory");
    e.finish().expect("writing to memory")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(r: &mut impl Read) -> (Vec<u8>, Vec<String>) {
        let mut out = Vec::new();
        let mut errors = Vec::new();
        let mut buf = [0u8; 7];
        loop {
            match r.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => out.extend_from_slice(&buf[..n]),
                Err(e) => errors.push(e.to_string()),
            }
        }
        (out, errors)
    }

    /// A member as the `gzip` command writes it: FNAME (and here FEXTRA and
    /// FCOMMENT too) in the header.
    fn named_member(data: &[u8]) -> Vec<u8> {
        let mut e = flate2::GzBuilder::new()
            .filename("page.html")
            .comment("made by a test")
            .extra(vec![1, 2, 3, 4])
            .write(Vec::new(), flate2::Compression::new(6));
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    #[test]
    fn gzip_headers_with_optional_fields() {
        let m = named_member(b"<p>hello</p>");
        assert_eq!(Compression::sniff(&m), Compression::Gzip);
        // 10 + 2 + 4 (extra) + "page.html\0" + "made by a test\0"
        assert_eq!(gzip_header_len(&m), Ok(Some(10 + 6 + 10 + 15)));
        assert_eq!(gzip_header_len(&m[..20]), Ok(None));
        // FHCRC: two more bytes after the comment.
        let mut h = m.clone();
        h[3] |= 0x02;
        assert_eq!(gzip_header_len(&h), Ok(Some(10 + 6 + 10 + 15 + 2)));
        // Reserved flags, a method other than deflate: not gzip.
        let mut bad = m.clone();
        bad[3] |= 0x20;
        assert!(gzip_header_len(&bad).is_err());
        assert_eq!(Compression::sniff(&bad), Compression::None);
        bad = m.clone();
        bad[2] = 7;
        assert_eq!(Compression::sniff(&bad), Compression::None);
        // Multi-member, each with a file name, decodes whole.
        let data = [named_member(b"first "), named_member(b"second")].concat();
        let c = Compression::sniff(&data);
        let mut r = decoder(io::Cursor::new(data), c).unwrap();
        let mut out = Vec::new();
        r.read_to_end(&mut out).unwrap();
        assert_eq!(out, b"first second");
        assert_eq!(
            Compression::from_name(Path::new("x.html.br")),
            Compression::Brotli
        );
    }

    #[test]
    fn multi_member_gzip() {
        let mut data = gzip_member(b"first ", 6);
        data.extend(gzip_member(b"second ", 1));
        data.extend(gzip_member(b"", 6));
        data.extend(gzip_member(b"third", 9));
        let (out, errors) = read_all(&mut GzipMembers::new(&data[..]));
        assert_eq!(out, b"first second third");
        assert!(errors.is_empty(), "{errors:?}");
    }

    #[test]
    fn corrupt_member_is_skipped() {
        let a = gzip_member(b"record one\n".repeat(50).as_slice(), 6);
        let mut b = gzip_member(b"record two\n".repeat(50).as_slice(), 6);
        let c = gzip_member(b"record three\n", 6);
        let mid = b.len() / 2;
        for x in &mut b[12..mid] {
            *x ^= 0x5a;
        }
        let data = [a, b, c].concat();
        let (out, errors) = read_all(&mut GzipMembers::new(&data[..]));
        let text = String::from_utf8_lossy(&out);
        assert!(text.starts_with(&"record one\n".repeat(50)));
        assert!(text.ends_with("record three\n"), "{text}");
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(errors[0].contains("corrupt"), "{errors:?}");
    }

    #[test]
    fn truncated_gzip_is_an_error_then_eof() {
        let a = gzip_member(b"complete\n", 6);
        let b = gzip_member(b"this member is cut short".repeat(20).as_slice(), 6);
        let mut data = [a, b.clone()].concat();
        data.truncate(data.len() - b.len() / 2);
        let (out, errors) = read_all(&mut GzipMembers::new(&data[..]));
        assert!(out.starts_with(b"complete\n"));
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(errors[0].contains("truncated"), "{errors:?}");
    }

    #[test]
    fn trailing_garbage_is_reported() {
        let mut data = gzip_member(b"ok", 6);
        data.extend_from_slice(b"garbage after the last member");
        let (out, errors) = read_all(&mut GzipMembers::new(&data[..]));
        assert_eq!(out, b"ok");
        assert_eq!(errors.len(), 1);
    }

    #[test]
    fn names_and_magic() {
        assert_eq!(
            Compression::from_name(Path::new("a.jsonl.gz")),
            Compression::Gzip
        );
        assert_eq!(
            Compression::from_name(Path::new("a.zst")),
            Compression::Zstd
        );
        assert_eq!(
            Compression::from_name(Path::new("a.warc")),
            Compression::None
        );
        assert_eq!(Compression::sniff(&gzip_member(b"x", 1)), Compression::Gzip);
    }

    #[test]
    fn zstd_roundtrip() {
        let mut out = Output::new(Box::new(Vec::new()), Compression::Zstd).unwrap();
        out.write_all(b"hello zstd").unwrap();
        let Output::Zstd(z) = out else { panic!() };
        let w = z.finish().unwrap();
        drop(w);
        let data = zstd::encode_all(&b"hello zstd"[..], 3).unwrap();
        let (mut r, c) = sniffing_decoder(io::Cursor::new(data)).unwrap();
        assert_eq!(c, Compression::Zstd);
        let mut s = String::new();
        r.read_to_string(&mut s).unwrap();
        assert_eq!(s, "hello zstd");
    }
}
