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
    /// Decide by looking at the document ([`looks_like_html`]).
    Auto,
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
