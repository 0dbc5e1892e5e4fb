//! How a model is trained: the n-gram order and alphabet
//! ([`TrainConfig`]), the classifier's parts ([`ClassifierConfig`]) and the
//! operating point its threshold is chosen at ([`OperatingPoint`]).

use ncleaner::model::{Alphabet, DirtyEstimate};

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

impl ClassifierConfig {
    /// The optional column groups its classifier's rows have, by name
    /// ([`ncleaner::classify::schema::Schema::with`]): the neighbours', the
    /// site's, the page type's (`page_types`: a page-type model was
    /// trained), the hidden flag (always), the phrases and the word model's.
    pub fn optional_groups(&self, page_types: bool) -> Vec<&'static str> {
        [
            ("neighbours", self.neighbours),
            ("site", self.site),
            ("page_type", page_types),
            ("hidden", true),
            ("phrases", self.phrases),
            ("words", self.perplexity),
        ]
        .into_iter()
        .filter(|g| g.1)
        .map(|g| g.0)
        .collect()
    }
}

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
