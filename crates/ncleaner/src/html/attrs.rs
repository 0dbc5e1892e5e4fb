//! Words of `class`/`id`/`role` attributes, hashed for the classifier's
//! attribute evidence, and the checks for hidden elements (inline CSS, and
//! the streamed boundaries that `hidden` does not hide).

/// How many of the nearest attribute words a block records.
pub const ATTR_WORDS: usize = 24;

/// Splits a `class`/`id`/`role` value into words and appends their hashes:
/// words break at anything not a letter or digit, at lower-to-upper case
/// changes (`navMenu` → `nav`, `menu`) and between letters and digits; they
/// are lower-cased; words shorter than two characters and numbers are skipped.
pub fn attribute_words(value: &[u8], out: &mut Vec<u32>) {
    let mut word: Vec<u8> = Vec::with_capacity(16);
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
            flush(&mut word, out);
        }
        if alnum {
            word.push(b.to_ascii_lowercase());
        }
        prev = b;
    }
    flush(&mut word, out);
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
pub(super) fn streamed_boundary_id(id: &[u8]) -> bool {
    let id = id.trim_ascii();
    id.len() > 2 && id.starts_with(b"S:") && id[2..].iter().all(u8::is_ascii_digit)
}

/// Whether an inline style hides the element (`display:none`, `visibility:hidden`).
pub(super) fn style_hides(style: &[u8]) -> bool {
    let compact: Vec<u8> = style
        .iter()
        .filter(|b| !b.is_ascii_whitespace())
        .map(|b| b.to_ascii_lowercase())
        .collect();
    let has = |n: &[u8]| compact.windows(n.len()).any(|w| w == n);
    has(b"display:none") || has(b"visibility:hidden")
}

pub(super) const fn name_hash(name: &[u8]) -> u32 {
    // FNV-1a: names are short, and collisions only merge two unknown tags.
    let mut h: u32 = 0x811c_9dc5;
    let mut i = 0;
    while i < name.len() {
        h = (h ^ name[i] as u32).wrapping_mul(0x0100_0193);
        i += 1;
    }
    h
}

/// Attribute words that name a section of user comments (`comment-list`,
/// `commentsArea`, `disqus_thread`, `replies`, `respond`).
const COMMENT_WORDS: [u32; 7] = [
    name_hash(b"comment"),
    name_hash(b"comments"),
    name_hash(b"reply"),
    name_hash(b"replies"),
    name_hash(b"respond"),
    name_hash(b"disqus"),
    name_hash(b"discussion"),
];

/// Whether an element's attribute words ([`attribute_words`]) name a comment section.
pub(super) fn names_comments(words: &[u32]) -> bool {
    words.iter().any(|w| COMMENT_WORDS.contains(w))
}
