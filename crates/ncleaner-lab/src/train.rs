//! Training the full model: the training data ([`load`]), how a model is
//! trained ([`TrainConfig`]), and the [`Trainer`]: aligned labels, n-gram
//! models, the segment classifier, its operating points and the
//! page-quality models.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use rayon::prelude::*;

use crate::crossval::{PoolPage, folds};
use crate::error::{Error, Result};
use ncleaner::classify::attrs::AttrModel;
use ncleaner::classify::hmm::Chain;
use ncleaner::classify::logistic::Logistic;
use ncleaner::classify::page::PagePrediction;
use ncleaner::classify::schema::Schema;
use ncleaner::classify::trees::{Boost, Forest};
use ncleaner::classify::{Calibration, Classifier, log2_odds};
use ncleaner::format::read_segments;
use ncleaner::model::{Alphabet, Counts, DirtyEstimate, Model, ModelMeta};
use ncleaner::{InputKind, Segment};

mod config;
mod load;
mod pagetype;
mod points;

pub use config::{
    ClassifierConfig, DEFAULT_F_BETA, MIN_TREE_PAGES, OperatingPoint, TREE_HOLDOUT, TrainConfig,
};
pub use load::{
    Pair, key_of, load, load_dirs, pair, parse_operating_point, provenance, training_page,
};
pub use pagetype::{
    INNER_TYPE_FOLDS, MIN_TYPED_PAGES, balanced_weights, fit_types, host_fold, label_pages,
    read_labels,
};

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
        // The names of the columns it is trained on, as its file stores them:
        // the groups of its rows are read from them.
        classifier.columns = Schema::with(&cc.optional_groups(classifier.page_type.is_some()))
            .map_err(Error::Training)?
            .names();
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
            attrs,
            threshold: [0.0; 2],
            precision_threshold: None,
            max_recall_threshold: None,
            chain: None,
            calibration: None,
            page_type: None,
            lexicon: ncleaner::lexicon::model_versions(),
            // Set by `fit` once it knows whether a page-type model was trained.
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
