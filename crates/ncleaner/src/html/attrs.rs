//! Words of `class`/`id`/`role` attributes, hashed for the classifier's
//! attribute evidence, and the checks for hidden elements (inline CSS, and
//! the streamed boundaries that `hidden` does not hide).

use crate::lexicon::{COMMENT_SECTION, WordSet};

/// How many of the nearest attribute words a block records.
pub const ATTR_WORDS: usize = 24;

/// Splits a `class`/`id`/`role` value into words and appends their hashes:
/// words break at anything not a letter or digit, at lower-to-upper case
/// changes (`navMenu` → `nav`, `menu`) and between letters and digits; they
/// are lower-cased; words shorter than two characters and numbers are skipped.
pub fn attribute_words(value: &[u8], out: &mut Vec<u32>) {
    each_attribute_word(value, |h| out.push(h));
}

/// [`attribute_words`], each word's hash given to `word` as it is read
/// (the page type's signals reduce a string's words to a mask, with no
/// buffer to fill and read again).
#[inline(always)]
pub(crate) fn each_attribute_word(value: &[u8], mut word: impl FnMut(u32)) {
    // Each word is hashed as it is read (FNV-1a of its lower-cased bytes,
    // as [`word_hash`] hashes it whole), by the class of each byte.
    const SEP: u8 = 0;
    const LOWER: u8 = 1;
    const UPPER: u8 = 2;
    const DIGIT: u8 = 3;
    const OTHER: u8 = 4;
    const CLASS: [u8; 256] = {
        let mut t = [SEP; 256];
        let mut b = 0;
        while b < 256 {
            t[b] = match b as u8 {
                b'a'..=b'z' => LOWER,
                b'A'..=b'Z' => UPPER,
                b'0'..=b'9' => DIGIT,
                0x80.. => OTHER,
                _ => SEP,
            };
            b += 1;
        }
        t
    };
    // Whether a word breaks before a byte of class `c` after one of class
    // `prev` (index `prev << 3 | c`): at anything not a letter or digit, at
    // a lower-case letter followed by a capital, and between letters and
    // digits. One load a byte, where the tests are several branches.
    const SPLIT: [bool; 64] = {
        let mut t = [false; 64];
        let mut p = 0;
        while p < 8 {
            let mut c = 0;
            while c < 8 {
                let (pc, cc) = (p as u8, c as u8);
                t[p << 3 | c] = cc == SEP
                    || (pc == LOWER && cc == UPPER)
                    || ((pc == LOWER || pc == UPPER) && cc == DIGIT)
                    || (pc == DIGIT && (cc == LOWER || cc == UPPER));
                c += 1;
            }
            p += 1;
        }
        t
    };
    let mut h = FNV_OFFSET;
    let mut len = 0usize;
    let mut digits = true;
    let mut prev = SEP;
    let mut i = 0;
    while i < value.len() {
        let b = value[i];
        let c = CLASS[b as usize];
        i += 1;
        if c == LOWER && prev != DIGIT {
            // A run of lower-case letters (most of a class list) continues
            // the word: no test but the class of the next byte.
            // (The run's length is counted once, after it.)
            h = (h ^ u32::from(b)).wrapping_mul(FNV_PRIME);
            let from = i;
            while let Some(&b) = value.get(i)
                && CLASS[b as usize] == LOWER
            {
                h = (h ^ u32::from(b)).wrapping_mul(FNV_PRIME);
                i += 1;
            }
            len += 1 + (i - from);
            digits = false;
            prev = LOWER;
            continue;
        }
        if SPLIT[usize::from(prev << 3 | c) & 63] {
            if len >= 2 && !digits {
                word(h);
            }
            h = FNV_OFFSET;
            len = 0;
            digits = true;
        }
        if c != SEP {
            h = (h ^ u32::from(b.to_ascii_lowercase())).wrapping_mul(FNV_PRIME);
            len += 1;
            digits &= c == DIGIT;
        }
        prev = c;
    }
    if len >= 2 && !digits {
        word(h);
    }
}

/// The hash of one attribute word (FNV-1a, as model files store them).
pub fn word_hash(word: &[u8]) -> u32 {
    name_hash(word)
}

/// Whether an `id` is that of a boundary that a server streams after the
/// page's shell: React sends `<div hidden id="S:0">…</div>` at the end of the
/// body, and an inline script (`$RC`) moves it into the placeholder
/// `<template id="B:0">`, so browsers show it. On Next.js pages it holds the
/// whole article (33 of WCXB's 1,474 development pages; 2 came out empty).
/// Its `hidden` attribute is ignored; a hiding inline style still hides it.
pub fn streamed_boundary_id(id: &[u8]) -> bool {
    let id = id.trim_ascii();
    id.len() > 2 && id.starts_with(b"S:") && id[2..].iter().all(u8::is_ascii_digit)
}

/// Whether a `role` value (a list of tokens, the first the browser knows
/// counts; here any) names a dialog: `dialog` or `alertdialog`, case
/// ignored.
pub fn role_is_dialog(role: &[u8]) -> bool {
    role.split(u8::is_ascii_whitespace)
        .any(|t| t.eq_ignore_ascii_case(b"dialog") || t.eq_ignore_ascii_case(b"alertdialog"))
}

/// Whether an inline style hides the element (`display:none`,
/// `visibility:hidden`, whitespace anywhere and case ignored): some colon
/// has the one word's letters before it and the other's after it, with
/// only whitespace between them. No copy of the style is made.
pub fn style_hides(style: &[u8]) -> bool {
    memchr::memchr_iter(b':', style).any(|colon| {
        (letters_before(style, colon, b"display") && letters_after(style, colon, b"none"))
            || (letters_before(style, colon, b"visibility")
                && letters_after(style, colon, b"hidden"))
    })
}

/// Whether the bytes before `at`, whitespace skipped, end with `word` (lower case).
fn letters_before(s: &[u8], at: usize, word: &[u8]) -> bool {
    let mut i = at;
    word.iter().rev().all(|&w| {
        while i > 0 && s[i - 1].is_ascii_whitespace() {
            i -= 1;
        }
        if i == 0 || s[i - 1].to_ascii_lowercase() != w {
            return false;
        }
        i -= 1;
        true
    })
}

/// Whether the bytes after `at`, whitespace skipped, start with `word` (lower case).
fn letters_after(s: &[u8], at: usize, word: &[u8]) -> bool {
    let mut i = at + 1;
    word.iter().all(|&w| {
        while i < s.len() && s[i].is_ascii_whitespace() {
            i += 1;
        }
        if i == s.len() || s[i].to_ascii_lowercase() != w {
            return false;
        }
        i += 1;
        true
    })
}

const FNV_OFFSET: u32 = 0x811c_9dc5;
const FNV_PRIME: u32 = 0x0100_0193;

pub(super) const fn name_hash(name: &[u8]) -> u32 {
    // FNV-1a: names are short, and collisions only merge two unknown tags.
    let mut h: u32 = FNV_OFFSET;
    let mut i = 0;
    while i < name.len() {
        h = (h ^ name[i] as u32).wrapping_mul(FNV_PRIME);
        i += 1;
    }
    h
}

/// The hashes of [`crate::lexicon::COMMENT_SECTION`]'s words: an element
/// whose attribute words hold one names a comment section.
const COMMENT_WORDS: [u32; COMMENT_SECTION.len()] = hashes(&COMMENT_SECTION);

/// The hashes of a set's words ([`word_hash`]), in a constant table.
const fn hashes<const N: usize>(set: &WordSet) -> [u32; N] {
    let mut out = [0; N];
    let mut i = 0;
    while i < N {
        out[i] = name_hash(set.get(i).as_bytes());
        i += 1;
    }
    out
}

/// Whether an element's attribute words ([`attribute_words`]) name a comment section.
pub(super) fn names_comments(words: &[u32]) -> bool {
    words.iter().any(|w| COMMENT_WORDS.contains(w))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rule written plainly, the reference: the style without
    /// whitespace, lower-cased, holds one of the two declarations.
    fn compact_rule(style: &[u8]) -> bool {
        let compact: Vec<u8> = style
            .iter()
            .filter(|b| !b.is_ascii_whitespace())
            .map(|b| b.to_ascii_lowercase())
            .collect();
        let has = |n: &[u8]| compact.windows(n.len()).any(|w| w == n);
        has(b"display:none") || has(b"visibility:hidden")
    }

    #[test]
    fn dialog_roles() {
        for r in ["dialog", "alertdialog", " DIALOG ", "region dialog"] {
            assert!(role_is_dialog(r.as_bytes()), "{r:?}");
        }
        for r in ["", "dialogue", "navigation", "dialog-box"] {
            assert!(!role_is_dialog(r.as_bytes()), "{r:?}");
        }
    }

    #[test]
    fn styles_that_hide() {
        for style in [
            "display:none",
            "DISPLAY : None",
            "color:red; display:\tnone !important",
            "dis play:no ne",
            "visibility:hidden",
            "visibility :\nHIDDEN",
            "display:nonesuch",
            "xdisplay:none",
            "display:block",
            "visibility:visible",
            "display:",
            ":none",
            "display::none",
            "",
            "display: n",
        ] {
            assert_eq!(
                style_hides(style.as_bytes()),
                compact_rule(style.as_bytes()),
                "{style:?}"
            );
        }
    }

    /// The words of a value by the plain rule, the reference: split into
    /// words, each lower-cased in a buffer and hashed whole.
    fn words_rule(value: &[u8]) -> Vec<u32> {
        let mut out = Vec::new();
        let mut word: Vec<u8> = Vec::new();
        let flush = |word: &mut Vec<u8>, out: &mut Vec<u32>| {
            if word.len() >= 2 && !word.iter().all(u8::is_ascii_digit) {
                out.push(word_hash(word));
            }
            word.clear();
        };
        let mut prev = 0u8;
        for &b in value {
            let alnum = b.is_ascii_alphanumeric() || b >= 0x80;
            let split = !alnum
                || (prev.is_ascii_lowercase() && b.is_ascii_uppercase())
                || (prev.is_ascii_alphabetic() && b.is_ascii_digit())
                || (prev.is_ascii_digit() && b.is_ascii_alphabetic());
            if split {
                flush(&mut word, &mut out);
            }
            if alnum {
                word.push(b.to_ascii_lowercase());
            }
            prev = b;
        }
        flush(&mut word, &mut out);
        out
    }

    proptest::proptest! {
        #[test]
        fn words_are_hashed_as_the_rule_says(value in "[a-zA-Z0-9 _:-]{0,24}|\\PC{0,12}") {
            let mut got = Vec::new();
            attribute_words(value.as_bytes(), &mut got);
            proptest::prop_assert_eq!(got, words_rule(value.as_bytes()));
        }
    }

    #[test]
    fn words_are_hashed_as_they_are_read() {
        for value in [
            "sidebar-left navMenu item42 x  comment_box 2007",
            "ABC aBc AbC a1b2 12ab ab12 élan Ünïcode_x café2",
            "",
            "-",
            "x",
            "42",
            "a\u{80}b",
        ] {
            let mut got = Vec::new();
            attribute_words(value.as_bytes(), &mut got);
            assert_eq!(got, words_rule(value.as_bytes()), "{value:?}");
        }
    }
}
