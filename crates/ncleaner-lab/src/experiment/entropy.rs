//! The paper's parameter tuning (§3, Figure 2): K-fold cross-validated
//! cross-entropy, in bits per character, of the character n-gram model of
//! the raw dumps, over a grid of n and q.
//!
//! "Joint clean and dirty training data": for each fold, one model is
//! trained on the raw dumps (the HTML segments, as training sees them) of
//! the other folds, and the held-out fold's raw dumps are scored with it.
//! Every predicted symbol counts, the end-of-segment boundary included (as in
//! training); the cross-entropy is pooled over all held-out symbols of all
//! folds: H = −(1/N) Σ log2 P(c | h).
//!
//! The probability is equation 1 itself, deficient where a history was never
//! seen (its order contributes nothing); that is what the paper's formula
//! gives, and it is why high orders need strong interpolation.

use rayon::prelude::*;

use super::ngram::{FoldTables, Need};
use crate::crossval::PoolPage;
use crate::error::{Error, Result};
use ncleaner::model::{Alphabet, MAX_ORDER, check_parameters};

/// Cross-validated cross-entropy over an (n, q) grid.
#[derive(Debug, Clone, serde::Serialize)]
pub struct EntropyGrid {
    /// The alphabet of the models.
    pub alphabet: Alphabet,
    /// Number of folds.
    pub folds: usize,
    /// The orders n of the grid, ascending.
    pub orders: Vec<usize>,
    /// The interpolation parameters q of the grid, ascending.
    pub qs: Vec<f64>,
    /// `bits[i][j]`: cross-entropy of order `orders[i]` with `qs[j]`, bits per symbol.
    pub bits: Vec<Vec<f64>>,
    /// `fold_sd[i][j]`: standard deviation of the per-fold cross-entropies.
    pub fold_sd: Vec<Vec<f64>>,
    /// Held-out symbols scored (all folds).
    pub symbols: u64,
}

impl EntropyGrid {
    /// The grid point of lowest cross-entropy: (n, q, bits).
    pub fn minimum(&self) -> (usize, f64, f64) {
        let mut best = (0, 0.0, f64::INFINITY);
        for (i, row) in self.bits.iter().enumerate() {
            for (j, &b) in row.iter().enumerate() {
                if b < best.2 {
                    best = (self.orders[i], self.qs[j], b);
                }
            }
        }
        best
    }

    /// The best q of one order: (q, bits).
    pub fn best_q(&self, n: usize) -> Option<(f64, f64)> {
        let i = self.orders.iter().position(|&o| o == n)?;
        self.bits[i]
            .iter()
            .enumerate()
            .min_by(|a, b| a.1.total_cmp(b.1))
            .map(|(j, &b)| (self.qs[j], b))
    }

    /// The cross-entropy at one grid point, if it is on the grid.
    pub fn at(&self, n: usize, q: f64) -> Option<f64> {
        let i = self.orders.iter().position(|&o| o == n)?;
        let j = self.qs.iter().position(|&x| (x - q).abs() < 1e-9)?;
        Some(self.bits[i][j])
    }
}

/// Checks a grid: orders within 1 … MAX_ORDER, q strictly between 0 and 1.
pub(crate) fn check_grid(orders: &[usize], qs: &[f64]) -> Result<()> {
    if orders.is_empty() || qs.is_empty() {
        return Err(Error::Parameter("an empty n or q grid".into()));
    }
    for &n in orders {
        for &q in qs {
            check_parameters(n, q)?;
        }
    }
    Ok(())
}

/// Per-fold sums: Σ log2 S_n(q) for each grid point, and the symbol count.
struct FoldSums {
    log_s: Vec<Vec<f64>>,
    symbols: u64,
}

/// Cross-validated cross-entropy of the raw-dump model over the grid
/// `orders` × `qs`, K = `k` folds given by `fold` (as [`crate::crossval::folds`]).
pub fn cross_entropy(
    pool: &[PoolPage],
    fold: &[usize],
    k: usize,
    alphabet: Alphabet,
    orders: &[usize],
    qs: &[f64],
) -> Result<EntropyGrid> {
    check_grid(orders, qs)?;
    let mut orders = orders.to_vec();
    orders.sort_unstable();
    orders.dedup();
    let mut qs = qs.to_vec();
    qs.sort_by(f64::total_cmp);
    qs.dedup();
    let top = *orders.last().expect("checked non-empty");
    let tables = FoldTables::build(pool, fold, k, top, alphabet, Need::Raw);
    // which orders are reported, by k - 1
    let mut report = [None; MAX_ORDER];
    for (i, &n) in orders.iter().enumerate() {
        report[n - 1] = Some(i);
    }
    let sums: Vec<FoldSums> = (0..k)
        .into_par_iter()
        .map(|f| {
            let view = tables.view(f);
            let mut log_s = vec![vec![0.0; qs.len()]; orders.len()];
            let mut symbols = 0u64;
            let mut buf = Vec::new();
            let mut p = [0.0; MAX_ORDER];
            for page in pool
                .iter()
                .zip(fold)
                .filter(|(_, g)| **g == f)
                .map(|(p, _)| p)
            {
                for seg in &page.html_segments {
                    view.keys(seg.text(), &mut buf, |key| {
                        view.raw_estimates(key, &mut p);
                        symbols += 1;
                        for (j, &q) in qs.iter().enumerate() {
                            let mut s = 0.0;
                            for (kk, &pk) in p[..top].iter().enumerate() {
                                s = pk + q * s;
                                if let Some(i) = report[kk] {
                                    log_s[i][j] += s.log2();
                                }
                            }
                        }
                    });
                }
            }
            FoldSums { log_s, symbols }
        })
        .collect();
    let symbols: u64 = sums.iter().map(|s| s.symbols).sum();
    if symbols == 0 {
        return Err(Error::Training(
            "no raw text to compute a cross-entropy of".into(),
        ));
    }
    // H = −(Σ log2 S + N log2 norm) / N, norm = (1−q)/(1−q^n)
    let h = |log_s: f64, count: u64, n: usize, q: f64| {
        let norm = ((1.0 - q) / (1.0 - q.powi(n as i32))).log2();
        -(log_s + count as f64 * norm) / count as f64
    };
    let mut bits = vec![vec![0.0; qs.len()]; orders.len()];
    let mut fold_sd = vec![vec![0.0; qs.len()]; orders.len()];
    for (i, &n) in orders.iter().enumerate() {
        for (j, &q) in qs.iter().enumerate() {
            let total: f64 = sums.iter().map(|s| s.log_s[i][j]).sum();
            bits[i][j] = h(total, symbols, n, q);
            let per: Vec<f64> = sums
                .iter()
                .filter(|s| s.symbols > 0)
                .map(|s| h(s.log_s[i][j], s.symbols, n, q))
                .collect();
            fold_sd[i][j] = crate::eval::MeanSd::of(per.iter().copied()).sd;
        }
    }
    Ok(EntropyGrid {
        alphabet,
        folds: k,
        orders,
        qs,
        bits,
        fold_sd,
        symbols,
    })
}
