//! The whole `clean` path on arbitrary bytes: container sniffing (WARC,
//! JSON Lines, gzip/zstd, a single document), record reading, decoding,
//! HTML parsing, segmentation, the models, and every output format.
#![no_main]

use std::sync::{Arc, LazyLock};

use libfuzzer_sys::fuzz_target;
use ncleaner_corpus::{self as corpus, CorpusOptions, Origin, OutputFormat as Format, Source, SourceOptions};
use ncleaner::{Cleaner, InputKind};

static CLEANER: LazyLock<Cleaner> =
    LazyLock::new(|| Cleaner::from_model(ncleaner::model::embedded("en").expect("embedded model")));

fuzz_target!(|data: &[u8]| {
    // The file name varies too: bytes before a NUL in the first 64 are the
    // name (any UTF-8 or not; non-ASCII names once panicked the run), the
    // rest the content; without a NUL the name is one of a few that steer
    // the container and compression guesses.
    const NAMES: &[&str] = &["fuzz", "café.htm", "日本.html.gz", "a.warc.gz", "x.jsonl.zst", "p.br"];
    let (name, body) = match data.iter().take(64).position(|&b| b == 0) {
        Some(i) => (String::from_utf8_lossy(&data[..i]).into_owned(), &data[i + 1..]),
        None => (
            NAMES[data.first().map_or(0, |&b| b as usize) % NAMES.len()].to_string(),
            data,
        ),
    };
    let origin = Origin::Memory {
        name,
        bytes: Arc::from(body),
    };
    let source = Source::new(
        vec![origin],
        SourceOptions {
            max_document: 1 << 20,
            keep_records: true,
        },
    );
    for (i, entry) in source.enumerate() {
        let format = [Format::Cleaneval, Format::Text, Format::Jsonl, Format::Warc, Format::Parquet][i % 5];
        let input = [InputKind::Auto, InputKind::Html, InputKind::Text][i % 3];
        let opts = CorpusOptions {
            input,
            format,
            ..CorpusOptions::default()
        };
        if entry.document.is_some() {
            let _ = corpus::clean_entry(&CLEANER, &entry, &opts);
        }
    }
});
