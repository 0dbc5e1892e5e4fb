//! `ncleaner serve`: the web demo and the JSON API.
//!
//! An axum application on tokio. The models are loaded once and shared;
//! cleaning, which is CPU-bound, runs on tokio's blocking pool, at most
//! [`Config::workers`] documents at a time, so that the async workers keep
//! accepting and answering while pages are cleaned. Every limit answers with
//! a JSON error rather than by dropping the connection: a body over
//! [`Config::max_body`] gets 413, a body that does not arrive within
//! [`Config::timeout`] gets 408, a request that cannot start cleaning within
//! the time limit, or when [`Config::max_pending`] requests already wait, gets
//! 503. Nothing a client sends reaches a panic: the pipeline takes any bytes.
//!
//! Memory is bounded: a request takes its place among the
//! [`Config::max_pending`] before its body is read, and its body bytes from a
//! budget of [`Config::max_pending_bytes`] shared by all pending requests
//! (503 when spent); both stay taken until its work really ends, which also
//! holds its worker: a request that times out (or whose client goes away)
//! is answered at once, and its work is told to stop through an
//! [`ncleaner::Cancel`], which the pipeline looks at between its stages and
//! every so many segments; the work keeps its worker until it has stopped. Answers are built and serialised on the worker, inside the
//! time limit, and are at most [`Config::max_answer`] bytes (413 past it).
//! Connections are served by a hand-written accept loop on hyper: at most
//! [`Config::max_connections`] (idle ones are shed first when full), headers
//! must arrive within [`Config::header_timeout`], a keep-alive connection
//! idle for [`Config::idle_timeout`] is closed, and shutdown waits at most
//! [`Config::shutdown_timeout`] for connections in flight.
//!
//! Routes: `POST /api/clean`, `POST /api/perplexity`, `GET /api/models`, `GET /api/openapi.json`,
//! `GET /healthz`, and the page at `/` (HTML, CSS and JavaScript embedded in
//! the binary; no network needed). Every request first passes the `Host`
//! allow-list, and every answer gets the security headers (module `guard`:
//! 403 for a name the server was not told to answer to, DNS rebinding's way
//! in).

mod api;
#[cfg(feature = "cli")]
pub mod cli;
mod conn;
pub mod fetch;
#[doc(hidden)]
pub mod fuzzing;
mod guard;
pub mod load;

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::Request;
use axum::http::header;
use axum::middleware::{self, Next};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use ncleaner::Model;
use ncleaner::WordLm;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

pub use api::CleanRequest;

/// How the server runs.
#[derive(Debug, Clone)]
pub struct Config {
    /// Models by name; the first is the default.
    pub models: Vec<(String, Arc<Model>)>,
    /// Documents cleaned at the same time (threads of the blocking pool in use).
    pub workers: usize,
    /// Largest request body in bytes.
    pub max_body: usize,
    /// Time limit of one request: reading its body, waiting for a worker, cleaning.
    pub timeout: Duration,
    /// Requests in flight (reading their body, fetching, waiting for a worker
    /// or being cleaned) before new ones get 503.
    pub max_pending: usize,
    /// Body bytes held by all requests in flight before new ones get 503
    /// (raised to `max_body` if smaller, so that one largest body fits).
    pub max_pending_bytes: usize,
    /// Largest answer in bytes; larger ones get 413.
    pub max_answer: usize,
    /// Open connections; when full, idle ones are closed to make room.
    pub max_connections: usize,
    /// Time allowed to send a request's headers (also bounds an idle
    /// keep-alive connection: hyper restarts it while waiting for the next request).
    pub header_timeout: Duration,
    /// A keep-alive connection with no request for this long is closed.
    pub idle_timeout: Duration,
    /// After the shutdown signal, connections still open after this long are dropped.
    pub shutdown_timeout: Duration,
    /// Log one line per request to standard error.
    pub log: bool,
    /// Fetch pages by URL (`{"fetch": URL}`); `None`: refused.
    pub fetch: Option<fetch::FetchConfig>,
    /// Word models for `POST /api/perplexity`, by name; the first is the default.
    pub word_models: Vec<(String, Arc<WordLm>)>,
    /// Names the server answers to as `Host` besides IP addresses,
    /// `localhost` and `*.localhost` (`*`: any); other names get 403.
    pub allow_hosts: Vec<String>,
}

impl Config {
    /// The defaults: the given models, one worker per core, 10 MB bodies,
    /// 30 s per request, 1024 requests in flight holding at most 64 MB of
    /// bodies, 40 MB answers, 512 connections, 10 s to send headers, 5 s
    /// idle keep-alive, 10 s to shut down, logging on.
    pub fn new(models: Vec<(String, Arc<Model>)>) -> Config {
        Config {
            models,
            workers: std::thread::available_parallelism().map_or(1, |n| n.get()),
            max_body: 10 * 1024 * 1024,
            timeout: Duration::from_secs(30),
            max_pending: 1024,
            max_pending_bytes: 64 * 1024 * 1024,
            max_answer: 40 * 1024 * 1024,
            max_connections: 512,
            header_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(5),
            shutdown_timeout: Duration::from_secs(10),
            log: true,
            fetch: None,
            word_models: ncleaner::lm::file::embedded("en-ppl")
                .map(|m| vec![("en-ppl".to_string(), Arc::new(m))])
                .unwrap_or_default(),
            allow_hosts: Vec::new(),
        }
    }
}

/// What the handlers share.
pub(crate) struct AppState {
    pub models: BTreeMap<String, Arc<Model>>,
    /// The embedded models a request may name besides the served ones
    /// (`en-nonlex` as the fallback of a server that serves `en` alone),
    /// opened on first use.
    pub embedded: BTreeMap<&'static str, EmbeddedModel>,
    pub default_model: String,
    /// The models of a request that names none, and its fallback model
    /// ([`default_models`]).
    pub default_models: (Vec<String>, String),
    pub max_body: usize,
    pub timeout: Duration,
    pub max_answer: usize,
    /// Permits to clean (one per worker), held until the work ends; a fetch
    /// takes none (it waits on the network, not on a core).
    pub workers: Arc<Semaphore>,
    /// Places for requests in flight, taken before the body is read.
    pub pending: Arc<Semaphore>,
    /// The body-byte budget shared by the requests in flight (one permit a byte).
    pub bytes: Arc<Semaphore>,
    /// The page fetcher, when fetching is allowed.
    pub fetcher: Option<fetch::Fetcher>,
    /// Word models by name, and the default's name.
    pub word_models: BTreeMap<String, Arc<WordLm>>,
    pub default_word_model: Option<String>,
    /// The names answered to as `Host` ([`guard`]).
    pub hosts: guard::Hosts,
    /// Run on each worker before its work (the tests hold workers with it).
    #[cfg(test)]
    pub worker_hook: Option<api::WorkerHook>,
}

/// An embedded model, opened once (or its error).
pub(crate) type EmbeddedModel = std::sync::OnceLock<Result<Arc<Model>, String>>;

/// The models of a request that names none, and the fallback model of
/// one that names no fallback: as `ncleaner clean` assembles its models
/// ([`ncleaner::Routes::assemble`]), each served model with a language tag
/// takes the pages of its languages (the first of a language, when several
/// have it: a model with a language an earlier one has is left out whole),
/// and the first served model without a tag, else the embedded
/// `en-nonlex`, takes the rest. With the default models (`en`, `multi`,
/// `en-nonlex`) that is the CLI's default: English pages to `en`, Chinese,
/// Russian, Polish and Greek ones to `multi`, all others to `en-nonlex`.
pub fn default_models(models: &[(String, Arc<Model>)]) -> (Vec<String>, String) {
    let mut seen = Vec::new();
    let tagged: Vec<String> = models
        .iter()
        .filter(|(_, m)| {
            let languages: Vec<&str> = m.meta.languages().collect();
            !languages.is_empty() && !languages.iter().any(|l| seen.contains(l)) && {
                seen.extend(languages);
                true
            }
        })
        .map(|(name, _)| name.clone())
        .collect();
    let fallback = models
        .iter()
        .find(|(_, m)| m.meta.language.is_none())
        .map_or(ncleaner::DEFAULT_FALLBACK.to_string(), |(n, _)| n.clone());
    match &tagged[..] {
        // No model with a language: the first served cleans every page it
        // can route to, as one untagged `--model` does.
        [] => (vec![models[0].0.clone()], fallback),
        _ => (tagged, fallback),
    }
}

/// The application: routes, state and the request log.
pub fn router(config: Config) -> anyhow::Result<Router> {
    let log = config.log;
    Ok(app(Arc::new(state(config)?), log))
}

/// What the handlers share, made from `config` (all but `log`).
fn state(config: Config) -> anyhow::Result<AppState> {
    anyhow::ensure!(!config.models.is_empty(), "no model to serve");
    anyhow::ensure!(config.workers > 0, "workers must be at least 1");
    let default_model = config.models[0].0.clone();
    Ok(AppState {
        default_models: default_models(&config.models),
        models: config.models.into_iter().collect(),
        embedded: ncleaner::model::EMBEDDED
            .iter()
            .map(|(name, _)| (*name, EmbeddedModel::new()))
            .collect(),
        default_model,
        max_body: config.max_body,
        timeout: config.timeout,
        max_answer: config.max_answer.max(1),
        workers: Arc::new(Semaphore::new(config.workers)),
        pending: Arc::new(Semaphore::new(config.max_pending.max(1))),
        bytes: Arc::new(Semaphore::new(
            config
                .max_pending_bytes
                .max(config.max_body)
                .min(Semaphore::MAX_PERMITS),
        )),
        fetcher: config.fetch.map(fetch::Fetcher::new).transpose()?,
        default_word_model: config.word_models.first().map(|(n, _)| n.clone()),
        word_models: config.word_models.into_iter().collect(),
        hosts: guard::Hosts::new(&config.allow_hosts),
        #[cfg(test)]
        worker_hook: None,
    })
}

/// The routes over `state`, with the request log when `log`.
fn app(state: Arc<AppState>, log: bool) -> Router {
    let app = Router::new()
        .route("/", get(page))
        .route("/healthz", get(|| async { "ok\n" }))
        .route("/api/clean", post(api::clean))
        .route("/api/perplexity", post(api::perplexity))
        .route("/api/models", get(api::models))
        .route("/api/openapi.json", get(openapi))
        .fallback(api::not_found)
        .method_not_allowed_fallback(api::method_not_allowed)
        .layer(middleware::from_fn_with_state(state.clone(), guard::guard))
        .with_state(state);
    if log {
        app.layer(middleware::from_fn(log_request))
    } else {
        app
    }
}

/// Binds `addr` and serves until `shutdown` completes; requests in flight
/// then get [`Config::shutdown_timeout`] to finish before their connections
/// are dropped. Returns the bound address through `bound` first (useful with port 0).
pub async fn serve(
    config: Config,
    addr: SocketAddr,
    bound: impl FnOnce(SocketAddr),
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let limits = conn::Limits::of(&config);
    let app = router(config)?;
    let listener = TcpListener::bind(addr)
        .await
        .map_err(|e| anyhow::anyhow!("binding {addr}: {e}"))?;
    bound(listener.local_addr()?);
    conn::accept_loop(listener, app, limits, shutdown).await;
    Ok(())
}

/// Completes on SIGINT (Ctrl-C) or SIGTERM. From then on, a second SIGINT
/// or SIGTERM ends the process at once (exit status 130 or 143), without
/// waiting out [`Config::shutdown_timeout`], as `clean` does on a second
/// signal: for the command line's server, not for a library caller's.
pub async fn shutdown_signal() {
    signal().await;
    tokio::spawn(async {
        let code = signal().await;
        eprintln!("ncleaner serve: a second signal: stopping at once");
        std::process::exit(code);
    });
}

/// Waits for SIGINT or SIGTERM; returns the exit status that stands for it
/// (130, 143).
async fn signal() -> i32 {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => 130,
        _ = term => 143,
    }
}

/// One line per request: method, path, status, time.
async fn log_request(req: Request, next: Next) -> Response {
    let (method, path) = (req.method().clone(), req.uri().path().to_owned());
    let start = Instant::now();
    let response = next.run(req).await;
    eprintln!(
        "ncleaner serve: {method} {path} {} {:.1} ms",
        response.status().as_u16(),
        start.elapsed().as_secs_f64() * 1e3
    );
    response
}

/// The demo page.
async fn page() -> Html<&'static str> {
    Html(include_str!("page.html"))
}

/// The OpenAPI document of the JSON API.
async fn openapi() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "application/json")],
        include_str!("openapi.json"),
    )
}
