//! What the page's metadata takes from its kept segments when its markup
//! does not say: the byline's author, the dates of a dateline.

use crate::cleaned::ScoredSegment;
use crate::html;
use crate::lexicon::{
    AUTHOR_LINE_LEADS, COPYRIGHT_LINE, COPYRIGHT_SIGNS, NAME_PARTICLES, PUBLICATION_WORDS,
    UPDATE_WORDS,
};

/// The author named by a short byline among the first kept segments and
/// the segments of the byline role, kept or not ("By Jane Doe", "Written
/// by Jane Doe | 4 March 2025", "Autor: Jan Kowalski", "作者：张三"), when
/// one name only is found. The leads read are English's and those of the
/// page's language (`language`, its tag; [`AUTHOR_LINE_LEADS`]). A page
/// whose language is not known gets English's only: every language's
/// read "Door Hardware" on an English shop's page as a Dutch byline.
pub(super) fn kept_byline(segments: &[ScoredSegment], language: Option<&str>) -> Vec<String> {
    let other = language.filter(|&l| l != "en");
    let leads: Vec<&str> = AUTHOR_LINE_LEADS
        .words_of("en")
        .chain(
            other
                .into_iter()
                .flat_map(|l| AUTHOR_LINE_LEADS.words_of(l)),
        )
        .collect();
    let mut names: Vec<String> = Vec::new();
    let byline = |s: &&ScoredSegment| s.keep() || s.role == Some(crate::cleaned::Role::Byline);
    for s in segments.iter().filter(byline).take(40) {
        let t = s.text();
        if t.len() > 120 {
            continue;
        }
        // The longest lead is 20 bytes ("συντάκτης: "): the line's start,
        // cut at a character, is lowered to be compared.
        let mut cut = t.len().min(32);
        while !t.is_char_boundary(cut) {
            cut -= 1;
        }
        let lower = t[..cut].to_lowercase();
        let Some(&lead) = leads.iter().find(|l| lower.starts_with(**l)) else {
            continue;
        };
        // An English line is read whole (`byline_name` cuts its lead);
        // another's name is what follows its lead.
        let name = if AUTHOR_LINE_LEADS.words_of("en").any(|l| l == lead) {
            html::byline_name(t, true)
        } else {
            let after = after_lead(t, lead);
            html::byline_name(after, true).or_else(|| uncased_name(after))
        };
        if let Some(n) = name
            && !names.contains(&n)
        {
            names.push(n);
        }
    }
    if names.len() == 1 { names } else { Vec::new() }
}

/// The authors the markup named, each without a lead of the page's
/// language that starts it ("Του Γιώργου Παπαδόπουλου" in an element whose
/// class names the author: "Γιώργου Παπαδόπουλου"). The markup's reader cuts
/// the English leads itself, before the decisions; the other languages'
/// are cut here, after them, as the models were trained on the names it
/// read. A lead that is also a particle of names ("von ", "di ": "Di
/// Maio") is not cut: the name may start with it.
pub(super) fn without_leads(authors: &mut [String], language: Option<&str>) {
    let Some(lang) = language.filter(|&l| l != "en") else {
        return;
    };
    for name in authors {
        let lower = name.to_lowercase();
        let Some(lead) = AUTHOR_LINE_LEADS
            .words_of(lang)
            .find(|l| lower.starts_with(l) && !NAME_PARTICLES.contains(l.trim_end()))
        else {
            continue;
        };
        let rest = after_lead(name, lead).trim();
        if !rest.is_empty() {
            *name = rest.to_string();
        }
    }
}

/// What follows `lead` in `text`, whose start matched it lowered: cut by
/// the lead's characters, since lowering may change a character's bytes.
fn after_lead<'a>(text: &'a str, lead: &str) -> &'a str {
    text.char_indices()
        .nth(lead.chars().count())
        .map_or("", |(i, _)| &text[i..])
}

/// A name in a script without capitals after a byline's lead ("作者：张三
/// 编辑：李四", "记者 王小明 报道"): two to four letters, none upper or
/// lower case, up to a space, a punctuation mark or the line's end.
/// [`html::byline_name`] asks for capitals, which these scripts lack.
fn uncased_name(after: &str) -> Option<String> {
    let after = after.trim_start();
    let end = after
        .char_indices()
        .find(|&(_, c)| !c.is_alphabetic())
        .map_or(after.len(), |(i, _)| i);
    let name = &after[..end];
    let n = name.chars().count();
    ((2..=4).contains(&n) && name.chars().all(|c| !c.is_uppercase() && !c.is_lowercase()))
        .then(|| html::author_name(name))
        .flatten()
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
        if let Some(d) = html::any_date_in_text(t) {
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
        html::any_date_in_text(dated_part(t, &lower, what)?)
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
        html::any_date_in_text(part.get(at..)?)
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
