//! The accept loop and the connections: a cap on open connections (idle
//! ones shed first), a header-read timeout, an idle keep-alive timeout and a
//! graceful shutdown with a deadline. `axum::serve` offers none of these, so
//! connections are served by hyper's HTTP/1 connection directly.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Bytes;
use axum::http::{HeaderValue, header};
use hyper::body::{Body as _, Incoming};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
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

/// When a connection last did something, and whether a request is in
/// flight or an answer is being written.
struct Activity {
    base: Instant,
    in_flight: AtomicUsize,
    last_ms: AtomicU64,
    /// A write waits on the client (its receive window is full): the
    /// answer is not written yet.
    writing: AtomicBool,
    /// The last answer went out before its request's body was read to its
    /// end (an early 413 or 503): the connection closes after it, and the
    /// rest of the body is read and dropped first ([`linger`]).
    unread: AtomicBool,
}

impl Activity {
    fn touch(&self) {
        self.last_ms
            .store(self.base.elapsed().as_millis() as u64, Ordering::Relaxed);
    }
    /// How long the connection has been idle: no request in flight, no
    /// answer being written, no byte moved; `None` while it is busy.
    fn idle_for(&self) -> Option<Duration> {
        (self.in_flight.load(Ordering::Relaxed) == 0 && !self.writing.load(Ordering::Relaxed)).then(
            || {
                self.base
                    .elapsed()
                    .saturating_sub(Duration::from_millis(self.last_ms.load(Ordering::Relaxed)))
            },
        )
    }
    /// A write's result: bytes out restart the idle clock, a write that
    /// waits marks the answer as being written.
    fn wrote<T>(&self, r: &Poll<std::io::Result<T>>) {
        match r {
            Poll::Pending => self.writing.store(true, Ordering::Relaxed),
            Poll::Ready(_) => {
                self.writing.store(false, Ordering::Relaxed);
                self.touch();
            }
        }
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

/// A connection's socket that tells its [`Activity`] when bytes move, so
/// that the idle clock starts when the last byte of an answer is written
/// (an answer of 40 MB to a slow client takes longer than the idle
/// timeout to go out), not when its handler returns.
struct Watched<I> {
    io: I,
    act: Arc<Activity>,
}

impl<I: AsyncRead + Unpin> AsyncRead for Watched<I> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        let r = Pin::new(&mut this.io).poll_read(cx, buf);
        if matches!(r, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            this.act.touch();
        }
        r
    }
}

impl<I: AsyncWrite + Unpin> AsyncWrite for Watched<I> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let this = self.get_mut();
        let r = Pin::new(&mut this.io).poll_write(cx, data);
        this.act.wrote(&r);
        r
    }
    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        let this = self.get_mut();
        let r = Pin::new(&mut this.io).poll_write_vectored(cx, bufs);
        this.act.wrote(&r);
        r
    }
    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }
    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        let this = self.get_mut();
        let r = Pin::new(&mut this.io).poll_flush(cx);
        this.act.wrote(&r);
        r
    }
    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_shutdown(cx)
    }
}

/// A request's body that records when it has been read to its end.
struct Tracked {
    inner: Incoming,
    ended: Arc<AtomicBool>,
}

impl hyper::body::Body for Tracked {
    type Data = Bytes;
    type Error = hyper::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<hyper::body::Frame<Bytes>, hyper::Error>>> {
        let this = self.get_mut();
        let r = Pin::new(&mut this.inner).poll_frame(cx);
        if matches!(r, Poll::Ready(None)) || this.inner.is_end_stream() {
            this.ended.store(true, Ordering::Relaxed);
        }
        r
    }
    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }
    fn size_hint(&self) -> hyper::body::SizeHint {
        self.inner.size_hint()
    }
}

/// The most bytes of an unread body read and dropped after an answer
/// that closes the connection ([`linger`]).
const LINGER_BYTES: usize = 64 << 20;
/// The longest time spent on it.
const LINGER_TIME: Duration = Duration::from_secs(2);

/// Closes a connection whose last request's body was not read to its end:
/// its write side first (the client sees the answer end), then what the
/// client still sends is read and dropped for a while, until it closes.
/// Closing a socket with bytes unread makes the kernel reset the
/// connection, and a reset can destroy the answer before the client has
/// read it, or break the pipe the client is still writing its body into.
async fn linger<I: AsyncRead + AsyncWrite + Unpin>(mut io: I) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    if io.shutdown().await.is_err() {
        return;
    }
    let drain = async {
        let mut buf = vec![0u8; 64 << 10];
        let mut read = 0usize;
        while read < LINGER_BYTES {
            match io.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => read += n,
            }
        }
    };
    let _ = tokio::time::timeout(LINGER_TIME, drain).await;
}

type Answer = std::pin::Pin<
    Box<dyn Future<Output = Result<axum::response::Response, std::convert::Infallible>> + Send>,
>;

/// Serves one connection (HTTP/1.1) under the limits until it closes, is
/// idle too long, is shed, or the server stops.
///
/// Every close is announced, where an answer can carry it: an answer given
/// before its request's body was read to its end (an early 413 or 503)
/// says `Connection: close`, and the connection closes after it
/// ([`linger`]); a shutdown or a shed while a request is in flight makes
/// hyper say it on that request's answer; the others say `Keep-Alive:
/// timeout=N`, the idle timeout. The idle clock starts when an answer's
/// last byte is written ([`Watched`]). Only a connection idle that long,
/// or shed when idle, closes with nothing to announce it on, and a client
/// that read the `Keep-Alive` header knows when.
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
        writing: AtomicBool::new(false),
        unread: AtomicBool::new(false),
    });
    let keep_alive =
        HeaderValue::from_str(&format!("timeout={}", limits.idle_timeout.as_secs().max(1)))
            .expect("digits are a header value");
    let svc_act = act.clone();
    let svc = hyper::service::service_fn(move |req: hyper::Request<Incoming>| -> Answer {
        svc_act.in_flight.fetch_add(1, Ordering::Relaxed);
        let guard = InFlight(svc_act.clone());
        let app = app.clone();
        let act = svc_act.clone();
        let keep_alive = keep_alive.clone();
        let ended = Arc::new(AtomicBool::new(req.body().is_end_stream()));
        let req = req.map(|inner| {
            axum::body::Body::new(Tracked {
                inner,
                ended: ended.clone(),
            })
        });
        Box::pin(async move {
            let mut r = app.oneshot(req).await?;
            let headers = r.headers_mut();
            if !ended.load(Ordering::Relaxed) {
                headers.insert(header::CONNECTION, HeaderValue::from_static("close"));
                act.unread.store(true, Ordering::Relaxed);
            } else if !headers.contains_key(header::CONNECTION) {
                headers.insert(header::HeaderName::from_static("keep-alive"), keep_alive);
            }
            drop(guard);
            Ok(r)
        })
    });
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .keep_alive(true)
        // A client that half-closes after its request still gets the answer.
        .half_close(true);
    let io = Watched {
        io,
        act: act.clone(),
    };
    let mut conn = builder.serve_connection(TokioIo::new(io), svc);
    let mut closing = false;
    let done = loop {
        let idle_check = tokio::time::sleep(match act.idle_for() {
            Some(idle) => limits.idle_timeout.saturating_sub(idle),
            None => limits.idle_timeout,
        });
        tokio::select! {
            r = std::future::poll_fn(|cx| conn.poll_without_shutdown(cx)) => break r,
            r = stop.changed(), if !closing => {
                let _ = r;
                Pin::new(&mut conn).graceful_shutdown();
                closing = true;
            }
            r = shed.changed(), if !closing => {
                if r.is_err() || act.idle_for().is_some_and(|d| d >= SHED_MIN_IDLE) {
                    Pin::new(&mut conn).graceful_shutdown();
                    closing = true;
                }
            }
            _ = idle_check, if !closing => {
                if act.idle_for().is_some_and(|d| d >= limits.idle_timeout) {
                    Pin::new(&mut conn).graceful_shutdown();
                    closing = true;
                }
            }
        }
    };
    let io = conn.into_parts().io.into_inner();
    match (done, act.unread.load(Ordering::Relaxed)) {
        (Ok(()), true) => linger(io).await,
        (Ok(()), false) => {
            use tokio::io::AsyncWriteExt;
            let mut io = io;
            let _ = io.shutdown().await;
        }
        (Err(_), _) => {}
    }
}
