//! The paper's experiments (§3–§4), as library calls that the `tune`,
//! `crossval`, `curve` and `heldout` commands run:
//!
//! - [`entropy`]: parameter tuning by cross-validated cross-entropy of the
//!   raw-dump model over an (n, q) grid (Figure 2);
//! - [`tune`]: the same grid, plus the decision threshold, tuned end to end
//!   by cross-validated word-level F or precision;
//! - [`table`]: Table 2, rows of cleaners cross-validated (or run with fixed
//!   models on a held-out set), with paired t-tests against the raw dump, and
//!   the per-file precision differences of Figure 3;
//! - [`curve`]: the learning curve of Figure 4;
//! - [`report`]: all of it as Markdown; `plot` (feature `plot`): as SVG and
//!   PNG charts.
//!
//! Everything runs in parallel over folds, pages and grid points, and reads
//! each page once ([`crate::crossval::PoolPage`]).

pub mod curve;
pub mod entropy;
mod ngram;
pub mod page_quality;
#[cfg(feature = "plot")]
pub mod plot;
pub mod report;
pub mod table;
pub mod tune;

use std::path::PathBuf;

use crate::error::Result;
use crate::train::Pair;

/// Pairs pages with gold files for several (pages, gold) directory pairs,
/// keyed as [`crate::pool`] describes (`dev/12`, `train/12` with more than one).
pub fn pairs(dirs: &[(PathBuf, PathBuf)]) -> Result<Vec<Pair>> {
    crate::pool::pair_dirs(dirs, &[])
}

/// The q grid 0.05, 0.10, …, 0.95.
pub fn default_q_grid() -> Vec<f64> {
    (1..20).map(|i| i as f64 / 20.0).collect()
}

#[cfg(test)]
mod tests;
