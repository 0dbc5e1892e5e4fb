//! The options' names, values, checks, and the cleaner they make.

use super::*;

const EN: &str = "Tomatoes are among the easiest vegetables to grow in a garden, and they \
    need at least six hours of sun a day. Water them deeply twice a week, and stake the \
    plants before the fruit sets so the stems do not break under the weight.";
const DE: &str = "Tomaten gehören zu den Gemüsesorten, die sich im Garten am leichtesten \
    anbauen lassen, und sie brauchen mindestens sechs Stunden Sonne am Tag. Gießen Sie sie \
    zweimal pro Woche gründlich und binden Sie die Pflanzen an, bevor die Früchte ansetzen.";

fn page(text: &str) -> String {
    format!(
        "<html><body><ul><li><a href=/>Home</a></li><li><a href=/c>Contact</a></li></ul><h1>Tomatoes</h1><p>{text}</p><p>Copyright 2024. All rights reserved.</p></body></html>"
    )
}

#[test]
fn every_name_is_a_field_of_the_json_form() {
    let json = serde_json::to_value(CleanOptions {
        model: vec!["en".into()],
        threshold: Some(1.0),
        min_probability: Some(0.5),
        min_page_quality: Some(0.5),
        max_perplexity: Some(1.0),
        ..CleanOptions::default()
    })
    .unwrap();
    let mut keys: Vec<&str> = json
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let mut names = CleanOptions::NAMES.to_vec();
    keys.sort_unstable();
    names.sort_unstable();
    assert_eq!(keys, names);
}

#[test]
fn json_and_set_read_the_same_options() {
    let json: CleanOptions = serde_json::from_str(
        r#"{"model": "en", "route": false, "input": "html", "method": "keep_all",
            "prefer": "recall", "comments": "drop", "keep_repeats": true, "links": true,
            "images": true, "smoothing": "pyplexity", "word_model": "w.lm"}"#,
    )
    .unwrap();
    let mut set = CleanOptions::default();
    for (k, v) in [
        ("model", "en"),
        ("route", "false"),
        ("input", "html"),
        ("method", "keep-all"),
        ("prefer", "recall"),
        ("comments", "drop"),
        ("keep_repeats", "true"),
        ("links", "1"),
        ("images", "true"),
        ("smoothing", "pyplexity"),
        ("word_model", "w.lm"),
    ] {
        set.set(k, OptionValue::Str(v.into())).unwrap();
    }
    assert_eq!(json, set);
    // A round trip through JSON (Python's pickle) keeps every value.
    let back: CleanOptions = serde_json::from_value(serde_json::to_value(&json).unwrap()).unwrap();
    assert_eq!(back, json);
    // A list of models, and null for the default.
    let many: CleanOptions =
        serde_json::from_str(r#"{"model": ["en", "de.nclm"], "threshold": null}"#).unwrap();
    assert_eq!(many.model, ["en", "de.nclm"]);
    // Null sets the default back.
    set.set("prefer", OptionValue::Null).unwrap();
    assert_eq!(set.prefer, Preference::F);
}

#[test]
fn unknown_names_and_values_are_refused_with_the_names_known() {
    let mut o = CleanOptions::default();
    let e = o.set("treshold", OptionValue::Number(1.0)).unwrap_err();
    assert!(e.to_string().contains("unknown option \"treshold\""), "{e}");
    assert!(e.to_string().contains("threshold"), "{e}");
    let e = o
        .set("prefer", OptionValue::Str("best".into()))
        .unwrap_err();
    assert_eq!(e.option, "prefer");
    assert!(e.message().contains("precision, f or recall"), "{e}");
    let e = o
        .set("threshold", OptionValue::Str("high".into()))
        .unwrap_err();
    assert_eq!(e.to_string(), "threshold: \"high\" is not a number");
    let e = o.set("route", OptionValue::Number(2.0)).unwrap_err();
    assert_eq!(e.option, "route");
    assert!(serde_json::from_str::<CleanOptions>(r#"{"treshold": 1}"#).is_err());
    assert!(serde_json::from_str::<CleanOptions>(r#"{"method": "best"}"#).is_err());
}

#[test]
fn validation_names_the_option() {
    let bad = |o: CleanOptions| o.validate().unwrap_err();
    let d = CleanOptions::default;
    for t in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        let e = bad(CleanOptions {
            threshold: Some(t),
            ..d()
        });
        assert_eq!(e.option, "threshold");
        assert!(e.message().contains("not a finite number"), "{e}");
    }
    // NaN read from text (a query string, the command line) too.
    let mut o = d();
    o.set("threshold", OptionValue::Str("NaN".into())).unwrap();
    assert_eq!(bad(o).to_string(), "threshold: NaN is not a finite number");
    let cases = [
        (
            CleanOptions {
                threshold: Some(1.0),
                min_probability: Some(0.5),
                ..d()
            },
            "threshold",
        ),
        (
            CleanOptions {
                threshold: Some(1.0),
                method: Method::Heuristics,
                ..d()
            },
            "threshold",
        ),
        (
            CleanOptions {
                min_probability: Some(1.0),
                ..d()
            },
            "min_probability",
        ),
        (
            CleanOptions {
                min_probability: Some(f64::NAN),
                ..d()
            },
            "min_probability",
        ),
        (
            CleanOptions {
                min_page_quality: Some(1.5),
                ..d()
            },
            "min_page_quality",
        ),
        (
            CleanOptions {
                min_page_quality: Some(0.5),
                method: Method::KeepAll,
                ..d()
            },
            "min_page_quality",
        ),
        (
            CleanOptions {
                max_perplexity: Some(f64::NAN),
                method: Method::Perplexity,
                ..d()
            },
            "max_perplexity",
        ),
        (
            CleanOptions {
                max_perplexity: Some(100.0),
                ..d()
            },
            "max_perplexity",
        ),
        (CleanOptions { mark: true, ..d() }, "mark"),
        (
            CleanOptions {
                route: false,
                model: vec!["en".into(), "en-nonlex".into()],
                ..d()
            },
            "model",
        ),
        (
            CleanOptions {
                route: false,
                fallback_model: "en".into(),
                ..d()
            },
            "fallback_model",
        ),
        (
            CleanOptions {
                model: vec![String::new()],
                ..d()
            },
            "model",
        ),
    ];
    for (o, option) in cases {
        assert_eq!(bad(o.clone()).option, option, "{o:?}");
        // The cleaner refuses them with the same error.
        match Cleaner::new(o) {
            Err(Error::Option(e)) => assert_eq!(e.option, option),
            other => panic!("{option}: {other:?}"),
        }
    }
    assert!(d().validate().is_ok());
}

#[test]
fn models_that_cannot_be_had_name_their_option() {
    let e = Cleaner::new(CleanOptions {
        model: vec!["no-such-model".into()],
        ..CleanOptions::default()
    })
    .unwrap_err();
    assert!(e.to_string().starts_with("model: "), "{e}");
    assert!(e.to_string().contains("no-such-model"), "{e}");
    let e = Cleaner::new(CleanOptions {
        method: Method::Perplexity,
        word_model: "no-such-lm".into(),
        ..CleanOptions::default()
    })
    .unwrap_err();
    assert!(e.to_string().starts_with("word_model: "), "{e}");
}

#[test]
fn the_default_routes_by_language_and_cuts_each_page() {
    let cleaner = Cleaner::new(CleanOptions::default()).unwrap();
    let en = cleaner.clean(page(EN).as_bytes(), InputKind::Auto, None);
    assert_eq!(
        (en.language.as_deref(), en.model.as_deref()),
        (Some("en"), Some("en"))
    );
    let de = cleaner.clean(page(DE).as_bytes(), InputKind::Auto, None);
    assert_eq!(
        (de.language.as_deref(), de.model.as_deref()),
        (Some("de"), Some("en-nonlex"))
    );
    // `model: en` is the same routing: German pages go to the fallback.
    let named = Cleaner::new(CleanOptions {
        model: vec!["en".into()],
        ..CleanOptions::default()
    })
    .unwrap();
    let de2 = named.clean(page(DE).as_bytes(), InputKind::Auto, None);
    assert_eq!(de2.model.as_deref(), Some("en-nonlex"));
    assert_eq!(de2.text(), de.text());
    // Without routing, `en` cleans it and no language is identified.
    let one = Cleaner::new(CleanOptions {
        model: vec!["en".into()],
        route: false,
        ..CleanOptions::default()
    })
    .unwrap();
    let de3 = one.clean(page(DE).as_bytes(), InputKind::Auto, None);
    assert_eq!(
        (de3.language.as_deref(), de3.model.as_deref()),
        (None, None)
    );
    // Each page is cut at its own point, which the record keeps.
    let cut = en.cut.expect("a cut");
    assert_eq!(cut.point, crate::cleaned::OperatingPoint::PageF);
    for s in &en.segments {
        if s.decision.reason == crate::classify::Reason::Score {
            assert_eq!(s.keep(), s.evidence().unwrap() >= cut.threshold, "{s:?}");
        }
    }
}

#[test]
fn every_operating_point_is_recorded_with_the_cut_that_decided() {
    use crate::cleaned::OperatingPoint as P;
    let cases = [
        (CleanOptions::default(), P::PageF),
        (
            CleanOptions {
                prefer: Preference::Precision,
                ..CleanOptions::default()
            },
            P::Precision,
        ),
        (
            CleanOptions {
                prefer: Preference::Recall,
                ..CleanOptions::default()
            },
            P::Recall,
        ),
        (
            CleanOptions {
                threshold: Some(1.5),
                ..CleanOptions::default()
            },
            P::Threshold,
        ),
        (
            CleanOptions {
                min_probability: Some(0.8),
                ..CleanOptions::default()
            },
            P::Threshold,
        ),
    ];
    for (o, point) in cases {
        // One model, so that the cleaner's threshold is the page's model's.
        let o = CleanOptions {
            model: vec!["en".into()],
            route: false,
            ..o
        };
        let cleaner = Cleaner::new(o.clone()).unwrap();
        let c = cleaner.clean(page(EN).as_bytes(), InputKind::Html, None);
        let cut = c.cut.unwrap_or_else(|| panic!("{o:?}"));
        assert_eq!(cut.point, point);
        if point != P::PageF {
            assert_eq!(cut.threshold, cleaner.threshold(InputKind::Html), "{o:?}");
        }
        for s in c.segments.iter().filter(|s| s.evidence().is_some()) {
            assert_eq!(s.keep(), s.evidence().unwrap() >= cut.threshold);
        }
    }
    let heuristics = Cleaner::new(CleanOptions {
        method: Method::Heuristics,
        ..CleanOptions::default()
    })
    .unwrap();
    assert_eq!(
        heuristics
            .clean(page(EN).as_bytes(), InputKind::Html, None)
            .cut,
        None
    );
}

#[test]
fn perplexity_options_make_the_filter() {
    let o = CleanOptions {
        method: Method::Perplexity,
        max_perplexity: Some(1.0),
        ..CleanOptions::default()
    };
    let c = Cleaner::new(o)
        .unwrap()
        .clean(page(EN).as_bytes(), InputKind::Html, None);
    // At a cut-off of 1 no sentence is kept.
    assert_eq!(c.words_out(), 0);
    assert_eq!(c.cut, None);
}

#[test]
fn clean_html_cleans_with_the_defaults() {
    let c = clean_html(&page(EN));
    assert!(c.text().contains("Tomatoes are among"));
    assert!(!c.text().contains("All rights reserved"));
    assert_eq!(c.model.as_deref(), Some("en"));
}
