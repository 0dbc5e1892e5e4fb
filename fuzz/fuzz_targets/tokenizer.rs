//! The pass's tokenizer against html5gum 0.9 on generated markup: every
//! input byte picks a piece of HTML (tag openers, quotes, references,
//! comment and script escapes, CR, NUL, …), so that libFuzzer builds
//! markup that reaches every tokenizer state; the tokens must be the same
//! (`crates/ncleaner/tests/support/tokens.rs`, with the deliberate
//! differences applied). Inputs stay short enough for html5gum's
//! recursive states (its stack overflows past a few thousand attributes;
//! `tokenizer_runs` covers long runs).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../crates/ncleaner/tests/support/tokens.rs"]
mod tokens;

/// The pieces markup is built from: one per input byte (modulo their count).
const PIECES: &[&str] = &[
    "<", ">", "</", "/", "/>", "=", "\"", "'", " ", "\t", "\n", "\r", "\r\n", "\x0c", "\0", "&",
    "&amp;", "&amp", "&notin;", "&not", "&#", "&#x", "&#65;", "&#x1F600;", "&#128;", "&#0;",
    "&copy=", ";", "#", "x", "a", "b", "div", "p", "span", "li", "table", "td", "script",
    "SCRIPT", "style", "title", "textarea", "noscript", "noframes", "iframe", "xmp",
    "plaintext", "pre", "<!--", "-->", "--!>", "-", "--", "!", "<!", "<!DOCTYPE html", "<![CDATA[",
    "]]>", "?", "<?", "class", "CLASS", "href", "id", "é", "日本", "`", "<a", "<div", "</div",
    "<script>", "</script>", "<script", "</script", "<!--<script>", "-->x", "<style>",
    "</style>", "<title>", "</title>", " class=\"x\"", " href=y", "text ", "word",
];

fuzz_target!(|data: &[u8]| {
    if data.len() > 4096 {
        return;
    }
    let html: String = data
        .iter()
        .map(|&b| PIECES[b as usize % PIECES.len()])
        .collect();
    let (ours, gum) = (tokens::ours(&html), tokens::gum(&html));
    assert_eq!(ours, gum, "{html:?}");
});
