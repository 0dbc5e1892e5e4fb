//! The page-level features of the page-type classifier, from what the one
//! pass already read: the segments with their containers and contexts, the
//! tag stream's [`Signals`], the metadata and the page's URL.
//!
//! None depends on the page's language: the text is read only for its
//! shape (lengths, digits, currency signs, question marks), never for its
//! words; the URL's path words and the attribute words are the site's
//! names, which are English on most of the web whatever the text's language.

use crate::html::{Context, ELEMENTS, ITEMPROPS, Metadata, OG_TYPES, SCHEMA_GROUPS, Signals};
use crate::lexicon::{CURRENCY_SIGNS, MONTHS, PAGE_CLASS_GROUPS, URL_GROUPS};
use crate::segment::{Kind, Segment};

/// The features of one page (see [`names`] for what each is).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PageFeatures(pub Vec<f32>);

/// Features computed from the segments, in order.
const SEGMENT_NAMES: [&str; 42] = [
    "log_segments",
    "log_words",
    "log_words_per_segment",
    "link_share",
    "prose_share",
    "log_prose_segments",
    "best_share",
    "log_best_prose_words",
    "in_best_share",
    "thread",
    "comment_share",
    "log_comment_segments",
    "heading_share",
    "linked_heading_share",
    "list_share",
    "table_share",
    "pre_share",
    "log_pre_segments",
    "form_share",
    "nav_share",
    "header_share",
    "footer_share",
    "aside_share",
    "article_share",
    "quote_share",
    "figure_share",
    "card_share",
    "repeated_share",
    "max_repeats",
    "short_link_share",
    "log_h1",
    "log_h2",
    "log_h3_6",
    "digit_share",
    "price_segments",
    "question_share",
    "best_link_density",
    "log_best_paragraphs",
    "dated_share",
    "log_prose_run",
    "log_linked_headings",
    "phone_segments",
];

/// Features from the metadata, in order.
const METADATA_NAMES: [&str; 6] = [
    "title_words",
    "has_authors",
    "has_published",
    "has_modified",
    "log_tags",
    "log_description_words",
];

/// Features from the URL, in order, then one per group of [`URL_GROUPS`].
const URL_NAMES: [&str; 10] = [
    "has_url",
    "url_depth",
    "url_last_chars",
    "url_last_hyphens",
    "url_digits",
    "url_year",
    "url_file",
    "url_query",
    "url_slash",
    "url_root",
];

/// The number of page features.
pub fn count() -> usize {
    SEGMENT_NAMES.len()
        + METADATA_NAMES.len()
        + URL_NAMES.len()
        + URL_GROUPS.len()
        + ELEMENTS.len()
        + 1
        + PAGE_CLASS_GROUPS.len()
        + ITEMPROPS.len()
        + OG_TYPES.len()
        + SCHEMA_GROUPS.len()
}

/// The names of the page features, in order (for reports).
pub fn names() -> Vec<String> {
    let mut v: Vec<String> = SEGMENT_NAMES
        .iter()
        .chain(&METADATA_NAMES)
        .chain(&URL_NAMES)
        .map(|s| s.to_string())
        .collect();
    v.extend(URL_GROUPS.iter().map(|g| format!("url_{}", g.name)));
    v.extend(ELEMENTS.iter().map(|e| format!("log_{e}")));
    v.push("log_tags_all".into());
    v.extend(
        PAGE_CLASS_GROUPS
            .iter()
            .map(|g| format!("log_class_{}", g.name)),
    );
    v.extend(ITEMPROPS.iter().map(|p| format!("log_itemprop_{p}")));
    v.extend(OG_TYPES.iter().map(|t| format!("og_type_{t}")));
    v.extend(SCHEMA_GROUPS.iter().map(|(g, _)| format!("schema_{g}")));
    v
}

fn log1p(x: impl Into<f64>) -> f32 {
    (x.into()).ln_1p() as f32
}

impl PageFeatures {
    /// The features of an HTML page: its segments (in page order, with
    /// their containers), the tag stream's signals, its metadata and its
    /// URL (the canonical URL the page states is preferred: a crawler's URL
    /// may be a redirect's or carry tracking parameters).
    #[inline(never)]
    pub fn of(
        segments: &[Segment],
        signals: &Signals,
        metadata: Option<&Metadata>,
        url: Option<&str>,
    ) -> PageFeatures {
        let mut f = Vec::with_capacity(count());
        // The page as shown: hidden blocks (read all the same, flagged
        // Context::HIDDEN) are not counted.
        let shown: Vec<&Segment> = segments
            .iter()
            .filter(|s| !s.context.has(Context::HIDDEN))
            .collect();
        segment_features(&shown, &mut f);
        let none = Metadata::default();
        let md = metadata.unwrap_or(&none);
        let words = |s: &Option<String>| s.as_deref().map_or(0, crate::words::count);
        f.extend([
            log1p(words(&md.title) as f64),
            f32::from(!md.authors.is_empty()),
            f32::from(md.date_published.is_some()),
            f32::from(md.date_modified.is_some()),
            log1p(md.tags.len() as f64),
            log1p(words(&md.description) as f64),
        ]);
        let url = md
            .canonical_url
            .as_deref()
            .filter(|u| u.contains("://"))
            .or(url);
        url_features(url, &mut f);
        f.extend(signals.elements.iter().map(|&c| log1p(c)));
        f.push(log1p(signals.tags));
        f.extend(signals.words.iter().map(|&c| log1p(c)));
        f.extend(signals.itemprops.iter().map(|&c| log1p(c)));
        f.extend((0..OG_TYPES.len()).map(|i| f32::from(usize::from(signals.og_type) == i)));
        f.extend((0..SCHEMA_GROUPS.len()).map(|i| f32::from(signals.schema >> i & 1 == 1)));
        debug_assert_eq!(f.len(), count());
        PageFeatures(f)
    }
}

/// The characters of a text (the bytes that do not continue one: it is
/// valid UTF-8) and its ASCII digits, in one pass over runs of 240 bytes
/// whose byte-wide sums the compiler vectorises (this runs on every
/// segment of every page), then the last bytes (under 16) eight at a time
/// in two words: a byte-by-byte loop over them cost more than the runs on
/// most segments, which are short.
fn chars_and_digits(bytes: &[u8]) -> (usize, usize) {
    /// The lowest bit of each byte of a word.
    const LOW: u64 = 0x0101_0101_0101_0101;
    let (head, tail) = bytes.split_at(bytes.len() / 16 * 16);
    let (mut chars, mut digits) = (0usize, 0usize);
    // Runs of 15 blocks of 16: a byte-wide sum stays under 256, and the
    // vector loop leaves no byte over.
    for run in head.chunks(240) {
        let (mut c, mut d) = (0u8, 0u8);
        for &b in run {
            c = c.wrapping_add(u8::from((b as i8) >= -0x40));
            d = d.wrapping_add(u8::from(b.wrapping_sub(b'0') < 10));
        }
        chars += usize::from(c);
        digits += usize::from(d);
    }
    if !tail.is_empty() {
        // Two words, zeros above the text's bytes (zeros neither continue a
        // character nor are digits), loaded in pieces: padding a copy cost
        // a call to `memset` and one to `memcpy` a segment.
        let (lo, hi) = tail.split_at(tail.len().min(8));
        let (mut continuing, mut digit) = (0u64, 0u64);
        for x in [low_bytes(lo), low_bytes(hi)] {
            // A byte 10xxxxxx: bit 7 set, bit 6 (bit 7 of `x << 1`) clear.
            continuing += (x & !(x << 1)) >> 7 & LOW;
            // `t` under 10 in a byte: bit 7 clear in `t` and in `t + 118`
            // (its low seven bits, so that no byte carries into the next).
            let t = x ^ (LOW * u64::from(b'0'));
            digit += !((((t & (LOW * 0x7F)) + LOW * 0x76) | t) >> 7) & LOW;
        }
        // The sum of a word's bytes (each at most 2): its top byte times LOW.
        let sum = |v: u64| (v.wrapping_mul(LOW) >> 56) as usize;
        chars += tail.len() - sum(continuing);
        digits += sum(digit);
    }
    (chars, digits)
}

/// Up to eight bytes as a little-endian word, zeros above them: two loads
/// of four bytes (overlapping) or three of one, no copy.
fn low_bytes(b: &[u8]) -> u64 {
    let n = b.len();
    if let Some(word) = b.first_chunk::<8>() {
        return u64::from_le_bytes(*word);
    }
    if n >= 4 {
        let lo = u32::from_le_bytes(b[..4].try_into().expect("four bytes"));
        let hi = u32::from_le_bytes(b[n - 4..].try_into().expect("four bytes"));
        // The bytes both hold are the same, at the same place.
        return u64::from(lo) | u64::from(hi) << ((n - 4) * 8);
    }
    if n == 0 {
        return 0;
    }
    u64::from(b[0]) | u64::from(b[n / 2]) << (n / 2 * 8) | u64::from(b[n - 1]) << ((n - 1) * 8)
}

/// The signs of [`CURRENCY_SIGNS`] as they are looked for: the ASCII ones
/// apart (most text is ASCII, and one `memchr` finds `$`), the others in
/// one pass over the lead bytes of their UTF-8 forms (`£`, `¥`: C2 A3,
/// C2 A5; `€`, `₹`, …: E2 82 and a last byte), where searching for each
/// sign apart takes a pass each.
struct CurrencySigns {
    ascii: Vec<u8>,
    leads: Vec<u8>,
    others: Vec<&'static [u8]>,
}

fn currency_signs() -> &'static CurrencySigns {
    static SIGNS: std::sync::OnceLock<CurrencySigns> = std::sync::OnceLock::new();
    SIGNS.get_or_init(|| {
        let mut signs = CurrencySigns {
            ascii: Vec::new(),
            leads: Vec::new(),
            others: Vec::new(),
        };
        for sign in CURRENCY_SIGNS.words() {
            let b = sign.as_bytes();
            if let [a] = b {
                signs.ascii.push(*a);
            } else {
                signs.leads.push(b[0]);
                signs.others.push(b);
            }
        }
        signs.ascii.sort_unstable();
        signs.ascii.dedup();
        signs.leads.sort_unstable();
        signs.leads.dedup();
        signs
    })
}

/// Whether `at` holds for a position of one of `needles` in `hay`, found
/// by `memchr` (one, two or three needles) or by a scan (more).
fn any_of(needles: &[u8], hay: &[u8], mut at: impl FnMut(usize) -> bool) -> bool {
    match *needles {
        [] => false,
        [a] => memchr::memchr_iter(a, hay).any(at),
        [a, b] => memchr::memchr2_iter(a, b, hay).any(at),
        [a, b, c] => memchr::memchr3_iter(a, b, c, hay).any(at),
        _ => (0..hay.len()).any(|i| needles.contains(&hay[i]) && at(i)),
    }
}

/// Whether a text states a price: a currency sign of [`CURRENCY_SIGNS`]
/// and a digit.
pub fn holds_price(text: &str) -> bool {
    let b = text.as_bytes();
    b.iter().any(u8::is_ascii_digit)
        && (holds_an_ascii_currency_sign(b) || holds_a_currency_sign(b))
}

/// Whether a text holds one of the ASCII signs of [`CURRENCY_SIGNS`] (`$`).
fn holds_an_ascii_currency_sign(bytes: &[u8]) -> bool {
    any_of(&currency_signs().ascii, bytes, |_| true)
}

/// Whether a text holds one of the other signs of [`CURRENCY_SIGNS`]
/// (€ £ ¥ ₹ ₽ ₩ ₺ ₪).
fn holds_a_currency_sign(bytes: &[u8]) -> bool {
    let signs = currency_signs();
    any_of(&signs.leads, bytes, |i| {
        signs.others.iter().any(|s| bytes[i..].starts_with(s))
    })
}

/// Whether a text holds four ASCII digits in a row that read as a year
/// from 1990 to 2100: every date [`crate::html::date_in_text`] finds has
/// one, and most short texts with digits (prices, counts, phone numbers)
/// have none, which spares them its search.
fn holds_a_year(bytes: &[u8]) -> bool {
    bytes.windows(4).any(|w| {
        w.iter().all(u8::is_ascii_digit)
            && (1990..=2100).contains(&w.iter().fold(0u32, |y, &d| y * 10 + u32::from(d - b'0')))
    })
}

/// Whether a text holding a year ([`holds_a_year`]) may hold a date that
/// [`crate::html::date_in_text`] reads: an ISO date's year is a run of
/// exactly four digits followed by `-`, `/` or `.`, or the first four of a
/// run of exactly eight (`20250304`), the run starting a word; an English
/// date names its month by at least its first three letters (any case).
/// Most short texts with a year (a copyright line, a count) hold neither,
/// which spares them the search and its allocations.
fn may_hold_a_date(bytes: &[u8]) -> bool {
    // The first three letters of each month's name.
    const PREFIXES: [[u8; 3]; MONTHS.len()] = {
        let mut t = [[0; 3]; MONTHS.len()];
        let mut i = 0;
        while i < MONTHS.len() {
            let m = MONTHS.get(i).as_bytes();
            t[i] = [m[0], m[1], m[2]];
            i += 1;
        }
        t
    };
    let month = bytes.windows(3).any(|w| {
        let w = [
            w[0].to_ascii_lowercase(),
            w[1].to_ascii_lowercase(),
            w[2].to_ascii_lowercase(),
        ];
        PREFIXES.contains(&w)
    });
    if month {
        return true;
    }
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        let run = i - start;
        if (run == 8 || run == 4 && matches!(bytes.get(i), Some(b'-' | b'/' | b'.')))
            && (1990..=2100).contains(
                &bytes[start..start + 4]
                    .iter()
                    .fold(0u32, |y, &d| y * 10 + u32::from(d - b'0')),
            )
        {
            return true;
        }
    }
    false
}

/// The contexts whose share of the words is a feature, in order.
const CONTEXTS: [u32; 8] = [
    Context::FORM,
    Context::NAV,
    Context::HEADER,
    Context::FOOTER,
    Context::ASIDE,
    Context::ARTICLE,
    Context::QUOTE,
    Context::FIGURE,
];

/// The bits of [`CONTEXTS`].
const CONTEXT_BITS: u32 = {
    let (mut m, mut i) = (0, 0);
    while i < CONTEXTS.len() {
        m |= CONTEXTS[i];
        i += 1;
    }
    m
};

/// The index in [`CONTEXTS`] of each bit of [`CONTEXT_BITS`] (each context
/// is one bit).
const CONTEXT_OF_BIT: [u8; 32] = {
    let mut t = [0u8; 32];
    let mut i = 0;
    while i < CONTEXTS.len() {
        assert!(CONTEXTS[i].count_ones() == 1);
        t[CONTEXTS[i].trailing_zeros() as usize] = i as u8;
        i += 1;
    }
    t
};

/// The sums over a page's segments that the [`SEGMENT_NAMES`] features are
/// made of ([`segment_features`]).
#[derive(Default)]
struct SegmentTotals {
    words: f64,
    link: f64,
    prose: f64,
    prose_segments: u32,
    in_best: u32,
    comment: f64,
    comment_segments: u32,
    headings: u32,
    linked_headings: u32,
    list: f64,
    table: f64,
    pre: f64,
    pre_segments: u32,
    ctx: [f64; 8],
    card: f64,
    repeated: f64,
    max_repeats: f32,
    short_links: u32,
    h: [u32; 3],
    digits: f64,
    chars: f64,
    prices: u32,
    questions: u32,
    best_words: f64,
    best_link: f64,
    best_paragraphs: u32,
    dated: u32,
    run: u32,
    longest_run: u32,
    phones: u32,
    /// The largest share of the page's words in one container.
    best_share: f32,
    /// Whether a container is a thread of posts.
    thread: bool,
}

impl SegmentTotals {
    /// Adds a segment's words, links, kind, structure and contexts.
    fn add(&mut self, s: &Segment) {
        let w = s.words() as f64;
        let text = s.text();
        let bytes = text.as_bytes();
        let (chars, digits) = chars_and_digits(bytes);
        let ascii = chars == bytes.len();
        let chars = chars.max(1) as f64;
        let link_share = (f64::from(s.link_chars) / chars).min(1.0);
        self.words += w;
        self.link += w * link_share;
        if s.words() >= crate::html::PROSE_WORDS {
            self.prose += w * (1.0 - link_share);
            self.prose_segments += 1;
        }
        if s.words() >= crate::html::PROSE_WORDS && link_share < 0.5 {
            self.run += 1;
            self.longest_run = self.longest_run.max(self.run);
        } else if s.kind != Kind::H {
            self.run = 0;
        }
        let c = s.container.unwrap_or_default();
        self.best_share = self.best_share.max(c.best_share);
        self.thread |= c.thread;
        if c.in_best {
            self.in_best += 1;
            self.best_words += w;
            self.best_link += w * link_share;
            if s.words() >= crate::html::PROSE_WORDS {
                self.best_paragraphs += 1;
            }
        }
        if s.context.has(Context::COMMENT) {
            self.comment += w;
            self.comment_segments += 1;
        }
        match s.kind {
            Kind::H => {
                self.headings += 1;
                if link_share >= 0.5 {
                    self.linked_headings += 1;
                }
            }
            Kind::L => self.list += w,
            Kind::P => {}
        }
        let st = s.structure.unwrap_or_default();
        if st.cell.is_some() {
            self.table += w;
        }
        if st.pre {
            self.pre += w;
            self.pre_segments += 1;
        }
        if st.card {
            self.card += w;
        }
        match st.heading {
            1 => self.h[0] += 1,
            2 => self.h[1] += 1,
            3..=6 => self.h[2] += 1,
            _ => {}
        }
        // The contexts the segment is in, by their bits (most segments
        // are in none or one of them, where testing each cost eight tests).
        let mut bits = s.context.0 & CONTEXT_BITS;
        while bits != 0 {
            let bit = bits.trailing_zeros() as usize;
            self.ctx[usize::from(CONTEXT_OF_BIT[bit])] += w;
            bits &= bits - 1;
        }
        let repeats = c.siblings.max(c.siblings_above);
        if repeats >= 2.0 {
            self.repeated += w;
        }
        self.max_repeats = self.max_repeats.max(repeats);
        if s.words() <= 8 && link_share >= 0.5 {
            self.short_links += 1;
        }
        self.add_figures(s, text, digits, ascii, chars);
    }

    /// Adds what a segment's digits and signs say: dates, phone numbers,
    /// prices, questions.
    fn add_figures(&mut self, s: &Segment, text: &str, digits: usize, ascii: bool, chars: f64) {
        let bytes = text.as_bytes();
        self.digits += digits as f64;
        self.chars += chars;
        if digits >= 4
            && s.words() <= 12
            && holds_a_year(bytes)
            && may_hold_a_date(bytes)
            && crate::html::holds_a_date_in_text(text)
        {
            self.dated += 1;
        }
        if digits >= 9 && s.words() <= 8 {
            self.phones += 1;
        }
        if digits > 0
            && s.words() <= 12
            && (holds_an_ascii_currency_sign(bytes) || !ascii && holds_a_currency_sign(bytes))
        {
            self.prices += 1;
        }
        if text.ends_with('?') {
            self.questions += 1;
        }
    }

    /// The [`SEGMENT_NAMES`] features of a page of `segments` segments.
    fn features(&self, segments: usize, f: &mut Vec<f32>) {
        let n = segments.max(1) as f64;
        let w = self.words.max(1.0);
        let share = |x: f64| (x / w) as f32;
        let per = |x: u32| (f64::from(x) / n) as f32;
        f.extend([
            log1p(segments as f64),
            log1p(self.words),
            log1p(self.words / n),
            share(self.link),
            share(self.prose),
            log1p(self.prose_segments),
            self.best_share,
            log1p(self.best_words - self.best_link),
            per(self.in_best),
            f32::from(self.thread),
            share(self.comment),
            log1p(self.comment_segments),
            per(self.headings),
            if self.headings > 0 {
                self.linked_headings as f32 / self.headings as f32
            } else {
                0.0
            },
            share(self.list),
            share(self.table),
            share(self.pre),
            log1p(self.pre_segments),
        ]);
        f.extend(self.ctx.iter().map(|&x| share(x)));
        f.extend([
            share(self.card),
            share(self.repeated),
            self.max_repeats.min(10.0),
            per(self.short_links),
            log1p(self.h[0]),
            log1p(self.h[1]),
            log1p(self.h[2]),
            (self.digits / self.chars.max(1.0)) as f32,
            log1p(self.prices),
            per(self.questions),
            (self.best_link / self.best_words.max(1.0)) as f32,
            log1p(self.best_paragraphs),
            per(self.dated),
            log1p(self.longest_run),
            log1p(self.linked_headings),
            log1p(self.phones),
        ]);
    }
}

/// The [`SEGMENT_NAMES`] features.
fn segment_features(segments: &[&Segment], f: &mut Vec<f32>) {
    let mut totals = SegmentTotals::default();
    for s in segments {
        totals.add(s);
    }
    totals.features(segments.len(), f);
}

/// The [`URL_NAMES`] features and one per group of [`URL_GROUPS`].
fn url_features(url: Option<&str>, f: &mut Vec<f32>) {
    let Some(url) = url else {
        f.extend(std::iter::repeat_n(0.0, URL_NAMES.len() + URL_GROUPS.len()));
        return;
    };
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let (rest, query) = match rest.split_once(['?', '#']) {
        Some((r, q)) => (r, !q.is_empty()),
        None => (rest, false),
    };
    let path = rest.split_once('/').map_or("", |(_, p)| p);
    let parts: Vec<String> = path
        .split('/')
        .filter(|p| !p.is_empty())
        .map(str::to_ascii_lowercase)
        .collect();
    let last = parts.last().map_or("", String::as_str);
    let year = parts.iter().any(|p| {
        p.len() == 4
            && (p.starts_with("19") || p.starts_with("20"))
            && p.bytes().all(|b| b.is_ascii_digit())
    });
    let file = [".html", ".htm", ".php", ".aspx", ".asp", ".jsp", ".shtml"]
        .iter()
        .any(|e| last.ends_with(e));
    f.extend([
        1.0,
        parts.len().min(10) as f32,
        log1p(last.len() as f64),
        last.matches(['-', '_']).count().min(20) as f32,
        log1p(path.bytes().filter(u8::is_ascii_digit).count() as f64),
        f32::from(year),
        f32::from(file),
        f32::from(query),
        f32::from(path.ends_with('/')),
        f32::from(parts.is_empty()),
    ]);
    for words in &URL_GROUPS {
        let hit = parts.iter().any(|p| words.contains(p));
        f.push(f32::from(hit));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The signs [`holds_a_currency_sign`] looks for: the lexicon's that are not ASCII.
    fn currencies() -> Vec<&'static str> {
        CURRENCY_SIGNS.words().filter(|s| !s.is_ascii()).collect()
    }

    proptest::proptest! {
        #[test]
        fn a_text_with_a_date_holds_a_year(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                "March", "mar.", "Sept", "Tue,", "4", "04", "31", "2025", "1989", "2100", "+202",
                "2025-03-04", "20250304", "2024/02/29", "12:30", "|", "•", "(", ")", ",", "by",
                "Jane", "$5", "1,299", "555-1234", "x9", "2025.", "2.0.2.5", "19 90",
                "MAY", "dec.", "Sun", "20250304T1200", "2025-3-4", "2025.03.04", "12025-03-04",
                "2025-03-041", "[", "]", "—", "·", "T10:00Z", "3rd",
            ]), 0..9),
            seps in proptest::collection::vec(proptest::sample::select(vec![" ", "", ", ", "-"]), 9),
        ) {
            let text: String = parts.iter().zip(&seps).flat_map(|(p, s)| [*p, *s]).collect();
            if crate::html::date_in_text(&text).is_some() {
                proptest::prop_assert!(holds_a_year(text.as_bytes()), "{text}");
                proptest::prop_assert!(may_hold_a_date(text.as_bytes()), "{text}");
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn currency_signs_are_found_as_searching_each_finds_them(
            text in "[a-z0-9 $€£¥₹₽₩₺₪¢¤₠₿‚ü©]{0,24}"
        ) {
            let each = currencies().iter().any(|c| text.contains(c));
            proptest::prop_assert_eq!(holds_a_currency_sign(text.as_bytes()), each, "{}", text);
        }
    }

    #[test]
    fn the_currency_signs_are_those_the_search_knows() {
        for c in currencies() {
            assert!(holds_a_currency_sign(format!("x{c}5").as_bytes()), "{c}");
        }
        assert!(!holds_a_currency_sign("¢ ¤ ₠ ₿ ‚ ü ©".as_bytes()));
    }

    #[test]
    fn years_are_found_where_they_are() {
        assert!(holds_a_year(b"By Jane | March 4, 2025"));
        assert!(holds_a_year(b"x1990"));
        assert!(holds_a_year(b"2100"));
        assert!(!holds_a_year(b"$1,299.00 and 555-1234"));
        assert!(!holds_a_year(b"1989 2101 199"));
    }

    #[test]
    fn dates_may_be_where_a_month_or_an_iso_year_is() {
        assert!(may_hold_a_date(b"By Jane | MARCH 4, 2025"));
        assert!(may_hold_a_date(b"Published 2025-03-04"));
        assert!(may_hold_a_date(b"20250304"));
        assert!(!may_hold_a_date(b"(c) 2025 Example Ltd"));
        assert!(!may_hold_a_date(b"12025-03-04 and 202503041"));
        assert!(!may_hold_a_date(b"1989-03-04 and 21010304"));
    }

    #[test]
    fn chars_and_digits_count_as_the_plain_loops() {
        // Lengths below, at and past a block, and past the lanes' 255 blocks
        // of digits alone.
        for text in [
            "",
            "abc 123",
            "Ünïcødé 2024 — €5",
            "0123456789abcdef",
            "0123456789abcdef9",
            &"x9é".repeat(400),
            &"9".repeat(16 * 255 * 2 + 7),
        ] {
            let b = text.as_bytes();
            assert_eq!(
                chars_and_digits(b),
                (
                    text.chars().count(),
                    b.iter().filter(|b| b.is_ascii_digit()).count()
                ),
                "{text}"
            );
        }
    }

    #[test]
    fn context_bits_index_the_contexts() {
        for (i, &flag) in CONTEXTS.iter().enumerate() {
            assert_eq!(
                usize::from(CONTEXT_OF_BIT[flag.trailing_zeros() as usize]),
                i
            );
            assert_eq!(CONTEXT_BITS & flag, flag);
        }
        assert_eq!(CONTEXT_BITS.count_ones() as usize, CONTEXTS.len());
    }

    #[test]
    fn the_last_bytes_count_as_the_plain_loops_at_every_length() {
        let text = "9aé€0x1 ü2345ß6789b€z";
        let b = text.as_bytes();
        for n in 0..=b.len() {
            let b = &b[..n];
            let plain = (
                b.iter().filter(|&&c| (c as i8) >= -0x40).count(),
                b.iter().filter(|c| c.is_ascii_digit()).count(),
            );
            assert_eq!(chars_and_digits(b), plain, "{n}");
            for from in 0..n.min(9) {
                let mut padded = [0u8; 8];
                let part = &b[from..(from + 8).min(n)];
                padded[..part.len()].copy_from_slice(part);
                assert_eq!(low_bytes(part), u64::from_le_bytes(padded), "{n} {from}");
            }
        }
    }

    fn features(html: &str, url: Option<&str>) -> Vec<f32> {
        let mut page = crate::html::parse(html);
        let signals = std::mem::take(&mut page.signals);
        let metadata = page.metadata.clone();
        let segments = crate::segment::from_page(page);
        PageFeatures::of(&segments, &signals, Some(&metadata), url).0
    }

    fn at(name: &str) -> usize {
        names()
            .iter()
            .position(|n| n == name)
            .unwrap_or_else(|| panic!("no feature {name}"))
    }

    #[test]
    fn names_match_the_features() {
        let f = features("<p>One paragraph.</p>", None);
        assert_eq!(f.len(), count());
        assert_eq!(names().len(), count());
        assert!(f.iter().all(|x| x.is_finite()));
        assert_eq!(f[at("has_url")], 0.0);
        let empty = PageFeatures::of(&[], &Signals::default(), None, None).0;
        assert_eq!(empty.len(), count());
        assert!(empty.iter().all(|x| x.is_finite()));
    }

    #[test]
    fn the_url_says_what_it_can() {
        let f = features(
            "<link rel=canonical href=\"https://example.org/blog/2025/10/why-the-sea-rises/\"><p>Text.</p>",
            Some("https://other.example/x?y=1"),
        );
        assert_eq!(f[at("url_depth")], 4.0);
        assert_eq!(f[at("url_year")], 1.0);
        assert_eq!(f[at("url_article")], 1.0);
        assert_eq!(f[at("url_last_hyphens")], 3.0);
        assert_eq!(f[at("url_query")], 0.0, "the canonical URL is read");
        let f = features(
            "<p>Text.</p>",
            Some("https://shop.example/products/blue-mug?v=2"),
        );
        assert_eq!(f[at("url_product")], 1.0);
        assert_eq!(f[at("url_query")], 1.0);
    }

    #[test]
    fn cards_prices_and_comments_are_counted() {
        let card = "<li class=card><h3><a href=/x>A product name</a></h3><p>$12.99</p></li>";
        let html = format!(
            "<ul>{}</ul><div id=comments><p>A comment that has more than ten words in it, truly.</p></div>",
            card.repeat(6)
        );
        let f = features(&html, None);
        assert!(f[at("price_segments")] > 1.5, "six prices");
        assert_eq!(f[at("linked_heading_share")], 1.0);
        assert!(f[at("card_share")] > 0.3);
        assert!(f[at("comment_share")] > 0.3);
        assert!(f[at("log_comment_segments")] > 0.0);
    }
}
