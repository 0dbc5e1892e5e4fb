//! The method's step: the first decision of every segment, and the
//! evidence behind it (`--method`).
//!
//! - `ncleaner` ([`Method::NCleaner`]): each segment's n-gram score, or the
//!   classifier's probability when the model has a classifier, against the
//!   cut ([`super::Policy::cut`], or the page's own expected-F cut);
//!   [`Reason::Score`]. A segment that one of the paper's heuristics caught
//!   gets no evidence: the heuristics' rule decides it.
//! - `heuristics` and `keep-all`: every segment kept ([`Reason::NoHeuristic`],
//!   [`Reason::KeepAll`]); the heuristics' rule then drops what they catch
//!   under `heuristics`.
//! - `perplexity` (PyPlexity's method): every segment's sentences scored by
//!   a word model, those above the cut-off dropped ([`crate::perplexity`]).
//!   A segment is kept while any of its sentences is ([`Reason::Perplexity`]).

use std::sync::Arc;

use super::Policy;
use crate::cancel::{Cancel, Cancelled};
use crate::classify::{self, Decision, Method, Reason};
use crate::cleaned::{Cut, Verdict};
use crate::lm::WordLm;
use crate::model::Model;
use crate::page::Page;
use crate::perplexity::SentenceFilter;

/// What the method decided of a page.
pub(super) struct First {
    /// The first decision of each segment.
    pub verdicts: Vec<Verdict>,
    /// The cut the scores were compared with (`None` when no score decided).
    pub cut: Option<Cut>,
    /// The threshold of the model's default operating point on this page
    /// (`--prefer f`, no threshold set), whatever the policy's point is:
    /// what the rule of hidden text holds those segments to.
    pub default_threshold: Option<f64>,
}

/// The first decision of each segment of `page` under `policy`'s method.
pub(super) fn decide(
    policy: &Policy,
    page: &Page,
    model: &Model,
    cancel: &Cancel,
) -> Result<First, Cancelled> {
    let first = |decision: Decision| -> Result<Vec<Verdict>, Cancelled> {
        let mut verdicts = Vec::with_capacity(page.segments().len());
        for i in 0..page.segments().len() {
            cancel.check_at(i)?;
            verdicts.push(Verdict::of(decision));
        }
        Ok(verdicts)
    };
    let unscored = |verdicts| First {
        verdicts,
        cut: None,
        default_threshold: None,
    };
    match policy.method {
        Method::NCleaner => by_score(policy, page, model, cancel),
        Method::Heuristics => Ok(unscored(first(Decision {
            keep: true,
            reason: Reason::NoHeuristic,
        })?)),
        Method::KeepAll => Ok(unscored(first(classify::KEEP_ALL)?)),
        Method::Perplexity => Ok(unscored(by_perplexity(policy, page, cancel)?)),
    }
}

/// `ncleaner`: each segment's evidence (the classifier's log-odds when the
/// model has a classifier for the page's input, else the n-gram score)
/// against the threshold, or the page's own cut.
fn by_score(
    policy: &Policy,
    page: &Page,
    model: &Model,
    cancel: &Cancel,
) -> Result<First, Cancelled> {
    let html = page.is_html();
    let segments = page.segments();
    let scorer = model.scorer();
    let (scores, probs) = match model
        .classifier
        .as_ref()
        .and_then(|c| c.score_page(segments, scorer, html, page.page_type()))
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
    let threshold_of = |(point, stored): (crate::cleaned::OperatingPoint, f64)| {
        if point == crate::cleaned::OperatingPoint::PageF {
            classify::expected_f_cut(
                segments
                    .iter()
                    .zip(&probs)
                    .filter(|(s, _)| s.heuristic.is_none())
                    .filter_map(|(s, p)| Some(((*p)?, s.words()))),
            )
            .unwrap_or(f64::INFINITY)
        } else {
            stored
        }
    };
    let (point, stored) = policy.cut(model, html);
    let threshold = threshold_of((point, stored));
    let default = Policy {
        threshold: None,
        preference: classify::Preference::F,
        ..policy.clone()
    }
    .cut(model, html);
    let default_threshold = if default == (point, stored) {
        threshold
    } else {
        threshold_of(default)
    };
    let mut verdicts = Vec::with_capacity(segments.len());
    for (i, s) in segments.iter().enumerate() {
        cancel.check_at(i)?;
        // A segment a heuristic caught has no evidence: the heuristics'
        // rule decides it.
        let (score, probability) = match s.heuristic {
            None => (Some(scores[i]), probs[i]),
            Some(_) => (None, None),
        };
        // The classifier's log-odds decide when there is one, else the n-gram score.
        let evidence = probability.map(classify::log2_odds).or(score);
        verdicts.push(Verdict {
            score,
            probability,
            ..Verdict::of(Decision {
                keep: evidence.is_some_and(|e| kept_at(e, threshold)),
                reason: Reason::Score,
            })
        });
    }
    Ok(First {
        verdicts,
        cut: Some(Cut { point, threshold }),
        default_threshold: Some(default_threshold),
    })
}

/// The paper's rule: a segment is kept when its evidence (the n-gram score
/// or the classifier's log-odds, in bits) is at least the threshold; ties
/// are kept, as in the paper.
fn kept_at(evidence: f64, threshold: f64) -> bool {
    evidence >= threshold
}

/// `perplexity`: each segment's sentences filtered.
fn by_perplexity(policy: &Policy, page: &Page, cancel: &Cancel) -> Result<Vec<Verdict>, Cancelled> {
    let filter = policy.filter.as_deref().unwrap_or_else(|| default_filter());
    page.segments()
        .iter()
        .enumerate()
        .map(|(i, segment)| {
            cancel.check_at(i)?;
            let f = filter.filter(segment.text());
            let keep = f.text.is_some();
            let output = f.text.filter(|t| *t != segment.text());
            Ok(Verdict {
                output,
                sentences: Some(f.sentences),
                ..Verdict::of(Decision {
                    keep,
                    reason: Reason::Perplexity,
                })
            })
        })
        .collect()
}

/// The filter of [`Method::Perplexity`] without one: the embedded `en-ppl`
/// model, the default cut-off.
fn default_filter() -> &'static SentenceFilter {
    static FILTER: std::sync::OnceLock<SentenceFilter> = std::sync::OnceLock::new();
    FILTER.get_or_init(|| {
        let lm: WordLm =
            crate::lm::file::embedded("en-ppl").expect("the embedded word model loads");
        SentenceFilter::new(Arc::new(lm))
    })
}

#[cfg(test)]
mod tests {
    use super::kept_at;

    #[test]
    fn ties_are_kept_and_a_higher_threshold_keeps_less() {
        assert!(kept_at(0.0, 0.0), "ties are kept, as in the paper");
        assert!(!kept_at(-0.1, 0.0));
        assert!(!kept_at(1.0, 2.0), "a positive threshold keeps less");
        assert!(kept_at(-1.0, -2.0));
    }
}
