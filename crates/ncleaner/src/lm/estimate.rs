//! Counting and interpolated modified Kneser–Ney estimation (Chen & Goodman
//! 1998, as KenLM's `lmplz` does it).
//!
//! Sentences are padded `<s> w1 … wk </s>` (one `<s>`, as KenLM). For order
//! `N`, the highest order uses raw counts `a(g) = c(g)`; lower orders use
//! continuation counts `a(g) = |{x : c(x g) > 0}|`, except n-grams that begin
//! with `<s>`, which cannot be extended to the left and keep their raw count.
//! Per order, discounts come from the counts-of-counts `t1..t4` of `a`:
//! `Y = t1/(t1+2·t2)`, `D1 = 1−2Y·t2/t1`, `D2 = 2−3Y·t3/t2`, `D3+ = 3−4Y·t4/t3`
//! (when a corpus is too small for these to lie in `(0, i)`, we use
//! `D = 0.5, 1, 1.5`; KenLM stops with an error instead). Then
//!
//! ```text
//! p(w|h) = (a(hw) − D(a(hw))) / Σx a(hx) + γ(h) · p(w|h′)
//! γ(h)   = (D1·N1(h•) + D2·N2(h•) + D3+·N3+(h•)) / Σx a(hx)
//! p(w)   = (a(w) − D(a(w))) / Σx a(x) + γ(ε) / |V|
//! ```
//!
//! with `h′` the context without its oldest word and `|V|` the vocabulary
//! without `<s>`, `<unk>` included (which gets `γ(ε)/|V|`). Stored as a
//! backoff model: `log10 p(hw)` for every seen `hw` and `log10 γ(h)` as the
//! backoff of `h`; for an unseen `hw` the interpolation reduces to
//! `γ(h)·p(w|h′)`, so the backoff form is exact.
//!
//! `min_count` prunes highest-order n-grams seen fewer times before
//! estimation (their mass goes to the backoff; continuation counts of the
//! lower orders still see them), which keeps the model a distribution.
//! Text is streamed sentence by sentence; memory grows with the number of
//! distinct n-grams, not with the text. With `max_ngrams`, the table of the
//! highest order (the largest) is kept under that many entries by lossy
//! counting: when it is full, the n-grams seen at most `f` times so far are
//! dropped, `f` rising until half the table is free; an n-gram dropped and
//! seen again restarts from 0, so the counts of rare n-grams become lower
//! bounds (and [`Estimator::pruned_below`] says how far this went). The lower
//! orders are never pruned: their tables grow with the vocabulary's pairs,
//! far slower than with the text.

use std::collections::HashMap;

use rustc_hash::FxHashMap;

use super::{BOS, EOS, MAX_ORDER, MAX_VOCAB, Table, UNK, WordLm, key, tokenize};
use crate::error::{Error, Result};

/// Training parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TrainConfig {
    /// The order: 2 (bigrams) or 3 (trigrams).
    pub order: usize,
    /// Highest-order n-grams seen fewer times are pruned (1: keep all).
    pub min_count: u32,
    /// At most this many highest-order n-grams held while counting (0: no
    /// bound); see the module documentation.
    pub max_ngrams: usize,
}

impl Default for TrainConfig {
    fn default() -> TrainConfig {
        TrainConfig {
            order: 3,
            min_count: 1,
            max_ngrams: 0,
        }
    }
}

/// Counts n-grams of text fed to it, then estimates a [`WordLm`].
#[derive(Debug)]
pub struct Estimator {
    config: TrainConfig,
    words: HashMap<String, u32>,
    counts: Vec<FxHashMap<u64, u32>>,
    sentences: u64,
    /// The count at or below which highest-order n-grams were dropped (0: none).
    floor: u32,
}

impl Estimator {
    /// An empty estimator.
    pub fn new(config: TrainConfig) -> Result<Estimator> {
        if !(1..=MAX_ORDER).contains(&config.order) {
            return Err(Error::Parameter(format!(
                "order {}: must be 1 to {MAX_ORDER}",
                config.order
            )));
        }
        if config.min_count == 0 {
            return Err(Error::Parameter("min-count must be at least 1".into()));
        }
        let mut words = HashMap::new();
        for (i, w) in ["<unk>", "<s>", "</s>"].iter().enumerate() {
            words.insert(w.to_string(), i as u32);
        }
        Ok(Estimator {
            config,
            words,
            counts: vec![FxHashMap::default(); config.order],
            sentences: 0,
            floor: 0,
        })
    }

    /// Number of sentences counted so far.
    pub fn sentences(&self) -> u64 {
        self.sentences
    }

    /// Counts every sentence of a text (a line, a paragraph, a document).
    pub fn add_text(&mut self, text: &str) -> Result<()> {
        for s in tokenize::sentences(text) {
            self.add_tokens(&tokenize::tokens(s))?;
        }
        Ok(())
    }

    /// Counts one tokenized sentence.
    pub fn add_tokens(&mut self, tokens: &[String]) -> Result<()> {
        if tokens.is_empty() {
            return Ok(());
        }
        let mut ids = Vec::with_capacity(tokens.len() + 2);
        ids.push(BOS);
        for t in tokens {
            let next = self.words.len() as u32;
            let id = *self.words.entry(t.clone()).or_insert(next);
            if self.words.len() > MAX_VOCAB {
                return Err(Error::Training(format!(
                    "more than {MAX_VOCAB} distinct words"
                )));
            }
            ids.push(id);
        }
        ids.push(EOS);
        self.sentences += 1;
        for k in 1..=self.config.order {
            for g in ids.windows(k) {
                *self.counts[k - 1].entry(key(g)).or_insert(0) += 1;
            }
        }
        let (n, max) = (self.config.order, self.config.max_ngrams);
        if max > 0 && n > 1 && self.counts[n - 1].len() > max {
            let top = &mut self.counts[n - 1];
            while top.len() > max / 2 {
                self.floor += 1;
                let floor = self.floor;
                top.retain(|_, c| *c > floor);
            }
        }
        Ok(())
    }

    /// The count at or below which highest-order n-grams were dropped to stay
    /// under `max_ngrams` while counting (0: nothing was dropped).
    pub fn pruned_below(&self) -> u32 {
        self.floor
    }

    /// Estimates the model.
    pub fn estimate(self, provenance: &str) -> Result<WordLm> {
        if self.sentences == 0 {
            return Err(Error::Training("no sentences in the training text".into()));
        }
        let n = self.config.order;
        let (vocab, remap) = self.ordered_vocab();
        let raw = self.sorted_counts(&remap);
        let tokens: u64 = raw[0]
            .iter()
            .filter(|(g, _)| g[0] != BOS)
            .map(|(_, c)| u64::from(*c))
            .sum();
        let adjusted = adjusted_counts(&raw, self.config.min_count);
        // All words but <s>.
        let (probs, gammas) = interpolate(&adjusted, (vocab.len() - 1) as f64);
        let tables = backoff_tables(&probs, &gammas, &raw);
        WordLm::from_parts(
            n,
            vocab,
            tables,
            tokens,
            provenance.to_string(),
            "trained model",
        )
    }

    /// The vocabulary in its deterministic order, specials first, then the
    /// words in byte order; and each counted id's place in it.
    fn ordered_vocab(&self) -> (Vec<String>, Vec<u32>) {
        let mut by_id: Vec<(&String, u32)> = self.words.iter().map(|(w, &i)| (w, i)).collect();
        by_id.sort_by(|a, b| (a.1 >= 3, a.0).cmp(&(b.1 >= 3, b.0)));
        by_id[..3].sort_by_key(|p| p.1);
        let mut remap = vec![0u32; by_id.len()];
        for (new, (_, old)) in by_id.iter().enumerate() {
            remap[*old as usize] = new as u32;
        }
        let vocab: Vec<String> = by_id.iter().map(|(w, _)| (*w).clone()).collect();
        (vocab, remap)
    }

    /// The raw counts of each order (`[k-1]`: the k-grams), each n-gram's
    /// ids mapped by `remap`, sorted.
    fn sorted_counts(&self, remap: &[u32]) -> Vec<Vec<(Vec<u32>, u32)>> {
        let rekey = |k: u64, len: usize| -> Vec<u32> {
            let mut ids: Vec<u32> = (0..len)
                .map(|i| remap[((k >> (21 * i as u32)) & ((1 << 21) - 1)) as usize])
                .collect();
            ids.reverse();
            ids
        };
        self.counts
            .iter()
            .enumerate()
            .map(|(k, m)| {
                let mut v: Vec<(Vec<u32>, u32)> =
                    m.iter().map(|(&key, &c)| (rekey(key, k + 1), c)).collect();
                v.sort_unstable();
                v
            })
            .collect()
    }
}

/// The adjusted counts `a` of each order from the sorted raw counts: raw
/// counts at the highest order (those below `min_count` pruned, the
/// unigrams kept), continuation counts below it (raw for n-grams that begin
/// with `<s>`); the unigram `<s>` is never predicted and left out.
fn adjusted_counts(raw: &[Vec<(Vec<u32>, u32)>], min_count: u32) -> Vec<Vec<(Vec<u32>, u32)>> {
    let n = raw.len();
    let mut adjusted: Vec<Vec<(Vec<u32>, u32)>> = Vec::with_capacity(n);
    for k in 1..=n {
        if k == n {
            adjusted.push(
                raw[k - 1]
                    .iter()
                    .filter(|(g, c)| (*c >= min_count || k == 1) && !(k == 1 && g[0] == BOS))
                    .cloned()
                    .collect(),
            );
            continue;
        }
        let mut cont: HashMap<&[u32], u32> = HashMap::new();
        for (g, _) in &raw[k] {
            *cont.entry(&g[1..]).or_insert(0) += 1;
        }
        adjusted.push(
            raw[k - 1]
                .iter()
                .map(|(g, c)| {
                    let a = if g[0] == BOS {
                        *c
                    } else {
                        cont.get(&g[..]).copied().unwrap_or(0)
                    };
                    (g.clone(), a)
                })
                .filter(|(g, a)| *a > 0 && !(g.len() == 1 && g[0] == BOS))
                .collect(),
        );
    }
    adjusted
}

/// An order's probabilities or backoff weights, by n-gram or context.
type ByGram = HashMap<Vec<u32>, f64>;

/// The interpolated probabilities `p(w|h)` of every n-gram of each order,
/// and the backoff weights `γ(h)` of each order's contexts (the module
/// documentation's formulas), from the adjusted counts; `vsize` is `|V|`.
fn interpolate(adjusted: &[Vec<(Vec<u32>, u32)>], vsize: f64) -> (Vec<ByGram>, Vec<ByGram>) {
    let n = adjusted.len();
    let mut probs: Vec<ByGram> = Vec::with_capacity(n);
    let mut gammas: Vec<ByGram> = Vec::with_capacity(n);
    for k in 1..=n {
        let grams = &adjusted[k - 1];
        let d = discounts(grams.iter().map(|(_, a)| *a));
        let disc = |a: u32| d[(a.min(3) - 1) as usize];
        // Per context: Σ a, and Σ D(a).
        let mut ctx: HashMap<&[u32], (f64, f64)> = HashMap::new();
        for (g, a) in grams {
            let e = ctx.entry(&g[..k - 1]).or_insert((0.0, 0.0));
            e.0 += f64::from(*a);
            e.1 += disc(*a);
        }
        let mut p: ByGram = HashMap::with_capacity(grams.len() + 1);
        for (g, a) in grams {
            let (sum, dsum) = ctx[&g[..k - 1]];
            let lower = if k == 1 {
                1.0 / vsize
            } else {
                probs[k - 2][&g[1..]]
            };
            p.insert(
                g.clone(),
                (f64::from(*a) - disc(*a)) / sum + dsum / sum * lower,
            );
        }
        if k == 1 {
            let (sum, dsum) = ctx[&[][..]];
            p.entry(vec![UNK]).or_insert(dsum / sum / vsize);
        }
        gammas.push(
            ctx.iter()
                .map(|(h, (sum, dsum))| (h.to_vec(), dsum / sum))
                .collect(),
        );
        probs.push(p);
    }
    (probs, gammas)
}

/// The model's tables: each order's n-grams sorted, with `log10 p(hw)`,
/// `log10 γ(hw)` as the backoff of the order above (0 where `hw` is no
/// context) and the raw count.
fn backoff_tables(probs: &[ByGram], gammas: &[ByGram], raw: &[Vec<(Vec<u32>, u32)>]) -> Vec<Table> {
    let raw_count: Vec<HashMap<&[u32], u32>> = raw
        .iter()
        .map(|v| v.iter().map(|(g, c)| (&g[..], *c)).collect())
        .collect();
    let bos_gram = vec![BOS];
    let mut tables: Vec<Table> = Vec::with_capacity(probs.len());
    for k in 1..=probs.len() {
        let mut rows: Vec<(&Vec<u32>, f64)> = probs[k - 1].iter().map(|(g, p)| (g, *p)).collect();
        if k == 1 {
            // <s> is a context, never predicted: KenLM's convention −99.
            rows.push((&bos_gram, f64::NAN));
        }
        rows.sort_by(|a, b| a.0.cmp(b.0));
        let mut t = Table::default();
        for (g, p) in rows {
            t.keys.push(key(g));
            t.prob
                .push(if p.is_nan() { -99.0 } else { p.log10() as f32 });
            let bo = gammas
                .get(k)
                .and_then(|m| m.get(g))
                .map_or(0.0, |g| g.log10());
            t.backoff.push(bo as f32);
            t.count
                .push(raw_count[k - 1].get(&g[..]).copied().unwrap_or(0));
        }
        tables.push(t);
    }
    tables
}

/// Modified Kneser–Ney discounts `[D1, D2, D3+]` from adjusted counts.
fn discounts(counts: impl Iterator<Item = u32>) -> [f64; 3] {
    let mut t = [0f64; 5];
    for a in counts {
        if (1..=4).contains(&a) {
            t[a as usize] += 1.0;
        }
    }
    let fallback = [0.5, 1.0, 1.5];
    if t[1] == 0.0 || t[2] == 0.0 || t[3] == 0.0 {
        return fallback;
    }
    let y = t[1] / (t[1] + 2.0 * t[2]);
    let d = [
        1.0 - 2.0 * y * t[2] / t[1],
        2.0 - 3.0 * y * t[3] / t[2],
        3.0 - 4.0 * y * t[4] / t[3],
    ];
    if d.iter()
        .enumerate()
        .all(|(i, &x)| x > 0.0 && x < (i + 1) as f64)
    {
        d
    } else {
        fallback
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_highest_order_stays_under_its_bound() {
        // Digits are normalised to 0 by the tokenizer: words from letters.
        let word = |mut i: usize| {
            let mut w = String::from("q");
            while i > 0 {
                w.push((b'a' + (i % 26) as u8) as char);
                i /= 26;
            }
            w
        };
        let text: Vec<String> = (0..2000)
            .map(|i| {
                format!(
                    "{} {} {} common words here",
                    word(i % 97),
                    word(i % 89),
                    word(i)
                )
            })
            .collect();
        let cfg = TrainConfig {
            order: 3,
            min_count: 1,
            max_ngrams: 500,
        };
        let mut e = Estimator::new(cfg).unwrap();
        for t in &text {
            e.add_text(t).unwrap();
            assert!(e.counts[2].len() <= 500);
        }
        assert!(e.pruned_below() >= 1);
        // Frequent trigrams survive, with their counts; the model estimates.
        assert!(e.counts[2].values().any(|&c| c > 1000));
        let m = e.estimate("bounded").unwrap();
        let p = m.perplexity("common words here", crate::lm::Smoothing::Backoff);
        assert!(p.unwrap().is_finite());
        // Unbounded, nothing is dropped.
        let mut u = Estimator::new(TrainConfig {
            max_ngrams: 0,
            ..cfg
        })
        .unwrap();
        for t in &text {
            u.add_text(t).unwrap();
        }
        assert_eq!(u.pruned_below(), 0);
        assert!(u.counts[2].len() > 2000);
    }
}
