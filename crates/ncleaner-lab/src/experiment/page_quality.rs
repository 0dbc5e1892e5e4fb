//! The page-quality experiment: nested cross-validation of the predicted
//! page quality (`crate::quality` fits it), the correlation of predicted with
//! true per-page precision and recall, and the precision/yield curve.

use crate::quality::{Row, pearson, spearman};

/// One page of the cross-validated measurement: what was predicted for its
/// cleaning and what the scoring found.
#[derive(Debug, Clone, Copy)]
pub struct Measured {
    /// The precision predicted by a model that never saw the page (0 when
    /// it predicted none).
    pub predicted_precision: f64,
    /// The recall it predicted (0 when none).
    pub predicted_recall: f64,
    /// The unfitted estimate: the classifier's expected precision of the
    /// page (`features` index 1), for comparison.
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
            let cleaner = ncleaner::Cleaner::from_model(trainer.fit(&train, &cfg)?);
            Ok((0..pages.len())
                .filter(|&i| fold[i] == f)
                .map(|i| {
                    let c = crate::crossval::clean_segments(
                        &cleaner,
                        &pages[i],
                        ncleaner::InputKind::Html,
                    );
                    let (truth, counts) = Row::scored_with_counts(&c, &pages[i].gold);
                    let (predicted_precision, predicted_recall) =
                        c.quality.map_or((0.0, 0.0), |q| (q.precision, q.recall));
                    (
                        i,
                        Measured {
                            predicted_precision,
                            predicted_recall,
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
                .filter(|x| x.predicted_precision >= min)
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
    let pp = col(&pr, |x| x.predicted_precision);
    let ep = col(&pr, |x| x.expected_precision);
    let tr = col(&rc, |x| x.truth.recall.unwrap_or(0.0));
    let prr = col(&rc, |x| x.predicted_recall);
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
    use ncleaner::quality::COUNT;

    #[test]
    fn yield_curve_keeps_the_pages_predicted_precise() {
        let m = |pred: f64, prec: Option<f64>, tp: usize, out: usize| Measured {
            predicted_precision: pred,
            predicted_recall: 0.5,
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
}
