//! What the page's metadata takes from its kept segments when its markup
//! does not say: the byline's author, the dates of a dateline.

use crate::cleaned::ScoredSegment;
use crate::html;
use crate::lexicon::{
    AUTHOR_LINE_LEADS, COPYRIGHT_LINE, COPYRIGHT_SIGNS, PUBLICATION_WORDS, UPDATE_WORDS,
};

/// The author named by a short byline among the first kept segments and
/// the segments of the byline role, kept or not ("By Jane Doe", "Written
/// by Jane Doe | 4 March 2025"), when one name only is found.
pub(super) fn kept_byline(segments: &[ScoredSegment]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let byline = |s: &&ScoredSegment| s.keep() || s.role == Some(crate::cleaned::Role::Byline);
    for s in segments.iter().filter(byline).take(40) {
        let t = s.text();
        if t.len() > 120 {
            continue;
        }
        let lower = t.get(..11).unwrap_or(t).to_ascii_lowercase();
        if !AUTHOR_LINE_LEADS.words().any(|l| lower.starts_with(l)) {
            continue;
        }
        if let Some(n) = html::byline_name(t, true)
            && !names.contains(&n)
        {
            names.push(n);
        }
    }
    if names.len() == 1 { names } else { Vec::new() }
}

/// The date of a short dateline among the first kept segments and the
/// segments of the byline role, kept or not.
pub(super) fn kept_date(segments: &[ScoredSegment]) -> Option<String> {
    let byline = |s: &&ScoredSegment| s.keep() || s.role == Some(crate::cleaned::Role::Byline);
    for s in segments.iter().filter(byline).take(15) {
        let t = s.text();
        if crate::words::more_than(t, 15) {
            continue;
        }
        let lower = t.to_lowercase();
        if UPDATE_WORDS
            .words()
            .chain(COPYRIGHT_SIGNS.words())
            .any(|w| lower.contains(w))
        {
            continue;
        }
        if let Some(d) = html::date_in_text(t) {
            return Some(d);
        }
    }
    None
}

/// What a dateline states: the publication, or an update ("Updated …",
/// "Last modified: …").
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Dateline {
    Published,
    Updated,
}

/// How far from the first kept segment a dateline is looked for, in
/// segments either way, and the most words it has.
pub(super) const DATELINE_REACH: usize = 20;
const DATELINE_WORDS: usize = 12;

/// The date of a dateline at the head of the main content, when the page's
/// markup states none: a short segment (at most [`DATELINE_WORDS`] words:
/// "Dec 12, 2025", "By Jane Doe - Mar 27, 2024", "Updated May 6, 2025"),
/// kept or dropped, among the [`DATELINE_REACH`] segments before and after
/// the first kept one, holding a full date, not a copyright line.
///
/// Pages put the date as a short element beside the title or the byline,
/// which the classifier often drops as too short to be content; its place
/// next to the content is what says it is the page's date. What follows
/// "updated" or "modified" on the line is the date of the last
/// modification, what comes before it the publication ("Published on Oct
/// 21, 2025 Updated on Mar 9, 2026").
pub(super) fn dateline(segments: &[ScoredSegment], what: Dateline) -> Option<String> {
    let first = segments.iter().position(|s| s.keep())?;
    let near =
        &segments[first.saturating_sub(DATELINE_REACH)..segments.len().min(first + DATELINE_REACH)];
    near.iter().find_map(|s| {
        let (t, lower) = short_line(s.segment.text())?;
        html::date_in_text(dated_part(t, &lower, what)?)
    })
}

/// The date of a short line anywhere on the page that says it is the
/// publication's ("Posted on April 13, 2023", "Published On: 15 August
/// 2025"), when neither the markup nor a dateline beside the content dates
/// the page: the word itself says what the date is, wherever the page puts it.
pub(super) fn published_line(segments: &[ScoredSegment]) -> Option<String> {
    segments.iter().find_map(|s| {
        // Most segments say neither word: a scan for their first letter
        // passes them over before anything else is read or built.
        let text = s.segment.text();
        if !PUBLICATION_WORDS.words().any(|w| holds_ascii_ci(text, w)) {
            return None;
        }
        let (t, lower) = short_line(text)?;
        let at = PUBLICATION_WORDS
            .words()
            .filter_map(|w| word_at(&lower, w))
            .min()?;
        let part = dated_part(t, &lower, Dateline::Published)?;
        html::date_in_text(part.get(at..)?)
    })
}

/// A segment's text and its ASCII lower case, if it can be a dateline: a
/// digit in it (every date read has a year), at most [`DATELINE_WORDS`]
/// words, and no copyright sign or word.
pub(super) fn short_line(t: &str) -> Option<(&str, String)> {
    // The word count first: it stops at the 13th word, where a digit scan
    // would read a whole paragraph.
    if crate::words::more_than(t, DATELINE_WORDS) || !t.bytes().any(|b| b.is_ascii_digit()) {
        return None;
    }
    let lower = t.to_ascii_lowercase();
    (!COPYRIGHT_LINE.words().any(|w| lower.contains(w))).then_some((t, lower))
}

/// The part of a line that dates `what`: for the publication, the line up
/// to "updated"/"modified" (all of it without them); for the modification,
/// the line from that word on (nothing without it).
pub(super) fn dated_part<'a>(t: &'a str, lower: &str, what: Dateline) -> Option<&'a str> {
    let update = UPDATE_WORDS.words().filter_map(|w| lower.find(w)).min();
    match (what, update) {
        (Dateline::Published, None) => Some(t),
        (Dateline::Published, Some(i)) => Some(&t[..i]),
        (Dateline::Updated, Some(i)) => Some(&t[i..]),
        (Dateline::Updated, None) => None,
    }
}

/// Whether `t` holds `word` (lower-case ASCII) in any ASCII case.
pub(super) fn holds_ascii_ci(t: &str, word: &str) -> bool {
    let (b, w) = (t.as_bytes(), word.as_bytes());
    memchr::memchr2_iter(w[0], w[0].to_ascii_uppercase(), b).any(|i| {
        b.get(i..i + w.len())
            .is_some_and(|s| s.eq_ignore_ascii_case(w))
    })
}

/// Where `word` starts in `lower` as a word of its own (no letter before it).
pub(super) fn word_at(lower: &str, word: &str) -> Option<usize> {
    lower
        .match_indices(word)
        .map(|(i, _)| i)
        .find(|&i| i == 0 || !lower.as_bytes()[i - 1].is_ascii_alphabetic())
}
