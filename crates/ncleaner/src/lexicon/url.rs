//! Words of a URL's path segments. Like class words, sites write them in
//! English whatever their text's language: entries of [`ANY`] language.

use super::{ANY, Groups, WordSet};

/// The schemes a link or an image may have in Markdown (those that
/// sanitize-html and Bleach allow by default): no `javascript:`,
/// `vbscript:`, `data:`, `blob:` or `file:`. Read by
/// `format::markdown::inline` for `--links` and `--images`.
pub const LINK_SCHEMES: WordSet = WordSet::new(
    "link-schemes",
    &[(ANY, &["http", "https", "mailto", "ftp", "tel"])],
);

/// Path segments of a page's URL (lower-cased, each compared whole),
/// grouped by the kind of page they name; each group's name is its page
/// feature's (`url_forum`). Read by the page features
/// (`classify::page::features`) for the page-type classifier.
pub const URL_WORDS: Groups = Groups {
    name: "url-words",
    groups: &URL_GROUPS,
};

/// The groups of [`URL_WORDS`], in the order of their columns.
pub const URL_GROUPS: [WordSet; 7] = [
    WordSet::new(
        "forum",
        &[(
            ANY,
            &[
                "forum",
                "forums",
                "thread",
                "threads",
                "topic",
                "topics",
                "t",
                "questions",
                "q",
                "community",
                "discussion",
                "discussions",
                "board",
                "boards",
                "viewtopic.php",
                "showthread.php",
                "r",
                "comments",
            ],
        )],
    ),
    WordSet::new(
        "product",
        &[(
            ANY,
            &[
                "product", "products", "p", "dp", "item", "items", "shop", "store", "buy", "sku",
                "gp",
            ],
        )],
    ),
    WordSet::new(
        "collection",
        &[(
            ANY,
            &[
                "collections",
                "collection",
                "category",
                "categories",
                "c",
                "catalog",
                "tag",
                "tags",
                "search",
                "browse",
                "list",
                "lists",
                "department",
                "brands",
                "brand",
                "best",
                "top",
            ],
        )],
    ),
    WordSet::new(
        "docs",
        &[(
            ANY,
            &[
                "docs",
                "doc",
                "documentation",
                "api",
                "reference",
                "guide",
                "guides",
                "manual",
                "learn",
                "developer",
                "developers",
                "kb",
                "help",
                "wiki",
                "tutorial",
                "tutorials",
                "sdk",
                "latest",
                "stable",
                "en-us",
            ],
        )],
    ),
    WordSet::new(
        "article",
        &[(
            ANY,
            &[
                "blog", "news", "article", "articles", "posts", "post", "story", "stories",
                "insights", "magazine", "opinion", "features",
            ],
        )],
    ),
    WordSet::new(
        "service",
        &[(
            ANY,
            &[
                "services",
                "service",
                "about",
                "about-us",
                "contact",
                "contact-us",
                "pricing",
                "solutions",
                "company",
                "team",
                "careers",
                "locations",
                "industries",
                "what-we-do",
                "treatments",
            ],
        )],
    ),
    WordSet::new(
        "listing",
        &[(
            ANY,
            &[
                "events",
                "jobs",
                "directory",
                "listings",
                "listing",
                "results",
                "archive",
                "page",
                "author",
                "people",
                "members",
                "obituaries",
                "classifieds",
                "real-estate",
                "homes",
            ],
        )],
    ),
];
