//! Command-line inputs: files, directories (walked recursively) and stdin.

use std::io::Read;
use std::path::{Path, PathBuf};

use ncleaner::error::{Error, Result};

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
            Origin::File { path, .. } => path.display().to_string(),
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
        let too_large = |n: u64| Error::TooLarge {
            input: self.name(),
            size: n,
            max,
        };
        match self {
            Origin::File { path, .. } => {
                let file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
                let len = file.metadata().map(|m| m.len()).unwrap_or(0);
                if len > max {
                    return Err(too_large(len));
                }
                read_to_limit(file, max, len as usize)
                    .map_err(|e| Error::io(path, e))?
                    .ok_or_else(|| too_large(max.saturating_add(1)))
            }
            Origin::Stdin => read_to_limit(std::io::stdin().lock(), max, 0)
                .map_err(|e| Error::io("-", e))?
                .ok_or_else(|| too_large(max.saturating_add(1))),
            Origin::Memory { bytes, .. } if bytes.len() as u64 > max => {
                Err(too_large(bytes.len() as u64))
            }
            Origin::Memory { bytes, .. } => Ok(bytes.to_vec()),
        }
    }

    /// The output file for this document under `outdir`, with `ext`
    /// replacing the input's extension (`IN/REL/NAME.html` → `OUT/REL/NAME.txt`).
    pub fn output_path(&self, outdir: &Path, ext: &str) -> PathBuf {
        match self {
            Origin::File { rel, .. } => outdir.join(rel).with_extension(ext),
            Origin::Stdin => outdir.join("stdin").with_extension(ext),
            // Only the last component: a name is not trusted as a path.
            Origin::Memory { name, .. } => {
                let file = Path::new(name).file_name().unwrap_or("memory".as_ref());
                outdir.join(file).with_extension(ext)
            }
        }
    }
}

/// Reads at most `max` bytes; `None` when the reader holds more.
fn read_to_limit(r: impl Read, max: u64, hint: usize) -> std::io::Result<Option<Vec<u8>>> {
    let mut buf = Vec::with_capacity(hint.min(64 << 20));
    r.take(max.saturating_add(1)).read_to_end(&mut buf)?;
    Ok((buf.len() as u64 <= max).then_some(buf))
}

/// Expands command-line inputs: files as given, directories recursively
/// (sorted, hidden files skipped), `-` for standard input.
pub fn expand(inputs: &[PathBuf]) -> Result<Vec<Origin>> {
    let mut out = Vec::new();
    for input in inputs {
        if input.as_os_str() == "-" {
            out.push(Origin::Stdin);
            continue;
        }
        let meta = std::fs::metadata(input).map_err(|e| Error::io(input, e))?;
        if meta.is_dir() {
            for path in walk(input)? {
                let rel = path.strip_prefix(input).unwrap_or(&path).to_path_buf();
                out.push(Origin::File { path, rel });
            }
        } else {
            let rel = PathBuf::from(input.file_name().unwrap_or(input.as_os_str()));
            out.push(Origin::File {
                path: input.clone(),
                rel,
            });
        }
    }
    Ok(out)
}

/// All regular files under `dir` (recursively, hidden files skipped), sorted.
pub fn walk(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries = std::fs::read_dir(&d).map_err(|e| Error::io(&d, e))?;
        for entry in entries {
            let entry = entry.map_err(|e| Error::io(&d, e))?;
            let path = entry.path();
            if entry.file_name().to_string_lossy().starts_with('.') {
                continue;
            }
            let ft = entry.file_type().map_err(|e| Error::io(&path, e))?;
            if ft.is_dir() || (ft.is_symlink() && path.is_dir()) {
                stack.push(path);
            } else {
                out.push(path);
            }
        }
    }
    out.sort();
    Ok(out)
}
