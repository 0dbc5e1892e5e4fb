//! Training data: pages paired with their gold files, run through the same
//! pipeline stages as cleaning, so that the models see at training time
//! exactly the segments they will judge.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::corpus::walk;
use crate::error::{Error, Result};
use crate::format::read_segments;
use crate::model::TrainingPage;
use crate::pipeline::{InputKind, segments_of};

/// A page and its gold file.
#[derive(Debug, Clone)]
pub struct Pair {
    /// The page (HTML or text dump).
    pub page: PathBuf,
    /// Its gold file.
    pub gold: PathBuf,
    /// The name both share: their path relative to their directories, without extension.
    pub key: String,
}

/// The pairing key of a file under `dir`: its relative path without extension.
pub fn key_of(dir: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(dir).unwrap_or(file);
    rel.with_extension("").to_string_lossy().replace('\\', "/")
}

/// Pairs the pages under `pages` with the gold files under `gold` by relative
/// path and file stem (`dev/1.html` ↔ `dev/1.txt`). Pages without a gold file
/// are an error, so that a typo in a directory name cannot train on nothing.
pub fn pair(pages: &Path, gold: &Path) -> Result<Vec<Pair>> {
    let golds: BTreeMap<String, PathBuf> = walk(gold)?
        .into_iter()
        .map(|g| (key_of(gold, &g), g))
        .collect();
    let mut out = Vec::new();
    let mut missing = Vec::new();
    for page in walk(pages)? {
        let key = key_of(pages, &page);
        match golds.get(&key) {
            Some(g) => out.push(Pair {
                page,
                gold: g.clone(),
                key,
            }),
            None => missing.push(key),
        }
    }
    if !missing.is_empty() {
        return Err(Error::Training(format!(
            "{} page(s) under {} have no gold file under {} (first: {})",
            missing.len(),
            pages.display(),
            gold.display(),
            missing[0]
        )));
    }
    if out.is_empty() {
        return Err(Error::Training(format!(
            "no pages under {}",
            pages.display()
        )));
    }
    Ok(out)
}

/// Reads and segments the pairs (in parallel): the page through the
/// pipeline's decode, html and segment stages, the gold file as segments.
pub fn load(pairs: &[Pair], input: InputKind) -> Result<Vec<TrainingPage>> {
    pairs
        .par_iter()
        .map(|p| {
            let bytes = std::fs::read(&p.page).map_err(|e| Error::io(&p.page, e))?;
            let gold = std::fs::read(&p.gold).map_err(|e| Error::io(&p.gold, e))?;
            Ok(training_page(&p.key, &bytes, &gold, input))
        })
        .collect()
}

/// One training page from the bytes of a page and of its gold file.
pub fn training_page(name: &str, page: &[u8], gold: &[u8], input: InputKind) -> TrainingPage {
    let doc = crate::decode::decode(page, None, None);
    let (_, segments) = segments_of(&doc.text, input);
    let gold = String::from_utf8_lossy(gold);
    TrainingPage {
        name: name.to_string(),
        raw: segments.into_iter().map(|s| s.text).collect(),
        clean: read_segments(&gold).into_iter().map(|(_, t)| t).collect(),
    }
}
