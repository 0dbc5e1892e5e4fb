//! Parquet output: the JSON Lines record of each document as a row.
//!
//! The worker renders each document as the JSON Lines record
//! ([`ncleaner::format::CleanedRecord`]); this sink reads the record back
//! into the columns of [`schema`], so the two outputs cannot disagree:
//! a row read back as a dict (pyarrow's `to_pylist()`) is the JSON line
//! with the fields it leaves out as `None`. The schema is the same
//! whatever the run's options (an option that is off leaves its column
//! null), so the files of several runs can be read as one dataset.
//!
//! A failed document is a row with its `id`, `url` and `error` and no
//! text, as it is a line of its own in JSON Lines: the output has a row
//! for every document. A record of a JSON Lines or Parquet input judged
//! not a document (a PNG, a PDF) is a row with its `id`, `url` and
//! `skipped` (why), as in JSON Lines ([`Entry::skip_has_record`]): such an
//! input gets a row for every record. What other inputs hold that is not
//! a document (a WARC `request` record, an image in a folder) has none.
//!
//! Rows are collected [`BATCH_ROWS`] at a time (or [`BATCH_BYTES`]) into
//! Arrow arrays, and a row group is closed when it holds about
//! [`ROW_GROUP_BYTES`] of encoded data, so memory stays bounded whatever
//! the number of documents. Columns are compressed with zstd.

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;

use arrow_array::builder::{
    ArrayBuilder, Float64Builder, ListBuilder, StringBuilder, StructBuilder, UInt64Builder,
};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Fields, Schema, SchemaRef};
use ncleaner::{Error, Metadata, Result};
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::properties::WriterProperties;
use serde::Deserialize;

use crate::Entry;
use crate::run::{Outcome, Sink, Written};

/// Rows collected before they are turned into Arrow arrays.
pub const BATCH_ROWS: usize = 1024;
/// Bytes of JSON records collected before they are turned into arrays.
pub const BATCH_BYTES: usize = 16 << 20;
/// Encoded bytes of a row group before it is written out and closed: Hugging
/// Face's datasets and DuckDB read row groups of this order well.
pub const ROW_GROUP_BYTES: usize = 128 << 20;

/// The fields of a page's metadata, in the order of its JSON object.
const METADATA_STRINGS: [&str; 7] = [
    "title",
    "date_published",
    "date_modified",
    "site_name",
    "canonical_url",
    "description",
    "language",
];
const METADATA_LISTS: [&str; 3] = ["authors", "tags", "categories"];

fn metadata_fields() -> Fields {
    let mut f: Vec<Field> = METADATA_STRINGS
        .iter()
        .map(|n| Field::new(*n, DataType::Utf8, true))
        .collect();
    f.extend(METADATA_LISTS.iter().map(|n| {
        Field::new(
            *n,
            DataType::List(Arc::new(Field::new("item", DataType::Utf8, true))),
            true,
        )
    }));
    Fields::from(f)
}

fn quality_fields() -> Fields {
    Fields::from(vec![
        Field::new("precision", DataType::Float64, false),
        Field::new("recall", DataType::Float64, false),
    ])
}

/// The columns of a Parquet output, one per field of the JSON Lines
/// record (its `segments` excepted: they are JSON Lines only), `error`
/// for a failed document and `skipped` for a record that is not a
/// document. `truncated` is the record's: why the
/// document was not read whole (a body cut short, a limit of one
/// document), null when it was.
pub fn schema() -> SchemaRef {
    let s = |n: &str| Field::new(n, DataType::Utf8, true);
    let u = |n: &str| Field::new(n, DataType::UInt64, true);
    Arc::new(Schema::new(vec![
        s("id"),
        s("url"),
        s("text"),
        u("words_in"),
        u("words_out"),
        s("language"),
        s("model"),
        Field::new("metadata", DataType::Struct(metadata_fields()), true),
        Field::new("page_quality", DataType::Struct(quality_fields()), true),
        Field::new("page_type", DataType::Struct(page_type_fields()), true),
        s("markdown"),
        s("truncated"),
        s("error"),
        s("skipped"),
    ]))
}

/// The page's type with the classifier's confidence, as the JSON record's
/// `page_type` object has them (null when the model has no page-type
/// classifier).
fn page_type_fields() -> Fields {
    Fields::from(vec![
        Field::new("confidence", DataType::Float64, false),
        Field::new("type", DataType::Utf8, false),
    ])
}

/// The value of the metadata's string field `METADATA_STRINGS[i]`.
fn metadata_string(m: &Metadata, i: usize) -> Option<&str> {
    [
        &m.title,
        &m.date_published,
        &m.date_modified,
        &m.site_name,
        &m.canonical_url,
        &m.description,
        &m.language,
    ][i]
        .as_deref()
}

/// The values of the metadata's list field `METADATA_LISTS[i]`.
fn metadata_list(m: &Metadata, i: usize) -> &[String] {
    [&m.authors, &m.tags, &m.categories][i]
}

#[derive(Debug, Deserialize)]
struct Quality {
    precision: f64,
    recall: f64,
}

#[derive(Debug, Deserialize)]
struct PageType {
    confidence: f64,
    #[serde(rename = "type")]
    kind: String,
}

/// One row: the JSON Lines record read back, or a failed document.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Row {
    id: Option<String>,
    url: Option<String>,
    text: Option<String>,
    words_in: Option<u64>,
    words_out: Option<u64>,
    language: Option<String>,
    model: Option<String>,
    metadata: Option<Metadata>,
    page_quality: Option<Quality>,
    page_type: Option<PageType>,
    markdown: Option<String>,
    truncated: Option<String>,
    error: Option<String>,
    skipped: Option<String>,
}

/// The names of a Parquet output file while it is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Names {
    /// Where it is written.
    pub tmp: PathBuf,
    /// Its final name, where it goes when the run is complete.
    pub fin: PathBuf,
    /// Where it stays when the run stops before its end (`.NAME.partial`,
    /// which the sink that opens it names). A resumed run writes its file
    /// beside the one it continues (`tmp` is then another name), so that
    /// the rows of that one stay readable until the new file is closed.
    pub partial: PathBuf,
}

/// The Parquet sink; see the module documentation.
pub struct ParquetSink {
    w: Option<ArrowWriter<Box<dyn Write + Send>>>,
    name: String,
    rows: Vec<Row>,
    bytes: usize,
    /// The file's names, renamed when finished (none for standard output).
    names: Option<Names>,
}

impl ParquetSink {
    /// A sink writing to `w`, named `name` in messages; `names` says where
    /// the file goes when it is finished (complete or not).
    pub fn new(
        w: Box<dyn Write + Send>,
        name: String,
        names: Option<Names>,
    ) -> Result<ParquetSink> {
        let props = WriterProperties::builder()
            .set_compression(Compression::ZSTD(ZstdLevel::default()))
            .set_created_by(format!("ncleaner {}", env!("CARGO_PKG_VERSION")))
            .build();
        let w = ArrowWriter::try_new(w, schema(), Some(props))
            .map_err(|e| Error::io(&name, std::io::Error::other(e)))?;
        Ok(ParquetSink {
            w: Some(w),
            name,
            rows: Vec::new(),
            bytes: 0,
            names,
        })
    }

    /// Appends the rows of `batch` (of [`schema`]) as they are: the rows of
    /// the file a resumed run continues.
    pub fn append_batch(&mut self, batch: &RecordBatch) -> Result<()> {
        self.write_rows()?;
        let w = self.w.as_mut().expect("not finished");
        w.write(batch).map_err(|e| failed(&self.name, e))?;
        if w.in_progress_size() >= ROW_GROUP_BYTES {
            w.flush().map_err(|e| failed(&self.name, e))?;
        }
        Ok(())
    }

    /// Writes the rows held and the footer, and closes the file.
    fn close(&mut self) -> Result<bool> {
        self.write_rows()?;
        match self.w.take() {
            Some(w) => {
                let mut out = w.into_inner().map_err(|e| self.err(e))?;
                out.flush().map_err(|e| Error::io(&self.name, e))?;
                Ok(true)
            }
            None => Ok(false),
        }
    }

    fn err(&self, e: impl std::fmt::Display) -> Error {
        failed(&self.name, e)
    }

    /// Turns the collected rows into a batch, hands it to the writer, and
    /// closes the row group when it is large enough.
    fn write_rows(&mut self) -> Result<()> {
        if self.rows.is_empty() {
            return Ok(());
        }
        let batch = batch(&self.rows).map_err(|e| self.err(e))?;
        self.rows.clear();
        self.bytes = 0;
        let w = self.w.as_mut().expect("not finished");
        w.write(&batch).map_err(|e| failed(&self.name, e))?;
        if w.in_progress_size() >= ROW_GROUP_BYTES {
            w.flush().map_err(|e| failed(&self.name, e))?;
        }
        Ok(())
    }
}

impl Sink for ParquetSink {
    fn write(&mut self, entry: &Entry, outcome: &Outcome) -> Result<Written> {
        let row = match outcome {
            Outcome::Rendered(r) => {
                self.bytes += r.bytes.len();
                serde_json::from_slice::<Row>(&r.bytes).map_err(|e| {
                    self.err(format!(
                        "{}: the JSON record does not read back: {e}",
                        entry.id
                    ))
                })?
            }
            Outcome::Failed(e) => Row {
                id: Some(entry.id.clone()),
                url: entry.url.clone(),
                error: Some(e.to_string()),
                ..Row::default()
            },
            Outcome::Skipped(why) if entry.skip_has_record() => Row {
                id: Some(entry.id.clone()),
                url: entry.url.clone(),
                skipped: Some(why.clone()),
                ..Row::default()
            },
            Outcome::Skipped(_) | Outcome::Resumed => return Ok(Written::Done),
        };
        self.rows.push(row);
        if self.rows.len() >= BATCH_ROWS || self.bytes >= BATCH_BYTES {
            self.write_rows()?;
        }
        Ok(Written::Done)
    }

    fn finish(&mut self) -> Result<()> {
        if !self.close()? {
            return Ok(());
        }
        let Some(n) = self.names.take() else {
            return Ok(());
        };
        std::fs::rename(&n.tmp, &n.fin).map_err(|e| Error::io(&n.fin, e))?;
        if n.partial != n.tmp {
            // The file this one continued: its rows are in this one now.
            match std::fs::remove_file(&n.partial) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                    return Err(Error::io(&n.partial, e));
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// The file is closed whole (its footer written, so its rows can be
    /// read and a resumed run continues them), and stays under its
    /// temporary name.
    fn finish_incomplete(&mut self) -> Result<()> {
        if !self.close()? {
            return Ok(());
        }
        match self.names.take() {
            Some(n) if n.partial != n.tmp => {
                std::fs::rename(&n.tmp, &n.partial).map_err(|e| Error::io(&n.partial, e))
            }
            _ => Ok(()),
        }
    }
}

/// A write of the file `name` that failed.
fn failed(name: &str, e: impl std::fmt::Display) -> Error {
    Error::io(name, std::io::Error::other(e.to_string()))
}

/// The rows as one record batch of [`schema`].
fn batch(rows: &[Row]) -> std::result::Result<RecordBatch, arrow_schema::ArrowError> {
    let strings = |get: fn(&Row) -> Option<&str>| -> ArrayRef {
        let mut b = StringBuilder::new();
        for r in rows {
            b.append_option(get(r));
        }
        Arc::new(b.finish())
    };
    let counts = |get: fn(&Row) -> Option<u64>| -> ArrayRef {
        let mut b = UInt64Builder::new();
        for r in rows {
            b.append_option(get(r));
        }
        Arc::new(b.finish())
    };
    let columns: Vec<ArrayRef> = vec![
        strings(|r| r.id.as_deref()),
        strings(|r| r.url.as_deref()),
        strings(|r| r.text.as_deref()),
        counts(|r| r.words_in),
        counts(|r| r.words_out),
        strings(|r| r.language.as_deref()),
        strings(|r| r.model.as_deref()),
        metadata_array(rows),
        quality_array(rows),
        page_type_array(rows),
        strings(|r| r.markdown.as_deref()),
        strings(|r| r.truncated.as_deref()),
        strings(|r| r.error.as_deref()),
        strings(|r| r.skipped.as_deref()),
    ];
    RecordBatch::try_new(schema(), columns)
}

fn metadata_array(rows: &[Row]) -> ArrayRef {
    let mut builders: Vec<Box<dyn ArrayBuilder>> = Vec::new();
    for _ in METADATA_STRINGS {
        builders.push(Box::new(StringBuilder::new()));
    }
    for _ in METADATA_LISTS {
        let item = Arc::new(Field::new("item", DataType::Utf8, true));
        builders.push(Box::new(
            ListBuilder::new(StringBuilder::new()).with_field(item),
        ));
    }
    let mut b = StructBuilder::new(metadata_fields(), builders);
    let empty = Metadata::default();
    for r in rows {
        let m = r.metadata.as_ref().unwrap_or(&empty);
        for i in 0..METADATA_STRINGS.len() {
            b.field_builder::<StringBuilder>(i)
                .expect("a string field")
                .append_option(metadata_string(m, i));
        }
        for i in 0..METADATA_LISTS.len() {
            let list = b
                .field_builder::<ListBuilder<StringBuilder>>(METADATA_STRINGS.len() + i)
                .expect("a list field");
            for v in metadata_list(m, i) {
                list.values().append_value(v);
            }
            // A struct that is null has null fields.
            list.append(r.metadata.is_some());
        }
        b.append(r.metadata.is_some());
    }
    Arc::new(b.finish())
}

fn quality_array(rows: &[Row]) -> ArrayRef {
    let builders: Vec<Box<dyn ArrayBuilder>> = vec![
        Box::new(Float64Builder::new()),
        Box::new(Float64Builder::new()),
    ];
    let mut b = StructBuilder::new(quality_fields(), builders);
    for r in rows {
        let q = r.page_quality.as_ref();
        for (i, v) in [q.map(|q| q.precision), q.map(|q| q.recall)]
            .into_iter()
            .enumerate()
        {
            b.field_builder::<Float64Builder>(i)
                .expect("a float field")
                .append_value(v.unwrap_or(0.0));
        }
        b.append(q.is_some());
    }
    Arc::new(b.finish())
}

fn page_type_array(rows: &[Row]) -> ArrayRef {
    let builders: Vec<Box<dyn ArrayBuilder>> = vec![
        Box::new(Float64Builder::new()),
        Box::new(StringBuilder::new()),
    ];
    let mut b = StructBuilder::new(page_type_fields(), builders);
    for r in rows {
        let t = r.page_type.as_ref();
        b.field_builder::<Float64Builder>(0)
            .expect("a float field")
            .append_value(t.map_or(0.0, |t| t.confidence));
        b.field_builder::<StringBuilder>(1)
            .expect("a string field")
            .append_value(t.map_or("", |t| t.kind.as_str()));
        b.append(t.is_some());
    }
    Arc::new(b.finish())
}
