//! Property tests: no input makes decode, html, segment or the whole
//! pipeline panic, and the pipeline's invariants hold on all of them.

use ncleaner::{Cleaner, InputKind, decode, html, segment};
use proptest::prelude::*;

/// Strings made of HTML-ish fragments, so that the walker's stack, implied
/// end tags, hidden subtrees and raw-text states get exercised.
fn htmlish() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("<p>".to_string()),
        Just("</p>".to_string()),
        Just("<div style='display:none'>".to_string()),
        Just("</div>".to_string()),
        Just("<li>".to_string()),
        Just("<ul>".to_string()),
        Just("</ul>".to_string()),
        Just("<table><tr><td>".to_string()),
        Just("</td></tr></table>".to_string()),
        Just("<br><br>".to_string()),
        Just("<script>".to_string()),
        Just("</script>".to_string()),
        Just("<pre>\n\n".to_string()),
        Just("<h1>".to_string()),
        Just("</h2>".to_string()),
        Just("<b>".to_string()),
        Just("<a href=x>".to_string()),
        Just("</a>".to_string()),
        Just("<!--".to_string()),
        Just("&amp;&nbsp;&#x0;&#99999999;".to_string()),
        Just("<x-y hidden>".to_string()),
        Just("<plaintext>".to_string()),
        "[a-zA-Z .,|é•\u{0}\u{7}\n]{0,20}",
    ];
    prop::collection::vec(piece, 0..60).prop_map(|v| v.concat())
}

fn cleaner() -> Cleaner {
    static CLEANER: std::sync::OnceLock<Cleaner> = std::sync::OnceLock::new();
    CLEANER
        .get_or_init(|| Cleaner::new(ncleaner::model::embedded("en").expect("embedded model")))
        .clone()
}

fn check_segments(segs: &[segment::Segment]) {
    for s in segs {
        assert!(!s.text.is_empty());
        assert_eq!(s.text.trim(), s.text);
        assert!(!s.text.contains("  "));
        assert!(!s.text.chars().any(|c| c.is_control()));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..2000)) {
        let doc = decode::decode(&bytes, None, None);
        let segs = segment::from_blocks(html::blocks(&doc.text));
        check_segments(&segs);
        check_segments(&segment::from_text(&doc.text));
        let c = cleaner();
        for input in [InputKind::Html, InputKind::Text, InputKind::Auto] {
            let out = c.clean(&bytes, input, None);
            prop_assert!(out.words_out() <= out.words_in());
            for s in &out.segments {
                prop_assert!(s.score.is_none_or(f64::is_finite));
            }
        }
    }

    #[test]
    fn arbitrary_htmlish(s in htmlish()) {
        let segs = segment::from_blocks(html::blocks(&s));
        check_segments(&segs);
        let out = cleaner().clean(s.as_bytes(), InputKind::Html, Some("http://example.com/"));
        prop_assert_eq!(out.url.as_deref(), Some("http://example.com/"));
    }

    #[test]
    fn arbitrary_text(s in "\\PC{0,400}") {
        check_segments(&segment::from_text(&s));
    }

    #[test]
    fn arbitrary_charset_labels(label in "[ -~]{0,30}", bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        let _ = decode::decode(&bytes, Some("http://x.y/"), Some(&label));
        let mut page = format!("<meta charset=\"{label}\">").into_bytes();
        page.extend(&bytes);
        let _ = decode::decode(&page, None, None);
    }
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
        use ncleaner::corpus::{self, CleanOptions, Origin, Source, SourceOptions};
        use ncleaner::format::Format;
        let origin = Origin::Memory { name: "prop".into(), bytes: std::sync::Arc::from(bytes) };
        let source = Source::new(vec![origin], SourceOptions { max_document: 1 << 16, keep_records: true });
        let c = cleaner();
        let mut n = 0;
        for (i, entry) in source.enumerate() {
            n += 1;
            prop_assert_eq!(entry.seq, i as u64);
            let format = [Format::Cleaneval, Format::Text, Format::Jsonl, Format::Warc][i % 4];
            let opts = CleanOptions { format, ..CleanOptions::default() };
            if entry.document.is_some() {
                let _ = corpus::clean_entry(&c, &entry, &opts);
            }
        }
        prop_assert!(n >= 1, "an input gives at least one entry (a document or a failure)");
    }
}
