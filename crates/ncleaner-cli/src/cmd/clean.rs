//! `ncleaner clean`: clean pages or text dumps.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Result;
use indicatif::{ProgressBar, ProgressStyle};
use ncleaner::Roles;
use ncleaner::Smoothing;
use ncleaner::format::JsonOptions;
use ncleaner::{CleanOptions, Cleaner, InputKind};
use ncleaner::{Comments, Method, Preference};
use ncleaner_corpus::OutputFormat;
use ncleaner_corpus::{self as corpus, Entry, Observer, Stats, counted};

use super::common::{check_clean_options, names, option_error, thread_pool};

/// Arguments of `ncleaner clean`.
///
/// `-h` lists every option with a one-line help (the first paragraph of its
/// doc comment) so that it fits a screen; `--help` prints each in full with
/// the examples. The headings group the options by what they are about.
#[derive(clap::Args)]
#[command(
    after_help = "Each option in full, with examples: --help. The guide: GUIDE.md, \"ncleaner clean\".",
    after_long_help = "Examples:\n  \
    ncleaner clean page.html\n  \
    ncleaner clean -o out/ --format cleaneval pages/\n  \
    ncleaner clean --input text --format jsonl --segments dump.txt\n  \
    ncleaner clean --model en --model de.nclm --format jsonl pages/   (German pages to de.nclm, \
    English to en, the rest to en-nonlex)\n  \
    ncleaner clean --no-route --model en-nonlex pages/\n  \
    curl -s https://example.com/ | ncleaner clean -\n\n\
    Exit status: 0 every document cleaned (or skipped as no document); 1 the run is \
    complete and some documents failed (each named, with its record); 2 refused before \
    anything was written (an option, an output over an input, an output another run \
    writes); 3 stopped early: the output could not be written any further (a full disk; \
    what was written stays under its temporary name, and --resume continues it); 130 or \
    143 interrupted by SIGINT or SIGTERM. Standard output closed by its reader (| head) \
    ends the run quietly with 0.\n\n\
    The guide to `clean`, with recipes: GUIDE.md, \"ncleaner clean\"."
)]
pub struct Args {
    /// Pages (also `.gz`), folders, WARC, JSON Lines, Parquet, or `-` (stdin).
    ///
    /// Files, directories (searched recursively) or `-` for standard input.
    /// WARC (`.warc`, `.warc.gz`: HTML `response` records) and JSON Lines
    /// (`.jsonl`, `.jsonl.gz`, `.jsonl.zst`: `{"id", "url", "html" or "text"}`)
    /// are read record by record, Parquet (`.parquet`: an `html` or `text`
    /// column, `id` and `url` when present) row by row; other files are one
    /// document each, decompressed when compressed (`page.html.gz`, `.zst`,
    /// `.br`, or by their bytes). Images, PDFs and other binary files are
    /// skipped and counted. A missing input gets its failed record and the
    /// run goes on (exit status 1).
    #[arg(
        required = true,
        value_name = "INPUT",
        help_heading = "Input",
        display_order = 0
    )]
    pub inputs: Vec<PathBuf>,

    /// How to read the inputs.
    ///
    /// HTML pages (`html`), plain-text dumps (`text`), or decide per
    /// document (`auto`).
    #[arg(long, value_parser = names::<InputKind>(InputKind::ALL.map(InputKind::as_str)), default_value = "auto", help_heading = "Input")]
    pub input: InputKind,

    /// A file (its extension sets --format) or a directory; default: stdout.
    ///
    /// Where to write: a file whose name ends in `.jsonl`, `.txt`, `.md`,
    /// `.warc` (optionally `.gz`/`.zst`, which compress it) or `.parquet`,
    /// or a directory getting one output file per input
    /// (IN/REL/NAME.html → OUTDIR/REL/NAME.txt; a WARC or JSON Lines input →
    /// one file). Folders that do not exist are created (and named on
    /// standard error). Default: standard output. Written as .NAME.partial
    /// until complete; a second run on the same output is refused while one
    /// runs.
    #[arg(short, long, value_name = "OUTPUT", help_heading = "Output")]
    pub output: Option<PathBuf>,

    /// text, jsonl, markdown, parquet, warc or cleaneval (default: text).
    ///
    /// Output format: `text` (the kept segments, one per line), `jsonl` (JSON
    /// Lines), `markdown` (headings, nested lists, code blocks, quotes and GFM
    /// tables of the kept text), `parquet` (the JSON Lines record's fields as
    /// columns), `warc`, or `cleaneval` (CleanEval markup: `<p>`, `<h>`,
    /// `<l>` per segment, the paper's format). Default: what the name of `-o`
    /// says (`.txt`, `.jsonl`, `.md`, `.warc`, optionally `.gz`/`.zst`;
    /// `.parquet`), else text.
    #[arg(long, value_parser = names::<OutputFormat>(OutputFormat::ALL.map(OutputFormat::as_str)), hide_possible_values = true, help_heading = "Output")]
    pub format: Option<OutputFormat>,

    /// JSON Lines: add every segment with its kind, score and decision.
    ///
    /// With --format jsonl: include every segment with its kind, score and decision.
    #[arg(long, help_heading = "Output")]
    pub segments: bool,

    /// JSON Lines: add each document's kept text as Markdown.
    ///
    /// With --format jsonl: include each document's kept text as Markdown
    /// (a `markdown` field; what --format markdown writes).
    #[arg(long, help_heading = "Output")]
    pub markdown: bool,

    /// Markdown: keep links as `[text](url)`.
    ///
    /// Markdown (--format markdown, and the `markdown` field of JSON Lines):
    /// keep links as `[text](url)`, resolved against the page's URL. Off by
    /// default: plain Markdown for training text. Changes no decision.
    #[arg(long, help_heading = "Output")]
    pub links: bool,

    /// Markdown: keep images as `![alt](url)`.
    ///
    /// Markdown: keep images as `![alt](url)` where they stood in the kept
    /// text (an image before its block's text goes with that text).
    #[arg(long, help_heading = "Output")]
    pub images: bool,

    /// `en`, `multi`, `en-nonlex` or a file; repeatable, one per language.
    ///
    /// The model: `en` (lexical English, embedded), `multi` (lexical Chinese,
    /// Russian, Polish and Greek, embedded), `en-nonlex` (non-lexical,
    /// embedded, any language) or a model file. Repeatable: each page's
    /// language is identified and the page cleaned by the model trained for
    /// it (a model's languages are the tags of `train --language`), the
    /// others by --fallback-model; one model without a tag cleans every page.
    /// Default: `en` and `multi`, so English pages get the English model,
    /// Chinese, Russian, Polish and Greek ones the multilingual one, and all
    /// others the non-lexical one.
    #[arg(
        long = "model",
        short = 'm',
        value_name = "MODEL",
        help_heading = "Model and decision"
    )]
    pub models: Vec<String>,

    /// The model for pages of other languages.
    ///
    /// The model (`en`, `multi`, `en-nonlex` or a model file) for pages whose
    /// language has no model among --model, or is not identified (too
    /// little text).
    #[arg(
        long,
        value_name = "MODEL",
        default_value = "en-nonlex",
        help_heading = "Model and decision"
    )]
    pub fallback_model: String,

    /// One model (--model) for every page: no language routing.
    ///
    /// No language routing: one model (--model, default `en`) cleans every
    /// page and no language is identified (no `language` field in JSON Lines).
    #[arg(long, help_heading = "Model and decision")]
    pub no_route: bool,

    /// Keep a segment when its evidence is at least T bits of log-odds.
    ///
    /// Decision threshold in bits of log-odds: a segment is kept when its
    /// evidence is at least T. For models with a segment classifier (the
    /// default) the evidence is log2(p / (1 − p)) of its probability p of
    /// being clean (0 ↔ p = 0.5, 2 ↔ p = 0.8); for the paper's models it is
    /// the n-gram score log2 P(clean) − log2 P(dirty). Positive keeps less
    /// (higher precision), negative keeps more. Default: the cut that
    /// --prefer chooses (`f`: each page's own cut, where its expected word F
    /// is highest; 0 for the paper's models).
    #[arg(
        long,
        value_name = "T",
        allow_negative_numbers = true,
        help_heading = "Model and decision"
    )]
    pub threshold: Option<f64>,

    /// Keep a segment when its probability of being clean is at least P.
    ///
    /// Keep a segment when the classifier's probability that it is clean is
    /// at least P (0–1; the same as --threshold log2(P/(1−P))). The
    /// probabilities are calibrated on the training pages: of the words in
    /// segments given p ≈ 0.8, about 80% are clean.
    #[arg(long, value_name = "P", help_heading = "Model and decision")]
    pub min_probability: Option<f64>,

    /// The model's operating point: precision, f or recall.
    ///
    /// Which operating point stored in the model applies when neither
    /// --threshold nor --min-probability is given: `f` (the default: each
    /// page cut where its expected word F is highest, in models trained
    /// with trees; in others the threshold of the highest mean per-page
    /// word F on the training pages), `precision` (the
    /// highest pooled F0.5: fewer words, cleaner ones) or `recall` (the
    /// highest pooled F2: more words, more noise). EVALUATION.md gives each
    /// one's figures.
    #[arg(long, value_parser = names::<Preference>(["precision", "f", "recall"]), default_value = "f", hide_possible_values = true, help_heading = "Model and decision")]
    pub prefer: Preference,

    /// User comments: keep (the model decides) or drop.
    ///
    /// User comments under an article: `keep` (the default: the model
    /// decides them like any other text) or `drop` (removed whatever the
    /// model says). A comment is text inside an element whose class, id or
    /// role names comments or replies; on forums and Q&A pages, whose
    /// content is itself a thread, posts are content either way. The text
    /// carries the comments the model keeps only with `--roles all` (the
    /// default, `content`, leaves them out).
    #[arg(long, value_parser = names::<Comments>(["keep", "drop"]), default_value = "keep", hide_possible_values = true, help_heading = "Model and decision")]
    pub comments: Comments,

    /// Roles in the text: content, all or body.
    ///
    /// Which roles of the kept segments the text carries: `content` (the
    /// default: a page's main content as most gold sets read it, the title,
    /// bylines, captions, the body, tables, code and a thread's posts, no
    /// comments and no page furniture such as share bars), `all` (every
    /// kept segment, comments included: Dragnet's reading) or `body` (the
    /// article's body alone: body, tables, code, posts). `--segments` shows
    /// each segment's role.
    #[arg(long, value_parser = names::<Roles>(Roles::ALL.map(Roles::as_str)), default_value = "content", hide_possible_values = true, help_heading = "Model and decision")]
    pub roles: Roles,

    /// Keep segments that repeat one kept earlier on the page.
    ///
    /// Keep a segment of 3+ words that repeats one kept earlier on the page
    /// (by default repeats are dropped: carousel clones, mobile and desktop
    /// copies of one section; --method ncleaner).
    #[arg(long, help_heading = "Model and decision")]
    pub keep_repeats: bool,

    /// Drop pages whose predicted precision is below P.
    ///
    /// Drop whole pages whose predicted precision is below P (0–1): the
    /// model's page-quality model estimates each page's word-level
    /// precision from its segment probabilities, removed share, lengths and
    /// links (EVALUATION.md, "Page quality"). Dropped pages are still
    /// written (empty; in JSON Lines with their `page_quality`), and the
    /// summary says how many.
    #[arg(long, value_name = "P", help_heading = "Model and decision")]
    pub min_page_quality: Option<f64>,

    /// ncleaner, heuristics, keep-all or perplexity.
    ///
    /// What decides: the n-gram models after the heuristics (`ncleaner`),
    /// the heuristics alone (`heuristics`), nothing (`keep-all`: the raw
    /// text dump), or a word model's perplexity per sentence (`perplexity`:
    /// PyPlexity's method, with the --max-perplexity, --mark, --word-model
    /// and --smoothing options).
    #[arg(long, value_parser = names::<Method>(Method::ALL.map(Method::as_str)), default_value = "ncleaner", hide_possible_values = true, help_heading = "Model and decision")]
    pub method: Method,

    #[command(flatten)]
    pub perplexity: PerplexityArgs,

    /// Learn each site's repeated boilerplate in a first pass.
    ///
    /// Site-level boilerplate: read the inputs twice, first to learn which
    /// segments repeat across the pages of each site (host of the page's
    /// URL), then to clean with that as a feature of the classifier. Needs
    /// files (not standard input) and pages with URLs (WARC, JSON Lines with
    /// "url", CleanEval pages).
    #[arg(long, help_heading = "Corpus run")]
    pub sites: bool,

    /// Like --sites, with the site memory loaded from and saved to FILE.
    ///
    /// Like --sites, and the site memory is also loaded from FILE if it
    /// exists and saved there afterwards with this run's pages added, so
    /// that the pages of other runs (other WARC files of a crawl) count.
    /// FILE is refused if it is an input or an output; saved whole, then renamed.
    #[arg(long, value_name = "FILE", help_heading = "Corpus run")]
    pub site_memory: Option<PathBuf>,

    /// With --site-memory: use it as it is, in one pass.
    ///
    /// With --site-memory: use the memory as it is, without the first pass
    /// over the inputs and without saving it (for a crawl whose memory was
    /// built by an earlier run: one read of the inputs, constant memory).
    #[arg(long, requires = "site_memory", help_heading = "Corpus run")]
    pub no_site_pass: bool,

    /// Continue an interrupted run into the same output.
    ///
    /// Continue an interrupted run into the same output (-o OUT.jsonl,
    /// optionally .gz/.zst, -o OUT.parquet, or -o DIR/), given the same
    /// inputs: the documents already written are left out (matched by their
    /// place in the inputs, and their id checked; in a directory, by output
    /// file), a record torn by the interruption is dropped and done again.
    /// One text, Markdown or WARC file cannot be continued.
    #[arg(long, requires = "output", help_heading = "Corpus run")]
    pub resume: bool,

    /// Worker threads (default: all cores).
    #[arg(short = 'j', long, value_name = "N", help_heading = "Corpus run")]
    pub jobs: Option<usize>,

    /// No summary line and no progress bar on standard error.
    #[arg(short, long, help_heading = "Corpus run")]
    pub quiet: bool,
}

impl Args {
    /// The cleaning options these arguments give: every option of
    /// `ncleaner clean` that is about cleaning a page, checked and made
    /// into a cleaner by the library ([`Cleaner::new`]) as the web API,
    /// Python and datatrove make theirs.
    pub fn options(&self) -> CleanOptions {
        // Field by field: `CleanOptions` is `#[non_exhaustive]`.
        let mut o = CleanOptions::default();
        o.model = self.models.clone();
        o.fallback_model = self.fallback_model.clone();
        o.route = !self.no_route;
        o.input = self.input;
        o.method = self.method;
        o.threshold = self.threshold;
        o.min_probability = self.min_probability;
        o.prefer = self.prefer;
        o.comments = self.comments;
        o.roles = self.roles;
        o.keep_repeats = self.keep_repeats;
        o.links = self.links;
        o.images = self.images;
        o.min_page_quality = self.min_page_quality;
        o.max_perplexity = self.perplexity.max_perplexity;
        o.mark = self.perplexity.mark;
        o.word_model = self.perplexity.word_model.clone();
        o.smoothing = self.perplexity.smoothing;
        o
    }
}

/// Runs `ncleaner clean`: every input document cleaned on the threads of
/// `-j`, written in input order, a summary line on standard error at the end
/// and a progress bar while it runs when standard error is a terminal.
/// Exits with an error when any document failed (after writing all others);
/// the exit statuses are [`super::ExitCode`]'s.
pub fn run(args: Args) -> Result<()> {
    run_clean(args).map_err(|e| super::with_status(e, super::ExitCode::REFUSED))
}

fn run_clean(args: Args) -> Result<()> {
    let options = args.options();
    options.validate().map_err(option_error)?;
    check_clean_options(args.format, args.segments, args.output.as_deref())?;
    let format = args.format.or_else(|| {
        ncleaner_corpus::sink::format_from_name(&ncleaner_corpus::sink::Destination::from_arg(
            args.output.as_deref(),
        ))
    });
    let records = matches!(format, Some(OutputFormat::Jsonl | OutputFormat::Parquet));
    anyhow::ensure!(
        !args.markdown || records,
        "--markdown adds a field to JSON Lines or Parquet: give --format jsonl (or -o FILE.jsonl, -o FILE.parquet), or --format markdown for Markdown alone"
    );
    anyhow::ensure!(
        !(args.links || args.images)
            || format == Some(OutputFormat::Markdown)
            || (records && args.markdown),
        "--links and --images go into Markdown: give --format markdown (or -o FILE.md), or --format jsonl --markdown"
    );
    let mut cleaner = Cleaner::new(options).map_err(option_error)?;
    // The output is checked and locked before any work, the site pass too.
    let (output, memory_file) = (args.output.as_deref(), args.site_memory.as_deref());
    let prepared = corpus::prepare_output(&args.inputs, output, memory_file)?;
    let sites = args.sites || args.site_memory.is_some();
    let mut memory = None;
    if sites {
        anyhow::ensure!(
            cleaner.uses_sites(),
            "--sites/--site-memory: the model has no site features (models trained by this version's `ncleaner train` have them; --method ncleaner)"
        );
        let t = Instant::now();
        let pool = thread_pool(args.jobs)?;
        let (mem, pages) = corpus::site_memory(
            &args.inputs,
            args.input,
            args.site_memory.as_deref(),
            args.no_site_pass,
            &pool,
        )?;
        if !args.quiet {
            eprintln!(
                "ncleaner: site memory: {pages} pages with a host read in {:.1} s; {} hosts remembered",
                t.elapsed().as_secs_f64(),
                mem.hosts()
            );
        }
        let mem = Arc::new(mem);
        cleaner = cleaner.with_site_memory(mem.clone());
        memory = Some(mem);
    }
    let run = Run {
        inputs: &args.inputs,
        output: args.output.as_deref(),
        format: args.format,
        default_format: OutputFormat::Text,
        opts: corpus::CorpusOptions {
            input: args.input,
            json: JsonOptions::default()
                .with_segments(args.segments)
                .with_markdown(args.markdown),
            ..corpus::CorpusOptions::default()
        },
        jobs: args.jobs,
        quiet: args.quiet,
    };
    let result = run_corpus_prepared(&cleaner, run, args.resume, prepared);
    if let (Some(f), Some(mem), false) = (&args.site_memory, &memory, args.no_site_pass) {
        // After the run: its outputs are written, the memory is not.
        mem.save(f)
            .map_err(|e| anyhow::Error::new(e).context(super::ExitCode(super::ExitCode::FAILED)))?;
    }
    result
}

/// The options of `--method perplexity`.
#[derive(clap::Args)]
#[command(next_help_heading = "Model and decision")]
pub struct PerplexityArgs {
    /// Perplexity: drop sentences above PPL (default: 8000).
    ///
    /// Drop each sentence whose perplexity under the word model is above this
    /// (PyPlexity's default; its paper tries 1,000–14,000).
    /// Default: 8000 (`ncleaner::DEFAULT_MAX_PERPLEXITY`).
    #[arg(long, value_name = "PPL")]
    pub max_perplexity: Option<f64>,

    /// Perplexity: mark sentences above the cut-off, drop none.
    ///
    /// Keep every sentence; wrap those above the cut-off in <del>…</del>
    /// (and list every sentence's perplexity with --segments).
    #[arg(long)]
    pub mark: bool,

    /// Perplexity's word model: `en-ppl` or a file.
    ///
    /// The word model: `en-ppl` (embedded) or a model file (ours, or ARPA from KenLM's lmplz).
    #[arg(long, default_value = "en-ppl", value_name = "MODEL")]
    pub word_model: String,

    /// Perplexity scoring: kneser-ney or pyplexity.
    ///
    /// How the word model scores: `kneser-ney` (the model's backoff
    /// probabilities: interpolated modified Kneser–Ney for ours) or
    /// `pyplexity` (PyPlexity's bigram formula 0.8·P(w|v) + 0.2·P(v) + 1e-6;
    /// models trained by ncleaner).
    #[arg(long, value_parser = names::<Smoothing>(["kneser-ney", "pyplexity"]), default_value = "kneser-ney", hide_possible_values = true)]
    pub smoothing: Smoothing,
}

/// What [`run_corpus`] reads, writes and how.
pub struct Run<'a> {
    /// The inputs (files, directories, `-`).
    pub inputs: &'a [PathBuf],
    /// `-o`.
    pub output: Option<&'a std::path::Path>,
    /// `--format`; `None`: from the name of `-o`, else `default_format`.
    pub format: Option<OutputFormat>,
    /// The format when neither `--format` nor the name of `-o` says one.
    pub default_format: OutputFormat,
    /// How documents are read and written (the format is set from `format`).
    pub opts: corpus::CorpusOptions,
    /// `-j`.
    pub jobs: Option<usize>,
    /// `-q`.
    pub quiet: bool,
}

/// Cleans every input document with `cleaner` on the threads of `-j`,
/// written in input order, a summary line on standard error at the end and
/// a progress bar while it runs when standard error is a terminal. Fails
/// when any document failed (after writing all others). Shared by `clean`
/// and `strip`.
pub fn run_corpus(cleaner: &Cleaner, run: Run<'_>) -> Result<()> {
    corpus::prepare_output(run.inputs, run.output, None)
        .map_err(anyhow::Error::new)
        .and_then(|prepared| run_corpus_prepared(cleaner, run, false, prepared))
        .map_err(|e| super::with_status(e, super::ExitCode::REFUSED))
}

/// [`run_corpus`] on an output already checked and locked
/// ([`corpus::prepare_output`]), resuming an interrupted run when `resume`.
/// An input that cannot be read (a missing file among many) is a failed
/// document as any other: it gets its record, is named on standard error,
/// and the rest is cleaned (the exit status is then 1). An output that
/// cannot be written any further (a full disk under `-o FILE`) stops the
/// run: what was written stays under its temporary name, the summary says
/// so, and the exit status is 3; standard output closed by its reader
/// (`| head`) ends the run quietly, with status 0, as it ends `cat`.
fn run_corpus_prepared(
    cleaner: &Cleaner,
    run: Run<'_>,
    resume: bool,
    prepared: corpus::PreparedOutput,
) -> Result<()> {
    let found = prepared.walk(run.inputs);
    let dest = &prepared.dest;
    let format = run
        .format
        .or_else(|| corpus::sink::format_from_name(dest))
        .unwrap_or(run.default_format);
    let opts = corpus::CorpusOptions { format, ..run.opts };
    let pool = thread_pool(run.jobs)?;
    if let (Some(note), false) = (&prepared.new_folders, run.quiet) {
        eprintln!("ncleaner: {note}");
    }
    // SIGINT/SIGTERM: finish what is read, flush, summarise, exit 130/143.
    corpus::interrupt::install()?;
    let mut progress = Progress::new(!run.quiet);
    let plan = prepared.plan(resume, format)?;
    if let (Some(corpus::Resume::File(f)), false) = (&plan.resume, run.quiet) {
        f.torn_note().inspect(|n| eprintln!("ncleaner: {n}"));
    }
    let result = corpus::clean_resuming(found, dest, cleaner, opts, &pool, &mut progress, plan);
    progress.finish();
    let secs = progress.start.elapsed().as_secs_f64();
    let (stats, resumed) = match (result, progress.stopped.take()) {
        (Ok(r), _) => r,
        (Err(e), Some(_)) if reader_gone(&e, dest) => return Ok(()),
        (Err(e), Some(stats)) => {
            if !run.quiet {
                progress.summarise(&stats);
                eprintln!(
                    "ncleaner: INCOMPLETE: stopped after {secs:.1} s: the output could not be \
                     written any further; the outputs hold the {} above, the rest was not \
                     written",
                    counted(stats.documents + stats.skipped, "document")
                );
                dest.incomplete_note(format)
                    .inspect(|n| eprintln!("ncleaner: {n}"));
            }
            return Err(anyhow::Error::new(e).context(super::ExitCode(super::ExitCode::STOPPED)));
        }
        // Refused before anything was written (the caller's status).
        (Err(e), None) => return Err(e.into()),
    };
    if !run.quiet {
        progress.summarise(&stats);
        if resumed > 0 {
            eprintln!(
                "ncleaner: resumed: {} already in the output left out",
                counted(resumed, "document")
            );
        }
        match stats.interrupted {
            None => eprintln!("ncleaner: complete in {secs:.1} s"),
            Some(sig) => {
                eprintln!(
                    "ncleaner: INCOMPLETE: interrupted by {} after {secs:.1} s; the outputs hold the {} above, the rest was not read",
                    signal_name(sig),
                    counted(stats.documents + stats.skipped, "document")
                );
                dest.incomplete_note(format)
                    .inspect(|n| eprintln!("ncleaner: {n}"));
            }
        }
        if let Some(note) = replaced_note(dest, stats.replaced) {
            eprintln!("ncleaner: {note}");
        }
    }
    if let Some(sig) = stats.interrupted {
        return Err(anyhow::Error::new(super::ExitCode(128 + sig))
            .context(format!("interrupted by {}", signal_name(sig))));
    }
    if stats.failed > 0 {
        return Err(anyhow::anyhow!(
            "{} of {} failed",
            stats.failed,
            counted(stats.documents, "document")
        )
        .context(super::ExitCode(super::ExitCode::FAILED)));
    }
    Ok(())
}

/// What the summary says of the output files the run wrote over (files
/// there before it, replaced when complete): `-o FILE` by its name, `-o
/// DIR/` by their number; `None` when it replaced none.
fn replaced_note(dest: &corpus::sink::Destination, replaced: u64) -> Option<String> {
    use corpus::sink::Destination;
    match dest {
        _ if replaced == 0 => None,
        Destination::File(f) => Some(format!(
            "replaced {}, which was there before this run",
            f.display()
        )),
        Destination::Dir(d) => Some(format!(
            "replaced {} under {} that {} there before this run",
            counted(replaced, "file"),
            d.display(),
            if replaced == 1 { "was" } else { "were" }
        )),
        Destination::Stdout => None,
    }
}

/// Whether the run stopped because standard output, its output, was
/// closed by its reader (`ncleaner clean … | head`).
fn reader_gone(e: &ncleaner::Error, dest: &corpus::Destination) -> bool {
    matches!(dest, corpus::Destination::Stdout)
        && matches!(e, ncleaner::Error::Io { error, .. } if error.kind() == std::io::ErrorKind::BrokenPipe)
}

fn signal_name(sig: i32) -> &'static str {
    match sig {
        2 => "SIGINT",
        15 => "SIGTERM",
        _ => "a signal",
    }
}

/// Prints failures as they come and, on a terminal, a progress bar with
/// documents/s and MB/s.
struct Progress {
    bar: Option<ProgressBar>,
    start: Instant,
    verbose: bool,
    /// Files skipped as no document, by reason (WARC records that are not
    /// documents are only counted).
    skipped: std::collections::BTreeMap<String, u64>,
    /// The counts of a run stopped because its output could not be written.
    stopped: Option<Stats>,
}

impl Progress {
    fn new(verbose: bool) -> Progress {
        let bar = (verbose && std::io::stderr().is_terminal()).then(|| {
            let b = ProgressBar::new_spinner();
            b.set_style(
                ProgressStyle::with_template("{spinner} {elapsed_precise} {msg}")
                    .expect("a valid template"),
            );
            b.enable_steady_tick(Duration::from_millis(200));
            b
        });
        Progress {
            bar,
            start: Instant::now(),
            verbose,
            skipped: Default::default(),
            stopped: None,
        }
    }

    /// The summary lines: the counts, and what was skipped by reason.
    fn summarise(&self, stats: &Stats) {
        eprintln!("ncleaner: {stats}");
        if !self.skipped.is_empty() {
            let list: Vec<String> = self
                .skipped
                .iter()
                .map(|(why, n)| format!("{n} {why}"))
                .collect();
            eprintln!("ncleaner: skipped: {}", list.join(", "));
        }
    }

    fn finish(&mut self) {
        if let Some(b) = self.bar.take() {
            b.finish_and_clear();
        }
    }
}

impl Observer for Progress {
    fn failed(&mut self, entry: &Entry, error: &ncleaner::Error) {
        // Errors name their input; the entry's id is added when they do not.
        let msg = error.to_string();
        let line = if msg.contains(&entry.id) {
            format!("ncleaner: {msg}")
        } else {
            format!("ncleaner: {}: {msg}", entry.id)
        };
        match &self.bar {
            Some(b) => b.println(line),
            None if self.verbose => eprintln!("{line}"),
            None => {}
        }
    }

    fn skipped(&mut self, entry: &Entry, reason: &str) {
        // Files by reason; in WARC and JSON Lines, only what is not a
        // document (binary bodies), not every request or metadata record.
        if entry.input.container == corpus::Container::Document
            || reason.starts_with("not a document")
        {
            *self.skipped.entry(reason.to_string()).or_default() += 1;
        }
        // Rare and never opened: named one by one (images and the like are
        // only counted by kind).
        if reason.starts_with("not a regular file") {
            let line = format!("ncleaner: {}: skipped, {reason}", entry.id);
            match &self.bar {
                Some(b) => b.println(line),
                None if self.verbose => eprintln!("{line}"),
                None => {}
            }
        }
    }

    /// The error is the run's last word, after the summary.
    fn stopped(&mut self, stats: &Stats, _error: &ncleaner::Error) {
        self.stopped = Some(*stats);
    }

    fn progress(&mut self, stats: &Stats) {
        if let Some(b) = &self.bar {
            let secs = self.start.elapsed().as_secs_f64().max(1e-9);
            b.set_message(format!(
                "{} documents ({:.0}/s), {:.1} MB ({:.1} MB/s), {} failed, {} skipped",
                stats.documents,
                stats.documents as f64 / secs,
                stats.bytes as f64 / 1e6,
                stats.bytes as f64 / 1e6 / secs,
                stats.failed,
                stats.skipped,
            ));
        }
    }
}
