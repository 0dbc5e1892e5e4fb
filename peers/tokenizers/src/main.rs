//! Tokenizer benchmark for issue 22 ("Front end"): one thread, pages of a
//! WARC file in memory, several rounds per tokenizer, best and median MB/s.
//!
//! Usage: tokenizers-bench PAGES.warc [ROUNDS] [ONLY]
//!
//! Every tokenizer does comparable work: it visits every start tag's name,
//! every end tag, every attribute name and value, every text run and
//! comment, and folds their lengths into [`Counts`] (printed, so the work
//! cannot be optimised away and the counts can be compared).

mod own;

use std::cell::Cell;
use std::rc::Rc;
use std::time::Instant;

/// What a tokenizer saw over all pages.
#[derive(Default, Clone, Copy, Debug, PartialEq)]
pub struct Counts {
    pub start_tags: u64,
    pub end_tags: u64,
    pub attrs: u64,
    pub attr_bytes: u64,
    pub texts: u64,
    pub text_bytes: u64,
    pub comments: u64,
    pub comment_bytes: u64,
    /// `&` seen in text (own tokenizer only: where entity decoding would go).
    pub amps: u64,
    /// Xor of name lengths, rotated: a cheap fold of what was read.
    pub hash: u64,
    /// Pages the tokenizer gave up on (lol_html errors, tl parse errors).
    pub failures: u64,
}

impl Counts {
    #[inline(always)]
    pub fn start(&mut self, name: &[u8]) {
        self.start_tags += 1;
        self.hash = self.hash.rotate_left(5) ^ name.len() as u64 ^ u64::from(name.first().copied().unwrap_or(0));
    }
    #[inline(always)]
    pub fn end(&mut self, name: &[u8]) {
        self.end_tags += 1;
        self.hash = self.hash.rotate_left(3) ^ name.len() as u64;
    }
    #[inline(always)]
    pub fn attr(&mut self, name: &[u8], value: &[u8]) {
        self.attrs += 1;
        self.attr_bytes += (name.len() + value.len()) as u64;
    }
    #[inline(always)]
    pub fn text(&mut self, t: &[u8]) {
        if !t.is_empty() {
            self.texts += 1;
            self.text_bytes += t.len() as u64;
        }
    }
    #[inline(always)]
    pub fn comment(&mut self, c: &[u8]) {
        self.comments += 1;
        self.comment_bytes += c.len() as u64;
    }
}

// ---------------------------------------------------------------- WARC

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    memchr::memmem::find(hay, needle)
}

/// The HTTP bodies of the `response` records of an uncompressed WARC file.
fn read_warc(path: &str) -> Vec<Vec<u8>> {
    let data = std::fs::read(path).expect("read WARC");
    let mut pages = Vec::new();
    let mut pos = 0;
    while pos < data.len() {
        let Some(rel) = find(&data[pos..], b"WARC/1.") else { break };
        let start = pos + rel;
        let Some(hend) = find(&data[start..], b"\r\n\r\n") else { break };
        let header = &data[start..start + hend];
        let body_start = start + hend + 4;
        let header_s = String::from_utf8_lossy(header);
        let mut len = 0usize;
        let mut response = false;
        for line in header_s.lines() {
            if let Some((k, v)) = line.split_once(':') {
                let k = k.trim().to_ascii_lowercase();
                if k == "content-length" {
                    len = v.trim().parse().unwrap_or(0);
                } else if k == "warc-type" {
                    response = v.trim() == "response";
                }
            }
        }
        let end = (body_start + len).min(data.len());
        let block = &data[body_start..end];
        if response {
            let body = match find(block, b"\r\n\r\n") {
                Some(i) => &block[i + 4..],
                None => match find(block, b"\n\n") {
                    Some(i) => &block[i + 2..],
                    None => &block[..0],
                },
            };
            pages.push(body.to_vec());
        }
        pos = end;
    }
    pages
}

// ---------------------------------------------------------------- html5gum

mod gum {
    use super::Counts;
    use html5gum::emitters::callback::{CallbackEmitter, CallbackEvent};
    use html5gum::{Span, Tokenizer};

    /// ncleaner's `Quiet`: a forwarding emitter that asks for no parse errors.
    struct Quiet<E>(E);

    impl<E: html5gum::Emitter> html5gum::ForwardingEmitter for Quiet<E> {
        type Token = E::Token;
        fn inner(&mut self) -> &mut impl html5gum::Emitter<Token = Self::Token> {
            &mut self.0
        }
        fn should_emit_errors(&mut self) -> bool {
            false
        }
    }

    pub fn run(page: &[u8], c: &mut Counts) {
        let mut emitter = CallbackEmitter::new(|ev: CallbackEvent<'_>, _: Span<()>| -> Option<()> {
            match ev {
                CallbackEvent::OpenStartTag { name } => c.start(name),
                // html5gum sends no AttributeValue for an attribute without
                // a value: count the attribute at its name.
                CallbackEvent::AttributeName { name } => {
                    c.attrs += 1;
                    c.attr_bytes += name.len() as u64;
                }
                CallbackEvent::AttributeValue { value } => c.attr_bytes += value.len() as u64,
                CallbackEvent::CloseStartTag { .. } => {}
                CallbackEvent::EndTag { name } => c.end(name),
                CallbackEvent::String { value } => c.text(value),
                CallbackEvent::Comment { value } => c.comment(value),
                CallbackEvent::Doctype { .. } | CallbackEvent::Error(_) => {}
            }
            None
        });
        emitter.naively_switch_states(true);
        // `&[u8]` and `&str` use the same `StringReader` in html5gum 0.9.
        for _ in Tokenizer::new_with_emitter(page, Quiet(emitter)) {}
    }
}

// ---------------------------------------------------------------- lol_html

mod lol {
    use super::{Cell, Counts, Rc};
    use lol_html::{
        comments, doc_comments, doc_text, element, end_tag, text, HtmlRewriter, Settings,
    };

    #[derive(Default)]
    struct Shared {
        c: Cell<Counts>,
    }

    impl Shared {
        fn with(&self, f: impl FnOnce(&mut Counts)) {
            let mut c = self.c.get();
            f(&mut c);
            self.c.set(c);
        }
    }

    /// `element!("*")` with an end-tag handler per element, and text and
    /// comments either through `text!("*")`/`comments!("*")` (selector-bound,
    /// `selector_text = true`) or through document-level handlers.
    pub fn run(page: &[u8], c: &mut Counts, selector_text: bool, end_tags: bool) {
        let s = Rc::new(Shared::default());
        let (se, st, sc) = (s.clone(), s.clone(), s.clone());
        let el = element!("*", move |el| {
            let name = el.tag_name();
            se.with(|c| {
                c.start(name.as_bytes());
                for a in el.attributes() {
                    c.attr(a.name().as_bytes(), a.value().as_bytes());
                }
            });
            if end_tags && el.can_have_content() {
                let se2 = se.clone();
                el.on_end_tag(end_tag!(move |t| {
                    let n = t.name();
                    se2.with(|c| c.end(n.as_bytes()));
                    Ok(())
                }))?;
            }
            Ok(())
        });
        let mut settings = Settings::new().with_strict(false).append_element_content_handler(el);
        if selector_text {
            settings = settings
                .append_element_content_handler(text!("*", move |t| {
                    st.with(|c| c.text(t.as_str().as_bytes()));
                    Ok(())
                }))
                .append_element_content_handler(comments!("*", move |m| {
                    let v = m.text();
                    sc.with(|c| c.comment(v.as_bytes()));
                    Ok(())
                }));
        } else {
            settings = settings
                .append_document_content_handler(doc_text!(move |t| {
                    st.with(|c| c.text(t.as_str().as_bytes()));
                    Ok(())
                }))
                .append_document_content_handler(doc_comments!(move |m| {
                    let v = m.text();
                    sc.with(|c| c.comment(v.as_bytes()));
                    Ok(())
                }));
        }
        let mut rw = HtmlRewriter::new(settings, |_: &[u8]| {});
        let ok = rw.write(page).is_ok() && rw.end().is_ok();
        let got = s.c.get();
        add(c, &got);
        if !ok {
            c.failures += 1;
        }
    }

    fn add(c: &mut Counts, g: &Counts) {
        c.start_tags += g.start_tags;
        c.end_tags += g.end_tags;
        c.attrs += g.attrs;
        c.attr_bytes += g.attr_bytes;
        c.texts += g.texts;
        c.text_bytes += g.text_bytes;
        c.comments += g.comments;
        c.comment_bytes += g.comment_bytes;
        c.hash ^= g.hash;
    }
}

// ---------------------------------------------------------------- tl

mod tlp {
    use super::Counts;

    pub fn run(page: &[u8], c: &mut Counts) {
        // tl needs &str: the lossy conversion (a validation pass on valid
        // UTF-8, a copy otherwise) is counted in tl's time.
        let s = String::from_utf8_lossy(page);
        let dom = match tl::parse(&s, tl::ParserOptions::default()) {
            Ok(d) => d,
            Err(_) => {
                c.failures += 1;
                return;
            }
        };
        for node in dom.nodes() {
            match node {
                tl::Node::Tag(t) => {
                    c.start(t.name().as_bytes());
                    let a = t.attributes();
                    for (k, v) in a.unstable_raw().iter() {
                        c.attr(k.as_bytes(), v.as_ref().map(|v| v.as_bytes()).unwrap_or(b""));
                    }
                    if let Some(v) = a.id() {
                        c.attr(b"id", v.as_bytes());
                    }
                    if let Some(v) = a.class() {
                        c.attr(b"class", v.as_bytes());
                    }
                }
                tl::Node::Raw(b) => c.text(b.as_bytes()),
                tl::Node::Comment(b) => c.comment(b.as_bytes()),
            }
        }
    }
}

// ---------------------------------------------------------------- html5ever

mod h5e {
    use super::{Cell, Counts};
    use html5ever::tendril::StrTendril;
    use html5ever::tokenizer::states::RawKind;
    use html5ever::tokenizer::{
        BufferQueue, Tag, TagKind, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts,
    };

    struct Sink {
        c: Cell<Counts>,
    }

    impl TokenSink for Sink {
        type Handle = ();
        fn process_token(&self, token: Token, _line: u64) -> TokenSinkResult<()> {
            let mut c = self.c.get();
            let mut res = TokenSinkResult::Continue;
            match token {
                Token::TagToken(Tag { kind, name, attrs, .. }) => match kind {
                    TagKind::StartTag => {
                        c.start(name.as_bytes());
                        for a in &attrs {
                            c.attr(a.name.local.as_bytes(), a.value.as_bytes());
                        }
                        // The same naive state switch as html5gum's
                        // `naively_switch_states` (no tree builder here).
                        res = match &*name {
                            "textarea" | "title" => TokenSinkResult::RawData(RawKind::Rcdata),
                            "plaintext" => TokenSinkResult::Plaintext,
                            "script" => TokenSinkResult::RawData(RawKind::ScriptData),
                            "style" | "iframe" | "xmp" | "noembed" | "noframes" | "noscript" => {
                                TokenSinkResult::RawData(RawKind::Rawtext)
                            }
                            _ => TokenSinkResult::Continue,
                        };
                    }
                    TagKind::EndTag => c.end(name.as_bytes()),
                },
                Token::CharacterTokens(t) => c.text(t.as_bytes()),
                Token::CommentToken(t) => c.comment(t.as_bytes()),
                Token::NullCharacterToken => c.text(b"\0"),
                Token::DoctypeToken(_) | Token::EOFToken | Token::ParseError(_) => {}
            }
            self.c.set(c);
            res
        }
    }

    pub fn run(page: &[u8], c: &mut Counts) {
        // html5ever reads StrTendrils: the lossy conversion and the copy into
        // a tendril are counted in its time.
        let s = String::from_utf8_lossy(page);
        let sink = Sink { c: Cell::new(*c) };
        let tok = Tokenizer::new(sink, TokenizerOpts::default());
        let q = BufferQueue::default();
        q.push_back(StrTendril::from_slice(&s));
        let _ = tok.feed(&q);
        tok.end();
        *c = tok.sink.c.get();
    }
}

// ---------------------------------------------------------------- ncleaner

mod ncl {
    use super::Counts;
    use ncleaner::html::tokenizer::{StartTag, Text, TokenSink, Tokenizer};

    /// Counts what the pass's tokenizer hands on. Text is decoded (as the
    /// pass reads visible text); attribute values are decoded only with
    /// `all_values` (the pass decodes the few it reads).
    struct Sink<'c> {
        c: &'c mut Counts,
        buf: String,
        all_values: bool,
    }

    impl TokenSink for Sink<'_> {
        fn start_tag(&mut self, tag: &StartTag<'_>) {
            self.c.start(tag.name);
            for (name, value) in tag.attrs() {
                let v = if self.all_values {
                    value.decoded(&mut self.buf).len()
                } else {
                    value.raw().len()
                };
                self.c.attrs += 1;
                self.c.attr_bytes += (name.len() + v) as u64;
            }
        }
        fn end_tag(&mut self, name: &[u8]) {
            self.c.end(name);
        }
        fn text(&mut self, text: Text<'_>) {
            let t = text.decoded(&mut self.buf);
            self.c.text(t.as_bytes());
        }
    }

    thread_local! {
        static TOKENIZER: std::cell::RefCell<Tokenizer> = std::cell::RefCell::new(Tokenizer::default());
    }

    pub fn run(page: &[u8], c: &mut Counts, all_values: bool) {
        // The pass tokenizes decoded text; the pages were made valid UTF-8
        // before timing (see `main`).
        let html = std::str::from_utf8(page).expect("pages are UTF-8 here");
        let mut sink = Sink {
            c,
            buf: String::new(),
            all_values,
        };
        TOKENIZER.with(|t| t.borrow_mut().run(html, &mut sink));
    }
}

// ---------------------------------------------------------------- driver

type Run = fn(&[u8], &mut Counts);

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).map(String::as_str).unwrap_or("target/bench/pages.warc");
    let rounds: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(5);
    let only = args.get(3).cloned();

    // Every tokenizer reads the same bytes, made valid UTF-8 first (the
    // pass tokenizes decoded text, and ncleaner's tokenizer takes `&str`):
    // pages that are not UTF-8 are converted lossily, outside the timing.
    let pages: Vec<Vec<u8>> = read_warc(path)
        .into_iter()
        .map(|p| String::from_utf8_lossy(&p).into_owned().into_bytes())
        .collect();
    let bytes: usize = pages.iter().map(Vec::len).sum();
    let valid = pages.iter().filter(|p| std::str::from_utf8(p).is_ok()).count();
    eprintln!(
        "{} pages, {} bytes of HTML ({:.1} MB), {} valid UTF-8, {} rounds",
        pages.len(),
        bytes,
        bytes as f64 / 1e6,
        valid,
        rounds
    );

    let runners: Vec<(&str, Run)> = vec![
        // Stops at the first invalid byte: fast on non-UTF-8 pages.
        ("ref: std::str::from_utf8", |p, c| {
            if let Ok(s) = std::str::from_utf8(p) {
                c.text_bytes += s.len() as u64;
            } else {
                c.failures += 1;
            }
        }),
        ("ref: String::from_utf8_lossy", |p, c| {
            let s = String::from_utf8_lossy(p);
            c.text_bytes += s.len() as u64;
        }),
        ("ref: memchr_iter(b'<').count()", |p, c| {
            c.start_tags += memchr::memchr_iter(b'<', p).count() as u64;
        }),
        ("html5gum 0.9.0 (callback, Quiet)", gum::run),
        ("lol_html 3.0.3 (element!* + on_end_tag, doc_text!/doc_comments!)", |p, c| {
            lol::run(p, c, false, true)
        }),
        ("lol_html 3.0.3 (element!* + on_end_tag, text!*/comments!*)", |p, c| {
            lol::run(p, c, true, true)
        }),
        ("lol_html 3.0.3 (element!*, no end tags, doc_text!/doc_comments!)", |p, c| {
            lol::run(p, c, false, false)
        }),
        ("tl 0.7.8 (+from_utf8_lossy)", tlp::run),
        ("html5ever 0.40.1 tokenizer (+lossy, tendril)", h5e::run),
        ("own memchr scanner", own::run),
        ("ncleaner html::tokenizer (text decoded, values as written)", |p, c| ncl::run(p, c, false)),
        ("ncleaner html::tokenizer (text and every value decoded)", |p, c| ncl::run(p, c, true)),
    ];
    let runners: Vec<_> = runners
        .into_iter()
        .filter(|(n, _)| only.as_ref().is_none_or(|o| n.contains(o.as_str())))
        .collect();

    // Rounds outside, tokenizers inside: a change of machine load touches
    // every tokenizer alike.
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); runners.len()];
    let mut counts: Vec<Counts> = vec![Counts::default(); runners.len()];
    for r in 0..rounds {
        for (i, (name, f)) in runners.iter().enumerate() {
            let mut c = Counts::default();
            let t = Instant::now();
            for p in &pages {
                f(std::hint::black_box(p), &mut c);
            }
            let secs = t.elapsed().as_secs_f64();
            std::hint::black_box(&c);
            times[i].push(secs);
            if r == 0 {
                counts[i] = c;
            } else if counts[i] != c {
                eprintln!("warning: {name}: counts differ between rounds");
            }
            eprintln!("round {r}: {name}: {:.3} s", secs);
        }
    }

    println!("| tokenizer | best MB/s | median MB/s | start tags | end tags | attrs | text runs | text bytes | comments | failures |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (i, (name, _)) in runners.iter().enumerate() {
        let mut t = times[i].clone();
        t.sort_by(|a, b| a.partial_cmp(b).unwrap());
        let best = bytes as f64 / 1e6 / t[0];
        let median = bytes as f64 / 1e6 / t[t.len() / 2];
        let c = &counts[i];
        println!(
            "| {name} | {best:.1} | {median:.1} | {} | {} | {} | {} | {} | {} | {} |",
            c.start_tags, c.end_tags, c.attrs, c.texts, c.text_bytes, c.comments, c.failures
        );
    }
    println!();
    for (i, (name, _)) in runners.iter().enumerate() {
        let c = &counts[i];
        println!(
            "{name}: attr bytes {}, comment bytes {}, & in text {}, hash {:x}",
            c.attr_bytes, c.comment_bytes, c.amps, c.hash
        );
    }
}
