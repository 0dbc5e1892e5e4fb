//! `ncleaner eval --metric wcxb` against the reference scorer in Python
//! (`scripts/wcxb_score.py`), on 80 WCXB development pages with made-up
//! outputs of every kind: the gold itself, half of it, nothing, and the gold
//! with boilerplate added.

mod common;

use common::{ok, repo, shared_data, tempdir};
use std::process::Command;

#[cfg_attr(
    not(feature = "shared-data"),
    ignore = "needs ../shared/data, Python, Java or Chromium: scripts/test runs it"
)]
#[test]
fn same_figures_as_the_python_scorer() {
    let gt_all = shared_data().join("wcxb/ground-truth");
    let dir = tempdir();
    let (gt, out) = (dir.path().join("gt"), dir.path().join("out"));
    std::fs::create_dir_all(&gt).unwrap();
    std::fs::create_dir_all(&out).unwrap();
    let mut names: Vec<_> = std::fs::read_dir(&gt_all)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    names.sort();
    assert!(
        names.len() > 1000,
        "WCXB ground truth at {}",
        gt_all.display()
    );
    for (i, p) in names.iter().step_by(names.len() / 80).take(80).enumerate() {
        std::fs::copy(p, gt.join(p.file_name().unwrap())).unwrap();
        let v: serde_json::Value = serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap();
        let text = v["ground_truth"]["main_content"].as_str().unwrap_or("");
        let output = match i % 4 {
            0 => text.to_string(),
            1 => text.chars().take(text.chars().count() / 2).collect(),
            2 => continue, // no output file: an empty output
            _ => format!(
                "Home | About | Subscribe now\n{text}\nCopyright 2026. All rights reserved."
            ),
        };
        let stem = p.file_stem().unwrap().to_string_lossy();
        std::fs::write(out.join(format!("{stem}.txt")), output).unwrap();
    }
    let ours: serde_json::Value = serde_json::from_str(&ok(&[
        "eval",
        "--metric",
        "wcxb",
        "--json",
        out.to_str().unwrap(),
        gt.to_str().unwrap(),
    ]))
    .unwrap();
    let py = Command::new("python3")
        .arg(repo().join("scripts/wcxb_score.py"))
        .arg("--json")
        .arg("--gt")
        .arg(&gt)
        .arg(&out)
        .output()
        .expect("python3 runs scripts/wcxb_score.py");
    assert!(
        py.status.success(),
        "{}",
        String::from_utf8_lossy(&py.stderr)
    );
    let theirs: serde_json::Value = serde_json::from_slice(&py.stdout).unwrap();
    let theirs = &theirs["text"]["out"];
    for (a, b) in [
        ("p", "P"),
        ("r", "R"),
        ("f1", "F1"),
        ("with_rate", "with_rate"),
        ("without_rate", "without_rate"),
    ] {
        let (x, y) = (
            ours["all"][a].as_f64().unwrap(),
            theirs[b].as_f64().unwrap(),
        );
        assert!((x - y).abs() < 1e-9, "{a}: ours {x}, Python's {y}");
    }
    assert_eq!(ours["all"]["empty"], theirs["empty_outputs"]);
    assert_eq!(ours["all"]["pages"], 80);
    for (t, s) in theirs["by_type"].as_object().unwrap() {
        let (x, y) = (
            ours["types"][t]["f1"].as_f64().unwrap(),
            s["F1"].as_f64().unwrap(),
        );
        assert!((x - y).abs() < 1e-9, "{t}: ours {x}, Python's {y}");
    }
}
