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
