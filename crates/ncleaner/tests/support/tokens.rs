//! The token streams of the pass's tokenizer and of html5gum 0.9 (the
//! tokenizer the pass used before), in one comparable form: the reference
//! for the differential test over the shared pages
//! (`tests/tokenizer_differential.rs`) and for the fuzz target `tokenizer`
//! (`fuzz/fuzz_targets/tokenizer.rs`, which includes this file).
//!
//! html5gum is driven as the pass drove it (a callback emitter that reports
//! no parse errors), switching into raw text by the start tag's name, with
//! the two deliberate differences of `ncleaner::html::tokenizer` applied to
//! it: `noframes` is raw text (html5gum's naive list has `noframe`), and a
//! repeated attribute keeps its first value only.

use html5gum::emitters::callback::{CallbackEmitter, CallbackEvent};
use html5gum::{Emitter, Error, Span, State, Tokenizer};
use ncleaner::html::tokenizer::{self, StartTag, Text, TokenSink};

/// One token, decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Token {
    /// A start tag: name, attributes (name, value), `/>`.
    Start(String, Vec<(String, String)>, bool),
    /// An end tag.
    End(String),
    /// A run of text (as the tokenizer folds it).
    Text(String),
}

fn s(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The tokens of the pass's tokenizer.
pub fn ours(html: &str) -> Vec<Token> {
    struct Sink(Vec<Token>, String);
    impl TokenSink for Sink {
        fn start_tag(&mut self, tag: &StartTag<'_>) {
            let attrs = tag
                .attrs()
                .map(|(n, v)| (s(n), v.decoded(&mut self.1).to_string()))
                .collect();
            self.0
                .push(Token::Start(s(tag.name), attrs, tag.self_closing));
        }
        fn end_tag(&mut self, name: &[u8]) {
            self.0.push(Token::End(s(name)));
        }
        fn text(&mut self, text: Text<'_>) {
            let t = text.decoded(&mut self.1).to_string();
            self.0.push(Token::Text(t));
        }
    }
    let mut sink = Sink(Vec::new(), String::new());
    tokenizer::Tokenizer::default().run(html, &mut sink);
    sink.0
}

/// The tokens of html5gum 0.9.
pub fn gum(html: &str) -> Vec<Token> {
    let mut out = Vec::new();
    // Attributes come before their tag's close (or before an end tag, whose
    // attributes are dropped).
    let mut attrs: Vec<(String, String)> = Vec::new();
    let mut name = String::new();
    let emitter = CallbackEmitter::new(|ev: CallbackEvent<'_>, _: Span<()>| -> Option<()> {
        match ev {
            CallbackEvent::OpenStartTag { name: n } => {
                name = s(n);
                attrs.clear();
            }
            CallbackEvent::AttributeName { name } => attrs.push((s(name), String::new())),
            CallbackEvent::AttributeValue { value } => {
                if let Some(last) = attrs.last_mut() {
                    last.1.push_str(&s(value));
                }
            }
            CallbackEvent::CloseStartTag { self_closing } => {
                let attrs = std::mem::take(&mut attrs);
                out.push(Token::Start(std::mem::take(&mut name), attrs, self_closing));
            }
            CallbackEvent::EndTag { name } => {
                attrs.clear();
                out.push(Token::End(s(name)));
            }
            CallbackEvent::String { value } => out.push(Token::Text(s(value))),
            CallbackEvent::Comment { .. }
            | CallbackEvent::Doctype { .. }
            | CallbackEvent::Error(_) => {}
        }
        None
    });
    let switching = Switching {
        inner: emitter,
        name: Vec::new(),
        start: false,
    };
    for _ in Tokenizer::new_with_emitter(html, switching) {}
    out
}

/// The state after a start tag, as the pass's tokenizer switches.
fn content_state(name: &[u8]) -> Option<State> {
    match name {
        b"title" | b"textarea" => Some(State::RcData),
        b"style" | b"xmp" | b"iframe" | b"noembed" | b"noframes" | b"noscript" => {
            Some(State::RawText)
        }
        b"script" => Some(State::ScriptData),
        b"plaintext" => Some(State::PlainText),
        _ => None,
    }
}

/// An emitter that switches states by the start tag's name and reports no
/// parse errors, around html5gum's callback emitter.
struct Switching<E> {
    inner: E,
    name: Vec<u8>,
    start: bool,
}

impl<E: Emitter> Emitter for Switching<E> {
    type Token = E::Token;
    fn set_last_start_tag(&mut self, t: Option<&[u8]>) {
        self.inner.set_last_start_tag(t)
    }
    fn emit_eof(&mut self) {
        self.inner.emit_eof()
    }
    fn emit_error(&mut self, _: Error) {}
    fn should_emit_errors(&mut self) -> bool {
        false
    }
    fn pop_token(&mut self) -> Option<Self::Token> {
        self.inner.pop_token()
    }
    fn init_string(&mut self) {
        self.inner.init_string()
    }
    fn emit_string(&mut self, c: &[u8]) {
        self.inner.emit_string(c)
    }
    fn init_start_tag(&mut self) {
        self.name.clear();
        self.start = true;
        self.inner.init_start_tag()
    }
    fn init_end_tag(&mut self) {
        self.name.clear();
        self.start = false;
        self.inner.init_end_tag()
    }
    fn init_comment(&mut self) {
        self.inner.init_comment()
    }
    fn emit_current_tag(&mut self) -> Option<State> {
        let _ = self.inner.emit_current_tag();
        if self.start {
            content_state(&self.name)
        } else {
            None
        }
    }
    fn emit_current_comment(&mut self) {
        self.inner.emit_current_comment()
    }
    fn emit_current_doctype(&mut self) {
        self.inner.emit_current_doctype()
    }
    fn set_self_closing(&mut self) {
        self.inner.set_self_closing()
    }
    fn set_force_quirks(&mut self) {
        self.inner.set_force_quirks()
    }
    fn push_tag_name(&mut self, s: &[u8]) {
        self.name.extend_from_slice(s);
        self.inner.push_tag_name(s)
    }
    fn push_comment(&mut self, s: &[u8]) {
        self.inner.push_comment(s)
    }
    fn push_doctype_name(&mut self, s: &[u8]) {
        self.inner.push_doctype_name(s)
    }
    fn init_doctype(&mut self) {
        self.inner.init_doctype()
    }
    fn init_attribute(&mut self) {
        self.inner.init_attribute()
    }
    fn init_attribute_value(&mut self) {
        self.inner.init_attribute_value()
    }
    fn push_attribute_name(&mut self, s: &[u8]) {
        self.inner.push_attribute_name(s)
    }
    fn push_attribute_value(&mut self, s: &[u8]) {
        self.inner.push_attribute_value(s)
    }
    fn set_doctype_public_identifier(&mut self, v: &[u8]) {
        self.inner.set_doctype_public_identifier(v)
    }
    fn set_doctype_system_identifier(&mut self, v: &[u8]) {
        self.inner.set_doctype_system_identifier(v)
    }
    fn push_doctype_public_identifier(&mut self, s: &[u8]) {
        self.inner.push_doctype_public_identifier(s)
    }
    fn push_doctype_system_identifier(&mut self, s: &[u8]) {
        self.inner.push_doctype_system_identifier(s)
    }
    fn start_open_tag(&mut self) {
        self.inner.start_open_tag()
    }
    fn current_is_appropriate_end_tag_token(&mut self) -> bool {
        self.inner.current_is_appropriate_end_tag_token()
    }
    fn move_position(&mut self, o: isize) {
        self.inner.move_position(o)
    }
}
