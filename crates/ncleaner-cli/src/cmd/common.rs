//! Arguments and helpers shared by several subcommands.

use std::path::Path;

use anyhow::{Context, Result};
use clap::builder::TypedValueParser;

/// `-j N` lowered to what the machine can use
/// ([`ncleaner_corpus::run::clamp_threads`]), with a note when it is.
pub fn clamp_jobs(jobs: usize, flag: &str) -> Result<usize> {
    let (n, note) =
        ncleaner_corpus::run::clamp_threads(jobs).map_err(|e| anyhow::anyhow!("{flag} {e}"))?;
    note.inspect(|n| eprintln!("ncleaner: {flag} {n}"));
    Ok(n)
}

/// A rayon pool with `jobs` threads (all cores when `None`; see [`clamp_jobs`]).
pub fn thread_pool(jobs: Option<usize>) -> Result<rayon::ThreadPool> {
    let mut b = rayon::ThreadPoolBuilder::new();
    if let Some(j) = jobs {
        b = b.num_threads(clamp_jobs(j, "-j")?);
    }
    b.build().context("starting worker threads")
}

/// Loads a word model: `en-ppl` (embedded) or a file (binary or ARPA).
pub fn load_word_model(name: &str) -> Result<ncleaner::WordLm> {
    ncleaner::WordLm::open(name).with_context(|| format!("loading word model {name}"))
}

/// A clap value parser for a library enum, built on its `as_str` names and
/// its `FromStr`, so that the names live once in the library (for
/// `value_parser = names::<Method>(Method::ALL.map(Method::as_str))`).
pub fn names<T>(names: impl IntoIterator<Item = &'static str>) -> impl TypedValueParser<Value = T>
where
    T: std::str::FromStr + Clone + Send + Sync + 'static,
    T::Err: std::fmt::Debug,
{
    clap::builder::PossibleValuesParser::new(names).map(|s| s.parse::<T>().expect("a listed name"))
}

/// A library error as the command line says it: an option that is not
/// valid ([`ncleaner::OptionError`]) named as its flag (`--min-probability`,
/// `--no-route`), and so the options its message names, anything else as
/// it is.
pub fn option_error(e: impl Into<ncleaner::Error>) -> anyhow::Error {
    match e.into() {
        ncleaner::Error::Option(o) => {
            anyhow::anyhow!("{}: {}", flag(o.option), o.message_naming(flag))
        }
        e => anyhow::Error::new(e),
    }
}

/// The command line's flag of a cleaning option
/// ([`ncleaner::CleanOptions`]'s field name).
pub fn flag(option: &str) -> String {
    match option {
        "route" => "--no-route".into(),
        o => format!("--{}", o.replace('_', "-")),
    }
}

/// Refuses output options that would be ignored, saying what they need:
/// `--segments` without JSON Lines output (`--format jsonl` or `-o
/// FILE.jsonl`), and `-o NAME.EXT` where EXT names no output format (`-o
/// out.csv` would make a directory `out.csv`). The cleaning options are
/// checked by the library ([`ncleaner::CleanOptions::validate`]).
pub fn check_clean_options(
    format: Option<ncleaner_corpus::OutputFormat>,
    segments: bool,
    output: Option<&Path>,
) -> Result<()> {
    use ncleaner_corpus::OutputFormat;
    use ncleaner_corpus::sink::{self, Destination};
    let dest = Destination::from_arg(output);
    if let (Some(p), Destination::Dir(_)) = (output, &dest) {
        let slash = p
            .as_os_str()
            .as_encoded_bytes()
            .last()
            .is_some_and(|&b| std::path::is_separator(b as char));
        let has_ext = !slash
            && p.file_name()
                .and_then(|n| n.to_str())
                .and_then(|n| n.rfind('.'))
                .is_some_and(|i| i > 0);
        anyhow::ensure!(
            p.exists() || !has_ext,
            "-o {}: the extension names no output format, and the name would be made a \
             directory; end it in .txt, .jsonl, .md or .warc (optionally .gz or .zst), or .parquet, or give a directory",
            p.display()
        );
    }
    let effective = format.or_else(|| sink::format_from_name(&dest));
    anyhow::ensure!(
        !segments || effective == Some(OutputFormat::Jsonl),
        "--segments needs JSON Lines output: --format jsonl (or -o FILE.jsonl)"
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ncleaner::InputKind;
    use ncleaner::Method;
    use ncleaner_corpus::OutputFormat;

    #[test]
    fn parsers_read_the_library_names() {
        #[derive(clap::Parser)]
        struct T {
            #[arg(long, value_parser = names::<Method>(Method::ALL.map(Method::as_str)))]
            method: Method,
            #[arg(long, value_parser = names::<OutputFormat>(OutputFormat::ALL.map(OutputFormat::as_str)))]
            format: OutputFormat,
            #[arg(long, value_parser = names::<InputKind>(InputKind::ALL.map(InputKind::as_str)))]
            input: InputKind,
        }
        let t = <T as clap::Parser>::try_parse_from([
            "t", "--method", "keep-all", "--format", "jsonl", "--input", "text",
        ])
        .unwrap();
        assert_eq!(
            (t.method, t.format, t.input),
            (Method::KeepAll, OutputFormat::Jsonl, InputKind::Text)
        );
        assert!(
            <T as clap::Parser>::try_parse_from([
                "t", "--method", "x", "--format", "text", "--input", "html"
            ])
            .is_err()
        );
    }

    #[test]
    fn ignored_clean_options_are_refused() {
        let ok = |f, s, o: Option<&str>| {
            check_clean_options(f, s, o.map(Path::new)).map_err(|e| e.to_string())
        };
        assert!(ok(Some(OutputFormat::Jsonl), true, None).is_ok());
        assert!(ok(None, true, Some("x.jsonl.gz")).is_ok());
        let e = ok(None, true, None).unwrap_err();
        assert!(e.contains("--segments needs"), "{e}");
        assert!(ok(Some(OutputFormat::Text), true, None).is_err());
        assert!(ok(Some(OutputFormat::Parquet), true, None).is_err());
        let e = ok(None, false, Some("out.csv")).unwrap_err();
        assert!(e.contains("-o out.csv"), "{e}");
        assert!(ok(None, false, Some("outdir")).is_ok());
        assert!(ok(None, false, Some("out.txt")).is_ok());
        assert!(ok(None, false, Some("out.parquet")).is_ok());
    }

    #[test]
    fn option_errors_name_the_flag() {
        let mut o = ncleaner::CleanOptions::default();
        o.threshold = Some(f64::NAN);
        let e = option_error(o.validate().unwrap_err()).to_string();
        assert_eq!(e, "--threshold: NaN is not a finite number");
        assert_eq!(flag("route"), "--no-route");
        assert_eq!(flag("min_page_quality"), "--min-page-quality");
    }
}
