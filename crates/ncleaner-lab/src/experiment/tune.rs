//! End-to-end tuning: cross-validated word-level scores of the cleaner over a
//! grid of n, q and the decision threshold.
//!
//! The paper tuned n and q by cross-entropy, then found that lower orders
//! clean better "despite higher cross-entropy values" and chose n = 3,
//! q = 0.5 by hand. This module makes that second step systematic: every
//! grid point is cross-validated exactly as `crossval` does it (each fold's
//! pages cleaned by the models of the other folds, scored with the paper's
//! scoring), and the grid is ranked by an [`Objective`].
//!
//! It is fast because nothing is done twice: each held-out segment's score
//! for every (n, q) comes from one pass over its characters (see
//! `ngram`); a threshold only changes which segments are kept; and a
//! page whose kept segments are the same under several grid points is
//! aligned with its gold file once. Scores here are computed in f64 from the
//! formula; the cleaner's scorer rounds per-character log-odds to f32, so a
//! segment whose score is within rounding of the threshold may be decided
//! differently: rerun the chosen configuration through `crossval` (the
//! `tune` command does) for the cleaner's own figure.

use std::collections::HashMap;

use rayon::prelude::*;

use super::ngram::{FoldTables, Need};
use crate::crossval::PoolPage;
use crate::error::Result;
use crate::eval::{self, EvalOptions, FileScore, PairScore, Prf, Report};
use ncleaner::InputKind;
use ncleaner::Segment;
use ncleaner::model::{Alphabet, MAX_ORDER};

/// The grid of an end-to-end tuning run.
#[derive(Debug, Clone, serde::Serialize)]
pub struct FGridOptions {
    /// The models' alphabet.
    pub alphabet: Alphabet,
    /// Orders n.
    pub orders: Vec<usize>,
    /// Interpolation parameters q.
    pub qs: Vec<f64>,
    /// Decision thresholds (bits of log-odds; 0 is the paper's rule).
    pub thresholds: Vec<f64>,
    /// HTML segments or text-dump segments.
    pub input: InputKind,
}

/// What the tuning maximises.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub enum Objective {
    /// Micro-averaged F (the paper's headline figure).
    MicroF,
    /// Macro-averaged F (mean of the per-file F).
    MacroF,
    /// Micro-averaged precision among the points whose micro recall is at
    /// least the floor (a corpus builder's choice: text is plentiful, noise is not).
    Precision {
        /// The recall floor, a fraction.
        min_recall: f64,
    },
}

impl Objective {
    /// The value maximised at a point; `None` if the point is not eligible.
    pub fn value(&self, p: &FPoint) -> Option<f64> {
        match *self {
            Objective::MicroF => Some(p.micro.f),
            Objective::MacroF => Some(p.macro_.f.mean),
            Objective::Precision { min_recall } => {
                (p.micro.recall >= min_recall).then_some(p.micro.precision)
            }
        }
    }

    /// A short description for reports.
    pub fn describe(&self) -> String {
        match *self {
            Objective::MicroF => "micro-averaged F".into(),
            Objective::MacroF => "macro-averaged F".into(),
            Objective::Precision { min_recall } => format!(
                "micro-averaged precision at micro recall ≥ {:.1} %",
                100.0 * min_recall
            ),
        }
    }
}

/// One cross-validated grid point.
#[derive(Debug, Clone, serde::Serialize)]
pub struct FPoint {
    /// The order.
    pub n: usize,
    /// The interpolation parameter.
    pub q: f64,
    /// The decision threshold.
    pub threshold: f64,
    /// Micro-averaged P/R/F.
    pub micro: Prf,
    /// Macro-averaged P/R/F.
    pub macro_: eval::MacroPrf,
    /// Per-file F, pages in key order (for paired tests).
    #[serde(skip)]
    pub per_file_f: Vec<f64>,
}

/// The cross-validated grid.
#[derive(Debug, Clone, serde::Serialize)]
pub struct FGrid {
    /// The grid.
    pub options: FGridOptions,
    /// Number of folds.
    pub folds: usize,
    /// Pages.
    pub pages: usize,
    /// Every grid point, in (n, q, threshold) order.
    pub points: Vec<FPoint>,
    /// Distinct (page, kept segments) outputs aligned with their gold files.
    pub alignments: usize,
}

impl FGrid {
    /// The points ranked by the objective, best first (ineligible points left out).
    pub fn ranked(&self, objective: Objective) -> Vec<&FPoint> {
        let mut v: Vec<(&FPoint, f64)> = self
            .points
            .iter()
            .filter_map(|p| objective.value(p).map(|x| (p, x)))
            .collect();
        v.sort_by(|a, b| b.1.total_cmp(&a.1));
        v.into_iter().map(|(p, _)| p).collect()
    }

    /// The point at (n, q, threshold), if on the grid.
    pub fn at(&self, n: usize, q: f64, threshold: f64) -> Option<&FPoint> {
        self.points
            .iter()
            .find(|p| p.n == n && (p.q - q).abs() < 1e-9 && (p.threshold - threshold).abs() < 1e-9)
    }
}

/// The CleanEval-format output of a page with the given segments kept,
/// byte for byte what [`ncleaner::format::write_cleaneval`] writes.
pub(crate) fn cleaneval_text(
    url: Option<&str>,
    segments: &[Segment],
    keep: impl Fn(usize) -> bool,
) -> String {
    let mut s = String::new();
    if let Some(u) = url {
        s.push_str("URL: ");
        s.push_str(u);
        s.push_str("\n\n");
    }
    for (i, seg) in segments.iter().enumerate() {
        if keep(i) {
            s.push_str(seg.kind.marker());
            s.push(' ');
            s.push_str(seg.text());
            s.push('\n');
        }
    }
    s
}

/// Per-segment log-odds of one page for every (n, q): `None` for segments a
/// heuristic drops; otherwise `scores[ni * qs + qi]`.
type PageScores = Vec<Option<Vec<f64>>>;

/// Cross-validates the whole grid; `fold` and `k` as in [`crate::crossval::folds`].
pub fn f_grid(pool: &[PoolPage], fold: &[usize], k: usize, opts: &FGridOptions) -> Result<FGrid> {
    super::entropy::check_grid(&opts.orders, &opts.qs)?;
    let mut opts = opts.clone();
    opts.orders.sort_unstable();
    opts.orders.dedup();
    opts.qs.sort_by(f64::total_cmp);
    opts.qs.dedup();
    opts.thresholds.sort_by(f64::total_cmp);
    opts.thresholds.dedup();
    if opts.thresholds.is_empty() || opts.thresholds.iter().any(|t| !t.is_finite()) {
        return Err(crate::error::Error::Parameter(
            "thresholds must be finite, at least one".into(),
        ));
    }
    let top = *opts.orders.last().expect("checked");
    let (nq, nt) = (opts.orders.len() * opts.qs.len(), opts.thresholds.len());
    let tables = FoldTables::build(pool, fold, k, top, opts.alphabet, Need::CleanAndRaw);

    // 1. Segment scores for every (n, q), fold by fold.
    let scores = segment_scores(pool, fold, k, &opts, &tables);

    // 2. For each page, the distinct kept sets over the grid, each aligned once.
    let configs = nq * nt;
    let eval_opts = EvalOptions::default();
    let per_page: Vec<(Vec<PairScore>, Vec<u32>)> = pool
        .par_iter()
        .zip(&scores)
        .map(|(page, sc)| {
            let segs = page.segments(opts.input);
            let mut distinct: HashMap<Vec<u64>, u32> = HashMap::new();
            let mut sets: Vec<Vec<u64>> = Vec::new();
            let mut which = Vec::with_capacity(configs);
            for c in 0..configs {
                let (g, ti) = (c / nt, c % nt);
                let t = opts.thresholds[ti];
                let mut bits = vec![0u64; segs.len().div_ceil(64)];
                for (si, s) in sc.iter().enumerate() {
                    if let Some(s) = s
                        && s[g] >= t
                    {
                        bits[si / 64] |= 1 << (si % 64);
                    }
                }
                let next = sets.len() as u32;
                let id = *distinct.entry(bits.clone()).or_insert_with(|| {
                    sets.push(bits);
                    next
                });
                which.push(id);
            }
            let pair_scores: Vec<PairScore> = sets
                .par_iter()
                .map(|bits| {
                    let text = cleaneval_text(page.url.as_deref(), segs, |i| {
                        bits[i / 64] >> (i % 64) & 1 == 1
                    });
                    eval::score_pair(&text, &page.gold, &eval_opts)
                })
                .collect();
            (pair_scores, which)
        })
        .collect();
    let alignments = per_page.iter().map(|p| p.0.len()).sum();

    // 3. Every grid point's report, pages in key order as `score_texts` sorts them.
    let mut order: Vec<usize> = (0..pool.len()).collect();
    order.sort_by(|&a, &b| pool[a].key.cmp(&pool[b].key));
    let points = (0..configs)
        .into_par_iter()
        .map(|c| {
            let files: Vec<FileScore> = order
                .iter()
                .map(|&i| FileScore {
                    name: pool[i].key.clone(),
                    score: per_page[i].0[per_page[i].1[c] as usize],
                })
                .collect();
            let r = Report {
                options: eval_opts,
                files,
            };
            let (g, ti) = (c / nt, c % nt);
            let (ni, qi) = (g / opts.qs.len(), g % opts.qs.len());
            FPoint {
                n: opts.orders[ni],
                q: opts.qs[qi],
                threshold: opts.thresholds[ti],
                micro: r.micro(),
                macro_: r.macro_(),
                per_file_f: r.files.iter().map(|f| f.score.words.prf().f).collect(),
            }
        })
        .collect();
    Ok(FGrid {
        options: opts,
        folds: k,
        pages: pool.len(),
        points,
        alignments,
    })
}

/// Every held-out segment's log-odds for every (n, q) of the (sorted) grid,
/// each page scored with the tables of the folds it is not in.
pub(crate) fn segment_scores(
    pool: &[PoolPage],
    fold: &[usize],
    k: usize,
    opts: &FGridOptions,
    tables: &FoldTables,
) -> Vec<PageScores> {
    let top = *opts.orders.last().expect("checked");
    let nq = opts.orders.len() * opts.qs.len();
    let mut report = [None; MAX_ORDER];
    for (i, &n) in opts.orders.iter().enumerate() {
        report[n - 1] = Some(i);
    }
    let per_fold: Vec<Vec<(usize, PageScores)>> = (0..k)
        .into_par_iter()
        .map(|f| {
            let view = tables.view(f);
            let mut buf = Vec::new();
            let (mut pc, mut pd) = ([0.0; MAX_ORDER], [0.0; MAX_ORDER]);
            let nqs = opts.qs.len();
            (0..pool.len())
                .filter(|&i| fold[i] == f)
                .map(|i| {
                    let scores = pool[i]
                        .segments(opts.input)
                        .iter()
                        .map(|seg| {
                            if seg.heuristic.is_some() {
                                return None;
                            }
                            let mut s = vec![0.0; nq];
                            view.keys(seg.text(), &mut buf, |key| {
                                view.clean_dirty_estimates(key, &mut pc, &mut pd);
                                for (qi, &q) in opts.qs.iter().enumerate() {
                                    let (mut sc, mut sd) = (0.0, 0.0);
                                    for kk in 0..top {
                                        sc = pc[kk] + q * sc;
                                        sd = pd[kk] + q * sd;
                                        if let Some(ni) = report[kk] {
                                            s[ni * nqs + qi] += sc.log2() - sd.log2();
                                        }
                                    }
                                }
                            });
                            Some(s)
                        })
                        .collect();
                    (i, scores)
                })
                .collect()
        })
        .collect();
    let mut scores: Vec<PageScores> = vec![Vec::new(); pool.len()];
    for (i, s) in per_fold.into_iter().flatten() {
        scores[i] = s;
    }

    scores
}

/// The grid's best point and the given defaults, rerun through the cleaner
/// itself (`crossval`), with a paired t-test of per-file F between them.
#[derive(Debug, Clone)]
pub struct Confirmation {
    /// Rows: the raw dump, the tuned point, the defaults.
    pub table: super::table::Table,
    /// Tuned minus defaults, per-file F (`None` when they are the same point).
    pub tuned_vs_default: Option<crate::stats::TTest>,
    /// Tuned minus defaults, per-file precision.
    pub tuned_vs_default_precision: Option<crate::stats::TTest>,
}

/// Reruns the best point of `grid` by `objective` and the `defaults`
/// (threshold 0) through [`super::table::crossval_table`].
pub fn confirm(
    pool: &[PoolPage],
    fold: &[usize],
    k: usize,
    grid: &FGrid,
    objective: Objective,
    defaults: &ncleaner::model::TrainOptions,
) -> Result<Confirmation> {
    use crate::crossval::Variant;
    use ncleaner::Method;
    let best = grid.ranked(objective).into_iter().next().ok_or_else(|| {
        crate::error::Error::Parameter(format!("no grid point meets {}", objective.describe()))
    })?;
    let input = grid.options.input;
    let tuned = ncleaner::model::TrainOptions {
        n: best.n,
        q: best.q,
        alphabet: grid.options.alphabet,
    };
    let mut rows = vec![
        Variant::baseline(input),
        Variant::with_model("tuned", input, Method::NCleaner, &tuned, best.threshold),
    ];
    let same = best.n == defaults.n && (best.q - defaults.q).abs() < 1e-9 && best.threshold == 0.0;
    if !same {
        rows.push(Variant::with_model(
            "default",
            input,
            Method::NCleaner,
            defaults,
            0.0,
        ));
    }
    let table = super::table::crossval_table(pool, fold, k, &rows)?;
    let tuned_vs_default = (!same)
        .then(|| super::table::compare_f(&table.rows[1].report, &table.rows[2].report))
        .flatten();
    let tuned_vs_default_precision = (!same)
        .then(|| super::table::compare_precision(&table.rows[1].report, &table.rows[2].report))
        .flatten();
    Ok(Confirmation {
        table,
        tuned_vs_default,
        tuned_vs_default_precision,
    })
}

/// Points worth comparing with a grid's best: the current defaults and the
/// paper's choices (lexical: n = 3, q = 0.5 by accuracy, n = 6, q = 0.6 by
/// cross-entropy; non-lexical: n = 6, q = 0.4), all at threshold 0.
pub fn reference_points(alphabet: Alphabet) -> Vec<(&'static str, usize, f64, f64)> {
    match alphabet {
        Alphabet::Lexical => {
            let d = ncleaner::model::TrainOptions::lexical();
            vec![
                ("current default", d.n, d.q, 0.0),
                ("paper, by accuracy", 3, 0.5, 0.0),
                ("paper, by cross-entropy", 6, 0.6, 0.0),
            ]
        }
        Alphabet::NonLexical => {
            let d = ncleaner::model::TrainOptions::non_lexical();
            vec![
                ("current default", d.n, d.q, 0.0),
                ("paper (StupidOS §3.4)", 6, 0.4, 0.0),
            ]
        }
    }
}
