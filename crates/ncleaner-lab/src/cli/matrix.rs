//! `ncleaner matrix`: the cross-domain matrix (train on each pool and on all, test on each).

use std::path::PathBuf;

use crate::matrix::{self, Pools};
use crate::pool;
use crate::train::{OperatingPoint, TrainConfig, Trainer};
use anyhow::Result;
use ncleaner::Preference;

use super::preference_parser;

/// Arguments of `ncleaner matrix`.
#[derive(clap::Args)]
#[command(
    after_help = "Example (scripts/matrix runs it with the other systems' outputs):\n  \
    ncleaner matrix \\\n    \
    --pool cleaneval=../shared/data/cleaneval/dev:../shared/data/gold/cleaneval/dev \\\n    \
    --pool cleaneval=../shared/data/cleaneval/train:../shared/data/gold/cleaneval/train \\\n    \
    --pool dragnet=../shared/data/dragnet/train:../shared/data/gold/dragnet/train \\\n    \
    --pool googlenews=../shared/data/googlenews/train:../shared/data/gold/googlenews/train \\\n    \
    --peers target/peers --report target/matrix.md\n\n\
    Page keys are POOL/DIR/REL (DIR: the name of the pages folder, or as many trailing path components as \
    tell a pool's folders apart), and the other systems' \
    outputs are read from PEERS/SYSTEM/POOL/DIR/REL.txt."
)]
pub struct Args {
    /// A pool: NAME=PAGES_DIR:GOLD_DIR (repeatable; a NAME given twice joins both folders).
    #[arg(long = "pool", value_name = "NAME=PAGES:GOLD", required = true, value_parser = pool::parse_pool_arg)]
    pub pools: Vec<(String, PathBuf, PathBuf)>,
    /// A pool whose pages only train: they join every model of the row
    /// trained on all pools and are never tested (NAME=PAGES_DIR:GOLD_DIR,
    /// repeatable), as WCXB's pages join the embedded models.
    #[arg(long = "train-pool", value_name = "NAME=PAGES:GOLD", value_parser = pool::parse_pool_arg)]
    pub train_pools: Vec<(String, PathBuf, PathBuf)>,
    /// Page types of the training pages (as `train --page-types`: a folder
    /// of WCXB ground-truth files), for the models' page-type classifier.
    #[arg(long, value_name = "DIR")]
    pub page_types: Vec<PathBuf>,
    /// Number of folds for the cells whose training set holds the test pool.
    #[arg(long, default_value_t = 10)]
    pub folds: usize,
    /// Seed of the fold assignment.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Operating point of the trained models (as `clean --prefer`):
    /// `precision` (the highest pooled F0.5 on the training pages), `f` (the
    /// highest mean per-page F) or `recall` (the highest F-beta, beta 2).
    #[arg(long, value_parser = preference_parser(), default_value = "f")]
    pub prefer: Preference,
    /// The default operating point the models store (`--prefer f`):
    /// `max-page-f` (the highest mean per-page F; the default of `train`),
    /// `min-precision:P` (the highest F whose training precision is at least
    /// P), `f-beta:B` (the highest F-beta), or `max-f`.
    #[arg(long, value_name = "POINT", value_parser = crate::train::parse_operating_point)]
    pub operating_point: Option<OperatingPoint>,
    /// Train the non-lexical models (letters → a, digits → 0).
    #[arg(long)]
    pub nonlexical: bool,
    /// Train only the row of all pools (with the training-only pools: the
    /// embedded models' recipe), not the row of each pool alone.
    #[arg(long)]
    pub only_all: bool,
    /// Score other systems' outputs found under DIR/SYSTEM/ (see below).
    #[arg(long, value_name = "DIR")]
    pub peers: Option<PathBuf>,
    /// Also write the tables to FILE (Markdown).
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
}

/// Runs `ncleaner matrix`.
pub fn run(args: Args) -> Result<()> {
    anyhow::ensure!(args.folds >= 2, "--folds must be at least 2");
    let t = std::time::Instant::now();
    let (mut pools, mut pages) = Pools::load(&args.pools, args.folds, args.seed)?;
    pools.add_training_only(&args.train_pools, &mut pages)?;
    for dir in &args.page_types {
        let labels = crate::train::read_labels(dir)?;
        let n = crate::train::label_pages(&mut pages, &labels);
        eprintln!("ncleaner: {n} pages labelled with their page type");
    }
    let trainer = Trainer::new(pages);
    eprintln!(
        "ncleaner: {} pages in {} pools read, segmented and aligned in {:.1} s",
        trainer.pages().len(),
        pools.names.len(),
        t.elapsed().as_secs_f64()
    );
    let preference = args.prefer;
    let mut sets = matrix::train_sets(&pools);
    if args.only_all {
        sets.retain(|s| s.extra);
        anyhow::ensure!(
            !sets.is_empty(),
            "--only-all needs two pools or a training-only pool (there is no row of all pools)"
        );
    }
    let mut cfg = if args.nonlexical {
        TrainConfig::non_lexical()
    } else {
        TrainConfig::lexical()
    };
    if let (Some(op), Some(c)) = (args.operating_point, cfg.classifier.as_mut()) {
        c.operating_point = op;
    }
    let mut rows = matrix::run(&trainer, &pools, &sets, &cfg, preference, |row| {
        let cells: Vec<String> = row
            .words
            .iter()
            .zip(&pools.names)
            .map(|(r, n)| format!("{n} {:.2}", 100.0 * r.micro().f))
            .collect();
        eprintln!(
            "ncleaner: {:<32} F {} ({:.0} s)",
            row.name,
            cells.join(", "),
            row.seconds
        );
    })?;
    if let Some(dir) = &args.peers {
        rows.extend(matrix::peer_rows(&trainer, &pools, dir)?);
    }
    let md = matrix::markdown(&pools, &rows);
    print!("{md}");
    if let Some(path) = &args.report {
        pool::write_report(path, &md)?;
    }
    eprintln!(
        "ncleaner: matrix done in {:.0} s",
        t.elapsed().as_secs_f64()
    );
    Ok(())
}
