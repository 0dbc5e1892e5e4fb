//! What the decide stage hands on: each segment with its score and the
//! decision about it, and one cleaned document ([`Cleaned`]). These types sit
//! between the deciding stages (`classify`, `perplexity`) and the stages that
//! read a decided page (`quality`, `pipeline`, `format`), so that each of
//! those depends on them and none on another.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::classify::Decision;
use crate::perplexity::SentenceScore;
use crate::segment::{self, Segment};

/// What kind of input a document is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum InputKind {
    /// An HTML page.
    Html,
    /// A plain-text dump of a page.
    Text,
    /// Decide by looking at the document ([`looks_like_html`](crate::pipeline::looks_like_html)).
    Auto,
}

impl InputKind {
    /// Every kind, in the order the command line lists them.
    pub const ALL: [InputKind; 3] = [InputKind::Html, InputKind::Text, InputKind::Auto];

    /// The kind's name on the command line, in the web API, in Python and
    /// in JSON (`html`, `text`, `auto`); [`str::parse`] reads it back.
    pub fn as_str(self) -> &'static str {
        match self {
            InputKind::Html => "html",
            InputKind::Text => "text",
            InputKind::Auto => "auto",
        }
    }
}

impl std::str::FromStr for InputKind {
    type Err = String;

    /// Reads a name of [`InputKind::as_str`].
    fn from_str(s: &str) -> std::result::Result<InputKind, String> {
        InputKind::ALL
            .into_iter()
            .find(|k| k.as_str() == s)
            .ok_or_else(|| format!("{s:?}: give html, text or auto"))
    }
}

/// A page's predicted cleaning quality.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PageQuality {
    /// Predicted word-level precision of the page's cleaned text, 0 – 1.
    pub precision: f64,
    /// Predicted word-level recall, 0 – 1.
    pub recall: f64,
}

/// A segment with its score and the decision about it.
#[derive(Debug, Clone, PartialEq)]
pub struct ScoredSegment {
    /// The segment.
    pub segment: Segment,
    /// Its n-gram log-odds score in bits (`None` when no model was run).
    pub score: Option<f64>,
    /// Its probability of being clean (models with a classifier only).
    pub probability: Option<f64>,
    /// Keep or drop, and why.
    pub decision: Decision,
    /// Its sentences with their perplexities ([`crate::classify::Method::Perplexity`] only).
    pub sentences: Option<Vec<SentenceScore>>,
    /// What the output holds of it when that is not the segment's whole text
    /// (the sentences that perplexity filtering kept).
    pub output: Option<String>,
}

impl ScoredSegment {
    /// Whether the segment is kept.
    pub fn keep(&self) -> bool {
        self.decision.keep
    }

    /// The text the output holds of the segment: its kept sentences under
    /// perplexity filtering, else its whole text.
    pub fn text(&self) -> &str {
        self.output.as_deref().unwrap_or(&self.segment.text)
    }
}

/// One cleaned document.
#[derive(Debug, Clone)]
pub struct Cleaned {
    /// The document's URL, if known.
    pub url: Option<String>,
    /// Whether it was read as HTML or text.
    pub input: InputKind,
    /// The encoding it was decoded with.
    pub encoding: &'static str,
    /// Whether undecodable bytes were replaced.
    pub had_decode_errors: bool,
    /// All segments in page order, kept and dropped.
    pub segments: Vec<ScoredSegment>,
    /// The page's detected language ([`crate::lang`]'s tag), when the
    /// cleaner routes by language and the language was identified.
    pub language: Option<String>,
    /// The name of the model that decided, when the cleaner routes by
    /// language ([`crate::pipeline::Routes`]); `None` for a cleaner with one model.
    pub model: Option<Arc<str>>,
    /// The predicted quality of this page's cleaning (models trained with
    /// a page-quality model only; see [`crate::quality`]).
    pub quality: Option<PageQuality>,
    /// The page's metadata ([`crate::html::Metadata`]; HTML input only),
    /// its `language` the detected one when there is one.
    pub metadata: Option<crate::html::Metadata>,
}

impl Cleaned {
    /// The kept segments.
    pub fn kept(&self) -> impl Iterator<Item = &ScoredSegment> {
        self.segments.iter().filter(|s| s.keep())
    }

    /// The cleaned text: kept segments, one per line.
    pub fn text(&self) -> String {
        let mut out = String::new();
        for s in self.kept() {
            out.push_str(s.text());
            out.push('\n');
        }
        out
    }

    /// Words before cleaning (all segments).
    pub fn words_in(&self) -> usize {
        self.segments.iter().map(|s| s.segment.words()).sum()
    }

    /// Words after cleaning (kept segments, or their kept sentences).
    pub fn words_out(&self) -> usize {
        self.kept().map(|s| segment::count_words(s.text())).sum()
    }
}

/// The fewest words a kept segment needs for [`drop_repeats`] to drop its
/// repeats: shorter ones ("Yes", "Read more", table cells) repeat in real
/// content too.
pub const REPEAT_MIN_WORDS: usize = 3;

/// Drops each kept segment of [`REPEAT_MIN_WORDS`] words or more whose text
/// (leading and trailing whitespace aside) a kept segment before it
/// already has
/// ([`crate::classify::Reason::Repeat`]).
///
/// Modern pages repeat blocks for layout's sake: carousel slides cloned
/// for looping, a mobile and a desktop copy of the same section, a
/// disclaimer under every tab. A reader sees each once, the gold texts
/// (CleanEval, Dragnet, WCXB) hold each once, and for a corpus a repeat is
/// noise. On WCXB's development pages (cross-validated by domain) dropping
/// repeats of 3+ words raised the mean page F from 0.848 to 0.852, products
/// most (0.627 to 0.643; 1, 5 and 10 words: 0.852, 0.852, 0.852).
pub fn drop_repeats(segments: &mut [ScoredSegment]) {
    use std::hash::BuildHasher;
    // Kept texts by their hash; a hash that matches is checked text by text,
    // so a collision never drops a segment. No text is copied.
    let mut seen: rustc_hash::FxHashMap<u64, Vec<usize>> = Default::default();
    for i in 0..segments.len() {
        if !segments[i].decision.keep {
            continue;
        }
        let text = segments[i].text().trim();
        if segment::count_words(text) < REPEAT_MIN_WORDS {
            continue;
        }
        let earlier = seen
            .entry(rustc_hash::FxBuildHasher.hash_one(text))
            .or_default();
        if earlier.iter().any(|&j| segments[j].text().trim() == text) {
            segments[i].decision = Decision {
                keep: false,
                reason: crate::classify::Reason::Repeat,
            };
        } else {
            earlier.push(i);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classify::{Decision, Reason};

    fn scored(text: &str, keep: bool) -> ScoredSegment {
        ScoredSegment {
            segment: Segment::plain(segment::Kind::P, text.to_string()),
            score: None,
            probability: None,
            decision: Decision {
                keep,
                reason: Reason::Score,
            },
            sentences: None,
            output: None,
        }
    }

    #[test]
    fn repeats_of_kept_segments_are_dropped() {
        let mut s = vec![
            scored("Colorful design that lets you shine", true),
            scored(" Colorful design that lets you shine ", true),
            scored("Read more", true),
            scored("Read more", true),
            scored("A dropped one here", false),
            scored("A dropped one here", true),
            scored("Colorful design that lets you shine", true),
        ];
        drop_repeats(&mut s);
        let kept: Vec<bool> = s.iter().map(|x| x.decision.keep).collect();
        // Short texts repeat in real content; a repeat of a dropped
        // segment is the first kept one.
        assert_eq!(kept, [true, false, true, true, false, true, false]);
        assert_eq!(s[1].decision.reason, Reason::Repeat);
        assert_eq!(s[4].decision.reason, Reason::Score);
    }
}
