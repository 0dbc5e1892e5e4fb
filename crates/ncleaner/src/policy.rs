//! The back end in one type: a [`Policy`] reads a frozen [`Page`] and
//! returns one decision per segment (keep or drop, the segment's role, and
//! the reason: the rule that decided).
//!
//! A policy decides a page in three steps, always in this order:
//!
//! 1. **The method** ([`Method`], `--method`) gives every segment its
//!    first decision and the evidence behind it ([`method`]): the n-gram
//!    score or the classifier's probability against the cut (`ncleaner`),
//!    every segment kept (`heuristics`, `keep-all`, whose rules follow),
//!    or the sentences a word model keeps (`perplexity`). The cut, the
//!    threshold a score is compared with, is resolved in one place,
//!    [`Policy::cut`].
//! 2. **The roles** ([`Role`]): every segment of an HTML page gets the role
//!    the one pass and the page's type say it has.
//! 3. **The rules**, one ordered list ([`RULES`]): each rule is a type with
//!    its name, the decision it sets and its reason as data
//!    ([`Rule::name`], [`Rule::keeps`], [`Rule::reason`]), whether it
//!    applies to a page ([`Rule::applies`]), and a body that only selects
//!    the segments it decides ([`Rule::select`]). The policy's loop writes
//!    the decisions, with the rule's reason: no rule writes one itself.
//!
//! Adding a rule is one type implementing [`Rule`] and one line in
//! [`RULES`]; the test `a_rule_added_to_a_list_writes_its_reason` adds one
//! to a list of its own.
//!
//! The page's predicted quality ([`crate::quality`]) is the one fact of the
//! page that depends on the decisions: it is predicted from the decisions
//! the rules before the page-quality rule left ([`Context::quality`]), and
//! reported with the decisions ([`Decisions::quality`]).

use std::cell::OnceCell;
use std::sync::Arc;

use crate::cancel::{Cancel, Cancelled};
use crate::classify::{Comments, Decision, DroppedComments, Method, Preference, Reason};
use crate::cleaned::{Decisions, OperatingPoint, PageQuality, Roles, Verdict};
use crate::model::Model;
use crate::page::Page;
use crate::perplexity::SentenceFilter;
use crate::segment::Segment;

#[cfg(doc)]
use crate::cleaned::Role;

pub mod method;
pub mod rules;

pub use rules::RULES;

/// How a page's segments are decided: the method, its cut, and the
/// settings the rules read. One per cleaner; cheap to clone.
#[derive(Debug, Clone)]
pub struct Policy {
    /// The method that gives each segment its first decision.
    pub(crate) method: Method,
    /// The sentence filter of [`Method::Perplexity`]; `None`: the embedded
    /// `en-ppl` model at the default cut-off.
    pub(crate) filter: Option<Arc<SentenceFilter>>,
    /// `None`: the model's own operating point (0 for models without a classifier).
    pub(crate) threshold: Option<f64>,
    /// Which stored operating point applies when `threshold` is `None`.
    pub(crate) preference: Preference,
    /// Pages whose predicted precision is below this are dropped whole.
    pub(crate) min_page_quality: Option<f64>,
    /// Whether user comments are dropped whatever the model says.
    pub(crate) comments: Comments,
    /// Whether a kept segment that repeats one kept before it is kept
    /// again ([`rules::REPEAT_MIN_WORDS`]).
    pub(crate) keep_repeats: bool,
    /// Which roles of the kept segments the text carries ([`Roles`]).
    pub(crate) roles: Roles,
}

impl Default for Policy {
    /// NCleaner's method at the model's own operating point, comments and
    /// repeats as the model decides them, every role carried
    /// ([`Roles::All`]: the decisions themselves, which training measures).
    fn default() -> Policy {
        Policy {
            method: Method::NCleaner,
            filter: None,
            threshold: None,
            preference: Preference::default(),
            min_page_quality: None,
            comments: Comments::Keep,
            keep_repeats: false,
            roles: Roles::All,
        }
    }
}

/// What a rule reads: the page, the model of its route, the policy's
/// settings, and the page's predicted quality when a rule asks for it.
pub struct Context<'a> {
    /// The page.
    pub page: &'a Page,
    /// The model of the page's route.
    pub model: &'a Model,
    /// The policy deciding it.
    pub policy: &'a Policy,
    /// The comments this page drops: as asked, on a page of its predicted
    /// type ([`DroppedComments::of`]).
    pub comments: DroppedComments,
    /// The threshold of the model's default operating point on this page
    /// (`--prefer f`, no threshold set), whatever the policy's is; `None`
    /// when no score decided.
    pub default_threshold: Option<f64>,
    quality: OnceCell<Option<PageQuality>>,
}

impl Context<'_> {
    /// The page's predicted quality given `verdicts` (predicted once: the
    /// first rule that asks fixes it for the page).
    pub fn quality(&self, verdicts: &[Verdict]) -> Option<PageQuality> {
        *self
            .quality
            .get_or_init(|| self.policy.predict_quality(self.page, self.model, verdicts))
    }
}

/// A rule of the policy: one override of the decisions, in [`RULES`].
///
/// Its name, the decision it sets and the reason it gives are data: the
/// policy's loop writes `Decision { keep: self.keeps(), reason:
/// self.reason(segment) }` on each segment the body selects.
pub trait Rule: Sync {
    /// The rule's name (ARCHITECTURE.md's list, the tests).
    fn name(&self) -> &'static str;
    /// The decision the rule sets: keep (`true`) or drop (`false`).
    fn keeps(&self) -> bool;
    /// The reason written with each decision it sets. A constant, but for
    /// the paper's heuristics, whose reason names the heuristic that the
    /// segment matched.
    fn reason(&self, segment: &Segment) -> Reason;
    /// Whether the rule applies to this page under this policy.
    fn applies(&self, cx: &Context<'_>) -> bool;
    /// Pushes on `out` each segment (by index) whose decision the rule
    /// sets, given the decisions so far. It decides, and writes nothing.
    fn select(&self, cx: &Context<'_>, verdicts: &[Verdict], out: &mut Vec<usize>);
}

impl Policy {
    /// Decides every segment of `page`, read with `model` (the model of its
    /// route), with [`RULES`].
    pub fn decide(
        &self,
        page: &Page,
        model: &Model,
        cancel: &Cancel,
    ) -> Result<Decisions, Cancelled> {
        self.decide_with(&RULES, page, model, cancel)
    }

    /// [`Policy::decide`] with another list of rules.
    pub fn decide_with(
        &self,
        rules: &[&dyn Rule],
        page: &Page,
        model: &Model,
        cancel: &Cancel,
    ) -> Result<Decisions, Cancelled> {
        let method::First {
            mut verdicts,
            cut,
            default_threshold,
        } = method::decide(self, page, model, cancel)?;
        if page.is_html() {
            let roles = crate::cleaned::assign_roles(page.segments(), page.page_type());
            for (v, role) in verdicts.iter_mut().zip(roles) {
                v.role = Some(role);
            }
        }
        let cx = Context {
            page,
            model,
            policy: self,
            comments: DroppedComments::of(self.comments, page.page_type()),
            default_threshold,
            quality: OnceCell::new(),
        };
        let mut selected = Vec::new();
        for rule in rules.iter().filter(|r| r.applies(&cx)) {
            cancel.check()?;
            selected.clear();
            rule.select(&cx, &verdicts, &mut selected);
            for &i in &selected {
                verdicts[i].decision = Decision {
                    keep: rule.keeps(),
                    reason: rule.reason(&page.segments()[i]),
                };
            }
        }
        let quality = cx.quality(&verdicts);
        Ok(Decisions {
            verdicts,
            cut,
            quality,
        })
    }

    /// Where the cut of a page that `model` decides comes from, and the
    /// threshold in force: the one place that reads the policy's
    /// threshold and preference against the model's classifier. The
    /// caller's threshold wins ([`OperatingPoint::Threshold`]); else the
    /// preferred point, whose threshold the model stores (0, the paper's
    /// rule, for a model without a classifier for this input); at the
    /// default point ([`Preference::F`]) a calibrated classifier cuts each
    /// page at its own expected-F point instead
    /// ([`OperatingPoint::PageF`], [`crate::classify::expected_f_cut`]).
    pub fn cut(&self, model: &Model, html: bool) -> (OperatingPoint, f64) {
        if let Some(t) = self.threshold {
            return (OperatingPoint::Threshold, t);
        }
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

    /// Whether the method reads the model's scores: only then do the
    /// model's page type, site features and page quality apply.
    pub fn uses_model(&self) -> bool {
        self.method.uses_model()
    }

    /// The page's predicted quality with `model` given `verdicts`: `None`
    /// for a method that does not read the model, or a model without a
    /// page-quality model for the page's input.
    fn predict_quality(
        &self,
        page: &Page,
        model: &Model,
        verdicts: &[Verdict],
    ) -> Option<PageQuality> {
        if !self.uses_model() {
            return None;
        }
        let q = model.quality(page.is_html())?;
        let items = page
            .segments()
            .iter()
            .zip(verdicts)
            .map(|(s, v)| crate::quality::Item {
                segment: s,
                text: v.text(s),
                words: v.words(s),
                keep: v.keep(),
                probability: v.probability,
                score: v.score,
            });
        Some(q.predict_items(items, page.segments().len(), page.had_decode_errors()))
    }
}

#[cfg(test)]
mod tests;
