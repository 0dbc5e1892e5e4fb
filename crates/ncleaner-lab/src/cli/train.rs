//! `ncleaner train`: train a model from pages and their gold files.

use std::path::PathBuf;

use crate::train::{self, ClassifierConfig, OperatingPoint, TrainConfig, Trainer};
use anyhow::{Context, Result};
use ncleaner::model::{self, DirtyEstimate};

/// Arguments of `ncleaner train`.
#[derive(clap::Args)]
#[command(
    after_help = "Pages and gold files are paired by relative path and file stem \
    (HTML/dev/1.html ↔ GOLD/dev/1.txt). Gold files are in the CleanEval format \
    (segments marked <p>, <h>, <l>) or plain text (one paragraph per line).\n\n\
    By default the model has a dirty n-gram model trained on the raw segments that the \
    alignment with the gold text labels dirty, and a segment classifier (logistic regression \
    over the n-gram score, length, link share, HTML structure, class/id words, position and the \
    neighbouring segments) whose default threshold is chosen for precision. --paper trains the \
    paper's model: differential dirty counts, the n-gram decision alone.\n\n\
    Example (the embedded `en` model; scripts/build-models):\n  \
    ncleaner train --html ../shared/data/cleaneval/dev --gold ../shared/data/gold/cleaneval/dev \\\n    \
    --html ../shared/data/cleaneval/train --gold ../shared/data/gold/cleaneval/train \\\n    \
    --language en -o crates/ncleaner/models/en.nclm\n\n\
    A model for another language: train it on pages and gold files of that language with \
    --language TAG, then `ncleaner clean --model en --model de.nclm` routes each page to the \
    model of its detected language (the non-lexical fallback for the rest)."
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

    /// The paper's model: differential dirty counts and no segment classifier.
    #[arg(long)]
    pub paper: bool,

    /// How the dirty n-gram model is trained (default: aligned; differential with --paper).
    #[arg(long, value_enum)]
    pub dirty: Option<DirtyArg>,

    /// No segment classifier: the n-gram models decide alone.
    #[arg(long)]
    pub no_classifier: bool,

    /// Classifier without the neighbouring segments' features.
    #[arg(long)]
    pub no_neighbours: bool,

    /// Classifier without the learned class/id/role word evidence.
    #[arg(long)]
    pub no_attrs: bool,

    /// Smooth the classifier's probabilities with a two-state HMM over the page.
    #[arg(long)]
    pub hmm: bool,

    /// Default operating point instead of the highest mean per-page word F on
    /// the training pages: the highest pooled word-level F-beta (beta below 1
    /// favours precision). The model always also stores the F0.5 point
    /// (`clean --prefer precision`) and the F2 point (`--prefer recall`).
    #[arg(long, value_name = "B", conflicts_with_all = ["max_f", "min_precision"])]
    pub f_beta: Option<f64>,

    /// Default operating point instead: the highest F whose word-level
    /// precision on the training pages (as the alignment estimates it) is at least P (0–1).
    #[arg(long, value_name = "P", conflicts_with = "max_f")]
    pub min_precision: Option<f64>,

    /// Default operating point instead: the highest pooled word-level F on the training pages.
    #[arg(long)]
    pub max_f: bool,

    /// Folds of the inner cross-validation that trains the classifier on
    /// n-gram scores of unseen pages.
    #[arg(long, value_name = "K", default_value_t = 10)]
    pub inner_folds: usize,

    /// Folds of the cross-validation whose cleaned pages train the
    /// page-quality model (predicted precision and recall of each page's
    /// cleaning, `clean --min-page-quality`); training takes that many more fits.
    #[arg(long, value_name = "K", default_value_t = 5)]
    pub page_quality_folds: usize,

    /// No page-quality model.
    #[arg(long)]
    pub no_page_quality: bool,

    /// No boosted trees on top of the classifier's logistic regression (a
    /// linear model only: smaller and a little faster, less accurate on
    /// modern pages; EVALUATION.md, "Today's web").
    #[arg(long)]
    pub no_trees: bool,

    /// The language of the training pages, as a tag (ISO 639-1 like `de`,
    /// `fr`; `de-AT` and ISO 639-3 `deu` are read as `de`). Written into the
    /// model, it makes `clean` route pages detected as that language to this
    /// model (`clean --model de.nclm`). Leave it out for a model meant for
    /// pages of any language (a fallback, usually `--nonlexical`).
    #[arg(long, value_name = "TAG")]
    pub language: Option<String>,

    /// Page types of the training pages, to train the page-type classifier
    /// whose predictions the segment classifier reads (repeatable): a
    /// directory of `KEY.json` files in WCXB's ground-truth format
    /// (`_internal.page_type.primary`), each labelling the page whose file
    /// name, without extension, is that key.
    /// Needs at least 100 labelled pages.
    #[arg(long, value_name = "DIR")]
    pub page_types: Vec<PathBuf>,

    /// Boosted trees of the segment classifier (default 200).
    #[arg(long, value_name = "N", conflicts_with = "no_trees")]
    pub trees: Option<usize>,

    /// No page-type classifier, even with --page-types.
    #[arg(long)]
    pub no_page_types: bool,

    /// Give the classifier the phrase columns: which of the lexicon's
    /// furniture phrases (comment, share and "read more" labels, relative
    /// dates) in any of its languages a short segment holds. The default
    /// of --nonlexical, which learns no words of its own.
    #[arg(long, conflicts_with = "no_phrases")]
    pub phrases: bool,

    /// No phrase columns, even with --nonlexical.
    #[arg(long)]
    pub no_phrases: bool,

    /// The model file to write (text form if it ends in .txt, else binary).
    #[arg(short, long, value_name = "MODEL")]
    pub output: PathBuf,
}

/// `--dirty`.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum DirtyArg {
    /// Raw-dump counts minus clean counts (the paper).
    Differential,
    /// Counts of the raw segments the alignment labels dirty.
    Aligned,
}

/// The training configuration the arguments ask for.
pub fn config(args: &Args) -> Result<TrainConfig> {
    let mut cfg = match (args.nonlexical, args.paper) {
        (false, false) => TrainConfig::lexical(),
        (true, false) => TrainConfig::non_lexical(),
        (false, true) => TrainConfig::paper_lexical(),
        (true, true) => TrainConfig::paper_non_lexical(),
    };
    if let Some(n) = args.n {
        cfg.n = n;
    }
    if let Some(q) = args.q {
        cfg.q = q;
    }
    model::check_parameters(cfg.n, cfg.q)?;
    if let Some(tag) = &args.language {
        cfg.language = Some(ncleaner::lang::normalise_tags(tag).with_context(|| {
            format!("--language {tag:?} is not a language tag (e.g. en, de, fr) or a list of them (zh,ru)")
        })?);
    }
    if let Some(d) = args.dirty {
        cfg.dirty = match d {
            DirtyArg::Differential => DirtyEstimate::Differential,
            DirtyArg::Aligned => DirtyEstimate::Aligned,
        };
    }
    if args.no_classifier {
        cfg.classifier = None;
    }
    if let Some(c) = cfg.classifier.as_mut() {
        anyhow::ensure!(
            args.min_precision.is_none_or(|p| (0.0..=1.0).contains(&p)),
            "--min-precision must be between 0 and 1"
        );
        anyhow::ensure!(
            args.f_beta.is_none_or(|b| b > 0.0 && b.is_finite()),
            "--f-beta must be a positive number"
        );
        anyhow::ensure!(args.inner_folds >= 2, "--inner-folds must be at least 2");
        anyhow::ensure!(
            args.page_quality_folds >= 2,
            "--page-quality-folds must be at least 2"
        );
        *c = ClassifierConfig {
            neighbours: !args.no_neighbours,
            attrs: !args.no_attrs,
            hmm: args.hmm,
            inner_folds: args.inner_folds,
            phrases: (args.phrases || c.phrases) && !args.no_phrases,
            page_quality: (!args.no_page_quality).then_some(args.page_quality_folds),
            trees: if args.no_trees {
                None
            } else {
                c.trees.map(|b| ncleaner::classify::trees::Boost {
                    trees: args.trees.unwrap_or(b.trees),
                    ..b
                })
            },
            page_types: if args.no_page_types {
                None
            } else {
                c.page_types
            },
            operating_point: match (args.max_f, args.min_precision, args.f_beta) {
                (true, _, _) => OperatingPoint::MaxF,
                (false, Some(p), _) => OperatingPoint::MinPrecision(p),
                (false, None, Some(b)) => OperatingPoint::MaxFBeta(b),
                (false, None, None) => OperatingPoint::MaxPageF,
            },
            ..c.clone()
        };
    }
    Ok(cfg)
}

/// Runs `ncleaner train`.
pub fn run(args: Args) -> Result<()> {
    let mut cfg = config(&args)?;
    let (dirs, text_input) = if args.text.is_empty() {
        (&args.html, false)
    } else {
        anyhow::ensure!(args.html.is_empty(), "give --html or --text, not both");
        (&args.text, true)
    };
    anyhow::ensure!(
        dirs.len() == args.gold.len(),
        "{} page director(ies) but {} --gold director(ies): give them in pairs",
        dirs.len(),
        args.gold.len()
    );
    let dirs: Vec<_> = dirs
        .iter()
        .cloned()
        .zip(args.gold.iter().cloned())
        .collect();
    let (mut pages, sources) = train::load_dirs(&dirs, &args.exclude, text_input)?;
    let mut labelled = 0;
    for dir in &args.page_types {
        let labels = train::read_labels(dir)?;
        labelled += train::label_pages(&mut pages, &labels);
    }
    if !args.page_types.is_empty() {
        eprintln!("ncleaner: {labelled} training pages labelled with their page type");
    }
    cfg.provenance = train::provenance(&cfg, args.nonlexical, args.paper, &sources, &args.exclude);
    let n_pages = pages.len();
    let trainer = Trainer::new(pages);
    let all: Vec<usize> = (0..n_pages).collect();
    let m = trainer.fit(&all, &cfg)?;
    m.save(&args.output)
        .with_context(|| format!("writing {}", args.output.display()))?;
    let thresholds = m
        .classifier
        .as_ref()
        .map(|c| {
            format!(
                "; default thresholds {:.2} (HTML), {:.2} (text) bits",
                c.threshold[0], c.threshold[1]
            )
        })
        .unwrap_or_default();
    eprintln!(
        "ncleaner: trained on {n_pages} pages ({} clean, {} raw characters){thresholds}: {}",
        m.clean().total(),
        m.raw().total(),
        args.output.display()
    );
    Ok(())
}
