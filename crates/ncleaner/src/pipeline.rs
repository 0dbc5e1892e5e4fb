//! The whole pipeline for one document: bytes in, a cleaned page out.
//!
//! [`Cleaner`] runs the stages in order: the front end reads the document
//! ([`crate::page::read`]), the cleaner picks the model of its language
//! ([`Routes`]) and freezes the page ([`Page::freeze`]); the back end, one
//! [`Policy`], decides every segment; [`Cleaned::assemble`] puts page and
//! decisions together. Nothing goes back: no stage changes what an earlier
//! one made.

use std::sync::Arc;

use crate::cancel::{Cancel, Cancelled, NEVER};
use crate::classify::page::PageFeatures;
use crate::classify::{self, Method, Preference};
use crate::cleaned::{Cleaned, InputKind, Roles, ScoredSegment};
use crate::decode::{self, Document};
use crate::html;
use crate::model::Model;
use crate::page::{Origin, Page, Reader};
use crate::perplexity::SentenceFilter;
use crate::policy::Policy;
use crate::segment::Segment;

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
    by_language: Vec<(String, Arc<Slot>)>,
    fallback: Route,
}

/// A language's route: a model given opened ([`Routes::add`]), or an
/// embedded model opened when a page first needs it ([`Routes::from_names`]
/// among several names). A run of pages in one language then holds one
/// model, not every route's: on WCXB's development pages (1,432 routed to
/// `en`, 42 to the fallback, none to `multi`) the default routes' peak
/// memory falls by the size of `multi`.
#[derive(Debug)]
struct Slot {
    name: Arc<str>,
    route: std::sync::OnceLock<Route>,
}

impl Slot {
    /// The route, its model opened if it was not yet. Only embedded models
    /// are opened late, and each opens: the build's tests load every one
    /// (`embedded_models_load`).
    fn route(&self) -> &Route {
        self.route.get_or_init(|| {
            Route::open(&self.name).unwrap_or_else(|e| panic!("embedded model {}: {e}", self.name))
        })
    }
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
    ///
    /// Several names of embedded models (the default, `en` and `multi`) are
    /// not opened here: their headers give their languages, and each model
    /// is opened when a page of its language first comes ([`Slot`]).
    pub fn from_names<S: AsRef<str> + Sync>(
        models: &[S],
        fallback: &str,
    ) -> crate::error::Result<Routes> {
        let names = route_names(models);
        if names.len() > 1 {
            let metas: Option<Vec<_>> = names
                .iter()
                .map(|n| crate::model::embedded_meta(n))
                .collect();
            if let Some(metas) = metas {
                let mut by_language = Vec::new();
                for (name, meta) in names.iter().zip(metas) {
                    let slot = Slot {
                        name: (*name).into(),
                        route: std::sync::OnceLock::new(),
                    };
                    add_slot(&mut by_language, &meta?, slot)?;
                }
                return Ok(Routes {
                    by_language,
                    fallback: Route::open(fallback)?,
                });
            }
        }
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
        let names = route_names(models);
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
        let meta = route.model.meta.clone();
        let slot = Slot {
            name: route.name.clone(),
            route: std::sync::OnceLock::from(route),
        };
        add_slot(&mut self.by_language, &meta, slot)
    }

    /// The model for pages of a language (`None`: not identified).
    pub fn pick(&self, language: Option<&str>) -> &Route {
        language
            .and_then(|l| self.by_language.iter().find(|(t, _)| t == l))
            .map_or(&self.fallback, |(_, slot)| slot.route())
    }

    /// The fallback model.
    pub fn fallback(&self) -> &Route {
        &self.fallback
    }
}

/// The names of the models to route to: `models`, or the default ones
/// ([`DEFAULT_MODELS`]) when none is named.
fn route_names<S: AsRef<str>>(models: &[S]) -> Vec<&str> {
    if models.is_empty() {
        DEFAULT_MODELS.to_vec()
    } else {
        models.iter().map(AsRef::as_ref).collect()
    }
}

/// Adds the route of `slot`, a model of metadata `meta`, for each language
/// of its tag ([`Routes::add`]). Errors when the model has no tag or
/// another model already has one of its languages.
fn add_slot(
    by_language: &mut Vec<(String, Arc<Slot>)>,
    meta: &crate::model::ModelMeta,
    slot: Slot,
) -> crate::error::Result<()> {
    let tags: Vec<String> = meta
        .languages()
        .filter_map(crate::lang::normalise_tag)
        .collect();
    if tags.is_empty() {
        return Err(crate::error::Error::Parameter(format!(
            "model {} has no language tag (train it with --language TAG), so it cannot be \
             routed to; use it alone or as the fallback model",
            slot.name
        )));
    }
    for tag in &tags {
        if let Some((_, other)) = by_language.iter().find(|(t, _)| t == tag) {
            return Err(crate::error::Error::Parameter(format!(
                "models {} and {} are both for language {tag}",
                other.name, slot.name
            )));
        }
    }
    let slot = Arc::new(slot);
    for tag in tags {
        by_language.push((tag, slot.clone()));
    }
    Ok(())
}

/// A configured cleaner: a model (or language routes) and a [`Policy`].
/// Cheap to clone and safe to share between threads.
#[derive(Debug, Clone)]
pub struct Cleaner {
    model: Arc<Model>,
    /// Language routing; `None`: `model` cleans every page and no language is identified.
    routes: Option<Arc<Routes>>,
    /// What the cleaner knows of the pages' sites ([`crate::site`]).
    site: Option<Arc<crate::site::SiteMemory>>,
    /// The inline marks the HTML pass records for Markdown ([`html::inline`]).
    marks: html::Marks,
    /// How each page's segments are decided.
    policy: Policy,
    /// Whether each page's metadata is completed from its decisions
    /// ([`Cleaner::with_completed_metadata`]).
    complete_metadata: bool,
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
            site: None,
            marks: html::Marks::default(),
            policy: Policy::default(),
            complete_metadata: true,
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
        self.policy.uses_model() && model.classifier.as_ref().is_some_and(|c| c.reads_site())
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
        self.policy.min_page_quality = Some(p);
        Ok(self)
    }

    /// The same cleaner filtering sentences by perplexity
    /// ([`Method::Perplexity`]) with this filter.
    pub(crate) fn with_perplexity(mut self, filter: SentenceFilter) -> Cleaner {
        self.policy.method = Method::Perplexity;
        self.policy.filter = Some(Arc::new(filter));
        self
    }

    /// The same cleaner with another method (for [`Method::Perplexity`],
    /// the embedded `en-ppl` word model at the default cut-off).
    pub fn with_method(mut self, method: Method) -> Cleaner {
        self.policy.method = method;
        self.policy.filter = None;
        self
    }

    /// The same cleaner with another decision threshold in bits of log-odds
    /// (of the n-gram models, or of the classifier's probability; see `crate::classify`).
    pub fn with_threshold(mut self, threshold: f64) -> Cleaner {
        self.policy.threshold = Some(threshold);
        self
    }

    /// The same cleaner with the model's own operating point (`None`) or a threshold.
    pub fn with_threshold_option(mut self, threshold: Option<f64>) -> Cleaner {
        self.policy.threshold = threshold;
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
        self.policy.comments = comments;
        self
    }

    /// The same cleaner keeping (`true`) or dropping (`false`, the default)
    /// the repeats of kept segments ([`crate::policy::rules::Repeats`]).
    pub(crate) fn with_repeats(mut self, keep: bool) -> Cleaner {
        self.policy.keep_repeats = keep;
        self
    }

    /// Has the text carry only the kept segments of the roles `roles`
    /// selects ([`Roles`]; HTML input).
    pub fn with_roles(mut self, roles: Roles) -> Cleaner {
        self.policy.roles = roles;
        self
    }

    /// The same cleaner recording links and/or images for Markdown output
    /// ([`html::inline`]; neither by default). They change no decision.
    pub(crate) fn with_marks(mut self, marks: html::Marks) -> Cleaner {
        self.marks = marks;
        self
    }

    /// The same cleaner completing each page's metadata from its decisions
    /// (`true`, the default: an author read from a kept byline, the dates
    /// of a dateline beside the kept text; [`Cleaned::metadata`]), or
    /// leaving it as the page's markup states it (`false`). It changes no
    /// decision and no text: no stage reads what the completion adds.
    ///
    /// Public for the outputs that print no metadata (text, Markdown,
    /// CleanEval; `ncleaner_corpus::OutputFormat::prints_metadata`), whose
    /// runs clean with `false`: the completion reads the decided segments
    /// of every page, 1.1 % of the instructions of `ncleaner clean --format
    /// text` on WCXB's dev pages, for nothing such an output writes.
    pub fn with_completed_metadata(mut self, complete: bool) -> Cleaner {
        self.complete_metadata = complete;
        self
    }

    /// The same cleaner with another stored operating point (used when no threshold is set).
    pub fn with_preference(mut self, preference: Preference) -> Cleaner {
        self.policy.preference = preference;
        self
    }

    /// The threshold in force for an input (with the fallback model, when routing).
    pub fn threshold(&self, input: InputKind) -> f64 {
        self.threshold_of(&self.model, input)
    }

    /// The threshold in force for an input when `model` decides: the one
    /// set, else the model's own operating point ([`Policy::cut`]).
    pub fn threshold_of(&self, model: &Model, input: InputKind) -> f64 {
        self.policy.cut(model, input != InputKind::Text).1
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
    /// borrowed from its bytes: read, routed, frozen, decided, assembled.
    fn clean_decoded(
        &self,
        doc: decode::Decoded<'_>,
        input: InputKind,
        cancel: &Cancel,
        admit: impl FnOnce(&[Segment]) -> bool,
    ) -> Result<Option<Cleaned>, Cancelled> {
        cancel.check()?;
        let reading = crate::page::read(&doc.text, input, self.marks);
        if !admit(&reading.segments) {
            return Ok(None);
        }
        cancel.check()?;
        let (model, language, name) = self.route(&reading.segments);
        let origin = Origin {
            url: doc.url,
            encoding: doc.encoding.name(),
            had_decode_errors: doc.had_errors,
        };
        let page = Page::freeze(reading, origin, self.reader(model, language, name.as_ref()));
        cancel.check()?;
        let decisions = self.policy.decide(&page, model, cancel)?;
        cancel.check()?;
        Ok(Some(Cleaned::assemble(
            page,
            decisions,
            self.complete_metadata,
        )))
    }

    /// How `model`'s route reads a page: its page-type classifier and the
    /// site memory when the method reads the model, the hidden blocks
    /// when the model decides them.
    fn reader<'a>(
        &'a self,
        model: &'a Model,
        language: Option<&'a str>,
        name: Option<&'a Arc<str>>,
    ) -> Reader<'a> {
        let classifier = model
            .classifier
            .as_ref()
            .filter(|_| self.policy.uses_model());
        // A route's model without a page-type classifier (`multi`) gets the
        // page's type from the fallback's: every HTML page has a type. Its
        // segment classifier, trained without the type's columns, reads
        // none; the comments and roles of the page read it.
        let page_type = classifier.and_then(|c| c.page_type.as_ref()).or_else(|| {
            let fallback = self.routes.as_ref()?.fallback().model.classifier.as_ref()?;
            fallback.page_type.as_ref().filter(|_| classifier.is_some())
        });
        Reader {
            language,
            model: name,
            page_type,
            site: self.site.as_deref().filter(|_| self.uses_sites_with(model)),
            hidden: classifier.is_some_and(|c| c.sees_hidden()),
        }
    }

    /// The model for a page's segments: the model of its language when the
    /// cleaner routes, else its one model; with the detected language and
    /// the name of the model (both `None` without routing).
    fn route(&self, segments: &[Segment]) -> (&Model, Option<&'static str>, Option<Arc<str>>) {
        match &self.routes {
            None => (&self.model, None, None),
            Some(routes) => {
                let language = crate::lang::detect_segments(segments).map(|d| d.tag);
                let route = routes.pick(language);
                (&route.model, language, Some(route.name.clone()))
            }
        }
    }

    /// Whether a cleaned page was dropped for its predicted quality.
    pub fn below_page_quality(&self, c: &Cleaned) -> bool {
        matches!((self.policy.min_page_quality, c.quality), (Some(min), Some(q)) if q.precision < min)
    }

    /// The predicted quality of a page this cleaner cleaned with its own
    /// model (`crate::quality`), if the model has a page-quality model for
    /// the page's input kind and the method is the model's.
    pub fn page_quality(&self, c: &Cleaned) -> Option<crate::quality::PageQuality> {
        if !self.policy.uses_model() {
            return None;
        }
        let html = c.input != InputKind::Text;
        self.model.quality(html).map(|q| q.predict(c))
    }

    /// Scores and decides the segments of one page (`input`: how they were
    /// read) with the cleaner's model (the fallback model when routing).
    pub fn decide(&self, segments: Vec<Segment>, input: InputKind) -> Vec<ScoredSegment> {
        self.clean_segments(segments, None, input, None).segments
    }

    internal! {
        /// Cleans a page of segments already read (the lab's pools) with the
        /// cleaner's model, its type predicted first from its features
        /// ([`PageFeatures`], HTML input) when the model has a page-type
        /// classifier.
        pub fn clean_segments(
            &self,
            segments: Vec<Segment>,
            features: Option<&PageFeatures>,
            input: InputKind,
            url: Option<String>,
        ) -> Cleaned {
            let reader = self.reader(&self.model, None, None);
            let page = Page::of_segments(
                segments,
                input,
                url,
                features,
                reader.page_type,
                reader.hidden,
            );
            let decisions = uncancelled(self.policy.decide(&page, &self.model, &NEVER));
            Cleaned::assemble(page, decisions, self.complete_metadata)
        }
    }
}

#[cfg(test)]
mod tests;
