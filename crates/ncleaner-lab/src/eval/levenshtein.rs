//! CleanEval's text-only similarity: a Levenshtein edit distance over word
//! tokens, as a percentage (the figure that the PyPlexity paper's Table 7
//! reports: PyPlexity 79.76 / 79.80, jusText 76.20).
//!
//! The official program (`cleaneval.prl`, Francis Chantree, 2007) is not
//! available to us; the CleanEval pages describe it as scoring "the edit
//! distance between the two … based on alignment of text alone, ignoring the
//! contestant-inserted markup tags", and the PyPlexity paper as "the
//! percentage of misalignment between files (considering only text; HTML
//! labels are skipped)". Our definition, which follows that description:
//!
//! - tokens: the words of the reference scorer's tokenisation
//!   ([`super::tokens::tokens`]: `URL` lines dropped, whitespace-separated),
//!   without the markers `<p>`, `<h>`, `<l>` and without empty tokens;
//! - `d`: the Levenshtein distance between the output's and the gold's token
//!   sequences (insertions, deletions and substitutions of one token, each
//!   costing 1);
//! - the page's score: `100 · (1 − d / max(|output|, |gold|))`, 100 when both
//!   are empty; so an empty output scores 0 and a perfect one 100;
//! - a set's score: the mean of its pages' scores (CleanEval averaged per
//!   file).
//!
//! Figures are therefore comparable in kind, not to the decimal, with
//! CleanEval's 2007 "Text Only" scores and the PyPlexity paper's Table 7.

use std::collections::HashMap;
use std::path::Path;

use super::tokens;
use crate::error::Result;

/// The words of a CleanEval-format text that the similarity compares.
pub fn words(text: &str) -> Vec<String> {
    tokens::tokens(text, false, false)
        .into_iter()
        .filter(|t| !t.is_empty() && !tokens::is_marker(t))
        .collect()
}

/// The Levenshtein distance between two sequences (unit costs).
///
/// The common prefix and suffix are skipped first (cleaned pages share long
/// stretches with their gold text), then two rows of the dynamic programme
/// over the rest: time O(n·m), memory O(min(n, m)).
pub fn distance<T: Eq>(a: &[T], b: &[T]) -> usize {
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let (a, b) = (&a[prefix..], &b[prefix..]);
    let suffix = a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (a, b) = (&a[..a.len() - suffix], &b[..b.len() - suffix]);
    let (long, short) = if a.len() >= b.len() { (a, b) } else { (b, a) };
    if short.is_empty() {
        return long.len();
    }
    let mut prev: Vec<usize> = (0..=short.len()).collect();
    let mut cur = vec![0usize; short.len() + 1];
    for (i, x) in long.iter().enumerate() {
        cur[0] = i + 1;
        for (j, y) in short.iter().enumerate() {
            let substitute = prev[j] + usize::from(x != y);
            cur[j + 1] = substitute.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[short.len()]
}

/// The similarity of one page's output to its gold text.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Similarity {
    /// `100 · (1 − distance / max(output_words, gold_words))`.
    pub score: f64,
    /// The token edit distance.
    pub distance: usize,
    /// Words of the output.
    pub output_words: usize,
    /// Words of the gold text.
    pub gold_words: usize,
}

/// The similarity of an output to its gold text (module documentation).
pub fn similarity(output: &str, gold: &str) -> Similarity {
    let (o, g) = (words(output), words(gold));
    // Compared as interned ids: one integer comparison per cell.
    let mut ids: HashMap<&str, u32> = HashMap::new();
    let mut oi = Vec::with_capacity(o.len());
    for w in &o {
        let n = ids.len() as u32;
        oi.push(*ids.entry(w.as_str()).or_insert(n));
    }
    let mut gi = Vec::with_capacity(g.len());
    for w in &g {
        let n = ids.len() as u32;
        gi.push(*ids.entry(w.as_str()).or_insert(n));
    }
    let d = distance(&oi, &gi);
    let longest = o.len().max(g.len());
    Similarity {
        score: if longest == 0 {
            100.0
        } else {
            100.0 * (1.0 - d as f64 / longest as f64)
        },
        distance: d,
        output_words: o.len(),
        gold_words: g.len(),
    }
}

/// Every gold file's similarity with its output (`outdir/REL/NAME.txt`;
/// a missing output is empty), sorted by name, as [`super::score_dirs`]
/// pairs them.
pub fn similarity_dirs(outdir: &Path, golddir: &Path) -> Result<Vec<(String, Similarity)>> {
    super::map_dirs(outdir, golddir, similarity)
}

/// The mean score of a set of pages (0 pages: 0).
pub fn mean(files: &[(String, Similarity)]) -> f64 {
    if files.is_empty() {
        return 0.0;
    }
    files.iter().map(|(_, s)| s.score).sum::<f64>() / files.len() as f64
}

/// The per-file table of `eval --metric levenshtein --per-file`: a header
/// line, then name, score (4 decimals), distance, output and gold word
/// counts, tab-separated.
pub fn per_file_tsv(files: &[(String, Similarity)]) -> String {
    let mut tsv = String::from("file\tscore\tdistance\toutput_words\tgold_words\n");
    for (name, s) in files {
        tsv.push_str(&format!(
            "{name}\t{:.4}\t{}\t{}\t{}\n",
            s.score, s.distance, s.output_words, s.gold_words
        ));
    }
    tsv
}

/// The JSON report of `eval --metric levenshtein --json`: the metric, the
/// number of files, the [`mean`] and each file's [`Similarity`] with its name.
pub fn to_json(files: &[(String, Similarity)]) -> serde_json::Value {
    let per_file: Vec<serde_json::Value> = files
        .iter()
        .map(|(name, s)| {
            let mut v = serde_json::to_value(s).expect("serialisable");
            v["name"] = name.clone().into();
            v
        })
        .collect();
    serde_json::json!({
        "metric": "levenshtein",
        "files": files.len(),
        "mean": mean(files),
        "per_file": per_file,
    })
}

#[cfg(test)]
mod tests {

    #[test]
    fn per_file_table_and_json() {
        let files = vec![("a".to_string(), similarity("x y", "x z"))];
        let tsv = per_file_tsv(&files);
        assert_eq!(
            tsv,
            "file\tscore\tdistance\toutput_words\tgold_words\na\t50.0000\t1\t2\t2\n"
        );
        let j = to_json(&files);
        assert_eq!(j["files"], 1);
        assert_eq!(j["per_file"][0]["name"], "a");
        assert_eq!(j["mean"], 50.0);
    }

    use super::*;
    use proptest::prelude::*;

    fn naive(a: &[u8], b: &[u8]) -> usize {
        let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
        for (i, row) in d.iter_mut().enumerate() {
            row[0] = i;
        }
        for (j, cell) in d[0].iter_mut().enumerate() {
            *cell = j;
        }
        for i in 1..=a.len() {
            for j in 1..=b.len() {
                d[i][j] = (d[i - 1][j - 1] + usize::from(a[i - 1] != b[j - 1]))
                    .min(d[i - 1][j] + 1)
                    .min(d[i][j - 1] + 1);
            }
        }
        d[a.len()][b.len()]
    }

    #[test]
    fn known_distances() {
        assert_eq!(distance(b"kitten", b"sitting"), 3);
        assert_eq!(distance(b"", b"abc"), 3);
        assert_eq!(distance(b"abc", b""), 3);
        assert_eq!(distance(b"abc", b"abc"), 0);
        assert_eq!(distance(b"flaw", b"lawn"), 2);
    }

    #[test]
    fn similarity_of_pages() {
        let gold = "URL: http://x/\n<p> The cat sat on the mat.\n<h> A title";
        assert_eq!(similarity(gold, gold).score, 100.0);
        // Markers and URL lines do not count: text only.
        assert_eq!(
            similarity("<l> The cat sat on the mat. <p> A title", gold).score,
            100.0
        );
        let empty = similarity("", gold);
        assert_eq!((empty.score, empty.distance, empty.gold_words), (0.0, 8, 8));
        assert_eq!(similarity("", "").score, 100.0);
        // One of eight words replaced, one added: d = 2 over max(9, 8).
        let s = similarity("The dog sat on the mat. A title Menu", gold);
        assert_eq!(s.distance, 2);
        assert!((s.score - 100.0 * (1.0 - 2.0 / 9.0)).abs() < 1e-12);
    }

    proptest! {
        #[test]
        fn equals_the_naive_programme(a in prop::collection::vec(0u8..4, 0..30), b in prop::collection::vec(0u8..4, 0..30)) {
            prop_assert_eq!(distance(&a, &b), naive(&a, &b));
            prop_assert_eq!(distance(&a, &b), distance(&b, &a));
        }

        #[test]
        fn scores_stay_in_range(a in "[a-c <p>\n]{0,60}", b in "[a-c <h>\n]{0,60}") {
            let s = similarity(&a, &b);
            prop_assert!((0.0..=100.0).contains(&s.score));
        }
    }
}
