//! Where documents come from and where they go, at corpus scale.
//!
//! - [`files`]: command-line inputs (files, directories, stdin);
//! - [`compress`]: gzip (multi-member) and zstd streams;
//! - [`warc`]: WARC records (a reader that survives damaged files, HTTP
//!   responses, a writer with `conversion` records);
//! - [`jsonl`]: JSON Lines documents;
//! - [`Source`]: every input as one stream of [`Entry`]s, one per document
//!   (or per WARC record), in input order;
//! - [`run`](mod@run): cleans the entries on all threads, in order, in bounded memory;
//! - [`sink`]: writes the results (per-file, one stream, JSON Lines, WARC).
//!
//! Never losing a document: every document the source finds becomes one
//! entry, and every entry one [`Outcome`]: rendered, failed (with an error
//! that names it) or skipped (not a document: a WARC `request` record, an
//! image). A document that cannot be read — a truncated WARC record, a
//! broken JSON line, a file over the size limit — is a failed entry, not a
//! missing one.

pub mod compress;
pub mod files;
pub mod http;
pub mod interrupt;
pub mod jsonl;
pub mod kind;
pub mod run;
pub mod sink;
pub mod sites;
pub mod warc;

pub use files::{Found, Origin, expand, read_document, walk, walk_inputs};
pub use run::{Observer, Outcome, Rendered, RunOptions, Sink, Stats, run};
pub use sink::Destination;
pub use sites::{learn_sites, site_memory};

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use compress::Compression;

use ncleaner::error::{Error, Result};
use ncleaner::format::{self, Format, JsonOptions};
use ncleaner::pipeline::{Cleaner, InputKind};

/// The default limit on the size of one document (and of one WARC record's
/// block, and of one JSON line, twice this): 64 MiB.
pub const DEFAULT_MAX_DOCUMENT: usize = 64 << 20;

/// What an input holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Container {
    /// One document (a page or a text dump).
    Document,
    /// A WARC file.
    Warc,
    /// A JSON Lines file.
    Jsonl,
}

/// One input: where it comes from, what it holds, how it is compressed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Input {
    /// The file or stdin.
    pub origin: Origin,
    /// What it holds.
    pub container: Container,
    /// How it is compressed (containers only; single documents are read as they are).
    pub compression: Compression,
}

impl Input {
    /// The input's name in messages.
    pub fn name(&self) -> String {
        self.origin.name()
    }

    /// The name of this input's output under an output directory: for a
    /// single document `REL/NAME.EXT`, for a container its relative path with
    /// the container's extension replaced by `ext` and its compression kept
    /// (`crawl/a.warc.gz` → `crawl/a.jsonl.gz`).
    pub fn output_path(&self, outdir: &Path, ext: &str) -> PathBuf {
        if self.container == Container::Document {
            return self.origin.output_path(outdir, ext);
        }
        let rel = match &self.origin {
            Origin::File { rel, .. } => rel.clone(),
            Origin::Stdin => PathBuf::from("stdin"),
            Origin::Memory { name, .. } => PathBuf::from(name),
        };
        let name = rel
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "stdin".into());
        let stem = strip_container_suffix(&name);
        let file = format!("{stem}.{ext}{}", self.compression.suffix());
        outdir.join(rel.with_file_name(file))
    }
}

/// A file name without its compression and container extensions.
///
/// The suffixes are ASCII, so they are compared as bytes: the cut is made
/// only after a whole suffix matched, which is always at a character
/// boundary (`café.htm`, `日本.html` are names like any other).
fn strip_container_suffix(name: &str) -> &str {
    fn strip<'a>(s: &'a str, suf: &str) -> Option<&'a str> {
        let (b, x) = (s.as_bytes(), suf.as_bytes());
        (b.len() > x.len() && b[b.len() - x.len()..].eq_ignore_ascii_case(x))
            .then(|| &s[..s.len() - x.len()])
    }
    let mut s = name;
    for suf in [".gz", ".zst", ".zstd", ".br"] {
        if let Some(t) = strip(s, suf) {
            s = t;
            break;
        }
    }
    for suf in [".warc", ".arc", ".jsonl", ".ndjson", ".json"] {
        if let Some(t) = strip(s, suf) {
            return t;
        }
    }
    s
}

/// The container a file name announces (`.warc`, `.jsonl`, `.ndjson`, each
/// possibly followed by `.gz` or `.zst`).
pub fn container_from_name(path: &Path) -> Option<Container> {
    let name = path.file_name()?.to_string_lossy().to_ascii_lowercase();
    let base = strip_container_suffix(&name);
    let ext = &name[base.len()..];
    let ext = ext.split('.').nth(1).unwrap_or("");
    match ext {
        "warc" => Some(Container::Warc),
        "jsonl" | "ndjson" => Some(Container::Jsonl),
        _ => None,
    }
}

/// What a stream holds, from its first bytes: a WARC file (plain or
/// compressed), JSON Lines (`allow_json`: only for stdin, where there is no
/// name to go by), or a single document.
/// A compressed single document (`page.html.gz`, written by `gzip` or not)
/// keeps its compression, so that it is read decompressed.
pub fn sniff(head: &[u8], allow_json: bool) -> (Container, Compression) {
    sniff_as(head, allow_json, Compression::sniff(head))
}

/// [`sniff`] for a stream known to be compressed as `compression`.
fn sniff_as(head: &[u8], allow_json: bool, compression: Compression) -> (Container, Compression) {
    let plain: Vec<u8> = match compression {
        Compression::None => head.to_vec(),
        Compression::Gzip => peek(flate2::read::MultiGzDecoder::new(head)),
        Compression::Zstd => match zstd::stream::read::Decoder::new(head) {
            Ok(d) => peek(d),
            Err(_) => Vec::new(),
        },
        Compression::Brotli => peek(brotli_decompressor::Decompressor::new(head, 4096)),
    };
    let container = if plain.trim_ascii_start().starts_with(b"WARC/") {
        Container::Warc
    } else if allow_json && plain.trim_ascii_start().starts_with(b"{") {
        Container::Jsonl
    } else {
        Container::Document
    };
    (container, compression)
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

/// The first bytes a decoder produces (before any error).
fn peek(mut r: impl Read) -> Vec<u8> {
    let mut out = vec![0u8; 64];
    let mut n = 0;
    while n < out.len() {
        match r.read(&mut out[n..]) {
            Ok(0) | Err(_) => break,
            Ok(k) => n += k,
        }
    }
    out.truncate(n);
    out
}

/// Where a document's bytes are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Body {
    /// Its own bytes.
    Owned(Vec<u8>),
    /// A range of the WARC record's block (the HTTP body, not re-encoded).
    InRecord(std::ops::Range<usize>),
}

/// A document to clean.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Document {
    /// Its bytes.
    pub body: Body,
    /// The transport charset (HTTP `Content-Type`, or UTF-8 for JSON).
    pub charset: Option<String>,
    /// How to read it, when the input says (JSON `html`/`text`, a WARC
    /// response's content type); `None`: as the caller decides.
    pub kind: Option<InputKind>,
}

/// One item of a [`Source`]: a document to clean, or a record or line that
/// is already known to fail or to be no document.
#[derive(Debug)]
pub struct Entry {
    /// Position in the source (from 0).
    pub seq: u64,
    /// The input it comes from.
    pub input: Arc<Input>,
    /// Its name: the file, the WARC-Record-ID, the JSON `id` (or `FILE:LINE`).
    pub id: String,
    /// Its URL, when known.
    pub url: Option<String>,
    /// The WARC record it is (kept when the source is asked to keep records).
    pub record: Option<Box<warc::Record>>,
    /// The document to clean; `None` when the outcome is already known.
    pub document: Option<Document>,
    /// The outcome, when known without cleaning (failed or skipped).
    pub(crate) early: Option<Outcome>,
}

impl Entry {
    /// The document's bytes (empty when there is no document).
    pub fn bytes(&self) -> &[u8] {
        match &self.document {
            Some(Document {
                body: Body::Owned(v),
                ..
            }) => v,
            Some(Document {
                body: Body::InRecord(r),
                ..
            }) => self
                .record
                .as_ref()
                .and_then(|rec| rec.block.get(r.clone()))
                .unwrap_or(&[]),
            None => &[],
        }
    }

    /// Bytes held in memory (for batching).
    pub fn size(&self) -> usize {
        let owned = match &self.document {
            Some(Document {
                body: Body::Owned(v),
                ..
            }) => v.len(),
            _ => 0,
        };
        owned
            + self
                .record
                .as_ref()
                .map_or(0, |r| r.block.len() + r.header.len())
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
}

/// All inputs as one stream of entries, in order. Files are opened one at a
/// time, and containers read record by record, so the source holds at most
/// one document (or WARC record) at a time.
pub struct Source {
    origins: Box<dyn Iterator<Item = Found> + Send>,
    current: Current,
    opts: SourceOptions,
    seq: u64,
    /// Skip files whose bytes are neither HTML nor text ([`kind`]).
    detect_kinds: bool,
    /// A resumed run: the documents already written, left out.
    resume: Option<Resume>,
    /// How many were left out so.
    resumed: Arc<std::sync::atomic::AtomicU64>,
}

/// What a resumed run (`clean --resume`) leaves out: the documents an
/// interrupted run already wrote to the same output.
#[derive(Debug, Clone)]
pub enum Resume {
    /// The `id`s already in a JSON Lines output file.
    Ids(std::collections::HashSet<String>),
    /// A directory output: single documents whose output file exists.
    Dir {
        /// The output directory.
        dir: PathBuf,
        /// The output files' extension.
        ext: &'static str,
    },
}

impl Resume {
    /// What to leave out when resuming into `dest` in `format`.
    pub fn of(dest: &Destination, format: Format) -> Result<Resume> {
        match dest {
            Destination::File(path) if format == Format::Jsonl => {
                let mut ids = std::collections::HashSet::new();
                let existing = [path.clone(), sink::partial_path(path)];
                for p in existing.iter().filter(|p| p.exists()) {
                    let bytes = sink::read_output(p).map_err(|e| Error::io(p, e))?;
                    for line in bytes.split(|&b| b == b'\n') {
                        if let Ok(v) = serde_json::from_slice::<serde_json::Value>(line)
                            && let Some(id) = v.get("id").and_then(|i| i.as_str())
                        {
                            ids.insert(id.to_string());
                        }
                    }
                }
                Ok(Resume::Ids(ids))
            }
            Destination::Dir(dir) => Ok(Resume::Dir {
                dir: dir.clone(),
                ext: format.extension(),
            }),
            _ => Err(Error::Parameter(
                "--resume continues a JSON Lines output file (-o OUT.jsonl) or an output directory (-o DIR/)".into(),
            )),
        }
    }

    fn done(&self, e: &Entry) -> bool {
        match self {
            Resume::Ids(ids) => ids.contains(&e.id),
            Resume::Dir { dir, ext } => {
                e.input.container == Container::Document && e.input.output_path(dir, ext).exists()
            }
        }
    }
}

impl Source {
    /// A source over `origins` (see [`expand`]).
    pub fn new(origins: Vec<Origin>, opts: SourceOptions) -> Source {
        Source::streaming(origins.into_iter().map(Found::Origin), opts)
    }

    /// A source over what a walk finds ([`walk_inputs`]), read as it is
    /// found: problems become failed entries, non-regular files skipped ones.
    pub fn streaming(
        found: impl Iterator<Item = Found> + Send + 'static,
        opts: SourceOptions,
    ) -> Source {
        Source {
            origins: Box::new(found),
            current: Current::None,
            opts,
            seq: 0,
            detect_kinds: true,
            resume: None,
            resumed: Default::default(),
        }
    }

    /// Leaves out what `resume` says is already written; the returned
    /// counter says how many were left out.
    pub fn resuming(mut self, resume: Resume) -> (Source, Arc<std::sync::atomic::AtomicU64>) {
        self.resume = Some(resume);
        let n = self.resumed.clone();
        (self, n)
    }

    /// Whether files whose bytes are neither HTML nor text (images,
    /// archives, executables, fonts, stylesheets, scripts: see [`kind`]) are
    /// skipped with a reason (the default) or read as documents (when the
    /// caller forces `--input html|text`).
    pub fn detect_non_documents(mut self, yes: bool) -> Source {
        self.detect_kinds = yes;
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

    fn entry(&mut self, input: &Arc<Input>, id: String, url: Option<String>) -> Entry {
        let seq = self.seq;
        self.seq += 1;
        Entry {
            seq,
            input: input.clone(),
            id,
            url,
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
        let opened: std::io::Result<Box<dyn Read + Send>> = match &origin {
            Origin::File { path, .. } => {
                std::fs::File::open(path).map(|f| Box::new(f) as Box<dyn Read + Send>)
            }
            Origin::Stdin => Ok(Box::new(std::io::stdin())),
            Origin::Memory { bytes, .. } => Ok(Box::new(std::io::Cursor::new(bytes.clone()))),
        };
        let r = match opened {
            Ok(r) => r,
            Err(e) => {
                let path = PathBuf::from(&name);
                return Some(self.failed(&Arc::new(input), name, Error::io(path, e)));
            }
        };
        let mut r = BufReader::with_capacity(256 << 10, r);
        let head = match r.fill_buf() {
            Ok(h) => h,
            Err(e) => {
                let path = PathBuf::from(&name);
                return Some(self.failed(&Arc::new(input), name, Error::io(path, e)));
            }
        };
        let path = match &origin {
            Origin::File { path, .. } => Some(path.as_path()),
            Origin::Stdin | Origin::Memory { .. } => None,
        };
        let compression = match compression_of(path, head) {
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
            head,
            matches!(origin, Origin::Stdin | Origin::Memory { .. }),
            compression,
        );
        input.container = named.unwrap_or(sniffed);
        input.compression = compression;
        let path = path.map(Path::to_path_buf);
        let input = Arc::new(input);
        match input.container {
            Container::Document => {
                let max = self.opts.max_document as u64;
                let mut bytes = Vec::new();
                // A compressed page (`page.html.gz`) is read decompressed.
                let res = if input.compression == Compression::None {
                    (&mut r).take(max + 1).read_to_end(&mut bytes)
                } else {
                    compress::decoder(r, input.compression)
                        .and_then(|d| d.take(max + 1).read_to_end(&mut bytes))
                };
                let mut e = self.entry(&input, name.clone(), None);
                match res {
                    Err(err) => {
                        e.early = Some(Outcome::Failed(Error::io(PathBuf::from(&name), err)))
                    }
                    Ok(_) if bytes.len() as u64 > max => {
                        let size = match &origin {
                            Origin::File { path, .. } => {
                                std::fs::metadata(path).map_or(max + 1, |m| m.len())
                            }
                            Origin::Stdin | Origin::Memory { .. } => max + 1,
                        };
                        e.early = Some(Outcome::Failed(Error::TooLarge {
                            input: name,
                            size,
                            max,
                        }))
                    }
                    Ok(_)
                        if self.detect_kinds
                            && kind::not_a_document(path.as_deref(), &bytes).is_some() =>
                    {
                        let why = kind::not_a_document(path.as_deref(), &bytes).unwrap_or_default();
                        e.early = Some(Outcome::Skipped(format!("not a document: {why}")));
                    }
                    Ok(_) => {
                        e.document = Some(Document {
                            body: Body::Owned(bytes),
                            charset: None,
                            kind: None,
                        })
                    }
                }
                Some(e)
            }
            Container::Warc | Container::Jsonl => {
                let decoded = match compress::decoder(r, input.compression) {
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
                e.document = Some(Document {
                    body: Body::Owned(doc.body.into_bytes()),
                    // JSON strings are Unicode: no `<meta>` may override that.
                    charset: Some("utf-8".into()),
                    kind: Some(doc.kind),
                });
                e
            }
            Err(err) => {
                let id = err.id.unwrap_or_else(|| format!("{name}:{}", err.line));
                self.failed(
                    input,
                    id,
                    Error::document(format!("{name}:{}", err.line), err.reason),
                )
            }
        }
    }
}

impl Iterator for Source {
    type Item = Entry;

    fn next(&mut self) -> Option<Entry> {
        loop {
            let e = self.next_entry()?;
            match &self.resume {
                Some(r) if r.done(&e) => {
                    self.resumed
                        .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                }
                _ => return Some(e),
            }
        }
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
                Current::None => match self.origins.next()? {
                    Found::Origin(origin) => {
                        if let Some(e) = self.open(origin) {
                            return Some(e);
                        }
                    }
                    Found::Problem { path, reason } => {
                        let input = Arc::new(Self::walk_input(&path));
                        let name = path.display().to_string();
                        return Some(self.failed(
                            &input,
                            name.clone(),
                            Error::document(name, reason),
                        ));
                    }
                    Found::Skipped { path, reason } => {
                        let input = Arc::new(Self::walk_input(&path));
                        let mut e = self.entry(&input, path.display().to_string(), None);
                        e.early = Some(Outcome::Skipped(reason));
                        return Some(e);
                    }
                },
            }
        }
    }
}

/// How [`clean`] reads and writes documents.
#[derive(Debug, Clone, Copy)]
pub struct CleanOptions {
    /// How to read documents whose input does not say (files, stdin).
    pub input: InputKind,
    /// The output format.
    pub format: Format,
    /// Options of the JSON Lines format.
    pub json: JsonOptions,
    /// The largest document read ([`DEFAULT_MAX_DOCUMENT`]).
    pub max_document: usize,
}

impl Default for CleanOptions {
    fn default() -> Self {
        CleanOptions {
            input: InputKind::Auto,
            format: Format::Cleaneval,
            json: JsonOptions::default(),
            max_document: DEFAULT_MAX_DOCUMENT,
        }
    }
}

/// Cleans the document of one entry and renders it in `opts.format`.
/// The input's own hint (JSON `html`/`text`, a WARC response) says how to
/// read it; otherwise `opts.input` does.
pub fn clean_entry(cleaner: &Cleaner, entry: &Entry, opts: &CleanOptions) -> Result<Rendered> {
    let doc = entry
        .document
        .as_ref()
        .ok_or_else(|| Error::document(&entry.id, "no document"))?;
    let kind = doc.kind.unwrap_or(opts.input);
    let cleaned = cleaner.clean_with_charset(
        entry.bytes(),
        kind,
        entry.url.as_deref(),
        doc.charset.as_deref(),
    );
    let mut bytes = Vec::with_capacity(entry.bytes().len() / 4 + 64);
    format::write(
        &mut bytes,
        opts.format,
        &cleaned,
        Some(&entry.id),
        opts.json,
    )
    .map_err(|e| Error::io(&entry.id, e))?;
    let warc_fields = match (&cleaned.metadata, opts.format) {
        (Some(m), Format::Warc) => warc::metadata_fields(m),
        _ => Vec::new(),
    };
    Ok(Rendered {
        bytes,
        words_in: cleaned.words_in() as u64,
        words_out: cleaned.words_out() as u64,
        below_quality: cleaner.below_page_quality(&cleaned),
        warc_fields,
    })
}

/// Cleans every document of `origins` with `cleaner` on the threads of
/// `pool` and writes them to `dest`, in input order; returns the counts.
/// Documents that fail are counted, written as error records where the
/// format has them (JSON Lines) and passed to `observer`.
pub fn clean(
    origins: Vec<Origin>,
    dest: &Destination,
    cleaner: &Cleaner,
    opts: CleanOptions,
    pool: &rayon::ThreadPool,
    observer: &mut dyn Observer,
) -> Result<Stats> {
    let found = origins.into_iter().map(Found::Origin);
    clean_streaming(found, dest, cleaner, opts, pool, observer)
}

/// [`clean`] over what a walk finds ([`walk_inputs`]), cleaning while the
/// walk goes on: unreadable folders and symlink loops are failed entries,
/// FIFOs and other non-regular files skipped ones.
pub fn clean_streaming(
    found: impl Iterator<Item = Found> + Send + 'static,
    dest: &Destination,
    cleaner: &Cleaner,
    opts: CleanOptions,
    pool: &rayon::ThreadPool,
    observer: &mut dyn Observer,
) -> Result<Stats> {
    clean_resuming(found, dest, cleaner, opts, pool, observer, None).map(|(s, _)| s)
}

/// [`clean_streaming`] continuing an interrupted run: with `resume`, what
/// it says is already written is left out and the output is appended to
/// (a JSON Lines file) or completed (a directory). Returns the counts and
/// the number of documents left out.
pub fn clean_resuming(
    found: impl Iterator<Item = Found> + Send + 'static,
    dest: &Destination,
    cleaner: &Cleaner,
    opts: CleanOptions,
    pool: &rayon::ThreadPool,
    observer: &mut dyn Observer,
    resume: Option<Resume>,
) -> Result<(Stats, u64)> {
    let source = Source::streaming(
        found,
        SourceOptions {
            max_document: opts.max_document,
            keep_records: opts.format == Format::Warc,
        },
    );
    let source = source.detect_non_documents(opts.input == InputKind::Auto);
    let (source, resumed) = match resume {
        Some(r) => source.resuming(r),
        None => {
            let n = source.resumed.clone();
            (source, n)
        }
    };
    let appending = resumed_file(dest, opts.format, &source);
    let mut sink = match appending {
        Some(path) => sink::open_appending(&path, opts.format)?,
        None => sink::open(dest, opts.format)?,
    };
    let stats = run(
        source,
        pool,
        RunOptions::default(),
        &|e: &Entry| clean_entry(cleaner, e, &opts),
        &mut *sink,
        observer,
    )?;
    Ok((stats, resumed.load(std::sync::atomic::Ordering::Relaxed)))
}

/// The output file a resumed run appends to.
fn resumed_file(dest: &Destination, format: Format, source: &Source) -> Option<PathBuf> {
    match (dest, &source.resume) {
        (Destination::File(p), Some(Resume::Ids(_))) if format == Format::Jsonl => Some(p.clone()),
        _ => None,
    }
}

/// What a WARC record is to the cleaner.
#[derive(Debug)]
pub enum WarcDocument {
    /// A document to clean.
    Document(Document),
    /// Not a document (a `request`, `metadata`, `warcinfo` record; a
    /// response that is not HTML): why.
    Skip(String),
    /// A response that should be a document but cannot be read: why.
    Fail(String),
}

/// Decides what a WARC record is: `response` records of HTML (by the HTTP
/// `Content-Type`; when it is missing, by Common Crawl's
/// `WARC-Identified-Payload-Type`, and failing that by looking for tags) are
/// documents, with the HTTP charset as transport charset; the body is
/// de-chunked and decompressed when the HTTP headers say it is encoded.
pub fn warc_document(record: &warc::Record, max: usize) -> WarcDocument {
    let rtype = record.record_type().unwrap_or("(none)");
    if !rtype.eq_ignore_ascii_case("response") {
        return WarcDocument::Skip(format!("{rtype} record"));
    }
    let ct = record.get("Content-Type").unwrap_or("");
    if !warc::media_type(ct).starts_with("application/http") {
        return WarcDocument::Skip(format!("response of Content-Type {ct:?}"));
    }
    let http = match warc::parse_http(&record.block) {
        Ok(h) => h,
        Err(e) => return WarcDocument::Fail(e),
    };
    let media = http.media_type().filter(|m| !m.is_empty()).or_else(|| {
        record
            .get("WARC-Identified-Payload-Type")
            .map(warc::media_type)
    });
    let body = &record.block[http.body_start..];
    let is_html = |m: &str| {
        matches!(
            m,
            "text/html" | "application/xhtml+xml" | "application/xhtml"
        ) || m.ends_with("/html")
    };
    let kind = match media.as_deref() {
        Some(m) if is_html(m) => InputKind::Html,
        Some("") | None | Some("application/octet-stream") | Some("unk") => {
            let head = &body[..body.len().min(64 << 10)];
            if ncleaner::pipeline::looks_like_html(&String::from_utf8_lossy(head)) {
                InputKind::Html
            } else {
                return WarcDocument::Skip(
                    "response without a content type that does not look like HTML".into(),
                );
            }
        }
        Some(m) => return WarcDocument::Skip(format!("response of type {m}")),
    };
    let mut owned: Option<Vec<u8>> = None;
    if http
        .transfer_encoding
        .as_deref()
        .is_some_and(|t| t.to_ascii_lowercase().contains("chunked"))
        && let Some(d) = warc::dechunk(body)
    {
        owned = Some(d);
    }
    if let Some(enc) = http.content_encoding.as_deref() {
        let src = owned.as_deref().unwrap_or(body);
        match warc::decode_content(enc, src, max) {
            Ok(d) if d.as_slice() != src => owned = Some(d),
            Ok(_) => {}
            Err(e) => return WarcDocument::Fail(e),
        }
    }
    let body = match owned {
        Some(v) => Body::Owned(v),
        None => Body::InRecord(http.body_start..record.block.len()),
    };
    WarcDocument::Document(Document {
        body,
        charset: http.charset(),
        kind: Some(kind),
    })
}

#[cfg(test)]
mod tests;
