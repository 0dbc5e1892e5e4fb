//! The tag table: the elements the walker knows, and what each one does
//! to blocks, kinds and context.

use super::Context;

/// The elements the pass treats specially; every other element is `Other`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum Tag {
    A,
    Address,
    Article,
    Aside,
    B,
    Big,
    Blockquote,
    Body,
    Br,
    Button,
    Caption,
    Center,
    Datalist,
    Dd,
    Details,
    Dialog,
    Dir,
    Div,
    Dl,
    Dt,
    Fieldset,
    Figcaption,
    Figure,
    Footer,
    Form,
    Frameset,
    H1,
    H2,
    H3,
    H4,
    H5,
    H6,
    Head,
    Header,
    Hgroup,
    Hr,
    Html,
    Iframe,
    Label,
    Legend,
    Li,
    Listing,
    Main,
    Math,
    Menu,
    Nav,
    Noembed,
    Noframes,
    Noscript,
    Ol,
    Optgroup,
    Option,
    P,
    Plaintext,
    Pre,
    Script,
    Strong,
    Section,
    Select,
    Style,
    Summary,
    Svg,
    Table,
    Tbody,
    Td,
    Template,
    Textarea,
    Tfoot,
    Th,
    Thead,
    Title,
    Tr,
    Ul,
    Xmp,
    /// A void element (never has content or an end tag).
    Void,
    /// Any other element.
    Other,
}

pub(super) const TAG_COUNT: usize = Tag::Other as usize + 1;

impl Tag {
    /// Classifies a lower-case tag name.
    pub fn from_name(name: &[u8]) -> Tag {
        use Tag::*;
        match name {
            b"a" => A,
            b"b" => B,
            b"big" => Big,
            b"address" => Address,
            b"article" => Article,
            b"aside" => Aside,
            b"blockquote" => Blockquote,
            b"body" => Body,
            b"br" => Br,
            b"button" => Button,
            b"caption" => Caption,
            b"center" => Center,
            b"datalist" => Datalist,
            b"dd" => Dd,
            b"details" => Details,
            b"dialog" => Dialog,
            b"dir" => Dir,
            b"div" => Div,
            b"dl" => Dl,
            b"dt" => Dt,
            b"fieldset" => Fieldset,
            b"figcaption" => Figcaption,
            b"figure" => Figure,
            b"footer" => Footer,
            b"form" => Form,
            b"frameset" => Frameset,
            b"h1" => H1,
            b"h2" => H2,
            b"h3" => H3,
            b"h4" => H4,
            b"h5" => H5,
            b"h6" => H6,
            b"head" => Head,
            b"header" => Header,
            b"hgroup" => Hgroup,
            b"hr" => Hr,
            b"html" => Html,
            b"iframe" => Iframe,
            b"label" => Label,
            b"legend" => Legend,
            b"li" => Li,
            b"listing" => Listing,
            b"main" => Main,
            b"math" => Math,
            b"menu" => Menu,
            b"nav" => Nav,
            b"noembed" => Noembed,
            b"noframes" => Noframes,
            b"noscript" => Noscript,
            b"ol" => Ol,
            b"optgroup" => Optgroup,
            b"option" => Option,
            b"p" => P,
            b"plaintext" => Plaintext,
            b"pre" => Pre,
            b"script" => Script,
            b"strong" => Strong,
            b"section" => Section,
            b"select" => Select,
            b"style" => Style,
            b"summary" => Summary,
            b"svg" => Svg,
            b"table" => Table,
            b"tbody" => Tbody,
            b"td" => Td,
            b"template" => Template,
            b"textarea" => Textarea,
            b"tfoot" => Tfoot,
            b"th" => Th,
            b"thead" => Thead,
            b"title" => Title,
            b"tr" => Tr,
            b"ul" => Ul,
            b"xmp" => Xmp,
            b"area" | b"base" | b"basefont" | b"bgsound" | b"col" | b"embed" | b"frame"
            | b"image" | b"img" | b"input" | b"isindex" | b"keygen" | b"link" | b"meta"
            | b"param" | b"source" | b"track" | b"wbr" => Void,
            _ => Other,
        }
    }

    /// Whether the element's start and end are block boundaries.
    pub fn is_block(self) -> bool {
        use Tag::*;
        matches!(
            self,
            Address
                | Article
                | Aside
                | Blockquote
                | Body
                | Caption
                | Center
                | Dd
                | Details
                | Dialog
                | Dir
                | Div
                | Dl
                | Dt
                | Fieldset
                | Figcaption
                | Figure
                | Footer
                | Form
                | Frameset
                | H1
                | H2
                | H3
                | H4
                | H5
                | H6
                | Header
                | Hgroup
                | Hr
                | Html
                | Legend
                | Li
                | Listing
                | Main
                | Menu
                | Nav
                | Ol
                | Option
                | Optgroup
                | P
                | Plaintext
                | Pre
                | Section
                | Summary
                | Table
                | Tbody
                | Td
                | Tfoot
                | Th
                | Thead
                | Tr
                | Ul
                | Xmp
        )
    }

    /// Whether the element's content is never visible text.
    pub fn is_skipped(self) -> bool {
        use Tag::*;
        matches!(
            self,
            Script
                | Style
                | Title
                | Template
                | Noscript
                | Iframe
                | Noembed
                | Noframes
                | Select
                | Datalist
                | Textarea
                | Svg
                | Math
        )
    }

    /// Whether the HTML element (named `name` if `Other`) is of HTML
    /// § 13.2.4.2's special category: an "any other end tag" of the tree
    /// builder's "in body" mode that meets one walking down the stack is
    /// ignored (`<x><h1>a</x>b` leaves `b` in the heading), and a
    /// formatting element's end tag (the adoption agency) moves the
    /// special elements it crosses out of it. Void elements never stay
    /// open, so `Void` is not asked. `html`, `body`, `head` and `frameset`
    /// do not count: the real ones are at the stack's bottom, where no
    /// element an end tag closes is below them, and the walker pushes the
    /// second `body` or `head` that the tree builder ignores in the body.
    /// The foreign special elements (SVG `foreignObject`, `desc`, `title`;
    /// MathML's text integration points and `annotation-xml`) are those
    /// that end a scope (`Space::ends_scope`).
    pub(super) fn is_special(self, name: &[u8]) -> bool {
        use Tag::*;
        match self {
            Html | Body | Head | Frameset => false,
            A | B | Big | Strong | Datalist | Dialog | Label | Legend | Math | Optgroup
            | Option | Svg | Void => false,
            Other => matches!(
                name,
                b"applet" | b"colgroup" | b"marquee" | b"object" | b"search"
            ),
            _ => true,
        }
    }

    /// Whether the HTML element (named `name` if `Other`) ends the default
    /// scope of HTML § 13.2.4.2 ("has an element in scope"): the end tag
    /// of a `div`, a `p`, an `li`, a heading or a formatting element open
    /// outside it is ignored inside it (`<div><table><tr><td></div>` closes
    /// nothing). `html` does not, as for [`Tag::is_special`].
    pub(super) fn ends_scope(self, name: &[u8]) -> bool {
        use Tag::*;
        match self {
            Caption | Table | Td | Th | Template => true,
            Other => matches!(name, b"applet" | b"marquee" | b"object"),
            _ => false,
        }
    }

    /// Whether the element's start and end tags are those of a table's
    /// part, which the tree builder ignores outside a table (HTML
    /// § 13.2.6.4.7, "in body": `caption`, `colgroup`, `tbody`, `td`,
    /// `tfoot`, `th`, `thead`, `tr`; `col` and `frame` are void).
    pub(super) fn is_table_part(self, name: &[u8]) -> bool {
        use Tag::*;
        match self {
            Caption | Tbody | Td | Tfoot | Th | Thead | Tr => true,
            Other => name == b"colgroup",
            _ => false,
        }
    }

    pub(super) fn is_bold(self) -> bool {
        matches!(self, Tag::B | Tag::Strong | Tag::Big)
    }

    /// The heading element of level `i + 1` (`h1` for 0), for `i` below 6.
    pub(super) fn heading(i: usize) -> Tag {
        [Tag::H1, Tag::H2, Tag::H3, Tag::H4, Tag::H5, Tag::H6][i]
    }

    pub(super) fn is_heading(self) -> bool {
        matches!(
            self,
            Tag::H1 | Tag::H2 | Tag::H3 | Tag::H4 | Tag::H5 | Tag::H6
        )
    }

    pub(super) fn context_flag(self) -> u32 {
        use Tag::*;
        match self {
            Nav => Context::NAV,
            Header => Context::HEADER,
            Footer => Context::FOOTER,
            Aside => Context::ASIDE,
            Form => Context::FORM,
            Table => Context::TABLE,
            Ul | Ol | Dl | Menu | Dir => Context::LIST,
            Article | Main => Context::ARTICLE,
            Blockquote => Context::QUOTE,
            Pre | Listing | Xmp | Plaintext => Context::PRE,
            Button | Label => Context::CONTROL,
            Figure | Figcaption => Context::FIGURE,
            _ => 0,
        }
    }
}
