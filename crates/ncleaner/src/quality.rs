//! Predicted page quality: an estimate of the word-level precision and
//! recall of a page's own cleaning, from what is known at cleaning time.
//!
//! The StupidOS paper (§4.4) predicts each page's cleaning precision with a
//! linear model and keeps only pages predicted at 86% or more. We do the
//! same with features that the cleaner has anyway:
//!
//! - the classifier's *expected* precision and recall of the page, Σ p·w over
//!   the kept segments divided by their words, and by the page's Σ p·w
//!   (p: a segment's probability of being clean, w: its words + 1, as the
//!   classifier is trained). With calibrated probabilities these are already
//!   estimates; the regression corrects what calibration per segment misses
//!   (segments are not independent within a page);
//! - the share of the page's words removed, the number of segments and the
//!   mean length of the kept ones, the share of kept words with uncertain
//!   probabilities (0.2 – 0.8), the share of link text, whether nothing was
//!   kept, the kept words' count, and whether the page had encoding trouble.
//!
//! Two ridge regressions (least squares with a small L2 penalty on the
//! standardised features), one for precision and one for recall, are fitted
//! by [`crate::train::Trainer`] on the *out-of-fold* cleaned outputs of the
//! training pages (an inner cross-validation: a model that saw a page would
//! clean it too well), against the paper's word-level scoring of each page.
//! Predictions are clamped to [0, 1]. Pages with no output have no precision
//! and pages with an empty gold file no recall; they are left out of the
//! respective fit.
//!
//! The prediction belongs to the operating point it was trained at (the
//! model's default threshold); at other thresholds the expected-precision
//! features move with the decisions, but the correction was not fitted there.

use serde::{Deserialize, Serialize};

use crate::pipeline::Cleaned;

/// Names of the page features, in order (index 0 is the intercept).
pub const NAMES: &[&str] = &[
    "bias",
    "expected_precision",
    "expected_recall",
    "removed_share",
    "log_segments",
    "kept_mean_log_words",
    "uncertain_share",
    "link_share",
    "nothing_kept",
    "log_words_out",
    "decode_errors",
];

/// Number of page features.
pub const COUNT: usize = NAMES.len();

/// A page's predicted cleaning quality.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PageQuality {
    /// Predicted word-level precision of the page's cleaned text, 0 – 1.
    pub precision: f64,
    /// Predicted word-level recall, 0 – 1.
    pub recall: f64,
}

/// The features of one cleaned page ([`NAMES`]).
///
/// A segment without a classifier probability (the paper's models, or one
/// a heuristic decided) counts with 2^s / (1 + 2^s) of its n-gram score s,
/// or with 0 / 1 by its decision when it has no score.
pub fn features(c: &Cleaned) -> [f64; COUNT] {
    let (mut kept_w, mut kept_pw, mut all_pw, mut all_w) = (0.0, 0.0, 0.0, 0.0);
    let (mut uncertain, mut links, mut chars) = (0.0, 0.0, 0.0);
    let (mut kept_segs, mut kept_logw, mut words_out) = (0usize, 0.0, 0usize);
    for s in &c.segments {
        let (words, n_chars) = words_and_chars(s.text());
        let w = (words + 1) as f64;
        let p = s
            .probability
            .or_else(|| {
                s.score
                    .map(|x| 1.0 / (1.0 + (-x * std::f64::consts::LN_2).exp()))
            })
            .unwrap_or(if s.keep() { 1.0 } else { 0.0 });
        all_w += w;
        all_pw += p * w;
        links += s.segment.link_chars as f64;
        chars += n_chars as f64;
        if s.keep() {
            words_out += words;
            kept_w += w;
            kept_pw += p * w;
            kept_segs += 1;
            kept_logw += w.ln();
            if (0.2..=0.8).contains(&p) {
                uncertain += w;
            }
        }
    }
    let words_out = words_out as f64;
    [
        1.0,
        if kept_w > 0.0 { kept_pw / kept_w } else { 0.0 },
        if all_pw > 0.0 { kept_pw / all_pw } else { 0.0 },
        if all_w > 0.0 {
            1.0 - kept_w / all_w
        } else {
            1.0
        },
        (1.0 + c.segments.len() as f64).ln(),
        if kept_segs > 0 {
            kept_logw / kept_segs as f64
        } else {
            0.0
        },
        if kept_w > 0.0 {
            uncertain / kept_w
        } else {
            0.0
        },
        if chars > 0.0 { links / chars } else { 0.0 },
        f64::from(u8::from(kept_segs == 0)),
        (1.0 + words_out).ln(),
        f64::from(u8::from(c.had_decode_errors)),
    ]
}

/// Words (as [`crate::segment::count_words`] counts them) and characters of
/// a text, in one pass over its bytes: the features run on every page.
fn words_and_chars(text: &str) -> (usize, usize) {
    let (mut words, mut chars, mut after_space) = (0, 0, true);
    for &b in text.as_bytes() {
        let space = matches!(b, b' ' | b'\t' | b'\n' | b'\x0c' | b'\r');
        words += usize::from(after_space & !space);
        after_space = space;
        chars += usize::from(b & 0xc0 != 0x80);
    }
    (words, chars)
}

/// One training row: a page's features and its true quality (`None` where
/// undefined: no output for precision, an empty gold for recall).
#[derive(Debug, Clone, Copy)]
pub struct Row {
    /// [`features`] of the cleaned page.
    pub x: [f64; COUNT],
    /// Its word-level precision under the paper's scoring.
    pub precision: Option<f64>,
    /// Its word-level recall.
    pub recall: Option<f64>,
}

impl Row {
    /// The row of a cleaned page scored against its gold text (CleanEval
    /// format) by the paper's word-level scoring.
    pub fn scored(c: &Cleaned, gold: &str) -> Row {
        Row::scored_with_counts(c, gold).0
    }

    /// [`Row::scored`], with the word counts the scoring found.
    pub fn scored_with_counts(c: &Cleaned, gold: &str) -> (Row, crate::eval::Counts) {
        let out = crate::format::cleaneval_string(c);
        let counts = crate::eval::score_pair(&out, gold, &Default::default()).words;
        let prf = counts.prf();
        let row = Row {
            x: features(c),
            precision: (counts.tp + counts.fp > 0).then_some(prf.precision),
            recall: (counts.tp + counts.fn_ > 0).then_some(prf.recall),
        };
        (row, counts)
    }
}

/// A linear model of one quantity over standardised features.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Linear {
    /// Feature means (index 0 unused).
    pub mean: Vec<f64>,
    /// Feature standard deviations (1 where a feature is constant).
    pub sd: Vec<f64>,
    /// Weights of the standardised features; index 0 the intercept.
    pub w: Vec<f64>,
}

impl Linear {
    /// Ridge regression of `y` on `x` (penalty `l2` on every weight but the
    /// intercept), features standardised first. `None` with fewer than two rows.
    pub fn fit(x: &[[f64; COUNT]], y: &[f64], l2: f64) -> Option<Linear> {
        let n = x.len();
        if n < 2 {
            return None;
        }
        let mut mean = vec![0.0; COUNT];
        let mut sd = vec![1.0; COUNT];
        for j in 1..COUNT {
            mean[j] = x.iter().map(|r| r[j]).sum::<f64>() / n as f64;
            let v = x.iter().map(|r| (r[j] - mean[j]).powi(2)).sum::<f64>() / n as f64;
            sd[j] = if v > 1e-12 { v.sqrt() } else { 1.0 };
        }
        let z = |r: &[f64; COUNT]| -> [f64; COUNT] {
            let mut o = [1.0; COUNT];
            for j in 1..COUNT {
                o[j] = (r[j] - mean[j]) / sd[j];
            }
            o
        };
        let mut a = vec![0.0; COUNT * COUNT];
        let mut b = vec![0.0; COUNT];
        for (r, &t) in x.iter().zip(y) {
            let zr = z(r);
            for i in 0..COUNT {
                b[i] += zr[i] * t;
                for j in 0..COUNT {
                    a[i * COUNT + j] += zr[i] * zr[j];
                }
            }
        }
        for i in 1..COUNT {
            a[i * COUNT + i] += l2 * n as f64;
        }
        // The intercept gets a tiny ridge too, so that A stays positive definite.
        a[0] += 1e-9;
        let w = crate::classify::logistic::cholesky_solve(&a, &b, COUNT)?;
        Some(Linear { mean, sd, w })
    }

    /// The prediction for one feature row, clamped to [0, 1].
    pub fn predict(&self, x: &[f64; COUNT]) -> f64 {
        let s: f64 = self.w[0]
            + (1..COUNT.min(self.w.len()))
                .map(|j| self.w[j] * (x[j] - self.mean[j]) / self.sd[j])
                .sum::<f64>();
        s.clamp(0.0, 1.0)
    }
}

/// The page-quality model of one input kind: precision and recall.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QualityModel {
    /// Predicts the page's precision.
    pub precision: Linear,
    /// Predicts the page's recall.
    pub recall: Linear,
}

/// The ridge penalty per row of the quality regressions: light, the
/// features are few and the rows hundreds.
pub const L2: f64 = 1e-3;

impl QualityModel {
    /// Fits both regressions on scored rows; `None` when either has fewer
    /// than two rows.
    pub fn fit(rows: &[Row]) -> Option<QualityModel> {
        let pick = |f: fn(&Row) -> Option<f64>| -> (Vec<[f64; COUNT]>, Vec<f64>) {
            rows.iter().filter_map(|r| f(r).map(|y| (r.x, y))).unzip()
        };
        let (xp, yp) = pick(|r| r.precision);
        let (xr, yr) = pick(|r| r.recall);
        Some(QualityModel {
            precision: Linear::fit(&xp, &yp, L2)?,
            recall: Linear::fit(&xr, &yr, L2)?,
        })
    }

    /// The predicted quality of a cleaned page.
    pub fn predict(&self, c: &Cleaned) -> PageQuality {
        self.predict_features(&features(c))
    }

    /// The predicted quality of a page with these features.
    pub fn predict_features(&self, x: &[f64; COUNT]) -> PageQuality {
        PageQuality {
            precision: self.precision.predict(x),
            recall: self.recall.predict(x),
        }
    }
}

/// Pearson's correlation coefficient (0 when either side is constant).
pub fn pearson(a: &[f64], b: &[f64]) -> f64 {
    let n = a.len().min(b.len()) as f64;
    if n < 2.0 {
        return 0.0;
    }
    let (ma, mb) = (a.iter().sum::<f64>() / n, b.iter().sum::<f64>() / n);
    let (mut sab, mut saa, mut sbb) = (0.0, 0.0, 0.0);
    for (x, y) in a.iter().zip(b) {
        sab += (x - ma) * (y - mb);
        saa += (x - ma).powi(2);
        sbb += (y - mb).powi(2);
    }
    if saa <= 0.0 || sbb <= 0.0 {
        0.0
    } else {
        sab / (saa * sbb).sqrt()
    }
}

/// Spearman's rank correlation (Pearson's of the ranks, ties averaged).
pub fn spearman(a: &[f64], b: &[f64]) -> f64 {
    pearson(&ranks(a), &ranks(b))
}

fn ranks(v: &[f64]) -> Vec<f64> {
    let mut idx: Vec<usize> = (0..v.len()).collect();
    idx.sort_by(|&i, &j| v[i].total_cmp(&v[j]));
    let mut r = vec![0.0; v.len()];
    let mut i = 0;
    while i < idx.len() {
        let mut j = i;
        while j + 1 < idx.len() && v[idx[j + 1]] == v[idx[i]] {
            j += 1;
        }
        let avg = (i + j) as f64 / 2.0 + 1.0;
        for &k in &idx[i..=j] {
            r[k] = avg;
        }
        i = j + 1;
    }
    r
}

/// One page of the cross-validated measurement: what was predicted for its
/// cleaning and what the scoring found.
#[derive(Debug, Clone, Copy)]
pub struct Measured {
    /// The prediction of a model that never saw the page.
    pub predicted: PageQuality,
    /// The unfitted estimate: the classifier's expected precision of the
    /// page ([`features`] index 1), for comparison.
    pub expected_precision: f64,
    /// True precision and recall (`None` where undefined).
    pub truth: Row,
    /// Output words matched (true positives) and output words in all.
    pub tp: usize,
    /// Output words in all (TP + FP).
    pub out: usize,
}

/// Nested cross-validation of the page-quality model: for each of the `k`
/// folds of `fold`, a model with a page-quality model (fitted on its own
/// training pages' out-of-fold cleaning, `inner` folds) is trained on the
/// other folds and cleans the held-out pages, whose predicted quality is
/// then compared with their scoring. HTML input; results in pool order.
pub fn cross_validate(
    trainer: &crate::train::Trainer,
    fold: &[usize],
    k: usize,
    cfg: &crate::train::TrainConfig,
    inner: usize,
) -> crate::error::Result<Vec<Measured>> {
    use rayon::prelude::*;
    let mut cfg = cfg.clone();
    if let Some(c) = cfg.classifier.as_mut() {
        c.page_quality = Some(inner);
    }
    let pages = trainer.pages();
    let per_fold: Vec<crate::error::Result<Vec<(usize, Measured)>>> = (0..k)
        .into_par_iter()
        .map(|f| {
            let train: Vec<usize> = (0..pages.len()).filter(|&i| fold[i] != f).collect();
            let cleaner = crate::pipeline::Cleaner::new(trainer.fit(&train, &cfg)?);
            Ok((0..pages.len())
                .filter(|&i| fold[i] == f)
                .map(|i| {
                    let c = crate::crossval::clean_segments(
                        &cleaner,
                        &pages[i],
                        crate::pipeline::InputKind::Html,
                    );
                    let (truth, counts) = Row::scored_with_counts(&c, &pages[i].gold);
                    let predicted = c.quality.unwrap_or(PageQuality {
                        precision: 0.0,
                        recall: 0.0,
                    });
                    (
                        i,
                        Measured {
                            predicted,
                            expected_precision: truth.x[1],
                            truth,
                            tp: counts.tp,
                            out: counts.tp + counts.fp,
                        },
                    )
                })
                .collect())
        })
        .collect();
    let mut out: Vec<Option<Measured>> = vec![None; pages.len()];
    for r in per_fold {
        for (i, m) in r? {
            out[i] = Some(m);
        }
    }
    Ok(out
        .into_iter()
        .map(|m| m.expect("every page is in a fold"))
        .collect())
}

/// One point of the precision/yield curve: the pages predicted at least
/// `min` precise.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct YieldPoint {
    /// The least predicted precision of a kept page.
    pub min: f64,
    /// Pages kept (of those with output).
    pub pages: usize,
    /// Share of all output words that the kept pages hold.
    pub yield_words: f64,
    /// Mean per-page precision of the kept pages (the StupidOS paper's figure).
    pub mean_precision: f64,
    /// Word-level (micro) precision of the kept pages.
    pub micro_precision: f64,
}

/// The precision/yield curve over these least predicted precisions
/// (pages with no output are left out: they have no precision to keep).
pub fn yield_curve(m: &[Measured], mins: &[f64]) -> Vec<YieldPoint> {
    let with_output: Vec<&Measured> = m.iter().filter(|x| x.truth.precision.is_some()).collect();
    let all_words: usize = with_output.iter().map(|x| x.out).sum();
    mins.iter()
        .map(|&min| {
            let kept: Vec<&&Measured> = with_output
                .iter()
                .filter(|x| x.predicted.precision >= min)
                .collect();
            let out: usize = kept.iter().map(|x| x.out).sum();
            let tp: usize = kept.iter().map(|x| x.tp).sum();
            YieldPoint {
                min,
                pages: kept.len(),
                yield_words: out as f64 / all_words.max(1) as f64,
                mean_precision: if kept.is_empty() {
                    0.0
                } else {
                    kept.iter().filter_map(|x| x.truth.precision).sum::<f64>() / kept.len() as f64
                },
                micro_precision: tp as f64 / out.max(1) as f64,
            }
        })
        .collect()
}

/// The Markdown report of a cross-validated measurement: correlations of
/// predicted with true per-page precision and recall, and the precision/yield
/// curve.
pub fn markdown(m: &[Measured], pages: usize, k: usize, inner: usize) -> String {
    let pr: Vec<&Measured> = m.iter().filter(|x| x.truth.precision.is_some()).collect();
    let rc: Vec<&Measured> = m.iter().filter(|x| x.truth.recall.is_some()).collect();
    let col =
        |v: &[&Measured], f: fn(&Measured) -> f64| -> Vec<f64> { v.iter().map(|x| f(x)).collect() };
    let tp = col(&pr, |x| x.truth.precision.unwrap_or(0.0));
    let pp = col(&pr, |x| x.predicted.precision);
    let ep = col(&pr, |x| x.expected_precision);
    let tr = col(&rc, |x| x.truth.recall.unwrap_or(0.0));
    let prr = col(&rc, |x| x.predicted.recall);
    let mae = |a: &[f64], b: &[f64]| {
        a.iter().zip(b).map(|(x, y)| (x - y).abs()).sum::<f64>() / a.len().max(1) as f64
    };
    let rmse = |a: &[f64], b: &[f64]| {
        (a.iter().zip(b).map(|(x, y)| (x - y).powi(2)).sum::<f64>() / a.len().max(1) as f64).sqrt()
    };
    let mut s = format!(
        "## Page quality: {pages} pages, {k}-fold cross-validation (page-quality model fitted on each training part's {inner}-fold out-of-fold cleaning), HTML input, paper's word scoring

"
    );
    s.push_str("| predicted → true, per page | pages | Pearson r | Spearman ρ | mean abs. error | RMS error |
| --- | ---: | ---: | ---: | ---: | ---: |
");
    s.push_str(&format!(
        "| precision (page-quality model) | {} | {:.3} | {:.3} | {:.3} | {:.3} |
",
        pr.len(),
        pearson(&pp, &tp),
        spearman(&pp, &tp),
        mae(&pp, &tp),
        rmse(&pp, &tp)
    ));
    s.push_str(&format!(
        "| precision (classifier's expected precision, unfitted) | {} | {:.3} | {:.3} | {:.3} | {:.3} |
",
        pr.len(),
        pearson(&ep, &tp),
        spearman(&ep, &tp),
        mae(&ep, &tp),
        rmse(&ep, &tp)
    ));
    s.push_str(&format!(
        "| recall (page-quality model) | {} | {:.3} | {:.3} | {:.3} | {:.3} |

",
        rc.len(),
        pearson(&prr, &tr),
        spearman(&prr, &tr),
        mae(&prr, &tr),
        rmse(&prr, &tr)
    ));
    let mins = [0.0, 0.5, 0.6, 0.7, 0.8, 0.85, 0.86, 0.9, 0.92, 0.94, 0.96];
    s.push_str("Precision/yield: pages whose predicted precision is at least P kept, the others dropped (`clean --min-page-quality P`).

| P | pages kept | words kept (yield) | mean page precision | word precision |
| ---: | ---: | ---: | ---: | ---: |
");
    for y in yield_curve(m, &mins) {
        s.push_str(&format!(
            "| {:.2} | {} | {:.1}% | {:.2}% | {:.2}% |
",
            y.min,
            y.pages,
            100.0 * y.yield_words,
            100.0 * y.mean_precision,
            100.0 * y.micro_precision
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ridge_recovers_a_linear_relation() {
        // y = 0.2 + 0.5 * expected_precision − 0.1 * removed_share.
        let mut x = Vec::new();
        let mut y = Vec::new();
        for i in 0..200 {
            let mut r = [0.0; COUNT];
            r[0] = 1.0;
            r[1] = (i % 17) as f64 / 17.0;
            r[3] = (i % 7) as f64 / 7.0;
            r[4] = ((i * 13) % 11) as f64;
            x.push(r);
            y.push(0.2 + 0.5 * r[1] - 0.1 * r[3]);
        }
        let m = Linear::fit(&x, &y, 1e-9).unwrap();
        for (r, t) in x.iter().zip(&y) {
            assert!((m.predict(r) - t).abs() < 1e-4, "{} vs {t}", m.predict(r));
        }
    }

    #[test]
    fn predictions_are_clamped() {
        let m = Linear {
            mean: vec![0.0; COUNT],
            sd: vec![1.0; COUNT],
            w: {
                let mut w = vec![0.0; COUNT];
                w[1] = 10.0;
                w
            },
        };
        let mut x = [0.0; COUNT];
        x[1] = 5.0;
        assert_eq!(m.predict(&x), 1.0);
        x[1] = -5.0;
        assert_eq!(m.predict(&x), 0.0);
    }

    #[test]
    fn yield_curve_keeps_the_pages_predicted_precise() {
        let m = |pred: f64, prec: Option<f64>, tp: usize, out: usize| Measured {
            predicted: PageQuality {
                precision: pred,
                recall: 0.5,
            },
            expected_precision: pred,
            truth: Row {
                x: [0.0; COUNT],
                precision: prec,
                recall: Some(0.5),
            },
            tp,
            out,
        };
        let ms = [
            m(0.95, Some(1.0), 100, 100),
            m(0.5, Some(0.5), 50, 100),
            m(0.9, None, 0, 0),
        ];
        let c = yield_curve(&ms, &[0.0, 0.9]);
        assert_eq!(c[0].pages, 2);
        assert!((c[0].mean_precision - 0.75).abs() < 1e-12);
        assert!((c[0].micro_precision - 0.75).abs() < 1e-12);
        assert_eq!(c[1].pages, 1);
        assert!((c[1].yield_words - 0.5).abs() < 1e-12);
        assert!((c[1].mean_precision - 1.0).abs() < 1e-12);
    }

    #[test]
    fn words_and_chars_agree_with_the_segment_counts() {
        for t in ["", "one", " two  words ", "Ünïcödé text\twith tabs"] {
            assert_eq!(
                words_and_chars(t),
                (crate::segment::count_words(t), t.chars().count())
            );
        }
    }

    #[test]
    fn correlations() {
        let a = [1.0, 2.0, 3.0, 4.0];
        assert!((pearson(&a, &[2.0, 4.0, 6.0, 8.0]) - 1.0).abs() < 1e-12);
        assert!((pearson(&a, &[4.0, 3.0, 2.0, 1.0]) + 1.0).abs() < 1e-12);
        assert_eq!(pearson(&a, &[1.0, 1.0, 1.0, 1.0]), 0.0);
        assert!((spearman(&a, &[1.0, 10.0, 100.0, 1000.0]) - 1.0).abs() < 1e-12);
        assert_eq!(ranks(&[3.0, 1.0, 3.0]), vec![2.5, 1.0, 2.5]);
    }

    #[test]
    fn features_of_a_page() {
        use crate::classify::{Decision, Reason};
        use crate::pipeline::{InputKind, ScoredSegment};
        use crate::segment::{Kind, Segment};
        let seg = |t: &str, p: f64, keep: bool| ScoredSegment {
            segment: Segment::plain(Kind::P, t.to_string()),
            score: Some(0.0),
            probability: Some(p),
            decision: Decision {
                keep,
                reason: Reason::Score,
            },
            sentences: None,
            output: None,
        };
        let c = Cleaned {
            url: None,
            input: InputKind::Html,
            encoding: "UTF-8",
            had_decode_errors: false,
            segments: vec![
                seg("one two three", 0.9, true),
                seg("four five six", 0.5, true),
                seg("menu", 0.1, false),
            ],
            language: None,
            model: None,
            quality: None,
        };
        let f = features(&c);
        // Kept: words+1 = 4 and 4, probabilities 0.9 and 0.5.
        assert!((f[1] - 0.7).abs() < 1e-12);
        assert!((f[2] - 5.6 / 5.8).abs() < 1e-12);
        assert!((f[3] - 2.0 / 10.0).abs() < 1e-12);
        assert!((f[6] - 0.5).abs() < 1e-12);
        assert_eq!(f[8], 0.0);
    }
}
