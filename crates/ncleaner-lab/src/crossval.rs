//! Cross-validation: train on K−1 folds of a pool of pages, clean the held-out
//! fold, for every fold; the outputs are then scored against the gold files.
//!
//! Every page is decoded and segmented once; its n-gram counts are computed
//! once; a fold's model is the pool's total counts minus the held-out pages'
//! counts, which is exactly the model `train` would build from the other
//! folds, without re-reading anything.
//!
//! Folds: the pages are sorted by their key (relative path), shuffled with a
//! seeded generator (SplitMix64, so the folds are the same on every machine
//! and in every version), and page i of the shuffled order goes to fold i mod K.

use rayon::prelude::*;

use crate::error::{Error, Result};
use ncleaner::Cleaner;
use ncleaner::Method;
use ncleaner::classify::page::{PageFeatures, PageType};
use ncleaner::format::{read_segments, text_dump};
use ncleaner::model::{
    self, Alphabet, Counts, DirtyEstimate, Model, ModelMeta, TrainOptions, TrainingPage,
};
use ncleaner::segment::{self, Segment};
use ncleaner::{Cleaned, InputKind};

/// A page and its gold file (made by [`crate::train::pair`]).
#[derive(Debug, Clone)]
pub struct Pair {
    /// The page (HTML or text dump).
    pub page: std::path::PathBuf,
    /// Its gold file.
    pub gold: std::path::PathBuf,
    /// The name both share: their path relative to their directories, without extension.
    pub key: String,
}

/// One page of a cross-validation pool, decoded and segmented.
#[derive(Debug, Clone)]
pub struct PoolPage {
    /// Relative path without extension (the pairing key).
    pub key: String,
    /// The page's URL, if known.
    pub url: Option<String>,
    /// Segments of the HTML.
    pub html_segments: Vec<Segment>,
    /// Segments of the page's plain-text dump ([`text_dump`] of its HTML).
    pub text_segments: Vec<Segment>,
    /// The gold file's text.
    pub gold: String,
    /// The page's features for the page-type classifier (HTML pages).
    pub features: Option<PageFeatures>,
    /// The page's type, when its pool labels it (`train --page-types`).
    pub page_type: Option<PageType>,
    /// The host of the page's URL (the canonical URL the page states,
    /// else the one it came with), without `www.`: pages of one site stay
    /// in one fold of the page-type classifier's inner cross-validation.
    pub host: Option<String>,
}

impl PoolPage {
    /// Reads and segments one page and its gold file.
    pub fn load(pair: &Pair) -> Result<PoolPage> {
        let bytes = ncleaner_corpus::read_document(&pair.page)?;
        let gold = std::fs::read(&pair.gold).map_err(|e| Error::io(&pair.gold, e))?;
        Ok(PoolPage::from_bytes(
            &pair.key,
            &bytes,
            String::from_utf8_lossy(&gold).into_owned(),
        ))
    }

    /// Segments one page given its bytes and its gold text.
    pub fn from_bytes(key: &str, bytes: &[u8], gold: String) -> PoolPage {
        let doc = ncleaner::decode::decode(bytes, None, None);
        let mut page = ncleaner::html::parse(&doc.text);
        let signals = std::mem::take(&mut page.signals);
        let metadata = std::mem::take(&mut page.metadata);
        let html_segments = segment::from_page(page);
        let features = PageFeatures::of(
            &html_segments,
            &signals,
            Some(&metadata),
            doc.url.as_deref(),
        );
        let host = metadata
            .canonical_url
            .as_deref()
            .filter(|u| u.contains("://"))
            .or(doc.url.as_deref())
            .and_then(host_of);
        // A text dump is of the page as shown (a hidden block is no
        // dump's text), as the dumps that text models clean are.
        let shown = ncleaner::classify::without_hidden(html_segments.clone());
        let dump = text_dump(&shown);
        let text_segments = segment::from_text(&dump);
        PoolPage {
            key: key.to_string(),
            url: doc.url,
            html_segments,
            text_segments,
            gold,
            features: Some(features),
            page_type: None,
            host,
        }
    }

    /// A page known only as a plain-text dump (no HTML segments), for
    /// training from text dumps.
    pub fn from_text_dump(key: &str, bytes: &[u8], gold: String) -> PoolPage {
        let doc = ncleaner::decode::decode(bytes, None, None);
        PoolPage {
            key: key.to_string(),
            host: doc.url.as_deref().and_then(host_of),
            url: doc.url,
            html_segments: Vec::new(),
            text_segments: segment::from_text(&doc.text),
            gold,
            features: None,
            page_type: None,
        }
    }

    /// The segments of the given input kind.
    pub fn segments(&self, input: InputKind) -> &[Segment] {
        match input {
            InputKind::Text => &self.text_segments,
            _ => &self.html_segments,
        }
    }

    /// The page as training data (raw side from the HTML segments).
    pub fn training_page(&self) -> TrainingPage {
        TrainingPage {
            name: self.key.clone(),
            raw: self
                .html_segments
                .iter()
                .map(|s| s.text().to_string())
                .collect(),
            clean: read_segments(&self.gold)
                .into_iter()
                .map(|(_, t)| t)
                .collect(),
        }
    }
}

/// The host of a URL, lower-cased, without `www.` (`None` without one).
pub fn host_of(url: &str) -> Option<String> {
    let rest = url.split_once("://")?.1;
    let host = rest.split(['/', '?', '#']).next()?;
    let host = host.rsplit_once('@').map_or(host, |(_, h)| h);
    let host = host.split(':').next()?.to_ascii_lowercase();
    let host = host.strip_prefix("www.").unwrap_or(&host).to_string();
    (!host.is_empty()).then_some(host)
}

/// Loads a pool of pages (in parallel).
pub fn load_pool(pairs: &[Pair]) -> Result<Vec<PoolPage>> {
    pairs.par_iter().map(PoolPage::load).collect()
}

/// Loads a pool of plain-text dumps and their gold files (in parallel).
pub fn load_text_pool(pairs: &[Pair]) -> Result<Vec<PoolPage>> {
    pairs
        .par_iter()
        .map(|p| {
            let bytes = ncleaner_corpus::read_document(&p.page)?;
            let gold = std::fs::read(&p.gold).map_err(|e| Error::io(&p.gold, e))?;
            Ok(PoolPage::from_text_dump(
                &p.key,
                &bytes,
                String::from_utf8_lossy(&gold).into_owned(),
            ))
        })
        .collect()
}

/// Assigns each of `n` pages (in key order) to one of `k` folds.
pub fn folds(n: usize, k: usize, seed: u64) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    let mut rng = SplitMix64(seed);
    for i in (1..n).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
    let mut fold = vec![0; n];
    for (pos, &page) in order.iter().enumerate() {
        fold[page] = pos % k;
    }
    fold
}

/// A small, well-known generator whose output never changes between versions.
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// Per-page n-gram counts of a pool, for building fold models by subtraction.
pub struct PoolCounts {
    /// The highest order counted.
    pub n: usize,
    /// The alphabet counted in.
    pub alphabet: Alphabet,
    /// (clean, raw) counts per page.
    pub pages: Vec<(Counts, Counts)>,
    /// The sums over all pages.
    pub total: (Counts, Counts),
}

impl PoolCounts {
    /// Counts every page of the pool up to order `n`.
    pub fn new(pool: &[PoolPage], n: usize, alphabet: Alphabet) -> PoolCounts {
        let pages: Vec<(Counts, Counts)> = pool
            .par_iter()
            .map(|p| model::count_pages(std::slice::from_ref(&p.training_page()), n, alphabet))
            .collect();
        let mut total = (Counts::new(n), Counts::new(n));
        for (c, r) in &pages {
            total.0.merge(c);
            total.1.merge(r);
        }
        PoolCounts {
            n,
            alphabet,
            pages,
            total,
        }
    }

    /// The model trained on every page for which `train(i)` holds.
    pub fn model(
        &self,
        n: usize,
        q: f64,
        train: impl Fn(usize) -> bool,
        provenance: &str,
    ) -> Result<Model> {
        let held_out: Vec<usize> = (0..self.pages.len()).filter(|&i| !train(i)).collect();
        let (mut clean, mut raw) = self.total.clone();
        if held_out.len() * 2 > self.pages.len() {
            // Fewer pages to add than to take away: sum the training pages instead.
            clean = Counts::new(self.n);
            raw = Counts::new(self.n);
            for i in (0..self.pages.len()).filter(|&i| train(i)) {
                clean.merge(&self.pages[i].0);
                raw.merge(&self.pages[i].1);
            }
        } else {
            for &i in &held_out {
                subtract(&mut clean, &self.pages[i].0);
                subtract(&mut raw, &self.pages[i].1);
            }
        }
        let meta = ModelMeta {
            n: self.n,
            q,
            alphabet: self.alphabet,
            dirty: DirtyEstimate::Differential,
            provenance: provenance.to_string(),
            language: None,
        };
        let m = Model::from_parts(meta, clean, raw)?;
        if n == self.n {
            Ok(m)
        } else {
            Ok(m.with_parameters(n, q)?)
        }
    }
}

fn subtract(a: &mut Counts, b: &Counts) {
    for (mine, theirs) in a.orders.iter_mut().zip(&b.orders) {
        for (k, v) in theirs {
            if let Some(x) = mine.get_mut(k) {
                *x -= v;
                if *x == 0 {
                    mine.remove(k);
                }
            }
        }
    }
}

/// One configuration to cross-validate: how pages are read and decided.
#[derive(Debug, Clone)]
pub struct Variant {
    /// A name for reports (`ncleaner-html`, `baseline-text`, …).
    pub name: String,
    /// HTML segments or text-dump segments.
    pub input: InputKind,
    /// What decides.
    pub method: Method,
    /// The model's alphabet, order and q (ignored by methods without a model).
    pub alphabet: Alphabet,
    /// The n-gram order.
    pub n: usize,
    /// The interpolation parameter.
    pub q: f64,
    /// The decision threshold.
    pub threshold: f64,
}

impl Variant {
    /// The raw dump: every segment kept (the paper's baseline).
    pub fn baseline(input: InputKind) -> Variant {
        Variant::without_model("raw dump (baseline)", input, Method::KeepAll)
    }

    /// The segmentation heuristics alone, no language model.
    pub fn heuristics(input: InputKind) -> Variant {
        Variant::without_model("heuristics only", input, Method::Heuristics)
    }

    /// A row whose method needs no model.
    pub fn without_model(label: &str, input: InputKind, method: Method) -> Variant {
        let p = TrainOptions::lexical();
        Variant {
            name: format!("{label}, {}", input_name(input)),
            input,
            method,
            alphabet: p.alphabet,
            n: p.n,
            q: p.q,
            threshold: 0.0,
        }
    }

    /// A row that cleans with models of the given parameters; the name is
    /// `label (n=…, q=…), input`.
    pub fn with_model(
        label: &str,
        input: InputKind,
        method: Method,
        params: &TrainOptions,
        threshold: f64,
    ) -> Variant {
        let t = if threshold == 0.0 {
            String::new()
        } else {
            format!(", t={threshold}")
        };
        Variant {
            name: format!(
                "{label} (n={}, q={}{t}), {}",
                params.n,
                params.q,
                input_name(input)
            ),
            input,
            method,
            alphabet: params.alphabet,
            n: params.n,
            q: params.q,
            threshold,
        }
    }

    /// A file-name-safe form of the name (`ncleaner-lexical-n-3-q-0-5-html`).
    pub fn slug(&self) -> String {
        let mut s = String::new();
        for c in self.name.chars() {
            if c.is_ascii_alphanumeric() {
                s.push(c.to_ascii_lowercase());
            } else if !s.ends_with('-') && !s.is_empty() {
                s.push('-');
            }
        }
        s.trim_end_matches('-').to_string()
    }
}

/// `HTML` or `text` for row names.
pub fn input_name(input: InputKind) -> &'static str {
    match input {
        InputKind::Text => "text",
        _ => "HTML",
    }
}

/// Cross-validates one variant: the cleaned output of every page, in pool
/// order, each cleaned by the model trained on the other folds.
pub fn run(
    pool: &[PoolPage],
    counts: &PoolCounts,
    fold: &[usize],
    k: usize,
    v: &Variant,
) -> Result<Vec<Cleaned>> {
    let mut out: Vec<Option<Cleaned>> = vec![None; pool.len()];
    let results: Vec<Result<Vec<(usize, Cleaned)>>> = (0..k)
        .into_par_iter()
        .map(|f| {
            let model = if v.method.uses_model() {
                counts.model(
                    v.n,
                    v.q,
                    |i| fold[i] != f,
                    &format!("cross-validation fold {f}"),
                )?
            } else {
                // Methods without a model never score; any small model will do.
                counts.model(1, 0.5, |i| fold[i] != f, "unused")?
            };
            let cleaner = Cleaner::from_model(model)
                .with_method(v.method)
                .with_threshold(v.threshold);
            Ok((0..pool.len())
                .filter(|&i| fold[i] == f)
                .map(|i| (i, clean_segments(&cleaner, &pool[i], v.input)))
                .collect())
        })
        .collect();
    for r in results {
        for (i, c) in r? {
            out[i] = Some(c);
        }
    }
    Ok(out
        .into_iter()
        .map(|c| c.expect("every page is in one fold"))
        .collect())
}

/// Cleans a pool page's already computed segments.
pub fn clean_segments(cleaner: &Cleaner, page: &PoolPage, input: InputKind) -> Cleaned {
    let features = page.features.as_ref().filter(|_| input != InputKind::Text);
    cleaner.clean_segments(
        page.segments(input).to_vec(),
        features,
        input,
        page.url.clone(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_are_balanced_and_stable() {
        let f = folds(398, 10, 1);
        for k in 0..10 {
            let c = f.iter().filter(|&&x| x == k).count();
            assert!(c == 39 || c == 40, "{c}");
        }
        assert_eq!(f, folds(398, 10, 1));
        assert_ne!(f, folds(398, 10, 2));
    }

    #[test]
    fn fold_model_equals_model_trained_on_the_other_pages() {
        let mk = |i: usize| {
            PoolPage::from_bytes(
                &format!("p{i}"),
                format!(
                    "<p>Clean text number {i}, quite long.</p><p>Home | About | Contact {}</p>",
                    i % 3
                )
                .as_bytes(),
                format!("<p>Clean text number {i}, quite long."),
            )
        };
        let pool: Vec<PoolPage> = (0..6).map(mk).collect();
        let counts = PoolCounts::new(&pool, 3, Alphabet::Lexical);
        let fold_model = counts.model(3, 0.5, |i| i != 2, "x").unwrap();
        let pages: Vec<TrainingPage> = pool
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != 2)
            .map(|(_, p)| p.training_page())
            .collect();
        let direct = model::train(&pages, &model::TrainOptions::lexical(), "x").unwrap();
        assert_eq!(fold_model.clean(), direct.clean());
        assert_eq!(fold_model.raw(), direct.raw());
        // and when most pages are held out
        let small = counts.model(3, 0.5, |i| i == 0, "x").unwrap();
        let direct0 = model::train(&pages[..1], &model::TrainOptions::lexical(), "x").unwrap();
        assert_eq!(small.clean(), direct0.clean());
    }
}
