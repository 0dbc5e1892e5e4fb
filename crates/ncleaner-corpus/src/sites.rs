//! The site-level first pass (`clean --sites`, `--site-memory`): every
//! page with a URL read once, in input order, into a memory of which
//! segments each site repeats ([`ncleaner::site`]), before the cleaning pass.

use std::path::{Path, PathBuf};

use ncleaner::InputKind;
use ncleaner::{Error, Result};

use crate::{
    CorpusOptions, Entry, Origin, Outcome, Rendered, RunOptions, Sink, Source, SourceOptions,
    Written, expand, run,
};

/// Reads every document of `origins` (on the threads of `pool`) and adds
/// each page that has a URL with a host to `memory` ([`ncleaner::site`]), in
/// input order; returns the number of pages added. Documents that cannot be
/// read are left to the cleaning pass to report.
pub fn learn_sites(
    origins: Vec<Origin>,
    opts: &CorpusOptions,
    pool: &rayon::ThreadPool,
    memory: &mut ncleaner::site::SiteMemory,
) -> Result<u64> {
    use ncleaner::site::PageSketch;
    struct Learn<'a> {
        memory: &'a mut ncleaner::site::SiteMemory,
        pages: u64,
    }
    impl Sink for Learn<'_> {
        fn write(&mut self, _: &Entry, outcome: &Outcome) -> Result<Written> {
            if let Outcome::Rendered(r) = outcome
                && let Some(p) = decode_sketch(&r.bytes)
            {
                self.memory.add(&p);
                self.pages += 1;
            }
            Ok(Written::Done)
        }
        fn finish(&mut self) -> Result<()> {
            Ok(())
        }
    }
    // A page's sketch travels to the in-order writer as bytes: host, 0, URL
    // hash, segment hashes.
    fn encode(p: &PageSketch) -> Vec<u8> {
        let mut b = Vec::with_capacity(p.host.len() + 9 + 8 * p.segments.len());
        b.extend_from_slice(p.host.as_bytes());
        b.push(0);
        b.extend_from_slice(&p.url.to_le_bytes());
        for s in &p.segments {
            b.extend_from_slice(&s.to_le_bytes());
        }
        b
    }
    fn decode_sketch(b: &[u8]) -> Option<PageSketch> {
        let z = b.iter().position(|&c| c == 0)?;
        let host = std::str::from_utf8(&b[..z]).ok()?.to_string();
        let rest = &b[z + 1..];
        let words: Vec<u64> = rest
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
            .collect();
        let (&url, segments) = words.split_first()?;
        Some(PageSketch {
            host,
            url,
            segments: segments.to_vec(),
        })
    }
    let source = Source::new(
        origins,
        SourceOptions {
            max_document: opts.max_document,
            keep_records: false,
        },
    );
    let source = source.detect_non_documents(opts.input == InputKind::Auto);
    let mut sink = Learn { memory, pages: 0 };
    run(
        source,
        pool,
        RunOptions::default(),
        &|e: &Entry| {
            let doc = e
                .document
                .as_ref()
                .ok_or_else(|| Error::document(&e.id, "no document"))?;
            let d = ncleaner::decode::decode(e.bytes(), e.url.as_deref(), doc.charset.as_deref());
            let (_, segments) =
                ncleaner::page::segments_of(&d.text, doc.kind.unwrap_or(opts.input));
            Ok(Rendered {
                bytes: PageSketch::of(d.url.as_deref(), &segments)
                    .map(|p| encode(&p))
                    .unwrap_or_default(),
                ..Rendered::default()
            })
        },
        &mut sink,
        &mut (),
    )?;
    Ok(sink.pages)
}

/// The site memory of a run with site features (`clean --sites`,
/// `--site-memory FILE`, `--no-site-pass`): loaded from `file` when it
/// exists (and always when `no_pass`; empty without `file`), then, unless
/// `no_pass`, every page with a host of `inputs` (files, directories; read
/// as `input`) added by [`learn_sites`]. Returns the memory and the number
/// of pages added. Refuses standard input (`-`) for the extra pass, which
/// reads the inputs a second time.
pub fn site_memory(
    inputs: &[PathBuf],
    input: InputKind,
    file: Option<&Path>,
    no_pass: bool,
    pool: &rayon::ThreadPool,
) -> Result<(ncleaner::site::SiteMemory, u64)> {
    if !no_pass && inputs.iter().any(|p| p.as_os_str() == "-") {
        return Err(Error::Parameter(
            "--sites/--site-memory read the inputs twice: give files, not standard input".into(),
        ));
    }
    let mut memory = match file {
        Some(f) if no_pass || f.exists() => ncleaner::site::SiteMemory::load(f)?,
        _ => ncleaner::site::SiteMemory::default(),
    };
    let pages = if no_pass {
        0
    } else {
        let opts = CorpusOptions {
            input,
            ..CorpusOptions::default()
        };
        learn_sites(expand(inputs)?, &opts, pool, &mut memory)?
    };
    Ok((memory, pages))
}

/// Refuses a site memory file (`--site-memory FILE`) that the run also
/// reads or writes otherwise, naming both: an input, the output file (or
/// its temporary or lock file), or a file inside the output directory.
/// Saved over the output, the memory would replace the cleaned text; read
/// as an input, it would be cleaned.
pub fn check_site_memory(file: &Path, inputs: &[PathBuf], dest: &crate::Destination) -> Result<()> {
    use crate::Destination;
    use crate::files::{canonical, same_file};
    let refuse = |what: String| {
        Err(Error::Parameter(format!(
            "--site-memory {}: this is {what}; the memory is saved over the file it names: \
             give it a file of its own",
            file.display()
        )))
    };
    for input in inputs.iter().filter(|p| p.as_os_str() != "-") {
        if same_file(file, input) {
            return refuse(format!("the input {}", input.display()));
        }
    }
    match dest {
        Destination::Stdout => Ok(()),
        Destination::File(out) => {
            let own = [
                out.clone(),
                crate::sink::partial_path(out),
                crate::sink::resuming_path(out),
            ];
            let lock = crate::lock::lock_path(dest);
            match own.iter().chain(&lock).find(|o| same_file(file, o)) {
                Some(o) => refuse(format!("the output -o {} ({})", out.display(), o.display())),
                None => Ok(()),
            }
        }
        Destination::Dir(dir) => match (canonical(file), canonical(dir)) {
            (Some(f), Some(d)) if f.starts_with(&d) => refuse(format!(
                "inside the output directory -o {}, among the outputs",
                dir.display()
            )),
            _ => Ok(()),
        },
    }
}
