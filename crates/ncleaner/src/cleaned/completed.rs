//! What the page's metadata takes from its kept segments when its markup
//! does not say: the byline's author, the dates of a dateline.

use crate::classify::Reason;
use crate::cleaned::ScoredSegment;
use crate::html;
use crate::lexicon::{
    AUTHOR_LINE_LEADS, AsciiSearch, COPYRIGHT_LINE, COPYRIGHT_SIGNS, NAME_PARTICLES,
    PUBLICATION_WORDS, UPDATE_WORDS,
};

/// Completes `md` from the decided `segments` of a page of `language`
/// (its detected tag) where the markup did not state it: the authors (and
/// the leads of the page's language cut from those it stated), the dates of
/// publication and of the last update.
pub(super) fn complete(
    md: &mut html::Metadata,
    segments: &[ScoredSegment],
    language: Option<&str>,
) {
    if md.authors.is_empty() {
        md.authors = kept_byline(segments, language);
    } else {
        without_leads(&mut md.authors, language);
    }
    let published = match md.date_published {
        None => kept_date(segments),
        Some(_) => None,
    };
    // The publication's dateline is read when neither the markup nor a
    // kept line dated the page; the update's when the markup states none.
    let want = Datelines {
        published: md.date_published.is_none() && published.is_none(),
        updated: md.date_modified.is_none(),
    };
    let (dated, updated) = datelines(segments, want);
    if md.date_published.is_none() {
        md.date_published = published.or(dated).or_else(|| published_line(segments));
    }
    if want.updated {
        md.date_modified = updated;
    }
}

/// Whether the page's decisions kept `s` before the page-quality rule,
/// which drops every kept segment of a page and nothing else: the text the
/// metadata reads is the page's content, whatever its predicted quality.
fn kept(s: &ScoredSegment) -> bool {
    s.keep() || s.decision.reason == Reason::PageQuality
}

/// The author named by a short byline among the first kept segments and
/// the segments of the byline role, kept or not ("By Jane Doe", "Written
/// by Jane Doe | 4 March 2025", "Autor: Jan Kowalski", "作者：张三"), when
/// one name only is found. The leads read are English's and those of the
/// page's language (`language`, its tag; [`AUTHOR_LINE_LEADS`]). A page
/// whose language is not known gets English's only: every language's
/// read "Door Hardware" on an English shop's page as a Dutch byline.
fn kept_byline(segments: &[ScoredSegment], language: Option<&str>) -> Vec<String> {
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
    let byline = |s: &&ScoredSegment| kept(s) || s.role == Some(crate::cleaned::Role::Byline);
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
fn without_leads(authors: &mut [String], language: Option<&str>) {
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
/// Letters that a colon ends are a field's label, not a name ("作者：
/// 责任编辑：易清": the editor in charge, after an empty author field).
fn uncased_name(after: &str) -> Option<String> {
    let after = after.trim_start();
    let end = after
        .char_indices()
        .find(|&(_, c)| !c.is_alphabetic())
        .map_or(after.len(), |(i, _)| i);
    let name = &after[..end];
    let label = after[end..].trim_start().starts_with([':', '：']);
    let n = name.chars().count();
    (!label && (2..=4).contains(&n) && name.chars().all(|c| !c.is_uppercase() && !c.is_lowercase()))
        .then(|| html::author_name(name))
        .flatten()
}

/// The date of a short dateline among the first kept segments and the
/// segments of the byline role, kept or not.
fn kept_date(segments: &[ScoredSegment]) -> Option<String> {
    let byline = |s: &&ScoredSegment| kept(s) || s.role == Some(crate::cleaned::Role::Byline);
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
enum Dateline {
    Published,
    Updated,
}

/// Which of the two dates of [`datelines`] are looked for.
#[derive(Clone, Copy)]
struct Datelines {
    published: bool,
    updated: bool,
}

/// How far from the first kept segment a dateline is looked for, in
/// segments either way, and the most words it has.
const DATELINE_REACH: usize = 20;
const DATELINE_WORDS: usize = 12;

/// The dates of the datelines at the head of the main content, the
/// publication's and the update's (those `want` asks for, which the
/// markup did not state): each the first of the short segments (at most
/// [`DATELINE_WORDS`] words: "Dec 12, 2025", "By Jane Doe - Mar 27, 2024",
/// "Updated May 6, 2025"), kept or dropped, among the [`DATELINE_REACH`]
/// segments before and after the first kept one, that holds a full date
/// and is not a copyright line.
///
/// Pages put the date as a short element beside the title or the byline,
/// which the classifier often drops as too short to be content; its place
/// next to the content is what says it is the page's date. What follows
/// "updated" or "modified" on the line is the date of the last
/// modification, what comes before it the publication ("Published on Oct
/// 21, 2025 Updated on Mar 9, 2026").
///
/// Both are read in one pass over the lines, each line counted, scanned
/// and lowered once for the two.
fn datelines(segments: &[ScoredSegment], want: Datelines) -> (Option<String>, Option<String>) {
    let (mut published, mut updated) = (None, None);
    if !(want.published || want.updated) {
        return (published, updated);
    }
    let Some(first) = segments.iter().position(kept) else {
        return (published, updated);
    };
    let near =
        &segments[first.saturating_sub(DATELINE_REACH)..segments.len().min(first + DATELINE_REACH)];
    for s in near {
        let Some((t, lower)) = short_line(s.segment.text()) else {
            continue;
        };
        let update = update_at(&lower);
        let date = |what| html::any_date_in_text(dated_part(t, update, what)?);
        if want.published && published.is_none() {
            published = date(Dateline::Published);
        }
        if want.updated && updated.is_none() {
            updated = date(Dateline::Updated);
        }
        if (published.is_some() || !want.published) && (updated.is_some() || !want.updated) {
            break;
        }
    }
    (published, updated)
}

/// The date of a short line anywhere on the page that says it is the
/// publication's ("Posted on April 13, 2023", "Published On: 15 August
/// 2025"), when neither the markup nor a dateline beside the content dates
/// the page: the word itself says what the date is, wherever the page puts it.
fn published_line(segments: &[ScoredSegment]) -> Option<String> {
    segments.iter().find_map(|s| {
        // Most segments say neither word: a scan for their first letter
        // passes them over before anything else is read or built.
        let text = s.segment.text();
        if !publication_words().holds(text.as_bytes()) {
            return None;
        }
        let (t, lower) = short_line(text)?;
        let at = PUBLICATION_WORDS
            .words()
            .filter_map(|w| word_at(&lower, w))
            .min()?;
        let part = dated_part(t, update_at(&lower), Dateline::Published)?;
        html::any_date_in_text(part.get(at..)?)
    })
}

/// A segment's text and its ASCII lower case, if it can be a dateline: a
/// digit in it (every date read has a year), at most [`DATELINE_WORDS`]
/// words, and no copyright sign or word.
fn short_line(t: &str) -> Option<(&str, String)> {
    // The word count first: it stops at the 13th word, where a digit scan
    // would read a whole paragraph.
    if crate::words::more_than(t, DATELINE_WORDS) || !t.bytes().any(|b| b.is_ascii_digit()) {
        return None;
    }
    let lower = t.to_ascii_lowercase();
    (!COPYRIGHT_LINE.words().any(|w| lower.contains(w))).then_some((t, lower))
}

/// Where the first of [`UPDATE_WORDS`] ("updated", "modified", …) starts
/// in `lower`, a line's ASCII lower case.
fn update_at(lower: &str) -> Option<usize> {
    UPDATE_WORDS.words().filter_map(|w| lower.find(w)).min()
}

/// The part of a line `t` that dates `what`, `update` where an update word
/// starts in it ([`update_at`]): for the publication, the line up to
/// "updated"/"modified" (all of it without them); for the modification,
/// the line from that word on (nothing without it).
fn dated_part(t: &str, update: Option<usize>, what: Dateline) -> Option<&str> {
    match (what, update) {
        (Dateline::Published, None) => Some(t),
        (Dateline::Published, Some(i)) => Some(&t[..i]),
        (Dateline::Updated, Some(i)) => Some(&t[i..]),
        (Dateline::Updated, None) => None,
    }
}

/// [`PUBLICATION_WORDS`], looked for in any ASCII case.
fn publication_words() -> &'static AsciiSearch {
    static SEARCH: std::sync::OnceLock<AsciiSearch> = std::sync::OnceLock::new();
    SEARCH.get_or_init(|| AsciiSearch::new(&PUBLICATION_WORDS))
}

/// Where `word` starts in `lower` as a word of its own (no letter before it).
fn word_at(lower: &str, word: &str) -> Option<usize> {
    lower
        .match_indices(word)
        .map(|(i, _)| i)
        .find(|&i| i == 0 || !lower.as_bytes()[i - 1].is_ascii_alphabetic())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classify::Decision;
    use crate::cleaned::InputKind;
    use crate::pipeline::Cleaner;
    use crate::segment::Segment;

    /// The date of the dateline that states `what` ([`datelines`], asked
    /// for that one alone).
    fn dateline(segments: &[ScoredSegment], what: Dateline) -> Option<String> {
        let want = Datelines {
            published: what == Dateline::Published,
            updated: what == Dateline::Updated,
        };
        match datelines(segments, want) {
            (p, None) if what == Dateline::Published => p,
            (None, u) if what == Dateline::Updated => u,
            both => panic!("{both:?}: a date not asked for"),
        }
    }

    const EN: &str = "It was the best of times, it was the worst of times, it was the age \
        of wisdom, it was the age of foolishness, it was the epoch of belief, it was the \
        epoch of incredulity, it was the season of Light, it was the season of Darkness.";

    #[test]
    fn kept_bylines_and_datelines() {
        let seg = |t: &str, keep: bool| {
            ScoredSegment::new(
                Segment::plain(crate::segment::Kind::P, t.to_string()),
                Decision {
                    keep,
                    reason: Reason::Score,
                },
            )
        };
        let segs = [
            seg("By Ann Roe", false),
            seg("By Jane Doe", true),
            seg("Last updated March 9, 2025", true),
            seg("Posted March 4, 2025", true),
        ];
        assert_eq!(kept_byline(&segs, None), ["Jane Doe"]);
        assert_eq!(kept_date(&segs).as_deref(), Some("2025-03-04"));
        // Two different bylines: a listing, no author.
        let two = [seg("By Jane Doe", true), seg("By Bob Poe", true)];
        assert!(kept_byline(&two, None).is_empty());
        assert_eq!(kept_date(&[seg("© 2025 March 4, 2025", true)]), None);

        // Datelines near the first kept segment, kept or dropped: the
        // publication, or the update when the line says so.
        let long = "This is the first paragraph of the article, long enough to be prose and kept.";
        let page = [
            seg("Home", false),
            seg("How to grow tomatoes", false),
            seg("Dec 12, 2025", false),
            seg("Updated: Jan 5, 2026", false),
            seg(long, true),
            seg(
                "© 2024 The Garden. All rights reserved. March 1, 2024",
                false,
            ),
        ];
        assert_eq!(
            dateline(&page, Dateline::Published).as_deref(),
            Some("2025-12-12")
        );
        assert_eq!(
            dateline(&page, Dateline::Updated).as_deref(),
            Some("2026-01-05")
        );
        // No kept segment: no content to stand next to.
        let none: Vec<ScoredSegment> = page.iter().map(|s| seg(s.segment.text(), false)).collect();
        assert_eq!(dateline(&none, Dateline::Published), None);
        // A date far from the content, or in a long segment, is not its dateline.
        let mut far = vec![seg("Dec 12, 2025", false)];
        far.extend((0..DATELINE_REACH).map(|_| seg("Menu", false)));
        far.push(seg(long, true));
        assert_eq!(dateline(&far, Dateline::Published), None);
        let wordy = [
            seg(
                "Our offices close on Dec 24, 2025 and open again on Jan 2, 2026 for all customers",
                false,
            ),
            seg(long, true),
        ];
        assert_eq!(dateline(&wordy, Dateline::Published), None);
        // One line with both: the publication before "Updated", the update after.
        let both = [
            seg("Published on Oct 21, 2025 Updated on Mar 9, 2026", false),
            seg(long, true),
        ];
        assert_eq!(
            dateline(&both, Dateline::Published).as_deref(),
            Some("2025-10-21")
        );
        assert_eq!(
            dateline(&both, Dateline::Updated).as_deref(),
            Some("2026-03-09")
        );
        // Both asked for at once, from one line or from two: what each
        // asked alone gives.
        let all = Datelines {
            published: true,
            updated: true,
        };
        let dates = |p: &str, u: &str| (Some(p.to_string()), Some(u.to_string()));
        assert_eq!(datelines(&both, all), dates("2025-10-21", "2026-03-09"));
        assert_eq!(datelines(&page, all), dates("2025-12-12", "2026-01-05"));
        // A line that says "Posted" dates the page wherever it stands; a plain
        // date far from the content does not, nor a copyright line that says it.
        let mut posted: Vec<ScoredSegment> = vec![seg(long, true)];
        posted.extend((0..2 * DATELINE_REACH).map(|_| seg("Menu", false)));
        posted.push(seg("Dec 1, 2024", false));
        posted.push(seg("© Posted 2024, March 3, 2024", false));
        posted.push(seg("Posted on April 13, 2023", false));
        assert_eq!(dateline(&posted, Dateline::Published), None);
        assert_eq!(published_line(&posted).as_deref(), Some("2023-04-13"));
        assert_eq!(published_line(&posted[..posted.len() - 1]), None);
        // Bylines and datelines of other languages: the page's leads and
        // English's; English's alone when the language is not known.
        for (lang, byline, dated, name, date) in [
            (
                "pl",
                "Autor: Jan Kowalski",
                "18 listopada 2011 r.",
                "Jan Kowalski",
                "2011-11-18",
            ),
            (
                "ru",
                "Автор: Иван Петров",
                "15 декабря 2011 г., 09:43",
                "Иван Петров",
                "2011-12-15",
            ),
            (
                "el",
                "Του Γιώργου Παπαδόπουλου",
                "15 Δεκεμβρίου 2011",
                "Γιώργου Παπαδόπουλου",
                "2011-12-15",
            ),
            (
                "zh",
                "作者：张小明 编辑：李四",
                "2011年12月15日 10:30",
                "张小明",
                "2011-12-15",
            ),
            (
                "de",
                "Von Anna Schmidt",
                "4. März 2025",
                "Anna Schmidt",
                "2025-03-04",
            ),
        ] {
            let page = [seg(byline, false), seg(dated, false), seg(long, true)];
            let page: Vec<ScoredSegment> = page
                .into_iter()
                .enumerate()
                .map(|(i, mut s)| {
                    if i == 0 {
                        s.role = Some(crate::cleaned::Role::Byline);
                    }
                    s
                })
                .collect();
            assert_eq!(kept_byline(&page, Some(lang)), [name], "{lang}");
            assert!(kept_byline(&page, None).is_empty(), "{lang}");
            assert_eq!(
                dateline(&page, Dateline::Published).as_deref(),
                Some(date),
                "{lang}"
            );
            // Another language's leads are not read on an identified page.
            assert!(kept_byline(&page, Some("fr")).is_empty(), "{lang}");
        }
        // A shop's menu of an English page is no Dutch byline ("door ").
        assert!(kept_byline(&[seg("Door Hardware", true)], None).is_empty());
        assert!(kept_byline(&[seg("Door Hardware", true)], Some("en")).is_empty());
        // A name the markup gave keeps no lead of the page's language.
        let mut authors = vec![
            "Του Γιώργου Παπαδόπουλου".to_string(),
            "Jane Doe".to_string(),
            "Του".to_string(),
        ];
        without_leads(&mut authors, Some("en"));
        assert_eq!(authors[0], "Του Γιώργου Παπαδόπουλου");
        without_leads(&mut authors, Some("el"));
        assert_eq!(authors, ["Γιώργου Παπαδόπουλου", "Jane Doe", "Του"]);
        // A lead that starts names too ("di ", "von ") is left.
        let mut italian = vec!["Di Maio".to_string()];
        without_leads(&mut italian, Some("it"));
        assert_eq!(italian, ["Di Maio"]);
        // "Reposted" is not "posted".
        assert_eq!(
            published_line(&[seg("Reposted April 13, 2023", false)]),
            None
        );

        // The whole pipeline: a page whose markup states no date.
        let cleaner = Cleaner::from_model(crate::model::embedded("en").unwrap());
        let html = format!(
            "<html><body><article><h1>How to grow tomatoes</h1><div class=meta>Dec 12, 2025</div>\
             <p>{EN}</p><p>{EN}</p></article></body></html>"
        );
        let c = cleaner.clean(html.as_bytes(), InputKind::Html, None);
        let md = c.metadata.unwrap();
        assert_eq!(md.date_published.as_deref(), Some("2025-12-12"));
        assert_eq!(md.date_modified, None);
    }

    /// A cleaner asked not to complete the metadata leaves it as the markup
    /// states it, and decides and writes the page as one that does.
    #[test]
    fn metadata_left_as_the_markup_states_it() {
        let html = format!(
            "<html><head><title>Tomatoes</title></head><body><article>\
             <h1>How to grow tomatoes</h1><div class=meta>By Jane Doe</div>\
             <div class=meta>Dec 12, 2025</div><div class=meta>Updated: Jan 5, 2026</div>\
             <p>{EN}</p><p>{EN}</p></article></body></html>"
        );
        let cleaner = Cleaner::from_model(crate::model::embedded("en").unwrap());
        let completed = cleaner.clean(html.as_bytes(), InputKind::Html, None);
        let plain = cleaner.clone().with_completed_metadata(false).clean(
            html.as_bytes(),
            InputKind::Html,
            None,
        );
        let (full, markup) = (
            completed.metadata.as_ref().unwrap(),
            plain.metadata.as_ref().unwrap(),
        );
        // Both dates of the datelines, read in one pass; the byline's name.
        assert_eq!(full.date_published.as_deref(), Some("2025-12-12"));
        assert_eq!(full.date_modified.as_deref(), Some("2026-01-05"));
        assert_eq!(full.authors, ["Jane Doe"]);
        // The markup's fields alone: the title (its one h1), no author, no date.
        assert_eq!(markup.title.as_deref(), Some("How to grow tomatoes"));
        assert_eq!(markup.title, full.title);
        assert_eq!(
            (&markup.date_published, &markup.date_modified),
            (&None, &None)
        );
        assert!(markup.authors.is_empty(), "{:?}", markup.authors);
        // The same decisions, roles and text.
        assert_eq!(plain.segments, completed.segments);
        assert_eq!(plain.text(), completed.text());
    }
}
