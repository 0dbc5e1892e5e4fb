//! Stages 1–2 of the paper (regex normalisation + Lynx) as one pass over the
//! page: HTML text → [`Block`]s, in three layers (as html5ever splits
//! tokenizer, tree builder and sinks):
//!
//! 1. [`tokenizer`]: a WHATWG tokenizer of our own, without recursion, that
//!    hands on borrowed slices and skips raw text in one search;
//! 2. the walker (`walk`): the stack of open elements with the implied end
//!    tags that matter for text, the text of the block being read, and the
//!    events it sends;
//! 3. consumers behind one small trait (`consumer`), each in a file of its
//!    own and fed only the events it asks for: the blocks' kind, context
//!    and attribute words (`blocks`), the tree of containers (`containers`),
//!    the Markdown structure (`structure`), the inline marks ([`inline`]),
//!    the page's metadata (`metadata`).
//!
//! What the pass does, and the choices where the paper (which used regular
//! expressions and the Lynx browser) is silent:
//!
//! - Text inside `script`, `style`, `title`, `template`, `iframe`,
//!   `noembed`, `noframes`, `select`, `datalist`, `textarea`, `svg`, `math`
//!   and comments is dropped (SVG and MathML are read as browsers read
//!   them, where they end included: `walk::foreign`); a visible
//!   `noscript`'s content is read as markup, as a browser without scripts
//!   and a crawler read it (sites that render with JavaScript put their
//!   text there: Discourse forums serve every post that way). An inline
//!   element with the `hidden` attribute or an inline style
//!   `display:none` / `visibility:hidden` hides its text; a block-level
//!   one is read all the same and its blocks flagged
//!   [`Context::HIDDEN`] (tab panels, accordions, pages their scripts
//!   reveal), which only a model trained with the flag decides
//!   ([`crate::classify::without_hidden`]). Images are dropped (the paper deletes them; their
//!   `alt` text is not shown); Markdown output can keep them, and links,
//!   as marks beside the text ([`inline`]), which change no decision.
//! - A block boundary comes at the start and end of every block-level element
//!   (`p`, `div`, headings, list items, table cells, …), at `<hr>`, and at two
//!   `<br>` in a row (`<br><br>`); a single `<br>` is a line break inside a
//!   block and reads as a space.
//! - Blocks inside `h1`–`h6` are headings ([`Kind::H`]), blocks inside `li`
//!   are list items ([`Kind::L`]); a block of at most
//!   [`BOLD_HEADING_MAX_WORDS`] words set wholly in bold (`b`, `strong`,
//!   `big`) is a heading too, as page authors before CSS made headings that
//!   way and the CleanEval annotators marked them `<h>`; all other blocks
//!   are paragraphs ([`Kind::P`]).
//! - Character references are decoded where text is read; runs of whitespace,
//!   including U+00A0 (no-break space, which the CleanEval scorer would not
//!   split on), become one space; soft hyphens and zero-width characters are
//!   deleted, and so are control characters (the paper's "invalid characters").
//!   In `pre`, a blank line is a block boundary.
//! - The tokenizer does not build a tree; a stack of open elements with the
//!   common implied end tags (`p`, `li`, `dt`/`dd`, table cells and rows,
//!   `option`, headings) stands in for one. An end tag closes what the tree
//!   builder's would (`walk::end`: scopes, special elements, the adoption
//!   agency as far as a stack goes; a table's parts outside a table are
//!   ignored); one with no open element of its name is ignored. Counting
//!   open elements by name, and keeping positions per open element, keeps
//!   every step O(1) amortised, so 100 000 nested elements cost no more than
//!   100 000 flat ones.
//! - The page's own statement of what its article is, [`Meta`], is read on
//!   the way: the first HTML `<title>`, `og:title`/`twitter:title`, the
//!   `description`, `og:description` and `twitter:description` meta tags,
//!   and the `headline`, `description` and `articleBody` of JSON-LD scripts.

mod attrs;
mod blocks;
mod consumer;
mod containers;
pub mod inline;
mod meta;
mod metadata;
mod open;
mod signals;
mod structure;
mod tags;
pub mod tokenizer;
mod tree;
mod walk;

pub use attrs::{
    ATTR_WORDS, attribute_words, role_is_dialog, streamed_boundary_id, style_hides, word_hash,
};
pub use inline::{Inline, Marks};
pub use meta::{META_MAX_CHARS, Meta};
pub use metadata::{
    FIELD_MAX_CHARS, LIST_MAX, Metadata, any_date_in_text, author_name, byline_name, date_in_text,
    holds_a_date_in_text, normalise_date,
};
use open::Tree;
pub use signals::{ELEMENTS, ITEMPROPS, OG_TYPES, SCHEMA_GROUPS, Signals};
pub use tags::Tag;
pub use tree::{Container, LEVELS, PROSE_WORDS};
use walk::Walker;

/// The kind of a segment, as the CleanEval guidelines label it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Kind {
    /// A paragraph (`<p>`).
    #[serde(rename = "p")]
    P,
    /// A heading (`<h>`).
    #[serde(rename = "h")]
    H,
    /// A list item (`<l>`).
    #[serde(rename = "l")]
    L,
}

impl Kind {
    /// The CleanEval marker of the kind: `<p>`, `<h>` or `<l>`.
    pub fn marker(self) -> &'static str {
        match self {
            Kind::P => "<p>",
            Kind::H => "<h>",
            Kind::L => "<l>",
        }
    }

    /// The one-letter name of the kind: `p`, `h` or `l`.
    pub fn letter(self) -> &'static str {
        &self.marker()[1..2]
    }
}

/// A block of text between two block boundaries of the page, with what the
/// HTML said about it.
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    /// Heading, list item or paragraph.
    pub kind: Kind,
    /// The text, whitespace collapsed, trimmed, never empty.
    pub text: String,
    /// The words of `text` by [`crate::words`]' rule, counted once, by
    /// the walker that wrote it (the segments and the containers read it).
    pub words: u32,
    /// Characters of `text` that were inside a link (`<a href>`).
    pub link_chars: u32,
    /// The block-level element that opened the block (`p`, `div`, `td`, …).
    pub tag: Tag,
    /// Structural context of the block (bit set of [`Context`] flags).
    pub context: Context,
    /// Hashed words of the `class`, `id` and `role` attributes of the
    /// nearest enclosing elements ([`attribute_words`]), sorted, deduplicated.
    pub attrs: Vec<u32>,
    /// What the tree of containers around the block says about it.
    pub container: Container,
    /// Where the block sits in the document's structure, for Markdown.
    pub structure: Structure,
    /// Links, images and `pre` line breaks in the text, for Markdown
    /// ([`inline`]); `None` when there are none.
    pub inline: Option<Box<Inline>>,
}

/// Where a block sits in the document's structure: what Markdown output
/// needs, recorded by the same pass that builds the blocks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Structure {
    /// The level of the enclosing `h1`–`h6` (0: none).
    pub heading: u8,
    /// How many lists (`ul`, `ol`, `menu`, `dir`) enclose the block.
    pub list_depth: u8,
    /// The innermost enclosing list is an `ol`.
    pub ordered: bool,
    /// The innermost enclosing list, numbered in document order from 1
    /// (0: none): two lists one after the other are two lists in Markdown.
    pub list: u32,
    /// The innermost enclosing `li`, numbered in document order from 1
    /// (0: none). The blocks of one `li` (a card's title, rating and
    /// price in `div`s) are one list item: Markdown writes the first kept
    /// one with the item's marker and the others as its continuation lines.
    pub item: u32,
    /// A heading or an `article` has opened inside that `li` before the
    /// block ends: the `li` is a card (a product, a post, a comment), not an
    /// item of a list of text.
    pub card: bool,
    /// Inside a `blockquote`.
    pub quote: bool,
    /// Inside `pre` (or `listing`, `xmp`, `plaintext`).
    pub pre: bool,
    /// The language of the code, when `pre` and an enclosing `pre` or
    /// `code` names one in its class ([`CodeLanguage`]).
    pub code_language: Option<CodeLanguage>,
    /// The table cell the block sits in, when its innermost block is `td` or `th`.
    pub cell: Option<Cell>,
}

/// The language a code block's class names: `language-X` or `lang-X`
/// (highlight.js, Prism, Markdown renderers), `highlight-source-X`
/// (GitHub), `brush: X` (SyntaxHighlighter), on `pre` or `code`; on any
/// element for `highlight-source-X`. Held inline (15 bytes at most, of
/// ASCII letters, digits and `+#-_.`), so that [`Structure`] stays `Copy`;
/// a longer or stranger name is not taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CodeLanguage {
    len: u8,
    bytes: [u8; 15],
}

impl CodeLanguage {
    /// The language named by one class attribute value, if any.
    pub fn from_class(class: &[u8], code_element: bool) -> Option<CodeLanguage> {
        let mut words = class
            .split(|b| b.is_ascii_whitespace())
            .filter(|w| !w.is_empty());
        while let Some(w) = words.next() {
            let name = if let Some(n) = w.strip_prefix(b"highlight-source-") {
                n
            } else if !code_element {
                continue;
            } else if let Some(n) = w
                .strip_prefix(b"language-")
                .or_else(|| w.strip_prefix(b"lang-"))
            {
                n
            } else if w == b"brush:" {
                words.next().unwrap_or_default()
            } else if let Some(n) = w.strip_prefix(b"brush:") {
                n
            } else {
                continue;
            };
            let name = name.strip_suffix(b";").unwrap_or(name);
            if let Some(l) = CodeLanguage::new(name) {
                return Some(l);
            }
        }
        None
    }

    fn new(name: &[u8]) -> Option<CodeLanguage> {
        let ok = |b: &u8| b.is_ascii_alphanumeric() || b"+#-_.".contains(b);
        if name.is_empty() || name.len() > 15 || !name.iter().all(ok) {
            return None;
        }
        let mut bytes = [0u8; 15];
        for (d, s) in bytes.iter_mut().zip(name) {
            *d = s.to_ascii_lowercase();
        }
        Some(CodeLanguage {
            len: name.len() as u8,
            bytes,
        })
    }

    /// The name, lower-cased.
    pub fn as_str(&self) -> &str {
        std::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or_default()
    }
}

/// A table cell of [`Structure`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cell {
    /// The table, numbered from 1 in document order.
    pub table: u32,
    /// The row within the table, numbered from 1 (0: a cell before any `tr`).
    pub row: u32,
    /// The cell within the row, numbered from 1 in document order (a
    /// `colspan` counts as one cell), so that a cell that made no segment
    /// (empty, or dropped) leaves its place empty instead of shifting the
    /// cells after it.
    pub column: u32,
    /// A header cell (`th`).
    pub header: bool,
}

/// A page as the pass reads it: its blocks and its metadata.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Page {
    /// The blocks of text, in document order.
    pub blocks: Vec<Block>,
    /// What the page's metadata says its article is (classifier features).
    pub meta: Meta,
    /// The page's metadata for output: title, authors, dates, …
    pub metadata: Metadata,
    /// The limit that stopped the pass before the page's end, if one did:
    /// the blocks are those read up to there.
    pub truncated: Option<Limit>,
    /// What the tag stream says about the kind of page (for the page type).
    pub signals: Signals,
}

/// Most blocks of text read from one document (HTML blocks or text-dump
/// segments): what bounds a document's working memory, which grows by
/// about 1 KB a block through the pipeline (the block, its segment, its
/// classifier features and its decision), to about 200 MB whatever the
/// page. Real pages have a few thousand blocks at most (2,641 in the
/// 1,474 pages of WCXB's dev set); a page of 64 MiB of `<li>1` would have
/// 13 million, and take 12 GB.
pub const MAX_BLOCKS: usize = 200_000;

/// Most elements (start tags that open one) read from one page: what
/// bounds the walker's stack of open elements and its tree of containers
/// (about 100 bytes an element at most) on pages of nothing but tags, such
/// as 12 million nested `<div>`s, to about 100 MB. Real pages have a few
/// tens of thousands.
pub const MAX_ELEMENTS: usize = 1_000_000;

/// A limit that stops reading a document before its end ([`Page::truncated`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    /// More than [`MAX_BLOCKS`] blocks of text.
    Blocks,
    /// More than [`MAX_ELEMENTS`] elements.
    Elements,
}

impl Limit {
    /// What happened, for the record of the document: the limit, its
    /// value, and what was cleaned.
    pub fn describe(self) -> String {
        match self {
            Limit::Blocks => format!(
                "more than {MAX_BLOCKS} blocks of text, the limit of one document: the first {MAX_BLOCKS} were cleaned, the rest was not read"
            ),
            Limit::Elements => format!(
                "more than {MAX_ELEMENTS} elements, the limit of one page: the page was read up to its {MAX_ELEMENTS}th element"
            ),
        }
    }
}

/// Structural context flags of a block: which kinds of element enclose it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Context(pub u32);

impl Context {
    /// Inside `nav`.
    pub const NAV: u32 = 1 << 0;
    /// Inside `header`.
    pub const HEADER: u32 = 1 << 1;
    /// Inside `footer`.
    pub const FOOTER: u32 = 1 << 2;
    /// Inside `aside`.
    pub const ASIDE: u32 = 1 << 3;
    /// Inside `form`.
    pub const FORM: u32 = 1 << 4;
    /// Inside a table.
    pub const TABLE: u32 = 1 << 5;
    /// Inside a list (`ul`, `ol`, `dl`, `menu`).
    pub const LIST: u32 = 1 << 6;
    /// Inside `article` or `main`.
    pub const ARTICLE: u32 = 1 << 7;
    /// Inside `blockquote`.
    pub const QUOTE: u32 = 1 << 8;
    /// Inside `pre` (whitespace preserved).
    pub const PRE: u32 = 1 << 9;
    /// Inside `button` or `label`.
    pub const CONTROL: u32 = 1 << 10;
    /// Inside an element whose `class`, `id` or `role` names user comments
    /// or replies (`comments`, `comment-list`, `replies`, `respond`,
    /// `disqus_thread`, `discussion`).
    pub const COMMENT: u32 = 1 << 11;
    /// Inside `figure` or `figcaption` (an image's caption and credit).
    pub const FIGURE: u32 = 1 << 12;
    /// Inside a block-level element that hides itself (the `hidden`
    /// attribute, an inline `display:none` or `visibility:hidden`): a
    /// closed tab panel, an accordion's answer, a product's description
    /// tab, a menu, a dialog, or a page that its scripts reveal. Dialogs
    /// (`role=dialog` or `alertdialog`, `aria-modal=true`, a `<dialog>`
    /// without `open`) are flagged too, whatever their style: a layer
    /// over the page that shows when opened or until dismissed (a privacy
    /// policy, a sign-up form, a cookie notice, a quick view). The pass
    /// reads such blocks and flags them; a model trained with the flag
    /// ([`crate::classify::Classifier::hidden`]) decides them, and every
    /// other decider never sees them, unless the whole page is hidden.
    pub const HIDDEN: u32 = 1 << 13;

    /// How many flags there are.
    pub const FLAGS: usize = 14;

    /// Whether every flag of `flags` is set.
    pub fn has(self, flags: u32) -> bool {
        self.0 & flags == flags
    }
}

/// Most words a paragraph set wholly in bold may have to be read as a heading.
pub const BOLD_HEADING_MAX_WORDS: usize = 15;

/// Converts an HTML page (already decoded to UTF-8) into blocks of text.
pub fn blocks(html: &str) -> Vec<Block> {
    parse(html).blocks
}

/// Converts an HTML page (already decoded to UTF-8) into blocks of text and
/// reads its metadata.
pub fn parse(html: &str) -> Page {
    parse_with(html, Marks::default())
}

/// [`parse`], recording the inline marks asked for ([`inline`]).
pub fn parse_with(html: &str, marks: Marks) -> Page {
    let consumers = (
        blocks::Blocks::default(),
        containers::Containers::default(),
        structure::Outline::default(),
        inline::Recorder::new(marks),
        metadata::Reader::default(),
        signals::Reader::default(),
    );
    walk(html, consumers)
}

/// The page the walker reads from `html` with these consumers.
fn walk<C: consumer::Consumer>(html: &str, consumers: C) -> Page {
    let mut tree = Tree::default();
    tree.set_word_mask(signals::tree_word_mask);
    let mut walker = Walker::new(tree, consumers);
    tokenizer::Tokenizer::default().run(html, &mut walker);
    walker.finish().0
}

/// `s` with each run of whitespace read as one space, trimmed.
pub(crate) fn collapse_whitespace(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The words of a block's text, whose words the pass joins with single
/// spaces: its spaces plus one (as `split(' ').count()`, but a byte count
/// vectorises, and this runs on every block), or, in a text that holds
/// Han, kana or full-width characters or Thai, Lao, Khmer or Myanmar, the
/// count of [`crate::words`]. The walker writes no other ASCII whitespace
/// and none at the ends, so the first is [`crate::words::count`] too: the
/// one count of a block's words, which [`Block::words`] keeps (a test of
/// the segments checks the two agree on the shared pages).
fn words(text: &str) -> usize {
    if crate::words::holds_unspaced(text) {
        crate::words::count(text)
    } else {
        text.bytes().filter(|&b| b == b' ').count() + 1
    }
}

#[cfg(test)]
mod tests {
    /// The consumers read the walker's facts of a block, never one another's
    /// writes: run in the reverse order, they read the same page.
    #[test]
    fn the_consumers_order_does_not_change_the_page() {
        use super::*;
        let reversed = |html: &str| {
            let consumers = (
                signals::Reader::default(),
                metadata::Reader::default(),
                inline::Recorder::new(Marks {
                    links: true,
                    images: true,
                }),
                structure::Outline::default(),
                containers::Containers::default(),
                blocks::Blocks::default(),
            );
            walk(html, consumers)
        };
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../ncleaner-cli/tests/snapshots/pages");
        let mut pages = 0;
        for entry in std::fs::read_dir(&dir).expect("the snapshot pages") {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "html") {
                continue;
            }
            // legacy.html is windows-1252: read it as the decoder would.
            let html = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
            assert_eq!(
                parse_with(
                    &html,
                    Marks {
                        links: true,
                        images: true
                    }
                ),
                reversed(&html),
                "{}",
                path.display()
            );
            pages += 1;
        }
        assert!(
            pages >= 10,
            "{pages} snapshot pages read from {}",
            dir.display()
        );
        let hidden = "<div class=comments><p>Hidden, said <b>one</b>.</p></div>\
                      <p hidden>Hidden text of the page.</p><article><p>The story.</p></article>";
        assert_eq!(
            parse_with(
                hidden,
                Marks {
                    links: true,
                    images: true
                }
            ),
            reversed(hidden)
        );
    }

    #[test]
    fn metadata_is_read_and_not_shown() {
        let page = parse(
            "<html><head><title>The  Tide &amp; the Moon</title>\
             <meta property=\"og:title\" content=\"Tide tables\">\
             <META NAME=\"Description\" content=\"Why the sea rises twice a day.\">\
             <meta name=\"keywords\" content=\"not, this\">\
             <script type=\"application/ld+json\">{\"@graph\":[{\"@type\":\"NewsArticle\",\
             \"headline\":\"Moon pulls sea\",\"articleBody\":\"The Moon pulls the sea.\"}]}</script>\
             <script>var x = {\"articleBody\": \"no\"};</script></head>\
             <body><p>The Moon pulls the sea.</p></body></html>",
        );
        assert_eq!(
            page.meta.title,
            "Tide tables Moon pulls sea The Tide & the Moon"
        );
        assert_eq!(
            page.meta.summary,
            "Why the sea rises twice a day. The Moon pulls the sea."
        );
        let texts: Vec<&str> = page.blocks.iter().map(|b| b.text.as_str()).collect();
        assert_eq!(texts, ["The Moon pulls the sea."]);
    }

    #[test]
    fn noscript_content_is_read_as_markup_unless_hidden() {
        let page = parse(
            "<body><noscript><div class=\"post\"><p>First post text.</p><p>Second <b>bold</b>.</p></div>\
             <noscript><p>inner</p></noscript></noscript><p>After.</p>\
             <div hidden><noscript><p>Hidden.</p></noscript></div><noscript><p>Unclosed",
        );
        let texts: Vec<&str> = page
            .blocks
            .iter()
            .filter(|b| !b.context.has(Context::HIDDEN))
            .map(|b| b.text.as_str())
            .collect();
        assert_eq!(
            texts,
            ["First post text.", "Second bold.", "After.", "Unclosed"]
        );
        // Inside a hidden block, it is read and flagged.
        let hidden: Vec<&str> = page
            .blocks
            .iter()
            .filter(|b| b.context.has(Context::HIDDEN))
            .map(|b| b.text.as_str())
            .collect();
        assert_eq!(hidden, ["Hidden."]);
    }

    #[test]
    fn broken_json_ld_and_huge_metadata_are_harmless() {
        let big = "word ".repeat(100_000);
        let html = format!(
            "<script type=application/ld+json>{{\"headline\": [</script>\
             <meta name=description content=\"{big}\"><p>Text.</p>"
        );
        let page = parse(&html);
        assert!(page.meta.title.is_empty());
        assert!(page.meta.summary.len() <= META_MAX_CHARS);
        assert_eq!(page.blocks.len(), 1);
    }

    use super::*;

    fn texts(html: &str) -> Vec<(Kind, String)> {
        blocks(html).into_iter().map(|b| (b.kind, b.text)).collect()
    }

    /// The blocks not flagged [`Context::HIDDEN`].
    fn shown(html: &str) -> Vec<(Kind, String)> {
        blocks(html)
            .into_iter()
            .filter(|b| !b.context.has(Context::HIDDEN))
            .map(|b| (b.kind, b.text))
            .collect()
    }

    /// The texts of [`shown`]'s blocks.
    fn shown_texts(html: &str) -> Vec<String> {
        shown(html).into_iter().map(|(_, t)| t).collect()
    }

    fn p(s: &str) -> (Kind, String) {
        (Kind::P, s.to_string())
    }

    #[test]
    fn paragraphs_headings_lists() {
        let got = texts("<h1>Title</h1><p>One  two\nthree</p><ul><li>a<li>b</ul><p>end");
        assert_eq!(
            got,
            vec![
                (Kind::H, "Title".into()),
                p("One two three"),
                (Kind::L, "a".into()),
                (Kind::L, "b".into()),
                p("end")
            ]
        );
    }

    #[test]
    fn scripts_styles_comments_and_images_are_dropped() {
        let got = texts(
            "<head><title>T</title><style>p{x:y}</style></head><body><script>var a='<p>x</p>';</script>\
             <p>keep<!-- not this --> <img src=a.gif alt=\"alt text\">this</p></body>",
        );
        assert_eq!(got, vec![p("keep this")]);
    }

    #[test]
    fn hidden_blocks_are_flagged_and_hidden_inline_text_dropped() {
        let html = "<div style=\"display: none\">secret <p>more secret</p></div><p hidden>also</p>\
             <p>a <span style='VISIBILITY:hidden'>no</span>b</p><p>shown</p>";
        assert_eq!(shown(html), vec![p("a b"), p("shown")]);
        let hidden: Vec<String> = blocks(html)
            .into_iter()
            .filter(|b| b.context.has(Context::HIDDEN))
            .map(|b| b.text)
            .collect();
        assert_eq!(hidden, ["secret", "more secret", "also"]);
        // Whatever hides inside a shown hidden block stays flagged, and
        // the flag ends with the element.
        let b = blocks("<div hidden><div><p>in</p></div></div><p>out</p>");
        assert!(b[0].context.has(Context::HIDDEN));
        assert!(!b[1].context.has(Context::HIDDEN));
    }

    #[test]
    fn dialogs_are_flagged_as_hidden_blocks_are() {
        let html = "<p>page</p><div role=\"dialog\"><h2>Privacy policy</h2><p>We collect</p></div>\
             <div aria-modal=true><p>Sign up</p></div><div role='alertdialog  other'><p>Oops</p></div>\
             <dialog><p>closed</p></dialog><dialog open><p>open dialog</p></dialog>\
             <div role=dialogue><p>not a dialog role</p></div><div aria-modal=false><p>not modal</p></div>\
             <p>a <span role=dialog>inline</span> b</p>";
        let hidden: Vec<String> = blocks(html)
            .into_iter()
            .filter(|b| b.context.has(Context::HIDDEN))
            .map(|b| b.text)
            .collect();
        assert_eq!(
            hidden,
            ["Privacy policy", "We collect", "Sign up", "Oops", "closed"]
        );
        assert_eq!(
            shown(html),
            vec![
                p("page"),
                p("open dialog"),
                p("not a dialog role"),
                p("not modal"),
                p("a b")
            ]
        );
    }

    #[test]
    fn streamed_boundaries_are_shown_in_spite_of_hidden() {
        // React's streamed server rendering: the shell holds a placeholder,
        // the content comes hidden at the end and a script moves it.
        let got = shown(
            "<template id=\"B:0\"></template><div hidden>shell only</div>\
             <div hidden id=\"S:0\"><p>The article.</p></div>\
             <div hidden id=\"S:x\">not a boundary</div>\
             <div hidden id=\"S:1\" style=\"display:none\">styled away</div>",
        );
        assert_eq!(got, vec![p("The article.")]);
    }

    #[test]
    fn implied_end_tags_inside_a_template_stay_inside_it() {
        // A template's content is hidden whatever it holds: its `<li>`,
        // cells and paragraphs close nothing outside it (the browser-text
        // fuzz target found the template popped and its content shown).
        for page in [
            "<ul><li>one<template><li>hidden item</template> two</li></ul>",
            "<table><tr><td>cell<template><td>hidden cell</template> more</td></tr></table>",
            "<table><tbody><tr><td>cell<template><tbody><tr><td>hidden row</template></td></tr></tbody></table>",
            "<dl><dt>term<template><dd>hidden definition</template></dt></dl>",
            "<p>para<template><div>hidden block</div></template> end</p>",
        ] {
            let got = shown_texts(page);
            assert!(got.iter().all(|t| !t.contains("hidden")), "{page}: {got:?}");
            assert!(!got.is_empty(), "{page}");
        }
    }

    #[test]
    fn end_tags_inside_a_template_close_nothing_outside_it() {
        // In a template's content the end tag of an element outside the
        // template is ignored (its scope stops at the template), inside
        // SVG too: the browser-text fuzz target's case, and its plain form.
        for page in [
            "<li></svg><template><svg></li></svg> hidden one <svg></li></span></li>",
            "<ul><li>one<template><div></li> hidden two</div></template></li></ul>",
            "<div>one<template><span></div> hidden three</template> end</div>",
            "<x-card>one<template><b></x-card> hidden four</template></x-card>",
            "<p>one<template></p> hidden five</template> end</p>",
        ] {
            let got = shown_texts(page);
            assert!(got.iter().all(|t| !t.contains("hidden")), "{page}: {got:?}");
        }
        // A template's own end tag still closes it, inside SVG too.
        assert_eq!(
            shown_texts("<div><template><svg><g></template>after</div>"),
            ["after"]
        );
    }

    #[test]
    fn a_row_or_a_section_closes_what_was_left_open_in_the_table() {
        // The browser-text fuzz target's case: the `<li>` left open in the
        // table is closed by `<tr>`, so `</li>` closes nothing and the SVG
        // opened after it keeps its text.
        assert_eq!(
            shown_texts(
                "<table></td><annotation-xml><text> six <tbody><li><tr></math><svg></li></span> two  one ",
            ),
            ["six"]
        );
        // Cells, rows and sections still close their own kind.
        assert_eq!(
            shown_texts(
                "<table><tr><td>a<div>b<td>c<tr><td>d<tbody><tr><td>e<table><tr><td>f</table>g</table>",
            ),
            ["a", "b", "c", "d", "e", "f", "g"]
        );
        // Outside a table a browser ignores `<tbody>` and `<tr>`: the `<li>`
        // stays open, so `</li>` closes the SVG and " two " is shown (the
        // fuzz target's next case).
        assert_eq!(
            shown_texts("<tbody><tbody><noscript><li><tr><font><svg></li></span> two "),
            ["two"]
        );
    }

    #[test]
    fn any_headings_end_tag_closes_the_open_heading() {
        // The browser-text fuzz target's case: `</h1>` inside MathML in an
        // `<h2>` closes the `<h2>` and the MathML in it, so " one " is shown.
        let got = shown_texts(" one  one  one  one <math></g><h2></g><math></h1> one </h1>");
        assert_eq!(got.join(" ").split_whitespace().count(), 5, "{got:?}");
        // In HTML alone: the text after `</h1>` is not the `<h2>`'s.
        assert_eq!(
            texts("<h2>Title</h1>Body text"),
            vec![(Kind::H, "Title".to_string()), p("Body text")]
        );
    }

    #[test]
    fn br_br_is_a_boundary_single_br_is_not() {
        assert_eq!(texts("a<br>b<br/><br>c"), vec![p("a b"), p("c")]);
        assert_eq!(texts("a<br> <br>b"), vec![p("a"), p("b")]);
    }

    #[test]
    fn entities_and_nbsp() {
        assert_eq!(
            texts("<p>fish&nbsp;&amp;&#160;chips &eacute;t&eacute;&shy;s</p>"),
            vec![p("fish & chips étés")]
        );
    }

    #[test]
    fn table_cells_are_blocks() {
        let got = texts("<table><tr><td>a<td>b<tr><td>c</table>");
        assert_eq!(got, vec![p("a"), p("b"), p("c")]);
    }

    #[test]
    fn inline_elements_do_not_split() {
        assert_eq!(
            texts("<p>a <b>bold</b> and <a href=x>link</a>.</p>"),
            vec![p("a bold and link.")]
        );
    }

    #[test]
    fn link_chars_are_counted() {
        let b = blocks(
            "<p>see <a href=/x>here</a></p><p><a href=/>Home</a> | <a href=/c>Contact</a></p>",
        );
        assert_eq!(b[0].link_chars, 4);
        assert_eq!(b[1].link_chars, 11);
        // Words joined by single spaces are written as one run: the spaces
        // are text but not counted, as if written word by word; doubled and
        // non-ASCII whitespace collapse to one space, and `pre` text goes
        // word by word (its newlines and indents are marks).
        let b = blocks(
            "<p>one <a href=/x>two three  four\u{a0}five</a> six\tseven</p><pre>a b  c\nd</pre>",
        );
        assert_eq!(b[0].text, "one two three four five six seven");
        assert_eq!(b[0].link_chars, 16);
        assert_eq!(b[1].text, "a b c d");
    }

    #[test]
    fn pre_blank_lines_split() {
        assert_eq!(
            texts("<pre>line one\nline two\n\npara two</pre>"),
            vec![p("line one line two"), p("para two")]
        );
    }

    #[test]
    fn attribute_words_split() {
        let mut v = Vec::new();
        attribute_words(b"sidebar-left navMenu item42 x  comment_box 2007", &mut v);
        let want: Vec<u32> = ["sidebar", "left", "nav", "menu", "item", "comment", "box"]
            .iter()
            .map(|w| word_hash(w.as_bytes()))
            .collect();
        assert_eq!(v, want);
        let b = blocks(
            "<div id=sidebar><ul class='menu'><li>Home</li></ul></div><div class=post><p>Text</p></div>",
        );
        assert!(
            b[0].attrs.contains(&word_hash(b"sidebar")) && b[0].attrs.contains(&word_hash(b"menu"))
        );
        assert!(
            b[1].attrs.contains(&word_hash(b"post")) && !b[1].attrs.contains(&word_hash(b"menu"))
        );
    }

    #[test]
    fn context_flags() {
        let b = blocks(
            "<nav><ul><li>Home</li></ul></nav><article><p>Body</p></article><footer>c</footer>",
        );
        assert!(b[0].context.has(Context::NAV | Context::LIST));
        assert!(b[1].context.has(Context::ARTICLE));
        assert!(!b[1].context.has(Context::NAV));
        assert!(b[2].context.has(Context::FOOTER));
    }

    #[test]
    fn stray_end_tags_are_ignored() {
        assert_eq!(texts("<p>a</span></div>b</p>"), vec![p("ab")]);
        assert_eq!(texts("</p>x"), vec![p("x")]);
    }

    #[test]
    fn unknown_elements_nest() {
        let got = texts("<custom-el hidden><x-y>gone</x-y></custom-el><p>here");
        assert_eq!(got, vec![p("here")]);
    }

    #[test]
    fn deep_nesting_is_linear() {
        let n = 100_000;
        let html = format!("{}deep{}", "<div>".repeat(n), "</span>".repeat(n));
        assert_eq!(texts(&html), vec![p("deep")]);
    }

    #[test]
    fn list_item_with_nested_paragraph_is_list_item() {
        assert_eq!(
            texts("<ol><li><p>x</p></li></ol>"),
            vec![(Kind::L, "x".into())]
        );
    }
}
