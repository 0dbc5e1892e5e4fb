//! Cancelling a cleaning in progress: a flag another thread sets, and a
//! deadline.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Asks cleaning in progress to stop: a flag another thread sets, and an
/// optional deadline. `Cleaner::clean_document_cancellable` looks at it
/// between the pipeline's stages and every [`Cancel::EVERY`] segments within
/// the stages that go segment by segment, and returns [`Cancelled`] once it is
/// set (or the deadline has passed), dropping what it had made. Scoring a
/// page with the classifier is one step: a flag set during it is seen after it.
///
/// ```
/// use ncleaner::{Cancel, Cancelled, Cleaner, InputKind};
/// let cleaner = Cleaner::from_model(ncleaner::model::embedded("en").unwrap());
/// let doc = ncleaner::decode::decode(b"<p>Some text.</p>", None, None);
/// let cancel = Cancel::new();
/// cancel.cancel(); // from another thread, in real use
/// assert_eq!(cleaner.clean_document_cancellable(doc, InputKind::Html, &cancel).unwrap_err(), Cancelled);
/// ```
#[derive(Debug, Default)]
pub struct Cancel {
    flag: AtomicBool,
    deadline: Option<Instant>,
}

/// What cleaning returns when its [`Cancel`] asked it to stop.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("cancelled")]
pub struct Cancelled;

impl Cancel {
    /// How many segments a stage handles between two looks at the flag.
    pub const EVERY: usize = 1024;

    /// A flag not set, without a deadline.
    pub const fn new() -> Cancel {
        Cancel {
            flag: AtomicBool::new(false),
            deadline: None,
        }
    }

    /// A flag not set, that also counts as set from `deadline` on.
    pub fn with_deadline(deadline: Instant) -> Cancel {
        Cancel {
            flag: AtomicBool::new(false),
            deadline: Some(deadline),
        }
    }

    /// Asks the work to stop (from any thread); it stops at its next look.
    pub fn cancel(&self) {
        self.flag.store(true, Ordering::Relaxed);
    }

    /// Whether the work should stop: the flag is set or the deadline passed.
    pub fn is_cancelled(&self) -> bool {
        self.flag.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// `Err(Cancelled)` when the work should stop.
    pub fn check(&self) -> Result<(), Cancelled> {
        if self.is_cancelled() {
            Err(Cancelled)
        } else {
            Ok(())
        }
    }

    /// [`Cancel::check`] at every [`Cancel::EVERY`]-th item (`i`: the item's index).
    pub(crate) fn check_at(&self, i: usize) -> Result<(), Cancelled> {
        if i.is_multiple_of(Cancel::EVERY) {
            self.check()
        } else {
            Ok(())
        }
    }
}

/// The flag of work that is never cancelled.
pub(crate) static NEVER: Cancel = Cancel::new();
