//! Outputs under a folder mirroring the inputs ([`DirSink`]), and the
//! claims that keep two inputs from writing one output ([`Claims`]).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::{open_file, partial_path};
use crate::run::{Outcome, Sink, Written};
use crate::{Container, Entry, Input, OutputFormat};
use ncleaner::{Error, Result};

/// Outputs under a directory; see the module documentation.
///
/// One document's output that cannot be written (its file cannot be made:
/// a name too long for the file system, a folder where the file goes, a
/// full disk) fails that document alone ([`Written::Failed`], naming the
/// output and why), and the run goes on; a container's output that cannot
/// be made or written fails each of its documents from there on, the
/// others' go on. Its temporary file is removed: a resumed run does that
/// output again.
pub struct DirSink {
    format: OutputFormat,
    /// The container being written, and its output: the sink, or why it
    /// cannot be written.
    current: Option<(Arc<Input>, Current)>,
    /// The output paths of this run so far.
    claims: Claims,
    /// The inputs no output file may resolve into.
    own: crate::OwnOutput,
    /// Output files written over files that were there ([`Sink::replaced`]).
    replaced: u64,
}

/// The output paths of a run into a directory, each claimed once, in input
/// order. Every single-document input that is not skipped claims one,
/// whether it is cleaned, fails or was written by the run a resumed run
/// continues, so that the paths depend on the inputs alone and a resumed
/// run finds each document's output where the first run put it.
#[derive(Debug, Clone)]
pub struct Claims {
    dir: PathBuf,
    ext: &'static str,
    taken: std::collections::HashSet<PathBuf>,
    /// The folders the claimed paths need (under `dir`): no output file
    /// may take one's name.
    folders: std::collections::HashSet<PathBuf>,
}

impl Claims {
    /// No path claimed yet under `dir`, for outputs ending in `ext`.
    pub fn new(dir: &Path, ext: &'static str) -> Claims {
        Claims {
            dir: dir.to_path_buf(),
            ext,
            taken: Default::default(),
            folders: Default::default(),
        }
    }

    /// Whether `path` can be claimed: not claimed, not a folder another
    /// claimed path needs, and under no claimed file (`in/sub.html` and
    /// `in/sub.txt/page.html` would give `OUT/sub.txt` and
    /// `OUT/sub.txt/page.txt`).
    fn free(&self, path: &Path) -> bool {
        !self.taken.contains(path)
            && !self.folders.contains(path)
            && !path
                .ancestors()
                .skip(1)
                .take_while(|a| a.starts_with(&self.dir) && *a != self.dir)
                .any(|a| self.taken.contains(a))
    }

    /// The output path of `input`, distinct from every other of this run.
    /// Two inputs that map to the same path (`a/page.html` and
    /// `b/page.html` given as two folders; `page.html` and `page.htm`) do
    /// not overwrite each other: the second keeps its input root
    /// (`OUT/b/page.txt`), or failing that its whole file name
    /// (`OUT/page.htm.txt`), or failing that gets a number (`OUT/page~2.txt`).
    /// A path is also taken when it would be a file where another's folder
    /// is, or a folder where another's file is ([`Claims::free`]).
    pub fn claim(&mut self, input: &Input) -> PathBuf {
        let ext = self.ext;
        let first = input.output_path(&self.dir, ext);
        let mut candidates = vec![first.clone()];
        if let crate::Origin::File { path, rel } = &input.origin {
            let root = path
                .ancestors()
                .nth(rel.components().count())
                .and_then(Path::file_name);
            if let Some(root) = root {
                let mut alt = input.clone();
                if let crate::Origin::File { rel: r, .. } = &mut alt.origin {
                    *r = Path::new(root).join(rel.as_path());
                }
                candidates.push(alt.output_path(&self.dir, ext));
            }
            if let Some(name) = first.file_name().and_then(|_| rel.file_name()) {
                let mut full = name.to_os_string();
                full.push(".");
                full.push(ext);
                candidates.push(first.with_file_name(full));
            }
        }
        let stem = first
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let suffix = first
            .file_name()
            .map(|n| n.to_string_lossy()[stem.len()..].to_string())
            .unwrap_or_default();
        // Numbered in its folder; past a thousand (its folder's name is a
        // claimed file's), numbered at the top of the output directory,
        // which no claimed file is above.
        let numbered = |i: usize| format!("{stem}~{i}{suffix}");
        let pick = candidates
            .into_iter()
            .chain((2..1000).map(|i| first.with_file_name(numbered(i))))
            .chain((2..).map(|i| self.dir.join(numbered(i))))
            .find(|p| self.free(p))
            .expect("an endless list has a free name");
        self.taken.insert(pick.clone());
        for a in pick.ancestors().skip(1) {
            if !a.starts_with(&self.dir) || a == self.dir || !self.folders.insert(a.to_path_buf()) {
                break;
            }
        }
        pick
    }
}

/// A container's output under a directory: its sink, or why it cannot be
/// written.
enum Current {
    Open(PathBuf, Box<dyn Sink + Send>),
    Failed(String),
}

/// The words of an output that could not be written, for the record of
/// each document it fails.
fn unwritable(e: &Error) -> String {
    format!("its output could not be written: {e}")
}

/// Removes what a failed output left under its temporary name (nothing
/// of it is complete; a resumed run writes it again).
fn discard_partial(path: &Path) {
    let _ = std::fs::remove_file(partial_path(path));
}

impl DirSink {
    /// Outputs under `dir` in `format`; `own` as [`super::open_checked`]
    /// takes it.
    pub(super) fn new(dir: &Path, format: OutputFormat, own: &crate::OwnOutput) -> DirSink {
        DirSink {
            claims: Claims::new(dir, format.extension()),
            format,
            current: None,
            own: own.clone(),
            replaced: 0,
        }
    }

    fn close_current(&mut self, complete: bool) -> Result<()> {
        match self.current.take() {
            Some((_, Current::Open(_, mut sink))) if complete => {
                sink.finish()?;
                self.replaced += sink.replaced();
                Ok(())
            }
            Some((_, Current::Open(_, mut sink))) => sink.finish_incomplete(),
            _ => Ok(()),
        }
    }

    /// Writes one document's own output file, whole; how many files it
    /// replaced ([`Sink::replaced`]: 1 when one of its name was there).
    fn write_one(&self, path: &Path, entry: &Entry, outcome: &Outcome) -> Result<u64> {
        let mut sink = open_file(path, self.format)?;
        if let Written::Failed(e) = sink.write(entry, outcome)? {
            return Err(e);
        }
        sink.finish()?;
        Ok(sink.replaced())
    }
}

impl Sink for DirSink {
    fn write(&mut self, entry: &Entry, outcome: &Outcome) -> Result<Written> {
        if entry.input.container == Container::Document {
            self.close_current(true)?;
            if matches!(outcome, Outcome::Skipped(_)) {
                return Ok(Written::Done);
            }
            let path = self.claims.claim(&entry.input);
            if let Outcome::Rendered(_) = outcome {
                // An output led into an input stops the run: the output
                // directory itself is wrong.
                self.own.check_output_file(&path)?;
                match self.write_one(&path, entry, outcome) {
                    Ok(replaced) => self.replaced += replaced,
                    Err(e) => {
                        discard_partial(&path);
                        return Ok(Written::Failed(Error::document(&entry.id, unwritable(&e))));
                    }
                }
            }
            return Ok(Written::Done);
        }
        let same = self
            .current
            .as_ref()
            .is_some_and(|(input, _)| Arc::ptr_eq(input, &entry.input));
        if !same {
            self.close_current(true)?;
            let path = self.claims.claim(&entry.input);
            self.own.check_output_file(&path)?;
            let current = match open_file(&path, self.format) {
                Ok(sink) => Current::Open(path, sink),
                Err(e) => {
                    discard_partial(&path);
                    Current::Failed(unwritable(&e))
                }
            };
            self.current = Some((entry.input.clone(), current));
        }
        let (_, current) = self.current.as_mut().expect("opened above");
        let failed = match current {
            Current::Open(path, sink) => match sink.write(entry, outcome) {
                Ok(written) => return Ok(written),
                Err(e) => {
                    discard_partial(path);
                    unwritable(&e)
                }
            },
            Current::Failed(why) => why.clone(),
        };
        *current = Current::Failed(failed.clone());
        Ok(match outcome {
            Outcome::Skipped(_) | Outcome::Resumed => Written::Done,
            _ => Written::Failed(Error::document(&entry.id, failed)),
        })
    }

    fn finish(&mut self) -> Result<()> {
        self.close_current(true)
    }

    fn finish_incomplete(&mut self) -> Result<()> {
        self.close_current(false)
    }

    fn replaced(&self) -> u64 {
        self.replaced
    }
}
