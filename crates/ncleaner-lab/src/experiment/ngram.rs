//! Per-character, per-order estimates P_k(c | h) of held-out text under a
//! fold's training counts, for evaluating a whole (n, q) grid at once.
//!
//! The interpolated probability of equation 1 is
//! (1−q)/(1−q^n) · Σ_{k=1..n} q^{n−k} P_k(c | h), and the estimates P_k do
//! not depend on n or q. So every held-out character's P_1 … P_N (N the
//! highest order of the grid) is computed once, and every (n, q) of the grid
//! is then a few multiply-adds and a logarithm away: S_1 = P_1,
//! S_k = P_k + q · S_{k−1}.
//!
//! The training counts of a fold are never built: a fold's count of a k-gram
//! is the pool's count minus the held-out fold's count, looked up on demand.
//! The estimates are those of [`ncleaner::model`] exactly (maximum likelihood,
//! add-one unigrams, the differential dirty model with its clamping); the
//! tests check them against the model's own scorer and against the direct
//! formula.

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use crate::crossval::PoolPage;
use ncleaner::format::read_segments;
use ncleaner::model::{Alphabet, MAX_ORDER, Sym};

/// k-gram counts and history totals of one text collection, orders 1 … n.
#[derive(Debug, Clone)]
pub(crate) struct Table {
    /// `grams[k-1]`: packed k-gram → count.
    grams: Vec<FxHashMap<u64, u32>>,
    /// `hist[k-1]` (k ≥ 2): packed (k−1)-gram h → Σ_c f(hc) of order k.
    hist: Vec<FxHashMap<u64, u32>>,
    /// Number of predicted symbols.
    total: u64,
}

impl Table {
    fn new(n: usize) -> Table {
        Table {
            grams: vec![FxHashMap::default(); n],
            hist: vec![FxHashMap::default(); n],
            total: 0,
        }
    }

    /// Counts segments exactly as [`ncleaner::model::Counts::add_segment`] does
    /// (n−1 boundary symbols before, one after), then the history totals.
    fn of_segments<'a>(
        n: usize,
        alphabet: Alphabet,
        texts: impl Iterator<Item = &'a str>,
    ) -> Table {
        let mut t = Table::new(n);
        let mut seq: Vec<Sym> = Vec::new();
        for text in texts {
            symbols(alphabet, n, text, &mut seq);
            let mut key = 0u64;
            for (i, &s) in seq.iter().enumerate() {
                key = (key << 7 | s as u64) & mask(n);
                if i + 1 < n {
                    continue;
                }
                for k in 1..=n {
                    *t.grams[k - 1].entry(key & mask(k)).or_insert(0) += 1;
                }
                t.total += 1;
            }
        }
        for k in 2..=n {
            let mut h = FxHashMap::default();
            for (&g, &c) in &t.grams[k - 1] {
                *h.entry(g >> 7).or_insert(0) += c;
            }
            t.hist[k - 1] = h;
        }
        t
    }

    fn merge(&mut self, o: &Table) {
        for (a, b) in self.grams.iter_mut().zip(&o.grams) {
            for (&k, &v) in b {
                *a.entry(k).or_insert(0) += v;
            }
        }
        for (a, b) in self.hist.iter_mut().zip(&o.hist) {
            for (&k, &v) in b {
                *a.entry(k).or_insert(0) += v;
            }
        }
        self.total += o.total;
    }

    #[inline]
    fn gram(&self, k: usize, key: u64) -> u64 {
        self.grams[k - 1].get(&key).copied().unwrap_or(0) as u64
    }

    #[inline]
    fn hist(&self, k: usize, h: u64) -> u64 {
        self.hist[k - 1].get(&h).copied().unwrap_or(0) as u64
    }
}

/// A bit mask of the last k symbols of a packed key.
#[inline]
fn mask(k: usize) -> u64 {
    if k >= 9 {
        u64::MAX
    } else {
        (1u64 << (7 * k)) - 1
    }
}

/// The padded symbol sequence of one segment: n−1 boundaries, the text, one boundary.
fn symbols(alphabet: Alphabet, n: usize, text: &str, out: &mut Vec<Sym>) {
    let b = alphabet.boundary();
    out.clear();
    out.extend(std::iter::repeat_n(b, n - 1));
    out.extend(text.chars().map(|c| alphabet.symbol(c)));
    out.push(b);
}

/// The counts of the whole pool and of each fold, of the raw dumps and
/// (when asked for) of the gold text.
pub(crate) struct FoldTables {
    /// Highest order counted.
    pub n: usize,
    /// The alphabet.
    pub alphabet: Alphabet,
    raw_total: Table,
    raw_fold: Vec<Table>,
    clean_total: Option<Table>,
    clean_fold: Vec<Table>,
}

/// Which text the estimates are of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Need {
    /// The raw dumps only (cross-entropy tuning).
    Raw,
    /// The raw dumps and the gold text (clean and dirty models).
    CleanAndRaw,
}

impl FoldTables {
    /// Counts the pool's pages fold by fold (in parallel) up to order `n`.
    /// The raw side is the pages' HTML segments, as [`PoolPage::training_page`] has it.
    pub fn build(
        pool: &[PoolPage],
        fold: &[usize],
        k: usize,
        n: usize,
        alphabet: Alphabet,
        need: Need,
    ) -> FoldTables {
        let per_fold: Vec<(Table, Option<Table>)> = (0..k)
            .into_par_iter()
            .map(|f| {
                let pages = || {
                    pool.iter()
                        .zip(fold)
                        .filter(move |(_, g)| **g == f)
                        .map(|(p, _)| p)
                };
                let raw = Table::of_segments(
                    n,
                    alphabet,
                    pages().flat_map(|p| p.html_segments.iter().map(|s| s.text())),
                );
                let clean = (need == Need::CleanAndRaw).then(|| {
                    let gold: Vec<String> = pages()
                        .flat_map(|p| read_segments(&p.gold).into_iter().map(|(_, t)| t))
                        .collect();
                    Table::of_segments(n, alphabet, gold.iter().map(|s| s.as_str()))
                });
                (raw, clean)
            })
            .collect();
        let mut raw_total = Table::new(n);
        let mut clean_total = (need == Need::CleanAndRaw).then(|| Table::new(n));
        let mut raw_fold = Vec::with_capacity(k);
        let mut clean_fold = Vec::with_capacity(k);
        for (r, c) in per_fold {
            raw_total.merge(&r);
            raw_fold.push(r);
            if let (Some(t), Some(c)) = (clean_total.as_mut(), c) {
                t.merge(&c);
                clean_fold.push(c);
            }
        }
        FoldTables {
            n,
            alphabet,
            raw_total,
            raw_fold,
            clean_total,
            clean_fold,
        }
    }

    /// The estimates of the model trained on every fold but `f`.
    pub fn view(&self, f: usize) -> FoldView<'_> {
        FoldView {
            n: self.n,
            alphabet: self.alphabet,
            v: self.alphabet.size() as f64,
            raw: (&self.raw_total, &self.raw_fold[f]),
            clean: self.clean_total.as_ref().map(|t| (t, &self.clean_fold[f])),
        }
    }
}

/// Training counts of one fold: pool counts minus the held-out fold's.
pub(crate) struct FoldView<'a> {
    n: usize,
    alphabet: Alphabet,
    v: f64,
    raw: (&'a Table, &'a Table),
    clean: Option<(&'a Table, &'a Table)>,
}

#[inline]
fn gram(t: (&Table, &Table), k: usize, key: u64) -> u64 {
    t.0.gram(k, key) - t.1.gram(k, key)
}

#[inline]
fn hist(t: (&Table, &Table), k: usize, h: u64) -> u64 {
    t.0.hist(k, h) - t.1.hist(k, h)
}

impl FoldView<'_> {
    /// Calls `each` with the key (the packed last n symbols, boundaries
    /// padding the start) of every predicted symbol of a segment.
    pub fn keys(&self, text: &str, buf: &mut Vec<Sym>, mut each: impl FnMut(u64)) {
        symbols(self.alphabet, self.n, text, buf);
        let mut key = 0u64;
        for (i, &s) in buf.iter().enumerate() {
            key = (key << 7 | s as u64) & mask(self.n);
            if i + 1 >= self.n {
                each(key);
            }
        }
    }

    /// Maximum-likelihood estimates P_1 … P_n of the raw-dump model for the
    /// symbol ending `key` (the paper tunes on the joint raw dumps).
    pub fn raw_estimates(&self, key: u64, out: &mut [f64; MAX_ORDER]) {
        mle(self.raw, self.n, self.v, key, out);
    }

    /// Estimates P_1 … P_n of the clean model (maximum likelihood over the
    /// gold text) and of the dirty model (differential) for one symbol.
    pub fn clean_dirty_estimates(
        &self,
        key: u64,
        clean: &mut [f64; MAX_ORDER],
        dirty: &mut [f64; MAX_ORDER],
    ) {
        let c = self.clean.expect("tables built with the gold text");
        let r = self.raw;
        let sat = |a: u64, b: u64| a.saturating_sub(b);
        *clean = [0.0; MAX_ORDER];
        *dirty = [0.0; MAX_ORDER];
        // Unigrams: add-one smoothing over the training totals.
        let (cn, rn) = (c.0.total - c.1.total, r.0.total - r.1.total);
        let k1 = key & mask(1);
        let (cf, rf) = (gram(c, 1, k1), gram(r, 1, k1));
        clean[0] = (cf as f64 + 1.0) / (cn as f64 + self.v);
        dirty[0] = (sat(rf, cf) as f64 + 1.0) / (sat(rn, cn) as f64 + self.v);
        for k in 2..=self.n {
            let g = key & mask(k);
            let (cf, rf) = (gram(c, k, g), gram(r, k, g));
            if cf == 0 && rf == 0 {
                // No longer k-gram can have been seen either.
                break;
            }
            let h = g >> 7;
            let (ct, rt) = (hist(c, k, h), hist(r, k, h));
            if cf > 0 {
                clean[k - 1] = cf as f64 / ct as f64;
            }
            let (num, den) = (sat(rf, cf), sat(rt, ct));
            if num > 0 && den > 0 {
                dirty[k - 1] = (num as f64 / den as f64).min(1.0);
            }
        }
    }
}

/// Maximum-likelihood estimates P_1 … P_n of one collection's training counts.
fn mle(t: (&Table, &Table), n: usize, v: f64, key: u64, out: &mut [f64; MAX_ORDER]) {
    *out = [0.0; MAX_ORDER];
    let total = t.0.total - t.1.total;
    out[0] = (gram(t, 1, key & mask(1)) as f64 + 1.0) / (total as f64 + v);
    for k in 2..=n {
        let g = key & mask(k);
        let f = gram(t, k, g);
        if f == 0 {
            break;
        }
        out[k - 1] = f as f64 / hist(t, k, g >> 7) as f64;
    }
}
