//! Evidence from `class`, `id` and `role` words, learned from data.
//!
//! Page authors name their boxes: `menu`, `sidebar`, `comment`, `footer`,
//! `post`, `article-body`. Rather than a hand-made list, the model counts, for
//! every attribute word, the clean and the dirty words of the aligned
//! training segments that it encloses, and turns them into a smoothed
//! log-odds: how much more (or less) likely clean text is under that word than
//! on average. A segment's evidence is the mean, minimum and maximum log-odds
//! of its known words.

use std::collections::HashMap;

/// Pseudo-count of words with which each word's log-odds is pulled towards 0.
pub const SMOOTHING: f64 = 50.0;

/// Fewest training words under an attribute word for it to be kept.
pub const MIN_SUPPORT: f64 = 20.0;

/// Number of features [`AttrModel::evidence`] gives.
pub const EVIDENCE: usize = 4;

/// Log-odds of clean text under each attribute word.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AttrModel {
    /// Word hash → smoothed log-odds relative to the prior. Written in key
    /// order, as base64 of the entries' bytes (`classify::le_arrays`), so that
    /// model files are the same bytes for the same training; held in a hash
    /// map, in which every segment's words are looked up. A `BTreeMap` here
    /// costs about 2.5 % more of `clean`'s instructions (`scripts/profile
    /// callgrind`): building it from the two embedded models' 34,000 words
    /// at start, and searching it for every segment.
    #[serde(
        serialize_with = "super::le_arrays::serialize_map",
        deserialize_with = "super::le_arrays::deserialize_map"
    )]
    pub log_odds: rustc_hash::FxHashMap<u32, f32>,
}

impl AttrModel {
    /// Learns the log-odds from training segments: (attribute words, word count, clean?).
    pub fn train<'a>(segments: impl IntoIterator<Item = (&'a [u32], usize, bool)>) -> AttrModel {
        let mut counts: HashMap<u32, (f64, f64)> = HashMap::new();
        let (mut clean, mut dirty) = (1.0f64, 1.0f64);
        for (attrs, words, is_clean) in segments {
            let w = words.max(1) as f64;
            if is_clean {
                clean += w;
            } else {
                dirty += w;
            }
            for &a in attrs {
                let e = counts.entry(a).or_insert((0.0, 0.0));
                if is_clean {
                    e.0 += w;
                } else {
                    e.1 += w;
                }
            }
        }
        let p = clean / (clean + dirty);
        let prior = (p / (1.0 - p)).ln();
        let log_odds = counts
            .into_iter()
            .filter(|(_, (c, d))| c + d >= MIN_SUPPORT)
            .map(|(a, (c, d))| {
                let lo = ((c + SMOOTHING * p) / (d + SMOOTHING * (1.0 - p))).ln() - prior;
                (a, lo as f32)
            })
            .collect();
        AttrModel { log_odds }
    }

    /// Mean, minimum and maximum log-odds of the known words, and their number
    /// (all 0 when none is known).
    pub fn evidence(&self, attrs: &[u32]) -> [f32; EVIDENCE] {
        let (mut sum, mut min, mut max, mut n) = (0f32, f32::INFINITY, f32::NEG_INFINITY, 0usize);
        for a in attrs {
            if let Some(&lo) = self.log_odds.get(a) {
                sum += lo;
                min = min.min(lo);
                max = max.max(lo);
                n += 1;
            }
        }
        if n == 0 {
            return [0.0; EVIDENCE];
        }
        [sum / n as f32, min, max, (n as f32).ln_1p()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn learns_which_words_mark_boilerplate() {
        let menu = [1u32];
        let post = [2u32];
        let both = [1u32, 2];
        let mut segs: Vec<(&[u32], usize, bool)> = Vec::new();
        for _ in 0..20 {
            segs.push((&menu, 3, false));
            segs.push((&post, 40, true));
            segs.push((&both, 5, true));
        }
        segs.push((&[3u32], 1, false)); // too rare to keep
        let m = AttrModel::train(segs);
        assert!(m.log_odds[&1] < 0.0);
        assert!(m.log_odds[&2] > 0.0);
        assert!(!m.log_odds.contains_key(&3));
        let e = m.evidence(&[1, 2, 99]);
        assert_eq!(e[1], m.log_odds[&1]);
        assert_eq!(e[2], m.log_odds[&2]);
        assert_eq!(m.evidence(&[99]), [0.0; EVIDENCE]);
    }
}
