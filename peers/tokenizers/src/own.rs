//! A minimal tokenizer built for what ncleaner's html stage needs: start tags
//! with attributes, end tags, text runs, comments, raw-text elements; one
//! pass, `memchr` (SIMD) to find `<`, quotes, `>` and `-->`.
//!
//! An upper-bound estimate, not a WHATWG tokenizer. It skips: character
//! reference decoding (text and attribute values are raw bytes; `&` is only
//! counted), NUL/CR handling, case folding of names (compared
//! case-insensitively where it matters), script-data escape states
//! (`<!--` inside `<script>`), CDATA, the exact WHATWG rules for bogus
//! comments and `<!-->`, duplicate-attribute removal, and parse errors.

use crate::Counts;
use memchr::{memchr, memchr3, memmem};

/// Elements whose content is raw text up to `</name` (html5gum's naive
/// switch list, plus `noframes`; `plaintext` runs to the end).
const RAW: &[&[u8]] = &[
    b"script", b"style", b"textarea", b"title", b"xmp", b"iframe", b"noembed", b"noframes",
    b"noscript",
];

#[inline(always)]
fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c')
}

#[inline(always)]
fn text(c: &mut Counts, t: &[u8]) {
    if !t.is_empty() {
        c.text(t);
        c.amps += memchr::memchr_iter(b'&', t).count() as u64;
    }
}

/// End of a tag or attribute name starting at `i`: the first whitespace,
/// `/` or `>` (and `=` for attribute names, past the first byte).
#[inline(always)]
fn name_end(p: &[u8], mut i: usize, attr: bool) -> usize {
    let start = i;
    while i < p.len() {
        let b = p[i];
        if is_ws(b) || b == b'/' || b == b'>' || (attr && b == b'=' && i > start) {
            break;
        }
        i += 1;
    }
    i
}

#[inline(always)]
fn skip_ws(p: &[u8], mut i: usize) -> usize {
    while i < p.len() && is_ws(p[i]) {
        i += 1;
    }
    i
}

/// Reads the attributes of a start tag from `i` (just past the name) and
/// returns the index past its `>`, or `None` at end of input.
fn attributes(p: &[u8], mut i: usize, c: &mut Counts) -> Option<usize> {
    loop {
        i = skip_ws(p, i);
        match p.get(i)? {
            b'>' => return Some(i + 1),
            b'/' => {
                i += 1;
                continue;
            }
            _ => {}
        }
        let ns = i;
        i = name_end(p, i, true);
        let name = &p[ns..i];
        i = skip_ws(p, i);
        if p.get(i) != Some(&b'=') {
            c.attr(name, b"");
            continue;
        }
        i = skip_ws(p, i + 1);
        let value = match *p.get(i)? {
            q @ (b'"' | b'\'') => {
                let vs = i + 1;
                let ve = vs + memchr(q, &p[vs..])?;
                i = ve + 1;
                &p[vs..ve]
            }
            b'>' => &p[i..i],
            _ => {
                let vs = i;
                while i < p.len() && !is_ws(p[i]) && p[i] != b'>' {
                    i += 1;
                }
                &p[vs..i]
            }
        };
        c.attr(name, value);
    }
}

/// Index of the `<` of the `</name` that closes a raw-text element, with
/// `name` followed by whitespace, `/` or `>`; `p.len()` if none.
fn raw_end(p: &[u8], from: usize, name: &[u8]) -> usize {
    let mut i = from;
    while let Some(off) = memchr(b'<', &p[i..]) {
        let lt = i + off;
        let ns = lt + 2;
        if p.get(lt + 1) == Some(&b'/')
            && p.len() >= ns + name.len()
            && p[ns..ns + name.len()].eq_ignore_ascii_case(name)
            && p.get(ns + name.len()).is_none_or(|&b| is_ws(b) || b == b'/' || b == b'>')
        {
            return lt;
        }
        i = lt + 1;
    }
    p.len()
}

pub fn run(p: &[u8], c: &mut Counts) {
    let mut i = 0; // where to look for the next `<`
    let mut text_start = 0;
    while let Some(off) = memchr(b'<', &p[i..]) {
        let lt = i + off;
        let Some(&next) = p.get(lt + 1) else { break };
        if next.is_ascii_alphabetic() {
            // Start tag.
            text(c, &p[text_start..lt]);
            let ne = name_end(p, lt + 1, false);
            let name = &p[lt + 1..ne];
            c.start(name);
            let Some(after) = attributes(p, ne, c) else {
                return; // EOF in tag: dropped, as WHATWG does
            };
            i = after;
            text_start = after;
            if name.len() <= 9 {
                if let Some(raw) = RAW.iter().find(|r| r.eq_ignore_ascii_case(name)) {
                    let end = raw_end(p, after, raw);
                    text(c, &p[after..end]);
                    i = end;
                    text_start = end;
                } else if name.eq_ignore_ascii_case(b"plaintext") {
                    text(c, &p[after..]);
                    return;
                }
            }
        } else if next == b'/' {
            match p.get(lt + 2) {
                Some(b) if b.is_ascii_alphabetic() => {
                    text(c, &p[text_start..lt]);
                    let ne = name_end(p, lt + 2, false);
                    c.end(&p[lt + 2..ne]);
                    // Attributes of end tags are read and dropped: skip to `>`
                    // outside quotes.
                    let mut j = ne;
                    loop {
                        match memchr3(b'>', b'"', b'\'', &p[j..]) {
                            None => return,
                            Some(o) if p[j + o] == b'>' => {
                                j += o + 1;
                                break;
                            }
                            Some(o) => {
                                let q = p[j + o];
                                match memchr(q, &p[j + o + 1..]) {
                                    Some(o2) => j += o + 1 + o2 + 1,
                                    None => return,
                                }
                            }
                        }
                    }
                    i = j;
                    text_start = j;
                }
                Some(b'>') => {
                    // `</>`: dropped.
                    text(c, &p[text_start..lt]);
                    i = lt + 3;
                    text_start = i;
                }
                None => break,
                Some(_) => {
                    // Bogus comment up to `>`.
                    text(c, &p[text_start..lt]);
                    let e = memchr(b'>', &p[lt + 2..]).map_or(p.len(), |o| lt + 2 + o);
                    c.comment(&p[lt + 2..e]);
                    i = (e + 1).min(p.len());
                    text_start = i;
                }
            }
        } else if next == b'!' {
            text(c, &p[text_start..lt]);
            if p[lt..].starts_with(b"<!--") {
                let cs = lt + 4;
                // `<!-->` and `<!--->` close at once.
                let (body_end, after) = if p[cs..].starts_with(b">") {
                    (cs, cs + 1)
                } else if p[cs..].starts_with(b"->") {
                    (cs, cs + 2)
                } else {
                    match memmem::find(&p[cs..], b"-->") {
                        Some(o) => (cs + o, cs + o + 3),
                        None => (p.len(), p.len()),
                    }
                };
                c.comment(&p[cs..body_end]);
                i = after;
            } else {
                // `<!DOCTYPE …>`, `<![CDATA[…]>` and other bogus comments: to `>`.
                let e = memchr(b'>', &p[lt + 2..]).map_or(p.len(), |o| lt + 2 + o);
                if !p[lt + 2..].get(..7).is_some_and(|d| d.eq_ignore_ascii_case(b"doctype")) {
                    c.comment(&p[lt + 2..e]);
                }
                i = (e + 1).min(p.len());
            }
            text_start = i;
        } else if next == b'?' {
            text(c, &p[text_start..lt]);
            let e = memchr(b'>', &p[lt + 1..]).map_or(p.len(), |o| lt + 1 + o);
            c.comment(&p[lt + 1..e]);
            i = (e + 1).min(p.len());
            text_start = i;
        } else {
            // A `<` that opens nothing is text.
            i = lt + 1;
        }
        if i >= p.len() {
            break;
        }
    }
    text(c, &p[text_start.min(p.len())..]);
}
