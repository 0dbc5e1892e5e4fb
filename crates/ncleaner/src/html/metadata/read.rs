//! The consumer that reads the page's metadata on the walker's way: the
//! classifier's [`Meta`] (title, descriptions, JSON-LD article fields) and
//! the output's [`super::Metadata`] from `<meta>`, `<link rel=canonical>`,
//! `<html lang>`, `<time datetime>`, JSON-LD, the `<title>`, and the
//! elements whose text states a field (microdata, bylines).

use super::super::attrs::{attribute_words, word_hash};
use super::super::consumer::{Consumer, Element, wants};
use super::super::meta::{META_MAX_CHARS, Meta};
use super::super::open::{Open, Tree};
use super::super::tokenizer::{StartTag, Text};
use super::super::{Context, Page, Tag, collapse_whitespace};
use super::{CaptureKind, Collector, Field};
use crate::lexicon::{
    AUTHOR_URL, AsciiSearch, BYLINE_ELEMENT, COMMENT_BYLINE, MODIFIED_ELEMENT, PUBLISHED_ELEMENT,
    WordSet,
};

/// Most bytes of an attribute value kept for metadata (`content` has its own bound).
const MD_ATTR_MAX: usize = 2048;

/// Which [`Meta`] field a `<meta>` tag's `content` goes to.
#[derive(Default, Clone, Copy, PartialEq)]
enum MetaField {
    #[default]
    None,
    Title,
    Summary,
}

/// The attributes of a start tag that metadata reads, each bounded (the
/// last of repeated ones, as written, counts).
#[derive(Default)]
struct TagMetadata {
    /// A `<meta>` tag's `name`, `property` and `itemprop`, lower-cased.
    meta_keys: Vec<String>,
    /// Which [`Meta`] field a `<meta>` tag's `content` goes to.
    meta_field: MetaField,
    /// A `<meta>` tag's `content`.
    content: String,
    /// `itemprop` of another element, lower-cased.
    itemprop: String,
    /// `rel` of a `<link>` or `<a>`, lower-cased.
    rel: String,
    /// `href` of a `<link>`.
    href: String,
    /// `lang` of `<html>`.
    lang: String,
    /// `datetime` of `<time>`, and its `pubdate` attribute.
    datetime: String,
    pubdate: bool,
    /// An `<a>` whose `href` is an author's page (`/author/…`).
    author_href: bool,
}

impl TagMetadata {
    /// Reads the attributes of `start` (`tag` its element).
    fn read(&mut self, tag: Tag, start: &StartTag<'_>, buf: &mut String) {
        self.meta_keys.clear();
        self.meta_field = MetaField::None;
        self.content.clear();
        self.itemprop.clear();
        self.rel.clear();
        self.href.clear();
        self.lang.clear();
        self.datetime.clear();
        self.pubdate = false;
        self.author_href = false;
        let name = start.name;
        let meta = name == b"meta";
        for (attr, value) in start.attrs() {
            match attr {
                b"pubdate" => {
                    self.pubdate = true;
                    continue;
                }
                b"name" | b"property" | b"itemprop" if meta => {}
                b"content" if meta => {}
                b"href" if name == b"a" || name == b"link" => {}
                b"itemprop" | b"rel" | b"datetime" => {}
                b"lang" if tag == Tag::Html => {}
                _ => continue,
            }
            let v = value.decoded(buf);
            if v.is_empty() {
                continue;
            }
            let value = v.as_bytes();
            match attr {
                b"name" | b"property" | b"itemprop" if meta => {
                    let v = value.to_ascii_lowercase();
                    if v.len() <= 64 && self.meta_keys.len() < 4 {
                        let key = String::from_utf8_lossy(v.trim_ascii()).into_owned();
                        self.meta_keys.push(key);
                    }
                    let field = match v.trim_ascii() {
                        b"og:title" | b"twitter:title" | b"headline" => MetaField::Title,
                        b"description" | b"og:description" | b"twitter:description" => {
                            MetaField::Summary
                        }
                        _ => MetaField::None,
                    };
                    if field != MetaField::None {
                        self.meta_field = field;
                    }
                }
                b"content" if value.len() <= META_MAX_CHARS => {
                    self.content.clear();
                    self.content.push_str(v);
                }
                // Longer: a bound on what a hostile page can make the pass hold.
                b"content" => {}
                b"href" if name == b"a" => {
                    self.author_href =
                        value.len() <= MD_ATTR_MAX && md_hints().author_url.holds(value)
                }
                _ if value.len() <= MD_ATTR_MAX => {
                    let v = v.trim();
                    match attr {
                        b"itemprop" => self.itemprop = v.to_ascii_lowercase(),
                        b"rel" => self.rel = v.to_ascii_lowercase(),
                        b"href" => self.href = v.to_string(),
                        b"lang" => self.lang = v.to_string(),
                        _ => self.datetime = v.to_string(),
                    }
                }
                _ => {}
            }
        }
    }
}

/// The page's metadata, read on the walker's way (see the module documentation).
#[derive(Default)]
pub(in crate::html) struct Reader {
    /// What the page says its article is (classifier features).
    meta: Meta,
    /// The text of the page's first HTML `<title>` (a browser's
    /// `document.title`: later ones, in the head or elsewhere, are not
    /// the page's title, and SVG's are tooltips of pictures).
    title: String,
    /// HTML `<title>` elements opened so far.
    titles: u32,
    /// The page's metadata for output.
    collector: Collector,
    /// The start tag being read.
    tag: TagMetadata,
    /// The depths of the open elements that are microdata of another's
    /// post: `itemprop` comment, or an answer (`suggestedAnswer`,
    /// `acceptedAnswer`). Their dates are not the page's; their authors
    /// are still read: forums such as NodeBB mark the thread's own first
    /// post as a comment, and its author is the page's.
    replies: Vec<usize>,
    /// A buffer for decoded values.
    buf: String,
}

impl Consumer for Reader {
    const WANTS: u32 = wants::START_TAG
        | wants::OPEN
        | wants::CLOSE
        | wants::TEXT
        | wants::HIDDEN_TEXT
        | wants::JSON_LD;

    fn start_tag(&mut self, el: &Element<'_, '_>, tree: &mut Tree) {
        self.tag.read(el.tag, el.start, &mut self.buf);
        self.collector.capture_break();
        self.metadata_tag(el, tree);
        if el.tag == Tag::Void && self.tag.meta_field != MetaField::None {
            let field = match self.tag.meta_field {
                MetaField::Title => &mut self.meta.title,
                _ => &mut self.meta.summary,
            };
            Meta::push(field, &collapse_whitespace(&self.tag.content));
        }
    }

    fn open(&mut self, el: &Element<'_, '_>, tree: &mut Tree) {
        self.titles += u32::from(el.tag == Tag::Title);
        if self
            .tag
            .itemprop
            .split_ascii_whitespace()
            .any(|w| matches!(w, "comment" | "suggestedanswer" | "acceptedanswer"))
        {
            self.replies.push(tree.depth());
        }
        // An element opened outside the one being read ends it.
        if self
            .collector
            .capturing()
            .is_some_and(|d| tree.depth() - 1 < d)
        {
            self.collector.end_capture();
        }
        self.metadata_capture(tree);
    }

    fn close(&mut self, _open: &Open, tree: &mut Tree) {
        if self.replies.last() == Some(&tree.depth()) {
            self.replies.pop();
        }
    }

    fn text(&mut self, text: &str, tree: &mut Tree) {
        // Metadata is read from the page as shown: a hidden block's text
        // (read all the same, Context::HIDDEN) is not captured.
        if tree.has(Context::HIDDEN) {
            return;
        }
        if let Some(depth) = self.collector.capturing() {
            if tree.depth() >= depth {
                self.collector.capture_text(text);
            } else {
                self.collector.end_capture();
            }
        }
    }

    fn hidden_text(&mut self, text: Text<'_>, tree: &mut Tree) {
        if tree.count(Tag::Title) > 0 && self.titles == 1 && self.title.len() < META_MAX_CHARS {
            // Held until the end: the tokenizer may split the text anywhere.
            let mut buf = std::mem::take(&mut self.buf);
            self.title.push_str(text.decoded(&mut buf));
            self.buf = buf;
        }
    }

    fn json_ld(&mut self, value: &serde_json::Value, strict: bool) {
        if strict {
            self.meta.add_json_ld(value);
        }
        self.collector.json_ld(value);
    }

    fn finish(&mut self, page: &mut Page, _tree: &mut Tree) {
        let title = collapse_whitespace(&self.title);
        Meta::push(&mut self.meta.title, &title);
        self.collector.title_tag(&title);
        let h1: Vec<&str> = page
            .blocks
            .iter()
            .filter(|b| {
                b.tag == Tag::H1
                    && !b.context.has(Context::NAV)
                    && !b.context.has(Context::ASIDE)
                    && !b.context.has(Context::FOOTER)
                    && !b.context.has(Context::HIDDEN)
            })
            .take(3)
            .map(|b| b.text.as_str())
            .collect();
        page.metadata = std::mem::take(&mut self.collector).finish(&h1);
        page.meta = std::mem::take(&mut self.meta);
    }
}

impl Reader {
    /// What a start tag's attributes state: `<meta>`, `<link rel=canonical>`,
    /// `<html lang>`, `<time datetime>`.
    fn metadata_tag(&mut self, el: &Element<'_, '_>, tree: &mut Tree) {
        let md = &self.tag;
        let name = el.start.name;
        if !md.meta_keys.is_empty() && name == b"meta" {
            self.collector.meta_tag(&md.meta_keys, &md.content);
        } else if el.tag == Tag::Void && name == b"link" {
            if md.rel.split_ascii_whitespace().any(|r| r == "canonical") {
                self.collector.canonical_link(&md.href);
            }
        } else if el.tag == Tag::Html && !md.lang.is_empty() {
            self.collector.html_lang(&md.lang);
        } else if !md.datetime.is_empty()
            && !tree.hiding()
            && !tree.has(Context::HIDDEN)
            && name == b"time"
        {
            let hints = md_hints();
            // The words of the `time` element itself (not open yet).
            let mut own = Vec::new();
            element_words(el.start, &mut self.buf, &mut own);
            let near = tree.near_words().to_vec();
            let has = |w: u32| own.contains(&w) || near.contains(&w);
            let in_comment = !self.replies.is_empty() || hints.comment.iter().any(|&w| has(w));
            let outside = outside_article(tree);
            let md = &self.tag;
            if !self.replies.is_empty() {
                // A comment's or an answer's date is not the page's.
            } else if md.itemprop == "datepublished" || md.pubdate {
                self.collector
                    .time_element(&md.datetime, Field::Published, true);
            } else if md.itemprop == "datemodified" {
                self.collector
                    .time_element(&md.datetime, Field::Modified, true);
            } else if md.itemprop == "datecreated" {
                // A question's or a forum post's date (schema.org's `dateCreated`).
                if !in_comment {
                    self.collector.created_time(&md.datetime);
                }
            } else if !outside
                && !in_comment
                && !hints.modified.iter().any(|w| own.contains(w))
                && hints.published.iter().any(|&w| has(w))
            {
                self.collector
                    .time_element(&md.datetime, Field::Published, false);
            } else if !outside && !in_comment && !hints.modified.iter().any(|&w| has(w)) {
                self.collector.plain_time(&md.datetime);
            }
        }
    }

    /// Starts reading the text of an element that states a metadata field:
    /// microdata `itemprop` (author, headline, datePublished) or a byline
    /// (`rel=author`, a class naming the author or byline). The element is
    /// the top of `tree`.
    fn metadata_capture(&mut self, tree: &mut Tree) {
        if self.collector.capturing().is_some() || tree.hiding() || tree.has(Context::HIDDEN) {
            return;
        }
        let md = &self.tag;
        let hints = md_hints();
        // The element's own words, or the few nearest elements', name a
        // comment or a reply (or it is inside microdata of one).
        let in_comment = |tree: &mut Tree, replies: &[usize]| {
            !replies.is_empty()
                || hints
                    .comment
                    .iter()
                    .any(|w| tree.top_words().contains(w) || tree.near_words().contains(w))
        };
        let what = match md.itemprop.as_str() {
            "author" | "creator" => Some(CaptureKind::MicrodataAuthor),
            "headline" => Some(CaptureKind::MicrodataHeadline),
            // A comment's or an answer's date is not the page's.
            "datepublished" | "datecreated"
                if md.datetime.is_empty() && in_comment(tree, &self.replies) =>
            {
                None
            }
            "datepublished" if md.datetime.is_empty() => Some(CaptureKind::MicrodataDate),
            "datecreated" if md.datetime.is_empty() => Some(CaptureKind::MicrodataCreated),
            _ => None,
        };
        let what = what.or_else(|| {
            let byline = md.rel.split_ascii_whitespace().any(|r| r == "author")
                || md.author_href
                || ((tree.top_hashed() || names_byline(tree.top_names()))
                    && hints.byline.iter().any(|w| tree.top_words().contains(w)));
            (byline
                && !outside_article(tree)
                && !hints.comment.iter().any(|w| tree.near_words().contains(w)))
            .then_some(CaptureKind::Byline)
        });
        if let Some(what) = what {
            self.collector.start_capture(tree.depth(), what);
        }
    }
}

/// Whether `class`/`id`/`role` values can hold a byline hint word: a word
/// of [`MdHints::byline`] is its letters in a row, in any case. Words are
/// hashed only when this holds.
fn names_byline(names: &[u8]) -> bool {
    md_hints().byline_names.holds(names)
}

/// The attribute words of a start tag's `class`, `id` and `role` values.
fn element_words(start: &StartTag<'_>, buf: &mut String, out: &mut Vec<u32>) {
    for (name, value) in start.attrs() {
        if matches!(name, b"class" | b"id" | b"role") {
            let v = value.decoded(buf);
            if !v.is_empty() {
                attribute_words(v.as_bytes(), out);
            }
        }
    }
}

/// Whether an element is inside `nav`, `aside` or `footer`, where bylines
/// and dates are those of other pages.
fn outside_article(tree: &Tree) -> bool {
    [Context::NAV, Context::ASIDE, Context::FOOTER]
        .iter()
        .any(|&f| tree.has(f))
}

/// Hashed class/id words that tell metadata what an element holds (the
/// lexicon's sets), and the parts of an author's link.
struct MdHints {
    published: Vec<u32>,
    modified: Vec<u32>,
    byline: Vec<u32>,
    /// The words of [`MdHints::byline`], as written, in any case.
    byline_names: AsciiSearch,
    comment: Vec<u32>,
    author_url: AsciiSearch,
}

fn md_hints() -> &'static MdHints {
    static HINTS: std::sync::OnceLock<MdHints> = std::sync::OnceLock::new();
    let h = |set: &WordSet| set.words().map(|w| word_hash(w.as_bytes())).collect();
    HINTS.get_or_init(|| MdHints {
        published: h(&PUBLISHED_ELEMENT),
        modified: h(&MODIFIED_ELEMENT),
        byline: h(&BYLINE_ELEMENT),
        byline_names: AsciiSearch::new(&BYLINE_ELEMENT),
        comment: h(&COMMENT_BYLINE),
        author_url: AsciiSearch::new(&AUTHOR_URL),
    })
}
