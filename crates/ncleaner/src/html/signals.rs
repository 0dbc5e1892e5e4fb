//! What the tag stream says about the kind of page, beyond its blocks
//! ([`Signals`]): counts of elements (images, forms, code, tables, …), of
//! `class`/`id`/`role` words that name a page's parts (price, cart,
//! pagination, cards, …) and of microdata properties, the `og:type` and the
//! schema.org types of JSON-LD. The page-type classifier
//! (`classify::page`) reads them beside what the blocks and the tree say.
//!
//! A consumer of the walker's events ([`Reader`]): it reads every start
//! tag (its name, its `class`/`id`/`role` words, `itemprop` and a
//! `<meta>`'s keys and content) and every JSON-LD value the walker parses,
//! and nothing else. Counts saturate; a
//! hostile page can make them large but never slow (one look-up per
//! attribute word).

use super::attrs::attribute_words;
use super::consumer::{Consumer, Element, wants};
use super::meta::META_MAX_CHARS;
use super::tokenizer::StartTag;
use super::walk::Tree;
use super::{Page, Tag};

/// Most bytes of an `itemprop` value read (as the metadata reader's bound).
const ITEMPROP_MAX: usize = 2048;

/// The elements counted, in the order of [`Signals::elements`].
pub const ELEMENTS: [&str; 14] = [
    "img", "a", "form", "input", "button", "select", "table", "pre", "code", "article", "section",
    "time", "video", "iframe",
];

/// The `class`/`id`/`role` words counted (each word by the elements that
/// carry it), grouped by what they name, in the order of [`Signals::words`].
/// A group counts an element once, whichever of its words it has.
pub const WORD_GROUPS: [(&str, &[&str]); 18] = [
    (
        "price",
        &["price", "prices", "pricing", "amount", "currency"],
    ),
    (
        "cart",
        &["cart", "basket", "checkout", "buy", "purchase", "atc"],
    ),
    (
        "product",
        &["product", "products", "sku", "variant", "swatch"],
    ),
    (
        "rating",
        &["rating", "ratings", "review", "reviews", "stars"],
    ),
    (
        "comment",
        &["comment", "comments", "reply", "replies", "respond"],
    ),
    (
        "post",
        &["post", "posts", "thread", "topic", "message", "forum"],
    ),
    (
        "answer",
        &["answer", "answers", "question", "vote", "votes", "accepted"],
    ),
    (
        "pagination",
        &["pagination", "pager", "paging", "pagenav", "next", "prev"],
    ),
    (
        "card",
        &["card", "cards", "tile", "tiles", "grid", "item", "items"],
    ),
    (
        "teaser",
        &[
            "teaser",
            "related",
            "recommended",
            "more",
            "trending",
            "popular",
        ],
    ),
    (
        "filter",
        &["filter", "filters", "facet", "facets", "sort", "refine"],
    ),
    ("breadcrumb", &["breadcrumb", "breadcrumbs", "crumbs"]),
    (
        "share",
        &[
            "share",
            "sharing",
            "social",
            "follow",
            "newsletter",
            "subscribe",
        ],
    ),
    (
        "docs",
        &[
            "docs",
            "documentation",
            "toc",
            "api",
            "reference",
            "sidebar",
        ],
    ),
    (
        "code",
        &[
            "highlight",
            "syntax",
            "hljs",
            "prism",
            "codehilite",
            "sourcecode",
        ],
    ),
    (
        "byline",
        &["byline", "author", "dateline", "date", "published", "meta"],
    ),
    (
        "hero",
        &[
            "hero",
            "banner",
            "cta",
            "feature",
            "features",
            "testimonial",
        ],
    ),
    (
        "contact",
        &["contact", "address", "phone", "location", "map", "hours"],
    ),
];

/// The microdata properties counted, in the order of [`Signals::itemprops`].
pub const ITEMPROPS: [&str; 8] = [
    "price",
    "offers",
    "review",
    "articlebody",
    "author",
    "text",
    "name",
    "itemlistelement",
];

/// What an `og:type` says, in the order of [`Signals::og_type`]'s one-hot.
pub const OG_TYPES: [&str; 5] = ["none", "article", "product", "website", "other"];

/// The schema.org types of JSON-LD grouped by the kind of page they
/// describe, in the order of the bits of [`Signals::schema`].
pub const SCHEMA_GROUPS: [(&str, &[&str]); 12] = [
    (
        "article",
        &[
            "Article",
            "NewsArticle",
            "BlogPosting",
            "Report",
            "ScholarlyArticle",
            "AnalysisNewsArticle",
            "OpinionNewsArticle",
            "ReportageNewsArticle",
            "ReviewNewsArticle",
            "LiveBlogPosting",
            "SocialMediaPosting",
            "Review",
            "Recipe",
        ],
    ),
    (
        "product",
        &["Product", "ProductGroup", "Offer", "AggregateOffer"],
    ),
    (
        "forum",
        &[
            "DiscussionForumPosting",
            "Question",
            "QAPage",
            "Answer",
            "Comment",
        ],
    ),
    (
        "collection",
        &[
            "CollectionPage",
            "ItemList",
            "OfferCatalog",
            "SearchResultsPage",
            "ListItem",
        ],
    ),
    ("faq", &["FAQPage"]),
    (
        "docs",
        &[
            "TechArticle",
            "APIReference",
            "HowTo",
            "SoftwareSourceCode",
            "SoftwareApplication",
        ],
    ),
    (
        "webpage",
        &[
            "WebPage",
            "AboutPage",
            "ContactPage",
            "ItemPage",
            "MedicalWebPage",
        ],
    ),
    (
        "business",
        &[
            "Organization",
            "LocalBusiness",
            "Service",
            "ProfessionalService",
            "Corporation",
        ],
    ),
    ("breadcrumb", &["BreadcrumbList"]),
    ("event", &["Event", "Course", "JobPosting"]),
    ("person", &["Person", "ProfilePage"]),
    (
        "media",
        &["VideoObject", "ImageObject", "ImageGallery", "MediaGallery"],
    ),
];

/// Counts of the tag stream for the page type (see the module documentation).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Signals {
    /// Start tags of every element.
    pub tags: u32,
    /// Start tags of each of [`ELEMENTS`].
    pub elements: [u32; ELEMENTS.len()],
    /// Elements whose attribute words hold a word of each of [`WORD_GROUPS`].
    pub words: [u32; WORD_GROUPS.len()],
    /// Elements whose `itemprop` is each of [`ITEMPROPS`].
    pub itemprops: [u32; ITEMPROPS.len()],
    /// The `og:type`: an index into [`OG_TYPES`].
    pub og_type: u8,
    /// The groups of [`SCHEMA_GROUPS`] that JSON-LD names (bit i: group i).
    pub schema: u32,
    /// JSON-LD nodes with a `@type`.
    pub schema_nodes: u32,
}

/// The hashes of [`WORD_GROUPS`]' words, each with its group, sorted, and
/// a 1,024-bit filter of them: most attribute words are none of them, and
/// one look at the filter turns most away before the search.
struct WordTable {
    words: Vec<(u32, u8)>,
    filter: [u64; 16],
}

impl WordTable {
    /// The group of word `h`, if it is one of the table's.
    #[inline]
    fn group(&self, h: u32) -> Option<u8> {
        let bit = h as usize & 1023;
        if self.filter[bit >> 6] & (1 << (bit & 63)) == 0 {
            return None;
        }
        let i = self.words.binary_search_by(|&(w, _)| w.cmp(&h)).ok()?;
        Some(self.words[i].1)
    }
}

fn word_table() -> &'static WordTable {
    static TABLE: std::sync::OnceLock<WordTable> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t: Vec<(u32, u8)> = WORD_GROUPS
            .iter()
            .enumerate()
            .flat_map(|(g, (_, words))| {
                words.iter().flat_map(move |w| {
                    // Words are split as attribute words are: `page-numbers` is two.
                    let mut hashes = Vec::new();
                    super::attrs::attribute_words(w.as_bytes(), &mut hashes);
                    hashes.into_iter().take(1).map(move |h| (h, g as u8))
                })
            })
            .collect();
        t.sort_unstable();
        t.dedup();
        let mut filter = [0u64; 16];
        for &(h, _) in &t {
            let bit = h as usize & 1023;
            filter[bit >> 6] |= 1 << (bit & 63);
        }
        WordTable { words: t, filter }
    })
}

impl Signals {
    /// Counts one start tag: its name, its `itemprop` (lower-cased), and for
    /// a `<meta>` its keys (lower-cased) and content. Its `class`/`id`/`role`
    /// words are counted apart ([`Signals::words`]). Kept out of line, as
    /// the functions below, so that a profile shows what the page type costs.
    #[inline(never)]
    pub(super) fn start_tag(
        &mut self,
        tag: Tag,
        name: &[u8],
        itemprop: &str,
        meta_keys: &[String],
        content: &str,
    ) {
        self.tags = self.tags.saturating_add(1);
        let element = match tag {
            Tag::A => Some(1),
            Tag::Form => Some(2),
            Tag::Button => Some(4),
            Tag::Select => Some(5),
            Tag::Table => Some(6),
            Tag::Pre => Some(7),
            Tag::Article => Some(9),
            Tag::Section => Some(10),
            Tag::Iframe => Some(13),
            // The names below are 3 to 5 letters long.
            _ if (3..=5).contains(&name.len()) => {
                const NAMES: [(&[u8], usize); 5] = [
                    (b"img", 0),
                    (b"input", 3),
                    (b"code", 8),
                    (b"time", 11),
                    (b"video", 12),
                ];
                NAMES
                    .iter()
                    .find(|(n, _)| name.eq_ignore_ascii_case(n))
                    .map(|&(_, i)| i)
            }
            _ => None,
        };
        if let Some(i) = element {
            self.elements[i] = self.elements[i].saturating_add(1);
        }
        if !itemprop.is_empty() {
            for p in itemprop.split_ascii_whitespace() {
                if let Some(i) = ITEMPROPS.iter().position(|&x| x == p) {
                    self.itemprops[i] = self.itemprops[i].saturating_add(1);
                }
            }
        }
        if meta_keys.iter().any(|k| k == "og:type") {
            let v = content.trim().to_ascii_lowercase();
            let v = v.strip_prefix("og:").unwrap_or(&v);
            self.og_type = match v.split(['.', ':']).next().unwrap_or("") {
                "" => 0,
                "article" | "blog" | "news" => 1,
                "product" => 2,
                "website" => 3,
                _ => 4,
            };
        }
    }

    /// Counts one element's hashed `class`/`id`/`role` words: each group of
    /// [`WORD_GROUPS`] that holds one of them counts the element once.
    #[inline]
    pub(super) fn words(&mut self, words: &[u32]) {
        if words.is_empty() {
            return;
        }
        let table = word_table();
        let mut seen = 0u32;
        for &w in words {
            if let Some(g) = table.group(w) {
                seen |= 1 << g;
            }
        }
        while seen != 0 {
            let g = seen.trailing_zeros() as usize;
            self.words[g] = self.words[g].saturating_add(1);
            seen &= seen - 1;
        }
    }

    /// Counts the schema.org types of a JSON-LD value (`@graph` and arrays included).
    #[inline(never)]
    pub(super) fn json_ld(&mut self, v: &serde_json::Value) {
        fn walk(v: &serde_json::Value, s: &mut Signals, depth: usize) {
            if depth > 16 || s.schema_nodes >= 4096 {
                return;
            }
            match v {
                serde_json::Value::Object(o) => {
                    if let Some(t) = o.get("@type") {
                        s.schema_nodes += 1;
                        let mut add = |t: &str| {
                            let t = t.rsplit('/').next().unwrap_or(t);
                            for (i, (_, names)) in SCHEMA_GROUPS.iter().enumerate() {
                                if names.contains(&t) {
                                    s.schema |= 1 << i;
                                }
                            }
                        };
                        match t {
                            serde_json::Value::String(t) => add(t),
                            serde_json::Value::Array(a) => {
                                a.iter().take(8).filter_map(|t| t.as_str()).for_each(add)
                            }
                            _ => {}
                        }
                    }
                    for v in o.values() {
                        walk(v, s, depth + 1);
                    }
                }
                serde_json::Value::Array(a) => a.iter().for_each(|v| walk(v, s, depth + 1)),
                _ => {}
            }
        }
        walk(v, self, 0);
    }
}

/// The consumer that counts the [`Signals`] of the tag stream.
///
/// An element's `class`/`id`/`role` words are read from the tree when it
/// opens ([`Tree::top_words`]): the tree hashes each distinct string of a
/// page once (its word cache), where a page repeats its class lists on
/// every card and row, and the other consumers read the same words. The
/// elements that never open (void elements such as `img`, `input`, `meta`;
/// `br`, `hr`) have their words hashed here as their start tag comes. Its
/// `itemprop`, a `<meta>`'s keys and content, and every strictly parsed
/// JSON-LD value are read from the start tag (the metadata reader reads
/// some of the same attributes, but keeping the two apart lets either
/// change; the classifier's inputs stay those its models were trained on,
/// as for `Meta`).
///
/// The consumer's methods are kept out of line so that a profile (and
/// `scripts/bench-pagetype`) counts everything the signals cost.
#[derive(Default)]
pub(super) struct Reader {
    signals: Signals,
    /// A void element's attribute words.
    words: Vec<u32>,
    /// The start tag's `itemprop`, lower-cased.
    itemprop: String,
    /// A `<meta>`'s `name`, `property` and `itemprop`, lower-cased.
    meta_keys: Vec<String>,
    /// A `<meta>`'s `content`.
    content: String,
    /// A buffer for decoded values.
    buf: String,
}

impl Reader {
    /// Reads the attributes of `start` that the signals count; the
    /// `class`/`id`/`role` words only when `words` (an element that does
    /// not open).
    fn read(&mut self, start: &StartTag<'_>, words: bool) {
        self.words.clear();
        self.itemprop.clear();
        self.meta_keys.clear();
        self.content.clear();
        let meta = start.name == b"meta";
        for (attr, value) in start.attrs() {
            match attr {
                b"class" | b"id" | b"role" if words => {}
                b"name" | b"property" | b"itemprop" if meta => {}
                b"content" if meta => {}
                b"itemprop" => {}
                _ => continue,
            }
            let v = value.decoded(&mut self.buf);
            if v.is_empty() {
                continue;
            }
            match attr {
                b"class" | b"id" | b"role" => attribute_words(v.as_bytes(), &mut self.words),
                b"content" => {
                    if v.len() <= META_MAX_CHARS {
                        self.content.clear();
                        self.content.push_str(v);
                    }
                }
                _ if meta => {
                    let v = v.as_bytes().to_ascii_lowercase();
                    if v.len() <= 64 && self.meta_keys.len() < 4 {
                        self.meta_keys
                            .push(String::from_utf8_lossy(v.trim_ascii()).into_owned());
                    }
                }
                _ => {
                    if v.len() <= ITEMPROP_MAX {
                        self.itemprop = v.trim().to_ascii_lowercase();
                    }
                }
            }
        }
    }
}

impl Consumer for Reader {
    const WANTS: u32 = wants::START_TAG | wants::OPEN | wants::JSON_LD;

    #[inline(never)]
    fn start_tag(&mut self, el: &Element<'_, '_>, _tree: &mut Tree) {
        // The elements the walker does not open (`Walker::start_tag`).
        let never_opens = matches!(el.tag, Tag::Void | Tag::Br | Tag::Hr);
        self.read(el.start, never_opens);
        self.signals.start_tag(
            el.tag,
            el.start.name,
            &self.itemprop,
            &self.meta_keys,
            &self.content,
        );
        if never_opens {
            self.signals.words(&self.words);
        }
    }

    #[inline(never)]
    fn open(&mut self, _el: &Element<'_, '_>, tree: &mut Tree) {
        self.signals.words(tree.top_words());
    }

    #[inline(never)]
    fn json_ld(&mut self, value: &serde_json::Value, strict: bool) {
        if strict {
            self.signals.json_ld(value);
        }
    }

    fn finish(&mut self, page: &mut Page, _tree: &mut Tree) {
        page.signals = std::mem::take(&mut self.signals);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_product_page_and_an_article() {
        let page = crate::html::parse(
            "<html><head><meta property=og:type content=product>\
             <script type=application/ld+json>{\"@graph\":[{\"@type\":\"Product\"},\
             {\"@type\":[\"BreadcrumbList\"]}]}</script></head><body>\
             <div class=\"product-price\" itemprop=price>$5</div>\
             <button class=add-to-cart>Add to cart</button><img src=a.png><img src=b.png>\
             <ul class=pagination><li><a href=/2>2</a></li></ul></body></html>",
        );
        let s = &page.signals;
        assert_eq!(OG_TYPES[usize::from(s.og_type)], "product");
        assert_eq!(s.schema, 1 << 1 | 1 << 8, "{:b}", s.schema);
        assert_eq!(s.elements[0], 2, "two images");
        assert_eq!(s.elements[4], 1, "one button");
        assert_eq!(s.words[0], 1, "one price element");
        assert_eq!(s.words[1], 1, "one cart element");
        assert_eq!(s.words[7], 1, "one pagination element");
        assert_eq!(s.itemprops[0], 1);
        let article = crate::html::parse(
            "<meta property=\"og:type\" content=\"article\"><article><p>Text.</p></article>",
        );
        assert_eq!(OG_TYPES[usize::from(article.signals.og_type)], "article");
        assert_eq!(article.signals.elements[9], 1);
    }

    #[test]
    fn every_word_of_the_groups_is_in_the_table() {
        let table = word_table();
        for (g, (_, words)) in WORD_GROUPS.iter().enumerate() {
            for w in *words {
                let mut h = Vec::new();
                crate::html::attribute_words(w.as_bytes(), &mut h);
                assert!(table.words.contains(&(h[0], g as u8)), "{w}");
                // A word of two groups is found in one of them.
                assert!(table.group(h[0]).is_some(), "{w}");
            }
        }
    }
}
