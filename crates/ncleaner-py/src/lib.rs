//! Python bindings of ncleaner: the `ncleaner._ncleaner` extension module
//! behind the `ncleaner` Python package (`python/ncleaner`).
//!
//! Design choices:
//! - A `Cleaner` is immutable (`frozen`) and holds the library's `Cleaner`
//!   (an `Arc` of the model), so one instance is shared by Python threads
//!   without locking, and the model is loaded once.
//! - Every call that cleans releases the GIL: the documents are copied out
//!   of Python objects first (bytes, or the UTF-8 of a `str`), cleaned with
//!   the GIL released, and only the results are turned into Python objects.
//! - `clean_many` cleans a batch on rayon threads (the global pool, or one of
//!   `threads` threads, lowered as `-j` is to 4 per core with a
//!   `RuntimeWarning`), keeping input order.
//! - A `str` document is already decoded: it is cleaned as UTF-8 whatever its
//!   `<meta charset>` says (the transport charset overrides the meta tag).
//! - Every document is identified first, as the corpus runner identifies a
//!   file's bytes and a JSON line's string (`ncleaner_corpus::identify`):
//!   compressed bytes (gzip, zstd, …, and a `str` that holds them one
//!   character per byte) are decompressed, and binary bytes (an image, an
//!   executable, random bytes) are not a document: `clean` raises
//!   `DocumentError` naming what they are, `clean_many` gives that
//!   document a result with its `error` and cleans the others.
//! - The options are the library's `CleanOptions`, by their field names as
//!   keywords, checked by the library: `Cleaner(model="en")` routes as
//!   `ncleaner clean --model en` routes (German pages to `en-nonlex`), the
//!   input is read as `auto` unless told, and a `Cleaner` pickles as its
//!   options.

mod document;
mod word_model;

use std::sync::Arc;

use ncleaner::Reason;
use ncleaner::format::{CleanedRecord, JsonOptions};
use ncleaner::model::{self, Model};
use ncleaner::{CleanOptions, Cleaned, InputKind};
use ncleaner::{Models, OptionValue};
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyRuntimeWarning, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyBool, PyDict, PyList, PyString, PyTuple};
use rayon::prelude::*;

use document::{Done, Refused, clean_doc, extract_doc};
use word_model::{WordModel, load_word_model};

create_exception!(
    _ncleaner,
    NCleanerError,
    PyException,
    "An ncleaner error: a model that cannot be loaded, or a failed batch."
);

create_exception!(
    _ncleaner,
    DocumentError,
    NCleanerError,
    "A document that is not one (binary bytes: an image, an archive, an executable, a PDF, \
     random bytes) or cannot be read (a corrupt compressed stream, more than 64 MiB once \
     decompressed); the message says which."
);

/// A configured cleaner: its options ([`CleanOptions`]) and the models
/// they name, loaded once.
#[pyclass(frozen, module = "ncleaner")]
struct Cleaner {
    inner: ncleaner::Cleaner,
    options: CleanOptions,
}

/// One segment of a cleaned document.
#[pyclass(frozen, get_all, module = "ncleaner")]
struct Segment {
    /// `"p"`, `"h"` or `"l"`.
    kind: &'static str,
    /// The segment's text (one line).
    text: String,
    /// Whether the segment is kept.
    keep: bool,
    /// The n-gram log-odds score in bits, `None` when no model ran on it.
    score: Option<f64>,
    /// The classifier's probability that the segment is clean, when the model has one.
    probability: Option<f64>,
    /// What decided: `"score"`, `"keep-all"`, `"no-heuristic"`, or the heuristic rule's name.
    reason: String,
    /// What was compared with the threshold: log2(p / (1 - p)) with a
    /// classifier, else the n-gram score; `None` when a rule or the method
    /// decided (JSON Lines' `evidence`).
    evidence: Option<f64>,
    /// The text the output holds when it differs from `text` (the
    /// perplexity filter's kept sentences); `None` otherwise.
    output: Option<String>,
    /// What the segment is on its page: `"title"`, `"byline"`, `"body"`,
    /// `"caption"`, `"comment"`, `"post"`, `"table"`, `"code"` or
    /// `"furniture"` (HTML input; `None` for text, and for a dropped
    /// segment that would be `"body"`).
    role: Option<&'static str>,
}

/// One cleaned document. It holds the library's `Cleaned` and reads its
/// fields through the library's `CleanedRecord`, the record that JSON Lines
/// and the web API write, so the three agree; `to_dict()` gives that record.
/// The Markdown and the segments are built when first asked for.
///
/// A document that was no document (`clean_many`'s binary bytes) has its
/// `error` and an empty cleaning: no text, no segments, no metadata.
#[pyclass(frozen, module = "ncleaner")]
struct CleanResult {
    cleaned: Cleaned,
    /// Why the document was not cleaned, when it was not.
    error: Option<String>,
    /// The method that decided (the API's `method`).
    method: &'static str,
    /// Milliseconds the identification and the cleaning took (the API's `elapsed_ms`).
    elapsed_ms: f64,
    /// The segments as Python objects, built on first access.
    segments: GILOnceCell<Py<PyList>>,
}

impl CleanResult {
    fn new(done: Done, method: &'static str) -> CleanResult {
        let (cleaned, error) = match done.outcome {
            Ok(c) => (c, None),
            Err(Refused { url, why }) => (not_cleaned(url), Some(why)),
        };
        CleanResult {
            cleaned,
            error,
            method,
            elapsed_ms: done.elapsed_ms,
            segments: GILOnceCell::new(),
        }
    }

    /// The record without its optional fields (what `text` reads: the kept
    /// text as JSON Lines writes it).
    fn record(&self) -> CleanedRecord<'_> {
        CleanedRecord::jsonl(&self.cleaned, None, JsonOptions::default())
    }
}

/// The empty cleaning of a document that was not cleaned.
fn not_cleaned(url: Option<String>) -> Cleaned {
    Cleaned::new(url, InputKind::Html)
}

/// A page's metadata: each field `None` (lists empty) when no reliable
/// source gave it. The library's [`ncleaner::Metadata`], whose fields its
/// getters give.
#[pyclass(frozen, module = "ncleaner")]
struct Metadata(ncleaner::Metadata);

#[pymethods]
impl Metadata {
    #[getter]
    fn title(&self) -> Option<String> {
        self.0.title.clone()
    }

    #[getter]
    fn authors(&self) -> Vec<String> {
        self.0.authors.clone()
    }

    #[getter]
    fn date_published(&self) -> Option<String> {
        self.0.date_published.clone()
    }

    #[getter]
    fn date_modified(&self) -> Option<String> {
        self.0.date_modified.clone()
    }

    #[getter]
    fn site_name(&self) -> Option<String> {
        self.0.site_name.clone()
    }

    #[getter]
    fn canonical_url(&self) -> Option<String> {
        self.0.canonical_url.clone()
    }

    #[getter]
    fn description(&self) -> Option<String> {
        self.0.description.clone()
    }

    #[getter]
    fn language(&self) -> Option<String> {
        self.0.language.clone()
    }

    #[getter]
    fn tags(&self) -> Vec<String> {
        self.0.tags.clone()
    }

    #[getter]
    fn categories(&self) -> Vec<String> {
        self.0.categories.clone()
    }

    /// The fields as a dict (the `metadata` object of `ncleaner clean --format jsonl`).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let json = serde_json::to_string(&self.0)
            .map_err(|e| NCleanerError::new_err(format!("serialising the metadata: {e}")))?;
        py.import("json")?.call_method1("loads", (json,))
    }

    fn __repr__(&self) -> String {
        let opt = |v: &Option<String>| v.as_ref().map_or("None".into(), |s| format!("{s:?}"));
        format!(
            "Metadata(title={}, authors={:?}, date_published={})",
            opt(&self.0.title),
            self.0.authors,
            opt(&self.0.date_published)
        )
    }
}

/// A page's predicted type.
#[pyclass(frozen, get_all, module = "ncleaner")]
struct PageType {
    /// `"article"`, `"forum"`, `"product"`, `"collection"`, `"listing"`,
    /// `"documentation"` or `"service"`.
    name: &'static str,
    /// The predicted probability of that type, 0 - 1.
    confidence: f64,
}

#[pymethods]
impl PageType {
    fn __repr__(&self) -> String {
        format!(
            "PageType(name={:?}, confidence={:.3})",
            self.name, self.confidence
        )
    }
}

/// A page's predicted cleaning quality.
#[pyclass(frozen, get_all, module = "ncleaner")]
struct PageQuality {
    /// Predicted word-level precision of the cleaned text, 0 - 1.
    precision: f64,
    /// Predicted word-level recall, 0 - 1.
    recall: f64,
}

#[pymethods]
impl PageQuality {
    fn __repr__(&self) -> String {
        format!(
            "PageQuality(precision={:.3}, recall={:.3})",
            self.precision, self.recall
        )
    }
}

#[pymethods]
impl Segment {
    fn __repr__(&self) -> String {
        let text: String = self.text.chars().take(40).collect();
        format!(
            "Segment(kind={:?}, keep={}, score={}, text={:?})",
            self.kind,
            py_bool(self.keep),
            self.score.map_or("None".into(), |s| format!("{s:.3}")),
            text
        )
    }
}

#[pymethods]
impl CleanResult {
    /// The document's URL: the one given, else the page's canonical URL
    /// (as in the record: see `to_dict`).
    #[getter]
    fn url(&self) -> Option<&str> {
        self.cleaned.record_url()
    }

    /// Why the document was not cleaned (`clean_many`: bytes that are not
    /// a document, or cannot be read); `None` when it was.
    #[getter]
    fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// Why the document was not read whole (a compressed stream cut
    /// short, a page past the limits of one document), when it was not.
    #[getter]
    fn truncated(&self) -> Option<&str> {
        self.cleaned.truncated.as_deref()
    }

    /// The method that decided: "ncleaner", "heuristics", "keep-all" or "perplexity".
    #[getter]
    fn method(&self) -> &'static str {
        self.method
    }

    /// Milliseconds the document took: its identification (decompression)
    /// and its cleaning.
    #[getter]
    fn elapsed_ms(&self) -> f64 {
        self.elapsed_ms
    }

    /// The cleaned text: kept segments, one per line (no final newline, as
    /// in JSON Lines).
    #[getter]
    fn text(&self) -> String {
        self.record().text
    }

    /// The kept text as Markdown: headings, nested lists, code blocks,
    /// quotes and tables (`ncleaner clean --format markdown`).
    #[getter]
    fn markdown(&self) -> String {
        ncleaner::format::markdown(&self.cleaned)
    }

    /// Words in all segments.
    #[getter]
    fn words_in(&self) -> usize {
        self.cleaned.words_in()
    }

    /// Words in kept segments.
    #[getter]
    fn words_out(&self) -> usize {
        self.cleaned.words_out()
    }

    /// `"html"` or `"text"`: how the document was read (`None` when it
    /// was not: see `error`).
    #[getter]
    fn input(&self) -> Option<&'static str> {
        self.error.is_none().then(|| self.cleaned.input.as_str())
    }

    /// The encoding the document was decoded with (`None` when it was not).
    #[getter]
    fn encoding(&self) -> Option<&'static str> {
        self.error.is_none().then_some(self.cleaned.encoding)
    }

    /// Whether undecodable bytes were replaced by U+FFFD.
    #[getter]
    fn had_decode_errors(&self) -> bool {
        self.cleaned.had_decode_errors
    }

    /// The page's language (ISO 639-1 tag such as "en", "de"), identified by
    /// whatlang from its longest prose segments; `None` when unsure.
    #[getter]
    fn language(&self) -> Option<&str> {
        self.cleaned.language.as_deref()
    }

    /// The model that cleaned the page (the one routed to by its
    /// language); `None` without routing.
    #[getter]
    fn model(&self) -> Option<&str> {
        self.cleaned.model.as_deref()
    }

    /// The cut the segments' evidence was compared with, in bits of
    /// log-odds (the page's own cut by default); `None` when no score
    /// decided, or nothing could be kept by score.
    #[getter]
    fn threshold(&self) -> Option<f64> {
        self.cleaned
            .cut
            .map(|c| c.threshold)
            .filter(|t| t.is_finite())
    }

    /// Where the cut comes from: "page-f" (the page's own expected-F cut,
    /// the default), "f", "precision", "recall" (the model's stored points)
    /// or "threshold" (set); `None` when no score decided.
    #[getter]
    fn operating_point(&self) -> Option<&'static str> {
        self.cleaned.cut.map(|c| c.point.as_str())
    }

    /// All segments in page order, kept and dropped.
    #[getter]
    fn segments<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = self
            .segments
            .get_or_try_init(py, || -> PyResult<Py<PyList>> {
                let items = self
                    .cleaned
                    .segments
                    .iter()
                    .map(|s| {
                        Py::new(
                            py,
                            Segment {
                                kind: s.segment.kind.letter(),
                                text: s.segment.text().to_string(),
                                keep: s.keep(),
                                score: s.score,
                                probability: s.probability,
                                reason: reason_name(s.decision.reason),
                                evidence: s.evidence(),
                                output: s.output.clone(),
                                role: s.role.map(|r| r.as_str()),
                            },
                        )
                    })
                    .collect::<PyResult<Vec<_>>>()?;
                Ok(PyList::new(py, items)?.unbind())
            })?;
        Ok(list.bind(py).clone())
    }

    /// The page's metadata (HTML input only; `None` for text).
    #[getter]
    fn metadata(&self) -> Option<Metadata> {
        self.cleaned.metadata.clone().map(Metadata)
    }

    /// The page's predicted type (HTML input, models with a page-type
    /// classifier, as the built-in ones; `None` otherwise).
    #[getter]
    fn page_type(&self) -> Option<PageType> {
        self.cleaned.page_type.map(|p| PageType {
            name: p.page_type().as_str(),
            confidence: f64::from(p.confidence()),
        })
    }

    /// The page's predicted cleaning quality (models with a page-quality model).
    #[getter]
    fn page_quality(&self) -> Option<PageQuality> {
        self.cleaned.quality.map(|q| PageQuality {
            precision: q.precision,
            recall: q.recall,
        })
    }

    /// The document as a dict: the record of the web API's answer (every
    /// field, the method and the time, the Markdown and the segments with
    /// their reasons), which is also what `ncleaner clean --format jsonl
    /// --segments --markdown` writes (there without the fields it does not
    /// know). A document that was not cleaned gives `{"url", "error"}`, as
    /// JSON Lines writes a failed document.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let json = self.to_json()?;
        py.import("json")?.call_method1("loads", (json,))
    }

    /// [`to_dict`]'s record as a JSON string.
    fn to_json(&self) -> PyResult<String> {
        let json = match &self.error {
            Some(error) => serde_json::to_string(&serde_json::json!({
                "url": self.cleaned.url,
                "error": error,
            })),
            None => {
                let mut record = CleanedRecord::full(&self.cleaned);
                record.method = Some(self.method);
                record.elapsed_ms = Some(self.elapsed_ms);
                serde_json::to_string(&record)
            }
        };
        json.map_err(|e| NCleanerError::new_err(format!("serialising the result: {e}")))
    }

    fn __repr__(&self) -> String {
        let url = self.url().map_or("None".into(), |u| format!("{u:?}"));
        if let Some(e) = &self.error {
            return format!("Result(url={url}, error={e:?})");
        }
        format!(
            "Result(url={url}, words_in={}, words_out={}, segments={})",
            self.cleaned.words_in(),
            self.cleaned.words_out(),
            self.cleaned.segments.len()
        )
    }
}

fn py_bool(b: bool) -> &'static str {
    if b { "True" } else { "False" }
}

fn parse_input(input: &str) -> PyResult<InputKind> {
    input
        .parse()
        .map_err(|e: String| PyValueError::new_err(format!("input={e}")))
}

/// The models of this process: the embedded ones opened once and shared by
/// every `Cleaner` (and `extract`), files opened by each.
struct PyModels;

impl Models for PyModels {
    fn model(&self, name: &str) -> ncleaner::Result<Arc<Model>> {
        use std::collections::HashMap;
        use std::sync::{Mutex, OnceLock};
        static EMBEDDED: OnceLock<Mutex<HashMap<String, Arc<Model>>>> = OnceLock::new();
        if !model::EMBEDDED.iter().any(|(n, _)| *n == name) {
            return Model::open(name).map(Arc::new);
        }
        let map = EMBEDDED.get_or_init(Default::default);
        if let Some(m) = map.lock().unwrap_or_else(|e| e.into_inner()).get(name) {
            return Ok(m.clone());
        }
        let m = Arc::new(model::embedded(name)?);
        map.lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(name.to_owned(), m.clone());
        Ok(m)
    }

    fn word_model(&self, name: &str) -> ncleaner::Result<Arc<ncleaner::WordLm>> {
        load_word_model(name).map_err(|e| ncleaner::Error::Parameter(e.to_string()))
    }
}

/// A keyword's value as an option value: None, a bool, a number, a str,
/// or a list of str.
fn option_value(name: &str, v: &Bound<'_, PyAny>) -> PyResult<OptionValue> {
    if v.is_none() {
        return Ok(OptionValue::Null);
    }
    if let Ok(b) = v.downcast::<PyBool>() {
        return Ok(OptionValue::Bool(b.is_true()));
    }
    if let Ok(s) = v.downcast::<PyString>() {
        return Ok(OptionValue::Str(s.to_cow()?.into_owned()));
    }
    // Python's int and float, and what converts to a float (NumPy's scalars).
    if let Ok(x) = v.extract::<f64>() {
        return Ok(OptionValue::Number(x));
    }
    if let Ok(list) = v.extract::<Vec<String>>() {
        return Ok(OptionValue::List(list));
    }
    Err(PyTypeError::new_err(format!(
        "{name}: expected None, a bool, a number, a str or a list of str, got {}",
        v.get_type().name()?
    )))
}

/// The options of the keywords (`model` given apart, as the first
/// positional argument may be): every name a field of [`CleanOptions`],
/// each value read by its type, the whole checked by the library.
fn options_of(
    model: Option<&Bound<'_, PyAny>>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<CleanOptions> {
    let mut options = CleanOptions::default();
    let bad = |e: ncleaner::OptionError| PyValueError::new_err(e.to_string());
    if let Some(m) = model {
        options
            .set("model", option_value("model", m)?)
            .map_err(bad)?;
    }
    if let Some(kw) = kwargs {
        for (k, v) in kw.iter() {
            let k: String = k.extract()?;
            options.set(&k, option_value(&k, &v)?).map_err(bad)?;
        }
    }
    options.validate().map_err(bad)?;
    Ok(options)
}

/// The cleaner of checked options: the models that cannot be had are an
/// `NCleanerError`.
fn cleaner_of(options: &CleanOptions) -> PyResult<ncleaner::Cleaner> {
    options.cleaner_with(&PyModels).map_err(|e| match e {
        ncleaner::Error::Option(o) => NCleanerError::new_err(o.to_string()),
        e => NCleanerError::new_err(e.to_string()),
    })
}

/// The options as a dict of keywords (what `Cleaner(**options)` takes back).
fn options_dict<'py>(py: Python<'py>, options: &CleanOptions) -> PyResult<Bound<'py, PyAny>> {
    let json = serde_json::to_string(options)
        .map_err(|e| NCleanerError::new_err(format!("serialising the options: {e}")))?;
    py.import("json")?.call_method1("loads", (json,))
}

/// What decided a segment: the heuristic rule's name, else the reason's.
fn reason_name(reason: Reason) -> String {
    match reason {
        Reason::Heuristic { rule } => rule.as_str().into(),
        other => other.as_str().into(),
    }
}

#[pymethods]
impl Cleaner {
    #[new]
    #[pyo3(signature = (model=None, **options))]
    fn new(
        model: Option<&Bound<'_, PyAny>>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Cleaner> {
        let options = options_of(model, options)?;
        Ok(Cleaner {
            inner: cleaner_of(&options)?,
            options,
        })
    }

    /// The models as given (a name or path, or a list of them); `None`:
    /// the default (`en` and `multi`, routed by language).
    #[getter]
    fn model<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        Ok(match &self.options.model[..] {
            [] => None,
            [one] => Some(PyString::new(py, one).into_any()),
            many => Some(PyList::new(py, many)?.into_any()),
        })
    }

    /// The method: "ncleaner", "heuristics", "keep-all" or "perplexity".
    #[getter]
    fn method(&self) -> &'static str {
        self.options.method.as_str()
    }

    /// Every option of this cleaner, defaults included, as keywords
    /// (`Cleaner(**c.options)` makes the same cleaner).
    #[getter]
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        options_dict(py, &self.options)
    }

    /// The threshold in force for an input kind with the fallback model
    /// (the model's own operating point unless one was set; a page cut at
    /// its own point records its cut in `Result.threshold`).
    #[pyo3(signature = (input="html"))]
    fn threshold(&self, input: &str) -> PyResult<f64> {
        Ok(self.inner.threshold(parse_input(input)?))
    }

    /// Cleans one document (str or bytes); the GIL is released while
    /// cleaning. `input`: "html", "text" or "auto"; default: the cleaner's
    /// (`auto` unless it was made with another).
    #[pyo3(signature = (document, url=None, input=None, charset=None))]
    fn clean(
        &self,
        py: Python<'_>,
        document: &Bound<'_, PyAny>,
        url: Option<String>,
        input: Option<&str>,
        charset: Option<String>,
    ) -> PyResult<CleanResult> {
        let input = self.input(input)?;
        let mut doc = extract_doc(document, url, None)?;
        doc.charset = charset;
        let inner = &self.inner;
        let done = py.allow_threads(|| clean_doc(inner, &doc, input));
        if let Err(r) = &done.outcome {
            return Err(DocumentError::new_err(r.why.clone()));
        }
        Ok(CleanResult::new(done, self.options.method.as_str()))
    }

    /// Cleans many documents in parallel in Rust (GIL released), results in
    /// input order; a document that is not one gets a result with its `error`.
    #[pyo3(signature = (documents, input=None, threads=None))]
    fn clean_many(
        &self,
        py: Python<'_>,
        documents: &Bound<'_, PyAny>,
        input: Option<&str>,
        threads: Option<usize>,
    ) -> PyResult<Vec<CleanResult>> {
        let input = self.input(input)?;
        let mut docs = Vec::new();
        for (i, item) in documents.try_iter()?.enumerate() {
            docs.push(extract_doc(&item?, None, Some(i))?);
        }
        let pool = match threads {
            Some(n) => {
                // Lowered as `-j` is, with a warning saying so.
                let (n, note) = ncleaner::options::clamp_threads(n)
                    .map_err(|e| PyValueError::new_err(format!("threads={n}: {e}")))?;
                if let Some(note) = note {
                    let warning = py.get_type::<PyRuntimeWarning>();
                    let message = std::ffi::CString::new(format!("threads={note}"))
                        .expect("no NUL in the note");
                    PyErr::warn(py, warning.as_any(), &message, 1)?;
                }
                Some(
                    rayon::ThreadPoolBuilder::new()
                        .num_threads(n)
                        .build()
                        .map_err(|e| NCleanerError::new_err(format!("threads={n}: {e}")))?,
                )
            }
            None => None,
        };
        let inner = &self.inner;
        let done: Vec<Done> = py.allow_threads(|| {
            let run = || {
                docs.par_iter()
                    .map(|d| clean_doc(inner, d, input))
                    .collect::<Vec<_>>()
            };
            match &pool {
                Some(p) => p.install(run),
                None => run(),
            }
        });
        let method = self.options.method.as_str();
        Ok(done
            .into_iter()
            .map(|d| CleanResult::new(d, method))
            .collect())
    }

    /// Pickled as its options: the models are loaded again where it is
    /// unpickled (Spark and multiprocessing ship cleaners to workers this way).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let new = py.import("copyreg")?.getattr("__newobj_ex__")?;
        let args = (
            slf.get_type(),
            PyTuple::empty(py),
            options_dict(py, &slf.get().options)?,
        );
        PyTuple::new(py, [new, args.into_pyobject(py)?.into_any()])
    }

    fn __repr__(&self) -> String {
        let model = match &self.options.model[..] {
            [] => "None".to_string(),
            [one] => format!("{one:?}"),
            many => format!("{many:?}"),
        };
        format!(
            "Cleaner(model={model}, method={:?}, route={})",
            self.options.method.as_str(),
            py_bool(self.options.route),
        )
    }
}

impl Cleaner {
    /// The input kind of a call: the one given, else the options'.
    fn input(&self, given: Option<&str>) -> PyResult<InputKind> {
        given.map_or(Ok(self.options.input), parse_input)
    }
}

/// The cleaners `extract` made, by their options (a few: a program uses
/// one or two sets of options).
static EXTRACTORS: std::sync::Mutex<Vec<(CleanOptions, ncleaner::Cleaner)>> =
    std::sync::Mutex::new(Vec::new());

/// The cleaned text of one page with the options given as keywords (those
/// of `Cleaner`): `ncleaner.extract(html)`, the one-line case. The cleaner
/// of each set of options is made once per process and kept; the GIL is
/// released while cleaning.
#[pyfunction]
#[pyo3(signature = (document, url=None, **options))]
fn extract(
    py: Python<'_>,
    document: &Bound<'_, PyAny>,
    url: Option<String>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<String> {
    let options = options_of(None, options)?;
    let doc = extract_doc(document, url, None)?;
    let cached = EXTRACTORS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .find(|(o, _)| *o == options)
        .map(|(_, c)| c.clone());
    let cleaner = match cached {
        Some(c) => c,
        None => {
            let c = cleaner_of(&options)?;
            let mut all = EXTRACTORS.lock().unwrap_or_else(|e| e.into_inner());
            if all.len() >= 8 {
                all.remove(0);
            }
            all.push((options.clone(), c.clone()));
            c
        }
    };
    let input = options.input;
    let done = py.allow_threads(|| clean_doc(&cleaner, &doc, input));
    match done.outcome {
        Ok(c) => Ok(CleanedRecord::jsonl(&c, None, JsonOptions::default()).text),
        Err(r) => Err(DocumentError::new_err(r.why)),
    }
}

/// The names of the models built into the module.
#[pyfunction]
fn embedded_models() -> Vec<&'static str> {
    model::EMBEDDED.iter().map(|(n, _)| *n).collect()
}

/// The `ncleaner._ncleaner` extension module.
#[pymodule]
fn _ncleaner(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Cleaner>()?;
    m.add_class::<CleanResult>()?;
    m.add_class::<Segment>()?;
    m.add_class::<Metadata>()?;
    m.add_class::<PageQuality>()?;
    m.add_class::<PageType>()?;
    m.add_class::<WordModel>()?;
    m.add_function(wrap_pyfunction!(word_model::perplexity, m)?)?;
    m.add_function(wrap_pyfunction!(extract, m)?)?;
    m.add_function(wrap_pyfunction!(embedded_models, m)?)?;
    m.add("NCleanerError", m.py().get_type::<NCleanerError>())?;
    m.add("DocumentError", m.py().get_type::<DocumentError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
