//! Words of a page's visible text, by language: the leads and labels of
//! bylines and author fields, what ends a name, datelines, copyright
//! lines, the signs of prices, the function words of the language's fast
//! path and the abbreviations of the sentence splitter. Where a set is
//! read by a prefix or a substring, its words hold the spaces and
//! punctuation that the match needs (`"by "`, `"author:"`).

use super::{ANY, WordSet};

/// The leads of a byline in the page's text ("By Jane Doe", "Von Jane
/// Doe", "Автор: Иван Петров", "作者：张三"), lower case: a short line near
/// the title that starts with one has the byline role (`cleaned::roles`),
/// so that the metadata reads its author though the cleaner dropped it
/// (`pipeline::kept`). Every language's [`AUTHOR_LINE_LEADS`], and
/// English's "written by" and "posted by" however the line goes on ("Written
/// by: Jane Doe", a bare "Written by" before the name's element). The roles
/// are given before the page's language is known to them: a lead of
/// another language's words ("door ", Dutch) may give an English line the
/// role, never its author (the metadata reads the page's language's leads).
pub const BYLINE_LEADS: WordSet = WordSet::including(
    "byline-leads",
    &[&AUTHOR_LINE_LEADS],
    &[("en", &["written by", "posted by"])],
);

/// The leads of a kept line that names the page's author, lower case:
/// the metadata takes the author from such a line when the markup names
/// none (`pipeline::kept`), reading the leads of English and of the page's
/// identified language. Each ends where the name starts: with its space or
/// its colon.
pub const AUTHOR_LINE_LEADS: WordSet = WordSet::new(
    "author-line-leads",
    &[
        ("en", &["by ", "written by ", "posted by "]),
        ("de", &["von ", "autor: ", "autorin: "]),
        ("fr", &["par ", "auteur : ", "auteur: "]),
        ("es", &["por ", "autor: "]),
        ("pt", &["por ", "autor: "]),
        ("it", &["di ", "autore: "]),
        ("nl", &["door "]),
        ("pl", &["autor: ", "autorka: "]),
        ("ru", &["автор: ", "автор ", "текст: "]),
        ("el", &["του ", "της ", "συντάκτης: "]),
        ("zh", &["作者：", "作者:", "记者：", "记者 ", "記者："]),
        ("ja", &["記者：", "著者："]),
    ],
);

/// The labels of Twitter's `twitter:labelN` (lower case, whole) whose
/// `twitter:dataN` is the author.
pub const AUTHOR_LABELS: WordSet =
    WordSet::new("author-labels", &[("en", &["written by", "author", "by"])]);

/// Leads cut from an author field's value (`<meta name=author>`, JSON-LD,
/// microdata), as written (case counts), each in turn in this order.
pub const AUTHOR_FIELD_PREFIXES: WordSet = WordSet::new(
    "author-field-prefixes",
    &[(
        "en",
        &[
            "by ",
            "By ",
            "BY ",
            "by:",
            "By:",
            "Author:",
            "author:",
            "Written by ",
        ],
    )],
);

/// Values of an author field that are no one's name (lower case, the
/// whole value): placeholders of templates and of code.
pub const AUTHOR_PLACEHOLDERS: WordSet = WordSet::new(
    "author-placeholders",
    &[
        (ANY, &["undefined", "null", "none"]),
        (
            "en",
            &[
                "admin",
                "administrator",
                "staff",
                "unknown",
                "anonymous",
                "author",
            ],
        ),
    ],
);

/// Leads cut from a byline's text before its name is read (lower case;
/// the first that starts the text and is followed by a space or a colon,
/// or ends with a colon, in this order).
pub const BYLINE_NAME_PREFIXES: WordSet = WordSet::new(
    "byline-name-prefixes",
    &[(
        "en",
        &[
            "written by",
            "posted by",
            "published by",
            "by",
            "author:",
            "author",
        ],
    )],
);

/// What ends the name in a byline's text ("Jane Doe on March 4", "Jane
/// Doe and John Roe"), as written, with the spaces around it.
pub const BYLINE_NAME_ENDS: WordSet = WordSet::new(
    "byline-name-ends",
    &[("en", &[" on ", " and ", " updated", " published"])],
);

/// Words inside a person's name that are not capitalised ("Ludwig van
/// Beethoven", "Abdullah bin Zayed"): a byline's name may hold them. Names
/// keep their particles whatever the page's language.
pub const NAME_PARTICLES: WordSet = WordSet::new(
    "name-particles",
    &[(
        ANY,
        &[
            "van", "von", "de", "der", "den", "da", "di", "du", "la", "le", "bin", "al",
        ],
    )],
);

/// Words of a dateline beside the months and weekdays (lower case, whole):
/// a byline's name does not end with one.
pub const DATELINE_WORDS: WordSet = WordSet::new(
    "dateline-words",
    &[(
        "en",
        &["today", "yesterday", "updated", "posted", "published"],
    )],
);

/// Words that say a line's date is the publication's ("Posted on April
/// 13, 2023"), lower case: the metadata's last resort for the date
/// (`pipeline::kept`).
pub const PUBLICATION_WORDS: WordSet =
    WordSet::new("publication-words", &[("en", &["published", "posted"])]);

/// Words that say a line's date is the last modification's ("Updated May
/// 6, 2025"), lower case: what follows is not the publication's date, and
/// a kept line with one dates no publication (`pipeline::kept`).
pub const UPDATE_WORDS: WordSet = WordSet::new("update-words", &[("en", &["updated", "modified"])]);

/// What marks a copyright line, lower case: a kept line with one dates no
/// publication (`pipeline::kept`).
pub const COPYRIGHT_SIGNS: WordSet =
    WordSet::new("copyright-signs", &[(ANY, &["©"]), ("en", &["copyright"])]);

/// What marks a copyright line when a short line is read as a dateline
/// (`pipeline::kept`): [`COPYRIGHT_SIGNS`] and `(c)`.
pub const COPYRIGHT_LINE: WordSet =
    WordSet::including("copyright-line", &[&COPYRIGHT_SIGNS], &[(ANY, &["(c)"])]);

/// The signs of a price: a short segment with a digit and one of them is
/// a price to the page features (`classify::page::features`).
pub const CURRENCY_SIGNS: WordSet = WordSet::new(
    "currency-signs",
    &[(ANY, &["$", "€", "£", "¥", "₹", "₽", "₩", "₺", "₪"])],
);

/// Common function words, lower case, five letters at most: the share of
/// a text's words that are English ones is the language's fast path
/// (`lang::english_share`).
pub const FUNCTION_WORDS: WordSet = WordSet::new(
    "function-words",
    &[(
        "en",
        &[
            "the", "of", "and", "to", "that", "for", "with", "this", "are", "from", "have",
            "which", "they", "you", "your", "his", "her", "were", "has", "had", "their", "been",
            "would", "there", "what", "about", "when", "who", "it", "its", "it's", "by", "but",
            "not", "or", "at", "as", "was", "he", "she", "we", "will", "be", "can", "all", "more",
            "our", "if", "so", "than", "them", "these", "some", "into", "only", "other",
        ],
    )],
);

/// Abbreviations after which a period does not end a sentence (lower
/// case, without the final period): the word models' sentence splitter
/// (`lm::tokenize`).
pub const ABBREVIATIONS: WordSet = WordSet::new(
    "abbreviations",
    &[(
        "en",
        &[
            "mr", "mrs", "ms", "dr", "prof", "st", "sr", "jr", "vs", "etc", "e.g", "i.e", "cf",
            "inc", "ltd", "co", "corp", "no", "nos", "fig", "figs", "vol", "p", "pp", "ed", "eds",
            "approx", "dept", "est", "gen", "gov", "rev", "sgt", "capt", "col", "lt", "mt", "jan",
            "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", "u.s",
            "u.k", "a.m", "p.m", "ca", "al", "ph.d",
        ],
    )],
);
