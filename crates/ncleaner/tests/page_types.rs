//! The page's type decides what its cards and comments are: the embedded
//! default models, routed as `ncleaner clean` routes, on pages made for
//! the issue of article pages. An article with a rail of related stories
//! and a comment thread drops the rail, and with `--comments drop` keeps
//! its story alone (by default the model decides comments, and keeps these:
//! the training pools disagree on comments, EVALUATION.md); a category page
//! of the same cards keeps the cards; a forum whose posts sit in
//! `class="comment"` keeps its posts, even with `--comments drop`; a
//! byline, a caption and a share bar carry their roles through the whole
//! pipeline, and `--roles body` leaves them out.

use ncleaner::Comments;
use ncleaner::InputKind;
use ncleaner::PageType;
use ncleaner::{Cleaner, DEFAULT_FALLBACK, Routes};
use ncleaner::{Role, Roles};

fn cleaner() -> Cleaner {
    Cleaner::routed(Routes::from_names::<&str>(&[], DEFAULT_FALLBACK).expect("embedded models"))
}

const STORY: [&str; 4] = [
    "The council voted on Tuesday night to rebuild the old stone bridge over the river, \
     ending two years of argument about whether the crossing could be saved at all.",
    "Engineers had warned last spring that the arches were cracking under the weight of \
     lorries, and the bridge has been closed to traffic heavier than a van since March.",
    "The new crossing will keep the old stones on its face, the council said, and should \
     open to traffic in the summer of 2027 if the river allows work through the winter.",
    "Shopkeepers on both banks welcomed the decision, though several said the detour of \
     the last two years had cost them a third of their trade and some may not reopen.",
];

/// Related stories: each a linked headline and a one-line summary.
const CARDS: [(&str, &str); 6] = [
    (
        "Flood defences to be raised along the quay",
        "The work starts next month and will close the quay road for six weeks.",
    ),
    (
        "School roof repairs finished ahead of term",
        "Pupils return on Monday to classrooms that were shut for most of last year.",
    ),
    (
        "Market hall reopens after its restoration",
        "Twenty stalls are back under the iron roof, with more promised in spring.",
    ),
    (
        "New bus route links the villages to the station",
        "The service runs every hour on weekdays and every two hours at weekends.",
    ),
    (
        "Library extends its opening hours in winter",
        "Readers can now borrow books until eight in the evening on Thursdays.",
    ),
    (
        "Cycle lane on the high street divides traders",
        "Some shops say they have lost parking while others report more customers.",
    ),
];

const COMMENTS: [&str; 3] = [
    "About time too, I have been driving the long way round to work for two years now.",
    "Will they keep the old lamps on the bridge? They were the best thing about it.",
    "I remember when the bridge was last repaired in the eighties, it took forever then.",
];

fn cards_html() -> String {
    CARDS
        .iter()
        .enumerate()
        .map(|(i, (h, p))| {
            format!(
                "<li class=\"card\"><h3><a href=\"/news/story-{i}\">{h}</a></h3><p>{p}</p></li>"
            )
        })
        .collect()
}

fn head(title: &str, og: &str, canonical: &str) -> String {
    format!(
        "<html><head><title>{title} | Town News</title>\
         <meta property=\"og:type\" content=\"{og}\">\
         <link rel=\"canonical\" href=\"{canonical}\"></head>"
    )
}

fn nav() -> &'static str {
    "<header><nav><ul><li><a href=\"/\">Home</a></li><li><a href=\"/news\">News</a></li>\
     <li><a href=\"/sport\">Sport</a></li><li><a href=\"/contact\">Contact</a></li></ul></nav></header>"
}

fn article_page() -> String {
    let story: String = STORY.iter().map(|p| format!("<p>{p}</p>")).collect();
    let comments: String = COMMENTS
        .iter()
        .enumerate()
        .map(|(i, c)| {
            format!(
                "<li class=\"comment\"><div class=\"comment-author\">Reader {i}</div><p>{c}</p></li>"
            )
        })
        .collect();
    format!(
        "{}<body>{}<main><article><h1>Council votes to rebuild the old bridge</h1>\
         <p class=\"byline\">By Jane Doe</p>{story}</article>\
         <aside class=\"related\"><h2>Related stories</h2><ul>{}</ul></aside>\
         <section id=\"comments\"><h2>3 comments</h2><ol class=\"comment-list\">{comments}</ol></section>\
         </main><footer><p>© 2026 Town News</p></footer></body></html>",
        head(
            "Council votes to rebuild the old bridge",
            "article",
            "https://news.example.org/2026/03/04/council-votes-to-rebuild-the-old-bridge"
        ),
        nav(),
        cards_html()
    )
}

fn category_page() -> String {
    format!(
        "{}<body>{}<main><h1>Local news</h1><ul class=\"cards\">{}</ul>\
         <nav class=\"pagination\"><a href=\"/news?page=2\">Next page</a></nav></main>\
         <footer><p>© 2026 Town News</p></footer></body></html>",
        head(
            "Local news",
            "website",
            "https://news.example.org/news/local/"
        ),
        nav(),
        cards_html()
    )
}

fn forum_page() -> String {
    let posts: String = STORY
        .iter()
        .chain(&COMMENTS)
        .enumerate()
        .map(|(i, p)| {
            format!(
                "<div class=\"comment\" id=\"post-{i}\"><div class=\"comment-meta\">\
                 <a href=\"/u/user{i}\">user{i}</a> wrote:</div><div class=\"comment-body\"><p>{p}</p></div></div>"
            )
        })
        .collect();
    format!(
        "{}<body>{}<main><h1>Is the old bridge worth saving?</h1>\
         <div class=\"comments thread\">{posts}</div></main>\
         <footer><p>Powered by a forum engine</p></footer></body></html>",
        head(
            "Is the old bridge worth saving?",
            "website",
            "https://forum.example.org/t/is-the-old-bridge-worth-saving/1234"
        ),
        nav()
    )
}

fn probe(s: &str) -> &str {
    &s[..40]
}

#[test]
fn an_article_keeps_its_story_alone() {
    for comments in [Comments::Keep, Comments::Drop] {
        let c = cleaner().with_comments(comments);
        let doc = c.clean(article_page().as_bytes(), InputKind::Html, None);
        assert_eq!(
            doc.page_type.map(|p| p.page_type()),
            Some(PageType::Article)
        );
        let text = doc.text();
        for p in STORY {
            assert!(
                text.contains(probe(p)),
                "lost {:?}; kept:\n{text}",
                probe(p)
            );
        }
        for (h, p) in CARDS {
            assert!(!text.contains(p), "kept a related story's {p:?}:\n{text}");
            assert!(!text.contains(h), "kept a related story's {h:?}:\n{text}");
        }
        if comments == Comments::Drop {
            for c in COMMENTS {
                assert!(!text.contains(c), "kept a comment {c:?}:\n{text}");
            }
        }
    }
}

#[test]
fn a_category_page_keeps_its_cards() {
    let doc = cleaner().clean(category_page().as_bytes(), InputKind::Html, None);
    let predicted = doc.page_type.map(|p| p.page_type());
    assert!(
        matches!(predicted, Some(PageType::Listing | PageType::Collection)),
        "{predicted:?}"
    );
    let text = doc.text();
    // A card is its linked headline and its summary, both kept.
    let kept = CARDS
        .iter()
        .filter(|(h, p)| text.contains(h) && text.contains(p))
        .count();
    assert!(kept >= 5, "kept {kept} of 6 whole cards:\n{text}");
}

#[test]
fn a_forum_keeps_its_posts_in_comment_markup() {
    for comments in [Comments::Keep, Comments::Drop] {
        let doc =
            cleaner()
                .with_comments(comments)
                .clean(forum_page().as_bytes(), InputKind::Html, None);
        let text = doc.text();
        for p in STORY.iter().chain(&COMMENTS) {
            assert!(
                text.contains(probe(p)),
                "{comments:?}: lost post {:?}; kept:\n{text}",
                probe(p)
            );
        }
    }
}

fn furnished_article() -> String {
    let story: String = STORY.iter().map(|p| format!("<p>{p}</p>")).collect();
    format!(
        "{}<body>{}<main><article><h1>Council votes to rebuild the old bridge</h1>\
         <p class=\"byline\">By Jane Doe</p>\
         <figure><img src=\"/img/bridge.jpg\"><figcaption>The old stone bridge in 1950. \
         Photo: Town archive</figcaption></figure>{story}\
         <div class=\"share-buttons\"><a href=\"/share/f\">Facebook</a> \
         <a href=\"/share/x\">Share on X</a></div></article></main>\
         <footer><p>© 2026 Town News</p></footer></body></html>",
        head(
            "Council votes to rebuild the old bridge",
            "article",
            "https://news.example.org/2026/03/04/council-votes-to-rebuild-the-old-bridge"
        ),
        nav()
    )
}

#[test]
fn a_byline_a_caption_and_a_share_bar_carry_their_roles() {
    let html = furnished_article();
    let doc = cleaner().clean(html.as_bytes(), InputKind::Html, None);
    let role = |text: &str| {
        doc.segments
            .iter()
            .find(|s| s.segment.text() == text)
            .unwrap_or_else(|| panic!("no segment {text:?}"))
            .role
    };
    assert_eq!(role("By Jane Doe"), Some(Role::Byline));
    assert_eq!(
        role("The old stone bridge in 1950. Photo: Town archive"),
        Some(Role::Caption)
    );
    assert_eq!(role("Facebook Share on X"), Some(Role::Furniture));
    assert_eq!(role(STORY[0]), Some(Role::Body));
    assert_eq!(
        role("Council votes to rebuild the old bridge"),
        Some(Role::Title)
    );
    // The body is the running text the page keeps: the menu items the
    // cleaner dropped are no body (they have no role), and a dropped
    // segment whose structure says what it is keeps that role.
    for item in ["Home", "News", "Sport", "Contact"] {
        let s = doc.segments.iter().find(|s| s.segment.text() == item);
        let s = s.unwrap_or_else(|| panic!("no segment {item:?}"));
        assert!(!s.keep(), "{item} kept");
        assert_eq!(s.role, None, "{item}");
    }
    assert!(
        doc.segments
            .iter()
            .all(|s| s.role != Some(Role::Body) || s.keep())
    );
    // The body alone: the story without its title, byline, caption and share bar.
    let body = cleaner()
        .with_roles(Roles::Body)
        .clean(html.as_bytes(), InputKind::Html, None);
    let text = body.text();
    for p in STORY {
        assert!(
            text.contains(probe(p)),
            "lost {:?}; kept:\n{text}",
            probe(p)
        );
    }
    for furniture in [
        "By Jane Doe",
        "Photo: Town archive",
        "Share on X",
        "Council votes",
    ] {
        assert!(!text.contains(furniture), "kept {furniture:?}:\n{text}");
    }
}
