//! The decide stage behind one small trait: how one page's segments are kept
//! or dropped.
//!
//! The four methods of `--method` are the four implementations of
//! [`Decide`]: [`ByModel`] (`ncleaner`: the n-gram scores, the classifier
//! when the model has one, the page's own cut, repeats dropped),
//! [`ByHeuristics`] (the paper's rules alone), [`KeepAll`] and
//! [`ByPerplexity`] (sentences filtered by a word model). A [`Cleaner`]
//! holds one behind an `Arc<dyn Decide>`, chosen by
//! [`Cleaner::with_method`] from a [`Method`] name, or given by
//! [`Cleaner::with_decider`], so a library user can bring a fifth without
//! the cleaner knowing it.
//!
//! What a decider needs of the cleaner's settings and of the page's route
//! comes in a [`PageContext`]; it knows no other stage.
//!
//! [`Cleaner`]: super::Cleaner
//! [`Cleaner::with_method`]: super::Cleaner::with_method
//! [`Cleaner::with_decider`]: super::Cleaner::with_decider

use std::sync::Arc;

use crate::classify::page::PagePrediction;
use crate::classify::{self, Comments, Decision, DroppedComments, Method};
use crate::lm::WordLm;
use crate::model::Model;
use crate::perplexity::SentenceFilter;
use crate::segment::Segment;

use super::{Cancel, Cancelled, InputKind, ScoredSegment};

/// What a decider knows when it decides one page.
#[derive(Clone, Copy)]
pub struct PageContext<'a> {
    /// The model of the page's route (the cleaner's one model without routing).
    pub model: &'a Model,
    /// How the page was read (never [`InputKind::Auto`]).
    pub input: InputKind,
    /// The threshold in force, in bits of log-odds: the one set, else the
    /// model's operating point ([`super::Cleaner::threshold_of`]).
    pub threshold: f64,
    /// Whether the page is cut at its own expected-F point instead
    /// ([`classify::expected_f_cut`]): the default operating point, no
    /// threshold set, and a calibrated classifier.
    pub page_cut: bool,
    /// Whether user comments are dropped whatever the decision.
    pub comments: Comments,
    /// Whether a kept segment repeating one kept before it is kept again.
    pub keep_repeats: bool,
    /// The page's predicted type (HTML input, models with a page-type
    /// classifier), which the model's segment classifier reads.
    pub page_type: Option<PagePrediction>,
}

impl PageContext<'_> {
    /// The comments this page drops: as asked, on a page of its predicted
    /// type ([`DroppedComments::of`]).
    pub fn dropped_comments(&self) -> DroppedComments {
        DroppedComments::of(self.comments, self.page_type.as_ref())
    }
}

/// What a decider hands back for one page.
#[derive(Debug, Clone, PartialEq)]
pub struct Decided {
    /// The page's segments in order, each decided.
    pub segments: Vec<ScoredSegment>,
    /// The threshold the segments' evidence was compared with (the page's
    /// own cut, or [`PageContext::threshold`]); `None` when no score decided.
    pub threshold: Option<f64>,
}

impl Decided {
    /// Segments that no threshold decided.
    pub fn without_threshold(segments: Vec<ScoredSegment>) -> Decided {
        Decided {
            segments,
            threshold: None,
        }
    }
}

/// The decide stage: keeps or drops each segment of one page.
pub trait Decide: Send + Sync + std::fmt::Debug {
    /// The method's name (`ncleaner`, `heuristics`, `keep-all`,
    /// `perplexity`, or a user decider's own).
    fn name(&self) -> &str;

    /// Whether the decisions come from the model's scores. Only then do
    /// the model's site features and page-quality prediction apply.
    fn uses_model(&self) -> bool {
        false
    }

    /// Decides the segments of one page, in order, one [`ScoredSegment`]
    /// each, and says which threshold decided them. Looks at `cancel`
    /// every [`Cancel::EVERY`] segments.
    fn decide(
        &self,
        page: &PageContext<'_>,
        segments: Vec<Segment>,
        cancel: &Cancel,
    ) -> Result<Decided, Cancelled>;
}

/// The decider of a [`Method`] name (for [`Method::Perplexity`], the
/// embedded `en-ppl` word model at the default cut-off).
pub fn of_method(method: Method) -> Arc<dyn Decide> {
    match method {
        Method::NCleaner => Arc::new(ByModel),
        Method::Heuristics => Arc::new(ByHeuristics),
        Method::KeepAll => Arc::new(KeepAll),
        Method::Perplexity => Arc::new(ByPerplexity { filter: None }),
    }
}

/// `ncleaner`: each segment's n-gram score, or the classifier's
/// probability when the model has a classifier, against the threshold (or
/// the page's own cut); the paper's heuristics first; comments dropped as
/// asked; then the rules of [`AFTER_SCORES`].
#[derive(Debug, Clone, Copy, Default)]
pub struct ByModel;

impl Decide for ByModel {
    fn name(&self) -> &str {
        Method::NCleaner.as_str()
    }

    fn uses_model(&self) -> bool {
        true
    }

    fn decide(
        &self,
        page: &PageContext<'_>,
        segments: Vec<Segment>,
        cancel: &Cancel,
    ) -> Result<Decided, Cancelled> {
        let html = page.input != InputKind::Text;
        let scorer = page.model.scorer();
        let (scores, probs) = match page
            .model
            .classifier
            .as_ref()
            .and_then(|c| c.score_page(&segments, scorer, html, page.page_type.as_ref()))
        {
            Some(scored) => scored,
            None => (
                segments
                    .iter()
                    .enumerate()
                    .map(|(i, s)| {
                        cancel.check_at(i)?;
                        Ok(scorer.score(s.text()))
                    })
                    .collect::<Result<_, Cancelled>>()?,
                vec![None; segments.len()],
            ),
        };
        cancel.check()?;
        let threshold = if page.page_cut {
            classify::expected_f_cut(
                segments
                    .iter()
                    .zip(&probs)
                    .filter(|(s, _)| s.heuristic.is_none())
                    .filter_map(|(s, p)| Some(((*p)?, s.words()))),
            )
            .unwrap_or(f64::INFINITY)
        } else {
            page.threshold
        };
        let mut decided = decide_each(
            |s, evidence| classify::by_evidence(s, evidence, threshold),
            segments,
            Some((&scores, &probs)),
            page.dropped_comments(),
            cancel,
        )?;
        for rule in AFTER_SCORES.iter().filter(|r| html || !r.html_only) {
            (rule.apply)(&mut decided, page);
        }
        Ok(Decided {
            segments: decided,
            threshold: Some(threshold),
        })
    }
}

/// A rule that [`ByModel`] applies to a page's decided segments, in the
/// order of [`AFTER_SCORES`]. Each owns one reason: a decision it changes
/// gets that reason and no other (the test
/// `each_rule_after_the_scores_writes_its_own_reason` checks it).
pub struct Rule {
    /// The reason of every decision the rule changes.
    pub reason: classify::Reason,
    /// Whether the rule reads HTML structure (tables, code, headings) and
    /// applies to HTML pages alone.
    pub html_only: bool,
    /// Applies the rule to a page's segments.
    pub apply: fn(&mut [ScoredSegment], &PageContext<'_>),
}

/// The rules after the scores, in order: a data table's rows kept whole
/// and the code blocks of the content kept (both leave the comments the
/// page drops alone), repeats of kept segments dropped unless the page
/// keeps them, and a page of bare headings dropped.
pub static AFTER_SCORES: [Rule; 4] = [
    Rule {
        reason: classify::Reason::TableRow,
        html_only: true,
        apply: |s, page| crate::cleaned::keep_table_rows(s, page.dropped_comments()),
    },
    Rule {
        reason: classify::Reason::Code,
        html_only: true,
        apply: |s, page| crate::cleaned::keep_code_blocks(s, page.dropped_comments()),
    },
    Rule {
        reason: classify::Reason::Repeat,
        html_only: false,
        apply: |s, page| {
            if !page.keep_repeats {
                crate::cleaned::drop_repeats(s);
            }
        },
    },
    Rule {
        reason: classify::Reason::BareHeadings,
        html_only: true,
        apply: |s, _| crate::cleaned::drop_bare_headings(s),
    },
];

/// `heuristics`: the paper's rules alone; every segment they do not catch is kept.
#[derive(Debug, Clone, Copy, Default)]
pub struct ByHeuristics;

impl Decide for ByHeuristics {
    fn name(&self) -> &str {
        Method::Heuristics.as_str()
    }

    fn decide(
        &self,
        page: &PageContext<'_>,
        segments: Vec<Segment>,
        cancel: &Cancel,
    ) -> Result<Decided, Cancelled> {
        decide_each(
            |s, _| classify::by_evidence(s, None, page.threshold),
            segments,
            None,
            page.dropped_comments(),
            cancel,
        )
        .map(Decided::without_threshold)
    }
}

/// `keep-all`: every segment kept (comments still dropped when asked).
#[derive(Debug, Clone, Copy, Default)]
pub struct KeepAll;

impl Decide for KeepAll {
    fn name(&self) -> &str {
        Method::KeepAll.as_str()
    }

    fn decide(
        &self,
        page: &PageContext<'_>,
        segments: Vec<Segment>,
        cancel: &Cancel,
    ) -> Result<Decided, Cancelled> {
        decide_each(
            |_, _| classify::KEEP_ALL,
            segments,
            None,
            page.dropped_comments(),
            cancel,
        )
        .map(Decided::without_threshold)
    }
}

/// `perplexity` (PyPlexity's method): every segment's sentences scored by a
/// word model, those above the cut-off dropped ([`crate::perplexity`]). A
/// segment is kept while any of its sentences is.
#[derive(Debug, Clone, Default)]
pub struct ByPerplexity {
    /// The filter; `None`: the embedded `en-ppl` model at the default cut-off.
    pub filter: Option<SentenceFilter>,
}

impl Decide for ByPerplexity {
    fn name(&self) -> &str {
        Method::Perplexity.as_str()
    }

    fn decide(
        &self,
        _page: &PageContext<'_>,
        segments: Vec<Segment>,
        cancel: &Cancel,
    ) -> Result<Decided, Cancelled> {
        let filter = self.filter.as_ref().unwrap_or_else(|| default_filter());
        segments
            .into_iter()
            .enumerate()
            .map(|(i, segment)| {
                cancel.check_at(i)?;
                let f = filter.filter(segment.text());
                let keep = f.text.is_some();
                let output = f.text.filter(|t| *t != segment.text());
                let decision = Decision {
                    keep,
                    reason: classify::Reason::Perplexity,
                };
                Ok(ScoredSegment {
                    output,
                    sentences: Some(f.sentences),
                    ..ScoredSegment::new(segment, decision)
                })
            })
            .collect::<Result<_, _>>()
            .map(Decided::without_threshold)
    }
}

/// The filter of [`ByPerplexity`] without one: the embedded `en-ppl`
/// model, the default cut-off.
fn default_filter() -> &'static SentenceFilter {
    static FILTER: std::sync::OnceLock<SentenceFilter> = std::sync::OnceLock::new();
    FILTER.get_or_init(|| {
        let lm: WordLm =
            crate::lm::file::embedded("en-ppl").expect("the embedded word model loads");
        SentenceFilter::new(Arc::new(lm))
    })
}

/// Each segment decided by the decider's `rule` (given its evidence: the
/// classifier's log-odds, else the n-gram score, when `scored` has them and
/// no heuristic caught it), then dropped as a comment when `comments` asks. The list is made at its
/// length: collecting into a `Result` would grow it from nothing, moving
/// every segment at each doubling.
fn decide_each(
    rule: impl Fn(&Segment, Option<f64>) -> Decision,
    segments: Vec<Segment>,
    scored: Option<(&[f64], &[Option<f64>])>,
    comments: DroppedComments,
    cancel: &Cancel,
) -> Result<Vec<ScoredSegment>, Cancelled> {
    let mut decided = Vec::with_capacity(segments.len());
    for (i, segment) in segments.into_iter().enumerate() {
        cancel.check_at(i)?;
        let (score, probability) = match scored {
            Some((scores, probs)) if segment.heuristic.is_none() => (Some(scores[i]), probs[i]),
            _ => (None, None),
        };
        // The classifier's log-odds decide when there is one, else the n-gram score.
        let evidence = probability.map(classify::log2_odds).or(score);
        let mut decision = rule(&segment, evidence);
        if decision.keep && comments.contains(&segment) {
            decision = Decision {
                keep: false,
                reason: classify::Reason::Comment,
            };
        }
        decided.push(ScoredSegment {
            score,
            probability,
            ..ScoredSegment::new(segment, decision)
        });
    }
    Ok(decided)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classify::Reason;

    /// Each rule after the scores changes decisions only to its own reason,
    /// and each changes some decision on the pages below (so the check is
    /// not empty). The decisions before the rules are set by hand: a
    /// segment is kept when its text says `kept`.
    #[test]
    fn each_rule_after_the_scores_writes_its_own_reason() {
        let prose = "kept prose of the story, long enough to be a paragraph of it, with words and more words.";
        let pages = [
            format!(
                "<article><p>{prose}</p><table><tr><th>Name</th><th>Cost</th></tr>\
                 <tr><td>Bread kept</td><td>2</td></tr><tr><td>Milk</td><td>3</td></tr></table>\
                 <p>{prose}</p></article>"
            ),
            format!(
                "<article><p>{prose}</p><pre>cargo build --release</pre><p>{prose}</p></article>"
            ),
            format!("<p>Subscribe now, kept</p><p>{prose}</p><p>Subscribe now, kept</p>"),
            "<h1>A title kept</h1><p>Home</p><p>About us</p>".to_string(),
        ];
        let model = crate::model::embedded("en").unwrap();
        let mut fired = [false; AFTER_SCORES.len()];
        for html in &pages {
            let (input, segments, _) = crate::pipeline::read_document(html, InputKind::Html);
            let page = PageContext {
                model: &model,
                input,
                threshold: 0.0,
                page_cut: false,
                comments: Comments::Drop,
                keep_repeats: false,
                page_type: None,
            };
            let mut decided: Vec<ScoredSegment> = segments
                .into_iter()
                .map(|s| {
                    let keep = s.text().contains("kept");
                    ScoredSegment::new(
                        s,
                        Decision {
                            keep,
                            reason: Reason::Score,
                        },
                    )
                })
                .collect();
            for (k, rule) in AFTER_SCORES.iter().enumerate() {
                let before: Vec<Decision> = decided.iter().map(|s| s.decision).collect();
                (rule.apply)(&mut decided, &page);
                for (b, s) in before.iter().zip(&decided) {
                    if *b != s.decision {
                        assert_eq!(s.decision.reason, rule.reason, "{:?}", s.segment.text());
                        fired[k] = true;
                    }
                }
            }
        }
        for (k, rule) in AFTER_SCORES.iter().enumerate() {
            assert!(
                fired[k],
                "{:?} changed nothing on the test pages",
                rule.reason
            );
        }
    }
}
