//! The third layer of the pass: consumers of the walker's events, behind
//! one small trait, dispatched statically (a tuple of consumers is a
//! consumer; every call goes to a concrete type and is inlined).
//!
//! A consumer declares the events it reads in [`Consumer::WANTS`]; the
//! others are never called (the test is on a constant, so it costs
//! nothing). Each consumer keeps its own state and reads the walker's
//! shared state (the stack of open elements, its counters, the attribute
//! words of the open elements, the text of the block being read) through
//! [`Tree`]. A consumer added for a new feature (the page type's signals,
//! say) is a new file and one more member of the tuple in
//! [`super::parse_with`]; the walker's loop does not change.
//!
//! The events, in the order the walker sends them:
//!
//! - [`Consumer::start_tag`]: every start tag, with its attributes, before
//!   the end tags it implies; void elements (`img`, `meta`, `br`, …) only
//!   get this one;
//! - [`Consumer::open`]: an element has been pushed (it is the top of the
//!   stack); [`Consumer::close`]: an element is about to be popped (it is
//!   still on the stack);
//! - [`Consumer::text`]: visible text as the tokenizer ran it, decoded;
//!   [`Consumer::hidden_text`]: the text of hidden content (`title`,
//!   scripts, hidden elements), not decoded;
//! - [`Consumer::visible`], [`Consumer::space`], [`Consumer::pre_newline`],
//!   [`Consumer::pre_indent`]: how the visible text is written into the
//!   block being read (offsets into it);
//! - [`Consumer::boundary`]: a block boundary; with the block when it has
//!   text, for each consumer to fill its part;
//! - [`Consumer::json_ld`]: a JSON-LD script, parsed once for all;
//! - [`Consumer::finish`]: the page has ended; each consumer puts what it
//!   read into the [`Page`].

use super::open::{Open, Tree};
use super::tokenizer::{StartTag, Text};
use super::{Block, Page, Tag};

/// Which events a consumer reads (bits of [`Consumer::WANTS`]).
pub(super) mod wants {
    /// [`super::Consumer::start_tag`].
    pub(crate) const START_TAG: u32 = 1 << 0;
    /// [`super::Consumer::open`].
    pub(crate) const OPEN: u32 = 1 << 1;
    /// [`super::Consumer::close`].
    pub(crate) const CLOSE: u32 = 1 << 2;
    /// [`super::Consumer::text`].
    pub(crate) const TEXT: u32 = 1 << 3;
    /// [`super::Consumer::hidden_text`].
    pub(crate) const HIDDEN_TEXT: u32 = 1 << 4;
    /// [`super::Consumer::visible`], [`super::Consumer::space`],
    /// [`super::Consumer::pre_newline`], [`super::Consumer::pre_indent`].
    pub(crate) const WRITING: u32 = 1 << 5;
    /// [`super::Consumer::boundary`].
    pub(crate) const BOUNDARY: u32 = 1 << 6;
    /// [`super::Consumer::json_ld`].
    pub(crate) const JSON_LD: u32 = 1 << 7;
}

/// A start tag as the walker read it.
pub(super) struct Element<'t, 'a> {
    /// The element.
    pub(super) tag: Tag,
    /// Its name and attributes.
    pub(super) start: &'t StartTag<'a>,
    /// Its own attributes hide it (`hidden`, an inline style), whatever
    /// encloses it.
    pub(super) hides_itself: bool,
    /// An `a` with an `href`.
    pub(super) link: bool,
}

/// The block that a boundary ends: its text and what the walker counted
/// while writing it. Each consumer fills its part of [`BlockEnd::block`].
pub(super) struct BlockEnd<'b> {
    /// The block being made (text, tag, link characters and context set by
    /// the walker before any consumer sees it).
    pub(super) block: &'b mut Block,
    /// Visible characters of its text.
    pub(super) chars: u32,
    /// Visible characters inside bold elements.
    pub(super) bold_chars: u32,
    /// Its words (spaces plus one: the walker joins words with single spaces).
    pub(super) words: u32,
}

/// A reader of the walker's events (see the module documentation). Every
/// method but [`Consumer::finish`] has an empty default.
pub(super) trait Consumer {
    /// The events it reads ([`wants`]).
    const WANTS: u32;

    /// A start tag, before the end tags it implies.
    fn start_tag(&mut self, _el: &Element<'_, '_>, _tree: &mut Tree) {}
    /// An element has been pushed: the top of `tree`.
    fn open(&mut self, _el: &Element<'_, '_>, _tree: &mut Tree) {}
    /// An element is about to be popped: still the top of `tree`.
    fn close(&mut self, _open: &Open, _tree: &mut Tree) {}
    /// Visible text, decoded, as the tokenizer ran it.
    fn text(&mut self, _text: &str, _tree: &mut Tree) {}
    /// Text of hidden content, as written.
    fn hidden_text(&mut self, _text: Text<'_>, _tree: &mut Tree) {}
    /// Visible text is written at byte `at` of the block's text.
    fn visible(&mut self, _at: usize) {}
    /// The space owed before it is written at byte `at`.
    fn space(&mut self, _at: usize) {}
    /// A single newline in preformatted text became the owed space.
    fn pre_newline(&mut self) {}
    /// Whitespace in preformatted text, before visible text.
    fn pre_indent(&mut self, _c: char) {}
    /// A block boundary; `block` is the block it ends, if that has text.
    fn boundary(&mut self, _block: Option<&mut BlockEnd<'_>>, _tree: &mut Tree) {}
    /// A JSON-LD script, parsed; `strict` unless it only parsed with its raw
    /// control characters read as spaces.
    fn json_ld(&mut self, _value: &serde_json::Value, _strict: bool) {}
    /// The page has ended: put what was read into `page` (its blocks are there).
    fn finish(&mut self, page: &mut Page, tree: &mut Tree);
}

macro_rules! tuple_consumer {
    ($($c:ident . $i:tt),+) => {
        impl<$($c: Consumer),+> Consumer for ($($c,)+) {
            const WANTS: u32 = $($c::WANTS)|+;

            #[inline(always)]
            fn start_tag(&mut self, el: &Element<'_, '_>, tree: &mut Tree) {
                $(if $c::WANTS & wants::START_TAG != 0 { self.$i.start_tag(el, tree) })+
            }
            #[inline(always)]
            fn open(&mut self, el: &Element<'_, '_>, tree: &mut Tree) {
                $(if $c::WANTS & wants::OPEN != 0 { self.$i.open(el, tree) })+
            }
            #[inline(always)]
            fn close(&mut self, open: &Open, tree: &mut Tree) {
                $(if $c::WANTS & wants::CLOSE != 0 { self.$i.close(open, tree) })+
            }
            #[inline(always)]
            fn text(&mut self, text: &str, tree: &mut Tree) {
                $(if $c::WANTS & wants::TEXT != 0 { self.$i.text(text, tree) })+
            }
            #[inline(always)]
            fn hidden_text(&mut self, text: Text<'_>, tree: &mut Tree) {
                $(if $c::WANTS & wants::HIDDEN_TEXT != 0 { self.$i.hidden_text(text, tree) })+
            }
            #[inline(always)]
            fn visible(&mut self, at: usize) {
                $(if $c::WANTS & wants::WRITING != 0 { self.$i.visible(at) })+
            }
            #[inline(always)]
            fn space(&mut self, at: usize) {
                $(if $c::WANTS & wants::WRITING != 0 { self.$i.space(at) })+
            }
            #[inline(always)]
            fn pre_newline(&mut self) {
                $(if $c::WANTS & wants::WRITING != 0 { self.$i.pre_newline() })+
            }
            #[inline(always)]
            fn pre_indent(&mut self, c: char) {
                $(if $c::WANTS & wants::WRITING != 0 { self.$i.pre_indent(c) })+
            }
            #[inline(always)]
            fn boundary(&mut self, mut block: Option<&mut BlockEnd<'_>>, tree: &mut Tree) {
                $(if $c::WANTS & wants::BOUNDARY != 0 { self.$i.boundary(block.as_deref_mut(), tree) })+
            }
            #[inline(always)]
            fn json_ld(&mut self, value: &serde_json::Value, strict: bool) {
                $(if $c::WANTS & wants::JSON_LD != 0 { self.$i.json_ld(value, strict) })+
            }
            fn finish(&mut self, page: &mut Page, tree: &mut Tree) {
                $(self.$i.finish(page, tree);)+
            }
        }
    };
}

tuple_consumer!(A.0, B.1);
tuple_consumer!(A.0, B.1, C.2);
tuple_consumer!(A.0, B.1, C.2, D.3);
tuple_consumer!(A.0, B.1, C.2, D.3, E.4);
tuple_consumer!(A.0, B.1, C.2, D.3, E.4, F.5);
tuple_consumer!(A.0, B.1, C.2, D.3, E.4, F.5, G.6);
tuple_consumer!(A.0, B.1, C.2, D.3, E.4, F.5, G.6, H.7);
