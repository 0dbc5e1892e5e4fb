//! Writes a Parquet file of rows of large pages, for measuring the memory
//! a Parquet input takes (BENCHMARKS.md, "Reliability"):
//!
//!   cargo run --release -p ncleaner-corpus --example big-parquet -- OUT [ROWS] [MB] [CODEC] [PAGES]
//!
//! `ROWS` rows (default 64) with an `id` and a `text` column, each text of
//! `MB` megabytes (default 14) of words that do not repeat (so that no
//! codec makes them small), all in one row group. `CODEC` is the pages'
//! compression: `none` (the default), `snappy`, `gzip`, `brotli`, `lz4`,
//! `lz4_raw` or `zstd`. `PAGES` is how the writer cuts the column into
//! pages: `one` (the default: every value in one data page, as a writer
//! that checks a page's size only every 1,024 values does, pyarrow's among
//! them) or `per-value` (the Arrow crate's own cut).
//!
//!   /usr/bin/time -v target/release/ncleaner clean -j 1 --method keep-all -o /dev/null OUT

use std::sync::Arc;

use arrow_array::{ArrayRef, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema};
use parquet::arrow::ArrowWriter;
use parquet::basic::{BrotliLevel, Compression, GzipLevel, ZstdLevel};
use parquet::file::properties::WriterProperties;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = || -> ! {
        eprintln!(
            "usage: big-parquet OUT [ROWS] [MB] [none|snappy|gzip|brotli|lz4|lz4_raw|zstd] [one|per-value]"
        );
        std::process::exit(2)
    };
    let out = args.first().unwrap_or_else(|| usage());
    let number = |i: usize, default: usize| {
        args.get(i)
            .map_or(Some(default), |a| a.parse().ok())
            .unwrap_or_else(|| usage())
    };
    let (rows, mb) = (number(1, 64), number(2, 14));
    let codec = match args.get(3).map_or("none", String::as_str) {
        "none" => Compression::UNCOMPRESSED,
        "snappy" => Compression::SNAPPY,
        "gzip" => Compression::GZIP(GzipLevel::default()),
        "brotli" => Compression::BROTLI(BrotliLevel::default()),
        "lz4" => Compression::LZ4,
        "lz4_raw" => Compression::LZ4_RAW,
        "zstd" => Compression::ZSTD(ZstdLevel::default()),
        _ => usage(),
    };
    let one_page = match args.get(4).map_or("one", String::as_str) {
        "one" => true,
        "per-value" => false,
        _ => usage(),
    };
    let schema = Arc::new(Schema::new(vec![
        Field::new("id", DataType::Utf8, true),
        Field::new("text", DataType::Utf8, true),
    ]));
    let mut props = WriterProperties::builder()
        .set_compression(codec)
        .set_dictionary_enabled(false)
        .set_max_row_group_row_count(Some(rows.max(1)));
    if one_page {
        props = props
            .set_data_page_size_limit(usize::MAX)
            .set_data_page_row_count_limit(usize::MAX);
    }
    let file = std::fs::File::create(out).unwrap_or_else(|e| {
        eprintln!("big-parquet: {out}: {e}");
        std::process::exit(1)
    });
    let mut w = ArrowWriter::try_new(file, schema.clone(), Some(props.build())).expect("a writer");
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    // Rows are handed to the writer a few at a time, so that the generator
    // itself holds little; the writer keeps them in one row group.
    for first in (0..rows).step_by(4) {
        let n = (rows - first).min(4);
        let ids: Vec<String> = (first..first + n).map(|i| format!("big{i}")).collect();
        let texts: Vec<String> = (first..first + n)
            .map(|i| text(&format!("Row{i}"), mb << 20, &mut seed))
            .collect();
        let columns: Vec<ArrayRef> = vec![
            Arc::new(StringArray::from(ids)),
            Arc::new(StringArray::from(texts)),
        ];
        let batch = RecordBatch::try_new(schema.clone(), columns).expect("a batch");
        w.write(&batch).expect("written");
    }
    let meta = w.close().expect("closed");
    eprintln!(
        "big-parquet: {out}: {rows} rows of {mb} MB, {} row group(s)",
        meta.num_row_groups()
    );
}

/// `len` bytes of text after `head`: lines of pseudo-random words (xorshift).
fn text(head: &str, len: usize, seed: &mut u64) -> String {
    let mut s = String::with_capacity(len + 64);
    s.push_str(head);
    s.push('\n');
    let mut words = 0;
    while s.len() < len {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        let mut x = *seed;
        for _ in 0..(3 + x % 6) {
            s.push((b'a' + (x % 26) as u8) as char);
            x /= 26;
        }
        words += 1;
        s.push(if words % 12 == 0 { '\n' } else { ' ' });
    }
    s
}
