//! The walker's writing of visible text into the block being read:
//! whitespace collapsed, invisible characters dropped, `pre` newlines
//! counted (a blank line ends a block), and the consumers told where each
//! piece lands ([`Consumer::visible`] and the others).

use super::super::consumer::Consumer;
use super::Walker;

impl<C: Consumer> Walker<C> {
    /// Writes visible text (decoded) into the block being read.
    pub(super) fn write(&mut self, s: &str) {
        let pre = self.tree.in_pre();
        let link = self.tree.in_link();
        let bold = self.tree.in_bold();
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
            // whole, counted as its visible characters, rather than with
            // one `visible` call a word.
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
                    self.tree.block.pre_newlines += 1;
                    if self.tree.block.pre_newlines >= 2 {
                        self.boundary(None);
                    } else {
                        self.tree.block.space = true;
                        self.consumers.pre_newline();
                    }
                }
                c if c.is_whitespace() => {
                    self.tree.block.space = true;
                    self.consumers.pre_indent(c);
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
        let b = &mut self.tree.block;
        if b.space && !b.text.is_empty() {
            self.consumers.space(b.text.len());
            b.text.push(' ');
        }
        self.consumers.visible(b.text.len());
        b.space = false;
        b.brs = 0;
        b.pre_newlines = 0;
        b.text.push_str(text);
        b.chars += chars;
        if link {
            b.link_chars += chars;
        }
        if bold {
            b.bold_chars += chars;
        }
    }
}
