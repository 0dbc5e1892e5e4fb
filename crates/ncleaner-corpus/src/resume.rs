//! Resuming an interrupted run (`clean --resume`): what the output already
//! holds, and which entries of the inputs it accounts for.

use std::path::PathBuf;

use ncleaner::error::{Error, Result};
use ncleaner::format::Format;

use crate::sink::{self, Destination};
use crate::{Container, Entry};

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

    pub(crate) fn done(&self, e: &Entry) -> bool {
        match self {
            Resume::Ids(ids) => ids.contains(&e.id),
            Resume::Dir { dir, ext } => {
                e.input.container == Container::Document && e.input.output_path(dir, ext).exists()
            }
        }
    }
}
