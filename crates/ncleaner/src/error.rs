//! The library's error type.

use std::path::PathBuf;

/// Everything that can go wrong in the library; each variant names its input.
/// Non-exhaustive: a variant may be added (the `internals` feature adds one).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// An I/O error while reading or writing the named file.
    // The cause is part of the message and deliberately not a `#[source]`:
    // callers print error chains, which would repeat it.
    #[error("{path}: {error}")]
    Io {
        /// The file that could not be read or written.
        path: PathBuf,
        /// The underlying error.
        error: std::io::Error,
    },
    /// A model file that is not a valid ncleaner model.
    #[error("{what}: not a valid ncleaner model: {reason}")]
    BadModel {
        /// The model's name or path.
        what: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A request for an embedded model that does not exist.
    #[error("no embedded model named {0:?} (embedded models: en, en-nonlex, multi)")]
    UnknownModel(String),
    /// Training data that cannot train a model: the training functions
    /// (`model::train`, the word model's estimator) exist with the
    /// `internals` feature only, and so does this variant. The lab's own
    /// errors (gold directories, experiments) are `ncleaner_lab::error::Error`.
    #[cfg(feature = "internals")]
    #[error("training data: {0}")]
    Training(String),
    /// Invalid parameters (n, q, threshold, …).
    #[error("invalid parameter: {0}")]
    Parameter(String),
    /// A document (or a WARC record, or a JSON line) that cannot be read;
    /// `input` names it: a file, `FILE:LINE`, or `FILE@OFFSET` and its record id.
    #[error("{input}: {reason}")]
    Document {
        /// The document.
        input: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A document larger than the configured limit.
    #[error(
        "{input}: {size} bytes, more than the limit of {max} bytes per document; not cleaned \
         (a web page is far smaller: split a larger text into documents)"
    )]
    TooLarge {
        /// The document.
        input: String,
        /// Its size (or a lower bound of it).
        size: u64,
        /// The limit.
        max: u64,
    },
    /// A cleaning option that is not valid, alone or with the others
    /// ([`OptionError`]; `crate::options::CleanOptions::validate`).
    #[error("{0}")]
    Option(#[from] OptionError),
    /// Cleaning panicked on a document: a bug, reported instead of losing the document.
    #[error("{input}: internal error while cleaning (please report): {message}")]
    Internal {
        /// The document.
        input: String,
        /// The panic's message.
        message: String,
    },
}

impl Error {
    /// Wraps an I/O error with the path it happened on.
    pub fn io(path: impl Into<PathBuf>, error: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            error,
        }
    }
}

impl Error {
    /// A document that cannot be read.
    pub fn document(input: impl Into<String>, reason: impl Into<String>) -> Self {
        Error::Document {
            input: input.into(),
            reason: reason.into(),
        }
    }
}

/// A cleaning option that is not valid: which option (its name in
/// `CleanOptions`, which is Python's keyword and the web API's field; the
/// command line spells it `--name-with-dashes`) and why. Each front end
/// names the option, and the others its message names ("give threshold or
/// min_probability, not both"), in its own way: the command line as its
/// flags ([`OptionError::message_naming`]: "give --threshold or
/// --min-probability"), Python and the web API by these names (its
/// `Display`, [`OptionError::message`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{option}: {}", self.message())]
#[non_exhaustive]
pub struct OptionError {
    /// The option's name (`threshold`, `min_probability`, `model`, …).
    pub option: &'static str,
    /// What is wrong, with the value given, in pieces.
    message: Vec<Piece>,
}

/// A piece of an [`OptionError`]'s message.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Piece {
    Text(String),
    /// An option, by its name in `CleanOptions`.
    Option(&'static str),
}

impl OptionError {
    /// An error of `option`.
    pub fn new(option: &'static str, message: impl Into<String>) -> OptionError {
        OptionError {
            option,
            message: vec![Piece::Text(message.into())],
        }
    }

    /// The message followed by the name of `option`, another option.
    pub(crate) fn and_option(mut self, option: &'static str) -> OptionError {
        self.message.push(Piece::Option(option));
        self
    }

    /// The message followed by `text`.
    pub(crate) fn and_text(mut self, text: &str) -> OptionError {
        self.message.push(Piece::Text(text.into()));
        self
    }

    /// What is wrong, the options it names by their names in
    /// `CleanOptions` (Python's keywords, the web API's fields).
    pub fn message(&self) -> String {
        self.message_naming(str::to_string)
    }

    /// What is wrong, each option it names as `name` names it (the command
    /// line: its flag).
    pub fn message_naming(&self, name: impl Fn(&'static str) -> String) -> String {
        self.message
            .iter()
            .map(|p| match p {
                Piece::Text(t) => t.clone(),
                Piece::Option(o) => name(o),
            })
            .collect()
    }
}

/// The library's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
