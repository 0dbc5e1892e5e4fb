//! The HTML tokenizer (WHATWG HTML § 13.2.5) that the pass reads pages with:
//! start tags with their attributes, end tags, and runs of text, handed to
//! a [`TokenSink`]; comments, doctypes and processing instructions are read
//! past and dropped.
//!
//! Built for what the pass needs, and for crawls:
//!
//! - **No recursion.** Each state is a step of a loop; the tag and script
//!   states are loops of their own. No input, however deep or long (7,000
//!   attributes on one tag, a megabyte of one state), grows the stack.
//! - **`memchr` to the next `<`** in text, to the closing quote of an
//!   attribute value, to the `>` that ends a comment; a raw-text element
//!   (`script`, `style`, `title`, `textarea`, …) is skipped in one search
//!   for its end tag.
//! - **Borrowed slices.** Names, attribute values and text are slices of
//!   the page (a name with capitals is lower-cased into a buffer kept
//!   between pages); character references, CR LF and NUL are decoded only
//!   when a consumer reads a value or a run of text ([`charref`]), so the
//!   text of a script or a hidden element, and the attributes nobody asks
//!   for, are never decoded or copied.
//!
//! The tokenizer switches into RCDATA, RAWTEXT, script data or PLAINTEXT
//! by the name of the start tag, as a tree builder would in the `body`
//! (html5gum's "naive" switching, which the pass used before): `title`,
//! `textarea`; `style`, `xmp`, `iframe`, `noembed`, `noframes`,
//! `noscript`; `script`; `plaintext`. The one thing it asks of the tree
//! builder is where foreign content is: after such a start tag, and at a
//! `<![CDATA[`, it asks its sink whether the adjusted current node is an
//! SVG or MathML element ([`TokenSink::in_foreign_content`], the walker's
//! answer; § 13.2.5.42 and the tree construction rules that switch
//! states). There, `title`, `style`, `textarea`, `script`, … are ordinary
//! elements whose content is markup, and `<![CDATA[ … ]]>` is a CDATA
//! section, its content text (§ 13.2.5.69–71); elsewhere `<![CDATA[` is a
//! bogus comment. A sink that does not answer is never in foreign content.
//!
//! It gives the tokens html5gum 0.9 gives (compared on every shared
//! page by `tests/tokenizer_differential.rs`, and on generated markup by the
//! fuzz target `tokenizer`), with these deliberate differences:
//!
//! - `noframes` is raw text, as the standard's tree builder has it;
//!   html5gum's list has `noframe`, which is no element, and reads
//!   `noframes` as markup (its content is hidden either way);
//! - no recursion: html5gum's states call each other, and a tag of some
//!   7,000 double-quoted attributes overflows its stack.
//!
//! One difference from the standard is kept, because the models were
//! trained with it: a repeated attribute (`class="a" class="b"`) is handed
//! on as often as it is written, as html5gum's callback emitter does,
//! where the standard keeps the first (§ 13.2.5.33). [`StartTag::attr`]
//! gives the first; the pass reads every copy. Keeping only the
//! first changes the outputs of 56 of the 2,996 shared pages (the
//! probabilities of 943 segments and 4 decisions).
//!
//! Text is handed on in the runs html5gum folds it into: everything between
//! two tags, comments or doctypes is one run, also across a dropped `</>`.

pub mod charref;
mod entities;

use memchr::{memchr, memchr2};

pub use charref::Decode;

/// Most attributes one start tag hands on ([`StartTag::attrs`]): those
/// past it are read past, as an end tag's are. What bounds the
/// tokenizer's memory, which holds a start tag's attributes until its
/// sink has read them (40 bytes an attribute): one 60 MiB
/// `<div a a a …>` held 30 million, 1.3 GB. Real pages have a few on each
/// element (at most 205 on one element of the 4,046 shared pages, and
/// 39,076 on one page).
pub const MAX_ATTRIBUTES: usize = 1024;

/// Most attributes the start tags of one page hand on, all together
/// (each tag's count bounded by [`MAX_ATTRIBUTES`]); past it start tags
/// are read with none. Every attribute handed on is read by the walker
/// and by each consumer that looks for its own, so this bounds the time a
/// page of attributes alone takes, as `html::MAX_ELEMENTS` bounds a page
/// of elements.
pub const MAX_PAGE_ATTRIBUTES: usize = 1_000_000;

/// What reads the tokens.
pub trait TokenSink {
    /// A start tag, with its attributes.
    fn start_tag(&mut self, tag: &StartTag<'_>);
    /// An end tag (its name lower-cased; its attributes are dropped).
    fn end_tag(&mut self, name: &[u8]);
    /// A run of text (never empty).
    fn text(&mut self, text: Text<'_>);
    /// Whether the adjusted current node is an element in a foreign
    /// namespace (SVG, MathML): asked after a start tag that would switch
    /// to raw text (the element just handled is then that node, or it was
    /// foreign and self-closing) and at `<![CDATA[`. Only a tree builder
    /// knows; without one, never.
    fn in_foreign_content(&self) -> bool {
        false
    }
}

/// A run of text as it stands in the page, and how to read it.
#[derive(Debug, Clone, Copy)]
pub struct Text<'a> {
    raw: &'a str,
    how: Decode,
}

impl<'a> Text<'a> {
    /// The run as written (character references not decoded).
    pub fn raw(&self) -> &'a str {
        self.raw
    }

    /// How the run is decoded.
    pub fn how(&self) -> Decode {
        self.how
    }

    /// The run decoded: borrowed when there is nothing to decode, else
    /// written into `buf` (cleared first).
    pub fn decoded<'b>(&self, buf: &'b mut String) -> &'b str
    where
        'a: 'b,
    {
        decoded(self.raw, self.how, buf)
    }
}

/// `raw` read as `how`: itself when there is nothing to decode, else its
/// decoding in `buf`.
fn decoded<'b>(raw: &'b str, how: Decode, buf: &'b mut String) -> &'b str {
    if charref::needs_decoding(raw, how) {
        buf.clear();
        charref::decode_into(raw, how, buf);
        buf
    } else {
        raw
    }
}

/// A start tag: its name (lower-cased), its attributes, whether it ended in `/>`.
pub struct StartTag<'a> {
    /// The tag name, lower-cased.
    pub name: &'a [u8],
    /// Whether the tag ended in `/>` (which HTML ignores, but for void elements).
    pub self_closing: bool,
    input: &'a str,
    names: &'a [u8],
    attrs: &'a [RawAttr],
}

/// An attribute's value, as written (decoded on request). Sliced from the
/// page only when read: a reader of a few attributes by name (the tree's
/// `class`/`id`/`role`, the page type's `itemprop`) passes the others'
/// values, and slicing a `str` checks both ends for character boundaries.
#[derive(Clone, Copy)]
pub struct AttrValue<'a> {
    input: &'a str,
    at: (usize, usize),
}

impl std::fmt::Debug for AttrValue<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AttrValue")
            .field("raw", &self.raw())
            .finish()
    }
}

impl<'a> AttrValue<'a> {
    /// The value as written (character references not decoded, CR not
    /// normalised).
    pub fn raw(&self) -> &'a str {
        &self.input[self.at.0..self.at.1]
    }

    /// The value decoded: borrowed when there is nothing to decode, else
    /// written into `buf` (cleared first).
    pub fn decoded<'b>(&self, buf: &'b mut String) -> &'b str
    where
        'a: 'b,
    {
        decoded(self.raw(), Decode::Attribute, buf)
    }
}

impl<'a> StartTag<'a> {
    /// The attributes, in order, names lower-cased. A repeated name comes
    /// as often as it is written (see the module documentation).
    pub fn attrs(&self) -> impl Iterator<Item = (&'a [u8], AttrValue<'a>)> + use<'a> {
        let (input, names) = (self.input, self.names);
        self.attrs.iter().map(move |a| {
            let name = if a.lowered {
                &names[a.name.0..a.name.1]
            } else {
                &input.as_bytes()[a.name.0..a.name.1]
            };
            let value = AttrValue { input, at: a.value };
            (name, value)
        })
    }

    /// Whether the tag has an attribute `name` (lower-case): its names
    /// alone are read, no value is sliced.
    pub fn has_attr(&self, name: &[u8]) -> bool {
        let (input, names) = (self.input.as_bytes(), self.names);
        // Lengths first: most names differ from `name` in theirs.
        self.attrs.iter().any(|a| {
            a.name.1.wrapping_sub(a.name.0) == name.len() && {
                let n = if a.lowered { names } else { input };
                n.get(a.name.0..a.name.1) == Some(name)
            }
        })
    }

    /// The value of the first attribute `name` (lower-case), if the tag has it.
    pub fn attr(&self, name: &[u8]) -> Option<AttrValue<'a>> {
        self.attrs().find(|(n, _)| *n == name).map(|(_, v)| v)
    }
}

/// An attribute: where its name and value are (byte ranges; the name in
/// the tokenizer's buffer when it had to be lower-cased).
#[derive(Debug, Clone, Copy)]
struct RawAttr {
    name: (usize, usize),
    lowered: bool,
    value: (usize, usize),
}

/// How the content of an element is tokenized.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Content {
    RcData,
    RawText,
    Script,
    PlainText,
}

/// The content model the tokenizer switches to after a start tag.
fn content(name: &[u8]) -> Option<Content> {
    match name {
        b"title" | b"textarea" => Some(Content::RcData),
        b"style" | b"xmp" | b"iframe" | b"noembed" | b"noframes" | b"noscript" => {
            Some(Content::RawText)
        }
        b"script" => Some(Content::Script),
        b"plaintext" => Some(Content::PlainText),
        _ => None,
    }
}

#[inline(always)]
fn is_space(b: u8) -> bool {
    // CR is read as LF before tokenizing (§ 13.2.3.5).
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c')
}

/// What a byte does inside a tag, by bits: it ends a tag name, an
/// attribute name, an unquoted value; it has to be lower-cased or replaced
/// in a name.
const ENDS_TAG_NAME: u8 = 1;
const ENDS_ATTR_NAME: u8 = 2;
const ENDS_UNQUOTED: u8 = 4;
const ODD_IN_NAME: u8 = 8;
const TAG_BYTES: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        let space = matches!(c, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c');
        if space || c == b'/' || c == b'>' {
            t[b] |= ENDS_TAG_NAME | ENDS_ATTR_NAME;
        }
        if c == b'=' {
            t[b] |= ENDS_ATTR_NAME;
        }
        if space || c == b'>' {
            t[b] |= ENDS_UNQUOTED;
        }
        if c.is_ascii_uppercase() || c == 0 {
            t[b] |= ODD_IN_NAME;
        }
        b += 1;
    }
    t
};

/// The tokenizer's buffers, kept from page to page.
#[derive(Default)]
pub struct Tokenizer {
    attrs: Vec<RawAttr>,
    /// Attributes handed on so far in the page being read
    /// ([`MAX_PAGE_ATTRIBUTES`]).
    page_attrs: usize,
    /// Lower-cased tag and attribute names.
    names: Vec<u8>,
    /// The current tag's name, when it had to be lower-cased.
    tag_name: Vec<u8>,
    /// Text joined across a dropped `</>`, decoded.
    joined: String,
}

/// A tag read up to its `>`.
struct TagEnd {
    /// The index after its `>`.
    after: usize,
    self_closing: bool,
    /// Its name in the input (lower-cased into `Tokenizer::tag_name` when `lowered`).
    name: (usize, usize),
    lowered: bool,
}

impl Tokenizer {
    /// Tokenizes `html`, handing every token to `sink`.
    pub fn run<S: TokenSink>(&mut self, html: &str, sink: &mut S) {
        let b = html.as_bytes();
        let mut pos = 0;
        // The pending run of text starts here (and `joined` holds what
        // came before a dropped `</>`).
        let mut text = 0;
        self.joined.clear();
        self.page_attrs = 0;
        while let Some(off) = memchr(b'<', &b[pos..]) {
            let lt = pos + off;
            match b.get(lt + 1) {
                Some(c) if c.is_ascii_alphabetic() => {
                    let Some(tag) = self.tag(b, lt + 1, true) else {
                        // EOF in a tag: the tag is lost, the text before it is not.
                        self.flush(html, text, lt, sink);
                        return;
                    };
                    self.flush(html, text, lt, sink);
                    let name: &[u8] = if tag.lowered {
                        &self.tag_name
                    } else {
                        &b[tag.name.0..tag.name.1]
                    };
                    let mode = content(name);
                    sink.start_tag(&StartTag {
                        name,
                        self_closing: tag.self_closing,
                        input: html,
                        names: &self.names,
                        attrs: &self.attrs,
                    });
                    pos = tag.after;
                    if let Some(mode) = mode
                        && !sink.in_foreign_content()
                    {
                        let name = name.to_vec();
                        match self.raw_content(html, pos, mode, &name, sink) {
                            Some(after) => pos = after,
                            None => return,
                        }
                    }
                    text = pos;
                }
                Some(b'/') => match b.get(lt + 2) {
                    Some(c) if c.is_ascii_alphabetic() => {
                        let Some(tag) = self.tag(b, lt + 2, false) else {
                            self.flush(html, text, lt, sink);
                            return;
                        };
                        self.flush(html, text, lt, sink);
                        let name: &[u8] = if tag.lowered {
                            &self.tag_name
                        } else {
                            &b[tag.name.0..tag.name.1]
                        };
                        sink.end_tag(name);
                        pos = tag.after;
                        text = pos;
                    }
                    Some(b'>') => {
                        // `</>` is dropped; the text around it is one run.
                        charref::decode_into(&html[text..lt], Decode::Data, &mut self.joined);
                        pos = lt + 3;
                        text = pos;
                    }
                    // `</` at the end is text.
                    None => break,
                    Some(_) => {
                        self.flush(html, text, lt, sink);
                        pos = to_gt(b, lt + 2);
                        text = pos;
                    }
                },
                Some(b'!') => {
                    self.flush(html, text, lt, sink);
                    pos = if b[lt + 2..].starts_with(b"[CDATA[") && sink.in_foreign_content() {
                        cdata_section(html, lt + 9, sink)
                    } else {
                        markup_declaration(b, lt)
                    };
                    text = pos;
                }
                Some(b'?') => {
                    self.flush(html, text, lt, sink);
                    pos = to_gt(b, lt + 1);
                    text = pos;
                }
                // A `<` that opens nothing is text.
                _ => pos = lt + 1,
            }
        }
        self.flush(html, text, b.len(), sink);
    }

    /// Hands on the pending run of text, `html[from..to]` after what
    /// `joined` holds.
    fn flush<S: TokenSink>(&mut self, html: &str, from: usize, to: usize, sink: &mut S) {
        if self.joined.is_empty() {
            if from < to {
                sink.text(Text {
                    raw: &html[from..to],
                    how: Decode::Data,
                });
            }
        } else {
            charref::decode_into(&html[from..to], Decode::Data, &mut self.joined);
            sink.text(Text {
                raw: &self.joined,
                how: Decode::Done,
            });
            self.joined.clear();
        }
    }

    /// The content of a raw-text element from `from` and its end tag:
    /// returns the index after the end tag, `None` when the page ends first.
    fn raw_content<S: TokenSink>(
        &mut self,
        html: &str,
        from: usize,
        mode: Content,
        name: &[u8],
        sink: &mut S,
    ) -> Option<usize> {
        let b = html.as_bytes();
        let end = match mode {
            Content::PlainText => None,
            Content::Script => script_end(b, from),
            Content::RcData | Content::RawText => raw_end(b, from, name),
        };
        let how = if mode == Content::RcData {
            Decode::RcData
        } else {
            Decode::Raw
        };
        let content_end = end.unwrap_or(b.len());
        if from < content_end {
            sink.text(Text {
                raw: &html[from..content_end],
                how,
            });
        }
        let end = end?;
        // The end tag is read as any end tag (its attributes too).
        let tag = self.tag(b, end + 2, false)?;
        sink.end_tag(name);
        Some(tag.after)
    }

    /// Reads a tag from `i`, the first letter of its name, to its `>`
    /// (§ 13.2.5.8 tag name to § 13.2.5.40 self-closing start tag):
    /// `None` when the page ends inside it. A start tag's attributes go to
    /// `self.attrs`; an end tag's are read past.
    fn tag(&mut self, b: &[u8], mut i: usize, start: bool) -> Option<TagEnd> {
        let ns = i;
        let mut odd = 0;
        while i < b.len() && TAG_BYTES[b[i] as usize] & ENDS_TAG_NAME == 0 {
            odd |= TAG_BYTES[b[i] as usize];
            i += 1;
        }
        let odd = odd & ODD_IN_NAME != 0;
        if i == b.len() {
            return None;
        }
        if odd {
            self.tag_name.clear();
            lower_into(&b[ns..i], &mut self.tag_name);
        }
        let mut tag = TagEnd {
            after: 0,
            self_closing: false,
            name: (ns, i),
            lowered: odd,
        };
        if start {
            self.attrs.clear();
            self.names.clear();
        }
        loop {
            // Before attribute name.
            while i < b.len() && is_space(b[i]) {
                i += 1;
            }
            match *b.get(i)? {
                b'>' => {
                    tag.after = i + 1;
                    return Some(tag);
                }
                b'/' => {
                    // Self-closing start tag: `/>` ends the tag, any other
                    // byte starts over before an attribute name.
                    if b.get(i + 1) == Some(&b'>') {
                        tag.after = i + 2;
                        tag.self_closing = true;
                        return Some(tag);
                    }
                    i += 1;
                    continue;
                }
                _ => {}
            }
            // Attribute name: a leading `=` is part of it.
            let an = i;
            let mut odd = 0;
            if b[i] == b'=' {
                i += 1;
            }
            while i < b.len() && TAG_BYTES[b[i] as usize] & ENDS_ATTR_NAME == 0 {
                odd |= TAG_BYTES[b[i] as usize];
                i += 1;
            }
            let odd = odd & ODD_IN_NAME != 0;
            let name = (an, i);
            // After attribute name.
            while i < b.len() && is_space(b[i]) {
                i += 1;
            }
            let mut value = (i, i);
            if b.get(i) == Some(&b'=') {
                i += 1;
                while i < b.len() && is_space(b[i]) {
                    i += 1;
                }
                match *b.get(i)? {
                    q @ (b'"' | b'\'') => {
                        let vs = i + 1;
                        let ve = vs + memchr(q, &b[vs..])?;
                        value = (vs, ve);
                        i = ve + 1;
                    }
                    // `a=>`: an empty value.
                    b'>' => value = (i, i),
                    _ => {
                        let vs = i;
                        while i < b.len() && TAG_BYTES[b[i] as usize] & ENDS_UNQUOTED == 0 {
                            i += 1;
                        }
                        if i == b.len() {
                            return None;
                        }
                        value = (vs, i);
                    }
                }
            }
            if start && self.attrs.len() < MAX_ATTRIBUTES && self.page_attrs < MAX_PAGE_ATTRIBUTES {
                self.page_attrs += 1;
                self.add_attr(b, name, odd, value);
            }
        }
    }

    /// Adds an attribute to the current start tag.
    fn add_attr(&mut self, b: &[u8], name: (usize, usize), odd: bool, value: (usize, usize)) {
        let mut attr = RawAttr {
            name,
            lowered: odd,
            value,
        };
        if odd {
            let at = self.names.len();
            lower_into(&b[name.0..name.1], &mut self.names);
            attr.name = (at, self.names.len());
        }
        self.attrs.push(attr);
    }
}

/// Appends `name` lower-cased (ASCII), NUL read as U+FFFD.
fn lower_into(name: &[u8], out: &mut Vec<u8>) {
    for &c in name {
        if c == 0 {
            out.extend_from_slice("\u{FFFD}".as_bytes());
        } else {
            out.push(c.to_ascii_lowercase());
        }
    }
}

/// The index after the `>` that ends a bogus comment, a doctype or a
/// processing instruction begun before `from` (the end of the page if none).
fn to_gt(b: &[u8], from: usize) -> usize {
    memchr(b'>', &b[from.min(b.len())..]).map_or(b.len(), |o| from + o + 1)
}

/// After `<!` at `lt`: a comment, a doctype or a bogus comment; returns
/// the index after it.
fn markup_declaration(b: &[u8], lt: usize) -> usize {
    let rest = &b[lt + 2..];
    if rest.starts_with(b"--") {
        comment_end(b, lt + 4)
    } else {
        // A doctype ends at its first `>` in every one of its states, quoted
        // identifiers included (§ 13.2.5.53–68); `<![CDATA[` outside
        // foreign content (`Tokenizer::run` reads it inside) and anything
        // else are bogus comments.
        to_gt(b, lt + 2)
    }
}

/// A CDATA section in foreign content whose content starts at `from`
/// (after `<![CDATA[`): its content, up to the first `]]>` or the page's
/// end, is handed on as text, no reference decoded (§ 13.2.5.69–71);
/// returns the index after it.
fn cdata_section<S: TokenSink>(html: &str, from: usize, sink: &mut S) -> usize {
    let b = html.as_bytes();
    let (end, after) = match memchr::memmem::find(&b[from..], b"]]>") {
        Some(off) => (from + off, from + off + 3),
        None => (b.len(), b.len()),
    };
    if from < end {
        sink.text(Text {
            raw: &html[from..end],
            how: Decode::Raw,
        });
    }
    after
}

/// The index after the comment whose body starts at `body` (after `<!--`):
/// the first `>` that the comment states end at (§ 13.2.5.43–52). That is
/// a `>` after two dashes (`-->`, also `<!-->` and `<!--->` with the
/// opening's dashes, and `--->`), or after `--!` whose dashes are in the body.
fn comment_end(b: &[u8], body: usize) -> usize {
    let mut i = body;
    while let Some(off) = memchr(b'>', &b[i.min(b.len())..]) {
        let gt = i + off;
        if gt >= 2 && b[gt - 2] == b'-' && b[gt - 1] == b'-' {
            return gt + 1;
        }
        if gt >= body + 3 && &b[gt - 3..gt] == b"--!" {
            return gt + 1;
        }
        i = gt + 1;
    }
    b.len()
}

/// Whether `b[at..]` starts with `name` (ASCII case-insensitive) and a byte
/// that ends a tag name: the appropriate end tag of a raw-text element.
#[inline]
fn ends_element(b: &[u8], at: usize, name: &[u8]) -> bool {
    b.len() > at + name.len()
        && b[at..at + name.len()].eq_ignore_ascii_case(name)
        && (is_space(b[at + name.len()]) || matches!(b[at + name.len()], b'/' | b'>'))
}

/// The index of the `<` of the end tag that closes RCDATA or RAWTEXT
/// content begun at `from` (§ 13.2.5.9–17).
fn raw_end(b: &[u8], from: usize, name: &[u8]) -> Option<usize> {
    let mut i = from;
    loop {
        let lt = i + memchr(b'<', &b[i..])?;
        if b.get(lt + 1) == Some(&b'/') && ends_element(b, lt + 2, name) {
            return Some(lt);
        }
        i = lt + 1;
    }
}

/// The states of script data that decide where a script ends (§ 13.2.5.4,
/// 15–31): an HTML comment opener inside a script escapes it, and a
/// `<script>` inside the escape makes `</script>` end only the inner one.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Script {
    Data,
    Escaped,
    EscapedDash,
    EscapedDashDash,
    Double,
    DoubleDash,
    DoubleDashDash,
}

/// Where a `<` in escaped script data leads.
enum Step {
    /// The script's end tag starts at this `<`.
    End(usize),
    /// Go on in this state from this index.
    Go(Script, usize),
}

/// The index of the `<` of the `</script>` that ends script data begun at
/// `from`.
fn script_end(b: &[u8], from: usize) -> Option<usize> {
    use Script::*;
    let mut s = Data;
    let mut i = from;
    loop {
        let step = match s {
            Data => {
                let lt = i + memchr(b'<', &b[i..])?;
                match b.get(lt + 1) {
                    Some(b'/') if ends_element(b, lt + 2, b"script") => Step::End(lt),
                    // `<!--` escapes; the state after it is the one after `--`.
                    Some(b'!') if b.get(lt + 2..lt + 4) == Some(b"--") => {
                        Step::Go(EscapedDashDash, lt + 4)
                    }
                    _ => Step::Go(Data, lt + 1),
                }
            }
            Escaped => {
                let at = i + memchr2(b'-', b'<', &b[i..])?;
                if b[at] == b'-' {
                    Step::Go(EscapedDash, at + 1)
                } else {
                    escaped_lt(b, at)?
                }
            }
            EscapedDash | EscapedDashDash => match *b.get(i)? {
                b'-' => Step::Go(EscapedDashDash, i + 1),
                b'<' => escaped_lt(b, i)?,
                b'>' if s == EscapedDashDash => Step::Go(Data, i + 1),
                _ => Step::Go(Escaped, i + 1),
            },
            Double => {
                let at = i + memchr2(b'-', b'<', &b[i..])?;
                if b[at] == b'-' {
                    Step::Go(DoubleDash, at + 1)
                } else {
                    double_lt(b, at)
                }
            }
            DoubleDash | DoubleDashDash => match *b.get(i)? {
                b'-' => Step::Go(DoubleDashDash, i + 1),
                b'<' => double_lt(b, i),
                b'>' if s == DoubleDashDash => Step::Go(Data, i + 1),
                _ => Step::Go(Double, i + 1),
            },
        };
        match step {
            Step::End(lt) => return Some(lt),
            Step::Go(next, at) => (s, i) = (next, at),
        }
    }
}

/// The run of ASCII letters at `from` and the index after it.
fn letters(b: &[u8], from: usize) -> (&[u8], usize) {
    let mut i = from;
    while i < b.len() && b[i].is_ascii_alphabetic() {
        i += 1;
    }
    (&b[from..i], i)
}

/// A `<` at `lt` in escaped script data: the script's end tag, a `<script`
/// that double-escapes, or text (§ 13.2.5.23–26). `None` at the page's end.
fn escaped_lt(b: &[u8], lt: usize) -> Option<Step> {
    match b.get(lt + 1) {
        Some(b'/') if ends_element(b, lt + 2, b"script") => Some(Step::End(lt)),
        Some(b'/') => Some(Step::Go(Script::Escaped, lt + 2)),
        Some(c) if c.is_ascii_alphabetic() => {
            let (run, after) = letters(b, lt + 1);
            let next = *b.get(after)?;
            if is_space(next) || matches!(next, b'/' | b'>') {
                let s = if run.eq_ignore_ascii_case(b"script") {
                    Script::Double
                } else {
                    Script::Escaped
                };
                Some(Step::Go(s, after + 1))
            } else {
                Some(Step::Go(Script::Escaped, after))
            }
        }
        _ => Some(Step::Go(Script::Escaped, lt + 1)),
    }
}

/// A `<` at `lt` in double-escaped script data: a `</script` that ends the
/// double escape, or text (§ 13.2.5.30–31).
fn double_lt(b: &[u8], lt: usize) -> Step {
    if b.get(lt + 1) != Some(&b'/') {
        return Step::Go(Script::Double, lt + 1);
    }
    let (run, after) = letters(b, lt + 2);
    match b.get(after) {
        Some(&c) if is_space(c) || matches!(c, b'/' | b'>') => {
            let s = if run.eq_ignore_ascii_case(b"script") {
                Script::Escaped
            } else {
                Script::Double
            };
            Step::Go(s, after + 1)
        }
        _ => Step::Go(Script::Double, after),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The attributes each start tag hands on, and the text.
    #[derive(Default)]
    struct Counts(Vec<usize>, String);

    impl TokenSink for Counts {
        fn start_tag(&mut self, tag: &StartTag<'_>) {
            self.0.push(tag.attrs().count());
        }
        fn end_tag(&mut self, _: &[u8]) {}
        fn text(&mut self, text: Text<'_>) {
            self.1.push_str(text.raw());
        }
    }

    #[test]
    fn attributes_past_a_tags_bound_are_read_past() {
        // Issue 70, P5: every attribute of one `<div a a a …>` was held.
        let html = format!(
            "<div {}id=last>text</div><p class=x>after",
            "a ".repeat(MAX_ATTRIBUTES + 10)
        );
        let mut counts = Counts::default();
        Tokenizer::default().run(&html, &mut counts);
        assert_eq!(counts.0, [MAX_ATTRIBUTES, 1]);
        assert_eq!(counts.1, "textafter");
    }

    #[test]
    fn attributes_past_a_pages_bound_are_read_past() {
        let tags = MAX_PAGE_ATTRIBUTES / MAX_ATTRIBUTES + 2;
        let html = format!("<i {}>", "a ".repeat(MAX_ATTRIBUTES)).repeat(tags) + "<b c>end";
        let mut tokenizer = Tokenizer::default();
        let mut counts = Counts::default();
        tokenizer.run(&html, &mut counts);
        assert_eq!(counts.0.len(), tags + 1);
        assert_eq!(counts.0.iter().sum::<usize>(), MAX_PAGE_ATTRIBUTES);
        assert_eq!(counts.0.last(), Some(&0));
        assert_eq!(counts.1, "end");
        // The next page starts its count again.
        let mut next = Counts::default();
        tokenizer.run("<b c d>x", &mut next);
        assert_eq!(next.0, [2]);
    }
}
