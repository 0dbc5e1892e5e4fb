//! The walker's text: visible characters appended to the block being
//! built, whitespace collapsed, invisible characters dropped, `pre`
//! newlines counted; and the text of `<title>`, JSON-LD and `<noscript>`
//! held for later.

use super::{Context, META_MAX_CHARS, NOSCRIPT_MAX, Tag, Walker};

impl Walker {
    /// Whether a `pre` (or `listing`, `xmp`, `plaintext`) is open.
    pub(super) fn in_pre(&self) -> bool {
        self.context_counts[Context::PRE.trailing_zeros() as usize] > 0
    }

    pub(super) fn text(&mut self, value: &[u8]) {
        if let Some(buf) = &mut self.noscript {
            if buf.len() + value.len() <= NOSCRIPT_MAX {
                buf.push_str(&utf8(value));
            }
            return;
        }
        if self.hiding > 0 {
            if let Some(j) = &mut self.json_ld {
                if j.len() + value.len() <= 16 * META_MAX_CHARS {
                    j.push_str(&utf8(value));
                }
            } else if self.open[Tag::Title as usize] > 0 && self.title.len() < META_MAX_CHARS {
                // Held until the end: the tokenizer may split the text anywhere.
                self.title.push_str(&utf8(value));
            }
            return;
        }
        let s = utf8(value);
        if let Some(depth) = self.metadata.capturing() {
            if self.stack.len() >= depth {
                self.metadata.capture_text(&s);
            } else {
                self.metadata.end_capture();
            }
        }
        let pre = self.in_pre();
        let link = self.in_link > 0;
        let bold = self.in_bold > 0;
        let bytes = s.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            // A run of visible ASCII is copied at once: most of a page's
            // text, and char by char this loop was a tenth of `clean`.
            //
            // Outside `pre`, a single space between two such runs joins
            // them: the space it would be written as is the one it is, and
            // once a word is written nothing waits for the next (no owed
            // line break, image or link start), so "a b c" is appended
            // whole, counted as its visible characters. Word by word,
            // `visible` was called once a word.
            if bytes[i].is_ascii_graphic() {
                let start = i;
                let mut spaces = 0;
                loop {
                    while i < bytes.len() && bytes[i].is_ascii_graphic() {
                        i += 1;
                    }
                    if !pre
                        && bytes.get(i) == Some(&b' ')
                        && bytes.get(i + 1).is_some_and(u8::is_ascii_graphic)
                    {
                        i += 1;
                        spaces += 1;
                        continue;
                    }
                    break;
                }
                self.visible(&s[start..i], (i - start - spaces) as u32, link, bold);
                continue;
            }
            let c = s[i..].chars().next().expect("i is at a char boundary");
            i += c.len_utf8();
            match c {
                '\n' if pre => {
                    self.pre_newlines += 1;
                    if self.pre_newlines >= 2 {
                        self.boundary(None);
                    } else {
                        self.space = true;
                        self.inline.pre_newline();
                    }
                }
                c if c.is_whitespace() => {
                    self.space = true;
                    self.inline.pre_indent(c);
                }
                '\u{AD}' | '\u{200B}' | '\u{200C}' | '\u{200D}' | '\u{2060}' | '\u{FEFF}' => {}
                c if c.is_control() => {}
                c => self.visible(c.encode_utf8(&mut [0; 4]), 1, link, bold),
            }
        }
    }

    /// Appends visible text of `chars` characters to the block, after a
    /// space if whitespace came before it.
    #[inline]
    fn visible(&mut self, text: &str, chars: u32, link: bool, bold: bool) {
        if self.space && !self.text.is_empty() {
            self.inline.space_at(self.text.len());
            self.text.push(' ');
        }
        self.inline.visible_at(self.text.len());
        self.space = false;
        self.brs = 0;
        self.pre_newlines = 0;
        self.text.push_str(text);
        self.chars += chars;
        if link {
            self.link_chars += chars;
        }
        if bold {
            self.bold_chars += chars;
        }
    }
}

/// The tokenizer's bytes as text: borrowed when they are valid UTF-8 (they
/// always are for text read from a `&str`, and the check is much faster
/// than `from_utf8_lossy`'s), lossily converted otherwise.
fn utf8(value: &[u8]) -> std::borrow::Cow<'_, str> {
    match std::str::from_utf8(value) {
        Ok(s) => std::borrow::Cow::Borrowed(s),
        Err(_) => String::from_utf8_lossy(value),
    }
}
