//! The `ncleaner` command: argument parsing only; the work is in the library.

mod cmd;

use clap::{Parser, Subcommand};

/// Remove boilerplate (navigation, link lists, ads, footers) from web pages
/// and web-text dumps with character n-gram models (Evert's NCleaner).
#[derive(Parser)]
#[command(name = "ncleaner", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Clean pages: keep the running text, drop the boilerplate.
    Clean(cmd::clean::Args),
    /// Train a model from pages and their cleaned (gold) versions.
    #[cfg(feature = "lab")]
    Train(ncleaner_lab::cli::train::Args),
    /// Score cleaned pages against gold files (word-level P/R/F, segmentation).
    #[cfg(feature = "lab")]
    Eval(ncleaner_lab::cli::eval::Args),
    /// The paper's Table 2 and Figure 3 by K-fold cross-validation.
    #[cfg(feature = "lab")]
    Crossval(ncleaner_lab::cli::crossval::Args),
    /// Word language models for perplexity filtering: train, convert to and from ARPA.
    #[cfg(feature = "lab")]
    Lm(ncleaner_lab::cli::lm::Args),
    /// The perplexity of a sentence (or of each line of standard input) under a word model.
    Perplexity(cmd::perplexity::Args),
    /// HTML to plain text with nothing removed (PyPlexity's tag-remover): one block per line.
    Strip(cmd::strip::Args),
    /// Choose n and q (and the threshold) by cross-validated cross-entropy or F (Figure 2).
    #[cfg(feature = "lab")]
    Tune(ncleaner_lab::cli::tune::Args),
    /// The learning curve: models trained on growing subsets, one held-out set (Figure 4).
    #[cfg(feature = "lab")]
    Curve(ncleaner_lab::cli::curve::Args),
    /// Table 2's rows with fixed (e.g. the embedded) models on pages never trained on.
    #[cfg(feature = "lab")]
    Heldout(ncleaner_lab::cli::heldout::Args),
    /// The cross-domain matrix: train on each pool of gold data and on all, test on each.
    #[cfg(feature = "lab")]
    Matrix(ncleaner_lab::cli::matrix::Args),
    /// The page-type classifier cross-validated with folds by domain.
    #[cfg(feature = "lab")]
    Pagetype(ncleaner_lab::cli::pagetype::Args),
    /// Serve the web demo and the JSON API.
    #[cfg(feature = "serve")]
    Serve(ncleaner_serve::cli::Args),
}

fn main() {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Clean(a) => cmd::clean::run(a),
        #[cfg(feature = "lab")]
        Command::Train(a) => ncleaner_lab::cli::train::run(a),
        #[cfg(feature = "lab")]
        Command::Eval(a) => ncleaner_lab::cli::eval::run(a),
        #[cfg(feature = "lab")]
        Command::Crossval(a) => ncleaner_lab::cli::crossval::run(a),
        #[cfg(feature = "lab")]
        Command::Lm(a) => ncleaner_lab::cli::lm::run(a),
        Command::Perplexity(a) => cmd::perplexity::run(a),
        Command::Strip(a) => cmd::strip::run(a),
        #[cfg(feature = "lab")]
        Command::Tune(a) => ncleaner_lab::cli::tune::run(a),
        #[cfg(feature = "lab")]
        Command::Curve(a) => ncleaner_lab::cli::curve::run(a),
        #[cfg(feature = "lab")]
        Command::Heldout(a) => ncleaner_lab::cli::heldout::run(a),
        #[cfg(feature = "lab")]
        Command::Matrix(a) => ncleaner_lab::cli::matrix::run(a),
        #[cfg(feature = "lab")]
        Command::Pagetype(a) => ncleaner_lab::cli::pagetype::run(a),
        #[cfg(feature = "serve")]
        Command::Serve(a) => ncleaner_serve::cli::run(a),
    };
    if let Err(e) = result {
        eprintln!("ncleaner: {e:#}");
        std::process::exit(match e.downcast_ref::<cmd::ExitCode>() {
            Some(code) => code.0,
            None => 1,
        });
    }
}
