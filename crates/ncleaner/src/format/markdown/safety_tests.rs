//! No page text becomes Markdown markup, and no link or image leads to a
//! script: the Markdown is read back by a CommonMark parser with GFM's
//! extensions (pulldown-cmark), as a renderer would read it.

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

use super::tests::kept_page_with;
use crate::html::Marks;

const ALL: Marks = Marks {
    links: true,
    images: true,
};

/// CommonMark with GFM's extensions, and those of pulldown-cmark's that
/// start with the characters the escaping covers (wiki links, metadata
/// blocks).
fn options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_GFM
        | Options::ENABLE_WIKILINKS
        | Options::ENABLE_YAML_STYLE_METADATA_BLOCKS
        | Options::ENABLE_PLUSES_DELIMITED_METADATA_BLOCKS
}

/// What a renderer makes of Markdown: the links' and images' destinations,
/// the raw HTML, what is not plain text or our own syntax (emphasis, code
/// spans, strikethrough, footnotes, task boxes, rules, math, metadata), and
/// the text outside images, without whitespace (nor the zero-width space
/// that breaks a fence inside code).
#[derive(Debug, Default)]
struct Read {
    links: Vec<String>,
    images: Vec<String>,
    html: Vec<String>,
    other: Vec<String>,
    text: String,
}

fn read(md: &str) -> Read {
    let mut r = Read::default();
    let mut in_image = 0;
    for e in Parser::new_ext(md, options()) {
        match e {
            Event::Start(Tag::Link { dest_url, .. }) => r.links.push(dest_url.to_string()),
            Event::Start(Tag::Image { dest_url, .. }) => {
                r.images.push(dest_url.to_string());
                in_image += 1;
            }
            Event::End(TagEnd::Image) => in_image -= 1,
            Event::Html(h) | Event::InlineHtml(h) => r.html.push(h.to_string()),
            Event::Text(t) if in_image == 0 => r
                .text
                .extend(t.chars().filter(|c| !c.is_whitespace() && *c != '\u{200b}')),
            Event::Start(
                t @ (Tag::Emphasis
                | Tag::Strikethrough
                | Tag::FootnoteDefinition(_)
                | Tag::MetadataBlock(_)
                | Tag::HtmlBlock),
            ) => r.other.push(format!("{t:?}")),
            e @ (Event::Code(_)
            | Event::Rule
            | Event::FootnoteReference(_)
            | Event::TaskListMarker(_)
            | Event::InlineMath(_)
            | Event::DisplayMath(_)) => r.other.push(format!("{e:?}")),
            _ => {}
        }
    }
    r
}

/// The kept text of a page without whitespace: what [`Read::text`] must be.
fn kept_text(page: &crate::cleaned::Cleaned) -> String {
    page.kept()
        .flat_map(|s| s.text().chars())
        .filter(|c| !c.is_whitespace() && *c != '\u{200b}')
        .collect()
}

/// Issue 52, item 3: a paragraph that says a link or an HTML tag (as
/// escaped text in the page) came out as a live link and live HTML.
#[test]
fn page_text_that_says_a_link_or_a_tag_is_text() {
    let page = kept_page_with(
        "<p>[click here](javascript:alert(document.cookie))</p>\
         <p>&lt;img src=x onerror=alert(1)&gt;</p>\
         <p>&lt;https://example.org&gt; &amp;lt;b&amp;gt; ![x](y.png)</p>\
         <h2>*Sale* &lt;script&gt;alert(1)&lt;/script&gt;</h2>\
         <table><tr><td>[a](javascript:x)</td><td>&lt;b&gt;</td></tr>\
         <tr><td>`code`</td><td>a|b</td></tr></table>",
        ALL,
        Some("https://example.org/post"),
    );
    let md = super::markdown(&page);
    let r = read(&md);
    assert!(r.links.is_empty(), "{md}\n{r:?}");
    assert!(r.images.is_empty(), "{md}\n{r:?}");
    assert!(r.html.is_empty(), "{md}\n{r:?}");
    assert!(r.other.is_empty(), "{md}\n{r:?}");
    assert_eq!(r.text, kept_text(&page), "{md}");
}

/// Issue 52, item 3: hrefs whose scheme the URL parser reads as
/// `javascript:` only once it has dropped a tab, a line break or a leading
/// control character passed the filter, which looked before parsing.
#[test]
fn a_link_scheme_is_checked_as_the_url_parser_reads_it() {
    let html = "<p><a href=\"java\tscript:alert(1)\">one</a> \
                <a href=\"java&#10;script:alert(2)\">two</a> \
                <a href=\"\u{1}javascript:alert(3)\">three</a> \
                <a href=\" JavaScript:alert(4)\">four</a> \
                <a href=\"vbscript:x\">five</a> <a href=\"data:text/html,x\">six</a> \
                <a href=\"file:///etc/passwd\">seven</a> \
                <img src=\"java&#9;script:alert(5)\" alt=\"eight\"> \
                <a href=\"/ok\">nine</a> <a href=\"mailto:a@example.org\">ten</a></p>";
    for base in [Some("https://example.org/post"), None] {
        let page = kept_page_with(html, ALL, base);
        let md = super::markdown(&page);
        let r = read(&md);
        let want: &[&str] = match base {
            Some(_) => &["https://example.org/ok", "mailto:a@example.org"],
            None => &["/ok", "mailto:a@example.org"],
        };
        assert_eq!(r.links, want, "{md}");
        assert!(r.images.is_empty(), "{md}");
        assert!(md.contains("one two three four five six seven"), "{md}");
    }
}

/// HTML of one piece of hostile text: HTML-escaped, as a page says it.
fn escaped(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Pieces of text that are Markdown syntax somewhere, and plain words.
const PIECES: &[&str] = &[
    "word",
    "two words",
    "9",
    " ",
    "\t",
    "*",
    "**",
    "_",
    "__",
    "~",
    "~~",
    "`",
    "```",
    "[",
    "]",
    "(",
    ")",
    "!",
    "![x](y.png)",
    "[a](javascript:alert(1))",
    "[b]: /x",
    "[^1]",
    "[ ]",
    "[[w]]",
    "<",
    ">",
    "<img src=x onerror=alert(1)>",
    "<https://example.org>",
    "<a@b.example>",
    "</p>",
    "<!-- c -->",
    "&",
    "&amp;",
    "&#65;",
    "&lt;",
    "&copy",
    "#",
    "## ",
    "-",
    "- ",
    "+ ",
    "=",
    "---",
    "===",
    "1.",
    "1. ",
    "2) ",
    "|",
    ":",
    ":-",
    "\\",
    "\\*",
    "$",
    "$x$",
    "^",
    "{#id}",
    "http://example.org",
    "www.example.org",
    "\u{a0}",
    "\u{2028}",
    "é",
    "+++",
    "*a*",
    "_a_",
    "a*b*c",
    "a_b_c",
    "**x**",
    "~~x~~",
    "[x][y]",
    "<a",
    "<!",
    "<?",
    "&#0;",
    "&#x41;",
    "10)",
    "\\`",
    "\\\\",
];

/// The blocks a hostile text is put in.
const BLOCKS: &[(&str, &str)] = &[
    ("<p>", "</p>"),
    ("<h1>", "</h1>"),
    ("<h3>", "</h3>"),
    ("<p><b>", "</b></p>"),
    ("<ul><li>", "</li></ul>"),
    ("<ol><li><div>x</div><div>", "</div></li></ol>"),
    ("<blockquote><p>", "</p></blockquote>"),
    ("<pre>", "</pre>"),
    ("<p><a href=\"/l\">", "</a></p>"),
    ("<p>", "<a href=\"/l\">go</a></p>"),
    ("<p>", "<img src=\"/i.png\" alt=\"*[i](x)*\"> y</p>"),
];

fn texts() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    prop::collection::vec(prop::sample::select(PIECES), 1..8).prop_map(|v| v.concat())
}

proptest::proptest! {
    /// Whatever its text and wherever it stands (a paragraph, a heading, a
    /// bold line, a list item and its continuation, a quote, code, a table
    /// cell, a link's text), a page's text is read back as text: no link or
    /// image but those of its `a` and `img` elements, no raw HTML, no
    /// emphasis, code span, footnote or task box, and every character of
    /// the kept text, in order.
    #[test]
    fn no_page_text_reads_as_markup(
        blocks in proptest::collection::vec((texts(), 0..BLOCKS.len()), 1..6),
        table in proptest::collection::vec(texts(), 4),
    ) {
        let mut html = String::new();
        let mut links = 0;
        let mut images = 0;
        for (text, b) in &blocks {
            let (open, close) = BLOCKS[*b];
            html.push_str(open);
            html.push_str(&escaped(text));
            html.push_str(close);
            links += usize::from(open.contains("href") || close.contains("href"));
            images += usize::from(close.contains("img"));
        }
        html.push_str(&format!(
            "<table><tr><td>{}</td><td>{}</td></tr><tr><td>{}</td><td>{}</td></tr></table>",
            escaped(&table[0]), escaped(&table[1]), escaped(&table[2]), escaped(&table[3]),
        ));
        let page = kept_page_with(&html, ALL, Some("https://example.org/a/"));
        let md = super::markdown(&page);
        let r = read(&md);
        proptest::prop_assert!(r.html.is_empty(), "{md}\n{r:?}");
        proptest::prop_assert!(r.other.is_empty(), "{md}\n{r:?}");
        // A link whose text is only spaces makes no link.
        proptest::prop_assert!(r.links.len() <= links, "{md}\n{r:?}");
        proptest::prop_assert!(r.links.iter().all(|l| l == "https://example.org/l"), "{md}\n{r:?}");
        proptest::prop_assert_eq!(r.images.len(), images, "{}\n{:?}", md, r);
        proptest::prop_assert!(r.images.iter().all(|l| l == "https://example.org/i.png"), "{md}\n{r:?}");
        proptest::prop_assert_eq!(&r.text, &kept_text(&page), "{}", md);
    }
}
