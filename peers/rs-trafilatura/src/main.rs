//! Peer harness (not part of ncleaner): runs rs-trafilatura 0.2.2 at its
//! default settings over a folder of pages, for comparison on WCXB
//! (Murrough Foley, WCXB: Web Content eXtraction Benchmark, 2026, CC-BY-4.0).
//!
//! Usage:
//!   rs-trafilatura-peer PAGES OUT          write OUT/NAME.txt, NAME.meta.json, NAME.md
//!   rs-trafilatura-peer --time PAGES [OUT] also (or only) time extraction on one thread
//!   --urls FILE                            pass each page's URL (lines NAME<TAB>URL)
//!
//! PAGES holds NAME.html or NAME.html.gz files (not searched recursively).
//! - Bytes are decoded by the crate's own `encoding::transcode_to_utf8` (what
//!   `extract_bytes` does: the HTML's meta charset, else UTF-8, invalid bytes
//!   replaced).
//! - Options are `Options::default()` with `output_markdown: true`; that flag
//!   only converts the extracted HTML to Markdown after extraction, so
//!   `content_text` (NAME.txt) is the default extraction. No URL is passed
//!   unless --urls gives one (`Options::url`; the crate's page-type
//!   classifier reads URL features, so this changes the extraction).
//! - NAME.meta.json is {"title","author","date"} from `result.metadata`
//!   (date as RFC 3339, null when absent).
//! - An extraction error writes an empty NAME.txt (counted, like a lost page).
//! - `--time` extracts every page (already read and decompressed in memory)
//!   with `Options::default()` (no Markdown), one thread, and prints pages/s
//!   and MB/s of HTML (MB = 10^6 bytes of decoded UTF-8 text).

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Instant;

use rs_trafilatura::{extract_with_options, Options};

fn read_page(path: &Path) -> std::io::Result<Vec<u8>> {
    let raw = fs::read(path)?;
    if path.extension().is_some_and(|e| e == "gz") {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(&raw[..]).read_to_end(&mut out)?;
        Ok(out)
    } else {
        Ok(raw)
    }
}

/// NAME for NAME.html / NAME.htm / NAME.html.gz, else None.
fn page_name(path: &Path) -> Option<String> {
    let file = path.file_name()?.to_str()?;
    let stem = file.strip_suffix(".gz").unwrap_or(file);
    let lower = stem.to_ascii_lowercase();
    for ext in [".html", ".htm"] {
        if lower.ends_with(ext) {
            return Some(stem[..stem.len() - ext.len()].to_string());
        }
    }
    None
}

fn main() {
    let mut time = false;
    let mut pos = Vec::new();
    let mut urls = std::collections::HashMap::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--time" => time = true,
            "--urls" => {
                let f = args.next().expect("--urls FILE");
                let text = fs::read_to_string(&f).unwrap_or_else(|e| panic!("{f}: {e}"));
                for line in text.lines() {
                    if let Some((name, url)) = line.split_once('\t') {
                        urls.insert(name.to_string(), url.trim().to_string());
                    }
                }
            }
            "-h" | "--help" => {
                eprintln!("usage: rs-trafilatura-peer [--time] [--urls FILE] PAGES [OUT]");
                return;
            }
            _ => pos.push(PathBuf::from(a)),
        }
    }
    if pos.is_empty() || pos.len() > 2 || (pos.len() == 1 && !time) {
        eprintln!("usage: rs-trafilatura-peer [--time] PAGES [OUT]");
        std::process::exit(2);
    }
    let pages_dir = &pos[0];
    let out = pos.get(1);

    let mut pages: Vec<(String, PathBuf)> = fs::read_dir(pages_dir)
        .unwrap_or_else(|e| panic!("{}: {e}", pages_dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .filter_map(|p| page_name(&p).map(|n| (n, p)))
        .collect();
    pages.sort();
    if pages.is_empty() {
        eprintln!("rs-trafilatura-peer: no pages in {}", pages_dir.display());
        std::process::exit(1);
    }
    let htmls: Vec<(String, String)> = pages
        .iter()
        .map(|(n, p)| {
            let bytes = read_page(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            (n.clone(), rs_trafilatura::encoding::transcode_to_utf8(&bytes))
        })
        .collect();

    let url = |name: &str| urls.get(name).cloned();
    if time {
        let bytes: usize = htmls.iter().map(|(_, h)| h.len()).sum();
        let t = Instant::now();
        let mut chars = 0usize;
        for (name, html) in &htmls {
            let opts = Options { url: url(name), ..Options::default() };
            if let Ok(r) = extract_with_options(html, &opts) {
                chars += r.content_text.len();
            }
        }
        let s = t.elapsed().as_secs_f64();
        println!(
            "rs-trafilatura 0.2.2: {} pages, {:.1} MB in {:.2} s on one thread: {:.1} pages/s, {:.2} MB/s ({} bytes of text out)",
            htmls.len(),
            bytes as f64 / 1e6,
            s,
            htmls.len() as f64 / s,
            bytes as f64 / 1e6 / s,
            chars
        );
    }

    let Some(out) = out else { return };
    fs::create_dir_all(out).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
    let t = Instant::now();
    let mut failed = 0;
    for (name, html) in &htmls {
        let opts = Options { output_markdown: true, url: url(name), ..Options::default() };
        let (text, meta, md) = match extract_with_options(html, &opts) {
            Ok(r) => {
                let meta = serde_json::json!({
                    "title": r.metadata.title,
                    "author": r.metadata.author,
                    "date": r.metadata.date.map(|d| d.to_rfc3339()),
                });
                (r.content_text, meta, r.content_markdown.unwrap_or_default())
            }
            Err(e) => {
                eprintln!("rs-trafilatura-peer: {name}: {e}");
                failed += 1;
                let meta = serde_json::json!({"title": null, "author": null, "date": null});
                (String::new(), meta, String::new())
            }
        };
        fs::write(out.join(format!("{name}.txt")), text).expect("write .txt");
        fs::write(out.join(format!("{name}.meta.json")), meta.to_string()).expect("write .meta.json");
        fs::write(out.join(format!("{name}.md")), md).expect("write .md");
    }
    eprintln!(
        "rs-trafilatura-peer: {} pages in {:.1} s (with Markdown), {failed} failed",
        htmls.len(),
        t.elapsed().as_secs_f64()
    );
}
