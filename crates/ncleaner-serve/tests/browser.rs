//! The demo page in a real browser: headless Chromium driven through
//! chromedriver (Debian's `chromium` and `chromium-driver`, installed by
//! `.ci/run`). Set `NCLEANER_SCREENSHOT=PATH` to keep the screenshot
//! (`docs/demo.png` is made this way).

mod common;

use std::net::TcpListener;
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::*;
use fantoccini::{ClientBuilder, Locator};
use serde_json::json;

/// chromedriver on a free port, in a process group of its own; the whole
/// group (chromedriver and the Chromium it started) is killed when dropped,
/// a panic of the test included, so no browser outlives the test.
struct Driver(Child, u16);

impl Drop for Driver {
    fn drop(&mut self) {
        // The group's id is chromedriver's pid (`process_group(0)`).
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", self.0.id())])
            .stderr(Stdio::null())
            .status();
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn chromedriver() -> Driver {
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let bin = std::env::var("CHROMEDRIVER").unwrap_or_else(|_| "chromedriver".into());
    let child = Command::new(&bin)
        .arg(format!("--port={port}"))
        .process_group(0)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("{bin}: {e}; install Debian's chromium and chromium-driver (.ci/run does) or set CHROMEDRIVER"));
    let start = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "chromedriver did not start"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    Driver(child, port)
}

async fn text_of(c: &fantoccini::Client, id: &str) -> String {
    c.find(Locator::Id(id)).await.unwrap().text().await.unwrap()
}

async fn count(c: &fantoccini::Client, id: &str) -> u64 {
    text_of(c, id).await.parse().unwrap()
}

/// Pastes `page`, cleans it on the page, and returns the first view: each
/// segment's kept-or-removed as shown, and the text the page would copy.
async fn first_view(c: &fantoccini::Client, page: &str) -> (Vec<bool>, String) {
    c.execute(
        "document.getElementById('input').value = arguments[0]; document.getElementById('segments').textContent = '';",
        vec![json!(page)],
    )
    .await
    .unwrap();
    c.find(Locator::Id("clean"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    c.wait()
        .for_element(Locator::Css("#segments .seg"))
        .await
        .unwrap();
    let v = c
        .execute(
            "return [[...document.querySelectorAll('#segments .seg')].map((e) => e.classList.contains('kept')), keptText()];",
            vec![],
        )
        .await
        .unwrap();
    let keep = v[0]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b.as_bool().unwrap())
        .collect();
    (keep, v[1].as_str().unwrap().to_owned())
}

/// The API's answer for `page`, as the demo asks (no options).
async fn api_answer(server: &TestServer, page: &str) -> serde_json::Value {
    reqwest::Client::new()
        .post(server.url("/api/clean"))
        .json(&json!({ "html": page, "method": "ncleaner" }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

/// The demo's first view is the API's `keep`, segment by segment, and its
/// text the API's text.
async fn first_view_is_the_answer(
    c: &fantoccini::Client,
    server: &TestServer,
    name: &str,
    page: &str,
) {
    let (shown, text) = first_view(c, page).await;
    let answer = api_answer(server, page).await;
    let keep: Vec<bool> = answer["segments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["keep"].as_bool().unwrap())
        .collect();
    assert_eq!(shown, keep, "{name}: the first view is not the API's keep");
    assert_eq!(text.trim_end(), answer["text"], "{name}");
}

async fn set_threshold(c: &fantoccini::Client, t: f64) {
    c.execute(
        "const s = document.getElementById('threshold'); s.value = arguments[0]; s.dispatchEvent(new Event('input'));",
        vec![json!(t)],
    )
    .await
    .unwrap();
}

#[cfg_attr(
    not(feature = "shared-data"),
    ignore = "needs ../shared/data, Python, Java or Chromium: scripts/test runs it"
)]
#[tokio::test(flavor = "multi_thread")]
async fn paste_clean_slide_and_screenshot() {
    // The shared pages first: a missing folder fails before a browser starts.
    let wcxb = shared_data().join("wcxb/dev");
    assert!(
        wcxb.is_dir(),
        "{} is missing: the test reads WCXB's pages",
        wcxb.display()
    );
    let server = start(default_config());
    let driver = chromedriver();
    let chrome = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        json!({ "binary": chrome, "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,1000"] }),
    );
    // chromedriver listens on the loopback: plain HTTP, no TLS.
    let http = hyper_util::client::legacy::connect::HttpConnector::new();
    let c = ClientBuilder::new(http)
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{}", driver.1))
        .await
        .expect("a chromium session");
    c.goto(&server.url("/")).await.unwrap();
    // The model list arrives from /api/models.
    c.wait()
        .for_element(Locator::Css("#model option[value='en']"))
        .await
        .unwrap();

    // Paste the example page and clean it.
    c.execute(
        "document.getElementById('input').value = arguments[0];",
        vec![json!(example_page())],
    )
    .await
    .unwrap();
    c.find(Locator::Id("clean"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    c.wait()
        .for_element(Locator::Css("#segments .seg"))
        .await
        .unwrap();
    let kept = c
        .find_all(Locator::Css("#segments .seg.kept"))
        .await
        .unwrap();
    let removed = c
        .find_all(Locator::Css("#segments .seg.removed"))
        .await
        .unwrap();
    let mut kept_text = String::new();
    for e in &kept {
        kept_text.push_str(&e.text().await.unwrap());
    }
    let mut removed_text = String::new();
    for e in &removed {
        removed_text.push_str(&e.text().await.unwrap());
    }
    assert!(
        kept_text.contains("Tomatoes are among"),
        "kept: {kept_text}"
    );
    assert!(
        removed_text.contains("Home | Vegetables"),
        "removed: {removed_text}"
    );
    assert!(
        removed_text.contains("All rights reserved"),
        "removed: {removed_text}"
    );
    assert!(!kept_text.contains("All rights reserved"));
    assert!(text_of(&c, "status").await.contains("segments"));

    // The slider re-decides on the page, without a request.
    let (k0, r0) = (
        count(&c, "kept-words").await,
        count(&c, "removed-words").await,
    );
    let t0: f64 = c
        .execute(
            "return parseFloat(document.getElementById('threshold').value);",
            vec![],
        )
        .await
        .unwrap()
        .as_f64()
        .unwrap();
    // The slider starts at the cut the server applied (the page's own
    // expected-F cut), as the API states it; it moves in steps of 0.01.
    let answer = api_answer(&server, &example_page()).await;
    assert_eq!(answer["operating_point"], "page-f");
    let want = answer["threshold"].as_f64().unwrap();
    assert!(
        (t0 - want).abs() <= 0.005,
        "the slider starts at the cut applied, {t0} (the API's: {want})"
    );
    assert!(k0 > 0 && r0 > 0);
    set_threshold(&c, 12.0).await;
    let (k1, r1) = (
        count(&c, "kept-words").await,
        count(&c, "removed-words").await,
    );
    assert!(k1 < k0 && k1 + r1 == k0 + r0, "{k0}/{r0} → {k1}/{r1}");
    set_threshold(&c, -12.0).await;
    let k2 = count(&c, "kept-words").await;
    assert!(k2 > k0, "{k0} → {k2}");
    set_threshold(&c, t0).await;
    assert_eq!(
        count(&c, "kept-words").await,
        k0,
        "back at the operating point"
    );
    // The struck-through style is what marks removed segments.
    let style: String = c
        .execute(
            "return getComputedStyle(document.querySelector('#segments .seg.removed')).textDecorationLine;",
            vec![],
        )
        .await
        .unwrap()
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(style.contains("line-through"), "{style}");

    let png = c.screenshot().await.unwrap();
    assert!(png.starts_with(b"\x89PNG"));
    let path = std::env::var("NCLEANER_SCREENSHOT")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|_| std::env::temp_dir().join("ncleaner-demo.png"));
    std::fs::write(&path, &png).unwrap();

    // Phone width: nothing sticks out sideways.
    c.set_window_size(390, 844).await.unwrap();
    let overflow = c
        .execute(
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth;",
            vec![],
        )
        .await
        .unwrap();
    assert!(
        overflow.as_i64().unwrap() <= 0,
        "horizontal overflow of {overflow} px"
    );
    // The first view is the API's decisions: on the example page and on
    // ten WCXB pages (the first ten of the dev set, decoded as the server
    // decodes them).
    c.set_window_size(1280, 1000).await.unwrap();
    first_view_is_the_answer(&c, &server, "examples/page.html", &example_page()).await;
    let mut names: Vec<_> = std::fs::read_dir(&wcxb)
        .unwrap_or_else(|e| panic!("{}: {e}", wcxb.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".html.gz"))
        .collect();
    names.sort();
    assert!(names.len() >= 10, "WCXB pages in {}", wcxb.display());
    for path in &names[..10] {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(
            &mut flate2::read::GzDecoder::new(std::fs::File::open(path).unwrap()),
            &mut bytes,
        )
        .unwrap();
        let page = ncleaner::decode::decode(&bytes, None, None).text;
        first_view_is_the_answer(&c, &server, &path.display().to_string(), &page).await;
    }
    c.close().await.unwrap();
}
