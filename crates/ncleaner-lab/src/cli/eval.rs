//! `ncleaner eval`: score cleaned pages against gold files.

use std::path::PathBuf;

use crate::eval::{EvalOptions, score_dirs};
use anyhow::Context;

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

With --metric levenshtein: CleanEval's text-only similarity instead. Words as above without the markers; d = the Levenshtein distance between the output's and the gold's word sequences (unit costs); a page scores 100·(1 − d / max(output words, gold words)) (100 when both are empty); the set's score is the mean over pages. Prints `files N` and `levenshtein MEAN`; --per-file writes name, score, distance and word counts; --json a report.

With --metric wcxb: WCXB's metric (Murrough Foley, WCXB: Web Content eXtraction Benchmark, 2026, CC-BY-4.0). GOLDDIR is the benchmark's ground-truth folder (NNNN.json), OUTDIR holds NNNN.txt. Per page: tokens are the \\w+ runs of the lower-cased text, F1 of the multiset overlap; P, R, F1 averaged over pages, for all pages and per page type, with the share of `with` snippets found and of `without` snippets found (lower is better).

Examples:
  ncleaner eval out/ ../shared/data/gold/cleaneval/test
  ncleaner eval --metric levenshtein out/ ../shared/data/gold/cleaneval/test
  ncleaner eval --words-only --per-file files.tsv out/ ../shared/data/gold/dragnet/train
  ncleaner eval --words-only --cjk-chars out/zh/ gold-of-the-chinese-pages/")]
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
    /// With --words-only: every Han, kana and full-width character is a word
    /// of its own, as the reference scorer's --cjk-chars makes them. The
    /// measure for Chinese and Japanese, which are written without spaces.
    #[arg(long, requires = "words_only")]
    pub cjk_chars: bool,
    /// Read every marker as <p> for the word counts too, so that a wrong label
    /// (<p> for <h>) costs nothing there. Not in the reference scorer.
    #[arg(long)]
    pub unlabelled: bool,
    /// Print a JSON report (summaries and per-file counts) instead of the lines.
    #[arg(long)]
    pub json: bool,
    /// What to measure: the paper's word-level P/R/F, or CleanEval's
    /// Levenshtein text similarity (see below).
    #[arg(long, value_enum, default_value = "words")]
    pub metric: Metric,
}

/// `--metric`.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Metric {
    /// Word-level precision, recall and F (difflib alignment), and segmentation.
    Words,
    /// CleanEval's text-only similarity: 100·(1 − word edit distance / longer length), mean per page.
    Levenshtein,
    /// WCXB's metric: per-page F1 of lower-cased \w+ token multisets, macro-averaged, per page type;
    /// GOLDDIR is WCXB's ground-truth folder of NNNN.json.
    Wcxb,
}

/// Runs `ncleaner eval`.
pub fn run(args: Args) -> anyhow::Result<()> {
    if args.metric == Metric::Levenshtein {
        return levenshtein(&args);
    }
    if args.metric == Metric::Wcxb {
        return wcxb(&args);
    }
    let opts = EvalOptions {
        ascii: args.ascii,
        words_only: args.words_only,
        unlabelled: args.unlabelled,
        cjk_chars: args.cjk_chars,
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

/// `--metric levenshtein`.
fn levenshtein(args: &Args) -> anyhow::Result<()> {
    use crate::eval::levenshtein::{mean, per_file_tsv, similarity_dirs, to_json};
    anyhow::ensure!(
        !args.ascii && !args.words_only && !args.unlabelled,
        "--ascii, --words-only, --cjk-chars and --unlabelled apply to --metric words only"
    );
    let files = similarity_dirs(&args.outdir, &args.golddir).map_err(|e| anyhow::anyhow!("{e}"))?;
    if let Some(path) = &args.per_file {
        std::fs::write(path, per_file_tsv(&files))
            .with_context(|| format!("{}: cannot write the per-file table", path.display()))?;
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&to_json(&files))?);
    } else {
        println!("files {}", files.len());
        println!("levenshtein {:.2}", mean(&files));
    }
    Ok(())
}

/// `--metric wcxb`.
fn wcxb(args: &Args) -> anyhow::Result<()> {
    use crate::eval::wcxb;
    anyhow::ensure!(
        !args.ascii && !args.words_only && !args.unlabelled,
        "--ascii, --words-only, --cjk-chars and --unlabelled apply to --metric words only"
    );
    let pages = wcxb::load_ground_truth(&args.golddir).map_err(|e| anyhow::anyhow!("{e}"))?;
    let scores = wcxb::score_dir(&pages, &args.outdir);
    if let Some(path) = &args.per_file {
        std::fs::write(path, wcxb::per_page_tsv(&scores))
            .with_context(|| format!("{}: cannot write the per-file table", path.display()))?;
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&wcxb::to_json(&scores))?);
    } else {
        print!("{}", wcxb::report(&scores));
    }
    Ok(())
}
