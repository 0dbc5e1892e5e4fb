//! The walker's shared state, which consumers read: the stack of open
//! elements with counters by tag and by context, the attribute words of the
//! open elements (hashed only when someone reads them), and the text of the
//! block being read.

use rustc_hash::FxHashMap;

use super::attrs::{ATTR_WORDS, attribute_words, names_comments};
use super::tags::{TAG_COUNT, Tag};
use super::tokenizer::StartTag;
use super::{Block, Context};

/// The namespace of an open element, and what it is to the tree builder's
/// dispatch (`walk::foreign`'s module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(in crate::html) enum Space {
    /// An HTML element.
    #[default]
    Html,
    /// An SVG element.
    Svg,
    /// SVG `foreignObject`, `desc`, `title`: HTML integration points.
    SvgHtml,
    /// A MathML element.
    MathMl,
    /// MathML `mi`, `mo`, `mn`, `ms`, `mtext`: text integration points.
    MathText,
    /// MathML `annotation-xml` (an `svg` inside it starts SVG).
    MathAnnotation,
    /// MathML `annotation-xml` whose `encoding` is HTML: an HTML
    /// integration point.
    MathHtml,
}

/// One open element on the stack.
#[derive(Debug, Clone, Copy)]
pub(in crate::html) struct Open {
    /// The element.
    pub(in crate::html) tag: Tag,
    /// For `Tag::Other`, a hash of the name, so end tags find their element.
    pub(in crate::html) name_hash: u32,
    /// Its namespace (HTML, or foreign: SVG, MathML).
    pub(in crate::html) space: Space,
    /// It hides its content (itself hidden, or an element whose content is
    /// never visible text).
    pub(in crate::html) hidden: bool,
    /// An `a` with an `href`.
    pub(in crate::html) link: bool,
    /// A block-level element that hides itself, read all the same
    /// ([`Context::HIDDEN`]).
    revealed: bool,
    /// Its `class`, `id` and `role` values in `Tree::names`.
    names: (u32, u32),
    /// Where its attribute words start in `Tree::words`, once hashed.
    words_start: u32,
    /// Its attribute words name a comment section ([`Context::COMMENT`]),
    /// once hashed.
    comment: bool,
    /// [`Tree::word_mask`] of its attribute words, once hashed.
    mask: u32,
    /// Special elements (HTML § 13.2.4.2, [`Tag::is_special`]) on the
    /// stack at or below it, itself included.
    specials: u32,
    /// The position ([`Tree::innermost`]) of the innermost special element
    /// at or below it.
    special_at: u32,
    /// The position of the innermost element at or below it that ends the
    /// default scope of HTML § 13.2.4.2 ([`Tag::ends_scope`]).
    scope_at: u32,
    /// The position of the next open HTML element of its name below it.
    prev_same: u32,
    /// Taken off the tree builder's stack ([`Tree::detach`]).
    detached: bool,
    /// Of the special category ([`Open::special`]).
    special: bool,
}

impl Open {
    /// Whether the tree builder has taken the element off its stack
    /// ([`Tree::detach`]).
    pub(in crate::html) fn detached(&self) -> bool {
        self.detached
    }

    /// Whether the element is of the special category (`Tag::is_special`,
    /// and foreign content's integration points), and on the tree
    /// builder's stack.
    pub(in crate::html) fn special(&self) -> bool {
        self.special && !self.detached
    }
}

/// Context flags that elements set by their tag: every bit below this
/// ([`Context::COMMENT`] is counted apart, from attribute words).
const TAG_FLAGS: usize = 16;

/// The state of the walk that consumers read (see the module documentation).
#[derive(Default)]
pub(in crate::html) struct Tree {
    stack: Vec<Open>,
    /// Open elements per tag (index `Tag as usize`).
    open: Vec<u32>,
    /// Open HTML elements per tag: the position of the innermost
    /// ([`Tree::innermost`]; each open element links to the next one of
    /// its name below it, `Open::prev_same`).
    innermost: Vec<u32>,
    /// Open `Other` elements per name hash: how many (of any namespace),
    /// and the position of the innermost HTML one.
    open_other: FxHashMap<u32, (u32, u32)>,
    /// Open elements that hide their content.
    hiding: u32,
    /// Open foreign elements (SVG, MathML).
    foreign: u32,
    /// Open `a` elements with an `href`.
    in_link: u32,
    /// Open bold elements (`b`, `strong`, `big`).
    in_bold: u32,
    /// Open elements per context flag set by tags.
    context_counts: [u32; TAG_FLAGS],
    /// The `class`, `id` and `role` values of the open elements, in stack
    /// order, separated by spaces.
    names: Vec<u8>,
    /// The attribute words of the hashed open elements, in stack order.
    words: Vec<u32>,
    /// The first `hashed` elements of the stack have their words in `words`.
    hashed: usize,
    /// Hashed open elements whose words name a comment section.
    comments: u32,
    /// Bumped whenever `words` changes ([`Tree::words_version`]).
    words_version: u64,
    /// The words of the `class`, `id` and `role` values seen on the page.
    cache: WordCache,
    /// A mask a consumer asks to have computed with the words of each
    /// distinct string ([`Tree::set_word_mask`]).
    word_mask: Option<fn(&[u32]) -> u32>,
    /// The text of the block being read ([`TextState`]).
    pub(in crate::html) block: TextState,
}

/// The block being read: its text and what was counted while writing it.
#[derive(Default)]
pub(in crate::html) struct TextState {
    /// Text of the block, whitespace collapsed.
    pub(in crate::html) text: String,
    /// Whether a space is owed before the next visible character.
    pub(in crate::html) space: bool,
    /// Visible characters inside links.
    pub(in crate::html) link_chars: u32,
    /// Visible characters inside bold elements.
    pub(in crate::html) bold_chars: u32,
    /// Visible characters.
    pub(in crate::html) chars: u32,
    /// The block-level element that opened the block.
    pub(in crate::html) tag: Option<Tag>,
    /// `<br>` seen since the last visible character.
    pub(in crate::html) brs: u32,
    /// Newlines seen in a row inside `pre`.
    pub(in crate::html) pre_newlines: u32,
}

impl Tree {
    /// Has `mask` computed from the attribute words of each string the
    /// tree hashes, once per distinct string, and kept with its words
    /// ([`Tree::top_mask_hashed`]): a consumer that reduces the words to a
    /// mask (the page type's word groups) reads it for the cost of a load.
    pub(in crate::html) fn set_word_mask(&mut self, mask: fn(&[u32]) -> u32) {
        self.word_mask = Some(mask);
        self.cache.clear();
    }

    /// The state at the start of a page, in the buffers of the last one.
    pub(in crate::html) fn reset(&mut self) {
        self.stack.clear();
        self.open.clear();
        self.open.resize(TAG_COUNT, 0);
        self.innermost.clear();
        self.innermost.resize(TAG_COUNT, 0);
        self.open_other.clear();
        self.hiding = 0;
        self.foreign = 0;
        self.in_link = 0;
        self.in_bold = 0;
        self.context_counts = [0; TAG_FLAGS];
        self.names.clear();
        self.words.clear();
        self.hashed = 0;
        self.comments = 0;
        self.words_version += 1;
        self.cache.clear();
        let mut text = std::mem::take(&mut self.block.text);
        text.clear();
        self.block = TextState {
            text,
            ..TextState::default()
        };
    }

    /// How many elements are open.
    #[inline]
    pub(in crate::html) fn depth(&self) -> usize {
        self.stack.len()
    }

    /// The innermost open element.
    #[inline]
    pub(in crate::html) fn top(&self) -> Option<&Open> {
        self.stack.last()
    }

    /// How many elements of `tag` are open.
    #[inline]
    pub(in crate::html) fn count(&self, tag: Tag) -> u32 {
        self.open[tag as usize]
    }

    /// Whether a heading (`h1`–`h6`) of any level is open.
    pub(in crate::html) fn heading_open(&self) -> bool {
        (0..6).any(|i| self.count(Tag::heading(i)) > 0)
    }

    /// How many `Other` elements of this name hash are open.
    pub(in crate::html) fn count_other(&self, name_hash: u32) -> u32 {
        self.open_other.get(&name_hash).map_or(0, |c| c.0)
    }

    /// The position of the innermost open HTML element of `tag` (named
    /// `name_hash` if `Other`): its index on the stack plus one, 0 if none
    /// is open. Positions let the walker answer the tree builder's
    /// questions about scopes and special elements ([`Tree::special_at`],
    /// [`Tree::scope_at`]) in constant time, however deep the stack.
    #[inline]
    pub(in crate::html) fn innermost(&self, tag: Tag, name_hash: u32) -> u32 {
        if tag == Tag::Other {
            self.open_other.get(&name_hash).map_or(0, |c| c.1)
        } else {
            self.innermost[tag as usize]
        }
    }

    /// The position of the innermost open special element (0: none).
    #[inline]
    pub(in crate::html) fn special_at(&self) -> u32 {
        self.stack.last().map_or(0, |o| o.special_at)
    }

    /// How many special elements are open above position `at`.
    #[inline]
    pub(in crate::html) fn specials_above(&self, at: u32) -> u32 {
        let below = if at == 0 {
            0
        } else {
            self.stack[at as usize - 1].specials
        };
        self.stack.last().map_or(0, |o| o.specials) - below
    }

    /// The position of the innermost open element that ends the default
    /// scope (0: none).
    #[inline]
    pub(in crate::html) fn scope_at(&self) -> u32 {
        self.stack.last().map_or(0, |o| o.scope_at)
    }

    /// Hides everything from here to the page's end: one more hiding
    /// level that no element closes ([`super::Walker`]'s limits).
    pub(in crate::html) fn hide_the_rest(&mut self) {
        self.hiding += 1;
    }

    /// How many foreign elements (SVG, MathML) are open.
    #[inline]
    pub(in crate::html) fn foreign(&self) -> u32 {
        self.foreign
    }

    /// Whether an open element hides its content.
    #[inline]
    pub(in crate::html) fn hiding(&self) -> bool {
        self.hiding > 0
    }

    /// Whether an `a` with an `href` is open.
    #[inline]
    pub(in crate::html) fn in_link(&self) -> bool {
        self.in_link > 0
    }

    /// Whether a bold element is open.
    #[inline]
    pub(in crate::html) fn in_bold(&self) -> bool {
        self.in_bold > 0
    }

    /// Whether an element that sets the tag flag `flag` is open (not
    /// [`Context::COMMENT`]: see [`Tree::in_comment`]).
    #[inline]
    pub(in crate::html) fn has(&self, flag: u32) -> bool {
        self.context_counts[flag.trailing_zeros() as usize] > 0
    }

    /// Whether a `pre` (or `listing`, `xmp`, `plaintext`) is open.
    #[inline]
    pub(in crate::html) fn in_pre(&self) -> bool {
        self.has(Context::PRE)
    }

    /// The context flags of the open elements.
    pub(in crate::html) fn context(&mut self) -> Context {
        let mut context = 0u32;
        for (bit, &count) in self.context_counts.iter().enumerate() {
            if count > 0 {
                context |= 1 << bit;
            }
        }
        if self.in_comment() {
            context |= Context::COMMENT;
        }
        Context(context)
    }

    /// Whether an open element's attribute words name a comment section.
    pub(in crate::html) fn in_comment(&mut self) -> bool {
        self.hash_words();
        self.comments > 0
    }

    /// The attribute words of the few nearest open elements (the last
    /// [`ATTR_WORDS`] of all their words, in stack order).
    pub(in crate::html) fn near_words(&mut self) -> &[u32] {
        self.hash_words();
        &self.words[self.words.len().saturating_sub(ATTR_WORDS)..]
    }

    /// The attribute words of the innermost open element.
    pub(in crate::html) fn top_words(&mut self) -> &[u32] {
        self.hash_words();
        let from = self.stack.last().map_or(0, |o| o.words_start as usize);
        &self.words[from..]
    }

    /// The [`Tree::set_word_mask`] mask of the innermost open element's
    /// words when they are hashed already (a consumer read them), else
    /// `None`: reading it hashes nothing.
    pub(in crate::html) fn top_mask_hashed(&self) -> Option<u32> {
        let o = self.stack.last()?;
        (self.word_mask.is_some() && self.top_hashed()).then_some(o.mask)
    }

    /// Whether the innermost open element's words are hashed already (a
    /// consumer read them), so that reading them costs nothing more.
    pub(in crate::html) fn top_hashed(&self) -> bool {
        self.hashed == self.stack.len()
    }

    /// How often the attribute words of the open elements have changed:
    /// equal counts, equal [`Tree::near_words`].
    pub(in crate::html) fn words_version(&self) -> u64 {
        self.words_version
    }

    /// The `class`, `id` and `role` values of the innermost open element,
    /// separated by spaces, as written.
    pub(in crate::html) fn top_names(&self) -> &[u8] {
        self.stack.last().map_or(&[][..], |o| {
            &self.names[o.names.0 as usize..o.names.1 as usize]
        })
    }

    /// The innermost block-level element among the few nearest open ones.
    pub(in crate::html) fn innermost_block(&self) -> Option<Tag> {
        self.stack
            .iter()
            .rev()
            .take(8)
            .map(|o| o.tag)
            .find(|t| t.is_block())
    }

    /// Hashes the attribute words of the open elements not hashed yet. An
    /// element opened and closed between two readers (a `span` inside a
    /// paragraph) is never hashed.
    fn hash_words(&mut self) {
        while self.hashed < self.stack.len() {
            let o = &mut self.stack[self.hashed];
            o.words_start = self.words.len() as u32;
            let names = &self.names[o.names.0 as usize..o.names.1 as usize];
            (o.comment, o.mask) = self.cache.words(names, &mut self.words, self.word_mask);
            if self.words.len() > o.words_start as usize {
                self.words_version += 1;
            }
            if o.comment {
                self.comments += 1;
            }
            self.hashed += 1;
        }
    }

    /// Pushes an element, with the `class`, `id` and `role` values of its
    /// start tag (each non-empty one, in order; hashed when read).
    #[allow(clippy::too_many_arguments)]
    pub(in crate::html) fn push(
        &mut self,
        tag: Tag,
        name_hash: u32,
        space: Space,
        hidden: bool,
        link: bool,
        start: &StartTag<'_>,
        buf: &mut String,
    ) {
        let from = self.names.len() as u32;
        for (name, value) in start.attrs() {
            if matches!(name, b"class" | b"id" | b"role") {
                join_names(
                    &mut self.names,
                    from as usize,
                    value.decoded(buf).as_bytes(),
                );
            }
        }
        let html = space == Space::Html;
        let (special, ends_scope) = if html {
            (tag.is_special(start.name), tag.ends_scope(start.name))
        } else {
            (space.ends_scope(), space.ends_scope())
        };
        let at = self.stack.len() as u32 + 1;
        let below = self.stack.last();
        let mut open = Open {
            tag,
            name_hash,
            space,
            hidden,
            link,
            revealed: false,
            names: (from, self.names.len() as u32),
            words_start: 0,
            comment: false,
            mask: 0,
            specials: below.map_or(0, |o| o.specials) + u32::from(special),
            special_at: if special {
                at
            } else {
                below.map_or(0, |o| o.special_at)
            },
            scope_at: if ends_scope {
                at
            } else {
                below.map_or(0, |o| o.scope_at)
            },
            prev_same: 0,
            detached: false,
            special,
        };
        self.open[tag as usize] += 1;
        if tag == Tag::Other {
            let c = self.open_other.entry(name_hash).or_insert((0, 0));
            c.0 += 1;
            if html {
                open.prev_same = std::mem::replace(&mut c.1, at);
            }
        } else if html {
            open.prev_same = std::mem::replace(&mut self.innermost[tag as usize], at);
        }
        self.hiding += u32::from(hidden);
        self.foreign += u32::from(space.is_foreign());
        self.in_link += u32::from(link);
        self.in_bold += u32::from(tag.is_bold());
        let flag = tag.context_flag();
        if flag != 0 {
            self.context_counts[flag.trailing_zeros() as usize] += 1;
        }
        self.stack.push(open);
    }

    /// Takes the element at position `at` ([`Tree::innermost`]), the
    /// innermost open HTML element of its name, off the tree builder's
    /// stack, where elements are open above it: a `form` that `</form>`
    /// closes. It stays on this stack, and counts as open for what reads
    /// the elements around a block (its content is inside it in the tree),
    /// but no end tag finds it and it is no special element to those
    /// above it; the walker pops it when it is on top again. Each element
    /// is looked at once per `form` below it that is taken off while it is
    /// open, and a `form` is opened only while no other is pointed to
    /// (the walker's form element pointer), so the work stays linear.
    pub(in crate::html) fn detach(&mut self, at: u32) {
        let i = at as usize - 1;
        let open = self.stack[i];
        if self.innermost(open.tag, open.name_hash) == at {
            if open.tag == Tag::Other {
                if let Some(c) = self.open_other.get_mut(&open.name_hash) {
                    c.1 = open.prev_same;
                }
            } else {
                self.innermost[open.tag as usize] = open.prev_same;
            }
        }
        self.stack[i].detached = true;
        // It counted as a special element to those above it.
        let below = if i == 0 {
            0
        } else {
            self.stack[i - 1].special_at
        };
        if open.special_at == at {
            for o in &mut self.stack[i + 1..] {
                o.specials -= 1;
                if o.special_at == at {
                    o.special_at = below;
                }
            }
        }
    }

    /// Marks the element just pushed as a hidden block read all the same:
    /// the blocks inside it are flagged [`Context::HIDDEN`] until it closes.
    pub(in crate::html) fn reveal_top(&mut self) {
        if let Some(open) = self.stack.last_mut()
            && !open.revealed
        {
            open.revealed = true;
            self.context_counts[Context::HIDDEN.trailing_zeros() as usize] += 1;
        }
    }

    /// Pops the innermost element.
    pub(in crate::html) fn pop(&mut self) -> Option<Open> {
        let open = self.stack.pop()?;
        if self.hashed > self.stack.len() {
            self.hashed = self.stack.len();
            if self.words.len() > open.words_start as usize {
                self.words_version += 1;
            }
            self.words.truncate(open.words_start as usize);
            if open.comment {
                self.comments -= 1;
            }
        }
        self.names.truncate(open.names.0 as usize);
        self.open[open.tag as usize] -= 1;
        let html = open.space == Space::Html;
        if open.tag == Tag::Other {
            if let Some(c) = self.open_other.get_mut(&open.name_hash) {
                c.0 -= 1;
                if html {
                    c.1 = open.prev_same;
                }
                if c.0 == 0 {
                    self.open_other.remove(&open.name_hash);
                }
            }
        } else if html {
            self.innermost[open.tag as usize] = open.prev_same;
        }
        self.hiding -= u32::from(open.hidden);
        self.foreign -= u32::from(open.space.is_foreign());
        self.in_link -= u32::from(open.link);
        self.in_bold -= u32::from(open.tag.is_bold());
        let flag = open.tag.context_flag();
        if flag != 0 {
            self.context_counts[flag.trailing_zeros() as usize] -= 1;
        }
        if open.revealed {
            self.context_counts[Context::HIDDEN.trailing_zeros() as usize] -= 1;
        }
        Some(open)
    }

    /// The open elements, innermost last.
    pub(in crate::html) fn stack(&self) -> &[Open] {
        &self.stack
    }

    /// The block being read, as a [`Block`] with its text, tag and link
    /// characters (the consumers fill the rest).
    pub(in crate::html) fn new_block(&self) -> Block {
        Block {
            kind: super::Kind::P,
            // A copy of exactly its length: the walker's buffer keeps its
            // capacity for the next block.
            text: self.block.text.as_str().to_owned(),
            words: 0,
            link_chars: self.block.link_chars,
            tag: self.block.tag.unwrap_or(Tag::Body),
            context: Context::default(),
            attrs: Vec::new(),
            container: super::Container::default(),
            structure: super::Structure::default(),
            inline: None,
        }
    }
}

/// Appends a non-empty `class`, `id` or `role` value to the values of one
/// element in `names` (those from `from` on), a space before it when it is
/// not the first: a space between two values splits their words as hashing
/// them one after the other would. The tree keeps an open element's values
/// so, and the page type's signals join a void element's the same way, so
/// that one string has one key in their caches.
pub(in crate::html) fn join_names(names: &mut Vec<u8>, from: usize, value: &[u8]) {
    if value.is_empty() {
        return;
    }
    if names.len() > from {
        names.push(b' ');
    }
    names.extend_from_slice(value);
}

/// The attribute words of each distinct `class`/`id`/`role` string of a
/// page, hashed once: a page repeats its class lists (every card, row and
/// post of a listing), and looking a string up costs a fraction of
/// splitting and hashing it again. Bounded: past [`WordCache::MAX_WORDS`]
/// words or [`WordCache::MAX_BYTES`] bytes of strings it is emptied and
/// starts over.
#[derive(Default)]
struct WordCache {
    /// A hash of the string → (its start in `names`, its length, its first
    /// word in `words`, its word count, whether they name a comment section,
    /// their [`Tree::word_mask`]).
    index: FxHashMap<u64, (u32, u32, u32, u32, bool, u32)>,
    names: Vec<u8>,
    words: Vec<u32>,
}

impl WordCache {
    /// Most words held.
    const MAX_WORDS: usize = 1 << 16;
    /// Most bytes of strings held.
    const MAX_BYTES: usize = 1 << 20;
    /// Strings shorter than this are split as they come.
    const MIN_LEN: usize = 8;

    fn clear(&mut self) {
        self.index.clear();
        self.names.clear();
        self.words.clear();
    }

    /// Appends the words of `names` to `out`; whether they name a comment
    /// section, and their `mask` (0 without one).
    fn words(
        &mut self,
        names: &[u8],
        out: &mut Vec<u32>,
        mask: Option<fn(&[u32]) -> u32>,
    ) -> (bool, u32) {
        let mask_of = |words: &[u32]| mask.map_or(0, |m| m(words));
        if names.len() < Self::MIN_LEN {
            let from = out.len();
            attribute_words(names, out);
            return (names_comments(&out[from..]), mask_of(&out[from..]));
        }
        let key = {
            use std::hash::{Hash, Hasher};
            let mut h = rustc_hash::FxHasher::default();
            names.hash(&mut h);
            h.finish()
        };
        if let Some(&(at, len, first, count, comment, m)) = self.index.get(&key)
            && &self.names[at as usize..(at + len) as usize] == names
        {
            out.extend_from_slice(&self.words[first as usize..(first + count) as usize]);
            return (comment, m);
        }
        let from = out.len();
        attribute_words(names, out);
        let comment = names_comments(&out[from..]);
        let m = mask_of(&out[from..]);
        if self.words.len() + (out.len() - from) > Self::MAX_WORDS
            || self.names.len() + names.len() > Self::MAX_BYTES
        {
            self.clear();
        }
        let entry = (
            self.names.len() as u32,
            names.len() as u32,
            self.words.len() as u32,
            (out.len() - from) as u32,
            comment,
            m,
        );
        self.names.extend_from_slice(names);
        self.words.extend_from_slice(&out[from..]);
        self.index.insert(key, entry);
        (comment, m)
    }
}
