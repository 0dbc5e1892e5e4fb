//! `ncleaner curve`: the learning curve (the paper's Figure 4).

use crate::experiment::{curve, plot, report};
use anyhow::Result;
use ncleaner::model::{Alphabet, TrainOptions};

use super::pool::{PoolArgs, ReportArgs, parse_orders};

/// Arguments of `ncleaner curve`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    pool: PoolArgs,
    /// Training-set sizes in pages (a size of the whole training part or more trains on all of it).
    #[arg(long, default_value = "1,2,5,10,20,50,100,200,1000", value_parser = parse_orders)]
    sizes: std::vec::Vec<usize>,
    /// Random draws per size.
    #[arg(long, default_value_t = 10)]
    draws: usize,
    /// The held-out set is fold 0 of this many folds (seeded with --seed); the rest is drawn from.
    #[arg(long, default_value_t = 4)]
    held_out_folds: usize,
    /// The non-lexical model.
    #[arg(long)]
    nonlexical: bool,
    /// The n-gram order (default: the model's default).
    #[arg(short, long)]
    n: Option<usize>,
    /// The interpolation parameter (default: the model's default).
    #[arg(short, long)]
    q: Option<f64>,
    /// Decision threshold.
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    threshold: f64,
    #[command(flatten)]
    report: ReportArgs,
}

/// Runs `ncleaner curve`.
pub fn run(args: Args) -> Result<()> {
    let pool = args.pool.load()?;
    let mut params = if args.nonlexical {
        TrainOptions::non_lexical()
    } else {
        TrainOptions::lexical()
    };
    params.n = args.n.unwrap_or(params.n);
    params.q = args.q.unwrap_or(params.q);
    let t = std::time::Instant::now();
    let opts = curve::CurveOptions {
        params,
        sizes: args.sizes,
        draws: args.draws,
        seed: args.pool.seed,
        held_out_folds: args.held_out_folds,
        threshold: args.threshold,
        ..Default::default()
    };
    let c = curve::learning_curve(&pool.pages, &opts)?;
    let md = report::curve(&c);
    print!("{md}");
    eprintln!(
        "ncleaner: {} models trained and scored in {:.1} s",
        c.points.len(),
        t.elapsed().as_secs_f64()
    );
    let suffix = if opts.params.alphabet == Alphabet::NonLexical {
        "-nonlexical"
    } else {
        ""
    };
    args.report
        .write(&format!("fig4-learning-curve{suffix}.md"), &md)?;
    args.report.chart(
        &format!("fig4-learning-curve{suffix}"),
        &plot::curve_chart(&c),
    )?;
    Ok(())
}
