//! `ncleaner serve` as a clap definition and its run, behind the `cli`
//! feature: the `ncleaner` binary mounts it behind its default `serve`
//! feature, as it mounts the lab's commands, so that the server's options
//! live beside the server.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};

use crate::Config;

/// Arguments of `ncleaner serve`.
#[derive(clap::Args)]
#[command(
    after_help = "Routes: GET / (the demo page), POST /api/clean, POST /api/perplexity, \
    GET /api/models, GET /api/openapi.json (the API's description), GET /healthz.\n\n\
    Example:\n  ncleaner serve --addr 127.0.0.1:8080\n  \
    curl -s -H 'Content-Type: text/html' --data-binary @page.html localhost:8080/api/clean"
)]
pub struct Args {
    /// Address to listen on. The default binds loopback only; give 0.0.0.0:PORT to serve others.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,

    /// Models to serve (repeatable): embedded names or model files. Default: en,
    /// multi and en-nonlex. Requests naming no model are routed by language as
    /// `clean` routes: each model with a language tag takes its language, the
    /// first without one (else en-nonlex) the rest.
    #[arg(long = "model", short = 'm', value_name = "en|multi|en-nonlex|PATH")]
    pub models: Vec<String>,

    /// Documents cleaned at the same time (default: all cores).
    #[arg(long, short = 'j', value_name = "N")]
    pub workers: Option<usize>,

    /// Largest request body in bytes; larger ones get 413.
    #[arg(long, default_value_t = 10 * 1024 * 1024, value_name = "BYTES")]
    pub max_body: usize,

    /// Time limit of one request in seconds (reading the body, waiting, cleaning).
    #[arg(long, default_value_t = 30.0, value_name = "SECONDS")]
    pub timeout: f64,

    /// Requests that may wait for a worker before new ones get 503.
    #[arg(long, default_value_t = 1024, value_name = "N")]
    pub max_pending: usize,

    /// Body bytes held by all requests in flight before new ones get 503 (at least --max-body).
    #[arg(long, default_value_t = 64 * 1024 * 1024, value_name = "BYTES")]
    pub max_pending_bytes: usize,

    /// Largest answer in bytes; larger ones get 413.
    #[arg(long, default_value_t = 40 * 1024 * 1024, value_name = "BYTES")]
    pub max_answer: usize,

    /// Open connections; when full, idle ones are closed to make room.
    #[arg(long, default_value_t = 512, value_name = "N")]
    pub max_connections: usize,

    /// Seconds allowed to send a request's headers.
    #[arg(long, default_value_t = 10.0, value_name = "SECONDS")]
    pub header_timeout: f64,

    /// Seconds an idle keep-alive connection stays open.
    #[arg(long, default_value_t = 5.0, value_name = "SECONDS")]
    pub idle_timeout: f64,

    /// Seconds requests in flight get to finish after SIGTERM/SIGINT.
    #[arg(long, default_value_t = 10.0, value_name = "SECONDS")]
    pub shutdown_timeout: f64,

    /// Do not log one line per request.
    #[arg(long)]
    pub quiet: bool,

    /// Let clients name a page to fetch and clean (`{"fetch": URL}`): at most
    /// 5 redirects, 10 s, --max-body bytes; private, loopback and link-local
    /// addresses are refused.
    #[arg(long)]
    pub allow_fetch: bool,

    /// With --allow-fetch: also fetch from private and loopback addresses
    /// (only on a machine whose network you trust).
    #[arg(long, requires = "allow_fetch")]
    pub allow_private: bool,

    /// With --allow-fetch: fetch through this proxy (http:// or https://).
    /// HTTP_PROXY and the like are ignored. Through a proxy, the check of
    /// private addresses sees only the URL (address literals, localhost):
    /// names are resolved by the proxy, whose own rules must keep it out
    /// of private networks.
    #[arg(long, requires = "allow_fetch", value_name = "URL")]
    pub fetch_proxy: Option<String>,

    /// Also answer requests whose Host is NAME (repeatable; `*` for any).
    /// By default the server answers only to IP addresses, localhost and
    /// *.localhost, so that another site's page cannot reach it under a
    /// name of its own (DNS rebinding); add the names it is reached by
    /// behind a reverse proxy or on a network.
    #[arg(long = "allow-host", value_name = "NAME")]
    pub allow_hosts: Vec<String>,
}

/// Runs `ncleaner serve` until SIGINT or SIGTERM.
pub fn run(args: Args) -> Result<()> {
    anyhow::ensure!(
        args.timeout > 0.0 && args.timeout.is_finite(),
        "--timeout must be positive"
    );
    let names = if args.models.is_empty() {
        ncleaner::DEFAULT_MODELS
            .iter()
            .chain([&ncleaner::DEFAULT_FALLBACK])
            .map(|n| n.to_string())
            .collect()
    } else {
        args.models
    };
    let mut models = Vec::new();
    for name in names {
        let model = ncleaner::Model::open(&name).map_err(|e| match e {
            ncleaner::Error::Parameter(m) => anyhow::anyhow!("--{m}"),
            e => anyhow::Error::new(e).context(format!("loading --model {name}")),
        })?;
        let short = std::path::Path::new(&name)
            .file_stem()
            .map_or_else(|| name.clone(), |s| s.to_string_lossy().into_owned());
        models.push((short, Arc::new(model)));
    }
    let mut config = Config::new(models);
    if let Some(w) = args.workers {
        // Lowered as `clean -j` is, with a note saying so.
        let (n, note) =
            ncleaner::options::clamp_threads(w).map_err(|e| anyhow::anyhow!("--workers {e}"))?;
        note.inspect(|n| eprintln!("ncleaner: --workers {n}"));
        config.workers = n;
    }
    config.max_body = args.max_body;
    config.timeout = Duration::from_secs_f64(args.timeout);
    config.max_pending = args.max_pending;
    config.max_pending_bytes = args.max_pending_bytes;
    config.max_answer = args.max_answer;
    config.max_connections = args.max_connections;
    for (name, v) in [
        ("--header-timeout", args.header_timeout),
        ("--idle-timeout", args.idle_timeout),
        ("--shutdown-timeout", args.shutdown_timeout),
    ] {
        anyhow::ensure!(v > 0.0 && v.is_finite(), "{name} must be positive");
    }
    config.header_timeout = Duration::from_secs_f64(args.header_timeout);
    config.idle_timeout = Duration::from_secs_f64(args.idle_timeout);
    config.shutdown_timeout = Duration::from_secs_f64(args.shutdown_timeout);
    config.log = !args.quiet;
    if args.allow_fetch {
        config.fetch = Some(crate::fetch::FetchConfig {
            allow_private: args.allow_private,
            max_bytes: args.max_body,
            proxy: args.fetch_proxy,
            ..Default::default()
        });
    }
    config.allow_hosts = args.allow_hosts;
    let workers = config.workers;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(workers)
        .max_blocking_threads(workers.max(1) + 4)
        .enable_all()
        .build()
        .context("starting the runtime")?;
    runtime.block_on(crate::serve(
        config,
        args.addr,
        |addr| {
            eprintln!(
                "ncleaner serve: listening on http://{addr}/ ({workers} workers; Ctrl-C stops)"
            )
        },
        crate::shutdown_signal(),
    ))?;
    eprintln!("ncleaner serve: stopped");
    Ok(())
}
