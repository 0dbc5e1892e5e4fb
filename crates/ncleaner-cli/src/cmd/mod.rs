//! One module per subcommand.

pub mod clean;
pub mod common;
pub mod perplexity;
pub mod strip;

/// The exit status an error asks for, put in its chain as a context
/// ([`with_status`]); it says nothing (its message is empty, and left out
/// of the line printed). An error without one exits 1.
#[derive(Debug)]
pub struct ExitCode(pub i32);

impl ExitCode {
    /// `clean`: the run is complete, and some documents failed (each named,
    /// with its record where the format has records).
    pub const FAILED: i32 = 1;
    /// `clean`: the run was refused before it wrote anything (an option, an
    /// output over an input, an output another run writes, a `--resume`
    /// whose inputs are not the output's). Command-line errors exit 2 too.
    pub const REFUSED: i32 = 2;
    /// `clean`: the run stopped early because its output could not be
    /// written any further (a full disk under `-o FILE`); what was written
    /// is under its temporary name, where `--resume` continues it.
    pub const STOPPED: i32 = 3;
}

impl std::fmt::Display for ExitCode {
    fn fmt(&self, _: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        Ok(())
    }
}

impl std::error::Error for ExitCode {}

/// `e` with the exit status `code`, unless it asks for one already.
pub fn with_status(e: anyhow::Error, code: i32) -> anyhow::Error {
    match e.downcast_ref::<ExitCode>().is_some() {
        true => e,
        false => e.context(ExitCode(code)),
    }
}
