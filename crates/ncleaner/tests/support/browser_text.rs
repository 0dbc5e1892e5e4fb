//! The blocks of a page as the pass's walker cuts them, and as a browser's
//! tree holds them (html5ever's tree builder): the reference of the
//! differential tests over the shared pages (`tests/browser_text.rs`: the
//! words and the blocks) and of the fuzz target `browser_text`
//! (`fuzz/fuzz_targets/browser_text.rs`, which includes this file).
//!
//! **The walker's blocks** are those of `html::parse`, the blocks flagged
//! hidden included (they are read; the classifier decides).
//!
//! **The browser's blocks** are cut from the text nodes of html5ever's
//! document (a browser's, running scripts), in tree order, by the walker's
//! rules (`html`'s module documentation): a boundary at the start and the
//! end of every block-level element (`html::Tag::is_block`), at `<hr>`, at
//! two `<br>` with no visible character between them, at a blank line in
//! `pre`; a single `<br>` reads as a space. A `noscript`'s content is
//! parsed as markup in its own fragment (as the walker reads it: what a
//! crawler without scripts sees, closed at the `noscript`'s end; a
//! `noscript` inside it stays hidden). What the walker never shows, by
//! design (ARCHITECTURE.md, "HTML as browsers read it"), is skipped:
//!
//! - elements outside the HTML namespace, with all they hold: `svg` and
//!   `math` are pictures and formulas, and so is HTML inside their
//!   `foreignObject` or `annotation-xml`;
//! - the content of `script`, `style`, `title`, `template`, `iframe`,
//!   `noembed`, `noframes`, `select`, `datalist` and `textarea`
//!   (`html::Tag::is_skipped`);
//! - an element that hides itself (`hidden` but on a streamed boundary, an
//!   inline style `display:none` or `visibility:hidden`, a dialog) unless
//!   it is a block-level element, whose blocks the walker reads and flags.
//!
//! A block-level element inside what is skipped still ends the block, as
//! the walker ends it wherever it is.
//!
//! **Foster parenting is undone.** Where the tree builder moves a node
//! that stands directly in a table, a table section or a row (outside a
//! cell) before the table, this reading puts it back at the end of the
//! table's last section and row, where it stood in the markup and where
//! the walker reads it ([`Reading::fostered`] counts such moves). That is
//! a deliberate difference (ARCHITECTURE.md): this reading applies it, so
//! that the comparison checks the rest of those pages. The adoption
//! agency's reparenting is the tree's own ([`Reading::adopted_beyond`]
//! counts its rounds that move more than the walker's stack can; see
//! [`Recorder`]).
//!
//! A block's text is its words joined by single spaces; words are split at
//! whitespace after the characters the walker deletes (soft hyphens,
//! zero-width characters, controls) are deleted.

#![allow(dead_code)] // Each includer (a test, the fuzz target) uses a part.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;

use html5ever::interface::{ElementFlags, NodeOrText, QuirksMode, TreeSink};
use html5ever::tendril::{StrTendril, TendrilSink};
use html5ever::{
    Attribute, ExpandedName, ParseOpts, QualName, local_name, ns, parse_document, parse_fragment,
};
use markup5ever_rcdom::{Handle, NodeData, RcDom};
use ncleaner::html::{self, Tag};

/// The walker's blocks, each as its words joined by single spaces.
pub fn our_blocks(page: &str) -> Vec<String> {
    html::parse(page)
        .blocks
        .iter()
        .map(|b| {
            let mut words = Vec::new();
            push_words(&b.text, &mut words);
            words.join(" ")
        })
        .filter(|b| !b.is_empty())
        .collect()
}

/// The walker's words.
pub fn ours(page: &str) -> Vec<String> {
    words_of(&our_blocks(page))
}

/// The browser's blocks (see the module documentation), and what the tree
/// builder did that the walker does not.
pub fn browser_reading(page: &str) -> Reading {
    reading(page, Recorder::default())
}

/// The browser's blocks of the tree as the tree builder builds it: foster
/// parenting not undone (what the walker differs from by design).
pub fn browser_blocks_as_built(page: &str) -> Vec<String> {
    let recorder = Recorder {
        as_built: true,
        ..Recorder::default()
    };
    reading(page, recorder).blocks
}

fn reading(page: &str, recorder: Recorder) -> Reading {
    let mut cut = Cut {
        as_built: recorder.as_built,
        ..Cut::default()
    };
    let (dom, fostered, adopted_beyond) = parse_document(recorder, ParseOpts::default()).one(page);
    cut.visit(&dom.document, false);
    cut.boundary();
    Reading {
        blocks: cut.blocks,
        // A `noscript`'s content is parsed apart, and counted apart.
        fostered: fostered + cut.fostered,
        adopted_beyond: adopted_beyond + cut.adopted_beyond,
    }
}

/// The browser's blocks.
pub fn browser_blocks(page: &str) -> Vec<String> {
    browser_reading(page).blocks
}

/// The browser's words.
pub fn browser(page: &str) -> Vec<String> {
    words_of(&browser_blocks(page))
}

/// The browser's reading of a page.
#[derive(Debug, Default)]
pub struct Reading {
    /// The blocks, each as its words joined by single spaces.
    pub blocks: Vec<String>,
    /// Nodes the tree builder foster-parented (put back where the markup
    /// has them for [`Reading::blocks`]).
    pub fostered: usize,
    /// Rounds of the adoption agency that reparent beyond what the walker
    /// does ([`Recorder`]).
    pub adopted_beyond: usize,
}

/// The words of `blocks`, in order.
pub fn words_of(blocks: &[String]) -> Vec<String> {
    blocks
        .iter()
        .flat_map(|b| b.split(' '))
        .map(str::to_string)
        .collect()
}

/// html5ever's `RcDom` with two of the tree builder's moves watched:
///
/// - **foster parenting** (the tree builder's "appropriate place for
///   inserting a node" with a table as the target): the node is put at the
///   end of the table's last section and row instead of before the table;
/// - **the adoption agency's reparenting** beyond what the walker does: the
///   walker, a stack, pops the elements above the innermost special element
///   that a formatting element's end tag crosses. The agency gives the same
///   text in the same blocks when each round's furthest block is a child of
///   the formatting element; where elements stand between them, it takes
///   them off the stack (or reopens the formatting ones inside the
///   furthest block), which the walker does not. Such a round shows as
///   more than one node removed from its parent before the children of the
///   furthest block move, or as the furthest block's parent not being an
///   element of the formatting element's name.
#[derive(Default)]
struct Recorder {
    dom: RcDom,
    /// Foster parenting as the tree builder does it, not undone.
    as_built: bool,
    fostered: Cell<usize>,
    adopted_beyond: Cell<usize>,
    /// The nodes removed from their parents since the adoption agency's
    /// last round, each with the name of its parent then.
    removed: RefCell<Vec<(Handle, Option<String>)>>,
}

/// The local name of an HTML element, if `node` is one.
fn html_name(node: &Handle) -> Option<String> {
    match &node.data {
        NodeData::Element { name, .. } if name.ns == ns!(html) => Some(name.local.to_string()),
        _ => None,
    }
}

impl TreeSink for Recorder {
    type Handle = Handle;
    type Output = (RcDom, usize, usize);
    type ElemName<'a> = ExpandedName<'a>;

    fn finish(self) -> Self::Output {
        (self.dom, self.fostered.get(), self.adopted_beyond.get())
    }
    fn parse_error(&self, msg: Cow<'static, str>) {
        self.dom.parse_error(msg)
    }
    fn get_document(&self) -> Handle {
        self.dom.get_document()
    }
    fn elem_name<'a>(&'a self, target: &'a Handle) -> ExpandedName<'a> {
        self.dom.elem_name(target)
    }
    fn create_element(&self, name: QualName, attrs: Vec<Attribute>, flags: ElementFlags) -> Handle {
        self.dom.create_element(name, attrs, flags)
    }
    fn create_comment(&self, text: StrTendril) -> Handle {
        self.dom.create_comment(text)
    }
    fn create_pi(&self, target: StrTendril, data: StrTendril) -> Handle {
        self.dom.create_pi(target, data)
    }
    fn append(&self, parent: &Handle, child: NodeOrText<Handle>) {
        if matches!(child, NodeOrText::AppendText(_)) {
            self.removed.borrow_mut().clear();
        }
        self.dom.append(parent, child)
    }
    fn append_based_on_parent_node(
        &self,
        table: &Handle,
        prev_element: &Handle,
        child: NodeOrText<Handle>,
    ) {
        // Where the markup has the node: in the table's last section and
        // last row, if it has them (the open ones, or the ones just closed:
        // either way after the cells read before it and before those after).
        self.fostered.set(self.fostered.get() + 1);
        if self.as_built {
            return self
                .dom
                .append_based_on_parent_node(table, prev_element, child);
        }
        let mut target = table.clone();
        loop {
            let last = target.children.borrow().last().cloned();
            match last {
                Some(last)
                    if matches!(
                        html_name(&last).as_deref(),
                        Some("tbody" | "thead" | "tfoot" | "tr")
                    ) =>
                {
                    target = last
                }
                _ => break,
            }
        }
        if let NodeOrText::AppendNode(node) = &child {
            self.dom.remove_from_parent(node);
        }
        self.dom.append(&target, child)
    }
    fn append_doctype_to_document(
        &self,
        name: StrTendril,
        public_id: StrTendril,
        system_id: StrTendril,
    ) {
        self.dom
            .append_doctype_to_document(name, public_id, system_id)
    }
    fn mark_script_already_started(&self, node: &Handle) {
        self.dom.mark_script_already_started(node)
    }
    fn pop(&self, node: &Handle) {
        self.dom.pop(node)
    }
    fn get_template_contents(&self, target: &Handle) -> Handle {
        self.dom.get_template_contents(target)
    }
    fn same_node(&self, x: &Handle, y: &Handle) -> bool {
        self.dom.same_node(x, y)
    }
    fn set_quirks_mode(&self, mode: QuirksMode) {
        self.dom.set_quirks_mode(mode)
    }
    fn append_before_sibling(&self, sibling: &Handle, new_node: NodeOrText<Handle>) {
        self.dom.append_before_sibling(sibling, new_node)
    }
    fn add_attrs_if_missing(&self, target: &Handle, attrs: Vec<Attribute>) {
        self.dom.add_attrs_if_missing(target, attrs)
    }
    fn associate_with_form(
        &self,
        target: &Handle,
        form: &Handle,
        nodes: (&Handle, Option<&Handle>),
    ) {
        self.dom.associate_with_form(target, form, nodes)
    }
    fn remove_from_parent(&self, target: &Handle) {
        let parent = target
            .parent
            .take()
            .map(|weak| {
                let p = weak.upgrade();
                target.parent.set(Some(weak));
                p
            })
            .and_then(|p| p.and_then(|p| html_name(&p)));
        self.removed.borrow_mut().push((target.clone(), parent));
        self.dom.remove_from_parent(target)
    }
    fn reparent_children(&self, node: &Handle, new_parent: &Handle) {
        // A round of the adoption agency: `node` is its furthest block,
        // `new_parent` the formatting element's new copy.
        let removed = std::mem::take(&mut *self.removed.borrow_mut());
        let simple = matches!(
            &removed[..],
            [(n, Some(parent))] if std::rc::Rc::ptr_eq(n, node)
                && html_name(new_parent).as_ref() == Some(parent)
        );
        if !simple {
            self.adopted_beyond.set(self.adopted_beyond.get() + 1);
        }
        self.dom.reparent_children(node, new_parent)
    }
    fn is_mathml_annotation_xml_integration_point(&self, handle: &Handle) -> bool {
        self.dom.is_mathml_annotation_xml_integration_point(handle)
    }
    fn set_current_line(&self, line: u64) {
        self.dom.set_current_line(line)
    }
    fn allow_declarative_shadow_roots(&self, parent: &Handle) -> bool {
        self.dom.allow_declarative_shadow_roots(parent)
    }
    fn attach_declarative_shadow(
        &self,
        location: &Handle,
        template: &Handle,
        attrs: &[Attribute],
    ) -> bool {
        self.dom
            .attach_declarative_shadow(location, template, attrs)
    }
    fn maybe_clone_an_option_into_selectedcontent(&self, option: &Handle) {
        self.dom.maybe_clone_an_option_into_selectedcontent(option)
    }
}

/// The cut of a tree into blocks, by the walker's rules.
#[derive(Default)]
struct Cut {
    blocks: Vec<String>,
    /// The block being read.
    text: String,
    /// A space is owed before the next visible character.
    space: bool,
    /// `<br>`s since the last visible character.
    brs: u32,
    /// Newlines in a row inside `pre`.
    pre_newlines: u32,
    /// Open `pre`, `listing`, `xmp`, `plaintext` elements.
    pre: u32,
    /// The `noscript` contents' trees as the tree builder builds them
    /// ([`Recorder::as_built`]).
    as_built: bool,
    /// The moves of [`Reading::fostered`] and [`Reading::adopted_beyond`]
    /// in the `noscript` contents' trees.
    fostered: usize,
    adopted_beyond: usize,
}

impl Cut {
    /// Ends the block being read, if it has text.
    fn boundary(&mut self) {
        if !self.text.is_empty() {
            self.blocks.push(std::mem::take(&mut self.text));
        }
        self.space = false;
        self.brs = 0;
        self.pre_newlines = 0;
    }

    fn br(&mut self) {
        self.brs += 1;
        if self.brs >= 2 {
            self.boundary();
        } else {
            self.space = true;
        }
    }

    /// Reads visible text, as the walker writes it.
    fn write(&mut self, s: &str) {
        for c in s.chars() {
            match c {
                '\n' if self.pre > 0 => {
                    self.pre_newlines += 1;
                    if self.pre_newlines >= 2 {
                        self.boundary();
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
                }
            }
        }
    }

    /// Reads the text of `node` that the walker shows; `replaying`: inside
    /// a `noscript`'s content.
    fn visit(&mut self, node: &Handle, replaying: bool) {
        match &node.data {
            NodeData::Text { contents } => self.write(&contents.borrow()),
            NodeData::Element { name, attrs, .. } => {
                let tag = Tag::from_name(name.local.as_bytes());
                if name.ns == ns!(html) && tag == Tag::Noscript && !replaying {
                    return self.noscript(node);
                }
                if name.ns != ns!(html)
                    || tag.is_skipped()
                    || (hides_itself(tag, &attrs.borrow()) && !tag.is_block())
                {
                    // Not shown; but a block-level element inside ends the
                    // walker's block all the same.
                    if holds_block(node) {
                        self.boundary();
                    }
                    return;
                }
                if name.local == local_name!("br") {
                    return self.br();
                }
                let block = tag.is_block();
                let pre = matches!(tag, Tag::Pre | Tag::Listing | Tag::Xmp | Tag::Plaintext);
                if block {
                    self.boundary();
                }
                self.pre += u32::from(pre);
                for child in node.children.borrow().iter() {
                    self.visit(child, replaying);
                }
                self.pre -= u32::from(pre);
                if block {
                    self.boundary();
                }
            }
            NodeData::Document => {
                for child in node.children.borrow().iter() {
                    self.visit(child, replaying);
                }
            }
            _ => {}
        }
    }

    /// Reads a `noscript`'s content (raw text to a browser that runs
    /// scripts) parsed as markup in the `body`.
    fn noscript(&mut self, node: &Handle) {
        let mut raw = String::new();
        for child in node.children.borrow().iter() {
            if let NodeData::Text { contents } = &child.data {
                raw.push_str(&contents.borrow());
            }
        }
        let body = QualName::new(None, ns!(html), local_name!("body"));
        let recorder = Recorder {
            as_built: self.as_built,
            ..Recorder::default()
        };
        let (dom, fostered, adopted_beyond) =
            parse_fragment(recorder, ParseOpts::default(), body, vec![], true).one(raw);
        self.fostered += fostered;
        self.adopted_beyond += adopted_beyond;
        // The fragment's nodes are the children of its `html` element.
        for root in dom.document.children.borrow().iter() {
            for child in root.children.borrow().iter() {
                self.visit(child, true);
            }
        }
    }
}

/// Whether an HTML block-level element is inside `node` (a `template`'s
/// content included).
fn holds_block(node: &Handle) -> bool {
    let inside = |n: &Handle| {
        n.children.borrow().iter().any(|c| {
            matches!(&c.data, NodeData::Element { name, .. }
                if name.ns == ns!(html) && Tag::from_name(name.local.as_bytes()).is_block())
                || holds_block(c)
        })
    };
    if let NodeData::Element {
        template_contents, ..
    } = &node.data
        && let Some(content) = &*template_contents.borrow()
        && inside(content)
    {
        return true;
    }
    inside(node)
}

/// Whether an element's own attributes hide it (the walker's rule: the
/// last of repeated attributes counts there, the first here, as the tree
/// builder keeps it).
fn hides_itself(tag: Tag, attrs: &[Attribute]) -> bool {
    let get = |n: &str| {
        attrs
            .iter()
            .find(|a| &*a.name.local == n)
            .map(|a| &*a.value)
    };
    let streamed = get("id").is_some_and(|v| html::streamed_boundary_id(v.as_bytes()));
    let hidden = get("hidden").is_some() && !streamed;
    let style = get("style").is_some_and(|v| html::style_hides(v.as_bytes()));
    let dialog = get("role").is_some_and(|v| html::role_is_dialog(v.as_bytes()))
        || get("aria-modal").is_some_and(|v| v.trim().eq_ignore_ascii_case("true"))
        || (tag == Tag::Dialog && get("open").is_none());
    hidden || style || dialog
}

/// Appends the words of `text`, the characters the walker deletes deleted.
fn push_words(text: &str, out: &mut Vec<String>) {
    let mut word = String::new();
    for c in text.chars() {
        match c {
            '\u{AD}' | '\u{200B}' | '\u{200C}' | '\u{200D}' | '\u{2060}' | '\u{FEFF}' => {}
            c if c.is_whitespace() => {
                if !word.is_empty() {
                    out.push(std::mem::take(&mut word));
                }
            }
            c if c.is_control() => {}
            c => word.push(c),
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
}

/// How the two readings of a page differ, as multisets of words.
#[derive(Debug, Default)]
pub struct Diff {
    /// The browser's words.
    pub words: usize,
    /// Words the browser shows and the walker does not (each as often as
    /// it is missing).
    pub missing: Vec<String>,
    /// Words the walker reads and the browser does not show.
    pub extra: Vec<String>,
}

impl Diff {
    /// Words on either side without a partner on the other.
    pub fn count(&self) -> usize {
        self.missing.len() + self.extra.len()
    }
}

/// The two readings of `page` compared as multisets of words.
pub fn diff(page: &str) -> Diff {
    diff_words(&browser(page), &ours(page))
}

/// `browser` and `ours` compared as multisets.
pub fn diff_words(browser: &[String], ours: &[String]) -> Diff {
    let mut counts: HashMap<&str, i64> = HashMap::new();
    for w in browser {
        *counts.entry(w).or_default() += 1;
    }
    for w in ours {
        *counts.entry(w).or_default() -= 1;
    }
    let mut d = Diff {
        words: browser.len(),
        ..Diff::default()
    };
    let mut keys: Vec<(&str, i64)> = counts.into_iter().filter(|(_, c)| *c != 0).collect();
    keys.sort();
    for (w, c) in keys {
        let side = if c > 0 { &mut d.missing } else { &mut d.extra };
        side.extend(std::iter::repeat_n(
            w.to_string(),
            c.unsigned_abs() as usize,
        ));
    }
    d
}

/// How the two cuts of a page into blocks differ: where they part.
#[derive(Debug, Default)]
pub struct BlockDiff {
    /// The browser's blocks.
    pub blocks: usize,
    /// The walker's blocks.
    pub ours: usize,
    /// The first block where they differ (`None`: the same sequence).
    pub first: Option<usize>,
    /// The browser's blocks from there (a few).
    pub browser_from: Vec<String>,
    /// The walker's blocks from there (a few).
    pub ours_from: Vec<String>,
}

/// The two cuts of `page` into blocks compared as sequences.
pub fn diff_blocks(page: &str) -> BlockDiff {
    compare_blocks(&browser_blocks(page), &our_blocks(page))
}

/// `browser` and `ours` compared as sequences of blocks.
pub fn compare_blocks(browser: &[String], ours: &[String]) -> BlockDiff {
    let mut d = BlockDiff {
        blocks: browser.len(),
        ours: ours.len(),
        ..BlockDiff::default()
    };
    let same = browser.iter().zip(ours).take_while(|(a, b)| a == b).count();
    if same < browser.len() || same < ours.len() {
        d.first = Some(same);
        let few = |v: &[String]| v.iter().skip(same).take(3).cloned().collect();
        d.browser_from = few(browser);
        d.ours_from = few(ours);
    }
    d
}
