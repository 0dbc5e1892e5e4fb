//! The JSON API against a real server on a loopback port.

mod common;

use common::*;
use serde_json::{Value, json};

async fn get_json(s: &TestServer, path: &str) -> Value {
    reqwest::get(s.url(path))
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

async fn post_json(s: &TestServer, body: Value) -> (u16, Value) {
    let r = reqwest::Client::new()
        .post(s.url("/api/clean"))
        .json(&body)
        .send()
        .await
        .unwrap();
    (r.status().as_u16(), r.json().await.unwrap())
}

#[tokio::test(flavor = "multi_thread")]
async fn clean_json_and_raw_bodies() {
    let s = start(default_config());
    let page = example_page();
    let (status, v) = post_json(&s, json!({ "html": page, "url": "http://example.org/" })).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["model"], "en");
    assert_eq!(v["language"], "en");
    assert_eq!(v["input"], "html");
    assert_eq!(v["url"], "http://example.org/");
    let segs = v["segments"].as_array().unwrap();
    let kept = |needle: &str| {
        segs.iter()
            .find(|x| x["text"].as_str().unwrap().contains(needle))
            .unwrap()["keep"]
            .clone()
    };
    assert_eq!(kept("Tomatoes are among"), true);
    assert_eq!(kept("Home | Vegetables"), false);
    assert!(v["text"].as_str().unwrap().contains("Tomatoes are among"));
    assert!(
        v["markdown"]
            .as_str()
            .unwrap()
            .contains("Tomatoes are among")
    );
    assert!(v["words_out"].as_u64().unwrap() < v["words_in"].as_u64().unwrap());
    // Every segment decided by the threshold carries its evidence, consistent with `keep`.
    let t = v["threshold"].as_f64().unwrap();
    for x in segs {
        if let Some(e) = x["evidence"].as_f64() {
            assert_eq!(x["keep"].as_bool().unwrap(), e >= t, "{x}");
            assert!(x["probability"].as_f64().is_some());
        } else {
            assert_ne!(x["reason"]["by"], "score", "{x}");
        }
    }

    // The same page as a raw body, with the same URL (the page type reads
    // it), gives the same decisions.
    let raw: Value = reqwest::Client::new()
        .post(s.url("/api/clean?model=en&url=http://example.org/"))
        .header("Content-Type", "text/html; charset=utf-8")
        .body(page.clone())
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(raw["segments"], v["segments"]);

    // Threshold, model and method are honoured.
    let (_, strict) = post_json(&s, json!({ "html": page, "threshold": 20.0 })).await;
    assert!(strict["words_out"].as_u64() < v["words_out"].as_u64());
    let (_, all) = post_json(&s, json!({ "html": page, "method": "keep-all" })).await;
    assert_eq!(all["words_out"], all["words_in"]);
    // The stored operating points and the comment choice, as `clean` has them.
    let (_, p) = post_json(&s, json!({ "html": page, "prefer": "precision" })).await;
    let (_, r) = post_json(&s, json!({ "html": page, "prefer": "recall" })).await;
    assert!(
        p["threshold"].as_f64() >= r["threshold"].as_f64(),
        "{} {}",
        p["threshold"],
        r["threshold"]
    );
    assert!(p["words_out"].as_u64() <= r["words_out"].as_u64());
    let (status, d) = post_json(&s, json!({ "html": page, "comments": "drop" })).await;
    assert_eq!(status, 200, "{d}");
    assert!(d["words_out"].as_u64() <= v["words_out"].as_u64());
    // Repeats: dropped by default, kept on request.
    let twice = "<p>The same sentence of this page is shown twice for the layout's sake.</p>\
                 <p>The same sentence of this page is shown twice for the layout's sake.</p>";
    let (_, once) = post_json(&s, json!({ "html": twice, "threshold": -20.0 })).await;
    let (_, both) = post_json(
        &s,
        json!({ "html": twice, "threshold": -20.0, "keep_repeats": true }),
    )
    .await;
    assert_eq!(
        once["text"]
            .as_str()
            .unwrap()
            .matches("shown twice")
            .count(),
        1,
        "{once}"
    );
    assert_eq!(
        both["text"]
            .as_str()
            .unwrap()
            .matches("shown twice")
            .count(),
        2,
        "{both}"
    );
    // Links in the Markdown on request, resolved against the page's URL.
    let linked = "<p>Read <a href=\"/guide\">the guide to the tool</a> before you start it on your pages.</p>";
    let (_, plain) = post_json(
        &s,
        json!({ "html": linked, "url": "https://example.org/a/", "threshold": -20.0 }),
    )
    .await;
    let (_, with) = post_json(
        &s,
        json!({ "html": linked, "url": "https://example.org/a/", "threshold": -20.0, "links": true }),
    )
    .await;
    assert!(
        !plain["markdown"].as_str().unwrap().contains("]("),
        "{plain}"
    );
    assert!(
        with["markdown"]
            .as_str()
            .unwrap()
            .contains("[the guide to the tool](https://example.org/guide)"),
        "{with}"
    );
    assert_eq!(with["text"], plain["text"]);
    let (_, nl) = post_json(&s, json!({ "text": "Home | News | About\n\nA paragraph of ordinary running text, written in full sentences.\n", "model": "en-nonlex" })).await;
    assert_eq!(nl["model"], "en-nonlex");
    assert_eq!(nl["input"], "text");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_pages_language_is_reported() {
    let s = start(default_config());
    let de = "Es war einmal ein König, der hatte drei Söhne, von denen war der jüngste so \
        schön, dass die Sonne selber sich wunderte, sooft sie ihm ins Gesicht schien.";
    let (status, v) = post_json(&s, json!({ "html": format!("<p>{de}</p>") })).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["language"], "de");
    let (status, v) = post_json(&s, json!({ "text": "Home" })).await;
    assert_eq!(status, 200, "{v}");
    assert!(
        v["language"].is_null() && v.get("language").is_some(),
        "{v}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn the_pages_metadata_is_reported() {
    let s = start(default_config());
    let page = "<html lang=en><head><title>Tides | The Tide</title>\
        <meta property=og:site_name content='The Tide'>\
        <link rel=canonical href=/moon>\
        <script type=application/ld+json>{\"@graph\":[{\"@type\":\"NewsArticle\",\
        \"headline\":\"Moon pulls sea\",\"author\":[{\"name\":\"Jane Doe\"}],\
        \"datePublished\":\"2025-03-04T10:00:00+01:00\"}]}</script></head>\
        <body><p>The Moon pulls the sea twice a day, and the Sun helps it a little.</p></body></html>";
    let (status, v) = post_json(
        &s,
        json!({ "html": page, "url": "https://tide.example/a?b" }),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    let m = &v["metadata"];
    assert_eq!(m["title"], "Moon pulls sea", "{v}");
    assert_eq!(m["authors"], json!(["Jane Doe"]));
    assert_eq!(m["date_published"], "2025-03-04T10:00:00+01:00");
    assert_eq!(m["site_name"], "The Tide");
    assert_eq!(m["canonical_url"], "https://tide.example/moon");
    assert_eq!(m["language"], "en");
    assert!(m["date_modified"].is_null() && m.get("date_modified").is_some());
    // Text input: no metadata.
    let (_, v) = post_json(&s, json!({ "text": "Home" })).await;
    assert!(
        v["metadata"].is_null() && v.get("metadata").is_some(),
        "{v}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn models_openapi_health_and_page() {
    let s = start(default_config());
    let c = reqwest::Client::new();
    let m = get_json(&s, "/api/models").await;
    let names: Vec<&str> = m["models"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["en", "en-nonlex", "multi"]);
    let o = get_json(&s, "/api/openapi.json").await;
    assert_eq!(o["openapi"], "3.0.3");
    assert!(o["paths"]["/api/clean"]["post"].is_object());
    assert_eq!(
        c.get(s.url("/healthz"))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap(),
        "ok\n"
    );
    let page = c
        .get(s.url("/"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        page.contains("id=\"threshold\"") && !page.contains("https://"),
        "the page is self-contained"
    );
    // The page offers every method the API takes.
    let methods = o["paths"]["/api/clean"]["post"]["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "method")
        .unwrap()["schema"]["enum"]
        .clone();
    for m in methods.as_array().unwrap() {
        let m = m.as_str().unwrap();
        assert!(page.contains(&format!("value=\"{m}\"")), "method {m}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn bad_requests_get_json_errors() {
    let s = start(default_config());
    let c = reqwest::Client::new();
    let cases: Vec<(&str, &str, Vec<u8>, u16, &str)> = vec![
        (
            "/api/clean",
            "application/json",
            b"{not json".to_vec(),
            400,
            "JSON body",
        ),
        (
            "/api/clean",
            "application/json",
            b"{\"html\": 5}".to_vec(),
            400,
            "JSON body",
        ),
        (
            "/api/clean",
            "application/json",
            b"{\"html\": \"a\", \"fetch\": \"http://x/\"}".to_vec(),
            400,
            "\"fetch\" alone",
        ),
        (
            "/api/clean",
            "application/json",
            b"{}".to_vec(),
            400,
            "give \"html\" or \"text\"",
        ),
        (
            "/api/clean",
            "application/json",
            b"{\"text\": \"a\", \"threshold\": 1, \"threshold\": 2}".to_vec(),
            400,
            "\"threshold\" is given twice",
        ),
        (
            "/api/clean",
            "application/json",
            b"{\"text\": \"x\", \"bogus\": 1}".to_vec(),
            400,
            "unknown field",
        ),
        (
            "/api/clean",
            "application/json",
            b"{\"text\": \"x\", \"model\": \"fr\"}".to_vec(),
            400,
            "unknown model",
        ),
        (
            "/api/clean",
            "application/json",
            b"{\"text\": \"x\", \"method\": \"magic\"}".to_vec(),
            400,
            "unknown method",
        ),
        (
            "/api/clean",
            "application/json",
            vec![
                b'{', b'"', b't', b'e', b'x', b't', b'"', b':', b'"', 0xff, 0xfe, b'"', b'}',
            ],
            400,
            "JSON body",
        ),
        (
            "/api/clean",
            "application/json",
            b"{\"text\": \"x\", \"comments\": \"hide\"}".to_vec(),
            400,
            "comments",
        ),
        // Options are named by the API's fields (the command line names its flags).
        (
            "/api/clean",
            "application/json",
            b"{\"text\": \"x\", \"threshold\": 1, \"min_probability\": 0.5}".to_vec(),
            400,
            "threshold: give threshold or min_probability, not both",
        ),
        (
            "/api/clean?prefer=most",
            "text/plain",
            b"hello".to_vec(),
            400,
            "prefer",
        ),
        (
            "/api/clean?threshold=abc",
            "text/plain",
            b"hello".to_vec(),
            400,
            "query string",
        ),
        (
            "/api/clean?threshold=NaN",
            "text/plain",
            b"hello".to_vec(),
            400,
            "threshold: NaN is not a finite number",
        ),
        (
            "/api/clean",
            "application/json",
            b"{\"text\": \"x\", \"threshold\": 1e999}".to_vec(),
            400,
            "JSON body",
        ),
        (
            "/api/nothing",
            "text/plain",
            b"hello".to_vec(),
            404,
            "no such route",
        ),
    ];
    for (path, ct, body, status, says) in cases {
        let r = c
            .post(s.url(path))
            .header("Content-Type", ct)
            .body(body.clone())
            .send()
            .await
            .unwrap();
        assert_eq!(
            r.status().as_u16(),
            status,
            "{path} {:?}",
            String::from_utf8_lossy(&body)
        );
        let v: Value = r.json().await.unwrap();
        assert!(v["error"].as_str().unwrap().contains(says), "{v}");
    }
    // A route asked with another method: a JSON error too, naming the route,
    // and the methods it takes in `Allow`.
    for (path, allow) in [("/api/clean", "POST"), ("/api/models", "GET,HEAD")] {
        let r = c.put(s.url(path)).send().await.unwrap();
        assert_eq!(r.status().as_u16(), 405, "PUT {path}");
        assert_eq!(r.headers()["allow"], allow, "PUT {path}");
        let v: Value = r.json().await.unwrap();
        let error = v["error"].as_str().unwrap();
        assert!(
            error.starts_with(&format!("PUT {path}: method not allowed")),
            "{v}"
        );
    }
    let r = c.get(s.url("/api/clean")).send().await.unwrap();
    assert_eq!(r.status().as_u16(), 405);
    assert!(
        r.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("application/json")
    );
    let v: Value = r.json().await.unwrap();
    assert!(
        v["error"].as_str().unwrap().contains("GET /api/clean"),
        "{v}"
    );
    // Issue 52, 12: a JSON body is read as a JSON line is: `html` cleaned
    // when `text` comes too, a lone surrogate escape read as U+FFFD, a
    // byte-order mark skipped.
    for body in [
        &b"{\"method\": \"keep-all\", \"text\": \"a dump\", \"html\": \"<p>Tomatoes grow.</p>\"}"[..],
        b"{\"method\": \"keep-all\", \"html\": \"<p>Tomatoes grow.\\ud800</p>\"}",
        b"\xef\xbb\xbf{\"method\": \"keep-all\", \"html\": \"<p>Tomatoes grow.</p>\"}",
    ] {
        let r = c
            .post(s.url("/api/clean"))
            .header("Content-Type", "application/json")
            .body(body.to_vec())
            .send()
            .await
            .unwrap();
        let status = r.status().as_u16();
        let v: Value = r.json().await.unwrap();
        assert_eq!(status, 200, "{:?}: {v}", String::from_utf8_lossy(body));
        assert_eq!(v["input"], "html", "{v}");
        assert!(v["text"].as_str().unwrap().contains("Tomatoes grow"), "{v}");
    }
    // Invalid UTF-8 in a raw body is not an error: the decoder takes any bytes.
    let r = c
        .post(s.url("/api/clean"))
        .header("Content-Type", "text/html")
        .body(vec![0xff, 0xfe, b'<', b'p', b'>', 0xc3])
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 200);
    assert_eq!(
        c.get(s.url("/healthz"))
            .send()
            .await
            .unwrap()
            .status()
            .as_u16(),
        200
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn bounded_load_has_no_errors() {
    let s = start(default_config());
    let page = example_page();
    let r = ncleaner_serve::load::run(
        &s.url("/api/clean"),
        "text/html",
        page.as_bytes(),
        16,
        std::time::Duration::from_secs(2),
    )
    .await
    .unwrap();
    assert!(r.requests > 16, "{r:?}");
    assert_eq!(r.errors, 0, "{r:?}");
    assert!(r.p50 <= r.p99);
}

#[tokio::test(flavor = "multi_thread")]
async fn perplexity_of_sentences() {
    let s = start(default_config());
    let c = reqwest::Client::new();
    let post = |body: Value| {
        let c = c.clone();
        let url = s.url("/api/perplexity");
        async move {
            let r = c.post(url).json(&body).send().await.unwrap();
            (r.status().as_u16(), r.json::<Value>().await.unwrap())
        }
    };
    let (code, v) = post(json!({
        "text": "The minister said the report would be published next week. Qzx vbnm plok wruff.\nA second line."
    }))
    .await;
    assert_eq!(code, 200, "{v}");
    assert_eq!(v["model"], "en-ppl");
    assert_eq!(v["max_perplexity"], 8000.0);
    let sentences = v["sentences"].as_array().unwrap();
    assert_eq!(sentences.len(), 3, "{v}");
    let ppl = |i: usize| sentences[i]["perplexity"].as_f64().unwrap();
    assert!(ppl(0) < ppl(1), "well-formed below salad: {v}");
    assert_eq!(sentences[0]["keep"], true);
    assert_eq!(sentences[1]["keep"], false);
    assert_eq!(
        v["kept"].as_u64().unwrap() + v["removed"].as_u64().unwrap(),
        3
    );
    // A lower cut-off removes more.
    let (_, low) = post(json!({"text": "The minister said the report would be published next week.", "max_perplexity": 1.0})).await;
    assert_eq!(low["removed"], 1);
    // Bad requests: 400 with a reason.
    for (body, needle) in [
        (json!({"text": "x", "model": "nope"}), "unknown word model"),
        (
            json!({"text": "x", "max_perplexity": 0}),
            "must be positive",
        ),
        (json!({"txt": "x"}), "JSON body"),
    ] {
        let (code, e) = post(body).await;
        assert_eq!(code, 400);
        assert!(e["error"].as_str().unwrap().contains(needle), "{e}");
    }
    // Listed in /api/models and the OpenAPI document.
    let m = get_json(&s, "/api/models").await;
    assert_eq!(m["word_models"][0]["name"], "en-ppl");
    let o = get_json(&s, "/api/openapi.json").await;
    assert!(o["paths"]["/api/perplexity"]["post"].is_object());
    // The clean endpoint takes the method too.
    let (code, v) = post_json(
        &s,
        json!({"text": "The minister said the report would be published next week. Qzx vbnm plok wruff.", "method": "perplexity"}),
    )
    .await;
    assert_eq!(code, 200, "{v}");
    assert_eq!(v["method"], "perplexity");
    assert_eq!(
        v["text"],
        "The minister said the report would be published next week."
    );
}

/// A German page goes where `ncleaner clean` sends it (en-nonlex, the
/// fallback of the CLI's default routing), unless the request names a model.
#[tokio::test(flavor = "multi_thread")]
async fn a_german_page_is_routed_as_the_cli_routes_it() {
    let s = start(default_config());
    let page = "<html><body><ul><li><a href=/>Startseite</a></li><li><a href=/k>Kontakt</a></li></ul>\
        <p>Am Rande des kleinen Dorfes stand eine alte Mühle, deren Rad sich seit vielen Jahren \
        nicht mehr gedreht hatte. Die Kinder des Ortes erzählten sich, dass in ihren Mauern ein \
        freundlicher Geist wohne, der nachts die Säcke zähle. Im Frühling, wenn der Bach wieder \
        genug Wasser führte, kamen die Bauern trotzdem gern vorbei und setzten sich auf die Bank \
        vor dem Tor. Dort sprachen sie über das Wetter, die Ernte und die Preise auf dem Markt \
        in der Stadt.</p><div class=footer>Impressum | Datenschutz</div></body></html>";
    let (status, v) = post_json(&s, json!({ "html": page })).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["language"], "de");
    assert_eq!(v["model"], "en-nonlex");
    // The same decisions as the CLI's routing (`Routes::from_names` with its defaults).
    let cli = ncleaner::Cleaner::routed(
        ncleaner::Routes::from_names::<&str>(&[], ncleaner::DEFAULT_FALLBACK).unwrap(),
    )
    .clean(page.as_bytes(), ncleaner::InputKind::Html, None);
    assert_eq!(cli.model.as_deref(), Some("en-nonlex"));
    assert_eq!(v["text"], cli.text().trim_end());
    // The cut that decided is the page's own, as the CLI's.
    assert_eq!(v["operating_point"], "page-f");
    assert_eq!(v["threshold"].as_f64(), cli.cut.map(|c| c.threshold));
    // A model named is routed as `clean --model en` routes it: the German
    // page still goes to the fallback...
    let (_, en) = post_json(&s, json!({ "html": page, "model": "en" })).await;
    assert_eq!(en["model"], "en-nonlex");
    assert_eq!(en["text"], v["text"]);
    // ...and without routing that one model cleans it, no language identified.
    let (status, one) = post_json(&s, json!({ "html": page, "model": "en", "route": false })).await;
    assert_eq!(status, 200, "{one}");
    assert_eq!(one["model"], serde_json::Value::Null);
    assert_eq!(one["language"], serde_json::Value::Null);
}

/// The API's description lists every cleaning option, in the body and in the
/// query string, so that an option added to `CleanOptions` is documented.
#[test]
fn the_openapi_document_lists_every_option() {
    let doc: Value = serde_json::from_str(include_str!("../src/openapi.json")).unwrap();
    let post = &doc["paths"]["/api/clean"]["post"];
    let query: Vec<&str> = post["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    let body = doc["components"]["schemas"]["CleanRequest"]["properties"]
        .as_object()
        .unwrap();
    for name in ncleaner::CleanOptions::NAMES {
        assert!(query.contains(&name), "query parameter {name}");
        assert!(body.contains_key(name), "body field {name}");
    }
}

/// The keys GUIDE.md lists for `POST /api/clean`'s answer (`{elapsed_ms,
/// …, segments: [{evidence, …}], …}`): the answer's top-level keys, and
/// every key a segment may have.
fn guide_keys() -> (Vec<String>, Vec<String>) {
    let guide = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../GUIDE.md"))
        .unwrap()
        .replace('\n', " ");
    let at = guide
        .find("`POST /api/clean` answers with the record")
        .expect("GUIDE.md describes the API's answer");
    let list = &guide[at..];
    let list = &list[list.find("`{").expect("a list of keys") + 2..];
    let list = &list[..list.find("}`").expect("the list's end")];
    let (head, rest) = list.split_once("segments: [{").expect("the segments' keys");
    let (segment, tail) = rest.split_once("}]").expect("the segments' list ends");
    let names = |s: &str| -> Vec<String> {
        s.split(',')
            .map(str::trim)
            .filter(|k| !k.is_empty())
            .map(String::from)
            .collect()
    };
    let mut top = names(head);
    top.push("segments".into());
    top.extend(names(tail));
    (top, names(segment))
}

/// GUIDE.md's list of the answer's keys is the answer's, for an HTML page
/// and for text: every field is present, `page_type` included.
#[tokio::test(flavor = "multi_thread")]
async fn the_answer_has_the_keys_the_guide_lists() {
    let (top, segment) = guide_keys();
    let s = start(default_config());
    for body in [
        json!({ "html": example_page() }),
        json!({ "text": "Home | News\n\nA paragraph of ordinary running text, written in full sentences.\n" }),
    ] {
        let (status, v) = post_json(&s, body).await;
        assert_eq!(status, 200, "{v}");
        let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
        let mut want: Vec<&String> = top.iter().collect();
        want.sort();
        let mut got = keys.clone();
        got.sort();
        assert_eq!(got, want, "GUIDE.md's keys against the answer's: {v}");
        for seg in v["segments"].as_array().unwrap() {
            for k in seg.as_object().unwrap().keys() {
                assert!(
                    segment.contains(k),
                    "a segment's {k} is not in GUIDE.md's list"
                );
            }
        }
    }
}
