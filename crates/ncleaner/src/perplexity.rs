//! Perplexity filtering, the second method of the papers (`004_…`,
//! PyPlexity's `bulk-perplexity`): every segment is split into sentences
//! ([`crate::lm::tokenize::sentences`]), each sentence is scored by a word n-gram
//! model of well-formed language, and the sentences whose perplexity is
//! above a cut-off are dropped (8,000 by default, the paper's; its grid is
//! 1,000–14,000). No heuristics and no character models: the method is
//! unsupervised, as the paper's.
//!
//! Choices where the paper is silent, all tested below:
//!
//! - Sentences are split within segments, not across them: a heading and the
//!   paragraph after it are different sentences even without a full stop
//!   between them (PyPlexity splits the page's whole text, so a menu line
//!   and the next paragraph's first sentence can merge into one).
//! - A segment is kept when any of its sentences is; its output text is its
//!   kept sentences joined by single spaces, in order.
//! - A sentence without a letter or digit (a row of asterisks, a lone `|`)
//!   is kept or dropped by its perplexity like any other, but never keeps a
//!   segment by itself: its perplexity over punctuation tokens says little.
//! - With `mark`, nothing is removed: dropped sentences are kept in the text
//!   wrapped in `<del>` … `</del>`, and each segment lists its sentences with
//!   their perplexities (JSON Lines with `--segments`).

use std::sync::Arc;

use crate::error::{Error, Result};
use crate::lm::{Smoothing, WordLm, tokenize};

/// PyPlexity's default cut-off.
pub const DEFAULT_MAX_PERPLEXITY: f64 = 8000.0;

/// The sentences of a multi-line text, split within lines (as within
/// segments), one at a time: what [`SentenceFilter::score_lines`] scores,
/// for callers that hold no list of them.
pub fn each_sentence_of_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines().flat_map(tokenize::each_sentence)
}

/// One sentence of a segment, scored.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[non_exhaustive]
pub struct SentenceScore {
    /// The sentence as it stands in the segment.
    pub text: String,
    /// Its perplexity under the word model.
    pub perplexity: f64,
    /// Whether it is at most the cut-off.
    pub keep: bool,
}

/// The perplexity filter: a word model, a cut-off, and whether to mark
/// instead of removing. Cheap to clone, safe to share between threads.
#[derive(Debug, Clone)]
pub struct SentenceFilter {
    lm: Arc<WordLm>,
    max_perplexity: f64,
    smoothing: Smoothing,
    mark: bool,
}

/// What the filter makes of one segment's text.
#[derive(Debug, Clone, PartialEq)]
pub struct Filtered {
    /// Every sentence, scored.
    pub sentences: Vec<SentenceScore>,
    /// The output text: the kept sentences (or, marking, all of them with the
    /// dropped ones in `<del>`); `None` when no sentence is kept.
    pub text: Option<String>,
}

impl SentenceFilter {
    /// A filter with the default cut-off and the model's own (backoff) scores.
    pub fn new(lm: Arc<WordLm>) -> SentenceFilter {
        SentenceFilter {
            lm,
            max_perplexity: DEFAULT_MAX_PERPLEXITY,
            smoothing: Smoothing::Backoff,
            mark: false,
        }
    }

    /// The same filter with another cut-off (must be positive).
    pub fn with_max_perplexity(mut self, max: f64) -> Result<SentenceFilter> {
        if max.is_nan() || max <= 0.0 {
            return Err(Error::Parameter(format!(
                "the perplexity cut-off must be positive, not {max}"
            )));
        }
        self.max_perplexity = max;
        Ok(self)
    }

    /// The same filter scoring words another way; PyPlexity's formula needs a
    /// model with counts (trained by ncleaner), checked here.
    pub(crate) fn with_smoothing(mut self, smoothing: Smoothing) -> Result<SentenceFilter> {
        if smoothing == Smoothing::PyPlexity {
            self.lm.perplexity("a test", smoothing)?;
        }
        self.smoothing = smoothing;
        Ok(self)
    }

    /// The same filter marking dropped sentences instead of removing them.
    pub(crate) fn with_mark(mut self, mark: bool) -> SentenceFilter {
        self.mark = mark;
        self
    }

    /// The cut-off.
    pub fn max_perplexity(&self) -> f64 {
        self.max_perplexity
    }

    /// The word model.
    pub fn model(&self) -> &WordLm {
        &self.lm
    }

    /// The perplexity of one sentence.
    pub fn perplexity(&self, sentence: &str) -> f64 {
        // The smoothing was checked when it was set: scoring cannot fail.
        self.lm
            .perplexity(sentence, self.smoothing)
            .unwrap_or(f64::INFINITY)
    }

    /// Every sentence of a multi-line text, scored (sentences split within
    /// lines, as within segments: [`each_sentence_of_lines`]).
    pub fn score_lines(&self, text: &str) -> Vec<SentenceScore> {
        each_sentence_of_lines(text)
            .map(|s| {
                let perplexity = self.perplexity(s);
                SentenceScore {
                    text: s.to_string(),
                    perplexity,
                    keep: perplexity <= self.max_perplexity,
                }
            })
            .collect()
    }

    /// A multi-line text without its sentences above the cut-off: each line
    /// keeps its kept sentences (or, marking, all of them), lines left empty
    /// go; and the number of sentences above the cut-off.
    pub fn filter_lines(&self, text: &str) -> (String, usize) {
        let mut out = Vec::new();
        let mut dropped = 0;
        for line in text.lines() {
            let f = self.filter(line);
            dropped += f.sentences.iter().filter(|s| !s.keep).count();
            out.extend(f.text);
        }
        (out.join("\n"), dropped)
    }

    internal! {
        /// Scores the sentences of a segment's text and builds its output text.
        pub fn filter(&self, text: &str) -> Filtered {
            let sentences: Vec<SentenceScore> = tokenize::sentences(text)
                .into_iter()
                .map(|s| {
                    let perplexity = self.perplexity(s);
                    SentenceScore {
                        text: s.to_string(),
                        perplexity,
                        keep: perplexity <= self.max_perplexity,
                    }
                })
                .collect();
            let has_words = |s: &SentenceScore| s.text.chars().any(char::is_alphanumeric);
            let any_kept = sentences.iter().any(|s| s.keep && has_words(s));
            let text = if self.mark {
                let parts: Vec<String> = sentences
                    .iter()
                    .map(|s| {
                        if s.keep {
                            s.text.clone()
                        } else {
                            format!("<del>{}</del>", s.text)
                        }
                    })
                    .collect();
                (!parts.is_empty()).then(|| parts.join(" "))
            } else if any_kept {
                let kept: Vec<&str> = sentences
                    .iter()
                    .filter(|s| s.keep)
                    .map(|s| s.text.as_str())
                    .collect();
                Some(kept.join(" "))
            } else {
                None
            };
            Filtered { sentences, text }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filter() -> SentenceFilter {
        SentenceFilter::new(Arc::new(
            crate::lm::file::embedded("en-ppl").expect("embedded model"),
        ))
    }

    #[test]
    fn well_formed_sentences_pass_and_junk_does_not() {
        let f = filter();
        let good = f.perplexity("The government said on Tuesday that it would review the report.");
        let junk = f.perplexity("qzx vbnm plok wruff jjj kkk zzq");
        assert!(good < 1000.0, "well-formed sentence: {good}");
        assert!(junk > DEFAULT_MAX_PERPLEXITY, "junk: {junk}");
    }

    #[test]
    fn dropped_sentences_leave_the_others_in_order() {
        let f = filter();
        let text = "The government said on Tuesday that it would review the report. \
                    Qzx vbnm plok wruff jjj kkk zzq. \
                    It was the first time the minister had spoken about the case.";
        let out = f.filter(text);
        assert_eq!(out.sentences.len(), 3);
        assert_eq!(
            out.sentences.iter().map(|s| s.keep).collect::<Vec<_>>(),
            [true, false, true]
        );
        let kept = out.text.expect("two sentences kept");
        assert!(kept.starts_with("The government said"));
        assert!(kept.ends_with("spoken about the case."));
        assert!(!kept.contains("Qzx"));
    }

    #[test]
    fn marking_keeps_everything_and_tags_the_dropped() {
        let f = filter().with_mark(true);
        let out = f.filter("qzx vbnm plok wruff jjj kkk zzq.");
        assert_eq!(
            out.text.as_deref(),
            Some("<del>qzx vbnm plok wruff jjj kkk zzq.</del>")
        );
        assert!(!out.sentences[0].keep);
    }

    #[test]
    fn cut_off_moves_the_decision() {
        let s = "Click here to subscribe to our newsletter";
        let p = filter().perplexity(s);
        let low = filter().with_max_perplexity(p * 0.99).unwrap().filter(s);
        let high = filter().with_max_perplexity(p * 1.01).unwrap().filter(s);
        assert!(low.text.is_none());
        assert_eq!(high.text.as_deref(), Some(s));
        assert!(filter().with_max_perplexity(0.0).is_err());
        assert!(filter().with_max_perplexity(f64::NAN).is_err());
    }

    #[test]
    fn punctuation_alone_keeps_no_segment() {
        let out = filter().filter("* * *");
        assert!(out.text.is_none());
    }
}
