//! The documents handed over by Python: copied out of Python objects
//! (`str`, `bytes`, `(document, url)` pairs), then identified and cleaned
//! with the GIL released.

use std::time::Instant;

use ncleaner::{Cleaned, InputKind};
use ncleaner_corpus::identify::{Identified, IdentifyOptions, identify, latin1_compressed};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString, PyTuple};

/// A document copied out of Python: its bytes, URL and whether it was a `str`.
pub(crate) struct Doc {
    bytes: Vec<u8>,
    url: Option<String>,
    is_str: bool,
    /// The transport's charset (`clean(charset=)`).
    pub(crate) charset: Option<String>,
}

/// Copies one document (`str`, `bytes`, or a `(document, url)` tuple) out of Python.
pub(crate) fn extract_doc(
    obj: &Bound<'_, PyAny>,
    url: Option<String>,
    index: Option<usize>,
) -> PyResult<Doc> {
    let at = || index.map_or(String::new(), |i| format!(" (item {i})"));
    if let Ok(s) = obj.downcast::<PyString>() {
        return Ok(Doc {
            bytes: s.to_cow()?.as_bytes().to_vec(),
            url,
            is_str: true,
            charset: None,
        });
    }
    if let Ok(b) = obj.downcast::<PyBytes>() {
        return Ok(Doc {
            bytes: b.as_bytes().to_vec(),
            url,
            is_str: false,
            charset: None,
        });
    }
    if let Ok(t) = obj.downcast::<PyTuple>()
        && index.is_some()
        && t.len() == 2
    {
        let url: Option<String> = t.get_item(1)?.extract().map_err(|_| {
            PyTypeError::new_err(format!("clean_many{}: the URL must be a str or None", at()))
        })?;
        return extract_doc(&t.get_item(0)?, url, index);
    }
    Err(PyTypeError::new_err(format!(
        "document{}: expected str or bytes{}, got {}",
        at(),
        if index.is_some() {
            " or a (document, url) tuple"
        } else {
            ""
        },
        obj.get_type().name()?
    )))
}

/// A document that was not cleaned: its URL, and why.
pub(crate) struct Refused {
    pub(crate) url: Option<String>,
    pub(crate) why: String,
}

/// One document done: its cleaning or why it was refused, and the time it took.
pub(crate) struct Done {
    pub(crate) outcome: Result<Cleaned, Refused>,
    pub(crate) elapsed_ms: f64,
}

/// Identifies and cleans one document. Its bytes are identified as the
/// corpus runner identifies a file's, and a `str` as it does a JSON line's
/// string (`ncleaner_corpus::identify`): compressed bytes are decompressed
/// (a `str` holding them one character per byte too), a stream cut short
/// is cleaned on what decodes and marked `truncated`, and unless the input
/// kind is forced (`input="html"` or `"text"`, as `clean --input` forces
/// files through) binary bytes are refused with what they are.
pub(crate) fn clean_doc(cleaner: &ncleaner::Cleaner, doc: &Doc, input: InputKind) -> Done {
    let start = Instant::now();
    let outcome = identify_and_clean(cleaner, doc, input);
    Done {
        outcome,
        elapsed_ms: start.elapsed().as_secs_f64() * 1e3,
    }
}

fn identify_and_clean(
    cleaner: &ncleaner::Cleaner,
    doc: &Doc,
    input: InputKind,
) -> Result<Cleaned, Refused> {
    let refused = |why: String| Refused {
        url: doc.url.clone(),
        why,
    };
    let opts = IdentifyOptions {
        content_encoding: None,
        max: ncleaner_corpus::DEFAULT_MAX_DOCUMENT,
        detect_binary: input == InputKind::Auto,
    };
    let packed = doc
        .is_str
        .then(|| {
            std::str::from_utf8(&doc.bytes)
                .ok()
                .and_then(latin1_compressed)
        })
        .flatten();
    let given = packed.as_deref().unwrap_or(&doc.bytes);
    let (bytes, truncated) = match identify(given, opts) {
        Identified::Document {
            bytes, truncated, ..
        } => (bytes, truncated),
        Identified::NotADocument(what) => {
            return Err(refused(format!(
                "not a document: {what}; give an HTML page or a text dump (input=\"html\" or \"text\" forces bytes through)"
            )));
        }
        Identified::Failed(why) | Identified::TooLarge(why) => return Err(refused(why)),
    };
    // A str is already text: UTF-8 overrides whatever the page declares
    // (unless it held compressed bytes, whose charset is their own).
    let unchanged = packed.is_none() && matches!(bytes, std::borrow::Cow::Borrowed(_));
    let charset = if doc.is_str && unchanged {
        Some("utf-8")
    } else {
        doc.charset.as_deref()
    };
    let mut cleaned = cleaner.clean_with_charset(&bytes, input, doc.url.as_deref(), charset);
    cleaned.truncated = match (truncated, cleaned.truncated.take()) {
        (Some(a), Some(b)) => Some(format!("{a}; {b}")),
        (a, b) => a.or(b),
    };
    Ok(cleaned)
}
