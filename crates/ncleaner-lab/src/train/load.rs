//! Training data: pages paired with their gold files, run through the same
//! pipeline stages as cleaning, so that the models see at training time
//! exactly the segments they will judge.

use std::path::PathBuf;

use rayon::prelude::*;

use crate::error::{Error, Result};
use ncleaner::InputKind;
use ncleaner::format::read_segments;
use ncleaner::model::TrainingPage;
use ncleaner::page::segments_of;

use super::{OperatingPoint, TrainConfig};
use ncleaner::Segment;

pub use crate::crossval::Pair;
pub use crate::pool::{key_of, pair};

/// Reads and segments the pairs (in parallel): the page through the
/// pipeline's decode, html and segment stages, the gold file as segments.
pub fn load(pairs: &[Pair], input: InputKind) -> Result<Vec<TrainingPage>> {
    pairs
        .par_iter()
        .map(|p| {
            let bytes = ncleaner_corpus::read_document(&p.page)?;
            let gold = std::fs::read(&p.gold).map_err(|e| Error::io(&p.gold, e))?;
            Ok(training_page(&p.key, &bytes, &gold, input))
        })
        .collect()
}

/// One training page from the bytes of a page and of its gold file.
pub fn training_page(name: &str, page: &[u8], gold: &[u8], input: InputKind) -> TrainingPage {
    let doc = ncleaner::decode::decode(page, None, None);
    let (_, segments) = segments_of(&doc.text, input);
    let gold = String::from_utf8_lossy(gold);
    TrainingPage {
        name: name.to_string(),
        raw: segments.into_iter().map(Segment::into_text).collect(),
        clean: read_segments(&gold).into_iter().map(|(_, t)| t).collect(),
    }
}

/// The training pages of (pages, gold) directory pairs, keyed as
/// [`crate::pool`] describes, without the pages whose relative path starts
/// with one of `exclude`; `text`: the pages are plain-text dumps, not HTML.
/// Also returns a description of each directory for [`provenance`]
/// (`cleaneval/dev (60 pages)`).
pub fn load_dirs(
    dirs: &[(PathBuf, PathBuf)],
    exclude: &[String],
    text: bool,
) -> Result<(Vec<crate::crossval::PoolPage>, Vec<String>)> {
    let mut pages = Vec::new();
    let mut sources = Vec::new();
    for ((dir, _), pairs) in dirs.iter().zip(crate::pool::pair_each(dirs, exclude)?) {
        sources.push(format!(
            "{} ({} pages)",
            crate::pool::last_components(dir),
            pairs.len()
        ));
        pages.extend(if text {
            crate::crossval::load_text_pool(&pairs)?
        } else {
            crate::crossval::load_pool(&pairs)?
        });
    }
    Ok((pages, sources))
}

/// The provenance line `ncleaner train` writes into a model: the options
/// (`--nonlexical`, `--paper`), the configuration, the `sources` of
/// [`load_dirs`] and the `--exclude` prefixes.
pub fn provenance(
    cfg: &TrainConfig,
    nonlexical: bool,
    paper: bool,
    sources: &[String],
    exclude: &[String],
) -> String {
    format!(
        "ncleaner train{}{} n={} q={} dirty={} classifier={} on {}{}",
        if nonlexical { " --nonlexical" } else { "" },
        if paper { " --paper" } else { "" },
        cfg.n,
        cfg.q,
        cfg.dirty.name(),
        match &cfg.classifier {
            None => "none".to_string(),
            Some(c) => format!(
                "{{neighbours={}, attrs={}, hmm={}, operating-point={:?}}}",
                c.neighbours, c.attrs, c.hmm, c.operating_point
            ),
        },
        sources.join(" + "),
        if exclude.is_empty() {
            String::new()
        } else {
            format!(" excluding {}", exclude.join(", "))
        }
    )
}

/// Parses an operating point: `min-precision:P`, `f-beta:B` or `max-f`
/// ([`OperatingPoint`]).
pub fn parse_operating_point(s: &str) -> std::result::Result<OperatingPoint, String> {
    let bad = || format!("{s:?}: give min-precision:P, f-beta:B, max-f or max-page-f");
    match s.split_once(':') {
        None if s == "max-f" => Ok(OperatingPoint::MaxF),
        None if s == "max-page-f" => Ok(OperatingPoint::MaxPageF),
        Some(("min-precision", p)) => {
            Ok(OperatingPoint::MinPrecision(p.parse().map_err(|_| bad())?))
        }
        Some(("f-beta", b)) => Ok(OperatingPoint::MaxFBeta(b.parse().map_err(|_| bad())?)),
        _ => Err(bad()),
    }
}

#[cfg(test)]
mod provenance_tests {
    use super::*;

    #[test]
    fn provenance_line() {
        let cfg = TrainConfig::paper_lexical();
        let p = provenance(
            &cfg,
            false,
            true,
            &["x/dev (2 pages)".into()],
            &["test".into()],
        );
        assert!(p.starts_with("ncleaner train --paper n="), "{p}");
        assert!(
            p.contains("classifier=none on x/dev (2 pages) excluding test"),
            "{p}"
        );
    }
}
