//! Features of a segment for the segment classifier.
//!
//! What the paper's models ignore and the HTML or the text itself says: the
//! n-gram score (total and per character), length, link-text share, segment
//! kind, enclosing structure (`nav`, `footer`, `aside`, …), the block's
//! element, the position on the page, and surface statistics of the text
//! (final punctuation, capitals, digits, punctuation, vertical bars), and
//! how much of the segment the page's metadata (title, description, JSON-LD
//! article body) repeats. For
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
];

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
    let text = &seg.text;
    let mut chars = 0usize;
    let (mut upper, mut letters, mut digits, mut punct, mut commas, mut bars) =
        (0usize, 0usize, 0usize, 0usize, 0usize, 0usize);
    for c in text.chars() {
        chars += 1;
        if c.is_alphabetic() {
            letters += 1;
            if c.is_uppercase() {
                upper += 1;
            }
        } else if c.is_numeric() {
            digits += 1;
        } else if c == '|' {
            bars += 1;
        } else if c == ',' {
            commas += 1;
            punct += 1;
        } else if !c.is_whitespace() {
            punct += 1;
        }
    }
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
    f[27] = matches!(last, '.' | '!' | '?' | '"' | '\'' | ')' | ':') as u8 as f32;
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
    }
    f
}

/// The features of each segment's neighbours that join its own in
/// [`with_neighbours`]: n-gram scores, length, link share, kind, final punctuation.
pub const NEIGHBOUR_FEATURES: &[usize] = &[1, 2, 3, 5, 6, 7, 27];

/// Offsets of the neighbours whose features join a segment's own.
pub const NEIGHBOUR_OFFSETS: &[isize] = &[-2, -1, 1, 2];

/// The number of features of a row, with or without the neighbours'.
pub fn width(neighbours: bool) -> usize {
    if neighbours {
        COUNT + NEIGHBOUR_OFFSETS.len() * (NEIGHBOUR_FEATURES.len() + 1)
    } else {
        COUNT
    }
}

/// Appends to each segment's features those of its neighbours (0 and a
/// missing-neighbour flag past the page's ends), so that a linear classifier
/// sees the segment in its context.
pub fn with_neighbours(rows: &[[f32; COUNT]]) -> Vec<Vec<f32>> {
    let n = rows.len() as isize;
    rows.iter()
        .enumerate()
        .map(|(i, own)| {
            let mut v = own.to_vec();
            for &off in NEIGHBOUR_OFFSETS {
                let j = i as isize + off;
                if (0..n).contains(&j) {
                    let r = &rows[j as usize];
                    v.extend(NEIGHBOUR_FEATURES.iter().map(|&k| r[k]));
                    v.push(0.0);
                } else {
                    v.extend(std::iter::repeat_n(0.0, NEIGHBOUR_FEATURES.len()));
                    v.push(1.0);
                }
            }
            v
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_count() {
        assert_eq!(NAMES.len(), COUNT);
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
}
