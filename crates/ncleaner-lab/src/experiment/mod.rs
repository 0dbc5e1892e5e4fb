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
//! - [`report`]: all of it as Markdown; [`plot`] (feature `plot`): as SVG and
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

use crate::train::{self, Pair};
use ncleaner::error::Result;

/// Pairs pages with gold files for several (pages, gold) directory pairs.
/// With more than one pair, each key is prefixed with its page directory's
/// name (`dev/12`, `train/12`), so that equal file names stay apart.
pub fn pairs(dirs: &[(PathBuf, PathBuf)]) -> Result<Vec<Pair>> {
    let mut out = Vec::new();
    for (html, gold) in dirs {
        let mut p = train::pair(html, gold)?;
        if dirs.len() > 1 {
            let prefix = html
                .file_name()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            p.iter_mut()
                .for_each(|x| x.key = format!("{prefix}/{}", x.key));
        }
        out.extend(p);
    }
    Ok(out)
}

/// The q grid 0.05, 0.10, …, 0.95.
pub fn default_q_grid() -> Vec<f64> {
    (1..20).map(|i| i as f64 / 20.0).collect()
}

#[cfg(test)]
mod tests;
