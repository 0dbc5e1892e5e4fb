//! Stage 0: raw bytes → UTF-8 text.
//!
//! The order of evidence follows the WHATWG encoding sniffing algorithm that
//! browsers use: a byte-order mark wins, then the transport's charset (the
//! HTTP `Content-Type` header of a WARC record), then a `<meta charset>` or
//! `<meta http-equiv="Content-Type">` found by a prescan of the page's start,
//! then statistical detection (`chardetng`). Two deliberate departures, both
//! for crawled pages rather than for browsers:
//!
//! - bytes that are valid UTF-8 and contain non-ASCII are read as UTF-8 even
//!   when a header or `<meta>` names a legacy single-byte encoding: such
//!   labels are wrong far more often than UTF-8 validity is an accident;
//!   so are bytes that are UTF-8 but for a few invalid sequences (one bad
//!   byte, a character cut by a truncated download: [`mostly_utf8`]), which
//!   become U+FFFD, where reading them in windows-1252 would garble every
//!   other character of the page;
//! - under a legacy multi-byte label (GBK, Big5, Shift_JIS, EUC-JP, EUC-KR
//!   and kin), valid UTF-8 is read as UTF-8 when it holds too many distinct
//!   characters to be valid by chance ([`UTF8_DISTINCT_CHARACTERS`]) or
//!   when the labelled encoding cannot read the bytes at all: a page saved
//!   again as UTF-8 that keeps its old `<meta>` (common in crawls and
//!   archives) is read as written, and a page truly in the label's encoding
//!   stays so;
//! - under a UTF-8 label, bytes far from UTF-8 (more invalid sequences than
//!   characters of two or more bytes: [`far_from_utf8`]) are detected as
//!   unlabelled bytes are: a GBK or windows-1252 page behind a server or
//!   template that says UTF-8 is read in its own encoding, not as a page of
//!   U+FFFD (a single-byte guess needs three invalid sequences per valid
//!   character: [`Utf8Counts::SINGLE_BYTE_RATIO`]);
//! - bytes laid out as UTF-16 (a NUL byte beside most ASCII characters,
//!   [`utf16_by_bytes`]) are read as UTF-16 without a byte-order mark,
//!   whatever the labels say (a UTF-16 label in a `<meta>` the prescan can
//!   read means ASCII-compatible bytes, which browsers read as UTF-8, and so
//!   does this);
//! - the prescan looks at the first [`PRESCAN_BYTES`] bytes, not 1024, since
//!   2007-era pages put long comments and scripts before their `<meta>`.
//!
//! Decoding never fails: undecodable bytes become U+FFFD.
//!
//! CleanEval and CleanPortalEval pages start with a pseudo-tag line
//! `<text id="URL" title="…" encoding="…">` that is not part of the page; it
//! is removed here and its `id` becomes the document's URL.

use encoding_rs::{Encoding, UTF_8, WINDOWS_1252};

/// How many leading bytes the `<meta>` prescan examines.
pub const PRESCAN_BYTES: usize = 4096;

/// Where the chosen encoding came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum EncodingSource {
    /// A byte-order mark.
    Bom,
    /// The transport (HTTP header) charset.
    Transport,
    /// A `<meta>` declaration in the page.
    Meta,
    /// The bytes are valid UTF-8 (overriding or lacking any declaration).
    Utf8Valid,
    /// The bytes are UTF-8 but for a few invalid sequences ([`mostly_utf8`]),
    /// which became U+FFFD (overriding or lacking any declaration).
    Utf8Mostly,
    /// Statistical detection.
    Detected,
}

/// A decoded document: the page's text as UTF-8 and what is known about it.
#[derive(Debug, Clone)]
pub struct Document {
    /// The page's URL, from the caller or the CleanEval pseudo-tag.
    pub url: Option<String>,
    /// The decoded text (HTML or plain text), pseudo-tag line removed.
    pub text: String,
    /// The encoding the bytes were read in.
    pub encoding: &'static Encoding,
    /// Where that encoding came from.
    pub encoding_source: EncodingSource,
    /// Whether some bytes could not be decoded and became U+FFFD.
    pub had_errors: bool,
}

/// Decodes the bytes of one document.
///
/// `url` is the document's URL when the caller knows it (a WARC record's
/// target URI); `transport_charset` the charset label of its HTTP header.
pub fn decode(bytes: &[u8], url: Option<&str>, transport_charset: Option<&str>) -> Document {
    let d = decode_borrowed(bytes, url, transport_charset);
    Document {
        url: d.url,
        text: d.text.into_owned(),
        encoding: d.encoding,
        encoding_source: d.encoding_source,
        had_errors: d.had_errors,
    }
}

/// A decoded document whose text may be the bytes it was decoded from
/// ([`decode_borrowed`]).
#[derive(Debug, Clone)]
pub struct Decoded<'a> {
    /// The page's URL, from the caller or the CleanEval pseudo-tag.
    pub url: Option<String>,
    /// The decoded text: the bytes themselves when they were UTF-8.
    pub text: std::borrow::Cow<'a, str>,
    /// The encoding the bytes were read in.
    pub encoding: &'static Encoding,
    /// Where that encoding came from.
    pub encoding_source: EncodingSource,
    /// Whether some bytes could not be decoded and became U+FFFD.
    pub had_errors: bool,
}

impl From<Document> for Decoded<'static> {
    fn from(d: Document) -> Self {
        Decoded {
            url: d.url,
            text: std::borrow::Cow::Owned(d.text),
            encoding: d.encoding,
            encoding_source: d.encoding_source,
            had_errors: d.had_errors,
        }
    }
}

/// [`decode`] that keeps the bytes as the text when they are valid UTF-8
/// read as UTF-8 (most of today's pages): found valid once, they are
/// neither validated again nor copied.
pub fn decode_borrowed<'b>(
    bytes: &'b [u8],
    url: Option<&str>,
    transport_charset: Option<&str>,
) -> Decoded<'b> {
    let (bytes, pseudo_url) = strip_pseudo_tag(bytes);
    let url = url.map(str::to_owned).or(pseudo_url);

    let (encoding, source, bom_len, valid) = sniff(bytes, url.as_deref(), transport_charset);
    let (text, had_errors) = match valid {
        Some(text) if encoding == UTF_8 => (std::borrow::Cow::Borrowed(text), false),
        _ => encoding.decode_without_bom_handling(&bytes[bom_len..]),
    };
    Decoded {
        url,
        text,
        encoding,
        encoding_source: source,
        had_errors,
    }
}

/// Chooses the encoding of `bytes`; returns it, its source, the BOM length
/// and, when there is no BOM, the bytes as text if they are valid UTF-8.
fn sniff<'b>(
    bytes: &'b [u8],
    url: Option<&str>,
    transport_charset: Option<&str>,
) -> (&'static Encoding, EncodingSource, usize, Option<&'b str>) {
    if let Some((enc, len)) = Encoding::for_bom(bytes) {
        return (enc, EncodingSource::Bom, len, None);
    }
    if let Some(enc) = utf16_by_bytes(bytes) {
        let declared = transport_charset
            .and_then(|l| Encoding::for_label(l.as_bytes()))
            .is_some_and(|e| e == encoding_rs::UTF_16LE || e == encoding_rs::UTF_16BE);
        let src = match declared {
            true => EncodingSource::Transport,
            false => EncodingSource::Detected,
        };
        return (enc, src, 0, None);
    }
    let declared = transport_charset
        .and_then(|l| label_to_encoding(l.as_bytes()))
        .map(|e| (e, EncodingSource::Transport))
        .or_else(|| meta_charset(bytes).map(|e| (e, EncodingSource::Meta)));
    let valid = std::str::from_utf8(bytes).ok();
    let detected = || {
        let tld = url.and_then(tld_of);
        let enc = detect(bytes, tld.as_deref().map(str::as_bytes));
        (enc, EncodingSource::Detected)
    };
    let (enc, src) = match declared {
        Some((enc, src)) if enc == UTF_8 => match valid {
            Some(_) => (UTF_8, src),
            None => match far_from_utf8(bytes) {
                Some(counts) => match detected() {
                    (enc, how) if counts.explained_by(enc) => (enc, how),
                    _ => (UTF_8, src),
                },
                None => (UTF_8, src),
            },
        },
        // A legacy multi-byte label: UTF-8 only on evidence that rules out
        // chance (see `utf8_despite_multibyte_label`).
        Some((enc, src)) if !enc.is_single_byte() => {
            utf8_despite_multibyte_label(bytes, valid, enc).map_or((enc, src), |how| (UTF_8, how))
        }
        Some((enc, src)) if bytes.is_ascii() => (enc, src),
        _ if valid.is_some() => (UTF_8, EncodingSource::Utf8Valid),
        _ if mostly_utf8(bytes) => (UTF_8, EncodingSource::Utf8Mostly),
        Some((enc, src)) => (enc, src),
        None => detected(),
    };
    (enc, src, 0, valid)
}

/// How many distinct characters of two or more bytes valid UTF-8 must hold
/// to be read as UTF-8 under a legacy multi-byte label (GBK and GB18030,
/// Big5, Shift_JIS, EUC-JP, EUC-KR, ISO-2022-JP) when the labelled encoding
/// can read the bytes too.
///
/// The rule is set by how often text truly in those encodings is valid
/// UTF-8 by chance. A legacy character is two bytes, a lead of 0x81 or
/// more and a trail; it forms a UTF-8 character by itself only when its
/// lead is 0xC2–0xDF and its trail 0x80–0xBF, and two in a row form three-
/// or four-byte characters only with continuation bytes where their leads
/// stand. Measured on the Chinese, Japanese and Korean pages of the shared
/// data encoded in each (the test `legacy_text_is_rarely_valid_utf8_by_chance`:
/// 254 Chinese pages in GBK and Big5, 15 Japanese ones in Shift_JIS and
/// EUC-JP, 3 Korean ones in EUC-KR), a character alone is valid UTF-8 15.2%
/// of the time in GBK (the worst: its common leads are 0xC2–0xDF), 9.5% in
/// EUC-JP, 5.4% in EUC-KR, 0.6% in Big5 and never in Shift_JIS (kana and
/// most kanji leads, 0x82–0x9F, are continuation bytes); two neighbours are
/// valid together as often as two independent characters are (2.4% in GBK
/// against 15.2%² = 2.3%; 0.2% in Shift_JIS). So `k` distinct legacy
/// characters are all valid by chance with a probability of about 0.152^k
/// at worst: 8 give 3·10⁻⁷, while a page truly in UTF-8 holds that many
/// distinct characters in any line of Chinese, Japanese, Korean, Russian
/// or Greek.
///
/// Distinct, because repetition defeats a plain count: `投票` ("vote") in
/// GBK is the valid UTF-8 `ͶƱ`, and a short page may repeat it a dozen
/// times. A page with fewer distinct characters is read as labelled unless
/// the label's decoder rejects its bytes (a UTF-8 `’` is no Big5 or EUC-KR
/// character): a few such characters may be UTF-8 by chance, and the label
/// is then the better evidence.
pub const UTF8_DISTINCT_CHARACTERS: usize = 8;

/// Under the legacy multi-byte label `label`, how the bytes are UTF-8 if
/// they are ([`UTF8_DISTINCT_CHARACTERS`] says when): valid, or valid but
/// for a character cut by the end of the bytes (a truncated download).
/// Bytes that are ASCII are the label's (its encodings read ASCII alike;
/// ISO-2022-JP's text is ASCII bytes).
fn utf8_despite_multibyte_label(
    bytes: &[u8],
    valid: Option<&str>,
    label: &'static Encoding,
) -> Option<EncodingSource> {
    let (text, how) = match valid {
        Some(text) => (text, EncodingSource::Utf8Valid),
        None => {
            let e = std::str::from_utf8(bytes).err()?;
            if e.error_len().is_some() {
                return None;
            }
            let text = std::str::from_utf8(&bytes[..e.valid_up_to()]).ok()?;
            (text, EncodingSource::Utf8Mostly)
        }
    };
    if text.is_ascii() {
        return None;
    }
    let evident = distinct_multibyte_at_least(text, UTF8_DISTINCT_CHARACTERS)
        || label
            .decode_without_bom_handling_and_without_replacement(text.as_bytes())
            .is_none();
    evident.then_some(how)
}

/// Whether `text` holds at least `n` distinct characters of two or more
/// bytes (stops at the `n`th).
fn distinct_multibyte_at_least(text: &str, n: usize) -> bool {
    let mut seen: Vec<char> = Vec::with_capacity(n);
    for c in text.chars().filter(|c| !c.is_ascii()) {
        if !seen.contains(&c) {
            seen.push(c);
            if seen.len() >= n {
                return true;
            }
        }
    }
    false
}

/// Whether bytes that are not valid UTF-8 are far from it: more invalid
/// sequences than characters of two or more bytes; if so, their counts.
/// Under a UTF-8 label such bytes are detected as unlabelled ones are,
/// and the detection taken when [`Utf8Counts::explained_by`] says it
/// explains them: the label is wrong about most of the page's non-ASCII
/// text (a page in windows-1252 or GBK behind a template or server that
/// says UTF-8). Bytes nearer UTF-8 keep the label, with U+FFFD for their
/// invalid sequences: a label is evidence, so they need less than
/// unlabelled bytes, which [`mostly_utf8`] reads as UTF-8 only with twice
/// as many characters as invalid sequences.
pub fn far_from_utf8(bytes: &[u8]) -> Option<Utf8Counts> {
    let (multibyte, invalid) = utf8_counts(bytes);
    (multibyte < invalid).then_some(Utf8Counts { multibyte, invalid })
}

/// Bytes read as UTF-8: their characters of two or more bytes and their
/// invalid sequences.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Utf8Counts {
    /// Valid characters of two or more bytes.
    pub multibyte: usize,
    /// Invalid sequences, as `Utf8Chunks` cuts them.
    pub invalid: usize,
}

impl Utf8Counts {
    /// How many invalid sequences per valid character a single-byte
    /// encoding needs before it replaces a UTF-8 label.
    ///
    /// The choice: a legacy multi-byte encoding (GBK, Big5, EUC-KR …)
    /// that the detector names explains bytes with more invalid sequences
    /// than characters, since its own characters are valid UTF-8 by chance
    /// (a GBK character 15.2% of the time: `UTF8_DISTINCT_CHARACTERS`), so
    /// the ratio of a GBK page runs from 2.1 to 6 (the shared data's
    /// Chinese gold text encoded in GBK: median 3.9). Text in a single-byte
    /// encoding is almost never valid UTF-8 by chance (an accented letter
    /// followed by a letter never is), so valid characters beside it are
    /// UTF-8 truly written: a page that mixes both (a CMS pasting UTF-8
    /// into Latin-1 templates, or the other way round) keeps its label
    /// unless its invalid sequences outnumber its characters three to one.
    pub const SINGLE_BYTE_RATIO: usize = 3;

    /// Whether `detected` explains these bytes better than their UTF-8
    /// label ([`Utf8Counts::SINGLE_BYTE_RATIO`] says when).
    pub fn explained_by(self, detected: &'static Encoding) -> bool {
        if detected == UTF_8 {
            return false;
        }
        match detected.is_single_byte() {
            true => self.invalid > Self::SINGLE_BYTE_RATIO * self.multibyte,
            false => true,
        }
    }
}

/// Whether bytes that are not valid UTF-8 are UTF-8 but for a few invalid
/// sequences: at least one character of two or more bytes, and at least
/// twice as many of them as invalid sequences (a sequence cut by the end of
/// the bytes counts as one). Text in a legacy encoding is the other way
/// round: its non-ASCII bytes rarely form valid UTF-8 sequences (in
/// windows-1252 an accented letter followed by a letter never does), so
/// its invalid sequences outnumber its accidental valid ones. Of the 174
/// pages under `../shared/data` that are not valid UTF-8, the two this
/// takes for UTF-8 declare UTF-8.
///
/// Each valid stretch is checked by `std::str::from_utf8` (vectorised) and
/// its lead bytes counted in a loop that vectorises too, where
/// `Utf8Chunks` goes byte by byte.
pub fn mostly_utf8(bytes: &[u8]) -> bool {
    let (multibyte, invalid) = utf8_counts(bytes);
    multibyte > 0 && multibyte >= 2 * invalid
}

/// The characters of two or more bytes and the invalid sequences of
/// `bytes` read as UTF-8 ([`mostly_utf8`] says how they are counted).
fn utf8_counts(bytes: &[u8]) -> (usize, usize) {
    let (mut multibyte, mut invalid) = (0usize, 0usize);
    let mut rest = bytes;
    loop {
        let (valid, skip) = match std::str::from_utf8(rest) {
            Ok(_) => (rest, None),
            Err(e) => (&rest[..e.valid_up_to()], Some(e.error_len())),
        };
        // Lead bytes of the valid part: one per character of 2+ bytes.
        multibyte += valid.iter().filter(|&&b| b >= 0xc0).count();
        match skip {
            None => break,
            Some(len) => {
                invalid += 1;
                // `None`: a sequence cut by the end of the bytes.
                let Some(len) = len else { break };
                rest = &rest[valid.len() + len..];
            }
        }
    }
    (multibyte, invalid)
}

/// How many leading bytes [`utf16_by_bytes`] looks at.
const UTF16_SNIFF_BYTES: usize = 4096;

/// UTF-16 without a byte-order mark, recognised by its bytes: in the first
/// [`UTF16_SNIFF_BYTES`], a NUL in at least a quarter of the byte pairs on
/// one side (the high byte of an ASCII character: markup, digits and
/// spaces are ASCII in any page) and at most a tenth as many on the other.
/// Text in any ASCII-compatible encoding has no NULs; random or binary
/// bytes have as many on both sides.
pub fn utf16_by_bytes(bytes: &[u8]) -> Option<&'static Encoding> {
    let head = &bytes[..bytes.len().min(UTF16_SNIFF_BYTES)];
    let pairs = head.len() / 2;
    // Most pages have no NUL at all: one vectorised search says so.
    if pairs < 4 || memchr::memchr(0, head).is_none() {
        return None;
    }
    let (mut even, mut odd) = (0usize, 0usize);
    for p in head.chunks_exact(2) {
        even += usize::from(p[0] == 0);
        odd += usize::from(p[1] == 0);
    }
    let one_sided = |many: usize, few: usize| many * 4 >= pairs && few * 10 <= many;
    if one_sided(odd, even) {
        Some(encoding_rs::UTF_16LE)
    } else if one_sided(even, odd) {
        Some(encoding_rs::UTF_16BE)
    } else {
        None
    }
}

/// ASCII bytes fed to `chardetng` on either side of each run of non-ASCII
/// bytes by [`detect`].
pub const DETECT_CONTEXT: usize = 8;

/// Statistical detection of a legacy encoding with `chardetng`, fed only
/// the non-ASCII runs of the bytes with [`DETECT_CONTEXT`] bytes of ASCII
/// either side (runs further apart are separated by one space).
///
/// Why not the whole page: `chardetng` costs the same per byte whatever the
/// byte, it was a quarter of the whole pipeline's time on undeclared
/// legacy-encoded pages, and a page is ASCII markup for the most part. Its
/// evidence is which byte follows which: inside a run and at the run's
/// edges (a letter before an accented one), all of which the windows keep;
/// long ASCII stretches tell it nothing about the legacy encoding. In
/// multi-byte encodings a trail byte can be ASCII-valued, but it directly
/// follows a non-ASCII lead byte and so falls inside the context after the
/// run: every run gets its context after it, a run inside the context of
/// the one before too (else a Big5 page whose last character's trail byte
/// is ASCII-valued read as windows-1252: its last character was cut).
/// Checked against feeding whole pages on every page under `../shared/data`
/// and pages made in twelve encodings (the test
/// `windowed_detection_agrees_with_whole_pages`).
pub fn detect(bytes: &[u8], tld: Option<&[u8]>) -> &'static Encoding {
    let mut det = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    let mut fed_to = 0;
    let mut i = 0;
    while let Some(p) = bytes[i..].iter().position(|b| !b.is_ascii()) {
        let run = i + p;
        let mut end = run;
        while end < bytes.len() && !bytes[end].is_ascii() {
            end += 1;
        }
        // `fed_to` may be past `run` (the run stood in the context fed
        // after the last), never past `stop`: `end` is past the last run's.
        let start = run.saturating_sub(DETECT_CONTEXT).max(fed_to);
        let stop = (end + DETECT_CONTEXT).min(bytes.len());
        if start > fed_to && fed_to > 0 {
            det.feed(b" ", false);
        }
        det.feed(&bytes[start..stop], false);
        fed_to = stop;
        i = end;
    }
    det.feed(&[], true);
    det.guess(tld, chardetng::Utf8Detection::Allow)
}

/// [`detect`]'s reference: `chardetng` fed the whole page.
pub fn detect_whole(bytes: &[u8], tld: Option<&[u8]>) -> &'static Encoding {
    let mut det = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    det.feed(bytes, true);
    det.guess(tld, chardetng::Utf8Detection::Allow)
}

/// Maps a charset label to an encoding, as browsers do: UTF-16 labels in a
/// `<meta>` mean UTF-8 (the bytes were ASCII-compatible to be read at all),
/// and `x-user-defined` means windows-1252.
fn label_to_encoding(label: &[u8]) -> Option<&'static Encoding> {
    let enc = Encoding::for_label(label)?;
    if enc == encoding_rs::UTF_16BE || enc == encoding_rs::UTF_16LE {
        return Some(UTF_8);
    }
    if enc == encoding_rs::X_USER_DEFINED {
        return Some(WINDOWS_1252);
    }
    if enc == encoding_rs::REPLACEMENT {
        return None;
    }
    Some(enc)
}

/// The top-level domain of a URL, lower-case ASCII, as chardetng wants it.
fn tld_of(url: &str) -> Option<String> {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let host = rest.split(['/', '?', '#', ':']).next()?;
    let tld = host.rsplit('.').next()?.to_ascii_lowercase();
    let ok = !tld.is_empty() && tld.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
    ok.then_some(tld)
}

/// Finds a charset declared by a `<meta>` element in the page's first bytes.
///
/// A byte-level scan in the spirit of the WHATWG prescan: it skips comments,
/// reads the attributes of each `<meta …>` and looks for `charset=…` or an
/// `http-equiv` `content="…; charset=…"`.
pub fn meta_charset(bytes: &[u8]) -> Option<&'static Encoding> {
    let head = &bytes[..bytes.len().min(PRESCAN_BYTES)];
    let mut i = 0;
    while i < head.len() {
        if head[i] != b'<' {
            i += 1;
            continue;
        }
        if head[i..].starts_with(b"<!--") {
            i = find(head, i + 4, b"-->").map_or(head.len(), |e| e + 3);
            continue;
        }
        let after = i + 1;
        if head.len() >= after + 5
            && head[after..after + 4].eq_ignore_ascii_case(b"meta")
            && (head[after + 4].is_ascii_whitespace() || head[after + 4] == b'/')
        {
            let (attrs, end) = read_attributes(head, after + 4);
            if let Some(enc) = charset_from_meta_attributes(&attrs) {
                return Some(enc);
            }
            i = end;
        } else {
            i += 1;
        }
    }
    None
}

fn find(hay: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    hay.get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|p| p + from)
}

/// An attribute's name and value.
type Attribute = (Vec<u8>, Vec<u8>);

/// Reads `name=value` attributes up to the closing `>`; returns them
/// (names lower-cased) and the index after the tag.
fn read_attributes(s: &[u8], mut i: usize) -> (Vec<Attribute>, usize) {
    let mut attrs = Vec::new();
    loop {
        while i < s.len() && (s[i].is_ascii_whitespace() || s[i] == b'/') {
            i += 1;
        }
        if i >= s.len() || s[i] == b'>' {
            return (attrs, i + 1);
        }
        let start = i;
        while i < s.len() && !s[i].is_ascii_whitespace() && !matches!(s[i], b'=' | b'>' | b'/') {
            i += 1;
        }
        let name = s[start..i].to_ascii_lowercase();
        while i < s.len() && s[i].is_ascii_whitespace() {
            i += 1;
        }
        let mut value = Vec::new();
        if i < s.len() && s[i] == b'=' {
            i += 1;
            while i < s.len() && s[i].is_ascii_whitespace() {
                i += 1;
            }
            if i < s.len() && (s[i] == b'"' || s[i] == b'\'') {
                let q = s[i];
                let vs = i + 1;
                let ve = s[vs..]
                    .iter()
                    .position(|&b| b == q)
                    .map_or(s.len(), |p| vs + p);
                value = s[vs..ve].to_vec();
                i = (ve + 1).min(s.len());
            } else {
                let vs = i;
                while i < s.len() && !s[i].is_ascii_whitespace() && s[i] != b'>' {
                    i += 1;
                }
                value = s[vs..i].to_vec();
            }
        }
        if name.is_empty() {
            i += 1;
        } else {
            attrs.push((name, value));
        }
    }
}

fn charset_from_meta_attributes(attrs: &[Attribute]) -> Option<&'static Encoding> {
    let get = |n: &[u8]| {
        attrs
            .iter()
            .find(|(k, _)| k == n)
            .map(|(_, v)| v.as_slice())
    };
    if let Some(label) = get(b"charset") {
        return label_to_encoding(trim(label));
    }
    let content = get(b"content")?;
    let equiv = get(b"http-equiv")?;
    if !equiv.eq_ignore_ascii_case(b"content-type") {
        return None;
    }
    charset_from_content_type(content)
}

/// Extracts the charset of a `Content-Type` value such as `text/html; charset=utf-8`.
pub fn charset_from_content_type(value: &[u8]) -> Option<&'static Encoding> {
    let lower = value.to_ascii_lowercase();
    let pos = find(&lower, 0, b"charset")?;
    let mut rest = &value[pos + 7..];
    rest = trim_start(rest);
    rest = rest.strip_prefix(b"=")?;
    rest = trim_start(rest);
    let label = match rest.first() {
        Some(&q @ (b'"' | b'\'')) => {
            let r = &rest[1..];
            &r[..r.iter().position(|&b| b == q).unwrap_or(r.len())]
        }
        _ => {
            let end = rest
                .iter()
                .position(|&b| b == b';' || b.is_ascii_whitespace())
                .unwrap_or(rest.len());
            &rest[..end]
        }
    };
    label_to_encoding(label)
}

fn trim_start(s: &[u8]) -> &[u8] {
    let n = s.iter().take_while(|b| b.is_ascii_whitespace()).count();
    &s[n..]
}

fn trim(s: &[u8]) -> &[u8] {
    let s = trim_start(s);
    let n = s
        .iter()
        .rev()
        .take_while(|b| b.is_ascii_whitespace())
        .count();
    &s[..s.len() - n]
}

/// Removes a leading CleanEval pseudo-tag line `<text id="URL" …>` and
/// returns the rest with the URL it names.
fn strip_pseudo_tag(bytes: &[u8]) -> (&[u8], Option<String>) {
    let lead = bytes.iter().take_while(|b| b.is_ascii_whitespace()).count();
    let rest = &bytes[lead..];
    if rest.len() < 6 || !rest[..6].eq_ignore_ascii_case(b"<text ") {
        return (bytes, None);
    }
    let line_end = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
    let line = &rest[..line_end];
    if !line.ends_with(b">") && !line.ends_with(b">\r") {
        return (bytes, None);
    }
    let (attrs, _) = read_attributes(line, 5);
    let url = attrs
        .iter()
        .find(|(k, _)| k == b"id")
        .map(|(_, v)| String::from_utf8_lossy(v).into_owned())
        .filter(|u| !u.is_empty());
    let after = (lead + line_end + 1).min(bytes.len());
    (&bytes[after..], url)
}

#[cfg(test)]
mod tests;
