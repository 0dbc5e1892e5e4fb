//! Fitting and measuring the predicted page quality (the product's
//! `ncleaner::quality` predicts it): training rows of out-of-fold cleaned
//! pages scored against their gold text, the ridge regressions of per-page
//! precision and recall, their nested cross-validation, correlations and the
//! precision/yield curve.

use ncleaner::cleaned::Cleaned;
pub use ncleaner::quality::*;

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
        let out = ncleaner::format::cleaneval_string(c);
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

/// The ridge penalty per row of the quality regressions: light, the
/// features are few and the rows hundreds.
pub const L2: f64 = 1e-3;

/// Ridge regression of `y` on `x` (penalty `l2` on every weight but the
/// intercept), features standardised first. `None` with fewer than two rows.
pub fn fit_linear(x: &[[f64; COUNT]], y: &[f64], l2: f64) -> Option<Linear> {
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
    let w = ncleaner::classify::logistic::cholesky_solve(&a, &b, COUNT)?;
    Some(Linear { mean, sd, w })
}

/// Fits both regressions on scored rows; `None` when either has fewer
/// than two rows.
pub fn fit(rows: &[Row]) -> Option<QualityModel> {
    let pick = |f: fn(&Row) -> Option<f64>| -> (Vec<[f64; COUNT]>, Vec<f64>) {
        rows.iter().filter_map(|r| f(r).map(|y| (r.x, y))).unzip()
    };
    let (xp, yp) = pick(|r| r.precision);
    let (xr, yr) = pick(|r| r.recall);
    Some(QualityModel {
        precision: fit_linear(&xp, &yp, L2)?,
        recall: fit_linear(&xr, &yr, L2)?,
    })
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
) -> ncleaner::error::Result<Vec<Measured>> {
    use rayon::prelude::*;
    let mut cfg = cfg.clone();
    if let Some(c) = cfg.classifier.as_mut() {
        c.page_quality = Some(inner);
    }
    let pages = trainer.pages();
    let per_fold: Vec<ncleaner::error::Result<Vec<(usize, Measured)>>> = (0..k)
        .into_par_iter()
        .map(|f| {
            let train: Vec<usize> = (0..pages.len()).filter(|&i| fold[i] != f).collect();
            let cleaner = ncleaner::pipeline::Cleaner::new(trainer.fit(&train, &cfg)?);
            Ok((0..pages.len())
                .filter(|&i| fold[i] == f)
                .map(|i| {
                    let c = crate::crossval::clean_segments(
                        &cleaner,
                        &pages[i],
                        ncleaner::pipeline::InputKind::Html,
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
        let m = fit_linear(&x, &y, 1e-9).unwrap();
        for (r, t) in x.iter().zip(&y) {
            assert!((m.predict(r) - t).abs() < 1e-4, "{} vs {t}", m.predict(r));
        }
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
    fn correlations() {
        let a = [1.0, 2.0, 3.0, 4.0];
        assert!((pearson(&a, &[2.0, 4.0, 6.0, 8.0]) - 1.0).abs() < 1e-12);
        assert!((pearson(&a, &[4.0, 3.0, 2.0, 1.0]) + 1.0).abs() < 1e-12);
        assert_eq!(pearson(&a, &[1.0, 1.0, 1.0, 1.0]), 0.0);
        assert!((spearman(&a, &[1.0, 10.0, 100.0, 1000.0]) - 1.0).abs() < 1e-12);
        assert_eq!(ranks(&[3.0, 1.0, 3.0]), vec![2.5, 1.0, 2.5]);
    }
}
