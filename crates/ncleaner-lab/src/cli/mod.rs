//! The lab's subcommands (`train`, `eval`, `crossval`, `tune`, `curve`,
//! `heldout`, `matrix`, `lm`, `pagetype`) as clap definitions and their runs, behind
//! the `cli` feature. The `ncleaner` binary mounts them behind its default
//! `lab` feature, so they change with the experiments they run and a
//! binary built without that feature holds the product's commands alone.

pub mod ablation;
pub mod crossval;
pub mod curve;
pub mod eval;
pub mod heldout;
pub mod lm;
pub mod matrix;
pub mod pagetype;
pub mod pool;
pub mod train;
pub mod tune;

/// The lab's subcommands, as the `ncleaner` binary mounts them (flattened
/// among its own). A user who cleans takes none of them: they are hidden
/// from the binary's list of commands, which names them on one line
/// ([`COMMANDS`]), and each keeps its `--help`.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Train a model from pages and their cleaned (gold) versions.
    #[command(hide = true)]
    Train(train::Args),
    /// Score cleaned pages against gold files (word-level P/R/F, segmentation).
    #[command(hide = true)]
    Eval(eval::Args),
    /// Word language models for perplexity filtering: train, convert to and from ARPA.
    #[command(hide = true)]
    Lm(lm::Args),
    /// The paper's Table 2 and Figure 3 by K-fold cross-validation.
    #[command(hide = true)]
    Crossval(crossval::Args),
    /// Choose n and q (and the threshold) by cross-validated cross-entropy or F (Figure 2).
    #[command(hide = true)]
    Tune(tune::Args),
    /// The learning curve: models trained on growing subsets, one held-out set (Figure 4).
    #[command(hide = true)]
    Curve(curve::Args),
    /// Table 2's rows with fixed (e.g. the embedded) models on pages never trained on.
    #[command(hide = true)]
    Heldout(heldout::Args),
    /// The cross-domain matrix: train on each pool of gold data and on all, test on each.
    #[command(hide = true)]
    Matrix(matrix::Args),
    /// The page-type classifier cross-validated with folds by domain.
    #[command(hide = true)]
    Pagetype(pagetype::Args),
}

/// The names of [`Command`]'s subcommands, in its order.
pub const COMMANDS: [&str; 9] = [
    "train", "eval", "lm", "crossval", "tune", "curve", "heldout", "matrix", "pagetype",
];

impl Command {
    /// Runs the command.
    pub fn run(self) -> anyhow::Result<()> {
        match self {
            Command::Train(a) => train::run(a),
            Command::Eval(a) => eval::run(a),
            Command::Lm(a) => lm::run(a),
            Command::Crossval(a) => crossval::run(a),
            Command::Tune(a) => tune::run(a),
            Command::Curve(a) => curve::run(a),
            Command::Heldout(a) => heldout::run(a),
            Command::Matrix(a) => matrix::run(a),
            Command::Pagetype(a) => pagetype::run(a),
        }
    }
}

use anyhow::Context as _;
use ncleaner::Preference;

/// Loads a model by embedded name (`en`, `en-nonlex`) or file path
/// ([`ncleaner::Model::open`]), naming the option that gave it.
fn open_model(option: &str, name: &str) -> anyhow::Result<ncleaner::Model> {
    ncleaner::Model::open(name).with_context(|| format!("loading {option} {name}"))
}

/// A clap value parser for `--prefer` built on [`Preference`]'s `FromStr`,
/// so that the names live once.
fn preference_parser() -> impl clap::builder::TypedValueParser<Value = Preference> {
    use clap::builder::TypedValueParser as _;
    clap::builder::PossibleValuesParser::new(["precision", "f", "recall"])
        .map(|s| s.parse::<Preference>().expect("a listed name"))
}

#[cfg(test)]
mod tests {
    use clap::Subcommand as _;

    /// [`super::COMMANDS`] names every subcommand, in order (the binary's
    /// help lists them from it).
    #[test]
    fn the_names_are_the_commands() {
        let cmd = super::Command::augment_subcommands(clap::Command::new("ncleaner"));
        let names: Vec<&str> = cmd.get_subcommands().map(|c| c.get_name()).collect();
        assert_eq!(names, super::COMMANDS);
        assert!(cmd.get_subcommands().all(|c| c.is_hide_set()));
    }
}
