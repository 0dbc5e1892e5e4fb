//! The cross-domain matrix (`ncleaner matrix`): models trained on each pool
//! of gold data and on all pools together, each tested on every pool.
//!
//! A pool is a named set of pages with gold files (CleanEval 2007, Dragnet
//! 2012, Google News 2008, …). For a training set `T` (one pool, or all) and
//! a test pool `B`:
//!
//! - if `B` is not in `T`, one model trained on all of `T` cleans all of `B`;
//! - if `B` is in `T`, every page of `B` is cleaned by a model trained on
//!   the pages of `T` outside the page's fold (`k` folds, assigned within
//!   each pool so that every pool splits evenly), so that no test page is
//!   ever trained on. The fold models leave out fold `f` of every pool of
//!   `T`, not only of `B`: one set of `k` models then serves every test pool
//!   of `T`, at the price of 1/k of the other pools' pages.
//!
//! Every cell is scored with `--words-only` (the measure that treats tools
//! without segment markers and gold files without them, Dragnet's, alike),
//! and, for pools whose gold files carry markers, also with the paper's
//! scoring. Outputs of other systems (Trafilatura, jusText, …; written by
//! `scripts/peers.py`) are scored on the same pages by the same rules.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use rayon::prelude::*;

use crate::crossval::{self, PoolPage};
use crate::error::{Error, Result};
use crate::eval::{EvalOptions, Report, score_texts};
use crate::train::{Pair, TrainConfig, Trainer};
use ncleaner::Cleaner;
use ncleaner::InputKind;
use ncleaner::format;
use ncleaner::{Method, Preference};

/// [`Pools::pool_of`] of a page that only trains (`matrix --train-pool`):
/// it joins the training of the sets that take them ([`TrainSet::extra`])
/// and is never tested.
pub const TRAIN_ONLY: usize = usize::MAX;

/// The pages of several pools and the fold of each page.
pub struct Pools {
    /// Pool names, in the order given.
    pub names: Vec<String>,
    /// The pool of each page of the trainer (an index into `names`).
    pub pool_of: Vec<usize>,
    /// The fold of each page, within its pool.
    pub fold: Vec<usize>,
    /// Number of folds.
    pub k: usize,
    /// Whether each pool's gold files carry segment markers.
    pub marked: Vec<bool>,
    /// The names of the pools whose pages only train ([`TRAIN_ONLY`]).
    pub extra: Vec<String>,
}

impl Pools {
    /// Assigns folds within each pool (`pool_of[i]`: the pool of page `i`).
    pub fn new(
        names: Vec<String>,
        pool_of: Vec<usize>,
        pages: &[PoolPage],
        k: usize,
        seed: u64,
    ) -> Pools {
        let mut fold = vec![TRAIN_ONLY; pool_of.len()];
        for p in 0..names.len() {
            let members: Vec<usize> = (0..pool_of.len()).filter(|&i| pool_of[i] == p).collect();
            let f = crossval::folds(members.len(), k, seed);
            for (j, &i) in members.iter().enumerate() {
                fold[i] = f[j];
            }
        }
        let marked: Vec<bool> = (0..names.len())
            .map(|p| {
                (0..pool_of.len())
                    .filter(|&i| pool_of[i] == p)
                    .any(|i| has_markers(&pages[i].gold))
            })
            .collect();
        Pools {
            names,
            pool_of,
            fold,
            k,
            marked,
            extra: Vec::new(),
        }
    }
}

/// Pairs the pages of named pools, each given as `(NAME, PAGES_DIR,
/// GOLD_DIR)`; a name given more than once joins its directories. Keys are
/// `NAME/LABEL/REL`, LABEL being the directory's [`crate::pool::dir_labels`]
/// label among the directories of its pool (the folder's name unless two of
/// them share one), the layout the peers' outputs are read from
/// (`PEERS/SYSTEM/NAME/LABEL/REL.txt`). Returns the pool names in the order
/// first given, the pairs, and the pool of each pair.
pub fn pair_pools(
    pools: &[(String, PathBuf, PathBuf)],
) -> Result<(Vec<String>, Vec<Pair>, Vec<usize>)> {
    let mut names: Vec<String> = Vec::new();
    for (name, _, _) in pools {
        if !names.contains(name) {
            names.push(name.clone());
        }
    }
    let mut labels = vec![String::new(); pools.len()];
    for name in &names {
        let mine: Vec<usize> = (0..pools.len()).filter(|&i| &pools[i].0 == name).collect();
        let dirs: Vec<&Path> = mine.iter().map(|&i| pools[i].1.as_path()).collect();
        for (&i, l) in mine.iter().zip(crate::pool::dir_labels(&dirs)) {
            labels[i] = l;
        }
    }
    let mut pairs = Vec::new();
    let mut pool_of = Vec::new();
    for ((name, pages, gold), label) in pools.iter().zip(&labels) {
        let p = names.iter().position(|n| n == name).expect("listed above");
        let mut found = crate::train::pair(pages, gold).map_err(|e| {
            Error::Training(format!(
                "pool {name}: pairing {} with {}: {e}",
                pages.display(),
                gold.display()
            ))
        })?;
        if found.is_empty() {
            return Err(Error::Training(format!(
                "pool {name}: no page of {} has a gold file",
                pages.display()
            )));
        }
        for x in &mut found {
            x.key = format!("{name}/{label}/{}", x.key);
        }
        pool_of.extend(std::iter::repeat_n(p, found.len()));
        pairs.extend(found);
    }
    Ok((names, pairs, pool_of))
}

impl Pools {
    /// Pairs ([`pair_pools`]), reads and segments the pools' pages and
    /// assigns `k` folds within each pool (seeded); every pool needs at
    /// least `k` pages.
    pub fn load(
        pools: &[(String, PathBuf, PathBuf)],
        k: usize,
        seed: u64,
    ) -> Result<(Pools, Vec<PoolPage>)> {
        let (names, pairs, pool_of) = pair_pools(pools)?;
        let pages = crossval::load_pool(&pairs)?;
        let pools = Pools::new(names, pool_of, &pages, k, seed);
        for (b, n) in pools.names.iter().enumerate() {
            if pools.pool_of.iter().filter(|&&p| p == b).count() < k {
                return Err(Error::Training(format!(
                    "pool {n} has fewer pages than --folds"
                )));
            }
        }
        Ok((pools, pages))
    }
}

impl Pools {
    /// Appends pages that only train, of the pools `train` (pairs as
    /// [`Pools::load`] reads them), to `pages`: they join every model of the
    /// sets that take them ([`TrainSet::extra`]: the set of all pools) and
    /// are never tested or scored. Returns the pages appended.
    pub fn add_training_only(
        &mut self,
        train: &[(String, PathBuf, PathBuf)],
        pages: &mut Vec<PoolPage>,
    ) -> Result<usize> {
        if train.is_empty() {
            return Ok(0);
        }
        let (names, pairs, _) = pair_pools(train)?;
        let extra = crossval::load_pool(&pairs)?;
        let n = extra.len();
        pages.extend(extra);
        self.pool_of.extend(std::iter::repeat_n(TRAIN_ONLY, n));
        self.fold.extend(std::iter::repeat_n(TRAIN_ONLY, n));
        self.extra.extend(names);
        Ok(n)
    }
}

/// Whether a gold text marks its segments (`<p>`, `<h>`, `<l>` at a line start).
fn has_markers(gold: &str) -> bool {
    gold.lines().any(|l| {
        let b = l.trim_start().as_bytes();
        b.len() >= 3 && b[0] == b'<' && b[2] == b'>' && matches!(b[1] | 0x20, b'p' | b'h' | b'l')
    })
}

/// A training set: the pools it holds.
#[derive(Debug, Clone)]
pub struct TrainSet {
    /// Its name (a pool's, or `all`).
    pub name: String,
    /// The pools (indices into [`Pools::names`]).
    pub pools: Vec<usize>,
    /// Whether the training-only pages ([`TRAIN_ONLY`]) join every model of the set.
    pub extra: bool,
}

/// The default training sets: each pool alone, then all pools together.
pub fn train_sets(pools: &Pools) -> Vec<TrainSet> {
    let mut sets: Vec<TrainSet> = (0..pools.names.len())
        .map(|p| TrainSet {
            name: pools.names[p].clone(),
            pools: vec![p],
            extra: false,
        })
        .collect();
    if pools.names.len() > 1 || !pools.extra.is_empty() {
        let mut name = "all".to_string();
        if !pools.extra.is_empty() {
            name = format!("all + {} (training only)", pools.extra.join(" + "));
        }
        sets.push(TrainSet {
            name,
            pools: (0..pools.names.len()).collect(),
            extra: true,
        });
    }
    sets
}

/// One row of the matrix: a system and its scores on each test pool.
#[derive(Debug, Clone)]
pub struct Row {
    /// The training set (`trained on X`) or the other system's name.
    pub name: String,
    /// Per test pool: the word-only report.
    pub words: Vec<Report>,
    /// Per test pool: the paper's scoring (pools with marked gold only).
    pub paper: Vec<Option<Report>>,
    /// Seconds the row took.
    pub seconds: f64,
}

fn score_pool(
    pages: &[PoolPage],
    pools: &Pools,
    outputs: &[String],
    b: usize,
    words_only: bool,
) -> Report {
    let texts: Vec<(String, &str, &str)> = (0..pages.len())
        .filter(|&i| pools.pool_of[i] == b)
        .map(|i| {
            (
                pages[i].key.clone(),
                outputs[i].as_str(),
                pages[i].gold.as_str(),
            )
        })
        .collect();
    score_texts(
        texts,
        &EvalOptions {
            words_only,
            ..EvalOptions::default()
        },
    )
}

fn row_of(
    name: String,
    pages: &[PoolPage],
    pools: &Pools,
    outputs: &[String],
    seconds: f64,
) -> Row {
    let n = pools.names.len();
    Row {
        name,
        words: (0..n)
            .map(|b| score_pool(pages, pools, outputs, b, true))
            .collect(),
        paper: (0..n)
            .map(|b| pools.marked[b].then(|| score_pool(pages, pools, outputs, b, false)))
            .collect(),
        seconds,
    }
}

/// Cleans every page with the models of one training set (see the module
/// documentation for which model cleans which page); outputs in CleanEval
/// format, in page order.
pub fn clean_all(
    trainer: &Trainer,
    pools: &Pools,
    set: &TrainSet,
    cfg: &TrainConfig,
    preference: Preference,
) -> Result<Vec<String>> {
    let pages = trainer.pages();
    let in_set = |i: usize| set.pools.contains(&pools.pool_of[i]);
    let extra = |i: usize| set.extra && pools.pool_of[i] == TRAIN_ONLY;
    let tested = |i: usize| pools.pool_of[i] != TRAIN_ONLY;
    let needs_full = (0..pages.len()).any(|i| tested(i) && !in_set(i));
    // Model 0..k: fold models; k: the model of the whole set (if needed).
    let jobs: Vec<usize> = (0..pools.k).chain(needs_full.then_some(pools.k)).collect();
    let per_job: Vec<Result<Vec<(usize, String)>>> = jobs
        .into_par_iter()
        .map(|job| {
            let train: Vec<usize> = (0..pages.len())
                .filter(|&i| extra(i) || (in_set(i) && (job == pools.k || pools.fold[i] != job)))
                .collect();
            let test: Vec<usize> = (0..pages.len())
                .filter(|&i| {
                    if !tested(i) {
                        false
                    } else if job == pools.k {
                        !in_set(i)
                    } else {
                        in_set(i) && pools.fold[i] == job
                    }
                })
                .collect();
            if test.is_empty() {
                return Ok(Vec::new());
            }
            let model = trainer.fit(&train, cfg)?;
            let cleaner = Cleaner::from_model(model)
                .with_method(Method::NCleaner)
                .with_preference(preference);
            Ok(test
                .into_iter()
                .map(|i| {
                    let c = crossval::clean_segments(&cleaner, &pages[i], InputKind::Html);
                    (i, format::cleaneval_string(&c))
                })
                .collect())
        })
        .collect();
    let mut out: Vec<Option<String>> = vec![None; pages.len()];
    for r in per_job {
        for (i, s) in r? {
            out[i] = Some(s);
        }
    }
    out.into_iter()
        .enumerate()
        .map(|(i, s)| match s {
            Some(s) => Ok(s),
            None if !tested(i) => Ok(String::new()),
            None => Err(Error::Training(format!(
                "page {} was not cleaned",
                pages[i].key
            ))),
        })
        .collect()
}

/// Runs every training set; `progress` is told each row as it ends.
pub fn run(
    trainer: &Trainer,
    pools: &Pools,
    sets: &[TrainSet],
    cfg: &TrainConfig,
    preference: Preference,
    mut progress: impl FnMut(&Row),
) -> Result<Vec<Row>> {
    let mut rows = Vec::new();
    for set in sets {
        let t = Instant::now();
        let outputs = clean_all(trainer, pools, set, cfg, preference)?;
        let row = row_of(
            format!("ncleaner, trained on {}", set.name),
            trainer.pages(),
            pools,
            &outputs,
            t.elapsed().as_secs_f64(),
        );
        progress(&row);
        rows.push(row);
    }
    Ok(rows)
}

/// Scores the outputs of other systems found under `dir/SYSTEM/KEY.txt`
/// (one row per subfolder, in name order). A page with no output file
/// counts as an empty output, as a lost document does.
pub fn peer_rows(trainer: &Trainer, pools: &Pools, dir: &Path) -> Result<Vec<Row>> {
    let mut systems = BTreeMap::new();
    let entries = std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))?;
    for e in entries {
        let e = e.map_err(|e| Error::io(dir, e))?;
        if e.path().is_dir() {
            systems.insert(e.file_name().to_string_lossy().into_owned(), e.path());
        }
    }
    let mut rows = Vec::new();
    for (name, path) in systems {
        let t = Instant::now();
        let outputs: Vec<String> = trainer
            .pages()
            .par_iter()
            .map(|p| {
                let f = path.join(format!("{}.txt", p.key));
                std::fs::read(&f)
                    .map(|b| String::from_utf8_lossy(&b).into_owned())
                    .unwrap_or_default()
            })
            .collect();
        let found = trainer
            .pages()
            .iter()
            .filter(|p| path.join(format!("{}.txt", p.key)).is_file())
            .count();
        if found == 0 {
            return Err(Error::Training(format!(
                "{}: no output file for any page (expected {}/KEY.txt)",
                path.display(),
                path.display()
            )));
        }
        rows.push(row_of(
            name,
            trainer.pages(),
            pools,
            &outputs,
            t.elapsed().as_secs_f64(),
        ));
    }
    Ok(rows)
}

/// The matrix as Markdown: word-only F/P/R per test pool, then the paper's
/// scoring for the pools whose gold files mark segments.
pub fn markdown(pools: &Pools, rows: &[Row]) -> String {
    let mut s = String::new();
    let pages_of = |b: usize| pools.pool_of.iter().filter(|&&p| p == b).count();
    let _ = writeln!(
        s,
        "Word-level micro F / P / R, `--words-only` (markers ignored), {}-fold where a row trains on the test pool:\n",
        pools.k
    );
    s.push_str("| system |");
    for (b, n) in pools.names.iter().enumerate() {
        let _ = write!(s, " {n} ({} pages) |", pages_of(b));
    }
    s.push_str("\n|---|");
    s.push_str(&"---:|".repeat(pools.names.len()));
    s.push('\n');
    for r in rows {
        let _ = write!(s, "| {} |", r.name);
        for rep in &r.words {
            let m = rep.micro();
            let _ = write!(
                s,
                " {:.2} / {:.2} / {:.2} |",
                100.0 * m.f,
                100.0 * m.precision,
                100.0 * m.recall
            );
        }
        s.push('\n');
    }
    let marked: Vec<usize> = (0..pools.names.len())
        .filter(|&b| pools.marked[b])
        .collect();
    if !marked.is_empty() {
        s.push_str("\nThe paper's scoring (words and segment markers), pools whose gold files mark segments:\n\n| system |");
        for &b in &marked {
            let _ = write!(s, " {} |", pools.names[b]);
        }
        s.push_str("\n|---|");
        s.push_str(&"---:|".repeat(marked.len()));
        s.push('\n');
        for r in rows {
            let _ = write!(s, "| {} |", r.name);
            for &b in &marked {
                match &r.paper[b] {
                    Some(rep) => {
                        let m = rep.micro();
                        let _ = write!(
                            s,
                            " {:.2} / {:.2} / {:.2} |",
                            100.0 * m.f,
                            100.0 * m.precision,
                            100.0 * m.recall
                        );
                    }
                    None => s.push_str(" – |"),
                }
            }
            s.push('\n');
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pool_keys_name_pool_and_folder() {
        let t = tempfile::tempdir().unwrap();
        let mut pools = Vec::new();
        for (name, d) in [("ce", "a/dev"), ("ce", "b/dev"), ("dn", "c/train")] {
            let (h, g) = (t.path().join(d), t.path().join("gold").join(d));
            std::fs::create_dir_all(&h).unwrap();
            std::fs::create_dir_all(&g).unwrap();
            std::fs::write(h.join("1.html"), "<p>x</p>").unwrap();
            std::fs::write(g.join("1.txt"), "<p> x").unwrap();
            pools.push((name.to_string(), h, g));
        }
        let (names, pairs, pool_of) = pair_pools(&pools).unwrap();
        assert_eq!(names, vec!["ce", "dn"]);
        let keys: Vec<&str> = pairs.iter().map(|p| p.key.as_str()).collect();
        assert_eq!(keys, vec!["ce/a/dev/1", "ce/b/dev/1", "dn/train/1"]);
        assert_eq!(pool_of, vec![0, 0, 1]);
    }

    #[test]
    fn markers_are_detected_at_line_starts_only() {
        assert!(has_markers("URL: x\n\n<p> A paragraph.\n<h> A heading"));
        assert!(has_markers("  <L> item"));
        assert!(!has_markers(
            "Plain text with a <p> inside a line.\nAnother line."
        ));
        assert!(!has_markers("Just the article.\nSecond paragraph."));
    }

    #[test]
    fn folds_split_each_pool_evenly() {
        let page =
            |k: &str, gold: &str| PoolPage::from_bytes(k, b"<p>Some text here.</p>", gold.into());
        let mut pages = Vec::new();
        let mut pool_of = Vec::new();
        for i in 0..10 {
            pages.push(page(&format!("a/{i}"), "<p> Some text here."));
            pool_of.push(0);
        }
        for i in 0..4 {
            pages.push(page(&format!("b/{i}"), "Some text here."));
            pool_of.push(1);
        }
        let pools = Pools::new(vec!["a".into(), "b".into()], pool_of, &pages, 2, 7);
        for p in 0..2 {
            let in_fold0 = (0..pages.len())
                .filter(|&i| pools.pool_of[i] == p && pools.fold[i] == 0)
                .count();
            let size = pools.pool_of.iter().filter(|&&x| x == p).count();
            assert_eq!(in_fold0, size / 2, "pool {p} splits evenly");
        }
        assert_eq!(pools.marked, vec![true, false]);
        let sets = train_sets(&pools);
        assert_eq!(
            sets.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(),
            ["a", "b", "all"]
        );
    }
}
