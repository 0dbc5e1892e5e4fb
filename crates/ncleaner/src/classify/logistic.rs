//! Weighted logistic regression, fitted by Newton's method (IRLS).
//!
//! Small and exact: the classifier has a few dozen dense features, so each
//! Newton step solves a d × d system by Cholesky decomposition and a handful
//! of steps converge to the optimum of the L2-penalised weighted
//! log-likelihood. Features are standardised (mean 0, standard deviation 1,
//! from the training data) so that one penalty fits all of them; the bias
//! (feature 0) is neither standardised nor penalised.

/// A fitted logistic regression: P(clean | x) = σ(w · standardise(x)).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Logistic {
    /// Per-feature mean of the training data (0 for the bias).
    pub mean: Vec<f32>,
    /// Per-feature 1 / standard deviation (1 for the bias and constant features).
    pub inv_sd: Vec<f32>,
    /// Weights on the standardised features.
    pub weights: Vec<f32>,
}

/// Most Newton steps; convergence is usually reached in fewer than ten.
const MAX_STEPS: usize = 50;

/// Splits the upper triangle's rows `0..d` into about `threads` bands of
/// about equal work (row `a` has `d − a` cells): the bands' first rows,
/// then `d`.
fn hessian_bands(d: usize, threads: usize) -> Vec<usize> {
    let total = d * (d + 1) / 2;
    let per = total.div_ceil(threads.max(1)).max(1);
    let mut bands = vec![0];
    let mut work = 0;
    for a in 0..d {
        work += d - a;
        if work >= per && a + 1 < d {
            bands.push(a + 1);
            work = 0;
        }
    }
    bands.push(d);
    bands
}

impl Logistic {
    /// Fits weights to examples `x` with labels `y` and example weights `w`,
    /// penalising the squared weights by `l2` (relative to the total example weight).
    pub fn fit(x: &[Vec<f32>], y: &[bool], w: &[f32], l2: f64) -> Logistic {
        use rayon::prelude::*;
        let d = x.first().map_or(1, Vec::len);
        let n = x.len();
        let total_w: f64 = w.iter().map(|&v| v as f64).sum::<f64>().max(1e-9);
        let mut mean = vec![0f64; d];
        let mut var = vec![0f64; d];
        for (xi, &wi) in x.iter().zip(w) {
            for j in 1..d {
                mean[j] += wi as f64 * xi[j] as f64;
            }
        }
        mean.iter_mut().for_each(|m| *m /= total_w);
        for (xi, &wi) in x.iter().zip(w) {
            for j in 1..d {
                let dv = xi[j] as f64 - mean[j];
                var[j] += wi as f64 * dv * dv;
            }
        }
        let inv_sd: Vec<f64> = var
            .iter()
            .enumerate()
            .map(|(j, &v)| {
                let sd = (v / total_w).sqrt();
                if j == 0 || sd < 1e-9 { 1.0 } else { 1.0 / sd }
            })
            .collect();
        mean[0] = 0.0;
        let z: Vec<Vec<f64>> = x
            .iter()
            .map(|xi| {
                (0..d)
                    .map(|j| (xi[j] as f64 - mean[j]) * inv_sd[j])
                    .collect()
            })
            .collect();
        let lambda = l2 * total_w;
        let mut beta = vec![0f64; d];
        let mut rs = vec![(0f64, 0f64); n];
        for _ in 0..MAX_STEPS {
            // Each row's residual and curvature, then each row of the
            // gradient and the Hessian summed over the examples in their
            // order: the same numbers bit for bit on any number of threads.
            rs.par_iter_mut()
                .zip(&z)
                .zip(y.par_iter().zip(w))
                .with_min_len(4096)
                .for_each(|((out, zi), (&yi, &wi))| {
                    let eta: f64 = zi.iter().zip(&beta).map(|(a, b)| a * b).sum();
                    let p = sigmoid(eta);
                    let wi = wi as f64;
                    *out = (wi * ((yi as u8 as f64) - p), wi * p * (1.0 - p));
                });
            let bands = hessian_bands(d, rayon::current_num_threads());
            let sums: Vec<(Vec<f64>, Vec<f64>)> = bands
                .par_windows(2)
                .map(|pair| {
                    let (first, rows) = (pair[0], pair[1] - pair[0]);
                    let (mut grad, mut hess) = (vec![0f64; rows], vec![0f64; rows * d]);
                    for (zi, &(r, s)) in z.iter().zip(&rs) {
                        for (k, a) in (first..pair[1]).enumerate() {
                            grad[k] += r * zi[a];
                            let sa = s * zi[a];
                            if sa != 0.0 {
                                let row = &mut hess[k * d..(k + 1) * d];
                                for b in a..d {
                                    row[b] += sa * zi[b];
                                }
                            }
                        }
                    }
                    (grad, hess)
                })
                .collect();
            let (mut grad, mut hess) = (Vec::with_capacity(d), Vec::with_capacity(d * d));
            for (g, h) in sums {
                grad.extend(g);
                hess.extend(h);
            }
            for a in 1..d {
                grad[a] -= lambda * beta[a];
                hess[a * d + a] += lambda;
            }
            hess[0] += 1e-9 * total_w;
            for a in 0..d {
                for b in 0..a {
                    hess[a * d + b] = hess[b * d + a];
                }
            }
            let Some(step) = cholesky_solve(&hess, &grad, d) else {
                break;
            };
            let mut max = 0f64;
            for (b, s) in beta.iter_mut().zip(&step) {
                *b += s;
                max = max.max(s.abs());
            }
            if max < 1e-7 {
                break;
            }
        }
        Logistic {
            mean: mean.iter().map(|&v| v as f32).collect(),
            inv_sd: inv_sd.iter().map(|&v| v as f32).collect(),
            weights: beta.iter().map(|&v| v as f32).collect(),
        }
    }

    /// The log-odds of clean for features `x`.
    pub fn logit(&self, x: &[f32]) -> f32 {
        x.iter()
            .zip(&self.mean)
            .zip(&self.inv_sd)
            .zip(&self.weights)
            .map(|(((&v, &m), &s), &w)| (v - m) * s * w)
            .sum()
    }

    /// P(clean | x).
    pub fn probability(&self, x: &[f32]) -> f32 {
        sigmoid(self.logit(x) as f64) as f32
    }
}

/// The logistic function.
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Solves A x = b for a symmetric positive definite A (row-major, d × d).
pub fn cholesky_solve(a: &[f64], b: &[f64], d: usize) -> Option<Vec<f64>> {
    let mut l = vec![0f64; d * d];
    for i in 0..d {
        for j in 0..=i {
            let mut s = a[i * d + j];
            for k in 0..j {
                s -= l[i * d + k] * l[j * d + k];
            }
            if i == j {
                if s <= 0.0 {
                    return None;
                }
                l[i * d + i] = s.sqrt();
            } else {
                l[i * d + j] = s / l[j * d + j];
            }
        }
    }
    let mut y = vec![0f64; d];
    for i in 0..d {
        let mut s = b[i];
        for k in 0..i {
            s -= l[i * d + k] * y[k];
        }
        y[i] = s / l[i * d + i];
    }
    let mut x = vec![0f64; d];
    for i in (0..d).rev() {
        let mut s = y[i];
        for k in i + 1..d {
            s -= l[k * d + i] * x[k];
        }
        x[i] = s / l[i * d + i];
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recovers_a_known_model() {
        // y ~ Bernoulli(σ(2 x1 − x2 + 0.5)), deterministic pseudo-random x.
        // SplitMix64, as the lab's folds use it.
        let mut state = 7u64;
        let mut next_u64 = move || {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        let mut uni = || (next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        let mut x = Vec::new();
        let mut y = Vec::new();
        for _ in 0..20000 {
            let (a, b) = (uni() * 4.0 - 2.0, uni() * 4.0 - 2.0);
            let p = sigmoid(2.0 * a - b + 0.5);
            x.push(vec![1.0, a as f32, b as f32, 3.0]); // a constant feature too
            y.push(uni() < p);
        }
        let w = vec![1.0; x.len()];
        let m = Logistic::fit(&x, &y, &w, 1e-6);
        // Back on the original scale.
        let coef = |j: usize| m.weights[j] * m.inv_sd[j];
        assert!((coef(1) - 2.0).abs() < 0.15, "{:?}", m);
        assert!((coef(2) + 1.0).abs() < 0.1, "{:?}", m);
        assert!(
            (m.logit(&[1.0, 0.0, 0.0, 3.0]) - 0.5).abs() < 0.1,
            "{:?}",
            m
        );
    }

    /// The fit splits its sums among threads by Hessian rows, never by
    /// examples, so one thread and several give the same weights bit for
    /// bit; and the bands cover every row once, in order.
    #[test]
    fn the_same_on_any_number_of_threads() {
        let mut s = 11u64;
        let mut uni = || {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (s >> 11) as f32 / (1u64 << 53) as f32
        };
        let (mut x, mut y) = (Vec::new(), Vec::new());
        for _ in 0..9000 {
            let row: Vec<f32> = (0..7)
                .map(|j| if j == 0 { 1.0 } else { uni() * 2.0 - 1.0 })
                .collect();
            y.push(row[1] - 0.5 * row[2] + 0.3 * row[3] * row[4] > uni() - 0.5);
            x.push(row);
        }
        let w: Vec<f32> = (0..x.len()).map(|i| 0.5 + (i % 3) as f32).collect();
        let on = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| Logistic::fit(&x, &y, &w, 1e-4))
        };
        let one = on(1);
        for threads in [2, 3, 5] {
            assert_eq!(on(threads), one, "{threads} threads");
        }
        for d in [1, 2, 7, 40] {
            for threads in [1, 2, 3, 8, 64] {
                let b = hessian_bands(d, threads);
                assert_eq!((b[0], *b.last().unwrap()), (0, d), "{d} {threads}");
                assert!(b.windows(2).all(|p| p[0] < p[1]), "{b:?}");
                assert!(b.len() - 1 <= threads.max(1), "{b:?}");
            }
        }
    }

    #[test]
    fn separable_data_stays_finite() {
        let x = vec![
            vec![1.0, -1.0],
            vec![1.0, 1.0],
            vec![1.0, -2.0],
            vec![1.0, 2.0],
        ];
        let y = vec![false, true, false, true];
        let m = Logistic::fit(&x, &y, &[1.0; 4], 1e-3);
        assert!(m.weights.iter().all(|w| w.is_finite()));
        assert!(m.probability(&[1.0, 1.5]) > 0.9);
    }

    #[test]
    fn cholesky() {
        let a = [4.0, 2.0, 2.0, 3.0];
        let x = cholesky_solve(&a, &[2.0, 1.0], 2).unwrap();
        assert!((4.0 * x[0] + 2.0 * x[1] - 2.0).abs() < 1e-12);
        assert!((2.0 * x[0] + 3.0 * x[1] - 1.0).abs() < 1e-12);
        assert!(cholesky_solve(&[0.0], &[1.0], 1).is_none());
    }
}
