//! Cleaning a [`Source`] on all threads, writing the results in input
//! order, in memory bounded by a constant times the number of threads.
//!
//! Three stages, with back-pressure between them:
//!
//! ```text
//! reader thread ──batches──► rayon workers ──results──► caller's thread
//! (Source: files,  bounded     (the work, one           (re-orders by batch
//!  decompression,  channel)     batch per task)           number, writes to
//!  WARC parsing)                                          the Sink)
//! ```
//!
//! With more than one thread and more than one input file, the reader
//! thread's [`Source`] reads up to `threads` files at once, one reader
//! thread per file ([`Source::readers`]), and takes their entries in input
//! order: decompression and parsing, a fifth of a WARC.gz run's work, then
//! scale with the workers instead of capping them. Each file's reader holds
//! at most one chunk (a batch's size) ahead, so `threads + 1` more batches'
//! worth can be in memory.
//!
//! The reader groups entries into batches of at most
//! [`RunOptions::batch_docs`] documents or [`RunOptions::batch_bytes`] bytes
//! and blocks when `threads` batches are waiting. The caller's thread starts
//! a task per batch but never has more than `2 × threads + 1` batches
//! started and not yet written; it waits for results when it has, keeping
//! the results that come early in a re-order buffer of that size. So at any
//! time at most `3 × threads + 2` batches are in memory (`4 × threads + 3`
//! with several files read at once), whatever the size of the corpus; a
//! document larger than a batch is a batch of its own.
//!
//! Batches are also bounded by their bytes: the reader sends a batch only
//! while the batches sent and not yet cleaned hold at most
//! `(3 × threads + 2) × batch_bytes` bytes, or when none is in flight
//! ([`InFlight`]). Batches of ordinary pages never reach the bound; a
//! document of many megabytes (a Parquet row, a WARC record) waits until
//! the ones before it are cleaned, so that huge documents are not held
//! several at a time beside one's working memory, which is many times its
//! bytes. Once cleaned, a document waits for its turn to be written
//! without its bytes, unless the output copies its input (WARC:
//! [`RunOptions::keep_inputs`]).
//!
//! A panic while cleaning one document (a bug) fails that document and
//! nothing else.

use std::collections::BTreeMap;
use std::panic::AssertUnwindSafe;
use std::sync::mpsc;

use super::{Entry, Source, interrupt};
use ncleaner::{Error, Result};

/// A cleaned document, rendered for its sink.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Rendered {
    /// The output bytes (a JSON line, CleanEval text, plain text).
    pub bytes: Vec<u8>,
    /// Words before cleaning.
    pub words_in: u64,
    /// Words after cleaning.
    pub words_out: u64,
    /// Dropped whole for its predicted page quality.
    pub below_quality: bool,
    /// Why the document was not read whole, if it was not
    /// ([`ncleaner::Cleaned::truncated`]).
    pub truncated: Option<String>,
    /// Fields for the WARC `conversion` record of the document (WARC output
    /// only; [`crate::warc::metadata_fields`]).
    pub warc_fields: Vec<(String, String)>,
}

/// What became of one entry.
#[derive(Debug)]
pub enum Outcome {
    /// Cleaned.
    Rendered(Rendered),
    /// Could not be read or cleaned.
    Failed(Error),
    /// Not a document; why.
    Skipped(String),
    /// Already in the output of the run this one resumes (`clean --resume`):
    /// neither cleaned nor written again.
    Resumed,
}

/// Counts of a run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// Documents: cleaned + failed.
    pub documents: u64,
    /// Documents cleaned.
    pub cleaned: u64,
    /// Documents that failed.
    pub failed: u64,
    /// Entries that are not documents.
    pub skipped: u64,
    /// Words before cleaning, over all cleaned documents.
    pub words_in: u64,
    /// Words after cleaning.
    pub words_out: u64,
    /// Bytes of the cleaned documents.
    pub bytes: u64,
    /// Cleaned documents dropped whole for their predicted page quality.
    pub below_quality: u64,
    /// Cleaned documents that were not read whole (a truncated body, a
    /// limit of the pass): cleaned on what was read, and marked.
    pub truncated: u64,
    /// Entries already in the output of the run this one resumes.
    pub resumed: u64,
    /// Output files that were there before the run and that it replaced
    /// with its own when complete ([`Sink::replaced`]).
    pub replaced: u64,
    /// The signal (2: SIGINT, 15: SIGTERM) that stopped the run before its
    /// inputs were all read; `None` when the run is complete.
    pub interrupted: Option<i32>,
}

impl Stats {
    /// Counts one entry's outcome; `input_bytes`: the bytes of its document.
    fn count(&mut self, outcome: &Outcome, input_bytes: usize) {
        match outcome {
            Outcome::Rendered(r) => {
                self.documents += 1;
                self.cleaned += 1;
                self.words_in += r.words_in;
                self.words_out += r.words_out;
                self.below_quality += u64::from(r.below_quality);
                self.truncated += u64::from(r.truncated.is_some());
                self.bytes += input_bytes as u64;
            }
            Outcome::Failed(_) => {
                self.documents += 1;
                self.failed += 1;
            }
            Outcome::Skipped(_) => self.skipped += 1,
            Outcome::Resumed => self.resumed += 1,
        }
    }
}

/// `n` and its noun, in the singular for one: "1 document", "3 documents".
pub fn counted(n: u64, noun: &str) -> String {
    match n {
        1 => format!("1 {noun}"),
        n => format!("{n} {noun}s"),
    }
}

impl std::fmt::Display for Stats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: {} cleaned, {} failed, {} skipped (not documents); words in {}, words out {}",
            counted(self.documents, "document"),
            self.cleaned,
            self.failed,
            self.skipped,
            self.words_in,
            self.words_out
        )?;
        if self.truncated > 0 {
            write!(
                f,
                "; {} not read whole (cleaned on what was read, marked \"truncated\")",
                self.truncated
            )?;
        }
        if self.below_quality > 0 {
            write!(
                f,
                "; {} dropped below the least page quality",
                self.below_quality
            )?;
        }
        Ok(())
    }
}

/// What a [`Sink`] did with one entry's outcome.
#[derive(Debug)]
pub enum Written {
    /// Written; or passed over, when the output has no place for it (a
    /// failed document in a text stream, a WARC `request` record in JSON
    /// Lines).
    Done,
    /// This entry's own output could not be written, and the others' still
    /// can: a document's file under an output directory that cannot be
    /// made (a name too long for the file system, a folder where the file
    /// goes, a full disk). The entry counts as failed with this error,
    /// which names the output, and the run goes on.
    Failed(Error),
}

/// Where results go, in input order.
pub trait Sink {
    /// Writes one entry's outcome. An error stops the run: the output as a
    /// whole cannot be written any further (the disk of the one output
    /// file is full, standard output was closed); [`Written::Failed`] fails
    /// the entry alone.
    fn write(&mut self, entry: &Entry, outcome: &Outcome) -> Result<Written>;
    /// Writes whatever is still buffered and closes the outputs.
    fn finish(&mut self) -> Result<()>;
    /// Like [`Sink::finish`], for a run stopped before its end (SIGINT,
    /// SIGTERM): what is written is flushed and closed, but an output file
    /// stays under its temporary name, never the final one. By default,
    /// [`Sink::finish`].
    fn finish_incomplete(&mut self) -> Result<()> {
        self.finish()
    }
    /// The output files written so far over files of the same name that
    /// were there before the run: a file is replaced when it is complete
    /// (renamed over the old one), so a run that stopped early replaced
    /// none it did not finish. By default none.
    fn replaced(&self) -> u64 {
        0
    }
}

/// Hears about failures and progress (the CLI prints them).
pub trait Observer {
    /// An entry failed (called in input order, after it was written).
    fn failed(&mut self, entry: &Entry, error: &Error);
    /// An entry skipped as no document (a WARC `request` record, an image
    /// file), with the reason; by default ignored.
    fn skipped(&mut self, _entry: &Entry, _reason: &str) {}
    /// Counts so far (called after every batch written).
    fn progress(&mut self, stats: &Stats);
    /// The run stopped before its end because its output could not be
    /// written any further (`error`, which [`run`] then returns), with the
    /// counts of what was written; by default ignored.
    fn stopped(&mut self, _stats: &Stats, _error: &Error) {}
}

/// An observer that ignores everything.
impl Observer for () {
    fn failed(&mut self, _: &Entry, _: &Error) {}
    fn progress(&mut self, _: &Stats) {}
}

// The bound on worker threads is the library's, shared with Python's
// `clean_many(threads=N)`.
pub use ncleaner::options::{MAX_THREADS_PER_CORE, clamp_threads};

/// Sizes of the batches.
#[derive(Debug, Clone, Copy)]
pub struct RunOptions {
    /// Most documents in one batch.
    pub batch_docs: usize,
    /// A batch is closed when it holds this many bytes.
    pub batch_bytes: usize,
    /// Whether each entry keeps its input (its document, its WARC record)
    /// until the sink has written it: a WARC output copies the input's
    /// records and bytes. When `false`, a document is dropped as soon as it
    /// is cleaned, so that a cleaned page of megabytes does not wait for
    /// its turn to be written beside the ones read after it. `true` by
    /// default; [`crate::clean`] sets it from the output format.
    pub keep_inputs: bool,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            batch_docs: 64,
            batch_bytes: 1 << 20,
            keep_inputs: true,
        }
    }
}

type Batch = Vec<Entry>;
/// A cleaned batch: each entry, its outcome, and its document's bytes (the
/// document itself is dropped once cleaned unless the sink reads it:
/// [`RunOptions::keep_inputs`]).
type Done = Vec<(Entry, Outcome, usize)>;

/// The bytes of the batches the reader sent and the workers have not yet
/// cleaned, against a budget: the reader waits before sending a batch that
/// would pass the budget, unless no batch is in flight (a document larger
/// than the budget goes alone).
struct InFlight {
    bytes: std::sync::Mutex<usize>,
    cleaned: std::sync::Condvar,
    budget: usize,
    /// Set when the run ends: a reader waiting for room stops.
    closed: std::sync::atomic::AtomicBool,
}

impl InFlight {
    fn new(budget: usize) -> InFlight {
        InFlight {
            bytes: std::sync::Mutex::new(0),
            cleaned: std::sync::Condvar::new(),
            budget,
            closed: std::sync::atomic::AtomicBool::new(false),
        }
    }

    /// Waits until a batch of `n` bytes fits, then counts it in; `false`
    /// when the run has ended or been interrupted instead (an interrupted
    /// run writes what it has cleaned and is resumed from there).
    fn admit(&self, n: usize) -> bool {
        let mut bytes = self.bytes.lock().unwrap_or_else(|e| e.into_inner());
        while *bytes > 0 && bytes.saturating_add(n) > self.budget {
            if self.closed.load(std::sync::atomic::Ordering::Relaxed)
                || interrupt::stopped().is_some()
            {
                return false;
            }
            // Woken by each cleaned batch; the timeout only bounds how late
            // a reader sees the run end.
            bytes = self
                .cleaned
                .wait_timeout(bytes, std::time::Duration::from_millis(100))
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        *bytes += n;
        true
    }

    /// Counts out a cleaned batch of `n` bytes.
    fn release(&self, n: usize) {
        let mut bytes = self.bytes.lock().unwrap_or_else(|e| e.into_inner());
        *bytes = bytes.saturating_sub(n);
        self.cleaned.notify_all();
    }

    fn close(&self) {
        self.closed
            .store(true, std::sync::atomic::Ordering::Relaxed);
        self.cleaned.notify_all();
    }
}

/// The bytes of a batch's documents.
fn batch_bytes(batch: &Batch) -> usize {
    batch.iter().map(Entry::size).sum()
}

/// Runs `work` on every document of `source` on the threads of `pool`, and
/// writes every entry's outcome to `sink` in input order, reading as many
/// files at once as the pool has threads ([`Source::readers`]). Returns the
/// counts.
/// Fails only when the sink fails as a whole (a document that fails, or
/// whose own output cannot be written ([`Written::Failed`]), is counted
/// and passed to the sink and the observer): the run then stops reading,
/// what was written is closed as a stopped run's is
/// ([`Sink::finish_incomplete`]: an output file stays under its temporary
/// name, where `clean --resume` continues it), the observer hears of it
/// ([`Observer::stopped`]) and the error is returned.
pub fn run<F>(
    source: Source,
    pool: &rayon::ThreadPool,
    opts: RunOptions,
    work: &F,
    sink: &mut dyn Sink,
    observer: &mut dyn Observer,
) -> Result<Stats>
where
    F: Fn(&Entry) -> Result<Rendered> + Sync,
{
    let threads = pool.current_num_threads().max(1);
    let limit = 2 * threads + 1;
    let keep_inputs = opts.keep_inputs;
    let mut stats = Stats::default();
    let written: Result<()> = {
        let (batch_tx, batch_rx) = mpsc::sync_channel::<Batch>(threads);
        // Not scoped: after SIGINT/SIGTERM the run ends without waiting for
        // a reader blocked on a pipe; it stops at its next entry otherwise.
        let source = source.readers(threads);
        let in_flight = std::sync::Arc::new(InFlight::new(
            (3 * threads + 2).saturating_mul(opts.batch_bytes),
        ));
        let reader_in_flight = in_flight.clone();
        std::thread::spawn(move || read_batches(source, opts, &reader_in_flight, batch_tx));
        // However the run ends, a reader waiting for room stops.
        struct Close(std::sync::Arc<InFlight>);
        impl Drop for Close {
            fn drop(&mut self) {
                self.0.close();
            }
        }
        let _close = Close(in_flight.clone());
        let (done_tx, done_rx) = mpsc::channel::<(u64, Done)>();
        pool.in_place_scope(|scope| -> Result<()> {
            // Owned here so that returning early (a sink error) stops the reader.
            let batch_rx = batch_rx;
            let mut order = Reorder {
                pending: BTreeMap::new(),
                next: 0,
            };
            let mut started = 0u64;
            // Takes the results that are there (waiting for one when `block`)
            // and writes what is next in order.
            let mut collect = |order: &mut Reorder, stats: &mut Stats, block: bool| -> Result<()> {
                if block {
                    let (i, done) = done_rx.recv().expect("a started batch always reports");
                    order.pending.insert(i, done);
                }
                while let Ok((i, done)) = done_rx.try_recv() {
                    order.pending.insert(i, done);
                }
                order.flush(sink, observer, stats)
            };
            loop {
                let batch = match batch_rx.recv_timeout(std::time::Duration::from_millis(100)) {
                    Ok(b) => b,
                    Err(mpsc::RecvTimeoutError::Timeout) if interrupt::stopped().is_some() => break,
                    Err(mpsc::RecvTimeoutError::Timeout) => continue,
                    Err(mpsc::RecvTimeoutError::Disconnected) => break,
                };
                while started - order.next >= limit as u64 {
                    collect(&mut order, &mut stats, true)?;
                }
                let tx = done_tx.clone();
                let index = started;
                started += 1;
                let in_flight = &in_flight;
                scope.spawn(move |_| {
                    let bytes = batch_bytes(&batch);
                    let done = process(batch, work, keep_inputs);
                    in_flight.release(bytes);
                    let _ = tx.send((index, done));
                });
                collect(&mut order, &mut stats, false)?;
            }
            while order.next < started {
                collect(&mut order, &mut stats, true)?;
            }
            Ok(())
        })
    };
    stats.interrupted = interrupt::stopped();
    if let Err(e) = written {
        // The error is the one to report; closing what was written may
        // fail for the same reason (a full disk), and says nothing new.
        let _ = sink.finish_incomplete();
        observer.progress(&stats);
        observer.stopped(&stats, &e);
        return Err(e);
    }
    match stats.interrupted {
        None => sink.finish()?,
        Some(_) => sink.finish_incomplete()?,
    }
    Ok(stats)
}

struct Reorder {
    pending: BTreeMap<u64, Done>,
    next: u64,
}

impl Reorder {
    /// Writes every batch that is next in order.
    fn flush(
        &mut self,
        sink: &mut dyn Sink,
        observer: &mut dyn Observer,
        stats: &mut Stats,
    ) -> Result<()> {
        let mut wrote = false;
        while let Some(done) = self.pending.remove(&self.next) {
            for (entry, outcome, input_bytes) in done {
                let outcome = match sink.write(&entry, &outcome)? {
                    Written::Done => outcome,
                    Written::Failed(e) => Outcome::Failed(e),
                };
                stats.count(&outcome, input_bytes);
                match &outcome {
                    Outcome::Failed(e) => observer.failed(&entry, e),
                    Outcome::Skipped(why) => observer.skipped(&entry, why),
                    Outcome::Rendered(_) | Outcome::Resumed => {}
                }
            }
            self.next += 1;
            wrote = true;
        }
        if wrote {
            observer.progress(stats);
        }
        Ok(())
    }
}

fn read_batches(
    source: Source,
    opts: RunOptions,
    in_flight: &InFlight,
    tx: mpsc::SyncSender<Batch>,
) {
    let mut batch = Vec::new();
    let mut bytes = 0usize;
    // Sends a batch once the bytes in flight leave room for it.
    let send = |batch: Batch, bytes: usize| in_flight.admit(bytes) && tx.send(batch).is_ok();
    for entry in source {
        let stop = interrupt::stopped().is_some();
        bytes += entry.size();
        batch.push(entry);
        if stop {
            // What is read is finished; nothing more is read.
            break;
        }
        if batch.len() >= opts.batch_docs || bytes >= opts.batch_bytes {
            if !send(std::mem::take(&mut batch), bytes) {
                return;
            }
            bytes = 0;
        }
    }
    if !batch.is_empty() {
        let _ = send(batch, bytes);
    }
}

/// Cleans a batch. Unless `keep_inputs`, each document's bytes are dropped
/// as soon as it is cleaned: the result waits for its turn to be written,
/// and a page of megabytes should not wait beside the next ones read.
fn process<F>(batch: Batch, work: &F, keep_inputs: bool) -> Done
where
    F: Fn(&Entry) -> Result<Rendered> + Sync,
{
    batch
        .into_iter()
        .map(|mut entry| {
            let outcome = match entry.early.take() {
                Some(o) => o,
                None => match std::panic::catch_unwind(AssertUnwindSafe(|| work(&entry))) {
                    Ok(Ok(r)) => Outcome::Rendered(r),
                    Ok(Err(e)) => Outcome::Failed(e),
                    Err(panic) => Outcome::Failed(Error::Internal {
                        input: entry.id.clone(),
                        message: panic
                            .downcast_ref::<&str>()
                            .map(|s| s.to_string())
                            .or_else(|| panic.downcast_ref::<String>().cloned())
                            .unwrap_or_else(|| "panic".into()),
                    }),
                },
            };
            let input_bytes = entry.bytes().len();
            if !keep_inputs {
                entry.document = None;
                entry.record = None;
            }
            (entry, outcome, input_bytes)
        })
        .collect()
}
