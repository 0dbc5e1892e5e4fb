//! Scores → decisions: which segments are kept.
//!
//! The paper's rule: a segment is deleted when the dirty model gives it the
//! higher probability, i.e. when its score (log2 P_clean − log2 P_dirty) is
//! below 0. The threshold T moves that line: a segment is kept when its score
//! is at least T, so a positive T keeps less (higher precision) and a negative
//! T keeps more. Segments that the paper's heuristics recognise as boilerplate
//! ([`Heuristic`]) are deleted before any model is asked.
//!
//! Beyond the paper, a model may carry a [`Classifier`]: a logistic regression
//! over the n-gram score and what the HTML and the text show (length, link
//! share, enclosing elements, `class`/`id` words, position, the neighbouring
//! segments; [`features`]), trained on training pages whose segments were
//! labelled by aligning them with the gold text (the lab's `align`). It gives
//! each segment a probability of being clean; the threshold is then the
//! log-odds of that probability in bits, log2(p / (1 − p)), so that 0 means
//! p = 0.5 and 2 means p = 0.8, and the model stores the operating point its
//! training chose ([`Classifier::threshold`]).

pub mod attrs;
pub mod features;
pub mod hmm;
pub(crate) mod le_arrays;
pub mod logistic;
pub mod page;
pub mod phrases;
pub mod schema;
pub mod trees;

use crate::html::Context;
use crate::segment::{Heuristic, Segment};

use self::attrs::AttrModel;
use self::features::{Facts, RowInput};
use self::logistic::Logistic;
use self::page::{PagePrediction, PageTypeModel};
use self::schema::Schema;

/// Which of the operating points stored in a model a cleaner uses when no
/// explicit threshold is given.
///
/// The default is [`Preference::F`]: the precision-oriented point, chosen on
/// pooled word counts that long articles rule, cuts short pages' prose
/// (81–91 % of the words it misses on modern pages have p of 0.40–0.69), and a
/// page's reader, like WCXB's metric, weighs every page the same.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Preference {
    /// The precision-oriented point (as `train` trains it: the highest
    /// pooled word-level F-beta, beta 0.5); the default point in models
    /// that do not store it.
    Precision,
    /// The model's default point, its `threshold` (as `train` trains it:
    /// the highest mean per-page word F on the training pages).
    #[default]
    F,
    /// The highest F-beta with beta 2 on the training pages (recall counts
    /// four times as much as precision): for users who would rather filter
    /// later than lose text now; the default point in models that do not store it.
    Recall,
}

/// What happens to user comments and replies under an article.
///
/// A segment is a comment when an enclosing element's `class`, `id` or
/// `role` names a comment section (`crate::html::Context::COMMENT`). On
/// pages whose main content is itself such a section (the best prose
/// container sits inside it: a forum thread, a Q&A page;
/// `crate::html::Container::thread`) the posts are the content and are
/// never dropped as comments.
///
/// The default is [`Comments::Keep`]: the model decides comments like any
/// other segment. The gold sets disagree (Dragnet's gold holds comments,
/// CleanEval's and WCXB's do not), and a corpus builder loses text that
/// cannot be recovered when comments go by default; `drop` is one flag away.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Comments {
    /// The model decides (the default).
    #[default]
    Keep,
    /// Comments are dropped whatever the model says.
    Drop,
}

impl Comments {
    /// The name on the command line, in the web API and in Python (`keep`,
    /// `drop`); [`str::parse`] reads it back.
    pub fn as_str(self) -> &'static str {
        match self {
            Comments::Keep => "keep",
            Comments::Drop => "drop",
        }
    }
}

/// The comments one page drops: those of [`Comments::Drop`], except on a
/// page predicted to be a forum or a Q&A page
/// ([`PagePrediction::is_forum`]), whose posts are its content whatever
/// their markup is called.
///
/// The one answer to "is this segment dropped as a comment?": the decision
/// drops a kept comment ([`Reason::Comment`]), and the rules after it that
/// keep a dropped segment again (a data table's rows, code blocks) leave
/// these alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DroppedComments {
    drop: bool,
}

impl DroppedComments {
    /// No comment is dropped as one: the model decides them.
    pub const NONE: DroppedComments = DroppedComments { drop: false };

    /// The comments a page of this predicted type drops under `comments`.
    pub fn of(comments: Comments, page_type: Option<&PagePrediction>) -> DroppedComments {
        DroppedComments {
            drop: comments == Comments::Drop && !page_type.is_some_and(PagePrediction::is_forum),
        }
    }

    /// Whether the page drops `segment` as a comment
    /// ([`Segment::is_comment`]).
    pub fn contains(self, segment: &Segment) -> bool {
        self.drop && segment.is_comment(false)
    }
}

impl Preference {
    /// The name on the command line, in the web API and in Python
    /// (`precision`, `f`, `recall`); [`str::parse`] reads it back.
    pub fn as_str(self) -> &'static str {
        match self {
            Preference::Precision => "precision",
            Preference::F => "f",
            Preference::Recall => "recall",
        }
    }
}

impl std::str::FromStr for Comments {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Comments, String> {
        match s {
            "keep" => Ok(Comments::Keep),
            "drop" => Ok(Comments::Drop),
            _ => Err(format!("{s:?}: give keep or drop")),
        }
    }
}

impl std::str::FromStr for Preference {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Preference, String> {
        match s {
            "precision" => Ok(Preference::Precision),
            "f" => Ok(Preference::F),
            "recall" => Ok(Preference::Recall),
            _ => Err(format!("{s:?}: give precision, f or recall")),
        }
    }
}

/// Compares the column names a model stores with this build's: `Err` says
/// how many each has, the first column where they part, the names this
/// build does not know and those the model lacks (`what`: whose columns,
/// as the message names them: "model's", "page-type model's").
pub fn compare_names(what: &str, stored: &[String], ours: &[String]) -> Result<(), String> {
    if ours == stored {
        return Ok(());
    }
    let first = ours
        .iter()
        .zip(stored)
        .position(|(a, b)| a != b)
        .unwrap_or(ours.len().min(stored.len()));
    let missing: Vec<&str> = ours
        .iter()
        .filter(|n| !stored.contains(n))
        .map(String::as_str)
        .collect();
    let unknown: Vec<&str> = stored
        .iter()
        .filter(|n| !ours.contains(n))
        .map(String::as_str)
        .collect();
    fn at(v: &[String], i: usize) -> &str {
        v.get(i).map_or("the row's end", String::as_str)
    }
    let mut msg = format!(
        "the {what} {} feature columns are not this build's {}: column {} is `{}` in the model and `{}` here",
        stored.len(),
        ours.len(),
        first,
        at(stored, first),
        at(ours, first)
    );
    if !unknown.is_empty() {
        msg.push_str(&format!(
            "; columns this build does not know: {}",
            unknown.join(", ")
        ));
    }
    if !missing.is_empty() {
        msg.push_str(&format!(
            "; columns the model lacks: {}",
            missing.join(", ")
        ));
    }
    Err(msg)
}

/// What the classifier needs of the n-gram stage: a segment's log-odds score
/// in bits and the number of symbols it was computed over. The scoring stage
/// (`model::Scorer`) implements it, so the classifier does not know the
/// model type and the stages stay a chain.
pub trait SegmentScorer {
    /// The segment's score and its length in model symbols.
    fn score_with_len(&self, text: &str) -> (f64, usize);
}

/// The learned segment classifier of a model.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Classifier {
    /// Weights for HTML input (`None` if trained from text dumps only).
    pub html: Option<Logistic>,
    /// Weights for text-dump input.
    pub text: Option<Logistic>,
    /// Evidence of `class`/`id`/`role` words (empty when not used).
    pub attrs: AttrModel,
    /// The default thresholds (log2-odds of P(clean)) for HTML and for text
    /// input, [`Preference::F`], chosen at training time (the lab's
    /// `OperatingPoint`; `train`'s default: the highest mean per-page F).
    pub threshold: [f64; 2],
    /// The thresholds that maximised the pooled word-level F0.5 on the
    /// training pages (HTML, text): [`Preference::Precision`].
    #[serde(default)]
    pub precision_threshold: Option<[f64; 2]>,
    /// The thresholds that maximised word-level F-beta with beta 2 on the
    /// training pages (HTML, text): [`Preference::Recall`].
    #[serde(default)]
    pub max_recall_threshold: Option<[f64; 2]>,
    /// Two-state chains smoothing the probabilities over the page (HTML, text).
    #[serde(default)]
    pub chain: Option<[Option<hmm::Chain>; 2]>,
    /// Boosted trees added to the logistic regression's log-odds (HTML,
    /// text; [`trees`]); absent in models trained without them.
    #[serde(default)]
    pub trees: Option<[Option<trees::Forest>; 2]>,
    /// Platt scaling of the log-odds (HTML, text; [`Calibration`]), fitted
    /// on the training pages held out of the trees' fit; absent in models
    /// without trees. With it, [`Preference::F`] decides each page by
    /// [`expected_f_cut`] instead of the stored `threshold`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub calibration: Option<[Option<Calibration>; 2]>,
    /// The page-type classifier ([`page`]). With it, each row gets the
    /// page's type probabilities after the site features (zeros for text
    /// input, which has no page features) and what the segment's place says
    /// of its role ([`features::PageType`]); absent in older files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page_type: Option<PageTypeModel>,
    /// The versions of the lexicon's sets that its inputs read
    /// ([`crate::lexicon::model_versions`]), as they were when it was
    /// trained: a file whose versions are not this build's is refused when
    /// loaded ([`crate::lexicon::check_versions`]). Absent (empty) in older
    /// files, which load unchecked.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub lexicon: std::collections::BTreeMap<String, String>,
    /// The names of the columns of its rows, as it was trained
    /// ([`Schema::names`], set by the trainer from [`Schema::with`]): the
    /// groups of its rows are read from them ([`Schema::of`]), and a file
    /// whose names this build cannot read is refused when loaded
    /// ([`Schema::read`]). Files written before the names were stored
    /// chose the groups by flags (`neighbours`, `site`, `hidden`,
    /// `phrases`); the names are made from those when such a file is read.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub columns: Vec<String>,
    /// A word model whose scores of each segment join its features (an
    /// experiment measured by the ablation; not kept in model files).
    #[serde(skip)]
    pub words: WordFeature,
}

/// The word-model features of the classifier: with a model, each row gets
/// the segment's mean log10 probability per token (clamped to −8 … 0) and
/// its share of unknown words, after every other feature.
#[derive(Debug, Clone, Default)]
pub struct WordFeature(pub Option<std::sync::Arc<crate::lm::WordLm>>);

impl PartialEq for WordFeature {
    fn eq(&self, other: &Self) -> bool {
        match (&self.0, &other.0) {
            (None, None) => true,
            (Some(a), Some(b)) => std::sync::Arc::ptr_eq(a, b),
            _ => false,
        }
    }
}

impl WordFeature {
    /// The features of one segment's text (none without a model).
    fn of(&self, text: &str) -> Option<[f32; 2]> {
        let lm = self.0.as_ref()?;
        let tokens = crate::lm::tokenize::tokens(text);
        let scores = lm
            .score_tokens(&tokens, crate::lm::Smoothing::Backoff)
            .ok()?;
        let n = scores.len().max(1) as f64;
        let mean = scores.iter().map(|s| s.log10).sum::<f64>() / n;
        let oov = scores.iter().filter(|s| s.oov).count() as f64 / n;
        Some([mean.clamp(-8.0, 0.0) as f32, oov as f32])
    }
}

impl Classifier {
    /// The weights for an input (`html` or text), if trained.
    pub fn weights(&self, html: bool) -> Option<&Logistic> {
        if html {
            self.html.as_ref()
        } else {
            self.text.as_ref()
        }
    }

    /// The default threshold for an input.
    pub fn default_threshold(&self, html: bool) -> f64 {
        self.threshold[usize::from(!html)]
    }

    /// The stored threshold of an operating point for an input.
    pub fn operating_threshold(&self, html: bool, point: Preference) -> f64 {
        let stored = match point {
            Preference::F => None,
            Preference::Precision => self.precision_threshold,
            Preference::Recall => self.max_recall_threshold,
        };
        stored.map_or_else(|| self.default_threshold(html), |t| t[usize::from(!html)])
    }

    /// The feature rows of a page's segments (neighbours included if
    /// configured; `page`: the page's predicted type, for a classifier
    /// with a page-type model).
    pub fn feature_rows<S: SegmentScorer + ?Sized>(
        &self,
        segments: &[Segment],
        scorer: &S,
        html: bool,
        page: Option<&PagePrediction>,
    ) -> Vec<Vec<f32>> {
        self.rows_and_scores(segments, scorer, html, page).0
    }

    /// The feature rows and the (unclamped) n-gram scores of a page's segments,
    /// each segment scored once.
    fn rows_and_scores<S: SegmentScorer + ?Sized>(
        &self,
        segments: &[Segment],
        scorer: &S,
        html: bool,
        page_type: Option<&PagePrediction>,
    ) -> (Vec<Vec<f32>>, Vec<f64>) {
        let facts: Vec<Facts> = segments
            .iter()
            .map(|s| Facts::of(s, scorer.score_with_len(s.text())))
            .collect();
        let input = RowInput {
            classifier: self,
            segments,
            facts: &facts,
            html,
            page_type,
        };
        let rows = self.schema().rows(&input);
        (rows, facts.iter().map(|f| f.score).collect())
    }

    /// The schema of this classifier's rows: the groups of columns it uses.
    pub fn schema(&self) -> Schema {
        Schema::of(self)
    }

    /// Whether its rows have the column group named `group`
    /// ([`features::Columns::group`]).
    pub fn uses(&self, group: &str) -> bool {
        self.schema().has(group)
    }

    /// Whether its rows have the segment's hidden flag
    /// ([`features::Hidden`]): it decides the blocks that hide themselves.
    /// A classifier without never sees them ([`without_hidden`]).
    pub fn sees_hidden(&self) -> bool {
        use features::SegmentColumns;
        self.uses(features::Hidden::GROUP)
    }

    /// Whether its rows have the site's columns ([`features::Site`]): it
    /// reads what the site's other pages hold.
    pub fn reads_site(&self) -> bool {
        use features::SegmentColumns;
        self.uses(features::Site::GROUP)
    }

    /// P(clean) of each feature row with the weights `w` of an input: the
    /// trees' margin added when the classifier has trees (walked over all
    /// rows at once, [`trees::Forest::margins`]), then the calibration.
    pub fn probabilities<R: AsRef<[f32]>>(&self, w: &Logistic, html: bool, rows: &[R]) -> Vec<f64> {
        let margins = self
            .trees
            .as_ref()
            .and_then(|t| t[usize::from(!html)].as_ref())
            .map(|forest| forest.margins(rows));
        let calibration = self.calibration(html);
        rows.iter()
            .enumerate()
            .map(|(i, x)| {
                let mut logit = w.logit(x.as_ref());
                if let Some(m) = &margins {
                    logit += m[i];
                }
                let logit = f64::from(logit);
                match calibration {
                    Some(c) => logistic::sigmoid(c.scale * logit + c.shift),
                    None => logistic::sigmoid(logit),
                }
            })
            .collect()
    }

    /// The calibration of an input's log-odds, if the model has one.
    pub fn calibration(&self, html: bool) -> Option<Calibration> {
        self.calibration.as_ref()?[usize::from(!html)]
    }

    /// The n-gram score of every segment of a page and P(clean) of those the
    /// heuristics left to the model (`None` for the others, whose
    /// probability nobody reads: their rows are still built, as their
    /// neighbours' features); `None` if the classifier has no weights for
    /// this input. With a chain every segment gets its posterior.
    pub fn score_page<S: SegmentScorer + ?Sized>(
        &self,
        segments: &[Segment],
        scorer: &S,
        html: bool,
        page: Option<&PagePrediction>,
    ) -> Option<(Vec<f64>, Vec<Option<f64>>)> {
        let w = self.weights(html)?;
        let (rows, scores) = self.rows_and_scores(segments, scorer, html, page);
        let probs = match self
            .chain
            .as_ref()
            .and_then(|c| c[usize::from(!html)].as_ref())
        {
            Some(chain) => chain
                .posteriors(&self.probabilities(w, html, &rows))
                .into_iter()
                .map(Some)
                .collect(),
            None => {
                // The trees cost most of the classifier's time: only the
                // segments the model decides are walked down them.
                let needed: Vec<usize> = (0..segments.len())
                    .filter(|&i| segments[i].heuristic.is_none())
                    .collect();
                let sub: Vec<&[f32]> = needed.iter().map(|&i| rows[i].as_slice()).collect();
                let mut probs = vec![None; segments.len()];
                for (&i, p) in needed.iter().zip(self.probabilities(w, html, &sub)) {
                    probs[i] = Some(p);
                }
                probs
            }
        };
        Some((scores, probs))
    }
}

/// The segments of a page that a decider without the [`Context::HIDDEN`]
/// flag sees: those not flagged, or all of them when every one is (a page
/// that its scripts reveal, as single-page applications and "anti-flicker"
/// snippets hide the whole body until they have run).
pub fn without_hidden(segments: Vec<Segment>) -> Vec<Segment> {
    if segments.iter().all(|s| s.context.has(Context::HIDDEN))
        || !segments.iter().any(|s| s.context.has(Context::HIDDEN))
    {
        return segments;
    }
    segments
        .into_iter()
        .filter(|s| !s.context.has(Context::HIDDEN))
        .collect()
}

/// Platt scaling: P(clean) = σ(scale · z + shift) of the classifier's
/// log-odds z (logistic regression plus trees).
///
/// The trees are fitted on top of the logistic regression's log-odds and
/// may be overconfident: a simulation on the cross-validated WCXB outputs
/// of models without calibration found the best mean page F with the
/// log-odds shrunk by about 0.7. Rather than take that number, found on
/// the pages it would be judged on, the two numbers are fitted by weighted
/// log-loss on the training pages held out of the trees' fit, and the
/// probabilities that the model reports and that [`expected_f_cut`] weighs
/// are the calibrated ones. The embedded models' fitted scales are 0.93–0.96
/// (shifts 0.02–0.08): the trees are nearly calibrated on pages like their
/// own.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Calibration {
    /// Multiplies the log-odds (natural logarithm).
    pub scale: f64,
    /// Added after.
    pub shift: f64,
}

impl Calibration {
    /// Fits the scale and shift by Newton's method on the weighted log-loss
    /// of labelled log-odds (`z`, `y`, `w`); the identity when the data
    /// cannot say (no weight, one class only, or no convergence).
    pub fn fit(z: &[f64], y: &[bool], w: &[f64]) -> Calibration {
        let identity = Calibration {
            scale: 1.0,
            shift: 0.0,
        };
        let total: f64 = w.iter().sum();
        let pos: f64 = y.iter().zip(w).filter(|(l, _)| **l).map(|(_, w)| w).sum();
        if total <= 0.0 || pos <= 0.0 || pos >= total {
            return identity;
        }
        let (mut a, mut b) = (1.0f64, 0.0f64);
        for _ in 0..50 {
            // Gradient and Hessian of the summed weighted log-loss, with a small ridge
            // towards the identity so that separable data stays finite.
            let (mut ga, mut gb, mut haa, mut hab, mut hbb) = (0.0, 0.0, 0.0, 0.0, 0.0);
            for ((&zi, &yi), &wi) in z.iter().zip(y).zip(w) {
                let p = logistic::sigmoid(a * zi + b);
                let d = wi * (p - f64::from(u8::from(yi)));
                ga += d * zi;
                gb += d;
                let h = wi * p * (1.0 - p);
                haa += h * zi * zi;
                hab += h * zi;
                hbb += h;
            }
            let ridge = 1e-3 * total;
            ga += ridge * (a - 1.0);
            gb += ridge * b;
            haa += ridge;
            hbb += ridge;
            let det = haa * hbb - hab * hab;
            if det.abs() < 1e-12 {
                break;
            }
            let da = (hbb * ga - hab * gb) / det;
            let db = (haa * gb - hab * ga) / det;
            a -= da;
            b -= db;
            if da.abs() < 1e-9 && db.abs() < 1e-9 {
                break;
            }
        }
        if a.is_finite() && b.is_finite() && a > 0.0 {
            Calibration { scale: a, shift: b }
        } else {
            identity
        }
    }
}

/// The least probability a segment needs under [`expected_f_cut`]: without
/// it, a page of boilerplate alone (gold text empty: error pages, bare
/// listings) would keep its likeliest segment however unlikely. Chosen by
/// the cross-validation on WCXB's development pages (folds by domain) among
/// 0, 0.05, 0.1, 0.2 and 0.3; 0.1 and 0.2 are within 0.001 of each other.
pub const EXPECTED_F_FLOOR: f64 = 0.1;

/// The per-page decision of [`Preference::F`] in calibrated models: the
/// probability cut that maximises the page's expected F1.
///
/// Given each segment's probability p of being clean and its weight w (its
/// words), keeping the k likeliest segments has the plug-in expected F1
/// 2·Σₖ p·w / (Σₖ w + Σ p·w) (matched words over kept plus expected gold
/// words; Jansche 2007, Nan Ye et al. 2012, "Optimizing F-measures"). The
/// cut is the probability of the last segment kept at the maximum, never
/// below [`EXPECTED_F_FLOOR`]. A fixed threshold asks every page for the
/// same confidence; this asks each page for its own: on a page of product
/// cards where no segment reaches 0.3 it keeps the likeliest cards, and on
/// a long article it drops the doubtful tail that a fixed cut keeps. The
/// cut is returned as log-odds in bits; `None` when no segment reaches
/// the floor (the caller then keeps nothing).
pub fn expected_f_cut(segments: impl IntoIterator<Item = (f64, usize)>) -> Option<f64> {
    let mut items: Vec<(f64, f64)> = segments
        .into_iter()
        .filter(|&(p, w)| p >= EXPECTED_F_FLOOR && w > 0)
        .map(|(p, w)| (p, w as f64))
        .collect();
    if items.is_empty() {
        return None;
    }
    // Expected gold words: segments under the floor count as none (as the
    // floor was chosen).
    items.sort_by(|a, b| b.0.total_cmp(&a.0));
    let expected: f64 = items.iter().map(|(p, w)| p * w).sum();
    let (mut matched, mut kept) = (0.0, 0.0);
    let mut best = (f64::NEG_INFINITY, items[0].0);
    for &(p, w) in &items {
        matched += p * w;
        kept += w;
        let f = 2.0 * matched / (kept + expected);
        if f > best.0 {
            best = (f, p);
        }
    }
    Some(log2_odds(best.1))
}

/// log2(p / (1 − p)), the log-odds of a probability in bits (finite for p in [0, 1]).
pub fn log2_odds(p: f64) -> f64 {
    let p = p.clamp(1e-12, 1.0 - 1e-12);
    (p / (1.0 - p)).log2()
}

/// Which parts of the paper's system decide.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Method {
    /// Keep every segment: the raw text dump (the paper's baseline).
    #[serde(alias = "keep_all")]
    KeepAll,
    /// The segmentation heuristics alone, no language model ("heuristics only").
    Heuristics,
    /// Heuristics, then the clean/dirty n-gram models (NCleaner).
    #[serde(rename = "ncleaner")]
    NCleaner,
    /// Sentences above a word-model perplexity cut-off removed, nothing else
    /// (PyPlexity; see `crate::perplexity`).
    Perplexity,
}

impl Method {
    /// Every method, in the order the command line lists them.
    pub const ALL: [Method; 4] = [
        Method::NCleaner,
        Method::Heuristics,
        Method::KeepAll,
        Method::Perplexity,
    ];

    /// The method's name on the command line and in the web API
    /// (`ncleaner`, `heuristics`, `keep-all`, `perplexity`); [`str::parse`] reads it back.
    pub fn as_str(self) -> &'static str {
        match self {
            Method::NCleaner => "ncleaner",
            Method::Heuristics => "heuristics",
            Method::KeepAll => "keep-all",
            Method::Perplexity => "perplexity",
        }
    }

    /// Whether the method needs a model's scores.
    pub fn uses_model(self) -> bool {
        self == Method::NCleaner
    }
}

impl std::str::FromStr for Method {
    type Err = String;

    /// Reads a name of [`Method::as_str`].
    fn from_str(s: &str) -> std::result::Result<Method, String> {
        Method::ALL
            .into_iter()
            .find(|m| m.as_str() == s)
            .ok_or_else(|| {
                format!("unknown method {s:?} (ncleaner, heuristics, keep-all, perplexity)")
            })
    }
}

impl std::fmt::Display for Method {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a segment was kept or dropped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case", tag = "by")]
#[non_exhaustive]
pub enum Reason {
    /// Every segment is kept ([`Method::KeepAll`]).
    KeepAll,
    /// A heuristic rule dropped it.
    Heuristic {
        /// The rule.
        rule: Heuristic,
    },
    /// No heuristic applies ([`Method::Heuristics`]).
    NoHeuristic,
    /// The score was compared with the threshold.
    Score,
    /// Sentence perplexities decided: kept while any sentence is at most the cut-off.
    Perplexity,
    /// The segment would be kept, but the page's predicted precision is
    /// below the least page quality asked for, and the whole page is dropped
    /// ([`crate::pipeline::Cleaner::with_min_page_quality`]).
    PageQuality,
    /// A user comment, dropped as asked ([`Comments::Drop`]).
    Comment,
    /// The same text was kept earlier on the page (`crate::policy::rules::Repeats`).
    Repeat,
    /// Kept as a short cell of a data table's row whose other cell is kept
    /// (`crate::policy::rules::TableRows`).
    TableRow,
    /// A block of code inside the page's content, kept though the model
    /// dropped it (`crate::policy::rules::CodeBlocks`).
    Code,
    /// Kept by the model, but its role is one the text does not carry
    /// ([`crate::cleaned::Roles`]).
    Role,
    /// A product page's price or a cell of its specifications, kept
    /// though the model dropped it (`crate::policy::rules::ProductFacts`).
    Product,
    /// Hidden text that the model keeps only at another operating point
    /// than its default (`crate::policy::rules::HiddenText`).
    HiddenText,
    /// Kept by the model, but the page kept a few words of headings alone
    /// and nothing under them: a page without content
    /// (`crate::policy::rules::BareHeadings`).
    BareHeadings,
}

impl Reason {
    /// The reason's name, as in the `by` field of its JSON form
    /// (`keep-all`, `heuristic`, `no-heuristic`, `score`, `perplexity`,
    /// `page-quality`, `comment`, `repeat`, `table-row`, `code`, `role`,
    /// `bare-headings`, `hidden-text`, `product`).
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::KeepAll => "keep-all",
            Reason::Heuristic { .. } => "heuristic",
            Reason::NoHeuristic => "no-heuristic",
            Reason::Score => "score",
            Reason::Perplexity => "perplexity",
            Reason::PageQuality => "page-quality",
            Reason::Comment => "comment",
            Reason::Repeat => "repeat",
            Reason::TableRow => "table-row",
            Reason::Code => "code",
            Reason::Role => "role",
            Reason::BareHeadings => "bare-headings",
            Reason::HiddenText => "hidden-text",
            Reason::Product => "product",
        }
    }
}

/// The decision about one segment.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
#[non_exhaustive]
pub struct Decision {
    /// Whether the segment is kept.
    pub keep: bool,
    /// What decided.
    pub reason: Reason,
}

/// The decision of [`Method::KeepAll`]: every segment kept.
pub const KEEP_ALL: Decision = Decision {
    keep: true,
    reason: Reason::KeepAll,
};

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    #[test]
    fn method_names_round_trip() {
        for m in Method::ALL {
            assert_eq!(m.as_str().parse::<Method>().unwrap(), m);
        }
        assert!("n-cleaner".parse::<Method>().is_err());
        assert_eq!(Reason::PageQuality.as_str(), "page-quality");
        assert_eq!(Reason::Comment.as_str(), "comment");
        assert_eq!(
            serde_json::to_value(Reason::Comment).unwrap(),
            serde_json::json!({"by": "comment"})
        );
    }

    #[test]
    fn preferences_and_comment_choices_parse() {
        assert_eq!("recall".parse::<Preference>(), Ok(Preference::Recall));
        assert_eq!("f".parse::<Preference>(), Ok(Preference::F));
        assert!("most".parse::<Preference>().is_err());
        assert_eq!("drop".parse::<Comments>(), Ok(Comments::Drop));
        assert!("hide".parse::<Comments>().is_err());
    }

    /// A decider without the hidden flag sees the shown segments, or every
    /// segment of a page whose every segment is hidden.
    #[test]
    fn without_hidden_keeps_the_shown_or_a_wholly_hidden_page() {
        let seg = |t: &str, hidden: bool| {
            let mut s = Segment::plain(crate::html::Kind::P, t.to_string());
            if hidden {
                s.context = Context(Context::HIDDEN | Context::LIST);
            }
            s
        };
        let texts = |v: Vec<Segment>| v.iter().map(|s| s.text().to_string()).collect::<Vec<_>>();
        let mixed = vec![seg("a", false), seg("b", true), seg("c", false)];
        assert_eq!(texts(without_hidden(mixed)), ["a", "c"]);
        let all = vec![seg("a", true), seg("b", true)];
        assert_eq!(texts(without_hidden(all)), ["a", "b"]);
        assert!(without_hidden(Vec::new()).is_empty());
    }

    /// A classifier without weights, trees or models of its own, with the
    /// neighbours' columns: what a test sets the rest of.
    pub(crate) fn classifier() -> Classifier {
        Classifier {
            html: None,
            text: None,
            trees: None,
            attrs: AttrModel::default(),
            threshold: [2.0, 1.5],
            precision_threshold: Some([3.0, 2.5]),
            max_recall_threshold: None,
            calibration: None,
            page_type: None,
            chain: None,
            lexicon: Default::default(),
            columns: Schema::with(&["neighbours"]).unwrap().names(),
            words: WordFeature::default(),
        }
    }

    /// Each preference takes its stored point, and the default where the
    /// model stores none.
    #[test]
    fn preferences_take_their_stored_points() {
        let mut c = classifier();
        assert_eq!(c.operating_threshold(true, Preference::Recall), 2.0);
        c.max_recall_threshold = Some([-0.5, -1.0]);
        assert_eq!(c.operating_threshold(true, Preference::Recall), -0.5);
        assert_eq!(c.operating_threshold(false, Preference::Recall), -1.0);
        assert_eq!(c.operating_threshold(false, Preference::Precision), 2.5);
        assert_eq!(c.operating_threshold(false, Preference::F), 1.5);
        c.precision_threshold = None;
        assert_eq!(c.operating_threshold(true, Preference::Precision), 2.0);
    }

    #[test]
    fn word_features_of_segments() {
        assert_eq!(WordFeature::default().of("anything"), None);
        let lm = crate::lm::file::embedded("en-ppl").expect("embedded word model");
        let f = WordFeature(Some(std::sync::Arc::new(lm)));
        let [good, good_oov] = f
            .of("The minister said the report would be published.")
            .unwrap();
        let [bad, bad_oov] = f.of("qzx vbnm plok wruff").unwrap();
        assert!((-8.0..=0.0).contains(&good) && (-8.0..=0.0).contains(&bad));
        assert!(
            good > bad,
            "well-formed text is more probable: {good} vs {bad}"
        );
        assert!(good_oov < bad_oov && bad_oov > 0.5);
        assert_eq!(f, f.clone());
        assert_ne!(f, WordFeature::default());
    }

    #[test]
    fn the_expected_f_cut_adapts_to_the_page() {
        // A page of cards where nothing is likely: the likeliest are kept.
        let cards = [(0.25, 20), (0.22, 20), (0.05, 5), (0.02, 3)];
        assert_eq!(expected_f_cut(cards), Some(log2_odds(0.22)));
        // A long article with a doubtful tail: a segment stays while its p
        // is above about half the page's best expected F (0.935 here).
        let article = [(0.95, 300), (0.9, 200), (0.5, 40), (0.3, 40)];
        assert_eq!(expected_f_cut(article), Some(log2_odds(0.5)));
        // Nothing at the floor: nothing to keep.
        assert_eq!(expected_f_cut([(0.09, 50), (0.01, 10)]), None);
        assert_eq!(expected_f_cut([]), None);
        // Empty segments weigh nothing.
        assert_eq!(expected_f_cut([(0.9, 0)]), None);
    }

    #[test]
    fn calibration_recovers_a_known_scale() {
        // Labels drawn (deterministically) from p = sigmoid(0.5 z - 0.3).
        let (mut z, mut y, mut w) = (Vec::new(), Vec::new(), Vec::new());
        for i in 0..4000 {
            let zi = (i % 200) as f64 / 20.0 - 5.0;
            let p = logistic::sigmoid(0.5 * zi - 0.3);
            // Stratified: the share of positives at each z is p.
            let u = ((i / 200) as f64 + 0.5) / 20.0;
            z.push(zi);
            y.push(u < p);
            w.push(1.0);
        }
        let c = Calibration::fit(&z, &y, &w);
        assert!((c.scale - 0.5).abs() < 0.05, "{c:?}");
        assert!((c.shift + 0.3).abs() < 0.1, "{c:?}");
        // One class only: the identity.
        let id = Calibration::fit(&z, &vec![true; z.len()], &w);
        assert_eq!((id.scale, id.shift), (1.0, 0.0));
    }
}
