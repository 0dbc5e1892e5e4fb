//! Dates of other languages in a short text, for the datelines of the kept
//! content: months by name ([`MONTHS_OF_DATES`]), day first ("18 listopada
//! 2011", "15 декабря 2011 г.", "4. März 2025", "4 de marzo de 2025"),
//! numeric days with dots ("15.12.2011"), and the year–month–day units of
//! Chinese, Japanese and Korean ("2011年12月15日", "2011년 12월 15일").
//!
//! Read only where [`super::date_in_text`] (ISO and English dates, which
//! the page features count) finds none, and only after the decisions: the
//! models never see these dates.
//!
//! Choices: a day first, as these languages write it (month-first order is
//! English's and is read there); `DD.MM.YYYY` with dots only (slashes are
//! `MM/DD` in the United States, and are left unread); digits in ASCII only
//! (full-width digits are rare in news datelines and are left unread).

use super::{Ymd, valid};
use crate::lexicon::{DATE_JOINERS, DATE_UNITS, MONTHS_OF_DATES};

/// The first date of another language in `text` (see the module
/// documentation).
pub(super) fn first_other_date(text: &str) -> Option<Ymd> {
    if !text.bytes().any(|b| b.is_ascii_digit()) {
        return None;
    }
    let unit = unit_date(text);
    let worded = worded_date(text);
    // The one that starts first.
    match (unit, worded) {
        (Some((a, i)), Some((b, j))) => Some(if i <= j { a } else { b }),
        (a, b) => a.or(b).map(|(d, _)| d),
    }
}

/// A date written with the year, month and day units (`2011年12月15日`),
/// spaces allowed around the numbers, and where it starts.
fn unit_date(text: &str) -> Option<(Ymd, usize)> {
    for &(_, units) in DATE_UNITS.entries {
        let &[year, month, day] = units else { continue };
        for (at, _) in text.match_indices(year) {
            let head = text[..at].trim_end();
            let digits = head.len() - head.trim_end_matches(|c: char| c.is_ascii_digit()).len();
            if digits != 4 {
                continue;
            }
            let start = head.len() - 4;
            let Ok(y) = head[start..].parse::<u32>() else {
                continue;
            };
            let rest = &text[at + year.len()..];
            let Some((m, rest)) = number_then(rest, month) else {
                continue;
            };
            let Some((d, _)) = number_then(rest, day) else {
                continue;
            };
            if valid(y, m, d) {
                return Some(((y, m, d), start));
            }
        }
    }
    None
}

/// One or two ASCII digits, spaces around them allowed, then `unit`: the
/// number and what follows the unit.
fn number_then<'a>(s: &'a str, unit: &str) -> Option<(u32, &'a str)> {
    let s = s.trim_start();
    let n = s.len() - s.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if !(1..=2).contains(&n) {
        return None;
    }
    let v = s[..n].parse().ok()?;
    s[n..].trim_start().strip_prefix(unit).map(|rest| (v, rest))
}

/// A date of day, month name and year, or of `DD.MM.YYYY`, and the byte
/// where its first word starts.
fn worded_date(text: &str) -> Option<(Ymd, usize)> {
    let words: Vec<(usize, &str)> = text
        .split(|c: char| {
            c.is_whitespace()
                || matches!(c, '•' | '·' | '|' | '–' | '—' | '[' | ']' | '(' | ')' | ',')
        })
        .filter(|w| !w.is_empty())
        .map(|w| (w.as_ptr() as usize - text.as_ptr() as usize, w))
        .filter(|(_, w)| !DATE_JOINERS.contains(&w.to_lowercase()))
        .take(64)
        .collect();
    for (i, &(at, w)) in words.iter().enumerate() {
        if let Some(d) = dotted(w) {
            return Some((d, at));
        }
        let Some(day) = day_of(w) else { continue };
        let (Some(&(_, m)), Some(&(_, y))) = (words.get(i + 1), words.get(i + 2)) else {
            continue;
        };
        if let (Some(m), Some(y)) = (month_of(m), year_of(y))
            && valid(y, m, day)
        {
            return Some(((y, m, day), at));
        }
    }
    None
}

/// `DD.MM.YYYY` (one or two digits for the day and the month), with a
/// final period or letters after it allowed ("15.12.2011г").
fn dotted(w: &str) -> Option<Ymd> {
    let w = w.trim_end_matches(|c: char| c == '.' || c.is_alphabetic());
    let mut parts = w.split('.');
    let (d, m, y) = (parts.next()?, parts.next()?, parts.next()?);
    let short = |p: &str| (1..=2).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_digit());
    if parts.next().is_some() || !short(d) || !short(m) || y.len() != 4 {
        return None;
    }
    let (d, m, y) = (d.parse().ok()?, m.parse().ok()?, y.parse().ok()?);
    valid(y, m, d).then_some((y, m, d))
}

/// A day: one or two digits, with a period ("4.") or a suffix of letters
/// ("1er", "1st") after them.
fn day_of(w: &str) -> Option<u32> {
    let w = w.trim_end_matches(|c: char| c == '.' || c.is_alphabetic());
    ((1..=2).contains(&w.len()) && w.bytes().all(|b| b.is_ascii_digit()))
        .then(|| w.parse().ok())
        .flatten()
}

/// A year: four digits, with a period or letters after them ("2011г.",
/// "2011r.").
fn year_of(w: &str) -> Option<u32> {
    let w = w.trim_end_matches(|c: char| c == '.' || c.is_alphabetic());
    (w.len() == 4 && w.bytes().all(|b| b.is_ascii_digit()))
        .then(|| w.parse().ok())
        .flatten()
}

/// The month a word names: the month of every form of [`MONTHS_OF_DATES`]
/// that the word (lower case, Greek accents dropped, a final period
/// dropped, three letters at least) starts, when they all agree.
fn month_of(w: &str) -> Option<u32> {
    let w = plain(w.trim_end_matches('.'));
    if w.chars().count() < 3 || !w.chars().all(char::is_alphabetic) {
        return None;
    }
    let mut found = None;
    for &(_, months) in MONTHS_OF_DATES.entries {
        for (i, form) in months.iter().enumerate() {
            if form.starts_with(w.as_str()) {
                let m = i as u32 + 1;
                if found.is_some_and(|f| f != m) {
                    return None;
                }
                found = Some(m);
            }
        }
    }
    found
}

/// A word in lower case with the Greek accents (tonos, dialytika) dropped,
/// as [`MONTHS_OF_DATES`] writes Greek.
fn plain(w: &str) -> String {
    w.to_lowercase()
        .chars()
        .map(|c| match c {
            'ά' => 'α',
            'έ' => 'ε',
            'ή' => 'η',
            'ί' | 'ϊ' | 'ΐ' => 'ι',
            'ό' => 'ο',
            'ύ' | 'ϋ' | 'ΰ' => 'υ',
            'ώ' => 'ω',
            c => c,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date(text: &str) -> Option<String> {
        first_other_date(text).map(super::super::format_ymd)
    }

    #[test]
    fn dates_of_five_languages_and_more() {
        for (text, want) in [
            ("18 listopada 2011 r., 14:05", "2011-11-18"),
            ("Dodano: 3 gru. 2011", "2011-12-03"),
            ("15 декабря 2011 г. 09:43", "2011-12-15"),
            ("Опубликовано 1 янв. 2012", "2012-01-01"),
            ("15 Δεκεμβρίου 2011", "2011-12-15"),
            ("ΠΕΜΠΤΗ 15 ΔΕΚΕΜΒΡΙΟΥ 2011", "2011-12-15"),
            ("2011年12月15日 10:30 来源：新华网", "2011-12-15"),
            ("発行 2011年 1月 5日", "2011-01-05"),
            ("2011년 12월 15일", "2011-12-15"),
            ("Aktualisiert am 4. März 2025", "2025-03-04"),
            ("le 1er mars 2025", "2025-03-01"),
            ("4 de marzo de 2025", "2025-03-04"),
            ("4 de março de 2025", "2025-03-04"),
            ("12 févr. 2024", "2024-02-12"),
            ("15.12.2011, 10:00", "2011-12-15"),
            ("Дата: 05.01.2012г.", "2012-01-05"),
        ] {
            assert_eq!(date(text).as_deref(), Some(want), "{text}");
        }
    }

    #[test]
    fn what_is_no_date() {
        for text in [
            "31 listopada 2011", // no 31st of November
            "15 декабря",        // no year
            "3 jui 2024",        // "jui" starts June and July: neither
            "12 ju 2024",        // two letters
            "12/03/2024",        // slashes: month or day first?
            "1.2.3.2024",
            "2011年13月15日",
            "11年12月15日",
            "1985年12月15日",
            "Глава 12 2011",
        ] {
            assert_eq!(date(text), None, "{text}");
        }
        assert_eq!(date("3 juil. 2024").as_deref(), Some("2024-07-03"));
    }

    #[test]
    fn the_first_date_wins() {
        assert_eq!(
            date("更新 2012年1月2日，发布 15.12.2011").as_deref(),
            Some("2012-01-02")
        );
        assert_eq!(
            date("15.12.2011 (2012年1月2日)").as_deref(),
            Some("2011-12-15")
        );
    }

    #[test]
    fn every_language_reads_each_of_its_months() {
        for &(lang, months) in MONTHS_OF_DATES.entries {
            for (i, m) in months.iter().enumerate() {
                assert_eq!(month_of(m), Some(i as u32 + 1), "{lang} {m}");
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn any_text_is_read_without_a_panic(text in "\\PC{0,60}") {
            let _ = first_other_date(&text);
        }
    }
}
