//! Command-line inputs: files, directories (walked recursively) and stdin.

use std::io::Read;
use std::path::{Path, PathBuf};

use ncleaner::{Error, Result};

/// One input's origin.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// A file; `rel` is its path relative to the directory argument it was
    /// found under (or its file name when given directly).
    File {
        /// The file.
        path: PathBuf,
        /// Where its output goes, relative to the output directory.
        rel: PathBuf,
    },
    /// Standard input.
    Stdin,
    /// Bytes already in memory (a library caller's buffer, a fuzz input),
    /// read like standard input: the container is sniffed from the bytes.
    Memory {
        /// A name for messages, `id`s and output paths.
        name: String,
        /// The bytes.
        bytes: std::sync::Arc<[u8]>,
    },
}

impl Origin {
    /// A name for messages and JSON `id`s.
    pub fn name(&self) -> String {
        match self {
            Origin::File { path, .. } => path_name(path),
            Origin::Stdin => "-".to_string(),
            Origin::Memory { name, .. } => name.clone(),
        }
    }

    /// Reads the document's bytes.
    pub fn read(&self) -> Result<Vec<u8>> {
        self.read_limited(u64::MAX)
    }

    /// Reads the document's bytes, failing (without reading them all) when
    /// there are more than `max` of them.
    pub fn read_limited(&self, max: u64) -> Result<Vec<u8>> {
        let too_large = |n: Option<u64>| over_limit(self.name(), n, max);
        match self {
            Origin::File { path, .. } => {
                let file = open_input(path).map_err(|e| Error::io(path, e))?;
                let len = file.metadata().map(|m| m.len()).unwrap_or(0);
                if len > max {
                    return Err(too_large(Some(len)));
                }
                read_to_limit(file, max, len as usize)
                    .map_err(|e| Error::io(path, e))?
                    .ok_or_else(|| too_large(None))
            }
            Origin::Stdin => read_to_limit(std::io::stdin().lock(), max, 0)
                .map_err(|e| Error::io("-", e))?
                .ok_or_else(|| too_large(None)),
            Origin::Memory { bytes, .. } if bytes.len() as u64 > max => {
                Err(too_large(Some(bytes.len() as u64)))
            }
            Origin::Memory { bytes, .. } => Ok(bytes.to_vec()),
        }
    }

    /// The output file for this document under `outdir`, with `ext`
    /// replacing the input's extension (`IN/REL/NAME.html` → `OUT/REL/NAME.txt`).
    pub fn output_path(&self, outdir: &Path, ext: &str) -> PathBuf {
        match self {
            // A compressed page's compression suffix goes too:
            // `a/b.html.gz` → `a/b.txt`, as `a/b.html` → `a/b.txt`.
            Origin::File { rel, .. } => {
                let rel = match rel.extension().and_then(|e| e.to_str()) {
                    Some(e)
                        if ["gz", "zst", "zstd", "br"]
                            .contains(&e.to_ascii_lowercase().as_str()) =>
                    {
                        rel.with_extension("")
                    }
                    _ => rel.clone(),
                };
                outdir.join(rel).with_extension(ext)
            }
            Origin::Stdin => outdir.join("stdin").with_extension(ext),
            // Only the last component: a name is not trusted as a path.
            Origin::Memory { name, .. } => {
                let file = Path::new(name).file_name().unwrap_or("memory".as_ref());
                outdir.join(file).with_extension(ext)
            }
        }
    }
}

/// Opens an input file to read it without ever waiting on it: a file
/// whose reads would wait (a kernel file such as `/proc/kmsg`, which a
/// link in a folder can lead to, looks like any other file) fails its
/// first read at once (`WouldBlock`, [`would_block`]) rather than stall
/// the whole run. A FIFO or a device named as an input (`<(cmd)`, which a
/// folder's walk never opens) is opened again, to be read as its writer
/// writes, as the user asked.
pub fn open_input(path: &Path) -> std::io::Result<std::fs::File> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
        let f = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(path)?;
        let ft = f.metadata()?.file_type();
        if ft.is_fifo() || ft.is_char_device() || ft.is_block_device() || ft.is_socket() {
            drop(f);
            return std::fs::File::open(path);
        }
        Ok(f)
    }
    #[cfg(not(unix))]
    std::fs::File::open(path)
}

/// The words for an input whose read would wait ([`open_input`]).
pub fn would_block(name: &str) -> Error {
    Error::document(
        name,
        "its reads would wait (a kernel or device file that looks like a file, not a \
         document); not read",
    )
}

/// A path as the text of ids and messages: as it is when it is UTF-8;
/// otherwise each byte that is not UTF-8 written `\xNN`, so that two
/// names that differ only in such bytes keep two ids (`Path::display`
/// makes both U+FFFD). A UTF-8 name that spells `\xNN` itself is not told
/// from a byte so written: escaping every backslash would change every
/// Windows path.
pub fn path_name(path: &Path) -> String {
    let bytes = path.as_os_str().as_encoded_bytes();
    if let Ok(s) = std::str::from_utf8(bytes) {
        return s.to_string();
    }
    let mut out = String::with_capacity(bytes.len() + 8);
    for chunk in bytes.utf8_chunks() {
        out.push_str(chunk.valid());
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02X}"));
        }
    }
    out
}

/// The bytes of one document file, decompressed when its own bytes say it
/// is gzip or zstd (`page.html.gz` as WCXB ships its pages); other files
/// are returned as they are. For the lab's training and test pools, which
/// read pages by path rather than through a [`crate::Source`].
pub fn read_document(path: &Path) -> Result<Vec<u8>> {
    let io = |e| Error::io(path, e);
    let file = std::fs::File::open(path).map_err(io)?;
    let (mut r, _) = crate::compress::sniffing_decoder(file).map_err(io)?;
    let mut out = Vec::new();
    r.read_to_end(&mut out).map_err(io)?;
    Ok(out)
}

/// The error of a document read past the limit of `max` bytes: its size
/// when its file says it (`on_disk`), else that it holds more than the
/// limit (a device such as `/dev/zero`, a pipe, standard input: a size
/// of 0, or none, is no size).
pub(crate) fn over_limit(name: String, on_disk: Option<u64>, max: u64) -> Error {
    match on_disk.filter(|&n| n > max) {
        Some(size) => Error::TooLarge {
            input: name,
            size,
            max,
        },
        None => Error::document(
            name,
            format!(
                "more than {max} bytes (read up to the limit of one document; its size is not \
                 known beforehand: a pipe, a device, standard input); not cleaned (a web page is \
                 far smaller: split a larger text into documents)"
            ),
        ),
    }
}

/// Reads at most `max` bytes; `None` when the reader holds more.
fn read_to_limit(r: impl Read, max: u64, hint: usize) -> std::io::Result<Option<Vec<u8>>> {
    let mut buf = Vec::with_capacity(hint.min(64 << 20));
    r.take(max.saturating_add(1)).read_to_end(&mut buf)?;
    Ok((buf.len() as u64 <= max).then_some(buf))
}

/// One thing a walk of the inputs finds.
#[derive(Debug)]
pub enum Found {
    /// An input to read.
    Origin(Origin),
    /// Something that cannot be read (an unreadable folder, a symlink loop,
    /// a broken link): reported as a failed entry.
    Problem {
        /// Where.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// Something that is not a document (a FIFO, a socket, a device found in
    /// a folder): skipped without being opened, counted with the reason.
    Skipped {
        /// Where.
        path: PathBuf,
        /// Why.
        reason: String,
    },
}

/// Walks command-line inputs lazily, in order: files as given (even
/// non-regular ones: `<(cmd)` is a FIFO the user asked for), directories
/// recursively ([`walkdir`], sorted by name, links followed), `-` for
/// standard input. A symlink loop is reported once, where the link is; an
/// unreadable folder is reported and the rest goes on; a FIFO, socket or
/// device inside a folder is skipped, never opened. A hidden file or
/// folder inside a folder (its name starts with a dot: `.git`, an editor's
/// backup) is skipped, not read, and reported as skipped, so that the
/// summary counts it.
pub fn walk_inputs(inputs: Vec<PathBuf>) -> impl Iterator<Item = Found> + Send + 'static {
    inputs
        .into_iter()
        .flat_map(|input| -> Box<dyn Iterator<Item = Found> + Send> {
            if input.as_os_str() == "-" {
                return Box::new(std::iter::once(Found::Origin(Origin::Stdin)));
            }
            match std::fs::metadata(&input) {
                // The reason alone: its record and message name the path.
                Err(e) => Box::new(std::iter::once(Found::Problem {
                    reason: e.to_string(),
                    path: input,
                })),
                Ok(m) if m.is_dir() => Box::new(walk_dir(input)),
                Ok(_) => {
                    let rel = PathBuf::from(input.file_name().unwrap_or(input.as_os_str()));
                    Box::new(std::iter::once(Found::Origin(Origin::File {
                        path: input,
                        rel,
                    })))
                }
            }
        })
}

/// The walk of one directory argument.
fn walk_dir(root: PathBuf) -> impl Iterator<Item = Found> + Send + 'static {
    let mut walker = walkdir::WalkDir::new(&root)
        .follow_links(true)
        .sort_by_file_name()
        .into_iter();
    let next = move || {
        let item = walker.next()?;
        if let Ok(e) = &item
            && e.depth() > 0
            && e.file_name().as_encoded_bytes().starts_with(b".")
        {
            if e.file_type().is_dir() {
                walker.skip_current_dir();
            }
            let reason = match e.file_type().is_dir() {
                true => "hidden folder (its name starts with a dot; not walked)",
                false => "hidden file (its name starts with a dot)",
            };
            return Some(Err(Found::Skipped {
                path: e.path().to_path_buf(),
                reason: reason.into(),
            }));
        }
        Some(Ok(item))
    };
    std::iter::from_fn(next).filter_map(move |item| match item {
        Err(found) => Some(found),
        Ok(item) => walk_item(&root, item),
    })
}

/// What one item of a folder's walk is.
fn walk_item(root: &Path, item: walkdir::Result<walkdir::DirEntry>) -> Option<Found> {
    match item {
        Ok(e) if e.file_type().is_dir() => None,
        Ok(e) if e.file_type().is_file() => {
            let path = e.into_path();
            let rel = path.strip_prefix(root).unwrap_or(&path).to_path_buf();
            Some(Found::Origin(Origin::File { path, rel }))
        }
        Ok(e) => Some(Found::Skipped {
            reason: format!("not a regular file: {}", file_type_name(&e.file_type())),
            path: e.into_path(),
        }),
        Err(e) => {
            let path = e
                .path()
                .map_or_else(|| root.to_path_buf(), Path::to_path_buf);
            let reason = match (e.loop_ancestor(), e.io_error()) {
                (Some(a), _) => format!(
                    "symbolic link loop (leads back to {}); not followed",
                    a.display()
                ),
                (None, Some(io)) if path != root => format!("{io}; skipped, the walk goes on"),
                (None, Some(io)) => io.to_string(),
                (None, None) => e.to_string(),
            };
            Some(Found::Problem { path, reason })
        }
    }
}

/// What kind of non-regular file this is, in words.
fn file_type_name(ft: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if ft.is_fifo() {
            return "FIFO";
        }
        if ft.is_socket() {
            return "socket";
        }
        if ft.is_block_device() {
            return "block device";
        }
        if ft.is_char_device() {
            return "character device";
        }
    }
    if ft.is_symlink() {
        return "symbolic link";
    }
    "special file"
}

/// Expands command-line inputs: files as given, directories recursively
/// (sorted, hidden files skipped), `-` for standard input. Fails on the first
/// thing that cannot be read; non-regular files inside folders are left out.
/// [`walk_inputs`] is the streaming, forgiving form.
pub fn expand(inputs: &[PathBuf]) -> Result<Vec<Origin>> {
    let mut out = Vec::new();
    for found in walk_inputs(inputs.to_vec()) {
        match found {
            Found::Origin(o) => out.push(o),
            Found::Problem { path, reason } => {
                return Err(Error::document(path.display().to_string(), reason));
            }
            Found::Skipped { .. } => {}
        }
    }
    Ok(out)
}

/// All regular files under `dir` (recursively, hidden files skipped), sorted.
pub fn walk(dir: &Path) -> Result<Vec<PathBuf>> {
    expand(&[dir.to_path_buf()]).map(|v| {
        v.into_iter()
            .filter_map(|o| match o {
                Origin::File { path, .. } => Some(path),
                _ => None,
            })
            .collect()
    })
}

/// What [`check_output`] found of a run's output and inputs: the run's
/// own output file (with its temporary and lock files), which its walk of
/// the inputs must not read or count, and the inputs, which no output file
/// of a directory output may resolve into ([`OwnOutput::check_output_file`]).
#[derive(Debug, Clone, Default)]
pub struct OwnOutput {
    paths: Vec<PathBuf>,
    /// The inputs' canonical paths, and whether each is a folder.
    inputs: std::sync::Arc<Vec<(PathBuf, bool)>>,
}

impl OwnOutput {
    /// Whether `found` is the run's own output (or its temporary or lock
    /// file).
    pub fn is(&self, found: &Found) -> bool {
        let path = match found {
            Found::Origin(Origin::File { path, .. }) => path,
            Found::Skipped { path, .. } => path,
            _ => return false,
        };
        // The name first: a canonical path costs a system call.
        self.paths.iter().any(|p| p.file_name() == path.file_name())
            && canonical(path).is_some_and(|c| self.paths.contains(&c))
    }

    /// Refuses to write the output file `out` of a directory output when,
    /// every component of its path resolved (a symbolic link inside the
    /// output directory included), it is an input or lies inside an input
    /// folder: it would replace an input, or be read back as one.
    pub fn check_output_file(&self, out: &Path) -> Result<()> {
        if self.inputs.is_empty() {
            return Ok(());
        }
        let Some(resolved) = canonical(out) else {
            return Ok(());
        };
        for (input, dir) in self.inputs.iter() {
            let inside = *dir && resolved.starts_with(input);
            if resolved == *input || inside {
                return Err(Error::document(
                    out.display().to_string(),
                    format!(
                        "refused: this output resolves (through a symbolic link) to {}, {} {}; \
                         writing it would {}; remove the link, or give an output directory \
                         outside the inputs",
                        resolved.display(),
                        if inside {
                            "inside the input folder"
                        } else {
                            "the input"
                        },
                        input.display(),
                        if inside {
                            "add to the inputs, or replace one"
                        } else {
                            "replace the input"
                        }
                    ),
                ));
            }
        }
        Ok(())
    }
}

/// `path` with its existing part made canonical (symbolic links and `..`
/// resolved) and the rest, which does not exist yet, appended.
pub(crate) fn canonical(path: &Path) -> Option<PathBuf> {
    let abs = std::path::absolute(path).ok()?;
    let mut missing = Vec::new();
    let mut at = abs.as_path();
    loop {
        if let Ok(c) = at.canonicalize() {
            return Some(missing.iter().rev().fold(c, |p: PathBuf, m| p.join(m)));
        }
        missing.push(at.file_name()?.to_os_string());
        at = at.parent()?;
    }
}

/// The same file: the same canonical path, or (hard links) the same device
/// and inode.
pub(crate) fn same_file(a: &Path, b: &Path) -> bool {
    if canonical(a).is_some_and(|x| canonical(b) == Some(x)) {
        return true;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(x), Ok(y)) = (std::fs::metadata(a), std::fs::metadata(b)) {
            return x.dev() == y.dev() && x.ino() == y.ino();
        }
    }
    false
}

/// Refuses, before any work, an output that would write over an input or
/// be read back as one, naming both paths: an output file that is an input
/// (or whose temporary file is), an output directory that is an input, lies
/// inside an input folder or holds an input, and `-o NAME` that names a
/// directory (no output format's extension) where a file of that name
/// exists. An output file inside an input folder is allowed: the walk
/// leaves it and its temporary and lock files out (the returned
/// [`OwnOutput`]), which also refuses each output file of a directory
/// output that resolves into an input through a link inside the output
/// directory, when the run comes to write it.
pub fn check_output(inputs: &[PathBuf], dest: &crate::Destination) -> Result<OwnOutput> {
    use crate::Destination;
    let inputs: Vec<&PathBuf> = inputs.iter().filter(|p| p.as_os_str() != "-").collect();
    let resolved = std::sync::Arc::new(
        inputs
            .iter()
            .filter_map(|i| canonical(i).map(|c| (c, i.is_dir())))
            .collect::<Vec<_>>(),
    );
    match dest {
        Destination::Stdout => Ok(OwnOutput::default()),
        Destination::File(out) => {
            // What is there must be a file to replace (or nothing): a FIFO
            // or a device would be replaced by the renamed output, and its
            // reader never see it.
            if let Ok(m) = std::fs::metadata(out)
                && !m.is_file()
            {
                return Err(Error::document(
                    format!("-o {}", out.display()),
                    format!(
                        "this is a {}, not a file: the output is written under a temporary name \
                         and renamed over it, which would replace it; to write into it, write to \
                         standard output and redirect it (ncleaner clean … > {})",
                        file_type_name(&m.file_type()),
                        out.display()
                    ),
                ));
            }
            let partial = crate::sink::partial_path(out);
            for input in &inputs {
                for o in [out, &partial] {
                    if same_file(input, o) {
                        return Err(Error::document(
                            format!("-o {}", out.display()),
                            format!(
                                "this is the input {} itself: writing it would replace the input; \
                                 write the output to another file",
                                input.display()
                            ),
                        ));
                    }
                }
            }
            let resuming = crate::sink::resuming_path(out);
            let lock = crate::lock::lock_path(dest).unwrap_or_default();
            Ok(OwnOutput {
                paths: [&**out, &*partial, &*resuming, &*lock]
                    .into_iter()
                    .filter_map(canonical)
                    .collect(),
                inputs: resolved,
            })
        }
        Destination::Dir(out) => {
            let refuse = |why: String| Err(Error::document(format!("-o {}", out.display()), why));
            let out_c = canonical(out);
            for input in &inputs {
                if same_file(input, out) {
                    return refuse(format!(
                        "this is the input {} itself: outputs would be written among the inputs \
                         (and over them); give an output directory outside the inputs",
                        input.display()
                    ));
                }
                let (Some(o), Some(i)) = (&out_c, canonical(input)) else {
                    continue;
                };
                if i.is_dir() && o.starts_with(&i) {
                    return refuse(format!(
                        "the output directory is inside the input folder {}: its outputs would be \
                         read back as inputs; give an output directory outside the inputs",
                        input.display()
                    ));
                }
                if i.starts_with(o) {
                    return refuse(format!(
                        "the input {} is inside the output directory: outputs could be written \
                         over inputs; give an output directory outside the inputs",
                        input.display()
                    ));
                }
            }
            if out.is_dir() && crate::sink::names_a_file(out) {
                return refuse(format!(
                    "a folder of that name exists, and the name says an output file (its \
                     extension): give another file name, or {}/ to write into the folder (one \
                     output file per input)",
                    out.display()
                ));
            }
            if out.exists() && !out.is_dir() {
                return refuse(
                    "a file of that name exists, and -o names a directory here (the name ends in \
                     no output format's extension); give a directory, or a file name ending in \
                     .txt, .jsonl, .md or .warc (optionally .gz or .zst), or .parquet"
                        .into(),
                );
            }
            Ok(OwnOutput {
                paths: Vec::new(),
                inputs: resolved,
            })
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn names(found: &[Found]) -> Vec<String> {
        found
            .iter()
            .map(|f| match f {
                Found::Origin(o) => format!("ok {}", o.name()),
                Found::Problem { path, .. } => format!("problem {}", path.display()),
                Found::Skipped { path, reason } => format!("skip {} {reason}", path.display()),
            })
            .collect()
    }

    #[test]
    fn loops_fifos_and_unreadable_folders() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::create_dir_all(d.join("a/b")).unwrap();
        std::fs::write(d.join("a/b/page.html"), "<p>x</p>").unwrap();
        std::fs::write(d.join("z.html"), "<p>z</p>").unwrap();
        // Two loops: one to the root, one to a parent.
        std::os::unix::fs::symlink(d, d.join("a/b/up")).unwrap();
        std::os::unix::fs::symlink(d.join("a"), d.join("a/b/again")).unwrap();
        let fifo = d.join("a/pipe");
        assert!(
            std::process::Command::new("mkfifo")
                .arg(&fifo)
                .status()
                .unwrap()
                .success()
        );
        std::fs::create_dir(d.join("locked")).unwrap();
        std::fs::write(d.join("locked/secret.html"), "<p>s</p>").unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(d.join("locked"), std::fs::Permissions::from_mode(0o000)).unwrap();
        let readable = std::fs::read_dir(d.join("locked")).is_ok(); // root reads anything
        let found: Vec<Found> = walk_inputs(vec![d.to_path_buf()]).collect();
        std::fs::set_permissions(d.join("locked"), std::fs::Permissions::from_mode(0o755)).unwrap();
        let n = names(&found);
        let count = |p: &str| n.iter().filter(|s| s.starts_with(p)).count();
        let root = d.display().to_string();
        assert!(n.contains(&format!("ok {root}/a/b/page.html")), "{n:?}");
        assert!(n.contains(&format!("ok {root}/z.html")), "{n:?}");
        assert_eq!(count(&format!("ok {root}/a/b/page.html")), 1, "{n:?}");
        assert_eq!(count("problem"), if readable { 2 } else { 3 }, "{n:?}");
        assert!(n.contains(&format!("problem {root}/a/b/up")), "{n:?}");
        assert!(n.contains(&format!("problem {root}/a/b/again")), "{n:?}");
        assert!(
            n.contains(&format!("skip {root}/a/pipe not a regular file: FIFO")),
            "{n:?}"
        );
        if !readable {
            assert!(n.contains(&format!("problem {root}/locked")), "{n:?}");
        }
    }
}

#[cfg(test)]
mod read_tests {
    use super::*;

    /// Issue 70: names that are not UTF-8 keep their bytes apart in ids.
    #[cfg(unix)]
    #[test]
    fn names_that_are_not_utf8_are_escaped() {
        use std::os::unix::ffi::OsStrExt;
        let name = |b: &[u8]| path_name(Path::new(std::ffi::OsStr::from_bytes(b)));
        assert_eq!(name(b"a/caf\xe9.html"), "a/caf\\xE9.html");
        assert_ne!(name(b"x\xe9"), name(b"x\xe8"));
        assert_eq!(name("日本.html".as_bytes()), "日本.html");
    }

    #[test]
    fn read_document_decompresses_by_content() {
        use std::io::Write;
        let dir = tempfile::tempdir().unwrap();
        let page = b"<p>A page that was gzipped by the gzip command.</p>";
        let mut gz = flate2::GzBuilder::new()
            .filename("page.html")
            .write(Vec::new(), flate2::Compression::default());
        gz.write_all(page).unwrap();
        let (plain, packed) = (dir.path().join("a.html"), dir.path().join("b.html.gz"));
        std::fs::write(&plain, page).unwrap();
        std::fs::write(&packed, gz.finish().unwrap()).unwrap();
        assert_eq!(read_document(&plain).unwrap(), page);
        assert_eq!(read_document(&packed).unwrap(), page);
        assert!(read_document(&dir.path().join("missing")).is_err());
    }
}
