//! Reads inputs as `ncleaner clean` does and cleans nothing: the readers'
//! own work (decompression, WARC or JSON Lines parsing, identifying each
//! document's bytes), timed against `clean` by `scripts/bench-readers` for
//! the scaling model in BENCHMARKS.md.
//!
//!   cargo run --release -p ncleaner-corpus --example read -- [-j N] INPUT...
//!
//! `-j N` reads up to N files at once, as `clean -j N` does. Prints the
//! entries read and the bytes of their documents.

use std::path::PathBuf;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut readers = 1;
    if args.first().map(String::as_str) == Some("-j") && args.len() > 1 {
        readers = args[1].parse().unwrap_or_else(|_| {
            eprintln!("read: -j takes a number of readers, not {:?}", args[1]);
            std::process::exit(2)
        });
        args.drain(..2);
    }
    if args.is_empty() {
        eprintln!("usage: read [-j N] INPUT...");
        std::process::exit(2);
    }
    let found = ncleaner_corpus::walk_inputs(args.into_iter().map(PathBuf::from).collect());
    let source = ncleaner_corpus::Source::streaming(found, Default::default()).readers(readers);
    let (mut entries, mut bytes) = (0u64, 0u64);
    for e in source {
        entries += 1;
        bytes += e.bytes().len() as u64;
    }
    println!("{entries} entries, {bytes} bytes of documents");
}
