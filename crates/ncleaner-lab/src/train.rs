//! Training data: pages paired with their gold files, run through the same
//! pipeline stages as cleaning, so that the models see at training time
//! exactly the segments they will judge.

use std::path::PathBuf;

use rayon::prelude::*;

use crate::error::{Error, Result};
use ncleaner::InputKind;
use ncleaner::format::read_segments;
use ncleaner::model::TrainingPage;
use ncleaner::page::segments_of;

pub use crate::crossval::Pair;
pub use crate::pool::{key_of, pair};

/// Reads and segments the pairs (in parallel): the page through the
/// pipeline's decode, html and segment stages, the gold file as segments.
pub fn load(pairs: &[Pair], input: InputKind) -> Result<Vec<TrainingPage>> {
    pairs
        .par_iter()
        .map(|p| {
            let bytes = ncleaner_corpus::read_document(&p.page)?;
            let gold = std::fs::read(&p.gold).map_err(|e| Error::io(&p.gold, e))?;
            Ok(training_page(&p.key, &bytes, &gold, input))
        })
        .collect()
}

/// One training page from the bytes of a page and of its gold file.
pub fn training_page(name: &str, page: &[u8], gold: &[u8], input: InputKind) -> TrainingPage {
    let doc = ncleaner::decode::decode(page, None, None);
    let (_, segments) = segments_of(&doc.text, input);
    let gold = String::from_utf8_lossy(gold);
    TrainingPage {
        name: name.to_string(),
        raw: segments.into_iter().map(Segment::into_text).collect(),
        clean: read_segments(&gold).into_iter().map(|(_, t)| t).collect(),
    }
}

/// The training pages of (pages, gold) directory pairs, keyed as
/// [`crate::pool`] describes, without the pages whose relative path starts
/// with one of `exclude`; `text`: the pages are plain-text dumps, not HTML.
/// Also returns a description of each directory for [`provenance`]
/// (`cleaneval/dev (60 pages)`).
pub fn load_dirs(
    dirs: &[(PathBuf, PathBuf)],
    exclude: &[String],
    text: bool,
) -> Result<(Vec<crate::crossval::PoolPage>, Vec<String>)> {
    let mut pages = Vec::new();
    let mut sources = Vec::new();
    for ((dir, _), pairs) in dirs.iter().zip(crate::pool::pair_each(dirs, exclude)?) {
        sources.push(format!(
            "{} ({} pages)",
            crate::pool::last_components(dir),
            pairs.len()
        ));
        pages.extend(if text {
            crate::crossval::load_text_pool(&pairs)?
        } else {
            crate::crossval::load_pool(&pairs)?
        });
    }
    Ok((pages, sources))
}

/// The provenance line `ncleaner train` writes into a model: the options
/// (`--nonlexical`, `--paper`), the configuration, the `sources` of
/// [`load_dirs`] and the `--exclude` prefixes.
pub fn provenance(
    cfg: &TrainConfig,
    nonlexical: bool,
    paper: bool,
    sources: &[String],
    exclude: &[String],
) -> String {
    format!(
        "ncleaner train{}{} n={} q={} dirty={} classifier={} on {}{}",
        if nonlexical { " --nonlexical" } else { "" },
        if paper { " --paper" } else { "" },
        cfg.n,
        cfg.q,
        cfg.dirty.name(),
        match &cfg.classifier {
            None => "none".to_string(),
            Some(c) => format!(
                "{{neighbours={}, attrs={}, hmm={}, operating-point={:?}}}",
                c.neighbours, c.attrs, c.hmm, c.operating_point
            ),
        },
        sources.join(" + "),
        if exclude.is_empty() {
            String::new()
        } else {
            format!(" excluding {}", exclude.join(", "))
        }
    )
}

/// Parses an operating point: `min-precision:P`, `f-beta:B` or `max-f`
/// ([`OperatingPoint`]).
pub fn parse_operating_point(s: &str) -> std::result::Result<OperatingPoint, String> {
    let bad = || format!("{s:?}: give min-precision:P, f-beta:B, max-f or max-page-f");
    match s.split_once(':') {
        None if s == "max-f" => Ok(OperatingPoint::MaxF),
        None if s == "max-page-f" => Ok(OperatingPoint::MaxPageF),
        Some(("min-precision", p)) => {
            Ok(OperatingPoint::MinPrecision(p.parse().map_err(|_| bad())?))
        }
        Some(("f-beta", b)) => Ok(OperatingPoint::MaxFBeta(b.parse().map_err(|_| bad())?)),
        _ => Err(bad()),
    }
}

#[cfg(test)]
mod provenance_tests {
    use super::*;

    #[test]
    fn provenance_line() {
        let cfg = TrainConfig::paper_lexical();
        let p = provenance(
            &cfg,
            false,
            true,
            &["x/dev (2 pages)".into()],
            &["test".into()],
        );
        assert!(p.starts_with("ncleaner train --paper n="), "{p}");
        assert!(
            p.contains("classifier=none on x/dev (2 pages) excluding test"),
            "{p}"
        );
    }
}

// ---------------------------------------------------------------------------
// Training the full model: aligned labels, n-gram models, segment classifier.
// ---------------------------------------------------------------------------

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::crossval::{PoolPage, folds};
use ncleaner::Segment;
use ncleaner::classify::attrs::AttrModel;
use ncleaner::classify::hmm::Chain;
use ncleaner::classify::logistic::Logistic;
use ncleaner::classify::page::PagePrediction;
use ncleaner::classify::trees::{Boost, Forest};
use ncleaner::classify::{Calibration, Classifier, log2_odds};
use ncleaner::model::{Alphabet, Counts, DirtyEstimate, Model, ModelMeta};

mod pagetype;
mod points;

pub use pagetype::{
    INNER_TYPE_FOLDS, MIN_TYPED_PAGES, balanced_weights, fit_types, host_fold, label_pages,
    read_labels,
};

/// How a model is trained.
#[derive(Debug, Clone, PartialEq)]
pub struct TrainConfig {
    /// The n-gram order.
    pub n: usize,
    /// The interpolation parameter.
    pub q: f64,
    /// The alphabet.
    pub alphabet: Alphabet,
    /// How the dirty model is estimated.
    pub dirty: DirtyEstimate,
    /// The segment classifier, or `None` for the paper's rule alone.
    pub classifier: Option<ClassifierConfig>,
    /// A one-line description for the model's provenance.
    pub provenance: String,
    /// The language tag the model is written with ([`ModelMeta::language`]).
    pub language: Option<String>,
}

/// How the segment classifier is trained.
#[derive(Debug, Clone, PartialEq)]
pub struct ClassifierConfig {
    /// Give each segment its neighbours' features too.
    pub neighbours: bool,
    /// Use the learned `class`/`id`/`role` word evidence.
    pub attrs: bool,
    /// Weight each training segment by its number of words (+1 for its
    /// marker), so that the classifier minimises word errors, as the
    /// evaluation counts them, rather than segment errors.
    pub word_weights: bool,
    /// With `word_weights`, scale each page's weights to the same total, so
    /// that every page counts the same in the fit (as the default operating
    /// point and WCXB's metric count pages) instead of long pages ruling it.
    /// Measured on the first of three WCXB folds by domain (503 pages, the
    /// other two folds and the three older pools for training): mean page F
    /// 0.820 with it and 0.815 without for the logistic regression alone,
    /// 0.829 and 0.812 with trees (which gain only with it: listings 0.70
    /// and 0.61).
    pub page_weights: bool,
    /// The L2 penalty of the logistic regression.
    pub l2: f64,
    /// Folds of the inner cross-validation that gives the classifier
    /// n-gram scores of pages the n-gram models did not see.
    pub inner_folds: usize,
    /// The default operating point stored in the model.
    pub operating_point: OperatingPoint,
    /// Smooth the probabilities with a two-state HMM over the page.
    pub hmm: bool,
    /// Add word-model features (a trigram model of the training pages' gold
    /// text, trained per fold like the n-gram models): the ablation's
    /// perplexity row; such models cannot be saved.
    pub perplexity: bool,
    /// Fit a page-quality model ([`crate::quality`]) on the training pages'
    /// cleaning under a cross-validation with this many folds (`None`: no
    /// page-quality model). It costs that many more fits, so experiments
    /// that only measure segments leave it off; `ncleaner train` sets it.
    pub page_quality: Option<usize>,
    /// Add the site features ([`ncleaner::site`]): how many of the other pages
    /// of the page's host (in the pool, at training time; in the site
    /// memory, at cleaning time) hold the segment.
    pub site: bool,
    /// Add the phrase columns ([`ncleaner::classify::features::Phrases`]):
    /// which of the lexicon's furniture phrases, in every language it
    /// holds, a short segment holds. The default of the non-lexical model
    /// ([`TrainConfig::non_lexical`]).
    pub phrases: bool,
    /// Boosted trees on top of the logistic regression ([`ncleaner::classify::trees`]).
    /// The trees are fitted on the training pages but a held-out fifth
    /// ([`TREE_HOLDOUT`]), whose probabilities then choose the operating
    /// points: trees fit their own training rows too well for an in-sample
    /// choice of threshold.
    pub trees: Option<ncleaner::classify::trees::Boost>,
    /// A page-type classifier ([`ncleaner::classify::page`]) trained on the
    /// labelled training pages (at least [`MIN_TYPED_PAGES`]), whose
    /// predicted types join every segment's features: the trees' shape.
    /// `None`, or too few labelled pages: no page types.
    pub page_types: Option<ncleaner::classify::trees::Boost>,
}

/// One page in this many of a classifier's training pages is held out of
/// the trees' fit to choose the operating points ([`ClassifierConfig::trees`]).
pub const TREE_HOLDOUT: usize = 5;

/// The fewest training pages with which the classifier gets trees; with
/// fewer it is the logistic regression alone (a model trained on a handful
/// of pages of a new language, the tests' small pools).
pub const MIN_TREE_PAGES: usize = 100;

impl Default for ClassifierConfig {
    fn default() -> Self {
        ClassifierConfig {
            neighbours: true,
            attrs: true,
            word_weights: true,
            page_weights: true,
            l2: 1e-4,
            inner_folds: 10,
            operating_point: OperatingPoint::MaxPageF,
            hmm: false,
            perplexity: false,
            page_quality: None,
            site: true,
            phrases: false,
            trees: Some(ncleaner::classify::trees::Boost::default()),
            page_types: Some(ncleaner::classify::page::default_boost()),
        }
    }
}

/// The beta of the precision point (`clean --prefer precision`): the
/// threshold of the highest pooled word-level F-beta on the training pages,
/// with this beta (0.5: precision counts twice as much as recall). It was the
/// default operating point until modern pages were measured
/// ([`OperatingPoint::MaxPageF`] is now).
///
/// It replaced a fixed precision floor (the highest F at an estimated
/// precision of at least 0.97). On CleanEval the two choose nearly the same
/// threshold (cross-validated F 94.49 against 94.53), but a floor is a
/// property of one pool: Dragnet's gold leaves out text that is on the page
/// and that other pools count as content, so the precision the alignment
/// estimates there stays below 0.97 at every useful threshold and the floor
/// sank recall to about 50% (`ncleaner matrix`, EVALUATION.md). F-beta asks
/// for the same trade-off on every pool.
pub const DEFAULT_F_BETA: f64 = 0.5;

/// How training chooses the model's default threshold.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum OperatingPoint {
    /// The threshold that maximises word-level F on the training pages.
    MaxF,
    /// The highest-F threshold whose word-level precision on the training
    /// pages is at least this (the most precise one if none reaches it).
    MinPrecision(f64),
    /// A fixed threshold (log2-odds).
    Fixed(f64),
    /// The threshold that maximises word-level F-beta on the training pages
    /// (beta < 1 weighs precision more: 0.5 counts it twice as much as recall).
    MaxFBeta(f64),
    /// The threshold that maximises the mean over training pages of each
    /// page's word-level F (pages without gold words left out): every page
    /// counts the same, so a product page or a listing weighs as much as a
    /// long article, as WCXB's metric and a reader of one page see it,
    /// where the pooled F of the other points is ruled by long pages.
    MaxPageF,
}

impl TrainConfig {
    /// The default lexical model: aligned dirty model and the segment classifier.
    pub fn lexical() -> TrainConfig {
        TrainConfig {
            dirty: DirtyEstimate::Aligned,
            classifier: Some(ClassifierConfig::default()),
            ..TrainConfig::paper_lexical()
        }
    }

    /// The default non-lexical model: aligned dirty model and the segment
    /// classifier, with the phrase columns ([`ClassifierConfig::phrases`]):
    /// a model that reads no words learns the lexicon's furniture phrases
    /// of every language. Measured as the fallback of a language it never
    /// saw (`scripts/daniel-crossval`, row `fallback`; EVALUATION.md,
    /// "Languages"): F zh 94.24 → 94.55, ru 74.22 → 76.42, pl 86.76 →
    /// 87.97, el 97.94 → 97.93. The lexical models learn such words from
    /// their own pools and are trained without them.
    pub fn non_lexical() -> TrainConfig {
        TrainConfig {
            dirty: DirtyEstimate::Aligned,
            classifier: Some(ClassifierConfig {
                phrases: true,
                ..ClassifierConfig::default()
            }),
            ..TrainConfig::paper_non_lexical()
        }
    }

    /// The paper's lexical model (n = 3, q = 0.5, differential, no classifier).
    pub fn paper_lexical() -> TrainConfig {
        TrainConfig {
            n: 3,
            q: 0.5,
            alphabet: Alphabet::Lexical,
            dirty: DirtyEstimate::Differential,
            classifier: None,
            provenance: String::new(),
            language: None,
        }
    }

    /// The paper's non-lexical model (n = 6, q = 0.4, differential, no classifier).
    pub fn paper_non_lexical() -> TrainConfig {
        TrainConfig {
            n: 6,
            q: 0.4,
            alphabet: Alphabet::NonLexical,
            ..TrainConfig::paper_lexical()
        }
    }
}

/// One bin of a reliability table ([`Trainer::calibration`]).
#[derive(Debug, Clone, PartialEq)]
pub struct CalibrationBin {
    /// The bin's lower probability bound.
    pub low: f64,
    /// The bin's upper probability bound.
    pub high: f64,
    /// Segments predicted in the bin.
    pub segments: usize,
    /// Their weight (words + 1 each).
    pub weight: f64,
    /// Their mean predicted probability of being clean (weighted).
    pub mean_probability: f64,
    /// The share of their words the alignment finds in the gold text (weighted).
    pub clean_share: f64,
}

/// Per-page counts, by order and alphabet, computed on first use.
type CountCache = HashMap<(usize, Alphabet), Arc<Vec<PageCounts>>>;

/// A page's feature rows for HTML and for text input.
type PageRows = [Vec<Vec<f32>>; 2];

/// The rows the classifier of one input kind is fitted on
/// ([`Trainer::fit_rows`]).
#[derive(Debug, Default)]
struct FitRows {
    /// Each segment's features.
    x: Vec<Vec<f32>>,
    /// Each segment's label: clean (true) or dirty.
    y: Vec<bool>,
    /// Each segment's weight.
    w: Vec<f32>,
    /// Whether each row is in the trees' fit (else its page is held out, to
    /// calibrate the trees and choose the operating points on).
    in_fit: Vec<bool>,
}

impl FitRows {
    /// The forest fitted to what the logistic regression `lr` leaves on the
    /// rows in the fit, and its Platt scaling on the held-out rows, before
    /// the operating points are chosen on them: the thresholds are then in
    /// the calibrated scale the model reports.
    fn trees(&self, lr: &Logistic, boost: Boost) -> (Forest, Calibration) {
        let (x, y, w) = (&self.x, &self.y, &self.w);
        let fit_rows: Vec<usize> = (0..x.len()).filter(|&r| self.in_fit[r]).collect();
        let xf: Vec<Vec<f32>> = fit_rows.iter().map(|&r| x[r].clone()).collect();
        let yf: Vec<bool> = fit_rows.iter().map(|&r| y[r]).collect();
        let wf: Vec<f32> = fit_rows.iter().map(|&r| w[r]).collect();
        let base: Vec<f32> = xf.iter().map(|r| lr.logit(r)).collect();
        let forest = Forest::fit(&xf, &yf, &wf, &base, boost);
        let held: Vec<usize> = (0..x.len()).filter(|&r| !self.in_fit[r]).collect();
        let z: Vec<f64> = held
            .iter()
            .map(|&r| f64::from(lr.logit(&x[r]) + forest.margin(&x[r])))
            .collect();
        let yh: Vec<bool> = held.iter().map(|&r| y[r]).collect();
        let wh: Vec<f64> = held.iter().map(|&r| f64::from(w[r])).collect();
        (forest, Calibration::fit(&z, &yh, &wh))
    }
}

/// The n-gram counts of one page: its gold text, its raw segments, and the
/// raw segments the alignment labels dirty.
#[derive(Debug, Clone)]
struct PageCounts {
    clean: Counts,
    raw: Counts,
    dirty: Counts,
}

/// The alignment of one page's segments of one input with its gold text.
#[derive(Debug, Clone, Default)]
struct Aligned {
    /// Clean (true) or dirty label per segment.
    labels: Vec<bool>,
    /// Words of each segment that the alignment matched with gold words.
    matched: Vec<usize>,
}

/// Training pages prepared once: segments, alignment labels, and per-page
/// n-gram counts (computed on demand per order and alphabet), so that models
/// of any subset of the pages — a cross-validation fold, an inner fold — are
/// built by adding counts instead of re-reading pages.
pub struct Trainer {
    pages: Vec<PoolPage>,
    /// `aligned[i][0]`: HTML segments of page i, `[1]`: text-dump segments.
    aligned: Vec<[Aligned; 2]>,
    /// Gold tokens (words and segment markers) per page.
    gold_tokens: Vec<usize>,
    counts: Mutex<CountCache>,
}

fn align_segments(segments: &[Segment], gold: &str) -> Aligned {
    let texts: Vec<&str> = segments.iter().map(|s| s.text()).collect();
    let shares = crate::align::aligned_shares(&texts, gold);
    Aligned {
        labels: shares
            .iter()
            .map(|&s| s >= crate::align::CLEAN_SHARE)
            .collect(),
        matched: segments
            .iter()
            .zip(&shares)
            .map(|(s, &x)| (x * s.words() as f64).round() as usize)
            .collect(),
    }
}

fn input_index(input: InputKind) -> usize {
    usize::from(input == InputKind::Text)
}

impl Trainer {
    /// Prepares pages for training (aligning every page, in parallel).
    /// The pages' site features are set from the pool itself
    /// ([`ncleaner::site::annotate_pool`]): pages of one host see each other.
    pub fn new(mut pages: Vec<PoolPage>) -> Trainer {
        ncleaner::site::annotate_pool(
            pages
                .iter_mut()
                .map(|p| (p.url.as_deref(), p.html_segments.as_mut_slice())),
        );
        ncleaner::site::annotate_pool(
            pages
                .iter_mut()
                .map(|p| (p.url.as_deref(), p.text_segments.as_mut_slice())),
        );
        let aligned: Vec<[Aligned; 2]> = pages
            .par_iter()
            .map(|p| {
                [
                    align_segments(&p.html_segments, &p.gold),
                    align_segments(&p.text_segments, &p.gold),
                ]
            })
            .collect();
        let gold_tokens = pages
            .iter()
            .map(|p| {
                read_segments(&p.gold)
                    .iter()
                    .map(|(_, t)| crate::align::gold_words(t) + 1)
                    .sum()
            })
            .collect();
        Trainer {
            pages,
            aligned,
            gold_tokens,
            counts: Mutex::new(HashMap::new()),
        }
    }

    /// The pages.
    pub fn pages(&self) -> &[PoolPage] {
        &self.pages
    }

    fn page_counts(&self, n: usize, alphabet: Alphabet) -> Arc<Vec<PageCounts>> {
        if let Some(c) = self
            .counts
            .lock()
            .expect("not poisoned")
            .get(&(n, alphabet))
        {
            return c.clone();
        }
        let computed: Vec<PageCounts> = self
            .pages
            .par_iter()
            .zip(&self.aligned)
            .map(|(p, al)| {
                let mut clean = Counts::new(n);
                let mut raw = Counts::new(n);
                let mut dirty = Counts::new(n);
                for (_, t) in read_segments(&p.gold) {
                    clean.add_segment(alphabet, &t);
                }
                // Pages known only as text dumps count their text segments as raw.
                let (segs, al) = if p.html_segments.is_empty() {
                    (&p.text_segments, &al[1])
                } else {
                    (&p.html_segments, &al[0])
                };
                for (s, &label) in segs.iter().zip(&al.labels) {
                    raw.add_segment(alphabet, s.text());
                    if !label {
                        dirty.add_segment(alphabet, s.text());
                    }
                }
                PageCounts { clean, raw, dirty }
            })
            .collect();
        let arc = Arc::new(computed);
        self.counts
            .lock()
            .expect("not poisoned")
            .insert((n, alphabet), arc.clone());
        arc
    }

    /// The n-gram model of a subset of the pages (no classifier).
    pub fn ngram_model(&self, subset: &[usize], cfg: &TrainConfig) -> Result<Model> {
        let pc = self.page_counts(cfg.n, cfg.alphabet);
        let (mut clean, mut raw, mut dirty) =
            (Counts::new(cfg.n), Counts::new(cfg.n), Counts::new(cfg.n));
        for &i in subset {
            clean.merge(&pc[i].clean);
            raw.merge(&pc[i].raw);
            if cfg.dirty == DirtyEstimate::Aligned {
                dirty.merge(&pc[i].dirty);
            }
        }
        if clean.total() == 0 {
            return Err(Error::Training("the gold files hold no text".into()));
        }
        let meta = ModelMeta {
            n: cfg.n,
            q: cfg.q,
            alphabet: cfg.alphabet,
            dirty: DirtyEstimate::Differential,
            provenance: cfg.provenance.clone(),
            language: cfg.language.clone(),
        };
        let m = Model::from_parts(meta, clean, raw)?;
        match cfg.dirty {
            DirtyEstimate::Differential => Ok(m),
            DirtyEstimate::Aligned => Ok(m.with_dirty(dirty)?),
        }
    }

    fn attr_model(&self, subset: &[usize]) -> AttrModel {
        AttrModel::train(subset.iter().flat_map(|&i| {
            self.pages[i]
                .html_segments
                .iter()
                .zip(&self.aligned[i][0].labels)
                .map(|(s, &l)| (s.attrs.as_slice(), s.words(), l))
        }))
    }

    /// A word trigram model of the gold text of a subset of the pages (as
    /// `en-ppl` is trained: `--min-count 2`), for the perplexity features.
    fn word_model(&self, subset: &[usize]) -> Result<std::sync::Arc<ncleaner::WordLm>> {
        let mut est = ncleaner::lm::Estimator::new(ncleaner::lm::TrainConfig {
            order: 3,
            min_count: 2,
            max_ngrams: 0,
        })?;
        for &i in subset {
            for (_, seg) in ncleaner::format::read_segments(&self.pages[i].gold) {
                est.add_text(&seg)?;
            }
        }
        Ok(std::sync::Arc::new(est.estimate("fold word model")?))
    }

    /// Trains a model on a subset of the pages (indices into [`Trainer::pages`]):
    /// the n-gram model and, when `cfg` asks for one, the classifier, fitted
    /// per input kind on feature rows from models that did not see the rows'
    /// pages ([`Trainer::out_of_fold_rows`]).
    pub fn fit(&self, subset: &[usize], cfg: &TrainConfig) -> Result<Model> {
        if subset.is_empty() {
            return Err(Error::Training("no training pages".into()));
        }
        let mut model = self.ngram_model(subset, cfg)?;
        let Some(cc) = &cfg.classifier else {
            return Ok(model);
        };
        let mut classifier = self.untrained_classifier(subset, cc)?;
        let predicted = match cc.page_types.and_then(|b| self.page_types(subset, b)) {
            Some((m, predicted)) => {
                classifier.page_type = Some(m);
                predicted
            }
            None => HashMap::new(),
        };
        let rows = self.out_of_fold_rows(subset, cfg, cc, &classifier, &predicted)?;
        let mut chains = [None, None];
        // Trees need pages: on a small pool the held-out fifth would be a
        // handful of pages, too few to choose a threshold on.
        let trees = cc.trees.filter(|_| subset.len() >= MIN_TREE_PAGES);
        let mut precision = [0.0; 2];
        let mut max_recall = [0.0; 2];
        for input in [InputKind::Html, InputKind::Text] {
            let ii = input_index(input);
            // With trees, one page in TREE_HOLDOUT is kept out of the trees' fit
            // (the logistic regression sees every page).
            let held_out = |j: usize| trees.is_some() && j % TREE_HOLDOUT == TREE_HOLDOUT - 1;
            let set = self.fit_rows(subset, input, &rows, cc, held_out);
            if set.x.is_empty() || set.y.iter().all(|&l| l) || set.y.iter().all(|&l| !l) {
                continue;
            }
            let lr = Logistic::fit(&set.x, &set.y, &set.w, cc.l2);
            if let Some(boost) = trees {
                let (forest, calibration) = set.trees(&lr, boost);
                classifier.calibration.get_or_insert([None, None])[ii] = Some(calibration);
                classifier.trees.get_or_insert([None, None])[ii] = Some(forest);
            }
            if cc.hmm {
                chains[ii] = Some(Chain::estimate(
                    subset
                        .iter()
                        .map(|&i| self.aligned[i][ii].labels.as_slice()),
                ));
            }
            // The operating points. Without trees, from the (in-sample)
            // probabilities of all training segments: dozens of weights on tens
            // of thousands of segments barely overfit. With trees, from the
            // pages held out of the trees' fit.
            let chosen: Vec<usize> = subset
                .iter()
                .enumerate()
                .filter(|&(j, _)| trees.is_none() || held_out(j))
                .map(|(_, &i)| i)
                .collect();
            let probs: Vec<Vec<f64>> = chosen
                .iter()
                .map(|&i| {
                    let p = classifier.probabilities(&lr, input == InputKind::Html, &rows[&i][ii]);
                    match &chains[ii] {
                        Some(ch) => ch.posteriors(&p),
                        None => p,
                    }
                })
                .collect();
            [classifier.threshold[ii], precision[ii], max_recall[ii]] =
                self.operating_points(&chosen, input, &probs, cc.operating_point);
            if input == InputKind::Html {
                classifier.html = Some(lr);
            } else {
                classifier.text = Some(lr);
            }
        }
        classifier.chain = if cc.hmm { Some(chains) } else { None };
        classifier.precision_threshold = Some(precision);
        classifier.max_recall_threshold = Some(max_recall);
        if let Some(k) = cc.page_quality {
            model.quality = Some(self.quality_models(subset, cfg, k)?);
        }
        // The names of the columns it was trained on, as its file stores them.
        classifier.columns = classifier.schema().names();
        model.classifier = Some(classifier);
        Ok(model)
    }

    /// The classifier [`Trainer::fit`] starts from: the options of `cc`, the
    /// attribute and word models of the pages of `subset`, no weights yet.
    fn untrained_classifier(&self, subset: &[usize], cc: &ClassifierConfig) -> Result<Classifier> {
        let attrs = if cc.attrs {
            self.attr_model(subset)
        } else {
            AttrModel::default()
        };
        Ok(Classifier {
            html: None,
            trees: None,
            text: None,
            neighbours: cc.neighbours,
            attrs,
            threshold: [0.0; 2],
            precision_threshold: None,
            max_recall_threshold: None,
            chain: None,
            calibration: None,
            page_type: None,
            site: cc.site,
            hidden: true,
            phrases: cc.phrases,
            lexicon: ncleaner::lexicon::model_versions(),
            columns: Vec::new(),
            words: if cc.perplexity {
                ncleaner::classify::WordFeature(Some(self.word_model(subset)?))
            } else {
                Default::default()
            },
        })
    }

    /// The feature rows of every training segment of `subset`, each from
    /// models that did not see its page: the pages are cut into
    /// `cc.inner_folds` folds, and a fold's rows come from the n-gram,
    /// attribute and word models of the others (`classifier` gives the
    /// rest, `predicted` the pages' predicted types).
    fn out_of_fold_rows(
        &self,
        subset: &[usize],
        cfg: &TrainConfig,
        cc: &ClassifierConfig,
        classifier: &Classifier,
        predicted: &HashMap<usize, PagePrediction>,
    ) -> Result<HashMap<usize, PageRows>> {
        let k = cc.inner_folds.clamp(2, subset.len().max(2));
        let inner = folds(subset.len(), k, 0x5eed);
        let per_fold: Vec<Result<Vec<(usize, PageRows)>>> = (0..k)
            .into_par_iter()
            .map(|g| {
                let train: Vec<usize> = (0..subset.len())
                    .filter(|&j| inner[j] != g)
                    .map(|j| subset[j])
                    .collect();
                let held: Vec<usize> = (0..subset.len())
                    .filter(|&j| inner[j] == g)
                    .map(|j| subset[j])
                    .collect();
                if held.is_empty() || train.is_empty() {
                    return Ok(Vec::new());
                }
                let m = self.ngram_model(&train, cfg)?;
                let c = Classifier {
                    attrs: if cc.attrs {
                        self.attr_model(&train)
                    } else {
                        AttrModel::default()
                    },
                    words: if cc.perplexity {
                        ncleaner::classify::WordFeature(Some(self.word_model(&train)?))
                    } else {
                        Default::default()
                    },
                    ..classifier.clone()
                };
                let scorer = m.scorer();
                Ok(held
                    .into_iter()
                    .map(|i| {
                        let p = &self.pages[i];
                        (
                            i,
                            [
                                c.feature_rows(&p.html_segments, scorer, true, predicted.get(&i)),
                                c.feature_rows(&p.text_segments, scorer, false, None),
                            ],
                        )
                    })
                    .collect())
            })
            .collect();
        let mut rows: HashMap<usize, PageRows> = HashMap::new();
        for r in per_fold {
            rows.extend(r?);
        }
        Ok(rows)
    }

    /// The rows of `input` the classifier is fitted on: every segment of the
    /// pages of `subset` that no heuristic decided, its label from the
    /// alignment, its weight (its words + 1 with `cc.word_weights`, scaled so
    /// that a page's weights sum to 100 with `cc.page_weights`), and whether
    /// its page is in the trees' fit (not `held_out`, by its place in `subset`).
    fn fit_rows(
        &self,
        subset: &[usize],
        input: InputKind,
        rows: &HashMap<usize, PageRows>,
        cc: &ClassifierConfig,
        held_out: impl Fn(usize) -> bool,
    ) -> FitRows {
        let ii = input_index(input);
        let mut set = FitRows::default();
        for (j, &i) in subset.iter().enumerate() {
            let segs = self.pages[i].segments(input);
            let page_words: usize = segs
                .iter()
                .filter(|s| s.heuristic.is_none())
                .map(|s| s.words() + 1)
                .sum();
            // Every page's weights sum to 100 with page weights.
            let scale = if cc.page_weights {
                100.0 / page_words.max(1) as f32
            } else {
                1.0
            };
            for (k, row) in rows[&i][ii].iter().enumerate() {
                if segs[k].heuristic.is_some() {
                    continue;
                }
                set.x.push(row.clone());
                set.y.push(self.aligned[i][ii].labels[k]);
                set.w.push(if cc.word_weights {
                    (segs[k].words() + 1) as f32 * scale
                } else {
                    1.0
                });
                set.in_fit.push(!held_out(j));
            }
        }
        set
    }

    /// The three thresholds of `input` (the configured operating point `op`,
    /// the precision point, the recall point), chosen on the probabilities
    /// `probs` of the pages `chosen`.
    fn operating_points(
        &self,
        chosen: &[usize],
        input: InputKind,
        probs: &[Vec<f64>],
        op: OperatingPoint,
    ) -> [f64; 3] {
        [
            self.operating_point(chosen, input, probs, op),
            self.operating_point(
                chosen,
                input,
                probs,
                OperatingPoint::MaxFBeta(DEFAULT_F_BETA),
            ),
            self.operating_point(chosen, input, probs, OperatingPoint::MaxFBeta(2.0)),
        ]
    }

    /// Out-of-fold quality rows of the pages of `subset` (HTML, text): each
    /// page cleaned, at the model's default operating point, by a model
    /// (without a page-quality model) trained on the other folds of
    /// `subset`, and scored against its gold text. Rows in `subset` order;
    /// pages known only as text dumps have no HTML row.
    pub fn quality_rows(
        &self,
        subset: &[usize],
        cfg: &TrainConfig,
        k: usize,
    ) -> Result<Vec<[Option<crate::quality::Row>; 2]>> {
        use crate::quality::Row;
        let mut inner_cfg = cfg.clone();
        if let Some(c) = inner_cfg.classifier.as_mut() {
            c.page_quality = None;
        }
        let k = k.clamp(2, subset.len().max(2));
        let fold = folds(subset.len(), k, 0x9a6e);
        type FoldRows = Result<Vec<(usize, [Option<Row>; 2])>>;
        let per_fold: Vec<FoldRows> = (0..k)
            .into_par_iter()
            .map(|g| {
                let train: Vec<usize> = (0..subset.len())
                    .filter(|&j| fold[j] != g)
                    .map(|j| subset[j])
                    .collect();
                if train.is_empty() {
                    return Ok(Vec::new());
                }
                let cleaner = ncleaner::Cleaner::from_model(self.fit(&train, &inner_cfg)?);
                Ok((0..subset.len())
                    .filter(|&j| fold[j] == g)
                    .map(|j| {
                        let p = &self.pages[subset[j]];
                        let row = |input| {
                            (!p.segments(input).is_empty()).then(|| {
                                let c = crate::crossval::clean_segments(&cleaner, p, input);
                                Row::scored(&c, &p.gold)
                            })
                        };
                        (j, [row(InputKind::Html), row(InputKind::Text)])
                    })
                    .collect())
            })
            .collect();
        let mut rows = vec![[None, None]; subset.len()];
        for r in per_fold {
            for (j, row) in r? {
                rows[j] = row;
            }
        }
        Ok(rows)
    }

    /// The page-quality models (HTML, text) of a model trained on `subset`:
    /// fitted on [`Trainer::quality_rows`] with `k` folds.
    fn quality_models(
        &self,
        subset: &[usize],
        cfg: &TrainConfig,
        k: usize,
    ) -> Result<[Option<crate::quality::QualityModel>; 2]> {
        let rows = self.quality_rows(subset, cfg, k)?;
        let fit = |ii: usize| {
            let r: Vec<crate::quality::Row> = rows.iter().filter_map(|r| r[ii]).collect();
            crate::quality::fit(&r)
        };
        Ok([fit(0), fit(1)])
    }

    /// The reliability of the classifier's probabilities under
    /// cross-validation: the held-out segments (those the heuristics left to
    /// the classifier) binned by predicted probability into `bins` equal
    /// intervals, each bin with its mean prediction and the share of its words
    /// that the alignment finds in the gold text, both weighted by words + 1
    /// as the classifier was trained. Calibrated probabilities have the two
    /// close in every bin. `cfg` must train a classifier.
    pub fn calibration(
        &self,
        fold: &[usize],
        k: usize,
        cfg: &TrainConfig,
        input: InputKind,
        bins: usize,
    ) -> Result<Vec<CalibrationBin>> {
        if cfg.classifier.is_none() {
            return Err(Error::Training(
                "calibration needs a model with a classifier".into(),
            ));
        }
        let bins = bins.max(1);
        let outs = self.cross_validate(fold, k, cfg, input, ncleaner::Method::NCleaner, None)?;
        let ii = input_index(input);
        let mut acc = vec![(0usize, 0.0f64, 0.0f64, 0.0f64); bins]; // (segments, weight, Σ w·p, Σ matched-share·w)
        for (i, cleaned) in outs.iter().enumerate() {
            let al = &self.aligned[i][ii];
            if cleaned.segments.len() != al.labels.len() {
                return Err(Error::Training(format!(
                    "page {}: {} segments cleaned but {} aligned",
                    self.pages[i].key,
                    cleaned.segments.len(),
                    al.labels.len()
                )));
            }
            for (j, s) in cleaned.segments.iter().enumerate() {
                let Some(p) = s.probability else { continue };
                let words = s.segment.words();
                let w = (words + 1) as f64;
                let share = (al.matched[j] + usize::from(al.labels[j])) as f64 / w;
                let b = ((p * bins as f64) as usize).min(bins - 1);
                acc[b].0 += 1;
                acc[b].1 += w;
                acc[b].2 += w * p;
                acc[b].3 += w * share;
            }
        }
        Ok(acc
            .into_iter()
            .enumerate()
            .map(|(b, (n, w, wp, ws))| CalibrationBin {
                low: b as f64 / bins as f64,
                high: (b + 1) as f64 / bins as f64,
                segments: n,
                weight: w,
                mean_probability: if w > 0.0 { wp / w } else { f64::NAN },
                clean_share: if w > 0.0 { ws / w } else { f64::NAN },
            })
            .collect())
    }

    /// Cross-validates a configuration: the pages of fold `f` cleaned by a
    /// model trained on the other folds, for every fold; outputs in page order.
    pub fn cross_validate(
        &self,
        fold: &[usize],
        k: usize,
        cfg: &TrainConfig,
        input: InputKind,
        method: ncleaner::Method,
        threshold: Option<f64>,
    ) -> Result<Vec<ncleaner::Cleaned>> {
        self.cross_validate_by(fold, k, cfg, input, |model| {
            ncleaner::Cleaner::from_model(model)
                .with_method(method)
                .with_threshold_option(threshold)
        })
    }

    /// [`Trainer::cross_validate`] with the cleaner of each fold made by
    /// `cleaner` from the fold's model (a preference, a fixed threshold
    /// read from the model).
    pub fn cross_validate_by(
        &self,
        fold: &[usize],
        k: usize,
        cfg: &TrainConfig,
        input: InputKind,
        cleaner: impl Fn(ncleaner::Model) -> ncleaner::Cleaner + Sync,
    ) -> Result<Vec<ncleaner::Cleaned>> {
        let results: Vec<Result<Vec<(usize, ncleaner::Cleaned)>>> = (0..k)
            .into_par_iter()
            .map(|f| {
                let train: Vec<usize> = (0..self.pages.len()).filter(|&i| fold[i] != f).collect();
                let cleaner = cleaner(self.fit(&train, cfg)?);
                Ok((0..self.pages.len())
                    .filter(|&i| fold[i] == f)
                    .map(|i| {
                        (
                            i,
                            crate::crossval::clean_segments(&cleaner, &self.pages[i], input),
                        )
                    })
                    .collect())
            })
            .collect();
        let mut out: Vec<Option<ncleaner::Cleaned>> = vec![None; self.pages.len()];
        for r in results {
            for (i, c) in r? {
                out[i] = Some(c);
            }
        }
        Ok(out
            .into_iter()
            .map(|c| c.expect("every page is in a fold"))
            .collect())
    }
}
