//! A kept segment's links and images as Markdown ([`crate::html::inline`]'s
//! marks, used only where the segment's output is its own text).

use super::escape::{self, Place};
use crate::cleaned::ScoredSegment;
use crate::html::Inline;
use crate::lexicon::LINK_SCHEMES;

/// The inline marks of a segment whose output is its own text.
fn marks(s: &ScoredSegment) -> Option<&Inline> {
    let inline = s.segment.inline.as_deref()?;
    (s.text() == s.segment.text()).then_some(inline)
}

/// A segment's text as Markdown for `place`: escaped ([`escape::inline`]),
/// with its links and images; a heading without its permalink mark (and
/// the link of the mark).
pub(super) fn inline_text(s: &ScoredSegment, base: Option<&url::Url>, place: Place) -> String {
    let text = s.written_line();
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    let Some(m) = marks(s).filter(|m| !m.links.is_empty() || !m.images.is_empty()) else {
        escape::inline(&mut out, text, place);
        return out;
    };
    // (offset, order at one offset, what): link ends, then images, then link starts.
    enum Mark<'m> {
        Start,
        End(&'m str),
        Image(&'m crate::html::inline::Image),
    }
    // The URLs are built first, so that the marks can borrow them.
    let urls: Vec<Option<String>> = m.links.iter().map(|l| destination(&l.href, base)).collect();
    let mut at: Vec<(usize, u8, Mark)> = Vec::new();
    for (l, url) in m.links.iter().zip(&urls) {
        let (start, end) = (l.start as usize, l.end as usize);
        if let Some(url) = url
            && start < end
            && end <= text.len()
            && text.is_char_boundary(start)
            && text.is_char_boundary(end)
        {
            at.push((start, 2, Mark::Start));
            at.push((end, 0, Mark::End(url)));
        }
    }
    for img in &m.images {
        let p = img.at as usize;
        if p <= text.len() && text.is_char_boundary(p) {
            at.push((p, 1, Mark::Image(img)));
        }
    }
    at.sort_by_key(|&(p, o, _)| (p, o));
    let mut pos = 0;
    let mut in_link = false;
    for (p, _, mark) in at {
        escape::inline(&mut out, &text[pos..p], place);
        pos = p;
        match mark {
            Mark::Start if !in_link => {
                // A `!` of the text right before the `[` would make the
                // link an image.
                if out.ends_with('!')
                    && out[..out.len() - 1]
                        .bytes()
                        .rev()
                        .take_while(|&b| b == b'\\')
                        .count()
                        % 2
                        == 0
                {
                    out.pop();
                    out.push_str("\\!");
                }
                out.push('[');
                in_link = true;
            }
            Mark::End(url) if in_link => {
                out.push_str("](");
                out.push_str(url);
                out.push(')');
                in_link = false;
            }
            Mark::Image(img) => {
                if let Some(url) = destination(&img.src, base) {
                    if !out.is_empty() && !out.ends_with(' ') && !in_link {
                        out.push(' ');
                    }
                    out.push_str("![");
                    escape::inline(&mut out, &img.alt, place);
                    out.push_str("](");
                    out.push_str(&url);
                    out.push(')');
                    if p < text.len() && !text[p..].starts_with(' ') && !in_link {
                        out.push(' ');
                    }
                }
            }
            _ => {}
        }
    }
    escape::inline(&mut out, &text[pos..], place);
    if in_link {
        out.push(']');
    }
    out
}

/// A link's or an image's URL as a Markdown destination: resolved against
/// the page's URL (as written when there is none), with whitespace,
/// controls, `<`, `>`, `|` (a table's cell) and parentheses
/// percent-encoded; `None` unless it is relative (without a base) or its
/// scheme is one of [`LINK_SCHEMES`]. The scheme is
/// read by the URL parser from the destination a renderer hands on (the
/// parser, as a browser's, drops tabs and line breaks anywhere and controls
/// and spaces at the ends, so `java\tscript:` and `\u{1}javascript:` are
/// `javascript:`); a `\` or an `&` that a renderer would read as an escape
/// or a character reference is escaped, so the renderer hands on exactly
/// the destination checked.
fn destination(href: &str, base: Option<&url::Url>) -> Option<String> {
    let href: String = href
        .trim_matches(|c: char| c <= ' ')
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect();
    let resolved = match base {
        Some(b) => b.join(&href).ok()?.to_string(),
        None => match url::Url::parse(&href) {
            Ok(u) => u.to_string(),
            Err(url::ParseError::RelativeUrlWithoutBase) => href,
            Err(_) => return None,
        },
    };
    let mut dest = String::with_capacity(resolved.len());
    for c in resolved.chars() {
        if matches!(c, '<' | '>' | '(' | ')' | '|') || c.is_control() || c.is_whitespace() {
            let mut utf8 = [0; 4];
            for b in c.encode_utf8(&mut utf8).bytes() {
                dest.push_str(&format!("%{b:02X}"));
            }
        } else {
            dest.push(c);
        }
    }
    match url::Url::parse(&dest) {
        Ok(u) if LINK_SCHEMES.contains(u.scheme()) => {}
        Err(url::ParseError::RelativeUrlWithoutBase) if base.is_none() => {}
        _ => return None,
    }
    let mut out = String::with_capacity(dest.len());
    for (i, c) in dest.char_indices() {
        if c == '\\' || (c == '&' && escape::reference_after(&dest[i + 1..])) {
            out.push('\\');
        }
        out.push(c);
    }
    Some(out)
}
