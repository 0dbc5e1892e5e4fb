//! Words of `class`, `id` and `role` values: how authors name their page's
//! parts. They are matched as attribute words (split at case changes and
//! non-letters, lower-cased and hashed: `html::attribute_words`), so each
//! is one such word, lower case. Sites name their boxes in English
//! whatever the language of their text: these are entries of [`ANY`]
//! language.

use super::{ANY, Groups, WordSet};

/// Names of a section of user comments (`comment-list`, `commentsArea`,
/// `disqus_thread`, `replies`, `respond`). The walker gives the blocks
/// inside such an element `Context::COMMENT`: a column of the segment
/// classifier, counted by the page features, read by `--comments drop` and
/// by the comment and post roles.
pub const COMMENT_SECTION: WordSet = WordSet::new(
    "comment-section",
    &[(
        ANY,
        &[
            "comment",
            "comments",
            "reply",
            "replies",
            "respond",
            "disqus",
            "discussion",
        ],
    )],
);

/// Names near a byline or a `<time>` (on it or on the elements around it)
/// that make it a commenter's, not the page's: the metadata's bylines and
/// dates skip it. Its own set, narrower than [`COMMENT_SECTION`]: widening
/// it changes which bylines and dates the metadata reads, a change of
/// outputs to measure on its own.
pub const COMMENT_BYLINE: WordSet = WordSet::new(
    "comment-byline",
    &[(ANY, &["comment", "comments", "reply", "respond"])],
);

/// Names of an element that holds the page's byline: the metadata reads
/// its text as the author (unless [`COMMENT_BYLINE`] words are near).
pub const BYLINE_ELEMENT: WordSet = WordSet::new("byline-element", &[(ANY, &["byline", "author"])]);

/// Names around a `<time>` that date the page's publication (metadata's
/// published date, unless a [`MODIFIED_ELEMENT`] word is on the `<time>`
/// itself).
pub const PUBLISHED_ELEMENT: WordSet = WordSet::new(
    "published-element",
    &[(
        ANY,
        &[
            "published",
            "publish",
            "pubdate",
            "posted",
            "publication",
            "byline",
        ],
    )],
);

/// Names around a `<time>` that date the page's last modification.
pub const MODIFIED_ELEMENT: WordSet = WordSet::new(
    "modified-element",
    &[(ANY, &["modified", "updated", "update"])],
);

/// Parts of a link's URL that make its text the page's author (`/author/`
/// pages of blogs and news sites), matched in any ASCII case anywhere in
/// the `href`.
pub const AUTHOR_URL: WordSet = WordSet::new("author-url", &[(ANY, &["/author/", "/authors"])]);

/// Names of a byline or a dateline's element: a short line near the title
/// inside one has the byline role. The metadata's [`BYLINE_ELEMENT`] words
/// and the names of dates.
pub const BYLINE_ROLE: WordSet = WordSet::including(
    "byline-role",
    &[&BYLINE_ELEMENT],
    &[(ANY, &["dateline", "posted", "published", "pubdate", "date"])],
);

/// Names of an image's caption or credit: a segment inside one has the
/// caption role.
pub const CAPTION_ROLE: WordSet = WordSet::new(
    "caption-role",
    &[(
        ANY,
        &["caption", "figcaption", "credit", "credits", "photo"],
    )],
);

/// Names of a share bar, a "follow us" or a newsletter box: the page
/// signals' [`SHARE`] group and the names of sharing widgets. A short
/// segment inside one has the furniture role.
pub const FURNITURE_ROLE: WordSet = WordSet::including(
    "furniture-role",
    &[&SHARE],
    &[(ANY, &["signup", "sharedaddy", "addthis", "sharethis"])],
);

/// The page signals' share group (a group of [`PAGE_CLASS_WORDS`]), which
/// [`FURNITURE_ROLE`] holds too.
pub const SHARE: WordSet = WordSet::new(
    "share",
    &[(
        ANY,
        &[
            "share",
            "sharing",
            "social",
            "follow",
            "newsletter",
            "subscribe",
        ],
    )],
);

/// The `class`/`id`/`role` words that the page signals count (each group
/// by the elements that carry one of its words), grouped by the part of a
/// page they name; each group's name is its column's (`log_class_price`).
/// Read by `html::signals` for the page-type classifier.
pub const PAGE_CLASS_WORDS: Groups = Groups {
    name: "page-class-words",
    groups: &PAGE_CLASS_GROUPS,
};

/// The groups of [`PAGE_CLASS_WORDS`], in the order of their columns.
pub const PAGE_CLASS_GROUPS: [WordSet; 18] = [
    WordSet::new(
        "price",
        &[(ANY, &["price", "prices", "pricing", "amount", "currency"])],
    ),
    WordSet::new(
        "cart",
        &[(
            ANY,
            &["cart", "basket", "checkout", "buy", "purchase", "atc"],
        )],
    ),
    WordSet::new(
        "product",
        &[(ANY, &["product", "products", "sku", "variant", "swatch"])],
    ),
    WordSet::new(
        "rating",
        &[(ANY, &["rating", "ratings", "review", "reviews", "stars"])],
    ),
    // Not [`COMMENT_SECTION`]: a column of the page-type model, counted
    // with the words it was trained with.
    WordSet::new(
        "comment",
        &[(ANY, &["comment", "comments", "reply", "replies", "respond"])],
    ),
    WordSet::new(
        "post",
        &[(
            ANY,
            &["post", "posts", "thread", "topic", "message", "forum"],
        )],
    ),
    WordSet::new(
        "answer",
        &[(
            ANY,
            &["answer", "answers", "question", "vote", "votes", "accepted"],
        )],
    ),
    WordSet::new(
        "pagination",
        &[(
            ANY,
            &["pagination", "pager", "paging", "pagenav", "next", "prev"],
        )],
    ),
    WordSet::new(
        "card",
        &[(
            ANY,
            &["card", "cards", "tile", "tiles", "grid", "item", "items"],
        )],
    ),
    WordSet::new(
        "teaser",
        &[(
            ANY,
            &[
                "teaser",
                "related",
                "recommended",
                "more",
                "trending",
                "popular",
            ],
        )],
    ),
    WordSet::new(
        "filter",
        &[(
            ANY,
            &["filter", "filters", "facet", "facets", "sort", "refine"],
        )],
    ),
    WordSet::new(
        "breadcrumb",
        &[(ANY, &["breadcrumb", "breadcrumbs", "crumbs"])],
    ),
    SHARE,
    WordSet::new(
        "docs",
        &[(
            ANY,
            &[
                "docs",
                "documentation",
                "toc",
                "api",
                "reference",
                "sidebar",
            ],
        )],
    ),
    WordSet::new(
        "code",
        &[(
            ANY,
            &[
                "highlight",
                "syntax",
                "hljs",
                "prism",
                "codehilite",
                "sourcecode",
            ],
        )],
    ),
    WordSet::new(
        "byline",
        &[(
            ANY,
            &["byline", "author", "dateline", "date", "published", "meta"],
        )],
    ),
    WordSet::new(
        "hero",
        &[(
            ANY,
            &[
                "hero",
                "banner",
                "cta",
                "feature",
                "features",
                "testimonial",
            ],
        )],
    ),
    WordSet::new(
        "contact",
        &[(
            ANY,
            &["contact", "address", "phone", "location", "map", "hours"],
        )],
    ),
];
