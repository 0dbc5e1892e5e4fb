//! `ncleaner tune`: choose n and q (and the threshold) by cross-validation.

use crate::experiment::{entropy, plot, report, tune};
use anyhow::Result;
use clap::ValueEnum;
use ncleaner::InputKind;
use ncleaner::model::{Alphabet, TrainOptions};

use super::pool::{PoolArgs, ReportArgs, parse_grid, parse_orders};

/// What to minimise or maximise.
#[derive(Clone, Copy, ValueEnum)]
pub enum ObjectiveArg {
    /// Cross-entropy of the raw-dump model, bits per character (the paper's tuning).
    CrossEntropy,
    /// Micro-averaged word-level F of the cleaner.
    F,
    /// Macro-averaged word-level F of the cleaner.
    MacroF,
    /// Micro precision at a micro recall of at least --recall-floor.
    Precision,
}

/// Input kind of the end-to-end objectives.
#[derive(Clone, Copy, ValueEnum)]
pub enum InputArg {
    /// The pages' HTML segments.
    Html,
    /// The pages' Lynx-style text dumps.
    Text,
}

/// Arguments of `ncleaner tune`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    pool: PoolArgs,
    /// Orders n of the grid: A..B or a list.
    #[arg(long, default_value = "1..8", value_parser = parse_orders)]
    orders: std::vec::Vec<usize>,
    /// Interpolation parameters q: FROM:TO:STEP or a list (default 0.05:0.95:0.05
    /// for cross-entropy, 0.1:0.9:0.1 for the end-to-end objectives).
    #[arg(long, value_parser = parse_grid)]
    q_grid: Option<std::vec::Vec<f64>>,
    /// Decision thresholds of the end-to-end objectives (bits).
    #[arg(long, default_value = "-4,-2,-1,0,1,2,4", value_parser = parse_grid, allow_hyphen_values = true)]
    thresholds: std::vec::Vec<f64>,
    /// Tune the non-lexical model (letters → a, digits → 0).
    #[arg(long)]
    nonlexical: bool,
    /// What to optimise.
    #[arg(long, value_enum, default_value = "cross-entropy")]
    objective: ObjectiveArg,
    /// The recall floor of --objective precision, in percent.
    #[arg(long, default_value_t = 90.0)]
    recall_floor: f64,
    /// Input of the end-to-end objectives.
    #[arg(long, value_enum, default_value = "html")]
    input: InputArg,
    /// Grid points listed in the end-to-end ranking.
    #[arg(long, default_value_t = 15)]
    top: usize,
    #[command(flatten)]
    report: ReportArgs,
}

/// Runs `ncleaner tune`.
pub fn run(args: Args) -> Result<()> {
    let pool = args.pool.load()?;
    let alphabet = if args.nonlexical {
        Alphabet::NonLexical
    } else {
        Alphabet::Lexical
    };
    let defaults = if args.nonlexical {
        TrainOptions::non_lexical()
    } else {
        TrainOptions::lexical()
    };
    let t = std::time::Instant::now();
    let name = alphabet.name();
    let objective = match args.objective {
        ObjectiveArg::CrossEntropy => {
            let qs = args
                .q_grid
                .unwrap_or_else(crate::experiment::default_q_grid);
            let g = entropy::cross_entropy(
                &pool.pages,
                &pool.fold,
                pool.k,
                alphabet,
                &args.orders,
                &qs,
            )?;
            let md = report::entropy(&g);
            print!("{md}");
            eprintln!(
                "ncleaner: {} grid points, {} folds, in {:.1} s",
                g.orders.len() * g.qs.len(),
                pool.k,
                t.elapsed().as_secs_f64()
            );
            args.report.write(&format!("tune-entropy-{name}.md"), &md)?;
            args.report
                .chart(&format!("fig2-entropy-{name}"), &plot::entropy_chart(&g))?;
            return Ok(());
        }
        ObjectiveArg::F => tune::Objective::MicroF,
        ObjectiveArg::MacroF => tune::Objective::MacroF,
        ObjectiveArg::Precision => tune::Objective::Precision {
            min_recall: args.recall_floor / 100.0,
        },
    };
    let input = match args.input {
        InputArg::Html => InputKind::Html,
        InputArg::Text => InputKind::Text,
    };
    let opts = tune::FGridOptions {
        alphabet,
        orders: args.orders,
        qs: args
            .q_grid
            .unwrap_or_else(|| (1..10).map(|i| i as f64 / 10.0).collect()),
        thresholds: args.thresholds,
        input,
    };
    let g = tune::f_grid(&pool.pages, &pool.fold, pool.k, &opts)?;
    eprintln!(
        "ncleaner: {} grid points, {} folds, {} page alignments, in {:.1} s",
        g.points.len(),
        pool.k,
        g.alignments,
        t.elapsed().as_secs_f64()
    );
    let mut md = report::f_grid(&g, objective, args.top);
    md.push_str("\nThe defaults and the paper's choices on the same grid:\n\n");
    md.push_str(&report::f_points(&g, &tune::reference_points(alphabet)));
    let c = tune::confirm(&pool.pages, &pool.fold, pool.k, &g, objective, &defaults)?;
    md.push('\n');
    md.push_str(&report::confirmation(&c));
    print!("{md}");
    eprintln!("ncleaner: done in {:.1} s", t.elapsed().as_secs_f64());
    let stem = format!(
        "tune-{}-{name}-{}",
        match objective {
            tune::Objective::MicroF => "f",
            tune::Objective::MacroF => "macro-f",
            tune::Objective::Precision { .. } => "precision",
        },
        crate::crossval::input_name(input).to_lowercase()
    );
    args.report.write(&format!("{stem}.md"), &md)?;
    if g.options.thresholds.contains(&0.0) {
        args.report.chart(&stem, &plot::f_chart(&g, 0.0))?;
    }
    Ok(())
}
