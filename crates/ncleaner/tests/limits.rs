//! The limits that bound one document's working memory (issue D8): past
//! [`html::MAX_BLOCKS`] blocks or [`html::MAX_ELEMENTS`] elements the pass
//! stops, the page is cleaned on what was read and says so; below them
//! nothing changes. (Peak memory itself is measured on a child process by
//! the torture test of the CLI, `crates/ncleaner-cli/tests/torture.rs`.)

use ncleaner::html::{self, Limit, MAX_BLOCKS, MAX_ELEMENTS};
use ncleaner::{Cleaner, InputKind, segment};

fn cleaner() -> Cleaner {
    Cleaner::from_model(ncleaner::model::embedded("en-nonlex").expect("embedded model"))
}

#[test]
fn blocks_past_the_limit_stop_the_pass_and_say_so() {
    // Every `<li>` is a block: 20 more than the limit.
    let html = "<ul>".to_string() + &"<li>1".repeat(MAX_BLOCKS + 20) + "<li>the last one</ul>";
    let page = html::parse(&html);
    assert_eq!(page.blocks.len(), MAX_BLOCKS);
    assert_eq!(page.truncated, Some(Limit::Blocks));
    assert!(page.blocks.iter().all(|b| b.text == "1"));
    let c = cleaner().clean(html.as_bytes(), InputKind::Html, None);
    assert_eq!(c.segments.len(), MAX_BLOCKS);
    let why = c.truncated.as_deref().expect("marked truncated");
    assert!(
        why.contains(&MAX_BLOCKS.to_string()) && why.contains("the rest was not read"),
        "{why}"
    );
    // The record says so; a page read whole has no such field.
    let mut line = Vec::new();
    ncleaner::format::write_jsonl(&mut line, &c, Some("x"), Default::default()).unwrap();
    let v: serde_json::Value = serde_json::from_slice(&line).unwrap();
    assert_eq!(v["truncated"].as_str(), Some(why));
    let small = cleaner().clean(b"<p>A small page.</p>", InputKind::Html, None);
    assert!(small.truncated.is_none());
    line.clear();
    ncleaner::format::write_jsonl(&mut line, &small, Some("x"), Default::default()).unwrap();
    assert!(!String::from_utf8_lossy(&line).contains("truncated"));
}

#[test]
fn a_page_of_exactly_the_limit_is_whole() {
    let html = "<p>1".repeat(MAX_BLOCKS);
    let page = html::parse(&html);
    assert_eq!(page.blocks.len(), MAX_BLOCKS);
    assert_eq!(page.truncated, None);
}

#[test]
fn elements_past_the_limit_stop_the_pass() {
    // Nested `div`s: the stack and the tree of containers grow with each.
    let html = "<div>".repeat(MAX_ELEMENTS + 5) + "deep text";
    let page = html::parse(&html);
    assert_eq!(page.truncated, Some(Limit::Elements));
    assert!(
        page.blocks.is_empty(),
        "the text after the limit is not read"
    );
    // Flat elements count too.
    let html = "<span>a</span>".repeat(MAX_ELEMENTS + 1);
    let page = html::parse(&html);
    assert_eq!(page.truncated, Some(Limit::Elements));
    assert_eq!(page.blocks.len(), 1);
    let c = cleaner().clean(html.as_bytes(), InputKind::Html, None);
    assert!(c.truncated.unwrap().contains("elements"));
}

#[test]
fn text_dumps_have_the_same_limit() {
    // Paragraphs separated by blank lines: one segment each.
    let text = "a line\n\n".repeat(MAX_BLOCKS + 3);
    let (segments, truncated) = segment::from_text_limited(&text);
    assert_eq!(segments.len(), MAX_BLOCKS);
    assert!(truncated);
    let c = cleaner().clean(text.as_bytes(), InputKind::Text, None);
    assert_eq!(c.segments.len(), MAX_BLOCKS);
    assert!(c.truncated.is_some());
    let (segments, truncated) = segment::from_text_limited(&"a line\n\n".repeat(100));
    assert_eq!((segments.len(), truncated), (100, false));
}

#[test]
fn a_page_of_attributes_keeps_a_bounded_number() {
    // Issue 70, P5: one `<div a a a …>` of 60 MiB took 1.3 GB (its
    // attributes held at once); past `html::tokenizer::MAX_ATTRIBUTES`
    // they are read past. A `hidden` past it is not read, the text after
    // the tag is.
    let html = format!(
        "<div {}hidden><p>The paragraph after the tag.</p></div><p>And one more.</p>",
        "a ".repeat(4 << 20)
    );
    let page = html::parse(&html);
    assert_eq!(page.truncated, None);
    let texts: Vec<&str> = page.blocks.iter().map(|b| b.text.as_str()).collect();
    assert_eq!(texts, ["The paragraph after the tag.", "And one more."]);
    assert!(
        page.blocks
            .iter()
            .all(|b| !b.context.has(html::Context::HIDDEN)),
        "the `hidden` past the bound is read past"
    );
    let c = cleaner().clean(html.as_bytes(), InputKind::Html, None);
    assert_eq!(c.segments.len(), 2);
}
