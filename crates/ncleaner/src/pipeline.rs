//! The whole pipeline for one document: bytes in, decided segments out.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::classify::page::{PageFeatures, PagePrediction};
use crate::classify::{self, Decision, Method, Preference};
use crate::cleaned::Roles;
use crate::decode::{self, Document};
use crate::html;
use crate::model::Model;
use crate::perplexity::SentenceFilter;
use crate::segment::{self, Segment};

use crate::cleaned::{Cleaned, Cut, InputKind, OperatingPoint, ScoredSegment};
pub use decide::{Decide, Decided, PageContext};

pub mod decide;
mod kept;

use kept::{Dateline, dateline, kept_byline, kept_date, published_line, without_leads};

/// Whether a decoded document looks like HTML: it has one of the tags that
/// almost every page has (`<html`, `<body`, `<p>`, `<div`, `<br`, `<table`,
/// `<a href`, a doctype) in its first 64 KiB.
pub fn looks_like_html(text: &str) -> bool {
    let head = &text.as_bytes()[..text.len().min(64 * 1024)];
    const TAGS: [&[u8]; 12] = [
        b"<html",
        b"<body",
        b"<head",
        b"<p>",
        b"<p ",
        b"<div",
        b"<br",
        b"<table",
        b"<a href",
        b"<!doctype",
        b"<title",
        b"<span",
    ];
    (0..head.len()).any(|i| {
        head[i] == b'<'
            && TAGS.iter().any(|t| {
                head.get(i..i + t.len())
                    .is_some_and(|w| w.eq_ignore_ascii_case(t))
            })
    })
}

/// Asks cleaning in progress to stop: a flag another thread sets, and an
/// optional deadline. `Cleaner::clean_document_cancellable` looks at it
/// between the pipeline's stages and every [`Cancel::EVERY`] segments within
/// the stages that go segment by segment, and returns [`Cancelled`] once it is
/// set (or the deadline has passed), dropping what it had made. Scoring a
/// page with the classifier is one step: a flag set during it is seen after it.
///
/// ```
/// use ncleaner::{Cancel, Cancelled, Cleaner, InputKind};
/// let cleaner = Cleaner::from_model(ncleaner::model::embedded("en").unwrap());
/// let doc = ncleaner::decode::decode(b"<p>Some text.</p>", None, None);
/// let cancel = Cancel::new();
/// cancel.cancel(); // from another thread, in real use
/// assert_eq!(cleaner.clean_document_cancellable(doc, InputKind::Html, &cancel).unwrap_err(), Cancelled);
/// ```
#[derive(Debug, Default)]
pub struct Cancel {
    flag: AtomicBool,
    deadline: Option<Instant>,
}

/// What cleaning returns when its [`Cancel`] asked it to stop.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("cancelled")]
pub struct Cancelled;

impl Cancel {
    /// How many segments a stage handles between two looks at the flag.
    pub const EVERY: usize = 1024;

    /// A flag not set, without a deadline.
    pub const fn new() -> Cancel {
        Cancel {
            flag: AtomicBool::new(false),
            deadline: None,
        }
    }

    /// A flag not set, that also counts as set from `deadline` on.
    pub fn with_deadline(deadline: Instant) -> Cancel {
        Cancel {
            flag: AtomicBool::new(false),
            deadline: Some(deadline),
        }
    }

    /// Asks the work to stop (from any thread); it stops at its next look.
    pub fn cancel(&self) {
        self.flag.store(true, Ordering::Relaxed);
    }

    /// Whether the work should stop: the flag is set or the deadline passed.
    pub fn is_cancelled(&self) -> bool {
        self.flag.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// `Err(Cancelled)` when the work should stop.
    pub fn check(&self) -> Result<(), Cancelled> {
        if self.is_cancelled() {
            Err(Cancelled)
        } else {
            Ok(())
        }
    }

    /// [`Cancel::check`] at every [`Cancel::EVERY`]-th item (`i`: the item's index).
    fn check_at(&self, i: usize) -> Result<(), Cancelled> {
        if i.is_multiple_of(Cancel::EVERY) {
            self.check()
        } else {
            Ok(())
        }
    }
}

/// The flag of work that is never cancelled.
static NEVER: Cancel = Cancel::new();

/// The cleaned page of a cleaning that admitted every page.
fn admitted(c: Option<Cleaned>) -> Cleaned {
    c.expect("a page that every page's admission admits is cleaned")
}

/// The result of work given [`NEVER`], which cannot be cancelled.
fn uncancelled<T>(r: Result<T, Cancelled>) -> T {
    match r {
        Ok(v) => v,
        Err(Cancelled) => unreachable!("work without a cancel flag was cancelled"),
    }
}

/// A model with the name it is reported under (`en`, `en-nonlex`, a path).
#[derive(Debug, Clone)]
pub struct Route {
    /// The name written with each page the model cleans ([`Cleaned::model`]).
    pub name: Arc<str>,
    /// The model.
    pub model: Arc<Model>,
}

impl Route {
    /// The model that `name` names ([`crate::model::Model::open`]: `en`,
    /// `multi`, `en-nonlex` or a model file), reported under `name`.
    pub fn open(name: &str) -> crate::error::Result<Route> {
        Ok(Route {
            name: name.into(),
            model: Arc::new(crate::model::Model::open(name)?),
        })
    }
}

/// The models [`Routes::from_names`] routes to when given none: `en` (for
/// English pages) and `multi` (for Chinese, Russian, Polish and Greek ones).
pub const DEFAULT_MODELS: [&str; 2] = ["en", "multi"];

/// The model for pages of other languages by default: `en-nonlex`.
pub const DEFAULT_FALLBACK: &str = "en-nonlex";

/// Language routing: models keyed by their language tag
/// (`crate::model::ModelMeta::language`) and a fallback model for pages
/// of any other language, or whose language is not identified.
///
/// Each page's language is identified from a bounded sample of its segments
/// (`crate::lang::detect_segments`: a few µs for an English page, about
/// 0.1 ms for others), after
/// segmentation and before scoring, so a page is read once whichever model
/// cleans it.
#[derive(Debug, Clone)]
pub struct Routes {
    by_language: Vec<(String, Route)>,
    fallback: Route,
}

impl Routes {
    /// Routes with no language-specific model yet: every page goes to
    /// `fallback` (which still identifies each page's language).
    pub fn new(fallback: Route) -> Routes {
        Routes {
            by_language: Vec::new(),
            fallback,
        }
    }

    /// The routing of `ncleaner clean --model NAME… --fallback-model
    /// FALLBACK`, shared by the CLI, the server and the Python module: the
    /// models named (none: [`DEFAULT_MODELS`]) opened with [`Route::open`] and
    /// assembled by [`Routes::assemble`].
    ///
    /// The models and the fallback are opened each on a thread of its own,
    /// at once: loading one of the embedded models takes about 6 ms, most
    /// of a one-page run's start-up. The fallback is opened whether or not
    /// the models turn out to need it; its error, if any, is reported only
    /// when they do.
    pub fn from_names<S: AsRef<str> + Sync>(
        models: &[S],
        fallback: &str,
    ) -> crate::error::Result<Routes> {
        Routes::from_names_with(models, fallback, &|name| {
            crate::model::Model::open(name).map(Arc::new)
        })
    }

    /// [`Routes::from_names`] with the models that `open` gives for each
    /// name (a server's loaded models, a cache).
    pub(crate) fn from_names_with<S: AsRef<str> + Sync>(
        models: &[S],
        fallback: &str,
        open: &(dyn Fn(&str) -> crate::error::Result<Arc<Model>> + Sync),
    ) -> crate::error::Result<Routes> {
        let route = |name: &str| -> crate::error::Result<Route> {
            Ok(Route {
                name: name.into(),
                model: open(name)?,
            })
        };
        let names: Vec<&str> = if models.is_empty() {
            DEFAULT_MODELS.to_vec()
        } else {
            models.iter().map(AsRef::as_ref).collect()
        };
        let join = |h: std::thread::ScopedJoinHandle<'_, crate::error::Result<Route>>| {
            h.join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
        };
        std::thread::scope(|scope| {
            let fallback = scope.spawn(|| route(fallback));
            let opening: Vec<_> = names
                .iter()
                .map(|&name| scope.spawn(move || route(name)))
                .collect();
            let loaded: crate::error::Result<Vec<Route>> = opening.into_iter().map(join).collect();
            let fallback = join(fallback);
            Routes::assemble(loaded?, || fallback)
        })
    }

    /// Routes from loaded models: one model without a language tag cleans
    /// every page (`fallback` is not called); otherwise each model takes the
    /// pages of its language ([`Routes::add`]: each needs a tag) and the
    /// model `fallback` gives takes the rest.
    pub fn assemble(
        models: Vec<Route>,
        fallback: impl FnOnce() -> crate::error::Result<Route>,
    ) -> crate::error::Result<Routes> {
        if let [only] = &models[..]
            && only.model.meta.language.is_none()
        {
            return Ok(Routes::new(only.clone()));
        }
        let mut routes = Routes::new(fallback()?);
        for r in models {
            routes.add(r)?;
        }
        Ok(routes)
    }

    /// Adds a model for the language of its tag (for each language of a
    /// model trained on several, [`crate::model::ModelMeta::languages`]).
    /// Errors when the model has no tag or another model already has one of
    /// its languages.
    pub fn add(&mut self, route: Route) -> crate::error::Result<()> {
        let tags: Vec<String> = route
            .model
            .meta
            .languages()
            .filter_map(crate::lang::normalise_tag)
            .collect();
        if tags.is_empty() {
            return Err(crate::Error::Parameter(format!(
                "model {} has no language tag (train it with --language TAG), so it cannot be \
                 routed to; use it alone or as the fallback model",
                route.name
            )));
        }
        for tag in &tags {
            if let Some((_, other)) = self.by_language.iter().find(|(t, _)| t == tag) {
                return Err(crate::Error::Parameter(format!(
                    "models {} and {} are both for language {tag}",
                    other.name, route.name
                )));
            }
        }
        for tag in tags {
            self.by_language.push((tag, route.clone()));
        }
        Ok(())
    }

    /// The model for pages of a language (`None`: not identified).
    pub fn pick(&self, language: Option<&str>) -> &Route {
        language
            .and_then(|l| self.by_language.iter().find(|(t, _)| t == l))
            .map_or(&self.fallback, |(_, r)| r)
    }

    /// The fallback model.
    pub fn fallback(&self) -> &Route {
        &self.fallback
    }
}

/// A configured cleaner: a model (or language routes), a method and a
/// threshold. Cheap to clone and safe to share between threads.
#[derive(Debug, Clone)]
pub struct Cleaner {
    model: Arc<Model>,
    /// Language routing; `None`: `model` cleans every page and no language is identified.
    routes: Option<Arc<Routes>>,
    /// The decide stage ([`decide`]): the method's decider.
    decider: Arc<dyn Decide>,
    /// `None`: the model's own operating point (0 for models without a classifier).
    threshold: Option<f64>,
    /// Which stored operating point applies when `threshold` is `None`.
    preference: Preference,
    /// Pages whose predicted precision is below this are dropped whole.
    min_page_quality: Option<f64>,
    /// What the cleaner knows of the pages' sites ([`crate::site`]).
    site: Option<Arc<crate::site::SiteMemory>>,
    /// Whether user comments are dropped whatever the model says.
    comments: classify::Comments,
    /// Whether a kept segment that repeats one kept before it is kept
    /// again ([`crate::cleaned::REPEAT_MIN_WORDS`]).
    keep_repeats: bool,
    /// The inline marks the HTML pass records for Markdown ([`html::inline`]).
    marks: html::Marks,
    /// Which roles of the kept segments the text carries ([`Roles`]).
    roles: Roles,
}

impl Cleaner {
    /// A cleaner of one model for every page, without language routing,
    /// at the model's own operating point ([`Preference::F`]: each page cut
    /// at its expected-F point when the model has a calibrated classifier),
    /// NCleaner's method, its text carrying every segment the model keeps
    /// ([`Roles::All`]: the decisions themselves, which training and the
    /// lab's experiments measure). The lower-level constructor, for the lab
    /// and for callers who assemble a cleaner themselves; [`Cleaner::new`]
    /// cleans as every front end does (its default text leaves comments
    /// and furniture out, [`Roles::Content`]).
    pub fn from_model(model: Model) -> Cleaner {
        Cleaner::from_shared(Arc::new(model))
    }

    /// A cleaner sharing an already loaded model.
    pub fn from_shared(model: Arc<Model>) -> Cleaner {
        Cleaner {
            model,
            routes: None,
            decider: Arc::new(decide::ByModel),
            threshold: None,
            preference: Preference::default(),
            min_page_quality: None,
            site: None,
            comments: classify::Comments::Keep,
            keep_repeats: false,
            marks: html::Marks::default(),
            roles: Roles::All,
        }
    }

    /// A cleaner that routes each page to the model of its language
    /// ([`Routes`]); [`Cleaner::model`] is then the fallback model.
    pub fn routed(routes: Routes) -> Cleaner {
        let mut c = Cleaner::from_shared(routes.fallback.model.clone());
        c.routes = Some(Arc::new(routes));
        c
    }

    internal! {
        /// The same cleaner giving the classifier the site features of each
        /// page from this memory ([`crate::site`]; models trained with them only).
        pub fn with_site_memory(mut self, memory: Arc<crate::site::SiteMemory>) -> Cleaner {
            self.site = Some(memory);
            self
        }
    }

    /// Whether the model (the fallback model when routing) uses site
    /// features, so that a site memory would be used.
    pub fn uses_sites(&self) -> bool {
        self.uses_sites_with(&self.model)
    }

    fn uses_sites_with(&self, model: &Model) -> bool {
        self.decider.uses_model() && model.classifier.as_ref().is_some_and(|c| c.site)
    }

    /// The same cleaner dropping every page whose predicted precision
    /// (`crate::quality`) is below `p` (0–1): all its segments are then
    /// dropped ([`classify::Reason::PageQuality`]) and [`Cleaned::quality`]
    /// says why. Fails when the model (the fallback model when routing) has
    /// no page-quality model; pages routed to a model without one are kept.
    pub fn with_min_page_quality(mut self, p: f64) -> crate::error::Result<Cleaner> {
        if !(0.0..=1.0).contains(&p) {
            return Err(crate::error::Error::Parameter(format!(
                "the least page quality must be between 0 and 1, not {p}"
            )));
        }
        if self.model.quality.is_none() {
            return Err(crate::error::Error::Parameter(format!(
                "the model ({}) has no page-quality model: train it with `ncleaner train` (without --no-page-quality)",
                self.model.meta.provenance
            )));
        }
        self.min_page_quality = Some(p);
        Ok(self)
    }

    /// The same cleaner filtering sentences by perplexity
    /// ([`Method::Perplexity`]) with this filter.
    pub(crate) fn with_perplexity(self, filter: SentenceFilter) -> Cleaner {
        self.with_decider(Arc::new(decide::ByPerplexity {
            filter: Some(filter),
        }))
    }

    /// The same cleaner with another method (`decide::of_method`).
    pub fn with_method(self, method: Method) -> Cleaner {
        self.with_decider(decide::of_method(method))
    }

    internal! {
        /// The same cleaner deciding with `decider`: one of [`decide`]'s, or a
        /// decider of the caller's own.
        pub fn with_decider(mut self, decider: Arc<dyn Decide>) -> Cleaner {
            self.decider = decider;
            self
        }
    }

    /// The same cleaner with another decision threshold in bits of log-odds
    /// (of the n-gram models, or of the classifier's probability; see `crate::classify`).
    pub fn with_threshold(mut self, threshold: f64) -> Cleaner {
        self.threshold = Some(threshold);
        self
    }

    /// The same cleaner with the model's own operating point (`None`) or a threshold.
    pub fn with_threshold_option(mut self, threshold: Option<f64>) -> Cleaner {
        self.threshold = threshold;
        self
    }

    /// The same cleaner with a threshold given as the least probability of
    /// being clean that a kept segment must have (models with a classifier;
    /// for the paper's models this is read as 2^T / (1 + 2^T) of the n-gram
    /// log-odds T, which is not a calibrated probability).
    pub fn with_min_probability(self, p: f64) -> Cleaner {
        self.with_threshold(classify::log2_odds(p))
    }

    /// The same cleaner keeping or dropping user comments ([`classify::Comments`]).
    pub fn with_comments(mut self, comments: classify::Comments) -> Cleaner {
        self.comments = comments;
        self
    }

    /// The same cleaner keeping (`true`) or dropping (`false`, the default)
    /// the repeats of kept segments ([`crate::cleaned::drop_repeats`]).
    pub(crate) fn with_repeats(mut self, keep: bool) -> Cleaner {
        self.keep_repeats = keep;
        self
    }

    /// Has the text carry only the kept segments of the roles `roles`
    /// selects ([`Roles`]; HTML input).
    pub fn with_roles(mut self, roles: Roles) -> Cleaner {
        self.roles = roles;
        self
    }

    /// The same cleaner recording links and/or images for Markdown output
    /// ([`html::inline`]; neither by default). They change no decision.
    pub(crate) fn with_marks(mut self, marks: html::Marks) -> Cleaner {
        self.marks = marks;
        self
    }

    /// The same cleaner with another stored operating point (used when no threshold is set).
    pub fn with_preference(mut self, preference: Preference) -> Cleaner {
        self.preference = preference;
        self
    }

    /// The threshold in force for an input (with the fallback model, when routing).
    pub fn threshold(&self, input: InputKind) -> f64 {
        self.threshold_of(&self.model, input)
    }

    /// The threshold in force for an input when `model` decides: the one
    /// set, else the model's own operating point ([`Cleaner::cut_of`]).
    pub fn threshold_of(&self, model: &Model, input: InputKind) -> f64 {
        self.cut_of(model, input).1
    }

    /// Where the cut of a page that `model` decides comes from, and the
    /// threshold in force: the one place that reads the cleaner's
    /// threshold and preference against the model's classifier. The
    /// caller's threshold wins ([`OperatingPoint::Threshold`]); else the
    /// preferred point, whose threshold the model stores (0, the paper's
    /// rule, for a model without a classifier for this input); at the
    /// default point ([`Preference::F`]) a calibrated classifier cuts each
    /// page at its own expected-F point instead
    /// ([`OperatingPoint::PageF`], [`classify::expected_f_cut`]).
    fn cut_of(&self, model: &Model, input: InputKind) -> (OperatingPoint, f64) {
        if let Some(t) = self.threshold {
            return (OperatingPoint::Threshold, t);
        }
        let html = input != InputKind::Text;
        let classifier = model.classifier.as_ref();
        let stored = classifier
            .filter(|c| c.weights(html).is_some())
            .map_or(0.0, |c| c.operating_threshold(html, self.preference));
        let point = match self.preference {
            Preference::F if classifier.is_some_and(|c| c.calibration(html).is_some()) => {
                OperatingPoint::PageF
            }
            Preference::F => OperatingPoint::F,
            Preference::Precision => OperatingPoint::Precision,
            Preference::Recall => OperatingPoint::Recall,
        };
        (point, stored)
    }

    /// The model (the fallback model when routing).
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// Cleans the bytes of one document. `url` is its URL if the caller knows it.
    pub fn clean(&self, bytes: &[u8], input: InputKind, url: Option<&str>) -> Cleaned {
        self.clean_with_charset(bytes, input, url, None)
    }

    /// Cleans one document whose transport (HTTP) charset label is known.
    pub fn clean_with_charset(
        &self,
        bytes: &[u8],
        input: InputKind,
        url: Option<&str>,
        charset: Option<&str>,
    ) -> Cleaned {
        let doc = decode::decode_borrowed(bytes, url, charset);
        admitted(uncancelled(
            self.clean_decoded(doc, input, &NEVER, |_| true),
        ))
    }

    internal! {
        /// Cleans an already decoded document.
        pub fn clean_document(&self, doc: Document, input: InputKind) -> Cleaned {
            uncancelled(self.clean_document_cancellable(doc, input, &NEVER))
        }
    }

    internal! {
        /// Cleans an already decoded document unless `cancel` asks it to stop
        /// first (see [`Cancel`] for where it looks); the same result as
        /// [`Cleaner::clean_document`] when it does not.
        pub fn clean_document_cancellable(
            &self,
            doc: Document,
            input: InputKind,
            cancel: &Cancel,
        ) -> Result<Cleaned, Cancelled> {
            self.clean_decoded(doc.into(), input, cancel, |_| true).map(admitted)
        }
    }

    internal! {
        /// [`Cleaner::clean_document_cancellable`], with the page's segments
        /// shown to `admit` once they are read and before any is decided: a
        /// page it refuses is not cleaned (`Ok(None)`). The web API refuses
        /// there a page whose answer could not fit, without reading the
        /// page a second time.
        pub fn clean_document_admitted(
            &self,
            doc: Document,
            input: InputKind,
            cancel: &Cancel,
            admit: impl FnOnce(&[Segment]) -> bool,
        ) -> Result<Option<Cleaned>, Cancelled> {
            self.clean_decoded(doc.into(), input, cancel, admit)
        }
    }

    /// [`Cleaner::clean_document_cancellable`] of a page whose text may be
    /// borrowed from its bytes.
    fn clean_decoded(
        &self,
        doc: decode::Decoded<'_>,
        input: InputKind,
        cancel: &Cancel,
        admit: impl FnOnce(&[Segment]) -> bool,
    ) -> Result<Option<Cleaned>, Cancelled> {
        cancel.check()?;
        let read = read_document_limited(&doc.text, input, self.marks);
        let (input, mut segments, mut metadata) = (read.input, read.segments, read.metadata);
        if !admit(&segments) {
            return Ok(None);
        }
        cancel.check()?;
        let (model, language, name) = self.route(&segments);
        if let Some(md) = &mut metadata {
            // The detected language, else the page's `lang` when it is a tag.
            md.language = language
                .clone()
                .or_else(|| md.language.as_deref().and_then(crate::lang::normalise_tag));
            md.canonical_url = md
                .canonical_url
                .take()
                .and_then(|u| absolute_url(&u, doc.url.as_deref()));
        }
        // The page's features, from the page as it was read.
        let features = read.signals.as_ref().map(|signals| {
            PageFeatures::of(&segments, signals, metadata.as_ref(), doc.url.as_deref())
        });
        if let Some(mem) = self.site.as_ref().filter(|_| self.uses_sites_with(model)) {
            mem.annotate(doc.url.as_deref(), &mut segments);
        }
        cancel.check()?;
        let (decided, page_type, point) =
            self.decide_with(model, segments, features.as_ref(), input, cancel)?;
        let cut = decided.threshold.map(|threshold| Cut { point, threshold });
        let segments = decided.segments;
        cancel.check()?;
        if let Some(md) = &mut metadata {
            if md.authors.is_empty() {
                md.authors = kept_byline(&segments, language.as_deref());
            } else {
                without_leads(&mut md.authors, language.as_deref());
            }
        }
        if let Some(md) = &mut metadata {
            if md.date_published.is_none() {
                md.date_published = kept_date(&segments)
                    .or_else(|| dateline(&segments, Dateline::Published))
                    .or_else(|| published_line(&segments));
            }
            if md.date_modified.is_none() {
                md.date_modified = dateline(&segments, Dateline::Updated);
            }
            // A title that a heading gave, as the heading is written: without
            // its permalink mark (after the page's features, which read the
            // title as the models were trained on it).
            if let Some(t) = &mut md.title {
                let written = crate::cleaned::without_permalink(t);
                if written.len() < t.len() {
                    *t = written.to_string();
                }
            }
        }
        let mut c = Cleaned {
            encoding: doc.encoding.name(),
            had_decode_errors: doc.had_errors,
            segments,
            language,
            model: name,
            metadata,
            truncated: read.truncated.map(html::Limit::describe),
            cut,
            page_type,
            ..Cleaned::new(doc.url, input)
        };
        self.assess_with(model, &mut c);
        crate::cleaned::settle_roles(&mut c.segments);
        Ok(Some(c))
    }

    /// The model for a page's segments: the model of its language when the
    /// cleaner routes, else its one model; with the detected language and
    /// the name of the model (both `None` without routing).
    fn route(&self, segments: &[Segment]) -> (&Model, Option<String>, Option<Arc<str>>) {
        match &self.routes {
            None => (&self.model, None, None),
            Some(routes) => {
                let language = crate::lang::detect_segments(segments).map(|d| d.tag);
                let route = routes.pick(language);
                (
                    &route.model,
                    language.map(str::to_string),
                    Some(route.name.clone()),
                )
            }
        }
    }

    /// Sets a cleaned page's predicted quality and, below the least page
    /// quality asked for, drops the page's kept segments (the cleaner's own
    /// model; routed pages are assessed by their route's model).
    pub fn assess(&self, c: &mut Cleaned) {
        self.assess_with(&self.model, c)
    }

    fn assess_with(&self, model: &Model, c: &mut Cleaned) {
        c.quality = self.page_quality_with(model, c);
        if let (Some(min), Some(q)) = (self.min_page_quality, c.quality)
            && q.precision < min
        {
            for s in c.segments.iter_mut().filter(|s| s.keep()) {
                s.decision = Decision {
                    keep: false,
                    reason: classify::Reason::PageQuality,
                };
            }
        }
    }

    /// Whether a cleaned page was dropped for its predicted quality.
    pub fn below_page_quality(&self, c: &Cleaned) -> bool {
        matches!((self.min_page_quality, c.quality), (Some(min), Some(q)) if q.precision < min)
    }

    /// The predicted quality of a page this cleaner cleaned with its own
    /// model (`crate::quality`), if the model has a page-quality model for
    /// the page's input kind and the method is the model's.
    pub fn page_quality(&self, c: &Cleaned) -> Option<crate::quality::PageQuality> {
        self.page_quality_with(&self.model, c)
    }

    fn page_quality_with(&self, model: &Model, c: &Cleaned) -> Option<crate::quality::PageQuality> {
        if !self.decider.uses_model() {
            return None;
        }
        let html = c.input != InputKind::Text;
        model.quality(html).map(|q| q.predict(c))
    }

    /// Scores and decides the segments of one page (`input`: how they were
    /// read) with the cleaner's model (the fallback model when routing).
    pub fn decide(&self, segments: Vec<Segment>, input: InputKind) -> Vec<ScoredSegment> {
        self.decide_page(segments, None, input).0
    }

    internal! {
        /// [`Cleaner::decide`] with the page's features ([`PageFeatures`], HTML
        /// input), from which the model predicts the page's type before its
        /// segments are decided; returns the decisions and the prediction.
        pub fn decide_page(
            &self,
            segments: Vec<Segment>,
            features: Option<&PageFeatures>,
            input: InputKind,
        ) -> (Vec<ScoredSegment>, Option<PagePrediction>) {
            let (decided, page_type, _) =
                uncancelled(self.decide_with(&self.model, segments, features, input, &NEVER));
            (decided.segments, page_type)
        }
    }

    /// Decides one page's segments with `model`: its type predicted first,
    /// the hidden blocks left out for a decider that does not know them,
    /// then the decider, then (HTML) the roles. Returns the decisions, the
    /// page's type and where its cut came from ([`Cleaner::cut_of`]).
    fn decide_with(
        &self,
        model: &Model,
        segments: Vec<Segment>,
        features: Option<&PageFeatures>,
        input: InputKind,
        cancel: &Cancel,
    ) -> Result<(Decided, Option<PagePrediction>, OperatingPoint), Cancelled> {
        let html = input != InputKind::Text;
        let page_type = match (features, model.classifier.as_ref()) {
            (Some(f), Some(c)) if html && self.decider.uses_model() => {
                c.page_type.as_ref().map(|m| m.predict(f))
            }
            _ => None,
        };
        // A decider that does not know the hidden blocks' flag never sees them.
        let segments =
            if self.decider.uses_model() && model.classifier.as_ref().is_some_and(|c| c.hidden) {
                segments
            } else {
                crate::classify::without_hidden(segments)
            };
        let (point, threshold) = self.cut_of(model, input);
        let page = PageContext {
            model,
            input,
            threshold,
            page_cut: point == OperatingPoint::PageF,
            comments: self.comments,
            keep_repeats: self.keep_repeats,
            page_type,
        };
        let mut decided = self.decider.decide(&page, segments, cancel)?;
        if html {
            crate::cleaned::assign_roles(&mut decided.segments, page_type.as_ref());
            crate::cleaned::apply_roles(&mut decided.segments, self.roles);
        }
        Ok((decided, page_type, point))
    }
}

/// The segments of a decoded document, and the input kind it was read as.
pub fn segments_of(text: &str, input: InputKind) -> (InputKind, Vec<Segment>) {
    let (input, segments, _) = read_document(text, input);
    (input, segments)
}

/// The segments of a decoded document, the input kind it was read as, and
/// the page's metadata (HTML input only).
pub fn read_document(
    text: &str,
    input: InputKind,
) -> (InputKind, Vec<Segment>, Option<html::Metadata>) {
    read_document_with(text, input, html::Marks::default())
}

/// [`read_document`], recording the inline marks asked for ([`html::inline`]).
pub fn read_document_with(
    text: &str,
    input: InputKind,
    marks: html::Marks,
) -> (InputKind, Vec<Segment>, Option<html::Metadata>) {
    let read = read_document_limited(text, input, marks);
    (read.input, read.segments, read.metadata)
}

/// A document as [`read_document_limited`] reads it.
#[derive(Debug)]
pub struct ReadDocument {
    /// How it was read (never `Auto`).
    pub input: InputKind,
    /// Its segments, in document order.
    pub segments: Vec<Segment>,
    /// Its metadata (HTML input only).
    pub metadata: Option<html::Metadata>,
    /// The limit that stopped the reading before the document's end
    /// ([`html::MAX_BLOCKS`], [`html::MAX_ELEMENTS`]), if one did.
    pub truncated: Option<html::Limit>,
    /// What its tag stream says about the kind of page (HTML input only).
    pub signals: Option<html::Signals>,
}

/// [`read_document_with`], saying whether a limit of the pass stopped it
/// before the document's end: what bounds one document's working memory.
pub fn read_document_limited(text: &str, input: InputKind, marks: html::Marks) -> ReadDocument {
    let input = match input {
        InputKind::Auto if looks_like_html(text) => InputKind::Html,
        InputKind::Auto => InputKind::Text,
        k => k,
    };
    match input {
        InputKind::Text => {
            let (segments, truncated) = segment::from_text_limited(text);
            ReadDocument {
                input,
                segments,
                metadata: None,
                truncated: truncated.then_some(html::Limit::Blocks),
                signals: None,
            }
        }
        _ => {
            let mut page = html::parse_with(text, marks);
            let metadata = std::mem::take(&mut page.metadata);
            let truncated = page.truncated;
            let signals = std::mem::take(&mut page.signals);
            ReadDocument {
                input,
                segments: segment::from_page(page),
                metadata: Some(metadata),
                truncated,
                signals: Some(signals),
            }
        }
    }
}

/// A canonical URL as an absolute URL: kept when it is one, a path
/// (`/a/b`) joined to the scheme and host of the page's URL, a
/// scheme-relative URL (`//host/a`) given the page's scheme, else `None`.
fn absolute_url(url: &str, page: Option<&str>) -> Option<String> {
    if url.starts_with("http://") || url.starts_with("https://") {
        return Some(url.to_string());
    }
    if !url.starts_with('/') {
        return None;
    }
    let page = page?;
    if url.starts_with("//") {
        let scheme = page.split_once("://")?.0;
        return (scheme == "http" || scheme == "https").then(|| format!("{scheme}:{url}"));
    }
    let scheme_end = page.find("://")? + 3;
    let host_end = page[scheme_end..]
        .find(['/', '?', '#'])
        .map_or(page.len(), |i| scheme_end + i);
    (host_end > scheme_end).then(|| format!("{}{url}", &page[..host_end]))
}

#[cfg(test)]
mod tests;
