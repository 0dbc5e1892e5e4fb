//! Resuming an interrupted run (`clean --resume`): what the output already
//! holds, and which entries of the inputs it accounts for.
//!
//! A run writes its outcomes in input order, so an interrupted run's output
//! holds the records of a prefix of the inputs' entries. A resumed run reads
//! the same inputs again and matches them **by position**: its k-th entry
//! that makes a record (every entry but those skipped as no document,
//! save a JSON Lines or Parquet input's records: [`Entry::skip_has_record`]) is
//! the output's k-th record, whose `id` must be the entry's (else the inputs
//! changed, and the run stops before writing anything). So repeated ids (a
//! folder given twice, JSON Lines whose ids repeat) are each kept once.
//!
//! - A JSON Lines output file: its complete records are read; a torn last
//!   line (a run killed while writing, a full disk) is dropped, and its
//!   document done again. A compressed file is read member by member (gzip)
//!   or frame by frame (zstd): the output is written in members or frames
//!   that end at a record's end ([`crate::sink::MEMBER_BYTES`]), and a torn
//!   last one is dropped the same way. The file is cut where its complete
//!   records end and appended to.
//! - A Parquet output file: a run stopped by a signal closes it whole
//!   (footer and all) under its temporary name, so its rows are read back
//!   (the `id` column) and copied into a new file beside it, which takes
//!   the new rows and replaces it when closed. A file without its footer (a
//!   run killed outright) cannot be read: its documents are done again.
//! - A directory: each single document's output file is claimed in input
//!   order as the first run claimed it ([`Claims`]); a document is done
//!   when its file exists (files are written whole, then renamed).

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::OutputFormat;
use ncleaner::{Error, Result};

use crate::compress::Compression;
use crate::run::Outcome;
use crate::sink::{self, Claims, Destination};
use crate::{Container, Entry};

/// What a resumed run (`clean --resume`) continues.
#[derive(Debug, Clone)]
pub enum Resume {
    /// A JSON Lines or Parquet output file.
    File(FileResume),
    /// A directory output.
    Dir {
        /// The output directory.
        dir: PathBuf,
        /// The output files' extension.
        ext: &'static str,
    },
}

/// A JSON Lines or Parquet output file an interrupted run left.
#[derive(Debug, Clone)]
pub struct FileResume {
    /// The output file (its final name).
    pub path: PathBuf,
    /// The file the interrupted run left: under its temporary name
    /// ([`sink::partial_path`]) or, when there is none, the final one.
    pub existing: Option<PathBuf>,
    /// The bytes of `existing` that hold complete records (JSON Lines), or
    /// its rows (Parquet).
    pub keep: u64,
    /// The bytes after them, dropped (a torn record or member).
    pub dropped: u64,
    /// The hashes of the complete records' `id`s, in order.
    ids: Vec<u64>,
}

impl FileResume {
    /// How many complete records the file holds.
    pub fn records(&self) -> usize {
        self.ids.len()
    }

    /// What is dropped from the file, in words for the user; `None` when
    /// nothing is.
    pub fn torn_note(&self) -> Option<String> {
        (self.dropped > 0).then(|| {
            format!(
                "--resume: {} holds {} complete record(s); the {} byte(s) after them (torn by \
                 the interruption) are dropped, and their documents done again",
                self.existing.as_deref().unwrap_or(&self.path).display(),
                self.records(),
                self.dropped
            )
        })
    }
}

impl Resume {
    /// What to continue when resuming into `dest` in `format`: reads what
    /// an interrupted run left there. Fails when the output cannot be
    /// continued (a format other than JSON Lines or Parquet in one file, a
    /// file that is not this program's JSON Lines or Parquet).
    pub fn of(dest: &Destination, format: OutputFormat) -> Result<Resume> {
        match dest {
            Destination::File(path) if format == OutputFormat::Jsonl => {
                let partial = sink::partial_path(path);
                let existing = [partial, path.clone()].into_iter().find(|p| p.exists());
                let (keep, dropped, ids) = match &existing {
                    Some(p) => read_records(p, Compression::from_name(path))?,
                    None => (0, 0, Vec::new()),
                };
                Ok(Resume::File(FileResume {
                    path: path.clone(),
                    existing,
                    keep,
                    dropped,
                    ids,
                }))
            }
            Destination::File(path) if format == OutputFormat::Parquet => {
                let partial = sink::partial_path(path);
                let existing = [partial.clone(), path.clone()]
                    .into_iter()
                    .find(|p| p.exists());
                let (keep, dropped, ids) = match &existing {
                    Some(p) => read_rows(p, *p == partial)?,
                    None => (0, 0, Vec::new()),
                };
                Ok(Resume::File(FileResume {
                    path: path.clone(),
                    existing,
                    keep,
                    dropped,
                    ids,
                }))
            }
            Destination::Dir(dir) => Ok(Resume::Dir {
                dir: dir.clone(),
                ext: format.extension(),
            }),
            _ => Err(Error::Parameter(
                "--resume continues a JSON Lines output file (-o OUT.jsonl, optionally .gz or \
                 .zst), a Parquet output file (-o OUT.parquet) or an output directory (-o DIR/)"
                    .into(),
            )),
        }
    }

    /// Whether `--resume` continues an output to `dest` in `format`: a
    /// JSON Lines file (plain, gzip or zstd), a Parquet file, a directory.
    pub fn continues(dest: &Destination, format: OutputFormat) -> bool {
        match dest {
            Destination::File(path) => match format {
                OutputFormat::Jsonl => Compression::from_name(path) != Compression::Brotli,
                OutputFormat::Parquet => cfg!(feature = "parquet"),
                _ => false,
            },
            Destination::Dir(_) => true,
            Destination::Stdout => false,
        }
    }
}

/// The rows of a Parquet output file an interrupted run left: (rows, bytes
/// of the file when none can be read, their ids' hashes). A run stopped by
/// a signal closes the file whole; one killed outright leaves it without
/// the footer a Parquet file is read by, and then, under its temporary
/// name (`partial`), its rows are done again.
#[cfg(feature = "parquet")]
fn read_rows(path: &Path, partial: bool) -> Result<(u64, u64, Vec<u64>)> {
    use arrow_array::Array;
    use arrow_array::cast::AsArray;
    let io = |e| Error::io(path, e);
    let len = std::fs::metadata(path).map_err(io)?.len();
    let not_ours = |why: String| {
        Error::document(
            "--resume",
            format!(
                "{}: {why}; the file is not a Parquet output of this program, or was changed \
                 since: run without --resume to start again",
                path.display()
            ),
        )
    };
    let file = std::fs::File::open(path).map_err(io)?;
    let (schema, batches) = match crate::parquet::read::all_batches(file) {
        Ok(b) => b,
        Err(_) if partial => return Ok((0, len, Vec::new())),
        Err(why) => return Err(not_ours(format!("not readable as Parquet ({why})"))),
    };
    let ours = crate::parquet::schema();
    if schema.fields() != ours.fields() {
        return Err(not_ours("its columns are not those ncleaner writes".into()));
    }
    let id = ours.index_of("id").expect("an id column");
    let mut ids = Vec::new();
    for batch in batches {
        let batch = batch.map_err(|why| not_ours(format!("a row group cannot be read ({why})")))?;
        let column = batch.column(id).as_string::<i32>();
        for i in 0..column.len() {
            match column.is_valid(i) {
                true => ids.push(id_hash(column.value(i))),
                false => return Err(not_ours(format!("row {} has no id", ids.len() + 1))),
            }
        }
    }
    Ok((ids.len() as u64, 0, ids))
}

#[cfg(not(feature = "parquet"))]
fn read_rows(_: &Path, _: bool) -> Result<(u64, u64, Vec<u64>)> {
    Err(Error::Parameter(
        "Parquet output: this ncleaner was built without Parquet support (the default feature `parquet`)".into(),
    ))
}

/// The hash of an `id` that records are matched by (FNV-1a, 64 bits:
/// stable across runs and builds).
fn id_hash(id: &str) -> u64 {
    id.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The complete records of a JSON Lines output file: (bytes that hold
/// them, bytes after them, their ids' hashes).
fn read_records(path: &Path, compression: Compression) -> Result<(u64, u64, Vec<u64>)> {
    let io = |e| Error::io(path, e);
    let len = std::fs::metadata(path).map_err(io)?.len();
    let file = std::fs::File::open(path).map_err(io)?;
    let mut reader = Counting {
        inner: BufReader::with_capacity(256 << 10, file),
        consumed: 0,
    };
    let mut ids = Vec::new();
    let mut line = 1usize;
    let keep = match compression {
        Compression::None => Lines::new(path, &mut line)
            .read(&mut reader, &mut ids)
            .map_err(io)?,
        Compression::Gzip | Compression::Zstd => {
            // Member by member (frame by frame): a member counts when it
            // decodes whole and ends at a record's end.
            let mut keep = 0u64;
            loop {
                let start = reader.consumed;
                if reader.fill_buf().map_err(io)?.is_empty() {
                    break;
                }
                let mut member_ids = Vec::new();
                let mut member_line = line;
                let ok = {
                    let mut lines = Lines::new(path, &mut member_line);
                    let decoded: std::io::Result<u64> = match compression {
                        Compression::Gzip => {
                            let mut d = flate2::bufread::GzDecoder::new(&mut reader);
                            lines.read(&mut d, &mut member_ids)
                        }
                        _ => match zstd::stream::read::Decoder::with_buffer(&mut reader) {
                            Ok(d) => {
                                let mut d = d.single_frame();
                                lines.read(&mut d, &mut member_ids)
                            }
                            Err(e) => Err(e),
                        },
                    };
                    match decoded {
                        // Whole, and its last record complete.
                        Ok(_) if lines.pending == 0 => Ok(true),
                        Ok(_) => Ok(false),
                        Err(e) if is_torn(&e) => Ok(false),
                        Err(e) => Err(e),
                    }
                };
                match ok {
                    Ok(true) => {
                        keep = reader.consumed;
                        ids.extend(member_ids);
                        line = member_line;
                    }
                    Ok(false) => {
                        keep = start;
                        break;
                    }
                    Err(e) => return Err(record_error(path, line, e.to_string())),
                }
            }
            keep
        }
        Compression::Brotli => {
            return Err(Error::document(
                "--resume",
                format!(
                    "{} is brotli-compressed, which is not written (.br is read only)",
                    path.display()
                ),
            ));
        }
    };
    Ok((keep, len - keep.min(len), ids))
}

/// Whether an error of a compressed stream is the stream's end cut short or
/// damaged (what a killed run leaves), rather than a failing disk.
fn is_torn(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::UnexpectedEof
            | std::io::ErrorKind::InvalidData
            | std::io::ErrorKind::Other
    )
}

fn record_error(path: &Path, line: usize, why: String) -> Error {
    Error::document(
        "--resume",
        format!(
            "{} (record {line}): {why}; the file is not a JSON Lines output of this program, \
             or was changed since: run without --resume to start again",
            path.display()
        ),
    )
}

/// Reads the JSON records of a stream line by line.
struct Lines<'a> {
    path: &'a Path,
    /// The number of the next record (from 1).
    line: &'a mut usize,
    /// Bytes after the last newline (a record not yet complete).
    pending: usize,
}

impl<'a> Lines<'a> {
    fn new(path: &'a Path, line: &'a mut usize) -> Lines<'a> {
        Lines {
            path,
            line,
            pending: 0,
        }
    }

    /// Reads records from `r` until its end, pushing their ids' hashes;
    /// returns the bytes up to the end of the last complete one. A record
    /// that is complete but not a record of this program is an error
    /// (`InvalidInput`, not torn); the bytes after the last newline are
    /// `pending`.
    fn read(&mut self, r: &mut dyn Read, ids: &mut Vec<u64>) -> std::io::Result<u64> {
        let mut r = BufReader::with_capacity(256 << 10, r);
        let mut buf = Vec::new();
        let mut complete = 0u64;
        loop {
            buf.clear();
            let n = r.read_until(b'\n', &mut buf)?;
            if n == 0 {
                return Ok(complete);
            }
            if buf.last() != Some(&b'\n') {
                self.pending = n;
                return Ok(complete);
            }
            let id = serde_json::from_slice::<serde_json::Value>(&buf)
                .ok()
                .and_then(|v| v.get("id").and_then(|i| i.as_str()).map(id_hash));
            match id {
                Some(h) => ids.push(h),
                None => {
                    return Err(std::io::Error::new(
                        std::io::ErrorKind::InvalidInput,
                        record_error(self.path, *self.line, "not a record with an \"id\"".into())
                            .to_string(),
                    ));
                }
            }
            *self.line += 1;
            complete += n as u64;
        }
    }
}

/// A reader that counts the bytes consumed.
struct Counting<R> {
    inner: R,
    consumed: u64,
}

impl<R: BufRead> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let avail = self.fill_buf()?;
        let n = avail.len().min(buf.len());
        buf[..n].copy_from_slice(&avail[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Counting<R> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        self.inner.fill_buf()
    }
    fn consume(&mut self, n: usize) {
        self.consumed += n as u64;
        self.inner.consume(n);
    }
}

/// A resumed run's place in the inputs, kept by the source as it reads.
pub(crate) struct Resuming {
    resume: Resume,
    /// The next record of the output to match (file outputs).
    next: usize,
    /// The paths claimed so far (directory outputs).
    claims: Option<Claims>,
    /// Why the inputs do not match the output, once found: the source then
    /// stops, and the output is left as it was.
    pub(crate) error: Arc<Mutex<Option<String>>>,
}

impl Resuming {
    pub(crate) fn new(resume: Resume) -> Resuming {
        let claims = match &resume {
            Resume::Dir { dir, ext } => Some(Claims::new(dir, ext)),
            Resume::File(_) => None,
        };
        Resuming {
            resume,
            next: 0,
            claims,
            error: Default::default(),
        }
    }

    /// Whether entry `e` (its early outcome known) is already in the
    /// output; an error when the output's record at its place is another's.
    pub(crate) fn done(&mut self, e: &Entry) -> std::result::Result<bool, String> {
        // A skipped entry has a record in a file output (JSON Lines,
        // Parquet) when its input's records are all meant as documents.
        let file = matches!(self.resume, Resume::File(_));
        if matches!(e.early, Some(Outcome::Skipped(_))) && !(file && e.skip_has_record()) {
            return Ok(false);
        }
        match &self.resume {
            Resume::File(f) => {
                let Some(&want) = f.ids.get(self.next) else {
                    return Ok(false);
                };
                if want != id_hash(&e.id) {
                    return Err(format!(
                        "record {} of {} is not the inputs' document {} ({}): the inputs \
                         are not those of the interrupted run, or not in the same order; give the \
                         same inputs, or run without --resume to start again",
                        self.next + 1,
                        f.existing.as_deref().unwrap_or(&f.path).display(),
                        self.next + 1,
                        e.id
                    ));
                }
                self.next += 1;
                Ok(true)
            }
            Resume::Dir { .. } => {
                if e.input.container != Container::Document {
                    return Ok(false);
                }
                // A file: a folder in its place (the user's) is no output.
                let claims = self.claims.as_mut().expect("a directory's claims");
                Ok(claims.claim(&e.input).is_file())
            }
        }
    }

    /// Records of the output not matched by the inputs: the inputs ended
    /// before the output's records did (file outputs).
    pub(crate) fn unmatched(&self) -> usize {
        match &self.resume {
            Resume::File(f) => f.ids.len().saturating_sub(self.next),
            Resume::Dir { .. } => 0,
        }
    }
}
