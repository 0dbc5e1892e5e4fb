//! Encoding detection on real pages: the windowed feed of `decode::detect`
//! guesses what `chardetng` fed whole pages guesses.

mod common;

use std::path::{Path, PathBuf};

fn files(p: &Path, out: &mut Vec<PathBuf>) {
    if p.is_file() {
        out.push(p.to_path_buf());
    } else if let Ok(rd) = std::fs::read_dir(p) {
        for e in rd.flatten() {
            files(&e.path(), out);
        }
    }
}

/// Every page of the shared data that is not UTF-8 (174 legacy-encoded
/// pages), and pages in six scripts and twelve encodings built here.
#[cfg_attr(
    not(feature = "shared-data"),
    ignore = "needs ../shared/data, Python, Java or Chromium: scripts/test runs it"
)]
#[test]
fn windowed_detection_agrees_with_whole_pages() {
    let data = common::shared_dir().join("data");
    let mut pages = Vec::new();
    for set in ["cleaneval", "cleanportaleval", "dragnet", "googlenews"] {
        files(&data.join(set), &mut pages);
    }
    let mut legacy: Vec<(String, Vec<u8>)> = pages
        .iter()
        .map(|p| {
            (
                p.display().to_string(),
                std::fs::read(p).expect("readable page"),
            )
        })
        .filter(|(_, b)| std::str::from_utf8(b).is_err())
        .collect();
    assert!(
        legacy.len() >= 100,
        "expected the shared data's legacy-encoded pages, found {}",
        legacy.len()
    );
    let texts = [
        (
            "日本語のテキストです。これはテストのための文章で、漢字とひらがなとカタカナを含みます。",
            &[encoding_rs::SHIFT_JIS, encoding_rs::EUC_JP][..],
        ),
        (
            "Это русский текст для проверки определения кодировки. Москва является столицей России.",
            &[
                encoding_rs::KOI8_R,
                encoding_rs::WINDOWS_1251,
                encoding_rs::ISO_8859_5,
            ][..],
        ),
        (
            "这是一个用于测试编码检测的中文文本。北京是中国的首都，有很多人居住在那里。",
            &[encoding_rs::GBK][..],
        ),
        (
            "這是一段用於測試編碼偵測的中文文字。台北是台灣最大的城市，有很多人居住在那裡。",
            &[encoding_rs::BIG5][..],
        ),
        (
            "Αυτό είναι ένα ελληνικό κείμενο για τον έλεγχο της κωδικοποίησης.",
            &[encoding_rs::WINDOWS_1253, encoding_rs::ISO_8859_7][..],
        ),
        (
            "Dies ist ein deutscher Text über Größe, Übermut und Äpfel: schön, für, weiß.",
            &[encoding_rs::WINDOWS_1252, encoding_rs::ISO_8859_2][..],
        ),
        (
            "이것은 인코딩 감지를 테스트하기 위한 한국어 텍스트입니다. 서울은 한국의 수도입니다.",
            &[encoding_rs::EUC_KR][..],
        ),
    ];
    for (text, encs) in texts {
        for enc in encs {
            for rep in [1, 5] {
                let menu = "<div class='menu'><a href='/a'>Home</a> <a href='/b'>About</a></div>\n"
                    .repeat(20);
                let body =
                    format!("<p>{text}</p>\n<p>Some ASCII filler text here.</p>\n").repeat(rep);
                let page =
                    format!("<html><head><title>x</title></head><body>{menu}{body}</body></html>");
                let (bytes, _, unmappable) = enc.encode(&page);
                assert!(!unmappable, "{} encodes the sample", enc.name());
                legacy.push((format!("{} x{rep}", enc.name()), bytes.into_owned()));
            }
        }
    }
    for (name, bytes) in &legacy {
        for tld in [None, Some(&b"de"[..]), Some(&b"jp"[..])] {
            assert_eq!(
                ncleaner::decode::detect(bytes, tld).name(),
                ncleaner::decode::detect_whole(bytes, tld).name(),
                "{name} (tld {tld:?})"
            );
        }
    }
}

/// Issue 70: the premise of `decode::UTF8_DISTINCT_CHARACTERS` on real
/// text, and its promise. Every page of the shared data that holds Chinese,
/// Japanese or Korean text, encoded in its script's legacy encodings
/// (Chinese in GBK and Big5, Japanese in Shift_JIS and EUC-JP, Korean in
/// EUC-KR) and labelled so, is read in the label's encoding; and the share
/// of its characters that are valid UTF-8 by themselves in that encoding
/// (the chance the rule rests on), raised to the rule's count, is below one
/// in a million. Prints the shares.
#[cfg_attr(
    not(feature = "shared-data"),
    ignore = "needs ../shared/data, Python, Java or Chromium: scripts/test runs it"
)]
#[test]
fn legacy_text_is_rarely_valid_utf8_by_chance() {
    use encoding_rs::{BIG5, EUC_JP, EUC_KR, GBK, SHIFT_JIS};
    use std::collections::HashMap;
    let data = common::shared_dir().join("data");
    // Per encoding: pages; characters seen, and of them valid UTF-8 alone;
    // pairs of neighbouring characters, and of them valid UTF-8.
    let mut chance: HashMap<&str, (usize, usize, usize, usize, usize)> = HashMap::new();
    let mut failures = Vec::new();
    for path in common::pages(&data) {
        let Some(bytes) = common::read_page(&path) else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes);
        let count =
            |r: std::ops::RangeInclusive<char>| text.chars().filter(|c| r.contains(c)).count();
        let encodings = if count('\u{3040}'..='\u{30FF}') >= 50 {
            vec![SHIFT_JIS, EUC_JP]
        } else if count('\u{AC00}'..='\u{D7A3}') >= 50 {
            vec![EUC_KR]
        } else if count('\u{4E00}'..='\u{9FFF}') >= 200 {
            vec![GBK, BIG5]
        } else {
            continue;
        };
        let mut freq: HashMap<char, usize> = HashMap::new();
        let mut pairs: HashMap<[char; 2], usize> = HashMap::new();
        let mut last = None;
        for c in text.chars() {
            if c.is_ascii() {
                last = None;
                continue;
            }
            *freq.entry(c).or_default() += 1;
            if let Some(b) = last.replace(c) {
                *pairs.entry([b, c]).or_default() += 1;
            }
        }
        for enc in encodings {
            let (legacy, _, _) = enc.encode(&text);
            let doc = ncleaner::decode::decode(&legacy, None, Some(enc.name()));
            if doc.encoding != enc {
                failures.push(format!(
                    "{} in {}: read as {}",
                    path.display(),
                    enc.name(),
                    doc.encoding.name()
                ));
            }
            let e = chance.entry(enc.name()).or_default();
            e.0 += 1;
            for (c, n) in &freq {
                let mut buf = [0; 4];
                let (b, _, unmappable) = enc.encode(c.encode_utf8(&mut buf));
                if !unmappable {
                    e.1 += n;
                    e.2 += n * usize::from(std::str::from_utf8(&b).is_ok());
                }
            }
            for ([a, b], n) in &pairs {
                let two = format!("{a}{b}");
                let (bytes, _, unmappable) = enc.encode(&two);
                if !unmappable {
                    e.3 += n;
                    e.4 += n * usize::from(std::str::from_utf8(&bytes).is_ok());
                }
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
    assert!(chance.len() == 5, "pages in each script: {chance:?}");
    let n = ncleaner::decode::UTF8_DISTINCT_CHARACTERS as i32;
    for (name, (pages, seen, valid, pairs, pairs_valid)) in &chance {
        let p = *valid as f64 / *seen as f64;
        let p2 = *pairs_valid as f64 / *pairs as f64;
        println!(
            "{name}: {pages} pages, {seen} characters, valid UTF-8 alone {:.1}%, \
             two in a row {:.2}% (p² = {:.2}%), p^{n} = {:.1e}",
            100.0 * p,
            100.0 * p2,
            100.0 * p * p,
            p.powi(n)
        );
        assert!(p.powi(n) < 1e-6, "{name}: {p}");
    }
}
