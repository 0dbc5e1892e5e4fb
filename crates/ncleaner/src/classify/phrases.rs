//! Which of the lexicon's furniture phrases ([`TEXT_PHRASES`]) a short
//! segment holds: the phrase columns of a classifier trained with them
//! ([`super::features::Phrases`]).
//!
//! Choices, each tested below:
//! - A short segment, at most [`MAX_WORDS`] words (words of every script,
//!   so a Chinese label of four characters is four words) and [`MAX_CHARS`]
//!   characters, is a label: a phrase anywhere in it counts. A longer one,
//!   up to [`MAX_ITEM_WORDS`] words and [`MAX_ITEM_CHARS`] characters, is
//!   an item of a rail ("Read more: …", "Читайте также: …", a headline
//!   stamped "5時間前"): a phrase counts only at its start, and a relative
//!   date anywhere. A phrase inside a paragraph ("more", "share") says
//!   nothing of it, so longer segments are not read.
//! - The text is lower-cased (to the string `str::to_lowercase` gives,
//!   by `lowercase`) and searched once for every phrase of every
//!   language (one Aho–Corasick automaton).
//! - A phrase whose first (last) character is a letter of a spaced script
//!   matches only where no letter or digit comes before (after) it, so
//!   "share" is not found in "shareholders". Han, kana and Hangul have no
//!   such edge: "评论" is found in "发表评论".
//! - A relative-date mark counts only with a digit in the segment ("3 hours
//!   ago"; "ago" alone is a word of prose).

use crate::lexicon::TEXT_PHRASES;
use aho_corasick::{AhoCorasick, MatchKind};
use std::sync::OnceLock;

/// The longest label read, in words.
pub const MAX_WORDS: usize = 8;

/// The longest label read, in characters.
pub const MAX_CHARS: usize = 80;

/// The longest rail item read, in words.
pub const MAX_ITEM_WORDS: usize = 32;

/// The longest rail item read, in characters.
pub const MAX_ITEM_CHARS: usize = 240;

/// The family whose marks need a digit: the last of [`TEXT_PHRASES`].
const RELATIVE_DATE: usize = 3;

/// The automaton over every phrase, and each pattern's family.
struct Matcher {
    automaton: AhoCorasick,
    family: Vec<usize>,
}

fn matcher() -> &'static Matcher {
    static MATCHER: OnceLock<Matcher> = OnceLock::new();
    MATCHER.get_or_init(|| {
        let mut patterns = Vec::new();
        let mut family = Vec::new();
        for (g, group) in TEXT_PHRASES.groups.iter().enumerate() {
            for word in group.words() {
                patterns.push(word);
                family.push(g);
            }
        }
        let automaton = AhoCorasick::builder()
            .match_kind(MatchKind::Standard)
            .build(&patterns)
            .expect("the lexicon's phrases build an automaton");
        Matcher { automaton, family }
    })
}

/// Whether a phrase edge at `c` needs no boundary: a character that is a
/// word by itself ([`crate::words::is_unspaced`]: Han, kana) or Hangul,
/// whose words take their endings without a space ("댓글을").
fn unspaced(c: char) -> bool {
    crate::words::is_unspaced(c) || matches!(c, '\u{1100}'..='\u{11FF}' | '\u{AC00}'..='\u{D7AF}')
}

/// Whether a match of `phrase` at `start..end` of `text` stands on word
/// edges (see the module's choices).
fn on_edges(text: &str, start: usize, end: usize) -> bool {
    let phrase = &text[start..end];
    let edge_ok = |inner: Option<char>, outer: Option<char>| match (inner, outer) {
        (Some(i), Some(o)) if !unspaced(i) => !o.is_alphanumeric(),
        _ => true,
    };
    edge_ok(phrase.chars().next(), text[..start].chars().next_back())
        && edge_ok(phrase.chars().next_back(), text[end..].chars().next())
}

/// `text.to_lowercase()`, the same string, made faster for the scripts
/// of the lexicon's languages: ASCII, Cyrillic and Greek capitals by their
/// fixed offsets, Han, kana and Hangul as they are (they have no case),
/// any other character by `char::to_lowercase`. A text with a capital
/// sigma, whose lower case depends on its place in the word, goes to
/// `str::to_lowercase`. Measured with callgrind on DAnIEL's 182 Russian
/// pages cleaned by the fallback, `str::to_lowercase` was half of the
/// phrase columns' cost (2.9 % of all instructions).
fn lowercase(text: &str) -> String {
    if text.contains('\u{03A3}') {
        return text.to_lowercase();
    }
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        let shift = |by: u32| char::from_u32(c as u32 + by).unwrap_or(c);
        match c {
            'A'..='Z' => out.push(c.to_ascii_lowercase()),
            '\0'..='\x7f'
            | '\u{0430}'..='\u{045F}'
            | '\u{03AC}'..='\u{03CE}'
            | '\u{3040}'..='\u{30FF}'
            | '\u{3400}'..='\u{4DBF}'
            | '\u{4E00}'..='\u{9FFF}'
            | '\u{AC00}'..='\u{D7A3}' => out.push(c),
            '\u{0410}'..='\u{042F}' | '\u{0391}'..='\u{03A1}' | '\u{03A4}'..='\u{03AB}' => {
                out.push(shift(0x20));
            }
            '\u{0400}'..='\u{040F}' => out.push(shift(0x50)),
            _ => out.extend(c.to_lowercase()),
        }
    }
    out
}

/// Which families of [`TEXT_PHRASES`] the segment `text` of `words` words
/// and `chars` characters holds (the counts the row's facts already
/// hold), one flag each in the families' order (see the module's choices
/// for what is read): all false for a segment longer than
/// [`MAX_ITEM_WORDS`] or [`MAX_ITEM_CHARS`].
pub fn families(text: &str, words: usize, chars: usize) -> [bool; 4] {
    let mut found = [false; 4];
    if words == 0 || words > MAX_ITEM_WORDS || chars > MAX_ITEM_CHARS {
        return found;
    }
    let label = words <= MAX_WORDS && chars <= MAX_CHARS;
    let lower = lowercase(text);
    let m = matcher();
    let digit = lower.bytes().any(|b| b.is_ascii_digit());
    // A phrase is at the start when no letter or digit comes before it.
    let first_alphanumeric = lower
        .char_indices()
        .find(|&(_, c)| c.is_alphanumeric())
        .map_or(lower.len(), |(i, _)| i);
    for hit in m.automaton.find_overlapping_iter(&lower) {
        let g = m.family[hit.pattern().as_usize()];
        let counts = if g == RELATIVE_DATE {
            digit
        } else {
            label || hit.start() <= first_alphanumeric
        };
        if !found[g] && counts && on_edges(&lower, hit.start(), hit.end()) {
            found[g] = true;
        }
    }
    found
}

const _: () = assert!(TEXT_PHRASES.groups.len() == 4);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::words;

    fn of(text: &str) -> [bool; 4] {
        families(text, words::count(text), text.chars().count())
    }

    #[test]
    fn labels_of_every_family_are_found_in_several_languages() {
        let labels: [&[&str]; 4] = [
            &["Comments (12)", "Комментарии", "发表评论"],
            &["Udostępnij", "分享到微博"],
            &["Czytaj dalej »", "続きを読む", "Читайте также:"],
            &[
                "3 часа назад",
                "3小时前",
                "5時間前",
                "vor 3 Stunden",
                "il y a 2 jours",
            ],
        ];
        for (family, texts) in labels.iter().enumerate() {
            for text in *texts {
                let want: [bool; 4] = std::array::from_fn(|g| g == family);
                assert_eq!(of(text), want, "{text}");
            }
        }
    }

    /// The fast lower case is `str::to_lowercase`, character for
    /// character, on every character of the ranges it shifts or keeps and
    /// on mixed texts of the lexicon's scripts.
    #[test]
    fn the_lower_case_is_the_standard_one() {
        let ranges = [
            0u32..0x250,
            0x370..0x530,
            0x1E00..0x2200,
            0x3000..0x3100,
            0x4E00..0x4F00,
            0xAC00..0xAD00,
            0xFF00..0xFF70,
        ];
        for range in ranges {
            // Without the capital sigma, which sends a text to the standard path.
            let text: String = range
                .filter_map(char::from_u32)
                .filter(|&c| c != '\u{03A3}')
                .collect();
            assert_eq!(lowercase(&text), text.to_lowercase());
        }
        for text in [
            "ΑΠΑΝΤΗΣΕΙΣ ΣΤΑ ΣΧΟΛΙΑ",
            "Ἀθῆναι Ά Έ",
            "ЁЖИК Ѐ Ѝ Ў Џ",
            "İstanbul ǅ Ⅻ ẞ",
            "Comments 評論 コメント 댓글",
        ] {
            assert_eq!(lowercase(text), text.to_lowercase(), "{text}");
        }
    }

    proptest::proptest! {
        /// Any text's fast lower case is its standard one.
        #[test]
        fn any_text_s_lower_case_is_the_standard_one(text in "\\PC*") {
            proptest::prop_assert_eq!(lowercase(&text), text.to_lowercase());
        }
    }

    #[test]
    fn a_phrase_inside_a_longer_word_is_not_found() {
        assert_eq!(of("Shareholders"), [false; 4]);
        assert_eq!(of("Moreover"), [false; 4]);
        assert_eq!(of("Printing press"), [false; 4]);
    }

    #[test]
    fn a_relative_date_needs_a_digit() {
        assert_eq!(of("Long ago"), [false; 4]);
        assert_eq!(of("Два года назад"), [false; 4]);
        assert_eq!(of("2 years ago"), [false, false, false, true]);
    }

    #[test]
    fn a_rail_item_counts_a_phrase_at_its_start_and_a_date_anywhere() {
        assert_eq!(
            of("Читайте также: Правительство утвердило новый бюджет на следующий год"),
            [false, false, true, false]
        );
        assert_eq!(
            of("The council will share the results of the survey with residents"),
            [false; 4],
            "a phrase inside an item is not its label"
        );
        assert_eq!(
            of("首相、衆院解散を表明へ　来月にも総選挙 5時間前"),
            [false, false, false, true]
        );
    }

    #[test]
    fn long_segments_are_not_read() {
        let prose = "Share prices fell sharply as investors read more of the report and \
                     sold their holdings before the close, three hours after the bank said \
                     its profit fell 2 per cent from a year ago in a statement to markets";
        assert!(words::count(prose) > MAX_ITEM_WORDS);
        assert_eq!(of(prose), [false; 4]);
        let han = "评论员记者从有关部门获悉今年全市共完成投资一百亿元人民币以上的项目，\
                   比去年同期增长百分之十二，3小时前发布";
        assert!(words::count(han) > MAX_ITEM_WORDS);
        assert_eq!(of(han), [false; 4]);
        assert_eq!(families("", 0, 0), [false; 4]);
    }
}
