//! `ncleaner crossval --ablation`: the "Beyond NCleaner" steps one by one.

use std::path::Path;

use crate::ablation;
use crate::crossval;
use crate::train::{Pair, TrainConfig, Trainer};
use anyhow::Result;
use ncleaner::InputKind;

/// Cross-validates every ablation step on the paired pages and prints the
/// table, then the reliability table of the default model's probabilities
/// (HTML and text input); with `report`, also writes both to `report/ablation.md`.
pub fn run(pairs: &[Pair], folds: usize, seed: u64, report: Option<&Path>) -> Result<()> {
    let t = std::time::Instant::now();
    let trainer = Trainer::new(crossval::load_pool(pairs)?);
    let fold = crossval::folds(trainer.pages().len(), folds, seed);
    let steps = ablation::steps();
    let rows = ablation::run(&trainer, &fold, folds, &steps, |row| {
        let m = row.report.micro();
        eprintln!(
            "ncleaner: {:<22} {:<4} F {:.2} P {:.2} R {:.2} ({:.0} s)",
            row.name,
            row.input.as_str(),
            100.0 * m.f,
            100.0 * m.precision,
            100.0 * m.recall,
            row.seconds
        );
    })?;
    let mut md = format!(
        "## Ablation: {} pages, {folds}-fold cross-validation (seed {seed}), word-level micro-averages\n\n{}",
        trainer.pages().len(),
        ablation::markdown(&steps, &rows)
    );
    for input in [InputKind::Html, InputKind::Text] {
        let bins = trainer.calibration(&fold, folds, &TrainConfig::lexical(), input, 10)?;
        md.push_str(&format!(
            "\n### Reliability of the default model's probabilities, {} input (held-out segments; expected calibration error {:.3})\n\n{}",
            if input == InputKind::Html { "HTML" } else { "text-dump" },
            ablation::calibration_error(&bins),
            ablation::calibration_markdown(&bins)
        ));
    }
    print!("{md}");
    if let Some(dir) = report {
        crate::pool::write_report(&dir.join("ablation.md"), &md)?;
    }
    eprintln!("ncleaner: ablation in {:.0} s", t.elapsed().as_secs_f64());
    Ok(())
}

/// `ncleaner crossval --page-quality`: the nested cross-validation of the
/// page-quality model; prints the report and, with `report`, writes
/// `report/page-quality.md`.
pub fn page_quality(pairs: &[Pair], folds: usize, seed: u64, report: Option<&Path>) -> Result<()> {
    let t = std::time::Instant::now();
    let trainer = Trainer::new(crossval::load_pool(pairs)?);
    let fold = crossval::folds(trainer.pages().len(), folds, seed);
    let inner = 5;
    let m = crate::experiment::page_quality::cross_validate(
        &trainer,
        &fold,
        folds,
        &TrainConfig::lexical(),
        inner,
    )?;
    let md = crate::experiment::page_quality::markdown(&m, trainer.pages().len(), folds, inner);
    print!("{md}");
    if let Some(dir) = report {
        crate::pool::write_report(&dir.join("page-quality.md"), &md)?;
    }
    eprintln!(
        "ncleaner: page quality in {:.0} s",
        t.elapsed().as_secs_f64()
    );
    Ok(())
}
