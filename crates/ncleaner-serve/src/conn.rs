//! The accept loop and the connections: a cap on open connections (idle
//! ones shed first), a header-read timeout, an idle keep-alive timeout and a
//! graceful shutdown with a deadline. `axum::serve` offers none of these, so
//! connections are served by hyper's HTTP/1 connection directly.

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpListener;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, watch};
use tokio::task::JoinSet;
use tower::ServiceExt;

use crate::Config;

/// The connection limits of [`Config`].
#[derive(Debug, Clone)]
pub(crate) struct Limits {
    pub max_connections: usize,
    pub header_timeout: Duration,
    pub idle_timeout: Duration,
    pub shutdown_timeout: Duration,
}

impl Limits {
    pub fn of(c: &Config) -> Limits {
        Limits {
            max_connections: c.max_connections.max(1),
            header_timeout: c.header_timeout,
            idle_timeout: c.idle_timeout,
            shutdown_timeout: c.shutdown_timeout,
        }
    }
}

/// A connection idle for this long may be shed when the cap is reached (a
/// fresh connection whose request is on its way is not).
const SHED_MIN_IDLE: Duration = Duration::from_millis(20);

/// Accepts until `shutdown`, then lets connections finish for
/// `shutdown_timeout` and drops the rest.
pub(crate) async fn accept_loop(
    listener: TcpListener,
    app: Router,
    limits: Limits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) {
    let limits = Arc::new(limits);
    let slots = Arc::new(Semaphore::new(limits.max_connections));
    let (stop_tx, stop_rx) = watch::channel(false);
    let (shed_tx, shed_rx) = watch::channel(0u64);
    let mut tasks = JoinSet::new();
    tokio::pin!(shutdown);
    'accept: loop {
        while tasks.try_join_next().is_some() {}
        // A slot first, so that a full server leaves new connections in the
        // kernel's backlog instead of spending a file descriptor on each.
        let permit = loop {
            if let Ok(p) = slots.clone().try_acquire_owned() {
                break p;
            }
            shed_tx.send_modify(|g| *g += 1);
            tokio::select! {
                p = slots.clone().acquire_owned() => break p.expect("never closed"),
                _ = tokio::time::sleep(SHED_MIN_IDLE) => {}
                _ = &mut shutdown => break 'accept,
            }
        };
        let stream = tokio::select! {
            r = listener.accept() => match r {
                Ok((s, _)) => s,
                Err(_) => {
                    // EMFILE and the like: wait for descriptors to free up.
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            _ = &mut shutdown => break,
        };
        let _ = stream.set_nodelay(true);
        tasks.spawn(connection(
            stream,
            app.clone(),
            limits.clone(),
            stop_rx.clone(),
            shed_rx.clone(),
            Some(permit),
        ));
    }
    drop(listener);
    let _ = stop_tx.send(true);
    let drain = async { while tasks.join_next().await.is_some() {} };
    if tokio::time::timeout(limits.shutdown_timeout, drain)
        .await
        .is_err()
    {
        tasks.shutdown().await;
    }
}

/// When a connection last did something, and whether a request is in flight.
struct Activity {
    base: Instant,
    in_flight: AtomicUsize,
    last_ms: AtomicU64,
}

impl Activity {
    fn touch(&self) {
        self.last_ms
            .store(self.base.elapsed().as_millis() as u64, Ordering::Relaxed);
    }
    fn idle_for(&self) -> Option<Duration> {
        (self.in_flight.load(Ordering::Relaxed) == 0).then(|| {
            self.base
                .elapsed()
                .saturating_sub(Duration::from_millis(self.last_ms.load(Ordering::Relaxed)))
        })
    }
}

/// Counts a request in flight until dropped.
struct InFlight(Arc<Activity>);

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.touch();
        self.0.in_flight.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Serves one connection (HTTP/1.1) under the limits until it closes, is
/// idle too long, is shed, or the server stops.
pub(crate) async fn connection<I>(
    io: I,
    app: Router,
    limits: Arc<Limits>,
    mut stop: watch::Receiver<bool>,
    mut shed: watch::Receiver<u64>,
    _slot: Option<OwnedSemaphorePermit>,
) where
    I: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let act = Arc::new(Activity {
        base: Instant::now(),
        in_flight: AtomicUsize::new(0),
        last_ms: AtomicU64::new(0),
    });
    let svc_act = act.clone();
    let svc = hyper::service::service_fn(move |req: hyper::Request<Incoming>| {
        svc_act.in_flight.fetch_add(1, Ordering::Relaxed);
        let guard = InFlight(svc_act.clone());
        let app = app.clone();
        async move {
            let r = app.oneshot(req.map(axum::body::Body::new)).await;
            drop(guard);
            r
        }
    });
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .keep_alive(true)
        // A client that half-closes after its request still gets the answer.
        .half_close(true);
    let conn = builder.serve_connection(TokioIo::new(io), svc);
    tokio::pin!(conn);
    let mut closing = false;
    loop {
        let idle_check = tokio::time::sleep(match act.idle_for() {
            Some(idle) => limits.idle_timeout.saturating_sub(idle),
            None => limits.idle_timeout,
        });
        tokio::select! {
            _ = conn.as_mut() => break,
            r = stop.changed(), if !closing => {
                let _ = r;
                conn.as_mut().graceful_shutdown();
                closing = true;
            }
            r = shed.changed(), if !closing => {
                if r.is_err() || act.idle_for().is_some_and(|d| d >= SHED_MIN_IDLE) {
                    conn.as_mut().graceful_shutdown();
                    closing = true;
                }
            }
            _ = idle_check, if !closing => {
                if act.idle_for().is_some_and(|d| d >= limits.idle_timeout) {
                    conn.as_mut().graceful_shutdown();
                    closing = true;
                }
            }
        }
    }
}
