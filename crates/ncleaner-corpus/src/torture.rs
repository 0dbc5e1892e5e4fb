//! The torture corpus: inputs built to stop a run or the server, lose data
//! or pass garbage off as clean text (issue 35), each with what must come
//! of it, built from a seed at any size. `crates/ncleaner-cli/tests/torture.rs`
//! runs a small version through `clean` and `serve`; `scripts/torture` runs
//! the full one (the sizes the issue found each problem at, and each ten
//! times larger) and prints the table of BENCHMARKS.md.
//!
//! Every case reaches the cleaner in a container (a file among others, a
//! WARC record among others, a JSON line among others, standard input)
//! between two ordinary documents, which must come out as ever.

mod carriers;
mod kinds;

use kinds::{UNSCALED, kinds, min_size};

/// A builder of one case's bytes at a given size.
type Build = fn(&mut Rng, usize) -> Vec<u8>;

#[cfg(feature = "parquet")]
pub use carriers::write_parquet;
pub use carriers::{json_line, json_string, warc_response, warc_response_untyped};

/// How a case reaches the cleaner.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Carrier {
    /// A file of this name in a folder, between two ordinary pages.
    File(&'static str),
    /// Standard input, alone.
    Stdin,
    /// The block of a WARC `response` record (HTTP head and body), with
    /// these WARC header fields too, between two ordinary responses.
    Warc(Vec<(&'static str, String)>),
    /// The `html` string of a JSON line, between two ordinary lines (the
    /// bytes are turned into a string one character per byte when they
    /// are not UTF-8).
    Jsonl,
    /// Text to score, not a page: the standard input of `ncleaner
    /// perplexity --json -` and the `text` of `POST /api/perplexity`.
    Perplexity,
    /// A whole line of a JSON Lines file, as it is (its `id` is `b`),
    /// between two ordinary lines.
    JsonlLine,
    /// The block of a WARC `response` record without the record's own
    /// `Content-Type` field, between two ordinary responses.
    WarcUntyped,
    /// The `html` cell (bytes) of this many rows of a Parquet file (ids
    /// `b0`, `b1`, …), between two ordinary rows ([`write_parquet`]).
    Parquet(usize),
    /// The same Parquet file on standard input.
    ParquetStdin(usize),
}

/// What must come of a case (besides: no abort, the other documents there).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expect {
    /// Cleaned, read whole; its text holds this, when given.
    Cleaned(Option<&'static str>),
    /// Cleaned on what was read, its record marked `truncated`; its text
    /// holds this, when given.
    Truncated(Option<&'static str>),
    /// Skipped as no document, the reason holding this.
    Skipped(&'static str),
    /// An error record whose message holds this.
    Failed(&'static str),
    /// Scored (a [`Carrier::Perplexity`] text): `perplexity --json -`
    /// writes a line for each of its lines; the server answers with its
    /// sentences, or 413 when the body or the answer would pass its limit.
    Scored,
}

/// One case of the corpus (its bytes built when asked for: [`Case::bytes`]).
#[derive(Debug, Clone)]
pub struct Case {
    /// Its name, with its size (`li-flood-60M`).
    pub name: String,
    /// What it is about: the defect or limit it exercises.
    pub about: &'static str,
    /// How it reaches the cleaner.
    pub carrier: Carrier,
    /// Its size in bytes, before compression (its bytes are about that long).
    pub size: usize,
    /// What must come of it.
    pub expect: Expect,
    /// The case of the same builder at a tenth of the size, if any (for
    /// "time roughly linear in size").
    pub smaller: Option<String>,
    build: Build,
    seed: u64,
}

impl Case {
    /// Its bytes: the file, standard input, the record's block, the JSON
    /// string's bytes.
    pub fn bytes(&self) -> Vec<u8> {
        (self.build)(&mut Rng::new(self.seed), self.size)
    }
}

/// A deterministic generator (PCG-XSH-RR) for the seeded parts.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> Rng {
        let mut r = Rng(seed.wrapping_add(0x853c_49e6_748f_ea9b));
        r.next_u32();
        r
    }

    /// The next 32 random bits.
    pub fn next_u32(&mut self) -> u32 {
        let old = self.0;
        self.0 = old
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let xorshifted = (((old >> 18) ^ old) >> 27) as u32;
        xorshifted.rotate_right((old >> 59) as u32)
    }

    /// `n` random bytes.
    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next_u32() as u8).collect()
    }

    /// A random lower-case word of 2 to 9 letters.
    pub fn word(&mut self) -> String {
        let len = 2 + self.next_u32() as usize % 8;
        (0..len)
            .map(|_| char::from(b'a' + (self.next_u32() % 26) as u8))
            .collect()
    }
}

/// An ordinary page: a title and three paragraphs of prose, its words
/// drawn from `rng`, with `marker` in its first paragraph.
pub fn ordinary_page(rng: &mut Rng, marker: &str) -> String {
    let mut p = |n: usize| (0..n).map(|_| rng.word()).collect::<Vec<_>>().join(" ");
    format!(
        "<html><head><title>An ordinary page</title></head><body><h1>An ordinary page</h1>\
         <p>{marker} is the word this paragraph starts with, and it goes on with {}.</p>\
         <p>The second paragraph is written the way people write, with {}.</p>\
         <p>The third one ends the page with {}.</p></body></html>",
        p(30),
        p(30),
        p(30)
    )
}

/// A size in bytes, in words: `69K`, `6M`.
fn size_name(n: usize) -> String {
    match n {
        n if n >= 1 << 20 => format!("{}M", n >> 20),
        n if n >= 1 << 10 => format!("{}K", n >> 10),
        n => format!("{n}B"),
    }
}

/// The largest case built: a tenfold size past it is cut to it (past the
/// document limit, 64 MiB, where a case fails the same way at any size).
pub const MAX_CASE: usize = 100 << 20;

/// What the limits of a run make of a case of `size` bytes carried so:
/// past the document limit (64 MiB) it fails, however it is carried.
fn over_the_limit(carrier: &Carrier, size: usize, compressed: bool) -> Option<Expect> {
    if compressed || size <= crate::DEFAULT_MAX_DOCUMENT {
        return None;
    }
    Some(Expect::Failed(match carrier {
        Carrier::File(_) | Carrier::Stdin => "more than the limit",
        Carrier::Warc(_) | Carrier::WarcUntyped => "larger than the limit",
        Carrier::Jsonl | Carrier::JsonlLine => "longer than",
        Carrier::Parquet(_) | Carrier::ParquetStdin(_) => "larger than the limit",
        // `perplexity` reads a line at a time, whatever the text's size.
        Carrier::Perplexity => return None,
    }))
}

/// The cases at `factor` times the sizes the issue found them at (CI
/// runs a small fraction; `scripts/torture` 1), each also at ten times
/// that (at most [`MAX_CASE`]): `2 ×` the kinds, the larger naming the
/// smaller. Decompression bombs keep their size.
pub fn cases(seed: u64, factor: f64) -> Vec<Case> {
    let mut out = Vec::new();
    for (i, kind) in kinds().into_iter().enumerate() {
        let bomb = UNSCALED.contains(&kind.name);
        let base = match bomb {
            true => kind.size,
            false => ((kind.size as f64 * factor) as usize)
                .max(min_size(kind.name))
                .max(256),
        };
        let mut smaller = None;
        for size in [base, base * 10] {
            let size = size.min(if bomb { usize::MAX } else { MAX_CASE });
            let carrier = (kind.carrier)();
            let expect =
                over_the_limit(&carrier, size, bomb).unwrap_or_else(|| match &kind.expect {
                    // A bomb below the limit is an empty page.
                    Expect::Failed(_) if bomb && size <= crate::DEFAULT_MAX_DOCUMENT => {
                        Expect::Cleaned(None)
                    }
                    e => e.clone(),
                });
            let name = format!("{}-{}", kind.name, size_name(size));
            out.push(Case {
                name: name.clone(),
                about: kind.about,
                carrier,
                size,
                expect,
                smaller: smaller.replace(name),
                build: kind.build,
                seed: seed ^ ((i as u64) << 32) ^ size as u64,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::kinds::K;
    use super::*;

    #[test]
    fn cases_are_seeded_and_sized() {
        let a = cases(7, 0.001);
        let b = cases(7, 0.001);
        assert_eq!(a.len(), 2 * kinds().len());
        for (x, y) in a.iter().zip(&b).filter(|(x, _)| x.size < 1 << 20) {
            assert_eq!((&x.name, x.bytes()), (&y.name, y.bytes()));
        }
        let c = cases(8, 0.001);
        assert!(
            a.iter()
                .zip(&c)
                .any(|(x, y)| x.size < 1 << 20 && x.bytes() != y.bytes())
        );
        // Each larger case names its smaller one, ten times smaller.
        for pair in a.chunks(2) {
            assert_eq!(pair[1].smaller.as_deref(), Some(pair[0].name.as_str()));
            assert_eq!(pair[1].size, 10 * pair[0].size, "{}", pair[1].name);
        }
        // The attribute floods of D7 keep the size that overflowed a
        // recursive tokenizer's stack, however small the run.
        let dq = a.iter().find(|c| c.name.starts_with("attr-flood-dq-69K"));
        assert_eq!(dq.map(|c| c.size), Some(69 * K));
    }
}
