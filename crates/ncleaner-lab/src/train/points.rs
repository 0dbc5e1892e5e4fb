//! The operating points of a trained classifier: the thresholds chosen on
//! the training pages' probabilities ([`OperatingPoint`]).

use super::*;

impl Trainer {
    /// [`OperatingPoint::MaxPageF`]: sweeps the distinct probabilities from
    /// high to low, keeping each page's kept and matched words up to date,
    /// and returns the log-odds of the one with the highest mean page F.
    pub(super) fn max_page_f(&self, subset: &[usize], input: InputKind, probs: &[Vec<f64>]) -> f64 {
        let ii = input_index(input);
        // (probability, page slot, kept words, matched words)
        let mut items: Vec<(f64, usize, usize, usize)> = Vec::new();
        let mut gold = Vec::with_capacity(subset.len());
        for (pi, &i) in subset.iter().enumerate() {
            gold.push(self.gold_tokens[i]);
            let al = &self.aligned[i][ii];
            for (j, s) in self.pages[i].segments(input).iter().enumerate() {
                if s.heuristic.is_none() {
                    items.push((
                        probs[pi][j],
                        pi,
                        s.words() + 1,
                        al.matched[j] + usize::from(al.labels[j]),
                    ));
                }
            }
        }
        let pages = gold.iter().filter(|&&g| g > 0).count().max(1) as f64;
        let f_of = |kept: usize, tp: usize, g: usize| {
            if g == 0 || kept == 0 || tp == 0 {
                0.0
            } else {
                2.0 * tp as f64 / (kept + g) as f64
            }
        };
        items.sort_by(|a, b| b.0.total_cmp(&a.0));
        let mut kept = vec![0usize; subset.len()];
        let mut tp = vec![0usize; subset.len()];
        let mut sum_f = 0.0f64;
        let mut best = (f64::NEG_INFINITY, 0.5f64);
        let mut idx = 0;
        while idx < items.len() {
            let p = items[idx].0;
            while idx < items.len() && items[idx].0 == p {
                let (_, pi, k, m) = items[idx];
                sum_f -= f_of(kept[pi], tp[pi], gold[pi]);
                kept[pi] += k;
                tp[pi] += m;
                sum_f += f_of(kept[pi], tp[pi], gold[pi]);
                idx += 1;
            }
            let mean = sum_f / pages;
            if mean > best.0 {
                best = (mean, p);
            }
        }
        log2_odds(best.1)
    }

    /// Chooses a threshold (log2-odds) from per-segment probabilities of the
    /// pages of `subset`, by word-level precision and recall computed from the
    /// alignment, counting tokens as the evaluation does: a kept segment
    /// contributes its matched words as true positives, its other words as
    /// false positives, and its marker as a true positive if it is labelled
    /// clean (its marker then likely aligns with a gold marker), else a false one.
    pub(super) fn operating_point(
        &self,
        subset: &[usize],
        input: InputKind,
        probs: &[Vec<f64>],
        op: OperatingPoint,
    ) -> f64 {
        if let OperatingPoint::Fixed(t) = op {
            return t;
        }
        let ii = input_index(input);
        if op == OperatingPoint::MaxPageF {
            return self.max_page_f(subset, input, probs);
        }
        let mut items: Vec<(f64, usize, usize)> = Vec::new();
        let gold: usize = subset.iter().map(|&i| self.gold_tokens[i]).sum();
        for (pi, &i) in subset.iter().enumerate() {
            let segs = self.pages[i].segments(input);
            for (j, s) in segs.iter().enumerate() {
                if s.heuristic.is_none() {
                    let al = &self.aligned[i][ii];
                    items.push((
                        probs[pi][j],
                        s.words() + 1,
                        al.matched[j] + usize::from(al.labels[j]),
                    ));
                }
            }
        }
        // Sweep thresholds from high to low probability.
        items.sort_by(|a, b| b.0.total_cmp(&a.0));
        let (mut tp, mut kept) = (0usize, 0usize);
        let mut best = (f64::NEG_INFINITY, f64::NEG_INFINITY, 0.5f64); // (criterion, f, p)
        let mut most_precise = (f64::NEG_INFINITY, 0.5f64);
        let mut idx = 0;
        while idx < items.len() {
            let p = items[idx].0;
            while idx < items.len() && items[idx].0 == p {
                kept += items[idx].1;
                tp += items[idx].2;
                idx += 1;
            }
            let precision = tp as f64 / kept.max(1) as f64;
            let recall = tp as f64 / gold.max(1) as f64;
            let f = if precision + recall > 0.0 {
                2.0 * precision * recall / (precision + recall)
            } else {
                0.0
            };
            if recall >= 0.5 && precision > most_precise.0 {
                most_precise = (precision, p);
            }
            let (ok, criterion) = match op {
                OperatingPoint::MinPrecision(min) => (precision >= min, f),
                OperatingPoint::MaxFBeta(beta) => {
                    let b2 = beta * beta;
                    let denom = b2 * precision + recall;
                    (
                        true,
                        if denom > 0.0 {
                            (1.0 + b2) * precision * recall / denom
                        } else {
                            0.0
                        },
                    )
                }
                _ => (true, f),
            };
            if ok && criterion > best.0 {
                best = (criterion, f, p);
            }
        }
        let p = if best.0.is_finite() {
            best.2
        } else {
            most_precise.1
        };
        log2_odds(p)
    }
}
