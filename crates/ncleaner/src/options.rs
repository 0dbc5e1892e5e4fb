//! [`CleanOptions`]: every option of cleaning, in one type that every front
//! end builds (the command line's `clean`, the web API, Python's `Cleaner`
//! and `extract`, the datatrove step), so that an option means the same
//! thing, has the same default and is checked the same way wherever it is
//! given. [`Cleaner::new`] makes the cleaner they describe.
//!
//! The names are one set: a field's name is Python's keyword and the web
//! API's field (`min_probability`), the command line spells it with dashes
//! (`--min-probability`; `route: false` is `--no-route`), and each value is
//! read by its type's `FromStr` ([`CleanOptions::set`]: query strings,
//! Python's keywords) or by serde (JSON). [`CleanOptions::validate`] is the
//! one check; [`OptionError`] names the option that fails it.
//!
//! What is not about cleaning one page stays with the front end that has
//! it: output formats, `--segments`, the site memory (it reads the inputs
//! twice), threads (whose one bound, [`clamp_threads`], every front end
//! that starts them applies: `-j`, `serve --workers`, Python's
//! `clean_many(threads=N)`).

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::classify::{Comments, Method, Preference};
use crate::cleaned::Roles;
use crate::cleaned::{Cleaned, InputKind};
use crate::error::{Error, OptionError, Result};
use crate::lm::{Smoothing, WordLm};
use crate::model::Model;
use crate::perplexity::{DEFAULT_MAX_PERPLEXITY, SentenceFilter};
use crate::pipeline::{Cleaner, DEFAULT_FALLBACK, DEFAULT_MODELS, Routes};

/// Worker threads per core a front end may start ([`clamp_threads`]).
pub const MAX_THREADS_PER_CORE: usize = 4;

/// A number of worker threads (`-j`, `threads=`) lowered to
/// [`MAX_THREADS_PER_CORE`] per core, with a note saying so when it is:
/// cleaning is CPU-bound, so more buys nothing, and a pool creates its
/// threads when it starts (10,000 took a minute before the first page was
/// read; `threads=10**9` ran the process out of threads). Zero is an error.
pub fn clamp_threads(n: usize) -> std::result::Result<(usize, Option<String>), String> {
    if n == 0 {
        return Err("must be at least 1".into());
    }
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
    let max = cores.saturating_mul(MAX_THREADS_PER_CORE);
    Ok(match n > max {
        true => (
            max,
            Some(format!(
                "{n} is more than {MAX_THREADS_PER_CORE} threads per core on {cores} core(s); using {max}"
            )),
        ),
        false => (n, None),
    })
}

/// The word model of `--method perplexity` by default (embedded).
pub const DEFAULT_WORD_MODEL: &str = "en-ppl";

/// Every option of cleaning; see the module documentation. The defaults
/// ([`Default`]) are `ncleaner clean`'s: English pages to the embedded
/// `en` model, Chinese, Russian, Polish and Greek ones to `multi`, all
/// others to `en-nonlex`; the input's kind decided per
/// document; each page cut at its own expected-F point.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[non_exhaustive]
pub struct CleanOptions {
    /// The models (`en`, `multi`, `en-nonlex` or model files). With routing, each
    /// page goes to the model of its language (a model's language is the
    /// tag it was trained with) and the others to `fallback_model`; one
    /// model without a tag cleans every page. Empty: [`DEFAULT_MODELS`]
    /// (`en`, `multi`). JSON takes a name or a list of names.
    #[serde(
        deserialize_with = "one_or_many",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub model: Vec<String>,
    /// The model of pages whose language has no model among `model`, or
    /// is not identified ([`DEFAULT_FALLBACK`], `en-nonlex`).
    pub fallback_model: String,
    /// Route each page by its language (the default). `false`: one model
    /// (`model`, default `en`) cleans every page, and no language is
    /// identified (`--no-route`).
    pub route: bool,
    /// How documents are read when their source does not say: `html`,
    /// `text` (a text dump) or `auto` (the default: by looking at them).
    #[serde(deserialize_with = "by_name")]
    pub input: InputKind,
    /// What decides: `ncleaner` (the default), `heuristics`, `keep-all` or
    /// `perplexity`.
    #[serde(deserialize_with = "by_name")]
    pub method: Method,
    /// The decision threshold in bits of log-odds; `None`: the model's
    /// operating point (`prefer`). Finite.
    pub threshold: Option<f64>,
    /// The least probability of being clean a kept segment has (strictly
    /// between 0 and 1): the threshold log2(p / (1 − p)). Not with `threshold`.
    pub min_probability: Option<f64>,
    /// The stored operating point without a threshold: `f` (the default:
    /// each page cut at its expected-F point), `precision` or `recall`.
    #[serde(deserialize_with = "by_name")]
    pub prefer: Preference,
    /// User comments: `keep` (the model decides; the default) or `drop`.
    #[serde(deserialize_with = "by_name")]
    pub comments: Comments,
    /// Which roles of the kept segments the text carries: `content` (the
    /// default: no comments, no page furniture), `all` (every kept segment)
    /// or `body` (the article's body alone); [`Roles`].
    #[serde(deserialize_with = "by_name")]
    pub roles: Roles,
    /// Keep a segment of 3+ words that repeats one kept earlier on the page.
    pub keep_repeats: bool,
    /// Markdown keeps links as `[text](url)`.
    pub links: bool,
    /// Markdown keeps images as `![alt](url)`.
    pub images: bool,
    /// Drop whole pages whose predicted precision is below this (0–1;
    /// `method` `ncleaner`, a model with a page-quality model).
    pub min_page_quality: Option<f64>,
    /// `method` `perplexity`: the perplexity above which a sentence is
    /// dropped (default [`DEFAULT_MAX_PERPLEXITY`]). Positive, finite.
    pub max_perplexity: Option<f64>,
    /// `method` `perplexity`: keep every sentence and wrap those above the
    /// cut-off in `<del>…</del>`.
    pub mark: bool,
    /// `method` `perplexity`: the word model (`en-ppl`, embedded, or a file).
    pub word_model: String,
    /// `method` `perplexity`: how the word model scores (`kneser-ney`, the
    /// default, or `pyplexity`).
    #[serde(deserialize_with = "by_name")]
    pub smoothing: Smoothing,
}

impl Default for CleanOptions {
    fn default() -> Self {
        CleanOptions {
            model: Vec::new(),
            fallback_model: DEFAULT_FALLBACK.to_string(),
            route: true,
            input: InputKind::Auto,
            method: Method::NCleaner,
            threshold: None,
            min_probability: None,
            prefer: Preference::F,
            comments: Comments::Keep,
            roles: Roles::Content,
            keep_repeats: false,
            links: false,
            images: false,
            min_page_quality: None,
            max_perplexity: None,
            mark: false,
            word_model: DEFAULT_WORD_MODEL.to_string(),
            smoothing: Smoothing::Backoff,
        }
    }
}

/// A choice read by its type's `FromStr`, as [`CleanOptions::set`] reads
/// it (so JSON and query strings take the same names, with the same
/// messages; `keep_all` is taken for `keep-all`).
fn by_name<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: std::str::FromStr<Err = String>,
{
    let s = String::deserialize(d)?;
    s.replace('_', "-")
        .parse()
        .map_err(serde::de::Error::custom)
}

/// A name, or a list of names, or nothing.
fn one_or_many<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany {
        One(String),
        Many(Vec<String>),
    }
    Ok(match Option::<OneOrMany>::deserialize(d)? {
        None => Vec::new(),
        Some(OneOrMany::One(s)) => vec![s],
        Some(OneOrMany::Many(v)) => v,
    })
}

/// A value given for an option where its type is not known beforehand (a
/// Python keyword's value, a query parameter), for [`CleanOptions::set`].
#[derive(Debug, Clone, PartialEq)]
pub enum OptionValue {
    /// Nothing (Python's `None`): the option's default.
    Null,
    /// A truth value.
    Bool(bool),
    /// A number (an integer is given as its `f64`).
    Number(f64),
    /// Text, read by the option's type (`"1.5"` for a number, `"true"` for
    /// a truth value, a name for a choice).
    Str(String),
    /// Several names (`model`).
    List(Vec<String>),
}

impl std::fmt::Display for OptionValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OptionValue::Null => f.write_str("None"),
            OptionValue::Bool(b) => write!(f, "{b}"),
            OptionValue::Number(x) => write!(f, "{x}"),
            OptionValue::Str(s) => write!(f, "{s:?}"),
            OptionValue::List(v) => write!(f, "{v:?}"),
        }
    }
}

impl OptionValue {
    fn number(self, option: &'static str) -> Result<Option<f64>, OptionError> {
        match self {
            OptionValue::Null => Ok(None),
            OptionValue::Number(x) => Ok(Some(x)),
            OptionValue::Str(s) => s
                .trim()
                .parse()
                .map(Some)
                .map_err(|_| OptionError::new(option, format!("{s:?} is not a number"))),
            other => Err(OptionError::new(option, format!("{other} is not a number"))),
        }
    }

    fn truth(self, option: &'static str) -> Result<Option<bool>, OptionError> {
        match self {
            OptionValue::Null => Ok(None),
            OptionValue::Bool(b) => Ok(Some(b)),
            OptionValue::Str(s) => match s.as_str() {
                "true" | "1" => Ok(Some(true)),
                "false" | "0" => Ok(Some(false)),
                _ => Err(OptionError::new(
                    option,
                    format!("{s:?}: give true or false"),
                )),
            },
            other => Err(OptionError::new(
                option,
                format!("{other}: give true or false"),
            )),
        }
    }

    fn text(self, option: &'static str) -> Result<Option<String>, OptionError> {
        match self {
            OptionValue::Null => Ok(None),
            OptionValue::Str(s) => Ok(Some(s)),
            other => Err(OptionError::new(option, format!("{other} is not a name"))),
        }
    }

    /// A name read by `T`'s `FromStr` (`keep_all` is taken for
    /// `keep-all`, as Python spells names).
    fn choice<T: std::str::FromStr<Err = String>>(
        self,
        option: &'static str,
    ) -> Result<Option<T>, OptionError> {
        self.text(option)?
            .map(|s| {
                s.replace('_', "-")
                    .parse()
                    .map_err(|e| OptionError::new(option, e))
            })
            .transpose()
    }
}

impl CleanOptions {
    /// The option names, in the order of the fields.
    pub const NAMES: [&'static str; 18] = [
        "model",
        "fallback_model",
        "route",
        "input",
        "method",
        "threshold",
        "min_probability",
        "prefer",
        "comments",
        "roles",
        "keep_repeats",
        "links",
        "images",
        "min_page_quality",
        "max_perplexity",
        "mark",
        "word_model",
        "smoothing",
    ];

    /// Sets the option named `name` (a name of [`CleanOptions::NAMES`]) to
    /// `value`, read by the option's type; [`OptionValue::Null`] sets its
    /// default. Nothing is checked beyond the value's type here:
    /// [`CleanOptions::validate`] checks the options together.
    pub fn set(&mut self, name: &str, value: OptionValue) -> Result<(), OptionError> {
        let d = CleanOptions::default();
        let Some(&option) = CleanOptions::NAMES.iter().find(|n| **n == name) else {
            return Err(OptionError::new(
                "options",
                format!(
                    "unknown option {name:?}; the options are {}",
                    CleanOptions::NAMES.join(", ")
                ),
            ));
        };
        match option {
            "model" => {
                self.model = match value {
                    OptionValue::Null => Vec::new(),
                    OptionValue::Str(s) => vec![s],
                    OptionValue::List(v) => v,
                    other => {
                        return Err(OptionError::new(
                            option,
                            format!("{other}: give a model's name or path, or a list of them"),
                        ));
                    }
                }
            }
            "fallback_model" => {
                self.fallback_model = value.text(option)?.unwrap_or(d.fallback_model)
            }
            "route" => self.route = value.truth(option)?.unwrap_or(d.route),
            "input" => self.input = value.choice(option)?.unwrap_or(d.input),
            "method" => self.method = value.choice(option)?.unwrap_or(d.method),
            "threshold" => self.threshold = value.number(option)?,
            "min_probability" => self.min_probability = value.number(option)?,
            "prefer" => self.prefer = value.choice(option)?.unwrap_or(d.prefer),
            "comments" => self.comments = value.choice(option)?.unwrap_or(d.comments),
            "roles" => self.roles = value.choice(option)?.unwrap_or(d.roles),
            "keep_repeats" => self.keep_repeats = value.truth(option)?.unwrap_or(d.keep_repeats),
            "links" => self.links = value.truth(option)?.unwrap_or(d.links),
            "images" => self.images = value.truth(option)?.unwrap_or(d.images),
            "min_page_quality" => self.min_page_quality = value.number(option)?,
            "max_perplexity" => self.max_perplexity = value.number(option)?,
            "mark" => self.mark = value.truth(option)?.unwrap_or(d.mark),
            "word_model" => self.word_model = value.text(option)?.unwrap_or(d.word_model),
            "smoothing" => self.smoothing = value.choice(option)?.unwrap_or(d.smoothing),
            _ => unreachable!("every name of NAMES is set above"),
        }
        Ok(())
    }

    /// Checks the options, alone and together: numbers finite and in
    /// range, names not empty, and no option given that the others make
    /// meaningless (a threshold with a method that has no scores, one
    /// model without routing, …).
    pub fn validate(&self) -> Result<(), OptionError> {
        let err = |option, message: String| Err(OptionError::new(option, message));
        let ncleaner = self.method == Method::NCleaner;
        if let Some(t) = self.threshold {
            if !t.is_finite() {
                return err("threshold", format!("{t} is not a finite number"));
            }
            if self.min_probability.is_some() {
                return Err(OptionError::new("threshold", "give ")
                    .and_option("threshold")
                    .and_text(" or ")
                    .and_option("min_probability")
                    .and_text(", not both"));
            }
            if !ncleaner {
                return Err(OptionError::new("threshold", "")
                    .and_option("method")
                    .and_text(&format!(
                        " {} has no scores to compare with a threshold",
                        self.method.as_str()
                    )));
            }
        }
        if let Some(p) = self.min_probability {
            if !(p > 0.0 && p < 1.0) {
                return err(
                    "min_probability",
                    format!("{p} is not a probability strictly between 0 and 1"),
                );
            }
            if !ncleaner {
                return Err(OptionError::new("min_probability", "")
                    .and_option("method")
                    .and_text(&format!(" {} has no probabilities", self.method.as_str())));
            }
        }
        if let Some(q) = self.min_page_quality {
            if !(0.0..=1.0).contains(&q) {
                return err("min_page_quality", format!("{q} is not between 0 and 1"));
            }
            if !ncleaner {
                return Err(OptionError::new("min_page_quality", "needs ")
                    .and_option("method")
                    .and_text(
                        " ncleaner (the page quality is predicted from the model's decisions)",
                    ));
            }
        }
        let perplexity = self.method == Method::Perplexity;
        if let Some(m) = self.max_perplexity {
            if !(m.is_finite() && m > 0.0) {
                return err("max_perplexity", format!("{m} is not a positive number"));
            }
            if !perplexity {
                return Err(OptionError::new("max_perplexity", "needs ")
                    .and_option("method")
                    .and_text(" perplexity"));
            }
        }
        if self.mark && !perplexity {
            return Err(OptionError::new("mark", "needs ")
                .and_option("method")
                .and_text(" perplexity"));
        }
        if let Some(name) = self.model.iter().find(|m| m.trim().is_empty()) {
            return err("model", format!("{name:?} names no model"));
        }
        if self.fallback_model.trim().is_empty() {
            return err("fallback_model", "names no model".into());
        }
        if self.word_model.trim().is_empty() {
            return err("word_model", "names no word model".into());
        }
        if !self.route {
            if self.model.len() > 1 {
                return err(
                    "model",
                    format!(
                        "without routing one model cleans every page ({} given)",
                        self.model.len()
                    ),
                );
            }
            if self.fallback_model != DEFAULT_FALLBACK {
                return err(
                    "fallback_model",
                    "without routing there is no fallback model".into(),
                );
            }
        }
        Ok(())
    }

    /// The cleaner these options describe, its models opened by name
    /// ([`crate::model::Model::open`]: embedded or files); see [`Cleaner::new`].
    /// Embedded models routed to beside others are opened when a page of
    /// their language first comes ([`Routes::from_names`]).
    pub fn cleaner(&self) -> Result<Cleaner> {
        self.build(&OpenModels, true)
    }

    /// The cleaner these options describe, with the models `models` gives
    /// for their names (a server's loaded models, a process's cache).
    /// Fails with [`Error::Option`] on options that do not validate or
    /// name models that cannot be had.
    pub fn cleaner_with(&self, models: &dyn Models) -> Result<Cleaner> {
        self.build(models, false)
    }

    /// [`CleanOptions::cleaner_with`]; `late`: the routes' embedded models
    /// are opened when first needed, not taken from `models` now.
    fn build(&self, models: &dyn Models, late: bool) -> Result<Cleaner> {
        self.validate()?;
        let opening = |option: &'static str| {
            move |e: Error| match e {
                Error::Option(e) => Error::Option(e),
                e => Error::Option(OptionError::new(option, e.to_string())),
            }
        };
        let mut cleaner = if self.route {
            let routes = if late {
                Routes::from_names(&self.model, &self.fallback_model)
            } else {
                Routes::from_names_with(&self.model, &self.fallback_model, &|name| {
                    models.model(name)
                })
            }
            .map_err(opening("model"))?;
            Cleaner::routed(routes)
        } else {
            let name = self.model.first().map_or(DEFAULT_MODELS[0], String::as_str);
            Cleaner::from_shared(models.model(name).map_err(opening("model"))?)
        };
        cleaner = cleaner
            .with_method(self.method)
            .with_preference(self.prefer)
            .with_comments(self.comments)
            .with_roles(self.roles)
            .with_repeats(self.keep_repeats)
            .with_marks(crate::html::Marks {
                links: self.links,
                images: self.images,
            })
            .with_threshold_option(
                self.threshold
                    .or(self.min_probability.map(crate::classify::log2_odds)),
            );
        if let Some(p) = self.min_page_quality {
            cleaner = cleaner
                .with_min_page_quality(p)
                .map_err(opening("min_page_quality"))?;
        }
        if self.method == Method::Perplexity {
            let lm = models
                .word_model(&self.word_model)
                .map_err(opening("word_model"))?;
            let filter = SentenceFilter::new(lm)
                .with_max_perplexity(self.max_perplexity.unwrap_or(DEFAULT_MAX_PERPLEXITY))
                .map_err(opening("max_perplexity"))?
                .with_smoothing(self.smoothing)
                .map_err(opening("smoothing"))?
                .with_mark(self.mark);
            cleaner = cleaner.with_perplexity(filter);
        }
        Ok(cleaner)
    }
}

/// Where a cleaner's models come from, by name.
pub trait Models: Sync {
    /// The model named `name` (`en`, `en-nonlex`, a path).
    fn model(&self, name: &str) -> Result<Arc<Model>>;
    /// The word model named `name` (`en-ppl`, a path).
    fn word_model(&self, name: &str) -> Result<Arc<WordLm>>;
}

/// Opens models as the command line does: the embedded ones by name,
/// others as files ([`crate::model::Model::open`], [`crate::lm::WordLm::open`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct OpenModels;

impl Models for OpenModels {
    fn model(&self, name: &str) -> Result<Arc<Model>> {
        crate::model::Model::open(name).map(Arc::new)
    }

    fn word_model(&self, name: &str) -> Result<Arc<WordLm>> {
        crate::lm::WordLm::open(name).map(Arc::new)
    }
}

impl Cleaner {
    /// The cleaner that `options` describe, as every front end makes it:
    /// `ncleaner clean`, the web API, Python and datatrove. With the
    /// default options, English pages go to the embedded `en` model,
    /// Chinese, Russian, Polish and Greek ones to `multi`, all others to
    /// `en-nonlex`, and each page is cut at its own
    /// expected-F point.
    ///
    /// ```
    /// use ncleaner::{CleanOptions, Cleaner, InputKind};
    /// let cleaner = Cleaner::new(CleanOptions::default()).unwrap();
    /// let page = b"<p>The basics of portrait photography could fill many large books, but a few \
    ///     rules of thumb will take a beginner a long way: keep the light soft, focus on the eyes, \
    ///     and let the background fall away. Window light on an overcast day is the cheapest \
    ///     softbox there is, and it flatters almost every face.</p>";
    /// let cleaned = cleaner.clean(page, InputKind::Auto, None);
    /// assert_eq!(cleaned.language.as_deref(), Some("en"));
    /// assert_eq!(cleaned.model.as_deref(), Some("en"));
    ///
    /// // `CleanOptions` is `#[non_exhaustive]`: start from the defaults.
    /// let mut nan = CleanOptions::default();
    /// nan.threshold = Some(f64::NAN);
    /// assert_eq!(Cleaner::new(nan).unwrap_err().to_string(), "threshold: NaN is not a finite number");
    /// ```
    pub fn new(options: CleanOptions) -> Result<Cleaner> {
        options.cleaner()
    }
}

/// Cleans one HTML page with the default options ([`CleanOptions`]; the
/// models are opened once per process, on the first call): the one-line
/// case.
///
/// ```
/// let cleaned = ncleaner::clean_html("<html><body><nav><a href=/>Home</a></nav>\
///     <p>The basics of portrait photography could fill many large books, but a few rules \
///     of thumb will take a beginner a long way: keep the light soft.</p></body></html>");
/// assert!(cleaned.text().contains("portrait photography"));
/// ```
pub fn clean_html(html: &str) -> Cleaned {
    static DEFAULT: std::sync::OnceLock<Cleaner> = std::sync::OnceLock::new();
    let cleaner = DEFAULT
        .get_or_init(|| Cleaner::new(CleanOptions::default()).expect("the embedded models open"));
    cleaner.clean_with_charset(html.as_bytes(), InputKind::Html, None, Some("utf-8"))
}

#[cfg(test)]
mod tests;
