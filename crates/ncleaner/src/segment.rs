//! Stage 3 of the paper: text → segments, the units that are kept or dropped.
//!
//! From HTML, each [`crate::html::Block`] is one segment. From a plain
//! text dump (`--input text`), segments are found the way the paper's Lynx
//! post-processing found them, extended to the dumps people have today:
//!
//! - a blank line ends a paragraph;
//! - a line that starts with a bullet (`*`, `•`, `·`, `o`, `+`, `-`, `–`) or
//!   an enumeration (`1.`, `2)`, `a.`) is a list item ([`Kind::L`]); symbol
//!   bullets are removed, enumerations kept (the CleanEval gold keeps them);
//! - inside a paragraph, a line continues the previous one only when the text
//!   looks word-wrapped (Lynx's 80-column dumps) and the line's first word
//!   would not have fit on the previous line; otherwise every line is its own
//!   segment, as in Common Crawl WET files, which put one block per line;
//! - a paragraph of one short line (at most [`HEADING_MAX_WORDS`] words) that
//!   does not end in sentence punctuation and is followed by a blank line is
//!   read as a heading ([`Kind::H`]).
//!
//! Both paths remove control and other invalid characters and mark segments
//! that the paper's regular expressions deleted outright ([`Heuristic`]):
//! navigation bars whose fields are separated by vertical bars, and segments
//! without a single letter or digit.

use crate::html::{Block, Context, MAX_BLOCKS, Tag};

pub use crate::html::Kind;

/// The permalink mark of a heading (U+00B6 PILCROW SIGN).
const PERMALINK_MARK: char = '¶';

/// A heading's text without its permalink mark (the `¶` at its end, and
/// the spaces before it); a heading of the mark alone as it is. Also the
/// page's title when a heading gave it (`crate::page`).
pub fn without_permalink(heading: &str) -> &str {
    match heading.strip_suffix(PERMALINK_MARK).map(str::trim_end) {
        Some(t) if !t.is_empty() => t,
        _ => heading,
    }
}

/// What kind of input a document is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum InputKind {
    /// An HTML page.
    Html,
    /// A plain-text dump of a page.
    Text,
    /// Decide by looking at the document (`pipeline::looks_like_html`).
    Auto,
}

impl InputKind {
    /// Every kind, in the order the command line lists them.
    pub const ALL: [InputKind; 3] = [InputKind::Html, InputKind::Text, InputKind::Auto];

    /// The kind's name on the command line, in the web API, in Python and
    /// in JSON (`html`, `text`, `auto`); [`str::parse`] reads it back.
    pub fn as_str(self) -> &'static str {
        match self {
            InputKind::Html => "html",
            InputKind::Text => "text",
            InputKind::Auto => "auto",
        }
    }
}

impl std::str::FromStr for InputKind {
    type Err = String;

    /// Reads a name of [`InputKind::as_str`].
    fn from_str(s: &str) -> std::result::Result<InputKind, String> {
        InputKind::ALL
            .into_iter()
            .find(|k| k.as_str() == s)
            .ok_or_else(|| format!("{s:?}: give html, text or auto"))
    }
}

/// Boilerplate that the paper's post-processing recognised without a model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Heuristic {
    /// Several short fields separated by vertical bars: a navigation bar.
    PipeNavBar,
    /// No letter and no digit at all.
    NoAlphanumeric,
}

impl Heuristic {
    /// The rule's name, as in JSON (`pipe-nav-bar`, `no-alphanumeric`).
    pub fn as_str(self) -> &'static str {
        match self {
            Heuristic::PipeNavBar => "pipe-nav-bar",
            Heuristic::NoAlphanumeric => "no-alphanumeric",
        }
    }
}

/// A unit of text that is kept or dropped as a whole.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Segment {
    /// Paragraph, heading or list item.
    pub kind: Kind,
    /// The text: one line, whitespace collapsed, never empty ([`Segment::text`]).
    text: String,
    /// The words of `text` ([`count_words`]), counted once when the text is
    /// set: six stages read them (the features, the expected-F cut, the
    /// word counts of the output, table rows, repeats, page quality), and
    /// counting them in each would cost each a pass over the text. Private,
    /// as the text is, so that the two cannot disagree.
    words: u32,
    /// Characters inside links (HTML input only).
    pub link_chars: u32,
    /// The block-level element the text came from (HTML input only).
    pub tag: Option<Tag>,
    /// Enclosing structure (HTML input only).
    pub context: Context,
    /// Set when a heuristic rule recognises the segment as boilerplate.
    pub heuristic: Option<Heuristic>,
    /// Hashed `class`/`id`/`role` words of enclosing elements (HTML input only).
    pub attrs: Vec<u32>,
    /// How much of the segment the page's metadata repeats (`meta_overlap`):
    /// its share of the title's and of the summary's words; `None` when the
    /// page has no metadata (and for text input).
    pub meta: Option<[f32; 2]>,
    /// The share of the site's other pages that hold this segment
    /// (`crate::site`); `None` without a site memory that knows the host.
    pub site: Option<f32>,
    /// What the page's tree of containers says about the segment (HTML input only).
    pub container: Option<crate::html::Container>,
    /// Where the segment sits in the document's structure, for Markdown
    /// (HTML input only).
    pub structure: Option<crate::html::Structure>,
    /// Links, images and `pre` line breaks in the text, for Markdown
    /// (`crate::html::inline`; HTML input only, `None` when none).
    pub inline: Option<Box<crate::html::Inline>>,
}

impl Segment {
    /// A segment of text with no HTML information.
    pub fn plain(kind: Kind, text: String) -> Segment {
        let heuristic = heuristic(&text);
        Segment {
            kind,
            words: words_u32(&text),
            text,
            link_chars: 0,
            tag: None,
            context: Context::default(),
            heuristic,
            attrs: Vec::new(),
            meta: None,
            site: None,
            container: None,
            structure: None,
            inline: None,
        }
    }

    /// Whether the segment is a user comment under a page's content: inside
    /// a comment section ([`Context::COMMENT`]) of a page whose content is
    /// not itself a thread: not a page predicted to be a forum or a Q&A
    /// page (`forum`), and not a comment section that holds the page's best
    /// prose container ([`crate::html::Container::thread`]).
    ///
    /// The one definition of a comment: the role
    /// ([`crate::cleaned::Role::Comment`]) and the comments a page drops
    /// ([`crate::classify::DroppedComments`]) both read it.
    pub(crate) fn is_comment(&self, forum: bool) -> bool {
        self.context.has(Context::COMMENT) && !forum && !self.container.is_some_and(|c| c.thread)
    }

    /// The number of words ([`count_words`]: runs between whitespace, each
    /// Han, kana or full-width character a word), counted when the text was
    /// set.
    pub fn words(&self) -> usize {
        self.words as usize
    }

    /// The text: one line, whitespace collapsed, never empty.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The text, taken out of the segment.
    pub fn into_text(self) -> String {
        self.text
    }
}

/// [`count_words`] as a segment holds it (a text of 4 G words is not one
/// the cleaner can hold).
fn words_u32(text: &str) -> u32 {
    u32::try_from(count_words(text)).unwrap_or(u32::MAX)
}

/// The number of words of `text`: runs of characters between ASCII
/// whitespace, each Han, kana or full-width character a word by itself, a
/// run of Thai, Lao, Khmer or Myanmar cut into its dictionary words
/// ([`crate::words`], the one rule every stage counts by).
pub fn count_words(text: &str) -> usize {
    crate::words::count(text)
}

/// Segments of HTML-derived blocks.
pub fn from_blocks(blocks: Vec<Block>) -> Vec<Segment> {
    blocks
        .into_iter()
        .map(|b| {
            let heuristic = heuristic(&b.text);
            Segment {
                kind: b.kind,
                words: b.words,
                text: b.text,
                link_chars: b.link_chars,
                tag: Some(b.tag),
                context: b.context,
                heuristic,
                attrs: b.attrs,
                meta: None,
                site: None,
                container: Some(b.container),
                structure: Some(b.structure),
                inline: b.inline,
            }
        })
        .collect()
}

/// Segments of a parsed page, each with its overlap with the page's metadata.
pub fn from_page(page: crate::html::Page) -> Vec<Segment> {
    let mut segments = from_blocks(page.blocks);
    if !page.meta.is_empty() {
        let words = MetaWords::new(&page.meta.title, &page.meta.summary);
        for s in &mut segments {
            s.meta = Some(meta_overlap(&s.text, &words));
        }
    }
    segments
}

/// The hashed words and word pairs of a page's title and of its summary
/// (`pairs_of`), for [`meta_overlap`].
#[derive(Debug, Clone, Default)]
pub struct MetaWords {
    title: rustc_hash::FxHashSet<u64>,
    summary: rustc_hash::FxHashSet<u64>,
    /// A 2,048-bit filter of both sets: most of a page's words are in
    /// neither, and one bit test spares them two set look-ups (the
    /// look-ups would be most of [`meta_overlap`]'s time). A title and a
    /// summary hold a few hundred words and pairs, which would set most
    /// bits of a smaller filter.
    filter: [u64; 32],
}

impl MetaWords {
    /// The words and word pairs of a title and of a summary.
    pub fn new(title: &str, summary: &str) -> MetaWords {
        let mut m = MetaWords::default();
        pairs_of(title, |_, h| {
            m.title.insert(h);
        });
        pairs_of(summary, |_, h| {
            m.summary.insert(h);
        });
        for &h in m.title.iter().chain(&m.summary) {
            let (i, bit) = filter_bit(h);
            m.filter[i] |= bit;
        }
        m
    }

    /// Whether neither the title nor the summary has a word.
    pub fn is_empty(&self) -> bool {
        self.title.is_empty() && self.summary.is_empty()
    }

    /// Whether the title and the summary hold the hash `h`.
    fn find(&self, h: u64) -> [bool; 2] {
        let (i, bit) = filter_bit(h);
        if self.filter[i] & bit == 0 {
            return [false, false];
        }
        [self.title.contains(&h), self.summary.contains(&h)]
    }
}

/// The word of [`MetaWords::filter`] and the bit in it for a hash (its top
/// eleven bits).
fn filter_bit(h: u64) -> (usize, u64) {
    let b = (h >> 53) as usize;
    (b >> 6, 1u64 << (b & 63))
}

/// Calls `f(false, hash)` for every single word and `f(true, hash)` for
/// every pair of neighbouring words, words being lower-cased runs of letters
/// and digits.
fn pairs_of(text: &str, mut f: impl FnMut(bool, u64)) {
    use std::hash::Hasher;
    let mut prev: Option<u64> = None;
    let mut word = rustc_hash::FxHasher::default();
    let mut in_word = false;
    let mut end_word = |word: &mut rustc_hash::FxHasher, prev: &mut Option<u64>| {
        let h = std::mem::take(word).finish();
        f(false, h);
        if let Some(p) = *prev {
            f(true, p.rotate_left(17) ^ h ^ 0x9e37_79b9_7f4a_7c15);
        }
        *prev = Some(h);
    };
    // One pass, each word hashed as it is read (the same hashes as
    // splitting the text into words first). ASCII bytes, most of a page's
    // text, go through a table without decoding a char.
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let letter = if b.is_ascii() {
            i += 1;
            let l = ASCII_WORD_BYTE[usize::from(b)];
            if l != 0 {
                word.write_u8(l);
            }
            l != 0
        } else {
            let c = text[i..].chars().next().expect("i is at a char boundary");
            i += c.len_utf8();
            let letter = c.is_alphanumeric();
            if letter {
                c.to_lowercase().for_each(|l| word.write_u32(l as u32));
            }
            letter
        };
        if letter {
            in_word = true;
        } else if in_word {
            end_word(&mut word, &mut prev);
            in_word = false;
        }
    }
    if in_word {
        end_word(&mut word, &mut prev);
    }
}

/// Each ASCII byte lower-cased if it is a letter or a digit, else 0.
const ASCII_WORD_BYTE: [u8; 128] = {
    let mut t = [0u8; 128];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        if c.is_ascii_alphanumeric() {
            t[b] = c.to_ascii_lowercase();
        }
        b += 1;
    }
    t
};

/// The share of a segment's word pairs found in the title's and in the
/// summary's (single words for one-word segments): a segment that the
/// page's metadata repeats is likely its headline or its article text,
/// whatever the template looks like. Pairs rather than words, so that the
/// function words every text shares do not count.
pub fn meta_overlap(text: &str, meta: &MetaWords) -> [f32; 2] {
    if meta.is_empty() {
        return [0.0, 0.0];
    }
    // Counted as the words and pairs go by: no list of hashes per segment
    // (this runs on every segment of every page). A segment without pairs
    // has one word at most: only the first word is looked up.
    let (mut pairs, mut n_pairs) = ([0usize; 2], 0usize);
    let mut first_word: Option<[bool; 2]> = None;
    pairs_of(text, |pair, h| {
        if pair {
            n_pairs += 1;
            let [t, s] = meta.find(h);
            pairs[0] += usize::from(t);
            pairs[1] += usize::from(s);
        } else if first_word.is_none() {
            first_word = Some(meta.find(h));
        }
    });
    if n_pairs > 0 {
        return [
            pairs[0] as f32 / n_pairs as f32,
            pairs[1] as f32 / n_pairs as f32,
        ];
    }
    match first_word {
        Some([t, s]) => [f32::from(u8::from(t)), f32::from(u8::from(s))],
        None => [0.0, 0.0],
    }
}

/// Most words a one-line paragraph may have to be read as a heading.
pub const HEADING_MAX_WORDS: usize = 12;

/// Segments of a plain-text dump.
pub fn from_text(text: &str) -> Vec<Segment> {
    from_text_limited(text).0
}

/// [`from_text`], reading at most [`MAX_BLOCKS`] segments (the paragraph
/// being read when the limit is reached is dropped): the segments, and
/// whether the limit stopped the reading before the text's end.
pub fn from_text_limited(text: &str) -> (Vec<Segment>, bool) {
    let wrap = wrap_width(text);
    let mut out = Vec::new();
    let mut truncated = false;
    // The paragraph being built: its kind, text, and its number of lines.
    let mut cur: Option<(Kind, String, usize)> = None;
    let mut prev_len = 0usize;
    let mut para_start = out.len();

    let flush = |cur: &mut Option<(Kind, String, usize)>, out: &mut Vec<Segment>| {
        if let Some((kind, text, _)) = cur.take()
            && !text.is_empty()
        {
            out.push(Segment::plain(kind, text));
        }
    };

    for line in text.lines() {
        if out.len() >= MAX_BLOCKS {
            truncated = true;
            cur = None;
            break;
        }
        let clean = clean_line(line);
        if clean.is_empty() {
            flush(&mut cur, &mut out);
            mark_heading(&mut out, para_start);
            para_start = out.len();
            prev_len = 0;
            continue;
        }
        let (kind, body) = match list_item(&clean) {
            Some(body) => (Kind::L, body),
            None => (Kind::P, clean.as_str()),
        };
        let display_len = line.trim_end().chars().count();
        let first_word = body.split(' ').next().unwrap_or("").chars().count();
        let continues =
            kind == Kind::P && cur.is_some() && wrap.is_some_and(|w| prev_len + 1 + first_word > w);
        if continues {
            let (_, text, n) = cur.as_mut().expect("checked above");
            text.push(' ');
            text.push_str(body);
            *n += 1;
        } else {
            flush(&mut cur, &mut out);
            cur = Some((kind, body.to_string(), 1));
        }
        prev_len = display_len;
    }
    flush(&mut cur, &mut out);
    mark_heading(&mut out, para_start);
    (out, truncated)
}

/// Reads the one-segment paragraph `out[start..]` as a heading if it looks like one.
fn mark_heading(out: &mut [Segment], start: usize) {
    if out.len() != start + 1 {
        return;
    }
    let seg = &mut out[start];
    let words = seg.words();
    let last = seg.text.chars().last().unwrap_or('.');
    let first = seg.text.chars().next().unwrap_or('a');
    if seg.kind == Kind::P
        && words <= HEADING_MAX_WORDS
        && !matches!(last, '.' | '!' | '?' | ',' | ';' | ':' | '"' | ')')
        && (first.is_uppercase() || first.is_ascii_digit())
    {
        seg.kind = Kind::H;
    }
}

/// The column width a dump was word-wrapped at, if it looks wrapped: almost
/// all lines short, and some lines close to the longest.
///
/// The lengths are counted by value (a text holds few distinct line
/// lengths: their sum is at most its size), not listed line by line, so
/// that a text of millions of short lines costs no memory per line.
fn wrap_width(text: &str) -> Option<usize> {
    let mut counts: std::collections::BTreeMap<usize, usize> = Default::default();
    let mut n = 0usize;
    for l in text.lines() {
        let len = l.trim_end().chars().count();
        if len > 0 {
            *counts.entry(len).or_insert(0) += 1;
            n += 1;
        }
    }
    if n < 4 {
        return None;
    }
    // The length at rank (n - 1) * 98 / 100 of the sorted lengths.
    let rank = (n - 1) * 98 / 100;
    let mut seen = 0;
    let p98 = counts
        .iter()
        .find(|&(_, &c)| {
            seen += c;
            seen > rank
        })
        .map(|(&len, _)| len)
        .expect("rank < n");
    let max = *counts.keys().next_back().expect("non-empty");
    let near_max: usize = counts.range(p98.saturating_sub(10)..).map(|(_, c)| c).sum();
    (p98 <= 120 && max <= p98 + 20 && near_max * 5 >= n).then_some(p98)
}

/// A bullet or enumeration at the start of a line: returns the item's text
/// (symbol bullets removed, enumerations kept).
fn list_item(line: &str) -> Option<&str> {
    let mut chars = line.char_indices();
    let (_, c) = chars.next()?;
    if matches!(
        c,
        '*' | '•' | '·' | 'o' | '+' | '-' | '–' | '▪' | '◦' | '►' | '▶'
    ) {
        let rest = &line[c.len_utf8()..];
        let body = rest.strip_prefix(' ')?;
        return (!body.is_empty()).then_some(body);
    }
    // Enumerations: up to three digits or one letter, then `.` or `)`, then a space.
    let head: String = line.chars().take(5).collect();
    let digits = head.chars().take_while(|c| c.is_ascii_digit()).count();
    let marker_len = if (1..=3).contains(&digits) {
        digits
    } else if head.chars().next().is_some_and(|c| c.is_ascii_lowercase()) {
        1
    } else {
        return None;
    };
    let after = &line[marker_len..];
    let rest = after
        .strip_prefix('.')
        .or_else(|| after.strip_prefix(')'))?;
    let body = rest.strip_prefix(' ')?;
    (!body.trim().is_empty()).then_some(line)
}

/// Collapses whitespace and removes invalid characters of one line: every
/// run of whitespace becomes one space (none at the ends), control and
/// invisible formatting characters (soft hyphen, zero-width spaces and
/// joiners, word joiner, BOM) are dropped. Runs of printable ASCII are
/// copied whole, the rest goes character by character (a per-character
/// loop was a sixth of the text-dump pipeline's time).
fn clean_line(line: &str) -> String {
    let bytes = line.as_bytes();
    let mut out = String::with_capacity(line.len());
    let mut space = false;
    let mut i = 0;
    while i < bytes.len() {
        let (kept, next) = if bytes[i].is_ascii_graphic() {
            let end = bytes[i..]
                .iter()
                .position(|b| !b.is_ascii_graphic())
                .map_or(bytes.len(), |p| i + p);
            (Some(&line[i..end]), end)
        } else {
            let c = line[i..].chars().next().unwrap_or(' ');
            let next = i + c.len_utf8();
            match c {
                c if c.is_whitespace() => {
                    space = true;
                    (None, next)
                }
                '\u{AD}' | '\u{200B}' | '\u{200C}' | '\u{200D}' | '\u{2060}' | '\u{FEFF}' => {
                    (None, next)
                }
                c if c.is_control() => (None, next),
                _ => (Some(&line[i..next]), next),
            }
        };
        if let Some(text) = kept {
            if space && !out.is_empty() {
                out.push(' ');
            }
            space = false;
            out.push_str(text);
        }
        i = next;
    }
    out
}

/// Most words a field of a vertical-bar navigation bar has on average.
const NAV_FIELD_MAX_WORDS: f64 = 4.0;

/// The paper's regular-expression heuristics for boilerplate.
pub fn heuristic(text: &str) -> Option<Heuristic> {
    if !text.chars().any(char::is_alphanumeric) {
        return Some(Heuristic::NoAlphanumeric);
    }
    let bars = text.matches('|').count();
    if bars >= 2 {
        let fields = text
            .split('|')
            .filter(|f| !f.trim().is_empty())
            .count()
            .max(1);
        let words = crate::words::iter(text).filter(|w| *w != "|").count();
        if words as f64 / fields as f64 <= NAV_FIELD_MAX_WORDS {
            return Some(Heuristic::PipeNavBar);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    /// The wrap width computed from a list of every line's length, the
    /// reference: the counting by value must give the same on every text.
    fn wrap_width_listed(text: &str) -> Option<usize> {
        let mut lens: Vec<usize> = text
            .lines()
            .map(|l| l.trim_end().chars().count())
            .filter(|&n| n > 0)
            .collect();
        if lens.len() < 4 {
            return None;
        }
        lens.sort_unstable();
        let p98 = lens[(lens.len() - 1) * 98 / 100];
        let max = *lens.last().expect("non-empty");
        let near_max = lens.iter().filter(|&&n| n + 10 >= p98).count();
        (p98 <= 120 && max <= p98 + 20 && near_max * 5 >= lens.len()).then_some(p98)
    }

    #[test]
    fn wrap_width_counted_by_value_is_the_listed_one() {
        let mut seed = 7u64;
        let mut next = |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        for _ in 0..2000 {
            let lines = next(60) as usize;
            let width = 1 + next(130) as usize;
            let mut text = String::new();
            for _ in 0..lines {
                let len = match next(4) {
                    0 => 0,
                    1 => next(width as u64 + 30) as usize,
                    _ => width.saturating_sub(next(12) as usize),
                };
                text.push_str(&"é".repeat(len));
                text.push_str(if next(5) == 0 { "  \n" } else { "\n" });
            }
            assert_eq!(
                super::wrap_width(&text),
                wrap_width_listed(&text),
                "{text:?}"
            );
        }
    }

    /// `pairs_of` as it was written char by char: the hashes the byte
    /// table must give.
    fn pairs_by_chars(text: &str) -> Vec<(bool, u64)> {
        use std::hash::Hasher;
        let mut out = Vec::new();
        let mut words = Vec::new();
        let mut word = rustc_hash::FxHasher::default();
        let mut in_word = false;
        for c in text.chars().chain([' ']) {
            if c.is_alphanumeric() {
                if c.is_ascii() {
                    word.write_u8(c.to_ascii_lowercase() as u8);
                } else {
                    c.to_lowercase().for_each(|l| word.write_u32(l as u32));
                }
                in_word = true;
            } else if in_word {
                words.push(std::mem::take(&mut word).finish());
                in_word = false;
            }
        }
        for (i, &h) in words.iter().enumerate() {
            out.push((false, h));
            if i > 0 {
                out.push((
                    true,
                    words[i - 1].rotate_left(17) ^ h ^ 0x9e37_79b9_7f4a_7c15,
                ));
            }
        }
        out
    }

    proptest::proptest! {
        #[test]
        fn pairs_are_those_of_the_text_read_char_by_char(
            text in "([a-zA-Z0-9 .,'-]|é|ß|İ|Σ|中|\\u{a0}|\\u{2003}|ǅ){0,60}"
        ) {
            let mut got = Vec::new();
            pairs_of(&text, |pair, h| got.push((pair, h)));
            proptest::prop_assert_eq!(got, pairs_by_chars(&text));
        }

        /// The walker counts a block's words once, and its count is the
        /// rule's on the block's text whatever whitespace, invisible
        /// characters, `pre` lines and scripts the markup holds.
        #[test]
        fn a_blocks_words_are_counted_once_by_the_rule(
            html in "(<p>|</p>|<pre>|</pre>|<br>|<b>|</b>|<td>|a|bc|中文|ภาษาไทย|か| |\n|\t|\r|\u{b}|\u{c}|\u{a0}|\u{3000}|\u{200b}|\u{ad}|\u{1}|&nbsp;|&#12288;|[|]){0,40}"
        ) {
            for b in crate::html::parse(&html).blocks {
                proptest::prop_assert_eq!(b.words as usize, count_words(&b.text), "{:?}", b.text);
            }
            for s in from_page(crate::html::parse(&html)) {
                proptest::prop_assert_eq!(s.words(), count_words(s.text()));
            }
        }
    }

    #[test]
    fn one_word_segments_overlap_by_their_word() {
        let words = MetaWords::new("Tides", "The sea");
        assert_eq!(meta_overlap("tides!", &words), [1.0, 0.0]);
        assert_eq!(meta_overlap("Sea", &words), [0.0, 1.0]);
        assert_eq!(meta_overlap("moon", &words), [0.0, 0.0]);
        assert_eq!(meta_overlap("...", &words), [0.0, 0.0]);
        assert_eq!(meta_overlap("the sea, moon", &words), [0.0, 0.5]);
    }

    #[test]
    fn metadata_overlap_counts_word_pairs() {
        let page = crate::html::parse(
            "<title>Moon pulls the sea | Daily Tides</title>\
             <meta name=description content=\"The Moon pulls the sea twice a day.\">\
             <h1>Moon pulls the sea</h1><p>The Moon pulls the sea twice a day, said the report.</p>\
             <p>Share this on the web</p><p>Tides</p>",
        );
        let segs = from_page(page);
        let m: Vec<[f32; 2]> = segs
            .iter()
            .map(|s| s.meta.expect("page has metadata"))
            .collect();
        assert_eq!(m[0][0], 1.0, "the headline repeats the title");
        assert!(
            m[1][1] > 0.6 && m[1][1] < 1.0,
            "the lead repeats most of the description: {:?}",
            m[1]
        );
        assert_eq!(m[2], [0.0, 0.0], "function words alone do not count");
        assert_eq!(m[3][0], 1.0, "a one-word segment counts its word");
        assert!(
            from_page(crate::html::parse("<p>No metadata here.</p>"))[0]
                .meta
                .is_none()
        );
    }

    use super::*;

    #[test]
    fn clean_line_collapses_space_and_drops_invisibles() {
        let naive = |line: &str| {
            let mut out = String::new();
            let mut space = false;
            for c in line.chars() {
                match c {
                    c if c.is_whitespace() => space = true,
                    '\u{AD}' | '\u{200B}' | '\u{200C}' | '\u{200D}' | '\u{2060}' | '\u{FEFF}' => {}
                    c if c.is_control() => {}
                    c => {
                        if space && !out.is_empty() {
                            out.push(' ');
                        }
                        space = false;
                        out.push(c);
                    }
                }
            }
            out
        };
        for t in [
            "",
            "   ",
            "  a  b\tc ",
            "x\u{a0}y\u{2003}z\u{ad}w\u{200b}v\u{1}u\u{7f}t",
            "Größe  \u{feff}über, «quoted» — 12½ \u{85}end",
            "\u{200b} lead",
        ] {
            assert_eq!(clean_line(t), naive(t), "{t:?}");
        }
        assert_eq!(clean_line(" a \u{ad} b "), "a b");
    }

    /// `count_words` is `crate::words::count` (whose tests cover the rule):
    /// spaced text by its spaces, Han and kana by character.
    #[test]
    fn count_words_is_the_words_rule() {
        assert_eq!(count_words(" a  b\tc\n\rd\x0ce "), 5);
        assert_eq!(count_words("新华社北京12月15日电"), 10);
        let s = Segment::plain(Kind::P, "記者 山田太郎".into());
        assert_eq!(s.words(), 6);
    }

    #[test]
    fn a_segment_counts_its_words() {
        let s = Segment::plain(Kind::P, "three short words".into());
        assert_eq!(s.words(), 3);
        let page = crate::html::parse("<p>One two.</p><li>Three four five</li>");
        for s in from_page(page) {
            assert_eq!(s.words(), count_words(s.text()), "{:?}", s.text());
        }
    }

    fn kinds_texts(segs: &[Segment]) -> Vec<(Kind, &str)> {
        segs.iter().map(|s| (s.kind, s.text.as_str())).collect()
    }

    #[test]
    fn blank_line_paragraphs_and_lists() {
        let text = "Intro paragraph that is a sentence.\n\n  * first item\n  * second item\n\n1. numbered\n2) also\n";
        let segs = from_text(text);
        assert_eq!(
            kinds_texts(&segs),
            vec![
                (Kind::P, "Intro paragraph that is a sentence."),
                (Kind::L, "first item"),
                (Kind::L, "second item"),
                (Kind::L, "1. numbered"),
                (Kind::L, "2) also"),
            ]
        );
    }

    #[test]
    fn wrapped_lines_are_joined() {
        let para = "The basics of portrait photography could fill many large books. We have decided to \
                    concentrate on one application with a few variations on the theme for this lesson. \
                    For our backdrop, we draped a black muslin drop cloth on a Boom attached to a Litestand.";
        // wrap at 60 columns
        let mut wrapped = String::new();
        let mut line = String::new();
        for w in para.split(' ') {
            if !line.is_empty() && line.len() + 1 + w.len() > 60 {
                wrapped.push_str(&line);
                wrapped.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(w);
        }
        wrapped.push_str(&line);
        let text = format!("{wrapped}\n\n{wrapped}\n");
        let segs = from_text(&text);
        assert_eq!(segs.len(), 2, "{segs:?}");
        assert_eq!(segs[0].text, para);
    }

    #[test]
    fn unwrapped_lines_are_segments() {
        let text = "Home\nNews\nA long paragraph of running text that goes well beyond any wrap width, as WET files have them, one block per line, without any line breaks inside.\nAnother paragraph on its own line, also long enough not to look wrapped at all, because it goes on and on and on for a while.\n";
        let segs = from_text(text);
        assert_eq!(segs.len(), 4, "{segs:?}");
    }

    #[test]
    fn short_isolated_line_is_heading() {
        let segs = from_text(
            "Basic Studio Portraiture\n\nThe basics of portrait photography could fill many large books.\n",
        );
        assert_eq!(segs[0].kind, Kind::H);
        assert_eq!(segs[1].kind, Kind::P);
    }

    #[test]
    fn nav_bar_heuristic() {
        assert_eq!(
            heuristic("Home | News | Sport | Contact us"),
            Some(Heuristic::PipeNavBar)
        );
        assert_eq!(heuristic("» | «"), Some(Heuristic::NoAlphanumeric));
        assert_eq!(
            heuristic(
                "He said | that the | operator in shells pipes output from one program to another program."
            ),
            None
        );
        assert_eq!(heuristic("A normal sentence."), None);
    }

    #[test]
    fn list_item_detection() {
        assert_eq!(list_item("* Fast"), Some("Fast"));
        assert_eq!(list_item("12. Twelve"), Some("12. Twelve"));
        assert_eq!(list_item("a) first"), Some("a) first"));
        assert_eq!(list_item("1999. A year"), None);
        assert_eq!(list_item("ordinary line"), None);
        assert_eq!(list_item("*bold*"), None);
    }

    #[test]
    fn invalid_characters_removed() {
        let segs = from_text("a\u{0007}b\u{200B}c  d\u{00A0}e\n");
        assert_eq!(segs[0].text, "abc d e");
    }
}
