//! [`CleanedRecord`]: the one JSON shape of a cleaned document.
//!
//! JSON Lines writes it ([`super::write_jsonl`]), the web API answers with
//! it, and the Python module's `Result.to_dict()` returns it, so the three
//! front ends cannot drift apart. Which optional fields appear is the only
//! difference, and the caller chooses it: JSON Lines leaves out what was not
//! asked for or is not known, the API writes every field (`null` when
//! unknown) and adds what the request decided (`method`, `input`,
//! `threshold`, `elapsed_ms`).
//!
//! Keys are written in alphabetical order (the order the fields are
//! declared in), as a `serde_json::Map` orders them.

use serde::Serialize;

use super::JsonOptions;
use crate::cancel::Cancel;
use crate::classify::Reason;
use crate::classify::page::PagePrediction;
use crate::cleaned::Cleaned;
use crate::html::Metadata;
use crate::perplexity::SentenceScore;
use crate::quality::PageQuality;

/// The JSON record of one cleaned document, borrowed from it and written
/// without building a `serde_json::Value` first (which would copy the text
/// and build a map per document). Optional fields are left out when `None`;
/// the nested `Option`s are written as `null` when `Some(None)`.
///
/// Made by [`CleanedRecord::jsonl`] or [`CleanedRecord::full`] (a front end
/// then sets the fields of its own, such as `method`), so that a field added
/// is no breaking change.
#[derive(Serialize)]
#[non_exhaustive]
pub struct CleanedRecord<'a> {
    /// Milliseconds the API took for the request (API only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub elapsed_ms: Option<f64>,
    /// The document's id (a file path, a record id; JSON Lines).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<&'a str>,
    /// How the document was read, `html` or `text` (API; [`Cleaned::input`]
    /// is never `auto`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input: Option<&'static str>,
    /// The page's identified language (`null`: not identified). JSON Lines
    /// writes it only when the cleaner routes by language.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<Option<&'a str>>,
    /// The kept text as Markdown ([`super::markdown()`]), when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub markdown: Option<String>,
    /// The page's metadata (HTML input; `null` for text in the API).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Option<&'a Metadata>>,
    /// The method that decided (API).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub method: Option<&'static str>,
    /// The model that decided. JSON Lines writes it only when the cleaner
    /// routes by language.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<Option<&'a str>>,
    /// Where the cut of [`Self::threshold`] comes from
    /// ([`crate::cleaned::OperatingPoint`]: `page-f`, `f`, `precision`,
    /// `recall`, `threshold`); `null` when no score decided (API and Python).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub operating_point: Option<Option<&'static str>>,
    /// The page's predicted cleaning quality (models with a page-quality model).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_quality: Option<Option<PageQuality>>,
    /// The page's predicted type and its probability,
    /// `{"confidence": 0.93, "type": "article"}` (HTML input, models with a
    /// page-type classifier; `crate::classify::page`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_type: Option<Option<PagePrediction>>,
    /// Every segment, kept and dropped, in page order, when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub segments: Option<SegmentRecords<'a>>,
    /// The kept text, one segment per line, without a final newline.
    pub text: String,
    /// The cut that applied, in bits of log-odds ([`crate::cleaned::Cut`]):
    /// a segment its score decided is kept exactly when its `evidence` is
    /// at least this; `null` when no score decided or nothing could be kept
    /// by score (API and Python).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threshold: Option<Option<f64>>,
    /// Why the document was not read whole ([`Cleaned::truncated`]); left
    /// out when it was.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub truncated: Option<&'a str>,
    /// The document's URL: the one it came with, else the page's canonical
    /// URL ([`Cleaned::record_url`]); `null` when neither is known.
    pub url: Option<&'a str>,
    /// Words in all segments (runs between spaces, each Han, kana and
    /// full-width character a word of its own).
    pub words_in: usize,
    /// Words in the kept segments, counted as `words_in`.
    pub words_out: usize,
}

impl<'a> CleanedRecord<'a> {
    /// The record as JSON Lines writes it: `id` when given, Markdown and the
    /// segments as `opts` asks, `language` and `model` only for a routed
    /// cleaner, `metadata` and `page_quality` only when known.
    pub fn jsonl(doc: &'a Cleaned, id: Option<&'a str>, opts: JsonOptions) -> CleanedRecord<'a> {
        let routed = doc.model.is_some();
        CleanedRecord {
            id,
            markdown: opts.markdown.then(|| super::markdown(doc)),
            language: routed.then_some(doc.language.as_deref()),
            metadata: doc.metadata.as_ref().map(Some),
            model: routed.then_some(doc.model.as_deref()),
            page_quality: doc.quality.map(Some),
            page_type: doc.page_type.map(Some),
            segments: opts
                .segments
                .then_some(SegmentRecords { doc, cancel: None }),
            ..CleanedRecord::bare(doc)
        }
    }

    /// The record with every document field present (`null` when unknown),
    /// the Markdown and the segments: what the web API and Python's
    /// `Result.to_dict()` give. The API adds its request fields.
    pub fn full(doc: &'a Cleaned) -> CleanedRecord<'a> {
        CleanedRecord {
            input: Some(doc.input.as_str()),
            markdown: Some(super::markdown(doc)),
            language: Some(doc.language.as_deref()),
            metadata: Some(doc.metadata.as_ref()),
            model: Some(doc.model.as_deref()),
            page_quality: Some(doc.quality),
            page_type: Some(doc.page_type),
            segments: Some(SegmentRecords { doc, cancel: None }),
            operating_point: Some(doc.cut.map(|c| c.point.as_str())),
            threshold: Some(doc.cut.map(|c| c.threshold).filter(|t| t.is_finite())),
            ..CleanedRecord::bare(doc)
        }
    }

    /// The fields every record has, and no optional one.
    fn bare(doc: &'a Cleaned) -> CleanedRecord<'a> {
        CleanedRecord {
            elapsed_ms: None,
            id: None,
            input: None,
            language: None,
            markdown: None,
            metadata: None,
            method: None,
            model: None,
            operating_point: None,
            page_quality: None,
            page_type: None,
            segments: None,
            text: {
                let mut t = doc.text();
                t.truncate(t.trim_end().len());
                t
            },
            threshold: None,
            truncated: doc.truncated.as_deref(),
            url: doc.record_url(),
            words_in: doc.words_in(),
            words_out: doc.words_out(),
        }
    }

    /// Has the segments checked for cancellation as they are written (one
    /// look every [`Cancel::EVERY`] segments): a write then fails with the
    /// error "cancelled".
    pub fn cancelled_by(mut self, cancel: &'a Cancel) -> CleanedRecord<'a> {
        if let Some(s) = &mut self.segments {
            s.cancel = Some(cancel);
        }
        self
    }
}

/// The segments of a [`CleanedRecord`], written one by one as
/// [`SegmentRecord`]s (never collected).
pub struct SegmentRecords<'a> {
    doc: &'a Cleaned,
    cancel: Option<&'a Cancel>,
}

impl Serialize for SegmentRecords<'_> {
    fn serialize<S: serde::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{Error, SerializeSeq};
        let mut seq = ser.serialize_seq(Some(self.doc.segments.len()))?;
        for (i, s) in self.doc.segments.iter().enumerate() {
            if let Some(c) = self.cancel
                && i % Cancel::EVERY == 0
                && c.is_cancelled()
            {
                return Err(S::Error::custom("cancelled"));
            }
            seq.serialize_element(&SegmentRecord {
                evidence: s.evidence(),
                keep: s.keep(),
                kind: s.segment.kind.letter(),
                output: s.output.as_deref(),
                probability: s.probability,
                reason: &s.decision.reason,
                role: s.role,
                score: s.score,
                sentences: s.sentences.as_deref(),
                text: s.segment.text(),
            })?;
        }
        seq.end()
    }
}

/// One segment of a [`CleanedRecord`] (keys in alphabetical order).
#[derive(Serialize)]
#[non_exhaustive]
pub struct SegmentRecord<'a> {
    /// What was compared with the threshold: log2(p / (1 − p)) with a
    /// classifier, else the n-gram score; `null` when a rule or the method
    /// decided.
    pub evidence: Option<f64>,
    /// Whether the segment is kept.
    pub keep: bool,
    /// `p`, `h` or `l`.
    pub kind: &'static str,
    /// The text the output holds when it differs from `text` (the
    /// perplexity filter dropped or marked sentences).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output: Option<&'a str>,
    /// The classifier's probability that the segment is clean (models with a classifier).
    pub probability: Option<f64>,
    /// What decided: `{"by": "score"}`, `{"by": "heuristic", "rule": …}`, …
    pub reason: &'a Reason,
    /// What the segment is on its page (`title`, `byline`, `body`,
    /// `caption`, `comment`, `post`, `table`, `code`, `furniture`; HTML
    /// input; left out for a dropped segment that would be `body`:
    /// `crate::cleaned::Cleaned::assemble`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub role: Option<crate::cleaned::Role>,
    /// The n-gram log-odds in bits (absent without a model).
    pub score: Option<f64>,
    /// Every sentence's perplexity (`--method perplexity`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sentences: Option<&'a [SentenceScore]>,
    /// The segment's text as read.
    pub text: &'a str,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Cleaner, InputKind};

    fn cleaned(page: &str) -> Cleaned {
        let cleaner =
            Cleaner::from_model(crate::model::embedded("en").expect("the embedded model"));
        cleaner.clean(
            page.as_bytes(),
            InputKind::Auto,
            Some("https://example.org/a"),
        )
    }

    const PAGE: &str = "<html><head><title>Tomatoes</title></head><body>\
        <nav><a href=/>Home</a> | <a href=/v>Vegetables</a></nav><article><h1>Tomatoes</h1>\
        <p>Tomatoes are among the easiest vegetables to grow in a garden, and they need sun.</p>\
        <p>Water them deeply twice a week, and stake the plants before the fruit sets.</p>\
        </article></body></html>";

    #[test]
    fn the_jsonl_record_is_the_full_record_with_fields_left_out() {
        let doc = cleaned(PAGE);
        let opts = JsonOptions {
            segments: true,
            markdown: true,
        };
        let jsonl = serde_json::to_value(CleanedRecord::jsonl(&doc, Some("a.html"), opts)).unwrap();
        let full = serde_json::to_value(CleanedRecord::full(&doc)).unwrap();
        let (jsonl, full) = (jsonl.as_object().unwrap(), full.as_object().unwrap());
        for (k, v) in jsonl {
            if k != "id" {
                assert_eq!(Some(v), full.get(k), "{k}");
            }
        }
        assert_eq!(jsonl["id"], "a.html");
        // What JSON Lines leaves out for an unrouted cleaner, the full record has.
        for k in [
            "input",
            "language",
            "model",
            "metadata",
            "page_quality",
            "page_type",
        ] {
            assert!(full.contains_key(k), "{k}");
        }
        assert!(!jsonl.contains_key("model") && !jsonl.contains_key("input"));
        // Keys in alphabetical order, as declared.
        let keys: Vec<&String> = full.keys().collect();
        let mut sorted = keys.clone();
        sorted.sort();
        assert_eq!(keys, sorted);
    }

    #[test]
    fn segments_carry_their_reason_and_evidence() {
        let doc = cleaned(PAGE);
        let full = serde_json::to_value(CleanedRecord::full(&doc)).unwrap();
        let segs = full["segments"].as_array().unwrap();
        assert_eq!(segs.len(), doc.segments.len());
        for (x, s) in segs.iter().zip(&doc.segments) {
            assert_eq!(x["keep"], s.keep());
            assert_eq!(x["text"], s.segment.text());
            assert_eq!(x["reason"]["by"], s.decision.reason.as_str());
            if x["reason"]["by"] == "score" {
                assert!(x["evidence"].is_number(), "{x}");
            } else {
                assert!(x["evidence"].is_null(), "{x}");
            }
        }
        assert!(
            full["text"]
                .as_str()
                .unwrap()
                .contains("Tomatoes are among")
        );
        assert!(!full["text"].as_str().unwrap().ends_with('\n'));
    }

    #[test]
    fn a_cancelled_record_fails_to_write() {
        let doc = cleaned(PAGE);
        let cancel = Cancel::new();
        cancel.cancel();
        let r = CleanedRecord::full(&doc).cancelled_by(&cancel);
        assert!(
            serde_json::to_string(&r)
                .unwrap_err()
                .to_string()
                .contains("cancelled")
        );
        // Without the cancel the same record writes.
        assert!(serde_json::to_string(&CleanedRecord::full(&doc)).is_ok());
    }
}
