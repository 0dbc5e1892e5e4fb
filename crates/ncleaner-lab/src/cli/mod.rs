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
