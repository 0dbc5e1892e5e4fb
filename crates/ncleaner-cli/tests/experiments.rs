//! The paper's experiments as commands, end to end on a small pool: each
//! writes its Markdown report and its plots, and its figures are sane.

mod common;

use common::{ok, shared_data, tempdir};
use std::path::Path;

/// Copies the first `n` pages of cleaneval/dev (and their gold files) into `dir`.
fn small_pool(dir: &Path, n: usize) -> (String, String) {
    let data = shared_data();
    let (html, gold) = (dir.join("html"), dir.join("gold"));
    std::fs::create_dir_all(&html).unwrap();
    std::fs::create_dir_all(&gold).unwrap();
    let mut pages: Vec<_> = std::fs::read_dir(data.join("cleaneval/dev"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    pages.sort();
    for p in pages.iter().take(n) {
        let stem = p.file_stem().unwrap().to_str().unwrap();
        std::fs::copy(p, html.join(p.file_name().unwrap())).unwrap();
        std::fs::copy(
            data.join(format!("gold/cleaneval/dev/{stem}.txt")),
            gold.join(format!("{stem}.txt")),
        )
        .unwrap();
    }
    (html.display().to_string(), gold.display().to_string())
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn is_png(p: &Path) -> bool {
    std::fs::read(p).is_ok_and(|b| b.len() > 1000 && b.starts_with(b"\x89PNG"))
}

#[cfg_attr(
    not(feature = "shared-data"),
    ignore = "needs ../shared/data, Python, Java or Chromium: scripts/test runs it"
)]
#[test]
fn crossval_tune_curve_and_heldout_write_their_reports() {
    let dir = tempdir();
    let (html, gold) = small_pool(dir.path(), 12);
    let rep = dir.path().join("report");
    let r = rep.to_str().unwrap();

    let out = ok(&[
        "crossval", "--html", &html, "--gold", &gold, "--folds", "3", "--report", r,
    ]);
    assert!(out.contains("raw dump (baseline), HTML"), "{out}");
    assert!(out.contains("NCleaner non-lexical"), "{out}");
    let t2 = read(&rep.join("table2.md"));
    assert!(t2.contains("t (F)"), "the t-tests are reported: {t2}");
    assert!(is_png(&rep.join("fig3-precision.png")));

    let out = ok(&[
        "tune", "--html", &html, "--gold", &gold, "--folds", "3", "--orders", "2..3", "--q-grid",
        "0.3,0.6", "--report", r,
    ]);
    assert!(out.contains("Minimum: **n = "), "{out}");
    assert!(is_png(&rep.join("fig2-entropy-lexical.png")));

    let out = ok(&[
        "curve",
        "--html",
        &html,
        "--gold",
        &gold,
        "--sizes",
        "1,2,4",
        "--draws",
        "2",
        "--held-out-folds",
        "3",
        "--report",
        r,
    ]);
    assert!(out.contains("| 4 |"), "{out}");
    assert!(is_png(&rep.join("fig4-learning-curve.png")));

    let out = ok(&[
        "heldout", "--html", &html, "--gold", &gold, "--name", "small", "--report", r,
    ]);
    assert!(out.contains("never trained on"), "{out}");
    assert!(read(&rep.join("heldout-small.md")).contains("NCleaner lexical"));
}
