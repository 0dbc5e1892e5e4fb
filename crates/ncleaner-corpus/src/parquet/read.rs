//! Parquet input: each row a document, read like a JSON Lines line.
//!
//! The columns are found by name (exact, else in any case): the page in
//! `html` (read as HTML) or `text` (read as a text dump), a row whose
//! `html` is null taking its `text`; `id` (a string or an integer) and
//! `url` (a string, or bytes read as UTF-8) when present. A column of the
//! null type (all its values null: what pandas and pyarrow write for a
//! column that never held a value) is read as absent. Pages may be
//! compressed in any codec the format has (snappy, gzip, brotli, LZ4,
//! LZ4_RAW, zstd). A string column is UTF-8 (no `<meta>` overrides it);
//! a binary column holds the page's bytes as crawled, decoded as a file is
//! (byte-order mark, `<meta>` charset, detection). A row without an `id` is
//! named `FILE#ROW`, its row index from 0 as pandas and pyarrow count.
//!
//! A column is read as the file's own Parquet types say (strings, bytes,
//! integers), not as the Arrow schema some writers store beside them: a
//! dictionary-encoded column (pandas' categoricals, pyarrow's dictionary
//! arrays) is read as its values, like any other.
//!
//! Only those columns are read (a projection), each column chunk page by
//! page, in batches ([`Batches`]) bounded by bytes as well as rows: a row
//! group's batches hold at most [`BATCH_ROWS`] rows and about
//! [`BATCH_BYTES`] by the row group's own account of its columns' size,
//! and a batch found larger than twice that (rows of very unequal sizes,
//! or a file whose sizes are wrong) makes the rest of its row group read
//! a row at a time. So a file of any size is read in memory bounded by a
//! batch, whatever its row groups and rows.

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::{
    Int8Type, Int16Type, Int32Type, Int64Type, UInt8Type, UInt16Type, UInt32Type, UInt64Type,
};
use arrow_array::{Array, ArrayRef, RecordBatch};
use arrow_schema::DataType;
use ncleaner::InputKind;
use parquet::arrow::ProjectionMask;
use parquet::arrow::arrow_reader::{
    ArrowReaderMetadata, ArrowReaderOptions, ParquetRecordBatchReader,
    ParquetRecordBatchReaderBuilder, RowSelection, RowSelector,
};
use parquet::file::reader::ChunkReader;

/// The most rows decoded at a time. Pages run to tens or hundreds of KB
/// each, so a batch of ordinary pages holds a few MB.
pub const BATCH_ROWS: usize = 64;

/// The bytes a batch of rows holds at most, by the row group's account of
/// its size: rows of large pages are decoded fewer at a time, down to one.
pub const BATCH_BYTES: usize = 8 << 20;

/// A file the Parquet reader reads from, which can be opened again for
/// each row group (a file by its handle, bytes by a shared reference).
pub trait Chunks: ChunkReader + Sized + 'static {
    /// Another reader of the same file.
    fn again(&self) -> std::io::Result<Self>;
}

impl Chunks for std::fs::File {
    fn again(&self) -> std::io::Result<Self> {
        self.try_clone()
    }
}

impl Chunks for bytes::Bytes {
    fn again(&self) -> std::io::Result<Self> {
        Ok(self.clone())
    }
}

/// Builds the reader of one row group: (row group, rows per batch, rows
/// to skip at its start).
type OpenGroup =
    Box<dyn FnMut(usize, usize, usize) -> Result<ParquetRecordBatchReader, String> + Send>;

/// The record batches of a file's chosen columns, row group by row group,
/// bounded by rows and bytes (see the module documentation).
pub struct Batches {
    open: OpenGroup,
    /// Each row group's rows and rows per batch.
    groups: Vec<(usize, usize)>,
    /// The row group being read, and its reader.
    group: usize,
    current: Option<ParquetRecordBatchReader>,
    /// Rows of the current row group read so far.
    read: usize,
    /// Rows per batch in the current row group.
    rows: usize,
}

impl Batches {
    /// The batches of the columns `columns` (root indices, in file order)
    /// of the file `r`, whose metadata is `meta`.
    fn new<R: Chunks>(r: R, meta: ArrowReaderMetadata, columns: &[usize]) -> Batches {
        let parquet = meta.metadata().clone();
        let schema = meta.parquet_schema();
        let mask = ProjectionMask::roots(schema, columns.iter().copied());
        let leaves: Vec<usize> = (0..schema.num_columns())
            .filter(|&l| columns.contains(&schema.get_column_root_idx(l)))
            .collect();
        let groups: Vec<(usize, usize)> = parquet
            .row_groups()
            .iter()
            .map(|g| {
                let rows = usize::try_from(g.num_rows()).unwrap_or(0);
                let bytes: u64 = leaves
                    .iter()
                    .map(|&l| u64::try_from(g.column(l).uncompressed_size()).unwrap_or(0))
                    .sum();
                (rows, rows_per_batch(rows, bytes))
            })
            .collect();
        let open: OpenGroup = Box::new(move |group, rows, skip| {
            let again = r.again().map_err(|e| e.to_string())?;
            let mut b = ParquetRecordBatchReaderBuilder::new_with_metadata(again, meta.clone())
                .with_projection(mask.clone())
                .with_row_groups(vec![group])
                .with_batch_size(rows);
            if skip > 0 {
                let total = usize::try_from(parquet.row_group(group).num_rows()).unwrap_or(0);
                b = b.with_row_selection(RowSelection::from(vec![
                    RowSelector::skip(skip.min(total)),
                    RowSelector::select(total.saturating_sub(skip)),
                ]));
            }
            b.build().map_err(|e| e.to_string())
        });
        Batches {
            open,
            groups,
            group: 0,
            current: None,
            read: 0,
            rows: 1,
        }
    }
}

/// Rows per batch for a row group of `rows` rows and `bytes` bytes of the
/// chosen columns: about [`BATCH_BYTES`], at least one, at most
/// [`BATCH_ROWS`].
fn rows_per_batch(rows: usize, bytes: u64) -> usize {
    let per_row = (bytes / rows.max(1) as u64).max(1);
    ((BATCH_BYTES as u64 / per_row) as usize).clamp(1, BATCH_ROWS)
}

impl Iterator for Batches {
    type Item = Result<RecordBatch, String>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if self.current.is_none() {
                let &(_, rows) = self.groups.get(self.group)?;
                self.rows = rows;
                self.read = 0;
                match (self.open)(self.group, rows, 0) {
                    Ok(r) => self.current = Some(r),
                    Err(e) => {
                        self.group = self.groups.len();
                        return Some(Err(e));
                    }
                }
            }
            let reader = self.current.as_mut().expect("opened above");
            match reader.next() {
                None => {
                    self.current = None;
                    self.group += 1;
                }
                Some(Err(e)) => {
                    self.current = None;
                    self.group = self.groups.len();
                    return Some(Err(e.to_string()));
                }
                Some(Ok(batch)) => {
                    self.read += batch.num_rows();
                    let oversized = batch.get_array_memory_size() > 2 * BATCH_BYTES;
                    let left = self.groups[self.group].0.saturating_sub(self.read);
                    if oversized && self.rows > 1 && left > 0 {
                        // The row group's account of its size was wrong
                        // for these rows: the rest a row at a time.
                        self.rows = 1;
                        match (self.open)(self.group, 1, self.read) {
                            Ok(r) => self.current = Some(r),
                            Err(e) => {
                                self.current = None;
                                self.group = self.groups.len();
                                return Some(Err(e));
                            }
                        }
                    }
                    return Some(Ok(batch));
                }
            }
        }
    }
}

/// The metadata of a Parquet file; its column types read from its own
/// Parquet schema (see the module documentation) unless `arrow`, which
/// takes the Arrow schema its writer stored (this program's own outputs).
fn metadata<R: ChunkReader>(r: &R, arrow: bool) -> Result<ArrowReaderMetadata, String> {
    let options = ArrowReaderOptions::new().with_skip_arrow_metadata(!arrow);
    ArrowReaderMetadata::load(r, options).map_err(|e| e.to_string())
}

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
    batches: Batches,
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
    pub fn open<R: Chunks>(r: R, max_document: usize) -> Result<Reader, String> {
        guarded(|| Reader::open_unguarded(r, max_document)).and_then(|r| r)
    }

    fn open_unguarded<R: Chunks>(r: R, max_document: usize) -> Result<Reader, String> {
        let meta = metadata(&r, false)?;
        let fields = meta.schema().fields().clone();
        let column = |name: &str, ok: fn(&DataType) -> bool, what: &str| match find(&fields, name) {
            None => Ok(None),
            // A column of nulls alone (a writer that never saw a value
            // gives it no other type) holds nothing: as if absent.
            Some(i) if *fields[i].data_type() == DataType::Null => Ok(None),
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
        let url = column("url", is_bytes, "strings or bytes")?;
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
        let batches = Batches::new(r, meta, &chosen);
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
            let next = guarded(|| batches.next()).unwrap_or_else(|why| Some(Err(why)));
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

/// The record batches of every column of a Parquet file, bounded by rows
/// and bytes as a [`Reader`]'s are, with the file's schema as its writer
/// stored it (for this program's own outputs: `clean --resume`).
pub fn all_batches<R: Chunks>(r: R) -> Result<(arrow_schema::SchemaRef, Batches), String> {
    guarded(|| {
        let meta = metadata(&r, true)?;
        let schema = meta.schema().clone();
        let all: Vec<usize> = (0..schema.fields().len()).collect();
        Ok((schema, Batches::new(r, meta, &all)))
    })
    .and_then(|r| r)
}

/// A reader over bytes in memory (a caller's buffer).
pub fn open_bytes(bytes: Arc<[u8]>, max_document: usize) -> Result<Reader, String> {
    Reader::open(bytes::Bytes::from_owner(bytes), max_document)
}
