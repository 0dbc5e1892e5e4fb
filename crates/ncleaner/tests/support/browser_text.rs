//! The words of a page as the pass's walker reads them, and as a browser's
//! tree holds them (html5ever's tree builder): the reference of the
//! differential test over the shared pages (`tests/browser_text.rs`) and
//! of the fuzz target `browser_text` (`fuzz/fuzz_targets/browser_text.rs`,
//! which includes this file).
//!
//! **The walker's words** are those of every block of `html::parse`, the
//! blocks flagged hidden included (they are read; the classifier decides).
//!
//! **The browser's words** are those of the text nodes of html5ever's
//! document (a browser's, running scripts), in tree order, with a
//! `noscript`'s content parsed as markup in its own fragment (as the
//! walker reads it: what a crawler without scripts sees, closed at the
//! `noscript`'s end; a `noscript` inside it stays hidden), skipping what
//! the walker never shows, by design (ARCHITECTURE.md, "HTML as browsers
//! read it"):
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
//! Block-level elements and `br` separate words; text nodes either side of
//! an inline element join. Words are split at whitespace after the
//! characters the walker deletes (soft hyphens, zero-width characters,
//! controls) are deleted. Both sides' words are compared as multisets
//! ([`Diff`]): the tree builder moves text (a table's stray text goes
//! before the table), so their order may differ where the words do not.

use std::collections::HashMap;

use html5ever::tendril::TendrilSink;
use html5ever::{ParseOpts, QualName, local_name, ns, parse_document, parse_fragment};
use markup5ever_rcdom::{Handle, NodeData, RcDom};
use ncleaner::html::{self, Tag};

/// The walker's words.
pub fn ours(page: &str) -> Vec<String> {
    let mut out = Vec::new();
    for block in html::parse(page).blocks {
        push_words(&block.text, &mut out);
    }
    out
}

/// The browser's words (see the module documentation).
pub fn browser(page: &str) -> Vec<String> {
    let dom = parse_document(RcDom::default(), ParseOpts::default()).one(page);
    let mut text = String::new();
    visit(&dom.document, &mut text, false);
    let mut out = Vec::new();
    push_words(&text, &mut out);
    out
}

/// Appends the text of `node` that the walker shows; `replaying`: inside
/// a `noscript`'s content.
fn visit(node: &Handle, text: &mut String, replaying: bool) {
    match &node.data {
        NodeData::Text { contents } => text.push_str(&contents.borrow()),
        NodeData::Element { name, attrs, .. } => {
            let tag = Tag::from_name(name.local.as_bytes());
            if name.ns == ns!(html) && tag == Tag::Noscript && !replaying {
                return noscript(node, text);
            }
            if name.ns != ns!(html)
                || tag.is_skipped()
                || (hides_itself(tag, &attrs.borrow()) && !tag.is_block())
            {
                // Not shown; but a block-level element inside ends the
                // walker's block all the same.
                if holds_block(node) {
                    text.push('\n');
                }
                return;
            }
            let breaks = tag.is_block() || name.local == local_name!("br");
            if breaks {
                text.push('\n');
            }
            for child in node.children.borrow().iter() {
                visit(child, text, replaying);
            }
            if breaks {
                text.push('\n');
            }
        }
        NodeData::Document => {
            for child in node.children.borrow().iter() {
                visit(child, text, replaying);
            }
        }
        _ => {}
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

/// Appends the text of a `noscript`'s content (raw text to a browser that
/// runs scripts) parsed as markup in the `body`.
fn noscript(node: &Handle, text: &mut String) {
    let mut raw = String::new();
    for child in node.children.borrow().iter() {
        if let NodeData::Text { contents } = &child.data {
            raw.push_str(&contents.borrow());
        }
    }
    let body = QualName::new(None, ns!(html), local_name!("body"));
    let dom = parse_fragment(RcDom::default(), ParseOpts::default(), body, vec![], true).one(raw);
    // The fragment's nodes are the children of its `html` element.
    for root in dom.document.children.borrow().iter() {
        for child in root.children.borrow().iter() {
            visit(child, text, true);
        }
    }
}

/// Whether an element's own attributes hide it (the walker's rule: the
/// last of repeated attributes counts there, the first here, as the tree
/// builder keeps it).
fn hides_itself(tag: Tag, attrs: &[html5ever::Attribute]) -> bool {
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

/// The two readings of `page` compared.
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
