//! What a word is, in every script: the one rule every stage counts words by
//! (segments, blocks, features, page features, the short-segment rules, the
//! record's `words_in`/`words_out`).
//!
//! A word is a run of characters between ASCII whitespace, except in the
//! scripts written without spaces between words ([`is_unspaced`]): each
//! character of Han, Hiragana and Katakana, with the CJK symbols and
//! punctuation and the full-width forms, is a word by itself, and a run of
//! Thai, Lao, Khmer or Myanmar is cut into its words by a dictionary.
//! `在北京举行` is five words, `東京で3時間前` six, `ภาษาไทย` two
//! (`ภาษา`, `ไทย`), `Hello, world` two, `e-mail` one.
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
//! Thai, Lao, Khmer and Myanmar (issue 70): a paragraph between two spaces
//! is a phrase or a sentence there, so the whitespace rule made a Thai
//! paragraph a handful of "words" to every stage, as Chinese was before its
//! characters were words, and its paragraphs looked like menu items. Their
//! characters are letters (a Thai word is about four of them, with its vowel
//! and tone marks), so a character is not a word as a Han character is:
//! ICU4X's dictionary segmenter (`icu_segmenter`, the dictionaries ICU
//! itself ships for these four scripts) finds the words, so that a Thai
//! paragraph counts about as many words as its English translation (the
//! test `tests/unspaced_scripts.rs`: the same page in Thai, Lao, Khmer,
//! Burmese and English gets the same decisions). Chosen over a per-cluster
//! rule (grapheme clusters divided by a mean word length) because it gives
//! the words themselves, not a count, at a cost of the same order: text
//! without these scripts never reaches it (the vectorised scan sends it
//! past); a pass over Thai text costs about 670 instructions a character
//! against the rule's 320 (`examples/unspaced_words.rs` under callgrind),
//! and each run is cut once however often the stages count it
//! ([`REMEMBERED_RUNS`]); the four dictionaries add about 1 MB to the
//! binary; a per-cluster rule would need a mean word length per script
//! measured on text we do not have, and its "words" (chunks of clusters)
//! would be no one's words (docs/decisions/text.md).
//! U+3000, the ideographic space, is a separator, as other whitespace is.

/// Whether `c` is of a script written without spaces between words: a
/// word by itself (Han, kana, full-width forms: [`is_word_by_itself`]) or a
/// letter of Thai, Lao, Khmer or Myanmar, whose words a dictionary finds
/// ([`is_dictionary_script`]).
#[inline]
pub fn is_unspaced(c: char) -> bool {
    is_word_by_itself(c) || is_dictionary_script(c)
}

/// Whether `c` is a word by itself: a character of the CJK ranges the
/// scorer's `--cjk-chars` splits (CJK symbols and punctuation U+3001–U+303F,
/// Hiragana and Katakana U+3040–U+30FF, Han U+3400–U+4DBF, U+4E00–U+9FFF and
/// the compatibility ideographs U+F900–U+FAFF, the half- and full-width forms
/// U+FF00–U+FFEF), and the Katakana phonetic extensions and the Han
/// extensions beyond the Basic Multilingual Plane, which the scorer's ranges
/// leave out only because they are rare.
#[inline]
fn is_word_by_itself(c: char) -> bool {
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

/// Whether `c` is of Thai (U+0E00–U+0E7F), Lao (U+0E80–U+0EFF), Myanmar
/// (U+1000–U+109F and its extensions U+A9E0–U+A9FF, U+AA60–U+AA7F) or
/// Khmer (U+1780–U+17FF, the Khmer symbols U+19E0–U+19FF): scripts whose
/// runs of characters the dictionary segmenter cuts into words.
#[inline]
fn is_dictionary_script(c: char) -> bool {
    matches!(c,
        '\u{0E00}'..='\u{0EFF}'
        | '\u{1000}'..='\u{109F}'
        | '\u{1780}'..='\u{17FF}'
        | '\u{19E0}'..='\u{19FF}'
        | '\u{A9E0}'..='\u{A9FF}'
        | '\u{AA60}'..='\u{AA7F}')
}

/// The zero-width space, non-joiner and joiner, which Khmer, Myanmar and
/// Thai text holds between or inside its words: part of a run of those
/// scripts (the segmenter reads them), never a word alone.
#[inline]
fn is_zero_width(c: char) -> bool {
    matches!(c, '\u{200B}'..='\u{200D}')
}

/// ICU4X's word segmenter with the dictionaries of Thai, Lao, Khmer and
/// Myanmar, without the Chinese and Japanese one (those characters are
/// words by themselves here, and its data would add about 2 MB). Made once
/// and kept for the process's life, in a static (with `icu_provider`'s
/// `sync` feature its data is shared between threads): not leaked, so that
/// a leak checker (the fuzz targets' LeakSanitizer) sees it reachable.
static SEGMENTER: std::sync::LazyLock<icu_segmenter::WordSegmenter> =
    std::sync::LazyLock::new(|| {
        icu_segmenter::WordSegmenter::try_new_dictionary_unstable(
            &dictionaries::SoutheastAsian,
            icu_segmenter::options::WordBreakOptions::default(),
        )
        .expect("the segmenter's data is compiled in")
    });

/// The data provider of [`SEGMENTER`].
mod dictionaries {
    use icu_provider::prelude::*;
    use icu_segmenter::provider::{
        Baked, SegmenterBreakGraphemeClusterV1, SegmenterBreakWordOverrideV1, SegmenterBreakWordV1,
        SegmenterDictionaryAutoV2, SegmenterDictionaryExtendedV2,
    };

    /// ICU4X's compiled data but for the Chinese and Japanese dictionary,
    /// which it says it does not have (the segmenter then leaves those
    /// scripts to its rules, and this module never asks it about them).
    pub(super) struct SoutheastAsian;

    impl DataProvider<SegmenterDictionaryAutoV2> for SoutheastAsian {
        fn load(
            &self,
            req: DataRequest<'_>,
        ) -> Result<DataResponse<SegmenterDictionaryAutoV2>, DataError> {
            Err(DataErrorKind::IdentifierNotFound.with_req(SegmenterDictionaryAutoV2::INFO, req))
        }
    }

    macro_rules! baked {
        ($($marker:ty),*) => {$(
            impl DataProvider<$marker> for SoutheastAsian {
                fn load(&self, req: DataRequest<'_>) -> Result<DataResponse<$marker>, DataError> {
                    Baked.load(req)
                }
            }
        )*};
    }
    baked!(
        SegmenterDictionaryExtendedV2,
        SegmenterBreakWordV1,
        SegmenterBreakWordOverrideV1,
        SegmenterBreakGraphemeClusterV1
    );
}

/// The length in bytes of the run of dictionary-script characters (and
/// zero-width ones among them) that `s` starts with.
fn run_len(s: &str) -> usize {
    s.find(|c: char| !is_dictionary_script(c) && !is_zero_width(c))
        .unwrap_or(s.len())
}

/// The words of a run, each as the byte range of the run it spans.
type Cuts = Vec<(u32, u32)>;

/// The words of a run of dictionary-script characters, in order: the
/// segmenter's segments that hold such a character (a zero-width space
/// between words is none).
fn cut_run(run: &str) -> Cuts {
    let mut cuts = SEGMENTER.as_borrowed().segment_str(run);
    let mut from = cuts.next().unwrap_or(0);
    std::iter::from_fn(move || {
        let to = cuts.next()?;
        Some((std::mem::replace(&mut from, to), to))
    })
    .filter(|&(a, b)| run[a..b].chars().any(is_dictionary_script))
    .map(|(a, b)| (a as u32, b as u32))
    .collect()
}

/// How many runs' cuts [`with_run_words`] remembers, per thread.
///
/// The choice: the stages each count a segment's words again (the word
/// counts, the n-grams, the features, the rules), and the dictionary costs
/// about 670 instructions a Thai character a pass (`examples/
/// unspaced_words.rs` under callgrind), where the rest of the pipeline
/// costs about 380 an English character: a Thai page cost 29 times an
/// English one per character of text. Remembering the last 32 runs cuts a
/// segment's runs once however many stages ask (a page's segments are
/// read stage by stage, and a stage reads one segment at a time); a run is
/// found again by its bytes, compared in full, so a remembered cut is
/// always the run's own.
const REMEMBERED_RUNS: usize = 32;

/// The cuts of the runs met last on this thread ([`REMEMBERED_RUNS`]),
/// and where the next one goes.
#[derive(Default)]
struct RememberedRuns {
    runs: Vec<(Box<str>, Cuts)>,
    next: usize,
}

thread_local! {
    static RUNS: std::cell::RefCell<RememberedRuns> = std::cell::RefCell::default();
}

/// `f` of the words of a run of dictionary-script characters (as
/// [`cut_run`] gives them), cut once for the last [`REMEMBERED_RUNS`] runs.
fn with_run_words<T>(run: &str, f: impl FnOnce(&[(u32, u32)]) -> T) -> T {
    RUNS.with(|cell| {
        let mut memo = cell.borrow_mut();
        if let Some((_, cuts)) = memo.runs.iter().find(|(r, _)| **r == *run) {
            return f(cuts);
        }
        let cuts = cut_run(run);
        let out = f(&cuts);
        let entry = (Box::from(run), cuts);
        if memo.runs.len() < REMEMBERED_RUNS {
            memo.runs.push(entry);
        } else {
            let at = memo.next;
            memo.runs[at] = entry;
            memo.next = (at + 1) % REMEMBERED_RUNS;
        }
        out
    })
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
/// character is encoded with a lead byte of 0xE0 (Thai, Lao), 0xE1
/// (Myanmar, Khmer) or 0xE3 and above, never 0xE2 (general punctuation,
/// the curly quotes and dashes of English text), so the text is looked at
/// in 64-byte blocks, each block's largest byte XOR 0x02 found by a loop
/// the compiler vectorises (a test per byte with an early exit does not
/// vectorise): XOR 0x02 swaps 0xE0 with 0xE2 and 0xE1 with 0xE3, so the
/// largest is 0xE1 or more exactly when a byte is 0xE0 or above but not
/// 0xE2. Only a block with such a byte is decoded, and its characters
/// tested: the emoji, the icon fonts' private-use characters and the byte
/// order marks that many English texts hold also have such lead bytes, and
/// so do Devanagari and Vietnamese, and would send them to the slower path
/// for nothing.
#[inline]
pub fn holds_unspaced(text: &str) -> bool {
    let b = text.as_bytes();
    let mut at = 0;
    while at < b.len() {
        let end = (at + 64).min(b.len());
        if b[at..end].iter().fold(0, |max, &c| max.max(c ^ 0x02)) >= 0xE1 {
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
    let mut i = 0;
    while let Some(c) = text[i..].chars().next() {
        let mut len = c.len_utf8();
        if is_separator(c) {
            in_word = false;
        } else if is_word_by_itself(c) {
            n += 1;
            in_word = false;
        } else if is_dictionary_script(c) {
            len = run_len(&text[i..]);
            n += with_run_words(&text[i..i + len], <[_]>::len);
            in_word = false;
        } else if !in_word {
            n += 1;
            in_word = true;
        }
        i += len;
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
        run: Vec::new(),
    }
}

/// The iterator of [`iter`].
#[derive(Debug, Clone)]
pub struct Words<'a> {
    rest: &'a str,
    /// The text holds no character of [`is_unspaced`] and no U+3000: its
    /// words are its runs between ASCII whitespace, found byte by byte.
    spaced: bool,
    /// The words of the run of a dictionary script last met, not yet
    /// given, last first.
    run: Vec<&'a str>,
}

impl<'a> Iterator for Words<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        if let Some(word) = self.run.pop() {
            return Some(word);
        }
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
        if is_dictionary_script(first) {
            let (run, rest) = s.split_at(run_len(s));
            self.rest = rest;
            with_run_words(run, |cuts| {
                let words = cuts.iter().map(|&(a, b)| &run[a as usize..b as usize]);
                self.run.extend(words);
            });
            self.run.reverse();
            // A run starts with a character of the script: a word at least.
            return self.run.pop();
        }
        let end = if is_word_by_itself(first) {
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
        // Thai: the dictionary's words, not the run between spaces.
        assert_eq!(
            iter("ภาษาไทย ง่าย").collect::<Vec<_>>(),
            ["ภาษา", "ไทย", "ง่าย"]
        );
        // Beyond the BMP: a Han extension B character.
        assert_eq!(count("\u{20000}\u{20001}"), 2);
    }

    /// A remembered run's cut is the run's own: the same words as a fresh
    /// cut, for runs met again, runs that differ by one character and
    /// runs met after the memory has turned over.
    #[test]
    fn remembered_runs_give_the_runs_own_words() {
        let runs: Vec<String> = (0..REMEMBERED_RUNS * 2 + 3)
            .map(|i| format!("กรุงเทพมหานคร{}ประเทศไทย", "ครับ".repeat(i % 7)))
            .chain(["ภาษาไทย".into(), "ภาษาไท".into(), "ภาษาไทย".into()])
            .collect();
        for round in 0..3 {
            for run in &runs {
                let fresh = cut_run(run);
                let remembered = with_run_words(run, <[_]>::to_vec);
                assert_eq!(remembered, fresh, "round {round}: {run}");
                assert_eq!(count(run), fresh.len());
            }
        }
    }

    /// Issue 70: a run of Thai, Lao, Khmer or Myanmar is cut into its
    /// words; Latin letters and digits beside it are words of their own, a
    /// zero-width space between its words is none, and a paragraph counts
    /// about as many words as its English translation.
    #[test]
    fn runs_of_thai_lao_khmer_and_myanmar_are_cut_into_words() {
        assert_eq!(iter("สวัสดีครับ").collect::<Vec<_>>(), ["สวัสดี", "ครับ"]);
        assert_eq!(
            iter("ขายiPhoneรุ่นใหม่ 2024").collect::<Vec<_>>(),
            ["ขาย", "iPhone", "รุ่น", "ใหม่", "2024"]
        );
        assert_eq!(iter("ភាសា\u{200B}ខ្មែរ").collect::<Vec<_>>(), ["ភាសា", "ខ្មែរ"]);
        for (text, english) in [
            (
                "กรุงเทพมหานครเป็นเมืองหลวงของประเทศไทย",
                "Bangkok is the capital of Thailand",
            ),
            ("ຂອບໃຈຫຼາຍໆ", "Thank you very much"),
            (
                "ភ្នំពេញគឺជារាជធានីនៃប្រទេសកម្ពុជា",
                "Phnom Penh is the capital of Cambodia",
            ),
            ("ကျေးဇူးတင်ပါတယ်", "Thank you"),
        ] {
            let (n, m) = (count(text), count(english));
            assert!(
                n * 2 >= m && n <= m * 2,
                "{text}: {n} words ({:?}) against {m}",
                iter(text).collect::<Vec<_>>()
            );
        }
    }

    proptest! {
        #[test]
        fn count_is_the_iterators_length(t in "\\PC{0,40}|[a 中文、。\u{3000}xy\t]{0,40}|[a ภาษาไทยລາວខ្មែរမြန်\u{200B}1.]{0,60}") {
            prop_assert_eq!(count(&t), iter(&t).count());
            for w in iter(&t) {
                prop_assert!(!w.is_empty());
                prop_assert!(!w.chars().any(is_separator));
            }
            prop_assert_eq!(more_than(&t, 3), count(&t) > 3);
        }

        #[test]
        fn the_block_scan_finds_an_unspaced_character(t in "[a-z \u{e9}\u{2014}\u{1f600}\u{e000}\u{feff}\u{915}\u{1ea1}\u{10d0}]{0,200}[\u{4e2d}\u{3000}\u{ff01}\u{e01}\u{e81}\u{1000}\u{1780}\u{19e0}]?[a-z \u{1f600}]{0,100}") {
            prop_assert_eq!(holds_unspaced(&t), t.chars().any(|c| c == '\u{3000}' || is_unspaced(c)));
        }

        #[test]
        fn the_iterators_byte_path_is_the_rule(t in "[ -~\u{a0}-\u{dff}\u{f00}-\u{fff}\u{10a0}-\u{177f}\u{1800}-\u{19df}\u{1a00}-\u{2fff}\t\n\u{e000}\u{feff}\u{1f600}]{0,200}") {
            // No character of the rule's: the byte path gives the words the
            // character path gives, emoji and private-use characters
            // (lead bytes of 0xE3 or above) included.
            let general: Vec<&str> = Words { rest: &t, spaced: false, run: Vec::new() }.collect();
            prop_assert!(iter(&t).spaced);
            prop_assert_eq!(iter(&t).collect::<Vec<_>>(), general);
        }

        #[test]
        fn the_fast_path_agrees_with_the_rule(t in "[ -~\u{a0}-\u{dff}\u{f00}-\u{fff}\u{10a0}-\u{177f}\u{1800}-\u{19df}\u{1a00}-\u{2fff}\t\n\u{e000}\u{feff}\u{1f600}]{0,200}") {
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
