//! Language identification on a set of pages: what is detected, with what
//! confidence, and how long detection takes beside decoding and segmenting.
//!
//! ```text
//! cargo run --release -p ncleaner --example lang_speed -- ../shared/data/cleaneval/dev ../shared/data/cleaneval/train
//! ```

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use ncleaner::{InputKind, Segment, decode, lang, page};

fn n_pages(pages: &[Vec<u8>]) -> f64 {
    pages.len() as f64
}

fn main() {
    let dirs: Vec<String> = std::env::args().skip(1).collect();
    if dirs.is_empty() {
        eprintln!("usage: lang_speed DIR...");
        std::process::exit(2);
    }
    let pages = read_pages(&dirs);
    let bytes: usize = pages.iter().map(Vec::len).sum();
    let segmented: Vec<_> = pages
        .iter()
        .map(|b| page::segments_of(&decode::decode(b, None, None).text, InputKind::Auto).1)
        .collect();
    let t_segment = best(&|| {
        for b in &pages {
            std::hint::black_box(page::segments_of(
                &decode::decode(b, None, None).text,
                InputKind::Auto,
            ));
        }
    });
    let t_detect = best(&|| {
        for s in &segmented {
            std::hint::black_box(lang::detect_segments(s));
        }
    });
    let t_whole = best(&|| {
        for b in &pages {
            let text = decode::decode(b, None, None).text;
            std::hint::black_box(whatlang::detect(&text));
        }
    });
    if std::env::var_os("LANG_SPEED_GRID").is_some() {
        sample_sizes(&segmented);
    }
    english_fast_path(&segmented);
    let mut tags: BTreeMap<String, usize> = BTreeMap::new();
    let mut low = Vec::new();
    for (i, s) in segmented.iter().enumerate() {
        let d = lang::detect_segments(s);
        *tags
            .entry(d.as_ref().map_or("none".into(), |d| d.tag.to_string()))
            .or_default() += 1;
        let raw = whatlang::detect(&lang::sample(s));
        if let Some(r) = raw.filter(|r| r.confidence() < 0.9) {
            low.push((i, r.lang().code(), r.confidence()));
        }
    }
    let n = n_pages(&pages);
    let mb = bytes as f64 / 1e6;
    let us = |d: Duration| d.as_secs_f64() * 1e6 / n;
    println!("{} pages, {:.1} MB of HTML", pages.len(), mb);
    println!("detected: {tags:?}");
    println!("samples with whatlang confidence < 0.9: {low:?}");
    println!(
        "decode+segment: {:.0} µs/page ({:.1} MB/s)",
        us(t_segment),
        mb / t_segment.as_secs_f64()
    );
    println!(
        "detect from the sample (lang::detect_segments): {:.0} µs/page ({:.0} MB/s of page HTML), {:.1} % of decode+segment",
        us(t_detect),
        mb / t_detect.as_secs_f64(),
        100.0 * t_detect.as_secs_f64() / t_segment.as_secs_f64()
    );
    println!(
        "whatlang on the whole decoded page, for comparison: {:.0} µs/page ({:.1} MB/s)",
        us(t_whole),
        mb / t_whole.as_secs_f64()
    );
}

/// The bytes of every file of the directories, each directory's in name order.
fn read_pages(dirs: &[String]) -> Vec<Vec<u8>> {
    let mut pages = Vec::new();
    for dir in dirs {
        let mut paths: Vec<_> = match std::fs::read_dir(dir) {
            Ok(rd) => rd.filter_map(|e| e.ok().map(|e| e.path())).collect(),
            Err(e) => {
                eprintln!("lang_speed: {dir}: {e}");
                std::process::exit(1);
            }
        };
        paths.sort();
        for p in paths {
            if let Ok(b) = std::fs::read(&p) {
                pages.push(b);
            }
        }
    }
    pages
}

/// The time `f` takes over all pages: the best of 5 rounds.
fn best(f: &dyn Fn()) -> Duration {
    (0..5)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .min()
        .unwrap_or(Duration::ZERO)
}

/// whatlang's time and its English pages on the pages' samples cut to a
/// few sizes (`LANG_SPEED_GRID`).
fn sample_sizes(segmented: &[Vec<Segment>]) {
    let samples: Vec<String> = segmented.iter().map(|s| lang::sample(s)).collect();
    for cap in [256usize, 512, 1024, 2048] {
        let cut: Vec<&str> = samples
            .iter()
            .map(|s| {
                let mut e = s.len().min(cap);
                while !s.is_char_boundary(e) {
                    e -= 1;
                }
                &s[..e]
            })
            .collect();
        let t = best(&|| {
            for s in &cut {
                std::hint::black_box(whatlang::detect(s));
            }
        });
        let en = cut
            .iter()
            .filter(|s| lang::detect(s).is_some_and(|d| d.tag == "en"))
            .count();
        println!(
            "sample cut to {cap} bytes: {:.0} µs/page, {en} pages detected as en",
            t.as_secs_f64() * 1e6 / segmented.len() as f64
        );
    }
}

/// The English fast path beside whatlang on the same samples.
fn english_fast_path(segmented: &[Vec<Segment>]) {
    let samples: Vec<String> = segmented.iter().map(|s| lang::sample(s)).collect();
    let (mut claimed, mut disagree, mut min_share) = (0, 0, f64::INFINITY);
    for s in &samples {
        let share = lang::english_share(s);
        if share >= lang::ENGLISH_SHARE {
            claimed += 1;
            min_share = min_share.min(share);
            if whatlang::detect(s).is_none_or(|i| i.lang() != whatlang::Lang::Eng) {
                disagree += 1;
            }
        }
    }
    let t_whatlang = best(&|| {
        for s in &samples {
            std::hint::black_box(whatlang::detect(s));
        }
    });
    println!(
        "English fast path: claims {claimed} of {} pages (lowest share {min_share:.2}); whatlang disagrees on {disagree}",
        segmented.len()
    );
    println!(
        "whatlang alone on the samples: {:.0} µs/page",
        t_whatlang.as_secs_f64() * 1e6 / segmented.len() as f64
    );
}
