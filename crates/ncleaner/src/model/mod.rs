//! The character n-gram models of the paper's §3, and their files.
//!
//! A [`Model`] is a pair of character n-gram models, "clean" and "dirty".
//! This module is pure data and arithmetic: it knows nothing of HTML and does
//! no I/O beyond reading and writing model files.
//!
//! The paper's choices, and ours where it is silent:
//!
//! - **Alphabet.** [`Alphabet::Lexical`]: the printable ASCII characters, case
//!   kept, with every other character folded to `~`. [`Alphabet::NonLexical`]:
//!   the same, then every letter mapped to `a` and every digit to `0`; letters
//!   and digits outside ASCII count as letters and digits too (`é` → `a`), so
//!   that the model can serve other European languages, its reason to exist.
//! - **Segment boundaries** (not in the paper): every segment is padded with
//!   n−1 boundary symbols before its first character and one after its last,
//!   and the boundary after it is predicted like a character. The models thus
//!   learn how clean and dirty segments begin and end (`©`, `»`, a final
//!   full stop).
//! - **Estimates.** Order-k maximum-likelihood estimates
//!   P_k(c | h) = f(hc) / Σ_x f(hx) (0 where the history was never seen); the
//!   unigram estimate add-one smoothed, P_1(c) = (f(c) + 1) / (N + V) with V
//!   the alphabet size (boundary included).
//! - **Interpolation** (equation 1 of the paper):
//!   P(c | h) = (1−q)/(1−q^n) · Σ_{k=1..n} q^{n−k} · P_k(c | last k−1 of h).
//! - **Differential training** of the dirty model (the paper's only option,
//!   the gold text not being aligned with the pages): dirty counts are raw-dump
//!   counts minus clean counts, clamped at 0, for every k-gram; the history
//!   total is the raw total minus the clean total, and a resulting estimate
//!   above 1 is clamped to 1: the "deficient" model of StupidOS §3.2.
//! - **Decision.** A segment's score is log2 P_clean(segment) − log2
//!   P_dirty(segment) in bits; the paper deletes the segment when the dirty
//!   model gives the higher probability, i.e. when the score is below 0.

mod file;
mod scorer;
mod varint;

pub(crate) use file::embedded_meta;
pub use file::{EMBEDDED, embedded};
pub use scorer::Scorer;
pub use scorer::log2_prob;

use rustc_hash::FxHashMap as HashMap;
use std::sync::OnceLock;

use crate::error::{Error, Result};

/// Highest n-gram order supported (k-grams are packed into 64-bit keys).
pub const MAX_ORDER: usize = 8;

/// How characters are folded before the models see them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Alphabet {
    /// Printable ASCII, case kept; everything else `~`.
    Lexical,
    /// As lexical, then letters → `a`, digits → `0`.
    NonLexical,
}

impl Alphabet {
    /// The name used in model files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Alphabet::Lexical => "lexical",
            Alphabet::NonLexical => "non-lexical",
        }
    }

    /// Parses [`Alphabet::name`].
    pub fn from_name(s: &str) -> Option<Alphabet> {
        match s {
            "lexical" => Some(Alphabet::Lexical),
            "non-lexical" | "nonlexical" => Some(Alphabet::NonLexical),
            _ => None,
        }
    }

    /// The characters of the alphabet in symbol order; the boundary symbol
    /// (written `\n`) comes last.
    pub fn symbols(self) -> &'static [u8] {
        static LEX: OnceLock<Vec<u8>> = OnceLock::new();
        static NONLEX: OnceLock<Vec<u8>> = OnceLock::new();
        match self {
            Alphabet::Lexical => LEX.get_or_init(|| {
                let mut v: Vec<u8> = (0x20..=0x7e).collect();
                v.push(b'\n');
                v
            }),
            Alphabet::NonLexical => NONLEX.get_or_init(|| {
                let mut v: Vec<u8> = (0x20..=0x7e)
                    .filter(|c: &u8| !c.is_ascii_alphanumeric() || *c == b'a' || *c == b'0')
                    .collect();
                v.push(b'\n');
                v
            }),
        }
    }

    /// Number of symbols, boundary included (the V of add-one smoothing).
    pub fn size(self) -> usize {
        self.symbols().len()
    }

    /// The boundary symbol's id.
    pub fn boundary(self) -> Sym {
        (self.size() - 1) as Sym
    }

    /// The folding of ASCII bytes to symbol ids.
    pub(crate) fn ascii_table(self) -> &'static [Sym; 128] {
        static LEX: OnceLock<[Sym; 128]> = OnceLock::new();
        static NONLEX: OnceLock<[Sym; 128]> = OnceLock::new();
        let build = |alpha: Alphabet| {
            let syms = alpha.symbols();
            let id = |b: u8| syms.iter().position(|&s| s == b).expect("in alphabet") as Sym;
            let mut t = [0 as Sym; 128];
            for (b, slot) in t.iter_mut().enumerate() {
                let b = b as u8;
                let folded = match alpha {
                    Alphabet::NonLexical if b.is_ascii_alphabetic() => b'a',
                    Alphabet::NonLexical if b.is_ascii_digit() => b'0',
                    _ if (0x20..=0x7e).contains(&b) => b,
                    _ => b'~',
                };
                *slot = id(folded);
            }
            t
        };
        match self {
            Alphabet::Lexical => LEX.get_or_init(|| build(Alphabet::Lexical)),
            Alphabet::NonLexical => NONLEX.get_or_init(|| build(Alphabet::NonLexical)),
        }
    }

    /// The symbol id of one character.
    #[inline]
    pub fn symbol(self, c: char) -> Sym {
        if c.is_ascii() {
            return self.ascii_table()[c as usize];
        }
        match self {
            Alphabet::NonLexical if c.is_alphabetic() => self.ascii_table()[b'a' as usize],
            Alphabet::NonLexical if c.is_numeric() => self.ascii_table()[b'0' as usize],
            _ => self.ascii_table()[b'~' as usize],
        }
    }

    /// The folded form of a text, as the models see it (for display and tests).
    pub fn fold(self, text: &str) -> String {
        let syms = self.symbols();
        text.chars()
            .map(|c| syms[self.symbol(c) as usize] as char)
            .collect()
    }
}

/// A symbol id: an index into [`Alphabet::symbols`].
pub type Sym = u8;

/// Packs a k-gram of symbol ids into a key (7 bits per symbol, oldest first).
#[inline]
pub fn pack(syms: &[Sym]) -> u64 {
    syms.iter().fold(0u64, |k, &s| (k << 7) | s as u64)
}

/// Unpacks a key of a k-gram into its symbol ids.
pub fn unpack(mut key: u64, k: usize) -> Vec<Sym> {
    let mut v = vec![0; k];
    for slot in v.iter_mut().rev() {
        *slot = (key & 0x7f) as Sym;
        key >>= 7;
    }
    v
}

/// Rejects keys with symbols outside the alphabet (a corrupt file would
/// otherwise index past the scorer's tables): `v` symbols, `k` of them
/// packed as [`pack`] packs them.
fn check_key(key: u64, k: usize, v: u64) -> std::result::Result<(), String> {
    if k < 10 && key >> (7 * k) != 0 {
        return Err(format!("a {k}-gram key out of range"));
    }
    for i in 0..k {
        if (key >> (7 * i)) & 0x7f >= v {
            return Err(format!("a {k}-gram with a symbol outside the alphabet"));
        }
    }
    Ok(())
}

/// The k-gram counts of one text collection, for k = 1 … n.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Counts {
    /// `orders[k-1]` maps packed k-grams to their counts.
    pub orders: Vec<HashMap<u64, u64>>,
}

impl Counts {
    /// Empty counts for orders 1 … n.
    pub fn new(n: usize) -> Counts {
        Counts {
            orders: vec![HashMap::default(); n],
        }
    }

    /// The highest order.
    pub fn n(&self) -> usize {
        self.orders.len()
    }

    /// Adds the k-grams of one segment, padded with boundary symbols.
    pub fn add_segment(&mut self, alphabet: Alphabet, text: &str) {
        let n = self.n();
        let b = alphabet.boundary();
        let mut seq: Vec<Sym> = Vec::with_capacity(text.len() + n);
        seq.extend(std::iter::repeat_n(b, n - 1));
        seq.extend(text.chars().map(|c| alphabet.symbol(c)));
        seq.push(b);
        for i in (n - 1)..seq.len() {
            for k in 1..=n {
                *self.orders[k - 1]
                    .entry(pack(&seq[i + 1 - k..=i]))
                    .or_insert(0) += 1;
            }
        }
    }

    /// Adds all counts of `other`.
    pub fn merge(&mut self, other: &Counts) {
        for (mine, theirs) in self.orders.iter_mut().zip(&other.orders) {
            for (&k, &v) in theirs {
                *mine.entry(k).or_insert(0) += v;
            }
        }
    }

    /// Number of predicted symbols (the unigram total).
    pub fn total(&self) -> u64 {
        self.orders.first().map_or(0, |m| m.values().sum())
    }

    /// History totals Σ_x f(hx) of order k (keys are packed (k−1)-grams).
    fn history_totals(&self, k: usize) -> HashMap<u64, u64> {
        let mut t = HashMap::default();
        for (&key, &v) in &self.orders[k - 1] {
            *t.entry(key >> 7).or_insert(0) += v;
        }
        t
    }
}

/// How the dirty model's counts were obtained.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DirtyEstimate {
    /// The paper's differential training: raw-dump counts minus clean counts.
    Differential,
    /// Maximum-likelihood estimates from the raw segments that the alignment
    /// with the gold text labels dirty (the lab's `align`).
    Aligned,
}

impl DirtyEstimate {
    /// The name used in model files.
    pub fn name(self) -> &'static str {
        match self {
            DirtyEstimate::Differential => "differential",
            DirtyEstimate::Aligned => "aligned",
        }
    }

    /// Parses [`DirtyEstimate::name`].
    pub fn from_name(s: &str) -> Option<DirtyEstimate> {
        match s {
            "differential" => Some(DirtyEstimate::Differential),
            "aligned" => Some(DirtyEstimate::Aligned),
            _ => None,
        }
    }
}

/// The parameters and provenance of a model.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelMeta {
    /// The n-gram order.
    pub n: usize,
    /// The interpolation parameter q ∈ (0, 1).
    pub q: f64,
    /// How characters are folded.
    pub alphabet: Alphabet,
    /// How the dirty counts were obtained.
    pub dirty: DirtyEstimate,
    /// Where the model came from (training data, command), one line.
    pub provenance: String,
    /// The language of the text the model was trained on, as a tag
    /// ([`crate::lang::normalise_tag`]: `en`, `de`, …), or the languages,
    /// as tags separated by commas (`zh,ru,pl,el`,
    /// [`crate::lang::normalise_tags`]), which routes pages of that language
    /// (of each) to it; `None` for a model meant for any language
    /// (the non-lexical fallback) or trained before tags existed.
    pub language: Option<String>,
}

impl ModelMeta {
    /// The languages whose pages the model takes ([`ModelMeta::language`]
    /// split at its commas; none for a model without a tag).
    pub fn languages(&self) -> impl Iterator<Item = &str> {
        self.language.iter().flat_map(|l| l.split(','))
    }
}

/// A model's count tables.
#[derive(Debug, Clone)]
pub(crate) struct CountTables {
    pub(crate) clean: Counts,
    pub(crate) raw: Counts,
    pub(crate) dirty: Option<Counts>,
}

/// The count section of an embedded model, read when the counts are first
/// asked for ([`Model::clean`]): cleaning needs only the scorer's tables,
/// which the file stores, and reading the counts into hash maps would be
/// about half of `clean`'s start-up.
/// Embedded models only: their bytes are part of the build and a test reads
/// their counts; a file's counts are read, and checked, when it is loaded.
#[derive(Clone, Copy)]
pub(crate) struct PendingCounts(pub(crate) &'static [u8]);

impl std::fmt::Debug for PendingCounts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PendingCounts({} bytes)", self.0.len())
    }
}

/// A clean and a dirty character n-gram model. A clone holds what the
/// model holds: its counts, read or still pending, and the scorer's tables
/// if they are built or were read.
#[derive(Debug, Clone)]
pub struct Model {
    /// Parameters and provenance.
    pub meta: ModelMeta,
    /// The counts ([`Model::clean`], [`Model::raw`], [`Model::dirty`]).
    counts: OnceLock<CountTables>,
    /// Where they are read from when not yet read (embedded models).
    pending: Option<PendingCounts>,
    /// The segment classifier trained with the model, if any.
    pub classifier: Option<crate::classify::Classifier>,
    /// The page-quality models (HTML, text), fitted on the training pages'
    /// out-of-fold cleaning (`crate::quality`); absent in older files. In
    /// the model file they sit in the classifier's JSON, under `quality`.
    pub quality: Option<[Option<crate::quality::QualityModel>; 2]>,
    scorer: OnceLock<Scorer>,
}

/// Checks n and q.
pub fn check_parameters(n: usize, q: f64) -> Result<()> {
    if !(1..=MAX_ORDER).contains(&n) {
        return Err(Error::Parameter(format!(
            "n must be between 1 and {MAX_ORDER}, not {n}"
        )));
    }
    if !(q > 0.0 && q < 1.0) {
        return Err(Error::Parameter(format!(
            "q must be strictly between 0 and 1, not {q}"
        )));
    }
    Ok(())
}

impl Model {
    internal! {
        /// Assembles a model from its counts, checking that they fit the parameters.
        pub fn from_parts(meta: ModelMeta, clean: Counts, raw: Counts) -> Result<Model> {
            Model::assemble(meta, clean, raw, None)
        }
    }

    /// Assembles a model; `dirty` must be given exactly for [`DirtyEstimate::Aligned`].
    pub(crate) fn assemble(
        meta: ModelMeta,
        clean: Counts,
        raw: Counts,
        dirty: Option<Counts>,
    ) -> Result<Model> {
        check_parameters(meta.n, meta.q)?;
        let bad = |reason: String| Error::BadModel {
            what: "model".into(),
            reason,
        };
        let orders = [Some(&clean), Some(&raw), dirty.as_ref()];
        if orders.iter().flatten().any(|c| c.n() != meta.n) {
            return Err(bad(format!(
                "count tables of another order than the model's {}",
                meta.n
            )));
        }
        if (meta.dirty == DirtyEstimate::Aligned) != dirty.is_some() {
            return Err(bad(
                "dirty-segment counts go with, and only with, the aligned dirty estimate".into(),
            ));
        }
        Ok(Model {
            meta,
            counts: OnceLock::from(CountTables { clean, raw, dirty }),
            pending: None,
            classifier: None,
            quality: None,
            scorer: OnceLock::new(),
        })
    }

    /// A model whose counts are read from `pending` when first asked for.
    pub(crate) fn with_pending_counts(meta: ModelMeta, pending: PendingCounts) -> Result<Model> {
        check_parameters(meta.n, meta.q)?;
        Ok(Model {
            meta,
            counts: OnceLock::new(),
            pending: Some(pending),
            classifier: None,
            quality: None,
            scorer: OnceLock::new(),
        })
    }

    fn counts(&self) -> &CountTables {
        self.counts.get_or_init(|| {
            let PendingCounts(bytes) = self.pending.expect("a model has counts or their bytes");
            file::read_count_section(bytes, &self.meta)
                .expect("an embedded model's counts read (tests read them)")
        })
    }

    internal! {
        /// Counts of the clean (gold) text.
        pub fn clean(&self) -> &Counts {
            &self.counts().clean
        }
    }

    internal! {
        /// Counts of the raw dumps (for [`DirtyEstimate::Differential`]).
        pub fn raw(&self) -> &Counts {
            &self.counts().raw
        }
    }

    internal! {
        /// Counts of the dirty segments (for [`DirtyEstimate::Aligned`]).
        pub fn dirty(&self) -> Option<&Counts> {
            self.counts().dirty.as_ref()
        }
    }

    /// Checks that a classifier read from a file fits the feature layout of
    /// this build (a corrupt or foreign file must not index out of bounds).
    pub(crate) fn check_classifier(&self) -> Result<()> {
        let Some(c) = &self.classifier else {
            return Ok(());
        };
        let schema = crate::classify::schema::Schema::read(&c.columns).map_err(|reason| {
            Error::BadModel {
                what: "model".into(),
                reason,
            }
        })?;
        let want = schema.width();
        if let Some(p) = &c.page_type {
            p.check_names().map_err(|reason| Error::BadModel {
                what: "model".into(),
                reason,
            })?;
        }
        if let Some(p) = &c.page_type
            && !p.is_valid()
        {
            return Err(Error::BadModel {
                what: "model".into(),
                reason: format!(
                    "a page-type classifier of {} features where this build has {}",
                    p.width,
                    crate::classify::page::feature_count()
                ),
            });
        }
        for w in [&c.html, &c.text].into_iter().flatten() {
            if w.weights.len() != want || w.mean.len() != want || w.inv_sd.len() != want {
                return Err(Error::BadModel {
                    what: "model".into(),
                    reason: format!(
                        "classifier weights of length {} where this build has {want} features",
                        w.weights.len()
                    ),
                });
            }
        }
        for forest in c.trees.iter().flatten().flatten() {
            if !forest.is_valid(want) {
                return Err(Error::BadModel {
                    what: "model".into(),
                    reason: "classifier trees refer to features or nodes that do not exist".into(),
                });
            }
        }
        for q in self.quality.iter().flatten().flatten() {
            q.check().map_err(|reason| Error::BadModel {
                what: "model".into(),
                reason,
            })?;
        }
        crate::lexicon::check_versions(&c.lexicon).map_err(|reason| Error::BadModel {
            what: "model".into(),
            reason,
        })
    }

    internal! {
        /// The same model with its dirty model estimated from these dirty-segment
        /// counts ([`DirtyEstimate::Aligned`]) instead of differential counts.
        pub fn with_dirty(self, dirty: Counts) -> Result<Model> {
            self.counts();
            let CountTables { clean, raw, .. } =
                self.counts.into_inner().expect("the counts were just read");
            let meta = ModelMeta {
                dirty: DirtyEstimate::Aligned,
                ..self.meta
            };
            Model::assemble(meta, clean, raw, Some(dirty))
        }
    }

    internal! {
        /// The same counts with other n-gram parameters: q freely, n at most the counted order.
        pub fn with_parameters(&self, n: usize, q: f64) -> Result<Model> {
            check_parameters(n, q)?;
            if n > self.meta.n {
                return Err(Error::Parameter(format!(
                    "n = {n} exceeds the model's counted order {}",
                    self.meta.n
                )));
            }
            let cut = |c: &Counts| Counts {
                orders: c.orders[..n].to_vec(),
            };
            let meta = ModelMeta {
                n,
                q,
                ..self.meta.clone()
            };
            Model::assemble(
                meta,
                cut(self.clean()),
                cut(self.raw()),
                self.dirty().map(cut),
            )
        }
    }

    internal! {
        /// The page-quality model for an input (`html` or text), if the model has one.
        pub fn quality(&self, html: bool) -> Option<&crate::quality::QualityModel> {
            self.quality.as_ref()?[usize::from(!html)].as_ref()
        }
    }

    internal! {
        /// The fast scorer (built on first use, then shared).
        pub fn scorer(&self) -> &Scorer {
            self.scorer.get_or_init(|| Scorer::build(self))
        }
    }

    /// The score of one segment: log2 P_clean − log2 P_dirty, in bits.
    pub fn score(&self, text: &str) -> f64 {
        self.scorer().score(text)
    }

    /// The per-order estimates P_k(c | h) of the clean and the dirty model,
    /// as dense or sparse tables (see [`Estimates`]).
    pub(crate) fn estimates(&self) -> (Estimates, Estimates) {
        let v = self.meta.alphabet.size();
        let clean = Estimates::mle(self.clean(), v);
        let dirty = match self.meta.dirty {
            DirtyEstimate::Differential => Estimates::differential(self.raw(), self.clean(), v),
            DirtyEstimate::Aligned => {
                Estimates::mle(self.dirty().expect("aligned models have dirty counts"), v)
            }
        };
        (clean, dirty)
    }
}

/// Per-order conditional estimates P_k(c | h) of one model, for seen k-grams.
pub struct Estimates {
    /// `orders[k-1]`: packed k-gram → P_k; absent means 0 (k ≥ 2).
    pub orders: Vec<HashMap<u64, f64>>,
    /// The add-one smoothed unigram distribution, by symbol id.
    pub unigram: Vec<f64>,
}

impl Estimates {
    /// Maximum-likelihood estimates of one collection's counts.
    pub fn mle(c: &Counts, v: usize) -> Estimates {
        let n = c.n();
        let mut orders = vec![HashMap::default(); n];
        for k in 2..=n {
            let totals = c.history_totals(k);
            orders[k - 1] = c.orders[k - 1]
                .iter()
                .map(|(&key, &f)| (key, f as f64 / totals[&(key >> 7)] as f64))
                .collect();
        }
        Estimates {
            orders,
            unigram: add_one(&c.orders[0], c.total() as f64, v),
        }
    }

    /// The paper's deficient differential estimates of the dirty model.
    fn differential(raw: &Counts, clean: &Counts, v: usize) -> Estimates {
        let n = raw.n();
        let mut orders = vec![HashMap::default(); n];
        let diff = |r: u64, c: u64| r.saturating_sub(c);
        for k in 2..=n {
            let rt = raw.history_totals(k);
            let ct = clean.history_totals(k);
            let mut m = HashMap::default();
            for (&key, &r) in &raw.orders[k - 1] {
                let num = diff(r, clean.orders[k - 1].get(&key).copied().unwrap_or(0));
                if num == 0 {
                    continue;
                }
                let h = key >> 7;
                let den = diff(rt[&h], ct.get(&h).copied().unwrap_or(0));
                if den > 0 {
                    m.insert(key, (num as f64 / den as f64).min(1.0));
                }
            }
            orders[k - 1] = m;
        }
        let mut uni = HashMap::default();
        for (&key, &r) in &raw.orders[0] {
            let d = diff(r, clean.orders[0].get(&key).copied().unwrap_or(0));
            if d > 0 {
                uni.insert(key, d);
            }
        }
        let total = diff(raw.total(), clean.total()) as f64;
        Estimates {
            orders,
            unigram: add_one(&uni, total, v),
        }
    }
}

fn add_one(counts: &HashMap<u64, u64>, total: f64, v: usize) -> Vec<f64> {
    let mut p = vec![1.0 / (total + v as f64); v];
    for (&key, &f) in counts {
        if (key as usize) < v {
            p[key as usize] = (f as f64 + 1.0) / (total + v as f64);
        }
    }
    p
}

#[cfg(feature = "internals")]
/// Training text of one page: the segments of its raw dump and of its gold text.
#[derive(Debug, Clone, Default)]
pub struct TrainingPage {
    /// A name for messages (the page's file stem).
    pub name: String,
    /// The raw dump's segments, as the pipeline segments the page.
    pub raw: Vec<String>,
    /// The gold (manually cleaned) segments.
    pub clean: Vec<String>,
}

#[cfg(feature = "internals")]
/// Parameters for [`train`].
#[derive(Debug, Clone)]
pub struct TrainOptions {
    /// The n-gram order.
    pub n: usize,
    /// The interpolation parameter.
    pub q: f64,
    /// The alphabet.
    pub alphabet: Alphabet,
}

#[cfg(feature = "internals")]
impl TrainOptions {
    /// The paper's lexical model: n = 3, q = 0.5.
    pub fn lexical() -> TrainOptions {
        TrainOptions {
            n: 3,
            q: 0.5,
            alphabet: Alphabet::Lexical,
        }
    }

    /// The paper's non-lexical model: n = 6, q = 0.4.
    pub fn non_lexical() -> TrainOptions {
        TrainOptions {
            n: 6,
            q: 0.4,
            alphabet: Alphabet::NonLexical,
        }
    }
}

#[cfg(feature = "internals")]
/// Counts the clean and raw text of the pages (in parallel over pages).
pub fn count_pages(pages: &[TrainingPage], n: usize, alphabet: Alphabet) -> (Counts, Counts) {
    use rayon::prelude::*;
    pages
        .par_iter()
        .map(|p| {
            let mut clean = Counts::new(n);
            let mut raw = Counts::new(n);
            p.clean.iter().for_each(|s| clean.add_segment(alphabet, s));
            p.raw.iter().for_each(|s| raw.add_segment(alphabet, s));
            (clean, raw)
        })
        .reduce(
            || (Counts::new(n), Counts::new(n)),
            |(mut c1, mut r1), (c2, r2)| {
                c1.merge(&c2);
                r1.merge(&r2);
                (c1, r1)
            },
        )
}

#[cfg(feature = "internals")]
/// Trains a model from pages: clean counts from the gold text, dirty counts
/// by differential training (see the module documentation).
pub fn train(pages: &[TrainingPage], opts: &TrainOptions, provenance: &str) -> Result<Model> {
    check_parameters(opts.n, opts.q)?;
    if pages.is_empty() {
        return Err(Error::Training("no training pages".into()));
    }
    let (clean, raw) = count_pages(pages, opts.n, opts.alphabet);
    if clean.total() == 0 {
        return Err(Error::Training("the gold files hold no text".into()));
    }
    let meta = ModelMeta {
        n: opts.n,
        q: opts.q,
        alphabet: opts.alphabet,
        dirty: DirtyEstimate::Differential,
        provenance: provenance.to_string(),
        language: None,
    };
    Model::from_parts(meta, clean, raw)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folding() {
        assert_eq!(
            Alphabet::Lexical.fold("The answer is 42. café"),
            "The answer is 42. caf~"
        );
        assert_eq!(
            Alphabet::NonLexical.fold("The answer is 42. café"),
            "aaa aaaaaa aa 00. aaaa"
        );
        assert_eq!(Alphabet::NonLexical.fold("© ½"), "~ 0");
        assert_eq!(Alphabet::Lexical.size(), 96);
        assert_eq!(Alphabet::NonLexical.size(), 96 - 62 + 2);
    }

    #[test]
    fn pack_roundtrip() {
        let syms = [1u8, 95, 0, 42, 7, 3, 2, 1];
        assert_eq!(unpack(pack(&syms), 8), syms);
    }

    #[test]
    fn counting_pads_segments() {
        let a = Alphabet::Lexical;
        let mut c = Counts::new(3);
        c.add_segment(a, "ab");
        // predicted symbols: a, b, boundary
        assert_eq!(c.total(), 3);
        let b = a.boundary();
        let s = |ch: char| a.symbol(ch);
        assert_eq!(c.orders[2][&pack(&[b, b, s('a')])], 1);
        assert_eq!(c.orders[2][&pack(&[s('a'), s('b'), b])], 1);
        assert_eq!(c.orders[1][&pack(&[s('b'), b])], 1);
    }

    fn page(raw: &[&str], clean: &[&str]) -> TrainingPage {
        TrainingPage {
            name: "t".into(),
            raw: raw.iter().map(|s| s.to_string()).collect(),
            clean: clean.iter().map(|s| s.to_string()).collect(),
        }
    }

    #[test]
    fn differential_counts_are_clamped() {
        // "xy" occurs in clean but not in raw: the differential count would be negative.
        let pages = [page(&["ab ab", "zz"], &["ab", "xy"])];
        let m = train(
            &pages,
            &TrainOptions {
                n: 2,
                q: 0.5,
                alphabet: Alphabet::Lexical,
            },
            "test",
        )
        .unwrap();
        let (_, dirty) = m.estimates();
        let a = Alphabet::Lexical;
        let s = |ch: char| a.symbol(ch);
        assert!(!dirty.orders[1].contains_key(&pack(&[s('x'), s('y')])));
        assert!(dirty.orders[1].values().all(|&p| (0.0..=1.0).contains(&p)));
        // "zz" only in raw: fully dirty; P_dirty(z | z) = f(zz) / (raw total of z· − clean total of z·)
        assert_eq!(dirty.orders[1][&pack(&[s('z'), s('z')])], 0.5);
        // unigram add-one over the differential total
        let v = a.size() as f64;
        let raw_total = 6.0 + 3.0; // "ab ab" + boundary, "zz" + boundary
        let clean_total = 3.0 + 3.0;
        let expect = (2.0 + 1.0) / (raw_total - clean_total + v); // two dirty z
        assert!((dirty.unigram[s('z') as usize] - expect).abs() < 1e-12);
    }

    #[test]
    fn interpolation_weights_sum_to_one() {
        for n in 1..=8i32 {
            for q in [0.1, 0.5, 0.9] {
                let norm = (1.0 - q) / (1.0 - f64::powi(q, n));
                let sum: f64 = (1..=n).map(|k| norm * q.powi(n - k)).sum();
                assert!((sum - 1.0).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn parameters_are_checked() {
        assert!(check_parameters(0, 0.5).is_err());
        assert!(check_parameters(9, 0.5).is_err());
        assert!(check_parameters(3, 0.0).is_err());
        assert!(check_parameters(3, 1.0).is_err());
        assert!(check_parameters(3, f64::NAN).is_err());
        assert!(check_parameters(3, 0.5).is_ok());
    }
}
