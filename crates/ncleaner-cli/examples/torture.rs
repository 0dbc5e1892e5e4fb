//! The torture corpus of issue 35, the full run (`scripts/torture`): every
//! case at the size the issue found it at and ten times that, through
//! `clean` and through `serve`, the outputs of issue 52 (runs interrupted
//! in every output format, two runs on one output, a link into an input),
//! then four concurrent 10 MB pathological requests to one server and the
//! attribute flood with `/healthz` polled.
//! Prints a Markdown table per part (BENCHMARKS.md holds them) and exits 1
//! when anything was wrong.
//!
//! ```text
//! torture --bin target/release/ncleaner [--seed N] [--factor F] [--work DIR] [--only SUBSTRING]
//! ```

#[path = "../tests/torture/run.rs"]
mod run;

#[path = "../tests/torture/outputs.rs"]
mod outputs;

use std::path::{Path, PathBuf};
use std::time::Duration;

use ncleaner_corpus::torture;

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut bin, mut seed, mut factor, mut work, mut only) = (
        None,
        35u64,
        1.0f64,
        std::env::temp_dir().join("ncleaner-torture"),
        None,
    );
    while let Some(a) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| panic!("{a} needs a value"));
        match a.as_str() {
            "--bin" => bin = Some(PathBuf::from(value())),
            "--seed" => seed = value().parse().expect("--seed N"),
            "--factor" => factor = value().parse().expect("--factor F"),
            "--work" => work = PathBuf::from(value()),
            "--only" => only = Some(value()),
            other => panic!("unknown argument {other}"),
        }
    }
    let bin = bin.expect("--bin PATH");
    let cases: Vec<torture::Case> = torture::cases(seed, factor)
        .into_iter()
        .filter(|c| only.as_deref().is_none_or(|o| c.name.contains(o)))
        .collect();
    println!("### clean (seed {seed}, sizes × {factor})\n");
    let mut failed = clean_part(&bin, &cases, &work);
    failed += outputs_part(&bin, &work, only.as_deref());
    failed += serve_part(&bin, &cases);
    failed += stress_part(&bin);
    if failed > 0 {
        eprintln!("torture: {failed} problem(s)");
        std::process::exit(1);
    }
}

/// Every case through `clean`, and whether time and memory grow linearly
/// with the size: the problems found.
fn clean_part(bin: &Path, cases: &[torture::Case], work: &Path) -> usize {
    let mut failed = 0;
    println!("| case | what | exit | record | peak RSS (MB) | seconds (wall) | CPU s | problems |");
    println!("|---|---|---|---|---:|---:|---:|---|");
    let mut outcomes = Vec::new();
    for c in cases {
        let o = run::clean_case(bin, c, &run::workdir(work, &c.name));
        println!(
            "| {} | {} | {} | {} | {:.0} | {:.2} | {:.2} | {} |",
            o.name,
            c.about,
            o.exit,
            o.record,
            o.peak_kb as f64 / 1024.0,
            o.wall,
            o.cpu,
            o.problems.join("; ").replace('|', "/")
        );
        failed += o.problems.len();
        outcomes.push(o);
        let _ = std::fs::remove_dir_all(work.join(&c.name));
    }
    let linear = run::linear_in_size(cases, &outcomes);
    for p in &linear {
        println!("\nnot linear: {p}");
    }
    failed + linear.len()
}

/// The outputs of issue 52 (unless `--only` leaves them out): the problems found.
fn outputs_part(bin: &Path, work: &Path, only: Option<&str>) -> usize {
    let mut failed = 0;
    println!("\n### outputs (issue 52: interrupted, concurrent, linked; `--method keep-all`)\n");
    println!("| case | what came of it | problems |\n|---|---|---|");
    let out_work = work.join("outputs");
    let output_cases = match only {
        Some(o) if !"outputs".contains(o) => Vec::new(),
        _ => outputs::output_cases(bin, &out_work),
    };
    for o in output_cases {
        println!(
            "| {} | {} | {} |",
            o.name,
            o.what,
            o.problems.join("; ").replace('|', "/")
        );
        failed += o.problems.len();
    }
    let _ = std::fs::remove_dir_all(&out_work);
    failed
}

/// Every case through `serve`, and the texts to score through its
/// perplexity API: the problems found.
fn serve_part(bin: &Path, cases: &[torture::Case]) -> usize {
    let mut failed = 0;
    println!("\n### serve (each page as a raw body; /healthz after each)\n");
    let mut server = run::Server::start(bin, &["-j", "2"]);
    println!("| case | status | problems |\n|---|---:|---|");
    for (name, status, problems) in run::serve_cases(&mut server, cases) {
        println!(
            "| {name} | {status} | {} |",
            problems.join("; ").replace('|', "/")
        );
        failed += problems.len();
    }
    let (peak, now) = server.memory_kb();
    println!(
        "\nserver: peak RSS {:.0} MB, RSS after {:.0} MB",
        peak as f64 / 1024.0,
        now as f64 / 1024.0
    );
    drop(server);

    println!("\n### serve: texts to score (POST /api/perplexity, a server each, -j 1)\n");
    println!("| case | status | problems |\n|---|---:|---|");
    for c in cases
        .iter()
        .filter(|c| c.carrier == torture::Carrier::Perplexity)
    {
        let (status, problems) = run::perplexity_serve_case(bin, c);
        println!(
            "| {} | {status} | {} |",
            c.name,
            problems.join("; ").replace('|', "/")
        );
        failed += problems.len();
    }
    failed
}

/// Four concurrent 10 MB pathological requests to one server, then the
/// attribute flood with `/healthz` polled: the problems found.
fn stress_part(bin: &Path) -> usize {
    let mut failed = 0;
    let server = run::Server::start(bin, &["-j", "2"]);
    let statuses = run::concurrent_floods(&server, run::MAX_BODY - 4096, 4);
    std::thread::sleep(Duration::from_millis(500));
    let (peak, now) = server.memory_kb();
    println!(
        "\nfour concurrent 10 MB <p>1 requests: statuses {statuses:?}; peak RSS {:.0} MB, RSS after {:.0} MB",
        peak as f64 / 1024.0,
        now as f64 / 1024.0
    );
    if peak >= 1_000_000 || statuses.iter().any(|&s| s != 200) {
        failed += 1;
    }
    drop(server);

    let mut server = run::Server::start(bin, &["-j", "2"]);
    let (status, slowest, alive) = run::attribute_flood_healthz(&mut server, 690 << 10);
    println!(
        "\nattribute flood (690 KB): status {status}, slowest /healthz {slowest:?}, server alive: {alive}"
    );
    if !alive || status != 200 || slowest >= Duration::from_secs(1) {
        failed += 1;
    }
    failed
}
