//! The walker: one pass over `html5gum`'s tokens with a stack of open
//! elements counted by name, turning the token stream into blocks.

mod metadata;
mod text;

use html5gum::emitters::callback::CallbackEvent;

use super::tokenizer::{StartTag, Text, TokenSink, Tokenizer};

use super::attrs::{
    ATTR_WORDS, attribute_words, name_hash, names_comments, streamed_boundary_id, style_hides,
};
use super::meta::META_MAX_CHARS;
use super::meta::Meta;
use super::metadata::{CaptureKind, Collector, Field};
use super::tags::{TAG_COUNT, Tag};
use super::tree::{BlockWords, Container, Node, containers};
use super::{
    BOLD_HEADING_MAX_WORDS, Block, Cell, CodeLanguage, Context, Kind, Limit, MAX_BLOCKS,
    MAX_ELEMENTS, Page, Structure,
};

/// One open element on the stack.
#[derive(Debug, Clone, Copy)]
pub(super) struct Open {
    tag: Tag,
    /// For `Tag::Other`, a hash of the name, so end tags find their element.
    name_hash: u32,
    hidden: bool,
    /// An `a` with an `href`.
    link: bool,
    /// Where its attribute words start in `Walker::words`.
    words_start: u32,
    /// The container node it opened ([`NO_NODE`] if not a block-level element).
    node: u32,
    /// Its attribute words name a comment section ([`Context::COMMENT`]).
    comment: bool,
    /// Microdata of another's post: `itemprop` comment, or an answer
    /// (`suggestedAnswer`, `acceptedAnswer`). Its dates are not the page's
    /// (metadata only; the classifier's contexts do not read it). Its
    /// authors are still read: forums such as NodeBB mark the thread's own
    /// first post as a comment, and its author is the page's.
    reply: bool,
}

/// The counter of [`Context::COMMENT`] in `Walker::context_counts`.
const COMMENT_BIT: usize = Context::COMMENT.trailing_zeros() as usize;

/// [`Open::node`] of an element that is not a container.
const NO_NODE: u32 = u32::MAX;

/// The attributes of the start tag being read that matter to the pass.
#[derive(Default)]
pub(super) struct PendingTag {
    name: Vec<u8>,
    attr: Attr,
    /// An inline style hides it (`display:none`, `visibility:hidden`).
    hidden: bool,
    /// The `hidden` attribute.
    hidden_attr: bool,
    /// The code language its class names ([`CodeLanguage::from_class`]).
    code_language: Option<CodeLanguage>,
    /// Its `id` is that of a streamed server-rendered boundary
    /// ([`streamed_boundary_id`]): shown in spite of `hidden`.
    streamed: bool,
    has_href: bool,
    /// Hashed words of the `class`, `id` and `role` attributes.
    words: Vec<u32>,
    /// Which [`Meta`] field a `<meta>` tag's `content` goes to.
    meta_field: MetaField,
    /// A `<meta>` tag's `content`.
    content: String,
    /// A `<script type="application/ld+json">`.
    json_ld: bool,
    /// What [`super::Metadata`] reads of the tag ([`TagMetadata`]).
    md: TagMetadata,
    /// An `<a>`'s `href`, an `<img>`'s `src` and `alt`, when recorded
    /// ([`super::inline`]).
    href: Option<String>,
    src: Option<String>,
    alt: String,
}

/// The attributes of a start tag that page metadata reads, each bounded.
#[derive(Default)]
pub(super) struct TagMetadata {
    /// A `<meta>` tag's `name`, `property` and `itemprop`, lower-cased.
    meta_keys: Vec<String>,
    /// `itemprop` of another element, lower-cased.
    itemprop: String,
    /// `rel` of a `<link>` or `<a>`, lower-cased.
    rel: String,
    /// `href` of a `<link>`.
    href: String,
    /// `lang` of `<html>`.
    lang: String,
    /// `datetime` of `<time>`, and its `pubdate` attribute.
    datetime: String,
    pubdate: bool,
    /// An `<a>` whose `href` is an author's page (`/author/…`).
    author_href: bool,
}

/// Most bytes of an attribute value kept for metadata (`content` has its own bound).
const MD_ATTR_MAX: usize = 2048;

#[derive(Default, Clone, Copy, PartialEq)]
pub(super) enum MetaField {
    #[default]
    None,
    Title,
    Summary,
}

#[derive(Default, Clone, Copy, PartialEq)]
pub(super) enum Attr {
    #[default]
    None,
    Style,
    Href,
    /// `class` or `role`: words that name the element's purpose.
    Naming,
    /// `id`: words as [`Attr::Naming`], and [`streamed_boundary_id`].
    Id,
    /// `class`: words as [`Attr::Naming`], and [`CodeLanguage::from_class`].
    Class,
    /// `name`, `property` or `itemprop` of a `<meta>` tag.
    MetaName,
    /// `content` of a `<meta>` tag.
    MetaContent,
    /// `type` of a `<script>`.
    ScriptType,
    /// `itemprop` of an element other than `<meta>`.
    ItemProp,
    /// `rel` of a `<link>` or `<a>`.
    Rel,
    /// `href` of a `<link>`.
    LinkHref,
    /// `lang` of `<html>`.
    Lang,
    /// `datetime` of `<time>`.
    Datetime,
    /// `src` and `alt` of an `<img>`, when images are recorded.
    ImgSrc,
    ImgAlt,
}

#[derive(Default)]
pub(super) struct Walker {
    out: Vec<Block>,
    stack: Vec<Open>,
    /// Open elements per tag (index `Tag as usize`).
    open: Vec<u32>,
    /// Open `Other` elements per name hash.
    open_other: rustc_hash::FxHashMap<u32, u32>,
    /// Open elements that hide their content (hidden or skipped).
    hiding: u32,
    /// How many open elements are [`Open::reply`].
    in_reply: u32,
    /// Open `a` elements with an `href`.
    in_link: u32,
    /// Open bold elements (`b`, `strong`, `big`).
    in_bold: u32,
    /// The attribute words of the open elements, as a stack (see `Open::words_start`).
    words: Vec<u32>,
    /// Context flag counters, one per bit of [`Context`].
    context_counts: [u32; 12],
    /// The start tag being read, boxed: it is handed to `start_tag` and
    /// back for every tag, and moving the whole struct (some 300 bytes)
    /// twice a tag showed in profiles as memmove.
    pending: Box<PendingTag>,
    /// A second box for `pending` to swap with.
    spare: Option<Box<PendingTag>>,
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
    /// The page's metadata for output ([`super::Metadata`]).
    metadata: Collector,
    /// The tree of block-level elements (node 0 is the document).
    nodes: Vec<Node>,
    /// The innermost open node.
    node: u32,
    /// Words and node of each block of `out`.
    block_words: Vec<BlockWords>,
    /// The raw content of the visible `<noscript>` being read.
    noscript: Option<String>,
    /// Reading a `<noscript>`'s content as markup ([`Walker::replay`]).
    replaying: bool,
    /// The open lists, innermost last: whether each is ordered, and its
    /// number ([`Structure::list`]).
    lists: Vec<(bool, u32)>,
    /// Lists opened so far.
    list_count: u32,
    /// The open `li`s, innermost last: their numbers ([`Structure::item`])
    /// and whether a heading or an `article` has opened inside
    /// ([`Structure::card`]).
    items: Vec<(u32, bool)>,
    /// `li`s opened so far.
    item_count: u32,
    /// The open tables, innermost last: (number, current row, current
    /// cell of the row).
    tables: Vec<(u32, u32, u32)>,
    /// Code languages named by open elements, innermost last: (the stack
    /// depth of the element, its language).
    code_languages: Vec<(usize, CodeLanguage)>,
    /// The language of an element closed inside the block being read.
    block_code_language: Option<CodeLanguage>,
    /// Tables opened so far.
    table_count: u32,
    /// The inline marks of the block being read.
    pub(super) inline: super::inline::Recorder,
    /// Elements opened so far ([`MAX_ELEMENTS`]).
    elements: usize,
    /// The limit that stopped the pass ([`Page::truncated`]); from then
    /// on no element is opened and no text read ([`Walker::stop`]).
    truncated: Option<Limit>,
    /// A buffer for decoded text and values.
    scratch: String,
}

impl TokenSink for Walker {
    fn start_tag(&mut self, tag: &StartTag<'_>) {
        self.event(CallbackEvent::OpenStartTag { name: tag.name });
        let mut buf = std::mem::take(&mut self.scratch);
        for (name, value) in tag.attrs() {
            self.event(CallbackEvent::AttributeName { name });
            let v = value.decoded(&mut buf);
            if !v.is_empty() {
                self.event(CallbackEvent::AttributeValue {
                    value: v.as_bytes(),
                });
            }
        }
        self.scratch = buf;
        self.event(CallbackEvent::CloseStartTag {
            self_closing: tag.self_closing,
        });
    }

    fn end_tag(&mut self, name: &[u8]) {
        self.end_tag(name);
    }

    fn text(&mut self, text: Text<'_>) {
        let mut buf = std::mem::take(&mut self.scratch);
        self.text(text.decoded(&mut buf).as_bytes());
        self.scratch = buf;
    }
}

/// Most bytes of one `<noscript>` read as markup: a bound on what a hostile
/// page can make the pass hold (the page itself is already in memory).
const NOSCRIPT_MAX: usize = 4 << 20;

impl Walker {
    /// A walker at the start of a page.
    pub(super) fn new() -> Walker {
        Walker {
            open: vec![0; TAG_COUNT],
            nodes: vec![Node::root()],
            ..Walker::default()
        }
    }

    pub(super) fn event(&mut self, ev: CallbackEvent<'_>) {
        match ev {
            CallbackEvent::OpenStartTag { name } => {
                // A fresh tag in the last tag's buffers (a tag's name and
                // words allocated anew were most of the walker's malloc).
                let (mut buf, mut words) = (
                    std::mem::take(&mut self.pending.name),
                    std::mem::take(&mut self.pending.words),
                );
                buf.clear();
                buf.extend_from_slice(name);
                words.clear();
                *self.pending = PendingTag {
                    name: buf,
                    words,
                    ..PendingTag::default()
                };
            }
            CallbackEvent::AttributeName { name } => {
                self.pending.attr = match name {
                    b"style" => Attr::Style,
                    b"href" => Attr::Href,
                    b"id" => Attr::Id,
                    b"class" => Attr::Class,
                    b"role" => Attr::Naming,
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
                        self.pending.hidden_attr = true;
                        Attr::None
                    }
                    b"itemprop" => Attr::ItemProp,
                    b"rel" => Attr::Rel,
                    b"lang" if self.pending.name.eq_ignore_ascii_case(b"html") => Attr::Lang,
                    b"datetime" => Attr::Datetime,
                    b"pubdate" => {
                        self.pending.md.pubdate = true;
                        Attr::None
                    }
                    b"src" | b"alt"
                        if self.inline.marks.images
                            && self.pending.name.eq_ignore_ascii_case(b"img") =>
                    {
                        if name == b"src" {
                            Attr::ImgSrc
                        } else {
                            Attr::ImgAlt
                        }
                    }
                    _ => Attr::None,
                };
                if self.pending.attr == Attr::Href {
                    self.pending.has_href = true;
                    if self.pending.name.eq_ignore_ascii_case(b"link") {
                        self.pending.attr = Attr::LinkHref;
                    }
                }
            }
            CallbackEvent::AttributeValue { value } => match self.pending.attr {
                Attr::Style if style_hides(value) => self.pending.hidden = true,
                Attr::Naming => attribute_words(value, &mut self.pending.words),
                Attr::Class => {
                    attribute_words(value, &mut self.pending.words);
                    let code = self.pending.name.eq_ignore_ascii_case(b"pre")
                        || self.pending.name.eq_ignore_ascii_case(b"code");
                    if code || value.len() > 17 {
                        self.pending.code_language = CodeLanguage::from_class(value, code);
                    }
                }
                Attr::Id => {
                    self.pending.streamed = streamed_boundary_id(value);
                    attribute_words(value, &mut self.pending.words);
                }
                Attr::MetaName => {
                    let v = value.to_ascii_lowercase();
                    if v.len() <= 64 && self.pending.md.meta_keys.len() < 4 {
                        let key = String::from_utf8_lossy(v.trim_ascii()).into_owned();
                        self.pending.md.meta_keys.push(key);
                    }
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
                Attr::Href if self.pending.name.eq_ignore_ascii_case(b"a") => {
                    if self.inline.marks.links {
                        self.pending.href = super::inline::value(value);
                    }
                    self.pending.md.author_href = value.len() <= MD_ATTR_MAX
                        && value.windows(8).any(|w| {
                            w.eq_ignore_ascii_case(b"/author/")
                                || w.eq_ignore_ascii_case(b"/authors")
                        })
                }
                Attr::ItemProp | Attr::Rel | Attr::LinkHref | Attr::Lang | Attr::Datetime
                    if value.len() <= MD_ATTR_MAX =>
                {
                    let md = &mut self.pending.md;
                    let v = String::from_utf8_lossy(value).trim().to_string();
                    match self.pending.attr {
                        Attr::ItemProp => md.itemprop = v.to_ascii_lowercase(),
                        Attr::Rel => md.rel = v.to_ascii_lowercase(),
                        Attr::LinkHref => md.href = v,
                        Attr::Lang => md.lang = v,
                        _ => md.datetime = v,
                    }
                }
                Attr::ImgSrc => self.pending.src = super::inline::value(value),
                Attr::ImgAlt => {
                    self.pending.alt = super::inline::value(value)
                        .map(|a| collapse_whitespace(&a))
                        .unwrap_or_default()
                }
                _ => {}
            },
            CallbackEvent::CloseStartTag { .. } => {
                let fresh = self.spare.take().unwrap_or_default();
                let p = std::mem::replace(&mut self.pending, fresh);
                self.start_tag(&p);
                // The next tag reads into the box of the tag before this one
                // (its buffers reused); this one waits as the spare.
                self.spare = Some(p);
            }
            CallbackEvent::EndTag { name } => self.end_tag(name),
            CallbackEvent::String { value } => self.text(value),
            CallbackEvent::Comment { .. }
            | CallbackEvent::Doctype { .. }
            | CallbackEvent::Error(_) => {}
        }
    }

    pub(super) fn start_tag(&mut self, p: &PendingTag) {
        let tag = Tag::from_name(&p.name);
        self.metadata.capture_break();
        self.metadata_tag(tag, p);
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
                if let Some(src) = &p.src
                    && self.hiding == 0
                    && !p.hidden
                    && (!p.hidden_attr || p.streamed)
                {
                    self.inline
                        .image(src.clone(), p.alt.clone(), self.text.len());
                }
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
        if self.elements >= MAX_ELEMENTS {
            return self.stop(Limit::Elements);
        }
        self.elements += 1;
        self.imply_end_tags(tag);
        if tag.is_block() {
            self.boundary(Some(tag));
        }
        if tag == Tag::Noscript && !self.replaying && self.hiding == 0 {
            self.noscript = Some(String::new());
        }
        let hidden = p.hidden || (p.hidden_attr && !p.streamed) || tag.is_skipped();
        let link = tag == Tag::A && p.has_href;
        let hash = if tag == Tag::Other {
            name_hash(&p.name)
        } else {
            0
        };
        let words_start = self.words.len() as u32;
        if self
            .metadata
            .capturing()
            .is_some_and(|d| self.stack.len() < d)
        {
            self.metadata.end_capture();
        }
        self.words.extend_from_slice(&p.words);
        let comment = names_comments(&p.words);
        let node = if tag.is_block() {
            let in_comment = comment || self.context_counts[COMMENT_BIT] > 0;
            self.nodes
                .push(Node::new(self.node, tag, &p.words, in_comment));
            self.node = (self.nodes.len() - 1) as u32;
            self.node
        } else {
            NO_NODE
        };
        self.push(Open {
            tag,
            name_hash: hash,
            hidden,
            link,
            words_start,
            node,
            comment,
            reply: p
                .md
                .itemprop
                .split_ascii_whitespace()
                .any(|w| matches!(w, "comment" | "suggestedanswer" | "acceptedanswer")),
        });
        if link {
            self.inline.open_link(p.href.clone());
        }
        if let Some(l) = p.code_language {
            self.code_languages.push((self.stack.len(), l));
        }
        match tag {
            Tag::Ul | Tag::Ol | Tag::Menu | Tag::Dir => {
                self.list_count = self.list_count.saturating_add(1);
                self.lists.push((tag == Tag::Ol, self.list_count));
            }
            Tag::Li => {
                self.item_count = self.item_count.saturating_add(1);
                self.items.push((self.item_count, false));
            }
            t if t == Tag::Article || t.is_heading() => {
                if let Some(item) = self.items.last_mut() {
                    item.1 = true;
                }
            }
            Tag::Table => {
                self.table_count += 1;
                self.tables.push((self.table_count, 0, 0));
            }
            Tag::Tr => {
                if let Some(t) = self.tables.last_mut() {
                    t.1 += 1;
                    t.2 = 0;
                }
            }
            Tag::Td | Tag::Th => {
                if let Some(t) = self.tables.last_mut() {
                    t.2 = t.2.saturating_add(1);
                }
            }
            _ => {}
        }
        self.metadata_capture(p);
    }

    pub(super) fn push(&mut self, open: Open) {
        self.open[open.tag as usize] += 1;
        if open.tag == Tag::Other {
            *self.open_other.entry(open.name_hash).or_insert(0) += 1;
        }
        if open.hidden {
            self.hiding += 1;
        }
        if open.reply {
            self.in_reply += 1;
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
        if open.comment {
            self.context_counts[COMMENT_BIT] += 1;
        }
        self.stack.push(open);
    }

    pub(super) fn pop(&mut self) -> Option<Open> {
        let open = *self.stack.last()?;
        if open.tag.is_block() {
            // The text so far belongs inside the element: end the block while
            // the element still counts as open, so that it gets its kind and context.
            self.flush();
        }
        self.stack.pop();
        if self
            .code_languages
            .last()
            .is_some_and(|&(depth, _)| depth > self.stack.len())
        {
            // `<pre><code class=…>` closes its `code` before the block ends.
            self.block_code_language = self.code_languages.pop().map(|(_, l)| l);
        }
        match open.tag {
            Tag::Ul | Tag::Ol | Tag::Menu | Tag::Dir => {
                self.lists.pop();
            }
            Tag::Li => {
                self.items.pop();
            }
            Tag::Table => {
                self.tables.pop();
            }
            _ => {}
        }
        if open.node != NO_NODE {
            self.node = self.nodes[open.node as usize].parent;
        }
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
        if open.reply {
            self.in_reply -= 1;
        }
        if open.link {
            self.in_link -= 1;
            self.inline.close_link(self.text.len());
        }
        if open.tag.is_bold() {
            self.in_bold -= 1;
        }
        let flag = open.tag.context_flag();
        if flag != 0 {
            self.context_counts[flag.trailing_zeros() as usize] -= 1;
        }
        if open.comment {
            self.context_counts[COMMENT_BIT] -= 1;
        }
        if open.tag.is_block() {
            self.block_tag = self.innermost_block();
        }
        Some(open)
    }

    /// Pops up to and including the innermost open element matching `want`.
    pub(super) fn pop_until(&mut self, want: impl Fn(&Open) -> bool) {
        while let Some(open) = self.pop() {
            if want(&open) {
                break;
            }
        }
    }

    /// The implied end tags of the HTML tree builder that matter for text:
    /// a new `p`, `li`, `dt`/`dd`, cell, row, `option` or heading closes
    /// the previous one if it is still open within the same list or table.
    pub(super) fn imply_end_tags(&mut self, tag: Tag) {
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
    pub(super) fn close_within(
        &mut self,
        target: impl Fn(Tag) -> bool,
        barrier: impl Fn(Tag) -> bool,
    ) {
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

    pub(super) fn end_tag(&mut self, name: &[u8]) {
        let tag = Tag::from_name(name);
        if tag == Tag::Script
            && let Some(json) = self.json_ld.take()
        {
            match serde_json::from_str::<serde_json::Value>(&json) {
                Ok(v) => {
                    self.meta.add_json_ld(&v);
                    self.metadata.json_ld(&v);
                }
                // JSON with raw control characters (a line break or a tab
                // inside a string) is invalid, but common in JSON-LD, and
                // readers of structured data accept it: read with them as
                // spaces. For the page's metadata only: the classifier's
                // inputs stay those its models were trained on.
                Err(_) => {
                    let spaced: String = json
                        .chars()
                        .map(|c| if c < ' ' { ' ' } else { c })
                        .collect();
                    if let Ok(v) = serde_json::from_str::<serde_json::Value>(&spaced) {
                        self.metadata.json_ld(&v);
                    }
                }
            }
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
        if tag == Tag::Noscript
            && let Some(content) = self.noscript.take()
        {
            self.replay(&content);
        }
    }

    /// Reads a `<noscript>`'s content as markup, in place. The tokenizer
    /// (like a browser running scripts) reads it as raw text; a browser
    /// without scripts, a crawler and lxml read it as markup, and sites that
    /// render with JavaScript put the page's text there for them: Discourse
    /// forums serve every post of a thread inside `<noscript>`. A
    /// `<noscript>` inside it stays hidden. Its content is a subtree:
    /// elements it leaves open are closed at its end.
    fn replay(&mut self, html: &str) {
        self.replaying = true;
        let depth = self.stack.len();
        Tokenizer::default().run(html, self);
        while self.stack.len() > depth {
            self.pop();
        }
        self.replaying = false;
    }

    pub(super) fn br(&mut self) {
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

    /// Where the block being ended sits in the document's structure.
    fn structure(&self) -> Structure {
        let tag = self.block_tag.unwrap_or(Tag::Body);
        let lists = self.lists.len();
        Structure {
            heading: (1..=6u8)
                .find(|&i| self.open[Tag::H1 as usize + i as usize - 1] > 0)
                .unwrap_or(0),
            list_depth: lists.min(u8::MAX as usize) as u8,
            ordered: self.lists.last().is_some_and(|&(ordered, _)| ordered),
            list: self.lists.last().map_or(0, |&(_, list)| list),
            item: self.items.last().map_or(0, |&(item, _)| item),
            card: self.items.last().is_some_and(|&(_, card)| card),
            quote: self.open[Tag::Blockquote as usize] > 0,
            pre: self.in_pre(),
            code_language: self
                .code_languages
                .last()
                .map(|&(_, l)| l)
                .or(self.block_code_language)
                .filter(|_| self.in_pre()),
            // A block in a cell (the cell's own text, or a paragraph, list
            // item or heading inside it) belongs to the cell; whether the
            // table holds data or lays out the page is the Markdown
            // writer's call, once it sees all the table's cells.
            cell: match (tag, self.tables.last()) {
                (Tag::Td | Tag::Th, Some(&(table, row, column))) => Some(Cell {
                    table,
                    row,
                    column,
                    header: tag == Tag::Th,
                }),
                (_, Some(&(table, row, column)))
                    if column > 0
                        && self.open[Tag::Td as usize] + self.open[Tag::Th as usize] > 0 =>
                {
                    Some(Cell {
                        table,
                        row,
                        column,
                        header: self.open[Tag::Th as usize] > 0,
                    })
                }
                _ => None,
            },
        }
    }

    /// Ends the current block, if it has text; `opener` starts the next one.
    pub(super) fn boundary(&mut self, opener: Option<Tag>) {
        self.flush();
        self.block_tag = opener.or_else(|| self.innermost_block());
    }

    /// Ends the current block, if it has text.
    pub(super) fn flush(&mut self) {
        if !self.text.is_empty() && self.out.len() >= MAX_BLOCKS {
            self.drop_block_past_the_limit();
        }
        if !self.text.is_empty() {
            let kind = if (1..=6).any(|i| self.open[Tag::H1 as usize + i - 1] > 0) {
                Kind::H
            } else if self.open[Tag::Li as usize] > 0 {
                Kind::L
            } else if self.bold_chars == self.chars && words(&self.text) <= BOLD_HEADING_MAX_WORDS {
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
            let words = words(&self.text) as u32;
            self.block_words.push(BlockWords {
                node: self.node,
                words,
                link_share: self.link_chars as f32 / self.chars.max(1) as f32,
            });
            let structure = self.structure();
            let inline = self.inline.take(self.text.len());
            self.out.push(Block {
                kind,
                structure,
                inline,
                container: Container::default(),
                // A copy of exactly its length: the walker's buffer keeps
                // its capacity for the next block (a fresh buffer grown by
                // doubling for every block was 3 % of `clean` in realloc).
                text: self.text.as_str().to_owned(),
                link_chars: self.link_chars,
                tag: self.block_tag.unwrap_or(Tag::Body),
                context: Context(context),
                attrs: self.block_attrs(),
            });
            self.text.clear();
        }
        self.link_chars = 0;
        self.bold_chars = 0;
        self.chars = 0;
        self.space = false;
        self.brs = 0;
        self.block_code_language = None;
        self.pre_newlines = 0;
    }

    /// Stops the pass at `limit`: from here on no element is opened (the
    /// element limit) and no text is read (the walker hides the rest of the
    /// page as it hides a `hidden` element's content, by one more hiding
    /// element that never closes), so nothing grows. Out of line, and no
    /// look per event: the hot paths only compare a count.
    #[cold]
    #[inline(never)]
    fn stop(&mut self, limit: Limit) {
        if self.truncated.is_none() {
            self.truncated = Some(limit);
            self.hiding += 1;
        }
    }

    /// Past [`MAX_BLOCKS`], the block being ended is dropped (with its
    /// marks) and the pass stops.
    #[cold]
    #[inline(never)]
    fn drop_block_past_the_limit(&mut self) {
        self.inline.take(self.text.len());
        self.text.clear();
        self.stop(Limit::Blocks);
    }

    /// The attribute words of the nearest enclosing elements: the last
    /// [`ATTR_WORDS`] of the stack of words, nearest first.
    pub(super) fn block_attrs(&self) -> Vec<u32> {
        let from = self.words.len().saturating_sub(ATTR_WORDS);
        let mut v = self.words[from..].to_vec();
        v.sort_unstable();
        v.dedup();
        v
    }

    pub(super) fn innermost_block(&self) -> Option<Tag> {
        self.stack
            .iter()
            .rev()
            .take(8)
            .map(|o| o.tag)
            .find(|t| t.is_block())
    }

    pub(super) fn finish(mut self) -> Page {
        if let Some(content) = self.noscript.take() {
            // An unclosed `<noscript>` ends with the page.
            self.pop_until(|o| o.tag == Tag::Noscript);
            self.replay(&content);
        }
        self.boundary(None);
        let title = collapse_whitespace(&self.title);
        Meta::push(&mut self.meta.title, &title);
        self.metadata.title_tag(&title);
        let h1: Vec<&str> = self
            .out
            .iter()
            .filter(|b| {
                b.tag == Tag::H1
                    && !b.context.has(Context::NAV)
                    && !b.context.has(Context::ASIDE)
                    && !b.context.has(Context::FOOTER)
            })
            .take(3)
            .map(|b| b.text.as_str())
            .collect();
        let metadata = std::mem::take(&mut self.metadata).finish(&h1);
        for (block, c) in self
            .out
            .iter_mut()
            .zip(containers(&self.nodes, &self.block_words))
        {
            block.container = c;
        }
        Page {
            blocks: self.out,
            meta: self.meta,
            metadata,
            truncated: self.truncated,
        }
    }
}

pub(super) fn collapse_whitespace(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The words of a block's text, whose words the pass joins with single
/// spaces: its spaces plus one (as `split(' ').count()`, which a profile
/// showed at 3 % of `clean`; a byte count vectorises).
fn words(text: &str) -> usize {
    text.bytes().filter(|&b| b == b' ').count() + 1
}
