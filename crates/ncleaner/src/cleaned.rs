//! What the decide stage hands on: each segment with its score and the
//! decision about it, and one cleaned document ([`Cleaned`]). These types sit
//! between the deciding stages (`classify`, `perplexity`) and the stages that
//! read a decided page (`quality`, `pipeline`, `format`), so that each of
//! those depends on them and none on another.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

mod roles;
mod written;

pub use roles::{
    BYLINE_MAX_WORDS, BYLINE_REACH, CAPTION_MAX_WORDS, FURNITURE_MAX_WORDS, Role, Roles,
    apply_roles, assign_roles, settle_roles,
};
pub(crate) use written::without_permalink;

use crate::classify::{Decision, DroppedComments};
use crate::perplexity::SentenceScore;
use crate::segment::{self, Segment};

/// What kind of input a document is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum InputKind {
    /// An HTML page.
    Html,
    /// A plain-text dump of a page.
    Text,
    /// Decide by looking at the document (`pipeline::looks_like_html`).
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
    /// its `language` the detected one when there is one.
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
/// noise. On WCXB's development pages (cross-validated by domain) the mean
/// page F is 0.852 with repeats of 3+ words dropped and 0.848 with them
/// kept, products gaining most (0.643 against 0.627; 1, 5 and 10 words:
/// 0.852, 0.852, 0.852).
///
/// Table cells are left alone: in a table the same value ("41% / 46%",
/// "Yes", "Not included") stands in many rows, and each row needs it. On
/// the same pages the Markdown table rows found are 0.749 recall / 0.635
/// precision with cells left alone and 0.686 / 0.587 without (with
/// [`keep_table_rows`]).
pub fn drop_repeats(segments: &mut [ScoredSegment]) {
    use std::hash::BuildHasher;
    // Kept texts by their hash; a hash that matches is checked text by text,
    // so a collision never drops a segment. No text is copied.
    let mut seen: rustc_hash::FxHashMap<u64, Vec<usize>> = Default::default();
    for i in 0..segments.len() {
        if !segments[i].decision.keep
            || segments[i]
                .segment
                .structure
                .is_some_and(|t| t.cell.is_some())
        {
            continue;
        }
        let text = segments[i].text().trim();
        // (Trimming removes no word unless it removes Unicode spaces,
        // which `count_words` would count.)
        let words = if text.len() == segments[i].text().len() {
            segments[i].words()
        } else {
            segment::count_words(text)
        };
        if words < REPEAT_MIN_WORDS {
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

/// The most words a cell of a data table holds. A table with a longer cell
/// lays out the page (an article in one cell, a sidebar in another): its
/// rows are not kept whole ([`keep_table_rows`]) and its blocks are written
/// as paragraphs, lists and headings in Markdown.
pub const DATA_CELL_WORDS: usize = 60;

/// The tables (by number) that lay out the page: those with a cell of more
/// than [`DATA_CELL_WORDS`] words, `words` counting each segment's. A
/// cell's segments come one after another in the page, so its words are
/// summed until the next cell starts: one pass, whatever the table's size.
/// The one test of a data table, for [`keep_table_rows`] (all of a page's
/// cells) and for Markdown's tables (the kept cells of one table).
pub(crate) fn layout_tables<'a>(
    segments: impl IntoIterator<Item = &'a ScoredSegment>,
    words: impl Fn(&ScoredSegment) -> usize,
) -> rustc_hash::FxHashSet<u32> {
    let mut layout = rustc_hash::FxHashSet::default();
    let mut current = None;
    let mut sum = 0;
    for s in segments {
        let Some(c) = s.segment.structure.and_then(|t| t.cell) else {
            current = None;
            continue;
        };
        if current != Some((c.table, c.row, c.column)) {
            current = Some((c.table, c.row, c.column));
            sum = 0;
        }
        sum += words(s);
        if sum > DATA_CELL_WORDS {
            layout.insert(c.table);
        }
    }
    layout
}

/// The most words a dropped cell may have for [`keep_table_rows`] to keep it
/// beside a kept cell of its row or in a table kept whole: labels, units and
/// values, not a cell of prose that the classifier judged on its own.
pub const ROW_CELL_WORDS: usize = 12;

/// Keeps the short cells of a data table's rows, and of the whole table
/// when the table is content ([`crate::classify::Reason::TableRow`]).
///
/// The classifier judges each block alone, and in a table a block is a
/// cell: the value of a row of specifications ("1920 × 1080") reads like
/// content and is kept, while its label ("Resolution", "Lens Shift") is two
/// words, p 0.3, and dropped; in a table of figures the header row
/// ("Month", "Rainfall (mm)") and a row of a month and two numbers are
/// dropped while the rows around them are kept. What comes out is half a
/// table: half facts in the text, and in Markdown a table whose first kept
/// row is read as its header. So a dropped cell is kept when
///
/// - its row has cells in two columns or more and another cell of the row
///   is kept (a row is one fact); or its table is kept whole: some cell of
///   the table is kept and either such a kept cell lies in the page's best
///   prose container ([`crate::html::Container::in_best`]: the table is
///   part of the article) or more than half of the table's rows (two or
///   more) have a kept cell (the table is mostly content wherever it is);
///   the header row and the rows the classifier dropped entirely then
///   follow the table;
/// - no cell of its table holds more than [`DATA_CELL_WORDS`] words (the
///   table holds data; it does not lay out the page);
/// - the classifier dropped it (not a heuristic rule, a comment filter or a
///   repeat) and it has at most [`ROW_CELL_WORDS`] words;
/// - it is not a comment the page drops ([`DroppedComments`]).
///
/// A cell of links is kept like any other: in the tables of modern pages
/// it is most often a value (a name, a product, a team).
///
/// Measured on WCXB's development pages, cross-validated by domain (the
/// fold models of `scripts/wcxb-crossval`, each rule cleaning the same
/// pages), Markdown table rows found, recall / precision, and mean page F1:
///
/// | a data table kept whole when | table rows | page F1 |
/// | --- | --- | --- |
/// | never (rows with a kept cell completed) | 0.584 / 0.610 | 0.861 |
/// | never, but its header row joins a kept row | 0.610 / 0.603 | 0.861 |
/// | more than half of its rows have a kept cell | 0.622 / 0.615 | 0.861 |
/// | a kept cell is in the best container, or more than half (this rule) | 0.800 / 0.637 | 0.862 |
/// | any cell of it is kept | 0.805 / 0.631 | 0.862 |
///
/// The last rule costs the paper's models on CleanEval's training pool
/// (`ncleaner crossval`, 10 folds) 0.24 word F (93.06 → 92.82, lexical,
/// HTML): on pages of 2007 a stray kept cell of a menu laid out in a table
/// would keep the whole menu. This rule costs 0.09 there (92.97), the
/// majority alone 0.01. One WCXB page (a table of 469 gold rows of which
/// the classifier keeps a few, in the article) carries much of the recall;
/// without it this rule finds 0.778 / 0.592 against 0.657 / 0.600 for rows
/// alone. EVALUATION.md has every set.
///
/// A cell is the run of segments with the same table, row and column; a
/// row, the run with the same table and row. One pass finds each table's
/// longest cell, one more each table's rows with a kept cell, one more
/// each row's runs: linear in the page.
pub fn keep_table_rows(segments: &mut [ScoredSegment], comments: DroppedComments) {
    use crate::html::Cell;
    fn cell(s: &ScoredSegment) -> Option<Cell> {
        s.segment.structure.and_then(|t| t.cell)
    }
    let layout = layout_tables(segments.iter(), |s| s.segment.words());
    // Each data table's rows, whether each has a kept cell, and whether a
    // kept cell lies in the page's best prose container.
    let mut tables: rustc_hash::FxHashMap<u32, (rustc_hash::FxHashMap<u32, bool>, bool)> =
        Default::default();
    for s in segments.iter() {
        let Some(c) = cell(s).filter(|c| !layout.contains(&c.table)) else {
            continue;
        };
        let (rows, in_best) = tables.entry(c.table).or_default();
        *rows.entry(c.row).or_default() |= s.decision.keep;
        *in_best |= s.decision.keep && s.segment.container.is_some_and(|c| c.in_best);
    }
    let whole: rustc_hash::FxHashSet<u32> = tables
        .iter()
        .filter(|(_, (rows, in_best))| {
            let kept = rows.values().filter(|&&k| k).count();
            kept > 0 && (*in_best || (rows.len() >= 2 && 2 * kept > rows.len()))
        })
        .map(|(&t, _)| t)
        .collect();
    let keepable = |s: &ScoredSegment| {
        !s.decision.keep
            && s.decision.reason == crate::classify::Reason::Score
            && !comments.contains(&s.segment)
            && s.segment.words() <= ROW_CELL_WORDS
    };
    let mut start = 0;
    while start < segments.len() {
        let Some(first) = cell(&segments[start]) else {
            start += 1;
            continue;
        };
        let end = start
            + segments[start..]
                .iter()
                .take_while(|s| {
                    cell(s).is_some_and(|c| (c.table, c.row) == (first.table, first.row))
                })
                .count();
        let row = &mut segments[start..end];
        start = end;
        let completed = whole.contains(&first.table)
            || (!layout.contains(&first.table)
                && row.iter().any(|s| s.decision.keep)
                && row
                    .iter()
                    .any(|s| cell(s).map(|c| c.column) != Some(first.column)));
        if !completed {
            continue;
        }
        for s in row.iter_mut().filter(|s| keepable(s)) {
            s.decision = Decision {
                keep: true,
                reason: crate::classify::Reason::TableRow,
            };
        }
    }
}

/// Keeps the code blocks of a page's content: a dropped block of
/// preformatted text (`pre`) inside the page's best prose container is
/// kept ([`crate::classify::Reason::Code`]) when the page keeps another
/// segment. Code scores badly under n-gram models of prose, and the older
/// pools have little of it to learn from, so the classifier alone drops
/// most code of documentation and forum pages (p 0.1–0.4); code outside the
/// content's container (a site's install banner) is left to the model. A
/// comment the page drops ([`DroppedComments`]) stays dropped.
///
/// On WCXB's development pages (the fold models of `scripts/wcxb-crossval`,
/// first fold, cleaned with and without the rule) documentation pages score
/// 0.920 with it and 0.911 without, forums 0.850 and 0.843, the others
/// within 0.001; EVALUATION.md has every set.
pub fn keep_code_blocks(segments: &mut [ScoredSegment], comments: DroppedComments) {
    if !segments.iter().any(|s| s.decision.keep) {
        return;
    }
    for s in segments.iter_mut().filter(|s| {
        !s.decision.keep
            && s.decision.reason == crate::classify::Reason::Score
            && s.segment.structure.is_some_and(|t| t.pre)
            && s.segment.container.is_some_and(|c| c.in_best)
            && !comments.contains(&s.segment)
    }) {
        s.decision = Decision {
            keep: true,
            reason: crate::classify::Reason::Code,
        };
    }
}

/// The most words a page's kept text may have, when every kept segment is a
/// heading, for [`drop_bare_headings`] to read the page as having no
/// content: [`crate::html::BOLD_HEADING_MAX_WORDS`], the most words a bold
/// line may have to be read as a heading, so that the rule never takes a
/// page whose one "heading" is a statement (a link post's title).
pub const BARE_HEADINGS_MAX_WORDS: usize = crate::html::BOLD_HEADING_MAX_WORDS;

/// Drops the kept text of a page that keeps headings alone, of
/// [`BARE_HEADINGS_MAX_WORDS`] words or fewer in all
/// ([`crate::classify::Reason::BareHeadings`]): a heading heads something,
/// and a page whose text under its headings was all dropped has no main
/// content. These are shells that render with scripts (a shop's product
/// page whose one heading is the shop's name), and the section headings
/// of a page whose products its scripts fill in ("Best of the best"). For a
/// corpus such a page is a document of a few words that say nothing; an
/// empty output says the page has no content, as the gold of such pages
/// does.
///
/// Pages that keep a longer heading, or more headings, are left alone: a
/// list of categories set as headings ("Radios (4)", "Power Banks (158)")
/// is a collection's content, and a link post's title of 39 words is a
/// forum page's. On WCXB's development pages (the cross-validated outputs
/// of `scripts/wcxb-crossval`) the rule empties four pages, all of them
/// pages whose gold is empty, and no other; EVALUATION.md has every set.
pub fn drop_bare_headings(segments: &mut [ScoredSegment]) {
    let mut words = 0;
    for s in segments.iter().filter(|s| s.decision.keep) {
        if s.segment.kind != segment::Kind::H {
            return;
        }
        words += s.words();
        if words > BARE_HEADINGS_MAX_WORDS {
            return;
        }
    }
    for s in segments.iter_mut().filter(|s| s.decision.keep) {
        s.decision = Decision {
            keep: false,
            reason: crate::classify::Reason::BareHeadings,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classify::{Comments, Decision, Reason};

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
            role: None,
        }
    }

    #[test]
    fn a_page_that_keeps_a_few_words_of_headings_alone_keeps_nothing() {
        let heading = |text: &str, keep: bool| {
            let mut s = scored(text, keep);
            s.segment.kind = segment::Kind::H;
            s
        };
        // A shop's shell: its name as the one kept heading.
        let mut s = vec![
            heading("Aliexpress", true),
            scored(
                "Help Center, Disputes & Reports, Return & refund policy",
                false,
            ),
        ];
        drop_bare_headings(&mut s);
        assert!(s.iter().all(|x| !x.decision.keep));
        assert_eq!(s[0].decision.reason, Reason::BareHeadings);
        assert_eq!(s[1].decision.reason, Reason::Score);

        // Headings of 15 words in all are still bare; 16 are not.
        let words = |n: usize| vec!["word"; n].join(" ");
        let mut s = vec![heading(&words(10), true), heading(&words(5), true)];
        drop_bare_headings(&mut s);
        assert!(s.iter().all(|x| !x.decision.keep));
        let mut s = vec![heading(&words(10), true), heading(&words(6), true)];
        drop_bare_headings(&mut s);
        assert!(s.iter().all(|x| x.decision.keep));

        // A heading with a kept paragraph under it is content.
        let mut s = vec![heading("Specifications", true), scored("Weight", true)];
        drop_bare_headings(&mut s);
        assert!(s.iter().all(|x| x.decision.keep));

        // A page that keeps nothing is left as it is.
        let mut s = vec![heading("Menu", false)];
        drop_bare_headings(&mut s);
        assert_eq!(s[0].decision.reason, Reason::Score);
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

    /// A scored segment in cell (`table`, `row`, `column`).
    fn cell(text: &str, keep: bool, (table, row, column): (u32, u32, u32)) -> ScoredSegment {
        let mut s = scored(text, keep);
        s.segment.structure = Some(crate::html::Structure {
            cell: Some(crate::html::Cell {
                table,
                row,
                column,
                header: false,
            }),
            ..Default::default()
        });
        s
    }

    fn kept(s: &[ScoredSegment]) -> Vec<bool> {
        s.iter().map(|x| x.decision.keep).collect()
    }

    #[test]
    fn short_cells_of_a_kept_row_are_kept() {
        let long = "word ".repeat(ROW_CELL_WORDS + 1);
        let mut s = vec![
            // A row of specifications: label dropped, value kept.
            cell("Lens Shift", false, (1, 1, 1)),
            cell("Vertical and horizontal, motorised", true, (1, 1, 2)),
            // A long dropped cell is judged on its own.
            cell(&long, false, (1, 2, 1)),
            cell("Kept value", true, (1, 2, 2)),
            // Not the table's cell: a paragraph after the table.
            scored("Next paragraph", false),
            // A table of which nothing is kept stays dropped.
            cell("Weight", false, (2, 1, 1)),
            cell("3.2 kg", false, (2, 1, 2)),
            // A row of one column is no row of facts (outside the best
            // container, in a table of one row).
            cell("Alone", false, (3, 1, 1)),
            cell("Also alone", true, (3, 1, 1)),
        ];
        keep_table_rows(&mut s, DroppedComments::NONE);
        assert_eq!(
            kept(&s),
            [true, true, false, true, false, false, false, false, true]
        );
        assert_eq!(s[0].decision.reason, Reason::TableRow);
        assert_eq!(s[1].decision.reason, Reason::Score);
        assert_eq!(s[2].decision.reason, Reason::Score);
    }

    /// A table of figures: a header row of `th` cells, then one row per
    /// month; `kept` says which months the classifier kept.
    fn figures(kept: [bool; 4], in_best: bool) -> Vec<ScoredSegment> {
        let mut s = vec![
            cell("Month", false, (1, 1, 1)),
            cell("Rainfall (mm)", false, (1, 1, 2)),
        ];
        for (i, (month, keep)) in ["January", "February", "March", "April"]
            .into_iter()
            .zip(kept)
            .enumerate()
        {
            s.push(cell(month, keep, (1, i as u32 + 2, 1)));
            s.push(cell("112", keep, (1, i as u32 + 2, 2)));
        }
        for (i, x) in s.iter_mut().enumerate() {
            let c = x.segment.structure.as_mut().and_then(|t| t.cell.as_mut());
            c.expect("a cell").header = i < 2;
            x.segment.container = Some(crate::html::Container {
                in_best,
                ..Default::default()
            });
        }
        s
    }

    #[test]
    fn a_data_table_mostly_kept_is_kept_whole() {
        // The header row and one data row dropped (every cell of both),
        // the other rows kept: 3 rows of 5 have a kept cell.
        let mut s = figures([true, false, true, true], false);
        keep_table_rows(&mut s, DroppedComments::NONE);
        assert!(s.iter().all(|x| x.decision.keep));
        for i in [0, 1, 4, 5] {
            assert_eq!(s[i].decision.reason, Reason::TableRow);
        }
        // In the page's best prose container, one kept row is enough.
        let mut s = figures([false, false, true, false], true);
        keep_table_rows(&mut s, DroppedComments::NONE);
        assert!(s.iter().all(|x| x.decision.keep));
    }

    #[test]
    fn a_table_with_few_kept_rows_outside_the_content_is_left_alone() {
        // 2 rows of 5 kept, outside the best container: nothing changes
        // (the kept rows' cells are all kept already).
        let mut s = figures([true, false, true, false], false);
        keep_table_rows(&mut s, DroppedComments::NONE);
        assert_eq!(
            kept(&s),
            [
                false, false, true, true, false, false, true, true, false, false
            ]
        );
        // A kept cell in the best container, but one long dropped cell:
        // it is judged on its own.
        let mut s = figures([true, false, false, false], true);
        let long = "word ".repeat(ROW_CELL_WORDS + 1);
        s[4].segment = Segment::plain(segment::Kind::P, long);
        s[4].segment.structure = s[5].segment.structure;
        keep_table_rows(&mut s, DroppedComments::NONE);
        assert!(!s[4].decision.keep);
        assert!(s.iter().enumerate().all(|(i, x)| i == 4 || x.decision.keep));
    }

    #[test]
    fn layout_tables_heuristics_and_comments_are_left_alone() {
        let article = "word ".repeat(DATA_CELL_WORDS + 1);
        let mut s = vec![
            // A table that lays out the page: its short cells stay dropped,
            // even in a row before the long cell.
            cell("Menu", false, (1, 1, 1)),
            cell("Kept", true, (1, 1, 2)),
            cell(&article, true, (1, 2, 1)),
            cell("Sidebar", false, (1, 2, 2)),
            // A row of it with nothing kept stays dropped as well.
            cell("Footer", false, (1, 3, 1)),
            cell("Links", false, (1, 3, 2)),
            // A cell a heuristic rule dropped stays dropped.
            cell("a | b | c", false, (2, 1, 1)),
            cell("Kept value", true, (2, 1, 2)),
            // A comment, with comments dropped.
            cell("Nice post", false, (3, 1, 1)),
            cell("Kept value", true, (3, 1, 2)),
        ];
        s[6].decision.reason = Reason::Heuristic {
            rule: segment::Heuristic::PipeNavBar,
        };
        s[8].segment.context = crate::html::Context(crate::html::Context::COMMENT);
        keep_table_rows(&mut s, DroppedComments::of(Comments::Drop, None));
        assert_eq!(
            kept(&s),
            [
                false, true, true, false, false, false, false, true, false, true
            ]
        );
        // Comments kept, the same cell is kept.
        keep_table_rows(&mut s, DroppedComments::NONE);
        assert!(s[8].decision.keep);
    }

    #[test]
    fn table_cells_are_not_repeats() {
        let mut s = vec![
            cell("41% / 46%", true, (1, 1, 2)),
            cell("41% / 46%", true, (1, 2, 2)),
            // Outside tables, repeats are dropped.
            scored("41% / 46%", true),
            scored("41% / 46%", true),
        ];
        drop_repeats(&mut s);
        assert_eq!(kept(&s), [true, true, true, false]);
    }
}
