//! `ncleaner eval`: score cleaned pages against gold files.

use std::path::PathBuf;

use anyhow::Context;
use ncleaner::eval::{EvalOptions, score_dirs};

/// Arguments of `ncleaner eval`.
#[derive(clap::Args)]
#[command(after_long_help = "\
Each GOLDDIR/REL/NAME.txt is paired with OUTDIR/REL/NAME.txt; a gold file \
with no output file counts as an empty output. Both files are read as UTF-8 \
(invalid bytes replaced) and tokenised as CleanEval's scorer does: lines \
starting with URL are dropped, markers <p> <h> <l> are tokens of their own, \
words are split on ASCII whitespace. Output and gold tokens are aligned \
with Python's difflib.SequenceMatcher (autojunk included).

Output lines (the same as ../shared/tools/cleaneval_score.py, to diff):
  files           number of gold files
  words           tp, fp, fn pooled over all files
  micro           F, P, R of the pooled counts (percent)
  macro           mean±sample SD of the per-file F, P, R
  seg-labelled    markers found at the same place with the same label
  seg-unlabelled  the same with every marker read as <p>

Examples:
  ncleaner eval out/ ../shared/data/gold/cleaneval/test
  ncleaner eval --words-only --per-file files.tsv out/ ../shared/data/gold/dragnet/train")]
pub struct Args {
    /// Directory of cleaned pages (REL/NAME.txt).
    pub outdir: PathBuf,
    /// Directory of gold files (REL/NAME.txt, CleanEval format).
    pub golddir: PathBuf,
    /// Also write per-file counts and P/R/F to this tab-separated file.
    #[arg(long, value_name = "TSV")]
    pub per_file: Option<PathBuf>,
    /// Delete non-ASCII characters before comparing.
    #[arg(long)]
    pub ascii: bool,
    /// Align words alone: drop markers (and empty tokens); no segmentation
    /// figures. Use it for gold files without markers and outputs of tools that
    /// write none.
    #[arg(long)]
    pub words_only: bool,
    /// Read every marker as <p> for the word counts too, so that a wrong label
    /// (<p> for <h>) costs nothing there. Not in the reference scorer.
    #[arg(long)]
    pub unlabelled: bool,
    /// Print a JSON report (summaries and per-file counts) instead of the lines.
    #[arg(long)]
    pub json: bool,
}

/// Runs `ncleaner eval`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let opts = EvalOptions {
        ascii: args.ascii,
        words_only: args.words_only,
        unlabelled: args.unlabelled,
    };
    // The library's messages already include their cause; anyhow's `{:#}`
    // would print it twice.
    let report =
        score_dirs(&args.outdir, &args.golddir, &opts).map_err(|e| anyhow::anyhow!("{e}"))?;
    if let Some(path) = &args.per_file {
        std::fs::write(path, report.per_file_tsv())
            .with_context(|| format!("{}: cannot write the per-file table", path.display()))?;
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report.to_json())?);
    } else {
        print!("{report}");
    }
    Ok(())
}
