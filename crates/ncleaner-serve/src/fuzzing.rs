//! One raw HTTP/1.1 exchange with the server, in memory, for the fuzz target
//! (`fuzz/fuzz_targets/serve.rs`) and its libFuzzer-free smoke test
//! (`tests/fuzz_smoke.rs`): the bytes go through hyper's parser, the router,
//! the body limits, the JSON decoding and the cleaning, as on a socket.
//!
//! Each exchange ends completely before the next starts: the connection's
//! task has ended (not merely been aborted) and every worker and pending
//! place is back, so no memory of one input is still in use when
//! libFuzzer counts allocations and runs LeakSanitizer after it. (An aborted
//! task that had not yet been dropped held the duplex stream's buffer, read
//! to its end, whose only pointer then pointed past it: LeakSanitizer
//! reported it as a direct leak.)

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::watch;

use crate::{AppState, Config, conn};

/// A failure guard against hangs, never a synchronisation.
const GUARD: Duration = Duration::from_secs(30);

struct Harness {
    rt: tokio::runtime::Runtime,
    app: axum::Router,
    state: Arc<AppState>,
    workers: u32,
    pending: u32,
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
        // The blocking pool's threads (the cleaning runs on them) live as
        // long as the harness: with tokio's default keep-alive (10 s), a
        // thread that idled out was spawned again by a later input, whose
        // thread record and thread-local destructors LeakSanitizer then
        // counted as that input's leak (136 bytes, ten minutes into a run).
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_keep_alive(Duration::from_secs(365 * 24 * 3600))
            .enable_all()
            .build()
            .expect("a runtime");
        let (workers, pending) = (c.workers as u32, c.max_pending as u32);
        let state = Arc::new(crate::state(c).expect("the server's state"));
        Harness {
            rt,
            app: crate::app(state.clone(), false),
            state,
            workers,
            pending,
            limits,
        }
    })
}

/// Sends `request` (any bytes) on one connection, half-closes it and reads
/// the whole answer. Panics when the server answers 500 (a handler failed)
/// or something other than HTTP/1.x, or when the answer, the end of the
/// connection or the end of the request's work takes more than 30 s.
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
        let out = tokio::time::timeout(GUARD, io)
            .await
            .expect("the server answers within 30 s")
            .unwrap_or_default();
        // The server has closed its side (the client read to the end): its
        // task ends by itself; awaiting it drops what it held.
        tokio::time::timeout(GUARD, task)
            .await
            .expect("the connection ends within 30 s")
            .expect("the connection's task does not panic");
        // Work that outlived its request (timed out, told to stop) gives
        // back its worker and place when it really stops.
        let st = &h.state;
        let back = async {
            let w = st.workers.acquire_many(h.workers).await;
            let p = st.pending.acquire_many(h.pending).await;
            (w.is_ok(), p.is_ok())
        };
        let back = tokio::time::timeout(GUARD, back)
            .await
            .expect("the request's work ends within 30 s");
        assert_eq!(
            back,
            (true, true),
            "the server's semaphores are never closed"
        );
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
