//! Tests of `metadata`.

use super::*;

#[test]
fn dates_normalise() {
    let n = normalise_date;
    assert_eq!(
        n("2025-03-04T10:00:00+01:00").as_deref(),
        Some("2025-03-04T10:00:00+01:00")
    );
    assert_eq!(n("2025-03-04").as_deref(), Some("2025-03-04"));
    assert_eq!(
        n("2025-03-04 10:00:00.123Z").as_deref(),
        Some("2025-03-04T10:00:00Z")
    );
    assert_eq!(
        n("2025-03-04T10:00-0500").as_deref(),
        Some("2025-03-04T10:00:00-05:00")
    );
    assert_eq!(n("2025/03/04").as_deref(), Some("2025-03-04"));
    assert_eq!(n("20250304").as_deref(), Some("2025-03-04"));
    assert_eq!(n("March 4, 2025").as_deref(), Some("2025-03-04"));
    assert_eq!(n("4 Mar. 2025").as_deref(), Some("2025-03-04"));
    assert_eq!(
        n("Tue, 04 Mar 2025 10:00:00 GMT").as_deref(),
        Some("2025-03-04")
    );
    // Not dates: a copyright year, a month, impossible days, junk.
    for bad in [
        "2025",
        "© 2025",
        "Copyright 2019-2025",
        "2025-03",
        "2025-02-30",
        "1899-01-01",
        "202503041",
        "Marching 4, 2025",
        "",
        "yesterday",
    ] {
        assert_eq!(n(bad), None, "{bad}");
    }
}

#[test]
fn author_names_are_checked() {
    assert_eq!(author_name("By Jane Doe").as_deref(), Some("Jane Doe"));
    assert_eq!(author_name(" Jane  Doe ").as_deref(), Some("Jane Doe"));
    // An entity escaped twice (JSON-LD is not HTML), and an avatar's initial.
    assert_eq!(
        author_name("Maria &amp; Katerina").as_deref(),
        Some("Maria & Katerina")
    );
    assert_eq!(author_name("Ann O&#39;Hara").as_deref(), Some("Ann O'Hara"));
    assert_eq!(
        author_name("AT&T &amp;amp; Co").as_deref(),
        Some("AT&T &amp; Co")
    );
    assert_eq!(author_name("JosephF J").as_deref(), Some("JosephF"));
    assert_eq!(
        author_name("xJewishNinjax X").as_deref(),
        Some("xJewishNinjax")
    );
    assert_eq!(author_name("Malcolm X").as_deref(), Some("Malcolm X"));
    assert_eq!(author_name("J").as_deref(), Some("J"));
    for bad in [
        "https://www.facebook.com/janedoe",
        "jane@example.com",
        "@janedoe",
        "admin",
        "12345",
        "",
        &"word ".repeat(30),
    ] {
        assert_eq!(author_name(bad), None, "{bad}");
    }
    assert_eq!(
        split_authors("Jane Doe; John Roe"),
        ["Jane Doe", "John Roe"]
    );
}

#[test]
fn bylines_give_names_only() {
    assert_eq!(
        byline_name("By Jane Doe | 4 March 2025", true).as_deref(),
        Some("Jane Doe")
    );
    assert_eq!(
        byline_name("Written by Ludwig van Beethoven on Monday", true).as_deref(),
        Some("Ludwig van Beethoven")
    );
    assert_eq!(byline_name("Jane Doe", true).as_deref(), Some("Jane Doe"));
    assert_eq!(
        byline_name("by the editors of this fine magazine", true),
        None
    );
    assert_eq!(byline_name("Share this article", true), None);
    assert_eq!(byline_name("About the author", true), None);
}

#[test]
fn site_name_is_cut_from_the_title_tag() {
    assert_eq!(
        strip_site_name("Moon pulls sea | The Tide", Some("The Tide")),
        "Moon pulls sea"
    );
    assert_eq!(
        strip_site_name("THE TIDE - Moon pulls sea", Some("The Tide")),
        "Moon pulls sea"
    );
    assert_eq!(
        strip_site_name("Moon pulls sea | Science", Some("The Tide")),
        "Moon pulls sea | Science"
    );
    assert_eq!(strip_site_name("A - B", None), "A - B");
}

fn md(html: &str) -> Metadata {
    crate::html::parse(html).metadata
}

#[test]
fn opengraph_only() {
    let m = md("<html lang=en-GB><head><title>Tides | The Tide</title>\
         <meta property=og:title content='Moon pulls sea'>\
         <meta property=og:site_name content='The Tide'>\
         <meta property=og:description content='Why the sea rises.'>\
         <meta property=article:published_time content='2025-03-04T10:00:00+01:00'>\
         <meta property=article:modified_time content='2025-03-05'>\
         <meta property=article:author content='https://facebook.com/jane'>\
         <meta name=author content='Jane Doe'>\
         <meta property=article:tag content=tides><meta property=article:tag content=moon>\
         <meta property=article:section content=Science>\
         <meta property=og:url content='https://tide.example/moon'>\
         </head><body><p>The Moon pulls the sea.</p></body></html>");
    assert_eq!(m.title.as_deref(), Some("Moon pulls sea"));
    assert_eq!(m.site_name.as_deref(), Some("The Tide"));
    assert_eq!(m.description.as_deref(), Some("Why the sea rises."));
    assert_eq!(
        m.date_published.as_deref(),
        Some("2025-03-04T10:00:00+01:00")
    );
    assert_eq!(m.date_modified.as_deref(), Some("2025-03-05"));
    // The article:author URL is no name; name=author is.
    assert_eq!(m.authors, ["Jane Doe"]);
    assert_eq!(m.tags, ["tides", "moon"]);
    assert_eq!(m.categories, ["Science"]);
    assert_eq!(
        m.canonical_url.as_deref(),
        Some("https://tide.example/moon")
    );
    assert_eq!(m.language.as_deref(), Some("en-GB"));
}

#[test]
fn json_ld_graph_with_author_array_and_references() {
    let m = md(
        r#"<script type="application/ld+json">{"@context":"https://schema.org","@graph":[
        {"@type":"WebSite","@id":"https://t.example/#site","name":"The Tide"},
        {"@type":"WebPage","@id":"https://t.example/moon","name":"Moon | The Tide",
         "datePublished":"2020-01-01"},
        {"@type":["NewsArticle"],"headline":"Moon pulls sea",
         "author":[{"@type":"Person","name":"Jane Doe"},{"@id":"https://t.example/#bob"},"Ann Roe"],
         "datePublished":"2025-03-04T10:00:00Z","dateModified":"2025-03-06T08:00:00+0000",
         "keywords":["tides","moon"],"articleSection":"Science",
         "publisher":{"@id":"https://t.example/#org"}},
        {"@type":"Person","@id":"https://t.example/#bob","name":"Bob Poe"},
        {"@type":"Organization","@id":"https://t.example/#org","name":"Tide Media"}
        ]}</script><p>Text.</p>"#,
    );
    assert_eq!(m.title.as_deref(), Some("Moon pulls sea"));
    assert_eq!(m.authors, ["Jane Doe", "Bob Poe", "Ann Roe"]);
    // The article's date, not the web page's.
    assert_eq!(m.date_published.as_deref(), Some("2025-03-04T10:00:00Z"));
    assert_eq!(
        m.date_modified.as_deref(),
        Some("2025-03-06T08:00:00+00:00")
    );
    assert_eq!(m.site_name.as_deref(), Some("Tide Media"));
    assert_eq!(m.tags, ["tides", "moon"]);
    assert_eq!(m.categories, ["Science"]);
    // A single author object and a string.
    let m = md(r#"<script type=application/ld+json>{"@type":"BlogPosting",
        "author":{"@type":"Person","name":"Jane Doe"}}</script>"#);
    assert_eq!(m.authors, ["Jane Doe"]);
    let m = md(
        r#"<script type=application/ld+json>[{"@type":"Product","name":"Tide Clock",
        "author":"Jane Doe"}]</script>"#,
    );
    assert_eq!(
        (m.title.as_deref(), &m.authors[..]),
        (Some("Tide Clock"), &["Jane Doe".to_string()][..])
    );
}

#[test]
fn json_ld_with_raw_line_breaks_in_its_strings_is_read() {
    // Invalid JSON (a raw line break and a tab inside strings), as pages
    // write it: read as if they were spaces.
    let m = md(
        "<script type=application/ld+json>{\"@type\":\"NewsArticle\",\n\
         \"description\":\"Two lines\nof text\",\"datePublished\":\"2024-02-21 13:00:00\",\
         \"author\":{\"@type\":\"Person\",\"name\":\"Jane\tDoe\"}}</script>",
    );
    assert_eq!(m.date_published.as_deref(), Some("2024-02-21T13:00:00"));
    assert_eq!(m.authors, ["Jane Doe"]);
    // Not JSON at all: nothing.
    assert_eq!(
        md("<script type=application/ld+json>{\"datePublished\":</script>").date_published,
        None
    );
    // `<meta name=published>`.
    let m = md("<meta name=published content='July 17, 2025'>");
    assert_eq!(m.date_published.as_deref(), Some("2025-07-17"));
}

#[test]
fn microdata() {
    let m = md("<article itemscope itemtype=https://schema.org/Article>\
         <h1 itemprop=headline>Moon  pulls sea</h1>\
         <span itemprop=author itemscope><span itemprop=name>Jane Doe</span></span>\
         <meta itemprop=datePublished content=2025-03-04>\
         <p>The Moon pulls the sea.</p></article>");
    assert_eq!(m.title.as_deref(), Some("Moon pulls sea"));
    assert_eq!(m.authors, ["Jane Doe"]);
    assert_eq!(m.date_published.as_deref(), Some("2025-03-04"));
    let m = md("<p>By <a itemprop=author href=/jane>Jane Doe</a> on \
         <span itemprop=datePublished>March 4, 2025</span></p>");
    assert_eq!(m.authors, ["Jane Doe"]);
    assert_eq!(m.date_published.as_deref(), Some("2025-03-04"));
}

#[test]
fn a_question_is_dated_by_its_creation_not_by_its_comments_or_answers() {
    // As a Q&A page marks it up: the question's `dateCreated` first, then a
    // comment and an answer, each with a (hidden) `datePublished` of its own.
    let page = "<div itemscope itemtype=https://schema.org/Question>\
         <h1 itemprop=name>Why?</h1>\
         <time itemprop=dateCreated datetime='2014-02-04 13:02:51Z'>12 years ago</time>\
         <div itemprop=text><p>Why is it so?</p></div>\
         <div itemprop=comment itemscope itemtype=https://schema.org/Comment>\
         <p>Good question.</p>\
         <time class=d-none itemprop=datePublished>2019-01-21T21:40:59Z</time></div>\
         <div itemprop=suggestedAnswer itemscope itemtype=https://schema.org/Answer>\
         <time itemprop=dateCreated datetime='2015-05-06 10:00:00Z'></time>\
         <div class=d-none itemprop=datePublished>2016-03-17 13:23:29</div>\
         <p>Because.</p></div></div>";
    assert_eq!(
        md(page).date_published.as_deref(),
        Some("2014-02-04T13:02:51Z")
    );
    // A stated `datePublished` outranks an earlier `dateCreated`.
    let both = "<time itemprop=dateCreated datetime=2014-02-04>a</time>\
         <span itemprop=datePublished>March 4, 2015</span>";
    assert_eq!(md(both).date_published.as_deref(), Some("2015-03-04"));
    // A comment's date alone dates nothing, whether the microdata or the
    // class says comment.
    for html in [
        "<div itemprop=comment itemscope><time itemprop=datePublished \
         datetime=2019-01-21>x</time></div>",
        "<div itemprop=acceptedAnswer itemscope><span itemprop=dateCreated>\
         March 4, 2015</span></div>",
        "<li class=comment><span itemprop=datePublished>March 4, 2015</span></li>",
    ] {
        assert_eq!(md(html).date_published, None, "{html}");
    }
}

#[test]
fn time_elements_only_when_clearly_the_publication_date() {
    let m = md(
        "<article><time itemprop=datePublished datetime=2025-03-04>4 March</time>\
         <time itemprop=dateModified datetime=2025-03-05T09:30>5 March</time></article>",
    );
    assert_eq!(m.date_published.as_deref(), Some("2025-03-04"));
    assert_eq!(m.date_modified.as_deref(), Some("2025-03-05T09:30:00"));
    let m = md(
        "<div class=post-meta><span class=posted-on><time datetime=2025-03-04>x</time>\
         </span></div>",
    );
    assert_eq!(m.date_published.as_deref(), Some("2025-03-04"));
    // The first bare time in the content is the date only when nothing better says so.
    let bare = "<article><p>Posted <time datetime=2025-03-04>Tuesday</time></p>\
         <p>Then <time datetime=2025-03-09>Sunday</time></p></article>";
    assert_eq!(md(bare).date_published.as_deref(), Some("2025-03-04"));
    let stated = format!("<meta property=article:published_time content=2025-01-02>{bare}");
    assert_eq!(md(&stated).date_published.as_deref(), Some("2025-01-02"));
    // An updated time, a comment's time, a sidebar's time: no date.
    for html in [
        "<span class=updated><time datetime=2025-03-04>x</time></span>",
        "<div class=comment><span class=posted><time datetime=2025-03-04>x</time></span></div>",
        "<aside><span class=published><time datetime=2025-03-04>x</time></span></aside>",
        "<div hidden><span class=published><time datetime=2025-03-04>x</time></span></div>",
    ] {
        assert_eq!(md(html).date_published, None, "{html}");
    }
}

#[test]
fn canonical_link() {
    let m = md("<link rel=canonical href='https://tide.example/moon'>\
         <meta property=og:url content='https://tide.example/other'>");
    assert_eq!(
        m.canonical_url.as_deref(),
        Some("https://tide.example/moon")
    );
    let m = md("<link rel=stylesheet href=/a.css><link rel=canonical href='javascript:x'>");
    assert_eq!(m.canonical_url, None);
}

#[test]
fn bylines_and_conservative_nulls() {
    let m = md(
        "<h1>Moon pulls sea</h1><div class=byline>By Jane Doe | 4 March 2025</div>\
         <p>The Moon pulls the sea.</p>",
    );
    assert_eq!(m.authors, ["Jane Doe"]);
    // No author, and only a copyright year: nulls.
    let m = md(
        "<html><head><title>Tides</title></head><body><p>The Moon pulls the sea.</p>\
         <footer>© 2025 The Tide. <span class=date>2025</span></footer></body></html>",
    );
    assert_eq!(m.title.as_deref(), Some("Tides"));
    assert!(m.authors.is_empty());
    assert_eq!((m.date_published, m.date_modified), (None, None));
    assert_eq!(
        (m.site_name, m.description, m.canonical_url),
        (None, None, None)
    );
    // A listing page names an author per teaser: no author for the page.
    let teasers: String = ["Ann Roe", "Bob Poe", "Cy Doe"]
        .iter()
        .map(|a| format!("<div class=teaser><h2>Story</h2><span class=author>{a}</span></div>"))
        .collect();
    assert!(md(&teasers).authors.is_empty());
    // Comment authors are not the page's.
    let m = md(
        "<div class=comments><div class=comment><span class=comment-author>Bob Poe</span>\
         <p>Nice.</p></div></div>",
    );
    assert!(m.authors.is_empty());
    // Nothing at all.
    assert!(md("<p>Just text.</p>").is_empty());
}

#[test]
fn hostile_metadata_stays_bounded() {
    let big = "x".repeat(1_000_000);
    let deep = format!("{}1{}", "[".repeat(100_000), "]".repeat(100_000));
    let html = format!(
        "<title>{big}</title><meta property=og:title content='{big}'>\
         <meta name=author content='{big}'><meta name=keywords content='{}'>\
         <script type=application/ld+json>{deep}</script>\
         <script type=application/ld+json>{{\"@type\":\"Article\",\"author\":{}\"Jane\"{}}}</script>\
         <span itemprop=author>{big}</span><p>Text.</p>",
        "k,".repeat(100_000),
        "[".repeat(5000),
        "]".repeat(5000),
    );
    let m = md(&html);
    assert!(m.title.as_ref().is_none_or(|t| t.len() <= FIELD_MAX_CHARS));
    assert!(m.authors.is_empty());
    assert!(m.tags.len() <= LIST_MAX);
}

#[test]
fn title_prefers_the_pages_one_h1_and_drops_site_parts() {
    // One h1: the title.
    let m = md("<title>Tips for Japan - Forum - Travel Site</title><h1>Tips for Japan</h1>");
    assert_eq!(m.title.as_deref(), Some("Tips for Japan"));
    // Several h1: the first when the stated title contains it.
    let m = md("<meta property=og:title content='Tips for Japan | Forum'>\
         <h1>Tips for Japan</h1><h1>Other</h1>");
    assert_eq!(m.title.as_deref(), Some("Tips for Japan"));
    // Else the stated title, without the parts beside its main one.
    let m = md("<title>Small Business Accounting Software - Start for Free</title>");
    assert_eq!(
        m.title.as_deref(),
        Some("Small Business Accounting Software")
    );
    let m = md("<title>The Agency | ML (Machine Learning) at Georgia Tech</title>");
    assert_eq!(
        m.title.as_deref(),
        Some("ML (Machine Learning) at Georgia Tech")
    );
    // An h1 in navigation is not the page's.
    let m = md("<title>Moon</title><nav><h1>Site</h1></nav>");
    assert_eq!(m.title.as_deref(), Some("Moon"));
}

#[test]
fn twitter_labels_and_author_links() {
    let m = md("<meta name=twitter:label1 content='Written by'>\
         <meta name=twitter:data1 content='Tyler Brown'>\
         <meta name=twitter:label2 content='Est. reading time'>\
         <meta name=twitter:data2 content='5 minutes'>");
    assert_eq!(m.authors, ["Tyler Brown"]);
    let m = md("<p><span>Written by <a href='/authors/emily-walker/'>Emily Walker</a></span></p>");
    assert_eq!(m.authors, ["Emily Walker"]);
    // Words of nested elements stay apart.
    let m = md(
        "<div class=byline><span>By</span><a href=/a>Amy Roeder</a><span>Senior Editor</span></div>",
    );
    assert_eq!(m.authors, ["Amy Roeder Senior Editor"]);
    let m = md("<div class=byline>Feb 3</div>");
    assert!(m.authors.is_empty());
}

#[test]
fn dates_in_text() {
    assert_eq!(
        date_in_text("By Jane Doe | March 4, 2025 | 5 min read").as_deref(),
        Some("2025-03-04")
    );
    assert_eq!(
        date_in_text("Published 2025-03-04T10:00:00Z").as_deref(),
        Some("2025-03-04")
    );
    assert_eq!(date_in_text("© 2025 The Tide"), None);
    // Bylines joined by bullets, dates in brackets or ending a sentence.
    assert_eq!(
        date_in_text("Faith Katunga•Oct 20, 2025").as_deref(),
        Some("2025-10-20")
    );
    assert_eq!(
        date_in_text("[Submitted on 18 Dec 2025]").as_deref(),
        Some("2025-12-18")
    );
    assert_eq!(
        date_in_text("December 3, 2025. Updated later").as_deref(),
        Some("2025-12-03")
    );
}

#[test]
fn forum_threads_and_more_meta_names_date_the_page() {
    // A forum thread's JSON-LD gives its first post's author and date.
    let m = md(
        r#"<script type="application/ld+json">{"@context":"https://schema.org","@type":"DiscussionForumPosting",
        "headline":"Best hosts?","author":{"@type":"Person","name":"Mod Sharon"},
        "datePublished":"2025-11-28T19:07:05.446Z"}</script>"#,
    );
    assert_eq!(m.authors, ["Mod Sharon"]);
    assert!(
        m.date_published
            .as_deref()
            .unwrap()
            .starts_with("2025-11-28")
    );
    // A `WebPage` node's dates stay out: its template's as often as its content's.
    let m = md(
        r#"<script type="application/ld+json">{"@type":"WebPage","datePublished":"2021-01-27T06:00:00+00:00"}</script>"#,
    );
    assert_eq!(m.date_published, None);
    let m = md(
        r#"<meta name="published-date" content="2021-02-16"><meta name="last-modified" content="December 22, 2022">"#,
    );
    assert_eq!(m.date_published.as_deref(), Some("2021-02-16"));
    assert_eq!(m.date_modified.as_deref(), Some("2022-12-22"));
}

#[test]
fn tags_split_and_dedupe() {
    assert_eq!(
        split_list("tide, Moon ,moon,, sea"),
        ["tide", "Moon", "sea"]
    );
    assert_eq!(split_list(&"x,".repeat(1000)).len(), 1);
    assert!(split_list(&"a".repeat(10_000)).is_empty());
}

#[test]
fn the_title_is_the_first_title_tag() {
    // Issue 52: every `<title>` was joined ("How to Bake Bread at
    // HomeMenu"); the page's title is the first one, as `document.title`.
    let title = |html: &str| {
        let page = crate::html::parse(html);
        (page.metadata.title, page.meta.title)
    };
    let want = |t: &str| (Some(t.to_string()), t.to_string());
    let bread = "<title>How to Bake Bread at Home</title>";
    assert_eq!(
        title(&format!(
            "<html><head>{bread}<title>Second title</title></head><p>Knead.</p>"
        )),
        want("How to Bake Bread at Home")
    );
    assert_eq!(
        title(&format!(
            "<html><head>{bread}</head><body><svg><title>Menu</title></svg><p>Knead.</p>"
        )),
        want("How to Bake Bread at Home")
    );
}
