//! Parquet in and out, for the pipelines that build training data
//! (datatrove, Hugging Face datasets, DuckDB): a Parquet file with an
//! `html` or `text` column is read like JSON Lines ([`read`]), and
//! `-o out.parquet` writes the JSON Lines record's fields as columns
//! ([`write`]). Built on the Arrow project's `parquet` and `arrow-array`
//! crates, behind the crate feature `parquet` (on by default).

pub(crate) mod large;
pub mod read;
pub mod write;

pub use read::{ParquetDocument, Reader, RowError};
pub use write::{ParquetSink, schema};

/// The first (and last) four bytes of every Parquet file.
pub const MAGIC: &[u8; 4] = b"PAR1";

#[cfg(test)]
mod tests;
