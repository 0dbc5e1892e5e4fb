//! The statistics the paper's evaluation reports: the paired t-test across
//! files (t, df, two-sided p), with Student's t distribution computed from the
//! regularized incomplete beta function.
//!
//! Written here rather than taken from a crate because it is three small
//! functions (a Lanczos log-gamma, a Lentz continued fraction, the t-test);
//! the tests check them against closed forms (t with 1 and 2 degrees of
//! freedom), textbook critical values and the two tests the paper reports.

/// The result of a paired t-test.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct TTest {
    /// Mean of the differences (first − second).
    pub mean_diff: f64,
    /// The t statistic.
    pub t: f64,
    /// Degrees of freedom (pairs − 1).
    pub df: f64,
    /// Two-sided p-value.
    pub p: f64,
}

/// Paired t-test of `a` against `b` (same length, at least two pairs):
/// t = mean(d) / (sd(d) / √n) with d = a − b, df = n − 1.
///
/// When every difference is the same, the statistic is 0 (no difference,
/// p = 1) or infinite (a constant non-zero difference, p = 0).
/// Returns `None` with fewer than two pairs or lengths that differ.
pub fn paired_t_test(a: &[f64], b: &[f64]) -> Option<TTest> {
    if a.len() != b.len() || a.len() < 2 {
        return None;
    }
    let n = a.len() as f64;
    let d: Vec<f64> = a.iter().zip(b).map(|(x, y)| x - y).collect();
    let mean = d.iter().sum::<f64>() / n;
    let var = d.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0);
    let df = n - 1.0;
    let se = (var / n).sqrt();
    let (t, p) = if se > 0.0 {
        let t = mean / se;
        (t, t_two_sided_p(t, df))
    } else if mean == 0.0 {
        (0.0, 1.0)
    } else {
        (mean.signum() * f64::INFINITY, 0.0)
    };
    Some(TTest {
        mean_diff: mean,
        t,
        df,
        p,
    })
}

/// Two-sided p-value of Student's t distribution: P(|T| ≥ |t|) with `df`
/// degrees of freedom, = I_{df/(df+t²)}(df/2, 1/2).
pub fn t_two_sided_p(t: f64, df: f64) -> f64 {
    if t.is_nan() || df.is_nan() || df <= 0.0 {
        return f64::NAN;
    }
    if t.is_infinite() {
        return 0.0;
    }
    let x = df / (df + t * t);
    regularized_incomplete_beta(x, df / 2.0, 0.5).clamp(0.0, 1.0)
}

/// The cumulative distribution function of Student's t distribution.
pub fn t_cdf(t: f64, df: f64) -> f64 {
    let tail = 0.5 * t_two_sided_p(t, df);
    if t > 0.0 { 1.0 - tail } else { tail }
}

/// ln Γ(x) for x > 0: the Lanczos approximation (g = 7, nine coefficients),
/// with the reflection formula below 1/2; relative error about 1e-15.
pub fn ln_gamma(x: f64) -> f64 {
    const G: f64 = 7.0;
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // Γ(x) Γ(1−x) = π / sin(πx)
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).abs().ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = C[0];
    for (i, c) in C.iter().enumerate().skip(1) {
        a += c / (x + i as f64);
    }
    let t = x + G + 0.5;
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

/// The regularized incomplete beta function I_x(a, b), for a, b > 0 and
/// x ∈ [0, 1]: the continued fraction of I_x(a, b) evaluated by Lentz's
/// method, on the side (x or 1 − x) where it converges fast.
pub fn regularized_incomplete_beta(x: f64, a: f64, b: f64) -> f64 {
    if x.is_nan() || a.is_nan() || b.is_nan() || a <= 0.0 || b <= 0.0 {
        return f64::NAN;
    }
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let ln_front = ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln();
    if x < (a + 1.0) / (a + b + 2.0) {
        ln_front.exp() * beta_fraction(x, a, b) / a
    } else {
        1.0 - ln_front.exp() * beta_fraction(1.0 - x, b, a) / b
    }
}

/// The continued fraction 1 / (1 + d₁ / (1 + d₂ / (1 + …))) of I_x(a, b),
/// with d₂ₘ₊₁ = −(a+m)(a+b+m)x / ((a+2m)(a+2m+1)) and
/// d₂ₘ = m(b−m)x / ((a+2m−1)(a+2m)), by the modified Lentz method.
fn beta_fraction(x: f64, a: f64, b: f64) -> f64 {
    const TINY: f64 = 1e-300;
    const EPS: f64 = 1e-16;
    let guard = |v: f64| if v.abs() < TINY { TINY } else { v };
    // f = 1 / (1 + d1 / (1 + d2 / …)): start from the term after the leading 1/.
    let mut c = 1.0;
    let mut d = 1.0 / guard(1.0 - (a + b) * x / (a + 1.0));
    let mut f = d;
    for m in 1..10_000 {
        let m = m as f64;
        let even = m * (b - m) * x / ((a + 2.0 * m - 1.0) * (a + 2.0 * m));
        d = 1.0 / guard(1.0 + even * d);
        c = guard(1.0 + even / c);
        f *= c * d;
        let odd = -(a + m) * (a + b + m) * x / ((a + 2.0 * m) * (a + 2.0 * m + 1.0));
        d = 1.0 / guard(1.0 + odd * d);
        c = guard(1.0 + odd / c);
        let step = c * d;
        f *= step;
        if (step - 1.0).abs() < EPS {
            break;
        }
    }
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, rel: f64) -> bool {
        (a - b).abs() <= rel * b.abs().max(1e-300)
    }

    #[test]
    fn ln_gamma_known_values() {
        assert!(ln_gamma(1.0).abs() < 1e-13);
        assert!(ln_gamma(2.0).abs() < 1e-13);
        assert!(close(ln_gamma(5.0), 24f64.ln(), 1e-14));
        assert!(close(
            ln_gamma(0.5),
            std::f64::consts::PI.sqrt().ln(),
            1e-13
        ));
        // Γ(10.5) = 1133278.3889487855...
        assert!(close(
            ln_gamma(10.5),
            1_133_278.388_948_785_5f64.ln(),
            1e-14
        ));
        assert!(close(ln_gamma(0.1), 9.513_507_698_668_732f64.ln(), 1e-13));
        // Stirling region
        assert!(close(ln_gamma(200.0), 857.933_669_825_857_5, 1e-14));
    }

    #[test]
    fn incomplete_beta_closed_forms() {
        // I_x(1, 1) = x; I_x(a, 1) = x^a; I_x(1, b) = 1 − (1−x)^b
        for x in [0.01, 0.2, 0.5, 0.77, 0.999] {
            assert!(close(regularized_incomplete_beta(x, 1.0, 1.0), x, 1e-13));
            assert!(close(
                regularized_incomplete_beta(x, 3.5, 1.0),
                x.powf(3.5),
                1e-12
            ));
            assert!(close(
                regularized_incomplete_beta(x, 1.0, 4.0),
                1.0 - (1.0 - x).powi(4),
                1e-12
            ));
            // symmetry
            let s = regularized_incomplete_beta(x, 2.5, 7.0)
                + regularized_incomplete_beta(1.0 - x, 7.0, 2.5);
            assert!(close(s, 1.0, 1e-13));
        }
        assert_eq!(regularized_incomplete_beta(0.0, 2.0, 3.0), 0.0);
        assert_eq!(regularized_incomplete_beta(1.0, 2.0, 3.0), 1.0);
        assert!(regularized_incomplete_beta(0.5, -1.0, 3.0).is_nan());
    }

    #[test]
    fn t_distribution_closed_forms() {
        // df = 1 is the Cauchy distribution; df = 2 has a closed form too.
        for t in [-30.0, -3.0, -0.5, 0.0, 0.3, 1.0, 4.0, 100.0] {
            let cauchy = 0.5 + f64::atan(t) / std::f64::consts::PI;
            assert!(close(t_cdf(t, 1.0), cauchy, 1e-12), "t={t}");
            let two = 0.5 + t / (2.0 * (t * t + 2.0f64).sqrt());
            assert!(close(t_cdf(t, 2.0), two, 1e-12), "t={t}");
        }
    }

    #[test]
    fn t_distribution_critical_values() {
        // Two-sided 5 % critical values of textbook tables.
        for (t, df) in [
            (12.706_204_736, 1.0),
            (2.228_138_852, 10.0),
            (2.042_272_456, 30.0),
            (1.983_971_519, 100.0),
        ] {
            assert!(close(t_two_sided_p(t, df), 0.05, 1e-8), "df={df}");
        }
        // two-sided 1 %, df = 20: 2.845339710
        assert!(close(t_two_sided_p(2.845_339_710, 20.0), 0.01, 1e-8));
        assert!(close(t_two_sided_p(0.0, 7.0), 1.0, 1e-15));
        assert_eq!(t_two_sided_p(f64::INFINITY, 7.0), 0.0);
    }

    #[test]
    fn the_papers_t_tests() {
        // NCleaner §4: "t = 1.976, df = 157, p = .0499" and
        // "t = 9.0557, df = 157, p = 5.055·10⁻¹⁶".
        assert!(close(t_two_sided_p(1.976, 157.0), 0.0499, 5e-3));
        assert!(close(t_two_sided_p(9.0557, 157.0), 5.055e-16, 5e-3));
    }

    #[test]
    fn paired_test() {
        let a = [1.0, 2.0, 3.0, 4.0, 5.5];
        let b = [0.5, 2.0, 2.0, 3.5, 4.0];
        // d = 0.5, 0, 1, 0.5, 1.5; mean 0.7, sd 0.5700877; t = 0.7 / (0.5700877/√5)
        let r = paired_t_test(&a, &b).unwrap();
        assert!(close(r.mean_diff, 0.7, 1e-12));
        assert!(close(r.t, 2.745_625_891_934_577, 1e-9));
        assert_eq!(r.df, 4.0);
        // R: 2 * pt(-2.745626, 4) = 0.05159...
        assert!(close(r.p, t_two_sided_p(r.t, 4.0), 1e-15));
        assert!(r.p > 0.05 && r.p < 0.053);
        let same = paired_t_test(&a, &a).unwrap();
        assert_eq!((same.t, same.p), (0.0, 1.0));
        let shifted: Vec<f64> = a.iter().map(|x| x + 1.0).collect();
        let s = paired_t_test(&shifted, &a).unwrap();
        assert_eq!((s.t, s.p), (f64::INFINITY, 0.0));
        assert!(paired_t_test(&a[..1], &b[..1]).is_none());
        assert!(paired_t_test(&a, &b[..3]).is_none());
    }
}
