//! Parquet written from cleaned pages and read back; Parquet inputs of
//! every column type Hugging Face datasets use.

use std::path::Path;
use std::sync::Arc;

use crate::OutputFormat;
use arrow_array::cast::AsArray;
use arrow_array::{
    Array, ArrayRef, BinaryArray, Int64Array, RecordBatch, StringArray, StringViewArray,
};
use arrow_schema::{DataType, Field, Schema};
use ncleaner::format::{CleanedRecord, JsonOptions};
use ncleaner::{Cleaner, InputKind};
use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

use super::*;
use crate::{CorpusOptions, Destination, Origin};

const PAGE: &str = "<html><head><title>Tomatoes</title><meta name=author content=\"Ann Lee\"></head><body>\
    <nav><a href=/>Home</a> | <a href=/v>Vegetables</a></nav><article><h1>Tomatoes</h1>\
    <p>Tomatoes are among the easiest vegetables to grow in a garden, and they need sun.</p>\
    <p>Water them deeply twice a week, and stake the plants before the fruit sets.</p>\
    </article></body></html>";

fn write_parquet(path: &Path, columns: Vec<(&str, ArrayRef)>) {
    let schema = Arc::new(Schema::new(
        columns
            .iter()
            .map(|(n, a)| Field::new(*n, a.data_type().clone(), true))
            .collect::<Vec<_>>(),
    ));
    let batch =
        RecordBatch::try_new(schema.clone(), columns.into_iter().map(|c| c.1).collect()).unwrap();
    let mut w = ArrowWriter::try_new(std::fs::File::create(path).unwrap(), schema, None).unwrap();
    w.write(&batch).unwrap();
    w.close().unwrap();
}

fn read_all(path: &Path) -> Vec<Result<ParquetDocument, RowError>> {
    Reader::open(std::fs::File::open(path).unwrap(), 1 << 20)
        .unwrap()
        .collect()
}

fn cleaner() -> Cleaner {
    Cleaner::routed(ncleaner::Routes::from_names::<&str>(&[], "en-nonlex").unwrap())
}

/// Cleans `origins` into `dest` in `format`, with Markdown in the records.
fn clean_to(origins: Vec<Origin>, dest: &Path, format: OutputFormat) -> crate::Stats {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let opts = CorpusOptions {
        format,
        json: JsonOptions::default().with_markdown(true),
        ..CorpusOptions::default()
    };
    crate::clean(
        origins,
        &Destination::File(dest.to_path_buf()),
        &cleaner(),
        opts,
        &pool,
        &mut (),
    )
    .unwrap()
}

#[test]
fn rows_are_the_json_lines_records() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("pages.jsonl");
    let mut lines = String::new();
    for i in 0..3000 {
        let page = PAGE.replace("Tomatoes are", &format!("Tomatoes ({i}) are"));
        lines += &serde_json::json!({"id": format!("p{i}"), "url": format!("https://example.org/{i}"), "html": page}).to_string();
        lines.push('\n');
        if i == 7 {
            lines += "{\"id\": \"broken\", \"url\": \"https://example.org/b\"}\n";
        }
    }
    std::fs::write(&input, lines).unwrap();
    let origin = || {
        vec![Origin::File {
            path: input.clone(),
            rel: "pages.jsonl".into(),
        }]
    };
    let pq = dir.path().join("out.parquet");
    let jsonl = dir.path().join("out.jsonl");
    let stats = clean_to(origin(), &pq, OutputFormat::Parquet);
    assert_eq!((stats.cleaned, stats.failed), (3000, 1));
    clean_to(origin(), &jsonl, OutputFormat::Jsonl);

    // Every JSON line is a row: the same fields, absent ones null.
    let reader = ParquetRecordBatchReaderBuilder::try_new(std::fs::File::open(&pq).unwrap())
        .unwrap()
        .build()
        .unwrap();
    let mut rows = Vec::new();
    for batch in reader {
        let batch = batch.unwrap();
        assert_eq!(batch.schema(), schema());
        let json = {
            let mut w = Vec::new();
            for i in 0..batch.num_rows() {
                w.push(row_json(&batch, i));
            }
            w
        };
        rows.extend(json);
    }
    let lines: Vec<serde_json::Value> = std::fs::read_to_string(&jsonl)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), lines.len());
    for (row, line) in rows.iter().zip(&lines) {
        for (k, v) in line.as_object().unwrap() {
            assert_eq!(row.get(k), Some(v), "{k} of {}", line["id"]);
        }
        for (k, v) in row.as_object().unwrap() {
            if !line.as_object().unwrap().contains_key(k) {
                assert!(v.is_null(), "{k} of {} is {v}", line["id"]);
            }
        }
    }
    assert_eq!(rows[8]["id"], "broken");
    assert!(
        rows[8]["error"]
            .as_str()
            .unwrap()
            .contains("no \"html\" or \"text\"")
    );
    assert_eq!(rows[8]["url"], serde_json::Value::Null);
    assert_eq!(rows[0]["metadata"]["authors"][0], "Ann Lee");
    // The record's Markdown (whether the model keeps the one-word heading
    // of this made-up page is the model's call, not the writer's).
    assert!(
        rows[0]["markdown"]
            .as_str()
            .unwrap()
            .contains("Tomatoes (0) are among the easiest vegetables")
    );

    // And our own output is an input of pages: its `text` column.
    let docs = read_all(&pq);
    assert_eq!(docs.len(), 3001);
    let first = docs[0].as_ref().unwrap();
    assert_eq!(first.id.as_deref(), Some("p0"));
    assert_eq!(first.url.as_deref(), Some("https://example.org/0"));
    assert_eq!(first.kind, InputKind::Text);
    assert_eq!(first.body, rows[0]["text"].as_str().unwrap().as_bytes());
    // The failed document's row has no text: it fails again, by its id.
    let failed = docs[8].as_ref().unwrap_err();
    assert_eq!(
        (failed.id.as_deref(), failed.row),
        (Some("broken"), Some(8))
    );
}

/// A row of [`schema`] as the JSON value its record would be.
fn row_json(batch: &RecordBatch, i: usize) -> serde_json::Value {
    fn value(a: &dyn Array, i: usize) -> serde_json::Value {
        use serde_json::Value;
        if a.is_null(i) {
            return Value::Null;
        }
        match a.data_type() {
            DataType::Utf8 => Value::from(a.as_string::<i32>().value(i)),
            DataType::UInt64 => {
                Value::from(a.as_primitive::<arrow_array::types::UInt64Type>().value(i))
            }
            DataType::Float64 => {
                Value::from(a.as_primitive::<arrow_array::types::Float64Type>().value(i))
            }
            DataType::List(_) => {
                let l = a.as_list::<i32>().value(i);
                Value::Array((0..l.len()).map(|j| value(&l, j)).collect())
            }
            DataType::Struct(fields) => {
                let s = a.as_struct();
                Value::Object(
                    fields
                        .iter()
                        .zip(s.columns())
                        .map(|(f, c)| (f.name().clone(), value(c, i)))
                        .collect(),
                )
            }
            t => panic!("a column of type {t}"),
        }
    }
    serde_json::Value::Object(
        batch
            .schema()
            .fields()
            .iter()
            .zip(batch.columns())
            .map(|(f, c)| (f.name().clone(), value(c, i)))
            .collect(),
    )
}

#[test]
fn the_schema_has_a_column_for_every_field_of_the_record() {
    // The full record has every field a document can have (`null` when
    // unknown); a field added to it needs a column, or this fails.
    let mut cleaned = cleaner().clean(PAGE.as_bytes(), InputKind::Html, Some("https://a.org/"));
    // A field written only when it has a value is given one.
    cleaned.truncated = Some("cut short".into());
    let full = serde_json::to_value(CleanedRecord::full(&cleaned)).unwrap();
    let columns: Vec<String> = schema().fields().iter().map(|f| f.name().clone()).collect();
    // What JSON Lines never writes (the web API's and Python's fields), and
    // the segments (JSON Lines only).
    let api_only = [
        "elapsed_ms",
        "input",
        "method",
        "operating_point",
        "threshold",
        "segments",
    ];
    for k in full.as_object().unwrap().keys() {
        assert!(
            columns.contains(k) || api_only.contains(&k.as_str()),
            "the record's field {k:?} has no Parquet column"
        );
    }
    let metadata = &full["metadata"];
    let DataType::Struct(fields) = schema()
        .field_with_name("metadata")
        .unwrap()
        .data_type()
        .clone()
    else {
        panic!("metadata is a struct");
    };
    let names: Vec<&String> = fields.iter().map(|f| f.name()).collect();
    let mut keys: Vec<&String> = metadata.as_object().unwrap().keys().collect();
    let mut sorted = names.clone();
    sorted.sort();
    keys.sort();
    assert_eq!(keys, sorted, "the metadata's fields and the struct's");
}

#[test]
fn truncated_is_a_column_as_it_is_a_field_of_the_json_record() {
    use std::io::Write as _;
    let dir = tempfile::tempdir().unwrap();
    // A gzip file cut short: the part that decodes is cleaned, and marked.
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(PAGE.repeat(40).as_bytes()).unwrap();
    let gz = gz.finish().unwrap();
    let cut = dir.path().join("cut.html.gz");
    std::fs::write(&cut, &gz[..gz.len() / 2]).unwrap();
    let whole = dir.path().join("whole.html");
    std::fs::write(&whole, PAGE).unwrap();
    let origins = || {
        vec![
            Origin::File {
                path: cut.clone(),
                rel: "cut.html.gz".into(),
            },
            Origin::File {
                path: whole.clone(),
                rel: "whole.html".into(),
            },
        ]
    };
    let pq = dir.path().join("out.parquet");
    let jsonl = dir.path().join("out.jsonl");
    clean_to(origins(), &pq, OutputFormat::Parquet);
    clean_to(origins(), &jsonl, OutputFormat::Jsonl);
    let lines: Vec<serde_json::Value> = std::fs::read_to_string(&jsonl)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mut batches = ParquetRecordBatchReaderBuilder::try_new(std::fs::File::open(&pq).unwrap())
        .unwrap()
        .build()
        .unwrap();
    let batch = batches.next().unwrap().unwrap();
    assert_eq!(batch.num_rows(), 2);
    let truncated: Vec<serde_json::Value> = (0..2)
        .map(|i| row_json(&batch, i)["truncated"].clone())
        .collect();
    let reason = truncated[0]
        .as_str()
        .expect("the cut page is marked truncated");
    assert!(reason.contains("stops after"), "{reason}");
    assert_eq!(truncated[0], lines[0]["truncated"]);
    // A page read whole: null, as JSON Lines leaves the field out.
    assert_eq!(truncated[1], serde_json::Value::Null);
    assert!(lines[1].get("truncated").is_none());
}

#[test]
fn pages_come_from_strings_bytes_and_views_with_ids_of_any_kind() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pages.parquet");
    write_parquet(
        &path,
        vec![
            (
                "ID",
                Arc::new(Int64Array::from(vec![Some(7), None, Some(9)])) as ArrayRef,
            ),
            (
                "html",
                Arc::new(BinaryArray::from(vec![
                    Some(&b"<p>caf\xe9</p>"[..]),
                    None,
                    None,
                ])),
            ),
            (
                "text",
                Arc::new(StringViewArray::from(vec![Some("x"), Some("a text"), None])),
            ),
            (
                "url",
                Arc::new(StringArray::from(vec![Some("u1"), None, None])),
            ),
            ("other", Arc::new(StringArray::from(vec!["a", "b", "c"]))),
        ],
    );
    let docs = read_all(&path);
    let first = docs[0].as_ref().unwrap();
    assert_eq!(
        (
            first.id.as_deref(),
            first.url.as_deref(),
            first.kind,
            first.utf8
        ),
        (Some("7"), Some("u1"), InputKind::Html, false)
    );
    assert_eq!(first.body, b"<p>caf\xe9</p>");
    // A null `html` takes the row's `text`.
    let second = docs[1].as_ref().unwrap();
    assert_eq!(
        (
            second.id.as_deref(),
            second.kind,
            &second.body[..],
            second.utf8
        ),
        (None, InputKind::Text, &b"a text"[..], true)
    );
    let third = docs[2].as_ref().unwrap_err();
    assert_eq!((third.row, third.id.as_deref()), (Some(2), Some("9")));
    assert!(
        third.reason.contains("no \"html\" or \"text\""),
        "{third:?}"
    );
}

#[test]
fn files_that_hold_no_pages_say_what_they_hold() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.parquet");
    write_parquet(
        &path,
        vec![(
            "content",
            Arc::new(StringArray::from(vec!["a"])) as ArrayRef,
        )],
    );
    let e = Reader::open(std::fs::File::open(&path).unwrap(), 1 << 20)
        .err()
        .unwrap();
    assert!(
        e.contains("no \"html\" or \"text\" column (the columns are content)"),
        "{e}"
    );
    write_parquet(
        &path,
        vec![("html", Arc::new(Int64Array::from(vec![1])) as ArrayRef)],
    );
    let e = Reader::open(std::fs::File::open(&path).unwrap(), 1 << 20)
        .err()
        .unwrap();
    assert!(
        e.contains("column \"html\" is Int64, not strings or bytes"),
        "{e}"
    );
    std::fs::write(&path, b"PAR1 and then nothing").unwrap();
    assert!(Reader::open(std::fs::File::open(&path).unwrap(), 1 << 20).is_err());
}

#[test]
fn documents_over_the_limit_fail_one_by_one() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.parquet");
    let big = "x".repeat(2000);
    write_parquet(
        &path,
        vec![(
            "text",
            Arc::new(StringArray::from(vec!["small", big.as_str(), "small"])) as ArrayRef,
        )],
    );
    let docs: Vec<_> = Reader::open(std::fs::File::open(&path).unwrap(), 1000)
        .unwrap()
        .collect();
    assert!(docs[0].is_ok() && docs[2].is_ok());
    assert!(
        docs[1]
            .as_ref()
            .unwrap_err()
            .reason
            .contains("larger than the limit")
    );
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
    /// A damaged Parquet file (cut short, bytes changed) is an error, never
    /// a panic out of the reader, and never an endless read.
    #[test]
    fn damaged_files_fail_without_panicking(cut in 0usize..2000, flips in proptest::collection::vec((0usize..2000, proptest::prelude::any::<u8>()), 0..8)) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.parquet");
        let pages: Vec<String> = (0..50).map(|i| format!("<p>page {i} with some text</p>")).collect();
        write_parquet(
            &path,
            vec![
                ("id", Arc::new(Int64Array::from((0..50).collect::<Vec<i64>>())) as ArrayRef),
                ("html", Arc::new(StringArray::from(pages))),
            ],
        );
        let mut bytes = std::fs::read(&path).unwrap();
        for (at, b) in flips {
            let n = bytes.len();
            bytes[at % n] = b;
        }
        if cut < bytes.len() {
            bytes.truncate(bytes.len() - cut);
        }
        if let Ok(reader) = read::open_bytes(bytes.into(), 1 << 20) {
            proptest::prop_assert!(reader.take(1000).count() <= 51);
        }
    }
}

/// Issue 52, 12: a dictionary-encoded column (pandas' categoricals,
/// pyarrow's dictionary arrays) is read as its values.
#[test]
fn dictionary_encoded_columns_are_read() {
    use arrow_array::DictionaryArray;
    use arrow_array::types::Int32Type;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.parquet");
    let html: DictionaryArray<Int32Type> = vec![
        "<p>One page.</p>",
        "<p>Another page.</p>",
        "<p>One page.</p>",
    ]
    .into_iter()
    .collect();
    let url: DictionaryArray<Int32Type> = vec!["http://a/", "http://a/", "http://b/"]
        .into_iter()
        .collect();
    write_parquet(
        &path,
        vec![("html", Arc::new(html) as ArrayRef), ("url", Arc::new(url))],
    );
    let docs: Vec<ParquetDocument> = read_all(&path).into_iter().map(Result::unwrap).collect();
    assert_eq!(docs.len(), 3);
    assert_eq!(docs[1].body, b"<p>Another page.</p>");
    assert_eq!(docs[2].url.as_deref(), Some("http://b/"));
    assert!(docs[2].utf8);
}

/// Issue 52, 5: rows of large pages are decoded a few at a time, by the
/// row group's size, not 64 at a time; a batch found larger than the row
/// group said (a few huge rows among small ones) makes the rest of the
/// row group come a row at a time. No batch but that one holds more than
/// twice [`read::BATCH_BYTES`], and every row comes, in order.
#[test]
fn batches_are_bounded_by_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.parquet");
    let big = "<p>A long page of one sentence said again and again.</p>".repeat(60_000);
    let pages: Vec<String> = (0..60)
        .map(|i| match i {
            0..40 => format!("<p>small page {i}</p>"),
            _ => format!("<p>big page {i}</p>{big}"),
        })
        .collect();
    write_parquet(
        &path,
        vec![("html", Arc::new(StringArray::from(pages)) as ArrayRef)],
    );
    let (_, batches) = read::all_batches(std::fs::File::open(&path).unwrap()).unwrap();
    let sizes: Vec<(usize, usize)> = batches
        .map(|b| b.unwrap())
        .map(|b| (b.num_rows(), b.get_array_memory_size()))
        .collect();
    assert_eq!(sizes.iter().map(|s| s.0).sum::<usize>(), 60);
    let over = sizes.iter().filter(|s| s.1 > 2 * read::BATCH_BYTES).count();
    assert!(over <= 1, "{sizes:?}");
    // Through the reader, every row in order.
    let docs: Vec<_> = Reader::open(std::fs::File::open(&path).unwrap(), 64 << 20)
        .unwrap()
        .collect();
    assert_eq!(docs.len(), 60);
    for (i, d) in docs.iter().enumerate() {
        let d = d.as_ref().unwrap();
        assert_eq!(d.row, i as u64);
        assert!(String::from_utf8_lossy(&d.body).contains(&format!(" page {i}<")));
    }
}

/// Issue 70: a column whose rows are all in one data page larger than
/// [`large::LARGE_PAGE`] (a writer that cut no page) is read a value at a
/// time, in every codec it streams, a dictionary page before it or not,
/// nulls and the other columns in their rows; a value over the limit is
/// left unread and named by its whole length.
#[test]
fn one_large_page_is_read_a_value_at_a_time() {
    use parquet::basic::{BrotliLevel, Compression, GzipLevel, ZstdLevel};
    use parquet::file::properties::WriterProperties;
    let dir = tempfile::tempdir().unwrap();
    let value = |i: usize| match i {
        3 => None,
        _ => Some(format!(
            "Row {i}: {}",
            "a few words of a long page, ".repeat(110_000 + i)
        )),
    };
    let rows = 8;
    let texts: Vec<Option<String>> = (0..rows).map(value).collect();
    let ids: Vec<String> = (0..rows).map(|i| format!("id{i}")).collect();
    let codecs = [
        Compression::UNCOMPRESSED,
        Compression::SNAPPY,
        Compression::GZIP(GzipLevel::default()),
        Compression::BROTLI(BrotliLevel::try_new(1).unwrap()),
        Compression::LZ4_RAW,
        Compression::ZSTD(ZstdLevel::default()),
    ];
    for (k, codec) in codecs.into_iter().enumerate() {
        for dictionary in [false, true] {
            let path = dir.path().join(format!("{k}-{dictionary}.parquet"));
            let schema = Arc::new(Schema::new(vec![
                Field::new("id", DataType::Utf8, false),
                Field::new("text", DataType::Utf8, true),
            ]));
            // One page: its size is never checked; with a dictionary, the
            // first value goes into it and the writer falls back to PLAIN.
            let props = WriterProperties::builder()
                .set_compression(codec)
                .set_dictionary_enabled(dictionary)
                .set_dictionary_page_size_limit(1 << 10)
                .set_data_page_size_limit(usize::MAX)
                .set_data_page_row_count_limit(usize::MAX)
                .set_write_batch_size(1)
                .build();
            let f = std::fs::File::create(&path).unwrap();
            let mut w = ArrowWriter::try_new(f, schema.clone(), Some(props)).unwrap();
            let batch = RecordBatch::try_new(
                schema,
                vec![
                    Arc::new(StringArray::from(ids.clone())) as ArrayRef,
                    Arc::new(StringArray::from(texts.clone())),
                ],
            )
            .unwrap();
            w.write(&batch).unwrap();
            w.close().unwrap();
            // The streaming path is the one taken.
            let f = std::fs::File::open(&path).unwrap();
            let meta = parquet::file::metadata::ParquetMetaDataReader::new()
                .parse_and_finish(&f)
                .unwrap();
            let descr = meta.file_metadata().schema_descr().column(1);
            let file = std::fs::File::open(&path).unwrap();
            let open: large::OpenAt = Box::new(move |pos| read::Chunks::read_at(&file, pos));
            let what = format!("{codec} dictionary {dictionary}");
            assert!(
                large::plan(meta.row_group(0).column(1), &descr, &open).unwrap(),
                "{what}"
            );
            let docs: Vec<_> = Reader::open(std::fs::File::open(&path).unwrap(), 64 << 20)
                .unwrap()
                .collect();
            assert_eq!(docs.len(), rows, "{what}");
            for (i, d) in docs.iter().enumerate() {
                match (i, d) {
                    (3, Err(e)) => assert!(e.reason.contains("null"), "{what}: {e:?}"),
                    (_, Ok(d)) => {
                        assert_eq!(d.id.as_deref(), Some(ids[i].as_str()), "{what}");
                        assert_eq!(
                            d.body,
                            texts[i].as_ref().unwrap().as_bytes(),
                            "{what} row {i}"
                        );
                    }
                    other => panic!("{what}: {other:?}"),
                }
            }
            // Over a limit of 1 MB, each value fails by its whole length.
            let mut over = Reader::open(std::fs::File::open(&path).unwrap(), 1 << 20).unwrap();
            let first = over.next().unwrap().unwrap_err();
            let whole = texts[0].as_ref().unwrap().len();
            assert!(
                first.reason.contains(&format!("document of {whole} bytes")),
                "{what}: {first:?}"
            );
            assert_eq!(over.count(), rows - 1);
        }
    }
}

/// A large page whose header, levels or value lengths are corrupt fails
/// its rows with an error, never a panic: seeded corruptions of the bytes
/// `parquet::large` reads itself (the column chunk's first kilobyte and
/// the value lengths), each read to the end.
#[test]
fn corrupt_large_pages_fail_without_panic() {
    use parquet::file::properties::WriterProperties;
    let schema = Arc::new(Schema::new(vec![Field::new("text", DataType::Utf8, true)]));
    let texts: Vec<Option<String>> = (0..6)
        .map(|i| (i != 2).then(|| format!("Row {i} {}", "words of a page ".repeat(250_000))))
        .collect();
    let props = WriterProperties::builder()
        .set_dictionary_enabled(false)
        .set_data_page_size_limit(usize::MAX)
        .set_data_page_row_count_limit(usize::MAX)
        .build();
    let mut file = Vec::new();
    let mut w = ArrowWriter::try_new(&mut file, schema.clone(), Some(props)).unwrap();
    let batch =
        RecordBatch::try_new(schema, vec![Arc::new(StringArray::from(texts)) as ArrayRef]).unwrap();
    w.write(&batch).unwrap();
    w.close().unwrap();
    let meta = parquet::file::metadata::ParquetMetaDataReader::new()
        .parse_and_finish(&bytes::Bytes::from(file.clone()))
        .unwrap();
    let column = meta.row_group(0).column(0);
    let start = column.data_page_offset() as usize;
    let whole = bytes::Bytes::from(file.clone());
    let at: large::OpenAt = Box::new(move |pos| read::Chunks::read_at(&whole, pos));
    let descr = meta.file_metadata().schema_descr().column(0);
    assert!(
        large::plan(column, &descr, &at).unwrap(),
        "the streaming path"
    );
    let whole = Reader::open(bytes::Bytes::from(file.clone()), 16 << 20).unwrap();
    assert_eq!(whole.filter(|r| r.is_ok()).count(), 5);
    // Where each value's length is: after the header, the levels, then a
    // value after another (the first found by its text).
    let first = file.windows(6).position(|w| w == b"Row 0 ").unwrap() - 4;
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let mut failed = 0;
    for case in 0..40 {
        let mut bytes = file.clone();
        let at = match case % 2 {
            0 => start + next(1024),
            _ => first + next(4),
        };
        bytes[at] = next(256) as u8;
        if case % 4 == 1 {
            bytes[at + 1] = 0xff;
        }
        match Reader::open(bytes::Bytes::from(bytes), 16 << 20) {
            Ok(reader) => {
                let rows: Vec<_> = reader.collect();
                assert!(rows.len() <= 6, "case {case}: {} rows", rows.len());
                let read = rows.iter().filter(|r| r.is_ok()).count();
                failed += usize::from(rows.len() != 6 || read != 5);
            }
            Err(_) => failed += 1,
        }
    }
    // The corruptions reach what is read: many cases lose rows.
    assert!(failed >= 10, "{failed} of 40 cases failed");
}

/// Issue 70: a binary column's bytes are read as their bytes say, whatever
/// their label: UTF-8 under a stale GB2312 `<meta>` as UTF-8, GBK under a
/// UTF-8 `<meta>` as GBK, GBK under its own label as GBK; and a string
/// column's text (Unicode) stays itself under a GB2312 `<meta>`.
#[test]
fn binary_cells_are_read_as_their_bytes_say_whatever_their_label() {
    let body = "新华社北京十二月十五日电，记者从国家气象局获悉，受强冷空气影响，未来三天我国北方大部分地区将出现大风降温天气。";
    let page = |c: &str| {
        format!("<html><head><meta charset=\"{c}\"></head><body><p>{body}</p></body></html>")
    };
    let gbk = |s: String| encoding_rs::GBK.encode(&s).0.into_owned();
    let cells = [
        page("gb2312").into_bytes(),
        gbk(page("utf-8")),
        gbk(page("gbk")),
    ];
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pages.parquet");
    let html = page("gb2312");
    write_parquet(
        &path,
        vec![
            (
                "html",
                Arc::new(BinaryArray::from(
                    cells
                        .iter()
                        .map(|c| Some(c.as_slice()))
                        .chain([None])
                        .collect::<Vec<_>>(),
                )) as ArrayRef,
            ),
            (
                "text",
                Arc::new(StringArray::from(vec![
                    None,
                    None,
                    None,
                    Some(html.as_str()),
                ])),
            ),
        ],
    );
    let out = dir.path().join("out.jsonl");
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let stats = crate::clean(
        vec![Origin::File {
            path: path.clone(),
            rel: "pages.parquet".into(),
        }],
        &Destination::File(out.clone()),
        &cleaner().with_method(ncleaner::Method::KeepAll),
        CorpusOptions {
            format: OutputFormat::Jsonl,
            ..CorpusOptions::default()
        },
        &pool,
        &mut (),
    )
    .unwrap();
    assert_eq!(stats.cleaned, 4);
    let lines: Vec<serde_json::Value> = std::fs::read_to_string(&out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    for (i, line) in lines.iter().enumerate() {
        let text = line["text"].as_str().unwrap();
        assert!(text.contains(body), "row {i}: {text:?}");
    }
}
