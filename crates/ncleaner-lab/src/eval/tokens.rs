//! Tokens of CleanEval-format texts, as the reference scorer's `tokens()` makes them.
//!
//! The counts depend on every detail (empty tokens at the ends, marker case,
//! which whitespace separates), so each rule below mirrors one regular
//! expression of `cleaneval_score.py`; see `../shared/data/README.md`.

use std::borrow::Cow;

/// Python's `\s` under `re.ASCII`: space, `\t`, `\n`, `\v`, `\f`, `\r`
/// (unlike [`u8::is_ascii_whitespace`], which leaves out `\v`).
fn is_py_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r')
}

/// Whether `c` is a character the reference scorer's `--cjk-chars` makes a
/// token of its own: CJK symbols and punctuation, Hiragana and Katakana,
/// the CJK unified ideographs and their extension A, the compatibility
/// ideographs, and the half- and full-width forms (its `CJK` pattern).
pub fn is_cjk_char(c: char) -> bool {
    matches!(c,
        '\u{3000}'..='\u{303f}'
        | '\u{3040}'..='\u{30ff}'
        | '\u{3400}'..='\u{4dbf}'
        | '\u{4e00}'..='\u{9fff}'
        | '\u{f900}'..='\u{faff}'
        | '\u{ff00}'..='\u{ffef}')
}

/// The reference's `CJK.sub(r" \1 ", text)`: a space before and after every
/// character of [`is_cjk_char`], so that splitting on whitespace makes each
/// a token.
pub fn split_cjk(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_cjk_char) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() * 2);
    for c in text.chars() {
        if is_cjk_char(c) {
            out.push(' ');
            out.push(c);
            out.push(' ');
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Whether `tok` is a segment marker `<p>`, `<h>` or `<l>`, in either case.
pub fn is_marker(tok: &str) -> bool {
    matches!(
        tok.as_bytes(),
        [b'<', b'p' | b'h' | b'l' | b'P' | b'H' | b'L', b'>']
    )
}

/// `re.sub(r"^\s*URL.*$", "", text, flags=re.MULTILINE | re.ASCII)`.
///
/// A match starts at a line start, so its `\s*` may swallow the blank lines
/// before the `URL` line; they go with it.
fn delete_url_lines(text: &str) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    let n = bytes.len();
    let mut out: Option<String> = None;
    let mut kept = 0; // text[kept..] is not yet copied to `out`
    let mut start = 0; // a line start: 0 or just after a '\n'
    loop {
        let mut q = start;
        while q < n && is_py_space(bytes[q]) {
            q += 1;
        }
        // `q` is past any '\n' of the whitespace run, so every line start in
        // start..=q would fail (or match) the same way: look only after `q`.
        let next_nl = bytes[q..].iter().position(|&c| c == b'\n').map(|p| q + p);
        if bytes[q..].starts_with(b"URL") {
            let end = next_nl.unwrap_or(n);
            let o = out.get_or_insert_with(|| String::with_capacity(n));
            o.push_str(&text[kept..start]);
            kept = end;
        }
        match next_nl {
            Some(nl) => start = nl + 1,
            None => break,
        }
    }
    match out {
        None => Cow::Borrowed(text),
        Some(mut o) => {
            o.push_str(&text[kept..]);
            Cow::Owned(o)
        }
    }
}

/// The reference's text after its substitutions, tokens separated by single
/// spaces, so that `.split(' ')` gives exactly its `re.split(r"\s+", …)`.
///
/// One pass does the reference's steps: control-character runs become a
/// space, each marker gets `"\n"` before and `" "` after it, whitespace runs
/// collapse to one space and (with `ascii`) non-ASCII characters go. Deleting
/// characters before collapsing gives the same split, and markers are still
/// looked for in the text before deletion, as in the reference.
pub(crate) fn normalize(text: &str, ascii: bool, unlabelled: bool) -> String {
    let text = delete_url_lines(text);
    let bytes = text.as_bytes();
    let n = bytes.len();
    let mut out: Vec<u8> = Vec::with_capacity(n + 16);
    let mut pending_space = false;
    let mut i = 0;
    while i < n {
        let c = bytes[i];
        // Control characters (0x00-0x1F) and the ASCII space; Python's ASCII
        // `\s` is a subset of the two.
        if c <= b' ' {
            pending_space = true;
            i += 1;
        } else if c == b'<' && i + 2 < n && bytes[i + 2] == b'>' && is_marker(&text[i..i + 3]) {
            out.push(b' ');
            out.extend_from_slice(if unlabelled { b"<p>" } else { &bytes[i..i + 3] });
            pending_space = true;
            i += 3;
        } else if ascii && c >= 0x80 {
            i += 1;
        } else {
            if pending_space {
                out.push(b' ');
                pending_space = false;
            }
            // Copy the whole run of ordinary bytes at once.
            let start = i;
            i += 1;
            while i < n {
                let c = bytes[i];
                if c <= b' ' || c == b'<' || (ascii && c >= 0x80) {
                    break;
                }
                i += 1;
            }
            out.extend_from_slice(&bytes[start..i]);
        }
    }
    if pending_space {
        out.push(b' ');
    }
    // Only whole characters were dropped and only ASCII bytes were added.
    String::from_utf8(out).expect("normalize keeps UTF-8 valid")
}

/// Tokens of a CleanEval-format text, exactly as `tokens()` of the reference
/// scorer makes them: words and markers, an empty token at either end when
/// the text starts or ends with whitespace, `[""]` for a text with no token.
///
/// `ascii` deletes non-ASCII characters; `unlabelled` reads every marker as `<p>`.
pub fn tokens(text: &str, ascii: bool, unlabelled: bool) -> Vec<String> {
    normalize(text, ascii, unlabelled)
        .split(' ')
        .map(str::to_owned)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(text: &str) -> Vec<String> {
        tokens(text, false, false)
    }

    #[test]
    fn url_lines_go_with_the_blank_lines_before_them() {
        assert_eq!(delete_url_lines("URL: x\n<p> a"), "\n<p> a");
        assert_eq!(delete_url_lines("a\n\n  \n URL x\nb"), "a\n\nb");
        assert_eq!(delete_url_lines("a URL\n\tURLs\nURL"), "a URL\n\n");
        assert_eq!(
            delete_url_lines("no url here\nurl: lower case"),
            "no url here\nurl: lower case"
        );
        // U+00A0 is not Python's ASCII `\s`.
        assert_eq!(delete_url_lines("\u{a0}URL x"), "\u{a0}URL x");
    }

    #[test]
    fn empty_tokens_at_the_ends_are_kept() {
        assert_eq!(toks(""), [""]);
        assert_eq!(toks("   \n"), ["", ""]);
        assert_eq!(
            toks("URL: http://x/\n\n<p>A b\n"),
            ["", "<p>", "A", "b", ""]
        );
        assert_eq!(toks("a b"), ["a", "b"]);
    }

    #[test]
    fn markers_start_tokens_and_keep_their_case() {
        assert_eq!(toks("word<P>text<h>x"), ["word", "<P>", "text", "<h>", "x"]);
        assert_eq!(
            tokens("word<P>text<h>x", false, true),
            ["word", "<p>", "text", "<p>", "x"]
        );
        assert_eq!(toks("<p><l>"), ["", "<p>", "<l>", ""]);
        assert_eq!(toks("<x> < p>"), ["<x>", "<", "p>"]);
    }

    #[test]
    fn only_ascii_whitespace_and_control_characters_separate() {
        assert_eq!(
            toks("a\u{a0}b\tc\x0bd\x1fe\x7ff"),
            ["a\u{a0}b", "c", "d", "e\x7ff"]
        );
    }

    #[test]
    fn ascii_deletes_after_markers_are_found() {
        assert_eq!(tokens("é a é", true, false), ["", "a", ""]);
        assert_eq!(tokens("é", true, false), [""]);
        assert_eq!(tokens("<pé> xé", true, false), ["<p>", "x"]);
        assert!(is_marker("<p>"));
    }
}
