//! The values of a page column whose data pages are too large to hold,
//! read from the file one value at a time.
//!
//! A Parquet reader decodes a page whole: a writer that checks a page's
//! size only every so many values (pyarrow's checks every 1,024) puts 64
//! pages of 14 MB each into one data page of 900 MB, and reading one row of
//! it takes that page in memory, and more. For such a column chunk this
//! module reads the pages itself: each page header (Thrift's compact
//! protocol, [`PageHeader`]), then the page's bytes as a stream,
//! decompressed as they are read ([`decompressed`]: gzip, zstd and brotli
//! as streams; snappy and LZ4_RAW, block formats whose copies reach at
//! most 64 KiB back, through a window of that size), and from the stream
//! the definition levels and one value at a time: PLAIN byte arrays, or
//! indices into a dictionary page small enough to hold. So a row of such a
//! file takes the memory of its value, whatever its page.
//!
//! Why our own: the `parquet` crate has no reader of part of a page (its
//! page reader and codecs take a page's bytes whole, and its Thrift and
//! RLE decoders are private or unstable), and no crate streams raw snappy
//! (pyarrow's default codec; `snap` streams only its framed format) or an
//! LZ4 block. So this module holds only what such a page needs: page
//! headers, the two block codecs, PLAIN byte arrays and the hybrid RLE of
//! levels and indices; every length it reads is checked against its page,
//! and a copy or literal is produced a window at a time.
//!
//! What this reader does not read (another encoding of the values, the
//! deprecated LZ4 codec, LZO, a nested column, a dictionary page of more
//! than [`MAX_DICTIONARY`]) is left to the Arrow reader, page by page in
//! memory as before ([`plan`] says which).

use std::io::{self, Read};

use parquet::basic::{Compression, Type as PhysicalType};
use parquet::file::metadata::ColumnChunkMetaData;
use parquet::schema::types::ColumnDescPtr;

/// A data page this large (uncompressed) makes its column chunk read here.
pub const LARGE_PAGE: usize = 16 << 20;

/// The largest dictionary page held in memory to read a large page's
/// indices against.
pub const MAX_DICTIONARY: usize = 16 << 20;

/// How far back a snappy or LZ4 copy may reach: snappy's encoders work in
/// blocks of 64 KiB, and LZ4's offsets have 16 bits.
const WINDOW: usize = 1 << 16;

/// A reader of a file's bytes from a given place, independent of every
/// other (a file is read with positioned reads, not its shared offset).
pub type OpenAt = Box<dyn Fn(u64) -> io::Result<Box<dyn Read + Send>> + Send + Sync>;

/// The header of one page, as much of it as is read here.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PageHeader {
    /// 0 data page, 1 index page, 2 dictionary page, 3 data page v2.
    pub kind: i32,
    /// The page's bytes once decompressed.
    pub uncompressed: i32,
    /// The page's bytes in the file.
    pub compressed: i32,
    /// Levels (values and nulls) in a data page; entries of a dictionary.
    pub num_values: i32,
    /// The values' encoding (Parquet's number of it).
    pub encoding: i32,
    /// Data page v2: the definition levels' bytes (stored uncompressed).
    pub def_bytes: i32,
    /// Data page v2: the repetition levels' bytes.
    pub rep_bytes: i32,
    /// Data page v2: whether the values are compressed.
    pub v2_compressed: bool,
}

const DATA_PAGE: i32 = 0;
const DICTIONARY_PAGE: i32 = 2;
const DATA_PAGE_V2: i32 = 3;
const PLAIN: i32 = 0;
const PLAIN_DICTIONARY: i32 = 2;
const RLE_DICTIONARY: i32 = 8;

/// Thrift's compact protocol, as much as page headers need.
struct Thrift<R> {
    r: R,
    read: usize,
}

impl<R: Read> Thrift<R> {
    fn byte(&mut self) -> io::Result<u8> {
        let mut b = [0u8; 1];
        self.r.read_exact(&mut b)?;
        self.read += 1;
        Ok(b[0])
    }

    fn varint(&mut self) -> io::Result<u64> {
        let mut v = 0u64;
        for shift in (0..70).step_by(7) {
            let b = self.byte()?;
            v |= u64::from(b & 0x7f) << shift.min(63);
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(bad("a varint of more than ten bytes"))
    }

    fn int(&mut self) -> io::Result<i64> {
        let v = self.varint()?;
        Ok((v >> 1) as i64 ^ -((v & 1) as i64))
    }

    fn i32(&mut self) -> io::Result<i32> {
        i32::try_from(self.int()?).map_err(|_| bad("an i32 out of range"))
    }

    /// Skips a value of compact type `t`, nested `depth` deep.
    fn skip(&mut self, t: u8, depth: usize) -> io::Result<()> {
        if depth > 32 {
            return Err(bad("structures nested too deep"));
        }
        match t {
            1 | 2 => Ok(()),
            3 => self.byte().map(drop),
            4..=6 => self.varint().map(drop),
            7 => {
                for _ in 0..8 {
                    self.byte()?;
                }
                Ok(())
            }
            8 => {
                let n = self.varint()?;
                let copied = io::copy(&mut (&mut self.r).take(n), &mut io::sink())?;
                self.read += copied as usize;
                (copied == n).then_some(()).ok_or_else(|| bad("cut short"))
            }
            9 | 10 => {
                let h = self.byte()?;
                let n = match h >> 4 {
                    15 => self.varint()?,
                    n => u64::from(n),
                };
                let et = h & 0x0f;
                for _ in 0..n {
                    // A list's booleans are a byte each.
                    if et == 1 || et == 2 {
                        self.byte()?;
                    } else {
                        self.skip(et, depth + 1)?;
                    }
                }
                Ok(())
            }
            11 => {
                let n = self.varint()?;
                if n > 0 {
                    let kv = self.byte()?;
                    for _ in 0..n {
                        self.skip(kv >> 4, depth + 1)?;
                        self.skip(kv & 0x0f, depth + 1)?;
                    }
                }
                Ok(())
            }
            12 => self.fields(depth + 1, &mut |t, _, ty, d| t.skip(ty, d)),
            _ => Err(bad("an unknown field type")),
        }
    }

    /// Reads a struct's fields until its stop, calling `f` with each
    /// field's id and type (`f` reads or skips the value); a boolean
    /// field's value is its type (1 true, 2 false).
    fn fields(
        &mut self,
        depth: usize,
        f: &mut dyn FnMut(&mut Self, i16, u8, usize) -> io::Result<()>,
    ) -> io::Result<()> {
        let mut last = 0i16;
        loop {
            let h = self.byte()?;
            if h == 0 {
                return Ok(());
            }
            let t = h & 0x0f;
            let id = match h >> 4 {
                0 => i16::try_from(self.int()?).map_err(|_| bad("a field id out of range"))?,
                d => last.wrapping_add(i16::from(d)),
            };
            last = id;
            f(self, id, t, depth)?;
        }
    }
}

fn bad(why: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("a page of the file: {why}"),
    )
}

/// Reads a page header from `r`; returns it and its length in bytes.
pub fn read_page_header(r: impl Read) -> io::Result<(PageHeader, usize)> {
    let mut t = Thrift { r, read: 0 };
    let mut h = PageHeader {
        v2_compressed: true,
        ..PageHeader::default()
    };
    t.fields(0, &mut |t, id, ty, depth| match (id, ty) {
        (1, 5) => t.i32().map(|v| h.kind = v),
        (2, 5) => t.i32().map(|v| h.uncompressed = v),
        (3, 5) => t.i32().map(|v| h.compressed = v),
        // DataPageHeader, DictionaryPageHeader: num_values, encoding.
        (5 | 7, 12) => t.fields(depth + 1, &mut |t, id, ty, d| match (id, ty) {
            (1, 5) => t.i32().map(|v| h.num_values = v),
            (2, 5) => t.i32().map(|v| h.encoding = v),
            _ => t.skip(ty, d),
        }),
        (8, 12) => t.fields(depth + 1, &mut |t, id, ty, d| match (id, ty) {
            (1, 5) => t.i32().map(|v| h.num_values = v),
            (4, 5) => t.i32().map(|v| h.encoding = v),
            (5, 5) => t.i32().map(|v| h.def_bytes = v),
            (6, 5) => t.i32().map(|v| h.rep_bytes = v),
            (7, 1 | 2) => {
                h.v2_compressed = ty == 1;
                Ok(())
            }
            _ => t.skip(ty, d),
        }),
        _ => t.skip(ty, depth),
    })?;
    if h.uncompressed < 0 || h.compressed < 0 || h.num_values < 0 {
        return Err(bad("a negative size"));
    }
    Ok((h, t.read))
}

/// Whether a column chunk's values are read here rather than by the Arrow
/// reader, and why not when not.
pub fn plan(
    column: &ColumnChunkMetaData,
    descr: &ColumnDescPtr,
    open: &OpenAt,
) -> Result<bool, String> {
    if column.uncompressed_size() < LARGE_PAGE as i64 {
        return Ok(false);
    }
    if descr.physical_type() != PhysicalType::BYTE_ARRAY
        || descr.max_rep_level() != 0
        || descr.max_def_level() > 1
        || !streams(column.compression())
    {
        return Ok(false);
    }
    // The page headers, each read where it is, until a large data page.
    let mut at = start_of(column);
    let end = at + column.compressed_size().max(0) as u64;
    while at < end {
        let (h, len) =
            read_page_header(open(at).map_err(|e| e.to_string())?).map_err(|e| e.to_string())?;
        let large = h.uncompressed as usize >= LARGE_PAGE;
        match h.kind {
            DICTIONARY_PAGE if h.uncompressed as usize > MAX_DICTIONARY => return Ok(false),
            DATA_PAGE | DATA_PAGE_V2 if large => {
                return Ok(matches!(
                    h.encoding,
                    PLAIN | PLAIN_DICTIONARY | RLE_DICTIONARY
                ));
            }
            _ => {}
        }
        at += (len + h.compressed as usize) as u64;
    }
    Ok(false)
}

/// Where a column chunk's first page is.
fn start_of(column: &ColumnChunkMetaData) -> u64 {
    let data = column.data_page_offset().max(0) as u64;
    match column.dictionary_page_offset() {
        Some(d) if d > 0 && (d as u64) < data => d as u64,
        _ => data,
    }
}

/// Whether pages in `c` are decompressed here as they are read.
fn streams(c: Compression) -> bool {
    matches!(
        c,
        Compression::UNCOMPRESSED
            | Compression::GZIP(_)
            | Compression::ZSTD(_)
            | Compression::BROTLI(_)
            | Compression::SNAPPY
            | Compression::LZ4_RAW
    )
}

/// `r`'s bytes decompressed as `c` says, as they are read.
pub fn decompressed(r: Box<dyn Read + Send>, c: Compression) -> io::Result<Box<dyn Read + Send>> {
    Ok(match c {
        Compression::UNCOMPRESSED => r,
        Compression::GZIP(_) => Box::new(flate2::read::MultiGzDecoder::new(r)),
        Compression::ZSTD(_) => Box::new(zstd::stream::read::Decoder::new(r)?),
        Compression::BROTLI(_) => Box::new(brotli_decompressor::Decompressor::new(r, 64 << 10)),
        Compression::SNAPPY => Box::new(Windowed::new(io::BufReader::new(r), Block::Snappy)),
        Compression::LZ4_RAW => Box::new(Windowed::new(io::BufReader::new(r), Block::Lz4)),
        other => return Err(bad(&format!("{other} pages are not read as a stream"))),
    })
}

/// A block format decoded through a window of its last [`WINDOW`] bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Block {
    /// Raw snappy (a varint of the length, then literals and copies).
    Snappy,
    /// An LZ4 block (sequences of literals and a match).
    Lz4,
}

/// The decoder of a [`Block`] stream. A literal or a copy is produced at
/// most [`WINDOW`] bytes at a time, so a block's claim of a literal or a
/// run of gigabytes takes no more memory than any other.
struct Windowed<R> {
    r: R,
    block: Block,
    /// Output so far, its last [`WINDOW`] bytes at least.
    hist: Vec<u8>,
    /// Bytes of `hist` already read out.
    served: usize,
    /// Literal bytes still to read from the input.
    literal: usize,
    /// A copy still to make: (offset, bytes left).
    copy: Option<(usize, usize)>,
    /// LZ4: the token of a sequence whose match follows its literals.
    token: Option<u8>,
    started: bool,
    done: bool,
}

impl<R: Read> Windowed<R> {
    fn new(r: R, block: Block) -> Self {
        Windowed {
            r,
            block,
            hist: Vec::new(),
            served: 0,
            literal: 0,
            copy: None,
            token: None,
            started: false,
            done: false,
        }
    }

    fn byte(&mut self) -> io::Result<Option<u8>> {
        let mut b = [0u8; 1];
        match self.r.read(&mut b)? {
            0 => Ok(None),
            _ => Ok(Some(b[0])),
        }
    }

    fn need(&mut self) -> io::Result<u8> {
        self.byte()?
            .ok_or_else(|| bad("a compressed block cut short"))
    }

    fn le(&mut self, n: usize) -> io::Result<usize> {
        let mut v = 0usize;
        for i in 0..n {
            v |= usize::from(self.need()?) << (8 * i);
        }
        Ok(v)
    }

    /// An LZ4 length: its 4 bits, then bytes added while they are 255.
    fn lz4_len(&mut self, first: u8) -> io::Result<usize> {
        let mut n = usize::from(first);
        if n == 15 {
            loop {
                let b = self.need()?;
                n = n
                    .checked_add(usize::from(b))
                    .ok_or_else(|| bad("a length out of range"))?;
                if b != 255 {
                    break;
                }
            }
        }
        Ok(n)
    }

    fn start_copy(&mut self, offset: usize, len: usize) -> io::Result<()> {
        if offset == 0 || offset > self.hist.len() || offset > WINDOW {
            return Err(bad("a copy reaches further back than 64 KiB"));
        }
        self.copy = Some((offset, len));
        Ok(())
    }

    /// Produces up to [`WINDOW`] more bytes into `hist`, or reads the next
    /// element's header; false at the end.
    fn step(&mut self) -> io::Result<bool> {
        if self.literal > 0 {
            let n = self.literal.min(WINDOW);
            let at = self.hist.len();
            self.hist.resize(at + n, 0);
            self.r
                .read_exact(&mut self.hist[at..])
                .map_err(|_| bad("a literal cut short"))?;
            self.literal -= n;
            return Ok(true);
        }
        if let Some((offset, left)) = self.copy {
            // Byte by byte: a copy may overlap what it writes.
            let n = left.min(WINDOW);
            let from = self.hist.len() - offset;
            for i in 0..n {
                let b = self.hist[from + i];
                self.hist.push(b);
            }
            self.copy = (left > n).then_some((offset, left - n));
            return Ok(true);
        }
        match self.block {
            Block::Snappy => {
                if !self.started {
                    // The uncompressed length: a varint, not needed here.
                    self.started = true;
                    while self.need()? & 0x80 != 0 {}
                }
                let Some(tag) = self.byte()? else {
                    return Ok(false);
                };
                match tag & 3 {
                    0 => {
                        let n = match tag >> 2 {
                            n @ 0..=59 => usize::from(n),
                            n => self.le(usize::from(n) - 59)?,
                        };
                        self.literal = n + 1;
                    }
                    1 => {
                        let len = 4 + usize::from((tag >> 2) & 7);
                        let offset = (usize::from(tag >> 5) << 8) | usize::from(self.need()?);
                        self.start_copy(offset, len)?;
                    }
                    2 => {
                        let offset = self.le(2)?;
                        self.start_copy(offset, usize::from(tag >> 2) + 1)?;
                    }
                    _ => {
                        let offset = self.le(4)?;
                        self.start_copy(offset, usize::from(tag >> 2) + 1)?;
                    }
                }
                Ok(true)
            }
            Block::Lz4 => {
                if let Some(token) = self.token.take() {
                    // The match after a sequence's literals; the last
                    // sequence has literals alone.
                    let Some(lo) = self.byte()? else {
                        return Ok(false);
                    };
                    let offset = usize::from(lo) | usize::from(self.need()?) << 8;
                    let len = self.lz4_len(token & 0x0f)?;
                    self.start_copy(offset, len + 4)?;
                    return Ok(true);
                }
                let Some(token) = self.byte()? else {
                    return Ok(false);
                };
                self.literal = self.lz4_len(token >> 4)?;
                self.token = Some(token);
                Ok(true)
            }
        }
    }
}

impl<R: Read> Read for Windowed<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        while self.served == self.hist.len() && !self.done {
            // Keep the window, drop what is behind it.
            if self.hist.len() > 4 * WINDOW {
                let cut = self.hist.len() - WINDOW;
                self.hist.drain(..cut);
                self.served -= cut;
            }
            if !self.step()? {
                self.done = true;
            }
        }
        let n = out.len().min(self.hist.len() - self.served);
        out[..n].copy_from_slice(&self.hist[self.served..self.served + n]);
        self.served += n;
        Ok(n)
    }
}

/// Values of the RLE / bit-packed hybrid encoding, of `width` bits, read
/// as they are asked for (a run may claim billions of values).
struct Hybrid {
    data: Vec<u8>,
    at: usize,
    width: u32,
    /// The current run: (value, left) for RLE, or bit-packed values left.
    rle: Option<(u32, usize)>,
    packed: Option<(usize, usize)>,
}

impl Hybrid {
    fn new(data: Vec<u8>, width: u32) -> Self {
        Hybrid {
            data,
            at: 0,
            width,
            rle: None,
            packed: None,
        }
    }

    fn varint(&mut self) -> Option<u64> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = *self.data.get(self.at)?;
            self.at += 1;
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Some(v);
            }
        }
        None
    }
}

impl Iterator for Hybrid {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        loop {
            if let Some((v, left)) = &mut self.rle
                && *left > 0
            {
                *left -= 1;
                return Some(*v);
            }
            if let Some((bit, left)) = &mut self.packed
                && *left > 0
            {
                let mut v = 0u32;
                for i in 0..self.width {
                    let b = *bit + i as usize;
                    let byte = *self.data.get(b / 8)?;
                    v |= u32::from((byte >> (b % 8)) & 1) << i;
                }
                *bit += self.width as usize;
                *left -= 1;
                return Some(v);
            }
            self.rle = None;
            if let Some((bit, _)) = self.packed.take() {
                self.at = bit.div_ceil(8);
            }
            let header = self.varint()?;
            if header & 1 == 0 {
                let bytes = (self.width as usize).div_ceil(8);
                let mut v = 0u32;
                for i in 0..bytes {
                    v |= u32::from(*self.data.get(self.at + i)?) << (8 * i);
                }
                self.at += bytes;
                self.rle = Some((v, (header >> 1) as usize));
            } else {
                let groups = (header >> 1) as usize;
                self.packed = Some((self.at * 8, groups * 8));
            }
        }
    }
}

/// One value of a streamed column: its bytes (at most the limit asked
/// for: [`Value::len`] is its whole length), or null.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// A null.
    Null,
    /// The value's bytes, and its whole length (more than `bytes` holds
    /// when it was over the limit and left unread).
    Bytes(Vec<u8>, usize),
}

/// The values of one column chunk, one at a time.
pub struct Values {
    open: std::sync::Arc<OpenAt>,
    codec: Compression,
    max_def: i16,
    max_value: usize,
    /// The next page's place, and where the chunk ends.
    at: u64,
    end: u64,
    dictionary: Option<Vec<Vec<u8>>>,
    page: Option<Page>,
}

/// The data page being read.
struct Page {
    /// The definition levels of its values (none: all defined).
    defs: Option<Hybrid>,
    /// Levels read so far, and in all.
    done: usize,
    levels: usize,
    /// The values' stream (PLAIN), or the dictionary indices.
    values: PageValues,
}

enum PageValues {
    Plain(Box<dyn Read + Send>),
    Indices(Hybrid),
}

impl Values {
    /// The values of `column` (of `descr`), each over `max_value` bytes left
    /// unread (its length kept).
    pub fn new(
        column: &ColumnChunkMetaData,
        descr: &ColumnDescPtr,
        open: std::sync::Arc<OpenAt>,
        max_value: usize,
    ) -> Values {
        let at = start_of(column);
        Values {
            open,
            codec: column.compression(),
            max_def: descr.max_def_level(),
            max_value,
            at,
            end: at + column.compressed_size().max(0) as u64,
            dictionary: None,
            page: None,
        }
    }

    /// Opens the next data page (reading a dictionary page on the way);
    /// false at the end of the chunk.
    fn next_page(&mut self) -> io::Result<bool> {
        while self.at < self.end {
            let (h, len) = read_page_header((self.open)(self.at)?)?;
            let body = self.at + len as u64;
            self.at = body + h.compressed as u64;
            let raw = || -> io::Result<Box<dyn Read + Send>> {
                Ok(Box::new((self.open)(body)?.take(h.compressed as u64)))
            };
            match h.kind {
                DICTIONARY_PAGE => {
                    if h.uncompressed as usize > MAX_DICTIONARY {
                        return Err(bad("a dictionary page too large to hold"));
                    }
                    let r = decompressed(raw()?, self.codec)?;
                    // No more read than the page's size says (held whole).
                    let size = h.uncompressed as usize;
                    let mut r = r.take(size as u64);
                    let mut entries = Vec::new();
                    for _ in 0..h.num_values {
                        entries.push(plain_value(&mut r, size)?.0);
                    }
                    self.dictionary = Some(entries);
                }
                DATA_PAGE | DATA_PAGE_V2 => {
                    self.page = Some(self.open_page(&h, raw()?)?);
                    return Ok(true);
                }
                // An index page holds no values.
                _ => {}
            }
        }
        Ok(false)
    }

    fn open_page(&self, h: &PageHeader, mut raw: Box<dyn Read + Send>) -> io::Result<Page> {
        let levels = h.num_values as usize;
        let (defs, mut values) = if h.kind == DATA_PAGE_V2 {
            // Levels first, uncompressed; then the values, compressed or not.
            if h.rep_bytes != 0 {
                return Err(bad("repetition levels in a flat column"));
            }
            let mut defs = vec![0u8; levels_bytes(h.def_bytes as usize, levels)?];
            raw.read_exact(&mut defs)?;
            let values = match h.v2_compressed {
                true => decompressed(raw, self.codec)?,
                false => raw,
            };
            let defs = (self.max_def > 0).then(|| Hybrid::new(defs, 1));
            (defs, values)
        } else {
            let mut r = decompressed(raw, self.codec)?;
            let defs = match self.max_def > 0 {
                true => {
                    let mut len = [0u8; 4];
                    r.read_exact(&mut len)?;
                    let len = levels_bytes(u32::from_le_bytes(len) as usize, levels)?;
                    let mut defs = vec![0u8; len];
                    r.read_exact(&mut defs)?;
                    Some(Hybrid::new(defs, 1))
                }
                false => None,
            };
            (defs, r)
        };
        let values = match h.encoding {
            PLAIN => PageValues::Plain(values),
            PLAIN_DICTIONARY | RLE_DICTIONARY => {
                if self.dictionary.is_none() {
                    return Err(bad("dictionary indices without a dictionary page"));
                }
                // The indices are small beside the values they stand for:
                // held, but no more of them than the page has levels for
                // (an RLE run and its value: 9 bytes at most).
                let most = (levels as u64).saturating_mul(9).saturating_add(16);
                let most = most.min(h.uncompressed as u64);
                let mut width = [0u8; 1];
                values.read_exact(&mut width)?;
                let mut rest = Vec::new();
                values.take(most).read_to_end(&mut rest)?;
                if width[0] > 32 {
                    return Err(bad("indices wider than 32 bits"));
                }
                PageValues::Indices(Hybrid::new(rest, u32::from(width[0])))
            }
            e => return Err(bad(&format!("values of encoding {e} are not read here"))),
        };
        Ok(Page {
            defs,
            done: 0,
            levels,
            values,
        })
    }
}

/// `len`, the bytes of a page's definition levels, if it is no more than
/// `levels` levels of bit width 1 can take (6 bytes each, an RLE run of
/// one at a time); else the page is refused, not held.
fn levels_bytes(len: usize, levels: usize) -> io::Result<usize> {
    match len <= levels.saturating_mul(6).saturating_add(16) {
        true => Ok(len),
        false => Err(bad("definition levels longer than their page")),
    }
}

/// One PLAIN byte array of `r`: its bytes (at most `max`, the rest
/// skipped) and its length.
fn plain_value(r: &mut dyn Read, max: usize) -> io::Result<(Vec<u8>, usize)> {
    let mut len = [0u8; 4];
    r.read_exact(&mut len)?;
    let len = u32::from_le_bytes(len) as usize;
    let keep = len.min(max);
    let mut v = Vec::new();
    v.try_reserve_exact(keep)
        .map_err(|_| bad("a value too large to hold"))?;
    r.take(keep as u64).read_to_end(&mut v)?;
    let skipped = io::copy(&mut r.take((len - keep) as u64), &mut io::sink())?;
    if v.len() != keep || skipped as usize != len - keep {
        return Err(bad("a value cut short"));
    }
    Ok((v, len))
}

impl Iterator for Values {
    type Item = io::Result<Value>;

    fn next(&mut self) -> Option<io::Result<Value>> {
        loop {
            if let Some(p) = &mut self.page
                && p.done < p.levels
            {
                let defined = match &mut p.defs {
                    None => Some(true),
                    Some(d) => d.next().map(|l| l > 0),
                };
                p.done += 1;
                let Some(defined) = defined else {
                    self.page = None;
                    self.at = self.end;
                    return Some(Err(bad("definition levels cut short")));
                };
                if !defined {
                    return Some(Ok(Value::Null));
                }
                return Some(match &mut p.values {
                    PageValues::Plain(r) => {
                        plain_value(r, self.max_value).map(|(v, n)| Value::Bytes(v, n))
                    }
                    PageValues::Indices(idx) => {
                        let entries = self.dictionary.as_ref().expect("checked when opened");
                        match idx.next().and_then(|i| entries.get(i as usize)) {
                            Some(e) => {
                                let keep = e.len().min(self.max_value);
                                Ok(Value::Bytes(e[..keep].to_vec(), e.len()))
                            }
                            None => Err(bad("a dictionary index missing or out of range")),
                        }
                    }
                });
            }
            self.page = None;
            match self.next_page() {
                Ok(true) => {}
                Ok(false) => return None,
                Err(e) => {
                    self.at = self.end;
                    return Some(Err(e));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snappy_and_lz4_streams_decode_as_their_crates_do() {
        let mut text = Vec::new();
        for i in 0..40_000u32 {
            text.extend_from_slice(format!("word{} again {} ", i % 977, i % 13).as_bytes());
        }
        let snappy = snap::raw::Encoder::new().compress_vec(&text).unwrap();
        let mut got = Vec::new();
        Windowed::new(&snappy[..], Block::Snappy)
            .read_to_end(&mut got)
            .unwrap();
        assert_eq!(got, text);
        let lz4 = lz4_flex::block::compress(&text);
        let mut got = Vec::new();
        Windowed::new(&lz4[..], Block::Lz4)
            .read_to_end(&mut got)
            .unwrap();
        assert_eq!(got, text);
        // A stream cut short is an error, not a shorter text.
        let mut got = Vec::new();
        let cut = Windowed::new(&snappy[..snappy.len() / 2], Block::Snappy).read_to_end(&mut got);
        assert!(cut.is_err() || got.len() < text.len());
    }

    /// A long run (one LZ4 match of megabytes) and a block that claims a
    /// literal of a gigabyte are decoded in the memory of the window.
    #[test]
    fn long_runs_and_lying_literals_stay_in_the_window() {
        let mut text = vec![b'x'; 4 << 20];
        text.extend_from_slice(b"and the end of the page");
        let lz4 = lz4_flex::block::compress(&text);
        assert!(lz4.len() < 64 << 10, "one long match");
        let mut w = Windowed::new(&lz4[..], Block::Lz4);
        let (mut got, mut buf) = (Vec::new(), [0u8; 8 << 10]);
        loop {
            let n = w.read(&mut buf).unwrap();
            assert!(w.hist.len() <= 5 * WINDOW, "{}", w.hist.len());
            if n == 0 {
                break;
            }
            got.extend_from_slice(&buf[..n]);
        }
        assert_eq!(got, text);
        // Token 0xF0: 15 + 255 × 4 + 0 … literals claimed; 10 bytes given.
        let mut lying = vec![0xF0];
        lying.extend(std::iter::repeat_n(255u8, 4 << 20));
        lying.push(0);
        lying.extend_from_slice(b"ten bytes.");
        let mut w = Windowed::new(&lying[..], Block::Lz4);
        assert!(w.read_to_end(&mut Vec::new()).is_err());
        assert!(w.hist.capacity() <= 2 * WINDOW, "{}", w.hist.capacity());
    }

    /// Definition levels longer than their page's levels could take are
    /// refused before they are held.
    #[test]
    fn levels_bounded_by_their_page() {
        assert_eq!(levels_bytes(22, 1).unwrap(), 22);
        assert!(levels_bytes(1 << 30, 1000).is_err());
        // A run that claims four billion levels is read as asked, not held.
        let run = [0xfe, 0xff, 0xff, 0xff, 0x0f, 1];
        assert_eq!(Hybrid::new(run.to_vec(), 1).take(3).count(), 3);
    }

    #[test]
    fn hybrid_runs_and_packed_groups() {
        // RLE: 5 × 1; bit-packed: one group of 8 values of width 1.
        let data = [5 << 1, 1, (1 << 1) | 1, 0b1010_0101];
        let got: Vec<u32> = Hybrid::new(data.to_vec(), 1).collect();
        assert_eq!(got, [1, 1, 1, 1, 1, 1, 0, 1, 0, 0, 1, 0, 1]);
    }
}
