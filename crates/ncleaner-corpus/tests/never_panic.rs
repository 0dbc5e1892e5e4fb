//! Property tests: the corpus path never panics on arbitrary containers.

use ncleaner::Cleaner;
use proptest::prelude::*;

fn cleaner() -> Cleaner {
    static CLEANER: std::sync::OnceLock<Cleaner> = std::sync::OnceLock::new();
    CLEANER
        .get_or_init(|| {
            Cleaner::from_model(ncleaner::model::embedded("en").expect("embedded model"))
        })
        .clone()
}

/// Byte strings made of container fragments (WARC headers with true and
/// lying lengths, HTTP heads, JSON Lines records, broken lines, gzip
/// magic), optionally gzipped whole, so that sniffing and record reading
/// meet every shape they know, cut and glued at random.
fn containerish() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        Just(b"WARC/1.0\r\nWARC-Type: response\r\nContent-Type: application/http; msgtype=response\r\n".to_vec()),
        Just(b"WARC-Target-URI: http://example.com/\r\nWARC-Record-ID: <urn:uuid:1>\r\n".to_vec()),
        (0u32..200).prop_map(|n| format!("Content-Length: {n}\r\n\r\n").into_bytes()),
        Just(b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=latin-1\r\n\r\n".to_vec()),
        Just(b"<html><p>Some text of a page, long enough to be kept.</p>".to_vec()),
        Just(b"\r\n\r\n".to_vec()),
        Just(b"{\"id\": \"a\", \"url\": \"http://x/\", \"html\": \"<p>x</p>\"}\n".to_vec()),
        Just(b"{\"id\": 1, \"text\": \"A line.\\nAnother.\"}\n".to_vec()),
        Just(b"{broken\n".to_vec()),
        Just(vec![0x1f, 0x8b, 0x08, 0x00]),
        Just(vec![0x28, 0xb5, 0x2f, 0xfd]),
        prop::collection::vec(any::<u8>(), 0..40),
    ];
    (prop::collection::vec(piece, 0..12), any::<bool>()).prop_map(|(v, gz)| {
        let bytes = v.concat();
        if !gz {
            return bytes;
        }
        use std::io::Write;
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(&bytes).expect("in memory");
        e.finish().expect("in memory")
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The corpus path on arbitrary containers: no panic, every entry has
    /// a document or a known outcome, and every document cleans or fails
    /// with an error (what `cargo fuzz` runs for longer: `scripts/fuzz`).
    #[test]
    fn arbitrary_containers(bytes in containerish()) {
        use ncleaner_corpus::{self as corpus, CorpusOptions, Origin, OutputFormat, Source, SourceOptions};
        let origin = Origin::Memory { name: "prop".into(), bytes: std::sync::Arc::from(bytes) };
        let source = Source::new(vec![origin], SourceOptions { max_document: 1 << 16, keep_records: true });
        let c = cleaner();
        let mut n = 0;
        for (i, entry) in source.enumerate() {
            n += 1;
            prop_assert_eq!(entry.seq, i as u64);
            let format = [OutputFormat::Cleaneval, OutputFormat::Text, OutputFormat::Jsonl, OutputFormat::Warc][i % 4];
            let opts = CorpusOptions { format, ..CorpusOptions::default() };
            if entry.document.is_some() {
                let _ = corpus::clean_entry(&c, &entry, &opts);
            }
        }
        prop_assert!(n >= 1, "an input gives at least one entry (a document or a failure)");
    }
}
