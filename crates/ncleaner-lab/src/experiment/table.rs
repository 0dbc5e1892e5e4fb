//! The paper's Table 2: rows of cleaners, each cross-validated over a pool of
//! pages (or, for a held-out check, run with fixed models), scored with the
//! paper's word-level scoring, and compared with the raw dump file by file
//! with paired t-tests of F and of precision (§4: "paired t-test for
//! F-scores of NCLEANER vs. baseline across texts").
//!
//! The rows are a list of [`Variant`]s ([`paper_rows`]); a new cleaner is a
//! new line there. Each row's baseline is the first [`Method::KeepAll`] row
//! of the same input kind.

use std::collections::HashMap;
use std::sync::Arc;

use rayon::prelude::*;

use crate::crossval::{self, PoolCounts, PoolPage, Variant};
use crate::error::{Error, Result};
use crate::eval::{self, EvalOptions, Report};
use crate::stats::{self, TTest};
use ncleaner::Cleaner;
use ncleaner::InputKind;
use ncleaner::Method;
use ncleaner::format;
use ncleaner::model::{Alphabet, Model, TrainOptions};

/// The paper's rows, for HTML input and then for text-dump input: the raw
/// dump (baseline), the heuristics alone, NCleaner with the lexical model and
/// with the non-lexical model.
pub fn paper_rows(
    lexical: &TrainOptions,
    non_lexical: &TrainOptions,
    threshold: f64,
) -> Vec<Variant> {
    let mut rows = Vec::new();
    for input in [InputKind::Html, InputKind::Text] {
        rows.extend([
            Variant::baseline(input),
            Variant::heuristics(input),
            Variant::with_model(
                "NCleaner lexical",
                input,
                Method::NCleaner,
                lexical,
                threshold,
            ),
            Variant::with_model(
                "NCleaner non-lexical",
                input,
                Method::NCleaner,
                non_lexical,
                threshold,
            ),
        ]);
    }
    rows
}

/// One row of the table.
#[derive(Debug, Clone, serde::Serialize)]
pub struct RowResult {
    /// The cleaner.
    #[serde(serialize_with = "variant_name")]
    pub variant: Variant,
    /// Its scores, file by file (sorted by page key).
    #[serde(skip)]
    pub report: Report,
    /// The name of the row it is compared with, if any.
    pub baseline: Option<String>,
    /// Paired t-test of per-file F against the baseline row.
    pub t_f: Option<TTest>,
    /// Paired t-test of per-file precision against the baseline row.
    pub t_p: Option<TTest>,
    /// The cleaned pages in CleanEval format, in pool order.
    #[serde(skip)]
    pub outputs: Vec<String>,
}

fn variant_name<S: serde::Serializer>(v: &Variant, s: S) -> std::result::Result<S::Ok, S::Error> {
    s.serialize_str(&v.name)
}

/// A whole table.
#[derive(Debug, Clone)]
pub struct Table {
    /// The rows in order.
    pub rows: Vec<RowResult>,
    /// Number of pages.
    pub pages: usize,
    /// Number of folds (`None` for fixed models).
    pub folds: Option<usize>,
    /// Wall-clock seconds the table took (pool loading excluded).
    pub seconds: f64,
}

impl Table {
    /// The row of a given name.
    pub fn row(&self, name: &str) -> Option<&RowResult> {
        self.rows.iter().find(|r| r.variant.name == name)
    }

    /// The baseline row of a row.
    pub fn baseline_of(&self, row: &RowResult) -> Option<&RowResult> {
        row.baseline.as_deref().and_then(|b| self.row(b))
    }
}

/// Per-file precision of `row` minus that of `base`, in percentage points,
/// pages in key order (the paper's Figure 3).
pub fn precision_differences(row: &Report, base: &Report) -> Vec<f64> {
    per_file(row, |p| p.precision)
        .iter()
        .zip(per_file(base, |p| p.precision))
        .map(|(a, b)| 100.0 * (a - b))
        .collect()
}

fn per_file(r: &Report, f: impl Fn(eval::Prf) -> f64) -> Vec<f64> {
    r.files.iter().map(|x| f(x.score.words.prf())).collect()
}

/// Scores cleaned pages against their gold files (pool order in, key order in the report).
pub fn score_outputs(pool: &[PoolPage], outputs: &[String]) -> Report {
    eval::score_texts(
        pool.par_iter()
            .zip(outputs)
            .map(|(p, o)| (p.key.clone(), o.as_str(), p.gold.as_str())),
        &EvalOptions::default(),
    )
}

/// Cross-validates every row over the pool: K = `k` folds given by `fold`.
/// Fold models are built by count subtraction ([`PoolCounts`]), one count
/// table per alphabet up to the highest order any row asks for.
pub fn crossval_table(
    pool: &[PoolPage],
    fold: &[usize],
    k: usize,
    rows: &[Variant],
) -> Result<Table> {
    let t0 = std::time::Instant::now();
    let mut top: HashMap<Alphabet, usize> = HashMap::new();
    for v in rows.iter().filter(|v| v.method.uses_model()) {
        let e = top.entry(v.alphabet).or_insert(1);
        *e = (*e).max(v.n);
    }
    top.entry(Alphabet::Lexical).or_insert(1);
    let counts: HashMap<Alphabet, PoolCounts> = top
        .into_iter()
        .map(|(a, n)| (a, PoolCounts::new(pool, n, a)))
        .collect();
    let mut results = Vec::with_capacity(rows.len());
    for v in rows {
        let c = if v.method.uses_model() {
            &counts[&v.alphabet]
        } else {
            &counts[&Alphabet::Lexical]
        };
        let cleaned = crossval::run(pool, c, fold, k, v)?;
        let outputs: Vec<String> = cleaned.par_iter().map(format::cleaneval_string).collect();
        results.push(row_result(pool, v, outputs));
    }
    Ok(finish(results, pool.len(), Some(k), t0))
}

/// Runs every row with fixed models (a held-out check: models trained
/// elsewhere, pages never trained on). `model_for` gives the model of a row
/// that needs one; rows without one are an error.
pub fn fixed_table(
    pool: &[PoolPage],
    rows: &[Variant],
    model_for: impl Fn(&Variant) -> Option<Arc<Model>>,
) -> Result<Table> {
    let t0 = std::time::Instant::now();
    let unused = Arc::new(ncleaner::model::embedded("en")?);
    let mut results = Vec::with_capacity(rows.len());
    for v in rows {
        let model = if v.method.uses_model() {
            model_for(v)
                .ok_or_else(|| Error::Parameter(format!("no model for the row {:?}", v.name)))?
        } else {
            unused.clone()
        };
        let cleaner = Cleaner::from_shared(model)
            .with_method(v.method)
            .with_threshold(v.threshold);
        let outputs: Vec<String> = pool
            .par_iter()
            .map(|p| format::cleaneval_string(&crossval::clean_segments(&cleaner, p, v.input)))
            .collect();
        results.push(row_result(pool, v, outputs));
    }
    Ok(finish(results, pool.len(), None, t0))
}

fn row_result(pool: &[PoolPage], v: &Variant, outputs: Vec<String>) -> RowResult {
    RowResult {
        variant: v.clone(),
        report: score_outputs(pool, &outputs),
        baseline: None,
        t_f: None,
        t_p: None,
        outputs,
    }
}

/// Links each row with its baseline and runs the paired t-tests.
fn finish(
    mut rows: Vec<RowResult>,
    pages: usize,
    folds: Option<usize>,
    t0: std::time::Instant,
) -> Table {
    let bases: Vec<Option<usize>> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            rows.iter()
                .position(|b| {
                    b.variant.method == Method::KeepAll && b.variant.input == r.variant.input
                })
                .filter(|&b| b != i)
        })
        .collect();
    for (i, b) in bases.into_iter().enumerate() {
        if let Some(b) = b {
            let base = &rows[b].report;
            let (tf, tp) = (
                stats::paired_t_test(
                    &per_file(&rows[i].report, |p| p.f),
                    &per_file(base, |p| p.f),
                ),
                stats::paired_t_test(
                    &per_file(&rows[i].report, |p| p.precision),
                    &per_file(base, |p| p.precision),
                ),
            );
            let name = rows[b].variant.name.clone();
            let r = &mut rows[i];
            r.baseline = Some(name);
            r.t_f = tf;
            r.t_p = tp;
        }
    }
    Table {
        rows,
        pages,
        folds,
        seconds: t0.elapsed().as_secs_f64(),
    }
}

/// A paired t-test of per-file F of two reports over the same pages (for
/// comparing two cleaners, e.g. tuned against default parameters).
pub fn compare_f(a: &Report, b: &Report) -> Option<TTest> {
    stats::paired_t_test(&per_file(a, |p| p.f), &per_file(b, |p| p.f))
}

/// A paired t-test of per-file precision of two reports over the same pages.
pub fn compare_precision(a: &Report, b: &Report) -> Option<TTest> {
    stats::paired_t_test(&per_file(a, |p| p.precision), &per_file(b, |p| p.precision))
}
