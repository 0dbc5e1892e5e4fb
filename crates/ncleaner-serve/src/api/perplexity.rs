//! `POST /api/perplexity`: every sentence of a text with its perplexity,
//! bounded as `/api/clean` is: the body by `--max-body`, the answer by
//! `--max-answer`, refused (413) before any scoring when the sentences
//! alone would pass it, and written as it is serialised, with no JSON tree
//! of it built first.

use std::sync::Arc;
use std::time::Instant;

use axum::body::Body;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use ncleaner::perplexity::each_sentence_of_lines;
use ncleaner::{DEFAULT_MAX_PERPLEXITY, SentenceFilter};
use serde::{Deserialize, Serialize};

use super::{ApiError, answer_too_large, check, json_response, on_worker, read_body, serialise};
use crate::AppState;

/// `POST /api/perplexity`: `{text, model?, max_perplexity?}`.
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PerplexityRequest {
    /// The text: each line is split into sentences.
    pub text: String,
    /// Word model name (`GET /api/models`, `word_models`); default: the server's first.
    pub model: Option<String>,
    /// The cut-off that decides `keep` (default 8000, PyPlexity's).
    pub max_perplexity: Option<f64>,
}

/// The fewest bytes one sentence adds to an answer besides its text:
/// `{"keep":true,"perplexity":1.0,"text":""},` is 41.
const SENTENCE_OVERHEAD: usize = 40;

/// `POST /api/perplexity`: every sentence of the text (split within lines)
/// with its perplexity and whether it is at most the cut-off.
pub(crate) async fn perplexity(
    State(st): State<Arc<AppState>>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let start = Instant::now();
    let deadline = tokio::time::Instant::now() + st.timeout;
    let (bytes, held) = read_body(&st, &headers, body, deadline).await?;
    let req: PerplexityRequest =
        serde_json::from_slice(&bytes).map_err(|e| ApiError::bad(format!("JSON body: {e}")))?;
    drop(bytes);
    let name = req
        .model
        .clone()
        .or_else(|| st.default_word_model.clone())
        .ok_or_else(|| ApiError::bad("this server has no word model"))?;
    let lm = st.word_models.get(&name).cloned().ok_or_else(|| {
        ApiError::bad(format!(
            "unknown word model {name:?}; the word models are {}",
            st.word_models
                .keys()
                .cloned()
                .collect::<Vec<_>>()
                .join(", ")
        ))
    })?;
    let max = req.max_perplexity.unwrap_or(DEFAULT_MAX_PERPLEXITY);
    let filter = SentenceFilter::new(lm)
        .with_max_perplexity(max)
        .map_err(|e| ApiError::bad(e.to_string()))?;
    let text = req.text;
    let max_answer = st.max_answer;
    let json = on_worker(&st, deadline, "scoring", held, move |cancel| {
        // Each sentence costs its text and its fields in the answer:
        // refuse a text whose answer cannot fit before scoring it.
        let mut least = 0usize;
        for (n, s) in each_sentence_of_lines(&text).enumerate() {
            least = least.saturating_add(s.len() + SENTENCE_OVERHEAD);
            if least > max_answer {
                return Err(answer_too_large(max_answer));
            }
            if n % 1024 == 0 {
                check(cancel)?;
            }
        }
        // A number per sentence; the sentences are split again as they
        // are written.
        let mut perplexities = Vec::new();
        for (n, s) in each_sentence_of_lines(&text).enumerate() {
            perplexities.push(filter.perplexity(s));
            if n % 1024 == 0 {
                check(cancel)?;
            }
        }
        let kept = perplexities.iter().filter(|&&p| p <= max).count();
        let answer = Answer {
            elapsed_ms: start.elapsed().as_secs_f64() * 1e3,
            kept,
            max_perplexity: max,
            model: &name,
            removed: perplexities.len() - kept,
            sentences: Sentences {
                text: &text,
                perplexities: &perplexities,
                max,
            },
        };
        serialise(&answer, max_answer, cancel)
    })
    .await?;
    Ok(json_response(json))
}

/// The answer (its fields in the order they always had).
#[derive(Serialize)]
struct Answer<'a> {
    elapsed_ms: f64,
    kept: usize,
    max_perplexity: f64,
    model: &'a str,
    removed: usize,
    sentences: Sentences<'a>,
}

/// The sentences of a text with their perplexities, serialised as the
/// text is split again.
struct Sentences<'a> {
    text: &'a str,
    perplexities: &'a [f64],
    max: f64,
}

/// One sentence of the answer (its fields in the order they always had).
#[derive(Serialize)]
struct Sentence<'a> {
    keep: bool,
    perplexity: f64,
    text: &'a str,
}

impl Serialize for Sentences<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = s.serialize_seq(Some(self.perplexities.len()))?;
        for (text, &perplexity) in each_sentence_of_lines(self.text).zip(self.perplexities) {
            seq.serialize_element(&Sentence {
                keep: perplexity <= self.max,
                perplexity,
                text,
            })?;
        }
        seq.end()
    }
}
