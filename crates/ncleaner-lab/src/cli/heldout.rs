//! `ncleaner heldout`: Table 2's rows with fixed models on pages never trained on.

use std::path::PathBuf;
use std::sync::Arc;

use crate::experiment::{self, report, table};
use anyhow::Result;
use ncleaner::model::{Alphabet, TrainOptions};

use super::open_model;
use super::pool::ReportArgs;

/// Arguments of `ncleaner heldout`.
#[derive(clap::Args)]
pub struct Args {
    /// Directory of HTML pages (repeatable; pairs with the --gold of the same position).
    #[arg(long, value_name = "DIR", required = true)]
    html: Vec<PathBuf>,
    /// Directory of gold files (repeatable).
    #[arg(long, value_name = "DIR", required = true)]
    gold: Vec<PathBuf>,
    /// The lexical model: `en` (embedded) or a model file.
    #[arg(long, short = 'm', default_value = "en", value_name = "en|PATH")]
    model: String,
    /// The non-lexical model: `en-nonlex` or a model file.
    #[arg(long, default_value = "en-nonlex", value_name = "en-nonlex|PATH")]
    nonlex_model: String,
    /// Decision threshold of the model rows (bits); by default each model's
    /// own operating point (the paper's rule, 0, for models without a classifier).
    #[arg(long, allow_negative_numbers = true)]
    threshold: Option<f64>,
    /// Name of the set, for the report file (`heldout-NAME.md`).
    #[arg(long, default_value = "set")]
    name: String,
    #[command(flatten)]
    report: ReportArgs,
}

/// Runs `ncleaner heldout`.
pub fn run(args: Args) -> Result<()> {
    anyhow::ensure!(
        args.html.len() == args.gold.len(),
        "give --html and --gold in pairs"
    );
    let dirs: Vec<(PathBuf, PathBuf)> = args
        .html
        .iter()
        .cloned()
        .zip(args.gold.iter().cloned())
        .collect();
    let pages = crate::crossval::load_pool(&experiment::pairs(&dirs)?)?;
    let lex = Arc::new(open_model("--model", &args.model)?);
    let nonlex = Arc::new(open_model("--nonlex-model", &args.nonlex_model)?);
    let params = |m: &ncleaner::Model| TrainOptions {
        n: m.meta.n,
        q: m.meta.q,
        alphabet: m.meta.alphabet,
    };
    // Rows pick their model by alphabet: two models of one alphabet would be confused.
    anyhow::ensure!(
        lex.meta.alphabet == Alphabet::Lexical && nonlex.meta.alphabet == Alphabet::NonLexical,
        "--model must be a lexical model and --nonlex-model a non-lexical one (got {} and {})",
        lex.meta.alphabet.name(),
        nonlex.meta.alphabet.name()
    );
    let mut rows = table::paper_rows(
        &params(&lex),
        &params(&nonlex),
        args.threshold.unwrap_or(0.0),
    );
    if args.threshold.is_none() {
        for v in &mut rows {
            let m = if v.alphabet == lex.meta.alphabet {
                &lex
            } else {
                &nonlex
            };
            if let Some(c) = &m.classifier {
                v.threshold = c.operating_threshold(
                    v.input != ncleaner::InputKind::Text,
                    ncleaner::Preference::default(),
                );
            }
        }
    }
    let t = table::fixed_table(&pages, &rows, |v| {
        Some(if v.alphabet == lex.meta.alphabet {
            lex.clone()
        } else {
            nonlex.clone()
        })
    })?;
    let mut md = format!(
        "`{}` ({}) and `{}` ({}) on {} pages never trained on:\n\n",
        args.model,
        lex.meta.alphabet.name(),
        args.nonlex_model,
        nonlex.meta.alphabet.name(),
        t.pages
    );
    md.push_str(&report::table2(&t));
    print!("{md}");
    eprintln!(
        "ncleaner: {} pages, {} rows in {:.1} s",
        t.pages,
        t.rows.len(),
        t.seconds
    );
    args.report
        .write(&format!("heldout-{}.md", args.name), &md)?;
    Ok(())
}
