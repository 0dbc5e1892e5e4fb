//! The page's metadata for output ([`Metadata`]): title, authors, dates,
//! site name, canonical URL, description, language, tags and categories,
//! read by the walker in its one pass.
//!
//! Unlike [`super::Meta`] (text the classifier compares segments with),
//! these are fields a user reads, so the rule is precision over recall: a
//! field is `None` (empty for lists) unless a source states it. Each field
//! takes the most trusted source that gives a usable value:
//!
//! - **title**: `og:title`, JSON-LD `headline`, `parsely-title`,
//!   `twitter:title`, microdata `headline`, Dublin Core, then the first
//!   HTML `<title>` (as `document.title`; not an SVG picture's) with a trailing site name cut off
//!   (` | Site`, ` - Site`) when the site name is known;
//! - **authors**: JSON-LD `author` of the article node (a string, a
//!   `Person`, an array, or an `@id` resolved in the `@graph`),
//!   `article:author`, `parsely-author`, `<meta name=author>`,
//!   `sailthru.author`, `dc.creator`, microdata `itemprop=author`, then a
//!   link with `rel=author` or a short element whose class names a byline
//!   (`author`, `byline`), outside comments; a value that is a URL, a
//!   handle, too long or without letters is not a name;
//! - **date published / modified**: JSON-LD `datePublished`/`dateModified`,
//!   `article:published_time`/`article:modified_time`, microdata
//!   (`datePublished`, then a question's or a post's `dateCreated`; not a
//!   comment's),
//!   `parsely-pub-date`, `sailthru.date`, Dublin Core, `<meta name=date>`
//!   (and `published-date`, `publication_date`, `last-modified`, …), the
//!   JSON-LD node of an article, a product, an event, a forum thread or a
//!   question (not a bare `WebPage`: its template's dates as often as its
//!   content's), then `<time datetime>` when it is clearly the publication
//!   date (an `itemprop`, a `pubdate` attribute, or a class of it or its
//!   parents that says published/posted); after the decisions, the
//!   pipeline reads a dateline beside the kept content when none of these
//!   gives a date. Dates are ISO 8601 ([`normalise_date`]): a full date,
//!   with the time and offset when given; a lone year (a copyright line) or
//!   a month is no date;
//! - **site name**: `og:site_name`, JSON-LD `publisher.name` or a
//!   `WebSite`'s `name`, `application-name`;
//! - **canonical URL**: `<link rel=canonical>`, `og:url` (absolute
//!   `http(s)` URLs only, or paths made absolute with the page's URL later);
//! - **description**: `og:description`, `description`,
//!   `twitter:description`, JSON-LD `description`;
//! - **language**: the `lang` of `<html>` (the pipeline prefers the language
//!   it detects);
//! - **tags**: `article:tag`, JSON-LD `keywords`, `parsely-tags`, else
//!   `<meta name=keywords>`; **categories**: `article:section`, JSON-LD
//!   `articleSection`, `parsely-section`.
//!
//! JSON-LD with raw control characters in its strings (invalid JSON, but
//! common) is read with them as spaces; `&amp;` and the few other
//! character references that pages escape twice are decoded in every value
//! ([`unescape_common`]); an avatar's initial after an author's name
//! (`JosephF J`) is dropped.
//!
//! Every value is bounded ([`FIELD_MAX_CHARS`], [`LIST_MAX`]), whatever the page.

use serde::{Deserialize, Serialize};

mod dates;
mod read;

use crate::lexicon;
use dates::{MONTH_NAMES, WEEKDAYS};
pub use dates::{any_date_in_text, date_in_text, holds_a_date_in_text, normalise_date};
pub(super) use read::Reader;

/// The page's metadata (see the module documentation). `None` and empty
/// lists mean that no reliable source gave the field.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Metadata {
    /// The article's title.
    pub title: Option<String>,
    /// The authors' names, in the order the page gives them.
    pub authors: Vec<String>,
    /// When the page was published: ISO 8601, `YYYY-MM-DD` or
    /// `YYYY-MM-DDTHH:MM:SS` with the offset when the page gives one.
    pub date_published: Option<String>,
    /// When the page was last modified (same form).
    pub date_modified: Option<String>,
    /// The name of the site or publication.
    pub site_name: Option<String>,
    /// The page's canonical URL.
    pub canonical_url: Option<String>,
    /// The page's description of itself.
    pub description: Option<String>,
    /// The page's language: an ISO 639-1 tag (the detected language when
    /// the cleaner identified it, else the `lang` of `<html>`).
    pub language: Option<String>,
    /// Tags or keywords.
    pub tags: Vec<String>,
    /// Sections or categories.
    pub categories: Vec<String>,
}

/// Most characters kept of one metadata value (a description is cut at a
/// character boundary below it).
pub const FIELD_MAX_CHARS: usize = 2048;

/// Most entries kept in a list field (authors, tags, categories).
pub const LIST_MAX: usize = 32;

/// Most characters of an author's name, a tag or a category.
const NAME_MAX_CHARS: usize = 100;

impl Metadata {
    /// Whether no field is known.
    pub fn is_empty(&self) -> bool {
        *self == Metadata::default()
    }
}

/// Which field a source's value goes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Field {
    Title,
    Author,
    Published,
    Modified,
    SiteName,
    Canonical,
    Description,
    Tags,
    Categories,
}

/// A field's best value so far and the rank of its source (lower wins; the
/// first of equal rank stays).
#[derive(Debug, Default)]
struct Slot<T> {
    best: Option<(u8, T)>,
}

impl<T> Slot<T> {
    fn offer(&mut self, rank: u8, value: T) {
        if self.best.as_ref().is_none_or(|(r, _)| rank < *r) {
            self.best = Some((rank, value));
        }
    }

    fn rank(&self) -> Option<u8> {
        self.best.as_ref().map(|(r, _)| *r)
    }

    fn take(self) -> Option<T> {
        self.best.map(|(_, v)| v)
    }
}

/// What the walker gathers for [`Metadata`] on its way.
#[derive(Debug, Default)]
pub(super) struct Collector {
    title: Slot<String>,
    authors: Slot<Vec<String>>,
    published: Slot<String>,
    modified: Slot<String>,
    site_name: Slot<String>,
    canonical: Slot<String>,
    description: Slot<String>,
    tags: Slot<Vec<String>>,
    categories: Slot<Vec<String>>,
    /// `article:tag` values (one meta tag each), gathered.
    article_tags: Vec<String>,
    /// `lang` of `<html>`.
    html_lang: Option<String>,
    /// The number of the `twitter:labelN` that said "Written by".
    twitter_author_label: Option<String>,
    /// Distinct names found in byline elements (many: a listing page).
    bylines: Vec<String>,
    /// The element whose text is being read for a field.
    capture: Option<Capture>,
}

/// An element whose text is a field's value (microdata, a byline).
#[derive(Debug)]
pub(super) struct Capture {
    /// The walker's stack depth with the element open.
    pub(super) depth: usize,
    pub(super) what: CaptureKind,
    text: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum CaptureKind {
    /// `itemprop=author` (or its `name`).
    MicrodataAuthor,
    /// `itemprop=headline`.
    MicrodataHeadline,
    /// `itemprop=datePublished` without `datetime`/`content`.
    MicrodataDate,
    /// `itemprop=dateCreated` without `datetime`/`content`.
    MicrodataCreated,
    /// A `rel=author` link or an element whose class says author/byline.
    Byline,
}

// Source ranks per field (lower wins).
const R_JSON_LD: u8 = 10;
const R_OG: u8 = 20;
const R_PARSELY: u8 = 30;
const R_META: u8 = 40;
const R_MICRODATA: u8 = 50;
/// Microdata `dateCreated`: a question's or forum post's date, below a
/// stated `datePublished`.
const R_CREATED: u8 = R_MICRODATA + 1;
const R_DC: u8 = 60;
const R_TIME: u8 = 70;
const R_PLAIN_TIME: u8 = 75;
const R_BYLINE: u8 = 80;
const R_TITLE_TAG: u8 = 90;

/// The field and rank of a `<meta>` tag's `name`/`property`/`itemprop`
/// (lower-cased), if it is one that metadata reads.
pub(super) fn meta_source(key: &str) -> Option<(Field, u8)> {
    use Field::*;
    Some(match key {
        "og:title" => (Title, R_OG - 5),
        "parsely-title" => (Title, R_PARSELY),
        "twitter:title" => (Title, R_META),
        "headline" => (Title, R_MICRODATA),
        "dc.title" | "dcterms.title" | "sailthru.title" => (Title, R_DC),
        "article:author" | "og:article:author" => (Author, R_OG),
        "parsely-author" => (Author, R_PARSELY),
        "author" => (Author, R_META),
        "sailthru.author" => (Author, R_META + 1),
        "dc.creator" | "dcterms.creator" | "citation_author" => (Author, R_DC),
        "article:published_time" | "og:article:published_time" | "article:published" => {
            (Published, R_OG)
        }
        "datepublished" => (Published, R_OG + 1),
        "parsely-pub-date" => (Published, R_PARSELY),
        "sailthru.date"
        | "pubdate"
        | "publishdate"
        | "publish-date"
        | "publish_date"
        | "pub_date"
        | "date"
        | "article.published"
        | "original-publish-date"
        | "published-date"
        | "published_date"
        | "publication-date"
        | "publication_date"
        | "published"
        | "citation_publication_date" => (Published, R_META),
        "dc.date" | "dcterms.date" | "dc.date.issued" | "dcterms.issued" | "dc.date.created"
        | "dcterms.created" => (Published, R_DC),
        "article:modified_time" | "og:article:modified_time" => (Modified, R_OG),
        "datemodified" => (Modified, R_OG + 1),
        "og:updated_time" | "last-modified" | "last_modified" | "lastmod" => (Modified, R_META),
        "dc.date.modified" | "dcterms.modified" => (Modified, R_DC),
        "og:site_name" => (SiteName, R_OG - 5),
        "application-name" => (SiteName, R_DC),
        "og:url" => (Canonical, R_OG),
        "og:description" => (Description, R_OG - 5),
        "description" => (Description, R_OG),
        "twitter:description" => (Description, R_META),
        "dc.description" | "dcterms.description" => (Description, R_DC),
        "article:tag" | "og:article:tag" => (Tags, R_OG),
        "parsely-tags" => (Tags, R_PARSELY),
        "keywords" | "news_keywords" => (Tags, R_DC),
        "article:section" | "og:article:section" => (Categories, R_OG),
        "parsely-section" => (Categories, R_PARSELY),
        _ => return None,
    })
}

impl Collector {
    /// A `<meta>` tag: each of its keys (`name`, `property`, `itemprop`) with its `content`.
    pub(super) fn meta_tag(&mut self, keys: &[String], content: &str) {
        for key in keys {
            // Twitter's "Written by" label and its datum.
            if let Some(n) = key.strip_prefix("twitter:label") {
                let c = content.trim().to_ascii_lowercase();
                self.twitter_author_label = lexicon::AUTHOR_LABELS
                    .contains(&c)
                    .then(|| n.chars().take(2).collect());
            } else if let Some(n) = key.strip_prefix("twitter:data")
                && self.twitter_author_label.as_deref() == Some(n)
            {
                self.offer(Field::Author, R_META + 2, content);
            }
            if let Some((field, rank)) = meta_source(key) {
                if field == Field::Tags && rank == R_OG {
                    if let Some(t) = clean_name(content)
                        && self.article_tags.len() < LIST_MAX
                        && !self.article_tags.contains(&t)
                    {
                        self.article_tags.push(t);
                    }
                    continue;
                }
                self.offer(field, rank, content);
            }
        }
    }

    /// `<link rel=canonical href>`.
    pub(super) fn canonical_link(&mut self, href: &str) {
        self.offer(Field::Canonical, R_OG - 5, href);
    }

    /// The `lang` of `<html>`.
    pub(super) fn html_lang(&mut self, lang: &str) {
        let lang = lang.trim();
        if self.html_lang.is_none()
            && !lang.is_empty()
            && lang.len() <= 35
            && lang
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        {
            self.html_lang = Some(lang.to_string());
        }
    }

    /// The `<title>` text (whitespace already collapsed).
    pub(super) fn title_tag(&mut self, title: &str) {
        self.offer(Field::Title, R_TITLE_TAG, title);
    }

    /// A `<time datetime>` that the walker judged to be the publication date
    /// (`strong`: an `itemprop`/`pubdate`; else a class hint).
    pub(super) fn time_element(&mut self, datetime: &str, field: Field, strong: bool) {
        let rank = if strong { R_MICRODATA } else { R_TIME };
        self.offer(field, rank, datetime);
    }

    /// A `<time itemprop=dateCreated datetime>` outside comments: the
    /// publication date of a question or a forum post, when nothing states a
    /// `datePublished`.
    pub(super) fn created_time(&mut self, datetime: &str) {
        self.offer(Field::Published, R_CREATED, datetime);
    }

    /// A `<time datetime>` without a hint, in the page's content (not in
    /// navigation, a sidebar, a footer or comments; not an update): the
    /// first one is the publication date when no other source gives one.
    pub(super) fn plain_time(&mut self, datetime: &str) {
        self.offer(Field::Published, R_PLAIN_TIME, datetime);
    }

    /// Offers a JSON-LD list field (`keywords`, `articleSection`) for tags or
    /// categories: a string is read as `offer` reads a meta tag's, an array
    /// of strings as the list itself.
    fn offer_list(&mut self, field: Field, value: Option<&serde_json::Value>) {
        match value {
            Some(serde_json::Value::String(k)) => self.offer(field, R_OG + 1, k),
            Some(serde_json::Value::Array(a)) => {
                let list = a
                    .iter()
                    .filter_map(|v| v.as_str())
                    .filter_map(clean_name)
                    .take(LIST_MAX)
                    .collect::<Vec<_>>();
                if !list.is_empty() {
                    let slot = if field == Field::Tags {
                        &mut self.tags
                    } else {
                        &mut self.categories
                    };
                    slot.offer(R_OG + 1, list);
                }
            }
            _ => {}
        }
    }

    /// Offers a value for a field from a source of this rank.
    pub(super) fn offer(&mut self, field: Field, rank: u8, value: &str) {
        match field {
            Field::Title => {
                if let Some(v) = clean_text(value) {
                    self.title.offer(rank, v)
                }
            }
            Field::Description => {
                if let Some(v) = clean_text(value) {
                    self.description.offer(rank, v)
                }
            }
            Field::SiteName => {
                if let Some(v) = clean_text(value).filter(|v| v.chars().count() <= NAME_MAX_CHARS) {
                    self.site_name.offer(rank, v)
                }
            }
            Field::Author => {
                let names = split_authors(value);
                if !names.is_empty() {
                    self.authors.offer(rank, names)
                }
            }
            Field::Published => {
                if let Some(d) = normalise_date(value) {
                    self.published.offer(rank, d)
                }
            }
            Field::Modified => {
                if let Some(d) = normalise_date(value) {
                    self.modified.offer(rank, d)
                }
            }
            Field::Canonical => {
                let v = value.trim();
                if v.len() <= FIELD_MAX_CHARS
                    && !v.is_empty()
                    && !v.contains(char::is_whitespace)
                    && (v.starts_with("http://") || v.starts_with("https://") || v.starts_with('/'))
                {
                    self.canonical.offer(rank, v.to_string())
                }
            }
            Field::Tags | Field::Categories => {
                let list: Vec<String> = split_list(value);
                if !list.is_empty() {
                    if field == Field::Tags {
                        self.tags.offer(rank, list)
                    } else {
                        self.categories.offer(rank, list)
                    }
                }
            }
        }
    }

    /// Starts reading an element's text for a field (one at a time).
    pub(super) fn start_capture(&mut self, depth: usize, what: CaptureKind) {
        if self.capture.is_none() {
            self.capture = Some(Capture {
                depth,
                what,
                text: String::new(),
            });
        }
    }

    /// Whether an element's text is being read.
    pub(super) fn capturing(&self) -> Option<usize> {
        self.capture.as_ref().map(|c| c.depth)
    }

    /// An element starts inside the element being read: a word boundary.
    pub(super) fn capture_break(&mut self) {
        if let Some(c) = &mut self.capture
            && !c.text.ends_with(' ')
            && c.text.len() < 4 * NAME_MAX_CHARS
        {
            c.text.push(' ');
        }
    }

    /// Text inside the element being read.
    pub(super) fn capture_text(&mut self, text: &str) {
        if let Some(c) = &mut self.capture
            && c.text.len() + text.len() <= 4 * NAME_MAX_CHARS
        {
            c.text.push_str(text);
        }
    }

    /// The element being read has ended: its text becomes a candidate.
    pub(super) fn end_capture(&mut self) {
        let Some(c) = self.capture.take() else {
            return;
        };
        let text = super::collapse_whitespace(&c.text);
        match c.what {
            CaptureKind::MicrodataAuthor => {
                if let Some(name) = byline_name(&text, false) {
                    self.offer(Field::Author, R_MICRODATA, &name)
                }
            }
            CaptureKind::MicrodataHeadline => self.offer(Field::Title, R_MICRODATA, &text),
            CaptureKind::MicrodataDate => self.offer(Field::Published, R_MICRODATA, &text),
            CaptureKind::MicrodataCreated => self.offer(Field::Published, R_CREATED, &text),
            CaptureKind::Byline => {
                if let Some(name) = byline_name(&text, true)
                    && !self.bylines.contains(&name)
                    && self.bylines.len() < LIST_MAX
                {
                    self.bylines.push(name);
                }
            }
        }
    }

    /// Adds the fields of a JSON-LD script's value (`@graph` and arrays included).
    pub(super) fn json_ld(&mut self, v: &serde_json::Value) {
        let mut nodes = Vec::new();
        collect_nodes(v, 0, &mut nodes);
        // `@id` → name of the people and organisations, to resolve references.
        let names: Vec<(&str, &str)> = nodes
            .iter()
            .filter_map(|n| Some((n.get("@id")?.as_str()?, n.get("name")?.as_str()?)))
            .collect();
        for node in &nodes {
            let types = node_types(node);
            let rank = match types.iter().map(|t| type_rank(t)).min().flatten() {
                Some(r) => r,
                None => {
                    if types.contains(&"WebSite")
                        && let Some(name) = node.get("name").and_then(|n| n.as_str())
                    {
                        self.offer(Field::SiteName, R_JSON_LD + 5, name);
                    }
                    continue;
                }
            };
            let r = R_JSON_LD + rank;
            let s = |k: &str| node.get(k).and_then(|v| v.as_str());
            if rank < 3 {
                // The name of a product or page is its title; an article's is its headline.
                if let Some(t) = s("headline").or_else(|| s("name")) {
                    self.offer(Field::Title, R_OG - 5 + rank + 1, t);
                }
                if let Some(a) = node.get("author").or_else(|| node.get("creator")) {
                    let mut authors = Vec::new();
                    json_names(a, &names, 0, &mut authors);
                    if !authors.is_empty() {
                        self.authors.offer(r, authors);
                    }
                }
            }
            // A web page's own dates are those of its template as often as
            // of its content: an article's, a product's or an event's only.
            if rank < 3 {
                if let Some(d) = s("datePublished").or_else(|| s("dateCreated")) {
                    self.offer(Field::Published, r, d);
                }
                if let Some(d) = s("dateModified") {
                    self.offer(Field::Modified, r, d);
                }
            }
            if let Some(d) = s("description") {
                self.offer(Field::Description, R_OG + rank, d);
            }
            if let Some(p) = node.get("publisher")
                && let Some(name) = p
                    .get("name")
                    .and_then(|n| n.as_str())
                    .or_else(|| resolve(p, &names))
            {
                self.offer(Field::SiteName, r, name);
            }
            self.offer_list(Field::Tags, node.get("keywords"));
            self.offer_list(Field::Categories, node.get("articleSection"));
        }
    }

    /// The metadata gathered; `h1` are the texts of the page's first
    /// top-level headings outside navigation.
    pub(super) fn finish(mut self, h1: &[&str]) -> Metadata {
        self.end_capture();
        if !self.article_tags.is_empty() {
            let tags = std::mem::take(&mut self.article_tags);
            self.tags.offer(R_OG, tags);
        }
        // A byline element names the author only when the page has one such
        // name or two (a listing page names the author of every teaser).
        if self.authors.rank().is_none() && (1..=2).contains(&self.bylines.len()) {
            let names = std::mem::take(&mut self.bylines);
            self.authors.offer(R_BYLINE, names);
        }
        let site_name = self.site_name.take();
        let title = self.title.take().map(|t| {
            let t = strip_site_name(&t, site_name.as_deref());
            strip_separators(&t)
        });
        let title = pick_title(title, h1);
        let authors = self.authors.take().unwrap_or_default();
        Metadata {
            title,
            authors,
            date_published: self.published.take(),
            date_modified: self.modified.take(),
            site_name,
            canonical_url: self.canonical.take(),
            description: self.description.take(),
            language: self.html_lang,
            tags: self.tags.take().unwrap_or_default(),
            categories: self.categories.take().unwrap_or_default(),
        }
    }
}

/// The rank of a JSON-LD `@type` among the types whose node describes the
/// page's main thing (`None`: another type).
fn type_rank(t: &str) -> Option<u8> {
    Some(match t {
        "Article"
        | "NewsArticle"
        | "BlogPosting"
        | "Report"
        | "ScholarlyArticle"
        | "TechArticle"
        | "AnalysisNewsArticle"
        | "OpinionNewsArticle"
        | "ReportageNewsArticle"
        | "ReviewNewsArticle"
        | "LiveBlogPosting"
        | "SocialMediaPosting"
        | "Review"
        | "Recipe"
        | "HowTo" => 0,
        "Product" | "Event" | "Course" | "JobPosting" => 1,
        // A forum thread or a question: its first post's author and date.
        "DiscussionForumPosting" | "Question" => 2,
        "WebPage" | "ItemPage" | "AboutPage" | "FAQPage" | "QAPage" | "ProfilePage"
        | "CollectionPage" | "SearchResultsPage" | "ContactPage" | "MedicalWebPage" => 3,
        _ => return None,
    })
}

fn node_types(node: &serde_json::Map<String, serde_json::Value>) -> Vec<&str> {
    match node.get("@type") {
        Some(serde_json::Value::String(t)) => vec![t.as_str()],
        Some(serde_json::Value::Array(a)) => a.iter().filter_map(|v| v.as_str()).take(8).collect(),
        _ => Vec::new(),
    }
}

/// Most JSON-LD nodes looked at per script.
const MAX_NODES: usize = 1024;

/// The objects of a JSON-LD value that have a `@type`: the value itself, the
/// items of arrays and `@graph`, and the `mainEntity`/`itemReviewed` nested in them.
fn collect_nodes<'a>(
    v: &'a serde_json::Value,
    depth: usize,
    out: &mut Vec<&'a serde_json::Map<String, serde_json::Value>>,
) {
    if depth > 8 || out.len() >= MAX_NODES {
        return;
    }
    match v {
        serde_json::Value::Array(a) => a.iter().for_each(|v| collect_nodes(v, depth + 1, out)),
        serde_json::Value::Object(o) => {
            if o.contains_key("@type") || o.contains_key("@id") {
                out.push(o);
            }
            for k in ["@graph", "mainEntity", "mainEntityOfPage"] {
                if let Some(v @ (serde_json::Value::Array(_) | serde_json::Value::Object(_))) =
                    o.get(k)
                {
                    collect_nodes(v, depth + 1, out);
                }
            }
        }
        _ => {}
    }
}

/// The name an `{"@id": …}` reference points at.
fn resolve<'a>(v: &serde_json::Value, names: &[(&str, &'a str)]) -> Option<&'a str> {
    let id = v.get("@id")?.as_str()?;
    names.iter().find(|(i, _)| *i == id).map(|(_, n)| *n)
}

/// The names of a JSON-LD `author`: a string, a person or organisation
/// (its `name`, or the name its `@id` refers to), or an array of them.
fn json_names(v: &serde_json::Value, names: &[(&str, &str)], depth: usize, out: &mut Vec<String>) {
    if depth > 3 || out.len() >= LIST_MAX {
        return;
    }
    let mut add = |s: &str| {
        for n in split_authors(s) {
            if !out.contains(&n) && out.len() < LIST_MAX {
                out.push(n);
            }
        }
    };
    match v {
        serde_json::Value::String(s) => add(s),
        serde_json::Value::Array(a) => a.iter().for_each(|v| json_names(v, names, depth + 1, out)),
        serde_json::Value::Object(o) => {
            match o.get("name") {
                Some(serde_json::Value::String(n)) => add(n),
                Some(serde_json::Value::Array(a)) => {
                    a.iter().filter_map(|n| n.as_str()).for_each(&mut add)
                }
                _ => {
                    if let Some(n) = resolve(v, names) {
                        add(n)
                    }
                }
            };
        }
        _ => {}
    }
}

/// A value cut to [`FIELD_MAX_CHARS`] with whitespace collapsed; `None` when empty.
fn clean_text(s: &str) -> Option<String> {
    let unescaped = unescape_common(s);
    let s = unescaped.as_ref();
    let s = if s.len() > 4 * FIELD_MAX_CHARS {
        let mut end = 4 * FIELD_MAX_CHARS;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        &s[..end]
    } else {
        s
    };
    let mut out = String::new();
    for w in s.split_whitespace() {
        if out.len() + w.len() + 1 > FIELD_MAX_CHARS {
            break;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
    (!out.is_empty()).then_some(out)
}

/// `s` with the character references that pages escape twice (`&amp;`,
/// `&quot;`, `&#39;`, `&apos;`, `&#x27;`, `&nbsp;`) as their characters:
/// JSON-LD is not HTML, so a name written `Maria &amp; Katerina` there
/// reaches us with its entity, where the page shows "Maria & Katerina".
/// One pass, so `&amp;amp;` gives `&amp;`.
fn unescape_common(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.contains('&') {
        return std::borrow::Cow::Borrowed(s);
    }
    const REFS: [(&str, &str); 6] = [
        ("&amp;", "&"),
        ("&quot;", "\""),
        ("&#39;", "'"),
        ("&apos;", "'"),
        ("&#x27;", "'"),
        ("&nbsp;", " "),
    ];
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        match REFS.iter().find(|(r, _)| rest.starts_with(r)) {
            Some((r, c)) => {
                out.push_str(c);
                rest = &rest[r.len()..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    std::borrow::Cow::Owned(out)
}

/// A tag, category or name: collapsed, at most [`NAME_MAX_CHARS`], with a letter or digit.
fn clean_name(s: &str) -> Option<String> {
    let s = clean_text(s)?;
    (s.chars().count() <= NAME_MAX_CHARS && s.chars().any(char::is_alphanumeric)).then_some(s)
}

/// A comma-separated list (tags, keywords) as items, deduplicated, at most [`LIST_MAX`].
fn split_list(s: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for item in s.split([',', ';']).filter_map(clean_name) {
        if out.len() >= LIST_MAX {
            break;
        }
        if !out.iter().any(|o| o.eq_ignore_ascii_case(&item)) {
            out.push(item);
        }
    }
    out
}

/// The author names a metadata value gives, each checked by [`author_name`].
/// Several are split on `;`, `|` or `&` only, as a comma may stand inside
/// one name (`Doe, Jane`).
fn split_authors(s: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for part in s.split([';', '|']) {
        if let Some(n) = author_name(part)
            && !out.contains(&n)
            && out.len() < LIST_MAX
        {
            out.push(n);
        }
    }
    out
}

/// An author field's value as a name, or `None` when it is not one: a URL,
/// an e-mail address, a handle, a number, too long, or a placeholder. A
/// leading "By" is dropped.
pub fn author_name(s: &str) -> Option<String> {
    let s = clean_text(s)?;
    let mut s = s
        .as_str()
        .trim_matches(|c: char| c == ',' || c == '-' || c.is_whitespace());
    for prefix in lexicon::AUTHOR_FIELD_PREFIXES.words() {
        if let Some(rest) = s.strip_prefix(prefix) {
            s = rest.trim();
        }
    }
    // An avatar's initial after the name ("JosephF J", "xJewishNinjax X"):
    // a last word of one letter, the first letter of the name.
    if let Some((name, last)) = s.rsplit_once(' ')
        && let [l] = last.as_bytes()
        && l.is_ascii_alphabetic()
        && name
            .as_bytes()
            .first()
            .is_some_and(|f| f.eq_ignore_ascii_case(l))
    {
        s = name.trim_end();
    }
    let words = crate::words::count(s);
    let lower = s.to_lowercase();
    if s.is_empty()
        || s.chars().count() > NAME_MAX_CHARS
        || words > 8
        || lower.contains("://")
        || lower.starts_with("www.")
        || s.contains('@')
        || s.contains('/')
        || s.contains(['{', '}', '<', '>', '='])
        || !s.chars().any(char::is_alphabetic)
        || lexicon::AUTHOR_PLACEHOLDERS.contains(&lower)
    {
        return None;
    }
    Some(s.to_string())
}

/// The name in a byline's text ("By Jane Doe | 4 March 2025" → "Jane Doe"):
/// the text up to a separator or a digit, if it looks like a name (one to
/// five words, each starting with a capital letter, or joining words such
/// as "van", "de").
pub fn byline_name(text: &str, capitals: bool) -> Option<String> {
    let mut s = text.trim();
    let lower = s.to_lowercase();
    for prefix in lexicon::BYLINE_NAME_PREFIXES.words() {
        if lower.starts_with(prefix) && s.is_char_boundary(prefix.len()) {
            let rest = &s[prefix.len()..];
            if rest.starts_with(|c: char| c.is_whitespace() || c == ':') || prefix.ends_with(':') {
                s = rest.trim_start_matches(|c: char| c.is_whitespace() || c == ':');
                break;
            }
        }
    }
    let end = s
        .char_indices()
        .find(|&(i, c)| {
            (c.is_ascii_digit() && (capitals || i == 0 || s[..i].ends_with(char::is_whitespace)))
                || matches!(c, '|' | '•' | '·' | '—' | '–' | ',' | '(' | '\n')
                || s[i..].starts_with(" - ")
                || lexicon::BYLINE_NAME_ENDS
                    .words()
                    .any(|e| s[i..].starts_with(e))
        })
        .map_or(s.len(), |(i, _)| i);
    let name = s[..end].trim().trim_end_matches(['.', ':']);
    let words: Vec<&str> = name.split_whitespace().collect();
    let is_date_word = |w: &str| {
        let w = w.trim_end_matches('.').to_ascii_lowercase();
        let month = w.len() >= 3
            && MONTH_NAMES
                .iter()
                .any(|f| f.starts_with(w.as_str()) || (w.starts_with(f) && w.len() == f.len()));
        month || WEEKDAYS.contains(&w.as_str()) || lexicon::DATELINE_WORDS.contains(&w)
    };
    let ok = (1..=5).contains(&words.len())
        && words.iter().all(|w| {
            !capitals
                || w.chars().next().is_some_and(char::is_uppercase)
                || lexicon::NAME_PARTICLES.contains(w)
        })
        && !words.last().is_some_and(|w| is_date_word(w))
        && (!capitals
            || words.iter().all(|w| {
                w.chars()
                    .all(|c| c.is_alphabetic() || matches!(c, '.' | '\'' | '’' | '-'))
            }));
    if ok { author_name(name) } else { None }
}

/// The title given the page's first `<h1>` texts (at most three): the
/// `<h1>` when the page has one, or when the stated title contains the
/// first (the stated title then holds more, such as a section's name);
/// else the stated title.
fn pick_title(title: Option<String>, h1: &[&str]) -> Option<String> {
    let norm = |s: &str| {
        s.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect::<String>()
    };
    let first = h1.iter().find_map(|h| clean_text(h));
    if h1.len() == 1 {
        return first.or(title);
    }
    if let (Some(t), Some(h)) = (&title, &first) {
        let (tn, hn) = (norm(t), norm(h));
        if !hn.is_empty() && tn.contains(&hn) {
            return first;
        }
    }
    title
}

/// A title's main part when separators join it to other parts: of parts
/// joined by ` | `, the longest; else a last part of at most three words
/// after ` - `, ` – ` or ` — ` is dropped.
fn strip_separators(title: &str) -> String {
    if title.contains(" | ") {
        return title
            .split(" | ")
            .map(str::trim)
            .max_by_key(|p| p.chars().count())
            .unwrap_or(title)
            .to_string();
    }
    for sep in [" - ", " – ", " — "] {
        if let Some((head, tail)) = title.rsplit_once(sep)
            && crate::words::count(tail) <= 3
            && crate::words::count(head) >= 2
        {
            return head.trim().to_string();
        }
    }
    title.to_string()
}

/// Cuts a site name off the end (or start) of a `<title>`: "Story | Site" →
/// "Story" when `site` is known and one side equals it.
fn strip_site_name(title: &str, site: Option<&str>) -> String {
    let Some(site) = site else {
        return title.to_string();
    };
    let norm = |s: &str| {
        s.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect::<String>()
    };
    let site_n = norm(site);
    if site_n.is_empty() {
        return title.to_string();
    }
    for sep in [" | ", " - ", " – ", " — ", " :: ", " · ", " • ", ": "] {
        if let Some((head, tail)) = title.rsplit_once(sep)
            && norm(tail) == site_n
            && !head.trim().is_empty()
        {
            return head.trim().to_string();
        }
        if let Some((head, tail)) = title.split_once(sep)
            && norm(head) == site_n
            && !tail.trim().is_empty()
        {
            return tail.trim().to_string();
        }
    }
    title.to_string()
}

#[cfg(test)]
mod tests;
