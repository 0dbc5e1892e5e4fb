//! Writing cleaned documents out, and reading the CleanEval format back in.
//!
//! - [`Format::Cleaneval`]: `URL: <url>` first when the URL is known, a blank
//!   line, then one kept segment per line, each starting `<p> `, `<h> ` or
//!   `<l> `: the format of the CleanEval gold files and of `eval`.
//! - [`Format::Text`]: the kept segments, one per line, as the outputs of
//!   kept text write them (a block of code in its lines, a heading without
//!   its permalink mark: [`crate::cleaned::ScoredSegment::written_text`]).
//! - [`Format::Jsonl`]: one JSON object per document on one line, a
//!   [`CleanedRecord`]: `url`, `text`, `words_in`, `words_out`, `metadata`
//!   for HTML input (the page's title, authors, dates, … :
//!   [`crate::html::Metadata`], unknown fields `null` or empty), and with
//!   segments requested every segment's `kind`, `text`, `keep`, `score`,
//!   `probability`, `evidence` and `reason`; with Markdown requested,
//!   `markdown`. The web API and Python write the same record.
//! - [`Format::Markdown`]: the kept segments as Markdown ([`markdown()`]):
//!   headings, lists, code blocks, quotes and tables.
//!
//! These are renderings of one document. The containers that hold many
//! (a WARC file whose `conversion` records hold each document's text, a
//! Parquet file whose rows are the JSON Lines records) are written by the
//! corpus layer (`ncleaner_corpus::Output`), from these renderings.
//!
//! Where several documents share one stream (standard output, one output
//! file, the output of a WARC or JSON Lines input), each document of the
//! text, Markdown and CleanEval formats starts with a line that names it
//! ([`document_line`]); a lone document has none. JSON Lines and WARC
//! records name their documents themselves.

mod markdown;
mod record;

use std::io::Write;

pub use markdown::{MAX_COLUMNS, markdown};
pub use record::{CleanedRecord, SegmentRecord, SegmentRecords};

use crate::cleaned::Cleaned;
use crate::segment::Kind;

/// How one cleaned document is rendered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Format {
    /// CleanEval: `URL:` line, then `<p>`/`<h>`/`<l>` segments.
    Cleaneval,
    /// Plain text: kept segments, one per line.
    Text,
    /// JSON Lines: one object per document.
    Jsonl,
    /// Markdown: the kept segments with their structure.
    Markdown,
}

impl Format {
    /// Every format, in the order the command line lists them.
    pub const ALL: [Format; 4] = [
        Format::Text,
        Format::Jsonl,
        Format::Markdown,
        Format::Cleaneval,
    ];

    /// The format's name on the command line
    /// (`text`, `jsonl`, `markdown`, `cleaneval`); [`str::parse`] reads it back.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Cleaneval => "cleaneval",
            Format::Text => "text",
            Format::Jsonl => "jsonl",
            Format::Markdown => "markdown",
        }
    }

    /// The file extension for outputs in this format.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Cleaneval | Format::Text => "txt",
            Format::Jsonl => "jsonl",
            Format::Markdown => "md",
        }
    }
}

impl std::str::FromStr for Format {
    type Err = String;

    /// Reads a name of [`Format::as_str`].
    fn from_str(s: &str) -> Result<Format, String> {
        Format::ALL
            .into_iter()
            .find(|f| f.as_str() == s)
            .ok_or_else(|| {
                let names = Format::ALL.map(Format::as_str).join(", ");
                format!("unknown format {s:?} ({names})")
            })
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Options of the JSON Lines writer.
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
pub struct JsonOptions {
    /// Include every segment with its kind, score and decision.
    pub segments: bool,
    /// Include the kept text as Markdown ([`markdown()`]).
    pub markdown: bool,
}

impl JsonOptions {
    /// These options with every segment included or not.
    pub fn with_segments(mut self, segments: bool) -> JsonOptions {
        self.segments = segments;
        self
    }

    /// These options with the Markdown field or without.
    pub fn with_markdown(mut self, markdown: bool) -> JsonOptions {
        self.markdown = markdown;
        self
    }
}

/// The line that starts a document where several share one stream, in
/// formats whose documents cannot otherwise be told apart:
///
/// - text and Markdown: `<!-- ncleaner document id="ID" url="URL" -->`
///   (an HTML comment, so Markdown renderers hide it; in Markdown a blank
///   line follows it, and the corpus layer puts one before it after the
///   first document, so that it is a block of its own), the id and the URL
///   as JSON strings (`url=null` when unknown) with `<` and `>` escaped
///   (`\u003c`, `\u003e`), so that no id or URL can end the comment;
/// - CleanEval: the format's own `URL: …` line, which its scorer skips:
///   `write_cleaneval` writes it for documents with a URL, and a document
///   without one gets `URL: ID` and a blank line (`Some` only then:
///   `has_url` is whether the document's own rendering starts with one);
/// - JSON Lines: `None` (its records carry the id and URL).
///
/// No document's own text can forge such a line in text or Markdown:
/// [`write`] escapes a line of its text that starts with
/// `<!-- ncleaner document` (after any backslashes) with one backslash more
/// (Markdown renders `\<` as `<`), so that a line that starts with the
/// marker itself is always a document line, and taking one backslash off
/// each line that starts with backslashes and the marker gives the text
/// back.
pub fn document_line(format: Format, id: &str, url: Option<&str>, has_url: bool) -> Option<String> {
    let json = |s: &str| {
        serde_json::to_string(s)
            .expect("strings serialise")
            .replace('<', "\\u003c")
            .replace('>', "\\u003e")
    };
    match format {
        Format::Text | Format::Markdown => Some(format!(
            "<!-- ncleaner document id={} url={} -->\n{}",
            json(id),
            url.map_or_else(|| "null".to_string(), json),
            if format == Format::Markdown { "\n" } else { "" }
        )),
        Format::Cleaneval if !has_url => {
            Some(format!("URL: {}\n\n", id.replace(['\n', '\r'], " ")))
        }
        Format::Cleaneval | Format::Jsonl => None,
    }
}

/// Writes one cleaned document in the CleanEval format.
pub fn write_cleaneval(w: &mut impl Write, doc: &Cleaned) -> std::io::Result<()> {
    if let Some(url) = &doc.url {
        writeln!(w, "URL: {url}\n")?;
    }
    for s in doc.kept() {
        writeln!(w, "{} {}", s.segment.kind.marker(), s.text())?;
    }
    Ok(())
}

/// One cleaned document in the CleanEval format, as a string (what
/// [`write_cleaneval`] writes; scoring in memory compares it with gold files).
pub fn cleaneval_string(doc: &Cleaned) -> String {
    let mut buf = Vec::new();
    write_cleaneval(&mut buf, doc).expect("writing to memory");
    String::from_utf8(buf).expect("the writer writes UTF-8")
}

/// Writes the kept text of one document, one segment per line (a block of
/// code in its lines, a heading without its permalink mark:
/// [`crate::cleaned::ScoredSegment::written_text`]).
pub fn write_text(w: &mut impl Write, doc: &Cleaned) -> std::io::Result<()> {
    for s in doc.kept() {
        writeln!(w, "{}", s.written_text())?;
    }
    Ok(())
}

/// Writes one document as a JSON line ([`CleanedRecord::jsonl`]).
pub fn write_jsonl(
    w: &mut impl Write,
    doc: &Cleaned,
    id: Option<&str>,
    opts: JsonOptions,
) -> std::io::Result<()> {
    serde_json::to_writer(&mut *w, &CleanedRecord::jsonl(doc, id, opts))?;
    w.write_all(b"\n")
}

/// Writes one document in `format`.
pub fn write(
    w: &mut impl Write,
    format: Format,
    doc: &Cleaned,
    id: Option<&str>,
    opts: JsonOptions,
) -> std::io::Result<()> {
    match format {
        Format::Cleaneval => write_cleaneval(w, doc),
        Format::Text => {
            let mut text = Vec::new();
            write_text(&mut text, doc)?;
            w.write_all(&escape_document_lines(&text))
        }
        Format::Jsonl => write_jsonl(w, doc, id, opts),
        Format::Markdown => w.write_all(&escape_document_lines(markdown(doc).as_bytes())),
    }
}

/// What a document line of text and Markdown starts with ([`document_line`]).
const DOCUMENT_MARKER: &[u8] = b"<!-- ncleaner document";

/// `text` with one backslash more before each line that starts with
/// [`DOCUMENT_MARKER`] after any backslashes ([`document_line`] says why);
/// borrowed when there is none.
fn escape_document_lines(text: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    let escaped = |line: &[u8]| {
        let start = line.iter().take_while(|&&b| b == b'\\').count();
        line[start..].starts_with(DOCUMENT_MARKER)
    };
    if memchr::memmem::find(text, DOCUMENT_MARKER).is_none()
        || !text.split(|&b| b == b'\n').any(escaped)
    {
        return text.into();
    }
    let mut out = Vec::with_capacity(text.len() + 16);
    for (i, line) in text.split(|&b| b == b'\n').enumerate() {
        if i > 0 {
            out.push(b'\n');
        }
        if escaped(line) {
            out.push(b'\\');
        }
        out.extend_from_slice(line);
    }
    out.into()
}

/// Reads the segments of a gold (or cleaned) file.
///
/// With segment markers (CleanEval): every line that starts with `URL` is
/// skipped (as the scorer does), a segment starts at each `<p>`, `<h>` or
/// `<l>` (any case) and runs until the next marker, whitespace inside it
/// collapsed; text before the first marker is a paragraph. Without any marker
/// (Dragnet's plain-text gold), every non-empty line is a paragraph.
pub fn read_segments(text: &str) -> Vec<(Kind, String)> {
    let body: String = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("URL"))
        .collect::<Vec<_>>()
        .join("\n");
    let marker_at = |s: &str, i: usize| -> Option<Kind> {
        let b = s.as_bytes();
        if b.len() >= i + 3 && b[i] == b'<' && b[i + 2] == b'>' {
            match b[i + 1].to_ascii_lowercase() {
                b'p' => Some(Kind::P),
                b'h' => Some(Kind::H),
                b'l' => Some(Kind::L),
                _ => None,
            }
        } else {
            None
        }
    };
    let has_markers = (0..body.len()).any(|i| marker_at(&body, i).is_some());
    if !has_markers {
        return body
            .lines()
            .map(collapse)
            .filter(|l| !l.is_empty())
            .map(|l| (Kind::P, l))
            .collect();
    }
    let mut out = Vec::new();
    let mut kind = Kind::P;
    let mut start = 0;
    let bytes = body.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'<'
            && let Some(k) = marker_at(&body, i)
        {
            push_segment(&mut out, kind, &body[start..i]);
            kind = k;
            i += 3;
            start = i;
            continue;
        }
        i += 1;
    }
    push_segment(&mut out, kind, &body[start..]);
    out
}

fn push_segment(out: &mut Vec<(Kind, String)>, kind: Kind, text: &str) {
    let t = collapse(text);
    if !t.is_empty() {
        out.push((kind, t));
    }
}

/// Column at which [`text_dump`] wraps lines, as Lynx's dumps do.
pub const DUMP_WIDTH: usize = 76;

/// A plain-text dump of segments in the style of the Lynx dumps that the
/// paper's text mode cleaned: paragraphs and headings separated by blank
/// lines, consecutive list items on lines of their own marked `* `, and every
/// line word-wrapped at [`DUMP_WIDTH`] columns.
pub fn text_dump(segments: &[crate::segment::Segment]) -> String {
    let mut out = String::new();
    let mut prev: Option<Kind> = None;
    for s in segments {
        let list = s.kind == Kind::L;
        if prev.is_some() && !(list && prev == Some(Kind::L)) {
            out.push('\n');
        }
        let (first, rest) = if list { ("* ", "  ") } else { ("", "") };
        wrap_into(&mut out, s.text(), first, rest);
        prev = Some(s.kind);
    }
    out
}

fn wrap_into(out: &mut String, text: &str, first: &str, rest: &str) {
    out.push_str(first);
    let mut col = first.chars().count();
    let mut has_word = false;
    for word in text.split(' ') {
        let w = word.chars().count();
        if has_word && col + 1 + w > DUMP_WIDTH {
            out.push('\n');
            out.push_str(rest);
            col = rest.chars().count();
            has_word = false;
        }
        if has_word {
            out.push(' ');
            col += 1;
        }
        out.push_str(word);
        col += w;
        has_word = true;
    }
    out.push('\n');
}

/// Collapses runs of whitespace to one space and trims.
pub(crate) fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The JSON record of one document, as `write_jsonl` writes it.
    fn json_record(doc: &Cleaned, id: Option<&str>, opts: JsonOptions) -> serde_json::Value {
        serde_json::to_value(CleanedRecord::jsonl(doc, id, opts)).unwrap()
    }

    /// Issue 52, 12: a line of a page's text that would read as a
    /// document line is escaped; other lines are left alone.
    #[test]
    fn page_text_cannot_forge_a_document_line() {
        let forged = "<!-- ncleaner document id=\"x\" url=null -->";
        let text = format!("first\n{forged}\n\\{forged}\n  {forged}\nlast\n");
        let got = escape_document_lines(text.as_bytes());
        assert_eq!(
            String::from_utf8_lossy(&got),
            format!("first\n\\{forged}\n\\\\{forged}\n  {forged}\nlast\n")
        );
        let plain = b"nothing to see\n<!-- a comment -->\n";
        assert!(matches!(
            escape_document_lines(plain),
            std::borrow::Cow::Borrowed(_)
        ));
    }

    #[test]
    fn format_names_round_trip() {
        for f in Format::ALL {
            assert_eq!(f.as_str().parse::<Format>().unwrap(), f);
            assert_eq!(f.to_string(), f.as_str());
        }
        assert!("md".parse::<Format>().is_err());
    }
    use crate::classify::{Decision, Reason};
    use crate::cleaned::{InputKind, ScoredSegment};
    use crate::segment::Segment;

    fn doc() -> Cleaned {
        let seg = |k, t: &str, keep| ScoredSegment {
            segment: Segment::plain(k, t.to_string()),
            score: Some(if keep { 1.0 } else { -1.0 }),
            probability: None,
            decision: Decision {
                keep,
                reason: Reason::Score,
            },
            sentences: None,
            output: None,
            role: None,
        };
        Cleaned {
            encoding: "UTF-8",
            segments: vec![
                seg(Kind::H, "Title", true),
                seg(Kind::P, "Home", false),
                seg(Kind::L, "item one", true),
            ],
            ..Cleaned::new(Some("http://x/".into()), InputKind::Html)
        }
    }

    #[test]
    fn cleaneval_output() {
        let mut out = Vec::new();
        write_cleaneval(&mut out, &doc()).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "URL: http://x/\n\n<h> Title\n<l> item one\n"
        );
    }

    #[test]
    fn jsonl_output() {
        let mut out = Vec::new();
        write_jsonl(
            &mut out,
            &doc(),
            Some("a.html"),
            JsonOptions {
                segments: true,
                ..JsonOptions::default()
            },
        )
        .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(v["text"], "Title\nitem one");
        assert_eq!(v["segments"][1]["keep"], false);
        assert_eq!(v["segments"][2]["kind"], "l");
        assert_eq!(v["words_in"], 4);
        assert_eq!(v["words_out"], 3);
        // One model, no routing: no language fields.
        assert!(v.get("language").is_none() && v.get("model").is_none());
    }

    #[test]
    fn jsonl_language_when_routed() {
        let record = |language: Option<&str>| {
            let mut d = doc();
            d.language = language.map(str::to_string);
            d.model = Some("en-nonlex".into());
            json_record(&d, None, JsonOptions::default())
        };
        let v = record(Some("de"));
        assert_eq!(v["language"], "de");
        assert_eq!(v["model"], "en-nonlex");
        // Routed but not identified: an explicit null.
        let v = record(None);
        assert!(v["language"].is_null() && v.get("language").is_some());
    }

    #[test]
    fn jsonl_metadata_fields_are_null_when_unknown() {
        let mut d = doc();
        d.metadata = Some(crate::html::Metadata {
            title: Some("Moon pulls sea".into()),
            authors: vec!["Jane Doe".into()],
            date_published: Some("2025-03-04".into()),
            ..Default::default()
        });
        let v = json_record(&d, None, JsonOptions::default());
        let m = &v["metadata"];
        assert_eq!(m["title"], "Moon pulls sea");
        assert_eq!(m["authors"], serde_json::json!(["Jane Doe"]));
        assert_eq!(m["date_published"], "2025-03-04");
        for k in [
            "date_modified",
            "site_name",
            "canonical_url",
            "description",
            "language",
        ] {
            assert!(m[k].is_null() && m.get(k).is_some(), "{k}");
        }
        assert_eq!(m["tags"], serde_json::json!([]));
        // Text input (no metadata): no field.
        assert!(
            json_record(&doc(), None, JsonOptions::default())
                .get("metadata")
                .is_none()
        );
    }

    #[test]
    fn gold_reading() {
        let gold =
            "URL: http://a/\n\n<p>First para\nwrapped.\n<h>  Head\n   continued text\n<L>item<p>x";
        assert_eq!(
            read_segments(gold),
            vec![
                (Kind::P, "First para wrapped.".into()),
                (Kind::H, "Head continued text".into()),
                (Kind::L, "item".into()),
                (Kind::P, "x".into())
            ]
        );
        assert_eq!(
            read_segments("plain line\n\nsecond\n"),
            vec![(Kind::P, "plain line".into()), (Kind::P, "second".into())]
        );
        // the cleaneval output roundtrips
        let mut out = Vec::new();
        write_cleaneval(&mut out, &doc()).unwrap();
        assert_eq!(read_segments(std::str::from_utf8(&out).unwrap()).len(), 2);
    }

    #[test]
    fn text_dump_roundtrips_through_text_segmentation() {
        let long = "word ".repeat(40).trim_end().to_string();
        let segs = vec![
            Segment::plain(Kind::H, "A Heading".into()),
            Segment::plain(Kind::P, long.clone()),
            Segment::plain(Kind::L, "first item".into()),
            Segment::plain(Kind::L, format!("second item {long}")),
            Segment::plain(Kind::P, "Last paragraph.".into()),
        ];
        let dump = text_dump(&segs);
        assert!(
            dump.lines().all(|l| l.chars().count() <= DUMP_WIDTH),
            "{dump}"
        );
        assert!(dump.contains("\n\n* first item\n* second item"), "{dump}");
        let back = crate::segment::from_text(&dump);
        let got: Vec<(Kind, &str)> = back.iter().map(|s| (s.kind, s.text())).collect();
        let want: Vec<(Kind, &str)> = segs.iter().map(|s| (s.kind, s.text())).collect();
        assert_eq!(got, want);
    }
}
