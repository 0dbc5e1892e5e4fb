//! The read-ahead's order and bounds, with readers slowed at random.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use proptest::prelude::*;

use super::{Limits, Next, ReadAhead};

/// An input: its number, its items' count and, per item, how its reader
/// dawdles before giving it (0: not at all, 1: yields, 2+: sleeps that many
/// tens of microseconds), so that readers finish in every order.
#[derive(Debug, Clone)]
struct Input {
    n: usize,
    items: usize,
    pace: Vec<u8>,
    in_place: bool,
}

fn dawdle(p: u8) {
    match p {
        0 => {}
        1 => std::thread::yield_now(),
        p => std::thread::sleep(Duration::from_micros(10 * u64::from(p))),
    }
}

/// Reads `inputs` with `limits`; the items handed out, and the most items
/// read and not yet handed out at any time.
fn read_all(inputs: Vec<Input>, limits: Limits, pace: &[u8]) -> (Vec<(usize, usize)>, usize) {
    let produced = Arc::new(AtomicUsize::new(0));
    let counter = produced.clone();
    let read = move |input: Input, emit: &mut dyn FnMut((usize, usize)) -> bool| {
        for k in 0..input.items {
            dawdle(
                input
                    .pace
                    .get(k % input.pace.len().max(1))
                    .copied()
                    .unwrap_or(0),
            );
            counter.fetch_add(1, Ordering::SeqCst);
            if !emit((input.n, k)) {
                return;
            }
        }
    };
    let mut ahead = ReadAhead::new(
        Box::new(inputs.into_iter()),
        limits,
        |i: &Input| !i.in_place,
        |_: &(usize, usize)| 1,
        Arc::new(read),
    );
    let (mut out, mut most, mut consumed) = (Vec::new(), 0, 0usize);
    while let Some(next) = ahead.next() {
        match next {
            Next::Item(item) => {
                consumed += 1;
                most = most.max(produced.load(Ordering::SeqCst) - consumed);
                out.push(item);
            }
            // Read in place: one item, in its place.
            Next::InPlace(input) => out.push((input.n, 0)),
        }
        dawdle(
            pace.get(out.len() % pace.len().max(1))
                .copied()
                .unwrap_or(0),
        );
    }
    (out, most)
}

/// Every input's items in input order, the in-place inputs in their place.
fn in_order(inputs: &[Input]) -> Vec<(usize, usize)> {
    inputs
        .iter()
        .flat_map(|i| (0..if i.in_place { 1 } else { i.items }).map(move |k| (i.n, k)))
        .collect()
}

fn inputs(sizes: &[usize]) -> Vec<Input> {
    sizes
        .iter()
        .enumerate()
        .map(|(n, &items)| Input {
            n,
            items,
            pace: vec![0],
            in_place: false,
        })
        .collect()
}

#[test]
fn items_come_file_by_file_in_input_order() {
    // The first input is the slowest: the others wait for it, read ahead.
    let mut ins = inputs(&[5, 130, 0, 1, 64, 65, 3]);
    ins[0].pace = vec![5];
    ins[3].in_place = true;
    let limits = Limits {
        width: 3,
        chunk_items: 8,
        chunk_bytes: usize::MAX,
    };
    let (out, _) = read_all(ins.clone(), limits, &[0]);
    assert_eq!(out, in_order(&ins));
}

#[test]
fn chunks_close_at_their_byte_limit() {
    // A chunk of one item each (every item is a byte, the limit one byte).
    let ins = inputs(&[4, 4]);
    let limits = Limits {
        width: 2,
        chunk_items: 100,
        chunk_bytes: 1,
    };
    // The consumer is slow, so the readers run as far ahead as they may:
    // a one-item chunk each, and the one being handed out.
    let (out, most) = read_all(ins.clone(), limits, &[20]);
    assert_eq!(out, in_order(&ins));
    assert!(most <= 2 + 1, "{most} items read ahead");
}

#[test]
fn dropping_it_ends_the_readers() {
    // Readers blocked on inputs nobody takes end when the window goes.
    let live = Arc::new(AtomicUsize::new(0));
    let count = live.clone();
    let read = move |n: usize, emit: &mut dyn FnMut(usize) -> bool| {
        count.fetch_add(1, Ordering::SeqCst);
        for k in 0.. {
            if !emit(n * 1000 + k) {
                break;
            }
        }
        count.fetch_sub(1, Ordering::SeqCst);
    };
    let mut ahead = ReadAhead::new(
        Box::new(0..4usize),
        Limits {
            width: 4,
            chunk_items: 2,
            chunk_bytes: usize::MAX,
        },
        |_| true,
        |_| 1,
        Arc::new(read),
    );
    let first: Vec<usize> = (0..5)
        .filter_map(|_| match ahead.next() {
            Some(Next::Item(i)) => Some(i),
            _ => None,
        })
        .collect();
    assert_eq!(first, [0, 1, 2, 3, 4]);
    drop(ahead);
    // Each reader sees its channel closed at its next chunk and returns.
    let mut waited = 0;
    while live.load(Ordering::SeqCst) > 0 && waited < 10_000 {
        std::thread::sleep(Duration::from_millis(1));
        waited += 1;
    }
    assert_eq!(live.load(Ordering::SeqCst), 0, "readers still reading");
}

fn arb_inputs() -> impl Strategy<Value = Vec<Input>> {
    prop::collection::vec(
        (
            0usize..40,
            prop::collection::vec(0u8..4, 1..6),
            prop::bool::weighted(0.15),
        ),
        0..10,
    )
    .prop_map(|v| {
        v.into_iter()
            .enumerate()
            .map(|(n, (items, pace, in_place))| Input {
                n,
                items,
                pace,
                in_place,
            })
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Whatever the readers' pace, the window and the chunks, the items
    /// come in input order, and no more than `width + 1` chunks are read
    /// ahead.
    #[test]
    fn any_interleaving_of_readers_gives_input_order(
        ins in arb_inputs(),
        width in 1usize..6,
        chunk_items in 1usize..9,
        pace in prop::collection::vec(0u8..3, 1..5),
    ) {
        let limits = Limits { width, chunk_items, chunk_bytes: usize::MAX };
        let (out, most) = read_all(ins.clone(), limits, &pace);
        prop_assert_eq!(out, in_order(&ins));
        prop_assert!(most <= (width + 1) * chunk_items, "{} items read ahead", most);
    }
}
