//! `ncleaner clean`: clean pages or text dumps.

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{Context, Result};
use ncleaner::classify::{self, Method, Preference};
use ncleaner::corpus::{self, Origin};
use ncleaner::format::{self, Format, JsonOptions};
use ncleaner::{Cleaner, InputKind};
use rayon::prelude::*;

use super::common::{ModelArg, load_model, thread_pool};

/// Arguments of `ncleaner clean`.
#[derive(clap::Args)]
#[command(after_help = "Examples:\n  \
    ncleaner clean page.html\n  \
    ncleaner clean -o out/ --format cleaneval pages/\n  \
    ncleaner clean --input text --format jsonl --segments dump.txt\n  \
    curl -s https://example.com/ | ncleaner clean -")]
pub struct Args {
    /// Files, directories (searched recursively) or `-` for standard input.
    #[arg(required = true, value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,

    #[command(flatten)]
    pub model: ModelArg,

    /// How to read the inputs: HTML pages, plain-text dumps, or decide per document.
    #[arg(long, value_enum, default_value = "auto")]
    pub input: InputArg,

    /// Output format: CleanEval markup (`<p>`, `<h>`, `<l>` per segment), plain text, or JSON Lines.
    #[arg(long, value_enum, default_value = "cleaneval")]
    pub format: FormatArg,

    /// Decision threshold in bits of log-odds: a segment is kept when its
    /// evidence is at least T. For models with a segment classifier (the
    /// default) the evidence is log2(p / (1 − p)) of its probability p of
    /// being clean (0 ↔ p = 0.5, 2 ↔ p = 0.8); for the paper's models it is
    /// the n-gram score log2 P(clean) − log2 P(dirty). Positive keeps less
    /// (higher precision), negative keeps more. Default: the model's own
    /// operating point (chosen for precision at training time; 0 for the
    /// paper's models).
    #[arg(
        long,
        allow_negative_numbers = true,
        conflicts_with = "min_probability"
    )]
    pub threshold: Option<f64>,

    /// Keep a segment when the classifier's probability that it is clean is
    /// at least P (0–1; the same as --threshold log2(P/(1−P))). The
    /// probabilities are calibrated on the training pages: of the words in
    /// segments given p ≈ 0.8, about 80% are clean.
    #[arg(long, value_name = "P", value_parser = probability)]
    pub min_probability: Option<f64>,

    /// Which operating point stored in the model applies when neither
    /// --threshold nor --min-probability is given: `precision` (the default:
    /// the precision-oriented point the model was trained for) or
    /// `f` (the highest F: more recall, less precision).
    #[arg(long, value_enum, default_value = "precision")]
    pub prefer: PreferArg,

    /// What decides: the n-gram models (ncleaner), the heuristics alone, or nothing (keep-all: the raw text dump).
    #[arg(long, value_enum, default_value = "ncleaner")]
    pub method: MethodArg,

    /// With --format jsonl: include every segment with its kind, score and decision.
    #[arg(long)]
    pub segments: bool,

    /// Write one output file per input under this directory (IN/REL/NAME.ext → OUTDIR/REL/NAME.txt)
    /// instead of everything to standard output.
    #[arg(short, long, value_name = "OUTDIR")]
    pub output: Option<PathBuf>,

    /// Worker threads (default: all cores).
    #[arg(short = 'j', long, value_name = "N")]
    pub jobs: Option<usize>,
}

/// `--input`.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum InputArg {
    /// HTML pages.
    Html,
    /// Plain-text dumps.
    Text,
    /// HTML if the document looks like HTML, else text.
    Auto,
}

impl From<InputArg> for InputKind {
    fn from(a: InputArg) -> InputKind {
        match a {
            InputArg::Html => InputKind::Html,
            InputArg::Text => InputKind::Text,
            InputArg::Auto => InputKind::Auto,
        }
    }
}

/// `--format`.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum FormatArg {
    /// `URL:` line, then one `<p>`/`<h>`/`<l>` segment per line.
    Cleaneval,
    /// Kept segments, one per line.
    Text,
    /// One JSON object per document.
    Jsonl,
}

impl From<FormatArg> for Format {
    fn from(a: FormatArg) -> Format {
        match a {
            FormatArg::Cleaneval => Format::Cleaneval,
            FormatArg::Text => Format::Text,
            FormatArg::Jsonl => Format::Jsonl,
        }
    }
}

/// `--method`.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum MethodArg {
    /// Heuristics, then the clean/dirty character n-gram models.
    Ncleaner,
    /// The segmentation heuristics alone.
    Heuristics,
    /// Keep everything: the raw text dump.
    KeepAll,
}

impl From<MethodArg> for Method {
    fn from(a: MethodArg) -> Method {
        match a {
            MethodArg::Ncleaner => Method::NCleaner,
            MethodArg::Heuristics => Method::Heuristics,
            MethodArg::KeepAll => Method::KeepAll,
        }
    }
}

/// Documents processed per batch: outputs are written in input order after
/// each batch, so memory holds at most one batch of documents.
const BATCH: usize = 256;

/// Runs `ncleaner clean`.
pub fn run(args: Args) -> Result<()> {
    let model = Arc::new(load_model(&args.model)?);
    let method: Method = args.method.into();
    let cleaner = Cleaner::from_shared(model)
        .with_method(method)
        .with_preference(args.prefer.into())
        .with_threshold_option(
            args.threshold
                .or(args.min_probability.map(classify::log2_odds)),
        );
    let origins = corpus::expand(&args.inputs)?;
    let format: Format = args.format.into();
    let input: InputKind = args.input.into();
    let json = JsonOptions {
        segments: args.segments,
    };
    let pool = thread_pool(args.jobs)?;

    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut failed = 0usize;
    for batch in origins.chunks(BATCH) {
        let results: Vec<(&Origin, Result<Vec<u8>>)> = pool.install(|| {
            batch
                .par_iter()
                .map(|origin| (origin, clean_one(&cleaner, origin, input, format, json)))
                .collect()
        });
        for (origin, result) in results {
            let bytes = match result {
                Ok(b) => b,
                Err(e) => {
                    eprintln!("ncleaner: {e:#}");
                    failed += 1;
                    continue;
                }
            };
            match &args.output {
                Some(dir) => {
                    let path = origin.output_path(dir, format.extension());
                    if let Err(e) = write_file(&path, &bytes) {
                        eprintln!("ncleaner: {e:#}");
                        failed += 1;
                    }
                }
                None => out
                    .write_all(&bytes)
                    .context("writing to standard output")?,
            }
        }
    }
    out.flush().context("writing to standard output")?;
    if failed > 0 {
        anyhow::bail!("{failed} of {} document(s) failed", origins.len());
    }
    Ok(())
}

fn clean_one(
    cleaner: &Cleaner,
    origin: &Origin,
    input: InputKind,
    format: Format,
    json: JsonOptions,
) -> Result<Vec<u8>> {
    let bytes = origin.read()?;
    let cleaned = cleaner.clean(&bytes, input, None);
    let mut out = Vec::with_capacity(bytes.len() / 2);
    let id = origin.name();
    format::write(&mut out, format, &cleaned, Some(&id), json).expect("writing to memory");
    Ok(out)
}

fn write_file(path: &std::path::Path, bytes: &[u8]) -> Result<()> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("creating {}", parent.display()))?;
    }
    std::fs::write(path, bytes).with_context(|| format!("writing {}", path.display()))
}

/// The stored operating points (`--prefer`).
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum PreferArg {
    /// The model's precision-oriented default.
    Precision,
    /// The highest F on the training pages.
    F,
}

impl From<PreferArg> for Preference {
    fn from(p: PreferArg) -> Preference {
        match p {
            PreferArg::Precision => Preference::Precision,
            PreferArg::F => Preference::F,
        }
    }
}

/// Parses a probability strictly between 0 and 1.
fn probability(s: &str) -> std::result::Result<f64, String> {
    let p: f64 = s.parse().map_err(|e| format!("{e}"))?;
    if p > 0.0 && p < 1.0 {
        Ok(p)
    } else {
        Err(format!("{p} is not a probability strictly between 0 and 1"))
    }
}
