//! A two-state hidden Markov model over a page's segments (clean, dirty).
//!
//! The paper judges each segment alone, so single lines vanish from the middle
//! of an article and lone boilerplate lines survive; its outlook proposes a
//! Viterbi search for coherent blocks of clean or dirty text. This is that
//! model, with forward–backward decoding, which gives every segment a
//! posterior probability of being clean rather than a bare label.
//!
//! Emissions are "scaled likelihoods" of a hybrid HMM: a per-segment
//! classifier gives P(clean | x_i); dividing by the class prior turns it into a
//! quantity proportional to p(x_i | clean), which is all forward–backward
//! needs. Transition and start probabilities are estimated from the label
//! sequences of aligned training pages (add-one smoothed).

/// Transition structure of the two-state chain; state 0 = clean, 1 = dirty.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Chain {
    /// P(first segment is clean).
    pub start_clean: f64,
    /// P(clean → clean).
    pub stay_clean: f64,
    /// P(dirty → dirty).
    pub stay_dirty: f64,
    /// Share of clean segments in the training data (the classifier's prior).
    pub prior_clean: f64,
}

impl Chain {
    /// Estimates the chain from the label sequences of training pages.
    pub fn estimate<'a>(pages: impl IntoIterator<Item = &'a [bool]>) -> Chain {
        let (mut start, mut pages_n) = (1.0, 2.0);
        let (mut cc, mut c_out) = (1.0, 2.0);
        let (mut dd, mut d_out) = (1.0, 2.0);
        let (mut clean, mut all) = (1.0, 2.0);
        for labels in pages {
            if let Some(&first) = labels.first() {
                start += first as u8 as f64;
                pages_n += 1.0;
            }
            for w in labels.windows(2) {
                if w[0] {
                    c_out += 1.0;
                    cc += w[1] as u8 as f64;
                } else {
                    d_out += 1.0;
                    dd += (!w[1]) as u8 as f64;
                }
            }
            clean += labels.iter().filter(|&&l| l).count() as f64;
            all += labels.len() as f64;
        }
        Chain {
            start_clean: start / pages_n,
            stay_clean: cc / c_out,
            stay_dirty: dd / d_out,
            prior_clean: clean / all,
        }
    }

    /// Posterior P(segment i is clean | all segments) for per-segment
    /// classifier probabilities `p` (forward–backward, scaled per step).
    pub fn posteriors(&self, p: &[f64]) -> Vec<f64> {
        let n = p.len();
        if n == 0 {
            return Vec::new();
        }
        let eps = 1e-6;
        let emit = |i: usize| {
            let q = p[i].clamp(eps, 1.0 - eps);
            [q / self.prior_clean, (1.0 - q) / (1.0 - self.prior_clean)]
        };
        let t = [
            [self.stay_clean, 1.0 - self.stay_clean],
            [1.0 - self.stay_dirty, self.stay_dirty],
        ];
        let mut alpha = vec![[0f64; 2]; n];
        let e0 = emit(0);
        let mut a = [self.start_clean * e0[0], (1.0 - self.start_clean) * e0[1]];
        normalise(&mut a);
        alpha[0] = a;
        for i in 1..n {
            let e = emit(i);
            let prev = alpha[i - 1];
            let mut a = [
                (prev[0] * t[0][0] + prev[1] * t[1][0]) * e[0],
                (prev[0] * t[0][1] + prev[1] * t[1][1]) * e[1],
            ];
            normalise(&mut a);
            alpha[i] = a;
        }
        let mut beta = [1.0, 1.0];
        let mut post = vec![0f64; n];
        for i in (0..n).rev() {
            let g0 = alpha[i][0] * beta[0];
            let g1 = alpha[i][1] * beta[1];
            post[i] = g0 / (g0 + g1);
            if i > 0 {
                let e = emit(i);
                let mut b = [
                    t[0][0] * e[0] * beta[0] + t[0][1] * e[1] * beta[1],
                    t[1][0] * e[0] * beta[0] + t[1][1] * e[1] * beta[1],
                ];
                normalise(&mut b);
                beta = b;
            }
        }
        post
    }
}

fn normalise(v: &mut [f64; 2]) {
    let s = v[0] + v[1];
    if s > 0.0 && s.is_finite() {
        v[0] /= s;
        v[1] /= s;
    } else {
        *v = [0.5, 0.5];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn estimate_counts_transitions() {
        let pages: Vec<Vec<bool>> = vec![
            vec![false, true, true, true, false],
            vec![false, false, true],
        ];
        let c = Chain::estimate(pages.iter().map(Vec::as_slice));
        // clean→clean 2 of 3 clean→x, smoothed (2+1)/(3+2)
        assert!((c.stay_clean - 3.0 / 5.0).abs() < 1e-12);
        // dirty→dirty 1 of 3, smoothed (1+1)/(3+2)
        assert!((c.stay_dirty - 2.0 / 5.0).abs() < 1e-12);
        assert!((c.start_clean - 1.0 / 4.0).abs() < 1e-12);
    }

    #[test]
    fn neighbours_pull_an_uncertain_segment() {
        let chain = Chain {
            start_clean: 0.5,
            stay_clean: 0.9,
            stay_dirty: 0.9,
            prior_clean: 0.5,
        };
        let post = chain.posteriors(&[0.9, 0.9, 0.45, 0.9, 0.9]);
        assert!(post[2] > 0.5, "{post:?}");
        let post = chain.posteriors(&[0.1, 0.1, 0.55, 0.1, 0.1]);
        assert!(post[2] < 0.5, "{post:?}");
    }

    #[test]
    fn independent_chain_returns_the_classifier() {
        let chain = Chain {
            start_clean: 0.5,
            stay_clean: 0.5,
            stay_dirty: 0.5,
            prior_clean: 0.5,
        };
        let p = [0.2, 0.7, 0.99, 0.01];
        for (a, b) in chain.posteriors(&p).iter().zip(p) {
            assert!((a - b).abs() < 1e-9);
        }
        assert!(chain.posteriors(&[]).is_empty());
    }
}
