//! The page-type classifier of a trained model, and the page types its
//! segment classifier is trained with: labelled pages
//! ([`crate::crossval::PoolPage::page_type`]) train it; each training page
//! gets the type that a classifier which did not see its site predicts
//! (an inner cross-validation with folds by host), as a page being cleaned
//! gets it from one that never saw it.

use std::collections::HashMap;
use std::path::Path;

use crate::error::{Error, Result};

use ncleaner::classify::page::{PageFeatures, PagePrediction, PageType, PageTypeModel};
use ncleaner::classify::trees::Boost;

use super::Trainer;
use crate::crossval::PoolPage;

/// The fewest labelled pages with which a model gets a page-type classifier.
pub const MIN_TYPED_PAGES: usize = 100;

/// Folds of the inner cross-validation that gives training pages their
/// predicted types.
pub const INNER_TYPE_FOLDS: usize = 5;

/// The fold of a page among `k` grouped by its host: FNV-1a of the host (of
/// the key when the page has no URL), modulo `k`.
pub fn host_fold(page: &PoolPage, k: usize) -> usize {
    let name = page.host.as_deref().unwrap_or(&page.key);
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in name.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    (h % k as u64) as usize
}

/// Weights that balance the types in the page-type classifier's fit
/// (the square root of the commonest type's count over the page's type's),
/// so that the rare types (listings, documentation) are not given up to
/// articles, half of WCXB's pages. Not used by default: cross-validated by
/// domain on WCXB's pages (`ncleaner pagetype --balanced`), balancing lowers
/// both the accuracy (0.840 against 0.851) and the macro-F1 (0.774
/// against 0.788).
pub fn balanced_weights(labels: &[PageType]) -> Vec<f32> {
    let mut counts = [0usize; 7];
    for t in labels {
        counts[t.index()] += 1;
    }
    let most = counts.iter().copied().max().unwrap_or(1) as f32;
    labels
        .iter()
        .map(|t| (most / counts[t.index()].max(1) as f32).sqrt())
        .collect()
}

/// Fits a page-type classifier to the labelled pages among `pages`.
pub fn fit_types(pages: &[&PoolPage], cfg: Boost) -> Option<PageTypeModel> {
    let (rows, labels): (Vec<PageFeatures>, Vec<PageType>) = pages
        .iter()
        .filter_map(|p| Some((p.features.clone()?, p.page_type?)))
        .unzip();
    if rows.len() < MIN_TYPED_PAGES {
        return None;
    }
    Some(PageTypeModel::fit(
        &rows,
        &labels,
        &vec![1.0; rows.len()],
        cfg,
    ))
}

/// The page types of a directory of labels: `KEY.json` files in WCXB's
/// ground-truth format (`_internal.page_type.primary`, or a top-level
/// `page_type`), each labelling the pool page of key `KEY`. Files without
/// a known type are skipped; an unreadable directory or file is an error
/// naming it.
pub fn read_labels(dir: &Path) -> Result<HashMap<String, PageType>> {
    let mut labels = HashMap::new();
    let entries = std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))?;
    for entry in entries {
        let path = entry.map_err(|e| Error::io(dir, e))?.path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let Some(key) = path.file_stem().and_then(|s| s.to_str()) else {
            continue;
        };
        let bytes = std::fs::read(&path).map_err(|e| Error::io(&path, e))?;
        let v: serde_json::Value = serde_json::from_slice(&bytes)
            .map_err(|e| Error::Training(format!("{}: not JSON ({e})", path.display())))?;
        let name = v
            .pointer("/_internal/page_type/primary")
            .or_else(|| v.get("page_type"))
            .and_then(|t| t.as_str());
        if let Some(t) = name.and_then(|n| n.parse::<PageType>().ok()) {
            labels.insert(key.to_string(), t);
        }
    }
    Ok(labels)
}

/// Labels the pages whose file name (their key's last part: the key of a
/// pool of several directories starts with the directory's label) has a
/// type in `labels`; returns how many.
pub fn label_pages(pages: &mut [PoolPage], labels: &HashMap<String, PageType>) -> usize {
    let mut n = 0;
    for p in pages.iter_mut() {
        let name = p.key.rsplit('/').next().unwrap_or(&p.key);
        if let Some(&t) = labels.get(name) {
            p.page_type = Some(t);
            n += 1;
        }
    }
    n
}

impl Trainer {
    /// The page-type classifier of a model trained on `subset` and each
    /// page's predicted type for its segment rows: out of fold (by host)
    /// for the labelled pages, from the whole classifier for the others.
    /// `None` when `subset` has too few labelled pages.
    pub(super) fn page_types(
        &self,
        subset: &[usize],
        cfg: Boost,
    ) -> Option<(PageTypeModel, HashMap<usize, PagePrediction>)> {
        let pages: Vec<&PoolPage> = subset.iter().map(|&i| &self.pages()[i]).collect();
        let model = fit_types(&pages, cfg)?;
        let labelled = |i: usize| {
            let p = &self.pages()[i];
            p.page_type.is_some() && p.features.is_some()
        };
        let k = INNER_TYPE_FOLDS;
        let inner: Vec<Option<PageTypeModel>> = (0..k)
            .map(|f| {
                let train: Vec<&PoolPage> = subset
                    .iter()
                    .map(|&i| &self.pages()[i])
                    .filter(|p| host_fold(p, k) != f)
                    .collect();
                fit_types(&train, cfg)
            })
            .collect();
        let mut predicted = HashMap::new();
        for &i in subset {
            let p = &self.pages()[i];
            let Some(features) = &p.features else {
                continue;
            };
            let by = if labelled(i) {
                inner[host_fold(p, k)].as_ref().unwrap_or(&model)
            } else {
                &model
            };
            predicted.insert(i, by.predict(features));
        }
        Some((model, predicted))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_balance_the_types() {
        let mut labels = vec![PageType::Article; 16];
        labels.push(PageType::Forum);
        let w = balanced_weights(&labels);
        assert_eq!(w[0], 1.0);
        assert_eq!(w[16], 4.0);
    }
}
