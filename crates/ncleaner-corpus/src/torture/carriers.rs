//! How a case reaches the cleaner: the bytes of the containers that carry
//! it (a WARC record, a JSON line, a Parquet file), for the harness that
//! runs the corpus (`crates/ncleaner-cli/tests/torture/run.rs`) and the
//! tests that build such inputs.

/// A WARC `response` record of `block`, with `id` and these extra fields.
pub fn warc_response(id: &str, uri: &str, block: &[u8], extra: &[(&str, String)]) -> Vec<u8> {
    let mut head = format!(
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:{id}>\r\n\
         WARC-Target-URI: {uri}\r\nWARC-Date: 2024-01-01T00:00:00Z\r\n\
         Content-Type: application/http; msgtype=response\r\n"
    );
    for (k, v) in extra {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str(&format!("Content-Length: {}\r\n\r\n", block.len()));
    let mut v = head.into_bytes();
    v.extend_from_slice(block);
    v.extend_from_slice(b"\r\n\r\n");
    v
}

/// The bytes as a JSON string: UTF-8 as it is, other bytes one character
/// per byte (as a crawler that stored bodies as Latin-1 would).
pub fn json_string(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        Err(_) => bytes.iter().map(|&b| char::from(b)).collect(),
    }
}

/// A WARC `response` record of `block` without the record's own
/// `Content-Type` field (`application/http`), with `id`.
pub fn warc_response_untyped(id: &str, uri: &str, block: &[u8]) -> Vec<u8> {
    let head = format!(
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:{id}>\r\n\
         WARC-Target-URI: {uri}\r\nWARC-Date: 2024-01-01T00:00:00Z\r\n\
         Content-Length: {}\r\n\r\n",
        block.len()
    );
    let mut v = head.into_bytes();
    v.extend_from_slice(block);
    v.extend_from_slice(b"\r\n\r\n");
    v
}

/// One JSON line (without its newline) of the document `html` named `id`.
pub fn json_line(id: &str, html: &str) -> String {
    serde_json::json!({"id": id, "html": html}).to_string()
}

/// Writes a Parquet file of `rows` (each an `id` and the bytes of its
/// `html`), a row group for every 16 rows, its columns compressed with
/// zstd: one row at a time, so that rows of any size and number are
/// written in the memory of one.
#[cfg(feature = "parquet")]
pub fn write_parquet(
    path: &std::path::Path,
    rows: impl Iterator<Item = (String, Vec<u8>)>,
) -> std::io::Result<()> {
    use arrow_array::{ArrayRef, BinaryArray, RecordBatch, StringArray};
    use arrow_schema::{DataType, Field, Schema};
    use parquet::basic::{Compression, ZstdLevel};
    use parquet::file::properties::WriterProperties;
    let schema = std::sync::Arc::new(Schema::new(vec![
        Field::new("id", DataType::Utf8, false),
        Field::new("html", DataType::Binary, false),
    ]));
    let props = WriterProperties::builder()
        .set_compression(Compression::ZSTD(ZstdLevel::default()))
        .set_max_row_group_row_count(Some(16))
        .build();
    let file = std::fs::File::create(path)?;
    let mut w = parquet::arrow::ArrowWriter::try_new(file, schema.clone(), Some(props))
        .map_err(std::io::Error::other)?;
    for (id, html) in rows {
        let columns: Vec<ArrayRef> = vec![
            std::sync::Arc::new(StringArray::from(vec![id])),
            std::sync::Arc::new(BinaryArray::from(vec![html.as_slice()])),
        ];
        let batch = RecordBatch::try_new(schema.clone(), columns).map_err(std::io::Error::other)?;
        w.write(&batch).map_err(std::io::Error::other)?;
    }
    w.close().map_err(std::io::Error::other)?;
    Ok(())
}
