//! What the tag stream says about the kind of page, beyond its blocks
//! ([`Signals`]): counts of elements (images, forms, code, tables, …), of
//! `class`/`id`/`role` words that name a page's parts (price, cart,
//! pagination, cards, …: `crate::lexicon::PAGE_CLASS_WORDS`) and of
//! microdata properties, the `og:type` and the
//! schema.org types of JSON-LD. The page-type classifier
//! (`classify::page`) reads them beside what the blocks and the tree say.
//!
//! A consumer of the walker's events ([`Reader`]): it reads every start
//! tag (its name, its `class`/`id`/`role` words, `itemprop` and a
//! `<meta>`'s keys and content) and every JSON-LD value the walker parses,
//! and nothing else. Counts saturate; a
//! hostile page can make them large but never slow (one look-up per
//! attribute word).

use super::attrs::each_attribute_word;
use super::consumer::{Consumer, Element, wants};
use super::meta::META_MAX_CHARS;
use super::open::{Tree, join_names};
use super::tokenizer::StartTag;
use super::{Page, Tag};
use crate::lexicon::PAGE_CLASS_GROUPS;

/// Most bytes of an `itemprop` value read (as the metadata reader's bound).
const ITEMPROP_MAX: usize = 2048;

/// The elements counted, in the order of [`Signals::elements`].
pub const ELEMENTS: [&str; 14] = [
    "img", "a", "form", "input", "button", "select", "table", "pre", "code", "article", "section",
    "time", "video", "iframe",
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
    /// Elements whose attribute words hold a word of each of [`PAGE_CLASS_GROUPS`].
    pub words: [u32; PAGE_CLASS_GROUPS.len()],
    /// Elements whose `itemprop` is each of [`ITEMPROPS`].
    pub itemprops: [u32; ITEMPROPS.len()],
    /// The `og:type`: an index into [`OG_TYPES`].
    pub og_type: u8,
    /// The groups of [`SCHEMA_GROUPS`] that JSON-LD names (bit i: group i).
    pub schema: u32,
    /// JSON-LD nodes with a `@type`.
    pub schema_nodes: u32,
}

/// The hashes of [`PAGE_CLASS_GROUPS`]' words, each with its group, sorted, and
/// the same laid out for look-ups: open addressing by a hash's low bits in
/// a table ten times their number, so that most attribute words, which are
/// none of them, cost one load.
struct WordTable {
    words: Vec<(u32, u8)>,
    /// (hash, its group + 1) by the hash's low bits, then the next free
    /// slot; 0 marks a free slot. An array, so that a masked index needs
    /// no bounds check.
    slots: Box<[(u32, u8); WordTable::SLOTS]>,
}

impl WordTable {
    /// Slots of the look-up table (a power of two).
    const SLOTS: usize = 1024;

    /// The group of word `h`, if it is one of the table's.
    #[inline]
    fn group(&self, h: u32) -> Option<u8> {
        let mut i = h as usize & (Self::SLOTS - 1);
        loop {
            let (k, g) = self.slots[i];
            if g == 0 {
                return None;
            }
            if k == h {
                return Some(g - 1);
            }
            i = (i + 1) & (Self::SLOTS - 1);
        }
    }

    /// The group of word `h` by a search of the sorted words: of a word of
    /// two groups, the one the search finds (the table gives the same).
    fn searched(&self, h: u32) -> Option<u8> {
        let i = self.words.binary_search_by(|&(w, _)| w.cmp(&h)).ok()?;
        Some(self.words[i].1)
    }
}

fn word_table() -> &'static WordTable {
    static TABLE: std::sync::OnceLock<WordTable> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t: Vec<(u32, u8)> = PAGE_CLASS_GROUPS
            .iter()
            .enumerate()
            .flat_map(|(g, set)| {
                set.words().flat_map(move |w| {
                    // Words are split as attribute words are: `page-numbers` is two.
                    let mut hashes = Vec::new();
                    super::attrs::attribute_words(w.as_bytes(), &mut hashes);
                    hashes.into_iter().take(1).map(move |h| (h, g as u8))
                })
            })
            .collect();
        t.sort_unstable();
        t.dedup();
        let mut table = WordTable {
            words: t,
            slots: Box::new([(0, 0); WordTable::SLOTS]),
        };
        let mut hashes: Vec<u32> = table.words.iter().map(|&(h, _)| h).collect();
        hashes.dedup();
        for h in hashes {
            let g = table.searched(h).expect("a word of the table");
            let mut i = h as usize & (WordTable::SLOTS - 1);
            while table.slots[i].1 != 0 {
                i = (i + 1) & (WordTable::SLOTS - 1);
            }
            table.slots[i] = (h, g + 1);
        }
        table
    })
}

/// The groups of [`PAGE_CLASS_GROUPS`] that hashed attribute words hold, as a
/// mask (bit g: group g).
fn group_mask(words: &[u32]) -> u32 {
    let table = word_table();
    words
        .iter()
        .filter_map(|&w| table.group(w))
        .fold(0, |m, g| m | 1 << g)
}

/// [`group_mask`] of the words of `names`, each looked up as it is split
/// and hashed ([`each_attribute_word`]), with no buffer of hashes.
fn names_mask(names: &[u8]) -> u32 {
    let table = word_table();
    let mut mask = 0;
    each_attribute_word(names, |w| {
        if let Some(g) = table.group(w) {
            mask |= 1 << g;
        }
    });
    mask
}

/// [`group_mask`] for the tree, which keeps it with the words of each
/// distinct string it hashes ([`Tree::set_word_mask`]), so that an opened
/// element whose words another consumer had hashed costs the signals one
/// load. Out of line and called by the tree alone, so that
/// `scripts/bench-pagetype` counts it with the page type wherever the tree
/// hashes.
#[inline(never)]
pub(super) fn tree_word_mask(words: &[u32]) -> u32 {
    group_mask(words)
}

/// The [`group_mask`] of each distinct `class`/`id`/`role` string of a
/// page, found once: a page repeats its class lists on every card, row and
/// post, and looking a string up costs a fraction of splitting, hashing and
/// looking up its words again. The strings are those the tree keeps for
/// its open elements ([`Tree::top_names`]): each value, non-empty ones
/// joined by a space (which splits words as hashing the values one after
/// the other does). Bounded: past [`MaskCache::MAX_BYTES`] bytes of strings
/// it is emptied and starts over.
#[derive(Default)]
struct MaskCache {
    /// A hash of the string → (its start in `names`, its length, its mask).
    index: rustc_hash::FxHashMap<u64, (u32, u32, u32)>,
    names: Vec<u8>,
}

impl MaskCache {
    /// Most bytes of strings held.
    const MAX_BYTES: usize = 1 << 20;
    /// Strings shorter than this are split as they come.
    const MIN_LEN: usize = 8;
    /// Strings room is made for at the first.
    const FIRST_STRINGS: usize = 256;

    /// The mask of the words of `names`.
    fn mask(&mut self, names: &[u8]) -> u32 {
        if names.is_empty() {
            return 0;
        }
        if names.len() < Self::MIN_LEN {
            return names_mask(names);
        }
        let key = {
            use std::hash::{Hash, Hasher};
            let mut h = rustc_hash::FxHasher::default();
            names.hash(&mut h);
            h.finish()
        };
        if let Some(&(at, len, mask)) = self.index.get(&key)
            && &self.names[at as usize..(at + len) as usize] == names
        {
            return mask;
        }
        let mask = names_mask(names);
        if self.index.capacity() == 0 {
            // Sized at once for most pages' distinct strings, where growing
            // from nothing rehashes and copies at every doubling.
            self.index.reserve(Self::FIRST_STRINGS);
            self.names.reserve(Self::FIRST_STRINGS * 32);
        }
        if self.names.len() + names.len() > Self::MAX_BYTES {
            self.index.clear();
            self.names.clear();
        }
        let entry = (self.names.len() as u32, names.len() as u32, mask);
        self.names.extend_from_slice(names);
        self.index.insert(key, entry);
        mask
    }
}

impl Signals {
    /// Counts one start tag by its element (`name` is lower-cased, as the
    /// tokenizer gives it).
    #[inline]
    fn start_tag(&mut self, tag: Tag, name: &[u8]) {
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
            Tag::Void => match name {
                b"img" => Some(0),
                b"input" => Some(3),
                _ => None,
            },
            Tag::Other => match name {
                b"code" => Some(8),
                b"time" => Some(11),
                b"video" => Some(12),
                _ => None,
            },
            _ => None,
        };
        if let Some(i) = element {
            self.elements[i] = self.elements[i].saturating_add(1);
        }
    }

    /// Counts an element's `itemprop` (as written, decoded): each of its
    /// words that is one of [`ITEMPROPS`], ASCII case ignored.
    #[inline]
    fn itemprop(&mut self, itemprop: &str) {
        for p in itemprop.trim().split_ascii_whitespace() {
            if let Some(i) = ITEMPROPS.iter().position(|x| p.eq_ignore_ascii_case(x)) {
                self.itemprops[i] = self.itemprops[i].saturating_add(1);
            }
        }
    }

    /// Reads the `og:type` from its `<meta>`'s content.
    fn og_type(&mut self, content: &str) {
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

    /// Counts one element by the groups of [`PAGE_CLASS_GROUPS`] its
    /// `class`/`id`/`role` words hold (bit g: group g; [`group_mask`]):
    /// each group counts the element once.
    #[inline]
    fn words(&mut self, mut groups: u32) {
        while groups != 0 {
            let g = groups.trailing_zeros() as usize;
            self.words[g] = self.words[g].saturating_add(1);
            groups &= groups - 1;
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
/// An element's `class`/`id`/`role` words count by the groups they hold,
/// found once per distinct string of the page: when it opens, from the
/// mask the tree keeps with the words if a consumer had the tree hash them
/// already ([`Tree::top_mask_hashed`], computed by [`tree_word_mask`] once
/// per distinct string the tree hashes), else from the values the tree
/// keeps ([`Tree::top_names`], [`MaskCache`]), without making the tree hash
/// them; the elements that never open (void
/// elements such as `img`, `input`, `meta`; `br`, `hr`) from their start
/// tag. Its `itemprop`, a `<meta>`'s keys and content, and every strictly
/// parsed JSON-LD value are read from the start tag (the metadata reader
/// reads some of the same attributes, but keeping the two apart lets either
/// change; the classifier's inputs stay those its models were trained on,
/// as for `Meta`).
///
/// The consumer's methods are kept out of line so that a profile (and
/// `scripts/bench-pagetype`) counts everything the signals cost.
#[derive(Default)]
pub(super) struct Reader {
    signals: Signals,
    /// The group masks of the page's attribute strings.
    masks: MaskCache,
    /// A void element's `class`/`id`/`role` values, joined as the tree
    /// joins them ([`join_names`]).
    names: Vec<u8>,
    /// The start tag's last `itemprop` read.
    itemprop: String,
    /// A `<meta>`'s last `content` read.
    content: String,
    /// A buffer for decoded values.
    buf: String,
}

impl Reader {
    /// Reads the attributes of `start` that the signals count: `itemprop`;
    /// for a `<meta>` (`meta`), its keys (`name`, `property`, `itemprop`)
    /// and `content` in place of the `itemprop`; and the `class`/`id`/`role`
    /// values when `words` (an element that does not open). A repeated
    /// attribute's last readable value counts.
    #[inline(never)]
    fn read(&mut self, start: &StartTag<'_>, meta: bool, words: bool) {
        self.names.clear();
        let (mut itemprop, mut keys, mut og_type) = (false, 0, false);
        for (attr, value) in start.attrs() {
            let key = match attr {
                b"class" | b"id" | b"role" if words => false,
                b"name" | b"property" | b"itemprop" if meta => true,
                // A `<meta>`'s content counts only beside an `og:type` key:
                // read below, once the keys are known (most `<meta>`s are
                // others, and their contents the longest values read).
                b"content" if meta => continue,
                b"itemprop" => false,
                _ => continue,
            };
            let v = value.decoded(&mut self.buf);
            if v.is_empty() {
                continue;
            }
            match attr {
                b"class" | b"id" | b"role" => join_names(&mut self.names, 0, v.as_bytes()),
                _ if key => {
                    // At most four keys of up to 64 bytes are read.
                    if v.len() <= 64 && keys < 4 {
                        keys += 1;
                        og_type |= v.as_bytes().trim_ascii().eq_ignore_ascii_case(b"og:type");
                    }
                }
                _ => {
                    if v.len() <= ITEMPROP_MAX {
                        self.itemprop.clear();
                        self.itemprop.push_str(v);
                        itemprop = true;
                    }
                }
            }
        }
        if itemprop {
            self.signals.itemprop(&self.itemprop);
        }
        if og_type {
            // The last readable content, as read in the same pass as the keys.
            let mut content = false;
            for (attr, value) in start.attrs() {
                if attr == b"content" {
                    let v = value.decoded(&mut self.buf);
                    if !v.is_empty() && v.len() <= META_MAX_CHARS {
                        self.content.clear();
                        self.content.push_str(v);
                        content = true;
                    }
                }
            }
            self.signals
                .og_type(if content { &self.content } else { "" });
        }
    }

    /// Counts what an element that never opens carries: its `itemprop`, a
    /// `<meta>`'s keys and content, its `class`/`id`/`role` words (kept out
    /// of [`Consumer::start_tag`], which every start tag runs through).
    #[inline(never)]
    fn never_opens(&mut self, el: &Element<'_, '_>) {
        let meta = el.tag == Tag::Void && el.start.name == b"meta";
        self.read(el.start, meta, true);
        let mask = self.masks.mask(&self.names);
        self.signals.words(mask);
    }
}

impl Consumer for Reader {
    const WANTS: u32 = wants::START_TAG | wants::OPEN | wants::JSON_LD;

    #[inline(never)]
    fn start_tag(&mut self, el: &Element<'_, '_>, _tree: &mut Tree) {
        self.signals.start_tag(el.tag, el.start.name);
        match el.tag {
            // The elements the walker does not open (`Walker::start_tag`).
            Tag::Void | Tag::Br | Tag::Hr => self.never_opens(el),
            // Of an element that opens, only an `itemprop` counts, and most
            // have none: one scan of its attribute names, the rest out of line.
            _ => {
                if el.start.has_attr(b"itemprop") {
                    self.read(el.start, false, false);
                }
            }
        }
    }

    #[inline(never)]
    fn open(&mut self, _el: &Element<'_, '_>, tree: &mut Tree) {
        // Most elements have no `class`, `id` or `role`, hence no words
        // (the tree's come from the same values): nothing to count.
        let names = tree.top_names();
        if names.is_empty() {
            return;
        }
        let mask = match tree.top_mask_hashed() {
            Some(mask) => mask,
            None => self.masks.mask(names),
        };
        self.signals.words(mask);
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
    fn the_og_type_is_read_whichever_comes_first() {
        for (html, want) in [
            ("<meta content=product property=og:type>", "product"),
            ("<meta property=og:type content=article>", "article"),
            (
                "<meta content=product property=og:type content=\"\">",
                "product",
            ),
            (
                "<meta content=website property=og:type content=&#97;rticle>",
                "article",
            ),
            ("<meta property=og:type>", "none"),
            ("<meta name=description content=product>", "none"),
            ("<meta content=video.movie name=\"OG:TYPE \">", "other"),
        ] {
            let page = crate::html::parse(html);
            assert_eq!(OG_TYPES[usize::from(page.signals.og_type)], want, "{html}");
        }
    }

    #[test]
    fn words_count_by_element_whoever_hashed_them() {
        // A block the tree hashes, inline elements it does not (the second
        // with the string found again), and a void element's two attributes.
        let page = crate::html::parse(
            "<body><div class=\"card-grid item\"><p>Text <span class=\"card-grid item\">x</span> \
             <img class=price-tag id=cartIcon src=a.png> <b class=\"card-grid item\">y</b></p></div>\
             <span class=\"Card\">z</span></body>",
        );
        let s = &page.signals;
        assert_eq!(s.words[8], 4, "four card elements");
        assert_eq!(s.words[0], 1, "one price element");
        assert_eq!(s.words[1], 1, "one cart element");
        assert_eq!(s.elements[0], 1, "one image");
    }

    proptest::proptest! {
        #[test]
        fn the_look_up_table_finds_what_the_search_finds(h: u32) {
            let table = word_table();
            proptest::prop_assert_eq!(table.group(h), table.searched(h));
        }

        #[test]
        fn a_string_has_the_mask_of_its_words(names in "[a-zA-Z0-9 _-]{0,40}") {
            let mut words = Vec::new();
            crate::html::attribute_words(names.as_bytes(), &mut words);
            let mask = group_mask(&words);
            proptest::prop_assert_eq!(names_mask(names.as_bytes()), mask);
            let mut cache = MaskCache::default();
            proptest::prop_assert_eq!(cache.mask(names.as_bytes()), mask);
            // Again, from the cache.
            proptest::prop_assert_eq!(cache.mask(names.as_bytes()), mask);
        }
    }

    proptest::proptest! {
        #[test]
        fn a_string_of_group_words_has_the_mask_of_its_words(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                "price", "Cart", "addToCart", "product-card", "card2", "2card", "grid", "x",
                "reviews", "hljs", "navMenu", "ITEMS", "é", "-", " ", "__", "more9", "meta",
                "utility-class", "breadcrumbs", "docs", "a1b2",
            ]), 0..12),
        ) {
            let names = parts.concat();
            let mut words = Vec::new();
            crate::html::attribute_words(names.as_bytes(), &mut words);
            let mask = group_mask(&words);
            proptest::prop_assert_eq!(names_mask(names.as_bytes()), mask, "{}", names);
            let mut cache = MaskCache::default();
            proptest::prop_assert_eq!(cache.mask(names.as_bytes()), mask);
            proptest::prop_assert_eq!(cache.mask(names.as_bytes()), mask);
        }
    }

    #[test]
    fn every_word_of_the_groups_is_in_the_table() {
        let table = word_table();
        for (g, set) in PAGE_CLASS_GROUPS.iter().enumerate() {
            for w in set.words() {
                let mut h = Vec::new();
                crate::html::attribute_words(w.as_bytes(), &mut h);
                assert!(table.words.contains(&(h[0], g as u8)), "{w}");
                // A word of two groups is found in one of them, the same by
                // the look-up table and by the search.
                assert!(table.group(h[0]).is_some(), "{w}");
                assert_eq!(table.group(h[0]), table.searched(h[0]), "{w}");
            }
        }
    }
}
