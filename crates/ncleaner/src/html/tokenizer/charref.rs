//! Character references and the input stream's preprocessing, applied to a
//! run of text or an attribute value only when a consumer reads it
//! (WHATWG HTML § 13.2.5.72–80 and § 13.2.3.5): `&name;`, `&#10;`,
//! `&#x0A;` decoded, CR and CR LF read as LF, NUL replaced where the
//! tokenizer state says so.
//!
//! The tokenizer finds where a run of text or a value ends without
//! decoding it (a reference never holds `<`, a quote, `>` or whitespace, so
//! its raw extent is the same either way); a run that nobody reads (a
//! script, a hidden element's text, an attribute no consumer asks for) is
//! never decoded.

use super::entities::ENTITIES;

/// How a run of raw input is read (the tokenizer state it came from).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decode {
    /// The data state: references decoded, NUL kept (a parse error).
    Data,
    /// RCDATA (`title`, `textarea`): references decoded, NUL → U+FFFD.
    RcData,
    /// RAWTEXT, script data, PLAINTEXT: no references, NUL → U+FFFD.
    Raw,
    /// An attribute value: references decoded with the attribute rule for
    /// legacy names, NUL → U+FFFD.
    Attribute,
    /// Already decoded (text joined across a dropped `</>`).
    Done,
}

/// Whether `raw` needs any work to be read as `how` says.
#[inline]
pub fn needs_decoding(raw: &str, how: Decode) -> bool {
    let b = raw.as_bytes();
    // Most values and many runs of text are short: a loop over their bytes
    // costs less than setting up a vector search.
    const SHORT: usize = 32;
    match how {
        Decode::Done => false,
        Decode::Raw if b.len() < SHORT => b.iter().any(|&c| c == b'\r' || c == 0),
        Decode::Raw => memchr::memchr2(b'\r', 0, b).is_some(),
        _ if b.len() < SHORT => b.iter().any(|&c| c == b'&' || c == b'\r' || c == 0),
        _ => memchr::memchr3(b'&', b'\r', 0, b).is_some(),
    }
}

/// Appends `raw` read as `how` to `out`.
pub fn decode_into(raw: &str, how: Decode, out: &mut String) {
    if !needs_decoding(raw, how) {
        out.push_str(raw);
        return;
    }
    let b = raw.as_bytes();
    let refs = !matches!(how, Decode::Raw | Decode::Done);
    let mut i = 0;
    while i < b.len() {
        let next = if refs {
            memchr::memchr3(b'&', b'\r', 0, &b[i..])
        } else {
            memchr::memchr2(b'\r', 0, &b[i..])
        };
        let Some(off) = next else {
            out.push_str(&raw[i..]);
            break;
        };
        let at = i + off;
        out.push_str(&raw[i..at]);
        match b[at] {
            b'\r' => {
                out.push('\n');
                i = at + 1;
                if b.get(i) == Some(&b'\n') {
                    i += 1;
                }
            }
            0 => {
                out.push(if how == Decode::Data {
                    '\0'
                } else {
                    '\u{FFFD}'
                });
                i = at + 1;
            }
            _ => i = reference(raw, at, how == Decode::Attribute, out),
        }
    }
}

/// Decodes the reference at `amp` (an `&`) into `out` and returns the index
/// after what it consumed; an `&` that starts no reference is itself.
fn reference(raw: &str, amp: usize, attribute: bool, out: &mut String) -> usize {
    let b = raw.as_bytes();
    let start = amp + 1;
    match b.get(start) {
        Some(b'#') => numeric(b, amp, out),
        Some(c) if c.is_ascii_alphanumeric() => named(raw, amp, attribute, out),
        _ => {
            out.push('&');
            start
        }
    }
}

/// `&#…`: decimal or hexadecimal (§ 13.2.5.75–80).
fn numeric(b: &[u8], amp: usize, out: &mut String) -> usize {
    let mut i = amp + 2;
    let hex = matches!(b.get(i), Some(b'x' | b'X'));
    if hex {
        i += 1;
    }
    let digits = i;
    let mut code: u32 = 0;
    while let Some(&c) = b.get(i) {
        let d = match c {
            b'0'..=b'9' => u32::from(c - b'0'),
            b'a'..=b'f' if hex => u32::from(c - b'a' + 10),
            b'A'..=b'F' if hex => u32::from(c - b'A' + 10),
            _ => break,
        };
        // Past 0x10FFFF the value only has to stay out of range.
        code = code
            .saturating_mul(if hex { 16 } else { 10 })
            .saturating_add(d)
            .min(0x0011_0000);
        i += 1;
    }
    if i == digits {
        // No digits: `&#` or `&#x` stays as it is.
        out.push_str(std::str::from_utf8(&b[amp..i]).unwrap_or("&"));
        return i;
    }
    if b.get(i) == Some(&b';') {
        i += 1;
    }
    out.push(numeric_char(code));
    i
}

/// The character a numeric reference stands for (§ 13.2.5.80).
fn numeric_char(code: u32) -> char {
    match code {
        0 | 0x0011_0000.. | 0xD800..=0xDFFF => '\u{FFFD}',
        0x80..=0x9F => char::from_u32(WINDOWS_1252[(code - 0x80) as usize]).unwrap_or('\u{FFFD}'),
        c => char::from_u32(c).unwrap_or('\u{FFFD}'),
    }
}

/// What references to 0x80–0x9F stand for (the numeric character reference
/// end state's table: windows-1252; the code itself where it has no entry).
const WINDOWS_1252: [u32; 32] = [
    0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039,
    0x0152, 0x8D, 0x017D, 0x8F, 0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
    0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
];

/// Longest name of the table without its `;` (`CounterClockwiseContourIntegral`).
const NAME_MAX: usize = 31;
/// Longest legacy name (read without a `;`).
const LEGACY_MAX: usize = 6;

/// `&name`: the longest name of the table that the input starts with
/// (§ 13.2.5.73). Names are letters and digits and end in `;`, except the
/// legacy ones, so the match is either the whole run of letters and digits
/// with its `;`, or the longest legacy name that the run starts with. In an
/// attribute, a legacy match followed by `=` or a letter or digit stays as
/// written (`?a=1&copy=2`).
fn named(raw: &str, amp: usize, attribute: bool, out: &mut String) -> usize {
    let b = raw.as_bytes();
    let start = amp + 1;
    let mut end = start;
    while end < b.len() && b[end].is_ascii_alphanumeric() {
        end += 1;
    }
    let run = &raw[start..end];
    if run.len() <= NAME_MAX
        && b.get(end) == Some(&b';')
        && let Some(chars) = lookup(&raw[start..=end])
    {
        out.push_str(chars);
        return end + 1;
    }
    for len in (2..=run.len().min(LEGACY_MAX)).rev() {
        if let Some(chars) = lookup(&run[..len]) {
            let after = start + len;
            if attribute
                && b.get(after)
                    .is_some_and(|&c| c == b'=' || c.is_ascii_alphanumeric())
            {
                break;
            }
            out.push_str(chars);
            return after;
        }
    }
    // Not a reference: the `&` and the run stay as they are.
    out.push_str(&raw[amp..end]);
    end
}

fn lookup(name: &str) -> Option<&'static str> {
    ENTITIES
        .binary_search_by(|(n, _)| n.as_bytes().cmp(name.as_bytes()))
        .ok()
        .map(|i| ENTITIES[i].1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(raw: &str, how: Decode) -> String {
        let mut s = String::new();
        decode_into(raw, how, &mut s);
        s
    }

    #[test]
    fn named_references() {
        assert_eq!(d("fish &amp; chips", Decode::Data), "fish & chips");
        assert_eq!(d("&eacute;t&eacute;&nbsp;x", Decode::Data), "été\u{a0}x");
        // Legacy names without `;`, the longest that matches.
        assert_eq!(d("&copy2024 &notit; &notin;", Decode::Data), "©2024 ¬it; ∉");
        // In an attribute a legacy match before `=` or a letter stays.
        assert_eq!(
            d("?a=1&copy=2&amp;b&ampx", Decode::Attribute),
            "?a=1&copy=2&b&ampx"
        );
        assert_eq!(d("&amp", Decode::Attribute), "&");
        // Unknown names and lone ampersands stay.
        assert_eq!(
            d("&foo; & &; &#; &#x;", Decode::Data),
            "&foo; & &; &#; &#x;"
        );
        // Two characters, the table's longest name.
        assert_eq!(d("&NotEqualTilde;", Decode::Data), "\u{2242}\u{338}");
        assert_eq!(
            d("&CounterClockwiseContourIntegral;", Decode::Data),
            "\u{2233}"
        );
    }

    #[test]
    fn numeric_references() {
        assert_eq!(d("&#65;&#x42;&#X43&#68x", Decode::Data), "ABCDx");
        assert_eq!(
            d("&#0;&#xD800;&#x110000;&#99999999999;", Decode::Data),
            "\u{FFFD}".repeat(4)
        );
        assert_eq!(d("&#128;&#x9F;&#x81;", Decode::Data), "€Ÿ\u{81}");
        assert_eq!(d("&#1;&#x0d;", Decode::Data), "\u{1}\r");
    }

    #[test]
    fn newlines_and_nul() {
        assert_eq!(d("a\r\nb\rc\n\rd", Decode::Raw), "a\nb\nc\n\nd");
        assert_eq!(d("a\0b", Decode::Data), "a\0b");
        assert_eq!(d("a\0b&amp;", Decode::RcData), "a\u{FFFD}b&");
        assert_eq!(d("a\0b&amp;", Decode::Raw), "a\u{FFFD}b&amp;");
        assert_eq!(d("&amp;\r", Decode::Done), "&amp;\r");
    }

    #[test]
    fn the_table_is_sorted_and_bounded() {
        assert!(
            ENTITIES
                .windows(2)
                .all(|w| w[0].0.as_bytes() < w[1].0.as_bytes())
        );
        let longest = ENTITIES
            .iter()
            .map(|(n, _)| n.trim_end_matches(';').len())
            .max();
        assert_eq!(longest, Some(NAME_MAX));
        let legacy = ENTITIES.iter().filter(|(n, _)| !n.ends_with(';'));
        assert_eq!(legacy.clone().count(), 106);
        assert_eq!(legacy.map(|(n, _)| n.len()).max(), Some(LEGACY_MAX));
    }
}
