//! What a run writes: each document rendered in one of the library's
//! formats ([`Format`]), or a container of documents that this crate
//! writes: WARC (the input's records, each cleaned one followed by a
//! `conversion` record holding its text) and Parquet (the JSON Lines
//! record's fields as columns).

use ncleaner::format::{self, Format};

/// An output: a rendering of each document, or a container of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum OutputFormat {
    /// CleanEval: `URL:` line, then `<p>`/`<h>`/`<l>` segments.
    Cleaneval,
    /// Plain text: kept segments, one per line.
    Text,
    /// JSON Lines: one object per document.
    Jsonl,
    /// Markdown: the kept segments with their structure.
    Markdown,
    /// WARC: the input records, each cleaned one followed by a `conversion`
    /// record holding its text ([`Format::Text`]).
    Warc,
    /// Parquet: the JSON Lines record's fields ([`Format::Jsonl`]) as columns.
    Parquet,
}

impl OutputFormat {
    /// Every output, in the order the command line lists them.
    pub const ALL: [OutputFormat; 6] = [
        OutputFormat::Text,
        OutputFormat::Jsonl,
        OutputFormat::Markdown,
        OutputFormat::Parquet,
        OutputFormat::Warc,
        OutputFormat::Cleaneval,
    ];

    /// The output's name on the command line (`text`, `jsonl`, `markdown`,
    /// `parquet`, `warc`, `cleaneval`); [`str::parse`] reads it back.
    pub fn as_str(self) -> &'static str {
        match self {
            OutputFormat::Warc => "warc",
            OutputFormat::Parquet => "parquet",
            other => other.rendering().as_str(),
        }
    }

    /// The file extension of an output file.
    pub fn extension(self) -> &'static str {
        match self {
            OutputFormat::Warc => "warc",
            OutputFormat::Parquet => "parquet",
            other => other.rendering().extension(),
        }
    }

    /// Whether the output prints the pages' metadata ([`ncleaner::Cleaned::metadata`]):
    /// JSON Lines and Parquet in their records' `metadata`, WARC in the
    /// fields of its `conversion` records ([`crate::warc::metadata_fields`]);
    /// text, Markdown and CleanEval hold the kept text alone. An output
    /// that does not has its pages cleaned without the metadata completed
    /// from the decisions ([`ncleaner::Cleaner::with_completed_metadata`]).
    pub fn prints_metadata(self) -> bool {
        match self {
            OutputFormat::Jsonl | OutputFormat::Parquet | OutputFormat::Warc => true,
            OutputFormat::Text | OutputFormat::Markdown | OutputFormat::Cleaneval => false,
        }
    }

    /// How each document is rendered: a WARC's `conversion` records hold
    /// its text, a Parquet file's rows its JSON Lines record.
    pub fn rendering(self) -> Format {
        match self {
            OutputFormat::Cleaneval => Format::Cleaneval,
            OutputFormat::Text | OutputFormat::Warc => Format::Text,
            OutputFormat::Jsonl | OutputFormat::Parquet => Format::Jsonl,
            OutputFormat::Markdown => Format::Markdown,
        }
    }

    /// Writes one cleaned document as this output holds it: a WARC's
    /// `conversion` record holds the plain text ([`format::write_text`]: a
    /// record is one document, so no line of it is escaped as a document's
    /// line), every other output the library's rendering
    /// ([`format::write`]).
    pub fn write(
        self,
        w: &mut impl std::io::Write,
        doc: &ncleaner::Cleaned,
        id: Option<&str>,
        opts: format::JsonOptions,
    ) -> std::io::Result<()> {
        match self {
            OutputFormat::Warc => format::write_text(w, doc),
            other => format::write(w, other.rendering(), doc, id, opts),
        }
    }

    /// The line that starts a document where several share one stream
    /// ([`format::document_line`]); `None` for WARC and Parquet, whose
    /// records carry the id and URL.
    pub fn document_line(self, id: &str, url: Option<&str>, has_url: bool) -> Option<String> {
        match self {
            OutputFormat::Warc | OutputFormat::Parquet => None,
            other => format::document_line(other.rendering(), id, url, has_url),
        }
    }
}

impl std::str::FromStr for OutputFormat {
    type Err = String;

    /// Reads a name of [`OutputFormat::as_str`].
    fn from_str(s: &str) -> Result<OutputFormat, String> {
        OutputFormat::ALL
            .into_iter()
            .find(|f| f.as_str() == s)
            .ok_or_else(|| {
                let names = OutputFormat::ALL.map(OutputFormat::as_str).join(", ");
                format!("unknown format {s:?} ({names})")
            })
    }
}

impl std::fmt::Display for OutputFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every output's name reads back; each rendering of the library is
    /// the output of its own name; the containers render text and JSON
    /// Lines and start no document with a line of their own.
    #[test]
    fn outputs_name_their_renderings() {
        for o in OutputFormat::ALL {
            assert_eq!(o.as_str().parse::<OutputFormat>(), Ok(o));
            assert_eq!(o.to_string(), o.as_str());
        }
        for f in Format::ALL {
            let o: OutputFormat = f.as_str().parse().unwrap();
            assert_eq!(o.rendering(), f);
        }
        assert_eq!(OutputFormat::Warc.rendering(), Format::Text);
        assert_eq!(OutputFormat::Parquet.rendering(), Format::Jsonl);
        assert_eq!(OutputFormat::Warc.extension(), "warc");
        assert_eq!(OutputFormat::Markdown.extension(), "md");
        assert!(OutputFormat::Text.document_line("a", None, false).is_some());
        assert_eq!(OutputFormat::Warc.document_line("a", None, false), None);
        assert_eq!(OutputFormat::Parquet.document_line("a", None, false), None);
        // JSON Lines records hold the metadata: every output of them prints it.
        for o in OutputFormat::ALL {
            if o.rendering() == Format::Jsonl {
                assert!(o.prints_metadata(), "{o}");
            }
        }
        assert!(OutputFormat::Warc.prints_metadata());
        assert!(
            "xml"
                .parse::<OutputFormat>()
                .unwrap_err()
                .contains("parquet, warc")
        );
    }
}
