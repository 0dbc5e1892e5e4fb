//! Fast scoring: per-character log-odds from precomputed tables.
//!
//! Write S_k(c | h) = Σ_{j=1..k} q^{k−j} P_j(c | h_j) for the un-normalised
//! interpolation of orders 1 … k, so that S_k = P_k + q · S_{k−1} and the
//! interpolated probability is (1−q)/(1−q^n) · S_n. The normalising factor is
//! the same for the clean and the dirty model and cancels in the log-odds
//! L_n(c | h) = log2 S_n^clean − log2 S_n^dirty. Where neither model has seen
//! the n-gram hc, P_n = 0 in both and L_n(c | h) = L_{n−1}(c | h without its
//! oldest symbol): the log-odds of an unseen n-gram are those of its longest
//! seen suffix. So the scorer keeps
//!
//! - a dense table of L_d over all V^d d-grams, d = min(n, 3) (for the
//!   lexical trigram model that is the whole model: 96³ × 4 bytes = 3.5 MB);
//! - for each order k in d+1 … n, a hash map of L_k for the k-grams seen by
//!   either model;
//!
//! and scores a character with at most n − d + 1 lookups, exactly.

use rustc_hash::FxHashMap as HashMap;

use super::{Estimates, Model, Sym};

/// Highest order tabulated densely.
const DENSE_MAX: usize = 3;

/// Symbols read at a time by [`Scorer::score_with_len`] before they are scored.
const SCORE_CHUNK: usize = 256;

/// Precomputed log-odds tables of a model; see the module documentation.
#[derive(Debug, Clone)]
pub struct Scorer {
    n: usize,
    d: usize,
    v: usize,
    alphabet: super::Alphabet,
    /// L_d indexed by the base-V number of the last d symbols.
    dense: Vec<f32>,
    /// `sparse[k - d - 1]`: L_k by packed k-gram, orders d+1 … n.
    sparse: Vec<HashMap<u64, f32>>,
}

impl crate::classify::SegmentScorer for Scorer {
    fn score_with_len(&self, text: &str) -> (f64, usize) {
        Scorer::score_with_len(self, text)
    }
}

impl Scorer {
    /// Builds the tables of a model.
    pub fn build(model: &Model) -> Scorer {
        let (clean, dirty) = model.estimates();
        let n = model.meta.n;
        let q = model.meta.q;
        let v = model.meta.alphabet.size();
        let d = n.min(DENSE_MAX);
        let dense = dense_log_odds(&clean, &dirty, d, v, q);
        // S_d of each model, which the sparse orders back off to (a model
        // of order d has none, and needs no table of them).
        let (sc, sd) = if n > d {
            (dense_s(&clean, d, v, q), dense_s(&dirty, d, v, q))
        } else {
            (Vec::new(), Vec::new())
        };

        let mut sparse = Vec::new();
        // S_k of both models for the k-grams seen by either, built upwards;
        // `s_c[k - d - 1]` holds order k.
        let mut s_c: Vec<HashMap<u64, f64>> = Vec::new();
        let mut s_d: Vec<HashMap<u64, f64>> = Vec::new();
        for k in (d + 1)..=n {
            // Each key's value depends on lower orders only, so any order
            // of the keys will do (sorting them to drop duplicates was a
            // quarter of the start-up time of `clean`).
            let (seen_c, seen_d) = (&clean.orders[k - 1], &dirty.orders[k - 1]);
            let mut keys: Vec<u64> = seen_c.keys().copied().collect();
            keys.extend(seen_d.keys().filter(|key| !seen_c.contains_key(key)));
            let room = if k < n { keys.len() } else { 0 };
            let mut cur_c = HashMap::with_capacity_and_hasher(room, Default::default());
            let mut cur_d = HashMap::with_capacity_and_hasher(room, Default::default());
            let mut l = HashMap::with_capacity_and_hasher(keys.len(), Default::default());
            for key in keys {
                let c = Interp {
                    est: &clean,
                    q,
                    d,
                    v,
                    dense: &sc,
                    seen: &s_c,
                };
                let dd = Interp {
                    est: &dirty,
                    q,
                    d,
                    v,
                    dense: &sd,
                    seen: &s_d,
                };
                let (a, b) = (c.s(key, k), dd.s(key, k));
                if k < n {
                    // Only higher orders read S_k (keeping the top order's
                    // would add a third to building the non-lexical model's tables).
                    cur_c.insert(key, a);
                    cur_d.insert(key, b);
                }
                l.insert(key, (a.log2() - b.log2()) as f32);
            }
            sparse.push(l);
            s_c.push(cur_c);
            s_d.push(cur_d);
        }
        Scorer {
            n,
            d,
            v,
            alphabet: model.meta.alphabet,
            dense,
            sparse,
        }
    }

    /// The log-odds of a whole segment in bits (boundaries included).
    pub fn score(&self, text: &str) -> f64 {
        self.score_with_len(text).0
    }

    /// The log-odds of a segment and the number of predicted symbols.
    pub fn score_with_len(&self, text: &str) -> (f64, usize) {
        let b = self.alphabet.boundary();
        let (v, d) = (self.v, self.d);
        let vd = v.pow(d as u32);
        // The weight of the oldest of the d symbols in the dense index.
        let hi = vd / v;
        let mut key: u64 = 0;
        let mut idx: usize = 0;
        for _ in 0..self.n - 1 {
            key = (key << 7) | b as u64;
            idx = (idx * v + b as usize) % vd;
        }
        let mut total = 0.0f64;
        let mut count = 0usize;
        let mut symbols = Symbols {
            text,
            at: 0,
            ascii: self.alphabet.ascii_table(),
            alphabet: self.alphabet,
            boundary: Some(b),
        };
        // The symbols (and the closing boundary) are read a chunk at a
        // time into a buffer on the stack, and the chunk is then scored in
        // a loop of its own: the same sums in the same order, bit for bit.
        // Split so, each loop stays small enough for the compiler to keep
        // its state in registers; reading and scoring in one loop takes
        // about twice the time of the two.
        // The next dense index drops the oldest symbol by subtraction (it
        // sits in `key`, d symbols back; 0 while fewer than d are in), not
        // by a `%` per character: a division would be most of the loop's time.
        let mut chunk: [Sym; SCORE_CHUNK] = [b; SCORE_CHUNK];
        loop {
            let mut len = 0;
            while len < SCORE_CHUNK {
                match symbols.next() {
                    Some(s) => {
                        chunk[len] = s;
                        len += 1;
                    }
                    None => break,
                }
            }
            for &s in &chunk[..len] {
                let oldest = ((key >> (7 * (d - 1))) & 0x7f) as usize;
                key = (key << 7) | s as u64;
                idx = (idx - oldest * hi) * v + s as usize;
                total += self.lookup(key, idx) as f64;
            }
            count += len;
            if len < SCORE_CHUNK {
                return (total, count);
            }
        }
    }

    /// The tables as the binary model file stores them (format 3,
    /// [`super::file`]), so that loading a model does not rebuild them
    /// (rebuilding them for the two embedded models would double `clean`'s
    /// start-up): n, d and V as varints; the dense table as one base row of
    /// V^(d−1) values (for each suffix, the value most of its V entries
    /// hold: the log-odds of the d-grams neither model saw) and the entries
    /// that differ from it, by ascending index (varint delta, f32 bits);
    /// then each sparse order's entries by ascending key (varint delta, f32
    /// bits). Every value is written as its bits: read back, the tables are
    /// the very ones [`Scorer::build`] makes.
    pub(crate) fn write(&self, out: &mut Vec<u8>) {
        use super::varint::put_varint;
        for x in [self.n, self.d, self.v] {
            put_varint(out, x as u64);
        }
        let row = self.dense.len() / self.v;
        let mut base = Vec::with_capacity(row);
        let mut column = Vec::with_capacity(self.v);
        for s in 0..row {
            column.clear();
            column.extend((0..self.v).map(|o| self.dense[o * row + s].to_bits()));
            column.sort_unstable();
            // The most frequent value (the smallest among equals).
            let (mut best, mut best_n, mut i) = (column[0], 0, 0);
            while i < column.len() {
                let j = i + column[i..].iter().take_while(|&&b| b == column[i]).count();
                if j - i > best_n {
                    (best, best_n) = (column[i], j - i);
                }
                i = j;
            }
            base.push(best);
        }
        for b in &base {
            out.extend_from_slice(&b.to_le_bytes());
        }
        let differ: Vec<usize> = (0..self.dense.len())
            .filter(|&i| self.dense[i].to_bits() != base[i % row])
            .collect();
        put_varint(out, differ.len() as u64);
        let mut prev = 0;
        for i in differ {
            put_varint(out, (i - prev) as u64);
            out.extend_from_slice(&self.dense[i].to_bits().to_le_bytes());
            prev = i;
        }
        for table in &self.sparse {
            let mut entries: Vec<(u64, f32)> = table.iter().map(|(&k, &l)| (k, l)).collect();
            entries.sort_unstable_by_key(|e| e.0);
            put_varint(out, entries.len() as u64);
            let mut prev = 0;
            for (key, l) in entries {
                put_varint(out, key - prev);
                out.extend_from_slice(&l.to_bits().to_le_bytes());
                prev = key;
            }
        }
    }

    /// Reads the tables [`Scorer::write`] wrote, for a model of order `n`
    /// over `alphabet`; errors name what does not fit (a truncated or
    /// corrupt file, tables of another model's shape).
    pub(crate) fn read(
        bytes: &[u8],
        n: usize,
        alphabet: super::Alphabet,
    ) -> std::result::Result<Scorer, String> {
        use super::varint::get_varint;
        let mut pos = 0;
        let v = alphabet.size();
        let d = n.min(DENSE_MAX);
        for (what, want) in [("n", n), ("d", d), ("V", v)] {
            let got = get_varint(bytes, &mut pos)?;
            if got != want as u64 {
                return Err(format!("scorer tables for {what} = {got}, not {want}"));
            }
        }
        let f32_at = |pos: &mut usize| -> std::result::Result<f32, String> {
            let b = bytes.get(*pos..*pos + 4).ok_or("truncated scorer tables")?;
            *pos += 4;
            Ok(f32::from_bits(u32::from_le_bytes(
                b.try_into().expect("4 bytes"),
            )))
        };
        let row = v.pow(d as u32 - 1);
        let mut base = Vec::with_capacity(row);
        for _ in 0..row {
            base.push(f32_at(&mut pos)?);
        }
        let mut dense = Vec::with_capacity(row * v);
        for _ in 0..v {
            dense.extend_from_slice(&base);
        }
        let differ = get_varint(bytes, &mut pos)?;
        if differ > dense.len() as u64 {
            return Err("more dense entries than the table has".into());
        }
        let mut i = 0u64;
        for _ in 0..differ {
            i = i.saturating_add(get_varint(bytes, &mut pos)?);
            let l = f32_at(&mut pos)?;
            *dense
                .get_mut(usize::try_from(i).unwrap_or(usize::MAX))
                .ok_or("a dense entry past the table")? = l;
        }
        let mut sparse = Vec::with_capacity(n - d);
        for k in (d + 1)..=n {
            let len = get_varint(bytes, &mut pos)?;
            if len > (bytes.len() - pos) as u64 {
                return Err("a sparse table longer than the file".into());
            }
            let mut table = HashMap::with_capacity_and_hasher(len as usize, Default::default());
            let mut key = 0u64;
            for _ in 0..len {
                key = key
                    .checked_add(get_varint(bytes, &mut pos)?)
                    .ok_or("key overflow")?;
                super::check_key(key, k, v as u64)?;
                table.insert(key, f32_at(&mut pos)?);
            }
            sparse.push(table);
        }
        if pos != bytes.len() {
            return Err(format!(
                "{} bytes after the scorer tables",
                bytes.len() - pos
            ));
        }
        Ok(Scorer {
            n,
            d,
            v,
            alphabet,
            dense,
            sparse,
        })
    }

    #[inline]
    fn lookup(&self, key: u64, idx: usize) -> f32 {
        for k in (self.d + 1..=self.n).rev() {
            let kk = key & ((1u64 << (7 * k)) - 1);
            if let Some(&l) = self.sparse[k - self.d - 1].get(&kk) {
                return l;
            }
        }
        self.dense[idx]
    }
}

/// L_d = log2 S_d^clean − log2 S_d^dirty over the dense table. Most d-grams
/// are seen by neither model, so their S are q·S_{d−1} of their suffix in
/// both, the same pair of numbers for every oldest symbol: the table is
/// filled with each suffix's log-odds, computed once, and the d-grams seen
/// by either model get their own, S = q·S_{d−1} + P_d. These are the very
/// sums and log2s of building each model's table of S_d and taking the
/// log-odds entry by entry, bit for bit, without the two tables of f64
/// (14 MB for the lexical trigram model, built and read for nothing at
/// every start).
fn dense_log_odds(clean: &Estimates, dirty: &Estimates, d: usize, v: usize, q: f64) -> Vec<f32> {
    if d < 2 {
        let (sc, sd) = (dense_s(clean, d, v, q), dense_s(dirty, d, v, q));
        return sc
            .iter()
            .zip(&sd)
            .map(|(&c, &dd)| (c.log2() - dd.log2()) as f32)
            .collect();
    }
    let (lc, ld) = (dense_s(clean, d - 1, v, q), dense_s(dirty, d - 1, v, q));
    let lower = lc.len();
    let unseen: Vec<f32> = lc
        .iter()
        .zip(&ld)
        .map(|(&c, &dd)| ((q * c).log2() - (q * dd).log2()) as f32)
        .collect();
    let mut table = Vec::with_capacity(v * lower);
    for _ in 0..v {
        table.extend_from_slice(&unseen);
    }
    let (pc, pd) = (&clean.orders[d - 1], &dirty.orders[d - 1]);
    let seen = pc
        .keys()
        .chain(pd.keys().filter(|key| !pc.contains_key(key)));
    for &key in seen {
        let idx = dense_index(key, d, v);
        let suffix = idx % lower;
        // `x + 0.0` is `x` for the positive S here: an unseen d-gram's S
        // is exactly q·S_{d−1}, as in the table of S_d.
        let c = q * lc[suffix] + pc.get(&key).copied().unwrap_or(0.0);
        let dd = q * ld[suffix] + pd.get(&key).copied().unwrap_or(0.0);
        table[idx] = (c.log2() - dd.log2()) as f32;
    }
    table
}

/// The symbols of a text and then the closing boundary; ASCII (most text)
/// a byte at a time, without decoding characters.
struct Symbols<'a> {
    text: &'a str,
    at: usize,
    ascii: &'static [Sym; 128],
    alphabet: super::Alphabet,
    boundary: Option<Sym>,
}

impl Iterator for Symbols<'_> {
    type Item = Sym;

    #[inline]
    fn next(&mut self) -> Option<Sym> {
        let bytes = self.text.as_bytes();
        match bytes.get(self.at) {
            Some(&b) if b.is_ascii() => {
                self.at += 1;
                Some(self.ascii[b as usize])
            }
            Some(_) => {
                let c = self.text[self.at..].chars().next()?;
                self.at += c.len_utf8();
                Some(self.alphabet.symbol(c))
            }
            None => self.boundary.take(),
        }
    }
}

/// Dense S_d over all V^d d-grams (index: base-V number, oldest symbol first).
fn dense_s(est: &Estimates, d: usize, v: usize, q: f64) -> Vec<f64> {
    let mut s: Vec<f64> = est.unigram.clone();
    for k in 2..=d {
        let size = v.pow(k as u32);
        let lower = v.pow(k as u32 - 1);
        let mut next = vec![0.0; size];
        for (idx, slot) in next.iter_mut().enumerate() {
            // The suffix without the oldest symbol.
            let suffix = idx % lower;
            *slot = q * s[suffix];
        }
        for (&key, &p) in &est.orders[k - 1] {
            next[dense_index(key, k, v)] += p;
        }
        s = next;
    }
    s
}

/// The base-V index of a packed k-gram.
fn dense_index(key: u64, k: usize, v: usize) -> usize {
    let mut idx = 0usize;
    for i in (0..k).rev() {
        idx = idx * v + ((key >> (7 * i)) & 0x7f) as usize;
    }
    idx
}

/// The un-normalised interpolation S_k of one model, given the dense S_d
/// and the S_k already computed for the seen k-grams of orders d+1 … k−1.
struct Interp<'a> {
    est: &'a Estimates,
    q: f64,
    d: usize,
    v: usize,
    dense: &'a [f64],
    /// `seen[j - d - 1]`: S_j of the j-grams seen by either model.
    seen: &'a [HashMap<u64, f64>],
}

impl Interp<'_> {
    /// S_k of the packed k-gram `key` (k > d): P_k + q · S_{k−1} of its suffix.
    fn s(&self, key: u64, k: usize) -> f64 {
        let p = self.est.orders[k - 1].get(&key).copied().unwrap_or(0.0);
        p + self.q * self.lower(key & ((1u64 << (7 * (k - 1))) - 1), k - 1)
    }

    /// S_k of a k-gram for k < the order being built.
    fn lower(&self, key: u64, k: usize) -> f64 {
        if k == self.d {
            return self.dense[dense_index(key, k, self.v)];
        }
        match self.seen[k - self.d - 1].get(&key) {
            Some(&s) => s,
            // Seen by neither model at order k: P_k = 0 in both.
            None => self.q * self.lower(key & ((1u64 << (7 * (k - 1))) - 1), k - 1),
        }
    }
}

/// The interpolated log2-probability of a text under one model's estimates,
/// by direct evaluation of equation 1 (slow; for tests and cross-entropy).
pub fn log2_prob(
    est: &Estimates,
    alphabet: super::Alphabet,
    n: usize,
    q: f64,
    text: &str,
) -> (f64, usize) {
    let b = alphabet.boundary();
    let mut seq: Vec<Sym> = vec![b; n - 1];
    seq.extend(text.chars().map(|c| alphabet.symbol(c)));
    seq.push(b);
    let norm = (1.0 - q) / (1.0 - q.powi(n as i32));
    let mut total = 0.0;
    for i in (n - 1)..seq.len() {
        let mut s = 0.0;
        for k in 1..=n {
            let p = if k == 1 {
                est.unigram[seq[i] as usize]
            } else {
                est.orders[k - 1]
                    .get(&super::pack(&seq[i + 1 - k..=i]))
                    .copied()
                    .unwrap_or(0.0)
            };
            s += q.powi((n - k) as i32) * p;
        }
        total += (norm * s).log2();
    }
    (total, seq.len() + 1 - n)
}

#[cfg(test)]
mod tests {
    use super::super::*;
    use super::*;

    fn toy(n: usize, alphabet: Alphabet) -> Model {
        let pages = vec![
            TrainingPage {
                name: "a".into(),
                raw: vec![
                    "The quick brown fox jumps over the lazy dog.".into(),
                    "Home | About us | Contact".into(),
                    "Copyright 2007 Example Inc. All rights reserved.".into(),
                    "It was the best of times, it was the worst of times.".into(),
                ],
                clean: vec![
                    "The quick brown fox jumps over the lazy dog.".into(),
                    "It was the best of times, it was the worst of times.".into(),
                ],
            },
            TrainingPage {
                name: "b".into(),
                raw: vec![
                    "Click here to subscribe!".into(),
                    "A sentence of running text, with commas.".into(),
                ],
                clean: vec!["A sentence of running text, with commas.".into()],
            },
        ];
        train(
            &pages,
            &TrainOptions {
                n,
                q: 0.45,
                alphabet,
            },
            "toy",
        )
        .unwrap()
    }

    /// The table-driven scorer equals the direct evaluation of equation 1.
    #[test]
    fn scorer_matches_direct_formula() {
        for (n, alpha) in [
            (1, Alphabet::Lexical),
            (2, Alphabet::Lexical),
            (3, Alphabet::Lexical),
            (5, Alphabet::Lexical),
            (6, Alphabet::NonLexical),
            (8, Alphabet::Lexical),
        ] {
            let m = toy(n, alpha);
            let (c, d) = m.estimates();
            for text in [
                "Click here to subscribe!",
                "the lazy dog",
                "Copyright © 2008 ½",
                "",
                "zzzz qqq ~~~",
                "It was the best",
            ] {
                let (lc, nc) = log2_prob(&c, alpha, n, m.meta.q, text);
                let (ld, _) = log2_prob(&d, alpha, n, m.meta.q, text);
                let (fast, nf) = m.scorer().score_with_len(text);
                assert_eq!(nc, nf);
                assert!(
                    (fast - (lc - ld)).abs() < 1e-3 * (1.0 + (lc - ld).abs()),
                    "n={n} {text:?}: {fast} vs {}",
                    lc - ld
                );
            }
        }
    }

    /// The reference for the scorer's loop: one loop that reads and scores
    /// each symbol, without the chunks.
    fn one_loop(s: &Scorer, text: &str) -> (f64, usize) {
        let b = s.alphabet.boundary();
        let (v, d) = (s.v, s.d);
        let vd = v.pow(d as u32);
        let hi = vd / v;
        let (mut key, mut idx) = (0u64, 0usize);
        for _ in 0..s.n - 1 {
            key = (key << 7) | b as u64;
            idx = (idx * v + b as usize) % vd;
        }
        let (mut total, mut count) = (0.0f64, 0usize);
        let symbols = Symbols {
            text,
            at: 0,
            ascii: s.alphabet.ascii_table(),
            alphabet: s.alphabet,
            boundary: Some(b),
        };
        for sym in symbols {
            let oldest = ((key >> (7 * (d - 1))) & 0x7f) as usize;
            key = (key << 7) | sym as u64;
            idx = (idx - oldest * hi) * v + sym as usize;
            total += s.lookup(key, idx) as f64;
            count += 1;
        }
        (total, count)
    }

    /// Read a chunk at a time, the symbols give the very sums of one loop
    /// over them, bit for bit, whatever the text's length against the
    /// chunk's (empty, one short, exactly one, one over, several), with
    /// non-ASCII characters across the chunk's edge, for both embedded
    /// models (one dense, one with sparse orders) and toy models of other orders.
    #[test]
    fn chunked_scoring_is_the_one_loop_sum() {
        let mut texts: Vec<String> = vec![String::new(), "a".into(), "Copyright © 2008 ½".into()];
        for len in [
            SCORE_CHUNK - 2,
            SCORE_CHUNK - 1,
            SCORE_CHUNK,
            SCORE_CHUNK + 1,
            3 * SCORE_CHUNK + 7,
        ] {
            texts.push(
                "The quick brown fox, jumps! "
                    .chars()
                    .cycle()
                    .take(len)
                    .collect(),
            );
            texts.push("Ünïcödé — text ½ ".chars().cycle().take(len).collect());
        }
        let mut models: Vec<Model> = ["en", "en-nonlex"]
            .iter()
            .map(|name| crate::model::file::embedded(name).unwrap())
            .collect();
        models.push(toy(1, Alphabet::Lexical));
        models.push(toy(5, Alphabet::Lexical));
        models.push(toy(8, Alphabet::NonLexical));
        for m in &models {
            for t in &texts {
                let (a, n) = m.scorer().score_with_len(t);
                let (b, k) = one_loop(m.scorer(), t);
                assert_eq!((a.to_bits(), n), (b.to_bits(), k), "n={} {t:?}", m.meta.n);
            }
        }
    }

    /// The dense table filled per suffix is, bit for bit, log2 of each
    /// model's S_d entry by entry (the construction it replaced), for toy
    /// models of every order and for the embedded models.
    #[test]
    fn dense_table_is_the_entrywise_log_odds() {
        let entrywise = |m: &Model| -> Vec<u32> {
            let (c, d) = m.estimates();
            let (v, q) = (m.meta.alphabet.size(), m.meta.q);
            let dn = m.meta.n.min(DENSE_MAX);
            let (sc, sd) = (dense_s(&c, dn, v, q), dense_s(&d, dn, v, q));
            sc.iter()
                .zip(&sd)
                .map(|(&c, &d)| ((c.log2() - d.log2()) as f32).to_bits())
                .collect()
        };
        let mut models: Vec<Model> = [1, 2, 3, 5]
            .into_iter()
            .map(|n| toy(n, Alphabet::Lexical))
            .collect();
        models.push(toy(6, Alphabet::NonLexical));
        models.push(crate::model::file::embedded("en").unwrap());
        models.push(crate::model::file::embedded("en-nonlex").unwrap());
        for m in &models {
            let table: Vec<u32> = m.scorer().dense.iter().map(|l| l.to_bits()).collect();
            assert_eq!(table, entrywise(m), "n={}", m.meta.n);
        }
    }

    /// The tables bit for bit, to compare two scorers.
    fn bits(s: &Scorer) -> (Vec<u32>, Vec<Vec<(u64, u32)>>) {
        let sparse = s
            .sparse
            .iter()
            .map(|t| {
                let mut e: Vec<(u64, u32)> = t.iter().map(|(&k, &l)| (k, l.to_bits())).collect();
                e.sort_unstable();
                e
            })
            .collect();
        (s.dense.iter().map(|l| l.to_bits()).collect(), sparse)
    }

    /// Written and read back, the tables are the ones `build` makes, and a
    /// binary model file carries them: loading it builds nothing.
    #[test]
    fn stored_tables_are_the_built_ones() {
        for (n, alpha) in [
            (1, Alphabet::Lexical),
            (3, Alphabet::Lexical),
            (5, Alphabet::Lexical),
            (6, Alphabet::NonLexical),
        ] {
            let m = toy(n, alpha);
            let built = Scorer::build(&m);
            let mut b = Vec::new();
            built.write(&mut b);
            let read = Scorer::read(&b, n, alpha).unwrap();
            assert_eq!(bits(&read), bits(&built), "n={n}");
            // Tables of another shape, and cut ones, are errors.
            assert!(Scorer::read(&b, n + 1, alpha).is_err());
            for cut in [0, 1, b.len() / 2, b.len() - 1] {
                assert!(
                    Scorer::read(&b[..cut], n, alpha).is_err(),
                    "n={n} cut {cut}"
                );
            }
            let loaded = Model::from_bytes(&m.to_binary(), "x").unwrap();
            let stored = loaded.scorer.get().expect("the file's tables are read");
            assert_eq!(bits(stored), bits(&built), "n={n}");
        }
    }

    /// A file of format 2 (no tables) still loads, and builds the same tables.
    #[test]
    fn files_without_tables_build_them() {
        let m = toy(5, Alphabet::Lexical);
        let mut v3 = m.to_binary();
        let mut tables = Vec::new();
        m.scorer().write(&mut tables);
        let mut len = Vec::new();
        super::super::varint::put_varint(&mut len, tables.len() as u64);
        v3.truncate(v3.len() - tables.len() - len.len());
        let mut v2 = v3;
        v2[4..8].copy_from_slice(&2u32.to_le_bytes());
        let header = String::from_utf8_lossy(&v2[12..40]).into_owned();
        assert!(header.starts_with("ncleaner-model 4\n"), "{header}");
        v2[12 + "ncleaner-model ".len()] = b'2';
        let old = Model::from_bytes(&v2, "x").unwrap();
        assert!(old.scorer.get().is_none(), "nothing stored, nothing read");
        assert_eq!(bits(old.scorer()), bits(m.scorer()));
    }

    proptest::proptest! {
        /// Any bytes read as tables give tables or an error, never a panic.
        #[test]
        fn reading_any_bytes_never_panics(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..300)) {
            for (n, alpha) in [(1, Alphabet::Lexical), (5, Alphabet::NonLexical)] {
                let _ = Scorer::read(&bytes, n, alpha);
            }
        }
    }

    #[test]
    fn clean_text_scores_above_boilerplate() {
        let m = toy(3, Alphabet::Lexical);
        assert!(m.score("It was the worst of times.") > 0.0);
        assert!(m.score("Home | Contact | About us") < 0.0);
    }

    #[test]
    fn probabilities_are_normalised() {
        // Σ_c P(c | h) = 1 for the clean model, for a few histories.
        let m = toy(3, Alphabet::Lexical);
        let (c, _) = m.estimates();
        let a = Alphabet::Lexical;
        let q = m.meta.q;
        let norm = (1.0 - q) / (1.0 - q.powi(3));
        for h in ["th", "e ", "zq"] {
            let hs: Vec<Sym> = h.chars().map(|ch| a.symbol(ch)).collect();
            let mut sum = 0.0;
            for s in 0..a.size() as Sym {
                let tri = pack(&[hs[0], hs[1], s]);
                let bi = pack(&[hs[1], s]);
                let p3 = c.orders[2].get(&tri).copied().unwrap_or(0.0);
                let p2 = c.orders[1].get(&bi).copied().unwrap_or(0.0);
                sum += norm * (p3 + q * p2 + q * q * c.unigram[s as usize]);
            }
            // histories never seen lose the mass of the unseen orders
            assert!(sum <= 1.0 + 1e-9);
            if h != "zq" {
                assert!((sum - 1.0).abs() < 1e-9, "{h}: {sum}");
            }
        }
    }
}
