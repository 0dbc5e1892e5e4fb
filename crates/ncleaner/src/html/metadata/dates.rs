//! Dates for [`super::Metadata`]: stated dates normalised to ISO 8601
//! ([`normalise_date`]) and datelines found in short texts
//! ([`date_in_text`]).

/// A date as ISO 8601, or `None` when it is not a full date: `YYYY-MM-DD`,
/// or `YYYY-MM-DDTHH:MM:SS` followed by `Z` or an offset `±HH:MM` when the
/// value gives a time (fractions of a second dropped). Reads ISO forms
/// (`T` or a space before the time, `±HHMM` offsets), `YYYY/MM/DD`,
/// `YYYYMMDD`, RFC 2822 (`Tue, 04 Mar 2025 10:00:00 GMT`) and English
/// dates (`March 4, 2025`, `4 March 2025`). Years outside 1990–2100, a lone
/// year or a month are no date.
pub fn normalise_date(s: &str) -> Option<String> {
    let s = s.trim();
    if s.len() > 64 || s.len() < 8 {
        return None;
    }
    iso_date(s).or_else(|| english_date(s))
}

/// The first full date written in a short text ("By Jane Doe | March 4,
/// 2025", "Published 2025-03-04"), as [`normalise_date`] gives it.
pub fn date_in_text(text: &str) -> Option<String> {
    first_date_in_text(text).map(format_ymd)
}

/// [`date_in_text`]'s date, else the first date of another language
/// ([`other`]: "18 listopada 2011", "15.12.2011", "2011年12月15日"): the
/// datelines of the kept content, read after the decisions. The page
/// features count only [`date_in_text`]'s, as the models were trained.
pub fn any_date_in_text(text: &str) -> Option<String> {
    first_date_in_text(text)
        .or_else(|| other::first_other_date(text))
        .map(format_ymd)
}

/// Whether [`date_in_text`] finds a date in `text`, without writing it out
/// (the page type's features count dated segments).
pub fn holds_a_date_in_text(text: &str) -> bool {
    first_date_in_text(text).is_some()
}

mod other;

/// A date: its year, month and day.
type Ymd = (u32, u32, u32);

fn format_ymd((y, m, d): Ymd) -> String {
    format!("{y:04}-{m:02}-{d:02}")
}

/// [`date_in_text`]'s date, with no allocation: the text's words are read
/// from its split as they come, and each window of four words that may
/// start an English date is read from the split again, not joined.
fn first_date_in_text(text: &str) -> Option<Ymd> {
    // Every date read below has a year of four digits: text with no digit
    // has none.
    if !text.bytes().any(|b| b.is_ascii_digit()) {
        return None;
    }
    // Bylines join their parts with bullets, bars and dashes, and brackets
    // close around dates ("Jane Doe•Oct 20, 2025", "[Submitted on 18 Dec 2025]").
    let mut words = text
        .split(|c: char| {
            c.is_whitespace() || matches!(c, '•' | '·' | '|' | '–' | '—' | '[' | ']' | '(' | ')')
        })
        .filter(|w| !w.is_empty())
        .take(64);
    while let Some(word) = words.next() {
        let w = word.trim_matches(|c: char| !c.is_alphanumeric());
        if w.len() >= 10
            && w.as_bytes()[0].is_ascii_digit()
            && let Some((date, _)) = iso_ymd(w.as_bytes())
        {
            return Some(date);
        }
        // An English date starts with a day, a month or a weekday: other
        // words start none, and their window is not read.
        if !may_start_english_date(word) {
            continue;
        }
        // The window of the word and the three after it, split as
        // [`english_date`] splits them joined by spaces (words hold no
        // whitespace, so only commas split them further).
        let window = std::iter::once(word)
            .chain(words.clone().take(3))
            .flat_map(|w| w.split(','))
            .filter(|w| !w.is_empty());
        if let Some(d) = english_ymd(window) {
            return Some(d);
        }
    }
    None
}

/// Whether [`english_date`] could read a date from a window starting with
/// `word`: its first part (before any comma) starts with a digit, or with
/// the first three letters of a month or a weekday.
fn may_start_english_date(word: &str) -> bool {
    let w = word.trim_start_matches(',').as_bytes();
    match w {
        [d, ..] if d.is_ascii_digit() => true,
        [a, b, c, ..] => {
            let p = [
                a.to_ascii_lowercase(),
                b.to_ascii_lowercase(),
                c.to_ascii_lowercase(),
            ];
            MONTH_NAMES
                .iter()
                .chain(WEEKDAYS)
                .any(|name| name.as_bytes()[..3] == p)
        }
        _ => false,
    }
}

fn valid(y: u32, m: u32, d: u32) -> bool {
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if (y.is_multiple_of(4) && !y.is_multiple_of(100)) || y.is_multiple_of(400) => 29,
        2 => 28,
        _ => return false,
    };
    (1990..=2100).contains(&y) && (1..=days).contains(&d)
}

fn digits(b: &[u8], from: usize, n: usize) -> Option<u32> {
    let part = b.get(from..from + n)?;
    part.iter()
        .all(u8::is_ascii_digit)
        .then(|| part.iter().fold(0, |a, &c| a * 10 + u32::from(c - b'0')))
}

/// The date at the start of an ISO form (`YYYY-MM-DD`, `YYYY/MM/DD`,
/// `YYYY.MM.DD`, `YYYYMMDD`) and where it ends; `None` when it is no valid
/// date, or when a digit follows it and no time does.
fn iso_ymd(b: &[u8]) -> Option<(Ymd, usize)> {
    let y = digits(b, 0, 4)?;
    let (m, d, i) = match b.get(4) {
        Some(&sep @ (b'-' | b'/' | b'.')) => {
            let m = digits(b, 5, 2)?;
            if b.get(7) != Some(&sep) {
                return None;
            }
            (m, digits(b, 8, 2)?, 10)
        }
        Some(c) if c.is_ascii_digit() => (digits(b, 4, 2)?, digits(b, 6, 2)?, 8),
        _ => return None,
    };
    if !valid(y, m, d) {
        return None;
    }
    if !matches!(b.get(i), Some(b'T' | b't' | b' ')) && i < b.len() && b[i].is_ascii_digit() {
        return None;
    }
    Some(((y, m, d), i))
}

fn iso_date(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let (ymd, mut i) = iso_ymd(b)?;
    let date = format_ymd(ymd);
    // A time: `T` or a space, HH:MM[:SS][.fff], then Z or ±HH[:]MM.
    if !matches!(b.get(i), Some(b'T' | b't' | b' ')) {
        return Some(date);
    }
    let Some(h) = digits(b, i + 1, 2) else {
        return Some(date);
    };
    if b.get(i + 3) != Some(&b':') {
        return Some(date);
    }
    let Some(min) = digits(b, i + 4, 2) else {
        return Some(date);
    };
    i += 6;
    let mut sec = 0;
    if b.get(i) == Some(&b':')
        && let Some(x) = digits(b, i + 1, 2)
    {
        sec = x;
        i += 3;
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
    }
    if h > 23 || min > 59 || sec > 60 {
        return Some(date);
    }
    let zone = match b.get(i) {
        Some(b'Z' | b'z') => "Z".to_string(),
        Some(&sign @ (b'+' | b'-')) => {
            let oh = digits(b, i + 1, 2);
            let om = if b.get(i + 3) == Some(&b':') {
                digits(b, i + 4, 2)
            } else {
                digits(b, i + 3, 2).or(Some(0))
            };
            match (oh, om) {
                (Some(oh), Some(om)) if oh <= 14 && om <= 59 => {
                    format!("{}{oh:02}:{om:02}", sign as char)
                }
                _ => String::new(),
            }
        }
        _ => String::new(),
    };
    Some(format!("{date}T{h:02}:{min:02}:{sec:02}{zone}"))
}

/// The English months' names ([`crate::lexicon::MONTHS`]), January first:
/// the dates of text are read in English.
pub(super) const MONTH_NAMES: &[&str] = crate::lexicon::MONTHS.entry("en");

/// The English weekdays' names ([`crate::lexicon::WEEKDAYS`]).
pub(super) const WEEKDAYS: &[&str] = crate::lexicon::WEEKDAYS.entry("en");

/// `March 4, 2025`, `4 March 2025`, `Tue, 04 Mar 2025 10:00:00 GMT` (the date only).
fn english_date(s: &str) -> Option<String> {
    english_ymd(
        s.split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| !w.is_empty()),
    )
    .map(format_ymd)
}

/// [`english_date`]'s date from the words of its text (split at whitespace
/// and commas, none empty), with no allocation.
fn english_ymd<'a>(words: impl Iterator<Item = &'a str>) -> Option<Ymd> {
    let mut w = [""; 4];
    let mut n = 0;
    for word in words.take(4) {
        w[n] = word;
        n += 1;
    }
    // The first three letters of `name`, any case, start `w`.
    let starts =
        |w: &[u8], name: &str| w.len() >= 3 && w[..3].eq_ignore_ascii_case(&name.as_bytes()[..3]);
    let month_of = |w: &str| {
        let w = w.trim_end_matches('.').as_bytes();
        if w.len() < 3 || !w.is_ascii() {
            return None;
        }
        let i = MONTH_NAMES.iter().position(|m| starts(w, m))?;
        let m = MONTH_NAMES[i].as_bytes();
        (w.len() <= m.len() && m[..w.len()].eq_ignore_ascii_case(w)).then_some(i as u32 + 1)
    };
    let day_of = |w: &str| {
        let w = w.trim_end_matches(|c: char| c.is_ascii_alphabetic());
        (w.len() <= 2).then(|| w.parse::<u32>().ok()).flatten()
    };
    // A year may end a sentence ("December 3, 2025.").
    let year_of = |w: &str| {
        let w = w.strip_suffix('.').unwrap_or(w);
        (w.len() == 4).then(|| w.parse::<u32>().ok()).flatten()
    };
    // Skip a weekday.
    let start = usize::from(n > 0 && WEEKDAYS.iter().any(|d| starts(w[0].as_bytes(), d)));
    if n < start + 3 {
        return None;
    }
    let w = &w[start..start + 3];
    let (y, m, d) =
        if let (Some(m), Some(d), Some(y)) = (month_of(w[0]), day_of(w[1]), year_of(w[2])) {
            (y, m, d)
        } else if let (Some(d), Some(m), Some(y)) = (day_of(w[0]), month_of(w[1]), year_of(w[2])) {
            (y, m, d)
        } else {
            return None;
        };
    valid(y, m, d).then_some((y, m, d))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`date_in_text`] as first written (words collected, each window
    /// joined and split again, months lower-cased into new strings): the
    /// reference the allocation-free reading must match.
    fn plain_date_in_text(text: &str) -> Option<String> {
        if !text.bytes().any(|b| b.is_ascii_digit()) {
            return None;
        }
        let words: Vec<&str> = text
            .split(|c: char| {
                c.is_whitespace()
                    || matches!(c, '•' | '·' | '|' | '–' | '—' | '[' | ']' | '(' | ')')
            })
            .filter(|w| !w.is_empty())
            .take(64)
            .collect();
        for i in 0..words.len() {
            let w = words[i].trim_matches(|c: char| !c.is_alphanumeric());
            if w.len() >= 10
                && w.as_bytes()[0].is_ascii_digit()
                && let Some(d) = iso_date(w)
            {
                return Some(d[..10].to_string());
            }
            if !may_start_english_date(words[i]) {
                continue;
            }
            let window = words[i..(i + 4).min(words.len())].join(" ");
            if let Some(d) = plain_english_date(&window) {
                return Some(d);
            }
        }
        None
    }

    fn plain_english_date(s: &str) -> Option<String> {
        let words: Vec<&str> = s
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| !w.is_empty())
            .take(8)
            .collect();
        let month_of = |w: &str| {
            let w = w.trim_end_matches('.').to_ascii_lowercase();
            (w.len() >= 3 && w.is_ascii())
                .then(|| MONTH_NAMES.iter().position(|m| w.starts_with(&m[..3])))
                .flatten()
                .filter(|&i| MONTH_NAMES[i].starts_with(&w) || w == "sept")
                .map(|i| i as u32 + 1)
        };
        let day_of = |w: &str| {
            let w = w.trim_end_matches(|c: char| c.is_ascii_alphabetic());
            (w.len() <= 2).then(|| w.parse::<u32>().ok()).flatten()
        };
        let year_of = |w: &str| {
            let w = w.strip_suffix('.').unwrap_or(w);
            (w.len() == 4).then(|| w.parse::<u32>().ok()).flatten()
        };
        let start = usize::from(words.first().is_some_and(|w| {
            let w = w.to_ascii_lowercase();
            WEEKDAYS.iter().any(|d| w.starts_with(&d[..3]))
        }));
        let w = words.get(start..start + 3)?;
        let (y, m, d) = if let (Some(m), Some(d), Some(y)) =
            (month_of(w[0]), day_of(w[1]), year_of(w[2]))
        {
            (y, m, d)
        } else if let (Some(d), Some(m), Some(y)) = (day_of(w[0]), month_of(w[1]), year_of(w[2])) {
            (y, m, d)
        } else {
            return None;
        };
        valid(y, m, d).then(|| format!("{y:04}-{m:02}-{d:02}"))
    }

    #[test]
    fn dates_in_text_are_those_the_plain_reading_finds() {
        for text in [
            "By Jane Doe | March 4, 2025 | 5 min read",
            "Published 2025-03-04T10:00:00Z",
            "© 2025 The Tide",
            "Faith Katunga•Oct 20, 2025",
            "[Submitted on 18 Dec 2025]",
            "December 3, 2025. Updated later",
            "Tue, 04 Mar 2025 10:00:00 GMT",
            "Sept 9, 2024",
            "SEPTEMBER 31 2024, 1 october 2024",
            "4,March,2025",
            "Jun. 3rd 2025",
            "20250304 and 2025-02-30",
            "2025-03-041 then 2025/03/04",
            "Mär 4, 2025",
        ] {
            assert_eq!(date_in_text(text), plain_date_in_text(text), "{text}");
            assert_eq!(
                holds_a_date_in_text(text),
                plain_date_in_text(text).is_some()
            );
        }
    }

    proptest::proptest! {
        #[test]
        fn a_date_in_text_is_the_plain_reading_s(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                "March", "mar.", "Sept", "sept.", "Septe", "Tue,", "Tuesday", "4", "04", "31",
                "+4", "4th", "2025", "2025.", "+202", "1989", "2100", "2025-03-04", "20250304",
                "2024/02/29", "2025.03.04", "2025-03-041", "2025-03-04T10:00", "12:30", "|",
                "•", "(", ")", "[", "]", ",", ",,", "by", "Jane", "$5", "MAY", "may", "DEC.",
                "Sun", "Mär", "ﬁve", "Ǆ", "—", "·", "x2025-03-04", "(2025-03-04)",
            ]), 0..10),
            seps in proptest::collection::vec(
                proptest::sample::select(vec![" ", "", ", ", ",", "-", "\u{a0}", "\t"]), 10),
        ) {
            let text: String = parts.iter().zip(&seps).flat_map(|(p, s)| [*p, *s]).collect();
            proptest::prop_assert_eq!(date_in_text(&text), plain_date_in_text(&text), "{}", text);
            proptest::prop_assert_eq!(
                english_date(&text),
                plain_english_date(&text),
                "{}",
                text
            );
        }

        #[test]
        fn any_text_reads_as_plainly(text in "[a-zA-Z0-9 ,.:+|•TZ-]{0,40}") {
            proptest::prop_assert_eq!(date_in_text(&text), plain_date_in_text(&text), "{}", text);
            proptest::prop_assert_eq!(english_date(&text), plain_english_date(&text), "{}", text);
        }
    }
}
