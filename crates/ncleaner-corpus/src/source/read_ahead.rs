//! Reading several inputs at once and handing their items out in input
//! order ([`ReadAhead`]): what lets a run over a crawl's many WARC.gz files
//! decompress and parse on more than one core.
//!
//! One reader thread decompresses and parses a WARC.gz at roughly the rate
//! four workers clean it (BENCHMARKS.md, "Reading several files at once"),
//! so with one reader a run stops scaling at a few cores. Here each input
//! (a file) is read by a reader thread of its own, up to `width` inputs at
//! once; the caller takes the items of the first input until it ends, then
//! those of the next, so the order is the inputs' order, item by item,
//! whatever the threads' timing.
//!
//! The choices:
//!
//! - **Order by position, not by tags.** Each input gets a channel of its
//!   own and the window keeps them in input order, so an item's place is
//!   the place of its channel in the window and its place in the channel:
//!   nothing is sorted, and no item waits for another input's.
//! - **A window of `width` inputs.** At most `width` inputs (files open,
//!   readers busy) are in the window; the next input is started when the
//!   first one is wholly handed out. Reader threads take inputs in the
//!   order they were started, so the first input of the window is always
//!   being read, and the caller never waits for an input no reader has
//!   taken (no deadlock).
//! - **Bounded read-ahead.** A reader groups items in chunks of at most
//!   `chunk_items` items or `chunk_bytes` bytes (an item larger than that
//!   is a chunk of its own) and hands each over only when the caller takes
//!   it (a channel of no capacity): a reader ahead of the caller blocks
//!   holding one chunk. So at most `width + 1` chunks are held here (one
//!   per reader, and the one the caller is handing out), whatever the
//!   number and size of the inputs.
//! - **Some inputs are read in place.** Those `parallel` says no to
//!   (standard input; a walk's problem or skipped entry, which reads
//!   nothing) are handed back to the caller in their place in the order
//!   ([`Next::InPlace`]), for it to read as it reads everything with one
//!   reader.
//! - **Stopping.** A reader stops an input when its `read` function
//!   returns (an interrupt, [`crate::interrupt`], is checked there) or when
//!   the caller no longer wants it; dropping the [`ReadAhead`] ends every
//!   reader at its next item or when it next looks for an input.

use std::collections::VecDeque;
use std::sync::mpsc::{Receiver, Sender, SyncSender, channel, sync_channel};
use std::sync::{Arc, Mutex};

/// Reads one input, handing each item to `emit`, which returns `false`
/// when no more is wanted (the reader then stops).
pub(crate) type ReadFn<W, T> = dyn Fn(W, &mut dyn FnMut(T) -> bool) + Send + Sync;

/// What [`ReadAhead::next`] gives, in input order.
pub(crate) enum Next<W, T> {
    /// The next item of an input read by a reader thread.
    Item(T),
    /// An input to read in place (one `parallel` said no to).
    InPlace(W),
}

/// An input in the window.
enum Slot<W, T> {
    InPlace(W),
    Reading {
        chunks: Receiver<Vec<T>>,
        current: std::vec::IntoIter<T>,
    },
}

type Job<W, T> = (W, SyncSender<Vec<T>>);

/// Chunk sizes and the window of a [`ReadAhead`].
#[derive(Debug, Clone, Copy)]
pub(crate) struct Limits {
    /// Inputs read at once, and reader threads.
    pub width: usize,
    /// Most items in a chunk.
    pub chunk_items: usize,
    /// A chunk is sent when it holds this many bytes.
    pub chunk_bytes: usize,
}

/// Inputs read `width` at a time on reader threads, their items handed out
/// in input order (see the module's documentation).
pub(crate) struct ReadAhead<W, T> {
    inputs: Box<dyn Iterator<Item = W> + Send>,
    window: VecDeque<Slot<W, T>>,
    limits: Limits,
    parallel: fn(&W) -> bool,
    size: fn(&T) -> usize,
    read: Arc<ReadFn<W, T>>,
    /// The readers' queue of inputs; `None` until the first is started.
    jobs: Option<Sender<Job<W, T>>>,
}

impl<W: Send + 'static, T: Send + 'static> ReadAhead<W, T> {
    /// Reads `inputs` (those for which `parallel` is true) with `read`;
    /// `size` is an item's size in bytes, for the chunks.
    pub(crate) fn new(
        inputs: Box<dyn Iterator<Item = W> + Send>,
        limits: Limits,
        parallel: fn(&W) -> bool,
        size: fn(&T) -> usize,
        read: Arc<ReadFn<W, T>>,
    ) -> ReadAhead<W, T> {
        ReadAhead {
            inputs,
            window: VecDeque::new(),
            limits: Limits {
                width: limits.width.max(1),
                chunk_items: limits.chunk_items.max(1),
                chunk_bytes: limits.chunk_bytes,
            },
            parallel,
            size,
            read,
            jobs: None,
        }
    }

    /// The next item or in-place input, in input order; `None` when every
    /// input is handed out.
    pub(crate) fn next(&mut self) -> Option<Next<W, T>> {
        loop {
            self.fill();
            match self.window.pop_front()? {
                Slot::InPlace(w) => return Some(Next::InPlace(w)),
                Slot::Reading {
                    chunks,
                    mut current,
                } => {
                    if let Some(item) = current.next() {
                        self.window.push_front(Slot::Reading { chunks, current });
                        return Some(Next::Item(item));
                    }
                    // Nothing sent and the sender gone: the input is read.
                    if let Ok(chunk) = chunks.recv() {
                        self.window.push_front(Slot::Reading {
                            chunks,
                            current: chunk.into_iter(),
                        });
                    }
                }
            }
        }
    }

    /// Starts inputs until the window is full or the inputs end.
    fn fill(&mut self) {
        while self.window.len() < self.limits.width {
            let Some(w) = self.inputs.next() else { return };
            if !(self.parallel)(&w) {
                self.window.push_back(Slot::InPlace(w));
                continue;
            }
            let (tx, rx) = sync_channel(0);
            let jobs = self
                .jobs
                .get_or_insert_with(|| spawn_readers(self.limits, self.size, self.read.clone()));
            // The readers hold the queue's receiver until this sender is
            // dropped, so the send cannot fail; if it did, the input would
            // read as empty, never hang.
            let _ = jobs.send((w, tx));
            self.window.push_back(Slot::Reading {
                chunks: rx,
                current: Vec::new().into_iter(),
            });
        }
    }
}

/// `limits.width` reader threads over one queue of inputs. Not scoped:
/// after SIGINT/SIGTERM a run ends without waiting for a reader blocked on
/// a slow file; dropping the queue's sender ends them otherwise.
fn spawn_readers<W: Send + 'static, T: Send + 'static>(
    limits: Limits,
    size: fn(&T) -> usize,
    read: Arc<ReadFn<W, T>>,
) -> Sender<Job<W, T>> {
    let (tx, rx) = channel::<Job<W, T>>();
    let rx = Arc::new(Mutex::new(rx));
    for _ in 0..limits.width {
        let rx = rx.clone();
        let read = read.clone();
        std::thread::spawn(move || {
            loop {
                // The lock is held only while waiting for the next input.
                let job = match rx.lock() {
                    Ok(queue) => queue.recv(),
                    Err(_) => return,
                };
                let Ok((input, out)) = job else { return };
                read_one(input, out, limits, size, &*read);
            }
        });
    }
    tx
}

/// Reads one input into chunks sent on `out`.
fn read_one<W, T>(
    input: W,
    out: SyncSender<Vec<T>>,
    limits: Limits,
    size: fn(&T) -> usize,
    read: &ReadFn<W, T>,
) {
    let mut chunk = Vec::new();
    let mut bytes = 0usize;
    let mut wanted = true;
    read(input, &mut |item: T| {
        bytes += size(&item);
        chunk.push(item);
        if chunk.len() >= limits.chunk_items || bytes >= limits.chunk_bytes {
            bytes = 0;
            wanted = out.send(std::mem::take(&mut chunk)).is_ok();
        }
        wanted
    });
    if wanted && !chunk.is_empty() {
        let _ = out.send(chunk);
    }
}

#[cfg(test)]
mod tests;
