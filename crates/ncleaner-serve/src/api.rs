//! The JSON API's handlers.

use std::sync::Arc;
use std::time::Instant;

use axum::Json;
use axum::body::{Body, Bytes};
use axum::extract::{RawQuery, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use http_body_util::{BodyExt, LengthLimitError, Limited};
use ncleaner::format::CleanedRecord;
use ncleaner::{Cancel, CleanOptions, Cleaner, InputKind};
use ncleaner::{Models, OptionValue};
use ncleaner_corpus::identify::{Identified, IdentifyOptions, identify};
use serde::Serialize;
use serde_json::json;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::AppState;

mod perplexity;
pub(crate) use perplexity::perplexity;

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

/// `POST /api/clean` as JSON: `html` or `text` (the HTML is cleaned when
/// both are given, as in JSON Lines and Parquet inputs) or `fetch`, the
/// page's `url`, and any cleaning option ([`CleanOptions`], by its field
/// names, as in Python: `"model": "en"`, `"threshold": 1.5`, `"route":
/// false`, …), with `ncleaner clean`'s defaults and routing. The body is
/// read as a JSON line is ([`ncleaner_corpus::jsonl::object`]): a key given
/// twice is refused, a lone surrogate escape is U+FFFD.
#[derive(Debug, Default, Serialize)]
pub struct CleanRequest {
    /// An HTML page.
    pub html: Option<String>,
    /// A plain-text dump.
    pub text: Option<String>,
    /// The page's URL, echoed in the answer.
    pub url: Option<String>,
    /// A URL to fetch and clean instead of `html`/`text` (servers started with `--allow-fetch`).
    pub fetch: Option<String>,
    /// The cleaning options.
    #[serde(flatten)]
    pub options: CleanOptions,
}

impl CleanRequest {
    /// Reads a JSON body: the document's fields, and the rest as cleaning
    /// options (an unknown field is refused, naming the fields known).
    fn from_json(bytes: &[u8]) -> Result<CleanRequest, ApiError> {
        let text = std::str::from_utf8(bytes)
            .map_err(|e| ApiError::bad(format!("JSON body: not UTF-8 ({e})")))?;
        let mut map = ncleaner_corpus::jsonl::object(text)
            .map_err(|e| ApiError::bad(format!("JSON body: {e}")))?;
        let mut take = |k: &str| match map.remove(k) {
            None | Some(serde_json::Value::Null) => Ok(None),
            Some(serde_json::Value::String(s)) => Ok(Some(s)),
            Some(other) => Err(ApiError::bad(format!(
                "JSON body: {k} must be a string, not {other}"
            ))),
        };
        let (html, text, url, fetch) = (take("html")?, take("text")?, take("url")?, take("fetch")?);
        let options = serde_json::from_value(serde_json::Value::Object(map)).map_err(|e| {
            ApiError::bad(format!(
                "JSON body: {e}; the fields are html, text, fetch, url and the options {}",
                CleanOptions::NAMES.join(", ")
            ))
        })?;
        Ok(CleanRequest {
            html,
            text,
            url,
            fetch,
            options,
        })
    }

    /// Reads the query string of a raw body: `url` and the cleaning
    /// options, each value read by its option's type
    /// ([`CleanOptions::set`]; `model` may be given more than once).
    fn from_query(query: Option<&str>) -> Result<CleanRequest, ApiError> {
        let mut req = CleanRequest::default();
        let mut models = Vec::new();
        for (k, v) in url::form_urlencoded::parse(query.unwrap_or("").as_bytes()) {
            match &*k {
                "url" => req.url = Some(v.into_owned()),
                "model" => models.push(v.into_owned()),
                _ => req
                    .options
                    .set(&k, OptionValue::Str(v.into_owned()))
                    .map_err(|e| ApiError::bad(format!("query string: {e}")))?,
            }
        }
        req.options.model = models;
        Ok(req)
    }
}

/// The served models, and the embedded ones by name.
struct Served<'a>(&'a AppState);

impl Models for Served<'_> {
    fn model(&self, name: &str) -> ncleaner::Result<Arc<ncleaner::Model>> {
        if let Some(m) = self.0.models.get(name) {
            return Ok(m.clone());
        }
        // The embedded models are no file a request could name: always
        // available, opened once.
        if let Some(m) = self.0.embedded.get(name) {
            return m
                .get_or_init(|| {
                    ncleaner::model::embedded(name)
                        .map(Arc::new)
                        .map_err(|e| e.to_string())
                })
                .clone()
                .map_err(ncleaner::Error::Parameter);
        }
        Err(ncleaner::Error::Parameter(format!(
            "unknown model {name:?}; the models are {}",
            self.0.models.keys().cloned().collect::<Vec<_>>().join(", ")
        )))
    }

    fn word_model(&self, name: &str) -> ncleaner::Result<Arc<ncleaner::WordLm>> {
        self.0.word_models.get(name).cloned().ok_or_else(|| {
            ncleaner::Error::Parameter(format!(
                "unknown word model {name:?}; the word models are {}",
                self.0
                    .word_models
                    .keys()
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })
    }
}

/// The cleaner a request's options describe, with the served models (a
/// request that names no model gets the server's, [`crate::default_models`]);
/// a bad option is a 400 that names it.
fn cleaner_of(st: &AppState, options: &CleanOptions) -> Result<Cleaner, ApiError> {
    let mut options = options.clone();
    if options.model.is_empty() && options.route {
        options.model = st.default_models.0.clone();
        if options.fallback_model == ncleaner::DEFAULT_FALLBACK {
            options.fallback_model = st.default_models.1.clone();
        }
    }
    options.cleaner_with(&Served(st)).map_err(|e| match e {
        ncleaner::Error::Option(o) => ApiError::bad(o.to_string()),
        e => ApiError::bad(e.to_string()),
    })
}

/// `POST /api/clean`.
pub(crate) async fn clean(
    State(st): State<Arc<AppState>>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
    body: Body,
) -> Result<Response, ApiError> {
    let start = Instant::now();
    let deadline = tokio::time::Instant::now() + st.timeout;
    let (bytes, mut held) = read_body(&st, &headers, body, deadline).await?;
    let content_type = media_type(&headers);
    let Received {
        doc,
        input,
        charset,
        req,
    } = if content_type == "application/json" {
        from_json(&st, bytes, deadline, &mut held).await?
    } else {
        from_raw(&headers, &content_type, query.as_deref(), bytes)?
    };
    let job = CleanJob {
        // The options of `ncleaner clean`, with its defaults and routing: a
        // model named takes the pages of its languages, `en-nonlex` the others.
        cleaner: cleaner_of(&st, &req.options)?,
        method: req.options.method.as_str(),
        input,
        url: req.url,
        charset,
        // Only raw bodies have a `Content-Encoding` of their own: a JSON body's
        // strings are text, and a fetched page's encoding is its magic bytes'.
        content_encoding: match content_type.as_str() {
            "application/json" => None,
            _ => headers
                .get(header::CONTENT_ENCODING)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned),
        },
        max_answer: st.max_answer,
        max_body: st.max_body,
        start,
    };
    let large = doc.len() > RELEASE_AFTER;
    let json = on_worker(&st, deadline, "cleaning", held, move |cancel| {
        job.run(doc, cancel)
    })
    .await;
    if large {
        // Once the answer, which the server holds until it is sent, is gone too.
        tokio::spawn(async {
            tokio::time::sleep(std::time::Duration::from_millis(500)).await;
            release_memory();
        });
    }
    Ok(json_response(json?))
}

/// The media type of a request's `Content-Type`, lower-case, without its
/// parameters (empty when there is none).
fn media_type(headers: &HeaderMap) -> String {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(|v| {
            v.split(';')
                .next()
                .unwrap_or("")
                .trim()
                .to_ascii_lowercase()
        })
        .unwrap_or_default()
}

/// The document of a request to clean, as received or fetched.
struct Received {
    /// The document's bytes.
    doc: Bytes,
    /// How they are read.
    input: InputKind,
    /// The charset a `Content-Type` gave them, if any.
    charset: Option<String>,
    /// The request: the page's URL and the cleaning options.
    req: CleanRequest,
}

/// The document of a JSON request: its `html` or `text`, or the page its
/// `fetch` names, fetched within the request's time limit.
async fn from_json(
    st: &AppState,
    bytes: Bytes,
    deadline: tokio::time::Instant,
    held: &mut Held,
) -> Result<Received, ApiError> {
    let mut req = CleanRequest::from_json(&bytes)?;
    drop(bytes);
    let mut charset = None;
    let (doc, input) = match (req.html.take(), req.text.take(), req.fetch.as_ref()) {
        (Some(h), _, None) => (json_string_bytes(h), InputKind::Html),
        (None, Some(t), None) => (json_string_bytes(t), InputKind::Text),
        (None, None, Some(u)) => {
            let (body, final_url, label) = fetch(st, u, deadline, held).await?;
            req.url.get_or_insert(final_url);
            charset = label;
            (Bytes::from(body), req.options.input)
        }
        _ => {
            return Err(ApiError::bad(
                "give \"html\" or \"text\" (the HTML is cleaned when both are given), \
                 or \"fetch\" alone",
            ));
        }
    };
    Ok(Received {
        doc,
        input,
        charset,
        req,
    })
}

/// The page at `url`: its body, its final URL and its charset label. A
/// fetch waits on the network, not on a core: it holds no worker (the
/// cleaning after it takes one, as any request's does), only its place
/// among the pending requests and its bytes from their budget, like a
/// body, all within the request's time limit.
async fn fetch(
    st: &AppState,
    url: &str,
    deadline: tokio::time::Instant,
    held: &mut Held,
) -> Result<(Vec<u8>, String, Option<String>), ApiError> {
    let Some(fetcher) = st.fetcher.as_ref() else {
        return Err(ApiError(
            StatusCode::FORBIDDEN,
            "fetching is off: start the server with --allow-fetch".into(),
        ));
    };
    let budget = st.bytes.clone();
    let bytes_held = &mut held.bytes;
    let charge = |n: usize| held_charge(&budget, bytes_held, n);
    let fetched = tokio::time::timeout_at(deadline, fetcher.fetch_charged(url, charge))
        .await
        .map_err(|_| {
            ApiError(
                StatusCode::GATEWAY_TIMEOUT,
                "fetching took longer than the time limit".into(),
            )
        })?;
    fetched.map_err(|e| {
        ApiError(
            StatusCode::from_u16(e.0).unwrap_or(StatusCode::BAD_GATEWAY),
            e.1,
        )
    })
}

/// The document of a raw body: the body itself, read as its media type
/// says (else as the query's `input`), the options and URL from the query.
fn from_raw(
    headers: &HeaderMap,
    content_type: &str,
    query: Option<&str>,
    bytes: Bytes,
) -> Result<Received, ApiError> {
    let charset = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|ct| {
            ct.split(';').find_map(|p| {
                p.trim()
                    .strip_prefix("charset=")
                    .map(|c| c.trim_matches('"').to_owned())
            })
        });
    let req = CleanRequest::from_query(query)?;
    let input = match content_type {
        "text/html" | "application/xhtml+xml" => InputKind::Html,
        "text/plain" => InputKind::Text,
        _ => req.options.input,
    };
    Ok(Received {
        doc: bytes,
        input,
        charset,
        req,
    })
}

/// What a worker needs to clean a request's document and answer it.
struct CleanJob {
    cleaner: Cleaner,
    /// The method that decides, for the answer.
    method: &'static str,
    input: InputKind,
    url: Option<String>,
    charset: Option<String>,
    /// The raw body's `Content-Encoding`.
    content_encoding: Option<String>,
    /// The largest answer, in bytes (`--max-answer`).
    max_answer: usize,
    /// The largest document, in bytes, once decompressed (`--max-body`).
    max_body: usize,
    /// When the request came.
    start: Instant,
}

impl CleanJob {
    /// The JSON answer of `doc` cleaned.
    fn run(self, doc: Bytes, cancel: &Cancel) -> Result<Vec<u8>, ApiError> {
        // The bytes identified first: decompressed, or refused when binary.
        let opts = IdentifyOptions {
            content_encoding: self.content_encoding.as_deref(),
            max: self.max_body,
            detect_binary: true,
        };
        let (bytes, cut_short) = match identify(&doc[..], opts) {
            Identified::Document {
                bytes, truncated, ..
            } => (bytes, truncated),
            Identified::NotADocument(what) => {
                return Err(ApiError(
                    StatusCode::UNSUPPORTED_MEDIA_TYPE,
                    format!("not a document: {what}; send an HTML page or a text dump"),
                ));
            }
            Identified::TooLarge(why) => return Err(ApiError(StatusCode::PAYLOAD_TOO_LARGE, why)),
            Identified::Failed(why) if why.starts_with("unsupported") => {
                return Err(ApiError(StatusCode::UNSUPPORTED_MEDIA_TYPE, why));
            }
            Identified::Failed(why) => return Err(ApiError::bad(why)),
        };
        // The work looks at `cancel` between its stages (decoding, segmenting,
        // cleaning, serialising) and, within them, every so many segments.
        let decoded =
            ncleaner::decode::decode(&bytes, self.url.as_deref(), self.charset.as_deref());
        drop(bytes);
        drop(doc);
        check(cancel)?;
        // Every segment costs at least `SEGMENT_OVERHEAD` bytes of answer, and
        // its text twice (in `segments` and in `text`): a page whose answer
        // cannot fit is refused once its segments are read, before any is
        // classified (the page is read once).
        let max_answer = self.max_answer;
        let fits = |segments: &[ncleaner::Segment]| {
            let least: usize = segments
                .iter()
                .map(|s| 2 * s.text().len() + SEGMENT_OVERHEAD)
                .sum();
            least <= max_answer
        };
        let Some(mut cleaned) = self
            .cleaner
            .clean_document_admitted(decoded, self.input, cancel, fits)
            .map_err(|_| stopped())?
        else {
            return Err(answer_too_large(max_answer));
        };
        cleaned.truncated = match (cut_short, cleaned.truncated.take()) {
            (Some(a), Some(b)) => Some(format!("{a}; {b}")),
            (a, b) => a.or(b),
        };
        check(cancel)?;
        // The one record of a cleaned document, every field present (the
        // cut that decided it among them), with the method and the time;
        // its segments are written one by one, with cancellation looked at
        // between them.
        let mut answer = CleanedRecord::full(&cleaned);
        answer.method = Some(self.method);
        answer.elapsed_ms = Some(self.start.elapsed().as_secs_f64() * 1e3);
        let answer = answer.cancelled_by(cancel);
        serialise(&answer, max_answer, cancel)
    }
}

/// The bytes of a JSON request's `html` or `text`: compressed bytes the
/// client stored one character per byte are given back as bytes (they are
/// then decompressed), other strings as their UTF-8.
fn json_string_bytes(s: String) -> Bytes {
    match ncleaner_corpus::identify::latin1_compressed(&s) {
        Some(packed) => Bytes::from(packed),
        None => Bytes::from(s.into_bytes()),
    }
}

/// Requests whose body is larger than this give their memory back to the
/// system when they end ([`release_memory`]).
const RELEASE_AFTER: usize = 1 << 20;

/// Gives the memory freed by a large request back to the system: glibc's
/// allocator keeps freed memory in its per-thread arenas otherwise, and
/// the server's resident memory stays near its peak after a burst of large
/// pages (BENCHMARKS.md, "Crawl safety", has the figures with and without
/// the trim). Costs about a millisecond, and only after large requests.
fn release_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim takes no pointer and only returns free memory to
    // the system; glibc makes it safe to call from any thread at any time.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// The fewest bytes one segment adds to an answer besides its text:
/// `{"evidence":null,"keep":true,"kind":"p","probability":null,"reason":{"by":"score"},"score":null,"text":""},`
/// is 103.
const SEGMENT_OVERHEAD: usize = 90;

fn busy(msg: String) -> ApiError {
    ApiError(StatusCode::SERVICE_UNAVAILABLE, msg)
}

fn answer_too_large(max: usize) -> ApiError {
    ApiError(
        StatusCode::PAYLOAD_TOO_LARGE,
        format!(
            "the answer would be larger than {max} bytes (--max-answer); send a smaller document"
        ),
    )
}

fn json_response(json: Vec<u8>) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], json).into_response()
}

/// What a request holds while it is in flight: its place among the pending
/// requests and its body bytes. Moved into the work, so that both are given
/// back when the work really ends, not when the request is answered.
pub(crate) struct Held {
    _pending: OwnedSemaphorePermit,
    bytes: Option<OwnedSemaphorePermit>,
}

impl Held {
    /// A place among the pending requests, or 503.
    fn take(st: &AppState) -> Result<Held, ApiError> {
        let pending = st
            .pending
            .clone()
            .try_acquire_owned()
            .map_err(|_| busy("server busy: too many requests waiting".into()))?;
        Ok(Held {
            _pending: pending,
            bytes: None,
        })
    }
}

/// Takes `n` more bytes from the budget into `held`; false when spent.
fn held_charge(budget: &Arc<Semaphore>, held: &mut Option<OwnedSemaphorePermit>, n: usize) -> bool {
    if n == 0 {
        return true;
    }
    let Ok(n) = u32::try_from(n) else {
        return false;
    };
    match budget.clone().try_acquire_many_owned(n) {
        Ok(p) => {
            match held {
                Some(h) => h.merge(p),
                None => *held = Some(p),
            }
            true
        }
        Err(_) => false,
    }
}

/// 503 for work stopped by its [`Cancel`] (past the time limit).
fn stopped() -> ApiError {
    busy("the work was stopped at the time limit".into())
}

/// [`stopped`] when the work should stop.
fn check(cancel: &Cancel) -> Result<(), ApiError> {
    cancel.check().map_err(|_| stopped())
}

/// Tells the work to stop when dropped: when its request is answered
/// without it (timed out) or abandoned (the client went away and the
/// handler's future was dropped). Harmless once the work has ended.
struct CancelOnDrop(Arc<Cancel>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

/// Called on the worker before the work, with its [`Cancel`]: the tests'
/// way to hold a worker busy for as long as they want.
#[cfg(test)]
pub(crate) type WorkerHook = Arc<dyn Fn(&Cancel) + Send + Sync>;

/// Runs CPU-bound work on the blocking pool under the server's limits: 503
/// when no worker frees up before the deadline or when the work outlasts it;
/// 500 if it panics. The worker, and what the request `held`, stay taken
/// until the work returns; past the deadline, or when the request is
/// abandoned, it is told to stop through its [`Cancel`] (which also counts
/// as set from the deadline on). `what` names the work in the messages.
async fn on_worker<T: Send + 'static>(
    st: &AppState,
    deadline: tokio::time::Instant,
    what: &str,
    held: Held,
    work: impl FnOnce(&Cancel) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let Ok(Ok(permit)) =
        tokio::time::timeout_at(deadline, st.workers.clone().acquire_owned()).await
    else {
        return Err(busy("server busy: no worker within the time limit".into()));
    };
    let cancel = Arc::new(Cancel::with_deadline(deadline.into_std()));
    let stop = CancelOnDrop(cancel.clone());
    #[cfg(test)]
    let hook = st.worker_hook.clone();
    let task = tokio::task::spawn_blocking(move || {
        #[cfg(test)]
        if let Some(hook) = hook {
            hook(&cancel);
        }
        let r = work(&cancel);
        drop((held, permit));
        r
    });
    let r = match tokio::time::timeout_at(deadline, task).await {
        Ok(Ok(r)) => r,
        Ok(Err(e)) => Err(ApiError(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("{what} failed: {e}"),
        )),
        Err(_) => Err(busy(format!("{what} took longer than the time limit"))),
    };
    drop(stop);
    r
}

/// Takes the request's place among the pending ones ([`Held`]) and reads
/// its body: 503 when the pending requests are too many, 413 over the limit
/// (by `Content-Length` at once, else while reading), 503 when the byte
/// budget of the pending requests is spent (by `Content-Length` before
/// reading, else while reading), 408 when it does not arrive before the
/// deadline. The bytes are charged to the place returned.
///
/// A refusal is answered at once, before the body is read (a client that
/// waits for the answer before it sends its body gets it): the answer then
/// says `Connection: close`, and what the client still sends is read and
/// dropped while the connection closes (`conn`), so that the client is not
/// cut off mid-body.
async fn read_body(
    st: &AppState,
    headers: &HeaderMap,
    body: Body,
    deadline: tokio::time::Instant,
) -> Result<(Bytes, Held), ApiError> {
    let mut body = Limited::new(body, st.max_body);
    let mut held = Held::take(st)?;
    let too_large = || {
        ApiError(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("body larger than {} bytes", st.max_body),
        )
    };
    let spent = || busy("server busy: too many bytes pending (--max-pending-bytes)".into());
    let announced = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    if let Some(len) = announced {
        if len > st.max_body as u64 {
            return Err(too_large());
        }
        if !held_charge(&st.bytes, &mut held.bytes, len as usize) {
            return Err(spent());
        }
    }
    let held_bytes = &mut held.bytes;
    let body = &mut body;
    let read = async {
        let mut buf = Vec::with_capacity(announced.unwrap_or(0) as usize);
        while let Some(frame) = body.frame().await {
            let frame = frame.map_err(|e| {
                if e.downcast_ref::<LengthLimitError>().is_some() {
                    too_large()
                } else {
                    ApiError::bad(format!("reading the body: {e}"))
                }
            })?;
            if let Ok(data) = frame.into_data() {
                let charged = announced.map_or(0, |l| l as usize);
                let beyond = (buf.len() + data.len()).saturating_sub(charged.max(buf.len()));
                if !held_charge(&st.bytes, held_bytes, beyond) {
                    return Err(spent());
                }
                buf.extend_from_slice(&data);
            }
        }
        Ok(Bytes::from(buf))
    };
    let read = tokio::time::timeout_at(deadline, read).await;
    match read {
        Err(_) => Err(ApiError(
            StatusCode::REQUEST_TIMEOUT,
            "the body did not arrive within the time limit".into(),
        )),
        Ok(r) => r.map(|bytes| (bytes, held)),
    }
}

/// Serialises `value` into at most `max` bytes: 413 past it, 503 when cancelled.
fn serialise(value: &impl Serialize, max: usize, cancel: &Cancel) -> Result<Vec<u8>, ApiError> {
    let mut w = Capped {
        buf: Vec::new(),
        max,
        cancel,
        over: false,
    };
    match serde_json::to_writer(&mut w, value) {
        Ok(()) => Ok(w.buf),
        Err(_) if w.over => Err(answer_too_large(max)),
        Err(_) if cancel.is_cancelled() => Err(stopped()),
        Err(e) => Err(ApiError(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("serialising the answer: {e}"),
        )),
    }
}

/// A buffer that refuses to grow past `max` or once cancelled.
struct Capped<'a> {
    buf: Vec<u8>,
    max: usize,
    cancel: &'a Cancel,
    over: bool,
}

impl std::io::Write for Capped<'_> {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        // Cancellation is looked at once per 64 KiB written.
        if (self.buf.len() & 0xffff) + data.len() > 0xffff && self.cancel.is_cancelled() {
            return Err(std::io::Error::other("cancelled"));
        }
        if self.buf.len() + data.len() > self.max {
            self.over = true;
            return Err(std::io::Error::other("answer too large"));
        }
        self.buf.extend_from_slice(data);
        Ok(data.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
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

/// A route asked with a method it does not take (`GET /api/clean`): a JSON
/// error as every other, naming the route (the `Allow` header names its
/// methods).
pub(crate) async fn method_not_allowed(
    method: axum::http::Method,
    uri: axum::http::Uri,
) -> ApiError {
    ApiError(
        StatusCode::METHOD_NOT_ALLOWED,
        format!(
            "{method} {}: method not allowed (see the Allow header, and /api/openapi.json)",
            uri.path()
        ),
    )
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;
    use std::sync::mpsc;
    use std::time::Duration;

    use axum::http::Request;
    use tower::ServiceExt;

    use super::*;

    /// A guard against a hang, never a synchronisation.
    const GUARD: Duration = Duration::from_secs(120);

    fn post(
        app: &axum::Router,
        body: &'static str,
    ) -> impl Future<Output = (StatusCode, String)> + use<> {
        let req = Request::post("/api/clean")
            .header(header::CONTENT_TYPE, "text/plain")
            .body(Body::from(body))
            .unwrap();
        let app = app.clone();
        async move {
            let r = tokio::time::timeout(GUARD, app.oneshot(req))
                .await
                .expect("an answer")
                .unwrap();
            let status = r.status();
            let body = axum::body::to_bytes(r.into_body(), usize::MAX)
                .await
                .unwrap();
            (status, String::from_utf8_lossy(&body).into_owned())
        }
    }

    /// A request that timed out keeps its worker until
    /// its work ends, and its work is told to stop. The first work is held
    /// on its worker by a hook until the test lets it go, so no timing
    /// decides what the test sees.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_timed_out_request_keeps_its_worker_until_its_work_ends() {
        let model = Arc::new(ncleaner::model::embedded("en").unwrap());
        let mut cfg = crate::Config::new(vec![("en".into(), model)]);
        cfg.log = false;
        cfg.workers = 1;
        cfg.max_pending = 4;
        cfg.max_body = 1 << 20;
        cfg.max_pending_bytes = 1 << 20;
        // Long enough for an in-memory body of 5 bytes to be read; each
        // request below that reaches its limit waits this long.
        cfg.timeout = Duration::from_millis(1000);
        let mut st = crate::state(cfg).unwrap();
        let (entered_tx, entered_rx) = mpsc::channel::<()>();
        let (release_tx, release_rx) = mpsc::channel::<()>();
        let (seen_tx, seen_rx) = mpsc::channel::<bool>();
        // Only the first work is held: it says it started, waits to be let
        // go, then reports whether it had been told to stop.
        let first = Mutex::new(Some((entered_tx, release_rx, seen_tx)));
        st.worker_hook = Some(Arc::new(move |cancel: &Cancel| {
            let Some((entered, release, seen)) = first.lock().unwrap().take() else {
                return;
            };
            entered.send(()).unwrap();
            release
                .recv_timeout(GUARD)
                .expect("the test lets the work go");
            seen.send(cancel.is_cancelled()).unwrap();
        }));
        let st = Arc::new(st);
        let app = crate::app(st.clone(), false);

        // The first request's work starts and is held past its time limit:
        // the request is answered 503 at its deadline...
        let a = tokio::spawn(post(&app, "hello"));
        tokio::task::spawn_blocking(move || entered_rx.recv_timeout(GUARD))
            .await
            .unwrap()
            .expect("the first work starts");
        let (status, body) = a.await.unwrap();
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
        assert!(
            body.contains("cleaning took longer than the time limit"),
            "{body}"
        );
        // ...but its work still runs, so its worker is still taken: the next
        // request finds none within its own time limit.
        assert_eq!(st.workers.available_permits(), 0);
        let (status, body) = post(&app, "hello").await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
        assert!(body.contains("no worker within the time limit"), "{body}");
        assert_eq!(st.workers.available_permits(), 0);
        // Let the work go: it had been told to stop, stops at its next look,
        // and only then gives its worker back (also its pending place and bytes).
        release_tx.send(()).unwrap();
        let told = tokio::task::spawn_blocking(move || seen_rx.recv_timeout(GUARD))
            .await
            .unwrap()
            .expect("the work reports");
        assert!(told, "the timed-out work was not told to stop");
        let worker = tokio::time::timeout(GUARD, st.workers.clone().acquire_owned())
            .await
            .expect("the work ends and frees its worker")
            .unwrap();
        drop(worker);
        assert_eq!(st.pending.available_permits(), 4);
        assert_eq!(st.bytes.available_permits(), 1 << 20);
        // The server serves again.
        let (status, body) = post(&app, "hello").await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
}
