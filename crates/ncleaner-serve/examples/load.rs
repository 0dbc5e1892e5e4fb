//! Load generator: `load URL FILE [CLIENTS] [SECONDS] [CONTENT-TYPE]`.
//! Posts FILE to URL from CLIENTS keep-alive connections for SECONDS and
//! prints one tab-separated line: clients, requests, errors, req/s, p50 ms, p99 ms.
//! Used by `scripts/bench-serve`.

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    anyhow::ensure!(
        args.len() >= 2,
        "usage: load URL FILE [CLIENTS] [SECONDS] [CONTENT-TYPE]"
    );
    let body = std::fs::read(&args[1]).map_err(|e| anyhow::anyhow!("{}: {e}", args[1]))?;
    let clients: usize = args.get(2).map_or(Ok(1), |s| s.parse())?;
    let seconds: f64 = args.get(3).map_or(Ok(10.0), |s| s.parse())?;
    let ct = args.get(4).cloned().unwrap_or_else(|| "text/html".into());
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let r = rt.block_on(ncleaner_serve::load::run(
        &args[0],
        &ct,
        &body,
        clients,
        std::time::Duration::from_secs_f64(seconds),
    ))?;
    println!(
        "{clients}\t{}\t{}\t{:.1}\t{:.2}\t{:.2}",
        r.requests,
        r.errors,
        r.rate(),
        r.p50.as_secs_f64() * 1e3,
        r.p99.as_secs_f64() * 1e3
    );
    Ok(())
}
