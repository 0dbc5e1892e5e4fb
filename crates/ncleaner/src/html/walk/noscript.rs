//! `<noscript>` content read as markup, in place. The tokenizer (like a
//! browser running scripts) reads it as raw text; a browser without
//! scripts, a crawler and lxml read it as markup, and sites that render
//! with JavaScript put the page's text there for them: Discourse forums
//! serve every post of a thread inside `<noscript>`. A `<noscript>` inside
//! it stays hidden. Its content is a subtree: elements it leaves open are
//! closed at its end.

use super::super::consumer::Consumer;
use super::super::tokenizer::Text;
use super::{FormPointer, Walker};

/// Most bytes of one `<noscript>` read as markup: a bound on what a hostile
/// page can make the pass hold (the page itself is already in memory).
const NOSCRIPT_MAX: usize = 4 << 20;

/// Holds a run of a visible `<noscript>`'s raw content, to be read at its end.
pub(super) fn hold(buf: &mut String, text: Text<'_>) {
    let mut decoded = String::new();
    let v = text.decoded(&mut decoded);
    if buf.len() + v.len() <= NOSCRIPT_MAX {
        buf.push_str(v);
    }
}

impl<C: Consumer> Walker<C> {
    /// Reads a `<noscript>`'s content as markup (see the module documentation).
    ///
    /// As a fragment of its own, in the `body` (as the tests' reading of a
    /// browser parses it): no end tag or implied end tag closes an element
    /// outside it ([`Walker::floor`]), and its forms have a form element
    /// pointer of their own.
    pub(super) fn replay(&mut self, html: &str) {
        self.replaying = true;
        let depth = self.tree.depth();
        let (floor, form) = (self.floor, self.form);
        (self.floor, self.form) = (depth as u32, FormPointer::None);
        let mut tokenizer = std::mem::take(&mut self.replay_tokenizer);
        tokenizer.run(html, self);
        self.replay_tokenizer = tokenizer;
        while self.tree.depth() > depth {
            self.pop();
        }
        (self.floor, self.form) = (floor, form);
        self.replaying = false;
    }
}
