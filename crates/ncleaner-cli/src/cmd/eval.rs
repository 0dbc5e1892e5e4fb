//! `ncleaner eval`: score cleaned pages against gold files.

/// Arguments of `ncleaner eval`.
#[derive(clap::Args)]
pub struct Args {
    /// Directory of cleaned pages (REL/NAME.txt).
    pub outdir: std::path::PathBuf,
    /// Directory of gold files (REL/NAME.txt).
    pub golddir: std::path::PathBuf,
}

/// Runs `ncleaner eval`.
pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("eval: not built yet")
}
