//! What the embedded models cost: each one's size in the binary and how long
//! loading it takes (the fastest of 20 loads, in this process; a process
//! loads a model once, when a page first needs it), and the size of the
//! release binary they are embedded in, if it has been built.
//!
//! ```text
//! cargo build --release -p ncleaner-cli
//! cargo run --release -p ncleaner --example model_load
//! ```

use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

use ncleaner::{Model, WordLm};

/// The fastest of 20 runs of `load`.
fn fastest<T, E>(mut load: impl FnMut() -> Result<T, E>) -> Result<Duration, E> {
    let mut best = Duration::MAX;
    for _ in 0..20 {
        let start = Instant::now();
        black_box(load()?);
        best = best.min(start.elapsed());
    }
    Ok(best)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let models = Path::new(env!("CARGO_MANIFEST_DIR")).join("models");
    println!("| model | file | size (MB) | load (ms) |");
    println!("| --- | --- | ---: | ---: |");
    for name in ["en", "en-nonlex", "multi"] {
        let file = format!("{name}.nclm");
        let size = std::fs::metadata(models.join(&file))?.len();
        let load = fastest(|| Model::open(name))?;
        println!(
            "| {name} | `{file}` | {:.2} | {:.2} |",
            size as f64 / 1e6,
            load.as_secs_f64() * 1e3
        );
    }
    let file = "en-ppl.ncwl";
    let size = std::fs::metadata(models.join(file))?.len();
    let load = fastest(|| WordLm::open("en-ppl"))?;
    println!(
        "| en-ppl (`perplexity`, `--max-perplexity`) | `{file}` | {:.2} | {:.2} |",
        size as f64 / 1e6,
        load.as_secs_f64() * 1e3
    );
    // The workspace's target folder, or CARGO_TARGET_DIR.
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target"),
        Into::into,
    );
    match std::fs::metadata(target.join("release/ncleaner")) {
        Ok(m) => println!(
            "\nrelease binary `ncleaner`: {:.2} MB",
            m.len() as f64 / 1e6
        ),
        Err(_) => println!(
            "\nno release binary at {}",
            target.join("release/ncleaner").display()
        ),
    }
    Ok(())
}
