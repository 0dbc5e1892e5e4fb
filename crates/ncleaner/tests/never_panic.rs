//! Property tests: no input makes decode, html, segment or the whole
//! pipeline panic, and the pipeline's invariants hold on all of them.

use ncleaner::{Cleaner, InputKind, decode, html, segment};
use proptest::prelude::*;

/// Strings made of HTML-ish fragments, so that the walker's stack, implied
/// end tags, hidden subtrees and raw-text states get exercised.
fn htmlish() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("<p>".to_string()),
        Just("</p>".to_string()),
        Just("<div style='display:none'>".to_string()),
        Just("</div>".to_string()),
        Just("<li>".to_string()),
        Just("<ul>".to_string()),
        Just("</ul>".to_string()),
        Just("<table><tr><td>".to_string()),
        Just("</td></tr></table>".to_string()),
        Just("<br><br>".to_string()),
        Just("<script>".to_string()),
        Just("</script>".to_string()),
        Just("<pre>\n\n".to_string()),
        Just("<h1>".to_string()),
        Just("</h2>".to_string()),
        Just("<b>".to_string()),
        Just("<a href=x>".to_string()),
        Just("</a>".to_string()),
        Just("<!--".to_string()),
        Just("&amp;&nbsp;&#x0;&#99999999;".to_string()),
        Just("<x-y hidden>".to_string()),
        Just("<plaintext>".to_string()),
        "[a-zA-Z .,|é•\u{0}\u{7}\n]{0,20}",
    ];
    prop::collection::vec(piece, 0..60).prop_map(|v| v.concat())
}

fn cleaner() -> Cleaner {
    static CLEANER: std::sync::OnceLock<Cleaner> = std::sync::OnceLock::new();
    CLEANER
        .get_or_init(|| {
            Cleaner::from_model(ncleaner::model::embedded("en").expect("embedded model"))
        })
        .clone()
}

fn check_segments(segs: &[segment::Segment]) {
    for s in segs {
        assert!(!s.text().is_empty());
        assert_eq!(s.text().trim(), s.text());
        assert!(!s.text().contains("  "));
        assert!(!s.text().chars().any(|c| c.is_control()));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..2000)) {
        let doc = decode::decode(&bytes, None, None);
        let segs = segment::from_blocks(html::blocks(&doc.text));
        check_segments(&segs);
        check_segments(&segment::from_text(&doc.text));
        let c = cleaner();
        for input in [InputKind::Html, InputKind::Text, InputKind::Auto] {
            let out = c.clean(&bytes, input, None);
            prop_assert!(out.words_out() <= out.words_in());
            for s in &out.segments {
                prop_assert!(s.score.is_none_or(f64::is_finite));
            }
        }
    }

    #[test]
    fn arbitrary_htmlish(s in htmlish()) {
        let segs = segment::from_blocks(html::blocks(&s));
        check_segments(&segs);
        let out = cleaner().clean(s.as_bytes(), InputKind::Html, Some("http://example.com/"));
        prop_assert_eq!(out.url.as_deref(), Some("http://example.com/"));
    }

    #[test]
    fn arbitrary_text(s in "\\PC{0,400}") {
        check_segments(&segment::from_text(&s));
    }

    #[test]
    fn arbitrary_charset_labels(label in "[ -~]{0,30}", bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        let _ = decode::decode(&bytes, Some("http://x.y/"), Some(&label));
        let mut page = format!("<meta charset=\"{label}\">").into_bytes();
        page.extend(&bytes);
        let _ = decode::decode(&page, None, None);
    }
}

/// Metadata sources with hostile values: long, deep, broken, odd characters.
fn hostile_metadata() -> impl Strategy<Value = String> {
    let value = prop_oneof![
        "[a-zA-Z0-9 ,;|:/.@&<>\"'é\u{0}-]{0,40}",
        (1usize..20_000).prop_map(|n| "x".repeat(n)),
        (1usize..3000).prop_map(|n| format!("{}\"Jane\"{}", "[".repeat(n), "]".repeat(n))),
        (1usize..3000).prop_map(|n| "{\"author\":".repeat(n)),
        Just("2025-02-30T25:61:99+99:99".to_string()),
        Just("9999-99-99".to_string()),
    ];
    let piece = (
        prop_oneof![
            Just("<meta property=og:title content='{}'>"),
            Just("<meta name=author content='{}'>"),
            Just("<meta property=article:published_time content='{}'>"),
            Just("<meta property=article:tag content='{}'>"),
            Just("<meta name=keywords content='{}'>"),
            Just("<meta name=twitter:label1 content='Written by'><meta name=twitter:data1 content='{}'>"),
            Just("<link rel=canonical href='{}'>"),
            Just("<html lang='{}'>"),
            Just("<title>{}</title>"),
            Just("<script type=application/ld+json>{}</script>"),
            Just("<script type=application/ld+json>{\"@type\":\"Article\",\"author\":{},\"headline\":\"{}\"}</script>"),
            Just("<span itemprop=author>{}"),
            Just("<div class=byline>By {}</div>"),
            Just("<a href=/author/x>{}</a>"),
            Just("<time datetime='{}' class=published>"),
            Just("<h1>{}</h1>"),
            Just("<p>{}</p>"),
        ],
        value,
    )
        .prop_map(|(t, v)| t.replace("{}", &v));
    prop::collection::vec(piece, 0..12).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Hostile metadata never panics and every field stays bounded.
    #[test]
    fn hostile_metadata_is_bounded(s in hostile_metadata()) {
        let m = html::parse(&s).metadata;
        for f in [&m.title, &m.date_published, &m.date_modified, &m.site_name,
                  &m.canonical_url, &m.description, &m.language].into_iter().flatten() {
            prop_assert!(f.len() <= html::FIELD_MAX_CHARS);
        }
        for list in [&m.authors, &m.tags, &m.categories] {
            prop_assert!(list.len() <= html::LIST_MAX);
            prop_assert!(list.iter().all(|x| x.chars().count() <= 100));
        }
        for d in [&m.date_published, &m.date_modified].into_iter().flatten() {
            prop_assert!(html::normalise_date(d).as_deref() == Some(d.as_str()), "{d}");
        }
        let c = cleaner().clean(s.as_bytes(), InputKind::Html, Some("https://example.com/a"));
        prop_assert!(c.metadata.is_some());
    }
}
