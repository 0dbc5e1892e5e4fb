//! Foreign content: SVG and MathML inside HTML, read as the tree builder
//! reads them (WHATWG HTML § 13.2.6, "tree construction dispatcher", and
//! § 13.2.6.5, "the rules for parsing tokens in foreign content"), the
//! part of those rules that decides what is text, what is hidden and where
//! an element ends. The walker is a stack, not a tree builder; this is
//! the subset it needs:
//!
//! - **Namespaces on the stack.** `<svg>` and `<math>` open an element in
//!   their namespace ([`Space`]); an element opened while the current node
//!   (the top of the stack, the standard's "adjusted current node" when
//!   there is no fragment) is foreign is foreign too, in the same
//!   namespace. It is pushed as [`Tag::Other`] by its name, whatever its
//!   name: an SVG `title`, `style`, `a` or `script` is not the HTML
//!   element of that name (no page title, no raw text, no link).
//! - **The tokenizer asks** ([`TokenSink::in_foreign_content`]): in
//!   foreign content a `title`, `style`, `textarea`, `script`, … does not
//!   switch it to raw text, and `<![CDATA[ … ]]>` is text.
//! - **Self-closing tags close** a foreign element (`<path/>`,
//!   `<title/>`, `<svg/>` itself); in HTML `/>` is ignored, as before.
//! - **Integration points**: SVG `foreignObject`, `desc` and `title`, and
//!   MathML `annotation-xml` whose `encoding` is `text/html` or
//!   `application/xhtml+xml`, read start tags by the HTML rules, and so do
//!   MathML `mi`, `mo`, `mn`, `ms` and `mtext` (but `mglyph` and
//!   `malignmark`); an `svg` inside `annotation-xml` starts SVG. HTML
//!   elements opened there are HTML again (an HTML `<title>` in a
//!   `foreignObject` is raw text), and an HTML end tag there closes only
//!   what is open inside the integration point, which ends every scope and
//!   is a special element (`walk::end`).
//! - **Breakout**: a start tag of `b`, `big`, `blockquote`, `body`, `br`,
//!   `center`, `code`, `dd`, `div`, `dl`, `dt`, `em`, `embed`, `h1`–`h6`,
//!   `head`, `hr`, `i`, `img`, `li`, `listing`, `menu`, `meta`, `nobr`,
//!   `ol`, `p`, `pre`, `ruby`, `s`, `small`, `span`, `strong`, `strike`,
//!   `sub`, `sup`, `table`, `tt`, `u`, `ul`, `var` (and `font` with
//!   `color`, `face` or `size`), or an end tag `</p>` or `</br>`, in
//!   foreign content closes the foreign elements up to the nearest HTML
//!   element or integration point, and is then read as HTML: `<svg><p>`
//!   is a paragraph after the `svg`, as in browsers.
//! - **End tags** in foreign content close the innermost open foreign
//!   element of their name, looking down through foreign elements only
//!   (at most [`LOOK`] of them, so that hostile nesting stays linear);
//!   past an HTML element they are read by the HTML rules (`walk::end`).
//!   Past [`LOOK`] elements an end tag closes the innermost open element
//!   of its name wherever it is (a deliberate difference, ARCHITECTURE.md).
//!
//! The walker hides everything inside `svg` and `math` (their text is
//! drawn, not read: labels, formulas), HTML in their integration points
//! included. As in browsers, `</svg>` does not close an `svg` from HTML
//! left open inside its `foreignObject`: the rest of the page is then in
//! the picture (clipped to its box in a browser), hidden. Left out: the
//! attribute and tag-name case adjustments (names are compared
//! lower-cased), which change no text.

use super::super::attrs::name_hash;
use super::super::consumer::Consumer;
use super::super::open::{Open, Space};
use super::super::tags::Tag;
use super::super::tokenizer::StartTag;
use super::{Found, Walker};

/// How far an end tag or an implied end tag looks down the stack for its
/// element where foreign content is open.
pub(super) const LOOK: usize = 64;

impl Space {
    /// Whether the element is in a foreign namespace (SVG, MathML).
    #[inline]
    pub(in crate::html) fn is_foreign(self) -> bool {
        self != Space::Html
    }

    /// An HTML or a MathML text integration point: where a breakout stops.
    fn is_integration_point(self) -> bool {
        matches!(self, Space::SvgHtml | Space::MathText | Space::MathHtml)
    }

    /// Where the scopes of HTML elements end (§ 13.2.4.2: the integration
    /// points and any `annotation-xml`); these are the foreign elements
    /// of the special category too.
    pub(in crate::html) fn ends_scope(self) -> bool {
        self.is_integration_point() || self == Space::MathAnnotation
    }

    /// The namespace of an element that `tag` opens by the HTML rules.
    #[inline]
    pub(super) fn of_html(tag: Tag) -> Space {
        match tag {
            Tag::Svg => Space::Svg,
            Tag::Math => Space::MathMl,
            _ => Space::Html,
        }
    }

    /// The namespace and kind of a foreign element `start` opened inside
    /// a foreign element of namespace `parent`.
    fn of_child(parent: Space, start: &StartTag<'_>) -> Space {
        if matches!(parent, Space::Svg | Space::SvgHtml) {
            return match start.name {
                b"foreignobject" | b"desc" | b"title" => Space::SvgHtml,
                _ => Space::Svg,
            };
        }
        match start.name {
            b"mi" | b"mo" | b"mn" | b"ms" | b"mtext" => Space::MathText,
            b"annotation-xml" => {
                let mut buf = String::new();
                let html = start.attr(b"encoding").is_some_and(|v| {
                    let v = v.decoded(&mut buf);
                    v.eq_ignore_ascii_case("text/html")
                        || v.eq_ignore_ascii_case("application/xhtml+xml")
                });
                if html {
                    Space::MathHtml
                } else {
                    Space::MathAnnotation
                }
            }
            _ => Space::MathMl,
        }
    }
}

/// How a start tag is read while the current node is foreign.
pub(super) enum Dispatch {
    /// By the HTML rules (at an integration point).
    Html,
    /// As HTML after closing the foreign elements (a breakout tag).
    BreakOut,
    /// As a foreign element of this namespace and kind.
    Foreign(Space),
}

/// How `start` is read when the current node is of namespace `top` (foreign).
pub(super) fn dispatch(top: Space, start: &StartTag<'_>) -> Dispatch {
    let name = start.name;
    let html = match top {
        Space::Html | Space::SvgHtml | Space::MathHtml => true,
        Space::MathText => !matches!(name, b"mglyph" | b"malignmark"),
        Space::MathAnnotation => name == b"svg",
        Space::Svg | Space::MathMl => false,
    };
    if html {
        Dispatch::Html
    } else if breaks_out(start) {
        Dispatch::BreakOut
    } else {
        Dispatch::Foreign(Space::of_child(top, start))
    }
}

/// Whether a start tag leaves foreign content (see the module documentation).
fn breaks_out(start: &StartTag<'_>) -> bool {
    match start.name {
        b"b" | b"big" | b"blockquote" | b"body" | b"br" | b"center" | b"code" | b"dd" | b"div"
        | b"dl" | b"dt" | b"em" | b"embed" | b"h1" | b"h2" | b"h3" | b"h4" | b"h5" | b"h6"
        | b"head" | b"hr" | b"i" | b"img" | b"li" | b"listing" | b"menu" | b"meta" | b"nobr"
        | b"ol" | b"p" | b"pre" | b"ruby" | b"s" | b"small" | b"span" | b"strong" | b"strike"
        | b"sub" | b"sup" | b"table" | b"tt" | b"u" | b"ul" | b"var" => true,
        b"font" => start.has_attr(b"color") || start.has_attr(b"face") || start.has_attr(b"size"),
        _ => false,
    }
}

/// Whether the open element `o` is the one an end tag of `tag` (its name
/// hashed: `hash`) closes: by tag, or by name for `Tag::Other` (every
/// foreign element but the `svg` and `math` that HTML opens). Any heading's
/// end tag closes every heading (HTML § 13.2.6.4.7: `</h1>` closes an open
/// `<h2>`).
#[inline]
fn is_named(o: &Open, tag: Tag, hash: u32) -> bool {
    if o.tag == Tag::Other {
        o.name_hash == hash
    } else {
        o.tag == tag || (tag.is_heading() && o.tag.is_heading())
    }
}

impl<C: Consumer> Walker<C> {
    /// Closes the foreign elements above the nearest HTML element or
    /// integration point (a breakout).
    pub(super) fn break_out(&mut self) {
        while self
            .tree
            .top()
            .is_some_and(|o| o.space.is_foreign() && !o.space.is_integration_point())
        {
            self.pop();
        }
    }

    /// An end tag while foreign content is open (some foreign element is on
    /// the stack): returns whether it was handled here, else it is read by
    /// the walker's HTML rules as ever.
    pub(super) fn foreign_end_tag(&mut self, tag: Tag, name: &[u8]) -> bool {
        let hash = name_hash(name);
        if self.tree.top().is_some_and(|o| o.space.is_foreign()) {
            if matches!(tag, Tag::P | Tag::Br) {
                self.break_out();
            } else {
                // The innermost foreign element of this name, above the
                // nearest HTML element.
                match self.find(LOOK, |o| !o.space.is_foreign(), |o| is_named(o, tag, hash)) {
                    Found::At(i) => {
                        self.pop_to(i as u32 + 1);
                        return true;
                    }
                    Found::Deeper if self.is_open(tag, hash) => {
                        self.pop_until(|o| is_named(o, tag, hash));
                        return true;
                    }
                    _ => {}
                }
            }
        }
        // Past the foreign elements, the HTML rules (`walk::end`): their
        // scopes and special elements take foreign content's integration
        // points in.
        false
    }

    /// Whether an element that an end tag of `tag` (name hashed: `hash`)
    /// closes is open anywhere.
    fn is_open(&self, tag: Tag, hash: u32) -> bool {
        self.tree.count_other(hash) > 0 || (tag != Tag::Other && self.tree.count(tag) > 0)
    }
}

#[cfg(test)]
mod tests;
