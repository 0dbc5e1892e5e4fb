//! Word n-gram models for perplexity filtering (PyPlexity's method):
//! `WordModel` and `perplexity()`.

use std::sync::Arc;

use ncleaner::{DEFAULT_MAX_PERPLEXITY, SentenceFilter};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::NCleanerError;

/// A word n-gram model for perplexity filtering (PyPlexity's method),
/// loaded once; immutable and safe to share between threads.
#[pyclass(frozen, module = "ncleaner")]
pub(crate) struct WordModel {
    lm: Arc<ncleaner::WordLm>,
    name: String,
}

/// Loads a word model by name (`en-ppl`) or path (ours or ARPA), the
/// embedded ones once per process.
pub(crate) fn load_word_model(name: &str) -> PyResult<Arc<ncleaner::WordLm>> {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    static EMBEDDED: OnceLock<Mutex<HashMap<String, Arc<ncleaner::WordLm>>>> = OnceLock::new();
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
    ncleaner::WordLm::open(name)
        .map(Arc::new)
        .map_err(|e| NCleanerError::new_err(e.to_string()))
}

fn sentence_filter(lm: &Arc<ncleaner::WordLm>, max_perplexity: f64) -> PyResult<SentenceFilter> {
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
pub(crate) fn perplexity(py: Python<'_>, sentence: &str, model: &str) -> PyResult<f64> {
    let lm = load_word_model(model)?;
    let filter = SentenceFilter::new(lm);
    let sentence = sentence.to_owned();
    Ok(py.allow_threads(move || filter.perplexity(&sentence)))
}
