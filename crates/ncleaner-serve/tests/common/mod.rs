//! A real server on an ephemeral loopback port, for the tests.

#![allow(dead_code)]

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use ncleaner_serve::Config;

/// A running server; stopped (gracefully) when dropped.
pub struct TestServer {
    pub addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl TestServer {
    /// `http://ADDR` + `path`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        if let Some(t) = self.thread.take() {
            t.join().expect("server thread ends cleanly");
        }
    }
}

/// The embedded models, as `ncleaner serve` loads them by default.
pub fn default_config() -> Config {
    let models = ncleaner::DEFAULT_MODELS
        .iter()
        .chain([&ncleaner::DEFAULT_FALLBACK])
        .map(|n| {
            (
                n.to_string(),
                Arc::new(ncleaner::model::embedded(n).unwrap()),
            )
        })
        .collect();
    let mut c = Config::new(models);
    c.log = false;
    c.workers = 2;
    c
}

/// [`default_config`] with a body limit and a budget of pending body bytes
/// of 4 MiB each, and 20 s to answer: a client that announces 3 MB holds
/// most of the budget.
pub fn four_mib_budget() -> Config {
    let mut cfg = default_config();
    cfg.max_body = 4 << 20;
    cfg.max_pending_bytes = 4 << 20;
    cfg.timeout = std::time::Duration::from_secs(20);
    cfg
}

/// Starts a server with `config` on 127.0.0.1:0 in its own runtime.
pub fn start(config: Config) -> TestServer {
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let (atx, arx) = std::sync::mpsc::channel();
    let thread = std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            ncleaner_serve::serve(
                config,
                "127.0.0.1:0".parse().unwrap(),
                move |a| atx.send(a).unwrap(),
                async move {
                    let _ = rx.await;
                },
            )
            .await
            .unwrap();
        });
    });
    let addr = arx
        .recv_timeout(Duration::from_secs(30))
        .expect("the server binds");
    TestServer {
        addr,
        stop: Some(tx),
        thread: Some(thread),
    }
}

/// The example page of the repository.
pub fn example_page() -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/page.html"
    ))
    .unwrap()
}

/// `../shared/data`, or `$NCLEANER_SHARED/data`; panics with a clear message
/// when it is missing, so that a test needing it fails instead of passing.
pub fn shared_data() -> std::path::PathBuf {
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let shared = std::env::var_os("NCLEANER_SHARED")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| repo.join("../shared"));
    let data = shared.join("data");
    assert!(
        data.join("wcxb").is_dir(),
        "this test needs the shared evaluation data at {} (set NCLEANER_SHARED to the folder holding data/)",
        data.display()
    );
    data
}
