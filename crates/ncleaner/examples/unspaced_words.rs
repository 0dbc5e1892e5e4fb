//! The cost of counting the words of Thai, Lao, Khmer and Burmese text, by
//! the rule `ncleaner::words` keeps (ICU4X's dictionary segmenter) and by
//! the alternative it was chosen over (grapheme clusters divided by a mean
//! word length), beside English text of the same meaning: the paragraphs
//! of `tests/unspaced_scripts.rs`, given as files of one paragraph a line.
//! Run it under callgrind for exact instruction counts:
//!
//! ```text
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null \
//!   target/release/examples/unspaced_words dictionary 1000 th.txt
//! ```
//!
//! `METHOD` is `dictionary` (`words::count`), `clusters` (the alternative)
//! or `none` (reading only, the figure to subtract); each paragraph is
//! counted `TIMES` times. Prints the characters and words counted.

use unicode_segmentation::UnicodeSegmentation;

/// The per-cluster rule: each run of the four scripts' characters is
/// `clusters / 3` words (rounded up), the rest counted as `words::count`
/// counts it.
fn by_clusters(text: &str) -> usize {
    let sea = |c: char| matches!(c, '\u{0E00}'..='\u{0EFF}' | '\u{1000}'..='\u{109F}' | '\u{1780}'..='\u{17FF}');
    text.split(|c: char| c.is_ascii_whitespace())
        .filter(|w| !w.is_empty())
        .map(|w| {
            if w.chars().any(sea) {
                w.graphemes(true).count().div_ceil(3)
            } else {
                1
            }
        })
        .sum()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [method, times, files @ ..] = args.as_slice() else {
        eprintln!("usage: unspaced_words dictionary|clusters|none TIMES FILE...");
        std::process::exit(2);
    };
    let times: usize = times.parse().expect("TIMES is a number");
    let mut paragraphs = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(f).unwrap_or_else(|e| panic!("{f}: {e}"));
        paragraphs.extend(text.lines().map(str::to_owned));
    }
    let (mut chars, mut words) = (0, 0);
    for _ in 0..times {
        for p in &paragraphs {
            let p = std::hint::black_box(p.as_str());
            chars += p.chars().count();
            words += match method.as_str() {
                "dictionary" => ncleaner::words::count(p),
                "clusters" => by_clusters(p),
                "none" => 0,
                other => panic!("unknown method {other}"),
            };
        }
    }
    println!("{chars} characters, {words} words");
}
