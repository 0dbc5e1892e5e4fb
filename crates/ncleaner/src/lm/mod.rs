//! Word n-gram language models (bigram, trigram) for perplexity filtering.
//!
//! The second method of the papers (`004_…`, PyPlexity): split text into
//! sentences ([`tokenize::sentences`]), score each with a word model of
//! well-formed language, drop the sentences whose perplexity is above a
//! cut-off. A [`WordLm`] is a backoff model in the ARPA sense, so that models
//! estimated by KenLM load here ([`WordLm::from_arpa`]) and ours load in
//! KenLM ([`WordLm::write_arpa`]). Estimation ([`estimate`]) is interpolated
//! modified Kneser–Ney; [`Smoothing::PyPlexity`] reproduces PyPlexity's own
//! bigram formula from the raw counts that our model files keep.

#[cfg(feature = "internals")]
pub mod estimate;
pub mod file;
mod json;
pub mod tokenize;

use crate::error::{Error, Result};

#[cfg(feature = "internals")]
pub use estimate::{Estimator, TrainConfig};

/// The id of `<unk>`, every word the model has not seen.
pub const UNK: u32 = 0;
/// The id of `<s>`, the sentence start (context only, never predicted).
pub const BOS: u32 = 1;
/// The id of `</s>`, the sentence end.
pub const EOS: u32 = 2;
/// The highest order this build supports: three word ids are packed into
/// one `u64` key of 21 bits each.
pub const MAX_ORDER: usize = 3;
/// The largest vocabulary (2^21 words, `<unk>`, `<s>`, `</s>` included).
pub const MAX_VOCAB: usize = 1 << BITS;
const BITS: u32 = 21;

/// Packs the ids of an n-gram (oldest first) into a table key.
pub fn key(ids: &[u32]) -> u64 {
    ids.iter().fold(0u64, |k, &id| (k << BITS) | u64::from(id))
}

/// How a sentence's words are scored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum Smoothing {
    /// The model's backoff probabilities (interpolated modified Kneser–Ney
    /// for our models, whatever estimated an ARPA file otherwise):
    /// `log p(w|h) = log p(hw)` if the model has `hw`, else
    /// `backoff(h) + log p(w|h')` with `h'` the context without its oldest word
    /// and `backoff(h) = 0` when the model lacks `h` — KenLM's query rule.
    #[default]
    #[serde(rename = "kneser-ney", alias = "kneser_ney")]
    Backoff,
    /// PyPlexity's bigram formula over raw counts:
    /// `p(w|v) = 0.8·c(v w)/c(v) + 0.2·c(v)/N + 1e-6`, where `N` is the number
    /// of tokens counted (`</s>` included, `<s>` not) and `c(v)` of `<s>` the
    /// number of sentences. It is not a distribution (it ignores `w` when
    /// `v w` is unseen); it is here so that PyPlexity's cut-offs keep their
    /// meaning. Needs a model trained by ncleaner (ARPA files have no counts).
    #[serde(rename = "pyplexity")]
    PyPlexity,
}

impl Smoothing {
    /// The name on the command line, in the web API and in Python
    /// (`kneser-ney`, `pyplexity`); [`str::parse`] reads it back.
    pub fn as_str(self) -> &'static str {
        match self {
            Smoothing::Backoff => "kneser-ney",
            Smoothing::PyPlexity => "pyplexity",
        }
    }
}

impl std::str::FromStr for Smoothing {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Smoothing, String> {
        match s {
            "kneser-ney" | "kneser_ney" => Ok(Smoothing::Backoff),
            "pyplexity" => Ok(Smoothing::PyPlexity),
            _ => Err(format!("{s:?}: give kneser-ney or pyplexity")),
        }
    }
}

/// One order's n-grams, sorted by key.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Table {
    /// Packed ids ([`key`]), ascending.
    pub keys: Vec<u64>,
    /// log10 probability of each n-gram.
    pub prob: Vec<f32>,
    /// log10 backoff weight of each n-gram as a context (0 when none).
    pub backoff: Vec<f32>,
    /// Raw training count (0 for models read from ARPA files).
    pub count: Vec<u32>,
}

impl Table {
    /// The index of an n-gram's key.
    pub fn find(&self, key: u64) -> Option<usize> {
        self.keys.binary_search(&key).ok()
    }

    /// Number of n-grams.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }
}

/// A word n-gram backoff language model.
#[derive(Debug, Clone)]
pub struct WordLm {
    order: usize,
    vocab: Vec<String>,
    /// Word → id; Fx-hashed (SipHash on every scored word shows in a
    /// callgrind profile of `clean`). Pages only look words up; the keys
    /// inserted are the model's vocabulary, so no page can flood it.
    index: rustc_hash::FxHashMap<String, u32>,
    /// `tables[k - 1]` holds the k-grams.
    tables: Vec<Table>,
    /// Tokens counted in training (`</s>` included), 0 when unknown.
    tokens: u64,
    provenance: String,
    /// For each order k ≥ 2, `starts[k - 2][v]`: the index of the first
    /// k-gram whose oldest word is `v` (and the table's length at
    /// `v = vocab.len()`), so that a look-up binary-searches only the
    /// k-grams of one word (a whole-table binary search would be half of
    /// the filter's time).
    starts: Vec<Vec<u32>>,
}

/// One scored word of a sentence.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct WordScore {
    /// The word as scored (normalised), `</s>` for the sentence end.
    pub word: String,
    /// log10 of its probability.
    pub log10: f64,
    /// The length of the n-gram found in the model (0 for PyPlexity's formula).
    pub ngram: usize,
    /// Whether the word is out of the vocabulary.
    pub oov: bool,
}

impl WordLm {
    internal! {
        /// A model from its parts; checks the invariants that scoring relies on.
        pub fn from_parts(
            order: usize,
            vocab: Vec<String>,
            tables: Vec<Table>,
            tokens: u64,
            provenance: String,
            what: &str,
        ) -> Result<WordLm> {
            let bad = |reason: String| Error::BadModel {
                what: what.to_string(),
                reason,
            };
            if !(1..=MAX_ORDER).contains(&order) || tables.len() != order {
                return Err(bad(format!(
                    "order {order}: this build reads orders 1 to {MAX_ORDER}"
                )));
            }
            if vocab.len() > MAX_VOCAB || vocab.len() < 3 {
                return Err(bad(format!("vocabulary of {} words", vocab.len())));
            }
            if vocab[UNK as usize] != "<unk>"
                || vocab[BOS as usize] != "<s>"
                || vocab[EOS as usize] != "</s>"
            {
                return Err(bad("ids 0, 1, 2 must be <unk>, <s>, </s>".into()));
            }
            for (k, t) in tables.iter().enumerate() {
                let n = t.keys.len();
                if t.prob.len() != n || t.backoff.len() != n || t.count.len() != n {
                    return Err(bad(format!(
                        "{}-gram table: columns of unequal length",
                        k + 1
                    )));
                }
                if t.keys.windows(2).any(|w| w[0] >= w[1]) {
                    return Err(bad(format!("{}-gram table: keys not ascending", k + 1)));
                }
                let max = 1u64 << (BITS * (k as u32 + 1));
                if t.keys.last().is_some_and(|&k| k >= max)
                    || t.keys.iter().any(|&key| !ids_ok(key, k + 1, vocab.len()))
                {
                    return Err(bad(format!("{}-gram table: word id out of range", k + 1)));
                }
            }
            if tables[0].find(u64::from(UNK)).is_none() {
                return Err(bad("no <unk> unigram".into()));
            }
            let index = vocab
                .iter()
                .enumerate()
                .map(|(i, w)| (w.clone(), i as u32))
                .collect();
            let starts = tables
                .iter()
                .enumerate()
                .skip(1)
                .map(|(k, t)| {
                    let mut starts = vec![0u32; vocab.len() + 1];
                    for &key in &t.keys {
                        starts[(key >> (BITS * k as u32)) as usize + 1] += 1;
                    }
                    for v in 1..starts.len() {
                        starts[v] += starts[v - 1];
                    }
                    starts
                })
                .collect();
            Ok(WordLm {
                order,
                vocab,
                index,
                tables,
                tokens,
                provenance,
                starts,
            })
        }
    }

    /// The model's order (2 for bigrams, 3 for trigrams).
    pub fn order(&self) -> usize {
        self.order
    }

    /// The vocabulary, by id.
    pub fn vocab(&self) -> &[String] {
        &self.vocab
    }

    internal! {
        /// The k-gram table (`k` from 1).
        pub fn table(&self, k: usize) -> &Table {
            &self.tables[k - 1]
        }
    }

    /// What the model was trained on.
    pub fn provenance(&self) -> &str {
        &self.provenance
    }

    /// The id of a normalised word (`<unk>` when unknown).
    pub fn id(&self, word: &str) -> u32 {
        self.index.get(word).copied().unwrap_or(UNK)
    }

    /// log10 p(w | ctx) by the backoff rule, and the length of the n-gram found.
    /// `ctx` is oldest first; only its last `order - 1` words are used.
    pub(crate) fn log10_prob(&self, ctx: &[u32], w: u32) -> (f64, usize) {
        let ctx = &ctx[ctx.len().saturating_sub(self.order - 1)..];
        let mut backoff = 0.0f64;
        for start in 0..=ctx.len() {
            let h = &ctx[start..];
            let k = h.len() + 1;
            let gram = (key(h) << BITS) | u64::from(w);
            if let Some(i) = self.find(k, gram) {
                return (backoff + f64::from(self.tables[k - 1].prob[i]), k);
            }
            if !h.is_empty()
                && let Some(j) = self.find(h.len(), key(h))
            {
                backoff += f64::from(self.tables[h.len() - 1].backoff[j]);
            }
        }
        // Only reached when `w` is not even a unigram: score it as <unk>.
        let i = self.tables[0]
            .find(u64::from(UNK))
            .expect("checked at load");
        (backoff + f64::from(self.tables[0].prob[i]), 0)
    }

    /// The index of a k-gram's key in its table: unigrams by id when the
    /// table holds every id in order, higher orders within the k-grams of
    /// their oldest word.
    fn find(&self, k: usize, key: u64) -> Option<usize> {
        let t = &self.tables[k - 1];
        if k == 1 {
            let i = key as usize;
            if t.keys.get(i) == Some(&key) {
                return Some(i);
            }
            return t.find(key);
        }
        let first = (key >> (BITS * (k as u32 - 1))) as usize;
        let starts = &self.starts[k - 2];
        let (a, b) = (
            *starts.get(first)? as usize,
            *starts.get(first + 1)? as usize,
        );
        t.keys[a..b].binary_search(&key).ok().map(|i| a + i)
    }

    internal! {
        /// Scores a tokenized sentence: one entry per word and one for `</s>`.
        pub fn score_tokens(&self, tokens: &[String], smoothing: Smoothing) -> Result<Vec<WordScore>> {
            let ids: Vec<u32> = tokens.iter().map(|t| self.id(t)).collect();
            let mut out = Vec::with_capacity(ids.len() + 1);
            let mut ctx: Vec<u32> = vec![BOS];
            for (i, &w) in ids.iter().chain(std::iter::once(&EOS)).enumerate() {
                let (log10, ngram) = match smoothing {
                    Smoothing::Backoff => self.log10_prob(&ctx, w),
                    Smoothing::PyPlexity => {
                        (self.pyplexity_log10(*ctx.last().expect("non-empty"), w)?, 0)
                    }
                };
                out.push(WordScore {
                    word: tokens.get(i).cloned().unwrap_or_else(|| "</s>".into()),
                    log10,
                    ngram,
                    oov: w == UNK,
                });
                ctx.push(w);
                if ctx.len() >= self.order {
                    ctx.remove(0);
                }
            }
            Ok(out)
        }
    }

    fn pyplexity_log10(&self, v: u32, w: u32) -> Result<f64> {
        if self.order < 2 || self.tokens == 0 {
            return Err(Error::Parameter(
                "PyPlexity's formula needs a bigram or trigram model trained by ncleaner (with counts)".into(),
            ));
        }
        let uni = &self.tables[0];
        let cv = uni.find(u64::from(v)).map_or(0, |i| uni.count[i]) as f64;
        let big = &self.tables[1];
        let cvw = big.find(key(&[v, w])).map_or(0, |i| big.count[i]) as f64;
        let cond = if cv > 0.0 { cvw / cv } else { 0.0 };
        let p = 0.8 * cond + 0.2 * cv / self.tokens as f64 + 1e-6;
        Ok(p.log10())
    }

    internal! {
        /// Scores a sentence (raw text) word by word, as [`WordLm::score_tokens`]
        /// scores its tokens ([`tokenize::tokens`]), handing each word's score
        /// to `each` (`</s>` last): one word is held at a time, so a sentence
        /// of any length costs no memory beyond its text.
        pub fn score_each(
            &self,
            sentence: &str,
            smoothing: Smoothing,
            mut each: impl FnMut(WordScore),
        ) -> Result<()> {
            let mut ctx: Vec<u32> = Vec::with_capacity(self.order + 1);
            ctx.push(BOS);
            let words = tokenize::words(sentence).map(Some).chain(std::iter::once(None));
            for word in words {
                let (w, word) = match word {
                    Some(word) => (self.id(&word), word),
                    None => (EOS, "</s>".to_string()),
                };
                let (log10, ngram) = match smoothing {
                    Smoothing::Backoff => self.log10_prob(&ctx, w),
                    Smoothing::PyPlexity => {
                        (self.pyplexity_log10(*ctx.last().expect("non-empty"), w)?, 0)
                    }
                };
                each(WordScore {
                    word,
                    log10,
                    ngram,
                    oov: w == UNK,
                });
                ctx.push(w);
                if ctx.len() >= self.order {
                    ctx.remove(0);
                }
            }
            Ok(())
        }
    }

    internal! {
        /// `ncleaner perplexity --json`'s line of a sentence whose
        /// perplexity is `perplexity`: `{"perplexity", "sentence", "tokens":
        /// [{"log10", "ngram", "oov", "word"}]}`, its words written as they
        /// are scored ([`WordLm::score_each`]).
        pub fn json_line<'a>(
            &'a self,
            sentence: &'a str,
            perplexity: f64,
            smoothing: Smoothing,
        ) -> impl serde::Serialize + 'a {
            json::Line {
                perplexity,
                sentence,
                tokens: json::Tokens {
                    lm: self,
                    sentence,
                    smoothing,
                },
            }
        }
    }

    /// The perplexity of one sentence (raw text): tokenized, padded with
    /// `<s>`/`</s>`, `10^(−mean log10 p)` over its words and `</s>` (KenLM's
    /// definition; with [`Smoothing::PyPlexity`] the same as PyPlexity's
    /// `2^(−mean log2 p)`). Scored word by word ([`WordLm::score_each`]):
    /// no list of the sentence's words is built.
    pub fn perplexity(&self, sentence: &str, smoothing: Smoothing) -> Result<f64> {
        // The sum in the order of [`perplexity_of`]'s, from the same -0.0
        // as `Iterator::sum`, so that the two agree to the bit.
        let (mut sum, mut n) = (-0.0f64, 0usize);
        self.score_each(sentence, smoothing, |s| {
            sum += s.log10;
            n += 1;
        })?;
        Ok(10f64.powf(-sum / n as f64))
    }
}

/// `10^(−mean log10 p)` of scored words.
pub fn perplexity_of(scores: &[WordScore]) -> f64 {
    if scores.is_empty() {
        return 1.0;
    }
    let sum: f64 = scores.iter().map(|s| s.log10).sum();
    10f64.powf(-sum / scores.len() as f64)
}

fn ids_ok(key: u64, k: usize, vocab: usize) -> bool {
    (0..k).all(|i| ((key >> (BITS * i as u32)) & ((1 << BITS) - 1)) < vocab as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "The cat sat on the mat. The dog sat on the log. A cat and a dog met.\n\
        The cat ran. The dog ran to the mat. Home | News | Contact\n\
        It rained on the log. The mat was red. A dog sat. The cat sat.";

    fn model(order: usize, min_count: u32) -> WordLm {
        let mut e = Estimator::new(TrainConfig {
            order,
            min_count,
            max_ngrams: 0,
        })
        .unwrap();
        e.add_text(TEXT).unwrap();
        e.estimate("test").unwrap()
    }

    /// Every context's distribution over the vocabulary (without `<s>`) sums to 1.
    #[test]
    fn distributions_sum_to_one() {
        for (order, min_count) in [(1, 1), (2, 1), (3, 1), (3, 2)] {
            let m = model(order, min_count);
            let words: Vec<u32> = (0..m.vocab().len() as u32).filter(|&w| w != BOS).collect();
            let mut contexts: Vec<Vec<u32>> =
                vec![vec![], vec![BOS], vec![BOS, 5], vec![7, 3], vec![UNK]];
            contexts.extend(words.iter().map(|&w| vec![w]));
            for ctx in contexts {
                let total: f64 = words
                    .iter()
                    .map(|&w| 10f64.powf(m.log10_prob(&ctx, w).0))
                    .sum();
                assert!(
                    (total - 1.0).abs() < 1e-5,
                    "order {order}, context {ctx:?}: sum {total}"
                );
            }
        }
    }

    #[test]
    fn files_round_trip() {
        let m = model(3, 1);
        let b = WordLm::from_bytes(&m.to_bytes(), "test").unwrap();
        assert_eq!(b.tables, m.tables);
        assert_eq!(b.to_bytes(), m.to_bytes());
        let mut arpa = Vec::new();
        m.write_arpa(&mut arpa).unwrap();
        let a = WordLm::from_arpa(&arpa[..], "test").unwrap();
        for s in ["the cat sat on the log .", "an unknown word", "home | news"] {
            let x = m.perplexity(s, Smoothing::Backoff).unwrap();
            let y = a.perplexity(s, Smoothing::Backoff).unwrap();
            assert!((x - y).abs() / x < 1e-9, "{s}: {x} vs {y}");
        }
        for cut in [0, 10, m.to_bytes().len() - 1] {
            assert!(WordLm::from_bytes(&m.to_bytes()[..cut], "t").is_err());
        }
        assert!(
            WordLm::from_arpa(&b"\\data\\\nngram 1=1\n\n\\1-grams:\n-1\tx\n"[..], "t").is_err(),
            "no \\end\\"
        );
    }

    #[test]
    fn well_formed_text_is_less_perplexing() {
        let m = model(3, 1);
        let good = m
            .perplexity("The cat sat on the mat.", Smoothing::Backoff)
            .unwrap();
        let bad = m
            .perplexity("mat the on sat cat The", Smoothing::Backoff)
            .unwrap();
        assert!(good < bad, "{good} vs {bad}");
        let scores = m
            .score_tokens(&tokenize::tokens("the zebra"), Smoothing::Backoff)
            .unwrap();
        assert_eq!(scores.len(), 3, "words and </s>");
        assert!(scores[1].oov && !scores[0].oov);
    }

    /// PyPlexity's bigram formula, checked by hand on the counts.
    #[test]
    fn pyplexity_formula() {
        let m = model(2, 1);
        let the = m.id("the");
        let cat = m.id("cat");
        let c_the = f64::from(m.table(1).count[m.table(1).find(u64::from(the)).unwrap()]);
        let c_the_cat = f64::from(m.table(2).count[m.table(2).find(key(&[the, cat])).unwrap()]);
        let n = m.tokens as f64;
        let expect = (0.8 * c_the_cat / c_the + 0.2 * c_the / n + 1e-6).log10();
        let got = m.pyplexity_log10(the, cat).unwrap();
        assert!((expect - got).abs() < 1e-12);
        assert_eq!(c_the, 10.0, "\"the\" occurs 10 times (lowercased)");
        let arpa = {
            let mut v = Vec::new();
            m.write_arpa(&mut v).unwrap();
            WordLm::from_arpa(&v[..], "t").unwrap()
        };
        assert!(
            arpa.perplexity("the cat", Smoothing::PyPlexity).is_err(),
            "ARPA files have no counts"
        );
    }
}
