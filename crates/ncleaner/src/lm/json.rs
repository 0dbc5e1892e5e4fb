//! `ncleaner perplexity --json`'s line of a sentence, serialised as its
//! words are scored ([`WordLm::score_each`]): a sentence of any length
//! costs no list of its words, nor a JSON tree of them. The fields keep the
//! order they have always had (alphabetical).

use serde::ser::{Error as _, SerializeSeq};
use serde::{Serialize, Serializer};

use super::{Smoothing, WordLm};

/// `{"perplexity", "sentence", "tokens": [...]}`.
#[derive(Serialize)]
pub(super) struct Line<'a> {
    pub perplexity: f64,
    pub sentence: &'a str,
    pub tokens: Tokens<'a>,
}

/// A sentence's words with their scores, each written as it is scored.
pub(super) struct Tokens<'a> {
    pub lm: &'a WordLm,
    pub sentence: &'a str,
    pub smoothing: Smoothing,
}

/// `{"log10", "ngram", "oov", "word"}`.
#[derive(Serialize)]
struct Token<'a> {
    log10: f64,
    ngram: usize,
    oov: bool,
    word: &'a str,
}

impl Serialize for Tokens<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(None)?;
        let mut failed = None;
        self.lm
            .score_each(self.sentence, self.smoothing, |w| {
                if failed.is_none() {
                    failed = seq
                        .serialize_element(&Token {
                            log10: w.log10,
                            ngram: w.ngram,
                            oov: w.oov,
                            word: &w.word,
                        })
                        .err();
                }
            })
            .map_err(S::Error::custom)?;
        match failed {
            Some(e) => Err(e),
            None => seq.end(),
        }
    }
}
