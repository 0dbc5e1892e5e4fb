//! Predicted page quality: an estimate of the word-level precision and
//! recall of a page's own cleaning, from what is known at cleaning time.
//!
//! The StupidOS paper (§4.4) predicts each page's cleaning precision with a
//! linear model and keeps only pages predicted at 86% or more. We do the
//! same with features that the cleaner has anyway:
//!
//! - the classifier's *expected* precision and recall of the page, Σ p·w over
//!   the kept segments divided by their words, and by the page's Σ p·w
//!   (p: a segment's probability of being clean, w: its words + 1, as the
//!   classifier is trained). With calibrated probabilities these are already
//!   estimates; the regression corrects what calibration per segment misses
//!   (segments are not independent within a page);
//! - the share of the page's words removed, the number of segments and the
//!   mean length of the kept ones, the share of kept words with uncertain
//!   probabilities (0.2 – 0.8), the share of link text, whether nothing was
//!   kept, the kept words' count, and whether the page had encoding trouble.
//!
//! Two ridge regressions (least squares with a small L2 penalty on the
//! standardised features), one for precision and one for recall, are fitted
//! by the lab's `Trainer` on the *out-of-fold* cleaned outputs of the
//! training pages (an inner cross-validation: a model that saw a page would
//! clean it too well), against the paper's word-level scoring of each page.
//! Predictions are clamped to [0, 1]. Pages with no output have no precision
//! and pages with an empty gold file no recall; they are left out of the
//! respective fit.
//!
//! The prediction belongs to the operating point it was trained at (the
//! model's default threshold); at other thresholds the expected-precision
//! features move with the decisions, but the correction was not fitted there.

use serde::{Deserialize, Serialize};

use crate::cleaned::Cleaned;

/// Names of the page features, in order (index 0 is the intercept).
pub const NAMES: &[&str] = &[
    "bias",
    "expected_precision",
    "expected_recall",
    "removed_share",
    "log_segments",
    "kept_mean_log_words",
    "uncertain_share",
    "link_share",
    "nothing_kept",
    "log_words_out",
    "decode_errors",
];

/// Number of page features.
pub const COUNT: usize = NAMES.len();

/// [`NAMES`] as a model file stores them ([`QualityModel::names`]).
pub fn names() -> Vec<String> {
    NAMES.iter().map(|n| (*n).to_string()).collect()
}

pub use crate::cleaned::PageQuality;

/// One segment of a decided page as the page's features read it.
#[derive(Debug, Clone, Copy)]
pub struct Item<'a> {
    /// The segment.
    pub segment: &'a crate::segment::Segment,
    /// The text the output holds of it.
    pub text: &'a str,
    /// The words of `text`.
    pub words: usize,
    /// Whether it is kept.
    pub keep: bool,
    /// Its probability of being clean, if the classifier gave one.
    pub probability: Option<f64>,
    /// Its n-gram score, if it has one.
    pub score: Option<f64>,
}

/// The features of one cleaned page ([`NAMES`]).
///
/// A segment without a classifier probability (the paper's models, or one
/// a heuristic decided) counts with 2^s / (1 + 2^s) of its n-gram score s,
/// or with 0 / 1 by its decision when it has no score.
pub fn features(c: &Cleaned) -> [f64; COUNT] {
    let items = c.segments.iter().map(|s| Item {
        segment: &s.segment,
        text: s.text(),
        words: s.words(),
        keep: s.keep(),
        probability: s.probability,
        score: s.score,
    });
    features_of(items, c.segments.len(), c.had_decode_errors)
}

/// [`features`] of a page's `segments` (`count` of them), decided, whose
/// bytes had undecodable sequences when `decode_errors`.
pub fn features_of<'a>(
    segments: impl IntoIterator<Item = Item<'a>>,
    count: usize,
    decode_errors: bool,
) -> [f64; COUNT] {
    let (mut kept_w, mut kept_pw, mut all_pw, mut all_w) = (0.0, 0.0, 0.0, 0.0);
    let (mut uncertain, mut links, mut chars) = (0.0, 0.0, 0.0);
    let (mut kept_segs, mut kept_logw, mut words_out) = (0usize, 0.0, 0usize);
    for s in segments {
        let (words, n_chars) = (s.words, s.text.chars().count());
        let w = (words + 1) as f64;
        let p = s
            .probability
            .or_else(|| {
                s.score
                    .map(|x| 1.0 / (1.0 + (-x * std::f64::consts::LN_2).exp()))
            })
            .unwrap_or(if s.keep { 1.0 } else { 0.0 });
        all_w += w;
        all_pw += p * w;
        links += s.segment.link_chars as f64;
        chars += n_chars as f64;
        if s.keep {
            words_out += words;
            kept_w += w;
            kept_pw += p * w;
            kept_segs += 1;
            kept_logw += w.ln();
            if (0.2..=0.8).contains(&p) {
                uncertain += w;
            }
        }
    }
    let words_out = words_out as f64;
    [
        1.0,
        if kept_w > 0.0 { kept_pw / kept_w } else { 0.0 },
        if all_pw > 0.0 { kept_pw / all_pw } else { 0.0 },
        if all_w > 0.0 {
            1.0 - kept_w / all_w
        } else {
            1.0
        },
        (1.0 + count as f64).ln(),
        if kept_segs > 0 {
            kept_logw / kept_segs as f64
        } else {
            0.0
        },
        if kept_w > 0.0 {
            uncertain / kept_w
        } else {
            0.0
        },
        if chars > 0.0 { links / chars } else { 0.0 },
        f64::from(u8::from(kept_segs == 0)),
        (1.0 + words_out).ln(),
        f64::from(u8::from(decode_errors)),
    ]
}

/// A linear model of one quantity over standardised features.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Linear {
    /// Feature means (index 0 unused).
    pub mean: Vec<f64>,
    /// Feature standard deviations (1 where a feature is constant).
    pub sd: Vec<f64>,
    /// Weights of the standardised features; index 0 the intercept.
    pub w: Vec<f64>,
}

impl Linear {
    /// The prediction for one feature row, clamped to [0, 1].
    pub fn predict(&self, x: &[f64; COUNT]) -> f64 {
        let s: f64 = self.w[0]
            + (1..COUNT.min(self.w.len()))
                .map(|j| self.w[j] * (x[j] - self.mean[j]) / self.sd[j])
                .sum::<f64>();
        s.clamp(0.0, 1.0)
    }
}

/// The page-quality model of one input kind: precision and recall.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QualityModel {
    /// Predicts the page's precision.
    pub precision: Linear,
    /// Predicts the page's recall.
    pub recall: Linear,
    /// The names of the page features it was fitted on ([`NAMES`], set by
    /// the trainer): a file whose names are not this build's is refused
    /// when loaded ([`QualityModel::check`]). Absent (empty) in older
    /// files, which are checked by their widths alone.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub names: Vec<String>,
}

impl QualityModel {
    /// Checks a model read from a file against this build's page features:
    /// its stored names, and widths that [`Linear::predict`] can index.
    pub fn check(&self) -> Result<(), String> {
        if !self.names.is_empty() {
            crate::classify::compare_names("page-quality model's", &self.names, &names())?;
        }
        for l in [&self.precision, &self.recall] {
            if l.w.is_empty()
                || l.w.len() > COUNT
                || l.mean.len() < l.w.len()
                || l.sd.len() < l.w.len()
            {
                return Err(format!(
                    "a page-quality model of {} weights, {} means and {} deviations where this build has {COUNT} features",
                    l.w.len(),
                    l.mean.len(),
                    l.sd.len()
                ));
            }
        }
        Ok(())
    }

    /// The predicted quality of a cleaned page.
    pub fn predict(&self, c: &Cleaned) -> PageQuality {
        self.predict_features(&features(c))
    }

    /// The predicted quality of a decided page's `segments` (`count` of
    /// them; [`features_of`]).
    pub fn predict_items<'a>(
        &self,
        segments: impl IntoIterator<Item = Item<'a>>,
        count: usize,
        decode_errors: bool,
    ) -> PageQuality {
        self.predict_features(&features_of(segments, count, decode_errors))
    }

    /// The predicted quality of a page with these features.
    pub fn predict_features(&self, x: &[f64; COUNT]) -> PageQuality {
        PageQuality {
            precision: self.precision.predict(x),
            recall: self.recall.predict(x),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn predictions_are_clamped() {
        let m = Linear {
            mean: vec![0.0; COUNT],
            sd: vec![1.0; COUNT],
            w: {
                let mut w = vec![0.0; COUNT];
                w[1] = 10.0;
                w
            },
        };
        let mut x = [0.0; COUNT];
        x[1] = 5.0;
        assert_eq!(m.predict(&x), 1.0);
        x[1] = -5.0;
        assert_eq!(m.predict(&x), 0.0);
    }

    #[test]
    fn features_of_a_page() {
        use crate::classify::{Decision, Reason};
        use crate::cleaned::{InputKind, ScoredSegment};
        use crate::segment::{Kind, Segment};
        let seg = |t: &str, p: f64, keep: bool| ScoredSegment {
            segment: Segment::plain(Kind::P, t.to_string()),
            score: Some(0.0),
            probability: Some(p),
            decision: Decision {
                keep,
                reason: Reason::Score,
            },
            sentences: None,
            output: None,
            role: None,
        };
        let c = Cleaned {
            encoding: "UTF-8",
            segments: vec![
                seg("one two three", 0.9, true),
                seg("four five six", 0.5, true),
                seg("menu", 0.1, false),
            ],
            ..Cleaned::new(None, InputKind::Html)
        };
        let f = features(&c);
        // Kept: words+1 = 4 and 4, probabilities 0.9 and 0.5.
        assert!((f[1] - 0.7).abs() < 1e-12);
        assert!((f[2] - 5.6 / 5.8).abs() < 1e-12);
        assert!((f[3] - 2.0 / 10.0).abs() < 1e-12);
        assert!((f[6] - 0.5).abs() < 1e-12);
        assert_eq!(f[8], 0.0);
    }
}
