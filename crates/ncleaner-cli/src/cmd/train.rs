//! `ncleaner train` (being written).

/// Arguments.
#[derive(clap::Args)]
pub struct Args {}

/// Runs it.
pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("not built yet")
}
