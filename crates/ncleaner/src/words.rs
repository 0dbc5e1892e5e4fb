//! What a word is, in every script: the one rule every stage counts words by
//! (segments, blocks, features, page features, the short-segment rules, the
//! record's `words_in`/`words_out`).
//!
//! A word is a run of characters between ASCII whitespace, except that each
//! character of the scripts written without spaces between words, Han,
//! Hiragana and Katakana, with the CJK symbols and punctuation and the
//! full-width forms, is a word by itself. `在北京举行` is five words,
//! `東京で3時間前` six, `Hello, world` two, `e-mail` one.
//!
//! Why this rule and not UAX #29 word boundaries throughout: it is the unit
//! the gold is scored in (`cleaneval_score.py --words-only --cjk-chars` makes
//! each such character a token and splits the rest on whitespace), so a
//! feature built on word counts measures what the score measures; on text
//! without those characters it is the whitespace rule the models were trained
//! with, so pages in spaced scripts are counted as before; and it keeps the
//! vectorised counter for them (most text holds no such character, which
//! [`holds_unspaced`] finds out at the cost of a vectorised scan). UAX #29
//! would make each Han and Hiragana character a word too, but keep a run of
//! Katakana whole and split `e-mail` and `U.S.` in two, which the scorer
//! does not.
//!
//! Thai, Lao, Khmer and Myanmar, also written without spaces between words,
//! are counted by the whitespace rule (a run between spaces is a phrase):
//! their words need a dictionary to find, which UAX #29 does not have either.
//! U+3000, the ideographic space, is a separator, as other whitespace is.

/// Whether `c` is a word by itself: a character of the CJK ranges the
/// scorer's `--cjk-chars` splits (CJK symbols and punctuation U+3001–U+303F,
/// Hiragana and Katakana U+3040–U+30FF, Han U+3400–U+4DBF, U+4E00–U+9FFF and
/// the compatibility ideographs U+F900–U+FAFF, the half- and full-width forms
/// U+FF00–U+FFEF), and the Katakana phonetic extensions and the Han
/// extensions beyond the Basic Multilingual Plane, which the scorer's ranges
/// leave out only because they are rare.
#[inline]
pub fn is_unspaced(c: char) -> bool {
    matches!(c,
        '\u{3001}'..='\u{303F}'
        | '\u{3040}'..='\u{30FF}'
        | '\u{31F0}'..='\u{31FF}'
        | '\u{3400}'..='\u{4DBF}'
        | '\u{4E00}'..='\u{9FFF}'
        | '\u{F900}'..='\u{FAFF}'
        | '\u{FF00}'..='\u{FFEF}'
        | '\u{20000}'..='\u{3134F}')
}

/// Whether `c` separates words: ASCII whitespace and the ideographic space.
#[inline]
fn is_separator(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\x0c' | '\r' | '\u{3000}')
}

/// Whether a text holds a character of [`is_unspaced`] or U+3000. Without
/// one, the words of a text are its runs between ASCII whitespace, counted
/// by a vectorised loop; with one, character by character.
///
/// Every stage that counts words asks this of every text first. Every such
/// character is encoded with a lead byte of 0xE3 or above, so the text is
/// looked at in 64-byte blocks, each block's largest byte found by a loop
/// the compiler vectorises (a test per byte with an early exit does not
/// vectorise). Only a block with such a byte is decoded, and its characters
/// tested: the emoji, the icon fonts' private-use characters and the byte
/// order marks that many English texts hold also have such lead bytes, and
/// would send them to the slower path for nothing.
#[inline]
pub fn holds_unspaced(text: &str) -> bool {
    let b = text.as_bytes();
    let mut at = 0;
    while at < b.len() {
        let end = (at + 64).min(b.len());
        if b[at..end].iter().fold(0, |max, &c| max.max(c)) >= 0xE3 {
            // Decode from the block's first character boundary, through
            // the last character that starts in the block.
            let mut start = at;
            while !text.is_char_boundary(start) {
                start -= 1;
            }
            let mut stop = end;
            while !text.is_char_boundary(stop) {
                stop += 1;
            }
            if text[start..stop]
                .chars()
                .any(|c| c == '\u{3000}' || is_unspaced(c))
            {
                return true;
            }
        }
        at = end;
    }
    false
}

/// The number of words of `text` by the module's rule.
pub fn count(text: &str) -> usize {
    if !holds_unspaced(text) {
        return count_spaced(text.as_bytes());
    }
    let mut n = 0;
    let mut in_word = false;
    for c in text.chars() {
        if is_separator(c) {
            in_word = false;
        } else if is_unspaced(c) {
            n += 1;
            in_word = false;
        } else if !in_word {
            n += 1;
            in_word = true;
        }
    }
    n
}

/// Whether `text` holds more than `n` words (what `count(text) > n` says,
/// stopping at word `n + 1`).
pub fn more_than(text: &str, n: usize) -> bool {
    iter(text).nth(n).is_some()
}

/// The words of `text` in order, by the module's rule.
pub fn iter(text: &str) -> Words<'_> {
    Words {
        rest: text,
        spaced: !holds_unspaced(text),
    }
}

/// The iterator of [`iter`].
#[derive(Debug, Clone)]
pub struct Words<'a> {
    rest: &'a str,
    /// The text holds no character of [`is_unspaced`] and no U+3000: its
    /// words are its runs between ASCII whitespace, found byte by byte.
    spaced: bool,
}

impl<'a> Iterator for Words<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        if self.spaced {
            let b = self.rest.as_bytes();
            let start = b.iter().position(|&c| !is_ascii_space(c))?;
            let end = b[start..]
                .iter()
                .position(|&c| is_ascii_space(c))
                .map_or(b.len(), |n| start + n);
            // ASCII whitespace bytes are character boundaries.
            let word = &self.rest[start..end];
            self.rest = &self.rest[end..];
            return Some(word);
        }
        let start = self.rest.find(|c: char| !is_separator(c))?;
        let s = &self.rest[start..];
        let first = s.chars().next()?;
        let end = if is_unspaced(first) {
            first.len_utf8()
        } else {
            s.find(|c: char| is_separator(c) || is_unspaced(c))
                .unwrap_or(s.len())
        };
        self.rest = &s[end..];
        Some(&s[..end])
    }
}

/// ASCII whitespace as the whitespace rule splits on: space, tab, line feed,
/// form feed, carriage return.
#[inline]
fn is_ascii_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\x0c' | b'\r')
}

/// The number of runs of bytes other than ASCII whitespace (space, tab,
/// line feed, form feed, carriage return): the count of
/// `split_ascii_whitespace()`. A word starts at a byte that is not
/// whitespace after one that is (or at the start): counted over pairs of
/// neighbouring bytes in 64-byte blocks that the compiler vectorises:
/// several stages count words, and a loop over one byte at a time is a
/// profile's visible share of `clean`.
fn count_spaced(b: &[u8]) -> usize {
    let space = is_ascii_space;
    let Some(&first) = b.first() else {
        return 0;
    };
    let mut n = usize::from(!space(first));
    let (prev, next) = (&b[..b.len() - 1], &b[1..]);
    let mut blocks = prev.chunks_exact(64).zip(next.chunks_exact(64));
    for (p, q) in &mut blocks {
        // At most 64 starts a block: a byte counter cannot overflow.
        let starts: u8 = p
            .iter()
            .zip(q)
            .map(|(&p, &q)| u8::from(space(p) & !space(q)))
            .sum();
        n += usize::from(starts);
    }
    let done = prev.len() / 64 * 64;
    n += prev[done..]
        .iter()
        .zip(&next[done..])
        .filter(|&(&p, &q)| space(p) && !space(q))
        .count();
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn spaced_text_is_split_on_ascii_whitespace() {
        for t in [
            "",
            " ",
            "a",
            " a  b\tc\n\rd\x0ce ",
            "x\u{a0}y \u{2003} z",
            "\x0bq r",
            "één  twee",
            "Hello, world",
            "e-mail U.S. 3.14",
            "Москва  вчера",
            "word  ".repeat(40).as_str(),
            " x".repeat(100).as_str(),
            "ab\tc \r\n".repeat(33).as_str(),
        ] {
            assert_eq!(count(t), t.split_ascii_whitespace().count(), "{t:?}");
            assert_eq!(
                iter(t).collect::<Vec<_>>(),
                t.split_ascii_whitespace().collect::<Vec<_>>()
            );
        }
    }

    #[test]
    fn each_han_kana_and_full_width_character_is_a_word() {
        assert_eq!(count("在北京举行"), 5);
        assert_eq!(
            iter("東京で3時間前").collect::<Vec<_>>(),
            ["東", "京", "で", "3", "時", "間", "前"]
        );
        assert_eq!(count("カタカナ"), 4);
        // Full-width punctuation and digits are words, as the scorer counts them.
        assert_eq!(
            iter("新华社，北京１２月").collect::<Vec<_>>(),
            ["新", "华", "社", "，", "北", "京", "１", "２", "月"]
        );
        // Latin runs between Han characters are words of their own.
        assert_eq!(
            iter("用iPhone 15拍").collect::<Vec<_>>(),
            ["用", "iPhone", "15", "拍"]
        );
        // The ideographic space separates.
        assert_eq!(
            iter("作者\u{3000}张三").collect::<Vec<_>>(),
            ["作", "者", "张", "三"]
        );
        // Hangul is written with spaces: whitespace words.
        assert_eq!(count("서울 특별시"), 2);
        // Thai: a run between spaces (the module's documented choice).
        assert_eq!(count("ภาษาไทย ง่าย"), 2);
        // Beyond the BMP: a Han extension B character.
        assert_eq!(count("\u{20000}\u{20001}"), 2);
    }

    proptest! {
        #[test]
        fn count_is_the_iterators_length(t in "\\PC{0,40}|[a 中文、。\u{3000}xy\t]{0,40}") {
            prop_assert_eq!(count(&t), iter(&t).count());
            for w in iter(&t) {
                prop_assert!(!w.is_empty());
                prop_assert!(!w.chars().any(is_separator));
            }
            prop_assert_eq!(more_than(&t, 3), count(&t) > 3);
        }

        #[test]
        fn the_block_scan_finds_an_unspaced_character(t in "[a-z \u{e9}\u{2014}\u{1f600}\u{e000}\u{feff}]{0,200}[\u{4e2d}\u{3000}\u{ff01}]?[a-z \u{1f600}]{0,100}") {
            prop_assert_eq!(holds_unspaced(&t), t.chars().any(|c| c == '\u{3000}' || is_unspaced(c)));
        }

        #[test]
        fn the_iterators_byte_path_is_the_rule(t in "[ -~\u{a0}-\u{2fff}\t\n\u{e000}\u{feff}\u{1f600}]{0,200}") {
            // No character of the rule's: the byte path gives the words the
            // character path gives, emoji and private-use characters
            // (lead bytes of 0xE3 or above) included.
            let general: Vec<&str> = Words { rest: &t, spaced: false }.collect();
            prop_assert!(iter(&t).spaced);
            prop_assert_eq!(iter(&t).collect::<Vec<_>>(), general);
        }

        #[test]
        fn the_fast_path_agrees_with_the_rule(t in "[ -~\u{a0}-\u{2fff}\t\n\u{e000}\u{feff}\u{1f600}]{0,200}") {
            // No character of the rule's: the vectorised count is the rule's.
            let mut n = 0;
            let mut in_word = false;
            for c in t.chars() {
                if is_separator(c) { in_word = false } else if !in_word { n += 1; in_word = true }
            }
            prop_assert_eq!(count(&t), n);
        }
    }
}
