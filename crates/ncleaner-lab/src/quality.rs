//! Fitting and measuring the predicted page quality (the product's
//! `ncleaner::quality` predicts it): training rows of out-of-fold cleaned
//! pages scored against their gold text, the ridge regressions of per-page
//! precision and recall, their nested cross-validation, correlations and the
//! precision/yield curve.

use ncleaner::Cleaned;
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
        names: ncleaner::quality::names(),
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
    fn correlations() {
        let a = [1.0, 2.0, 3.0, 4.0];
        assert!((pearson(&a, &[2.0, 4.0, 6.0, 8.0]) - 1.0).abs() < 1e-12);
        assert!((pearson(&a, &[4.0, 3.0, 2.0, 1.0]) + 1.0).abs() < 1e-12);
        assert_eq!(pearson(&a, &[1.0, 1.0, 1.0, 1.0]), 0.0);
        assert!((spearman(&a, &[1.0, 10.0, 100.0, 1000.0]) - 1.0).abs() < 1e-12);
        assert_eq!(ranks(&[3.0, 1.0, 3.0]), vec![2.5, 1.0, 2.5]);
    }
}
