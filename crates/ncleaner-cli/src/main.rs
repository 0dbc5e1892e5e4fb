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
    Train(cmd::train::Args),
    /// Score cleaned pages against gold files (word-level P/R/F, segmentation).
    Eval(cmd::eval::Args),
    /// The paper's Table 2 and Figure 3 by K-fold cross-validation.
    Crossval(cmd::crossval::Args),
    /// Word language models for perplexity filtering: train, convert to and from ARPA.
    Lm(cmd::lm::Args),
    /// The perplexity of a sentence (or of each line of standard input) under a word model.
    Perplexity(cmd::perplexity::Args),
    /// HTML to plain text with nothing removed (PyPlexity's tag-remover): one block per line.
    Strip(cmd::strip::Args),
    /// Choose n and q (and the threshold) by cross-validated cross-entropy or F (Figure 2).
    Tune(cmd::tune::Args),
    /// The learning curve: models trained on growing subsets, one held-out set (Figure 4).
    Curve(cmd::curve::Args),
    /// Table 2's rows with fixed (e.g. the embedded) models on pages never trained on.
    Heldout(cmd::heldout::Args),
    /// The cross-domain matrix: train on each pool of gold data and on all, test on each.
    Matrix(cmd::matrix::Args),
    /// Serve the web demo and the JSON API.
    #[cfg(feature = "serve")]
    Serve(cmd::serve::Args),
}

fn main() {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Clean(a) => cmd::clean::run(a),
        Command::Train(a) => cmd::train::run(a),
        Command::Eval(a) => cmd::eval::run(a),
        Command::Crossval(a) => cmd::crossval::run(a),
        Command::Lm(a) => cmd::lm::run(a),
        Command::Perplexity(a) => cmd::perplexity::run(a),
        Command::Strip(a) => cmd::strip::run(a),
        Command::Tune(a) => cmd::tune::run(a),
        Command::Curve(a) => cmd::curve::run(a),
        Command::Heldout(a) => cmd::heldout::run(a),
        Command::Matrix(a) => cmd::matrix::run(a),
        #[cfg(feature = "serve")]
        Command::Serve(a) => cmd::serve::run(a),
    };
    if let Err(e) = result {
        eprintln!("ncleaner: {e:#}");
        std::process::exit(match e.downcast_ref::<cmd::ExitCode>() {
            Some(code) => code.0,
            None => 1,
        });
    }
}
