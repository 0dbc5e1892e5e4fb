//! The WCXB metric (Murrough Foley, WCXB: Web Content eXtraction Benchmark,
//! 2026, CC-BY-4.0), as the benchmark scores and `../shared/data/README.md`
//! states it, so that our figures compare with its published ones:
//!
//! - per page, the tokens are the `\w+` runs of the lower-cased text;
//! - precision = |multiset overlap| / output tokens, recall = overlap / gold
//!   tokens, F1 as usual; an empty gold with an empty output scores 1, an
//!   empty output (or an empty gold with some output) 0;
//! - P, R and F1 are each averaged over pages (macro), overall and per page
//!   type;
//! - snippet rates: the share of the page's `with` snippets found in the
//!   output, and of its `without` snippets (lower is better), as
//!   case-insensitive substring tests, averaged over the pages that have any.
//!
//! `scripts/wcxb_score.py` is the reference in Python; the two agree on
//! WCXB's development pages (a test compares them when Python is there).
//!
//! Choice where Python and Rust differ: Python's `\w` is a character for which
//! `str.isalnum()` holds, or `_`; here a word character is
//! `char::is_alphanumeric()` or `_`. They differ only on combining marks that
//! Unicode calls alphabetic (some vowel signs of Indic scripts), which Rust
//! counts as word characters and Python does not.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use crate::error::{Error, Result};

/// The `\w+` tokens of the lower-cased text.
pub fn tokens(text: &str) -> Vec<String> {
    let lower = text.to_lowercase();
    let mut out = Vec::new();
    let mut cur = String::new();
    for c in lower.chars() {
        if c.is_alphanumeric() || c == '_' {
            cur.push(c);
        } else if !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Precision, recall and F1 of one page's output tokens against its gold tokens.
pub fn prf(output: &[String], gold: &[String]) -> (f64, f64, f64) {
    if gold.is_empty() {
        let v = if output.is_empty() { 1.0 } else { 0.0 };
        return (v, v, v);
    }
    if output.is_empty() {
        return (0.0, 0.0, 0.0);
    }
    let mut counts: HashMap<&str, i64> = HashMap::new();
    for t in gold {
        *counts.entry(t).or_default() += 1;
    }
    let mut overlap = 0usize;
    for t in output {
        if let Some(c) = counts.get_mut(t.as_str())
            && *c > 0
        {
            *c -= 1;
            overlap += 1;
        }
    }
    let p = overlap as f64 / output.len() as f64;
    let r = overlap as f64 / gold.len() as f64;
    let f = if p + r > 0.0 {
        2.0 * p * r / (p + r)
    } else {
        0.0
    };
    (p, r, f)
}

/// One page of the benchmark: its id, type, gold text and snippets.
#[derive(Debug, Clone)]
pub struct Page {
    /// The file stem (`0001`).
    pub id: String,
    /// The page type (`article`, `forum`, …).
    pub page_type: String,
    /// The page's URL.
    pub url: String,
    /// The gold main text.
    pub text: String,
    /// Snippets a correct extraction contains.
    pub with: Vec<String>,
    /// Boilerplate snippets it must not contain.
    pub without: Vec<String>,
}

/// Reads the benchmark's ground-truth files (`NNNN.json`) of a folder, in name order.
pub fn load_ground_truth(dir: &Path) -> Result<Vec<Page>> {
    let io = |error: std::io::Error| Error::io(dir, error);
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .map_err(io)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    names.sort();
    if names.is_empty() {
        return Err(Error::Training(format!(
            "{}: no ground-truth .json files (WCXB's ground-truth folder)",
            dir.display()
        )));
    }
    names
        .iter()
        .map(|p| {
            let bytes = std::fs::read(p).map_err(|error| Error::io(p, error))?;
            let v: serde_json::Value = serde_json::from_slice(&bytes)
                .map_err(|e| Error::Training(format!("{}: {e}", p.display())))?;
            let gt = &v["ground_truth"];
            let strings = |x: &serde_json::Value| -> Vec<String> {
                x.as_array()
                    .map(|a| {
                        a.iter()
                            .filter_map(|s| s.as_str().map(String::from))
                            .collect()
                    })
                    .unwrap_or_default()
            };
            Ok(Page {
                id: p
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                page_type: v["_internal"]["page_type"]["primary"]
                    .as_str()
                    .unwrap_or("unknown")
                    .to_string(),
                url: v["url"].as_str().unwrap_or_default().to_string(),
                text: gt["main_content"].as_str().unwrap_or_default().to_string(),
                with: strings(&gt["with"]),
                without: strings(&gt["without"]),
            })
        })
        .collect()
}

/// One page's scores.
#[derive(Debug, Clone, serde::Serialize)]
pub struct PageScore {
    /// The page's id.
    pub id: String,
    /// Its type.
    pub page_type: String,
    /// Precision, recall, F1.
    pub p: f64,
    /// Recall.
    pub r: f64,
    /// F1.
    pub f1: f64,
    /// Output tokens.
    pub out_tokens: usize,
    /// `with` snippets found, of how many.
    pub with: (usize, usize),
    /// `without` snippets found, of how many.
    pub without: (usize, usize),
}

/// Scores one page's output.
pub fn score_page(page: &Page, output: &str) -> PageScore {
    let (o, g) = (tokens(output), tokens(&page.text));
    let (p, r, f1) = prf(&o, &g);
    let low = output.to_lowercase();
    let found = |s: &[String]| s.iter().filter(|x| low.contains(&x.to_lowercase())).count();
    PageScore {
        id: page.id.clone(),
        page_type: page.page_type.clone(),
        p,
        r,
        f1,
        out_tokens: o.len(),
        with: (found(&page.with), page.with.len()),
        without: (found(&page.without), page.without.len()),
    }
}

/// Macro averages over a set of pages.
#[derive(Debug, Clone, Copy, Default, serde::Serialize)]
pub struct Summary {
    /// Pages.
    pub pages: usize,
    /// Mean precision.
    pub p: f64,
    /// Mean recall.
    pub r: f64,
    /// Mean F1.
    pub f1: f64,
    /// Mean share of `with` snippets found (pages that have some).
    pub with_rate: f64,
    /// Mean share of `without` snippets found (pages that have some; lower is better).
    pub without_rate: f64,
    /// Pages with no output token.
    pub empty: usize,
}

/// The macro averages of page scores.
pub fn summarise<'a>(scores: impl IntoIterator<Item = &'a PageScore>) -> Summary {
    let mut s = Summary::default();
    let (mut wn, mut won) = (0usize, 0usize);
    for x in scores {
        s.pages += 1;
        s.p += x.p;
        s.r += x.r;
        s.f1 += x.f1;
        s.empty += usize::from(x.out_tokens == 0);
        if x.with.1 > 0 {
            wn += 1;
            s.with_rate += x.with.0 as f64 / x.with.1 as f64;
        }
        if x.without.1 > 0 {
            won += 1;
            s.without_rate += x.without.0 as f64 / x.without.1 as f64;
        }
    }
    let n = s.pages.max(1) as f64;
    s.p /= n;
    s.r /= n;
    s.f1 /= n;
    s.with_rate /= wn.max(1) as f64;
    s.without_rate /= won.max(1) as f64;
    s
}

/// The summary of all pages and of each page type (by name).
pub fn by_type(scores: &[PageScore]) -> (Summary, BTreeMap<String, Summary>) {
    let mut types: BTreeMap<String, Vec<&PageScore>> = BTreeMap::new();
    for s in scores {
        types.entry(s.page_type.clone()).or_default().push(s);
    }
    (
        summarise(scores),
        types.into_iter().map(|(k, v)| (k, summarise(v))).collect(),
    )
}

/// Scores the outputs `OUTDIR/NNNN.txt` of the pages (a missing file is an
/// empty output; bytes read as UTF-8, invalid ones replaced).
pub fn score_dir(pages: &[Page], outdir: &Path) -> Vec<PageScore> {
    pages
        .iter()
        .map(|p| {
            let out = std::fs::read(outdir.join(format!("{}.txt", p.id)))
                .map(|b| String::from_utf8_lossy(&b).into_owned())
                .unwrap_or_default();
            score_page(p, &out)
        })
        .collect()
}

/// The report `ncleaner eval --metric wcxb` prints: one line for all pages
/// and one per page type, each `NAME pages P R F1 with without empty`
/// (P, R, F1 and the snippet rates as fractions, three decimals).
pub fn report(scores: &[PageScore]) -> String {
    let (all, types) = by_type(scores);
    let line = |name: &str, s: &Summary| {
        format!(
            "{name} {} {:.3} {:.3} {:.3} {:.3} {:.3} {}\n",
            s.pages, s.p, s.r, s.f1, s.with_rate, s.without_rate, s.empty
        )
    };
    let mut out = String::from("# set pages P R F1 with without empty\n");
    out.push_str(&line("all", &all));
    for (t, s) in &types {
        out.push_str(&line(t, s));
    }
    out
}

/// Per-page scores as a tab-separated table with a header.
pub fn per_page_tsv(scores: &[PageScore]) -> String {
    let mut out = String::from(
        "page\ttype\tP\tR\tF1\tout_tokens\twith\twith_total\twithout\twithout_total\n",
    );
    for x in scores {
        out.push_str(&format!(
            "{}\t{}\t{:.4}\t{:.4}\t{:.4}\t{}\t{}\t{}\t{}\t{}\n",
            x.id,
            x.page_type,
            x.p,
            x.r,
            x.f1,
            x.out_tokens,
            x.with.0,
            x.with.1,
            x.without.0,
            x.without.1
        ));
    }
    out
}

/// The summaries and the per-page scores as JSON.
pub fn to_json(scores: &[PageScore]) -> serde_json::Value {
    let (all, types) = by_type(scores);
    serde_json::json!({ "all": all, "types": types, "pages": scores })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Vec<String> {
        tokens(s)
    }

    #[test]
    fn tokens_are_lower_cased_word_runs() {
        assert_eq!(
            t("Hello, World! foo_bar 42x"),
            ["hello", "world", "foo_bar", "42x"]
        );
        assert_eq!(t("Über-Größe café"), ["über", "größe", "café"]);
        assert!(t(" ,.;").is_empty());
    }

    #[test]
    fn multiset_overlap_and_empty_rules() {
        let (p, r, f) = prf(&t("a a b"), &t("a b b c"));
        // overlap: a once, b once = 2
        assert!((p - 2.0 / 3.0).abs() < 1e-12 && (r - 0.5).abs() < 1e-12);
        assert!((f - 2.0 * p * r / (p + r)).abs() < 1e-12);
        assert_eq!(prf(&[], &[]), (1.0, 1.0, 1.0));
        assert_eq!(prf(&t("x"), &[]), (0.0, 0.0, 0.0));
        assert_eq!(prf(&[], &t("x")), (0.0, 0.0, 0.0));
    }

    #[test]
    fn snippets_and_summaries() {
        let page = Page {
            id: "1".into(),
            page_type: "article".into(),
            url: String::new(),
            text: "The cat sat on the mat.".into(),
            with: vec!["Cat sat".into(), "the dog".into()],
            without: vec!["Subscribe now".into()],
        };
        let s = score_page(&page, "the CAT sat on the mat. subscribe NOW");
        assert_eq!(s.with, (1, 2));
        assert_eq!(s.without, (1, 1));
        let empty = score_page(&page, "");
        let (all, types) = by_type(&[s.clone(), empty]);
        assert_eq!(all.pages, 2);
        assert_eq!(all.empty, 1);
        assert!((all.with_rate - 0.25).abs() < 1e-12);
        assert_eq!(types["article"].pages, 2);
        assert!((all.r - 0.5).abs() < 1e-12);
    }
}
