//! Stopping a run cleanly on SIGINT or SIGTERM: the first signal asks the
//! run to stop reading; the records already read are finished, the outputs
//! flushed, finished and renamed to their final names, and the caller prints
//! its summary and exits with 128 + the signal (130, 143). A second signal
//! ends the process at once (exit 130 or 143), for a reader blocked on a
//! pipe that will never deliver.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The signal that asked the run to stop (0: none), shared with the handlers.
static STOP: std::sync::OnceLock<Arc<AtomicUsize>> = std::sync::OnceLock::new();

fn flag() -> &'static Arc<AtomicUsize> {
    STOP.get_or_init(|| Arc::new(AtomicUsize::new(0)))
}

/// Installs the SIGINT and SIGTERM handlers (Unix; elsewhere nothing).
/// Idempotent.
pub fn install() -> std::io::Result<()> {
    static INSTALLED: std::sync::Once = std::sync::Once::new();
    let mut result = Ok(());
    INSTALLED.call_once(|| {
        result = install_handlers();
    });
    result
}

#[cfg(unix)]
fn install_handlers() -> std::io::Result<()> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    use signal_hook::flag as f;
    let stop = flag().clone();
    let seen = Arc::new(std::sync::atomic::AtomicBool::new(false));
    for (sig, code) in [(SIGINT, 130), (SIGTERM, 143)] {
        // Registered first, so it sees `seen` as it was before this signal:
        // a second signal (of either kind) exits at once.
        f::register_conditional_shutdown(sig, code, seen.clone())?;
        f::register(sig, seen.clone())?;
        f::register_usize(sig, stop.clone(), sig as usize)?;
    }
    Ok(())
}

#[cfg(not(unix))]
fn install_handlers() -> std::io::Result<()> {
    Ok(())
}

/// The signal that stopped the run, if one did (2: SIGINT, 15: SIGTERM).
pub fn stopped() -> Option<i32> {
    match flag().load(Ordering::SeqCst) {
        0 => None,
        s => Some(s as i32),
    }
}

/// Asks the run to stop as a signal would (for tests and library callers).
pub fn request_stop(signal: i32) {
    flag().store(signal as usize, Ordering::SeqCst);
}
