//! Words and sentences for the word language models.
//!
//! Tokens are UAX #29 word-boundary pieces (the `unicode-segmentation`
//! crate), so every script is handled, `can't`, `3.14` and `1,000` stay one
//! token and each punctuation character is a token of its own. Whitespace
//! pieces are dropped; nothing else is, so no word is ever lost (PyPlexity's
//! tokenizer deletes the word after ". "). Each token is lowercased
//! (Unicode full lowercasing) and every numeric character becomes `0`, so
//! `1984` and `2023` are the same word `0000` (CCNet's normalisation: numbers
//! keep their shape, not their value).
//!
//! Sentences are UAX #29 sentence-boundary pieces, which already keep
//! decimals (`3.14`), URLs and e-mail addresses (`example.com`) whole and break
//! at line ends; a piece that ends in a known abbreviation (`Dr.`, `e.g.`,
//! `etc.`, month names, …) or an initial (`J.`) is joined with the next one.

use unicode_segmentation::UnicodeSegmentation;

use crate::lexicon::ABBREVIATIONS;

/// The normalised tokens of one sentence (lowercased, digits as `0`).
pub fn tokens(sentence: &str) -> Vec<String> {
    words(sentence).collect()
}

/// [`tokens`] one at a time.
pub fn words(sentence: &str) -> impl Iterator<Item = String> + '_ {
    sentence
        .split_word_bounds()
        .filter(|piece| !piece.chars().all(char::is_whitespace))
        .map(normalise)
}

/// One token normalised: lowercased, numeric characters replaced by `0`,
/// the typographic apostrophe written `'`.
pub fn normalise(token: &str) -> String {
    // `str::to_lowercase`, not per character: Greek final sigma needs context.
    token
        .to_lowercase()
        .chars()
        .map(|c| match c {
            '\u{2019}' => '\'',
            c if c.is_numeric() => '0',
            c => c,
        })
        .collect()
}

/// The sentences of a text, trimmed, empty ones skipped.
pub fn sentences(text: &str) -> Vec<&str> {
    each_sentence(text).collect()
}

/// [`sentences`] one at a time: a text of any number of sentences costs no
/// list of them.
pub fn each_sentence(text: &str) -> impl Iterator<Item = &str> {
    let mut pieces = text.split_sentence_bound_indices();
    // Byte range of the sentence being built.
    let mut start: Option<usize> = None;
    let mut end = 0;
    let mut done = false;
    std::iter::from_fn(move || {
        while !done {
            let Some((i, piece)) = pieces.next() else {
                done = true;
                if let Some(s) = start.take() {
                    let s = text[s..end].trim();
                    if !s.is_empty() {
                        return Some(s);
                    }
                }
                break;
            };
            let from = *start.get_or_insert(i);
            end = i + piece.len();
            let s = &text[from..end];
            if !continues(s) {
                start = None;
                let s = s.trim();
                if !s.is_empty() {
                    return Some(s);
                }
            }
        }
        None
    })
}

/// Whether a sentence piece ends in an abbreviation or an initial, so that
/// the next piece belongs to the same sentence. A line break always ends it.
fn continues(piece: &str) -> bool {
    if piece.ends_with(['\n', '\r', '\u{2029}', '\u{2028}']) {
        return false;
    }
    let t = piece.trim_end();
    let Some(body) = t.strip_suffix('.') else {
        return false;
    };
    let last = body
        .rsplit(|c: char| c.is_whitespace() || c == '(' || c == '"')
        .next()
        .unwrap_or("");
    if last.is_empty() {
        return false;
    }
    let mut chars = last.chars();
    let initial = matches!((chars.next(), chars.next()), (Some(c), None) if c.is_alphabetic() && c.is_uppercase());
    initial || ABBREVIATIONS.contains(&last.to_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_keep_every_word() {
        assert_eq!(
            tokens("Hello. World, it's 3.14 — Ünïcode!"),
            [
                "hello",
                ".",
                "world",
                ",",
                "it's",
                "0.00",
                "—",
                "ünïcode",
                "!"
            ]
        );
        // PyPlexity drops the word after ". "; we do not.
        assert_eq!(tokens("End. Next word"), ["end", ".", "next", "word"]);
        assert_eq!(
            tokens("Year 1984, price 1,000"),
            ["year", "0000", ",", "price", "0,000"]
        );
        assert_eq!(tokens("Don\u{2019}t ΣΑΣ"), ["don't", "σας"]);
        assert_eq!(tokens("   "), Vec::<String>::new());
    }

    #[test]
    fn sentence_splitting() {
        assert_eq!(
            sentences(
                "Dr. Smith met J. R. Tolkien in the U.S. on Jan. 5. It cost 3.50 dollars! See example.com/a.html now.\nNew line"
            ),
            [
                "Dr. Smith met J. R. Tolkien in the U.S. on Jan. 5.",
                "It cost 3.50 dollars!",
                "See example.com/a.html now.",
                "New line"
            ]
        );
        assert_eq!(
            sentences("e.g. this. And that."),
            ["e.g. this.", "And that."]
        );
        assert!(sentences(" \n ").is_empty());
    }
}
