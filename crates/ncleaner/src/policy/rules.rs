//! The rules of the policy, in the order they apply ([`RULES`]).
//!
//! Each is one type implementing [`Rule`]: its name, the decision it sets
//! and its reason are data; its body selects the segments it decides. The
//! figures that chose each rule are in its doc comment.

use rustc_hash::{FxHashMap, FxHashSet};

use super::{Context, Rule};
use crate::classify::{Method, Reason};
use crate::cleaned::{Roles, Verdict};
use crate::html::Cell;
use crate::segment::{self, Segment};

/// The rules, in order: the paper's heuristics, the comments the page
/// drops, a data table's rows kept whole, the code blocks of the content
/// kept, repeats of kept segments dropped, a page of bare headings
/// dropped, the roles the text does not carry dropped, and a page below
/// the least quality asked for dropped whole.
pub static RULES: [&dyn Rule; 10] = [
    &Heuristics,
    &HiddenText,
    &UserComments,
    &TableRows,
    &CodeBlocks,
    &ProductFacts,
    &Repeats,
    &BareHeadings,
    &RolesCarried,
    &LowQualityPage,
];

/// Whether the page's first decisions came from the model's scores.
fn scored(cx: &Context<'_>) -> bool {
    cx.policy.method == Method::NCleaner
}

/// The paper's heuristics (`segment::Heuristic`): a segment one of them
/// caught is dropped, under the methods that apply them (`ncleaner`,
/// `heuristics`).
pub struct Heuristics;

impl Rule for Heuristics {
    fn name(&self) -> &'static str {
        "heuristics"
    }
    fn keeps(&self) -> bool {
        false
    }
    fn reason(&self, segment: &Segment) -> Reason {
        match segment.heuristic {
            Some(rule) => Reason::Heuristic { rule },
            None => unreachable!("the heuristics select only segments a heuristic caught"),
        }
    }
    fn applies(&self, cx: &Context<'_>) -> bool {
        matches!(cx.policy.method, Method::NCleaner | Method::Heuristics)
    }
    fn select(&self, cx: &Context<'_>, _: &[Verdict], out: &mut Vec<usize>) {
        let segments = cx.page.segments();
        out.extend((0..segments.len()).filter(|&i| segments[i].heuristic.is_some()));
    }
}

/// Hidden text (the blocks that hide themselves: the `hidden` attribute,
/// an inline `display:none` or `visibility:hidden`, `aria-hidden`) keeps
/// the decision of the model's default operating point, whatever the
/// preference or threshold (`ncleaner`, HTML): a point that keeps more
/// keeps more of what the page shows, never a line of keywords it hides.
/// The model decides hidden blocks at its default point because the gold
/// holds what they hide (closed tabs, code samples per language, cards a
/// script shows: WCXB's collections 0.650 → 0.676 and documentation
/// 0.908 → 0.925 when they were read; EVALUATION.md). A page whose every
/// block is hidden (a page its scripts reveal) is left alone: the flag
/// says nothing there.
pub struct HiddenText;

impl Rule for HiddenText {
    fn name(&self) -> &'static str {
        "hidden text"
    }
    fn keeps(&self) -> bool {
        false
    }
    fn reason(&self, _: &Segment) -> Reason {
        Reason::HiddenText
    }
    fn applies(&self, cx: &Context<'_>) -> bool {
        scored(cx) && cx.page.is_html() && cx.default_threshold.is_some()
    }
    fn select(&self, cx: &Context<'_>, verdicts: &[Verdict], out: &mut Vec<usize>) {
        let Some(default) = cx.default_threshold else {
            return;
        };
        let segments = cx.page.segments();
        let hidden = |s: &Segment| s.context.has(crate::html::Context::HIDDEN);
        if segments.iter().all(hidden) {
            return;
        }
        out.extend((0..segments.len()).filter(|&i| {
            let v = &verdicts[i];
            let evidence = v.probability.map(crate::classify::log2_odds).or(v.score);
            v.keep() && hidden(&segments[i]) && evidence.is_some_and(|e| e < default)
        }));
    }
}

/// User comments dropped as asked ([`crate::classify::Comments::Drop`],
/// on a page of its predicted type: [`crate::classify::DroppedComments`]),
/// under every method that decides whole segments (not `perplexity`, which
/// filters sentences).
pub struct UserComments;

impl Rule for UserComments {
    fn name(&self) -> &'static str {
        "comments"
    }
    fn keeps(&self) -> bool {
        false
    }
    fn reason(&self, _: &Segment) -> Reason {
        Reason::Comment
    }
    fn applies(&self, cx: &Context<'_>) -> bool {
        cx.policy.method != Method::Perplexity
            && cx.comments != crate::classify::DroppedComments::NONE
    }
    fn select(&self, cx: &Context<'_>, verdicts: &[Verdict], out: &mut Vec<usize>) {
        let segments = cx.page.segments();
        out.extend(
            (0..segments.len())
                .filter(|&i| verdicts[i].keep() && cx.comments.contains(&segments[i])),
        );
    }
}

/// The fewest words a kept segment needs for [`Repeats`] to drop its
/// repeats: shorter ones ("Yes", "Read more", table cells) repeat in real
/// content too.
pub const REPEAT_MIN_WORDS: usize = 3;

/// Drops each kept segment of [`REPEAT_MIN_WORDS`] words or more whose text
/// (leading and trailing whitespace aside) a kept segment before it
/// already has (`ncleaner`, unless repeats are kept).
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
/// [`TableRows`]).
pub struct Repeats;

impl Rule for Repeats {
    fn name(&self) -> &'static str {
        "repeats"
    }
    fn keeps(&self) -> bool {
        false
    }
    fn reason(&self, _: &Segment) -> Reason {
        Reason::Repeat
    }
    fn applies(&self, cx: &Context<'_>) -> bool {
        scored(cx) && !cx.policy.keep_repeats
    }
    fn select(&self, cx: &Context<'_>, verdicts: &[Verdict], out: &mut Vec<usize>) {
        repeats(cx.page.segments(), verdicts, out);
    }
}

/// [`Repeats`]' selection.
pub(crate) fn repeats(segments: &[Segment], verdicts: &[Verdict], out: &mut Vec<usize>) {
    use std::hash::BuildHasher;
    // Kept texts by their hash; a hash that matches is checked text by text,
    // so a collision never drops a segment. No text is copied.
    let mut seen: FxHashMap<u64, Vec<usize>> = Default::default();
    for (i, (s, v)) in segments.iter().zip(verdicts).enumerate() {
        if !v.keep() || s.structure.is_some_and(|t| t.cell.is_some()) {
            continue;
        }
        let full = v.text(s);
        let text = full.trim();
        // (Trimming removes no word unless it removes Unicode spaces,
        // which `count_words` would count.)
        let words = if text.len() == full.len() {
            v.words(s)
        } else {
            segment::count_words(text)
        };
        if words < REPEAT_MIN_WORDS {
            continue;
        }
        let earlier = seen
            .entry(rustc_hash::FxBuildHasher.hash_one(text))
            .or_default();
        if earlier
            .iter()
            .any(|&j| verdicts[j].text(&segments[j]).trim() == text)
        {
            out.push(i);
        } else {
            earlier.push(i);
        }
    }
}

/// The most words a cell of a data table holds. A table with a longer cell
/// lays out the page (an article in one cell, a sidebar in another): its
/// rows are not kept whole ([`TableRows`]) and its blocks are written as
/// paragraphs, lists and headings in Markdown.
pub const DATA_CELL_WORDS: usize = 60;

/// The tables (by number) that lay out the page: those with a cell of more
/// than [`DATA_CELL_WORDS`] words, given each segment with its words. A
/// cell's segments come one after another in the page, so its words are
/// summed until the next cell starts: one pass, whatever the table's size.
/// The one test of a data table, for [`TableRows`] (all of a page's cells)
/// and for Markdown's tables (the kept cells of one table).
pub(crate) fn layout_tables<'a>(
    segments: impl IntoIterator<Item = (&'a Segment, usize)>,
) -> FxHashSet<u32> {
    let mut layout = FxHashSet::default();
    let mut current = None;
    let mut sum = 0;
    for (s, words) in segments {
        let Some(c) = s.structure.and_then(|t| t.cell) else {
            current = None;
            continue;
        };
        if current != Some((c.table, c.row, c.column)) {
            current = Some((c.table, c.row, c.column));
            sum = 0;
        }
        sum += words;
        if sum > DATA_CELL_WORDS {
            layout.insert(c.table);
        }
    }
    layout
}

/// The most words a dropped cell may have for [`TableRows`] to keep it
/// beside a kept cell of its row or in a table kept whole: labels, units and
/// values, not a cell of prose that the classifier judged on its own.
pub const ROW_CELL_WORDS: usize = 12;

/// Keeps the short cells of a data table's rows, and of the whole table
/// when the table is content (`ncleaner`, HTML).
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
/// - it is not a comment the page drops
///   ([`crate::classify::DroppedComments`]).
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
pub struct TableRows;

impl Rule for TableRows {
    fn name(&self) -> &'static str {
        "table rows"
    }
    fn keeps(&self) -> bool {
        true
    }
    fn reason(&self, _: &Segment) -> Reason {
        Reason::TableRow
    }
    fn applies(&self, cx: &Context<'_>) -> bool {
        scored(cx) && cx.page.is_html()
    }
    fn select(&self, cx: &Context<'_>, verdicts: &[Verdict], out: &mut Vec<usize>) {
        table_rows(cx.page.segments(), verdicts, cx.comments, out);
    }
}

/// [`TableRows`]' selection.
pub(crate) fn table_rows(
    segments: &[Segment],
    verdicts: &[Verdict],
    comments: crate::classify::DroppedComments,
    out: &mut Vec<usize>,
) {
    fn cell(s: &Segment) -> Option<Cell> {
        s.structure.and_then(|t| t.cell)
    }
    let layout = layout_tables(segments.iter().map(|s| (s, s.words())));
    let whole = whole_tables(segments, verdicts, &layout);
    let keepable = |i: usize| {
        let (s, v) = (&segments[i], &verdicts[i]);
        !v.keep()
            && v.decision.reason == Reason::Score
            && !comments.contains(s)
            && s.words() <= ROW_CELL_WORDS
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
        let row = start..end;
        start = end;
        let completed = whole.contains(&first.table)
            || (!layout.contains(&first.table)
                && row.clone().any(|i| verdicts[i].keep())
                && row
                    .clone()
                    .any(|i| cell(&segments[i]).map(|c| c.column) != Some(first.column)));
        if completed {
            out.extend(row.filter(|&i| keepable(i)));
        }
    }
}

/// The data tables kept whole ([`TableRows`]): a cell of them is kept and
/// either a kept cell lies in the page's best prose container or more
/// than half of the table's rows (two or more) have a kept cell.
fn whole_tables(
    segments: &[Segment],
    verdicts: &[Verdict],
    layout: &FxHashSet<u32>,
) -> FxHashSet<u32> {
    // Each data table's rows, whether each has a kept cell, and whether a
    // kept cell lies in the page's best prose container.
    let mut tables: FxHashMap<u32, (FxHashMap<u32, bool>, bool)> = Default::default();
    for (s, v) in segments.iter().zip(verdicts) {
        let Some(c) = s
            .structure
            .and_then(|t| t.cell)
            .filter(|c| !layout.contains(&c.table))
        else {
            continue;
        };
        let (rows, in_best) = tables.entry(c.table).or_default();
        *rows.entry(c.row).or_default() |= v.keep();
        *in_best |= v.keep() && s.container.is_some_and(|c| c.in_best);
    }
    tables
        .iter()
        .filter(|(_, (rows, in_best))| {
            let kept = rows.values().filter(|&&k| k).count();
            kept > 0 && (*in_best || (rows.len() >= 2 && 2 * kept > rows.len()))
        })
        .map(|(&t, _)| t)
        .collect()
}

/// Keeps the code blocks of a page's content (`ncleaner`, HTML): a dropped
/// block of preformatted text (`pre`) inside the page's best prose
/// container is kept when the page keeps another segment. Code scores
/// badly under n-gram models of prose, and the older pools have little of
/// it to learn from, so the classifier alone drops most code of
/// documentation and forum pages (p 0.1–0.4); code outside the content's
/// container (a site's install banner) is left to the model. A comment the
/// page drops stays dropped.
///
/// On WCXB's development pages (the fold models of `scripts/wcxb-crossval`,
/// first fold, cleaned with and without the rule) documentation pages score
/// 0.920 with it and 0.911 without, forums 0.850 and 0.843, the others
/// within 0.001; EVALUATION.md has every set.
pub struct CodeBlocks;

impl Rule for CodeBlocks {
    fn name(&self) -> &'static str {
        "code blocks"
    }
    fn keeps(&self) -> bool {
        true
    }
    fn reason(&self, _: &Segment) -> Reason {
        Reason::Code
    }
    fn applies(&self, cx: &Context<'_>) -> bool {
        scored(cx) && cx.page.is_html()
    }
    fn select(&self, cx: &Context<'_>, verdicts: &[Verdict], out: &mut Vec<usize>) {
        code_blocks(cx.page.segments(), verdicts, cx.comments, out);
    }
}

/// [`CodeBlocks`]' selection.
pub(crate) fn code_blocks(
    segments: &[Segment],
    verdicts: &[Verdict],
    comments: crate::classify::DroppedComments,
    out: &mut Vec<usize>,
) {
    if !verdicts.iter().any(Verdict::keep) {
        return;
    }
    out.extend((0..segments.len()).filter(|&i| {
        let (s, v) = (&segments[i], &verdicts[i]);
        !v.keep()
            && v.decision.reason == Reason::Score
            && s.structure.is_some_and(|t| t.pre)
            && s.container.is_some_and(|c| c.in_best)
            && !comments.contains(s)
    }));
}

/// The least probability of the product type for [`ProductFacts`].
pub const PRODUCT_AT_LEAST: f32 = 0.5;

/// The most words of a price line for [`ProductFacts`].
pub const PRICE_MAX_WORDS: usize = 6;

/// How many segments after the title a price may sit for [`ProductFacts`].
pub const PRICE_REACH: usize = 15;

/// Keeps a product page's facts that the model dropped (`ncleaner`, HTML,
/// a page predicted to be a product with at least [`PRODUCT_AT_LEAST`]):
/// its price, a line of at most [`PRICE_MAX_WORDS`] words holding a
/// currency sign and a digit within [`PRICE_REACH`] segments after the
/// title; and its specifications, every short cell (at most
/// [`ROW_CELL_WORDS`] words) of a data table of two rows or more inside the
/// page's best prose container. The classifier judges a price ("$1,299.00",
/// three symbols and digits) and a cell ("Weight", "3.2 kg") alone, and on
/// a shop's page both look like furniture (p 0.08–0.19), while a reader of
/// the page wants them first. A comment the page drops stays dropped.
pub struct ProductFacts;

impl Rule for ProductFacts {
    fn name(&self) -> &'static str {
        "product facts"
    }
    fn keeps(&self) -> bool {
        true
    }
    fn reason(&self, _: &Segment) -> Reason {
        Reason::Product
    }
    fn applies(&self, cx: &Context<'_>) -> bool {
        scored(cx)
            && cx.page.is_html()
            && cx.page.page_type().is_some_and(|p| {
                p.probability(crate::classify::page::PageType::Product) >= PRODUCT_AT_LEAST
            })
    }
    fn select(&self, cx: &Context<'_>, verdicts: &[Verdict], out: &mut Vec<usize>) {
        product_facts(cx.page.segments(), verdicts, cx.comments, out);
    }
}

/// [`ProductFacts`]' selection.
pub(crate) fn product_facts(
    segments: &[Segment],
    verdicts: &[Verdict],
    comments: crate::classify::DroppedComments,
    out: &mut Vec<usize>,
) {
    let keepable = |i: usize| {
        let (s, v) = (&segments[i], &verdicts[i]);
        !v.keep() && v.decision.reason == Reason::Score && !comments.contains(s)
    };
    let title = verdicts
        .iter()
        .position(|v| v.role == Some(crate::cleaned::Role::Title));
    let price = title.and_then(|t| {
        let to = (t + 1 + PRICE_REACH).min(segments.len());
        (t + 1..to).find(|&i| {
            segments[i].words() <= PRICE_MAX_WORDS
                && crate::classify::page::holds_price(segments[i].text())
        })
    });
    if let Some(i) = price.filter(|&i| keepable(i)) {
        out.push(i);
    }
    let layout = layout_tables(segments.iter().map(|s| (s, s.words())));
    let mut rows: FxHashMap<u32, (FxHashSet<u32>, bool)> = Default::default();
    for s in segments {
        if let Some(c) = s
            .structure
            .and_then(|t| t.cell)
            .filter(|c| !layout.contains(&c.table))
        {
            let (r, in_best) = rows.entry(c.table).or_default();
            r.insert(c.row);
            *in_best |= s.container.is_some_and(|c| c.in_best);
        }
    }
    out.extend((0..segments.len()).filter(|&i| {
        let s = &segments[i];
        s.structure.and_then(|t| t.cell).is_some_and(|c| {
            rows.get(&c.table)
                .is_some_and(|(r, in_best)| *in_best && r.len() >= 2)
        }) && s.words() <= ROW_CELL_WORDS
            && keepable(i)
            && Some(i) != price
    }));
}

/// The most words a page's kept text may have, when every kept segment is a
/// heading, for [`BareHeadings`] to read the page as having no content:
/// [`crate::html::BOLD_HEADING_MAX_WORDS`], the most words a bold line may
/// have to be read as a heading, so that the rule never takes a page whose
/// one "heading" is a statement (a link post's title).
pub const BARE_HEADINGS_MAX_WORDS: usize = crate::html::BOLD_HEADING_MAX_WORDS;

/// Drops the kept text of a page that keeps headings alone, of
/// [`BARE_HEADINGS_MAX_WORDS`] words or fewer in all (`ncleaner`, HTML): a
/// heading heads something, and a page whose text under its headings was
/// all dropped has no main content. These are shells that render with
/// scripts (a shop's product page whose one heading is the shop's name),
/// and the section headings of a page whose products its scripts fill in
/// ("Best of the best"). For a corpus such a page is a document of a few
/// words that say nothing; an empty output says the page has no content,
/// as the gold of such pages does.
///
/// Pages that keep a longer heading, or more headings, are left alone: a
/// list of categories set as headings ("Radios (4)", "Power Banks (158)")
/// is a collection's content, and a link post's title of 39 words is a
/// forum page's. On WCXB's development pages (the cross-validated outputs
/// of `scripts/wcxb-crossval`) the rule empties four pages, all of them
/// pages whose gold is empty, and no other; EVALUATION.md has every set.
pub struct BareHeadings;

impl Rule for BareHeadings {
    fn name(&self) -> &'static str {
        "bare headings"
    }
    fn keeps(&self) -> bool {
        false
    }
    fn reason(&self, _: &Segment) -> Reason {
        Reason::BareHeadings
    }
    fn applies(&self, cx: &Context<'_>) -> bool {
        scored(cx) && cx.page.is_html()
    }
    fn select(&self, cx: &Context<'_>, verdicts: &[Verdict], out: &mut Vec<usize>) {
        bare_headings(cx.page.segments(), verdicts, out);
    }
}

/// [`BareHeadings`]' selection.
pub(crate) fn bare_headings(segments: &[Segment], verdicts: &[Verdict], out: &mut Vec<usize>) {
    let mut words = 0;
    for (s, v) in segments.iter().zip(verdicts).filter(|(_, v)| v.keep()) {
        if s.kind != segment::Kind::H {
            return;
        }
        words += v.words(s);
        if words > BARE_HEADINGS_MAX_WORDS {
            return;
        }
    }
    out.extend((0..segments.len()).filter(|&i| verdicts[i].keep()));
}

/// Drops the kept segments whose role the text does not carry
/// ([`crate::cleaned::Roles`]; HTML, every method).
pub struct RolesCarried;

impl Rule for RolesCarried {
    fn name(&self) -> &'static str {
        "roles"
    }
    fn keeps(&self) -> bool {
        false
    }
    fn reason(&self, _: &Segment) -> Reason {
        Reason::Role
    }
    fn applies(&self, cx: &Context<'_>) -> bool {
        cx.page.is_html() && cx.policy.roles != Roles::All
    }
    fn select(&self, cx: &Context<'_>, verdicts: &[Verdict], out: &mut Vec<usize>) {
        let roles = cx.policy.roles;
        out.extend((0..verdicts.len()).filter(|&i| {
            let v = &verdicts[i];
            v.keep() && v.role.is_some_and(|r| !roles.carries(r))
        }));
    }
}

/// Drops every kept segment of a page whose predicted precision
/// ([`crate::quality`]) is below the least page quality asked for
/// (`ncleaner`, a model with a page-quality model for the page's input).
pub struct LowQualityPage;

impl Rule for LowQualityPage {
    fn name(&self) -> &'static str {
        "page quality"
    }
    fn keeps(&self) -> bool {
        false
    }
    fn reason(&self, _: &Segment) -> Reason {
        Reason::PageQuality
    }
    fn applies(&self, cx: &Context<'_>) -> bool {
        cx.policy.min_page_quality.is_some()
    }
    fn select(&self, cx: &Context<'_>, verdicts: &[Verdict], out: &mut Vec<usize>) {
        let (Some(min), Some(q)) = (cx.policy.min_page_quality, cx.quality(verdicts)) else {
            return;
        };
        if q.precision < min {
            out.extend((0..verdicts.len()).filter(|&i| verdicts[i].keep()));
        }
    }
}

#[cfg(test)]
mod tests;
