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
//! a row at a time. A column chunk whose data pages are larger than
//! [`large::LARGE_PAGE`] (a writer that cut no page: 64 rows of 14 MB in
//! one page of 900 MB) is read a value at a time from the file
//! ([`large`]), its row group a row at a time: a page is never held
//! whole. So a file of any size is read in memory bounded by a batch, or
//! by a row, whatever its row groups, pages and rows.

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

use super::large::{self, Value};

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
    /// A reader of the file's bytes from `pos` on, independent of every
    /// other reader of it ([`large`] reads several places at once).
    fn read_at(&self, pos: u64) -> std::io::Result<Box<dyn std::io::Read + Send>>;
}

impl Chunks for std::fs::File {
    fn again(&self) -> std::io::Result<Self> {
        self.try_clone()
    }
    fn read_at(&self, pos: u64) -> std::io::Result<Box<dyn std::io::Read + Send>> {
        let at = At {
            file: self.try_clone()?,
            pos,
        };
        Ok(Box::new(std::io::BufReader::with_capacity(64 << 10, at)))
    }
}

impl Chunks for bytes::Bytes {
    fn again(&self) -> std::io::Result<Self> {
        Ok(self.clone())
    }
    fn read_at(&self, pos: u64) -> std::io::Result<Box<dyn std::io::Read + Send>> {
        let from = usize::try_from(pos).unwrap_or(usize::MAX).min(self.len());
        Ok(Box::new(std::io::Cursor::new(self.slice(from..))))
    }
}

/// A file read from a place of its own with positioned reads: its handle's
/// shared offset, which the Arrow reader moves, is never used.
struct At {
    file: std::fs::File,
    pos: u64,
}

impl std::io::Read for At {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        #[cfg(unix)]
        let n = std::os::unix::fs::FileExt::read_at(&self.file, buf, self.pos)?;
        #[cfg(windows)]
        let n = std::os::windows::fs::FileExt::seek_read(&self.file, buf, self.pos)?;
        self.pos += n as u64;
        Ok(n)
    }
}

/// Builds the reader of one row group: (row group, rows per batch, rows
/// to skip at its start, the chosen columns it reads: by their place among
/// them, `None` for all).
type OpenGroup = Box<
    dyn FnMut(usize, usize, usize, Option<&[usize]>) -> Result<ParquetRecordBatchReader, String>
        + Send,
>;

/// Builds the readers of the chosen columns of a row group that are read
/// a value at a time ([`large`]): their places among the chosen columns,
/// with their values; none when the row group is read as usual.
type StreamGroup = Box<dyn FnMut(usize) -> Result<Vec<(usize, large::Values)>, String> + Send>;

/// A row group read a row at a time: some of its columns a value at a
/// time from the file ([`large`]), the others by the Arrow reader.
struct Streamed {
    /// The other chosen columns (places among the chosen), their reader and
    /// the batch being taken a row at a time.
    small: Vec<usize>,
    reader: Option<ParquetRecordBatchReader>,
    batch: Option<(RecordBatch, usize)>,
    /// The columns read a value at a time.
    big: Vec<(usize, large::Values)>,
    /// Rows left in the row group.
    left: usize,
}

/// The record batches of a file's chosen columns, row group by row group,
/// bounded by rows and bytes (see the module documentation).
pub struct Batches {
    open: OpenGroup,
    stream: StreamGroup,
    /// The chosen columns' fields, in order (a streamed row's schema).
    schema: arrow_schema::SchemaRef,
    /// The row group read a row at a time, if it is.
    streamed: Option<Streamed>,
    /// The whole lengths of the values of the last batch (one row) that
    /// were over the limit and left unread: (column, length).
    over: Vec<(usize, usize)>,
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
    fn new<R: Chunks>(
        r: R,
        meta: ArrowReaderMetadata,
        columns: &[usize],
        max_value: usize,
    ) -> Batches {
        let parquet = meta.metadata().clone();
        let schema = meta.parquet_schema();
        let mask = ProjectionMask::roots(schema, columns.iter().copied());
        let fields: Vec<arrow_schema::FieldRef> = columns
            .iter()
            .map(|&c| meta.schema().fields()[c].clone())
            .collect();
        let out_schema = Arc::new(arrow_schema::Schema::new(fields));
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
        // Each chosen column that is one leaf of a type read a value at a
        // time: (its place among the chosen, its leaf).
        let streamable: Vec<(usize, usize)> = columns
            .iter()
            .enumerate()
            .filter(|(i, _)| is_bytes(out_schema.field(*i).data_type()))
            .filter_map(|(i, &root)| {
                let leaves: Vec<usize> = (0..schema.num_columns())
                    .filter(|&l| schema.get_column_root_idx(l) == root)
                    .collect();
                (leaves.len() == 1).then(|| (i, leaves[0]))
            })
            .collect();
        let r = Arc::new(r);
        let at = r.clone();
        let open_at: Arc<large::OpenAt> = Arc::new(Box::new(move |pos| at.read_at(pos)));
        let stream_meta = parquet.clone();
        let stream_schema = parquet.file_metadata().schema_descr_ptr();
        let stream: StreamGroup = Box::new(move |group| {
            let g = stream_meta.row_group(group);
            let mut big = Vec::new();
            for &(i, leaf) in &streamable {
                let descr = stream_schema.column(leaf);
                if large::plan(g.column(leaf), &descr, &open_at)? {
                    let values =
                        large::Values::new(g.column(leaf), &descr, open_at.clone(), max_value);
                    big.push((i, values));
                }
            }
            Ok(big)
        });
        let chosen = columns.to_vec();
        let open: OpenGroup = Box::new(move |group, rows, skip, only| {
            let again = r.again().map_err(|e| e.to_string())?;
            let mask = match only {
                None => mask.clone(),
                Some(places) => {
                    ProjectionMask::roots(meta.parquet_schema(), places.iter().map(|&p| chosen[p]))
                }
            };
            let mut b = ParquetRecordBatchReaderBuilder::new_with_metadata(again, meta.clone())
                .with_projection(mask)
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
            stream,
            schema: out_schema,
            streamed: None,
            over: Vec::new(),
            groups,
            group: 0,
            current: None,
            read: 0,
            rows: 1,
        }
    }

    /// The whole lengths of the values of the last batch that were over
    /// the limit and left unread: (column, length).
    pub fn over_limit(&self) -> &[(usize, usize)] {
        &self.over
    }

    /// The next row of a streamed row group, as a batch of one row.
    fn streamed_row(&mut self) -> Option<Result<RecordBatch, String>> {
        let s = self.streamed.as_mut()?;
        if s.left == 0 {
            self.streamed = None;
            self.group += 1;
            return None;
        }
        s.left -= 1;
        // The other columns' row.
        let small = match &mut s.reader {
            None => None,
            Some(reader) => loop {
                if let Some((b, at)) = &mut s.batch
                    && *at < b.num_rows()
                {
                    *at += 1;
                    break Some(b.slice(*at - 1, 1));
                }
                match reader.next() {
                    Some(Ok(b)) => s.batch = Some((b, 0)),
                    Some(Err(e)) => return Some(Err(e.to_string())),
                    None => {
                        return Some(Err("a column holds fewer rows than its row group".into()));
                    }
                }
            },
        };
        self.over.clear();
        let mut columns: Vec<Option<ArrayRef>> = vec![None; self.schema.fields().len()];
        if let Some(row) = &small {
            for (k, &p) in s.small.iter().enumerate() {
                columns[p] = Some(row.column(k).clone());
            }
        }
        for (p, values) in &mut s.big {
            let value = match values.next() {
                Some(Ok(v)) => v,
                Some(Err(e)) => return Some(Err(e.to_string())),
                None => return Some(Err("a column holds fewer values than its row group".into())),
            };
            if let Value::Bytes(v, len) = &value
                && *len > v.len()
            {
                self.over.push((*p, *len));
            }
            columns[*p] = Some(one_value(self.schema.field(*p).data_type(), value));
        }
        let columns: Vec<ArrayRef> = columns
            .into_iter()
            .map(|c| c.expect("every column"))
            .collect();
        Some(RecordBatch::try_new(self.schema.clone(), columns).map_err(|e| e.to_string()))
    }

    /// Reads row group `group` a row at a time when some of its columns'
    /// pages are too large to hold ([`large`]); false when it is read as usual.
    fn start_streamed(&mut self, group: usize) -> Result<bool, String> {
        let big = (self.stream)(group)?;
        if big.is_empty() {
            return Ok(false);
        }
        let small: Vec<usize> = (0..self.schema.fields().len())
            .filter(|p| !big.iter().any(|(b, _)| b == p))
            .collect();
        let reader = match small.is_empty() {
            true => None,
            false => Some((self.open)(group, BATCH_ROWS, 0, Some(&small))?),
        };
        self.streamed = Some(Streamed {
            small,
            reader,
            batch: None,
            big,
            left: self.groups[group].0,
        });
        Ok(true)
    }
}

/// An array of one value (or null) of type `t` (strings or bytes). A
/// string or binary column takes the value's buffer as it is: a large
/// value is not copied into the array.
fn one_value(t: &DataType, value: Value) -> ArrayRef {
    use arrow_array::{
        BinaryArray, BinaryViewArray, LargeBinaryArray, LargeStringArray, StringArray,
        StringViewArray,
    };
    use arrow_buffer::{Buffer, OffsetBuffer};
    let bytes = match value {
        Value::Null => return arrow_array::new_null_array(t, 1),
        Value::Bytes(v, _) => v,
    };
    let offsets = |len: usize| {
        i32::try_from(len)
            .ok()
            .map(|n| OffsetBuffer::new(vec![0, n].into()))
    };
    // A string column's bytes are UTF-8 by the format; those that are not
    // are read with U+FFFD, as a JSON line's are.
    let text = |b: Vec<u8>| {
        String::from_utf8(b).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    };
    match t {
        DataType::Utf8 => {
            let s = text(bytes);
            match offsets(s.len()) {
                Some(o) => Arc::new(StringArray::new(o, Buffer::from_vec(s.into_bytes()), None)),
                None => Arc::new(LargeStringArray::from(vec![s])),
            }
        }
        DataType::Binary => match offsets(bytes.len()) {
            Some(o) => Arc::new(BinaryArray::new(o, Buffer::from_vec(bytes), None)),
            None => Arc::new(LargeBinaryArray::from(vec![bytes.as_slice()])),
        },
        DataType::LargeUtf8 => Arc::new(LargeStringArray::from(vec![text(bytes)])),
        DataType::Utf8View => Arc::new(StringViewArray::from(vec![text(bytes)])),
        DataType::LargeBinary => Arc::new(LargeBinaryArray::from(vec![bytes.as_slice()])),
        _ => Arc::new(BinaryViewArray::from(vec![bytes.as_slice()])),
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
        self.over.clear();
        loop {
            if self.streamed.is_some() {
                match self.streamed_row() {
                    Some(Err(e)) => {
                        self.streamed = None;
                        self.group = self.groups.len();
                        return Some(Err(e));
                    }
                    Some(ok) => return Some(ok),
                    None => continue,
                }
            }
            if self.current.is_none() {
                let &(_, rows) = self.groups.get(self.group)?;
                self.rows = rows;
                self.read = 0;
                match self.start_streamed(self.group) {
                    Ok(true) => continue,
                    Ok(false) => {}
                    Err(e) => {
                        self.group = self.groups.len();
                        return Some(Err(e));
                    }
                }
                match (self.open)(self.group, rows, 0, None) {
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
                        match (self.open)(self.group, 1, self.read, None) {
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
    /// The whole lengths of `batch`'s values over the limit, unread.
    over: Vec<(usize, usize)>,
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
        // A value over the limit is read no further than that.
        let batches = Batches::new(r, meta, &chosen, max_document.saturating_add(1));
        Ok(Reader {
            batches,
            columns,
            batch: None,
            at: 0,
            first_row: 0,
            max_document,
            over: Vec::new(),
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
        let (kind, column, (array, body)) = match (html, text) {
            (Some(h), _) => (InputKind::Html, self.columns.html, h),
            (None, Some(t)) => (InputKind::Text, self.columns.text, t),
            (None, None) => return Err(err("no \"html\" or \"text\" value (null)".into())),
        };
        if body.len() > self.max_document {
            // A value read a value at a time stops at the limit: its whole
            // length is known apart.
            let whole = self
                .over
                .iter()
                .find(|(c, _)| Some(*c) == column)
                .map_or(body.len(), |&(_, n)| n);
            return Err(err(format!(
                "document of {whole} bytes is larger than the limit of {} bytes; skipped",
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
                    // A batch whose rows are all out is let go at once: its
                    // values are copies of what the documents now hold.
                    match self.at < batch.num_rows() {
                        true => self.batch = Some(batch),
                        false => self.first_row += batch.num_rows() as u64,
                    }
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
                    self.over = self.batches.over_limit().to_vec();
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
        Ok((schema, Batches::new(r, meta, &all, usize::MAX)))
    })
    .and_then(|r| r)
}

/// A reader over bytes in memory (a caller's buffer).
pub fn open_bytes(bytes: Arc<[u8]>, max_document: usize) -> Result<Reader, String> {
    Reader::open(bytes::Bytes::from_owner(bytes), max_document)
}
