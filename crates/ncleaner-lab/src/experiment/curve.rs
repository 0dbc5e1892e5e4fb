//! The learning curve (the paper's Figure 4): models trained on growing
//! random subsets of the pool, each scored on one fixed held-out set.
//!
//! The paper trained on subsets of its gold standard and tested on the
//! CleanEval test set. We may not touch that set, so the held-out set is part
//! of the pool, chosen once: fold 0 of a seeded `held_out_folds`-fold split
//! ([`crate::crossval::folds`], seed `seed`; with 4 folds, 100 of the 398
//! pages). The training subsets are drawn from the other pages, `draws` times
//! per size (a seeded shuffle per draw, so sizes and draws are reproducible);
//! a size of at least the whole training part is drawn once, as everything.

use std::collections::HashSet;

use rayon::prelude::*;

use crate::crossval::{self, PoolCounts, PoolPage, SplitMix64};
use crate::error::{Error, Result};
use crate::eval::{MeanSd, Prf};
use ncleaner::Cleaner;
use ncleaner::InputKind;
use ncleaner::format::read_segments;
use ncleaner::model::TrainOptions;

/// The paper's training-set sizes, in pages, before "everything".
pub const PAPER_SIZES: [usize; 8] = [1, 2, 5, 10, 20, 50, 100, 200];

/// What to draw and how to clean.
#[derive(Debug, Clone, serde::Serialize)]
pub struct CurveOptions {
    /// Model parameters.
    #[serde(skip)]
    pub params: TrainOptions,
    /// Training-set sizes in pages (sizes above the training part mean all of it).
    pub sizes: Vec<usize>,
    /// Random draws per size.
    pub draws: usize,
    /// Seed of the held-out split and of the draws.
    pub seed: u64,
    /// The held-out set is fold 0 of this many folds.
    pub held_out_folds: usize,
    /// HTML or text-dump input.
    pub input: InputKind,
    /// Decision threshold.
    pub threshold: f64,
}

impl Default for CurveOptions {
    fn default() -> Self {
        CurveOptions {
            params: TrainOptions::lexical(),
            sizes: PAPER_SIZES.to_vec(),
            draws: 10,
            seed: 1,
            held_out_folds: 4,
            input: InputKind::Html,
            threshold: 0.0,
        }
    }
}

/// One trained and scored model.
#[derive(Debug, Clone, serde::Serialize)]
pub struct CurvePoint {
    /// Training pages.
    pub pages: usize,
    /// Which draw of this size (0-based).
    pub draw: usize,
    /// Words of gold (clean) text in the training pages.
    pub train_words: usize,
    /// Micro-averaged scores on the held-out set.
    pub micro: Prf,
    /// Macro-averaged F on the held-out set.
    pub macro_f: f64,
}

/// Summary of one training-set size over its draws.
#[derive(Debug, Clone, serde::Serialize)]
pub struct CurveSize {
    /// Training pages.
    pub pages: usize,
    /// Number of draws.
    pub draws: usize,
    /// Gold words in the training pages.
    pub train_words: MeanSd,
    /// Micro F over draws.
    pub f: MeanSd,
    /// Micro precision over draws.
    pub precision: MeanSd,
    /// Micro recall over draws.
    pub recall: MeanSd,
    /// Lowest and highest micro F of a draw.
    pub f_range: (f64, f64),
    /// Lowest and highest micro precision of a draw.
    pub precision_range: (f64, f64),
}

/// The learning curve.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Curve {
    /// The options.
    pub options: CurveOptions,
    /// Keys of the held-out pages.
    pub held_out: Vec<String>,
    /// Pages available for training.
    pub train_pool: usize,
    /// The raw dump's micro scores on the held-out set.
    pub baseline: Prf,
    /// Every draw.
    pub points: Vec<CurvePoint>,
}

impl Curve {
    /// Mean, SD and range per size, ascending.
    pub fn sizes(&self) -> Vec<CurveSize> {
        let mut sizes: Vec<usize> = self.points.iter().map(|p| p.pages).collect();
        sizes.sort_unstable();
        sizes.dedup();
        sizes
            .into_iter()
            .map(|s| {
                let pts: Vec<&CurvePoint> = self.points.iter().filter(|p| p.pages == s).collect();
                let of = |f: &dyn Fn(&CurvePoint) -> f64| MeanSd::of(pts.iter().map(|p| f(p)));
                let range = |f: &dyn Fn(&CurvePoint) -> f64| {
                    pts.iter()
                        .map(|p| f(p))
                        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
                            (lo.min(x), hi.max(x))
                        })
                };
                CurveSize {
                    pages: s,
                    draws: pts.len(),
                    train_words: of(&|p| p.train_words as f64),
                    f: of(&|p| p.micro.f),
                    precision: of(&|p| p.micro.precision),
                    recall: of(&|p| p.micro.recall),
                    f_range: range(&|p| p.micro.f),
                    precision_range: range(&|p| p.micro.precision),
                }
            })
            .collect()
    }
}

/// Words of a page's gold text.
fn gold_words(p: &PoolPage) -> usize {
    read_segments(&p.gold)
        .iter()
        .map(|(_, t)| t.split_whitespace().count())
        .sum()
}

/// Draws `size` of `from` without replacement (a seeded Fisher–Yates prefix).
fn draw(from: &[usize], size: usize, seed: u64) -> Vec<usize> {
    let mut v = from.to_vec();
    let mut rng = SplitMix64(seed);
    let size = size.min(v.len());
    for i in 0..size {
        let j = i + (rng.next_u64() % (v.len() - i) as u64) as usize;
        v.swap(i, j);
    }
    v.truncate(size);
    v
}

/// Runs the learning curve over the pool.
pub fn learning_curve(pool: &[PoolPage], opts: &CurveOptions) -> Result<Curve> {
    ncleaner::model::check_parameters(opts.params.n, opts.params.q)?;
    if opts.held_out_folds < 2 || opts.draws == 0 || opts.sizes.is_empty() {
        return Err(Error::Parameter(
            "a learning curve needs at least 2 held-out folds, 1 draw and 1 size".into(),
        ));
    }
    let split = crossval::folds(pool.len(), opts.held_out_folds, opts.seed);
    let held: Vec<usize> = (0..pool.len()).filter(|&i| split[i] == 0).collect();
    let train: Vec<usize> = (0..pool.len()).filter(|&i| split[i] != 0).collect();
    if held.is_empty() || train.is_empty() {
        return Err(Error::Training("too few pages for a held-out split".into()));
    }
    let held_pages: Vec<PoolPage> = held.iter().map(|&i| pool[i].clone()).collect();
    let words: Vec<usize> = pool.iter().map(gold_words).collect();
    let counts = PoolCounts::new(pool, opts.params.n, opts.params.alphabet);

    let mut sizes: Vec<usize> = opts
        .sizes
        .iter()
        .map(|&s| s.clamp(1, train.len()))
        .collect();
    sizes.sort_unstable();
    sizes.dedup();
    let jobs: Vec<(usize, usize)> = sizes
        .iter()
        .flat_map(|&s| {
            let draws = if s >= train.len() { 1 } else { opts.draws };
            (0..draws).map(move |d| (s, d))
        })
        .collect();
    let score = |cleaner: &Cleaner| {
        let outputs: Vec<String> = held_pages
            .par_iter()
            .map(|p| {
                ncleaner::format::cleaneval_string(&crossval::clean_segments(
                    cleaner, p, opts.input,
                ))
            })
            .collect();
        super::table::score_outputs(&held_pages, &outputs)
    };
    let points: Vec<CurvePoint> = jobs
        .par_iter()
        .map(|&(s, d)| {
            let seed =
                opts.seed ^ (s as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (d as u64 + 1) << 40;
            let chosen: HashSet<usize> = draw(&train, s, seed).into_iter().collect();
            let model = counts.model(
                opts.params.n,
                opts.params.q,
                |i| chosen.contains(&i),
                &format!("learning curve: {s} pages, draw {d}"),
            )?;
            let cleaner = Cleaner::from_model(model).with_threshold(opts.threshold);
            let r = score(&cleaner);
            Ok(CurvePoint {
                pages: s,
                draw: d,
                train_words: chosen.iter().map(|&i| words[i]).sum(),
                micro: r.micro(),
                macro_f: r.macro_().f.mean,
            })
        })
        .collect::<Result<_>>()?;
    let keep_all = Cleaner::from_model(counts.model(1, 0.5, |_| true, "unused")?)
        .with_method(ncleaner::Method::KeepAll);
    let baseline = score(&keep_all).micro();
    Ok(Curve {
        options: opts.clone(),
        held_out: held_pages.iter().map(|p| p.key.clone()).collect(),
        train_pool: train.len(),
        baseline,
        points,
    })
}
