//! `ncleaner train`: train a model from pages and their gold files.

use std::path::PathBuf;

use anyhow::{Context, Result};
use ncleaner::InputKind;
use ncleaner::model::{self, TrainOptions};
use ncleaner::train;

/// Arguments of `ncleaner train`.
#[derive(clap::Args)]
#[command(
    after_help = "Pages and gold files are paired by relative path and file stem \
    (HTML/dev/1.html ↔ GOLD/dev/1.txt). Gold files are in the CleanEval format \
    (segments marked <p>, <h>, <l>) or plain text (one paragraph per line).\n\n\
    Example (the embedded `en` model):\n  \
    ncleaner train --html ../shared/data/cleaneval --gold ../shared/data/gold/cleaneval \\\n    \
    --exclude test -o models/en.nclm"
)]
pub struct Args {
    /// Directory of HTML pages (repeatable; each pairs with the --gold of the same position).
    #[arg(long, value_name = "DIR", required_unless_present = "text")]
    pub html: Vec<PathBuf>,

    /// Directory of plain-text dumps of the pages, instead of HTML (repeatable).
    #[arg(long, value_name = "DIR")]
    pub text: Vec<PathBuf>,

    /// Directory of gold (manually cleaned) files, one per page (repeatable).
    #[arg(long, value_name = "DIR", required = true)]
    pub gold: Vec<PathBuf>,

    /// Skip pages whose relative path starts with this (repeatable), e.g. `test`.
    #[arg(long, value_name = "PREFIX")]
    pub exclude: Vec<String>,

    /// Train the non-lexical model (letters → a, digits → 0); defaults n=6, q=0.4.
    #[arg(long)]
    pub nonlexical: bool,

    /// n-gram order (default 3 lexical, 6 non-lexical).
    #[arg(short = 'n', value_name = "N")]
    pub n: Option<usize>,

    /// Interpolation parameter q in (0, 1) (default 0.5 lexical, 0.4 non-lexical).
    #[arg(short = 'q', value_name = "Q")]
    pub q: Option<f64>,

    /// The model file to write (text form if it ends in .txt, else binary).
    #[arg(short, long, value_name = "MODEL")]
    pub output: PathBuf,
}

/// Runs `ncleaner train`.
pub fn run(args: Args) -> Result<()> {
    let mut opts = if args.nonlexical {
        TrainOptions::non_lexical()
    } else {
        TrainOptions::lexical()
    };
    if let Some(n) = args.n {
        opts.n = n;
    }
    if let Some(q) = args.q {
        opts.q = q;
    }
    model::check_parameters(opts.n, opts.q)?;

    let (dirs, input) = if args.text.is_empty() {
        (&args.html, InputKind::Html)
    } else {
        anyhow::ensure!(args.html.is_empty(), "give --html or --text, not both");
        (&args.text, InputKind::Text)
    };
    anyhow::ensure!(
        dirs.len() == args.gold.len(),
        "{} page director(ies) but {} --gold director(ies): give them in pairs",
        dirs.len(),
        args.gold.len()
    );
    let mut pages = Vec::new();
    let mut sources = Vec::new();
    for (dir, gold) in dirs.iter().zip(&args.gold) {
        let mut pairs = train::pair(dir, gold)?;
        pairs.retain(|p| !args.exclude.iter().any(|x| p.key.starts_with(x.as_str())));
        anyhow::ensure!(
            !pairs.is_empty(),
            "no pages left under {} after --exclude",
            dir.display()
        );
        sources.push(format!("{} ({} pages)", last_components(dir), pairs.len()));
        pages.extend(train::load(&pairs, input)?);
    }
    let provenance = format!(
        "ncleaner train {} n={} q={} on {}{}",
        if args.nonlexical { "--nonlexical" } else { "" },
        opts.n,
        opts.q,
        sources.join(" + "),
        if args.exclude.is_empty() {
            String::new()
        } else {
            format!(" excluding {}", args.exclude.join(", "))
        }
    )
    .replace("  ", " ");
    let m = model::train(&pages, &opts, &provenance)?;
    m.save(&args.output)
        .with_context(|| format!("writing {}", args.output.display()))?;
    eprintln!(
        "ncleaner: trained on {} pages ({} clean, {} raw characters): {}",
        pages.len(),
        m.clean.total(),
        m.raw.total(),
        args.output.display()
    );
    Ok(())
}

/// The last two components of a path, for provenance lines that do not
/// depend on where the checkout is.
fn last_components(p: &std::path::Path) -> String {
    let parts: Vec<_> = p.components().rev().take(2).collect();
    parts
        .into_iter()
        .rev()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}
