//! The lab's error type: the library's errors, and those only training and
//! evaluating meet (training data that trains nothing, gold directories).
//! The library's [`ncleaner::Error`] stays what a user who only cleans
//! meets.

use std::path::PathBuf;

/// Everything that can go wrong in the lab; each variant names its input.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// An error of the library (input, model, options, I/O), as it is.
    #[error(transparent)]
    Library(#[from] ncleaner::Error),
    /// Training data that cannot train a model.
    #[error("training data: {0}")]
    Training(String),
    /// Invalid parameters of an experiment (folds, grid, …).
    #[error("invalid parameter: {0}")]
    Parameter(String),
    /// A path that should be a directory but is a file or something else.
    #[error("{0}: not a directory")]
    NotADirectory(PathBuf),
    /// A gold directory without any `*.txt` file to score against.
    #[error("{0}: no gold files (*.txt) under this directory")]
    NoGoldFiles(PathBuf),
}

impl Error {
    /// Wraps an I/O error with the path it happened on (the library's
    /// [`ncleaner::Error::io`]).
    pub fn io(path: impl Into<PathBuf>, error: std::io::Error) -> Self {
        Error::Library(ncleaner::Error::io(path, error))
    }
}

/// The lab's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
