//! `ncleaner lm`: train word language models, convert them to and from ARPA.

use std::io::Write;
use std::path::PathBuf;

use crate::lm as wordlm;
use anyhow::{Context, Result};
use ncleaner::lm::{Estimator, TrainConfig, WordLm};

/// Arguments of `ncleaner lm`.
#[derive(clap::Args)]
pub struct Args {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// `ncleaner lm` subcommands.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Train a word n-gram model (interpolated modified Kneser–Ney) from plain text,
    /// or convert an ARPA file (e.g. from KenLM's lmplz) to the binary form.
    Train(TrainArgs),
    /// Write a word model in the ARPA format (readable by KenLM, SRILM).
    Export(ExportArgs),
}

/// Arguments of `ncleaner lm train`.
#[derive(clap::Args)]
#[command(
    after_help = "Text is read line by line (any size); sentences are split within lines.\n\n\
    Examples:\n  \
    ncleaner lm train --text corpus.txt -n 3 -o my.ncwl\n  \
    ncleaner lm train --gold ../shared/data/gold/cleaneval/dev -o en-ppl.ncwl\n  \
    ncleaner lm train --arpa kenlm.arpa -o kenlm.ncwl"
)]
pub struct TrainArgs {
    /// Plain-text files or directories (searched recursively); `-` for standard input.
    #[arg(long, value_name = "FILE|DIR", required_unless_present_any = ["gold", "arpa"])]
    pub text: Vec<PathBuf>,

    /// CleanEval gold files or directories: `URL:` lines skipped, `<p>`/`<h>`/`<l>` markers removed.
    #[arg(long, value_name = "FILE|DIR")]
    pub gold: Vec<PathBuf>,

    /// Read this ARPA file instead of training (the model is converted, not re-estimated).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["text", "gold"])]
    pub arpa: Option<PathBuf>,

    /// The order: 2 (bigrams) or 3 (trigrams).
    #[arg(short = 'n', long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=3))]
    pub order: u32,

    /// Prune highest-order n-grams seen fewer than K times.
    #[arg(long, default_value_t = 1, value_name = "K")]
    pub min_count: u32,

    /// Hold at most this many highest-order n-grams while counting: when the
    /// table is full, the rarest are dropped (lossy counting), which bounds
    /// memory on text of any size; 0: no bound. Roughly 16–40 bytes each.
    #[arg(long, default_value_t = 20_000_000, value_name = "N")]
    pub max_ngrams: usize,

    /// The model file to write (binary form).
    #[arg(short, long, value_name = "MODEL")]
    pub output: PathBuf,
}

/// Arguments of `ncleaner lm export`.
#[derive(clap::Args)]
pub struct ExportArgs {
    /// The word model: `en-ppl` (embedded) or a model file.
    #[arg(long, short = 'm', default_value = "en-ppl")]
    pub model: String,

    /// Write the ARPA file here (`-` for standard output).
    #[arg(long, value_name = "FILE")]
    pub arpa: PathBuf,
}

/// Runs `ncleaner lm`.
pub fn run(args: Args) -> Result<()> {
    match args.command {
        Command::Train(a) => train(a),
        Command::Export(a) => export(a),
    }
}

fn train(args: TrainArgs) -> Result<()> {
    let model = if let Some(arpa) = &args.arpa {
        WordLm::load(arpa).with_context(|| format!("reading --arpa {}", arpa.display()))?
    } else {
        let mut est = Estimator::new(TrainConfig {
            order: args.order as usize,
            min_count: args.min_count,
            max_ngrams: args.max_ngrams,
        })?;
        let progress = |name: &str, lines: u64, sentences: u64| {
            eprintln!("ncleaner lm train: {name}: {lines} lines, {sentences} sentences")
        };
        let files = wordlm::add_text_files(&mut est, &args.text, progress)?
            + wordlm::add_gold_files(&mut est, &args.gold)?;
        eprintln!(
            "ncleaner lm train: {} sentences from {files} file(s); estimating",
            est.sentences()
        );
        if est.pruned_below() > 0 {
            eprintln!(
                "ncleaner lm train: over --max-ngrams {}: {}-grams seen at most {} time(s) were dropped while counting",
                args.max_ngrams,
                args.order,
                est.pruned_below()
            );
        }
        let provenance =
            wordlm::provenance(args.order as usize, args.min_count, files, est.sentences());
        est.estimate(&provenance)?
    };
    model.save(&args.output)?;
    let sizes: Vec<String> = (1..=model.order())
        .map(|k| format!("{}-grams {}", k, model.table(k).len()))
        .collect();
    eprintln!(
        "ncleaner lm train: wrote {} ({})",
        args.output.display(),
        sizes.join(", ")
    );
    Ok(())
}

fn export(args: ExportArgs) -> Result<()> {
    let model = ncleaner::WordLm::open(&args.model)
        .with_context(|| format!("loading word model {}", args.model))?;
    if args.arpa.as_os_str() == "-" {
        let mut out = std::io::BufWriter::new(std::io::stdout().lock());
        model
            .write_arpa(&mut out)
            .context("writing to standard output")?;
        out.flush().context("writing to standard output")?;
    } else {
        let f = std::fs::File::create(&args.arpa)
            .with_context(|| format!("creating {}", args.arpa.display()))?;
        let mut out = std::io::BufWriter::new(f);
        model
            .write_arpa(&mut out)
            .and_then(|_| out.flush())
            .with_context(|| format!("writing {}", args.arpa.display()))?;
    }
    Ok(())
}
