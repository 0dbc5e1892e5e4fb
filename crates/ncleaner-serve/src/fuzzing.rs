//! One raw HTTP/1.1 exchange with the server, in memory, for the fuzz target
//! (`fuzz/fuzz_targets/serve.rs`) and its libFuzzer-free smoke test
//! (`tests/fuzz_smoke.rs`): the bytes go through hyper's parser, the router,
//! the body limits, the JSON decoding and the cleaning, as on a socket.

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::watch;

use crate::{Config, conn};

struct Harness {
    rt: tokio::runtime::Runtime,
    app: axum::Router,
    limits: Arc<conn::Limits>,
}

fn harness() -> &'static Harness {
    static H: OnceLock<Harness> = OnceLock::new();
    H.get_or_init(|| {
        let model = Arc::new(ncleaner::model::embedded("en").expect("the embedded en model"));
        let mut c = Config::new(vec![("en".into(), model)]);
        c.log = false;
        c.workers = 1;
        c.max_body = 64 << 10;
        c.max_pending_bytes = 256 << 10;
        c.max_answer = 1 << 20;
        c.timeout = Duration::from_secs(5);
        c.header_timeout = Duration::from_secs(2);
        c.idle_timeout = Duration::from_secs(1);
        let limits = Arc::new(conn::Limits::of(&c));
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .expect("a runtime");
        Harness {
            rt,
            app: crate::router(c).expect("the router"),
            limits,
        }
    })
}

/// Sends `request` (any bytes) on one connection, half-closes it and reads
/// the whole answer. Panics when the server answers 500 (a handler failed)
/// or something other than HTTP/1.x, or takes more than 30 s.
pub fn one_request(request: &[u8]) -> Vec<u8> {
    let h = harness();
    h.rt.block_on(async {
        let (mut client, server) = tokio::io::duplex(1 << 16);
        let (_stop_tx, stop_rx) = watch::channel(false);
        let (_shed_tx, shed_rx) = watch::channel(0u64);
        let task = tokio::spawn(conn::connection(
            server,
            h.app.clone(),
            h.limits.clone(),
            stop_rx,
            shed_rx,
            None,
        ));
        let io = async {
            client.write_all(request).await?;
            client.shutdown().await?;
            let mut out = Vec::new();
            client.read_to_end(&mut out).await?;
            Ok::<_, std::io::Error>(out)
        };
        let out = tokio::time::timeout(Duration::from_secs(30), io)
            .await
            .expect("the server answers within 30 s")
            .unwrap_or_default();
        task.abort();
        assert!(
            // hyper answers an HTTP/1.0 request in HTTP/1.0.
            out.is_empty() || out.starts_with(b"HTTP/1.1 ") || out.starts_with(b"HTTP/1.0 "),
            "not an HTTP answer: {:?}",
            String::from_utf8_lossy(&out[..out.len().min(200)])
        );
        let status = out.get(9..12).unwrap_or(b"");
        assert!(
            status != b"500",
            "500: {}",
            String::from_utf8_lossy(&out[..out.len().min(400)])
        );
        out
    })
}
