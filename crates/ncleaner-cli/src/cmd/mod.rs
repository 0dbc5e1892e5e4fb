//! One module per subcommand.

pub mod clean;
pub mod common;
pub mod perplexity;
pub mod strip;

/// An error that asks for a particular process exit code.
#[derive(Debug)]
pub struct ExitCode(pub i32);

impl std::fmt::Display for ExitCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "exit code {}", self.0)
    }
}

impl std::error::Error for ExitCode {}
