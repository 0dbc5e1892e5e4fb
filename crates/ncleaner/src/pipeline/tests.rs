//! Tests of `pipeline`.

use std::time::Instant;

use super::*;
use crate::page::{looks_like_html, segments_of};

fn route(name: &str) -> Route {
    Route {
        name: name.into(),
        model: Arc::new(crate::model::embedded(name).unwrap()),
    }
}

fn page(paragraphs: &[&str]) -> String {
    let mut html = String::from(
        "<html><body><ul><li><a href=/>Home</a></li><li><a href=/a>About</a></li></ul>",
    );
    for p in paragraphs {
        html.push_str(&format!("<p>{p}</p>"));
    }
    html.push_str("<div class=footer>(c) 2024</div></body></html>");
    html
}

#[test]
fn routes_from_names_as_the_cli_assembles_them() {
    // No names: English pages to `en`, Chinese, Russian, Polish and Greek
    // ones to `multi` (one model for four languages), the rest to `en-nonlex`.
    let r = Routes::from_names::<&str>(&[], DEFAULT_FALLBACK).unwrap();
    assert_eq!(&*r.pick(Some("en")).name, "en");
    for l in ["zh", "ru", "pl", "el"] {
        assert_eq!(&*r.pick(Some(l)).name, "multi", "{l}");
    }
    assert!(Arc::ptr_eq(
        &r.pick(Some("zh")).model,
        &r.pick(Some("el")).model
    ));
    assert_eq!(&*r.pick(Some("de")).name, "en-nonlex");
    assert_eq!(&*r.pick(Some("ja")).name, "en-nonlex");
    assert_eq!(&*r.pick(None).name, "en-nonlex");
    // A model of one of `multi`'s languages beside it clashes, naming both.
    let e = Routes::from_names(&["multi", "en", "multi"], DEFAULT_FALLBACK).unwrap_err();
    assert!(e.to_string().contains("both for language zh"), "{e}");
    // One model without a language cleans every page.
    let r = Routes::from_names(&["en-nonlex"], "en").unwrap();
    assert!(r.by_language.is_empty());
    assert_eq!(&*r.fallback().name, "en-nonlex");
    // A model without a tag cannot be routed to beside others.
    assert!(Routes::from_names(&["en", "en-nonlex"], DEFAULT_FALLBACK).is_err());
    // Unknown names are errors that say so.
    let e = Routes::from_names(&["fr"], DEFAULT_FALLBACK).unwrap_err();
    assert!(e.to_string().contains("not an embedded model"), "{e}");
    // The fallback opens beside the models, but its error counts only
    // when the models need a fallback: not beside one untagged model.
    let r = Routes::from_names(&["en-nonlex"], "no-such-model").unwrap();
    assert_eq!(&*r.fallback().name, "en-nonlex");
    let e = Routes::from_names(&["en"], "no-such-model").unwrap_err();
    assert!(e.to_string().contains("no-such-model"), "{e}");
    // The first model that fails is the one reported.
    let e = Routes::from_names(&["en", "xx", "yy"], DEFAULT_FALLBACK).unwrap_err();
    assert!(
        e.to_string().contains("xx") && !e.to_string().contains("yy"),
        "{e}"
    );
}

/// The default routes open the fallback at once, and each language's
/// embedded model when a page of its language first comes: one model
/// for all of `multi`'s languages.
#[test]
fn embedded_routes_open_when_first_needed() {
    let r = Routes::from_names::<&str>(&[], DEFAULT_FALLBACK).unwrap();
    let opened = |tag: &str| {
        let (_, slot) = r.by_language.iter().find(|(t, _)| t == tag).unwrap();
        slot.route.get().is_some()
    };
    assert!(!opened("en") && !opened("zh") && !opened("ru"));
    assert_eq!(&*r.fallback().name, "en-nonlex");
    assert_eq!(&*r.pick(Some("en")).name, "en");
    assert!(opened("en") && !opened("zh"));
    assert_eq!(&*r.pick(Some("ru")).name, "multi");
    assert!(opened("zh") && opened("pl"), "multi's languages share it");
    assert!(r.pick(Some("en")).model.meta.languages().any(|l| l == "en"));
    assert!(r.pick(Some("el")).model.classifier.is_some());
}

const DE: &str = "Es war einmal ein König, der hatte drei Söhne, von denen war der \
    jüngste so schön, dass die Sonne selber sich wunderte, sooft sie ihm ins Gesicht \
    schien. Nahe bei dem Schlosse des Königs lag ein großer dunkler Wald.";
const EN: &str = "It was the best of times, it was the worst of times, it was the age \
    of wisdom, it was the age of foolishness, it was the epoch of belief, it was the \
    epoch of incredulity, it was the season of Light, it was the season of Darkness.";

#[test]
fn routes_pages_by_language() {
    let mut routes = Routes::new(route("en-nonlex"));
    routes.add(route("en")).unwrap();
    // The fallback has no tag: it cannot be a language's route; a second `en` clashes.
    assert!(routes.add(route("en-nonlex")).is_err());
    assert!(
        routes
            .add(route("en"))
            .unwrap_err()
            .to_string()
            .contains("both")
    );
    let routed = Cleaner::routed(routes);
    let single = Cleaner::from_model(crate::model::embedded("en").unwrap());

    let en = page(&[EN, EN]);
    let r = routed.clean(en.as_bytes(), InputKind::Html, None);
    assert_eq!(r.language.as_deref(), Some("en"));
    assert_eq!(r.model.as_deref(), Some("en"));
    // Routed to `en`, an English page is cleaned exactly as by `en` alone.
    let s = single.clean(en.as_bytes(), InputKind::Html, None);
    assert_eq!((s.language.as_deref(), s.model.as_deref()), (None, None));
    assert_eq!(r.segments, s.segments);

    let de = page(&[DE, DE]);
    let r = routed.clean(de.as_bytes(), InputKind::Html, None);
    assert_eq!(r.language.as_deref(), Some("de"));
    assert_eq!(r.model.as_deref(), Some("en-nonlex"));
    let nonlex = Cleaner::from_model(crate::model::embedded("en-nonlex").unwrap());
    assert_eq!(
        r.segments,
        nonlex.clean(de.as_bytes(), InputKind::Html, None).segments
    );

    // Too little text to identify: the fallback, language unknown.
    let r = routed.clean(b"<p>Hallo</p>", InputKind::Html, None);
    assert_eq!((r.language, r.model.as_deref()), (None, Some("en-nonlex")));
    // No panic on nothing at all.
    let r = routed.clean(b"", InputKind::Auto, None);
    assert!(r.segments.is_empty() && r.language.is_none());
}

#[test]
fn a_set_cancel_flag_stops_the_work() {
    let en = page(&[EN, EN]);
    let doc = || decode::decode(en.as_bytes(), Some("http://x/"), None);
    let model = Arc::new(crate::model::embedded("en").unwrap());
    for method in [
        Method::NCleaner,
        Method::Heuristics,
        Method::KeepAll,
        Method::Perplexity,
    ] {
        let cleaner = Cleaner::from_shared(model.clone()).with_method(method);
        // Not set: the same page as without a flag.
        let cancel = Cancel::new();
        let c = cleaner
            .clean_document_cancellable(doc(), InputKind::Html, &cancel)
            .unwrap();
        let plain = cleaner.clean_document(doc(), InputKind::Html);
        assert_eq!(c.segments, plain.segments, "{method:?}");
        assert_eq!(c.url, plain.url);
        // Set (by another thread, say): the work stops with `Cancelled`.
        cancel.cancel();
        assert!(cancel.is_cancelled());
        assert_eq!(
            cleaner
                .clean_document_cancellable(doc(), InputKind::Html, &cancel)
                .err(),
            Some(Cancelled),
            "{method:?}"
        );
    }
    // A routed cleaner too, and a deadline already passed counts as set.
    let routed = Cleaner::routed(Routes::new(route("en")));
    let past = Cancel::with_deadline(Instant::now());
    assert_eq!(
        routed
            .clean_document_cancellable(doc(), InputKind::Html, &past)
            .err(),
        Some(Cancelled)
    );
    let later = Cancel::with_deadline(Instant::now() + std::time::Duration::from_secs(3600));
    assert!(
        routed
            .clean_document_cancellable(doc(), InputKind::Html, &later)
            .is_ok()
    );
}

#[test]
fn stages_look_at_the_flag_every_so_many_segments() {
    let cancel = Cancel::new();
    cancel.cancel();
    for i in 0..3 * Cancel::EVERY {
        assert_eq!(
            cancel.check_at(i).is_err(),
            i % Cancel::EVERY == 0,
            "segment {i}"
        );
    }
    // A stage that goes segment by segment stops at its first look: a
    // text dump of many segments, decided by the perplexity filter.
    let text: String = (0..5 * Cancel::EVERY)
        .map(|i| format!("Line number {i} of a long dump.\n\n"))
        .collect();
    let cleaner =
        Cleaner::from_model(crate::model::embedded("en").unwrap()).with_method(Method::Perplexity);
    let (input, segments) = segments_of(&text, InputKind::Text);
    assert!(segments.len() > 4 * Cancel::EVERY);
    let page = crate::page::Page::of_segments(segments, input, None, None, None, true);
    assert_eq!(
        cleaner.policy.decide(&page, &cleaner.model, &cancel),
        Err(Cancelled)
    );
}

#[test]
fn metadata_travels_with_the_cleaned_page() {
    let single = Cleaner::from_model(crate::model::embedded("en").unwrap());
    let html = format!(
        "<html lang=de><head><link rel=canonical href=/moon></head><body>\
         <h1>Moon pulls sea</h1><p>By Jane Doe | March 4, 2025</p><p>{EN}</p><p>{EN}</p></body></html>"
    );
    let c = single.clean(
        html.as_bytes(),
        InputKind::Html,
        Some("https://t.example/x?y"),
    );
    let m = c.metadata.expect("HTML input has metadata");
    assert_eq!(m.title.as_deref(), Some("Moon pulls sea"));
    assert_eq!(m.canonical_url.as_deref(), Some("https://t.example/moon"));
    // No routing, so no detection: the page's own lang.
    assert_eq!(m.language.as_deref(), Some("de"));
    // The kept byline names the author and dates the page, if the cleaner kept it.
    if c.segments
        .iter()
        .any(|s| s.keep() && s.segment.text().starts_with("By "))
    {
        assert_eq!(m.authors, ["Jane Doe"]);
        assert_eq!(m.date_published.as_deref(), Some("2025-03-04"));
    }
    // Routed: the detected language wins over the page's lang.
    let routed = Cleaner::routed(Routes::from_names::<&str>(&[], DEFAULT_FALLBACK).unwrap());
    let c = routed.clean(html.as_bytes(), InputKind::Html, None);
    let m = c.metadata.unwrap();
    assert_eq!(m.language.as_deref(), Some("en"));
    assert_eq!(m.canonical_url, None, "a path without the page's URL");
    // Text input: none.
    assert!(
        single
            .clean(b"Just text.", InputKind::Text, None)
            .metadata
            .is_none()
    );
}

#[test]
fn html_detection() {
    assert!(looks_like_html("<!DOCTYPE html><html>"));
    assert!(looks_like_html("junk\n<P>para"));
    assert!(!looks_like_html(
        "Just some text.\n\nWith a <b> in it? No: 3 < 4."
    ));
}

/// Blocks that hide themselves (a closed tab, a page its scripts reveal)
/// reach only a model trained with their flag: every other decider sees
/// the page as shown, or the whole page when all of it is hidden.
#[test]
fn hidden_blocks_reach_only_deciders_that_know_them() {
    const TAB: &str = "The second tab explains how the device is charged overnight.";
    let html =
        format!("<html><body><p>{EN}</p><div class=tab hidden><p>{TAB}</p></div></body></html>");
    let model = Arc::new(crate::model::embedded("en").unwrap());
    let texts = |cleaner: &Cleaner, html: &str| -> Vec<String> {
        cleaner
            .clean_document(decode::decode(html.as_bytes(), None, None), InputKind::Html)
            .segments
            .iter()
            .map(|s| s.segment.text().to_string())
            .collect()
    };
    let keep_all = Cleaner::from_shared(model.clone()).with_method(Method::KeepAll);
    assert_eq!(texts(&keep_all, &html), [EN]);
    // The embedded models are trained with the flag: the model decides the tab.
    assert!(model.classifier.as_ref().is_some_and(|c| c.sees_hidden()));
    let by_model = Cleaner::from_shared(model.clone());
    assert!(texts(&by_model, &html).iter().any(|t| t == TAB));
    // A page whose every block is hidden until its scripts run.
    let wrapped = format!(
        "<html><body><div style=\"visibility:hidden\"><p>{EN}</p><p>{TAB}</p></div></body></html>"
    );
    assert_eq!(texts(&keep_all, &wrapped), [EN, TAB]);
}

/// A group added in one place (the line of `classify::features::GROUPS` under
/// `cfg(test)`) is trained on, stored in the model file by name, read
/// back, and decides pages: a classifier whose only telling column is
/// the planted one keeps exactly the paragraphs it marks.
#[test]
fn a_planted_group_trains_and_decides() {
    use crate::model::{Alphabet, Model, TrainOptions, TrainingPage, train};
    use crate::segment::Kind;
    let sentence =
        |i: usize, w: &str| format!("Paragraph {i} says a {w} thing in words like the others do.");
    let page = |k: usize| -> Vec<String> {
        (0..12)
            .map(|i| {
                sentence(
                    100 * k + i,
                    if (i + k).is_multiple_of(3) {
                        "planted"
                    } else {
                        "plain"
                    },
                )
            })
            .collect()
    };
    let mut model = train(
        &[TrainingPage {
            name: "a".into(),
            raw: page(0),
            clean: page(0),
        }],
        &TrainOptions {
            n: 3,
            q: 0.3,
            alphabet: Alphabet::Lexical,
        },
        "a planted column's model",
    )
    .unwrap();
    let mut c = crate::classify::tests::classifier();
    c.columns = crate::classify::schema::Schema::with(&["planted"])
        .unwrap()
        .names();
    assert_eq!(c.columns.last().map(String::as_str), Some("planted"));
    // Train the text-dump weights on five pages' rows.
    let (mut x, mut y) = (Vec::new(), Vec::new());
    for k in 1..=5 {
        let segments: Vec<Segment> = page(k)
            .into_iter()
            .map(|t| Segment::plain(Kind::P, t))
            .collect();
        y.extend(segments.iter().map(|s| s.text().contains("planted")));
        x.extend(c.feature_rows(&segments, model.scorer(), false, None));
    }
    let weights = vec![1.0; y.len()];
    c.text = Some(crate::classify::logistic::Logistic::fit(
        &x, &y, &weights, 1.0,
    ));
    c.threshold = [0.0, 0.0];
    model.classifier = Some(c);
    // Through the file: the names are stored and read back.
    let read = Model::from_bytes(&model.to_binary(), "planted").unwrap();
    let stored = &read.classifier.as_ref().unwrap().columns;
    assert_eq!(stored.last().map(String::as_str), Some("planted"));
    let dump = page(7).join("\n\n");
    let cleaned =
        crate::Cleaner::from_model(read).clean(dump.as_bytes(), crate::InputKind::Text, None);
    let text = cleaned.text();
    let kept: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let want: Vec<String> = page(7)
        .into_iter()
        .filter(|t| t.contains("planted"))
        .collect();
    assert_eq!(kept, want);
    // A build without the column refuses the file, naming it.
    let mut renamed = model.classifier.clone().unwrap();
    for n in &mut renamed.columns {
        if n == "planted" {
            *n = "unplanted".into();
        }
    }
    model.classifier = Some(renamed);
    let err = Model::from_bytes(&model.to_binary(), "renamed")
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("columns this build does not know: unplanted"),
        "{err}"
    );
}

/// Every HTML page gets a type, whatever model cleans it: a Chinese page
/// routed to `multi`, whose classifier has no page-type model, gets the
/// fallback's prediction.
#[test]
fn every_html_page_has_a_type_whatever_its_model() {
    let routed = Cleaner::routed(Routes::from_names::<&str>(&[], DEFAULT_FALLBACK).unwrap());
    let zh = "新华社北京12月15日电 国家统计局今天发布的数据显示，今年前十一个月全国规模以上工业增加值同比增长，\
              消费市场保持平稳，居民收入继续增加，经济运行总体稳定。专家表示，明年经济有望继续保持稳定增长。";
    let html = format!("<html><body><h1>统计局发布数据</h1><p>{zh}</p><p>{zh}</p></body></html>");
    let c = routed.clean(html.as_bytes(), InputKind::Html, None);
    assert_eq!(c.model.as_deref(), Some("multi"));
    assert!(
        routed
            .routes
            .as_ref()
            .unwrap()
            .pick(Some("zh"))
            .model
            .classifier
            .as_ref()
            .unwrap()
            .page_type
            .is_none(),
        "multi has no page-type model of its own"
    );
    assert!(c.page_type.is_some(), "a routed Chinese page has a type");
    // Text input has none.
    assert!(
        routed
            .clean(zh.as_bytes(), InputKind::Text, None)
            .page_type
            .is_none()
    );
}
