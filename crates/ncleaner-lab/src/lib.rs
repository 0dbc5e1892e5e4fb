//! ncleaner's lab: everything that measures or trains the product, and
//! nothing a user who only cleans needs. It depends on the product library
//! (`ncleaner`) and the corpus crate; neither depends on it.
//!
//! - [`train`]: pairing pages with gold files, training through the product's
//!   own stages; [`align`] labels raw segments with the gold text;
//! - [`crossval`]: folds and fold models; [`quality`]: the page-quality
//!   regressions and their nested cross-validation;
//! - [`eval`]: the paper's word-level scoring (a port of `difflib`), the
//!   Levenshtein measure;
//! - [`experiment`], [`ablation`], [`matrix`], [`stats`]: the paper's
//!   experiments, the steps beyond it, the cross-domain matrix, the t-test.

pub mod ablation;
pub mod align;
#[cfg(feature = "cli")]
pub mod cli;
pub mod crossval;
pub mod error;
pub mod eval;
pub mod experiment;
pub mod lm;
pub mod matrix;
pub mod pool;
pub mod quality;
pub mod stats;
pub mod train;
