//! Pools of gold data assembled from several (pages, gold) directory pairs,
//! with one key scheme for all of them.
//!
//! # Keys
//!
//! A page's key is its path relative to its pages directory, without the
//! extension (`12`, `news/12`). With more than one directory, each key is
//! prefixed with the directory's *label* and a slash: the last component of
//! the directory's path (`dev/12`, `train/12`), or, where two directories
//! end in the same component (`a/dev`, `b/dev`), the shortest run of
//! trailing components that tells them apart (`a/dev/12`, `b/dev/12`).
//! Keys therefore never collide, and they stay what they were (the folder
//! name) wherever the folder names differ.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use ncleaner_corpus::walk;

use crate::crossval::Pair;
use crate::crossval::{self, PoolPage};

/// The pairing key of a file under `dir`: its relative path without
/// extension, and without a compression suffix first (`dev/1.html.gz` and
/// `dev/1.txt` both give `dev/1`, as WCXB's gzipped pages need).
pub fn key_of(dir: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(dir).unwrap_or(file);
    let rel = match rel.extension().and_then(|e| e.to_str()) {
        Some("gz" | "zst" | "br") => rel.with_extension(""),
        _ => rel.to_path_buf(),
    };
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

/// The labels of directories: for each, the shortest run of trailing path
/// components (at least one) that no other directory of `dirs` ends in; a
/// directory given twice gets its full path and `#N` (its position).
pub fn dir_labels(dirs: &[&Path]) -> Vec<String> {
    let parts: Vec<Vec<String>> = dirs
        .iter()
        .map(|d| {
            d.components()
                .filter(|c| !matches!(c, std::path::Component::CurDir))
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect()
        })
        .collect();
    let suffix = |i: usize, k: usize| {
        let p = &parts[i];
        p[p.len().saturating_sub(k)..].join("/")
    };
    (0..dirs.len())
        .map(|i| {
            let max = parts[i].len().max(1);
            for k in 1..=max {
                let mine = suffix(i, k);
                if (0..dirs.len()).all(|j| j == i || suffix(j, k) != mine) {
                    return mine;
                }
            }
            if (0..dirs.len()).any(|j| j != i && parts[j] == parts[i]) {
                format!("{}#{i}", suffix(i, max))
            } else {
                suffix(i, max)
            }
        })
        .collect()
}

/// Pairs pages with gold files for several (pages, gold) directory pairs,
/// keyed as the [module](self) describes. Pages whose key relative to their
/// own directory starts with one of `exclude` are skipped; a directory left
/// without pages is an error.
pub fn pair_dirs(dirs: &[(PathBuf, PathBuf)], exclude: &[String]) -> Result<Vec<Pair>> {
    Ok(pair_each(dirs, exclude)?.into_iter().flatten().collect())
}

/// [`pair_dirs`], the pairs of each directory pair apart.
pub fn pair_each(dirs: &[(PathBuf, PathBuf)], exclude: &[String]) -> Result<Vec<Vec<Pair>>> {
    let labels = dir_labels(&dirs.iter().map(|(p, _)| p.as_path()).collect::<Vec<_>>());
    let mut out = Vec::new();
    for ((pages, gold), label) in dirs.iter().zip(&labels) {
        let mut p = pair(pages, gold)?;
        p.retain(|x| !exclude.iter().any(|e| x.key.starts_with(e.as_str())));
        if p.is_empty() {
            return Err(Error::Training(format!(
                "no pages left under {} after --exclude",
                pages.display()
            )));
        }
        if dirs.len() > 1 {
            p.iter_mut()
                .for_each(|x| x.key = format!("{label}/{}", x.key));
        }
        out.push(p);
    }
    Ok(out)
}

/// A loaded pool of pages and their folds.
pub struct Pool {
    /// The pages.
    pub pages: Vec<PoolPage>,
    /// Fold of each page.
    pub fold: Vec<usize>,
    /// Number of folds.
    pub k: usize,
}

impl Pool {
    /// Pairs, reads and segments (in parallel) the pages of the (pages,
    /// gold) directory pairs and assigns each to one of `k` folds (seeded);
    /// keys as the [module](self) describes.
    pub fn from_dirs(dirs: &[(PathBuf, PathBuf)], k: usize, seed: u64) -> Result<Pool> {
        if k < 2 {
            return Err(Error::Training("--folds must be at least 2".into()));
        }
        let pages = crossval::load_pool(&pair_dirs(dirs, &[])?)?;
        if pages.len() < k {
            return Err(Error::Training(format!(
                "{} pages cannot make {k} folds",
                pages.len()
            )));
        }
        let fold = crossval::folds(pages.len(), k, seed);
        Ok(Pool { pages, fold, k })
    }
}

/// The last two components of a path, for provenance lines that do not
/// depend on where the checkout is.
pub fn last_components(p: &Path) -> String {
    let parts: Vec<_> = p.components().rev().take(2).collect();
    parts
        .into_iter()
        .rev()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// Parses a pool argument `NAME=PAGES_DIR:GOLD_DIR` (`matrix --pool`) into
/// its name and its two folders; the name is not empty and has no `/`.
pub fn parse_pool_arg(s: &str) -> std::result::Result<(String, PathBuf, PathBuf), String> {
    let bad = || format!("{s:?}: give a pool as NAME=PAGES_DIR:GOLD_DIR");
    let (name, dirs) = s.split_once('=').ok_or_else(bad)?;
    let (pages, gold) = dirs.split_once(':').ok_or_else(bad)?;
    if name.is_empty() || name.contains('/') || pages.is_empty() || gold.is_empty() {
        return Err(bad());
    }
    Ok((name.to_string(), pages.into(), gold.into()))
}

/// Writes a report `text` to `path`, making its folder first; errors name the path.
pub fn write_report(path: &Path, text: &str) -> Result<()> {
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
    }
    std::fs::write(path, text).map_err(|e| Error::io(path, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pool_and_operating_point_arguments() {
        assert_eq!(
            parse_pool_arg("cleaneval=a/pages:b/gold").unwrap(),
            ("cleaneval".into(), "a/pages".into(), "b/gold".into())
        );
        for bad in ["x", "=a:b", "n/m=a:b", "n=a", "n=:b", "n=a:"] {
            assert!(parse_pool_arg(bad).is_err(), "{bad}");
        }
        use crate::train::{OperatingPoint, parse_operating_point};
        assert!(matches!(
            parse_operating_point("max-f"),
            Ok(OperatingPoint::MaxF)
        ));
        assert!(matches!(
            parse_operating_point("min-precision:0.9"),
            Ok(OperatingPoint::MinPrecision(p)) if p == 0.9
        ));
        assert!(matches!(
            parse_operating_point("f-beta:0.5"),
            Ok(OperatingPoint::MaxFBeta(b)) if b == 0.5
        ));
        for bad in ["f", "min-precision:x", "f-beta", "max-f:1"] {
            assert!(parse_operating_point(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn reports_are_written_with_their_folder() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("report/sub/ablation.md");
        write_report(&path, "# T\n").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "# T\n");
    }

    #[test]
    fn labels_tell_directories_apart() {
        let l = |ds: &[&str]| dir_labels(&ds.iter().map(Path::new).collect::<Vec<_>>());
        assert_eq!(l(&["x/dev", "x/train"]), vec!["dev", "train"]);
        assert_eq!(
            l(&["a/dev", "b/dev", "b/train"]),
            vec!["a/dev", "b/dev", "train"]
        );
        assert_eq!(l(&["dev"]), vec!["dev"]);
        assert_eq!(l(&["a/dev", "a/dev"]), vec!["a/dev#0", "a/dev#1"]);
        assert_eq!(last_components(Path::new("../shared/data/x/dev")), "x/dev");
    }

    #[test]
    fn two_dev_folders_do_not_collide() {
        let t = tempfile::tempdir().unwrap();
        let mut dirs = Vec::new();
        for d in ["a", "b"] {
            let (h, g) = (t.path().join(d).join("dev"), t.path().join("gold").join(d));
            std::fs::create_dir_all(&h).unwrap();
            std::fs::create_dir_all(&g).unwrap();
            std::fs::write(h.join("1.html"), "<p>x</p>").unwrap();
            std::fs::write(h.join("skip.html"), "<p>y</p>").unwrap();
            std::fs::write(g.join("1.txt"), "<p> x").unwrap();
            std::fs::write(g.join("skip.txt"), "<p> y").unwrap();
            dirs.push((h, g));
        }
        let p = pair_dirs(&dirs, &["skip".to_string()]).unwrap();
        let keys: Vec<&str> = p.iter().map(|x| x.key.as_str()).collect();
        assert_eq!(keys, vec!["a/dev/1", "b/dev/1"]);
        let one = pair_dirs(&dirs[..1], &[]).unwrap();
        assert_eq!(
            one.iter().map(|x| x.key.as_str()).collect::<Vec<_>>(),
            vec!["1", "skip"]
        );
        assert!(pair_dirs(&dirs[..1], &["1".into(), "s".into()]).is_err());
    }
}
