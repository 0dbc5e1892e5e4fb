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
//!   `threads` threads), keeping input order.
//! - A `str` document is already decoded: it is cleaned as UTF-8 whatever its
//!   `<meta charset>` says (the transport charset overrides the meta tag).

use std::sync::Arc;

use ncleaner::classify::{Method, Preference, Reason};
use ncleaner::format::{CleanedRecord, JsonOptions};
use ncleaner::model::{self, Model};
use ncleaner::perplexity::{DEFAULT_MAX_PERPLEXITY, SentenceFilter};
use ncleaner::{Cleaned, InputKind};
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyBytes, PyList, PyString, PyTuple};
use rayon::prelude::*;

create_exception!(
    _ncleaner,
    NCleanerError,
    PyException,
    "An ncleaner error: a model that cannot be loaded, or a failed batch."
);

/// A configured cleaner: a model loaded once, a method and a threshold.
#[pyclass(frozen, module = "ncleaner")]
struct Cleaner {
    inner: ncleaner::Cleaner,
    /// The model asked for; `None`: routed by language as `ncleaner clean` routes.
    model_name: Option<String>,
    method: &'static str,
    /// The constructor's threshold, min_probability, prefer, comments,
    /// keep_repeats, links and images, for pickling.
    args: (Option<f64>, Option<f64>, String, String, bool, bool, bool),
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
}

/// One cleaned document. It holds the library's `Cleaned` and reads its
/// fields through the library's `CleanedRecord`, the record that JSON Lines
/// and the web API write, so the three agree; `to_dict()` gives that record.
/// The Markdown and the segments are built when first asked for.
#[pyclass(frozen, module = "ncleaner")]
struct CleanResult {
    cleaned: Cleaned,
    /// The segments as Python objects, built on first access.
    segments: GILOnceCell<Py<PyList>>,
}

impl CleanResult {
    fn new(cleaned: Cleaned) -> CleanResult {
        CleanResult {
            cleaned,
            segments: GILOnceCell::new(),
        }
    }

    /// The record without its optional fields (what `text` reads: the kept
    /// text as JSON Lines writes it).
    fn record(&self) -> CleanedRecord<'_> {
        CleanedRecord::jsonl(&self.cleaned, None, JsonOptions::default())
    }
}

/// A page's metadata: each field `None` (lists empty) when no reliable source gave it.
#[pyclass(frozen, get_all, module = "ncleaner")]
struct Metadata {
    title: Option<String>,
    authors: Vec<String>,
    date_published: Option<String>,
    date_modified: Option<String>,
    site_name: Option<String>,
    canonical_url: Option<String>,
    description: Option<String>,
    language: Option<String>,
    tags: Vec<String>,
    categories: Vec<String>,
}

#[pymethods]
impl Metadata {
    /// The fields as a dict (the `metadata` object of `ncleaner clean --format jsonl`).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
        let d = pyo3::types::PyDict::new(py);
        d.set_item("title", &self.title)?;
        d.set_item("authors", &self.authors)?;
        d.set_item("date_published", &self.date_published)?;
        d.set_item("date_modified", &self.date_modified)?;
        d.set_item("site_name", &self.site_name)?;
        d.set_item("canonical_url", &self.canonical_url)?;
        d.set_item("description", &self.description)?;
        d.set_item("language", &self.language)?;
        d.set_item("tags", &self.tags)?;
        d.set_item("categories", &self.categories)?;
        Ok(d)
    }

    fn __repr__(&self) -> String {
        let opt = |v: &Option<String>| v.as_ref().map_or("None".into(), |s| format!("{s:?}"));
        format!(
            "Metadata(title={}, authors={:?}, date_published={})",
            opt(&self.title),
            self.authors,
            opt(&self.date_published)
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
    /// The document's URL, if known.
    #[getter]
    fn url(&self) -> Option<String> {
        self.cleaned.url.clone()
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

    /// `"html"` or `"text"`: how the document was read.
    #[getter]
    fn input(&self) -> &'static str {
        self.cleaned.input.as_str()
    }

    /// The encoding the document was decoded with.
    #[getter]
    fn encoding(&self) -> &'static str {
        self.cleaned.encoding
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

    /// The model that cleaned the page (the one routed to by its language,
    /// or the one asked for).
    #[getter]
    fn model(&self) -> Option<&str> {
        self.cleaned.model.as_deref()
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
        self.cleaned.metadata.as_ref().map(|m| Metadata {
            title: m.title.clone(),
            authors: m.authors.clone(),
            date_published: m.date_published.clone(),
            date_modified: m.date_modified.clone(),
            site_name: m.site_name.clone(),
            canonical_url: m.canonical_url.clone(),
            description: m.description.clone(),
            language: m.language.clone(),
            tags: m.tags.clone(),
            categories: m.categories.clone(),
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
    /// field, the Markdown and the segments with their reasons), which is
    /// also what `ncleaner clean --format jsonl --segments --markdown` writes
    /// (there without the fields it does not know).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let json = self.to_json()?;
        py.import("json")?.call_method1("loads", (json,))
    }

    /// [`to_dict`]'s record as a JSON string.
    fn to_json(&self) -> PyResult<String> {
        serde_json::to_string(&CleanedRecord::full(&self.cleaned))
            .map_err(|e| NCleanerError::new_err(format!("serialising the result: {e}")))
    }

    fn __repr__(&self) -> String {
        format!(
            "Result(url={}, words_in={}, words_out={}, segments={})",
            self.cleaned
                .url
                .as_ref()
                .map_or("None".into(), |u| format!("{u:?}")),
            self.cleaned.words_in(),
            self.cleaned.words_out(),
            self.cleaned.segments.len()
        )
    }
}

fn py_bool(b: bool) -> &'static str {
    if b { "True" } else { "False" }
}

/// A document copied out of Python: its bytes, URL and whether it was a `str`.
struct Doc {
    bytes: Vec<u8>,
    url: Option<String>,
    is_str: bool,
    charset: Option<String>,
}

fn parse_input(input: &str) -> PyResult<InputKind> {
    input
        .parse()
        .map_err(|e: String| PyValueError::new_err(format!("input={e}")))
}

/// A method's name, read by [`Method`]'s `FromStr` (`keep_all` is taken for
/// `keep-all`, as Python spells names).
fn parse_method(method: &str) -> PyResult<(Method, &'static str)> {
    let m: Method = method
        .replace('_', "-")
        .parse()
        .map_err(|_| {
            PyValueError::new_err(format!(
                "method={method:?}: expected \"ncleaner\", \"heuristics\", \"keep-all\" or \"perplexity\""
            ))
        })?;
    Ok((m, m.as_str()))
}

/// Loads a model by embedded name or file path, as the CLI and the server
/// do ([`model::open`]).
fn load_model(name: &str) -> PyResult<Model> {
    model::open(name).map_err(|e| NCleanerError::new_err(format!("model={name:?}: {e}")))
}

/// Copies one document (`str`, `bytes`, or a `(document, url)` tuple) out of Python.
fn extract_doc(obj: &Bound<'_, PyAny>, url: Option<String>, index: Option<usize>) -> PyResult<Doc> {
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

fn clean_doc(cleaner: &ncleaner::Cleaner, doc: &Doc, input: InputKind) -> Cleaned {
    // A str is already text: UTF-8 overrides whatever the page declares.
    let charset = if doc.is_str {
        Some("utf-8")
    } else {
        doc.charset.as_deref()
    };
    cleaner.clean_with_charset(&doc.bytes, input, doc.url.as_deref(), charset)
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
    // The Python constructor's keyword arguments, one Rust argument each.
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (model=None, method="ncleaner", threshold=None, min_probability=None, prefer="f", comments="keep", keep_repeats=false, links=false, images=false))]
    fn new(
        model: Option<&str>,
        method: &str,
        threshold: Option<f64>,
        min_probability: Option<f64>,
        prefer: &str,
        comments: &str,
        keep_repeats: bool,
        links: bool,
        images: bool,
    ) -> PyResult<Cleaner> {
        let (m, method_name) = parse_method(method)?;
        let preference: Preference = prefer
            .parse()
            .map_err(|e| PyValueError::new_err(format!("prefer: {e}")))?;
        let comments_choice: ncleaner::classify::Comments = comments
            .parse()
            .map_err(|e| PyValueError::new_err(format!("comments: {e}")))?;
        if threshold.is_some() && min_probability.is_some() {
            return Err(PyValueError::new_err(
                "threshold and min_probability: give one or the other, not both",
            ));
        }
        if let Some(t) = threshold
            && !t.is_finite()
        {
            return Err(PyValueError::new_err(format!(
                "threshold={t}: must be finite"
            )));
        }
        if let Some(p) = min_probability
            && !(p > 0.0 && p < 1.0)
        {
            return Err(PyValueError::new_err(format!(
                "min_probability={p}: must be strictly between 0 and 1"
            )));
        }
        let routes = match model {
            // One model cleans every page; routing it as the only route makes
            // the library identify each page's language for `Result.language`.
            Some(name) => ncleaner::Routes::new(ncleaner::Route {
                name: name.into(),
                model: Arc::new(load_model(name)?),
            }),
            // As `ncleaner clean` routes by default: English pages to `en`,
            // the others to `en-nonlex`.
            None => ncleaner::Routes::from_names::<&str>(&[], ncleaner::pipeline::DEFAULT_FALLBACK)
                .map_err(|e| NCleanerError::new_err(e.to_string()))?,
        };
        let mut inner = ncleaner::Cleaner::routed(routes)
            .with_method(m)
            .with_preference(preference)
            .with_comments(comments_choice)
            .with_repeats(keep_repeats)
            .with_marks(ncleaner::html::Marks { links, images })
            .with_threshold_option(threshold);
        if let Some(p) = min_probability {
            inner = inner.with_min_probability(p);
        }
        Ok(Cleaner {
            inner,
            model_name: model.map(str::to_owned),
            method: method_name,
            args: (
                threshold,
                min_probability,
                prefer.to_owned(),
                comments.to_owned(),
                keep_repeats,
                links,
                images,
            ),
        })
    }

    /// The model's name or path, as given; `None`: routed by language.
    #[getter]
    fn model(&self) -> Option<&str> {
        self.model_name.as_deref()
    }

    /// The method: "ncleaner", "heuristics" or "keep-all".
    #[getter]
    fn method(&self) -> &str {
        self.method
    }

    /// The threshold in force for an input kind (the model's own operating point unless one was set).
    #[pyo3(signature = (input="html"))]
    fn threshold(&self, input: &str) -> PyResult<f64> {
        Ok(self.inner.threshold(parse_input(input)?))
    }

    /// Cleans one document (str or bytes); the GIL is released while cleaning.
    #[pyo3(signature = (document, url=None, input="html", charset=None))]
    fn clean(
        &self,
        py: Python<'_>,
        document: &Bound<'_, PyAny>,
        url: Option<String>,
        input: &str,
        charset: Option<String>,
    ) -> PyResult<CleanResult> {
        let input = parse_input(input)?;
        let mut doc = extract_doc(document, url, None)?;
        doc.charset = charset;
        let inner = &self.inner;
        let cleaned = py.allow_threads(|| clean_doc(inner, &doc, input));
        Ok(CleanResult::new(cleaned))
    }

    /// Cleans many documents in parallel in Rust (GIL released), results in input order.
    #[pyo3(signature = (documents, input="html", threads=None))]
    fn clean_many(
        &self,
        py: Python<'_>,
        documents: &Bound<'_, PyAny>,
        input: &str,
        threads: Option<usize>,
    ) -> PyResult<Vec<CleanResult>> {
        let input = parse_input(input)?;
        let mut docs = Vec::new();
        for (i, item) in documents.try_iter()?.enumerate() {
            docs.push(extract_doc(&item?, None, Some(i))?);
        }
        let pool = match threads {
            Some(0) => return Err(PyValueError::new_err("threads=0: must be at least 1")),
            Some(n) => Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(n)
                    .build()
                    .map_err(|e| NCleanerError::new_err(format!("threads={n}: {e}")))?,
            ),
            None => None,
        };
        let inner = &self.inner;
        let cleaned: Vec<Cleaned> = py.allow_threads(|| {
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
        Ok(cleaned.into_iter().map(CleanResult::new).collect())
    }

    /// Pickled as its constructor's arguments: the model is loaded again where it is unpickled
    /// (Spark and multiprocessing ship cleaners to workers this way).
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let me = slf.get();
        let (threshold, min_probability, prefer, comments, keep_repeats, links, images) = &me.args;
        let args = (
            me.model_name.as_deref(),
            me.method,
            *threshold,
            *min_probability,
            prefer.as_str(),
            comments.as_str(),
            *keep_repeats,
            *links,
            *images,
        )
            .into_pyobject(slf.py())?;
        Ok((slf.get_type().into_any(), args))
    }

    fn __repr__(&self) -> String {
        format!(
            "Cleaner(model={}, method={:?}, threshold={})",
            self.model_name
                .as_deref()
                .map_or("None".into(), |m| format!("{m:?}")),
            self.method,
            self.inner.threshold(InputKind::Html)
        )
    }
}

/// The names of the models built into the module.
/// A word n-gram model for perplexity filtering (PyPlexity's method),
/// loaded once; immutable and safe to share between threads.
#[pyclass(frozen, module = "ncleaner")]
struct WordModel {
    lm: Arc<ncleaner::lm::WordLm>,
    name: String,
}

/// Loads a word model by name (`en-ppl`) or path (ours or ARPA), the
/// embedded ones once per process.
fn load_word_model(name: &str) -> PyResult<Arc<ncleaner::lm::WordLm>> {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    static EMBEDDED: OnceLock<Mutex<HashMap<String, Arc<ncleaner::lm::WordLm>>>> = OnceLock::new();
    if ncleaner::lm::file::EMBEDDED.iter().any(|(n, _)| *n == name) {
        let map = EMBEDDED.get_or_init(Default::default);
        let mut map = map.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(m) = map.get(name) {
            return Ok(m.clone());
        }
        let m = Arc::new(
            ncleaner::lm::file::embedded(name)
                .map_err(|e| NCleanerError::new_err(e.to_string()))?,
        );
        map.insert(name.to_owned(), m.clone());
        return Ok(m);
    }
    ncleaner::lm::file::open(name)
        .map(Arc::new)
        .map_err(|e| NCleanerError::new_err(e.to_string()))
}

fn sentence_filter(
    lm: &Arc<ncleaner::lm::WordLm>,
    max_perplexity: f64,
) -> PyResult<SentenceFilter> {
    SentenceFilter::new(lm.clone())
        .with_max_perplexity(max_perplexity)
        .map_err(|e| PyValueError::new_err(format!("max_perplexity={max_perplexity}: {e}")))
}

#[pymethods]
impl WordModel {
    #[new]
    #[pyo3(signature = (model="en-ppl"))]
    fn new(model: &str) -> PyResult<WordModel> {
        Ok(WordModel {
            lm: load_word_model(model)?,
            name: model.to_owned(),
        })
    }

    /// The model's name or path, as given.
    #[getter]
    fn model(&self) -> &str {
        &self.name
    }

    /// The perplexity of one sentence (tokenized as the model was trained).
    fn perplexity(&self, py: Python<'_>, sentence: &str) -> f64 {
        let filter = SentenceFilter::new(self.lm.clone());
        let sentence = sentence.to_owned();
        py.allow_threads(move || filter.perplexity(&sentence))
    }

    /// Every sentence of `text` (split within lines) as `(sentence,
    /// perplexity, keep)`, `keep` when the perplexity is at most the cut-off.
    #[pyo3(signature = (text, max_perplexity=DEFAULT_MAX_PERPLEXITY))]
    fn sentences(
        &self,
        py: Python<'_>,
        text: &str,
        max_perplexity: f64,
    ) -> PyResult<Vec<(String, f64, bool)>> {
        let filter = sentence_filter(&self.lm, max_perplexity)?;
        let text = text.to_owned();
        Ok(py.allow_threads(move || {
            filter
                .score_lines(&text)
                .into_iter()
                .map(|s| (s.text, s.perplexity, s.keep))
                .collect()
        }))
    }

    /// `text` without its sentences above the cut-off: each line keeps its
    /// kept sentences, joined by spaces; lines left empty go. Returns the
    /// text and the number of sentences removed.
    #[pyo3(signature = (text, max_perplexity=DEFAULT_MAX_PERPLEXITY))]
    fn filter(&self, py: Python<'_>, text: &str, max_perplexity: f64) -> PyResult<(String, usize)> {
        let filter = sentence_filter(&self.lm, max_perplexity)?;
        let text = text.to_owned();
        Ok(py.allow_threads(move || filter.filter_lines(&text)))
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((slf.get_type().into_any(), (slf.get().name.clone(),)))
    }

    fn __repr__(&self) -> String {
        format!(
            "WordModel(model={:?}, order={})",
            self.name,
            self.lm.order()
        )
    }
}

/// The perplexity of one sentence under a word model (`en-ppl` by default,
/// loaded once per process).
#[pyfunction]
#[pyo3(signature = (sentence, model="en-ppl"))]
fn perplexity(py: Python<'_>, sentence: &str, model: &str) -> PyResult<f64> {
    let lm = load_word_model(model)?;
    let filter = SentenceFilter::new(lm);
    let sentence = sentence.to_owned();
    Ok(py.allow_threads(move || filter.perplexity(&sentence)))
}

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
    m.add_class::<WordModel>()?;
    m.add_function(wrap_pyfunction!(perplexity, m)?)?;
    m.add_function(wrap_pyfunction!(embedded_models, m)?)?;
    m.add("NCleanerError", m.py().get_type::<NCleanerError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
