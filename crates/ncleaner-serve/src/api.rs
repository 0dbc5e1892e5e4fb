//! The JSON API's handlers.

use std::sync::Arc;
use std::time::Instant;

use axum::Json;
use axum::body::{Body, Bytes};
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use http_body_util::{BodyExt, LengthLimitError, Limited};
use ncleaner::classify::{self, Method, Reason};
use ncleaner::perplexity::{DEFAULT_MAX_PERPLEXITY, SentenceFilter};
use ncleaner::{Cleaned, Cleaner, InputKind, Route, Routes};
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::AppState;

/// An error answered as `{"error": "..."}` with its status.
#[derive(Debug)]
pub(crate) struct ApiError(StatusCode, String);

impl ApiError {
    fn bad(msg: impl Into<String>) -> ApiError {
        ApiError(StatusCode::BAD_REQUEST, msg.into())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.0, Json(json!({ "error": self.1 }))).into_response()
    }
}

/// `POST /api/clean` as JSON. Exactly one of `html` and `text`.
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct CleanRequest {
    /// An HTML page.
    pub html: Option<String>,
    /// A plain-text dump.
    pub text: Option<String>,
    /// The page's URL, echoed in the answer.
    pub url: Option<String>,
    /// A URL to fetch and clean instead of `html`/`text` (servers started with `--allow-fetch`).
    pub fetch: Option<String>,
    /// Model name (`GET /api/models`); default: the server's first.
    pub model: Option<String>,
    /// `ncleaner` (default), `heuristics` or `keep-all`.
    pub method: Option<String>,
    /// Decision threshold in bits of log-odds; default: the model's operating point.
    pub threshold: Option<f64>,
}

/// Query parameters of `POST /api/clean` with a raw body.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CleanParams {
    url: Option<String>,
    model: Option<String>,
    method: Option<String>,
    threshold: Option<f64>,
}

/// One segment in the answer.
#[derive(Debug, Serialize, Deserialize)]
pub struct SegmentOut {
    /// `p`, `h` or `l`.
    pub kind: String,
    /// The segment's text.
    pub text: String,
    /// Whether it is kept.
    pub keep: bool,
    /// The n-gram log-odds in bits (absent without a model).
    pub score: Option<f64>,
    /// The classifier's probability of being clean (models with a classifier).
    pub probability: Option<f64>,
    /// What was compared with the threshold: log2(p / (1 − p)) with a
    /// classifier, else the score; absent when a rule or the method decided.
    pub evidence: Option<f64>,
    /// The rule or method that decided, if not the threshold.
    pub rule: Option<String>,
}

/// `POST /api/clean`.
pub(crate) async fn clean(
    State(st): State<Arc<AppState>>,
    headers: HeaderMap,
    params: Result<Query<CleanParams>, axum::extract::rejection::QueryRejection>,
    body: Body,
) -> Result<Response, ApiError> {
    let start = Instant::now();
    let deadline = tokio::time::Instant::now() + st.timeout;
    let Query(params) =
        params.map_err(|e| ApiError::bad(format!("query string: {}", e.body_text())))?;
    let bytes = read_body(&st, &headers, body, deadline).await?;
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(|v| {
            v.split(';')
                .next()
                .unwrap_or("")
                .trim()
                .to_ascii_lowercase()
        })
        .unwrap_or_default();
    let mut charset: Option<String> = None;
    let (doc, input, req) = if content_type == "application/json" {
        let mut req: CleanRequest =
            serde_json::from_slice(&bytes).map_err(|e| ApiError::bad(format!("JSON body: {e}")))?;
        let (doc, input) = match (req.html.as_ref(), req.text.as_ref(), req.fetch.as_ref()) {
            (Some(h), None, None) => (Bytes::from(h.clone().into_bytes()), InputKind::Html),
            (None, Some(t), None) => (Bytes::from(t.clone().into_bytes()), InputKind::Text),
            (None, None, Some(u)) => {
                let Some(fetcher) = st.fetcher.as_ref() else {
                    return Err(ApiError(
                        StatusCode::FORBIDDEN,
                        "fetching is off: start the server with --allow-fetch".into(),
                    ));
                };
                let (body, final_url, label) = fetcher.fetch(u).await.map_err(|e| {
                    ApiError(
                        StatusCode::from_u16(e.0).unwrap_or(StatusCode::BAD_GATEWAY),
                        e.1,
                    )
                })?;
                req.url.get_or_insert(final_url);
                charset = label;
                (Bytes::from(body), InputKind::Auto)
            }
            _ => {
                return Err(ApiError::bad(
                    "give exactly one of \"html\", \"text\" and \"fetch\"",
                ));
            }
        };
        (doc, input, req)
    } else {
        charset = headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .and_then(|ct| {
                ct.split(';').find_map(|p| {
                    p.trim()
                        .strip_prefix("charset=")
                        .map(|c| c.trim_matches('"').to_owned())
                })
            });
        let input = match content_type.as_str() {
            "text/html" | "application/xhtml+xml" => InputKind::Html,
            "text/plain" => InputKind::Text,
            _ => InputKind::Auto,
        };
        let req = CleanRequest {
            url: params.url,
            model: params.model,
            method: params.method,
            threshold: params.threshold,
            ..CleanRequest::default()
        };
        (bytes, input, req)
    };
    let model_name = req
        .model
        .clone()
        .unwrap_or_else(|| st.default_model.clone());
    let model = st.models.get(&model_name).cloned().ok_or_else(|| {
        ApiError::bad(format!(
            "unknown model {model_name:?}; the models are {}",
            st.models.keys().cloned().collect::<Vec<_>>().join(", ")
        ))
    })?;
    let method = match req.method.as_deref().unwrap_or("ncleaner") {
        "ncleaner" => Method::NCleaner,
        "heuristics" => Method::Heuristics,
        "keep-all" => Method::KeepAll,
        "perplexity" => Method::Perplexity,
        m => {
            return Err(ApiError::bad(format!(
                "unknown method {m:?}; use ncleaner, heuristics, keep-all or perplexity"
            )));
        }
    };
    if let Some(t) = req.threshold
        && !t.is_finite()
    {
        return Err(ApiError::bad("threshold must be a finite number"));
    }
    // One model, the one asked for; its "route" makes the library identify
    // the page's language for the answer (about 0.1 ms).
    let cleaner = Cleaner::routed(Routes::new(Route {
        name: model_name.as_str().into(),
        model,
    }))
    .with_method(method)
    .with_threshold_option(req.threshold);

    let url = req.url.clone();
    let (cleaned, threshold) = on_worker(&st, deadline, "cleaning", move || {
        let cleaned = cleaner.clean_with_charset(&doc, input, url.as_deref(), charset.as_deref());
        let threshold = cleaner.threshold(cleaned.input);
        (cleaned, threshold)
    })
    .await?;
    Ok(Json(answer(&cleaned, &model_name, method, threshold, start)).into_response())
}

/// Runs CPU-bound work on the blocking pool under the server's limits:
/// 503 when `max_pending` requests already wait, when no worker frees up
/// before the deadline, or when the work outlasts it; 500 if it panics.
/// `what` names the work in the messages.
async fn on_worker<T: Send + 'static>(
    st: &AppState,
    deadline: tokio::time::Instant,
    what: &str,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ApiError> {
    let busy = |msg: String| ApiError(StatusCode::SERVICE_UNAVAILABLE, msg);
    let Ok(_waiting) = st.pending.try_acquire() else {
        return Err(busy("server busy: too many requests waiting".into()));
    };
    let Ok(Ok(_permit)) = tokio::time::timeout_at(deadline, st.workers.acquire()).await else {
        return Err(busy("server busy: no worker within the time limit".into()));
    };
    match tokio::time::timeout_at(deadline, tokio::task::spawn_blocking(work)).await {
        Ok(Ok(r)) => Ok(r),
        Ok(Err(e)) => Err(ApiError(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("{what} failed: {e}"),
        )),
        Err(_) => Err(busy(format!("{what} took longer than the time limit"))),
    }
}

/// Reads the body: 413 over the limit (by `Content-Length` at once, else
/// while reading), 408 when it does not arrive before the deadline.
async fn read_body(
    st: &AppState,
    headers: &HeaderMap,
    body: Body,
    deadline: tokio::time::Instant,
) -> Result<Bytes, ApiError> {
    let too_large = || {
        ApiError(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("body larger than {} bytes", st.max_body),
        )
    };
    if let Some(len) = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok()?.parse::<u64>().ok())
        && len > st.max_body as u64
    {
        return Err(too_large());
    }
    match tokio::time::timeout_at(deadline, Limited::new(body, st.max_body).collect()).await {
        Err(_) => Err(ApiError(
            StatusCode::REQUEST_TIMEOUT,
            "the body did not arrive within the time limit".into(),
        )),
        Ok(Err(e)) if e.downcast_ref::<LengthLimitError>().is_some() => Err(too_large()),
        Ok(Err(e)) => Err(ApiError::bad(format!("reading the body: {e}"))),
        Ok(Ok(c)) => Ok(c.to_bytes()),
    }
}

/// The answer to a cleaned document.
fn answer(
    doc: &Cleaned,
    model: &str,
    method: Method,
    threshold: f64,
    start: Instant,
) -> serde_json::Value {
    let segments: Vec<SegmentOut> = doc
        .segments
        .iter()
        .map(|s| {
            let rule = match s.decision.reason {
                Reason::Score => None,
                Reason::Heuristic { rule } => Some(
                    serde_json::to_value(rule)
                        .ok()
                        .and_then(|v| v.as_str().map(String::from))
                        .unwrap_or_else(|| format!("{rule:?}")),
                ),
                Reason::KeepAll => Some("keep-all".into()),
                Reason::NoHeuristic => Some("no-heuristic".into()),
                Reason::Perplexity => Some("perplexity".into()),
                Reason::PageQuality => Some("page-quality".into()),
            };
            SegmentOut {
                kind: s.segment.kind.letter().to_string(),
                text: s.text().to_string(),
                keep: s.keep(),
                score: s.score,
                probability: s.probability,
                evidence: if rule.is_none() {
                    s.probability.map(classify::log2_odds).or(s.score)
                } else {
                    None
                },
                rule,
            }
        })
        .collect();
    json!({
        "url": doc.url,
        "model": model,
        "language": doc.language,
        "method": match method { Method::NCleaner => "ncleaner", Method::Heuristics => "heuristics", Method::KeepAll => "keep-all", Method::Perplexity => "perplexity" },
        "input": match doc.input { InputKind::Text => "text", _ => "html" },
        "threshold": threshold,
        "segments": segments,
        "text": doc.text().trim_end(),
        "words_in": doc.words_in(),
        "words_out": doc.words_out(),
        "page_quality": doc.quality,
        "elapsed_ms": start.elapsed().as_secs_f64() * 1e3,
    })
}

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

/// `POST /api/perplexity`: every sentence of the text (split within lines)
/// with its perplexity and whether it is at most the cut-off.
pub(crate) async fn perplexity(
    State(st): State<Arc<AppState>>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let start = Instant::now();
    let deadline = tokio::time::Instant::now() + st.timeout;
    let bytes = read_body(&st, &headers, body, deadline).await?;
    let req: PerplexityRequest =
        serde_json::from_slice(&bytes).map_err(|e| ApiError::bad(format!("JSON body: {e}")))?;
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
    let sentences = on_worker(&st, deadline, "scoring", move || filter.score_lines(&text)).await?;
    let kept = sentences.iter().filter(|s| s.keep).count();
    Ok(Json(json!({
        "model": name,
        "max_perplexity": max,
        "sentences": sentences,
        "kept": kept,
        "removed": sentences.len() - kept,
        "elapsed_ms": start.elapsed().as_secs_f64() * 1e3,
    }))
    .into_response())
}

/// `GET /api/models`.
pub(crate) async fn models(State(st): State<Arc<AppState>>) -> Json<serde_json::Value> {
    let list: Vec<serde_json::Value> = st
        .models
        .iter()
        .map(|(name, m)| {
            let c = m.classifier.as_ref();
            json!({
                "name": name,
                "default": *name == st.default_model,
                "n": m.meta.n,
                "q": m.meta.q,
                "alphabet": m.meta.alphabet.name(),
                "classifier": c.is_some(),
                "threshold": { "html": c.map_or(0.0, |c| c.default_threshold(true)), "text": c.map_or(0.0, |c| c.default_threshold(false)) },
            })
        })
        .collect();
    let words: Vec<serde_json::Value> = st
        .word_models
        .iter()
        .map(|(name, m)| {
            json!({
                "name": name,
                "default": Some(name) == st.default_word_model.as_ref(),
                "order": m.order(),
                "vocabulary": m.vocab().len(),
            })
        })
        .collect();
    Json(json!({ "models": list, "word_models": words }))
}

/// Unknown paths.
pub(crate) async fn not_found() -> ApiError {
    ApiError(
        StatusCode::NOT_FOUND,
        "no such route; see /api/openapi.json".into(),
    )
}
