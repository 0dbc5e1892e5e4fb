//! The whole `clean` path on arbitrary bytes: container sniffing (WARC,
//! JSON Lines, gzip/zstd, a single document), record reading, decoding,
//! HTML parsing, segmentation, the models, and every output format.
#![no_main]

use std::sync::{Arc, LazyLock};

use libfuzzer_sys::fuzz_target;
use ncleaner_corpus::{self as corpus, CleanOptions, Origin, Source, SourceOptions};
use ncleaner::format::Format;
use ncleaner::{Cleaner, InputKind};

static CLEANER: LazyLock<Cleaner> =
    LazyLock::new(|| Cleaner::new(ncleaner::model::embedded("en").expect("embedded model")));

fuzz_target!(|data: &[u8]| {
    let origin = Origin::Memory {
        name: "fuzz".into(),
        bytes: Arc::from(data),
    };
    let source = Source::new(
        vec![origin],
        SourceOptions {
            max_document: 1 << 20,
            keep_records: true,
        },
    );
    for (i, entry) in source.enumerate() {
        let format = [Format::Cleaneval, Format::Text, Format::Jsonl, Format::Warc][i % 4];
        let input = [InputKind::Auto, InputKind::Html, InputKind::Text][i % 3];
        let opts = CleanOptions {
            input,
            format,
            ..CleanOptions::default()
        };
        if entry.document.is_some() {
            let _ = corpus::clean_entry(&CLEANER, &entry, &opts);
        }
    }
});
