//! Boosted trees for more than two classes: one forest per class, their
//! margins turned into probabilities by the softmax (as XGBoost's
//! `multi:softprob` and LightGBM's `multiclass` do it). Each round grows
//! one tree per class on the gradients g = w·(p_k − y_k) and Hessians
//! h = w·p_k·(1 − p_k) of the weighted multinomial log-loss, over the same
//! seeded half of the rows, with the binary learner's histogram splits.

use super::{Boost, Forest, Grow, binned, cut_points, grow, splitmix, tree_value};

/// Fits one forest per class to rows `x` with class labels `y` (each below
/// `classes`) and row weights `w`; every margin starts at 0.
pub fn fit_softmax(
    x: &[Vec<f32>],
    y: &[usize],
    classes: usize,
    w: &[f32],
    cfg: Boost,
) -> Vec<Forest> {
    let n = x.len();
    let d = x.first().map_or(0, Vec::len).min(super::LEAF as usize);
    let mut forests: Vec<Forest> = (0..classes)
        .map(|_| Forest {
            depth: cfg.depth.clamp(1, super::MAX_DEPTH) as u8,
            ..Forest::default()
        })
        .collect();
    if n == 0 || d == 0 || classes < 2 {
        return forests;
    }
    let cuts = cut_points(x, d);
    let bins = binned(x, &cuts);
    let mut margins = vec![vec![0f32; classes]; n];
    let mut rng = 0x5eed_u64;
    let mut g = vec![vec![0f64; n]; classes];
    let mut h = vec![vec![0f64; n]; classes];
    let mut p = vec![0f64; classes];
    for _ in 0..cfg.trees {
        for i in 0..n {
            softmax(&margins[i], &mut p);
            let wi = f64::from(w[i]);
            for k in 0..classes {
                let yk = f64::from(u8::from(y[i] == k));
                g[k][i] = wi * (p[k] - yk);
                h[k][i] = (wi * p[k] * (1.0 - p[k])).max(1e-12);
            }
        }
        let rows: Vec<u32> = (0..n as u32)
            .filter(|_| splitmix(&mut rng) >> 63 == 0)
            .collect();
        for (k, forest) in forests.iter_mut().enumerate() {
            let min_h = cfg.min_child_share * rows.iter().map(|&r| h[k][r as usize]).sum::<f64>();
            let ctx = Grow {
                bins: &bins,
                cuts: &cuts,
                d,
                g: &g[k],
                h: &h[k],
                cfg,
                min_h,
            };
            let mut nodes = Vec::new();
            grow(&mut nodes, &ctx, rows.clone(), forest.depth as usize);
            for (i, m) in margins.iter_mut().enumerate() {
                m[k] += tree_value(&nodes, &x[i]);
            }
            forest.push_tree(&nodes, 0);
        }
    }
    forests
}

/// The softmax of `margins` into `p` (of the same length), computed stably.
pub fn softmax(margins: &[f32], p: &mut [f64]) {
    let max = margins.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut sum = 0.0;
    for (pk, &m) in p.iter_mut().zip(margins) {
        *pk = f64::from(m - max).exp();
        sum += *pk;
    }
    for pk in p.iter_mut() {
        *pk /= sum;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three classes by which third of [0, 1) a feature falls in, a second
    /// feature noise: the forests learn the cuts.
    #[test]
    fn three_classes_are_learned() {
        let mut s = 11u64;
        let (mut x, mut y) = (Vec::new(), Vec::new());
        for _ in 0..3000 {
            let a = (splitmix(&mut s) % 1000) as f32 / 1000.0;
            let b = (splitmix(&mut s) % 1000) as f32 / 1000.0;
            x.push(vec![1.0, a, b]);
            y.push((a * 3.0) as usize);
        }
        let w = vec![1.0; x.len()];
        let cfg = Boost {
            trees: 30,
            depth: 3,
            ..Boost::default()
        };
        let forests = fit_softmax(&x, &y, 3, &w, cfg);
        assert_eq!(forests.len(), 3);
        let mut p = [0.0; 3];
        let mut right = 0;
        for (row, &label) in x.iter().zip(&y) {
            let m: Vec<f32> = forests.iter().map(|f| f.margin(row)).collect();
            softmax(&m, &mut p);
            assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-9);
            let best = (0..3).max_by(|&i, &j| p[i].total_cmp(&p[j])).unwrap();
            right += usize::from(best == label);
        }
        assert!(right > 2900, "{right} of 3000");
        // Reproducible bit for bit.
        assert_eq!(forests, fit_softmax(&x, &y, 3, &w, cfg));
    }
}
