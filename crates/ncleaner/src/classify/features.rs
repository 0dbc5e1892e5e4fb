//! The columns of a segment's row for the segment classifier, each group
//! one type that names its columns and fills them, and [`GROUPS`], the list
//! of them in row order that the schema reads (`super::schema`).
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
//! text-dump input only the groups that text alone shows are filled; the
//! HTML-only groups stay 0 and a separate set of weights is trained.
//!
//! Columns are dense `f32`s, standardised by the classifier; the first is
//! the bias (always 1).

use super::Classifier;
use super::page::PagePrediction;
use crate::html::{Context, Tag};
use crate::segment::Segment;

/// What every group may read of a page: its segments and what was computed
/// once for each ([`Facts`]).
pub struct RowInput<'a> {
    /// The classifier whose rows are built (its attribute words, its word model).
    pub classifier: &'a Classifier,
    /// The page's segments, in order.
    pub segments: &'a [Segment],
    /// One [`Facts`] per segment.
    pub facts: &'a [Facts],
    /// Whether the page is HTML (else a text dump: the HTML-only groups
    /// leave their columns at 0).
    pub html: bool,
    /// The page's predicted type (HTML pages of a classifier with a
    /// page-type model).
    pub page_type: Option<&'a PagePrediction>,
}

/// What several groups read of one segment, computed once.
#[derive(Debug, Clone, Copy, Default)]
pub struct Facts {
    /// The n-gram log-odds of the segment, in bits.
    pub score: f64,
    /// The number of symbols the score sums over.
    pub symbols: usize,
    /// The segment's characters counted by class.
    pub chars: CharStats,
}

impl Facts {
    /// The facts of a segment scored `(score, symbols)`.
    pub fn of(segment: &Segment, (score, symbols): (f64, usize)) -> Facts {
        Facts {
            score,
            symbols,
            chars: char_stats(segment.text()),
        }
    }
}

/// A group of columns of the classifier's rows.
///
/// Which groups a classifier's rows have is read from the column names its
/// model file stores ([`Classifier::columns`], [`super::Schema::of`]): no
/// flag on the classifier chooses them. A trainer asks for the optional
/// groups by their [`Columns::group`] names ([`super::Schema::with`]).
pub trait Columns: Sync {
    /// The group's name (`neighbours`, `site`, …): how a trainer asks for it.
    fn group(&self) -> &'static str;
    /// Whether a classifier may go without the group; every classifier's
    /// rows have the others.
    fn optional(&self) -> bool {
        false
    }
    /// The group's column names, in order (stored in model files).
    fn names(&self) -> Vec<String>;
    /// The number of columns (the length of [`Columns::names`]).
    fn width(&self) -> usize;
    /// Writes the group's columns of every segment of a page:
    /// `rows[i][at..at + width]` for segment `i`. The columns before `at`
    /// are filled; those after are 0.
    fn fill(&self, input: &RowInput<'_>, rows: &mut [Vec<f32>], at: usize);
}

/// A group whose columns of a segment depend on that segment alone (and
/// the page's facts), not on other rows: most groups.
pub trait SegmentColumns: Sync {
    /// The group's name ([`Columns::group`]).
    const GROUP: &'static str;
    /// Whether a classifier may go without the group ([`Columns::optional`]).
    const OPTIONAL: bool = false;
    /// The column names, in order.
    const NAMES: &'static [&'static str];
    /// Writes segment `i`'s columns into `out` (as long as [`Self::NAMES`],
    /// zeros on entry).
    fn fill_one(&self, input: &RowInput<'_>, i: usize, out: &mut [f32]);
}

impl<T: SegmentColumns> Columns for T {
    fn group(&self) -> &'static str {
        T::GROUP
    }

    fn optional(&self) -> bool {
        T::OPTIONAL
    }

    fn names(&self) -> Vec<String> {
        T::NAMES.iter().map(|n| (*n).to_string()).collect()
    }

    fn width(&self) -> usize {
        T::NAMES.len()
    }

    fn fill(&self, input: &RowInput<'_>, rows: &mut [Vec<f32>], at: usize) {
        let n = T::NAMES.len();
        for (i, row) in rows.iter_mut().enumerate() {
            self.fill_one(input, i, &mut row[at..at + n]);
        }
    }
}

/// Every group, in row order (read by `super::schema::Schema`).
pub static GROUPS: &[&dyn Columns] = &[
    &Bias,
    &Ngram,
    &Size,
    &LinkShare,
    &Kind,
    &Enclosing,
    &Element,
    &Position,
    &Surface,
    &AttrWords,
    &Metadata,
    &Containers,
    &Neighbours,
    &Site,
    &PageType,
    &Hidden,
    &Phrases,
    &Words,
    #[cfg(test)]
    &tests::Planted,
];

/// The bias: always 1.
pub struct Bias;

impl SegmentColumns for Bias {
    const GROUP: &'static str = "bias";
    const NAMES: &'static [&'static str] = &["bias"];

    fn fill_one(&self, _: &RowInput<'_>, _: usize, out: &mut [f32]) {
        out[0] = 1.0;
    }
}

/// The n-gram log-odds per symbol, and in total (a tenth, within ±30).
pub struct Ngram;

impl SegmentColumns for Ngram {
    const GROUP: &'static str = "ngram";
    const NAMES: &'static [&'static str] = &["ngram_per_char", "ngram_total"];

    fn fill_one(&self, input: &RowInput<'_>, i: usize, out: &mut [f32]) {
        let f = &input.facts[i];
        out[0] = (f.score / f.symbols.max(1) as f64) as f32;
        out[1] = (f.score / 10.0).clamp(-30.0, 30.0) as f32;
    }
}

/// The segment's length: ln(1 + words), ln(1 + characters).
pub struct Size;

impl SegmentColumns for Size {
    const GROUP: &'static str = "size";
    const NAMES: &'static [&'static str] = &["log_words", "log_chars"];

    fn fill_one(&self, input: &RowInput<'_>, i: usize, out: &mut [f32]) {
        let words = input.segments[i].words().max(1);
        out[0] = (1.0 + words as f32).ln();
        out[1] = (1.0 + input.facts[i].chars.chars as f32).ln();
    }
}

/// The share of the segment's characters inside links (HTML).
pub struct LinkShare;

impl SegmentColumns for LinkShare {
    const GROUP: &'static str = "link_share";
    const NAMES: &'static [&'static str] = &["link_share"];

    fn fill_one(&self, input: &RowInput<'_>, i: usize, out: &mut [f32]) {
        if input.html {
            let chars = input.facts[i].chars.chars.max(1) as f32;
            out[0] = input.segments[i].link_chars as f32 / chars;
        }
    }
}

/// Whether the segment is a heading or a list item.
pub struct Kind;

impl SegmentColumns for Kind {
    const GROUP: &'static str = "kind";
    const NAMES: &'static [&'static str] = &["kind_h", "kind_l"];

    fn fill_one(&self, input: &RowInput<'_>, i: usize, out: &mut [f32]) {
        use crate::segment::Kind as K;
        let kind = input.segments[i].kind;
        out[0] = f32::from(u8::from(kind == K::H));
        out[1] = f32::from(u8::from(kind == K::L));
    }
}

/// The enclosing structure's flags (HTML): one column per name of
/// [`ENCLOSING`].
pub struct Enclosing;

/// Each column of [`Enclosing`] and the [`Context`] flag it reads.
const ENCLOSING: [(&str, u32); 11] = [
    ("ctx_nav", Context::NAV),
    ("ctx_header", Context::HEADER),
    ("ctx_footer", Context::FOOTER),
    ("ctx_aside", Context::ASIDE),
    ("ctx_form", Context::FORM),
    ("ctx_table", Context::TABLE),
    ("ctx_list", Context::LIST),
    ("ctx_article", Context::ARTICLE),
    ("ctx_quote", Context::QUOTE),
    ("ctx_pre", Context::PRE),
    ("ctx_control", Context::CONTROL),
];

impl SegmentColumns for Enclosing {
    const GROUP: &'static str = "enclosing";
    const NAMES: &'static [&'static str] = &{
        let mut names = [""; ENCLOSING.len()];
        let mut k = 0;
        while k < names.len() {
            names[k] = ENCLOSING[k].0;
            k += 1;
        }
        names
    };

    fn fill_one(&self, input: &RowInput<'_>, i: usize, out: &mut [f32]) {
        if input.html {
            let context = input.segments[i].context;
            for (o, (_, flag)) in out.iter_mut().zip(ENCLOSING) {
                *o = f32::from(u8::from(context.has(flag)));
            }
        }
    }
}

/// The block's element, one-hot (HTML).
pub struct Element;

impl SegmentColumns for Element {
    const GROUP: &'static str = "element";
    const NAMES: &'static [&'static str] = &[
        "tag_p",
        "tag_div",
        "tag_cell",
        "tag_li",
        "tag_heading",
        "tag_other",
    ];

    fn fill_one(&self, input: &RowInput<'_>, i: usize, out: &mut [f32]) {
        if input.html {
            let slot = match input.segments[i].tag.unwrap_or(Tag::Body) {
                Tag::P => 0,
                Tag::Div => 1,
                Tag::Td | Tag::Th => 2,
                Tag::Li => 3,
                Tag::H1 | Tag::H2 | Tag::H3 | Tag::H4 | Tag::H5 | Tag::H6 => 4,
                _ => 5,
            };
            out[slot] = 1.0;
        }
    }
}

/// The segment's place on the page, 0 (first) to 1 (last), and its square;
/// a lone segment sits at 0.5.
///
/// Page-level size columns (the page's words, a segment's share of them)
/// were tried and dropped: no gain under cross-validation, and they taught
/// the classifier that short documents are boilerplate. Flags for the first
/// and last segment were tried and dropped too: no gain, and on pages of
/// one or two segments (never seen in training) they pushed the only
/// paragraph below the threshold.
pub struct Position;

impl SegmentColumns for Position {
    const GROUP: &'static str = "position";
    const NAMES: &'static [&'static str] = &["position", "position_sq"];

    fn fill_one(&self, input: &RowInput<'_>, i: usize, out: &mut [f32]) {
        let n = input.segments.len();
        let pos = if n > 1 {
            i as f32 / (n - 1) as f32
        } else {
            0.5
        };
        out[0] = pos;
        out[1] = pos * pos;
    }
}

/// Surface statistics of the text: a sentence's end, a capital start, the
/// shares of capitals, digits and punctuation, vertical bars (up to 5),
/// the mean word length and commas per word.
pub struct Surface;

impl SegmentColumns for Surface {
    const GROUP: &'static str = "surface";
    const NAMES: &'static [&'static str] = &[
        "ends_sentence",
        "starts_upper",
        "upper_share",
        "digit_share",
        "punct_share",
        "bars",
        "mean_word_len",
        "comma_share",
    ];

    fn fill_one(&self, input: &RowInput<'_>, i: usize, out: &mut [f32]) {
        let seg = &input.segments[i];
        let text = seg.text();
        let CharStats {
            chars,
            upper,
            letters,
            digits,
            punct,
            commas,
            bars,
        } = input.facts[i].chars;
        let words = seg.words().max(1);
        let chars_f = chars.max(1) as f32;
        let last = text.chars().last().unwrap_or(' ');
        // A sentence's end in Latin and in CJK punctuation (the full stop 。,
        // full-width ！？）：and the corner brackets that close a quotation).
        out[0] = f32::from(u8::from(matches!(
            last,
            '.' | '!'
                | '?'
                | '"'
                | '\''
                | ')'
                | ':'
                | '。'
                | '！'
                | '？'
                | '）'
                | '：'
                | '」'
                | '』'
        )));
        out[1] = f32::from(u8::from(
            text.chars().next().is_some_and(char::is_uppercase),
        ));
        out[2] = upper as f32 / letters.max(1) as f32;
        out[3] = digits as f32 / chars_f;
        out[4] = punct as f32 / chars_f;
        out[5] = (bars as f32).min(5.0);
        out[6] = (letters + digits) as f32 / words as f32;
        out[7] = commas as f32 / words as f32;
    }
}

/// The evidence of the segment's `class`/`id`/`role` words
/// ([`super::attrs::AttrModel::evidence`]; HTML).
pub struct AttrWords;

impl SegmentColumns for AttrWords {
    const GROUP: &'static str = "attr_words";
    const NAMES: &'static [&'static str] = &["attr_mean", "attr_min", "attr_max", "attr_known"];

    fn fill_one(&self, input: &RowInput<'_>, i: usize, out: &mut [f32]) {
        if input.html {
            out.copy_from_slice(&input.classifier.attrs.evidence(&input.segments[i].attrs));
        }
    }
}

const _: () = assert!(AttrWords::NAMES.len() == super::attrs::EVIDENCE);

/// How much of the segment the page's metadata repeats (HTML, where the
/// page has metadata): a flag, the title's and the summary's share.
pub struct Metadata;

impl SegmentColumns for Metadata {
    const GROUP: &'static str = "metadata";
    const NAMES: &'static [&'static str] = &["meta_present", "meta_title", "meta_summary"];

    fn fill_one(&self, input: &RowInput<'_>, i: usize, out: &mut [f32]) {
        if input.html
            && let Some([title, summary]) = input.segments[i].meta
        {
            out.copy_from_slice(&[1.0, title, summary]);
        }
    }
}

/// What the page's tree of containers says of the segment
/// ([`crate::html::Container`]; HTML): the share of the page's text, the
/// link density and the prose of its enclosing containers at each of
/// [`crate::html::LEVELS`] levels, whether it sits in (or how far below)
/// the page's best prose container and that container's share, and how
/// many same-shaped siblings it has (up to 8).
pub struct Containers;

impl SegmentColumns for Containers {
    const GROUP: &'static str = "containers";
    const NAMES: &'static [&'static str] = &[
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

    fn fill_one(&self, input: &RowInput<'_>, i: usize, out: &mut [f32]) {
        const L: usize = crate::html::LEVELS;
        if input.html
            && let Some(c) = &input.segments[i].container
        {
            out[..L].copy_from_slice(&c.share);
            out[L..2 * L].copy_from_slice(&c.link_density);
            out[2 * L..3 * L].copy_from_slice(&c.paragraphs);
            out[3 * L] = f32::from(u8::from(c.in_best));
            out[3 * L + 1] = c.below_best;
            out[3 * L + 2] = c.best_share;
            out[3 * L + 3] = c.siblings.min(8.0);
            out[3 * L + 4] = c.siblings_above.min(8.0);
        }
    }
}

const _: () = assert!(Containers::NAMES.len() == 3 * crate::html::LEVELS + 5);

/// Counts of a segment's characters by class, as the groups read them
/// ([`Facts`]).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct CharStats {
    /// Characters.
    pub chars: usize,
    /// Upper-case letters.
    pub upper: usize,
    /// Letters.
    pub letters: usize,
    /// Digits.
    pub digits: usize,
    /// Punctuation and symbols (commas included).
    pub punct: usize,
    /// Commas (`,`, `，`, `、`).
    pub commas: usize,
    /// Vertical bars.
    pub bars: usize,
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
pub(crate) fn char_stats(text: &str) -> CharStats {
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

/// The columns of each segment's neighbours that join its own (group
/// `neighbours`): n-gram scores, length, link share, kind,
/// final punctuation, read from the neighbours' rows by name.
///
/// Past the page's ends a segment stands in for its missing neighbour: a
/// flag for "no neighbour" was learned as a sign of boilerplate (pages start
/// with menus and end with footers) and cost the last paragraph of a bare
/// page, and a lone paragraph, their place.
pub struct Neighbours;

/// The columns of [`Neighbours`], by name; they are the first groups' of
/// every row, so their places in a row are those in [`own_index`].
const NEIGHBOUR_COLUMNS: [&str; 7] = [
    "ngram_per_char",
    "ngram_total",
    "log_words",
    "link_share",
    "kind_h",
    "kind_l",
    "ends_sentence",
];

/// Offsets of the neighbours whose columns join a segment's own.
const NEIGHBOUR_OFFSETS: [isize; 4] = [-2, -1, 1, 2];

/// The place of each of [`NEIGHBOUR_COLUMNS`] in a row: its place among
/// the names of [`GROUPS`]. The groups before them are
/// used by every classifier, so the place is the same in every row (the
/// test `neighbour_columns_sit_where_every_row_has_them` checks it).
fn own_index() -> &'static [usize; 7] {
    static INDEX: std::sync::OnceLock<[usize; 7]> = std::sync::OnceLock::new();
    INDEX.get_or_init(|| {
        let all: Vec<String> = GROUPS.iter().flat_map(|g| g.names()).collect();
        NEIGHBOUR_COLUMNS.map(|name| {
            all.iter()
                .position(|n| n == name)
                .expect("a neighbour column is a column of a group")
        })
    })
}

impl Columns for Neighbours {
    fn group(&self) -> &'static str {
        "neighbours"
    }

    fn optional(&self) -> bool {
        true
    }

    fn names(&self) -> Vec<String> {
        NEIGHBOUR_OFFSETS
            .iter()
            .flat_map(|&off| {
                let side = if off < 0 { "prev" } else { "next" };
                NEIGHBOUR_COLUMNS
                    .iter()
                    .map(move |name| format!("{side}{}_{name}", off.unsigned_abs()))
            })
            .collect()
    }

    fn width(&self) -> usize {
        NEIGHBOUR_OFFSETS.len() * NEIGHBOUR_COLUMNS.len()
    }

    fn fill(&self, _: &RowInput<'_>, rows: &mut [Vec<f32>], at: usize) {
        let index = own_index();
        let own: Vec<[f32; 7]> = rows.iter().map(|r| index.map(|k| r[k])).collect();
        let n = rows.len() as isize;
        for (i, row) in rows.iter_mut().enumerate() {
            let mut k = at;
            for off in NEIGHBOUR_OFFSETS {
                let j = i as isize + off;
                let r = if (0..n).contains(&j) {
                    &own[j as usize]
                } else {
                    &own[i]
                };
                row[k..k + 7].copy_from_slice(r);
                k += 7;
            }
        }
    }
}

/// What the site's other pages say ([`crate::site`], group
/// `site`): the share of them holding the segment, and
/// whether the site is known.
pub struct Site;

impl SegmentColumns for Site {
    const GROUP: &'static str = "site";
    const OPTIONAL: bool = true;
    const NAMES: &'static [&'static str] = &["site_share", "site_known"];

    fn fill_one(&self, input: &RowInput<'_>, i: usize, out: &mut [f32]) {
        if let Some(share) = input.segments[i].site {
            out.copy_from_slice(&[share, 1.0]);
        }
    }
}

/// The page's type probabilities ([`super::page`], with
/// [`Classifier::page_type`]; zeros for text input, which has no page
/// features) and what the segment's place says of its role, for the
/// segment model to weigh against the page's type: inside a comment section
/// (a comment under an article, a post of a forum), inside a `figure` (a
/// caption).
pub struct PageType;

impl SegmentColumns for PageType {
    const GROUP: &'static str = "page_type";
    const OPTIONAL: bool = true;
    const NAMES: &'static [&'static str] = &[
        "page_article",
        "page_forum",
        "page_product",
        "page_collection",
        "page_listing",
        "page_documentation",
        "page_service",
        "in_comment_section",
        "in_figure",
    ];

    fn fill_one(&self, input: &RowInput<'_>, i: usize, out: &mut [f32]) {
        const T: usize = super::page::PageType::ALL.len();
        if let Some(p) = input.page_type {
            out[..T].copy_from_slice(&p.probabilities);
        }
        let context = input.segments[i].context;
        out[T] = f32::from(u8::from(context.has(Context::COMMENT)));
        out[T + 1] = f32::from(u8::from(context.has(Context::FIGURE)));
    }
}

const _: () = assert!(PageType::NAMES.len() == super::page::PageType::ALL.len() + 2);

/// Whether the segment's block hides itself ([`Context::HIDDEN`], group
/// `hidden`): the model decides the blocks that hide
/// themselves.
pub struct Hidden;

impl SegmentColumns for Hidden {
    const GROUP: &'static str = "hidden";
    const OPTIONAL: bool = true;
    const NAMES: &'static [&'static str] = &["hidden"];

    fn fill_one(&self, input: &RowInput<'_>, i: usize, out: &mut [f32]) {
        out[0] = f32::from(u8::from(input.segments[i].context.has(Context::HIDDEN)));
    }
}

/// Which furniture phrases of the lexicon a short segment holds
/// ([`super::phrases::families`], group `phrases`): a comment
/// label, a share, follow or sign-in label, a "read more", related or
/// pagination label, a relative date. What a lexical model learns of such
/// words from its pool, a non-lexical model gets from the lexicon, in every
/// language it holds.
pub struct Phrases;

impl SegmentColumns for Phrases {
    const GROUP: &'static str = "phrases";
    const OPTIONAL: bool = true;
    const NAMES: &'static [&'static str] = &[
        "phrase_comment",
        "phrase_share",
        "phrase_more",
        "phrase_relative_date",
    ];

    fn fill_one(&self, input: &RowInput<'_>, i: usize, out: &mut [f32]) {
        let seg = &input.segments[i];
        for (o, found) in out.iter_mut().zip(super::phrases::families(
            seg.text(),
            seg.words(),
            input.facts[i].chars.chars,
        )) {
            *o = f32::from(u8::from(found));
        }
    }
}

/// The word model's scores ([`super::WordFeature`], an experiment of the
/// ablation, never in a model file): the mean log10 probability per token
/// and the share of unknown words.
pub struct Words;

impl SegmentColumns for Words {
    const GROUP: &'static str = "words";
    const OPTIONAL: bool = true;
    const NAMES: &'static [&'static str] = &["word_lm_log10", "word_lm_unknown"];

    fn fill_one(&self, input: &RowInput<'_>, i: usize, out: &mut [f32]) {
        if let Some(f) = input.classifier.words.of(input.segments[i].text()) {
            out.copy_from_slice(&f);
        }
    }
}

#[cfg(test)]
pub(crate) mod tests;
