//! One module per subcommand.

pub mod ablation;
pub mod clean;
pub mod common;
pub mod crossval;
pub mod curve;
pub mod eval;
pub mod heldout;
pub mod lm;
pub mod matrix;
pub mod perplexity;
pub mod pool;
#[cfg(feature = "serve")]
pub mod serve;
pub mod strip;
pub mod train;
pub mod tune;

/// An error that asks for a particular process exit code.
#[derive(Debug)]
pub struct ExitCode(pub i32);

impl std::fmt::Display for ExitCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "exit code {}", self.0)
    }
}

impl std::error::Error for ExitCode {}
