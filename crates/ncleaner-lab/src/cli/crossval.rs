//! `ncleaner crossval`: the paper's Table 2 (and Figure 3) by cross-validation.

use std::path::PathBuf;

use crate::experiment::{plot, report, table};
use anyhow::Result;
use ncleaner::model::TrainOptions;

use super::pool::{PoolArgs, ReportArgs};

/// Arguments of `ncleaner crossval`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    pool: PoolArgs,
    /// Decision threshold of the model rows.
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    threshold: f64,
    /// Also write every row's cleaned pages under DIR/ROW/KEY.txt (CleanEval format).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    #[command(flatten)]
    report: ReportArgs,
    /// Instead of the paper's table: the "Beyond NCleaner" steps one by one
    /// (aligned dirty model, classifier, neighbours, class/id words, HMM,
    /// operating points), and the calibration of the default model's
    /// probabilities; also written to DIR/ablation.md with --report DIR.
    #[arg(long, conflicts_with = "page_quality")]
    ablation: bool,
    /// Instead of the paper's table: the page-quality model under nested
    /// cross-validation (each outer fold's model fits its page-quality model
    /// on its own training pages): correlation of predicted with true
    /// per-page precision and recall, and the precision/yield curve of
    /// `clean --min-page-quality`; also written to DIR/page-quality.md.
    #[arg(long)]
    page_quality: bool,
}

/// Runs `ncleaner crossval`.
pub fn run(args: Args) -> Result<()> {
    if args.page_quality {
        let pairs = args.pool.pairs()?;
        return super::ablation::page_quality(
            &pairs,
            args.pool.folds,
            args.pool.seed,
            args.report.report.as_deref(),
        );
    }
    if args.ablation {
        let pairs = args.pool.pairs()?;
        return super::ablation::run(
            &pairs,
            args.pool.folds,
            args.pool.seed,
            args.report.report.as_deref(),
        );
    }
    let pool = args.pool.load()?;
    let rows = table::paper_rows(
        &TrainOptions::lexical(),
        &TrainOptions::non_lexical(),
        args.threshold,
    );
    let t = table::crossval_table(&pool.pages, &pool.fold, pool.k, &rows)?;
    let md = report::table2(&t);
    print!("{md}");
    eprintln!(
        "ncleaner: {} pages, {} folds, {} rows in {:.1} s",
        t.pages,
        pool.k,
        t.rows.len(),
        t.seconds
    );
    if let Some(out) = &args.out {
        for r in &t.rows {
            for (page, text) in pool.pages.iter().zip(&r.outputs) {
                let path = out.join(r.variant.slug()).join(format!("{}.txt", page.key));
                crate::pool::write_report(&path, text)?;
            }
        }
    }
    args.report.write("table2.md", &md)?;
    // Figure 3: the lexical model on HTML against the raw dump.
    let lex = &t.rows[2];
    if let (Some(base), Some(hist)) = (
        t.baseline_of(lex),
        report::precision_histogram(&t, &lex.variant.name, 5.0),
    ) {
        eprint!("{hist}");
        args.report.write("fig3-precision.md", &hist)?;
        let d = table::precision_differences(&lex.report, &base.report);
        args.report.chart(
            "fig3-precision",
            &plot::precision_chart(&d, &lex.variant.name, 5.0),
        )?;
    }
    Ok(())
}
