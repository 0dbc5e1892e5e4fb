//! `ncleaner strip`: HTML to plain text, nothing removed (PyPlexity's `tag-remover`).

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Result;
use ncleaner::Method;
use ncleaner::{Cleaner, InputKind};
use ncleaner_corpus::CorpusOptions;
use ncleaner_corpus::OutputFormat;

use super::clean::{Run, run_corpus};
use super::common::names;

/// Arguments of `ncleaner strip`.
#[derive(clap::Args)]
#[command(
    after_help = "Every block of text (paragraph, heading, list item, table cell) \
    becomes one line, whitespace collapsed; scripts, styles, comments and hidden elements \
    go; every other character stays (PyPlexity's tag-remover keeps only ASCII). No model \
    decides anything: `strip` is `clean --method keep-all --format text`.\n\n\
    Examples:\n  \
    ncleaner strip page.html\n  \
    ncleaner strip -o text/ pages/\n  \
    ncleaner strip -o crawl.text.warc.gz crawl.warc.gz     (a conversion record per response)"
)]
pub struct Args {
    /// Files, directories (searched recursively), WARC or JSON Lines files, or `-` for standard input.
    #[arg(required = true, value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,

    /// Where to write: a file (`.txt`, `.jsonl`, `.warc`, optionally `.gz`/`.zst`)
    /// or a directory getting one file per input. Default: standard output.
    #[arg(short, long, value_name = "OUTPUT")]
    pub output: Option<PathBuf>,

    /// Output format. Default: what the name of `-o` says, else text.
    #[arg(long, value_parser = names::<OutputFormat>(OutputFormat::ALL.map(OutputFormat::as_str)))]
    pub format: Option<OutputFormat>,

    /// No summary line and no progress bar on standard error.
    #[arg(short, long)]
    pub quiet: bool,

    /// Worker threads (default: all cores).
    #[arg(short = 'j', long, value_name = "N")]
    pub jobs: Option<usize>,
}

/// Runs `ncleaner strip`.
pub fn run(args: Args) -> Result<()> {
    // The model is never consulted by keep-all; the embedded one costs nothing to load.
    let cleaner =
        Cleaner::from_shared(Arc::new(ncleaner::Model::open("en")?)).with_method(Method::KeepAll);
    run_corpus(
        &cleaner,
        Run {
            inputs: &args.inputs,
            output: args.output.as_deref(),
            format: args.format,
            default_format: OutputFormat::Text,
            opts: CorpusOptions {
                input: InputKind::Html,
                ..CorpusOptions::default()
            },
            jobs: args.jobs,
            quiet: args.quiet,
        },
    )
}
