//! One run per output: a run holds an exclusive lock on its output from
//! before it reads what an interrupted run left (`--resume`) until its
//! output is renamed to its final name, so that a second run on the same
//! output is refused, naming the first, instead of sharing its temporary
//! file.
//!
//! The lock is an advisory lock of the operating system (`flock` on Unix,
//! `LockFileEx` on Windows, through std's [`File::try_lock`]) on a small
//! file beside the output ([`lock_path`]) that holds the holder's process
//! id. The kernel releases the lock when its process ends, however it ends:
//! a run killed outright leaves the file, but not the lock, and the next
//! run takes it. A run that ends removes the file while it still holds the
//! lock; one that opened it just before checks, once it holds the lock,
//! that the path still names the file it locked, and opens it afresh if
//! not.

use std::fs::File;
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};

use ncleaner::{Error, Result};

use crate::sink::Destination;

/// The lock file of an output: `DIR/.NAME.lock` beside an output file,
/// `DIR/.ncleaner.lock` inside an output directory (hidden, so that a walk
/// of the folder leaves it out); none for standard output.
pub fn lock_path(dest: &Destination) -> Option<PathBuf> {
    match dest {
        Destination::Stdout => None,
        Destination::File(path) => Some(crate::sink::hidden_beside(path, ".lock")),
        Destination::Dir(dir) => Some(dir.join(".ncleaner.lock")),
    }
}

/// The lock of one output, held until dropped (then its file is removed).
#[derive(Debug)]
pub struct OutputLock {
    path: PathBuf,
    file: File,
}

impl OutputLock {
    /// Takes the lock of `dest`'s output; `None` for standard output, and
    /// where the file system has no locks. Fails, naming the other run by
    /// its process id, when another run holds it.
    pub fn acquire(dest: &Destination) -> Result<Option<OutputLock>> {
        let Some(path) = lock_path(dest) else {
            return Ok(None);
        };
        let output = match dest {
            Destination::File(p) | Destination::Dir(p) => p.display().to_string(),
            Destination::Stdout => "-".into(),
        };
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
        }
        let io = |e| Error::io(&path, e);
        // A run ending removes the file: a few tries find the one in place.
        for _ in 0..16 {
            let mut file = std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&path)
                .map_err(io)?;
            match file.try_lock() {
                Ok(()) => {}
                Err(std::fs::TryLockError::WouldBlock) => {
                    let holder = holder(&file);
                    return Err(Error::document(
                        format!("-o {output}"),
                        format!(
                            "another ncleaner run ({holder}) is writing this output (it holds \
                             the lock {}); wait for it to end, or write to another output",
                            path.display()
                        ),
                    ));
                }
                Err(std::fs::TryLockError::Error(e))
                    if e.kind() == std::io::ErrorKind::Unsupported =>
                {
                    return Ok(None);
                }
                Err(std::fs::TryLockError::Error(e)) => return Err(io(e)),
            }
            if !same_file(&file, &path) {
                continue;
            }
            file.set_len(0).map_err(io)?;
            file.rewind().map_err(io)?;
            writeln!(file, "pid {}", std::process::id()).map_err(io)?;
            file.flush().map_err(io)?;
            return Ok(Some(OutputLock { path, file }));
        }
        Err(Error::document(
            format!("-o {output}"),
            format!(
                "the lock {} keeps being replaced by other runs",
                path.display()
            ),
        ))
    }

    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for OutputLock {
    fn drop(&mut self) {
        // Removed while held: a run waiting on this file finds it gone.
        let _ = std::fs::remove_file(&self.path);
        let _ = self.file.unlock();
    }
}

/// The holder a lock file names, in words: `pid N`, or a run that has not
/// written its id yet.
fn holder(file: &File) -> String {
    let mut s = String::new();
    let _ = file.take(64).read_to_string(&mut s);
    match s.trim().strip_prefix("pid ") {
        Some(pid) if !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit()) => {
            format!("pid {pid}")
        }
        _ => "its process id not yet written".into(),
    }
}

/// Whether `path` still names the open `file` (it was not removed and
/// replaced since it was opened).
fn same_file(file: &File, path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (file.metadata(), std::fs::metadata(path)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = file;
        path.exists()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_is_refused_naming_the_first() {
        let dir = tempfile::tempdir().unwrap();
        let dest = Destination::File(dir.path().join("out.jsonl"));
        let first = OutputLock::acquire(&dest).unwrap().expect("a lock");
        assert_eq!(first.path(), dir.path().join(".out.jsonl.lock"));
        let second = OutputLock::acquire(&dest).unwrap_err().to_string();
        assert!(
            second.contains(&format!("pid {}", std::process::id())),
            "{second}"
        );
        drop(first);
        assert!(!dir.path().join(".out.jsonl.lock").exists());
        let third = OutputLock::acquire(&dest).unwrap();
        assert!(third.is_some());
        assert!(OutputLock::acquire(&Destination::Stdout).unwrap().is_none());
    }

    #[test]
    fn a_stale_lock_file_is_taken() {
        let dir = tempfile::tempdir().unwrap();
        let dest = Destination::Dir(dir.path().join("out"));
        std::fs::create_dir(dir.path().join("out")).unwrap();
        std::fs::write(dir.path().join("out/.ncleaner.lock"), "pid 1\n").unwrap();
        let lock = OutputLock::acquire(&dest).unwrap().expect("a lock");
        let held = std::fs::read_to_string(lock.path()).unwrap();
        assert_eq!(held, format!("pid {}\n", std::process::id()));
    }
}
