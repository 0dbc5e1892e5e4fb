use crate::cancel::NEVER;
use std::sync::Mutex;

use super::*;
use crate::cleaned::{Cleaned, InputKind};
use crate::model::embedded;
use crate::page::{Origin, Reader};

/// A page of `html` read and frozen as a cleaner without routing reads it
/// with `model` under NCleaner's method.
fn frozen(html: &str, model: &Model) -> Page {
    let reading = crate::page::read(html, InputKind::Html, Default::default());
    let classifier = model.classifier.as_ref();
    let reader = Reader {
        page_type: classifier.and_then(|c| c.page_type.as_ref()),
        hidden: classifier.is_some_and(|c| c.sees_hidden()),
        ..Reader::default()
    };
    Page::freeze(reading, Origin::default(), reader)
}

/// A rule of the tests: sets `keeps` on every segment whose text holds
/// "kept" (`marked`) or does not (`!marked`), reason [`Reason::Score`].
struct Marked {
    marked: bool,
    keeps: bool,
}

impl Rule for Marked {
    fn name(&self) -> &'static str {
        "marked"
    }
    fn keeps(&self) -> bool {
        self.keeps
    }
    fn reason(&self, _: &Segment) -> Reason {
        Reason::Score
    }
    fn applies(&self, _: &Context<'_>) -> bool {
        true
    }
    fn select(&self, cx: &Context<'_>, _: &[Verdict], out: &mut Vec<usize>) {
        let segments = cx.page.segments();
        out.extend(
            (0..segments.len()).filter(|&i| segments[i].text().contains("kept") == self.marked),
        );
    }
}

/// A rule that records what another selects, and selects the same.
struct Recorded<'a> {
    rule: &'a dyn Rule,
    selected: &'a Mutex<Vec<usize>>,
}

impl Rule for Recorded<'_> {
    fn name(&self) -> &'static str {
        self.rule.name()
    }
    fn keeps(&self) -> bool {
        self.rule.keeps()
    }
    fn reason(&self, segment: &Segment) -> Reason {
        self.rule.reason(segment)
    }
    fn applies(&self, cx: &Context<'_>) -> bool {
        self.rule.applies(cx)
    }
    fn select(&self, cx: &Context<'_>, verdicts: &[Verdict], out: &mut Vec<usize>) {
        let from = out.len();
        self.rule.select(cx, verdicts, out);
        self.selected
            .lock()
            .unwrap()
            .extend_from_slice(&out[from..]);
    }
}

/// Every rule of [`RULES`] decides some segment of the pages below, and
/// each segment a rule decided last carries that rule's decision and
/// reason in the cleaned page. The first decisions are set by hand: a
/// segment is kept when its text says `kept`.
#[test]
fn each_rule_decides_on_its_page_with_its_own_reason() {
    let prose =
        "kept prose of the story, long enough to be a paragraph of it, with words and more words.";
    let pages = [
        // A data table's rows.
        format!(
            "<article><p>{prose}</p><table><tr><th>Name</th><th>Cost</th></tr>\
             <tr><td>Bread kept</td><td>2</td></tr><tr><td>Milk</td><td>3</td></tr></table>\
             <p>{prose}</p></article>"
        ),
        // Code in the content.
        format!("<article><p>{prose}</p><pre>cargo build --release</pre><p>{prose}</p></article>"),
        // A repeat, a heuristic's navigation bar, a comment.
        format!(
            "<p>Subscribe now, kept</p><p>{prose}</p><p>Subscribe now, kept</p>\
             <p>Home | News | Sport | kept</p>\
             <div id=comments><p>Nice post, kept it.</p></div>"
        ),
        // Bare headings.
        "<h1>A title kept</h1><p>Home</p><p>About us</p>".to_string(),
        // A title the body setting drops.
        format!("<article><h1>The title kept</h1><p>{prose}</p><p>{prose}</p></article>"),
        // Hidden keywords, kept by hand though the model's default point drops them.
        include_str!("../../../../examples/page.html")
            .replace("Hidden keywords:", "Hidden keywords, kept:"),
        // A product's price and specifications, dropped by hand.
        PRODUCT_PAGE.to_string(),
    ];
    let model = embedded("en").unwrap();
    let policy = Policy {
        comments: Comments::Drop,
        roles: Roles::Body,
        min_page_quality: Some(0.999),
        ..Policy::default()
    };
    let records: Vec<Mutex<Vec<usize>>> = RULES.iter().map(|_| Mutex::new(Vec::new())).collect();
    let mut fired = vec![false; RULES.len()];
    for html in &pages {
        let page = frozen(html, &model);
        let recorded: Vec<Recorded<'_>> = RULES
            .iter()
            .zip(&records)
            .map(|(&rule, selected)| Recorded { rule, selected })
            .collect();
        let mut list: Vec<&dyn Rule> = vec![
            &Marked {
                marked: true,
                keeps: true,
            },
            &Marked {
                marked: false,
                keeps: false,
            },
        ];
        list.extend(recorded.iter().map(|r| r as &dyn Rule));
        let decisions = policy.decide_with(&list, &page, &model, &NEVER).unwrap();
        // The rule that decided each segment last.
        let mut last: Vec<Option<usize>> = vec![None; page.segments().len()];
        for (k, selected) in records.iter().enumerate() {
            let mut selected = selected.lock().unwrap();
            fired[k] |= !selected.is_empty();
            for &i in selected.iter() {
                last[i] = Some(k);
            }
            selected.clear();
        }
        let cleaned = Cleaned::assemble(page, decisions, true);
        for (s, k) in cleaned.segments.iter().zip(last) {
            let Some(k) = k else { continue };
            let rule = RULES[k];
            assert_eq!(
                s.decision.keep,
                rule.keeps(),
                "{}: {:?}",
                rule.name(),
                s.segment.text()
            );
            assert_eq!(
                s.decision.reason,
                rule.reason(&s.segment),
                "{}",
                rule.name()
            );
        }
    }
    for (rule, fired) in RULES.iter().zip(fired) {
        assert!(
            fired,
            "rule `{}` decided nothing on the test pages",
            rule.name()
        );
    }
}

/// A rule added to a list of the test's own: its reason is what the
/// output says of the segments it decided.
#[test]
fn a_rule_added_to_a_list_writes_its_reason() {
    /// Drops the segments written in capitals alone.
    struct Shouting;
    impl Rule for Shouting {
        fn name(&self) -> &'static str {
            "shouting"
        }
        fn keeps(&self) -> bool {
            false
        }
        fn reason(&self, _: &Segment) -> Reason {
            Reason::BareHeadings
        }
        fn applies(&self, cx: &Context<'_>) -> bool {
            cx.page.is_html()
        }
        fn select(&self, cx: &Context<'_>, verdicts: &[Verdict], out: &mut Vec<usize>) {
            let segments = cx.page.segments();
            out.extend((0..segments.len()).filter(|&i| {
                let t = segments[i].text();
                verdicts[i].keep() && t.chars().any(char::is_alphabetic) && t.to_uppercase() == t
            }));
        }
    }
    const EN: &str = "It was the best of times, it was the worst of times, it was the age \
        of wisdom, it was the age of foolishness, it was the epoch of belief, it was the \
        epoch of incredulity, it was the season of Light, it was the season of Darkness.";
    let shout = "IT WAS THE BEST OF TIMES, IT WAS THE WORST OF TIMES, IT WAS THE AGE OF WISDOM, \
        IT WAS THE AGE OF FOOLISHNESS, IT WAS THE EPOCH OF BELIEF AND INCREDULITY.";
    let html = format!("<html><body><p>{EN}</p><p>{shout}</p><p>{EN} Again.</p></body></html>");
    let model = embedded("en").unwrap();
    let policy = Policy::default();
    let clean = |rules: &[&dyn Rule]| {
        let page = frozen(&html, &model);
        let decisions = policy.decide_with(rules, &page, &model, &NEVER).unwrap();
        Cleaned::assemble(page, decisions, true)
    };
    let shouted = |c: &Cleaned| {
        c.segments
            .iter()
            .find(|s| s.segment.text() == shout)
            .map(|s| s.decision)
            .expect("the shouted paragraph is a segment")
    };
    // The model keeps the paragraph without the rule.
    let plain = clean(&RULES);
    assert!(shouted(&plain).keep, "{:?}", shouted(&plain));
    let mut list: Vec<&dyn Rule> = RULES.to_vec();
    list.push(&Shouting);
    let c = clean(&list);
    assert_eq!(
        shouted(&c),
        Decision {
            keep: false,
            reason: Reason::BareHeadings
        }
    );
    let mut out = Vec::new();
    crate::format::write_jsonl(
        &mut out,
        &c,
        Some("page"),
        crate::format::JsonOptions::default().with_segments(true),
    )
    .unwrap();
    let record: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let segment = record["segments"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["text"] == shout)
        .expect("the segment is in the record");
    assert_eq!(segment["reason"]["by"], "bare-headings", "{segment}");
    assert!(!c.text().contains("IT WAS"));
}

/// What a setting of roles leaves out is dropped with its reason; the
/// others stay.
#[test]
fn roles_not_carried_are_dropped() {
    const PROSE: &str =
        "The council voted on Tuesday to rebuild the old bridge over the river by 2027.";
    let html = format!("<h1>Bridge to be rebuilt</h1><p>By Jane Doe</p><p>{PROSE}</p>");
    let model = embedded("en").unwrap();
    let keep_all = |roles: Roles| {
        let policy = Policy {
            method: Method::KeepAll,
            roles,
            ..Policy::default()
        };
        let page = frozen(&html, &model);
        let decisions = policy.decide(&page, &model, &NEVER).unwrap();
        Cleaned::assemble(page, decisions, true)
    };
    assert!(keep_all(Roles::All).segments.iter().all(|s| s.keep()));
    let body = keep_all(Roles::Body);
    let kept: Vec<&str> = body.kept().map(|s| s.segment.text()).collect();
    assert_eq!(kept, [PROSE]);
    assert_eq!(body.segments[0].decision.reason, Reason::Role);
}

/// The paper's heuristics drop what they catch under the methods that
/// apply them, whatever the threshold; `keep-all` keeps it.
#[test]
fn the_heuristics_drop_what_they_catch_under_their_methods() {
    let html = "<html><body><p>Home | News | Contact | About</p>\
        <p>A sentence of the page that no heuristic of the paper catches.</p></body></html>";
    let model = embedded("en").unwrap();
    let decide = |method: Method, threshold: Option<f64>| {
        let policy = Policy {
            method,
            threshold,
            ..Policy::default()
        };
        let page = frozen(html, &model);
        assert!(page.segments()[0].heuristic.is_some());
        assert!(page.segments()[1].heuristic.is_none());
        policy.decide(&page, &model, &NEVER).unwrap().verdicts
    };
    let heuristic = Reason::Heuristic {
        rule: crate::segment::Heuristic::PipeNavBar,
    };
    for method in [Method::NCleaner, Method::Heuristics] {
        let v = decide(method, Some(-1000.0));
        assert_eq!(
            (v[0].keep(), v[0].decision.reason),
            (false, heuristic),
            "{method}"
        );
        assert!(v[1].keep(), "{method}");
    }
    assert_eq!(
        decide(Method::Heuristics, None)[1].decision.reason,
        Reason::NoHeuristic
    );
    let v = decide(Method::KeepAll, None);
    assert!(
        v.iter()
            .all(|v| v.keep() && v.decision.reason == Reason::KeepAll)
    );
}

/// Hidden text keeps the decision of the model's default point at every
/// preference and threshold: the README's page hides a line of keywords,
/// which no point that keeps more brings into the text.
#[test]
fn hidden_text_is_never_text_at_another_point() {
    let page = include_str!("../../../../examples/page.html");
    let keywords = "Hidden keywords: tomato seeds cheap tomato seeds buy now";
    let model = embedded("en").unwrap();
    let mut kept_elsewhere = false;
    for (preference, threshold) in [
        (Preference::F, None),
        (Preference::Recall, None),
        (Preference::Precision, None),
        (Preference::F, Some(-20.0)),
    ] {
        let policy = Policy {
            preference,
            threshold,
            ..Policy::default()
        };
        let frozen_page = frozen(page, &model);
        let decisions = policy.decide(&frozen_page, &model, &NEVER).unwrap();
        let c = Cleaned::assemble(frozen_page, decisions, true);
        assert!(!c.text().contains(keywords), "{preference:?} {threshold:?}");
        let s = c
            .segments
            .iter()
            .find(|s| s.segment.text() == keywords)
            .expect("the hidden line is a segment");
        kept_elsewhere |= s.decision.reason == Reason::HiddenText;
        // What a visible segment of the same evidence gets is unchanged.
        assert!(
            c.text()
                .contains("Tomatoes are among the easiest vegetables")
        );
    }
    assert!(kept_elsewhere, "the rule took the line at some point");
}

/// A shop's page of one product: its price, a description and a table of
/// specifications.
const PRODUCT_PAGE: &str = r#"<!DOCTYPE html><html><head><title>Aurora X2 Projector | Beamhouse</title>
        <meta property="og:type" content="product">
        <script type="application/ld+json">{"@context":"https://schema.org","@type":"Product",
        "name":"Aurora X2 Projector","offers":{"@type":"Offer","price":"1299.00","priceCurrency":"USD"}}</script>
        </head><body><nav><a href="/">Home</a> <a href="/shop">Shop</a> <a href="/cart">Cart</a></nav>
        <main><div class="product"><h1>Aurora X2 Projector</h1><p class="price">$1,299.00</p>
        <form><button class="add-to-cart">Add to cart</button></form>
        <div class="description"><p>The Aurora X2 throws a bright, sharp picture of up to 120 inches
        from a short distance, so a small living room becomes a cinema without a ceiling mount.</p>
        <p>Its laser light source lasts for twenty thousand hours, and the lens shifts by motor,
        so the picture can be squared from the sofa with the remote control.</p>
        <table class="specs"><tr><td>Resolution</td><td>1920 × 1080</td></tr>
        <tr><td>Brightness</td><td>3,000 lumens</td></tr><tr><td>Weight</td><td>3.2 kg</td></tr>
        <tr><td>Lens shift</td><td>Vertical, motorised</td></tr></table></div></div></main>
        <footer><p>Free shipping on orders over $50</p><p>© 2026 Beamhouse</p></footer></body></html>"#;

/// A product page keeps its price and its table of specifications, which
/// the classifier alone drops as furniture.
#[test]
fn a_product_page_keeps_its_price_and_specifications() {
    let html = PRODUCT_PAGE;
    let model = embedded("en").unwrap();
    let page = frozen(html, &model);
    let product = page
        .page_type()
        .map(|p| p.probability(crate::classify::page::PageType::Product));
    assert!(
        product.is_some_and(|p| p >= rules::PRODUCT_AT_LEAST),
        "{product:?}"
    );
    let decisions = Policy::default().decide(&page, &model, &NEVER).unwrap();
    let c = Cleaned::assemble(page, decisions, true);
    let text = c.text();
    for fact in [
        "$1,299.00",
        "Resolution",
        "1920 × 1080",
        "Weight",
        "3.2 kg",
        "Lens shift",
    ] {
        assert!(text.contains(fact), "{fact:?} missing from {text}");
    }
    assert!(!text.contains("Free shipping"), "{text}");
}
