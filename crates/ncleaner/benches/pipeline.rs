//! Criterion benchmarks of the pipeline's stages on the CleanEval dev pages:
//! decoding, HTML parsing, segmentation, and the whole `clean` for HTML and
//! text-dump input (with the models and with the heuristics alone).
//!
//!   cargo bench -p ncleaner --bench pipeline
//!
//! Needs ../shared/data (or $NCLEANER_SHARED/data). Throughput is reported in
//! bytes of input, so that criterion prints MB/s.

use std::path::PathBuf;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use ncleaner::Method;
use ncleaner::{Cleaner, InputKind, decode, html, model, segment};

fn pages() -> Vec<Vec<u8>> {
    let shared = std::env::var_os("NCLEANER_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared"));
    let dir = shared.join("data/cleaneval/dev");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| {
            panic!(
                "the benchmark needs the CleanEval pages at {}: {e}",
                dir.display()
            )
        })
        .map(|e| e.expect("entry").path())
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|p| std::fs::read(p).expect("page"))
        .collect()
}

fn stages(c: &mut Criterion) {
    let pages = pages();
    let bytes: u64 = pages.iter().map(|p| p.len() as u64).sum();
    let texts: Vec<String> = pages
        .iter()
        .map(|p| decode::decode(p, None, None).text)
        .collect();
    let cleaner = Cleaner::from_model(model::embedded("en").expect("embedded model"));
    let heuristics = Cleaner::from_model(model::embedded("en").expect("embedded model"))
        .with_method(Method::Heuristics);
    let dumps: Vec<Vec<u8>> = pages
        .iter()
        .map(|p| {
            let c = cleaner
                .clone()
                .with_method(Method::KeepAll)
                .clean(p, InputKind::Html, None);
            c.segments
                .iter()
                .map(|s| s.segment.text())
                .collect::<Vec<_>>()
                .join("\n")
                .into_bytes()
        })
        .collect();
    let dump_bytes: u64 = dumps.iter().map(|d| d.len() as u64).sum();

    let mut g = c.benchmark_group("dev-pages");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(bytes));
    g.bench_function("decode", |b| {
        b.iter(|| {
            pages
                .iter()
                .map(|p| decode::decode(p, None, None).text.len())
                .sum::<usize>()
        })
    });
    g.bench_function("parse+segment", |b| {
        b.iter(|| {
            texts
                .iter()
                .map(|t| segment::from_page(html::parse(t)).len())
                .sum::<usize>()
        })
    });
    g.bench_function("clean-html", |b| {
        b.iter(|| {
            pages
                .iter()
                .map(|p| cleaner.clean(p, InputKind::Html, None).segments.len())
                .sum::<usize>()
        })
    });
    g.bench_function("clean-html-heuristics", |b| {
        b.iter(|| {
            pages
                .iter()
                .map(|p| heuristics.clean(p, InputKind::Html, None).segments.len())
                .sum::<usize>()
        })
    });
    g.throughput(Throughput::Bytes(dump_bytes));
    g.bench_function("clean-text", |b| {
        b.iter(|| {
            dumps
                .iter()
                .map(|d| cleaner.clean(d, InputKind::Text, None).segments.len())
                .sum::<usize>()
        })
    });
    g.finish();
}

criterion_group!(benches, stages);
criterion_main!(benches);
