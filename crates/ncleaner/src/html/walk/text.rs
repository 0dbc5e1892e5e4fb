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
                    i = graphic_run_end(bytes, i);
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

/// The end of the run of visible ASCII bytes (`!` to `~`) from `i`: eight
/// bytes at a time, then one at a time for the last few.
///
/// In a word of eight bytes, a byte below `!` sets its top bit in
/// `w - 0x21…` (and not in `w`), a byte above `~` in `w + 0x01…` or in `w`
/// itself. A borrow or carry only moves upwards, into later bytes, and only
/// out of a byte that is flagged already: the lowest flagged byte is
/// exactly the first that ends the run.
#[inline]
fn graphic_run_end(bytes: &[u8], mut i: usize) -> usize {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const TOPS: u64 = u64::from_ne_bytes([0x80; 8]);
    while let Some(chunk) = bytes.get(i..i + 8) {
        let w = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
        let ends = ((w.wrapping_sub(0x21 * ONES) & !w) | w.wrapping_add(ONES) | w) & TOPS;
        if ends != 0 {
            return i + (ends.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < bytes.len() && bytes[i].is_ascii_graphic() {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    proptest! {
        /// The run ends where a byte-by-byte scan ends it.
        #[test]
        fn graphic_runs_end_where_a_scan_ends_them(
            bytes in proptest::collection::vec(prop_oneof![9 => 0x21u8..0x7f, 1 => any::<u8>()], 0..40),
            from in 0usize..40,
        ) {
            let from = from.min(bytes.len());
            let scan = from + bytes[from..].iter().take_while(|b| b.is_ascii_graphic()).count();
            prop_assert_eq!(super::graphic_run_end(&bytes, from), scan);
        }
    }

    #[test]
    fn graphic_runs_end_at_every_kind_of_byte() {
        for end in [0x00, b'\t', b'\n', b' ', 0x7f, 0x80, 0xc3, 0xff] {
            for at in 0..20 {
                let mut bytes = vec![b'a'; 24];
                bytes[at] = end;
                // A byte that ends the run after the first one must not hide it.
                bytes[at + 1] = 0x00;
                assert_eq!(super::graphic_run_end(&bytes, 0), at, "{end:#x} at {at}");
            }
        }
        assert_eq!(super::graphic_run_end(b"~!}", 0), 3);
    }
}
