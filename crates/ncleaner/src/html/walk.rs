//! The second layer of the pass: the stack of open elements with the
//! implied end tags that matter for text, fed by the tokenizer, sending
//! events to the consumers ([`super::consumer`]).
//!
//! The walker keeps what several consumers read ([`Tree`]): the open
//! elements counted by tag and by context, whether an open element hides
//! its content, the attribute words of the open elements, and the text of
//! the block being read, which it writes itself (whitespace collapsed,
//! invisible characters dropped; [`text`]) because where a block ends
//! depends on it (`<br><br>`, a blank line in `pre`). It also reads
//! `<noscript>` content as markup ([`noscript`]) and parses JSON-LD once for
//! the consumers that want it. It knows foreign content (SVG and MathML:
//! [`foreign`]), and tells the tokenizer where it is.

mod end;
mod foreign;
mod noscript;
mod text;

use super::open::{Open, Space, Tree};

use super::attrs::{name_hash, role_is_dialog, streamed_boundary_id, style_hides};
use super::consumer::{BlockEnd, Consumer, Element, wants};
use super::meta::META_MAX_CHARS;
use super::tags::Tag;
use super::tokenizer::{StartTag, Text, TokenSink, Tokenizer};
use super::{Limit, MAX_BLOCKS, MAX_ELEMENTS, Page, words};

/// The walker over one page, sending events to the consumers `C`.
pub(super) struct Walker<C: Consumer> {
    pub(super) tree: Tree,
    pub(super) consumers: C,
    /// The blocks of the page so far.
    blocks: Vec<super::Block>,
    /// A buffer for decoded text and attribute values.
    scratch: String,
    /// The text of the JSON-LD script being read.
    json_ld: Option<String>,
    /// The raw content of the visible `<noscript>` being read.
    noscript: Option<String>,
    /// Reading a `<noscript>`'s content as markup ([`Walker::replay`]).
    replaying: bool,
    /// The tokenizer that reads `<noscript>` content.
    replay_tokenizer: Tokenizer,
    /// Elements opened so far ([`MAX_ELEMENTS`]).
    elements: usize,
    /// The tree builder's form element pointer (`walk::end`).
    form: FormPointer,
    /// The elements at this position ([`Tree::innermost`]) and below are
    /// outside the markup being read: a `<noscript>`'s content is read
    /// as a fragment of its own ([`Walker::replay`]), whose end tags and
    /// implied end tags close nothing outside it.
    floor: u32,
    /// The limit that stopped the pass ([`Page::truncated`]); from then
    /// on no element is opened and no text read ([`Walker::stop`]).
    truncated: Option<Limit>,
}

impl<C: Consumer> Walker<C> {
    /// A walker at the start of a page, in the buffers of `tree`.
    pub(super) fn new(mut tree: Tree, consumers: C) -> Walker<C> {
        tree.reset();
        Walker {
            tree,
            consumers,
            blocks: Vec::new(),
            scratch: String::new(),
            json_ld: None,
            noscript: None,
            replaying: false,
            replay_tokenizer: Tokenizer::default(),
            elements: 0,
            form: FormPointer::None,
            floor: 0,
            truncated: None,
        }
    }

    /// Pops the innermost element, ending the block first if it is a
    /// block-level element (while it still counts as open, so that the
    /// block gets its kind and context).
    ///
    /// An element left on top that the tree builder has taken off its
    /// stack (a `form` that `</form>` closed while elements were open
    /// inside it: [`Tree::detach`]) is popped with it: its content ends
    /// with the last of them.
    fn pop(&mut self) -> Option<Open> {
        let open = self.pop_one()?;
        while self.tree.top().is_some_and(Open::detached) {
            self.pop_one();
        }
        Some(open)
    }

    fn pop_one(&mut self) -> Option<Open> {
        let open = *self.tree.top()?;
        if open.tag.is_block() {
            self.flush();
        }
        self.consumers.close(&open, &mut self.tree);
        if open.tag == Tag::Form && self.form == FormPointer::Open(self.tree.depth() as u32) {
            self.form = FormPointer::Gone;
        }
        self.tree.pop();
        if open.tag.is_block() {
            self.tree.block.tag = self.tree.innermost_block();
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
        if closes_p && self.tree.count(P) > 0 {
            self.close_p();
        }
        match tag {
            // An item closes the open item it follows, unless a special
            // element but `address`, `div` or `p` is open inside that one
            // (HTML § 13.2.6.4.7: `<li><section><li>` nests the second).
            Li if self.tree.count(Li) > 0 => self.close_within(
                |t| t == Li,
                |o| o.special() && !matches!(o.tag, Address | Div | P | Li),
            ),
            Dt | Dd => self.close_within(
                |t| matches!(t, Dt | Dd),
                |o| o.special() && !matches!(o.tag, Address | Div | P | Dt | Dd),
            ),
            Td | Th | Tr | Tbody | Thead | Tfoot => self.clear_table_context(tag),
            Option => self.close_within(
                |t| t == Option,
                |o| matches!(o.tag, Select | Datalist | Optgroup),
            ),
            t if t.is_heading()
                && self.tree.depth() > self.floor as usize
                && self.tree.top().is_some_and(|o| o.tag.is_heading()) =>
            {
                self.pop();
            }
            _ => {}
        }
    }

    /// Closes the innermost element matching `target` if no element matching
    /// `barrier` is open inside it. Looks at most a few levels deep, where
    /// implied end tags live; deeper mismatches are left to end tags.
    fn close_within(&mut self, target: impl Fn(Tag) -> bool, barrier: impl Fn(&Open) -> bool) {
        let found = self.find(
            IMPLIED_LOOK,
            |o| ends_scopes(o) || barrier(o),
            |o| target(o.tag),
        );
        if let Found::At(i) = found {
            while self.tree.depth() > i {
                self.pop();
            }
        }
    }

    /// Looks down the stack, at most `look` elements, for one that is
    /// `wanted`, stopping at one that is a `barrier`.
    fn find(
        &self,
        look: usize,
        barrier: impl Fn(&Open) -> bool,
        wanted: impl Fn(&Open) -> bool,
    ) -> Found {
        let stack = self.tree.stack();
        let floor = self.floor as usize;
        for (i, o) in stack.iter().enumerate().rev().take(look) {
            if barrier(o) || i < floor {
                return Found::No;
            }
            if wanted(o) {
                return Found::At(i);
            }
        }
        if stack.len() > look + floor {
            Found::Deeper
        } else {
            Found::No
        }
    }

    /// What a cell's, a row's or a table section's start tag closes: the
    /// open cell, row or section it ends, and every element left open
    /// above the table's context it belongs in. The tree builder clears the
    /// stack back to the table's, the section's or the row's context for
    /// these tags (HTML § 13.2.6.4.9–15), so an element open inside the
    /// table but in none of its cells (a foster-parented `<li>`, an unknown
    /// element) is closed by them; left open, its end tag later closed
    /// foreign content opened after it, and showed SVG text (the
    /// browser-text fuzz target). Looks as far as [`Walker::close_within`]
    /// does, and stops at foreign content and at a template as it does.
    /// Only inside a table: outside one the walker ignores these tags, as
    /// a browser does (HTML § 13.2.6.4.7, "in body"; `Walker::start_tag`),
    /// but inside a `template`, whose content takes them, they close
    /// nothing outside it.
    fn clear_table_context(&mut self, tag: Tag) {
        use Tag::*;
        // The context element: a cell, row or section of the new tag's kind,
        // closed with it, or the row, section or table it belongs in.
        let same = |t: Tag| {
            matches!(
                (tag, t),
                (Td | Th, Td | Th) | (Tr, Tr) | (Tbody | Thead | Tfoot, Tbody | Thead | Tfoot)
            )
        };
        let context = |t: Tag| {
            matches!(
                (tag, t),
                (Td | Th, Tr | Tbody | Thead | Tfoot | Table)
                    | (Tr, Tbody | Thead | Tfoot | Table)
                    | (Tbody | Thead | Tfoot, Table)
            )
        };
        // The table scope ends at a `template` only: a cell open below an
        // `svg`'s `foreignObject` is closed by a `<tr>` inside it (HTML
        // § 13.2.6.4.15, "in cell"; § 13.2.4.2, "has an element in table
        // scope").
        let ends_table_scope = |o: &Open| o.tag == Template && !o.space.is_foreign();
        let Found::At(at) = self.find(IMPLIED_LOOK, ends_table_scope, |o| {
            same(o.tag) || context(o.tag)
        }) else {
            return;
        };
        let stack = self.tree.stack();
        // How many open elements stay: below the element where it is closed
        // with the new tag, through it where it is the context.
        let keep = if same(stack[at].tag) { at } else { at + 1 };
        let in_table = stack[..=at]
            .iter()
            .rev()
            .take_while(|&open| !ends_table_scope(open))
            .any(|open| open.tag == Table);
        if in_table {
            while self.tree.depth() > keep {
                self.pop();
            }
        }
    }

    /// A `<br>`: a space, or with the one before it a block boundary.
    fn br(&mut self) {
        if self.tree.hiding() {
            return;
        }
        self.tree.block.brs += 1;
        if self.tree.block.brs >= 2 {
            self.boundary(None);
        } else {
            self.tree.block.space = true;
        }
    }

    /// Ends the current block, if it has text; `opener` starts the next one.
    fn boundary(&mut self, opener: Option<Tag>) {
        self.flush();
        self.tree.block.tag = opener.or_else(|| self.tree.innermost_block());
    }

    /// Ends the current block, if it has text.
    fn flush(&mut self) {
        if !self.tree.block.text.is_empty() && self.blocks.len() >= MAX_BLOCKS {
            self.drop_block_past_the_limit();
        }
        if self.tree.block.text.is_empty() {
            self.consumers.boundary(None, &mut self.tree);
        } else {
            let mut block = self.tree.new_block();
            // The block's context is a fact of the walk, set before any
            // consumer sees the block: a consumer reads it (the containers
            // leave hidden blocks' words out) whatever the consumers' order.
            block.context = self.tree.context();
            let b = &self.tree.block;
            block.words = u32::try_from(words(&b.text)).unwrap_or(u32::MAX);
            // The shortcut of `words` is the rule's count on what the
            // walker writes: every test that reads a page checks it.
            debug_assert_eq!(
                block.words as usize,
                crate::words::count(&b.text),
                "{:?}",
                b.text
            );
            let mut end = BlockEnd {
                chars: b.chars,
                bold_chars: b.bold_chars,
                words: block.words,
                block: &mut block,
            };
            self.consumers.boundary(Some(&mut end), &mut self.tree);
            self.tree.block.text.clear();
            self.blocks.push(block);
        }
        let b = &mut self.tree.block;
        b.link_chars = 0;
        b.bold_chars = 0;
        b.chars = 0;
        b.space = false;
        b.brs = 0;
        b.pre_newlines = 0;
    }

    /// Stops the pass at `limit`: from here on no element is opened (the
    /// element limit) and no text is read (the walker hides the rest of the
    /// page as it hides a `hidden` element's content, by one more hiding
    /// level that never closes), so nothing grows. Out of line, and no
    /// look per event: the hot paths only compare a count.
    #[cold]
    #[inline(never)]
    fn stop(&mut self, limit: Limit) {
        if self.truncated.is_none() {
            self.truncated = Some(limit);
            self.tree.hide_the_rest();
        }
    }

    /// Past [`MAX_BLOCKS`], the block being ended is dropped and the pass
    /// stops. The consumers see a boundary without a block: the inline
    /// marks of the dropped text stay unread in their recorder, which no
    /// block reads again.
    #[cold]
    #[inline(never)]
    fn drop_block_past_the_limit(&mut self) {
        self.tree.block.text.clear();
        self.stop(Limit::Blocks);
    }

    /// The page has ended: closes what is open and hands over the page.
    pub(super) fn finish(mut self) -> (Page, Tree) {
        if let Some(content) = self.noscript.take() {
            // An unclosed `<noscript>` ends with the page.
            self.pop_until(|o| o.tag == Tag::Noscript);
            self.replay(&content);
        }
        self.boundary(None);
        let mut page = Page {
            blocks: std::mem::take(&mut self.blocks),
            truncated: self.truncated,
            ..Page::default()
        };
        self.consumers.finish(&mut page, &mut self.tree);
        (page, self.tree)
    }
}

impl<C: Consumer> Walker<C> {
    /// What the walker itself reads of a start tag's attributes (the last
    /// of repeated ones, as written, counts).
    fn own_attrs(&mut self, tag: Tag, start: &StartTag<'_>) -> OwnAttrs {
        let (mut style_hidden, mut hidden_attr, mut streamed, mut has_href) =
            (false, false, false, false);
        let (mut json_ld, mut dialog, mut open_attr) = (false, false, false);
        for (name, value) in start.attrs() {
            match name {
                b"role" => dialog |= role_is_dialog(value.decoded(&mut self.scratch).as_bytes()),
                b"aria-modal" => {
                    dialog |= value
                        .decoded(&mut self.scratch)
                        .trim_ascii()
                        .eq_ignore_ascii_case("true")
                }
                b"open" => open_attr = true,
                b"style" => {
                    style_hidden |= style_hides(value.decoded(&mut self.scratch).as_bytes())
                }
                b"hidden" => hidden_attr = true,
                b"id" => {
                    let v = value.decoded(&mut self.scratch);
                    if !v.is_empty() {
                        streamed = streamed_boundary_id(v.as_bytes());
                    }
                }
                b"href" => has_href = true,
                b"type" if tag == Tag::Script => {
                    let v = value.decoded(&mut self.scratch);
                    if !v.is_empty() {
                        json_ld = v.trim_ascii().eq_ignore_ascii_case("application/ld+json");
                    }
                }
                _ => {}
            }
        }
        // A block-level element that hides itself is read all the same, its
        // blocks flagged (Context::HIDDEN); an inline one (a `span`) stays
        // hidden, so that no visible block takes in hidden words. A dialog
        // (`role=dialog|alertdialog`, `aria-modal=true`, a `<dialog>` not
        // `open`) is a layer over the page that shows when something opens
        // it or until it is dismissed (a privacy policy, a sign-up form, a
        // cookie notice, a quick view): not the page's flow, so it is
        // flagged as hidden blocks are.
        dialog |= tag == Tag::Dialog && !open_attr;
        OwnAttrs {
            hides: style_hidden || (hidden_attr && !streamed) || dialog,
            has_href,
            json_ld,
        }
    }
}

/// What [`Walker::own_attrs`] reads.
struct OwnAttrs {
    /// The element hides itself (a `style`, `hidden` or a dialog).
    hides: bool,
    /// An `a` with an `href`.
    has_href: bool,
    /// A `script` of `application/ld+json`.
    json_ld: bool,
}

impl<C: Consumer> TokenSink for Walker<C> {
    fn start_tag(&mut self, start: &StartTag<'_>) {
        let mut tag = Tag::from_name(start.name);
        let mut space = Space::of_html(tag);
        if let Some(top) = self.tree.top()
            && top.space.is_foreign()
        {
            match foreign::dispatch(top.space, start) {
                foreign::Dispatch::Html => {}
                foreign::Dispatch::BreakOut => self.break_out(),
                foreign::Dispatch::Foreign(s) => (tag, space) = (Tag::Other, s),
            }
        }
        // A table's part outside a table is ignored by the tree builder, as
        // if it were not written (HTML § 13.2.6.4.7); inside a `template`
        // its content's own rules take it.
        if space == Space::Html
            && tag.is_table_part(start.name)
            && self.tree.innermost(Tag::Table, 0) <= self.floor
            && self.tree.innermost(Tag::Template, 0) <= self.floor
        {
            return;
        }
        // A `select` while a `select` is open in scope closes it and is
        // ignored; an `input` closes it and is read after it (HTML
        // § 13.2.6.4.7 "in body" with 2025's customizable `select`, as
        // html5ever 0.40 builds it): `<select>a<select>b` shows `b`.
        if space == Space::Html
            && (tag == Tag::Select || (tag == Tag::Void && start.name == b"input"))
            && let Some(at) = self.in_scope(self.innermost(Tag::Select, 0), end::Scope::Default)
        {
            self.pop_to(at);
            if tag == Tag::Select {
                return;
            }
        }
        // A `form` while the form element pointer is set is ignored too
        // (but inside a `template`, which has no pointer).
        let points = space == Space::Html
            && tag == Tag::Form
            && self.tree.innermost(Tag::Template, 0) <= self.floor;
        if points && self.form != FormPointer::None {
            return;
        }
        let OwnAttrs {
            hides,
            has_href,
            json_ld,
        } = self.own_attrs(tag, start);
        let revealed = hides && tag.is_block() && !tag.is_skipped();
        let hides_itself = hides && !revealed;
        let el = Element {
            tag,
            start,
            hides_itself,
            link: tag == Tag::A && has_href,
        };
        self.consumers.start_tag(&el, &mut self.tree);
        match tag {
            Tag::Script if json_ld && C::WANTS & wants::JSON_LD != 0 => {
                self.json_ld = Some(String::new())
            }
            // `<img>`, `<input>` … have no content; an `<hr>`-like break is not implied.
            Tag::Void => return,
            Tag::Br => return self.br(),
            Tag::Hr => return self.boundary(None),
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
        if tag == Tag::Noscript && !self.replaying && !self.tree.hiding() {
            self.noscript = Some(String::new());
        }
        let hidden = hides_itself || tag.is_skipped();
        let hash = if tag == Tag::Other {
            name_hash(start.name)
        } else {
            0
        };
        self.tree
            .push(tag, hash, space, hidden, el.link, start, &mut self.scratch);
        if revealed {
            self.tree.reveal_top();
        }
        if points {
            self.form = FormPointer::Open(self.tree.depth() as u32);
        }
        self.consumers.open(&el, &mut self.tree);
        // A foreign element's `/>` closes it (in HTML it is ignored).
        if start.self_closing && space.is_foreign() {
            self.pop();
        }
    }

    fn end_tag(&mut self, name: &[u8]) {
        let tag = Tag::from_name(name);
        if tag == Tag::Script
            && let Some(json) = self.json_ld.take()
        {
            self.parse_json_ld(&json);
        }
        if self.tree.foreign() > 0 && self.foreign_end_tag(tag, name) {
            return;
        }
        self.html_end_tag(tag, name);
        if tag == Tag::Noscript
            && self.tree.innermost(Tag::Noscript, 0) == 0
            && let Some(content) = self.noscript.take()
        {
            self.replay(&content);
        }
    }

    fn text(&mut self, text: Text<'_>) {
        if let Some(buf) = &mut self.noscript {
            noscript::hold(buf, text);
            return;
        }
        if self.tree.hiding() {
            if let Some(j) = &mut self.json_ld {
                let v = text.decoded(&mut self.scratch);
                if j.len() + v.len() <= 16 * META_MAX_CHARS {
                    j.push_str(v);
                }
            } else {
                self.consumers.hidden_text(text, &mut self.tree);
            }
            return;
        }
        let mut buf = std::mem::take(&mut self.scratch);
        let s = text.decoded(&mut buf);
        self.consumers.text(s, &mut self.tree);
        self.write(s);
        self.scratch = buf;
    }

    fn in_foreign_content(&self) -> bool {
        self.tree.top().is_some_and(|o| o.space.is_foreign())
    }
}

impl<C: Consumer> Walker<C> {
    /// Parses a JSON-LD script for the consumers that read it.
    fn parse_json_ld(&mut self, json: &str) {
        match serde_json::from_str::<serde_json::Value>(json) {
            Ok(v) => self.consumers.json_ld(&v, true),
            // JSON with raw control characters (a line break or a tab
            // inside a string) is invalid, but common in JSON-LD, and
            // readers of structured data accept it: read with them as
            // spaces. Handed on as not strict: the classifier's inputs stay
            // those its models were trained on.
            Err(_) => {
                let spaced: String = json
                    .chars()
                    .map(|c| if c < ' ' { ' ' } else { c })
                    .collect();
                if let Ok(v) = serde_json::from_str::<serde_json::Value>(&spaced) {
                    self.consumers.json_ld(&v, false);
                }
            }
        }
    }
}

/// How far down the stack implied end tags look (an `<li>` closing the open
/// `<li>`, a row closing the open cell): a few levels, where they live;
/// deeper mismatches are left to end tags, so hostile nesting stays linear.
const IMPLIED_LOOK: usize = 16;

/// Whether an open element ends every scope of HTML inside it: foreign
/// content is not HTML's, and an integration point ends the scopes of the
/// HTML inside it; so does a `template`, whose content is a document
/// fragment of its own (every scope of HTML § 13.2.4.2 stops at it): an
/// `<li>` inside it does not close the `<li>` the template stands in, which
/// would pop the template and show its content.
fn ends_scopes(open: &Open) -> bool {
    open.space.is_foreign() || open.tag == Tag::Template
}

/// The tree builder's form element pointer (HTML § 13.2.4.4): the `form`
/// opened last, until `</form>`. While it is set, a `<form>` is ignored;
/// it stays set when its element is closed by another end tag.
#[derive(Clone, Copy, PartialEq, Eq)]
enum FormPointer {
    /// Not set.
    None,
    /// The open `form` at this position ([`Tree::innermost`]).
    Open(u32),
    /// Set, to a `form` closed since.
    Gone,
}

/// What a look down the stack found.
enum Found {
    /// The element, at this index.
    At(usize),
    /// Nothing before a barrier or the stack's bottom.
    No,
    /// Nothing within the look; the stack goes deeper.
    Deeper,
}
