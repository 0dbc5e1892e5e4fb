//! Stages 1–2 of the paper (regex normalisation + Lynx) as one pass over a
//! WHATWG-compliant HTML tokenizer (`html5gum`): HTML text → [`Block`]s.
//!
//! What the pass does, and the choices where the paper (which used regular
//! expressions and the Lynx browser) is silent:
//!
//! - Text inside `script`, `style`, `title`, `template`, `noscript`,
//!   `iframe`, `noembed`, `noframes`, `select`, `datalist`, `textarea`,
//!   `svg`, `math` and comments is dropped; so is everything inside an element
//!   with the `hidden` attribute or an inline style `display:none` /
//!   `visibility:hidden`. Images are dropped (the paper deletes them; their
//!   `alt` text is not shown).
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
//! - Character references are decoded by the tokenizer; runs of whitespace,
//!   including U+00A0 (no-break space, which the CleanEval scorer would not
//!   split on), become one space; soft hyphens and zero-width characters are
//!   deleted, and so are control characters (the paper's "invalid characters").
//!   In `pre`, a blank line is a block boundary.
//! - The tokenizer does not build a tree; a stack of open elements with the
//!   common implied end tags (`p`, `li`, `dt`/`dd`, table cells and rows,
//!   `option`, headings) stands in for one. An end tag with no open element of
//!   its name is ignored. Counting open elements by name keeps every step
//!   O(1) amortised, so 100 000 nested elements cost no more than 100 000 flat ones.
//! - The page's own statement of what its article is, [`Meta`], is read on
//!   the way: the `<title>`, `og:title`/`twitter:title`, the `description`,
//!   `og:description` and `twitter:description` meta tags, and the
//!   `headline`, `description` and `articleBody` of JSON-LD scripts.

use html5gum::emitters::callback::{CallbackEmitter, CallbackEvent};
use html5gum::{Span, Tokenizer};

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
    /// Characters of `text` that were inside a link (`<a href>`).
    pub link_chars: u32,
    /// The block-level element that opened the block (`p`, `div`, `td`, …).
    pub tag: Tag,
    /// Structural context of the block (bit set of [`Context`] flags).
    pub context: Context,
    /// Hashed words of the `class`, `id` and `role` attributes of the
    /// nearest enclosing elements ([`attribute_words`]), sorted, deduplicated.
    pub attrs: Vec<u32>,
}

/// What the page's metadata says its article is (see the module documentation).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Meta {
    /// `<title>`, `og:title`, `twitter:title`, JSON-LD `headline`, joined by spaces.
    pub title: String,
    /// `description`, `og:description`, `twitter:description`, JSON-LD
    /// `description` and `articleBody`, joined by spaces.
    pub summary: String,
}

/// Most characters of metadata kept per field: a bound on what a hostile
/// page can make the pass hold.
pub const META_MAX_CHARS: usize = 64 * 1024;

impl Meta {
    fn push(field: &mut String, text: &str) {
        let room = META_MAX_CHARS.saturating_sub(field.len());
        let text = text.trim();
        if room < 2 || text.is_empty() {
            return;
        }
        if !field.is_empty() {
            field.push(' ');
        }
        let mut end = text.len().min(room - 1);
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        field.push_str(&text[..end]);
    }

    /// Whether the page said nothing about its article.
    pub fn is_empty(&self) -> bool {
        self.title.is_empty() && self.summary.is_empty()
    }

    /// Adds the article fields of a JSON-LD script (any nesting, `@graph` included).
    fn add_json_ld(&mut self, json: &str) {
        fn walk(v: &serde_json::Value, meta: &mut Meta, depth: usize) {
            if depth > 16 {
                return;
            }
            match v {
                serde_json::Value::Object(o) => {
                    for (k, v) in o {
                        match (k.as_str(), v) {
                            ("headline" | "alternativeHeadline", serde_json::Value::String(t)) => {
                                Meta::push(&mut meta.title, t)
                            }
                            (
                                "description" | "articleBody" | "abstract",
                                serde_json::Value::String(t),
                            ) => Meta::push(&mut meta.summary, t),
                            _ => walk(v, meta, depth + 1),
                        }
                    }
                }
                serde_json::Value::Array(a) => a.iter().for_each(|v| walk(v, meta, depth + 1)),
                _ => {}
            }
        }
        if let Ok(v) = serde_json::from_str::<serde_json::Value>(json) {
            walk(&v, self, 0);
        }
    }
}

/// A page as the pass reads it: its blocks and its metadata.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Page {
    /// The blocks of text, in document order.
    pub blocks: Vec<Block>,
    /// What the page's metadata says its article is.
    pub meta: Meta,
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

    /// Whether every flag of `flags` is set.
    pub fn has(self, flags: u32) -> bool {
        self.0 & flags == flags
    }
}

/// The elements the pass treats specially; every other element is `Other`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum Tag {
    A,
    Address,
    Article,
    Aside,
    B,
    Big,
    Blockquote,
    Body,
    Br,
    Button,
    Caption,
    Center,
    Datalist,
    Dd,
    Details,
    Dialog,
    Dir,
    Div,
    Dl,
    Dt,
    Fieldset,
    Figcaption,
    Figure,
    Footer,
    Form,
    Frameset,
    H1,
    H2,
    H3,
    H4,
    H5,
    H6,
    Head,
    Header,
    Hgroup,
    Hr,
    Html,
    Iframe,
    Label,
    Legend,
    Li,
    Listing,
    Main,
    Math,
    Menu,
    Nav,
    Noembed,
    Noframes,
    Noscript,
    Ol,
    Optgroup,
    Option,
    P,
    Plaintext,
    Pre,
    Script,
    Strong,
    Section,
    Select,
    Style,
    Summary,
    Svg,
    Table,
    Tbody,
    Td,
    Template,
    Textarea,
    Tfoot,
    Th,
    Thead,
    Title,
    Tr,
    Ul,
    Xmp,
    /// A void element (never has content or an end tag).
    Void,
    /// Any other element.
    Other,
}

const TAG_COUNT: usize = Tag::Other as usize + 1;

impl Tag {
    /// Classifies a lower-case tag name.
    pub fn from_name(name: &[u8]) -> Tag {
        use Tag::*;
        match name {
            b"a" => A,
            b"b" => B,
            b"big" => Big,
            b"address" => Address,
            b"article" => Article,
            b"aside" => Aside,
            b"blockquote" => Blockquote,
            b"body" => Body,
            b"br" => Br,
            b"button" => Button,
            b"caption" => Caption,
            b"center" => Center,
            b"datalist" => Datalist,
            b"dd" => Dd,
            b"details" => Details,
            b"dialog" => Dialog,
            b"dir" => Dir,
            b"div" => Div,
            b"dl" => Dl,
            b"dt" => Dt,
            b"fieldset" => Fieldset,
            b"figcaption" => Figcaption,
            b"figure" => Figure,
            b"footer" => Footer,
            b"form" => Form,
            b"frameset" => Frameset,
            b"h1" => H1,
            b"h2" => H2,
            b"h3" => H3,
            b"h4" => H4,
            b"h5" => H5,
            b"h6" => H6,
            b"head" => Head,
            b"header" => Header,
            b"hgroup" => Hgroup,
            b"hr" => Hr,
            b"html" => Html,
            b"iframe" => Iframe,
            b"label" => Label,
            b"legend" => Legend,
            b"li" => Li,
            b"listing" => Listing,
            b"main" => Main,
            b"math" => Math,
            b"menu" => Menu,
            b"nav" => Nav,
            b"noembed" => Noembed,
            b"noframes" => Noframes,
            b"noscript" => Noscript,
            b"ol" => Ol,
            b"optgroup" => Optgroup,
            b"option" => Option,
            b"p" => P,
            b"plaintext" => Plaintext,
            b"pre" => Pre,
            b"script" => Script,
            b"strong" => Strong,
            b"section" => Section,
            b"select" => Select,
            b"style" => Style,
            b"summary" => Summary,
            b"svg" => Svg,
            b"table" => Table,
            b"tbody" => Tbody,
            b"td" => Td,
            b"template" => Template,
            b"textarea" => Textarea,
            b"tfoot" => Tfoot,
            b"th" => Th,
            b"thead" => Thead,
            b"title" => Title,
            b"tr" => Tr,
            b"ul" => Ul,
            b"xmp" => Xmp,
            b"area" | b"base" | b"basefont" | b"bgsound" | b"col" | b"embed" | b"frame"
            | b"image" | b"img" | b"input" | b"isindex" | b"keygen" | b"link" | b"meta"
            | b"param" | b"source" | b"track" | b"wbr" => Void,
            _ => Other,
        }
    }

    /// Whether the element's start and end are block boundaries.
    pub fn is_block(self) -> bool {
        use Tag::*;
        matches!(
            self,
            Address
                | Article
                | Aside
                | Blockquote
                | Body
                | Caption
                | Center
                | Dd
                | Details
                | Dialog
                | Dir
                | Div
                | Dl
                | Dt
                | Fieldset
                | Figcaption
                | Figure
                | Footer
                | Form
                | Frameset
                | H1
                | H2
                | H3
                | H4
                | H5
                | H6
                | Header
                | Hgroup
                | Hr
                | Html
                | Legend
                | Li
                | Listing
                | Main
                | Menu
                | Nav
                | Ol
                | Option
                | Optgroup
                | P
                | Plaintext
                | Pre
                | Section
                | Summary
                | Table
                | Tbody
                | Td
                | Tfoot
                | Th
                | Thead
                | Tr
                | Ul
                | Xmp
        )
    }

    /// Whether the element's content is never visible text.
    fn is_skipped(self) -> bool {
        use Tag::*;
        matches!(
            self,
            Script
                | Style
                | Title
                | Template
                | Noscript
                | Iframe
                | Noembed
                | Noframes
                | Select
                | Datalist
                | Textarea
                | Svg
                | Math
        )
    }

    fn is_bold(self) -> bool {
        matches!(self, Tag::B | Tag::Strong | Tag::Big)
    }

    fn is_heading(self) -> bool {
        matches!(
            self,
            Tag::H1 | Tag::H2 | Tag::H3 | Tag::H4 | Tag::H5 | Tag::H6
        )
    }

    fn context_flag(self) -> u32 {
        use Tag::*;
        match self {
            Nav => Context::NAV,
            Header => Context::HEADER,
            Footer => Context::FOOTER,
            Aside => Context::ASIDE,
            Form => Context::FORM,
            Table => Context::TABLE,
            Ul | Ol | Dl | Menu | Dir => Context::LIST,
            Article | Main => Context::ARTICLE,
            Blockquote => Context::QUOTE,
            Pre | Listing | Xmp | Plaintext => Context::PRE,
            Button | Label => Context::CONTROL,
            _ => 0,
        }
    }
}

/// Most words a paragraph set wholly in bold may have to be read as a heading.
pub const BOLD_HEADING_MAX_WORDS: usize = 15;

/// One open element on the stack.
#[derive(Debug, Clone, Copy)]
struct Open {
    tag: Tag,
    /// For `Tag::Other`, a hash of the name, so end tags find their element.
    name_hash: u32,
    hidden: bool,
    /// An `a` with an `href`.
    link: bool,
    /// Where its attribute words start in `Walker::words`.
    words_start: u32,
}

/// Converts an HTML page (already decoded to UTF-8) into blocks of text.
pub fn blocks(html: &str) -> Vec<Block> {
    parse(html).blocks
}

/// Converts an HTML page (already decoded to UTF-8) into blocks of text and
/// reads its metadata.
pub fn parse(html: &str) -> Page {
    let mut walker = Walker {
        open: vec![0; TAG_COUNT],
        ..Walker::default()
    };
    let emitter = CallbackEmitter::new(|ev: CallbackEvent<'_>, _: Span<()>| -> Option<()> {
        walker.event(ev);
        None
    });
    let mut emitter = emitter;
    emitter.naively_switch_states(true);
    for _ in Tokenizer::new_with_emitter(html, Quiet(emitter)) {}
    walker.finish()
}

/// An emitter that asks the tokenizer for no parse errors. The walker
/// ignores them, and `html5gum` otherwise validates every input byte for
/// them (control and non-characters): about 5 % of the whole pipeline's
/// time in a profile of `clean` on CleanEval pages.
struct Quiet<E>(E);

impl<E: html5gum::Emitter> html5gum::ForwardingEmitter for Quiet<E> {
    type Token = E::Token;

    fn inner(&mut self) -> &mut impl html5gum::Emitter<Token = Self::Token> {
        &mut self.0
    }

    fn should_emit_errors(&mut self) -> bool {
        false
    }
}

/// The attributes of the start tag being read that matter to the pass.
#[derive(Default)]
struct PendingTag {
    name: Vec<u8>,
    attr: Attr,
    hidden: bool,
    has_href: bool,
    /// Hashed words of the `class`, `id` and `role` attributes.
    words: Vec<u32>,
    /// Which [`Meta`] field a `<meta>` tag's `content` goes to.
    meta_field: MetaField,
    /// A `<meta>` tag's `content`.
    content: String,
    /// A `<script type="application/ld+json">`.
    json_ld: bool,
}

#[derive(Default, Clone, Copy, PartialEq)]
enum MetaField {
    #[default]
    None,
    Title,
    Summary,
}

#[derive(Default, Clone, Copy, PartialEq)]
enum Attr {
    #[default]
    None,
    Style,
    Href,
    /// `class`, `id` or `role`: words that name the element's purpose.
    Naming,
    /// `name`, `property` or `itemprop` of a `<meta>` tag.
    MetaName,
    /// `content` of a `<meta>` tag.
    MetaContent,
    /// `type` of a `<script>`.
    ScriptType,
}

#[derive(Default)]
struct Walker {
    out: Vec<Block>,
    stack: Vec<Open>,
    /// Open elements per tag (index `Tag as usize`).
    open: Vec<u32>,
    /// Open `Other` elements per name hash.
    open_other: std::collections::HashMap<u32, u32>,
    /// Open elements that hide their content (hidden or skipped).
    hiding: u32,
    /// Open `a` elements with an `href`.
    in_link: u32,
    /// Open bold elements (`b`, `strong`, `big`).
    in_bold: u32,
    /// The attribute words of the open elements, as a stack (see `Open::words_start`).
    words: Vec<u32>,
    /// Context flag counters, one per bit of [`Context`].
    context_counts: [u32; 12],
    pending: PendingTag,
    /// Text of the block being built.
    text: String,
    /// Whether a space is owed before the next visible character.
    space: bool,
    link_chars: u32,
    /// Visible characters of the block inside bold elements.
    bold_chars: u32,
    /// Visible characters of the block.
    chars: u32,
    block_tag: Option<Tag>,
    /// `<br>` seen since the last visible character.
    brs: u32,
    /// Newlines seen in a row inside `pre`.
    pre_newlines: u32,
    meta: Meta,
    /// The text of `<title>`.
    title: String,
    /// The text of the JSON-LD script being read.
    json_ld: Option<String>,
}

fn name_hash(name: &[u8]) -> u32 {
    // FNV-1a: names are short, and collisions only merge two unknown tags.
    let mut h: u32 = 0x811c_9dc5;
    for &b in name {
        h = (h ^ b as u32).wrapping_mul(0x0100_0193);
    }
    h
}

impl Walker {
    fn event(&mut self, ev: CallbackEvent<'_>) {
        match ev {
            CallbackEvent::OpenStartTag { name } => {
                self.pending = PendingTag {
                    name: name.to_vec(),
                    ..PendingTag::default()
                };
            }
            CallbackEvent::AttributeName { name } => {
                self.pending.attr = match name {
                    b"style" => Attr::Style,
                    b"href" => Attr::Href,
                    b"class" | b"id" | b"role" => Attr::Naming,
                    b"name" | b"property" | b"itemprop"
                        if self.pending.name.eq_ignore_ascii_case(b"meta") =>
                    {
                        Attr::MetaName
                    }
                    b"content" if self.pending.name.eq_ignore_ascii_case(b"meta") => {
                        Attr::MetaContent
                    }
                    b"type" if self.pending.name.eq_ignore_ascii_case(b"script") => {
                        Attr::ScriptType
                    }
                    b"hidden" => {
                        self.pending.hidden = true;
                        Attr::None
                    }
                    _ => Attr::None,
                };
                if self.pending.attr == Attr::Href {
                    self.pending.has_href = true;
                }
            }
            CallbackEvent::AttributeValue { value } => match self.pending.attr {
                Attr::Style if style_hides(value) => self.pending.hidden = true,
                Attr::Naming => attribute_words(value, &mut self.pending.words),
                Attr::MetaName => {
                    let v = value.to_ascii_lowercase();
                    let field = match v.trim_ascii() {
                        b"og:title" | b"twitter:title" | b"headline" => MetaField::Title,
                        b"description" | b"og:description" | b"twitter:description" => {
                            MetaField::Summary
                        }
                        _ => MetaField::None,
                    };
                    if field != MetaField::None {
                        self.pending.meta_field = field;
                    }
                }
                Attr::MetaContent if value.len() <= META_MAX_CHARS => {
                    self.pending.content = String::from_utf8_lossy(value).into_owned()
                }
                Attr::ScriptType => {
                    self.pending.json_ld = value
                        .trim_ascii()
                        .eq_ignore_ascii_case(b"application/ld+json")
                }
                _ => {}
            },
            CallbackEvent::CloseStartTag { .. } => {
                let p = std::mem::take(&mut self.pending);
                self.start_tag(&p);
            }
            CallbackEvent::EndTag { name } => self.end_tag(name),
            CallbackEvent::String { value } => self.text(value),
            CallbackEvent::Comment { .. }
            | CallbackEvent::Doctype { .. }
            | CallbackEvent::Error(_) => {}
        }
    }

    fn start_tag(&mut self, p: &PendingTag) {
        let tag = Tag::from_name(&p.name);
        match tag {
            Tag::Void if p.meta_field != MetaField::None => {
                let field = match p.meta_field {
                    MetaField::Title => &mut self.meta.title,
                    _ => &mut self.meta.summary,
                };
                Meta::push(field, &collapse_whitespace(&p.content));
                return;
            }
            Tag::Script if p.json_ld => self.json_ld = Some(String::new()),
            Tag::Void => {
                // `<img>`, `<input>` … have no content; an `<hr>`-like break is not implied.
                return;
            }
            Tag::Br => {
                self.br();
                return;
            }
            Tag::Hr => {
                self.boundary(None);
                return;
            }
            _ => {}
        }
        self.imply_end_tags(tag);
        if tag.is_block() {
            self.boundary(Some(tag));
        }
        let hidden = p.hidden || tag.is_skipped();
        let link = tag == Tag::A && p.has_href;
        let hash = if tag == Tag::Other {
            name_hash(&p.name)
        } else {
            0
        };
        let words_start = self.words.len() as u32;
        self.words.extend_from_slice(&p.words);
        self.push(Open {
            tag,
            name_hash: hash,
            hidden,
            link,
            words_start,
        });
    }

    fn push(&mut self, open: Open) {
        self.open[open.tag as usize] += 1;
        if open.tag == Tag::Other {
            *self.open_other.entry(open.name_hash).or_insert(0) += 1;
        }
        if open.hidden {
            self.hiding += 1;
        }
        if open.link {
            self.in_link += 1;
        }
        if open.tag.is_bold() {
            self.in_bold += 1;
        }
        let flag = open.tag.context_flag();
        if flag != 0 {
            self.context_counts[flag.trailing_zeros() as usize] += 1;
        }
        self.stack.push(open);
    }

    fn pop(&mut self) -> Option<Open> {
        let open = *self.stack.last()?;
        if open.tag.is_block() {
            // The text so far belongs inside the element: end the block while
            // the element still counts as open, so that it gets its kind and context.
            self.flush();
        }
        self.stack.pop();
        self.words.truncate(open.words_start as usize);
        self.open[open.tag as usize] -= 1;
        if open.tag == Tag::Other
            && let Some(c) = self.open_other.get_mut(&open.name_hash)
        {
            *c -= 1;
            if *c == 0 {
                self.open_other.remove(&open.name_hash);
            }
        }
        if open.hidden {
            self.hiding -= 1;
        }
        if open.link {
            self.in_link -= 1;
        }
        if open.tag.is_bold() {
            self.in_bold -= 1;
        }
        let flag = open.tag.context_flag();
        if flag != 0 {
            self.context_counts[flag.trailing_zeros() as usize] -= 1;
        }
        if open.tag.is_block() {
            self.block_tag = self.innermost_block();
        }
        Some(open)
    }

    /// Pops up to and including the innermost open element matching `want`.
    fn pop_until(&mut self, want: impl Fn(&Open) -> bool) {
        while let Some(open) = self.pop() {
            if want(&open) {
                break;
            }
        }
    }

    /// The implied end tags of the HTML tree builder that matter for text:
    /// a new `p`, `li`, `dt`/`dd`, cell, row, `option` or heading closes
    /// the previous one if it is still open within the same list or table.
    fn imply_end_tags(&mut self, tag: Tag) {
        use Tag::*;
        // The elements whose start tag closes a `p` "in button scope" (HTML § 13.2.6.4.7).
        let closes_p = tag.is_block()
            && !matches!(
                tag,
                Td | Th | Tr | Tbody | Thead | Tfoot | Caption | Option | Optgroup | Body | Html
            );
        if closes_p && self.open[P as usize] > 0 {
            self.close_within(
                |t| t == P,
                |t| matches!(t, Table | Td | Th | Caption | Button | Html | Template),
            );
        }
        match tag {
            Li if self.open[Li as usize] > 0 => {
                self.close_within(|t| t == Li, |t| matches!(t, Ul | Ol | Menu | Dir | Table))
            }
            Dt | Dd => self.close_within(|t| matches!(t, Dt | Dd), |t| matches!(t, Dl | Table)),
            Td | Th => self.close_within(|t| matches!(t, Td | Th), |t| t == Table),
            Tr => self.close_within(|t| t == Tr, |t| t == Table),
            Tbody | Thead | Tfoot => {
                self.close_within(|t| matches!(t, Tbody | Thead | Tfoot), |t| t == Table)
            }
            Option => self.close_within(
                |t| t == Option,
                |t| matches!(t, Select | Datalist | Optgroup),
            ),
            t if t.is_heading() && self.stack.last().is_some_and(|o| o.tag.is_heading()) => {
                self.pop();
            }
            _ => {}
        }
    }

    /// Closes the innermost element matching `target` if no element matching
    /// `barrier` is open inside it. Looks at most a few levels deep, where
    /// implied end tags live; deeper mismatches are left to end tags.
    fn close_within(&mut self, target: impl Fn(Tag) -> bool, barrier: impl Fn(Tag) -> bool) {
        const LOOK: usize = 16;
        let n = self.stack.len();
        let mut found = None;
        for i in (n.saturating_sub(LOOK)..n).rev() {
            let t = self.stack[i].tag;
            if target(t) {
                found = Some(i);
                break;
            }
            if barrier(t) {
                return;
            }
        }
        if let Some(i) = found {
            while self.stack.len() > i {
                self.pop();
            }
        }
    }

    fn end_tag(&mut self, name: &[u8]) {
        let tag = Tag::from_name(name);
        if tag == Tag::Script
            && let Some(json) = self.json_ld.take()
        {
            self.meta.add_json_ld(&json);
        }
        match tag {
            Tag::Br => {
                // `</br>` is a `<br>` to the HTML parser.
                self.br();
                return;
            }
            Tag::P if self.open[Tag::P as usize] == 0 => {
                // `</p>` without `<p>` is an empty paragraph: a boundary.
                self.boundary(None);
                return;
            }
            Tag::Void | Tag::Hr => return,
            _ => {}
        }
        if tag == Tag::Other {
            let h = name_hash(name);
            if self.open_other.get(&h).copied().unwrap_or(0) == 0 {
                return;
            }
            self.pop_until(|o| o.tag == Tag::Other && o.name_hash == h);
        } else {
            if self.open[tag as usize] == 0 {
                // A stray end tag is a parse error that the tree builder ignores.
                return;
            }
            self.pop_until(|o| o.tag == tag);
        }
    }

    fn br(&mut self) {
        if self.hiding > 0 {
            return;
        }
        self.brs += 1;
        if self.brs >= 2 {
            self.boundary(None);
        } else {
            self.space = true;
        }
    }

    fn in_pre(&self) -> bool {
        self.context_counts[Context::PRE.trailing_zeros() as usize] > 0
    }

    fn text(&mut self, value: &[u8]) {
        if self.hiding > 0 {
            if let Some(j) = &mut self.json_ld {
                if j.len() + value.len() <= 16 * META_MAX_CHARS {
                    j.push_str(&String::from_utf8_lossy(value));
                }
            } else if self.open[Tag::Title as usize] > 0 && self.title.len() < META_MAX_CHARS {
                // Held until the end: the tokenizer may split the text anywhere.
                self.title.push_str(&String::from_utf8_lossy(value));
            }
            return;
        }
        let s = String::from_utf8_lossy(value);
        let pre = self.in_pre();
        let link = self.in_link > 0;
        let bold = self.in_bold > 0;
        for c in s.chars() {
            match c {
                '\n' if pre => {
                    self.pre_newlines += 1;
                    if self.pre_newlines >= 2 {
                        self.boundary(None);
                    } else {
                        self.space = true;
                    }
                }
                c if c.is_whitespace() => self.space = true,
                '\u{AD}' | '\u{200B}' | '\u{200C}' | '\u{200D}' | '\u{2060}' | '\u{FEFF}' => {}
                c if c.is_control() => {}
                c => {
                    if self.space && !self.text.is_empty() {
                        self.text.push(' ');
                    }
                    self.space = false;
                    self.brs = 0;
                    self.pre_newlines = 0;
                    self.text.push(c);
                    self.chars += 1;
                    if link {
                        self.link_chars += 1;
                    }
                    if bold {
                        self.bold_chars += 1;
                    }
                }
            }
        }
    }

    /// Ends the current block, if it has text; `opener` starts the next one.
    fn boundary(&mut self, opener: Option<Tag>) {
        self.flush();
        self.block_tag = opener.or_else(|| self.innermost_block());
    }

    /// Ends the current block, if it has text.
    fn flush(&mut self) {
        if !self.text.is_empty() {
            let kind = if (1..=6).any(|i| self.open[Tag::H1 as usize + i - 1] > 0) {
                Kind::H
            } else if self.open[Tag::Li as usize] > 0 {
                Kind::L
            } else if self.bold_chars == self.chars
                && self.text.split(' ').count() <= BOLD_HEADING_MAX_WORDS
            {
                Kind::H
            } else {
                Kind::P
            };
            let mut context = 0u32;
            for (bit, &count) in self.context_counts.iter().enumerate() {
                if count > 0 {
                    context |= 1 << bit;
                }
            }
            self.out.push(Block {
                kind,
                text: std::mem::take(&mut self.text),
                link_chars: self.link_chars,
                tag: self.block_tag.unwrap_or(Tag::Body),
                context: Context(context),
                attrs: self.block_attrs(),
            });
        }
        self.link_chars = 0;
        self.bold_chars = 0;
        self.chars = 0;
        self.space = false;
        self.brs = 0;
        self.pre_newlines = 0;
    }

    /// The attribute words of the nearest enclosing elements: the last
    /// [`ATTR_WORDS`] of the stack of words, nearest first.
    fn block_attrs(&self) -> Vec<u32> {
        let from = self.words.len().saturating_sub(ATTR_WORDS);
        let mut v = self.words[from..].to_vec();
        v.sort_unstable();
        v.dedup();
        v
    }

    fn innermost_block(&self) -> Option<Tag> {
        self.stack
            .iter()
            .rev()
            .take(8)
            .map(|o| o.tag)
            .find(|t| t.is_block())
    }

    fn finish(mut self) -> Page {
        self.boundary(None);
        let title = collapse_whitespace(&self.title);
        Meta::push(&mut self.meta.title, &title);
        Page {
            blocks: self.out,
            meta: self.meta,
        }
    }
}

fn collapse_whitespace(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

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

/// Whether an inline style hides the element (`display:none`, `visibility:hidden`).
fn style_hides(style: &[u8]) -> bool {
    let compact: Vec<u8> = style
        .iter()
        .filter(|b| !b.is_ascii_whitespace())
        .map(|b| b.to_ascii_lowercase())
        .collect();
    let has = |n: &[u8]| compact.windows(n.len()).any(|w| w == n);
    has(b"display:none") || has(b"visibility:hidden")
}

#[cfg(test)]
mod tests {
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
             <p>keep<!-- not this --> <img src=a.gif alt=\"alt text\">this</p><noscript>enable js</noscript></body>",
        );
        assert_eq!(got, vec![p("keep this")]);
    }

    #[test]
    fn hidden_text_is_dropped() {
        let got = texts(
            "<div style=\"display: none\">secret <p>more secret</p></div><p hidden>also</p>\
             <span style='VISIBILITY:hidden'>no</span><p>shown</p>",
        );
        assert_eq!(got, vec![p("shown")]);
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
