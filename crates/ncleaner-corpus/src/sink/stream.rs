//! The sinks of one stream: every document's rendering in input order
//! ([`StreamSink`]), or a WARC file of the input's records and the
//! conversions ([`WarcSink`]); see the parent module's documentation.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::{MEMBER_BYTES, rename_done};
use crate::compress::Output;
use crate::run::{Outcome, Sink, Written};
use crate::{Container, Entry, OutputFormat, warc};
use ncleaner::{Error, InputKind, Result};

pub(super) fn stream_or_warc(
    out: Output,
    name: String,
    format: OutputFormat,
    gzip: bool,
    rename: Option<(PathBuf, PathBuf)>,
) -> Box<dyn Sink + Send> {
    if format == OutputFormat::Warc {
        let date = warc::now();
        Box::new(WarcSink {
            w: Some(warc::Writer::new(out, gzip).with_date(date.clone())),
            name,
            date,
            rename,
        })
    } else {
        Box::new(StreamSink {
            out: Some(out),
            name,
            format,
            rename,
            documents: 0,
            first: None,
            written: 0,
            since_cut: 0,
        })
    }
}

/// The JSON line of a failed document.
pub fn json_error_line(entry: &Entry, error: &Error) -> Vec<u8> {
    let v = serde_json::json!({
        "id": entry.id,
        "url": entry.url,
        "error": error.to_string(),
    });
    let mut line = serde_json::to_vec(&v).expect("JSON values serialise");
    line.push(b'\n');
    line
}

/// The JSON line of a record skipped as no document
/// ([`Entry::skip_has_record`]): `{"id":…,"url":…,"skipped":why}`.
pub fn json_skipped_line(entry: &Entry, why: &str) -> Vec<u8> {
    let v = serde_json::json!({
        "id": entry.id,
        "url": entry.url,
        "skipped": why,
    });
    let mut line = serde_json::to_vec(&v).expect("JSON values serialise");
    line.push(b'\n');
    line
}

/// All outputs to one stream; see the module documentation.
///
/// In the formats whose documents need a line that names them where
/// several share the stream ([`OutputFormat::document_line`]), the first
/// document is held until a second one comes (then both are written, each
/// after its line) or the stream ends (then it is written alone, as a
/// single page's output always was).
pub struct StreamSink {
    out: Option<Output>,
    name: String,
    format: OutputFormat,
    /// (temporary, final) names of the file, renamed when finished.
    rename: Option<(PathBuf, PathBuf)>,
    /// Documents rendered so far.
    documents: u64,
    /// The first document's line and rendering, while it is the only one.
    first: Option<(Option<String>, Vec<u8>)>,
    /// Documents written so far.
    written: u64,
    /// Bytes written since the last gzip member or zstd frame began.
    since_cut: usize,
}

/// A document's line ([`OutputFormat::document_line`]) in `format`.
fn document_line(format: OutputFormat, entry: &Entry, bytes: &[u8]) -> Option<String> {
    format.document_line(&entry.id, entry.url.as_deref(), bytes.starts_with(b"URL: "))
}

impl StreamSink {
    /// Writes a document after its line; in Markdown, a document after
    /// the first gets a blank line before its line too.
    fn write_named(&mut self, line: Option<&str>, bytes: &[u8]) -> std::io::Result<()> {
        let markdown_after_first = self.format == OutputFormat::Markdown && self.written > 0;
        let out = self.out.as_mut().expect("not finished");
        if let Some(line) = line {
            if markdown_after_first {
                out.write_all(b"\n")?;
            }
            out.write_all(line.as_bytes())?;
            self.since_cut += line.len();
        }
        self.written += 1;
        self.since_cut += bytes.len();
        out.write_all(bytes)
    }

    /// Starts a new gzip member or zstd frame when the current one holds
    /// [`MEMBER_BYTES`] (called between records).
    fn maybe_cut(&mut self) -> std::io::Result<()> {
        match self.out.as_mut() {
            Some(out) if out.is_compressed() && self.since_cut >= MEMBER_BYTES => {
                self.since_cut = 0;
                out.cut()
            }
            _ => Ok(()),
        }
    }

    /// Writes what is held and ends the stream; renames the file to its
    /// final name when `complete`.
    fn close(&mut self, complete: bool) -> Result<()> {
        if let Some((_, bytes)) = self.first.take() {
            self.write_named(None, &bytes)
                .map_err(|e| Error::io(&self.name, e))?;
        }
        match self.out.take() {
            Some(out) => {
                out.finish().map_err(|e| Error::io(&self.name, e))?;
                match complete {
                    true => rename_done(self.rename.take()),
                    false => Ok(()),
                }
            }
            None => Ok(()),
        }
    }
}

impl Sink for StreamSink {
    fn write(&mut self, entry: &Entry, outcome: &Outcome) -> Result<Written> {
        let res = match outcome {
            Outcome::Rendered(r)
                if matches!(self.format, OutputFormat::Jsonl | OutputFormat::Warc) =>
            {
                self.write_named(None, &r.bytes)
            }
            Outcome::Rendered(r) => {
                self.documents += 1;
                let line = document_line(self.format, entry, &r.bytes);
                match self.documents {
                    1 => {
                        self.first = Some((line, r.bytes.clone()));
                        Ok(())
                    }
                    n => {
                        let held = self.first.take();
                        let first = match &held {
                            Some((l, b)) if n == 2 => self.write_named(l.as_deref(), b),
                            _ => Ok(()),
                        };
                        first.and_then(|_| self.write_named(line.as_deref(), &r.bytes))
                    }
                }
            }
            Outcome::Failed(e) if self.format == OutputFormat::Jsonl => {
                let line = json_error_line(entry, e);
                self.since_cut += line.len();
                self.out.as_mut().expect("not finished").write_all(&line)
            }
            Outcome::Skipped(why)
                if self.format == OutputFormat::Jsonl && entry.skip_has_record() =>
            {
                let line = json_skipped_line(entry, why);
                self.since_cut += line.len();
                self.out.as_mut().expect("not finished").write_all(&line)
            }
            _ => Ok(()),
        };
        res.and_then(|_| self.maybe_cut())
            .map_err(|e| Error::io(&self.name, e))?;
        Ok(Written::Done)
    }

    fn finish(&mut self) -> Result<()> {
        self.close(true)
    }

    fn finish_incomplete(&mut self) -> Result<()> {
        self.close(false)
    }
}

/// A WARC file; see the module documentation.
pub struct WarcSink {
    w: Option<warc::Writer<Output>>,
    name: String,
    /// The date of the `resource` records of documents that were not in a WARC file.
    date: String,
    /// (temporary, final) names of the file, renamed when finished.
    rename: Option<(PathBuf, PathBuf)>,
}

impl Sink for WarcSink {
    fn write(&mut self, entry: &Entry, outcome: &Outcome) -> Result<Written> {
        let w = self.w.as_mut().expect("not finished");
        let (text, extra) = match outcome {
            Outcome::Rendered(r) => (Some(r.bytes.as_slice()), r.warc_fields.as_slice()),
            _ => (None, &[][..]),
        };
        let res = match (&entry.record, text) {
            (Some(rec), text) => w
                .write_record(rec)
                .and_then(|_| text.map_or(Ok(()), |t| w.write_conversion_with(rec, t, extra))),
            (None, Some(text)) => {
                let content_type = match entry.document.as_ref().and_then(|d| d.kind) {
                    Some(InputKind::Text) => "text/plain",
                    _ => "text/html",
                };
                // A file is its own URI; a record of JSON Lines or Parquet
                // without a URL has none (its id is no path to look up).
                let uri = match (&entry.url, &entry.input.origin) {
                    (Some(url), _) => Some(url.clone()),
                    (None, crate::Origin::File { path, .. })
                        if entry.input.container == Container::Document =>
                    {
                        Some(file_uri(path))
                    }
                    _ => None,
                };
                // The id of a JSON line or Parquet row is the data's, which
                // several may share: its place in its input tells them apart.
                let seed = match &entry.place {
                    Some(place) => format!("{place}\n{}", entry.id),
                    None => entry.id.clone(),
                };
                w.write_resource(
                    &seed,
                    uri.as_deref(),
                    content_type,
                    &self.date,
                    entry.bytes(),
                )
                .and_then(|res| w.write_conversion_with(&res, text, extra))
            }
            (None, None) => Ok(()),
        };
        res.map_err(|e| Error::io(&self.name, e))?;
        Ok(Written::Done)
    }

    fn finish(&mut self) -> Result<()> {
        self.close(true)
    }

    fn finish_incomplete(&mut self) -> Result<()> {
        self.close(false)
    }
}

impl WarcSink {
    /// Ends the file; renames it to its final name when `complete`.
    fn close(&mut self, complete: bool) -> Result<()> {
        match self.w.take() {
            Some(w) => {
                w.into_inner()
                    .finish()
                    .map_err(|e| Error::io(&self.name, e))?;
                match complete {
                    true => rename_done(self.rename.take()),
                    false => Ok(()),
                }
            }
            None => Ok(()),
        }
    }
}

/// A `file:` URI for a document known only by its path (its bytes as
/// they are, a name that is not UTF-8 too, percent-encoded).
pub(super) fn file_uri(path: &Path) -> String {
    let abs = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let mut out = String::from("file://");
    for &b in abs.as_os_str().as_encoded_bytes() {
        if b.is_ascii_alphanumeric() || b"/-_.~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}
