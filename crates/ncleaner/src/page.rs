//! The frozen page: what the front end hands the back end, built once and
//! read, never changed, after.
//!
//! A [`Page`] holds the segments of one document as the route's model reads
//! them, and the page's facts: where it came from (URL, encoding, decoding
//! trouble, a limit that cut it short), its metadata as the markup states it
//! (final: the detected language, the canonical URL made absolute, a title
//! without its permalink mark), its language and the model that routes it,
//! and its predicted type. The policy ([`crate::policy`]) reads it and
//! returns one decision per segment; [`crate::cleaned::Cleaned::assemble`]
//! puts the two together. Nothing between the two changes the page: its
//! fields are private and read through `&self` methods.
//!
//! What the markup does not state and the decisions tell (an author read
//! from a kept byline, the date of a dateline beside the kept text) is not
//! a fact of the page: the assembly completes the metadata with it.

use std::sync::Arc;

use crate::classify::page::{PageFeatures, PagePrediction, PageTypeModel};
use crate::html;
use crate::segment::InputKind;
use crate::segment::{self, Segment};

/// Whether a decoded document looks like HTML: it has one of the tags that
/// almost every page has (`<html`, `<body`, `<p>`, `<div`, `<br`, `<table`,
/// `<a href`, a doctype) in its first 64 KiB.
pub fn looks_like_html(text: &str) -> bool {
    let head = &text.as_bytes()[..text.len().min(64 * 1024)];
    const TAGS: [&[u8]; 12] = [
        b"<html",
        b"<body",
        b"<head",
        b"<p>",
        b"<p ",
        b"<div",
        b"<br",
        b"<table",
        b"<a href",
        b"<!doctype",
        b"<title",
        b"<span",
    ];
    (0..head.len()).any(|i| {
        head[i] == b'<'
            && TAGS.iter().any(|t| {
                head.get(i..i + t.len())
                    .is_some_and(|w| w.eq_ignore_ascii_case(t))
            })
    })
}

/// The segments of a decoded document, and the input kind it was read as.
pub fn segments_of(text: &str, input: InputKind) -> (InputKind, Vec<Segment>) {
    let r = read(text, input, html::Marks::default());
    (r.input, r.segments)
}

/// Reads a decoded document: as HTML or as a text dump (`InputKind::Auto`:
/// as [`looks_like_html`] says), recording the inline marks asked for
/// ([`html::inline`]), and saying whether a limit of the pass stopped it
/// before the document's end: what bounds one document's working memory.
pub fn read(text: &str, input: InputKind, marks: html::Marks) -> Reading {
    let input = match input {
        InputKind::Auto if looks_like_html(text) => InputKind::Html,
        InputKind::Auto => InputKind::Text,
        k => k,
    };
    match input {
        InputKind::Text => {
            let (segments, truncated) = segment::from_text_limited(text);
            Reading {
                input,
                segments,
                metadata: None,
                truncated: truncated.then_some(html::Limit::Blocks),
                signals: None,
            }
        }
        _ => {
            let mut page = html::parse_with(text, marks);
            let metadata = std::mem::take(&mut page.metadata);
            let truncated = page.truncated;
            let signals = std::mem::take(&mut page.signals);
            Reading {
                input,
                segments: segment::from_page(page),
                metadata: Some(metadata),
                truncated,
                signals: Some(signals),
            }
        }
    }
}

/// A document as the front end read it: the input kind it was read as, its
/// segments in order, and what the HTML pass said of the whole page.
#[derive(Debug)]
pub struct Reading {
    /// How it was read (never `Auto`).
    pub input: InputKind,
    /// Its segments, in document order.
    pub segments: Vec<Segment>,
    /// Its metadata (HTML input only), as the markup states it.
    pub metadata: Option<html::Metadata>,
    /// The limit that stopped the reading before the document's end
    /// ([`html::MAX_BLOCKS`], [`html::MAX_ELEMENTS`]), if one did.
    pub truncated: Option<html::Limit>,
    /// What its tag stream says about the kind of page (HTML input only).
    pub signals: Option<html::Signals>,
}

/// Where a document came from and how its bytes were decoded.
#[derive(Debug, Clone, Default)]
pub struct Origin {
    /// The document's URL, if known.
    pub url: Option<String>,
    /// The encoding its bytes were decoded with.
    pub encoding: &'static str,
    /// Whether undecodable bytes were replaced.
    pub had_decode_errors: bool,
}

/// How the route's model reads a page, for [`Page::freeze`].
#[derive(Debug, Clone, Copy, Default)]
pub struct Reader<'a> {
    /// The page's detected language (`crate::lang`'s tag), when the cleaner
    /// routes and identified it.
    pub language: Option<&'a str>,
    /// The name of the routed model, when the cleaner routes.
    pub model: Option<&'a Arc<str>>,
    /// The model's page-type classifier, when the method reads the model
    /// and the model has one: the page's type is predicted with it (HTML).
    pub page_type: Option<&'a PageTypeModel>,
    /// The site memory, when the model reads the site features: each
    /// segment's share of the site's other pages is recorded.
    pub site: Option<&'a crate::site::SiteMemory>,
    /// Whether the decisions read the segments that hide themselves
    /// ([`html::Context::HIDDEN`]): else the page leaves them out
    /// ([`crate::classify::without_hidden`]).
    pub hidden: bool,
}

/// One document, read and frozen: the segments and the page's facts.
#[derive(Debug, Clone)]
pub struct Page {
    origin: Origin,
    input: InputKind,
    segments: Vec<Segment>,
    language: Option<String>,
    model: Option<Arc<str>>,
    metadata: Option<html::Metadata>,
    truncated: Option<String>,
    page_type: Option<PagePrediction>,
}

impl Page {
    /// Freezes a reading as `reader` reads it. The order is the one the
    /// models were trained in: the metadata's language and canonical URL
    /// first, then the page's features (which read the stated title as it
    /// is) and its type, then the site's share of each segment, then the
    /// hidden segments left out for a reader without them, and last the
    /// title without its permalink mark.
    pub fn freeze(reading: Reading, origin: Origin, reader: Reader<'_>) -> Page {
        let Reading {
            input,
            mut segments,
            mut metadata,
            truncated,
            signals,
        } = reading;
        let language = reader.language.map(str::to_string);
        if let Some(md) = &mut metadata {
            // The detected language, else the page's `lang` when it is a tag.
            md.language = language
                .clone()
                .or_else(|| md.language.as_deref().and_then(crate::lang::normalise_tag));
            md.canonical_url = md
                .canonical_url
                .take()
                .and_then(|u| absolute_url(&u, origin.url.as_deref()));
        }
        let html = input != InputKind::Text;
        let page_type = match (reader.page_type, &signals) {
            (Some(model), Some(signals)) if html => {
                let features =
                    PageFeatures::of(&segments, signals, metadata.as_ref(), origin.url.as_deref());
                Some(model.predict(&features))
            }
            _ => None,
        };
        if let Some(mem) = reader.site {
            mem.annotate(origin.url.as_deref(), &mut segments);
        }
        if !reader.hidden {
            segments = crate::classify::without_hidden(segments);
        }
        if let Some(t) = metadata.as_mut().and_then(|md| md.title.as_mut()) {
            let written = segment::without_permalink(t);
            if written.len() < t.len() {
                *t = written.to_string();
            }
        }
        Page {
            origin,
            input,
            segments,
            language,
            model: reader.model.cloned(),
            metadata,
            truncated: truncated.map(html::Limit::describe),
            page_type,
        }
    }

    /// A page of segments already read (the lab's pools), with its type
    /// predicted from `features` when `page_type` is given (HTML input).
    pub fn of_segments(
        segments: Vec<Segment>,
        input: InputKind,
        url: Option<String>,
        features: Option<&PageFeatures>,
        page_type: Option<&PageTypeModel>,
        hidden: bool,
    ) -> Page {
        let html = input != InputKind::Text;
        let page_type = match (page_type, features) {
            (Some(m), Some(f)) if html => Some(m.predict(f)),
            _ => None,
        };
        let segments = if hidden {
            segments
        } else {
            crate::classify::without_hidden(segments)
        };
        Page {
            origin: Origin {
                url,
                ..Origin::default()
            },
            input,
            segments,
            language: None,
            model: None,
            metadata: None,
            truncated: None,
            page_type,
        }
    }

    /// The page's segments, in order.
    pub fn segments(&self) -> &[Segment] {
        &self.segments
    }

    /// How the page was read (never [`InputKind::Auto`]).
    pub fn input(&self) -> InputKind {
        self.input
    }

    /// Whether the page was read as HTML.
    pub fn is_html(&self) -> bool {
        self.input != InputKind::Text
    }

    /// The page's predicted type (HTML, a model with a page-type classifier).
    pub fn page_type(&self) -> Option<&PagePrediction> {
        self.page_type.as_ref()
    }

    /// Whether undecodable bytes were replaced.
    pub fn had_decode_errors(&self) -> bool {
        self.origin.had_decode_errors
    }

    /// The page's parts, for the one assembly of a cleaned page.
    pub(crate) fn into_parts(self) -> PageParts {
        PageParts {
            origin: self.origin,
            input: self.input,
            segments: self.segments,
            language: self.language,
            model: self.model,
            metadata: self.metadata,
            truncated: self.truncated,
            page_type: self.page_type,
        }
    }
}

/// A page taken apart ([`Page::into_parts`]).
pub(crate) struct PageParts {
    pub origin: Origin,
    pub input: InputKind,
    pub segments: Vec<Segment>,
    pub language: Option<String>,
    pub model: Option<Arc<str>>,
    pub metadata: Option<html::Metadata>,
    pub truncated: Option<String>,
    pub page_type: Option<PagePrediction>,
}

/// A canonical URL as an absolute URL: kept when it is one, a path
/// (`/a/b`) joined to the scheme and host of the page's URL, a
/// scheme-relative URL (`//host/a`) given the page's scheme, else `None`.
fn absolute_url(url: &str, page: Option<&str>) -> Option<String> {
    if url.starts_with("http://") || url.starts_with("https://") {
        return Some(url.to_string());
    }
    if !url.starts_with('/') {
        return None;
    }
    let page = page?;
    if url.starts_with("//") {
        let scheme = page.split_once("://")?.0;
        return (scheme == "http" || scheme == "https").then(|| format!("{scheme}:{url}"));
    }
    let scheme_end = page.find("://")? + 3;
    let host_end = page[scheme_end..]
        .find(['/', '?', '#'])
        .map_or(page.len(), |i| scheme_end + i);
    (host_end > scheme_end).then(|| format!("{}{url}", &page[..host_end]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_urls_are_made_absolute() {
        assert_eq!(
            absolute_url("https://a/b", None).as_deref(),
            Some("https://a/b")
        );
        assert_eq!(
            absolute_url("//b/x", Some("https://a/")).as_deref(),
            Some("https://b/x")
        );
        assert_eq!(absolute_url("//b/x", None), None);
        assert_eq!(absolute_url("/x", Some("file:///tmp/a.html")), None);
        assert_eq!(
            absolute_url("/p", Some("http://h:8/a/b#c")).as_deref(),
            Some("http://h:8/p")
        );
    }
}
