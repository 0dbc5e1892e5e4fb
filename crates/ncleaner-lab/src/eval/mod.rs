//! Word-level and segmentation scores of cleaned pages against CleanEval gold files.
//!
//! The figures must be comparable with the NCleaner paper's, so this module
//! gives, file by file, the counts of the reference scorer
//! `../shared/tools/cleaneval_score.py` (rules in `../shared/data/README.md`):
//! same tokens ([`tokens()`]), same alignment (a port of Python's
//! `difflib.SequenceMatcher`, [`difflib::matching_blocks`]), same averages and
//! the same printed lines ([`Report`]'s `Display`).
//!
//! ```
//! use ncleaner_lab::eval::{score_pair, EvalOptions};
//! let s = score_pair("<p> the cat sat", "URL: x\n<p> the cat sat down", &EvalOptions::default());
//! assert_eq!((s.words.tp, s.words.fp, s.words.fn_), (5, 0, 1));
//! ```

pub mod difflib;
pub mod levenshtein;
pub mod tokens;
pub mod wcxb;

pub use difflib::matching_blocks;
pub use tokens::{is_marker, tokens};

use rustc_hash::FxHashMap as HashMap;
use std::borrow::Cow;
use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde::Serialize;

use crate::error::{Error, Result};

/// How texts are tokenised and aligned; the reference scorer's flags.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct EvalOptions {
    /// Delete non-ASCII characters before splitting (`--ascii`).
    pub ascii: bool,
    /// Align the words alone, markers and empty tokens dropped; no
    /// segmentation figures (`--words-only`).
    pub words_only: bool,
    /// Read every marker as `<p>` for the word-level alignment too, not only
    /// for the unlabelled segmentation figure (`--unlabelled`; not in the
    /// reference scorer, which always aligns words with labelled markers).
    pub unlabelled: bool,
    /// With `words_only`: every Han, kana and full-width character is a
    /// token of its own (`--cjk-chars`), as the reference scorer's flag
    /// makes them: the measure for Chinese and Japanese, written without
    /// spaces ([`tokens::split_cjk`]).
    pub cjk_chars: bool,
}

/// True positives, false positives and false negatives of one alignment.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Items inside matching blocks.
    pub tp: usize,
    /// Output items outside matching blocks.
    pub fp: usize,
    /// Gold items outside matching blocks.
    #[serde(rename = "fn")]
    pub fn_: usize,
}

impl Counts {
    /// Precision, recall and F of these counts (0 where undefined).
    pub fn prf(&self) -> Prf {
        prf(self.tp, self.fp, self.fn_)
    }
}

impl std::ops::AddAssign for Counts {
    fn add_assign(&mut self, o: Counts) {
        self.tp += o.tp;
        self.fp += o.fp;
        self.fn_ += o.fn_;
    }
}

/// Precision, recall and F, as fractions (not percentages).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Prf {
    /// TP / (TP + FP), 0 for an empty output.
    pub precision: f64,
    /// TP / (TP + FN), 0 for an empty gold.
    pub recall: f64,
    /// Harmonic mean of precision and recall, 0 when both are 0.
    pub f: f64,
}

/// The reference's `prf`, same operations in the same order.
fn prf(tp: usize, fp: usize, fn_: usize) -> Prf {
    let p = if tp + fp > 0 {
        tp as f64 / (tp + fp) as f64
    } else {
        0.0
    };
    let r = if tp + fn_ > 0 {
        tp as f64 / (tp + fn_) as f64
    } else {
        0.0
    };
    let f = if p + r > 0.0 {
        2.0 * p * r / (p + r)
    } else {
        0.0
    };
    Prf {
        precision: p,
        recall: r,
        f,
    }
}

/// Mean and sample standard deviation.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct MeanSd {
    /// Arithmetic mean (0 of nothing).
    pub mean: f64,
    /// Sample standard deviation (n - 1 denominator; 0 below two values).
    pub sd: f64,
}

impl MeanSd {
    /// The reference's `mean_sd`: plain left-to-right sums, as Python 3.11's `sum`.
    pub fn of(xs: impl IntoIterator<Item = f64> + Clone) -> MeanSd {
        let (mut n, mut total) = (0usize, 0.0f64);
        for x in xs.clone() {
            n += 1;
            total += x;
        }
        if n == 0 {
            return MeanSd::default();
        }
        let mean = total / n as f64;
        let sd = if n > 1 {
            let ss: f64 = xs
                .into_iter()
                .fold(0.0, |acc, x| acc + (x - mean) * (x - mean));
            (ss / (n - 1) as f64).sqrt()
        } else {
            0.0
        };
        MeanSd { mean, sd }
    }
}

/// Macro-averaged precision, recall and F: mean and spread of per-file figures.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct MacroPrf {
    /// Per-file precision.
    pub precision: MeanSd,
    /// Per-file recall.
    pub recall: MeanSd,
    /// Per-file F.
    pub f: MeanSd,
}

/// Counts of one output file against its gold file.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct PairScore {
    /// Tokens (words and markers, or words alone with `words_only`).
    pub words: Counts,
    /// Markers inside matching blocks of the labelled alignment; zero with `words_only`.
    pub seg_labelled: Counts,
    /// Markers inside matching blocks of the alignment with every marker read
    /// as `<p>`; zero with `words_only`.
    pub seg_unlabelled: Counts,
}

/// Token and marker counts of one alignment: the reference's `counts`.
fn align(out: &[&str], gold: &[&str]) -> (Counts, Counts) {
    let mut ids: HashMap<&str, u32> =
        HashMap::with_capacity_and_hasher(gold.len(), Default::default());
    let b: Vec<u32> = gold
        .iter()
        .map(|t| {
            let next = ids.len() as u32;
            *ids.entry(t).or_insert(next)
        })
        .collect();
    let a: Vec<u32> = out
        .iter()
        .map(|t| ids.get(t).copied().unwrap_or(u32::MAX))
        .collect();
    let (mut tp, mut mtp) = (0, 0);
    for (i, _, k) in difflib::matching_blocks_ids(&a, &b, ids.len()) {
        tp += k;
        mtp += out[i..i + k].iter().filter(|t| is_marker(t)).count();
    }
    let om = out.iter().filter(|t| is_marker(t)).count();
    let gm = gold.iter().filter(|t| is_marker(t)).count();
    (
        Counts {
            tp,
            fp: out.len() - tp,
            fn_: gold.len() - tp,
        },
        Counts {
            tp: mtp,
            fp: om - mtp,
            fn_: gm - mtp,
        },
    )
}

/// Tokens of a normalised text.
fn split(s: &str) -> Vec<&str> {
    s.split(' ').collect()
}

/// Words of a normalised text: no markers, no empty tokens.
fn split_words(s: &str) -> Vec<&str> {
    s.split(' ')
        .filter(|t| !t.is_empty() && !is_marker(t))
        .collect()
}

/// Scores one output text against its gold text (both CleanEval format).
pub fn score_pair(output: &str, gold: &str, opts: &EvalOptions) -> PairScore {
    if opts.words_only {
        let (output, gold): (Cow<str>, Cow<str>) = if opts.cjk_chars {
            (tokens::split_cjk(output), tokens::split_cjk(gold))
        } else {
            (output.into(), gold.into())
        };
        // Marker case is irrelevant here: markers are dropped.
        let (o, g) = (
            tokens::normalize(&output, opts.ascii, false),
            tokens::normalize(&gold, opts.ascii, false),
        );
        let (words, _) = align(&split_words(&o), &split_words(&g));
        return PairScore {
            words,
            ..PairScore::default()
        };
    }
    let (ol, gl) = (
        tokens::normalize(output, opts.ascii, false),
        tokens::normalize(gold, opts.ascii, false),
    );
    let (ou, gu) = (
        tokens::normalize(output, opts.ascii, true),
        tokens::normalize(gold, opts.ascii, true),
    );
    let (words_l, seg_l) = align(&split(&ol), &split(&gl));
    // When every marker of both texts is already `<p>` (gold files without
    // labels, such as Google News'), the second alignment would be the same.
    let (words_u, seg_u) = if ol == ou && gl == gu {
        (words_l, seg_l)
    } else {
        align(&split(&ou), &split(&gu))
    };
    PairScore {
        words: if opts.unlabelled { words_u } else { words_l },
        seg_labelled: seg_l,
        seg_unlabelled: seg_u,
    }
}

/// One scored file of a [`Report`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FileScore {
    /// Relative path of the gold file (`/`-separated), or the name given to [`score_texts`].
    pub name: String,
    /// Its counts.
    pub score: PairScore,
}

/// Scores of a set of files, sorted by name, with the reference's summaries.
///
/// `Display` prints the reference scorer's lines (`files`, `words`, `micro`,
/// `macro`, `seg-labelled`, `seg-unlabelled`), each ending with a newline.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// The options the files were scored with.
    pub options: EvalOptions,
    /// Per-file counts, sorted by name.
    pub files: Vec<FileScore>,
}

impl Report {
    /// Token counts pooled over all files.
    pub fn words(&self) -> Counts {
        self.sum(|s| s.words)
    }

    /// Micro-averaged P/R/F: of the pooled counts.
    pub fn micro(&self) -> Prf {
        self.words().prf()
    }

    /// Macro-averaged P/R/F: mean and sample SD of the per-file figures.
    pub fn macro_(&self) -> MacroPrf {
        let per: Vec<Prf> = self.files.iter().map(|f| f.score.words.prf()).collect();
        MacroPrf {
            precision: MeanSd::of(per.iter().map(|x| x.precision)),
            recall: MeanSd::of(per.iter().map(|x| x.recall)),
            f: MeanSd::of(per.iter().map(|x| x.f)),
        }
    }

    /// Pooled marker counts of the labelled alignment; `None` with `words_only`.
    pub fn seg_labelled(&self) -> Option<Counts> {
        (!self.options.words_only).then(|| self.sum(|s| s.seg_labelled))
    }

    /// Pooled marker counts of the unlabelled alignment; `None` with `words_only`.
    pub fn seg_unlabelled(&self) -> Option<Counts> {
        (!self.options.words_only).then(|| self.sum(|s| s.seg_unlabelled))
    }

    fn sum(&self, field: impl Fn(&PairScore) -> Counts) -> Counts {
        let mut c = Counts::default();
        for f in &self.files {
            c += field(&f.score);
        }
        c
    }

    /// The reference's `--per-file` table: header, one row per file, tab-separated.
    pub fn per_file_tsv(&self) -> String {
        let mut s = String::from("file\ttp\tfp\tfn\tprecision\trecall\tf\n");
        let rows: Vec<String> = self
            .files
            .iter()
            .map(|f| {
                let (c, x) = (f.score.words, f.score.words.prf());
                format!(
                    "{}\t{}\t{}\t{}\t{:.4}\t{:.4}\t{:.4}",
                    f.name, c.tp, c.fp, c.fn_, x.precision, x.recall, x.f
                )
            })
            .collect();
        s.push_str(&rows.join("\n"));
        s.push('\n');
        s
    }

    /// A machine-readable report: options, summaries and per-file counts.
    pub fn to_json(&self) -> serde_json::Value {
        let prf_json = |c: Counts| {
            let x = c.prf();
            serde_json::json!({
                "tp": c.tp, "fp": c.fp, "fn": c.fn_,
                "precision": x.precision, "recall": x.recall, "f": x.f,
            })
        };
        serde_json::json!({
            "options": self.options,
            "files": self.files.len(),
            "micro": prf_json(self.words()),
            "macro": self.macro_(),
            "seg_labelled": self.seg_labelled().map(prf_json),
            "seg_unlabelled": self.seg_unlabelled().map(prf_json),
            "per_file": self.files.iter().map(|f| {
                let mut v = prf_json(f.score.words);
                v["name"] = f.name.clone().into();
                if !self.options.words_only {
                    v["seg_labelled"] = serde_json::to_value(f.score.seg_labelled).unwrap_or_default();
                    v["seg_unlabelled"] = serde_json::to_value(f.score.seg_unlabelled).unwrap_or_default();
                }
                v
            }).collect::<Vec<_>>(),
        })
    }
}

impl fmt::Display for Report {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        let w = self.words();
        let pc = |x: f64| 100.0 * x;
        writeln!(out, "files\t{}", self.files.len())?;
        writeln!(out, "words\ttp={} fp={} fn={}", w.tp, w.fp, w.fn_)?;
        let m = w.prf();
        writeln!(
            out,
            "micro\tF={:.2} P={:.2} R={:.2}",
            pc(m.f),
            pc(m.precision),
            pc(m.recall)
        )?;
        let ma = self.macro_();
        writeln!(
            out,
            "macro\tF={:.2}±{:.2} P={:.2}±{:.2} R={:.2}±{:.2}",
            pc(ma.f.mean),
            pc(ma.f.sd),
            pc(ma.precision.mean),
            pc(ma.precision.sd),
            pc(ma.recall.mean),
            pc(ma.recall.sd)
        )?;
        for (name, seg) in [
            ("labelled", self.seg_labelled()),
            ("unlabelled", self.seg_unlabelled()),
        ] {
            if let Some(c) = seg {
                let x = c.prf();
                writeln!(
                    out,
                    "seg-{name}\tF={:.2} P={:.2} R={:.2}",
                    pc(x.f),
                    pc(x.precision),
                    pc(x.recall)
                )?;
            }
        }
        Ok(())
    }
}

/// Scores in-memory `(name, output, gold)` triples, in parallel.
///
/// For code that never writes files (cross-validation); the report is sorted
/// by name like [`score_dirs`]'s, so both give the same averages.
pub fn score_texts<I, N, O, G>(pairs: I, opts: &EvalOptions) -> Report
where
    I: IntoParallelIterator<Item = (N, O, G)>,
    N: Into<String> + Send,
    O: AsRef<str> + Send,
    G: AsRef<str> + Send,
{
    let mut files: Vec<FileScore> = pairs
        .into_par_iter()
        .map(|(name, out, gold)| FileScore {
            name: name.into(),
            score: score_pair(out.as_ref(), gold.as_ref(), opts),
        })
        .collect();
    files.sort_by(|x, y| x.name.cmp(&y.name));
    Report {
        options: *opts,
        files,
    }
}

/// Scores `outdir/REL/NAME.txt` against every `golddir/REL/NAME.txt`, in parallel.
///
/// Files are read as UTF-8 with invalid bytes replaced; a gold file with no
/// output file counts as an empty output. Fails if either directory is
/// missing or `golddir` holds no `*.txt` file.
pub fn score_dirs(outdir: &Path, golddir: &Path, opts: &EvalOptions) -> Result<Report> {
    let files = map_dirs(outdir, golddir, |out, gold| score_pair(out, gold, opts))?
        .into_iter()
        .map(|(name, score)| FileScore { name, score })
        .collect();
    Ok(Report {
        options: *opts,
        files,
    })
}

/// Applies `f(output, gold)` to every `golddir/REL/NAME.txt` and its
/// `outdir/REL/NAME.txt`, in parallel; results sorted by name.
///
/// Files are read as UTF-8 with invalid bytes replaced; a gold file with no
/// output file counts as an empty output. Fails if either directory is
/// missing or `golddir` holds no `*.txt` file.
pub fn map_dirs<T: Send>(
    outdir: &Path,
    golddir: &Path,
    f: impl Fn(&str, &str) -> T + Sync,
) -> Result<Vec<(String, T)>> {
    for dir in [outdir, golddir] {
        let meta = fs::metadata(dir).map_err(|e| Error::io(dir, e))?;
        if !meta.is_dir() {
            return Err(Error::NotADirectory(dir.to_owned()));
        }
    }
    let mut golds = Vec::new();
    gold_files(golddir, golddir, &mut golds)?;
    if golds.is_empty() {
        return Err(Error::NoGoldFiles(golddir.to_owned()));
    }
    golds.sort();
    golds
        .into_par_iter()
        .map(|(name, rel)| {
            let gold_path = golddir.join(&rel);
            let gold = fs::read(&gold_path).map_err(|e| Error::io(&gold_path, e))?;
            let out_path = outdir.join(&rel);
            let out = match fs::read(&out_path) {
                Ok(bytes) => bytes,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
                Err(e) => return Err(Error::io(&out_path, e)),
            };
            let r = f(
                &String::from_utf8_lossy(&out),
                &String::from_utf8_lossy(&gold),
            );
            Ok((name, r))
        })
        .collect()
}

/// Collects `(relative name, relative path)` of the `*.txt` files under `dir`.
///
/// Like Python's `os.walk`, symbolic links to files count and symbolic links
/// to directories are not followed.
fn gold_files(root: &Path, dir: &Path, acc: &mut Vec<(String, PathBuf)>) -> Result<()> {
    let entries = fs::read_dir(dir).map_err(|e| Error::io(dir, e))?;
    for entry in entries {
        let entry = entry.map_err(|e| Error::io(dir, e))?;
        let path = entry.path();
        let ft = entry.file_type().map_err(|e| Error::io(&path, e))?;
        let is_dir = if ft.is_symlink() {
            fs::metadata(&path).is_ok_and(|m| m.is_dir())
        } else {
            ft.is_dir()
        };
        if is_dir {
            if !ft.is_symlink() {
                gold_files(root, &path, acc)?;
            }
        } else if entry.file_name().as_encoded_bytes().ends_with(b".txt") {
            let rel = path
                .strip_prefix(root)
                .expect("read_dir yields paths under its directory")
                .to_owned();
            acc.push((rel.to_string_lossy().into_owned(), rel));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts() -> EvalOptions {
        EvalOptions::default()
    }

    #[test]
    fn cjk_chars_make_each_han_and_kana_character_a_word() {
        let w = EvalOptions {
            words_only: true,
            cjk_chars: true,
            ..opts()
        };
        // 中 文 测 试 against 中 文 and the Latin word, which stays whole;
        // the full-width comma is a character of its own too.
        let s = score_pair("<p> 中文测试，word", "<p> 中文 word", &w);
        assert_eq!(
            s.words,
            Counts {
                tp: 3,
                fp: 3,
                fn_: 0
            }
        );
        // Without the flag the run of Han characters is one word.
        let s = score_pair(
            "<p> 中文测试，word",
            "<p> 中文 word",
            &EvalOptions {
                cjk_chars: false,
                ..w
            },
        );
        assert_eq!(s.words.tp, 0);
        assert_eq!(tokens::split_cjk("plain"), "plain");
        assert_eq!(tokens::split_cjk("かな漢字"), " か  な  漢  字 ");
    }

    #[test]
    fn empty_output_and_empty_gold() {
        // "" gives the single token "", which matches a gold's leading "".
        let s = score_pair("", "URL: x\n<p> a b", &opts());
        assert_eq!(
            s.words,
            Counts {
                tp: 1,
                fp: 0,
                fn_: 3
            }
        );
        assert_eq!(
            s.seg_labelled,
            Counts {
                tp: 0,
                fp: 0,
                fn_: 1
            }
        );
        let s = score_pair("", "", &opts());
        assert_eq!(
            s.words,
            Counts {
                tp: 1,
                fp: 0,
                fn_: 0
            }
        );
        let w = EvalOptions {
            words_only: true,
            ..opts()
        };
        let s = score_pair("", "", &w);
        assert_eq!(s.words, Counts::default());
        assert_eq!(s.words.prf(), Prf::default());
    }

    #[test]
    fn labelled_and_unlabelled_segmentation() {
        let s = score_pair(
            "<p> Title <p> body text",
            "<h> Title <p> body text",
            &opts(),
        );
        assert_eq!(
            s.words,
            Counts {
                tp: 5,
                fp: 1,
                fn_: 1
            }
        );
        assert_eq!(
            s.seg_labelled,
            Counts {
                tp: 1,
                fp: 1,
                fn_: 1
            }
        );
        assert_eq!(
            s.seg_unlabelled,
            Counts {
                tp: 2,
                fp: 0,
                fn_: 0
            }
        );
        let u = EvalOptions {
            unlabelled: true,
            ..opts()
        };
        let s2 = score_pair("<p> Title <p> body text", "<h> Title <p> body text", &u);
        assert_eq!(
            s2.words,
            Counts {
                tp: 6,
                fp: 0,
                fn_: 0
            }
        );
        assert_eq!(
            (s2.seg_labelled, s2.seg_unlabelled),
            (s.seg_labelled, s.seg_unlabelled)
        );
    }

    #[test]
    fn words_only_drops_markers_and_empty_tokens() {
        let w = EvalOptions {
            words_only: true,
            ..opts()
        };
        let s = score_pair(" Title\nbody text ", "<h> Title <p> body text", &w);
        assert_eq!(
            s.words,
            Counts {
                tp: 3,
                fp: 0,
                fn_: 0
            }
        );
        assert_eq!(s.seg_labelled, Counts::default());
    }

    #[test]
    fn mean_sd_matches_the_reference() {
        assert_eq!(MeanSd::of(Vec::<f64>::new()), MeanSd::default());
        assert_eq!(MeanSd::of(vec![0.5]), MeanSd { mean: 0.5, sd: 0.0 });
        let m = MeanSd::of(vec![1.0, 2.0, 3.0, 4.0]);
        assert_eq!(m.mean, 2.5);
        assert!((m.sd - 1.2909944487358056).abs() < 1e-15);
    }

    #[test]
    fn report_lines_and_table() {
        let r = score_texts(
            vec![("b.txt", "<p> x y", "<p> x y z"), ("a.txt", "", "<l> q")],
            &opts(),
        );
        assert_eq!(r.files[0].name, "a.txt");
        let text = r.to_string();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "files\t2");
        assert_eq!(lines[1], "words\ttp=5 fp=0 fn=3");
        assert_eq!(lines.len(), 6);
        assert!(lines[3].starts_with("macro\tF="));
        let tsv = r.per_file_tsv();
        assert_eq!(
            tsv,
            "file\ttp\tfp\tfn\tprecision\trecall\tf\n\
             a.txt\t1\t0\t2\t1.0000\t0.3333\t0.5000\n\
             b.txt\t4\t0\t1\t1.0000\t0.8000\t0.8889\n"
        );
        let w = score_texts(
            Vec::<(String, String, String)>::new(),
            &EvalOptions {
                words_only: true,
                ..opts()
            },
        );
        assert_eq!(w.to_string().lines().count(), 4);
        assert!(r.to_json()["per_file"][0]["seg_labelled"].is_object());
    }

    #[test]
    fn directory_errors_name_the_directory() {
        let missing = Path::new("/nonexistent/ncleaner-eval-test");
        let e = score_dirs(missing, missing, &opts()).unwrap_err();
        assert!(
            e.to_string().contains("/nonexistent/ncleaner-eval-test"),
            "{e}"
        );
        let here = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let e = score_dirs(&here, &here, &opts()).unwrap_err();
        assert!(matches!(e, Error::NoGoldFiles(_)), "{e}");
        let file = here.join("lib.rs");
        let e = score_dirs(&file, &here, &opts()).unwrap_err();
        assert!(matches!(e, Error::NotADirectory(_)), "{e}");
    }
}
