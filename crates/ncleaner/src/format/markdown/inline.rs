//! A kept segment's links and images as Markdown ([`crate::html::inline`]'s
//! marks, used only where the segment's output is its own text).

use std::borrow::Cow;

use crate::cleaned::ScoredSegment;
use crate::html::Inline;

/// The inline marks of a segment whose output is its own text.
fn marks(s: &ScoredSegment) -> Option<&Inline> {
    let inline = s.segment.inline.as_deref()?;
    (s.text() == s.segment.text()).then_some(inline)
}

/// A segment's text with its links and images as Markdown.
pub(super) fn inline_text<'a>(s: &'a ScoredSegment, base: Option<&url::Url>) -> Cow<'a, str> {
    // A heading without its permalink mark (and the link of the mark).
    let text = s.written_line();
    let Some(m) = marks(s).filter(|m| !m.links.is_empty() || !m.images.is_empty()) else {
        return Cow::Borrowed(text);
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
    let mut out = String::with_capacity(text.len() + 64);
    let mut pos = 0;
    let mut in_link = false;
    for (p, _, mark) in at {
        push_text(&mut out, &text[pos..p], in_link);
        pos = p;
        match mark {
            Mark::Start if !in_link => {
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
                    push_text(&mut out, &img.alt, true);
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
    push_text(&mut out, &text[pos..], in_link);
    if in_link {
        out.push(']');
    }
    Cow::Owned(out)
}

/// Text into Markdown output; between `[ ]` its backslashes and brackets
/// are escaped.
fn push_text(out: &mut String, text: &str, bracketed: bool) {
    if !bracketed {
        out.push_str(text);
        return;
    }
    for c in text.chars() {
        if matches!(c, '\\' | '[' | ']') {
            out.push('\\');
        }
        out.push(c);
    }
}

/// A link's or an image's URL for Markdown: resolved against the page's
/// URL, `None` for a `javascript:`, `vbscript:` or `data:` URL (or one that
/// cannot be resolved), with spaces, `<`, `>` and parentheses
/// percent-encoded.
fn destination(href: &str, base: Option<&url::Url>) -> Option<String> {
    let scheme = href
        .split(':')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    if href.contains(':') && matches!(scheme.as_str(), "javascript" | "data" | "vbscript") {
        return None;
    }
    let resolved = match base {
        Some(b) => b.join(href).ok()?.to_string(),
        None => href.to_string(),
    };
    let mut out = String::with_capacity(resolved.len());
    for c in resolved.chars() {
        match c {
            ' ' => out.push_str("%20"),
            '<' => out.push_str("%3C"),
            '>' => out.push_str("%3E"),
            '(' => out.push_str("%28"),
            ')' => out.push_str("%29"),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    Some(out)
}
