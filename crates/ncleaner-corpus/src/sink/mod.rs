//! Where results go: standard output, one file (compressed by its name), or
//! a directory mirroring the inputs; in any of the output formats, WARC
//! included.
//!
//! - One stream ([`StreamSink`]): every document's rendering, in input
//!   order. In JSON Lines a failed document is a line of its own,
//!   `{"id":…,"url":…,"error":…}`, so that the output has exactly one line
//!   per input document; so is a record of a JSON Lines or Parquet input
//!   skipped as no document, `{"id":…,"url":…,"skipped":…}`
//!   ([`Entry::skip_has_record`]).
//! - WARC ([`WarcSink`]): every WARC record of the input passes through
//!   unchanged, each cleaned response followed by its `conversion` record;
//!   a document that was not in a WARC file becomes a `resource` record
//!   followed by its conversion. Records that could not be read (truncated,
//!   lying about their length) are not written: their bytes are not a record.
//! - A directory ([`DirSink`]): a single-document input `IN/REL/NAME.ext`
//!   goes to `OUT/REL/NAME.txt` (the format's extension); a WARC or JSON
//!   Lines input to one file `OUT/REL/STEM.EXT` with the input's compression
//!   (`crawl/a.warc.gz` → `OUT/crawl/a.jsonl.gz`).
//!
//! An output file is written under a temporary name beside it
//! ([`partial_path`]) and renamed when the run is complete; a run stopped
//! by a signal leaves it under the temporary name
//! ([`Sink::finish_incomplete`]), where `clean --resume` continues it. A
//! compressed output is written in gzip members or zstd frames of about
//! [`MEMBER_BYTES`] each, every one ending at a record's end, so that a
//! file cut short by a killed run decodes up to its last whole member.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::Entry;
use super::compress::{self, Compression, Output};
use super::run::{Outcome, Sink, Written};
use crate::OutputFormat;
use ncleaner::{Error, Result};

mod dir;
mod stream;

pub use dir::{Claims, DirSink};
use stream::stream_or_warc;
pub use stream::{StreamSink, WarcSink, json_error_line, json_skipped_line};

/// Where the output of a run goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Destination {
    /// Standard output.
    Stdout,
    /// One file; `.gz` or `.zst` at the end of its name compresses it.
    File(PathBuf),
    /// A directory mirroring the inputs.
    Dir(PathBuf),
}

/// File-name endings that make `-o` one output file rather than a directory.
const FILE_SUFFIXES: &[&str] = &[
    ".jsonl", ".ndjson", ".json", ".txt", ".md", ".warc", ".parquet", ".gz", ".zst",
];

impl Destination {
    /// The destination `-o PATH` means: `-` is standard output; an existing
    /// directory, a name without one of the output suffixes (`.jsonl`,
    /// `.txt`, `.md`, `.warc`, `.parquet`, `.gz`, `.zst`, …), or one that
    /// ends in `/`, is a directory; otherwise one file. A file named through a symbolic link is the
    /// link's target ([`through_links`]): the output is written there, and
    /// the link stays a link.
    pub fn from_arg(path: Option<&Path>) -> Destination {
        let Some(p) = path else {
            return Destination::Stdout;
        };
        if p.as_os_str() == "-" {
            return Destination::Stdout;
        }
        if p.is_dir() {
            return Destination::Dir(p.to_path_buf());
        }
        if names_a_file(p) {
            Destination::File(through_links(p))
        } else {
            Destination::Dir(p.to_path_buf())
        }
    }
}

/// Whether `-o PATH` names a file by its extension (`.jsonl`, `.txt`, …,
/// [`FILE_SUFFIXES`]), and no folder by a final `/`.
pub fn names_a_file(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    let slash = path
        .as_os_str()
        .as_encoded_bytes()
        .last()
        .is_some_and(|&b| std::path::is_separator(b as char));
    !slash && FILE_SUFFIXES.iter().any(|s| name.ends_with(s))
}

/// `path` with the symbolic links of its last component followed, to a
/// target that need not exist yet (at most 40 links, as the kernel
/// follows): an output file is written under a temporary name and renamed
/// over its final one, which would replace a link rather than write its
/// target.
pub fn through_links(path: &Path) -> PathBuf {
    let mut p = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::read_link(&p) {
            Ok(target) if target.is_absolute() => p = target,
            Ok(target) => p = p.parent().unwrap_or(Path::new("")).join(target),
            Err(_) => break,
        }
    }
    p
}

impl Destination {
    /// Where a run stopped by a signal left its output in `format`, in
    /// words for the user, and what `--resume` can do with it: an output
    /// file stays under its temporary name ([`Sink::finish_incomplete`]);
    /// `None` for standard output.
    pub fn incomplete_note(&self, format: OutputFormat) -> Option<String> {
        let (what, path) = match self {
            Destination::File(p) => ("the output so far is in", partial_path(p)),
            Destination::Dir(d) => ("the outputs so far are under", d.clone()),
            Destination::Stdout => return None,
        };
        let next = match crate::Resume::continues(self, format) {
            true => "the same command with --resume completes it".to_string(),
            false => format!(
                "--resume cannot continue a {} output file: run the command again, without \
                 --resume, to write it whole",
                format.as_str()
            ),
        };
        Some(format!(
            "{what} {} (an output file stays under its temporary name .NAME.partial: it is \
             incomplete); {next}",
            path.display()
        ))
    }

    /// The folders the output needs that do not exist, which the run makes
    /// ([`open_file`], the directory sink), in words for the user (`-o
    /// new/sub/out.jsonl` makes `new/sub`, `-o new/` makes `new`): a mistyped
    /// path shows before the run fills it. `None` when there are none.
    pub fn new_folders_note(&self) -> Option<String> {
        let (folder, output) = match self {
            Destination::Stdout => return None,
            Destination::File(f) => (f.parent()?, f),
            Destination::Dir(d) => (d.as_path(), d),
        };
        // The outermost folder that does not exist: the run makes it and
        // those under it.
        let first = folder
            .ancestors()
            .take_while(|a| !a.as_os_str().is_empty() && !a.exists())
            .last()?;
        Some(if first == folder {
            format!(
                "making the folder {} for -o {}",
                folder.display(),
                output.display()
            )
        } else {
            format!(
                "making the folders {} (from {}) for -o {}",
                folder.display(),
                first.display(),
                output.display()
            )
        })
    }
}

/// The format an output file's name asks for: `.jsonl`/`.ndjson`/`.json`
/// → JSON Lines, `.warc` → WARC, `.md` → Markdown, `.txt` → text (each
/// optionally followed by `.gz`/`.zst`), `.parquet` → Parquet; other names
/// (directories, standard output) ask for nothing.
pub fn format_from_name(dest: &Destination) -> Option<OutputFormat> {
    let Destination::File(p) = dest else {
        return None;
    };
    let name = p.file_name()?.to_string_lossy().to_ascii_lowercase();
    let name = name
        .strip_suffix(".gz")
        .or_else(|| name.strip_suffix(".zst"))
        .unwrap_or(&name);
    if [".jsonl", ".ndjson", ".json"]
        .iter()
        .any(|s| name.ends_with(s))
    {
        Some(OutputFormat::Jsonl)
    } else if name.ends_with(".warc") {
        Some(OutputFormat::Warc)
    } else if name.ends_with(".md") {
        Some(OutputFormat::Markdown)
    } else if name.ends_with(".txt") {
        Some(OutputFormat::Text)
    } else if name.ends_with(".parquet") {
        Some(OutputFormat::Parquet)
    } else {
        None
    }
}

/// Opens the sink for `dest` in `format`.
pub fn open(dest: &Destination, format: OutputFormat) -> Result<Box<dyn Sink + Send>> {
    open_checked(dest, format, &crate::OwnOutput::default())
}

/// [`open`], a directory output refusing each output file that resolves
/// into one of the inputs `own` names ([`crate::OwnOutput::check_output_file`]).
pub fn open_checked(
    dest: &Destination,
    format: OutputFormat,
    own: &crate::OwnOutput,
) -> Result<Box<dyn Sink + Send>> {
    Ok(match dest {
        Destination::Stdout if format == OutputFormat::Parquet => parquet_stdout()?,
        Destination::Stdout => {
            let out = Output::new(Box::new(std::io::stdout()), Compression::None)
                .map_err(|e| Error::io("-", e))?;
            stream_or_warc(out, "-".into(), format, false, None)
        }
        Destination::File(path) => open_file(path, format)?,
        Destination::Dir(dir) => Box::new(DirSink::new(dir, format, own)),
    })
}

/// Opens one output file in `format`, compressed as its name says. A file
/// already there is replaced when the new one is complete, and the sink
/// says so ([`Sink::replaced`]).
pub fn open_file(path: &Path, format: OutputFormat) -> Result<Box<dyn Sink + Send>> {
    let there = std::fs::symlink_metadata(path).is_ok();
    let sink = open_new_file(path, format)?;
    Ok(match there {
        true => Box::new(Replacing {
            sink,
            complete: false,
        }),
        false => sink,
    })
}

/// The sink of an output file that replaces one that was there.
struct Replacing {
    sink: Box<dyn Sink + Send>,
    /// Finished whole: renamed over the old file.
    complete: bool,
}

impl Sink for Replacing {
    fn write(&mut self, entry: &Entry, outcome: &Outcome) -> Result<Written> {
        self.sink.write(entry, outcome)
    }

    fn finish(&mut self) -> Result<()> {
        self.sink.finish()?;
        self.complete = true;
        Ok(())
    }

    fn finish_incomplete(&mut self) -> Result<()> {
        self.sink.finish_incomplete()
    }

    fn replaced(&self) -> u64 {
        u64::from(self.complete)
    }
}

/// [`open_file`] without a look at what is there.
fn open_new_file(path: &Path, format: OutputFormat) -> Result<Box<dyn Sink + Send>> {
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
    }
    let compression = Compression::from_name(path);
    let name = path.display().to_string();
    if format == OutputFormat::Parquet {
        if compression != Compression::None {
            return Err(Error::Parameter(format!(
                "{name}: Parquet output compresses its columns itself (zstd); name the file .parquet"
            )));
        }
        return parquet_file(path);
    }
    // Written under a temporary name beside it and renamed when finished, so
    // that a file under the final name is always complete.
    let final_path = path;
    let tmp = partial_path(path);
    let path = tmp.as_path();
    let rename = Some((tmp.clone(), final_path.to_path_buf()));
    if format == OutputFormat::Warc {
        if compression == Compression::Zstd {
            return Err(Error::Parameter(format!(
                "{name}: WARC output is written as .warc or .warc.gz (gzip per record), not zstd"
            )));
        }
        // WARC files are gzipped record by record, not as one stream.
        let f = std::fs::File::create(path).map_err(|e| Error::io(path, e))?;
        let w: Box<dyn Write + Send> = Box::new(std::io::BufWriter::with_capacity(256 << 10, f));
        let out = Output::new(w, Compression::None).map_err(|e| Error::io(path, e))?;
        return Ok(stream_or_warc(
            out,
            name,
            format,
            compression == Compression::Gzip,
            rename,
        ));
    }
    let f = std::fs::File::create(path).map_err(|e| Error::io(path, e))?;
    let w: Box<dyn Write + Send> = Box::new(std::io::BufWriter::with_capacity(256 << 10, f));
    let out = Output::new(w, compression).map_err(|e| Error::io(final_path, e))?;
    Ok(stream_or_warc(out, name, format, false, rename))
}

/// Opens a Parquet output file (written under its temporary name and
/// renamed when finished, as the other outputs are; a run stopped before
/// its end closes it under its temporary name, readable).
#[cfg(feature = "parquet")]
fn parquet_file(path: &Path) -> Result<Box<dyn Sink + Send>> {
    let partial = partial_path(path);
    let names = crate::parquet::write::Names {
        tmp: partial.clone(),
        fin: path.to_path_buf(),
        partial,
    };
    let f = std::fs::File::create(&names.tmp).map_err(|e| Error::io(&names.tmp, e))?;
    let w: Box<dyn Write + Send> = Box::new(std::io::BufWriter::with_capacity(1 << 20, f));
    Ok(Box::new(crate::parquet::ParquetSink::new(
        w,
        path.display().to_string(),
        Some(names),
    )?))
}

/// Opens a Parquet output file that continues the one an interrupted run
/// left (`existing`, its first `rows` rows kept): a new file beside it
/// ([`resuming_path`]) takes its rows and the new ones, and replaces it
/// when closed, so that its rows stay readable until then.
#[cfg(feature = "parquet")]
fn parquet_resumed(
    path: &Path,
    existing: Option<&Path>,
    rows: u64,
) -> Result<Box<dyn Sink + Send>> {
    use crate::parquet::write::Names;
    let partial = partial_path(path);
    // A complete output resumed goes to its temporary name first: an
    // output being written is never under its final name.
    if let Some(from) = existing.filter(|f| *f != partial.as_path()) {
        std::fs::rename(from, &partial).map_err(|e| Error::io(from, e))?;
    }
    let names = Names {
        tmp: resuming_path(path),
        fin: path.to_path_buf(),
        partial: partial.clone(),
    };
    let f = std::fs::File::create(&names.tmp).map_err(|e| Error::io(&names.tmp, e))?;
    let w: Box<dyn Write + Send> = Box::new(std::io::BufWriter::with_capacity(1 << 20, f));
    let mut sink = crate::parquet::ParquetSink::new(w, path.display().to_string(), Some(names))?;
    if rows > 0 {
        let bad = |why: String| Error::document(partial.display().to_string(), why);
        let f = std::fs::File::open(&partial).map_err(|e| Error::io(&partial, e))?;
        let (_, batches) = crate::parquet::read::all_batches(f).map_err(bad)?;
        let mut copied = 0u64;
        for b in batches {
            let b = b.map_err(bad)?;
            let n = (b.num_rows() as u64).min(rows - copied);
            sink.append_batch(&b.slice(0, n as usize))?;
            copied += n;
            if copied == rows {
                break;
            }
        }
        if copied < rows {
            return Err(bad(format!(
                "holds {copied} rows, not the {rows} read before"
            )));
        }
    }
    Ok(Box::new(sink))
}

#[cfg(not(feature = "parquet"))]
fn parquet_resumed(_: &Path, _: Option<&Path>, _: u64) -> Result<Box<dyn Sink + Send>> {
    parquet_stdout()
}

/// A Parquet stream to standard output.
#[cfg(feature = "parquet")]
fn parquet_stdout() -> Result<Box<dyn Sink + Send>> {
    let w: Box<dyn Write + Send> = Box::new(std::io::BufWriter::with_capacity(
        1 << 20,
        std::io::stdout(),
    ));
    Ok(Box::new(crate::parquet::ParquetSink::new(
        w,
        "-".into(),
        None,
    )?))
}

#[cfg(not(feature = "parquet"))]
fn parquet_file(_: &Path) -> Result<Box<dyn Sink + Send>> {
    parquet_stdout()
}

/// Without the `parquet` feature, Parquet output is refused.
#[cfg(not(feature = "parquet"))]
fn parquet_stdout() -> Result<Box<dyn Sink + Send>> {
    Err(Error::Parameter(
        "Parquet output: this ncleaner was built without Parquet support (the default feature `parquet`)".into(),
    ))
}

/// Opens a JSON Lines output file to append to (a resumed run): the file
/// the interrupted run left (`existing`: its temporary name, or the final
/// one) is moved to the temporary name, cut to its first `keep` bytes (its
/// complete records; a torn last record or member goes), appended to (a
/// compressed file gets new gzip members or zstd frames) and renamed to
/// the final name when finished. A Parquet output (`format`) keeps its
/// first `keep` rows in a new file that replaces it ([`resuming_path`]).
pub fn open_appending(
    path: &Path,
    existing: Option<&Path>,
    keep: u64,
    format: OutputFormat,
) -> Result<Box<dyn Sink + Send>> {
    if format == OutputFormat::Parquet {
        // `keep` counts rows: a Parquet file is not cut and appended to.
        return parquet_resumed(path, existing, keep);
    }
    let tmp = partial_path(path);
    if let Some(from) = existing.filter(|f| *f != tmp.as_path()) {
        std::fs::rename(from, &tmp).map_err(|e| Error::io(from, e))?;
    }
    let f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&tmp)
        .map_err(|e| Error::io(&tmp, e))?;
    f.set_len(keep).map_err(|e| Error::io(&tmp, e))?;
    let w: Box<dyn Write + Send> = Box::new(std::io::BufWriter::with_capacity(256 << 10, f));
    let out = Output::new(w, Compression::from_name(path)).map_err(|e| Error::io(path, e))?;
    Ok(stream_or_warc(
        out,
        path.display().to_string(),
        format,
        false,
        Some((tmp, path.to_path_buf())),
    ))
}

/// A sink opened at its first write of a new outcome (or at its finish):
/// a resumed run leaves the interrupted run's file untouched until it has
/// checked that the inputs are those the file was made from, and leaves
/// it so when they are not (`abort`, set by the source).
pub struct LazySink {
    open: Option<OpenSink>,
    inner: Option<Box<dyn Sink + Send>>,
    abort: std::sync::Arc<std::sync::Mutex<Option<String>>>,
}

/// What opens a [`LazySink`]'s sink.
pub type OpenSink = Box<dyn FnOnce() -> Result<Box<dyn Sink + Send>> + Send>;

impl LazySink {
    /// A sink that `open` opens when it is first needed, unless `abort` is set by then.
    pub fn new(
        open: OpenSink,
        abort: std::sync::Arc<std::sync::Mutex<Option<String>>>,
    ) -> LazySink {
        LazySink {
            open: Some(open),
            inner: None,
            abort,
        }
    }

    fn inner(&mut self) -> Result<&mut Box<dyn Sink + Send>> {
        if let Some(open) = self.open.take() {
            self.inner = Some(open()?);
        }
        Ok(self.inner.as_mut().expect("opened"))
    }

    fn aborted(&self) -> bool {
        self.abort.lock().map_or(true, |a| a.is_some())
    }
}

impl Sink for LazySink {
    fn write(&mut self, entry: &Entry, outcome: &Outcome) -> Result<Written> {
        match outcome {
            Outcome::Resumed if self.inner.is_none() => Ok(Written::Done),
            _ => self.inner()?.write(entry, outcome),
        }
    }

    fn finish(&mut self) -> Result<()> {
        if self.aborted() && self.inner.is_none() {
            return Ok(());
        }
        self.inner()?.finish()
    }

    fn finish_incomplete(&mut self) -> Result<()> {
        match &mut self.inner {
            Some(s) => s.finish_incomplete(),
            None => Ok(()),
        }
    }
}

/// The temporary name of an output file while it is written:
/// `DIR/.NAME.partial` (hidden, so that a walk of the folder skips it;
/// [`hidden_beside`] for a NAME near the file system's limit).
pub fn partial_path(path: &Path) -> PathBuf {
    hidden_beside(path, ".partial")
}

/// The temporary name of a Parquet output file written by a resumed run,
/// beside the one it continues: `DIR/.NAME.resuming.partial`.
pub fn resuming_path(path: &Path) -> PathBuf {
    hidden_beside(path, ".resuming.partial")
}

/// The longest file name the usual file systems take (ext4, XFS, btrfs,
/// ZFS, APFS): 255 bytes.
pub const NAME_MAX: usize = 255;

/// A hidden file beside `path`: `DIR/.NAME{suffix}`. An output may be
/// named up to the file system's limit ([`NAME_MAX`]: an input of 251
/// bytes gives one), where the dot and the suffix would pass it: NAME is
/// then cut to fit, at a character, and a hash of the whole name put after
/// it (`.NAME-CUT~0123456789abcdef.partial`), so that the name is always
/// one the file system takes and two long names still get two.
pub fn hidden_beside(path: &Path, suffix: &str) -> PathBuf {
    let name = path.file_name().unwrap_or_default();
    let bytes = name.as_encoded_bytes();
    if 1 + bytes.len() + suffix.len() <= NAME_MAX {
        let mut hidden = std::ffi::OsString::from(".");
        hidden.push(name);
        hidden.push(suffix);
        return path.with_file_name(hidden);
    }
    // FNV-1a: the same on every platform and release, as ids must be.
    let hash = bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    let tag = format!("~{hash:016x}");
    let room = NAME_MAX - 1 - suffix.len() - tag.len();
    let lossy = name.to_string_lossy();
    let mut cut = room.min(lossy.len());
    while !lossy.is_char_boundary(cut) {
        cut -= 1;
    }
    path.with_file_name(format!(".{}{tag}{suffix}", &lossy[..cut]))
}

/// Uncompressed bytes of output after which a compressed output file ends
/// its gzip member or zstd frame (at the end of a record) and starts
/// another: 1 MiB, where the compression lost to the fresh start is a
/// fraction of a percent.
pub const MEMBER_BYTES: usize = 1 << 20;

/// Renames a finished output from its temporary name to its final one.
fn rename_done(rename: Option<(PathBuf, PathBuf)>) -> Result<()> {
    match rename {
        Some((tmp, fin)) => std::fs::rename(&tmp, &fin).map_err(|e| Error::io(fin, e)),
        None => Ok(()),
    }
}

/// The compressed stream of a `.gz` output file, for tests and tools: the
/// decompressed bytes of `path`.
pub fn read_output(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let f = std::fs::File::open(path)?;
    let (mut r, _) = compress::sniffing_decoder(f)?;
    let mut v = Vec::new();
    r.read_to_end(&mut v)?;
    Ok(v)
}

#[cfg(test)]
mod tests;
