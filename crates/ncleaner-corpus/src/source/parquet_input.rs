//! The [`Source`]'s Parquet inputs: each row an entry, as each line of a
//! JSON Lines file is ([`crate::parquet::read`]).

#[cfg(feature = "parquet")]
use std::path::PathBuf;
use std::sync::Arc;

#[cfg(feature = "parquet")]
use super::{Current, Entry, Error};
use super::{Input, Origin, Source};

impl Source {
    /// Opens a Parquet input: its footer is read, then its rows one by one
    /// as the source goes on. A file that cannot be read as Parquet is one
    /// failed entry.
    #[cfg(feature = "parquet")]
    /// `head` is the stream as the source opened it (its first bytes
    /// already read into its buffer): standard input is read on from it.
    pub(super) fn open_parquet(
        &mut self,
        input: Arc<Input>,
        origin: &Origin,
        head: impl std::io::Read,
    ) -> Option<Entry> {
        use crate::compress::Compression;
        let name = input.name();
        let fail = |this: &mut Source, why: String| {
            let e = Error::document(name.clone(), why);
            Some(this.failed(&input, name.clone(), e))
        };
        if input.compression != Compression::None {
            return fail(
                self,
                "a compressed Parquet file: Parquet compresses its own columns; give the file as it is".into(),
            );
        }
        let max = self.opts.max_document;
        let opened = match origin {
            Origin::File { path, .. } => match crate::files::open_input(path) {
                Ok(f) => crate::parquet::Reader::open(f, max),
                Err(e) => {
                    let err = Error::io(PathBuf::from(&name), e);
                    return Some(self.failed(&input, name.clone(), err));
                }
            },
            // Parquet's footer is at its end: standard input is copied to
            // a temporary file (removed when it is closed) and read from
            // there, in the memory of a file's batches.
            Origin::Stdin => match spill(head) {
                Ok(f) => crate::parquet::Reader::open(f, max),
                Err(e) => {
                    let why = format!(
                        "a Parquet stream is read from a temporary file (its footer is at its \
                         end), and copying it to one in {} failed: {e}",
                        std::env::temp_dir().display()
                    );
                    return fail(self, why);
                }
            },
            Origin::Memory { bytes, .. } => crate::parquet::read::open_bytes(bytes.clone(), max),
        };
        match opened {
            Ok(reader) => {
                self.current = Current::Parquet(input, Box::new(reader));
                None
            }
            Err(why) => fail(self, format!("not a Parquet file of pages: {why}")),
        }
    }

    /// Without the `parquet` feature a Parquet input is one failed entry.
    #[cfg(not(feature = "parquet"))]
    pub(super) fn open_parquet(
        &mut self,
        input: Arc<Input>,
        _origin: &Origin,
        _head: impl std::io::Read,
    ) -> Option<crate::Entry> {
        let name = input.name();
        let e = ncleaner::Error::document(
            name.clone(),
            "a Parquet file, and this ncleaner was built without Parquet support \
             (the default feature `parquet`)",
        );
        Some(self.failed(&input, name, e))
    }

    /// The entry of one row of a Parquet input.
    #[cfg(feature = "parquet")]
    pub(super) fn parquet_entry(
        &mut self,
        input: &Arc<Input>,
        item: Result<crate::parquet::ParquetDocument, crate::parquet::RowError>,
    ) -> Entry {
        let name = input.name();
        match item {
            Ok(doc) => {
                let id = doc.id.unwrap_or_else(|| format!("{name}#{}", doc.row));
                let at = format!("{name}#{}", doc.row);
                let mut e = self.entry(input, id, doc.url);
                e.place = Some(at.clone());
                // A cell's bytes are identified as a file's are. A string
                // column is Unicode: no `<meta>` may override that.
                let unicode = doc.utf8.then_some("utf-8");
                match self.cell_document(doc.body, None, unicode, doc.kind, || at) {
                    Ok(document) => e.document = Some(document),
                    Err(outcome) => e.early = Some(outcome),
                }
                e
            }
            Err(err) => {
                let at = err.row.map_or(name.clone(), |r| format!("{name}#{r}"));
                let id = err.id.unwrap_or_else(|| at.clone());
                let mut e = self.failed(input, id, Error::document(at.clone(), err.reason));
                e.place = Some(at);
                e
            }
        }
    }
}

/// Copies a stream to an anonymous temporary file (in `TMPDIR`, gone when
/// it is closed) through a buffer of fixed size.
#[cfg(feature = "parquet")]
fn spill(mut r: impl std::io::Read) -> std::io::Result<std::fs::File> {
    let mut f = tempfile::tempfile()?;
    std::io::copy(&mut r, &mut f)?;
    std::io::Write::flush(&mut f)?;
    Ok(f)
}
