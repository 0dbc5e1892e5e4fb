//! Where documents come from and where they go, at corpus scale.
//!
//! - [`files`]: command-line inputs (files, directories, stdin);
//! - [`compress`]: gzip (multi-member) and zstd streams;
//! - [`warc`]: WARC records (a reader that survives damaged files, HTTP
//!   responses, a writer with `conversion` records);
//! - [`jsonl`]: JSON Lines documents;
//! - [`identify`]: every document's bytes identified before it is cleaned
//!   (decompressed; skipped when binary; a truncated stream marked);
//! - [`Source`]: every input as one stream of [`Entry`]s, one per document
//!   (or per WARC record), in input order;
//! - [`run`](mod@run): cleans the entries on all threads, in order, in bounded memory;
//! - [`sink`]: writes the results (per-file, one stream, JSON Lines, WARC);
//! - [`resume`]: continuing an interrupted run (`clean --resume`);
//! - [`lock`]: one run per output.
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
pub mod identify;
pub mod interrupt;
pub mod jsonl;
pub mod kind;
pub mod lock;
mod output;
#[cfg(feature = "parquet")]
pub mod parquet;
pub mod resume;
pub mod run;
pub mod sink;
pub mod sites;
mod source;
#[doc(hidden)]
pub mod torture;
pub mod warc;

pub use files::{Found, Origin, OwnOutput, check_output, expand, read_document, walk, walk_inputs};
pub use lock::OutputLock;
pub use output::OutputFormat;
pub use resume::Resume;
pub use run::{Observer, Outcome, Rendered, RunOptions, Sink, Stats, Written, counted, run};
pub use sink::Destination;
pub use sites::{learn_sites, site_memory};
pub use source::{Source, SourceOptions};
pub use warc::document::{WarcDocument, warc_document};

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use compress::Compression;

use ncleaner::Cleaner;
use ncleaner::InputKind;
use ncleaner::format::JsonOptions;
use ncleaner::{Error, Result};

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
    /// A Parquet file (a row per document; [`parquet`](mod@crate::parquet)).
    Parquet,
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
    for suf in [".warc", ".arc", ".jsonl", ".ndjson", ".json", ".parquet"] {
        if let Some(t) = strip(s, suf) {
            return t;
        }
    }
    s
}

/// The container a file name announces (`.warc`, `.jsonl`, `.ndjson`, each
/// possibly followed by `.gz` or `.zst`; `.parquet`).
pub fn container_from_name(path: &Path) -> Option<Container> {
    let name = path.file_name()?.to_string_lossy().to_ascii_lowercase();
    let base = strip_container_suffix(&name);
    let ext = &name[base.len()..];
    let ext = ext.split('.').nth(1).unwrap_or("");
    match ext {
        "warc" => Some(Container::Warc),
        "jsonl" | "ndjson" => Some(Container::Jsonl),
        "parquet" => Some(Container::Parquet),
        _ => None,
    }
}

/// What a stream holds, from its first bytes: a WARC file (plain or
/// compressed), a Parquet file (its magic bytes), JSON Lines (`allow_json`:
/// only for stdin, where there is no name to go by), or a single document.
/// A compressed single document (`page.html.gz`, written by `gzip` or not)
/// keeps its compression, so that it is read decompressed.
pub fn sniff(head: &[u8], allow_json: bool) -> (Container, Compression) {
    sniff_as(head, allow_json, Compression::sniff(head))
}

/// [`sniff`] for a stream known to be compressed as `compression`.
fn sniff_as(head: &[u8], allow_json: bool, compression: Compression) -> (Container, Compression) {
    let peeked: Vec<u8>;
    let plain: &[u8] = match compression {
        Compression::None => head,
        Compression::Gzip => {
            peeked = peek(flate2::read::MultiGzDecoder::new(head));
            &peeked
        }
        Compression::Zstd => {
            peeked = match zstd::stream::read::Decoder::new(head) {
                Ok(d) => peek(d),
                Err(_) => Vec::new(),
            };
            &peeked
        }
        Compression::Brotli => {
            peeked = peek(brotli_decompressor::Decompressor::new(head, 4096));
            &peeked
        }
    };
    // A byte-order mark (Windows tools write one) is not content.
    let plain = plain.strip_prefix(b"\xef\xbb\xbf").unwrap_or(plain);
    let container = if plain.trim_ascii_start().starts_with(b"WARC/") {
        Container::Warc
    } else if compression == Compression::None && head.starts_with(b"PAR1") {
        Container::Parquet
    } else if allow_json && plain.trim_ascii_start().starts_with(b"{") {
        Container::Jsonl
    } else {
        Container::Document
    };
    (container, compression)
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
    /// Why the bytes are not the whole document, when they are not (a
    /// truncated WARC record, compressed stream or chunked body: what
    /// decoded is cleaned, and its record says so).
    pub truncated: Option<String>,
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
    /// Where a record of a JSON Lines or Parquet input is in it
    /// (`FILE:LINE`, `FILE#ROW`): its `id` is the data's own, which
    /// several records may share, and this is not.
    pub place: Option<String>,
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

    /// Whether this entry, skipped as no document, still gets a record in
    /// the outputs that have records (JSON Lines, Parquet): every record of
    /// a JSON Lines or Parquet input is meant as a document, so each one
    /// gets an output record (`{"id", "url", "skipped": why}`), and the
    /// output a record for every record of the input. What a WARC file or a
    /// folder holds besides documents (`request` records, images) gets
    /// none.
    pub fn skip_has_record(&self) -> bool {
        matches!(self.input.container, Container::Jsonl | Container::Parquet)
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

/// How [`clean`] reads and writes documents: the input kind, the output
/// format, the size limit. How a page is cleaned is the cleaner's
/// ([`ncleaner::CleanOptions`], the one type of cleaning options).
#[derive(Debug, Clone, Copy)]
pub struct CorpusOptions {
    /// How to read documents whose input does not say (files, stdin).
    pub input: InputKind,
    /// The output format.
    pub format: OutputFormat,
    /// Options of the JSON Lines format.
    pub json: JsonOptions,
    /// The largest document read ([`DEFAULT_MAX_DOCUMENT`]).
    pub max_document: usize,
}

impl Default for CorpusOptions {
    fn default() -> Self {
        CorpusOptions {
            input: InputKind::Auto,
            format: OutputFormat::Text,
            json: JsonOptions::default(),
            max_document: DEFAULT_MAX_DOCUMENT,
        }
    }
}

/// Cleans the document of one entry and renders it in `opts.format`.
/// The input's own hint (JSON `html`/`text`, a WARC response) says how to
/// read it; otherwise `opts.input` does.
pub fn clean_entry(cleaner: &Cleaner, entry: &Entry, opts: &CorpusOptions) -> Result<Rendered> {
    let doc = entry
        .document
        .as_ref()
        .ok_or_else(|| Error::document(&entry.id, "no document"))?;
    let kind = doc.kind.unwrap_or(opts.input);
    let mut cleaned = cleaner.clean_with_charset(
        entry.bytes(),
        kind,
        entry.url.as_deref(),
        doc.charset.as_deref(),
    );
    // The body's own cut comes first: it is where the document stops.
    cleaned.truncated = match (&doc.truncated, cleaned.truncated.take()) {
        (Some(a), Some(b)) => Some(format!("{a}; {b}")),
        (a, b) => a.clone().or(b),
    };
    let mut bytes = Vec::with_capacity(entry.bytes().len() / 4 + 64);
    opts.format
        .write(&mut bytes, &cleaned, Some(&entry.id), opts.json)
        .map_err(|e| Error::io(&entry.id, e))?;
    let mut warc_fields = match (&cleaned.metadata, opts.format) {
        (Some(m), OutputFormat::Warc) => warc::metadata_fields(m),
        _ => Vec::new(),
    };
    if let (Some(why), OutputFormat::Warc) = (&cleaned.truncated, opts.format) {
        // A field WARC does not define, as the metadata's (one line).
        warc_fields.push(("ncleaner-Truncated".into(), why.replace(['\r', '\n'], " ")));
    }
    Ok(Rendered {
        bytes,
        words_in: cleaned.words_in() as u64,
        words_out: cleaned.words_out() as u64,
        below_quality: cleaner.below_page_quality(&cleaned),
        truncated: cleaned.truncated.clone(),
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
    opts: CorpusOptions,
    pool: &rayon::ThreadPool,
    observer: &mut dyn Observer,
) -> Result<Stats> {
    let found = origins.into_iter().map(Found::Origin);
    clean_streaming(found, dest, cleaner, opts, pool, observer)
}

/// [`clean`] over what a walk finds ([`walk_inputs`]), cleaning while the
/// walk goes on: unreadable folders and symlink loops are failed entries,
/// FIFOs and other non-regular files skipped ones. The output's lock
/// ([`OutputLock`]) is held while it runs: another run writing to `dest`
/// makes this one fail before it writes anything.
pub fn clean_streaming(
    found: impl Iterator<Item = Found> + Send + 'static,
    dest: &Destination,
    cleaner: &Cleaner,
    opts: CorpusOptions,
    pool: &rayon::ThreadPool,
    observer: &mut dyn Observer,
) -> Result<Stats> {
    let _lock = OutputLock::acquire(dest)?;
    let plan = OutputPlan::default();
    clean_resuming(found, dest, cleaner, opts, pool, observer, plan).map(|(s, _)| s)
}

/// What a run of [`clean_resuming`] knows of its output beyond where it
/// goes: what it continues, and which inputs it must never write into.
#[derive(Debug, Default)]
pub struct OutputPlan {
    /// The output of an interrupted run to continue (`clean --resume`).
    pub resume: Option<Resume>,
    /// The run's inputs and own files, as [`check_output`] found them: a
    /// directory output refuses an output file that resolves into an input.
    pub own: OwnOutput,
}

/// A run's output, checked against its inputs and locked before any work
/// ([`prepare_output`]); the lock is held until it is dropped.
#[derive(Debug)]
pub struct PreparedOutput {
    /// Where the output goes.
    pub dest: Destination,
    /// The run's own files and its inputs ([`check_output`]).
    pub own: OwnOutput,
    /// The folders the run makes for its output, to say so on standard
    /// error ([`Destination::new_folders_note`]), read before the lock
    /// (which makes them) is taken.
    pub new_folders: Option<String>,
    /// One run per output ([`OutputLock`]).
    _lock: Option<OutputLock>,
}

impl PreparedOutput {
    /// The walk of `inputs` ([`walk_inputs`]), the run's own output files
    /// left out.
    pub fn walk(&self, inputs: &[PathBuf]) -> impl Iterator<Item = Found> + Send + 'static {
        let own = self.own.clone();
        walk_inputs(inputs.to_vec()).filter(move |f| !own.is(f))
    }

    /// The plan of a run into this output in `format`: with `resume`, what
    /// an interrupted run left there to continue ([`Resume::of`]).
    pub fn plan(&self, resume: bool, format: OutputFormat) -> Result<OutputPlan> {
        let resume = match resume {
            true => Some(Resume::of(&self.dest, format)?),
            false => None,
        };
        let own = self.own.clone();
        Ok(OutputPlan { resume, own })
    }
}

/// Checks a run's inputs and output (`-o`, `None` for standard output)
/// before any work and takes the output's lock: an output over an input (or one the walk would read back), a site memory
/// file (`--site-memory`) that is an input or an output
/// ([`sites::check_site_memory`]) and an output another run is writing
/// are refused now; an output file inside an input folder is left out of
/// the walk. A missing input, and what the walk of a folder finds wrong,
/// are failed documents reported as the run goes.
pub fn prepare_output(
    inputs: &[PathBuf],
    output: Option<&Path>,
    site_memory: Option<&Path>,
) -> Result<PreparedOutput> {
    // A missing input is no reason to refuse the run: the walk gives it a
    // failed document, with its record, in its place.
    let dest = Destination::from_arg(output);
    let own = check_output(inputs, &dest)?;
    if let Some(file) = site_memory {
        sites::check_site_memory(file, inputs, &dest)?;
    }
    let new_folders = dest.new_folders_note();
    let lock = OutputLock::acquire(&dest)?;
    Ok(PreparedOutput {
        dest,
        own,
        new_folders,
        _lock: lock,
    })
}

/// [`clean_streaming`] as a command runs it, the caller holding the
/// output's lock ([`OutputLock`]), continuing an interrupted run: with
/// `plan.resume`, what it says is already written is left out
/// ([`Outcome::Resumed`]) and the output is continued: a JSON Lines file
/// cut where its complete records end and appended to, a Parquet file's
/// rows copied into the file that replaces it (either opened only once a
/// new record comes, so that inputs that do not match the output leave it
/// as it was), a directory completed. Returns the counts and the number of
/// entries left out. An output that prints no metadata
/// ([`OutputFormat::prints_metadata`]) has it left as the markup states
/// it, without the completion no decision reads.
pub fn clean_resuming(
    found: impl Iterator<Item = Found> + Send + 'static,
    dest: &Destination,
    cleaner: &Cleaner,
    opts: CorpusOptions,
    pool: &rayon::ThreadPool,
    observer: &mut dyn Observer,
    plan: OutputPlan,
) -> Result<(Stats, u64)> {
    let OutputPlan { resume, own } = plan;
    let plain;
    let cleaner = match opts.format.prints_metadata() {
        true => cleaner,
        false => {
            plain = cleaner.clone().with_completed_metadata(false);
            &plain
        }
    };
    let source = Source::streaming(
        found,
        SourceOptions {
            max_document: opts.max_document,
            keep_records: opts.format == OutputFormat::Warc,
        },
    );
    let source = source.detect_non_documents(opts.input == InputKind::Auto);
    let appending = match &resume {
        Some(Resume::File(f)) => Some((f.path.clone(), f.existing.clone(), f.keep)),
        _ => None,
    };
    let (source, abort) = match resume {
        Some(r) => {
            let (s, abort) = source.resuming(r);
            (s, Some(abort))
        }
        None => (source, None),
    };
    let mut sink: Box<dyn Sink + Send> = match (appending, &abort) {
        (Some((path, existing, keep)), Some(abort)) => {
            let format = opts.format;
            Box::new(sink::LazySink::new(
                Box::new(move || sink::open_appending(&path, existing.as_deref(), keep, format)),
                abort.clone(),
            ))
        }
        _ => sink::open_checked(dest, opts.format, &own)?,
    };
    let run_opts = RunOptions {
        // Only a WARC output copies the inputs.
        keep_inputs: opts.format == OutputFormat::Warc,
        ..RunOptions::default()
    };
    let mut stats = run(
        source,
        pool,
        run_opts,
        &|e: &Entry| clean_entry(cleaner, e, &opts),
        &mut *sink,
        observer,
    )?;
    stats.replaced = sink.replaced();
    if let Some(why) = abort.and_then(|a| a.lock().ok().and_then(|mut w| w.take())) {
        return Err(Error::document("--resume", why));
    }
    Ok((stats, stats.resumed))
}

#[cfg(test)]
mod tests;
