//! End tags as the tree builder reads them in the body (WHATWG HTML
//! § 13.2.6.4.7, "in body", and the table modes of § 13.2.6.4.9–15 for
//! a table's parts): which open element an end tag closes, if any. The
//! walker is a stack, not a tree builder; this is the part of the rules
//! that decides where elements, and so blocks, end:
//!
//! - **Scopes.** The end tag of a block-level element (`div`, `section`,
//!   `ul`, …, `dd`, `dt`, `form`, `select`), of a heading, of `li`
//!   (list-item scope: an `ol` or `ul` ends it too), of `p` (button scope:
//!   a `button` ends it too; without one `</p>` is an empty paragraph) and
//!   of `applet`, `marquee` or `object` closes the innermost open element
//!   of its name only if no element that ends the scope is open inside it:
//!   a table, a cell, a caption, a `template`, an `applet`, `marquee` or
//!   `object`, or an integration point of foreign content
//!   ([`Tag::ends_scope`]). `<div><table><tr><td>a</div>b` leaves `b` in
//!   the cell.
//! - **A table's parts** (`</table>`, `</tr>`, `</td>`, …) close their
//!   element if it is in table scope (no `template` inside it); outside a
//!   table their start tags are ignored as their end tags are
//!   ([`Tag::is_table_part`]).
//! - **Formatting elements** (`a`, `b`, `big`, `code`, `em`, `font`, `i`,
//!   `nobr`, `s`, `small`, `strike`, `strong`, `tt`, `u`) run the adoption
//!   agency (§ 13.2.6.4.7's end of "in body"): the special elements open
//!   inside the formatting element move out of it and stay open with what
//!   is inside them; the rest above the innermost of them closes. The
//!   walker pops to just above the innermost special element: `<b><div>a
//!   </b>b</div>` reads `ab` as one block, as in browsers. With eight or
//!   more special elements inside, the agency's eight rounds end before it
//!   closes anything, and the walker closes nothing either. Choice (a
//!   deliberate difference: ARCHITECTURE.md): the agency's reparenting
//!   beyond that, which takes the other elements between the formatting
//!   element and the special ones off the stack, or reopens them inside
//!   the special ones, needs a tree; the walker leaves them where they are.
//! - **Any other end tag** (`span`, `label`, an element HTML does not
//!   know, and the special elements without a rule of their own) closes the
//!   innermost open element of its name unless a special element
//!   ([`Tag::is_special`]) is open inside it: `<span><div>a</span>b</div>`
//!   reads `ab` as one block, where the walker used to pop the `div`.
//! - **`</form>`** clears the form element pointer (the `form` opened
//!   last; while it is set a `<form>` is ignored) and takes the form it
//!   points to off the stack if it is open in scope, leaving the elements
//!   open inside it open: the walker keeps it on its stack for what it
//!   holds, out of every question above, until they close
//!   ([`Tree::detach`]).
//! - `</body>` and `</html>` close nothing (they switch the tree builder
//!   to "after body", which anything but the page's end switches back);
//!   `</br>` is a `<br>`.
//!
//! Every answer takes constant time: the stack keeps, for each open
//! element, the position of the innermost special element and of the
//! innermost element that ends a scope at or below it, and the position of
//! the next open element of its name ([`Tree::innermost`]), so that hostile
//! nesting stays linear.

use super::super::attrs::name_hash;
use super::super::consumer::Consumer;
use super::super::tags::Tag;
use super::{FormPointer, Walker};

/// The scopes of HTML § 13.2.4.2 that the walker's end tags ask about.
#[derive(Clone, Copy)]
pub(super) enum Scope {
    /// The default scope ([`Tag::ends_scope`]).
    Default,
    /// The default scope, and `ol` and `ul`.
    ListItem,
    /// The default scope, and `button`.
    Button,
    /// `table` and `template` only.
    Table,
}

impl<C: Consumer> Walker<C> {
    /// An end tag read by the HTML rules (see the module documentation).
    pub(super) fn html_end_tag(&mut self, tag: Tag, name: &[u8]) {
        use Tag::*;
        let hash = if tag == Other { name_hash(name) } else { 0 };
        match tag {
            // `</br>` is a `<br>` to the HTML parser.
            Br => self.br(),
            Void | Hr | Body | Html => {}
            P => match self.in_scope(self.innermost(P, 0), Scope::Button) {
                Some(at) => self.pop_to(at),
                // `</p>` without `<p>` is an empty paragraph: a boundary.
                None => self.boundary(None),
            },
            Li => self.close_in_scope(Li, 0, Scope::ListItem),
            H1 | H2 | H3 | H4 | H5 | H6 => {
                // Any heading's end tag closes the innermost open heading
                // (`<h2>a</h1>b` leaves `b` outside it).
                let at = (0..6)
                    .map(|i| self.innermost(Tag::heading(i), 0))
                    .max()
                    .unwrap_or(0);
                if let Some(at) = self.in_scope(at, Scope::Default) {
                    self.pop_to(at);
                }
            }
            _ if tag.is_table_part(name) || tag == Table => {
                self.close_in_scope(tag, hash, Scope::Table)
            }
            // Closed wherever they are (`template`: HTML § 13.2.6.4.4;
            // `head`: the walker reads the head as an element).
            Template | Head => {
                let at = self.innermost(tag, 0);
                self.pop_to(at);
            }
            Form if self.innermost(Template, 0) == 0 => self.end_form(),
            _ if is_formatting(tag, name) => self.adopt(tag, hash),
            _ if closes_in_scope(tag, name) => self.close_in_scope(tag, hash, Scope::Default),
            _ => {
                // Any other end tag: no special element may stand between.
                let at = self.innermost(tag, hash);
                if at > 0 && at >= self.tree.special_at() {
                    self.pop_to(at);
                }
            }
        }
    }

    /// The position of the innermost open HTML element of `tag` (hashed
    /// `hash`) in the markup being read (above [`Walker::floor`]), 0 if none.
    pub(super) fn innermost(&self, tag: Tag, hash: u32) -> u32 {
        let at = self.tree.innermost(tag, hash);
        if at > self.floor { at } else { 0 }
    }

    /// `</form>` outside a `template` (HTML § 13.2.6.4.7): it clears the
    /// form element pointer, and if the form it pointed to is open in
    /// scope, takes that form off the stack. Elements open inside the
    /// form stay open, inside it ([`Tree::detach`]): `<form><span>a
    /// </form>b</span>c` reads `ab` in the form and `c` after it.
    fn end_form(&mut self) {
        let pointer = std::mem::replace(&mut self.form, FormPointer::None);
        let FormPointer::Open(at) = pointer else {
            return;
        };
        if at <= self.floor || self.in_scope(at, Scope::Default).is_none() {
            return;
        }
        // The implied end tags: `p`, `li`, `dd`, `dt`, `option`, … left
        // open at the top.
        while self.tree.depth() > at as usize
            && self
                .tree
                .top()
                .is_some_and(|o| implied_end(o.tag, o.name_hash))
        {
            self.pop();
        }
        if self.tree.depth() == at as usize {
            self.pop();
        } else {
            self.tree.detach(at);
        }
    }

    /// Closes the open `p` if it is in button scope: what the start tag of
    /// a block closes (HTML § 13.2.6.4.7, "close a `p` element").
    pub(super) fn close_p(&mut self) {
        self.close_in_scope(Tag::P, 0, Scope::Button);
    }

    /// Closes the innermost open element of `tag` (hashed `hash`) if it is
    /// in `scope`.
    fn close_in_scope(&mut self, tag: Tag, hash: u32, scope: Scope) {
        if let Some(at) = self.in_scope(self.innermost(tag, hash), scope) {
            self.pop_to(at);
        }
    }

    /// `at` (an element's position, [`Tree::innermost`]) if the element is
    /// open and in `scope`: no element that ends the scope is open inside
    /// it (it may end the scope itself).
    pub(super) fn in_scope(&self, at: u32, scope: Scope) -> Option<u32> {
        let t = &self.tree;
        let barrier = match scope {
            Scope::Default => t.scope_at(),
            Scope::ListItem => t
                .scope_at()
                .max(t.innermost(Tag::Ol, 0))
                .max(t.innermost(Tag::Ul, 0)),
            Scope::Button => t.scope_at().max(t.innermost(Tag::Button, 0)),
            Scope::Table => t
                .innermost(Tag::Table, 0)
                .max(t.innermost(Tag::Template, 0)),
        };
        (at > 0 && at >= barrier).then_some(at)
    }

    /// A formatting element's end tag (the module documentation's
    /// adoption agency, as far as a stack goes).
    fn adopt(&mut self, tag: Tag, hash: u32) {
        let Some(at) = self.in_scope(self.innermost(tag, hash), Scope::Default) else {
            return;
        };
        match self.tree.specials_above(at) {
            0 => self.pop_to(at),
            // Each round of the agency moves the outermost special element
            // left inside the formatting element out of it; the last one
            // closes what is above the innermost.
            1..=7 => self.pop_to(self.tree.special_at() + 1),
            _ => {}
        }
    }

    /// Pops the element at position `at` ([`Tree::innermost`]) and every
    /// element above it (nothing if `at` is past the top).
    pub(super) fn pop_to(&mut self, at: u32) {
        while at > 0 && self.tree.depth() >= at as usize {
            self.pop();
        }
    }
}

/// Whether the tree builder's "generate implied end tags" closes an open
/// element of `tag` (named by `hash` if `Other`): `dd`, `dt`, `li`,
/// `optgroup`, `option`, `p`, `rb`, `rp`, `rt`, `rtc`.
fn implied_end(tag: Tag, hash: u32) -> bool {
    use Tag::*;
    match tag {
        Dd | Dt | Li | Optgroup | Option | P => true,
        Other => [&b"rb"[..], b"rp", b"rt", b"rtc"]
            .iter()
            .any(|n| name_hash(n) == hash),
        _ => false,
    }
}

/// Whether an end tag of `tag` (named `name`) closes its element only in
/// the default scope (HTML § 13.2.6.4.7: `</address>`, …, `</ul>`, `</dd>`,
/// `</dt>`, `</form>`, `</applet>`, `</marquee>`, `</object>`).
fn closes_in_scope(tag: Tag, name: &[u8]) -> bool {
    use Tag::*;
    match tag {
        Address | Article | Aside | Blockquote | Button | Center | Details | Dialog | Dir | Div
        | Dl | Fieldset | Figcaption | Figure | Footer | Header | Hgroup | Listing | Main
        | Menu | Nav | Ol | Pre | Section | Select | Summary | Ul | Dd | Dt | Form => true,
        Other => matches!(name, b"search" | b"applet" | b"marquee" | b"object"),
        _ => false,
    }
}

/// Whether an end tag of `tag` (named `name`) is a formatting element's,
/// whose end tag runs the adoption agency (HTML § 13.2.4.3's list: `a`,
/// `b`, `big` and `strong` by their tags, the others by name).
pub(super) fn is_formatting(tag: Tag, name: &[u8]) -> bool {
    matches!(tag, Tag::A | Tag::B | Tag::Big | Tag::Strong)
        || (tag == Tag::Other
            && matches!(
                name,
                b"code"
                    | b"em"
                    | b"font"
                    | b"i"
                    | b"nobr"
                    | b"s"
                    | b"small"
                    | b"strike"
                    | b"tt"
                    | b"u"
            ))
}

#[cfg(test)]
mod tests;
