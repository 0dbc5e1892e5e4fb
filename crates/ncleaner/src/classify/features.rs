//! Features of a segment for the segment classifier.
//!
//! What the paper's models ignore and the HTML or the text itself says: the
//! n-gram score (total and per character), length, link-text share, segment
//! kind, enclosing structure (`nav`, `footer`, `aside`, …), the block's
//! element, the position on the page, and surface statistics of the text
//! (final punctuation, capitals, digits, punctuation, vertical bars), and
//! how much of the segment the page's metadata (title, description, JSON-LD
//! article body) repeats, and what the page's tree of containers says about
//! it ([`crate::html::Container`]: the share, link density and prose of its
//! enclosing containers, whether it sits in the page's best prose container,
//! and how many same-shaped siblings they have). For
//! text-dump input only the features that text alone shows are set; the
//! HTML-only features stay 0 and a separate set of weights is trained.
//!
//! Features are dense `f32`s, standardised by the classifier; index 0 is the
//! bias (always 1).

use crate::html::{Context, Tag};
use crate::segment::{Kind, Segment};

/// Number of features.
pub const COUNT: usize = NAMES.len();

/// Feature names, in order (for reports and model files).
pub const NAMES: &[&str] = &[
    "bias",
    "ngram_per_char",
    "ngram_total",
    "log_words",
    "log_chars",
    "link_share",
    "kind_h",
    "kind_l",
    "ctx_nav",
    "ctx_header",
    "ctx_footer",
    "ctx_aside",
    "ctx_form",
    "ctx_table",
    "ctx_list",
    "ctx_article",
    "ctx_quote",
    "ctx_pre",
    "ctx_control",
    "tag_p",
    "tag_div",
    "tag_cell",
    "tag_li",
    "tag_heading",
    "tag_other",
    "position",
    "position_sq",
    "ends_sentence",
    "starts_upper",
    "upper_share",
    "digit_share",
    "punct_share",
    "bars",
    "mean_word_len",
    "comma_share",
    "attr_mean",
    "attr_min",
    "attr_max",
    "attr_known",
    "meta_present",
    "meta_title",
    "meta_summary",
    "container_share_0",
    "container_share_1",
    "container_share_2",
    "container_share_3",
    "container_links_0",
    "container_links_1",
    "container_links_2",
    "container_links_3",
    "container_prose_0",
    "container_prose_1",
    "container_prose_2",
    "container_prose_3",
    "in_best_container",
    "below_best_container",
    "best_container_share",
    "same_shape_siblings",
    "same_shape_siblings_above",
];

/// Index of the first container feature ([`crate::html::Container`]).
pub const CONTAINER_FEATURES: usize = 42;

/// Page-level quantities the features of each segment refer to.
#[derive(Debug, Clone, Copy)]
pub struct PageStats {
    /// Number of segments on the page.
    ///
    /// Page-level size features (the page's words, a segment's share of
    /// them) were tried and dropped: no gain under cross-validation, and they
    /// taught the classifier that short documents are boilerplate.
    pub segments: usize,
}

impl PageStats {
    /// The statistics of a page's segments.
    pub fn of(segments: &[Segment]) -> PageStats {
        PageStats {
            segments: segments.len(),
        }
    }
}

/// What the learned models say about a segment.
#[derive(Debug, Clone, Copy, Default)]
pub struct Evidence {
    /// The n-gram log-odds of the segment.
    pub score: f64,
    /// The number of symbols the score sums over.
    pub symbols: usize,
    /// The attribute-word evidence ([`super::attrs::AttrModel::evidence`]).
    pub attrs: [f32; super::attrs::EVIDENCE],
}

/// The features of segment `index` of a page.
pub fn extract(
    seg: &Segment,
    index: usize,
    page: PageStats,
    ev: Evidence,
    html: bool,
) -> [f32; COUNT] {
    let (score, symbols) = (ev.score, ev.symbols);
    let mut f = [0f32; COUNT];
    let text = seg.text();
    let CharStats {
        chars,
        upper,
        letters,
        digits,
        punct,
        commas,
        bars,
    } = char_stats(text);
    let words = seg.words().max(1);
    let chars_f = chars.max(1) as f32;
    f[0] = 1.0;
    f[1] = (score / symbols.max(1) as f64) as f32;
    f[2] = (score / 10.0).clamp(-30.0, 30.0) as f32;
    f[3] = (1.0 + words as f32).ln();
    f[4] = (1.0 + chars as f32).ln();
    f[6] = (seg.kind == Kind::H) as u8 as f32;
    f[7] = (seg.kind == Kind::L) as u8 as f32;
    if html {
        f[5] = seg.link_chars as f32 / chars_f;
        let flags = [
            Context::NAV,
            Context::HEADER,
            Context::FOOTER,
            Context::ASIDE,
            Context::FORM,
            Context::TABLE,
            Context::LIST,
            Context::ARTICLE,
            Context::QUOTE,
            Context::PRE,
            Context::CONTROL,
        ];
        for (i, flag) in flags.iter().enumerate() {
            f[8 + i] = seg.context.has(*flag) as u8 as f32;
        }
        let tag = seg.tag.unwrap_or(Tag::Body);
        let slot = match tag {
            Tag::P => 19,
            Tag::Div => 20,
            Tag::Td | Tag::Th => 21,
            Tag::Li => 22,
            Tag::H1 | Tag::H2 | Tag::H3 | Tag::H4 | Tag::H5 | Tag::H6 => 23,
            _ => 24,
        };
        f[slot] = 1.0;
    }
    let pos = if page.segments > 1 {
        index as f32 / (page.segments - 1) as f32
    } else {
        0.5
    };
    f[25] = pos;
    f[26] = pos * pos;
    // Flags for the first and last segment were tried and dropped: no gain
    // under cross-validation, and on pages of one or two segments (never seen
    // in training) they pushed the only paragraph below the threshold.
    let last = text.chars().last().unwrap_or(' ');
    // A sentence's end in Latin and in CJK punctuation (the full stop 。,
    // full-width ！？）：and the corner brackets that close a quotation).
    f[27] = matches!(
        last,
        '.' | '!' | '?' | '"' | '\'' | ')' | ':' | '。' | '！' | '？' | '）' | '：' | '」' | '』'
    ) as u8 as f32;
    f[28] = text.chars().next().is_some_and(char::is_uppercase) as u8 as f32;
    f[29] = upper as f32 / letters.max(1) as f32;
    f[30] = digits as f32 / chars_f;
    f[31] = punct as f32 / chars_f;
    f[32] = (bars as f32).min(5.0);
    f[33] = (letters + digits) as f32 / words as f32;
    f[34] = commas as f32 / words as f32;
    if html {
        f[35..39].copy_from_slice(&ev.attrs);
        if let Some([title, summary]) = seg.meta {
            f[39] = 1.0;
            f[40] = title;
            f[41] = summary;
        }
        if let Some(c) = &seg.container {
            const L: usize = crate::html::LEVELS;
            let at = CONTAINER_FEATURES;
            f[at..at + L].copy_from_slice(&c.share);
            f[at + L..at + 2 * L].copy_from_slice(&c.link_density);
            f[at + 2 * L..at + 3 * L].copy_from_slice(&c.paragraphs);
            let at = at + 3 * L;
            f[at] = c.in_best as u8 as f32;
            f[at + 1] = c.below_best;
            f[at + 2] = c.best_share;
            f[at + 3] = c.siblings.min(8.0);
            f[at + 4] = c.siblings_above.min(8.0);
        }
    }
    f
}

/// Counts of a segment's characters by class, as [`extract`] uses them.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct CharStats {
    chars: usize,
    upper: usize,
    letters: usize,
    digits: usize,
    punct: usize,
    commas: usize,
    bars: usize,
}

/// Class bits of an ASCII byte for [`char_stats`].
const C_LETTER: u8 = 1;
const C_UPPER: u8 = 2;
const C_DIGIT: u8 = 4;
const C_BAR: u8 = 8;
const C_COMMA: u8 = 16;
const C_PUNCT: u8 = 32;

/// [`char_class`] of every ASCII byte.
static ASCII_CLASS: [u8; 128] = {
    let mut t = [0u8; 128];
    let mut b = 0;
    while b < 128 {
        t[b] = ascii_class(b as u8);
        b += 1;
    }
    t
};

/// The class bits of an ASCII byte: the Unicode predicates of
/// [`char_class`] restricted to ASCII (where `is_alphabetic` is
/// `is_ascii_alphabetic`, `is_numeric` is `is_ascii_digit`, and
/// `is_whitespace` is `is_ascii_whitespace` plus U+000B).
const fn ascii_class(b: u8) -> u8 {
    if b.is_ascii_alphabetic() {
        C_LETTER | if b.is_ascii_uppercase() { C_UPPER } else { 0 }
    } else if b.is_ascii_digit() {
        C_DIGIT
    } else if b == b'|' {
        C_BAR
    } else if b == b',' {
        C_COMMA | C_PUNCT
    } else if b.is_ascii_whitespace() || b == 0x0b {
        0
    } else {
        C_PUNCT
    }
}

/// The class bits of any character (letters, upper case, digits, `|`, `,`
/// (and the CJK `，`, `、`), other non-space characters).
fn char_class(c: char) -> u8 {
    if c.is_alphabetic() {
        C_LETTER | if c.is_uppercase() { C_UPPER } else { 0 }
    } else if c.is_numeric() {
        C_DIGIT
    } else if c == '|' {
        C_BAR
    } else if matches!(c, ',' | '，' | '、') {
        // The CJK comma and enumeration comma are commas too.
        C_COMMA | C_PUNCT
    } else if c.is_whitespace() {
        0
    } else {
        C_PUNCT
    }
}

/// Counts `text`'s characters by class in one pass over its bytes: ASCII
/// bytes by table, other characters by their Unicode properties.
/// (Per-character `char` predicates would be a sixth of the text-dump
/// pipeline's time.)
fn char_stats(text: &str) -> CharStats {
    let bytes = text.as_bytes();
    let mut counts = [0usize; 6];
    let mut chars = 0;
    let mut i = 0;
    while i < bytes.len() {
        // Six 10-bit counters in one word, one addition per character,
        // emptied every `CHUNK` characters before a field can overflow.
        const CHUNK: usize = 1000;
        let mut packed = 0u64;
        let mut n = 0;
        while i < bytes.len() && n < CHUNK {
            let b = bytes[i];
            let class = if b < 128 {
                i += 1;
                ASCII_CLASS[b as usize]
            } else {
                let c = text[i..].chars().next().unwrap_or('\u{fffd}');
                i += c.len_utf8();
                char_class(c)
            };
            packed += SPREAD[class as usize];
            n += 1;
        }
        chars += n;
        for (k, c) in counts.iter_mut().enumerate() {
            *c += (packed >> (10 * k) & 0x3ff) as usize;
        }
    }
    CharStats {
        chars,
        letters: counts[0],
        upper: counts[1],
        digits: counts[2],
        bars: counts[3],
        commas: counts[4],
        punct: counts[5],
    }
}

/// Each class value's bits spread to 10-bit fields: bit k to field k.
static SPREAD: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut c = 0;
    while c < 64 {
        let mut k = 0;
        while k < 6 {
            if c >> k & 1 == 1 {
                t[c] |= 1 << (10 * k);
            }
            k += 1;
        }
        c += 1;
    }
    t
};

/// The features of each segment's neighbours that join its own in
/// [`with_neighbours`]: n-gram scores, length, link share, kind, final punctuation.
pub const NEIGHBOUR_FEATURES: &[usize] = &[1, 2, 3, 5, 6, 7, 27];

/// Offsets of the neighbours whose features join a segment's own.
pub const NEIGHBOUR_OFFSETS: &[isize] = &[-2, -1, 1, 2];

/// The number of features of a row, with or without the neighbours'.
pub fn width(neighbours: bool) -> usize {
    if neighbours {
        COUNT + NEIGHBOUR_OFFSETS.len() * NEIGHBOUR_FEATURES.len()
    } else {
        COUNT
    }
}

/// Appends to each segment's features those of its neighbours, so that a
/// linear classifier sees the segment in its context. Past the page's ends a
/// segment stands in for its missing neighbour: a flag for "no neighbour"
/// was learned as a sign of boilerplate (pages start with menus and end with
/// footers) and cost the last paragraph of a bare page, and a lone
/// paragraph, their place. Each row has room for `extra` more columns.
pub fn with_neighbours(rows: &[[f32; COUNT]], extra: usize) -> Vec<Vec<f32>> {
    let n = rows.len() as isize;
    rows.iter()
        .enumerate()
        .map(|(i, own)| {
            let mut v = Vec::with_capacity(width(true) + extra);
            v.extend_from_slice(own);
            for &off in NEIGHBOUR_OFFSETS {
                let j = i as isize + off;
                let r = if (0..n).contains(&j) {
                    &rows[j as usize]
                } else {
                    own
                };
                v.extend(NEIGHBOUR_FEATURES.iter().map(|&k| r[k]));
            }
            v
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table-driven counts equal the per-character predicates.
    #[test]
    fn char_stats_match_the_char_predicates() {
        let naive = |t: &str| {
            let mut s = CharStats::default();
            for c in t.chars() {
                s.chars += 1;
                let k = char_class(c);
                s.letters += usize::from(k & C_LETTER != 0);
                s.upper += usize::from(k & C_UPPER != 0);
                s.digits += usize::from(k & C_DIGIT != 0);
                s.bars += usize::from(k & C_BAR != 0);
                s.commas += usize::from(k & C_COMMA != 0);
                s.punct += usize::from(k & C_PUNCT != 0);
            }
            s
        };
        let all_ascii: String = (0u8..128).map(char::from).collect();
        for t in [
            "",
            "Hello, World 42 | x.",
            &all_ascii,
            "Ünïcödé ÀB ½ ٣ 三 \u{a0}\u{2003}|,\u{fffd} 𝔸𝔹 ǅ",
            &"Aa1|, ½€".repeat(700),
        ] {
            assert_eq!(char_stats(t), naive(t), "{t:?}");
        }
        for b in 0u8..128 {
            assert_eq!(ascii_class(b), char_class(char::from(b)), "byte {b}");
        }
    }

    #[test]
    fn names_match_count() {
        assert_eq!(NAMES.len(), COUNT);
        assert_eq!(NAMES[CONTAINER_FEATURES], "container_share_0");
        assert_eq!(COUNT, CONTAINER_FEATURES + 3 * crate::html::LEVELS + 5);
        let s = Segment::plain(Kind::P, "Hello, World 42 | x.".into());
        let ev = Evidence {
            score: 10.0,
            symbols: 21,
            attrs: [1.0; 4],
        };
        let f = extract(&s, 0, PageStats { segments: 1 }, ev, false);
        assert!(
            f[35..39].iter().all(|&x| x == 0.0),
            "no attribute evidence for text input"
        );
        assert_eq!(f[0], 1.0);
        assert_eq!(f[25], 0.5, "a lone segment sits mid-page");
        assert_eq!(f[32], 1.0, "one vertical bar");
        assert_eq!(f[27], 1.0, "ends a sentence");
        assert!(f.iter().all(|x| x.is_finite()));
    }

    /// A Chinese paragraph is counted in characters, ends a sentence at
    /// `。`, and its `，` are commas.
    #[test]
    fn a_chinese_paragraph_has_words_commas_and_an_end() {
        let s = Segment::plain(Kind::P, "新华社北京电，会议在北京举行。".into());
        let ev = Evidence {
            score: 0.0,
            symbols: 1,
            attrs: [0.0; 4],
        };
        let f = extract(&s, 0, PageStats { segments: 1 }, ev, false);
        assert_eq!(s.words(), 15);
        assert_eq!(f[3], 16f32.ln());
        assert_eq!(f[27], 1.0, "。 ends a sentence");
        assert_eq!(f[34], 1.0 / 15.0, "one comma in 15 words");
    }
}
