//! Inline marks of a block's text that Markdown output restores: links,
//! images and the line breaks of preformatted text, as byte offsets into
//! [`super::Block::text`]. The block's text itself stays what the models
//! were trained on (a `<pre>`'s single newlines read as spaces), so the
//! marks change no decision.
//!
//! Links and images are recorded only when asked for ([`Marks`]): most
//! users want plain text, and a page has many links. Line breaks in `pre`
//! are always recorded (code is rare, and without them a fenced block is
//! one line).
//!
//! Choices:
//! - A link is the visible text between `<a href>` and its end tag; a link
//!   inside a link is read as part of the outer one. A link that spans a
//!   block boundary becomes one link in each block.
//! - An image (`<img src>`) sits at the point of the text where it stood;
//!   an image before any text of its block (a figure above its caption)
//!   goes to the start of the next block that has text, and an image after
//!   the last text of a page is lost. Images inside hidden elements are not
//!   seen, like their text.
//! - Values are kept as written (trimmed, at most [`VALUE_MAX`] bytes;
//!   longer ones, `data:` URIs among them, are left out); output resolves
//!   them against the page's URL ([`crate::format::markdown`]).

use super::consumer::{BlockEnd, Consumer, Element, wants};
use super::open::{Open, Tree};
use super::{Page, Tag, collapse_whitespace};

/// Which inline marks the HTML pass records (line breaks in `pre` always).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Marks {
    /// Links (`<a href>`).
    pub links: bool,
    /// Images (`<img src>`).
    pub images: bool,
}

/// The inline marks of one block.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Inline {
    /// Links, in the order they end.
    pub links: Vec<Link>,
    /// Images, in the order they stood.
    pub images: Vec<Image>,
    /// The line breaks of `pre` text: the space at each offset was a
    /// newline, and the next line was indented by so many spaces (a tab
    /// counts four).
    pub breaks: Vec<(u32, u16)>,
}

impl Inline {
    /// Whether there is no mark.
    pub fn is_empty(&self) -> bool {
        self.links.is_empty() && self.images.is_empty() && self.breaks.is_empty()
    }
}

/// A link: the text from byte `start` to byte `end` was inside `<a href>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    /// The first byte of the link's text.
    pub start: u32,
    /// The byte after the link's text.
    pub end: u32,
    /// The `href`, as written.
    pub href: String,
}

/// An image at byte `at` of the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Image {
    /// The byte of the text it stood before.
    pub at: u32,
    /// The `src`, as written.
    pub src: String,
    /// The `alt` text, whitespace collapsed (empty when none).
    pub alt: String,
}

/// Most bytes of an `href`, `src` or `alt` kept.
pub const VALUE_MAX: usize = 2048;

/// An attribute value as kept: trimmed, `None` when empty or too long.
pub(super) fn value(raw: &[u8]) -> Option<String> {
    let v = raw.trim_ascii();
    (!v.is_empty() && v.len() <= VALUE_MAX).then(|| String::from_utf8_lossy(v).into_owned())
}

/// The consumer that records the marks of the block being read.
#[derive(Debug, Default)]
pub(super) struct Recorder {
    pub(super) marks: Marks,
    /// The `href` of the `<a>` being opened, when kept.
    href: Option<String>,
    /// A buffer for decoded values.
    buf: String,
    current: Inline,
    /// The open link (`None` inside: an `href` not kept) and the offset its
    /// text starts at in the block, once it has text; `depth` counts the
    /// links open inside it.
    link: Option<(Option<String>, Option<u32>)>,
    depth: u32,
    /// Images seen before any text of the block.
    waiting: Vec<Image>,
    /// A newline of `pre` is owed, with the indentation seen after it.
    pre_break: Option<u16>,
}

impl Consumer for Recorder {
    const WANTS: u32 =
        wants::START_TAG | wants::OPEN | wants::CLOSE | wants::WRITING | wants::BOUNDARY;

    fn start_tag(&mut self, el: &Element<'_, '_>, tree: &mut Tree) {
        let (links, images) = (self.marks.links, self.marks.images);
        if links && el.tag == Tag::A {
            self.href = None;
            for (name, v) in el.start.attrs() {
                if name == b"href" {
                    let v = v.decoded(&mut self.buf);
                    if !v.is_empty() {
                        self.href = value(v.as_bytes());
                    }
                }
            }
        } else if images && el.start.name == b"img" {
            let (mut src, mut alt) = (None, String::new());
            for (name, v) in el.start.attrs() {
                let v = v.decoded(&mut self.buf);
                if v.is_empty() {
                    continue;
                }
                match name {
                    b"src" => src = value(v.as_bytes()),
                    b"alt" => {
                        alt = value(v.as_bytes())
                            .map(|a| collapse_whitespace(&a))
                            .unwrap_or_default()
                    }
                    _ => {}
                }
            }
            if let Some(src) = src
                && !tree.hiding()
                && !tree.has(super::Context::HIDDEN)
                && !el.hides_itself
            {
                self.image(src, alt, tree.block.text.len());
            }
        }
    }

    fn open(&mut self, el: &Element<'_, '_>, _tree: &mut Tree) {
        if el.link {
            let href = self.href.take();
            self.open_link(href);
        }
    }

    fn close(&mut self, open: &Open, tree: &mut Tree) {
        if open.link {
            self.close_link(tree.block.text.len());
        }
    }

    fn visible(&mut self, at: usize) {
        self.visible_at(at);
    }

    fn space(&mut self, at: usize) {
        self.space_at(at);
    }

    fn pre_newline(&mut self) {
        self.owe_break();
    }

    fn pre_indent(&mut self, c: char) {
        self.indent(c);
    }

    fn boundary(&mut self, block: Option<&mut BlockEnd<'_>>, _tree: &mut Tree) {
        if let Some(end) = block {
            end.block.inline = self.take(end.block.text.len());
        }
    }

    fn finish(&mut self, _page: &mut Page, _tree: &mut Tree) {}
}

impl Recorder {
    /// A recorder of the marks asked for.
    pub(super) fn new(marks: Marks) -> Recorder {
        Recorder {
            marks,
            ..Recorder::default()
        }
    }

    /// An `<a href>` opens (`href` as kept, if kept).
    fn open_link(&mut self, href: Option<String>) {
        if !self.marks.links {
            return;
        }
        if self.link.is_some() {
            self.depth += 1;
        } else {
            self.link = Some((href, None));
        }
    }

    /// An `<a href>` closes; the block's text is `len` bytes long.
    fn close_link(&mut self, len: usize) {
        if !self.marks.links {
            return;
        }
        if self.depth > 0 {
            self.depth -= 1;
            return;
        }
        if let Some((href, start)) = self.link.take() {
            self.end_link(href, start, len);
        }
    }

    fn end_link(&mut self, href: Option<String>, start: Option<u32>, len: usize) {
        if let (Some(href), Some(start)) = (href, start)
            && (start as usize) < len
        {
            self.current.links.push(Link {
                start,
                end: len as u32,
                href,
            });
        }
    }

    /// An `<img>` with a kept `src`, where the block's text is `len` bytes long.
    fn image(&mut self, src: String, alt: String, len: usize) {
        if !self.marks.images {
            return;
        }
        let image = Image {
            at: len as u32,
            src,
            alt,
        };
        if len == 0 {
            self.waiting.push(image);
        } else {
            self.current.images.push(image);
        }
    }

    /// A single newline of `pre` text became the owed space.
    fn owe_break(&mut self) {
        self.pre_break = Some(0);
    }

    /// Whitespace after a `pre` newline, before the next visible character.
    fn indent(&mut self, c: char) {
        if let Some(n) = &mut self.pre_break {
            *n = n.saturating_add(if c == '\t' { 4 } else { 1 });
        }
    }

    /// The owed space is being written at byte `at` of the block's text.
    fn space_at(&mut self, at: usize) {
        if let Some(indent) = self.pre_break.take() {
            self.current.breaks.push((at as u32, indent));
        }
    }

    /// Visible text is being written at byte `at` of the block's text (after
    /// any owed space).
    fn visible_at(&mut self, at: usize) {
        self.pre_break = None;
        if at == 0 && !self.waiting.is_empty() {
            self.current.images.append(&mut self.waiting);
        }
        if let Some((Some(_), start @ None)) = &mut self.link {
            *start = Some(at as u32);
        }
    }

    /// The block ends with `len` bytes of text: its marks, if any. An open
    /// link ends here and goes on in the next block.
    fn take(&mut self, len: usize) -> Option<Box<Inline>> {
        self.pre_break = None;
        if len == 0 {
            return None;
        }
        if let Some((href, start)) = &mut self.link
            && let Some(s) = start.take()
        {
            let href = href.clone();
            self.end_link(href, Some(s), len);
        }
        let inline = std::mem::take(&mut self.current);
        (!inline.is_empty()).then(|| Box::new(inline))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(html: &str, marks: Marks) -> Vec<(String, Option<Box<Inline>>)> {
        super::super::parse_with(html, marks)
            .blocks
            .into_iter()
            .map(|b| (b.text, b.inline))
            .collect()
    }

    const ALL: Marks = Marks {
        links: true,
        images: true,
    };

    #[test]
    fn links_are_spans_of_the_text() {
        let b = page(
            "<p>See <a href=\"/docs\">the <b>docs</b></a> and <a href='https://x.org/'>x</a>.</p>",
            ALL,
        );
        assert_eq!(b[0].0, "See the docs and x.");
        let links = &b[0].1.as_ref().unwrap().links;
        let spans: Vec<(&str, &str)> = links
            .iter()
            .map(|l| (&b[0].0[l.start as usize..l.end as usize], l.href.as_str()))
            .collect();
        assert_eq!(spans, [("the docs", "/docs"), ("x", "https://x.org/")]);
        // Not asked for: nothing recorded.
        assert!(
            page("<p>See <a href=/docs>docs</a></p>", Marks::default())[0]
                .1
                .is_none()
        );
    }

    #[test]
    fn a_link_across_blocks_and_nested_links() {
        let b = page(
            "<a href=/a><p>one</p><p>two <a href=/b>in</a> end</p></a>",
            ALL,
        );
        let spans: Vec<Vec<(u32, u32, &str)>> = b
            .iter()
            .map(|(_, i)| {
                i.as_ref()
                    .unwrap()
                    .links
                    .iter()
                    .map(|l| (l.start, l.end, l.href.as_str()))
                    .collect()
            })
            .collect();
        assert_eq!(spans, [vec![(0, 3, "/a")], vec![(0, 10, "/a")]]);
        // An empty href or one without text leaves no link.
        assert!(
            page("<p>x <a href=\"\">y</a> <a href=/z></a></p>", ALL)[0]
                .1
                .is_none()
        );
    }

    #[test]
    fn images_sit_where_they_stood() {
        let b = page(
            "<figure><img src=/a.png alt=\"A cat\"><figcaption>Cat</figcaption></figure>\
             <p>Text <img src=b.jpg> more</p><div hidden><img src=/h.png></div><p>x<img src=\"\"></p>",
            ALL,
        );
        let imgs: Vec<Vec<(u32, &str, &str)>> = b
            .iter()
            .map(|(_, i)| {
                i.as_ref().map_or(vec![], |i| {
                    i.images
                        .iter()
                        .map(|m| (m.at, m.src.as_str(), m.alt.as_str()))
                        .collect()
                })
            })
            .collect();
        assert_eq!(
            imgs,
            [vec![(0, "/a.png", "A cat")], vec![(4, "b.jpg", "")], vec![]]
        );
    }

    #[test]
    fn pre_line_breaks_and_indentation() {
        let b = page(
            "<pre>fn main() {\n    go();\n\tstop();\n}</pre>",
            Marks::default(),
        );
        assert_eq!(b[0].0, "fn main() { go(); stop(); }");
        assert_eq!(b[0].1.as_ref().unwrap().breaks, [(11, 4), (17, 4), (25, 0)]);
        // Outside pre, newlines are spaces with no mark.
        assert!(page("<p>a\nb</p>", ALL)[0].1.is_none());
    }
}
