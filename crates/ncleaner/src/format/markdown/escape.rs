//! Page text into Markdown: a backslash before every character that a
//! CommonMark or GFM renderer would read as markup, so that no page text
//! becomes a link, an image, raw HTML, emphasis, code or a block of another
//! kind. Only the writer's own syntax is markup.
//!
//! CommonMark (0.31) lets a backslash escape any ASCII punctuation
//! character (§ 2.4), and a backslash before anything else is a literal
//! backslash; so an escape never shows, and text is escaped only where
//! its character would otherwise be read as markup, to keep the Markdown
//! readable. The rules, in a piece of text (a block's text, or its part
//! between two of the writer's marks, such as a link's text):
//!
//! - `[`, `]` and `` ` `` always: links, images, reference definitions,
//!   footnotes and task boxes (GFM), code spans (inside which escapes do not
//!   work, so a stray backtick could hide the writer's own escapes).
//! - `<` unless a space or a tab follows it: raw HTML (`<img …>`, `</…`,
//!   `<!…`, `<?…`) and autolinks (`<https://…>`, `<a@b.c>`) start with `<`
//!   and a non-space character. `>` only at a line's start (a block quote):
//!   elsewhere it closes only what a `<` opened.
//! - `&` when an entity or numeric reference could start there (`&` then
//!   an optional `#`, letters or digits and `;`): `&lt;img…&gt;` in the
//!   page's text would otherwise be decoded by the renderer. `AT&T` and
//!   `Tom & Jerry` stay as they are.
//! - `\` unless a letter or digit follows it (`C:\Users` stays): before
//!   punctuation, a space or the end (where the writer's syntax follows)
//!   it would escape something or break the line.
//! - `*`, `_` and `~` (emphasis, strong emphasis, GFM strikethrough) by
//!   runs: a run is left alone when it has a space on both sides
//!   (`5 * 3`), or, for `_`, a letter or digit on both sides (`snake_case`):
//!   CommonMark's flanking rules (§ 6.2) let such a run neither open nor
//!   close. Any other run is escaped, character by character.
//! - `|` in a table cell (GFM).
//! - A line break (LF or CR) becomes a space: each would start a new line,
//!   where block syntax is read.
//!
//! At a line's start ([`line_start`]), after leading spaces are dropped
//! (four would make code): `#` (a heading), `>` (a quote), `-`, `+` and
//! `=` (a list item, a rule, a setext underline, metadata blocks), `|` and
//! a delimiter row's `:` (a GFM table), and the `.` or `)` of a number
//! followed by a space (an ordered list; a backslash before a digit would
//! show). `*`, `_`, `~`, `` ` ``, `[` and `<` are escaped there by the rules
//! above. In a heading ([`heading`]), a closing run of `#` is escaped too.
//!
//! Left alone: `$` (math extensions), `^` (superscript), `{` (heading
//! attributes), `:` elsewhere (emoji shortcodes) and bare URLs, which GFM
//! renderers may turn into links of their own; none of these is
//! CommonMark, and a bare URL is linked only with http, https or mailto.

/// Where escaped text goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Place {
    /// A paragraph, a heading, a list item, a link's text, an image's alt text.
    Text,
    /// A cell of a GFM table, where `|` ends the cell.
    Cell,
}

/// Whitespace as CommonMark reads it (§ 2.1: Unicode's Zs, tab, line
/// feed, form feed, carriage return); Rust's also has U+000B, U+0085,
/// U+2028 and U+2029, which CommonMark reads as ordinary characters.
fn is_space(c: char) -> bool {
    c.is_whitespace() && !matches!(c, '\u{b}' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

/// Whether an entity or a numeric character reference could start right
/// after an `&`: an optional `#`, then letters or digits (at most the 32
/// of the longest entity name), then `;`.
pub(super) fn reference_after(rest: &str) -> bool {
    let rest = rest.strip_prefix('#').unwrap_or(rest);
    let name = rest
        .bytes()
        .take(33)
        .take_while(u8::is_ascii_alphanumeric)
        .count();
    name > 0 && rest.as_bytes().get(name) == Some(&b';')
}

/// Appends `text` to `out` escaped for `place` (the rules above). (A `!`
/// right before a link's `[` would make the link an image: the link's
/// writer escapes it.)
pub(super) fn inline(out: &mut String, text: &str, place: Place) {
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let next = chars.peek().map(|&(_, n)| n);
        match c {
            '*' | '_' | '~' => {
                let run = text[i..].bytes().take_while(|&b| b == c as u8).count();
                let before = text[..i].chars().next_back();
                let after = text[i + run..].chars().next();
                let inert = match (before, after) {
                    (Some(b), Some(a)) => {
                        (is_space(b) && is_space(a))
                            || (c == '_' && b.is_alphanumeric() && a.is_alphanumeric())
                    }
                    _ => false,
                };
                for _ in 0..run {
                    if !inert {
                        out.push('\\');
                    }
                    out.push(c);
                }
                for _ in 1..run {
                    chars.next();
                }
            }
            '[' | ']' | '`' => {
                out.push('\\');
                out.push(c);
            }
            '<' => {
                if !next.is_some_and(|n| n == ' ' || n == '\t') {
                    out.push('\\');
                }
                out.push('<');
            }
            '&' => {
                if reference_after(&text[i + 1..]) {
                    out.push('\\');
                }
                out.push('&');
            }
            '\\' => {
                if !next.is_some_and(char::is_alphanumeric) {
                    out.push('\\');
                }
                out.push('\\');
            }
            '|' if place == Place::Cell => out.push_str("\\|"),
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
}

/// Appends a line of escaped text ([`inline`]) where a block starts (a
/// paragraph, a list item's text or its continuation, a quote's text),
/// without its leading and trailing spaces and with a backslash before
/// what would start a block there.
pub(super) fn line_start(out: &mut String, line: &str) {
    let line = line.trim_matches([' ', '\t']);
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0
        && matches!(line.as_bytes().get(digits), Some(b'.' | b')'))
        && matches!(line.as_bytes().get(digits + 1), None | Some(b' ' | b'\t'))
    {
        out.push_str(&line[..digits]);
        out.push('\\');
        out.push_str(&line[digits..]);
        return;
    }
    let delimiter_row = line.starts_with(':')
        && line.contains('-')
        && line
            .bytes()
            .all(|b| matches!(b, b'|' | b':' | b'-' | b' ' | b'\t'));
    if line.starts_with(['#', '>', '-', '+', '=', '|']) || delimiter_row {
        out.push('\\');
    }
    out.push_str(line);
}

/// Appends a heading's escaped text ([`inline`]) after its `#`s: a run of
/// `#` at its end would be read as the heading's closing sequence.
pub(super) fn heading(out: &mut String, text: &str) {
    let text = text.trim_matches([' ', '\t']);
    let body = text.trim_end_matches('#');
    if body.len() == text.len() {
        out.push_str(text);
    } else {
        out.push_str(body);
        out.push('\\');
        out.push_str(&text[body.len()..]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn esc(text: &str) -> String {
        let mut out = String::new();
        inline(&mut out, text, Place::Text);
        out
    }

    fn line(text: &str) -> String {
        let mut out = String::new();
        line_start(&mut out, &esc(text));
        out
    }

    #[test]
    fn markup_is_escaped_and_plain_text_is_not() {
        assert_eq!(
            esc("[click here](javascript:alert(document.cookie))"),
            "\\[click here\\](javascript:alert(document.cookie))"
        );
        assert_eq!(
            esc("<img src=x onerror=alert(1)>"),
            "\\<img src=x onerror=alert(1)>"
        );
        assert_eq!(
            esc("&lt;b&gt; &#65; &#x41;"),
            "\\&lt;b\\&gt; \\&#65; \\&#x41;"
        );
        assert_eq!(
            esc("AT&T, Tom & Jerry, a < b, 5 * 3"),
            "AT&T, Tom & Jerry, a < b, 5 * 3"
        );
        assert_eq!(esc("snake_case and C:\\Users"), "snake_case and C:\\Users");
        assert_eq!(
            esc("*em* __strong__ ~~del~~ `code`"),
            "\\*em\\* \\_\\_strong\\_\\_ \\~\\~del\\~\\~ \\`code\\`"
        );
        assert_eq!(esc("a ** b, _x, x_"), "a ** b, \\_x, x\\_");
        assert_eq!(esc("end\\"), "end\\\\");
        assert_eq!(esc("\\*"), "\\\\\\*");
        assert_eq!(esc("one\ntwo\rthree"), "one two three");
        // A U+2028 is no space to CommonMark: the star beside it could open.
        assert_eq!(esc("a\u{2028}*\u{2028}b"), "a\u{2028}\\*\u{2028}b");
        let mut out = String::new();
        inline(&mut out, "Wow! a|b", Place::Cell);
        assert_eq!(out, "Wow! a\\|b");
    }

    #[test]
    fn block_syntax_at_a_line_start() {
        for (text, want) in [
            ("# Not a heading", "\\# Not a heading"),
            ("> not a quote", "\\> not a quote"),
            ("- not an item", "\\- not an item"),
            ("+ not an item", "\\+ not an item"),
            ("---", "\\---"),
            ("===", "\\==="),
            ("* * *", "\\* * \\*"),
            ("1. Not a list", "1\\. Not a list"),
            ("2) Nor this", "2\\) Nor this"),
            ("1.5 million people", "1.5 million people"),
            ("```rust", "\\`\\`\\`rust"),
            ("~~~", "\\~\\~\\~"),
            ("| a | b |", "\\| a | b |"),
            (":--- | ---:", "\\:--- | ---:"),
            ("    four spaces", "four spaces"),
            ("<div>", "\\<div>"),
            ("[x]: https://example.org", "\\[x\\]: https://example.org"),
            ("Plain words.", "Plain words."),
        ] {
            assert_eq!(line(text), want, "{text}");
        }
        let mut out = String::new();
        heading(&mut out, &esc("C #"));
        assert_eq!(out, "C \\#");
    }
}
