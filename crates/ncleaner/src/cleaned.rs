//! What the back end hands on: the decision about each segment
//! ([`Verdict`], [`Decisions`]), each segment with its decision
//! ([`ScoredSegment`]), and one cleaned document ([`Cleaned`]), assembled in
//! one place from the frozen page and the policy's decisions
//! ([`Cleaned::assemble`]). These types sit between the deciding stages
//! (`classify`, `perplexity`, `policy`) and the stages that read a decided
//! page (`quality`, `format`), so that each of those depends on them and
//! none on another.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

mod completed;
mod roles;
mod written;

pub use crate::segment::InputKind;
pub use roles::{
    BYLINE_MAX_WORDS, BYLINE_REACH, CAPTION_MAX_WORDS, FURNITURE_MAX_WORDS, Role, Roles,
    assign_roles,
};

use crate::classify::Decision;
use crate::page::Page;
use crate::perplexity::SentenceScore;
use crate::segment::{self, Segment};

/// A page's predicted cleaning quality.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct PageQuality {
    /// Predicted word-level precision of the page's cleaned text, 0 – 1.
    pub precision: f64,
    /// Predicted word-level recall, 0 – 1.
    pub recall: f64,
}

/// The decision about one segment, with what the method knew of it: what
/// the policy returns per segment ([`Decisions`]).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Verdict {
    /// Keep or drop, and the reason: the method or the rule that decided.
    pub decision: Decision,
    /// The segment's role (HTML input).
    pub role: Option<Role>,
    /// Its n-gram log-odds score in bits (`None` when no model was run).
    pub score: Option<f64>,
    /// Its probability of being clean (models with a classifier only).
    pub probability: Option<f64>,
    /// Its sentences with their perplexities (the perplexity method only).
    pub sentences: Option<Vec<SentenceScore>>,
    /// What the output holds of it when that is not the segment's whole
    /// text (the sentences that perplexity filtering kept).
    pub output: Option<String>,
}

impl Verdict {
    /// A decision and nothing else known.
    pub fn of(decision: Decision) -> Verdict {
        Verdict {
            decision,
            role: None,
            score: None,
            probability: None,
            sentences: None,
            output: None,
        }
    }

    /// Whether the segment is kept.
    pub fn keep(&self) -> bool {
        self.decision.keep
    }

    /// The text the output holds of `segment`, whose verdict this is.
    pub fn text<'a>(&'a self, segment: &'a Segment) -> &'a str {
        self.output.as_deref().unwrap_or(segment.text())
    }

    /// The words of [`Verdict::text`].
    pub fn words(&self, segment: &Segment) -> usize {
        match &self.output {
            Some(o) => segment::count_words(o),
            None => segment.words(),
        }
    }
}

/// What the policy returns for one page.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Decisions {
    /// One verdict per segment of the page, in order.
    pub verdicts: Vec<Verdict>,
    /// The cut the scores were compared with; `None` when no score decided.
    pub cut: Option<Cut>,
    /// The page's predicted quality (a method that reads the model, a model
    /// with a page-quality model for the page's input).
    pub quality: Option<PageQuality>,
}

/// A segment with its score and the decision about it.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
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
    /// What the segment is on its page ([`Role`]; HTML input).
    pub role: Option<Role>,
}

impl ScoredSegment {
    /// A segment with its decision and nothing else known of it yet: no
    /// score, probability, sentences, output or role (each decider fills in
    /// what it has).
    #[cfg(test)]
    pub(crate) fn new(segment: Segment, decision: Decision) -> Self {
        ScoredSegment {
            segment,
            score: None,
            probability: None,
            decision,
            sentences: None,
            output: None,
            role: None,
        }
    }

    /// Whether the segment is kept.
    pub fn keep(&self) -> bool {
        self.decision.keep
    }

    /// The text the output holds of the segment: its kept sentences under
    /// perplexity filtering, else its whole text.
    pub fn text(&self) -> &str {
        self.output.as_deref().unwrap_or(self.segment.text())
    }

    /// The words of [`ScoredSegment::text`]: the segment's count, or the
    /// kept sentences' counted.
    pub fn words(&self) -> usize {
        match &self.output {
            Some(o) => segment::count_words(o),
            None => self.segment.words(),
        }
    }

    /// What was compared with the threshold: log2(p / (1 − p)) with a
    /// classifier, else the n-gram score; `None` when a rule or the method
    /// decided (the `evidence` of JSON Lines, the API and Python).
    pub fn evidence(&self) -> Option<f64> {
        if self.decision.reason != crate::classify::Reason::Score {
            return None;
        }
        self.probability
            .map(crate::classify::log2_odds)
            .or(self.score)
    }
}

/// One cleaned document.
#[derive(Debug, Clone)]
#[non_exhaustive]
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
    /// The page's detected language (`crate::lang`'s tag), when the
    /// cleaner routes by language and the language was identified.
    pub language: Option<String>,
    /// The name of the model that decided, when the cleaner routes by
    /// language ([`crate::pipeline::Routes`]); `None` for a cleaner with one model.
    pub model: Option<Arc<str>>,
    /// The predicted quality of this page's cleaning (models trained with
    /// a page-quality model only; see `crate::quality`).
    pub quality: Option<PageQuality>,
    /// The page's metadata ([`crate::html::Metadata`]; HTML input only),
    /// its `language` the detected one when there is one. What the markup
    /// states, completed from the decisions (an author of a kept byline, the
    /// date of a dateline) unless the cleaner was asked not to
    /// ([`crate::Cleaner::with_completed_metadata`]).
    pub metadata: Option<crate::html::Metadata>,
    /// Why the document was not read whole, when it was not: a limit of
    /// the pass (`crate::html::Limit`: the segments are those read up to
    /// it), or, set by the caller that read the bytes, a body cut short (a
    /// truncated WARC record, gzip stream or chunked body: the part that
    /// decoded was cleaned).
    pub truncated: Option<String>,
    /// The cut the segments' scores were compared with, and the operating
    /// point that set it; `None` when no score decided (`--method
    /// heuristics`, `keep-all`, `perplexity`, a caller's own decider).
    pub cut: Option<Cut>,
    /// The page's predicted type (HTML input, models with a page-type
    /// classifier; `crate::classify::page`).
    pub page_type: Option<crate::classify::page::PagePrediction>,
}

/// Where a page's cut comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum OperatingPoint {
    /// The page's own expected-F cut (`crate::classify::expected_f_cut`):
    /// the default (`--prefer f`) with a calibrated classifier.
    PageF,
    /// The model's stored F point (`--prefer f`, a model whose classifier
    /// is not calibrated; 0 for the paper's models).
    F,
    /// The model's stored precision point (`--prefer precision`).
    Precision,
    /// The model's stored recall point (`--prefer recall`).
    Recall,
    /// A threshold the caller set (`--threshold`, `--min-probability`).
    Threshold,
}

impl OperatingPoint {
    /// The name in the web API's answer and Python's `to_dict()`
    /// (`page-f`, `f`, `precision`, `recall`, `threshold`).
    pub fn as_str(self) -> &'static str {
        match self {
            OperatingPoint::PageF => "page-f",
            OperatingPoint::F => "f",
            OperatingPoint::Precision => "precision",
            OperatingPoint::Recall => "recall",
            OperatingPoint::Threshold => "threshold",
        }
    }
}

/// The cut that decided a page's scored segments.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct Cut {
    /// Where it comes from.
    pub point: OperatingPoint,
    /// In bits of log-odds: a segment that its score decided
    /// ([`crate::classify::Reason::Score`]) is kept exactly when its
    /// [`ScoredSegment::evidence`] is at least this. Infinite when the page
    /// cut has no segment to cut at (nothing kept by score; JSON writes it
    /// as `null`).
    pub threshold: f64,
}

impl Cleaned {
    /// The cleaning of a document read as `input` (from `url`, if known)
    /// before anything was read: no segments, no encoding (`""`), nothing
    /// detected. Every `Cleaned` starts here, the pipeline's with
    /// `..Cleaned::new(url, input)` after the fields it read, so that a
    /// field added to `Cleaned` has its empty value in one place; a caller
    /// reports a document it could not clean with it as it is.
    pub fn new(url: Option<String>, input: InputKind) -> Cleaned {
        Cleaned {
            url,
            input,
            encoding: "",
            had_decode_errors: false,
            segments: Vec::new(),
            language: None,
            model: None,
            quality: None,
            metadata: None,
            truncated: None,
            cut: None,
            page_type: None,
        }
    }

    internal! {
        /// The one assembly of a cleaned page: the frozen page and the
        /// policy's decisions about its segments, in order.
        ///
        /// Here, and only here, the page's metadata is completed from the
        /// decisions where the markup did not state it: an author read from a
        /// kept byline (or a segment of the byline role), the publication and
        /// update dates of a dateline beside the kept text ([`completed`]).
        /// They read the segments kept before the page-quality rule, so that a
        /// page dropped whole for its quality still states its author. A
        /// cleaner whose output prints no metadata asks for none of this
        /// (`complete_metadata` false,
        /// [`crate::Cleaner::with_completed_metadata`]): the metadata is then
        /// the markup's. Then a dropped segment whose role would be the body
        /// has none: the body is what the page keeps.
        pub fn assemble(page: Page, decisions: Decisions, complete_metadata: bool) -> Cleaned {
            let Decisions {
                verdicts,
                cut,
                quality,
            } = decisions;
            let p = page.into_parts();
            debug_assert_eq!(p.segments.len(), verdicts.len());
            let mut segments: Vec<ScoredSegment> = p
                .segments
                .into_iter()
                .zip(verdicts)
                .map(|(segment, v)| ScoredSegment {
                    segment,
                    score: v.score,
                    probability: v.probability,
                    decision: v.decision,
                    sentences: v.sentences,
                    output: v.output,
                    role: v.role,
                })
                .collect();
            let mut metadata = p.metadata;
            if let Some(md) = metadata.as_mut().filter(|_| complete_metadata) {
                completed::complete(md, &segments, p.language.as_deref());
            }
            for s in segments.iter_mut().filter(|s| !s.keep()) {
                if s.role == Some(Role::Body) {
                    s.role = None;
                }
            }
            Cleaned {
                encoding: p.origin.encoding,
                had_decode_errors: p.origin.had_decode_errors,
                segments,
                language: p.language,
                model: p.model,
                quality,
                metadata,
                truncated: p.truncated,
                cut,
                page_type: p.page_type,
                ..Cleaned::new(p.origin.url, p.input)
            }
        }
    }

    /// The kept segments.
    pub fn kept(&self) -> impl Iterator<Item = &ScoredSegment> {
        self.segments.iter().filter(|s| s.keep())
    }

    /// The cleaned text: kept segments, one per line (a block of code in
    /// its lines), as [`ScoredSegment::written_text`] writes each.
    pub fn text(&self) -> String {
        let mut out = String::new();
        for s in self.kept() {
            out.push_str(&s.written_text());
            out.push('\n');
        }
        out
    }

    /// The document's URL as its record gives it: the URL it came with (a
    /// WARC record's target, a JSON line's or a Parquet row's `url`, the
    /// caller's), which wins; else the URL the page states as its canonical
    /// one ([`crate::html::Metadata::canonical_url`], absolute); else none.
    pub fn record_url(&self) -> Option<&str> {
        self.url.as_deref().or_else(|| {
            self.metadata
                .as_ref()
                .and_then(|m| m.canonical_url.as_deref())
        })
    }

    /// Words before cleaning (all segments).
    pub fn words_in(&self) -> usize {
        self.segments.iter().map(|s| s.segment.words()).sum()
    }

    /// Words after cleaning (kept segments, or their kept sentences).
    pub fn words_out(&self) -> usize {
        self.kept().map(ScoredSegment::words).sum()
    }
}
