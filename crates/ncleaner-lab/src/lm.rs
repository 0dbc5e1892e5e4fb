//! Training word language models (`ncleaner lm train`) from corpora on
//! disk: plain-text files read line by line (any size) and CleanEval gold
//! files, fed to an [`Estimator`].

use std::io::BufRead;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use ncleaner::format;
use ncleaner::lm::Estimator;
use ncleaner_corpus as corpus;

/// Adds every line of `input` (named `name` in errors) to the estimator;
/// `progress(name, lines, sentences)` is called every million lines.
pub fn add_lines(
    est: &mut Estimator,
    input: impl BufRead,
    name: &str,
    progress: &mut impl FnMut(&str, u64, u64),
) -> Result<()> {
    let mut lines = 0u64;
    for line in input.split(b'\n') {
        let line = line.map_err(|e| Error::io(Path::new(name), e))?;
        est.add_text(&String::from_utf8_lossy(&line))?;
        lines += 1;
        if lines.is_multiple_of(1_000_000) {
            progress(name, lines, est.sentences());
        }
    }
    Ok(())
}

/// Adds plain-text files, directories (searched recursively) and `-`
/// (standard input) line by line ([`add_lines`]); returns the number of files.
pub fn add_text_files(
    est: &mut Estimator,
    inputs: &[PathBuf],
    mut progress: impl FnMut(&str, u64, u64),
) -> Result<usize> {
    let mut files = 0usize;
    for origin in corpus::expand(inputs)? {
        files += 1;
        match &origin {
            corpus::Origin::File { path, .. } => {
                let f = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
                add_lines(
                    est,
                    std::io::BufReader::new(f),
                    &path.display().to_string(),
                    &mut progress,
                )?;
            }
            corpus::Origin::Stdin => add_lines(est, std::io::stdin().lock(), "-", &mut progress)?,
            corpus::Origin::Memory { name, bytes } => {
                add_lines(est, &bytes[..], name, &mut progress)?
            }
        }
    }
    Ok(files)
}

/// Adds the segments of CleanEval gold files (files or directories
/// searched recursively): `URL:` lines skipped, `<p>`/`<h>`/`<l>` markers
/// removed. Returns the number of files.
pub fn add_gold_files(est: &mut Estimator, inputs: &[PathBuf]) -> Result<usize> {
    let mut files = 0usize;
    for origin in corpus::expand(inputs)? {
        files += 1;
        let bytes = origin.read()?;
        for (_, seg) in format::read_segments(&String::from_utf8_lossy(&bytes)) {
            est.add_text(&seg)?;
        }
    }
    Ok(files)
}

/// The provenance line of a word model trained by `ncleaner lm train`.
pub fn provenance(order: usize, min_count: u32, files: usize, sentences: u64) -> String {
    format!(
        "trained by `ncleaner lm train -n {order} --min-count {min_count}` on {files} file(s), {sentences} sentences"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use ncleaner::lm::TrainConfig;

    #[test]
    fn text_and_gold_files_are_read() {
        let t = tempfile::tempdir().unwrap();
        std::fs::write(t.path().join("a.txt"), "One sentence here.\nAnother one.\n").unwrap();
        let g = t.path().join("gold");
        std::fs::create_dir(&g).unwrap();
        std::fs::write(g.join("1.txt"), "URL: http://x\n<p> A gold paragraph.\n").unwrap();
        let mut est = Estimator::new(TrainConfig {
            order: 2,
            min_count: 1,
            max_ngrams: 0,
        })
        .unwrap();
        let n = add_text_files(&mut est, &[t.path().join("a.txt")], |_, _, _| {}).unwrap();
        assert_eq!(n, 1);
        let after_text = est.sentences();
        assert!(after_text >= 2, "{after_text}");
        assert_eq!(add_gold_files(&mut est, &[g]).unwrap(), 1);
        assert_eq!(est.sentences(), after_text + 1);
        assert_eq!(
            provenance(2, 1, 2, 3),
            "trained by `ncleaner lm train -n 2 --min-count 1` on 2 file(s), 3 sentences"
        );
    }
}
