//! Where documents come from and where they go: files, directories, stdin.

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// One input document's origin.
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
}

impl Origin {
    /// A name for messages and JSON `id`s.
    pub fn name(&self) -> String {
        match self {
            Origin::File { path, .. } => path.display().to_string(),
            Origin::Stdin => "-".to_string(),
        }
    }

    /// Reads the document's bytes.
    pub fn read(&self) -> Result<Vec<u8>> {
        match self {
            Origin::File { path, .. } => std::fs::read(path).map_err(|e| Error::io(path, e)),
            Origin::Stdin => {
                let mut buf = Vec::new();
                std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut buf)
                    .map_err(|e| Error::io("-", e))?;
                Ok(buf)
            }
        }
    }

    /// The output file for this document under `outdir`, with `ext`
    /// replacing the input's extension (`IN/REL/NAME.html` → `OUT/REL/NAME.txt`).
    pub fn output_path(&self, outdir: &Path, ext: &str) -> PathBuf {
        match self {
            Origin::File { rel, .. } => outdir.join(rel).with_extension(ext),
            Origin::Stdin => outdir.join("stdin").with_extension(ext),
        }
    }
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
