//! The whole pipeline for one document: bytes in, decided segments out.

use std::sync::Arc;

use crate::classify::{self, Decision, Method, Preference};
use crate::decode::{self, Document};
use crate::html;
use crate::lm::WordLm;
use crate::model::Model;
use crate::perplexity::{SentenceFilter, SentenceScore};
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

/// Whether a decoded document looks like HTML: it has one of the tags that
/// almost every page has (`<html`, `<body`, `<p>`, `<div`, `<br`, `<table`,
/// `<a href`, a doctype) in its first 64 KiB.
pub fn looks_like_html(text: &str) -> bool {
    let head = &text.as_bytes()[..text.len().min(64 * 1024)];
    const TAGS: [&[u8]; 12] = [
        b"<html",
        b"<body",
        b"<head",
        b"<p>",
        b"<p ",
        b"<div",
        b"<br",
        b"<table",
        b"<a href",
        b"<!doctype",
        b"<title",
        b"<span",
    ];
    (0..head.len()).any(|i| {
        head[i] == b'<'
            && TAGS.iter().any(|t| {
                head.get(i..i + t.len())
                    .is_some_and(|w| w.eq_ignore_ascii_case(t))
            })
    })
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
    /// Its sentences with their perplexities ([`Method::Perplexity`] only).
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
    /// The predicted quality of this page's cleaning (models trained with
    /// a page-quality model only; see [`crate::quality`]).
    pub quality: Option<crate::quality::PageQuality>,
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

/// A configured cleaner: a model, a method and a threshold. Cheap to clone
/// and safe to share between threads.
#[derive(Debug, Clone)]
pub struct Cleaner {
    model: Arc<Model>,
    method: Method,
    /// `None`: the model's own operating point (0 for models without a classifier).
    threshold: Option<f64>,
    /// Which stored operating point applies when `threshold` is `None`.
    preference: Preference,
    /// The perplexity filter of [`Method::Perplexity`] (`None`: the
    /// embedded `en-ppl` model with the default cut-off).
    perplexity: Option<SentenceFilter>,
    /// Pages whose predicted precision is below this are dropped whole.
    min_page_quality: Option<f64>,
    /// What the cleaner knows of the pages' sites ([`crate::site`]).
    site: Option<Arc<crate::site::SiteMemory>>,
}

impl Cleaner {
    /// A cleaner with the paper's rule (NCleaner, threshold 0).
    pub fn new(model: Model) -> Cleaner {
        Cleaner::from_shared(Arc::new(model))
    }

    /// A cleaner sharing an already loaded model.
    pub fn from_shared(model: Arc<Model>) -> Cleaner {
        Cleaner {
            model,
            method: Method::NCleaner,
            threshold: None,
            preference: Preference::Precision,
            perplexity: None,
            min_page_quality: None,
            site: None,
        }
    }

    /// The same cleaner giving the classifier the site features of each
    /// page from this memory ([`crate::site`]; models trained with them only).
    pub fn with_site_memory(mut self, memory: Arc<crate::site::SiteMemory>) -> Cleaner {
        self.site = Some(memory);
        self
    }

    /// Whether the model uses site features (and a site memory would help).
    pub fn uses_sites(&self) -> bool {
        self.method == Method::NCleaner && self.model.classifier.as_ref().is_some_and(|c| c.site)
    }

    /// The same cleaner dropping every page whose predicted precision
    /// ([`crate::quality`]) is below `p` (0–1): all its segments are then
    /// dropped ([`classify::Reason::PageQuality`]) and [`Cleaned::quality`]
    /// says why. Fails when the model has no page-quality model.
    pub fn with_min_page_quality(mut self, p: f64) -> crate::error::Result<Cleaner> {
        if !(0.0..=1.0).contains(&p) {
            return Err(crate::error::Error::Parameter(format!(
                "the least page quality must be between 0 and 1, not {p}"
            )));
        }
        if self
            .model
            .classifier
            .as_ref()
            .and_then(|c| c.quality.as_ref())
            .is_none()
        {
            return Err(crate::error::Error::Parameter(format!(
                "the model ({}) has no page-quality model: train it with `ncleaner train` (without --no-page-quality)",
                self.model.meta.provenance
            )));
        }
        self.min_page_quality = Some(p);
        Ok(self)
    }

    /// The same cleaner filtering sentences by perplexity
    /// ([`Method::Perplexity`]) with this filter.
    pub fn with_perplexity(mut self, filter: SentenceFilter) -> Cleaner {
        self.method = Method::Perplexity;
        self.perplexity = Some(filter);
        self
    }

    /// The same cleaner with another method.
    pub fn with_method(mut self, method: Method) -> Cleaner {
        self.method = method;
        self
    }

    /// The same cleaner with another decision threshold in bits of log-odds
    /// (of the n-gram models, or of the classifier's probability; see [`crate::classify`]).
    pub fn with_threshold(mut self, threshold: f64) -> Cleaner {
        self.threshold = Some(threshold);
        self
    }

    /// The same cleaner with the model's own operating point (`None`) or a threshold.
    pub fn with_threshold_option(mut self, threshold: Option<f64>) -> Cleaner {
        self.threshold = threshold;
        self
    }

    /// The same cleaner with a threshold given as the least probability of
    /// being clean that a kept segment must have (models with a classifier;
    /// for the paper's models this is read as 2^T / (1 + 2^T) of the n-gram
    /// log-odds T, which is not a calibrated probability).
    pub fn with_min_probability(self, p: f64) -> Cleaner {
        self.with_threshold(classify::log2_odds(p))
    }

    /// The same cleaner with another stored operating point (used when no threshold is set).
    pub fn with_preference(mut self, preference: Preference) -> Cleaner {
        self.preference = preference;
        self
    }

    /// The threshold in force for an input.
    pub fn threshold(&self, input: InputKind) -> f64 {
        let html = input != InputKind::Text;
        self.threshold.unwrap_or_else(|| {
            self.model
                .classifier
                .as_ref()
                .filter(|c| c.weights(html).is_some())
                .map_or(0.0, |c| c.operating_threshold(html, self.preference))
        })
    }

    /// The model.
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// Cleans the bytes of one document. `url` is its URL if the caller knows it.
    pub fn clean(&self, bytes: &[u8], input: InputKind, url: Option<&str>) -> Cleaned {
        self.clean_with_charset(bytes, input, url, None)
    }

    /// Cleans one document whose transport (HTTP) charset label is known.
    pub fn clean_with_charset(
        &self,
        bytes: &[u8],
        input: InputKind,
        url: Option<&str>,
        charset: Option<&str>,
    ) -> Cleaned {
        let doc = decode::decode(bytes, url, charset);
        self.clean_document(doc, input)
    }

    /// Cleans an already decoded document.
    pub fn clean_document(&self, doc: Document, input: InputKind) -> Cleaned {
        let (input, mut segments) = segments_of(&doc.text, input);
        if let Some(mem) = self.site.as_ref().filter(|_| self.uses_sites()) {
            mem.annotate(doc.url.as_deref(), &mut segments);
        }
        let segments = self.decide(segments, input);
        let mut c = Cleaned {
            url: doc.url,
            input,
            encoding: doc.encoding.name(),
            had_decode_errors: doc.had_errors,
            segments,
            quality: None,
        };
        self.assess(&mut c);
        c
    }

    /// Sets a cleaned page's predicted quality and, below the least page
    /// quality asked for, drops the page's kept segments.
    pub fn assess(&self, c: &mut Cleaned) {
        c.quality = self.page_quality(c);
        if let (Some(min), Some(q)) = (self.min_page_quality, c.quality) {
            if q.precision < min {
                for s in c.segments.iter_mut().filter(|s| s.keep()) {
                    s.decision = Decision {
                        keep: false,
                        reason: classify::Reason::PageQuality,
                    };
                }
            }
        }
    }

    /// Whether a cleaned page was dropped for its predicted quality.
    pub fn below_page_quality(&self, c: &Cleaned) -> bool {
        matches!((self.min_page_quality, c.quality), (Some(min), Some(q)) if q.precision < min)
    }

    /// The predicted quality of a page this cleaner cleaned: from the
    /// model's page-quality model for the page's input kind, if it has one
    /// and the method is the model's ([`crate::quality`]).
    pub fn page_quality(&self, c: &Cleaned) -> Option<crate::quality::PageQuality> {
        if !self.method.uses_model() || self.method == Method::Perplexity {
            return None;
        }
        let html = c.input != InputKind::Text;
        self.model
            .classifier
            .as_ref()?
            .quality(html)
            .map(|q| q.predict(c))
    }

    /// Scores and decides the segments of one page (`input`: how they were read).
    pub fn decide(&self, segments: Vec<Segment>, input: InputKind) -> Vec<ScoredSegment> {
        if self.method == Method::Perplexity {
            return self.filter_sentences(segments);
        }
        let threshold = self.threshold(input);
        let html = input != InputKind::Text;
        let scored: Option<(Vec<f64>, Vec<Option<f64>>)> = self.method.uses_model().then(|| {
            let scorer = self.model.scorer();
            match self
                .model
                .classifier
                .as_ref()
                .and_then(|c| c.score_page(&segments, scorer, html))
            {
                Some((scores, probs)) => (scores, probs.into_iter().map(Some).collect()),
                None => (
                    segments.iter().map(|s| scorer.score(&s.text)).collect(),
                    vec![None; segments.len()],
                ),
            }
        });
        segments
            .into_iter()
            .enumerate()
            .map(|(i, segment)| {
                let (score, probability) = match &scored {
                    Some((scores, probs)) if segment.heuristic.is_none() => {
                        (Some(scores[i]), probs[i])
                    }
                    _ => (None, None),
                };
                // The classifier's log-odds decide when there is one, else the n-gram score.
                let evidence = probability.map(classify::log2_odds).or(score);
                let decision = classify::decide(self.method, &segment, evidence, threshold);
                ScoredSegment {
                    segment,
                    score,
                    probability,
                    decision,
                    sentences: None,
                    output: None,
                }
            })
            .collect()
    }

    /// [`Method::Perplexity`]: every segment's sentences scored by the word
    /// model, those above the cut-off dropped (see [`crate::perplexity`]).
    fn filter_sentences(&self, segments: Vec<Segment>) -> Vec<ScoredSegment> {
        let filter = self.perplexity.as_ref().unwrap_or_else(|| default_filter());
        segments
            .into_iter()
            .map(|segment| {
                let f = filter.filter(&segment.text);
                let keep = f.text.is_some();
                let output = f.text.filter(|t| *t != segment.text);
                ScoredSegment {
                    decision: Decision {
                        keep,
                        reason: classify::Reason::Perplexity,
                    },
                    output,
                    sentences: Some(f.sentences),
                    segment,
                    score: None,
                    probability: None,
                }
            })
            .collect()
    }
}

/// The filter of a cleaner given [`Method::Perplexity`] without one: the
/// embedded `en-ppl` model, the default cut-off.
fn default_filter() -> &'static SentenceFilter {
    static FILTER: std::sync::OnceLock<SentenceFilter> = std::sync::OnceLock::new();
    FILTER.get_or_init(|| {
        let lm: WordLm =
            crate::lm::file::embedded("en-ppl").expect("the embedded word model loads");
        SentenceFilter::new(std::sync::Arc::new(lm))
    })
}

/// The segments of a decoded document, and the input kind it was read as.
pub fn segments_of(text: &str, input: InputKind) -> (InputKind, Vec<Segment>) {
    let input = match input {
        InputKind::Auto if looks_like_html(text) => InputKind::Html,
        InputKind::Auto => InputKind::Text,
        k => k,
    };
    let segments = match input {
        InputKind::Text => segment::from_text(text),
        _ => segment::from_page(html::parse(text)),
    };
    (input, segments)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_detection() {
        assert!(looks_like_html("<!DOCTYPE html><html>"));
        assert!(looks_like_html("junk\n<P>para"));
        assert!(!looks_like_html(
            "Just some text.\n\nWith a <b> in it? No: 3 < 4."
        ));
    }
}
