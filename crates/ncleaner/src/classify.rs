//! Scores → decisions: which segments are kept.
//!
//! The paper's rule: a segment is deleted when the dirty model gives it the
//! higher probability, i.e. when its score (log2 P_clean − log2 P_dirty) is
//! below 0. The threshold T moves that line: a segment is kept when its score
//! is at least T, so a positive T keeps less (higher precision) and a negative
//! T keeps more. Segments that the paper's heuristics recognise as boilerplate
//! ([`Heuristic`]) are deleted before any model is asked.

use crate::segment::{Heuristic, Segment};

/// Which parts of the paper's system decide.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// Keep every segment: the raw text dump (the paper's baseline).
    KeepAll,
    /// The segmentation heuristics alone, no language model ("heuristics only").
    Heuristics,
    /// Heuristics, then the clean/dirty n-gram models (NCleaner).
    NCleaner,
}

impl Method {
    /// Whether the method needs a model's scores.
    pub fn uses_model(self) -> bool {
        self == Method::NCleaner
    }
}

/// Why a segment was kept or dropped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case", tag = "by")]
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
}

/// The decision about one segment.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Decision {
    /// Whether the segment is kept.
    pub keep: bool,
    /// What decided.
    pub reason: Reason,
}

/// Decides one segment given its score (`None` when no model was run).
pub fn decide(method: Method, segment: &Segment, score: Option<f64>, threshold: f64) -> Decision {
    if method == Method::KeepAll {
        return Decision {
            keep: true,
            reason: Reason::KeepAll,
        };
    }
    if let Some(rule) = segment.heuristic {
        return Decision {
            keep: false,
            reason: Reason::Heuristic { rule },
        };
    }
    match (method, score) {
        (Method::NCleaner, Some(s)) => Decision {
            keep: s >= threshold,
            reason: Reason::Score,
        },
        _ => Decision {
            keep: true,
            reason: Reason::NoHeuristic,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::segment::Kind;

    #[test]
    fn rules() {
        let text = Segment::plain(Kind::P, "A sentence.".into());
        let nav = Segment::plain(Kind::P, "Home | News | Contact".into());
        assert!(decide(Method::KeepAll, &nav, Some(-5.0), 0.0).keep);
        assert!(!decide(Method::Heuristics, &nav, None, 0.0).keep);
        assert!(decide(Method::Heuristics, &text, None, 0.0).keep);
        assert!(!decide(Method::NCleaner, &nav, Some(100.0), 0.0).keep);
        assert!(
            decide(Method::NCleaner, &text, Some(0.0), 0.0).keep,
            "ties are kept, as in the paper"
        );
        assert!(!decide(Method::NCleaner, &text, Some(-0.1), 0.0).keep);
        assert!(
            !decide(Method::NCleaner, &text, Some(1.0), 2.0).keep,
            "a positive threshold keeps less"
        );
        assert!(decide(Method::NCleaner, &text, Some(-1.0), -2.0).keep);
    }
}
