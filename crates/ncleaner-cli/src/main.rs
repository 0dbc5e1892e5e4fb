//! The `ncleaner` command: argument parsing only; the work is in the library.

mod cmd;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

/// Remove boilerplate (menus, link lists, ads, footers) from web pages and
/// web-text dumps, keeping the running text (Evert's NCleaner and a learned
/// classifier).
#[derive(Parser)]
#[command(name = "ncleaner", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// What `ncleaner --help` says under the commands: examples, and where the
/// rest is. The lab's commands are left out of its list (a user who cleans
/// takes none of them) and named on one line.
fn after_help() -> String {
    let mut s = String::from(
        "Examples:\n  \
         ncleaner clean page.html                       the page's running text\n  \
         ncleaner clean -o pages.jsonl.zst saved/       a folder of pages to JSON Lines\n  \
         ncleaner clean -o out.warc.gz crawl.warc.gz    a WARC, a conversion record after each page\n  \
         ncleaner clean -o out.parquet crawl/*.warc.gz  WARC files to Parquet\n",
    );
    if cfg!(feature = "serve") {
        s.push_str("  ncleaner serve                                 the web demo and JSON API on 127.0.0.1:8080\n");
    }
    #[cfg(feature = "lab")]
    s.push_str(&format!(
        "\nTraining and experiments (TRAINING.md; ncleaner help COMMAND):\n  {}\n",
        ncleaner_lab::cli::COMMANDS.join(", ")
    ));
    s.push_str("\nEach command's options: ncleaner COMMAND --help. The guide: GUIDE.md.");
    s
}

/// The user's commands first; the lab's, mounted from `ncleaner-lab`, are
/// hidden from the list ([`after_help`] names them).
#[derive(Subcommand)]
enum Command {
    /// Clean pages: keep the running text, drop the boilerplate.
    Clean(cmd::clean::Args),
    /// Serve the web demo and the JSON API.
    #[cfg(feature = "serve")]
    Serve(ncleaner_serve::cli::Args),
    /// HTML to plain text with nothing removed (PyPlexity's tag-remover): one block per line.
    Strip(cmd::strip::Args),
    /// The perplexity of a sentence (or of each line of standard input) under a word model.
    Perplexity(cmd::perplexity::Args),
    /// The lab's commands (training, evaluation, the paper's experiments).
    #[cfg(feature = "lab")]
    #[command(flatten)]
    Lab(ncleaner_lab::cli::Command),
}

fn main() {
    fixed_malloc_thresholds();
    let matches = Cli::command().after_help(after_help()).get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    let result = match cli.command {
        Command::Clean(a) => cmd::clean::run(a),
        Command::Perplexity(a) => cmd::perplexity::run(a),
        Command::Strip(a) => cmd::strip::run(a),
        #[cfg(feature = "lab")]
        Command::Lab(c) => c.run(),
        #[cfg(feature = "serve")]
        Command::Serve(a) => ncleaner_serve::cli::run(a),
    };
    if let Err(e) = result {
        // The exit status asked for says nothing (`cmd::ExitCode`).
        let words: Vec<String> = e
            .chain()
            .map(|c| c.to_string())
            .filter(|w| !w.is_empty())
            .collect();
        eprintln!("ncleaner: {}", words.join(": "));
        let code = e.downcast_ref::<cmd::ExitCode>();
        std::process::exit(code.map_or(1, |c| c.0));
    }
}

/// glibc's allocator thresholds fixed: blocks of [`MMAP_THRESHOLD`] bytes
/// and more are mapped each of its own and unmapped when freed, and free
/// memory past [`TRIM_THRESHOLD`] at a heap's top goes back to the system.
/// Left to itself, glibc raises both as large blocks are freed (up to 32
/// and 64 MiB), and a document of many megabytes leaves its working memory
/// mapped for the next. 64 Parquet rows of 14 MB at `-j 1`: peak RSS 324 →
/// 275 MB, wall time the same; the same rows as JSON Lines 130 → 122 MB and
/// 3.1 → 3.9 s (their buffers are mapped afresh for each row); WCXB's pages,
/// which allocate no block that large, as fast (BENCHMARKS.md, "Parquet
/// rows of huge pages"). Fixing the mapping threshold alone (which also
/// fixes the trim threshold at its 128 KiB default) made ordinary pages
/// about 4 % slower: the heap's top was given back and taken again.
fn fixed_malloc_thresholds() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: called first in `main`, before any thread starts (mallopt is
    // not safe beside other allocations); it takes no pointer.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD);
        libc::mallopt(libc::M_TRIM_THRESHOLD, TRIM_THRESHOLD);
    }
}

/// See [`fixed_malloc_thresholds`]: 8 MiB.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const MMAP_THRESHOLD: i32 = 8 << 20;
/// See [`fixed_malloc_thresholds`]: 16 MiB.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const TRIM_THRESHOLD: i32 = 16 << 20;
