//! [`Source`]: every input as one stream of [`Entry`]s, one per document
//! (or per WARC record, or per JSON line), in input order: files opened one
//! at a time, containers read record by record.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use ncleaner::{Error, Result};

use crate::compress::{self, Compression};
use crate::identify::{Identified, IdentifyOptions, identify};
use crate::resume::{Resume, Resuming};
use crate::run::Outcome;
use ncleaner::InputKind;

use crate::{
    Body, Container, DEFAULT_MAX_DOCUMENT, Document, Entry, Found, Input, Origin, WarcDocument,
    container_from_name, jsonl, kind, sniff_as, warc, warc_document,
};

mod parquet_input;
mod read_ahead;

use read_ahead::{Limits, Next, ReadAhead};

/// How many bytes of an input are read before its container and
/// compression are known (the buffer size of the readers after it).
const HEAD: usize = 256 << 10;

/// The first bytes of a stream (one read, as a buffered reader's first
/// fill) and the stream after them.
fn first_read(r: Box<dyn Read + Send>) -> std::io::Result<(Vec<u8>, Box<dyn Read + Send>)> {
    let mut r = BufReader::with_capacity(HEAD, r);
    let head = r.fill_buf()?.to_vec();
    r.consume(head.len());
    Ok((head, Box::new(r)))
}

/// A stream's first bytes put back in front of the rest, buffered.
fn rejoin(mut head: Vec<u8>, rest: Box<dyn Read + Send>) -> BufReader<Box<dyn Read + Send>> {
    // Sized for a page, the buffer of a container is more than it holds.
    head.shrink_to_fit();
    let joined: Box<dyn Read + Send> = Box::new(std::io::Cursor::new(head).chain(rest));
    BufReader::with_capacity(HEAD, joined)
}

/// The first bytes of an input and the stream after them. A page's bytes
/// are read once, into the buffer that becomes the document: a file's
/// buffer is sized by its length (up to one past the limit `max`, unless
/// its name says it is a container, `named`), with no growing and no copy
/// out of a reader's buffer.
fn first_bytes(
    origin: &Origin,
    named: Option<Container>,
    max: u64,
) -> std::io::Result<(Vec<u8>, Box<dyn Read + Send>)> {
    match origin {
        Origin::File { path, .. } => crate::files::open_input(path).and_then(|f| {
            let len = f.metadata().map_or(0, |m| m.len());
            let cap = match named {
                None => len.min(max + 1),
                Some(_) => len.min(HEAD as u64),
            };
            let mut head = Vec::with_capacity(cap as usize);
            (&f).take(HEAD as u64).read_to_end(&mut head)?;
            Ok((head, Box::new(f) as Box<dyn Read + Send>))
        }),
        Origin::Stdin => first_read(Box::new(std::io::stdin())),
        Origin::Memory { bytes, .. } => first_read(Box::new(std::io::Cursor::new(bytes.clone()))),
    }
}

/// A single document's bytes, its first bytes `head` and the `rest`, read
/// up to one past the limit `max` (decompressed first when `compression`
/// says), with the result of the read.
fn read_whole(
    head: Vec<u8>,
    rest: Box<dyn Read + Send>,
    compression: Compression,
    max: u64,
) -> (Vec<u8>, std::io::Result<usize>) {
    if compression != Compression::None {
        // A compressed page (`page.html.gz`) is read decompressed.
        let mut bytes = Vec::new();
        let res = compress::decoder(rejoin(head, rest), compression)
            .and_then(|d| d.take(max + 1).read_to_end(&mut bytes));
        (bytes, res)
    } else {
        // The rest follows the first bytes in their buffer.
        let mut bytes = head;
        bytes.truncate(max as usize + 1);
        let more = (max + 1).saturating_sub(bytes.len() as u64);
        let res = rest.take(more).read_to_end(&mut bytes);
        (bytes, res)
    }
}

/// The compression of a file: by its bytes (magic number and header), and
/// for brotli, which has none, by its `.br` name. A name that promises a
/// compression the bytes do not have is an error (an empty file is empty
/// whatever its name).
fn compression_of(path: Option<&Path>, head: &[u8]) -> std::result::Result<Compression, String> {
    let by_bytes = Compression::sniff(head);
    let by_name = path.map_or(Compression::None, Compression::from_name);
    match (by_name, by_bytes) {
        (Compression::None, b) => Ok(b),
        _ if head.is_empty() => Ok(Compression::None),
        (Compression::Brotli, Compression::None) => Ok(Compression::Brotli),
        (n, b) if n == b => Ok(b),
        (n, Compression::None) => Err(format!(
            "named {} but not {}-compressed: {}",
            n.suffix(),
            &n.suffix()[1..],
            match n {
                Compression::Gzip => match compress::gzip_header_len(head) {
                    Err(why) => why.to_string(),
                    Ok(_) => "no gzip header".into(),
                },
                _ => "no frame header".into(),
            }
        )),
        (n, b) => Err(format!(
            "named {} but {}-compressed",
            n.suffix(),
            &b.suffix()[1..]
        )),
    }
}

/// Options of a [`Source`].
#[derive(Debug, Clone, Copy)]
pub struct SourceOptions {
    /// The largest document, WARC block (and half the longest JSON line) read.
    pub max_document: usize,
    /// Keep every WARC record in its entry (for WARC output).
    pub keep_records: bool,
}

impl Default for SourceOptions {
    fn default() -> Self {
        SourceOptions {
            max_document: DEFAULT_MAX_DOCUMENT,
            keep_records: false,
        }
    }
}

enum Current {
    None,
    Warc(Arc<Input>, warc::Reader<compress::BoxRead>),
    Jsonl(Arc<Input>, jsonl::Reader<compress::BoxRead>),
    #[cfg(feature = "parquet")]
    Parquet(Arc<Input>, Box<crate::parquet::Reader>),
}

/// All inputs as one stream of entries, in order. By default files are
/// opened one at a time, and containers read record by record, so the
/// source holds at most one document (or WARC record) at a time; with
/// [`Source::readers`], several files are read at once on threads of their
/// own, each a bounded chunk ahead, and their entries still come in input
/// order.
pub struct Source {
    origins: Box<dyn Iterator<Item = Found> + Send>,
    current: Current,
    /// Files read at once ([`Source::readers`]).
    readers: usize,
    /// The files being read on reader threads, once more than one file is
    /// found and `readers` is above one.
    ahead: Option<ReadAhead<Found, Entry>>,
    /// Whether the first inputs were looked at to choose between one reader
    /// and several.
    started: bool,
    opts: SourceOptions,
    seq: u64,
    /// Skip files whose bytes are neither HTML nor text ([`kind`]).
    detect_kinds: bool,
    /// A resumed run: its place in the output it continues.
    resuming: Option<Resuming>,
    /// Stopped early: a resumed run's inputs do not match its output.
    stopped: bool,
}

impl Source {
    /// A source over `origins` (see [`crate::expand`]).
    pub fn new(origins: Vec<Origin>, opts: SourceOptions) -> Source {
        Source::streaming(origins.into_iter().map(Found::Origin), opts)
    }

    /// A source over what a walk finds ([`crate::walk_inputs`]), read as it is
    /// found: problems become failed entries, non-regular files skipped ones.
    pub fn streaming(
        found: impl Iterator<Item = Found> + Send + 'static,
        opts: SourceOptions,
    ) -> Source {
        Source {
            origins: Box::new(found),
            current: Current::None,
            readers: 1,
            ahead: None,
            started: false,
            opts,
            seq: 0,
            detect_kinds: true,
            resuming: None,
            stopped: false,
        }
    }

    /// Marks what `resume` says is already written ([`Outcome::Resumed`]:
    /// neither cleaned nor written again). The returned cell holds, once
    /// the source has found it, why the inputs do not match the output; the
    /// source then ends, and the caller must leave the output as it was.
    pub fn resuming(mut self, resume: Resume) -> (Source, Arc<std::sync::Mutex<Option<String>>>) {
        let r = Resuming::new(resume);
        let error = r.error.clone();
        self.resuming = Some(r);
        (self, error)
    }

    /// Whether files whose bytes are neither HTML nor text (images,
    /// archives, executables, fonts, stylesheets, scripts: see [`kind`]) are
    /// skipped with a reason (the default) or read as documents (when the
    /// caller forces `--input html|text`).
    pub fn detect_non_documents(mut self, yes: bool) -> Source {
        self.detect_kinds = yes;
        self
    }

    /// Reads up to `n` files at once, each on a reader thread of its own
    /// (one per file; at most `n` files open), so that decompressing and
    /// parsing many WARC.gz or JSON Lines files uses more than one core. The
    /// entries, their `seq` and everything else about them are what one
    /// reader gives, in the same order ([`read_ahead`] says how). One
    /// reader (`n` ≤ 1, the default) reads in the caller's thread; so do
    /// standard input and a source of a single file whatever `n` is, and a
    /// resumed run matches entries in input order as ever.
    pub fn readers(mut self, n: usize) -> Source {
        self.readers = n.max(1);
        self
    }

    /// The input of a walk's problem or skipped file (never read).
    fn walk_input(path: &Path) -> Input {
        Input {
            origin: Origin::File {
                path: path.to_path_buf(),
                rel: PathBuf::from(path.file_name().unwrap_or(path.as_os_str())),
            },
            container: Container::Document,
            compression: Compression::None,
        }
    }

    /// Ends the source: a resumed run's inputs do not match its output.
    fn stop(&mut self, why: String) {
        self.stopped = true;
        if let Some(r) = &self.resuming
            && let Ok(mut slot) = r.error.lock()
        {
            slot.get_or_insert(why);
        }
    }

    fn entry(&mut self, input: &Arc<Input>, id: String, url: Option<String>) -> Entry {
        let seq = self.seq;
        self.seq += 1;
        Entry {
            seq,
            input: input.clone(),
            id,
            url,
            place: None,
            record: None,
            document: None,
            early: None,
        }
    }

    fn failed(&mut self, input: &Arc<Input>, id: String, error: Error) -> Entry {
        let mut e = self.entry(input, id, None);
        e.early = Some(Outcome::Failed(error));
        e
    }

    /// Opens the next input; returns an entry when it is a single document
    /// (or cannot be opened).
    fn open(&mut self, origin: Origin) -> Option<Entry> {
        let mut input = Input {
            origin: origin.clone(),
            container: Container::Document,
            compression: Compression::None,
        };
        let name = origin.name();
        let named = match &origin {
            Origin::File { path, .. } => container_from_name(path),
            Origin::Stdin | Origin::Memory { .. } => None,
        };
        let (head, rest) = match first_bytes(&origin, named, self.opts.max_document as u64) {
            Ok(o) => o,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                let error = crate::files::would_block(&name);
                return Some(self.failed(&Arc::new(input), name, error));
            }
            Err(e) => {
                let path = PathBuf::from(&name);
                return Some(self.failed(&Arc::new(input), name, Error::io(path, e)));
            }
        };
        let path = match &origin {
            Origin::File { path, .. } => Some(path.as_path()),
            Origin::Stdin | Origin::Memory { .. } => None,
        };
        let compression = match compression_of(path, &head) {
            Ok(c) => c,
            Err(why) => {
                return Some(self.failed(
                    &Arc::new(input),
                    name.clone(),
                    Error::document(name, why),
                ));
            }
        };
        let (sniffed, _) = sniff_as(
            &head,
            matches!(origin, Origin::Stdin | Origin::Memory { .. }),
            compression,
        );
        input.container = named.unwrap_or(sniffed);
        input.compression = compression;
        let input = Arc::new(input);
        match input.container {
            Container::Document => Some(self.open_document(&input, name, path, head, rest)),
            Container::Parquet => self.open_parquet(input, &origin, rejoin(head, rest)),
            Container::Warc | Container::Jsonl => {
                let decoded = match compress::decoder(rejoin(head, rest), input.compression) {
                    Ok(d) => d,
                    Err(e) => {
                        return Some(self.failed(
                            &input,
                            name.clone(),
                            Error::io(PathBuf::from(&name), e),
                        ));
                    }
                };
                self.current = if input.container == Container::Warc {
                    Current::Warc(input, warc::Reader::new(decoded, self.opts.max_document))
                } else {
                    Current::Jsonl(
                        input,
                        jsonl::Reader::new(decoded, self.opts.max_document.saturating_mul(2)),
                    )
                };
                None
            }
        }
    }

    /// The entry of an input that is one document (`path`, when it is a
    /// file), from its first bytes `head` and the `rest`: the document, or
    /// why it failed or was skipped.
    fn open_document(
        &mut self,
        input: &Arc<Input>,
        name: String,
        path: Option<&Path>,
        head: Vec<u8>,
        rest: Box<dyn Read + Send>,
    ) -> Entry {
        let max = self.opts.max_document as u64;
        let compressed = input.compression != Compression::None;
        let (bytes, res) = read_whole(head, rest, input.compression, max);
        let mut e = self.entry(input, name.clone(), None);
        // A compressed file cut short or damaged: what decoded before is the document.
        let mut truncated = None;
        let res = match res {
            Err(err)
                if compressed
                    && !bytes.is_empty()
                    && matches!(
                        err.kind(),
                        std::io::ErrorKind::UnexpectedEof | std::io::ErrorKind::InvalidData
                    ) =>
            {
                truncated = Some(format!(
                    "the compressed file stops after {} decompressed bytes ({err}); the part before was cleaned",
                    bytes.len()
                ));
                Ok(bytes.len())
            }
            r => r,
        };
        let on_disk = || {
            path.and_then(|p| std::fs::metadata(p).ok())
                .map(|m| m.len())
        };
        e.early = match res {
            Err(err) => Some(Outcome::Failed(Error::io(PathBuf::from(&name), err))),
            Ok(_) if bytes.len() as u64 > max && compressed => {
                let size =
                    on_disk().map_or_else(String::new, |n| format!(", {n} bytes compressed"));
                Some(Outcome::Failed(Error::document(
                    name,
                    format!(
                        "decompresses to more than {max} bytes, the limit of one document{size}; \
                         not cleaned: a decompression bomb, or a document to split"
                    ),
                )))
            }
            Ok(_) if bytes.len() as u64 > max => Some(Outcome::Failed(crate::files::over_limit(
                name,
                on_disk(),
                max,
            ))),
            Ok(_) => match self.document_of(bytes, name, path, truncated) {
                Ok(document) => {
                    e.document = Some(document);
                    None
                }
                Err(outcome) => Some(outcome),
            },
        };
        e
    }

    /// The document of a single document's `bytes` (read whole, within the
    /// limit; `truncated`: why they are not the whole file), or why it is
    /// skipped (binary bytes, source code when kinds are detected) or failed.
    fn document_of(
        &self,
        bytes: Vec<u8>,
        name: String,
        path: Option<&Path>,
        truncated: Option<String>,
    ) -> std::result::Result<Document, Outcome> {
        let opts = IdentifyOptions {
            content_encoding: None,
            max: self.opts.max_document,
            detect_binary: self.detect_kinds,
        };
        match identify(bytes, opts) {
            Identified::NotADocument(what) => {
                Err(Outcome::Skipped(format!("not a document: {what}")))
            }
            Identified::Failed(why) | Identified::TooLarge(why) => {
                Err(Outcome::Failed(Error::document(name, why)))
            }
            Identified::Document {
                bytes,
                truncated: t,
                ..
            } => {
                let code = path
                    .filter(|_| self.detect_kinds)
                    .and_then(|p| kind::code_kind(p, &bytes));
                match code {
                    Some(what) => Err(Outcome::Skipped(format!("not a document: {what}"))),
                    None => Ok(Document {
                        body: Body::Owned(bytes.into_owned()),
                        charset: None,
                        kind: None,
                        truncated: truncated.or(t),
                    }),
                }
            }
        }
    }

    fn warc_entry(
        &mut self,
        input: &Arc<Input>,
        item: Result<warc::Record, warc::RecordError>,
    ) -> Entry {
        let name = input.name();
        let record = match item {
            Ok(r) => r,
            Err(err) => {
                let id = err
                    .id
                    .clone()
                    .unwrap_or_else(|| format!("{name}@{}", err.offset));
                let mut e = self.entry(input, id, err.uri.clone());
                e.early = Some(Outcome::Failed(Error::document(name, err.to_string())));
                return e;
            }
        };
        let id = record
            .id()
            .map(str::to_string)
            .unwrap_or_else(|| format!("{name}@{}", record.offset));
        let url = record.target_uri().map(str::to_string);
        let mut e = self.entry(input, id, url);
        let decision = warc_document(&record, self.opts.max_document);
        let describe = |reason: String| {
            format!(
                "record at offset {} {}: {reason}",
                record.offset,
                record.id().unwrap_or("(no WARC-Record-ID)")
            )
        };
        match decision {
            WarcDocument::Skip(reason) => e.early = Some(Outcome::Skipped(reason)),
            WarcDocument::Fail(reason) => {
                e.early = Some(Outcome::Failed(Error::document(
                    name.clone(),
                    describe(reason),
                )))
            }
            WarcDocument::Document(doc) => e.document = Some(doc),
        }
        match (&mut e.document, self.opts.keep_records) {
            (_, true) => e.record = Some(Box::new(record)),
            (Some(doc), false) => {
                // Move the body out and let the record go.
                if let Body::InRecord(range) = &doc.body {
                    let mut block = record.block;
                    block.truncate(range.end);
                    block.drain(..range.start);
                    doc.body = Body::Owned(block);
                }
            }
            (None, false) => {}
        }
        e
    }

    fn jsonl_entry(
        &mut self,
        input: &Arc<Input>,
        item: Result<jsonl::JsonDocument, jsonl::LineError>,
    ) -> Entry {
        let name = input.name();
        match item {
            Ok(doc) => {
                let id = doc.id.unwrap_or_else(|| format!("{name}:{}", doc.line));
                let mut e = self.entry(input, id, doc.url);
                e.place = Some(format!("{name}:{}", doc.line));
                // Compressed bytes stored one character per byte are
                // decompressed; a string of binary bytes is no document.
                // JSON strings are Unicode: no `<meta>` may override that.
                let packed = crate::identify::latin1_compressed(&doc.body);
                let at = || format!("{name}:{}", doc.line);
                match self.cell_document(doc.body.into_bytes(), packed, Some("utf-8"), doc.kind, at)
                {
                    Ok(document) => e.document = Some(document),
                    Err(outcome) => e.early = Some(outcome),
                }
                e
            }
            Err(err) => {
                let id = err.id.unwrap_or_else(|| format!("{name}:{}", err.line));
                let mut e = self.failed(
                    input,
                    id,
                    Error::document(format!("{name}:{}", err.line), err.reason),
                );
                e.place = Some(format!("{name}:{}", err.line));
                e
            }
        }
    }
}

impl Source {
    /// The document of a JSON line's string or a Parquet cell, identified
    /// as a file's bytes are (compressed bytes decompressed, binary bytes no
    /// document, a cut stream marked truncated). `unpacked` replaces `body`
    /// when the caller already unpacked it (a JSON string holding
    /// compressed bytes one per character). Bytes kept as they are carry
    /// `unicode` as their charset, since a Unicode string's encoding is
    /// known and no `<meta>` may override it; `at` names the document in an
    /// error.
    pub(super) fn cell_document(
        &self,
        body: Vec<u8>,
        unpacked: Option<Vec<u8>>,
        unicode: Option<&str>,
        kind: InputKind,
        at: impl FnOnce() -> String,
    ) -> std::result::Result<Document, Outcome> {
        let opts = IdentifyOptions {
            content_encoding: None,
            max: self.opts.max_document,
            detect_binary: self.detect_kinds,
        };
        let cow: std::borrow::Cow<'_, [u8]> = match unpacked {
            Some(bytes) => bytes.into(),
            None => body.as_slice().into(),
        };
        let (body, charset, truncated) = match identify(cow, opts) {
            Identified::Document {
                bytes: std::borrow::Cow::Borrowed(_),
                ..
            } => (body, unicode.map(str::to_string), None),
            Identified::Document {
                bytes, truncated, ..
            } => (bytes.into_owned(), None, truncated),
            Identified::NotADocument(what) => {
                return Err(Outcome::Skipped(format!("not a document: {what}")));
            }
            Identified::Failed(why) | Identified::TooLarge(why) => {
                return Err(Outcome::Failed(Error::document(at(), why)));
            }
        };
        Ok(Document {
            body: Body::Owned(body),
            charset,
            kind: Some(kind),
            truncated,
        })
    }
}

impl Iterator for Source {
    type Item = Entry;

    fn next(&mut self) -> Option<Entry> {
        if self.stopped {
            return None;
        }
        let Some(mut e) = self.next_entry() else {
            if let Some(r) = &self.resuming
                && r.unmatched() > 0
            {
                self.stop(format!(
                    "the output holds {} record(s) more than the inputs give: the inputs \
                     are not those of the interrupted run; give the same inputs, or run without \
                     --resume to start again",
                    r.unmatched()
                ));
            }
            return None;
        };
        if let Some(r) = &mut self.resuming {
            match r.done(&e) {
                Ok(true) => {
                    e.early = Some(Outcome::Resumed);
                    e.document = None;
                    e.record = None;
                }
                Ok(false) => {}
                Err(why) => {
                    self.stop(why);
                    return None;
                }
            }
        }
        Some(e)
    }
}

impl Source {
    fn next_entry(&mut self) -> Option<Entry> {
        loop {
            match std::mem::replace(&mut self.current, Current::None) {
                Current::Warc(input, mut reader) => {
                    if let Some(item) = reader.next() {
                        let e = self.warc_entry(&input, item);
                        self.current = Current::Warc(input, reader);
                        return Some(e);
                    }
                }
                Current::Jsonl(input, mut reader) => {
                    if let Some(item) = reader.next() {
                        let e = self.jsonl_entry(&input, item);
                        self.current = Current::Jsonl(input, reader);
                        return Some(e);
                    }
                }
                #[cfg(feature = "parquet")]
                Current::Parquet(input, mut reader) => {
                    if let Some(item) = reader.next() {
                        let e = self.parquet_entry(&input, item);
                        self.current = Current::Parquet(input, reader);
                        return Some(e);
                    }
                }
                Current::None => match self.next_found()? {
                    Next::Item(mut e) => {
                        // Numbered here, in input order: a reader numbers its file's entries from 0.
                        e.seq = self.seq;
                        self.seq += 1;
                        return Some(e);
                    }
                    Next::InPlace(Found::Origin(origin)) => {
                        if let Some(e) = self.open(origin) {
                            return Some(e);
                        }
                    }
                    Next::InPlace(Found::Problem { path, reason }) => {
                        let input = Arc::new(Self::walk_input(&path));
                        let name = crate::files::path_name(&path);
                        return Some(self.failed(
                            &input,
                            name.clone(),
                            Error::document(name, reason),
                        ));
                    }
                    Next::InPlace(Found::Skipped { path, reason }) => {
                        let input = Arc::new(Self::walk_input(&path));
                        let mut e = self.entry(&input, crate::files::path_name(&path), None);
                        e.early = Some(Outcome::Skipped(reason));
                        return Some(e);
                    }
                },
            }
        }
    }
}

impl Source {
    /// The next input to read here, or the next entry of a file read on a
    /// reader thread, in input order.
    fn next_found(&mut self) -> Option<Next<Found, Entry>> {
        if !self.started {
            self.started = true;
            self.start_readers();
        }
        match &mut self.ahead {
            Some(ahead) => ahead.next(),
            None => self.origins.next().map(Next::InPlace),
        }
    }

    /// With more than one reader wanted and at least two inputs found, hands
    /// the inputs to reader threads; a single input (a file, standard
    /// input) is read here, as with one reader.
    fn start_readers(&mut self) {
        if self.readers < 2 {
            return;
        }
        let head: Vec<Found> = self.origins.by_ref().take(2).collect();
        let several = head.len() == 2;
        let rest = std::mem::replace(&mut self.origins, Box::new(std::iter::empty()));
        let inputs = Box::new(head.into_iter().chain(rest));
        if !several {
            self.origins = inputs;
            return;
        }
        let (opts, detect_kinds) = (self.opts, self.detect_kinds);
        // A file's entries as one reader gives them; an interrupt stops
        // each file after the entry being read, as it stops one reader.
        let read = move |found: Found, emit: &mut dyn FnMut(Entry) -> bool| {
            let one =
                Source::streaming(std::iter::once(found), opts).detect_non_documents(detect_kinds);
            for e in one {
                let stop = crate::interrupt::stopped().is_some();
                if !emit(e) || stop {
                    return;
                }
            }
        };
        let batch = crate::run::RunOptions::default();
        self.ahead = Some(ReadAhead::new(
            inputs,
            Limits {
                width: self.readers,
                chunk_items: batch.batch_docs,
                chunk_bytes: batch.batch_bytes,
            },
            // Standard input is read here; a walk's problems and skipped
            // files read nothing.
            |f| matches!(f, Found::Origin(o) if !matches!(o, Origin::Stdin)),
            Entry::size,
            Arc::new(read),
        ));
    }
}
