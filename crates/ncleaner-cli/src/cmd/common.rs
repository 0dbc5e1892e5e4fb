//! Arguments and helpers shared by several subcommands.

use std::path::Path;

use anyhow::{Context, Result};
use ncleaner::model::{self, Model};

/// `--model`: an embedded model's name or a model file.
#[derive(clap::Args, Clone)]
pub struct ModelArg {
    /// The model: `en` (lexical, embedded), `en-nonlex` (non-lexical, embedded), or a model file's path.
    #[arg(
        long = "model",
        short = 'm',
        default_value = "en",
        value_name = "en|en-nonlex|PATH"
    )]
    pub model: String,
}

/// Loads the model that `--model` names.
pub fn load_model(arg: &ModelArg) -> Result<Model> {
    load_model_named(&arg.model)
}

/// Loads a model by embedded name (`en`, `en-nonlex`) or file path.
pub fn load_model_named(name: &str) -> Result<Model> {
    if model::EMBEDDED.iter().any(|(n, _)| *n == name) {
        return Ok(model::embedded(name)?);
    }
    let path = Path::new(name);
    if !path.exists() {
        anyhow::bail!("--model {name}: no such file, and not an embedded model (en, en-nonlex)");
    }
    Model::load(path).with_context(|| format!("loading --model {name}"))
}

/// A rayon pool with `jobs` threads (all cores when `None`).
pub fn thread_pool(jobs: Option<usize>) -> Result<rayon::ThreadPool> {
    let mut b = rayon::ThreadPoolBuilder::new();
    if let Some(j) = jobs {
        anyhow::ensure!(j > 0, "-j must be at least 1");
        b = b.num_threads(j);
    }
    b.build().context("starting worker threads")
}

/// Loads a word model: `en-ppl` (embedded) or a file (binary or ARPA).
pub fn load_word_model(name: &str) -> Result<ncleaner::lm::WordLm> {
    ncleaner::lm::file::open(name).with_context(|| format!("loading word model {name}"))
}

/// `--smoothing`: how a word model scores.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum SmoothingArg {
    /// The model's backoff probabilities (interpolated modified Kneser–Ney for ours).
    KneserNey,
    /// PyPlexity's bigram formula 0.8·P(w|v) + 0.2·P(v) + 1e-6 (models trained by ncleaner).
    Pyplexity,
}

impl From<SmoothingArg> for ncleaner::lm::Smoothing {
    fn from(a: SmoothingArg) -> Self {
        match a {
            SmoothingArg::KneserNey => ncleaner::lm::Smoothing::Backoff,
            SmoothingArg::Pyplexity => ncleaner::lm::Smoothing::PyPlexity,
        }
    }
}
