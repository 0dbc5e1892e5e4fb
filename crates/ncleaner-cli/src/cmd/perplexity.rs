//! `ncleaner perplexity`: the perplexity of sentences under a word model.

use std::io::{BufRead, Write};

use anyhow::{Context, Result};
use ncleaner::Smoothing;

use super::common::{load_word_model, names};

/// Arguments of `ncleaner perplexity`.
#[derive(clap::Args)]
#[command(after_help = "Examples:\n  \
    ncleaner perplexity \"The cat sat on the mat.\"\n  \
    ncleaner perplexity --json - < sentences.txt")]
pub struct Args {
    /// The sentence, or `-` (the default) for one sentence per line on standard input.
    #[arg(default_value = "-")]
    pub sentence: String,

    /// The word model: `en-ppl` (embedded) or a model file (binary or ARPA).
    #[arg(long, short = 'm', default_value = "en-ppl")]
    pub model: String,

    /// How words are scored: `kneser-ney` (the model's backoff probabilities,
    /// interpolated modified Kneser–Ney for ours) or `pyplexity` (PyPlexity's
    /// bigram formula 0.8·P(w|v) + 0.2·P(v) + 1e-6; models trained by ncleaner).
    #[arg(long, value_parser = names::<Smoothing>(["kneser-ney", "pyplexity"]), default_value = "kneser-ney")]
    pub smoothing: Smoothing,

    /// One JSON object per sentence with its per-token log10 probabilities.
    #[arg(long)]
    pub json: bool,
}

/// Runs `ncleaner perplexity`.
pub fn run(args: Args) -> Result<()> {
    let model = load_word_model(&args.model)?;
    let smoothing = args.smoothing;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let one = |s: &str, out: &mut dyn Write| -> Result<()> {
        let ppl = model.perplexity(s, smoothing)?;
        if args.json {
            // Its words written as they are scored, after the perplexity.
            serde_json::to_writer(&mut *out, &model.json_line(s, ppl, smoothing))?;
            writeln!(out)?;
        } else {
            writeln!(out, "{ppl:.2}")?;
        }
        Ok(())
    };
    if args.sentence == "-" {
        for line in std::io::stdin().lock().split(b'\n') {
            let line = line.context("reading standard input")?;
            let line = String::from_utf8_lossy(&line);
            one(line.trim_end_matches('\r'), &mut out)?;
        }
    } else {
        one(&args.sentence, &mut out)?;
    }
    out.flush().context("writing to standard output")
}
