//! Parquet input: each row a document, read like a JSON Lines line.
//!
//! The columns are found by name (exact, else in any case): the page in
//! `html` (read as HTML) or `text` (read as a text dump), a row whose
//! `html` is null taking its `text`; `id` (a string or an integer) and
//! `url` when present. A string column is UTF-8 (no `<meta>` overrides it);
//! a binary column holds the page's bytes as crawled, decoded as a file is
//! (byte-order mark, `<meta>` charset, detection). A row without an `id` is
//! named `FILE#ROW`, its row index from 0 as pandas and pyarrow count.
//!
//! Only those columns are read (a projection), a batch of
//! [`BATCH_ROWS`] rows at a time, each column chunk page by page, so a
//! file of any size is read in memory bounded by a batch's pages and
//! rows, whatever its row groups.

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::{
    Int8Type, Int16Type, Int32Type, Int64Type, UInt8Type, UInt16Type, UInt32Type, UInt64Type,
};
use arrow_array::{Array, ArrayRef, RecordBatch};
use arrow_schema::DataType;
use ncleaner::InputKind;
use parquet::arrow::ProjectionMask;
use parquet::arrow::arrow_reader::{ParquetRecordBatchReader, ParquetRecordBatchReaderBuilder};
use parquet::file::reader::ChunkReader;

/// Rows decoded at a time. Pages run to tens or hundreds of KB each, so a
/// batch holds a few MB.
pub const BATCH_ROWS: usize = 64;

/// One document of a Parquet file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParquetDocument {
    /// `id`, when the file has that column and the row a value.
    pub id: Option<String>,
    /// `url`, when the file has that column and the row a value.
    pub url: Option<String>,
    /// HTML for `html`, text for `text`.
    pub kind: InputKind,
    /// The page.
    pub body: Vec<u8>,
    /// Whether the body came from a string column (UTF-8 whatever the page
    /// declares) rather than a binary one (bytes as crawled).
    pub utf8: bool,
    /// The row's index in the file (from 0).
    pub row: u64,
}

/// A row that is not a document, or a file that cannot be read further.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowError {
    /// The row's index (from 0); `None` for the file as a whole.
    pub row: Option<u64>,
    /// `id`, when the row has one.
    pub id: Option<String>,
    /// What is wrong.
    pub reason: String,
}

/// The columns a reader takes, by their index in the decoded batches.
#[derive(Debug, Clone, Copy)]
struct Columns {
    html: Option<usize>,
    text: Option<usize>,
    id: Option<usize>,
    url: Option<usize>,
}

/// Reads the documents of a Parquet file row by row.
pub struct Reader {
    batches: ParquetRecordBatchReader,
    columns: Columns,
    batch: Option<RecordBatch>,
    /// The next row of `batch`.
    at: usize,
    /// The index in the file of `batch`'s first row.
    first_row: u64,
    max_document: usize,
    done: bool,
}

/// The index of the column named `name` among `fields`: the exact name,
/// else the first that matches in any case.
fn find(fields: &arrow_schema::Fields, name: &str) -> Option<usize> {
    fields.iter().position(|f| f.name() == name).or_else(|| {
        fields
            .iter()
            .position(|f| f.name().eq_ignore_ascii_case(name))
    })
}

fn is_bytes(t: &DataType) -> bool {
    matches!(
        t,
        DataType::Utf8
            | DataType::LargeUtf8
            | DataType::Utf8View
            | DataType::Binary
            | DataType::LargeBinary
            | DataType::BinaryView
    )
}

fn is_string(t: &DataType) -> bool {
    matches!(t, DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View)
}

fn is_integer(t: &DataType) -> bool {
    t.is_integer()
}

impl Reader {
    /// Opens a Parquet file (its footer is read here); documents over
    /// `max_document` bytes fail one by one. Fails when the file is not
    /// Parquet or has neither an `html` nor a `text` column of strings or
    /// bytes.
    pub fn open<R: ChunkReader + 'static>(r: R, max_document: usize) -> Result<Reader, String> {
        guarded(|| Reader::open_unguarded(r, max_document)).and_then(|r| r)
    }

    fn open_unguarded<R: ChunkReader + 'static>(
        r: R,
        max_document: usize,
    ) -> Result<Reader, String> {
        let builder = ParquetRecordBatchReaderBuilder::try_new(r).map_err(|e| e.to_string())?;
        let fields = builder.schema().fields().clone();
        let column = |name: &str, ok: fn(&DataType) -> bool, what: &str| match find(&fields, name) {
            None => Ok(None),
            Some(i) if ok(fields[i].data_type()) => Ok(Some(i)),
            Some(i) => Err(format!(
                "column {:?} is {}, not {what}",
                fields[i].name(),
                fields[i].data_type()
            )),
        };
        let html = column("html", is_bytes, "strings or bytes")?;
        let text = column("text", is_bytes, "strings or bytes")?;
        let id = column(
            "id",
            |t| is_string(t) || is_integer(t),
            "strings or integers",
        )?;
        let url = column("url", is_string, "strings")?;
        if html.is_none() && text.is_none() {
            let names: Vec<&str> = fields.iter().map(|f| f.name().as_str()).collect();
            return Err(format!(
                "no \"html\" or \"text\" column (the columns are {})",
                names.join(", ")
            ));
        }
        // The projected batches hold the chosen columns in file order.
        let mut chosen: Vec<usize> = [html, text, id, url].into_iter().flatten().collect();
        chosen.sort_unstable();
        chosen.dedup();
        let at = |c: Option<usize>| c.and_then(|c| chosen.iter().position(|&x| x == c));
        let columns = Columns {
            html: at(html),
            text: at(text),
            id: at(id),
            url: at(url),
        };
        let mask = ProjectionMask::roots(builder.parquet_schema(), chosen.iter().copied());
        let batches = builder
            .with_projection(mask)
            .with_batch_size(BATCH_ROWS)
            .build()
            .map_err(|e| e.to_string())?;
        Ok(Reader {
            batches,
            columns,
            batch: None,
            at: 0,
            first_row: 0,
            max_document,
            done: false,
        })
    }

    /// The document of row `i` of the current batch.
    fn row(&self, batch: &RecordBatch, i: usize) -> Result<ParquetDocument, RowError> {
        let row = self.first_row + i as u64;
        let col = |c: Option<usize>| c.map(|c| batch.column(c));
        let id = col(self.columns.id).and_then(|a| id_at(a, i));
        let url = col(self.columns.url)
            .and_then(|a| bytes_at(a, i))
            .map(|b| String::from_utf8_lossy(b).into_owned());
        let err = |reason: String| RowError {
            row: Some(row),
            id: id.clone(),
            reason,
        };
        let html = col(self.columns.html).and_then(|a| bytes_at(a, i).map(|b| (a, b)));
        let text = col(self.columns.text).and_then(|a| bytes_at(a, i).map(|b| (a, b)));
        let (kind, (array, body)) = match (html, text) {
            (Some(h), _) => (InputKind::Html, h),
            (None, Some(t)) => (InputKind::Text, t),
            (None, None) => return Err(err("no \"html\" or \"text\" value (null)".into())),
        };
        if body.len() > self.max_document {
            return Err(err(format!(
                "document of {} bytes is larger than the limit of {} bytes; skipped",
                body.len(),
                self.max_document
            )));
        }
        Ok(ParquetDocument {
            id,
            url,
            kind,
            body: body.to_vec(),
            utf8: is_string(array.data_type()),
            row,
        })
    }
}

/// The bytes of a string or binary array's row `i` (`None` when null).
fn bytes_at(a: &ArrayRef, i: usize) -> Option<&[u8]> {
    if a.is_null(i) {
        return None;
    }
    let a = a.as_ref();
    if let Some(s) = a.as_string_opt::<i32>() {
        Some(s.value(i).as_bytes())
    } else if let Some(s) = a.as_string_opt::<i64>() {
        Some(s.value(i).as_bytes())
    } else if let Some(s) = a.as_string_view_opt() {
        Some(s.value(i).as_bytes())
    } else if let Some(b) = a.as_binary_opt::<i32>() {
        Some(b.value(i))
    } else if let Some(b) = a.as_binary_opt::<i64>() {
        Some(b.value(i))
    } else {
        a.as_binary_view_opt().map(|b| b.value(i))
    }
}

/// Row `i` of an `id` column as a string (`None` when null).
fn id_at(a: &ArrayRef, i: usize) -> Option<String> {
    if a.is_null(i) {
        return None;
    }
    macro_rules! integer {
        ($($t:ty),*) => {
            $(if let Some(p) = a.as_primitive_opt::<$t>() {
                return Some(p.value(i).to_string());
            })*
        };
    }
    integer!(
        Int8Type, Int16Type, Int32Type, Int64Type, UInt8Type, UInt16Type, UInt32Type, UInt64Type
    );
    bytes_at(a, i).map(|b| String::from_utf8_lossy(b).into_owned())
}

impl Iterator for Reader {
    type Item = Result<ParquetDocument, RowError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if self.done {
                return None;
            }
            if let Some(batch) = self.batch.take() {
                if self.at < batch.num_rows() {
                    let doc = self.row(&batch, self.at);
                    self.at += 1;
                    self.batch = Some(batch);
                    return Some(doc);
                }
                self.first_row += batch.num_rows() as u64;
            }
            let batches = &mut self.batches;
            let next = guarded(|| batches.next()).unwrap_or_else(|why| {
                Some(Err(arrow_schema::ArrowError::ExternalError(why.into())))
            });
            match next {
                None => {
                    self.done = true;
                    return None;
                }
                Some(Ok(batch)) => {
                    self.batch = Some(batch);
                    self.at = 0;
                }
                Some(Err(e)) => {
                    // A damaged page or row group: what was read stands, the
                    // rest of the file is one failure.
                    self.done = true;
                    return Some(Err(RowError {
                        row: Some(self.first_row),
                        id: None,
                        reason: format!("{e}; the rows from here on are not read"),
                    }));
                }
            }
        }
    }
}

/// Runs the Parquet crate on a file's bytes, whatever they are: a panic in
/// it (a damaged file the crate does not expect) is an error of that file,
/// not the end of the run.
fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).map_err(|p| {
        let msg = p
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| p.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        format!("the Parquet reader failed on this file ({msg})")
    })
}

/// A reader over bytes in memory (standard input, a caller's buffer).
pub fn open_bytes(bytes: Arc<[u8]>, max_document: usize) -> Result<Reader, String> {
    Reader::open(bytes::Bytes::from_owner(bytes), max_document)
}
