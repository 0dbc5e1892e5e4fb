//! The demo page in a real browser: headless Chromium driven through
//! chromedriver (Debian's `chromium` and `chromium-driver`, installed by
//! `.ci/run`). Set `NCLEANER_SCREENSHOT=PATH` to keep the screenshot
//! (`docs/demo.png` is made this way).

mod common;

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::*;
use fantoccini::{ClientBuilder, Locator};
use serde_json::json;

/// chromedriver on a free port; killed when dropped.
struct Driver(Child, u16);

impl Drop for Driver {
    fn drop(&mut self) {
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
    // fantoccini and reqwest bring rustls with different crypto back ends; pick one.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let server = start(default_config());
    let driver = chromedriver();
    let chrome = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        json!({ "binary": chrome, "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,1000"] }),
    );
    let c = ClientBuilder::rustls()
        .unwrap()
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
    // The model's default operating point, as the API states it (the page
    // was cleaned by `en`); the slider moves in steps of 0.01.
    let models: serde_json::Value = reqwest::get(server.url("/api/models"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let want = models["models"]
        .as_array()
        .and_then(|m| m.iter().find(|m| m["name"] == "en"))
        .and_then(|m| m["threshold"]["html"].as_f64())
        .unwrap_or_else(|| panic!("en's threshold in {models}"));
    assert!(
        (t0 - want).abs() <= 0.005 && t0 != 0.0,
        "the slider starts at the model's operating point, {t0} (the model's: {want})"
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
    c.close().await.unwrap();
}
