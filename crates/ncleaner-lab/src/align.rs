//! Aligned training data: which of a page's raw segments are in its gold text.
//!
//! The paper could not align its gold standard with the raw dumps and had to
//! train the dirty model from differential counts (StupidOS §2, §5). The
//! evaluation's word alignment does the job: the words of all of a page's
//! segments, in order, are aligned with the gold words by the same `difflib`
//! algorithm that `eval` uses (markers left out, as `--words-only` does), and
//! each segment gets the share of its words that the alignment matched.
//!
//! Only matched runs of [`MIN_RUN`] words or more count, or shorter runs that
//! cover a whole segment on the page *and* a whole line of the gold (a short
//! heading, a one-word list item): a menu item such as "About" or "Meal
//! Prep" also occurs somewhere in an article's gold, and `difflib` happily
//! matches such words on their own across the page; counting them labelled
//! menu items clean. (WCXB's author found the same with his labels: 12 % of
//! them changed, for +0.03 F1.)

use crate::eval::{matching_blocks, tokens};

/// The share of words a segment must have aligned with the gold text to be
/// labelled clean. One half: a segment is clean when most of it is gold text.
pub const CLEAN_SHARE: f64 = 0.5;

/// The shortest run of aligned words that counts, unless it covers a whole segment.
pub const MIN_RUN: usize = 3;

/// For every segment, the share (0–1) of its words aligned with gold words.
/// A segment without words gets 0.
pub fn aligned_shares<S: AsRef<str>>(segments: &[S], gold: &str) -> Vec<f64> {
    let mut words: Vec<&str> = Vec::new();
    let mut owner: Vec<usize> = Vec::new();
    for (i, s) in segments.iter().enumerate() {
        // The cleaner's words (`ncleaner::words`): a Chinese paragraph is
        // its characters, not one word that a single changed character
        // would keep from matching.
        for w in ncleaner::words::iter(s.as_ref()) {
            words.push(w);
            owner.push(i);
        }
    }
    let mut gold_words: Vec<String> = Vec::new();
    // The gold line of each gold word, and each line's first word and length.
    let mut gold_line: Vec<(usize, usize)> = Vec::new();
    for line in gold.lines() {
        let from = gold_words.len();
        for t in tokens(line, false, false) {
            if t.is_empty() || crate::eval::is_marker(&t) {
                continue;
            }
            if ncleaner::words::holds_unspaced(&t) {
                gold_words.extend(ncleaner::words::iter(&t).map(str::to_owned));
            } else {
                gold_words.push(t);
            }
        }
        let len = gold_words.len() - from;
        gold_line.extend(std::iter::repeat_n((from, len), len));
    }
    let gold_refs: Vec<&str> = gold_words.iter().map(String::as_str).collect();
    let mut matched = vec![0usize; segments.len()];
    let mut total = vec![0usize; segments.len()];
    let mut start = vec![0usize; segments.len()];
    for (k, &o) in owner.iter().enumerate() {
        if total[o] == 0 {
            start[o] = k;
        }
        total[o] += 1;
    }
    for (a, b, n) in matching_blocks(&words, &gold_refs) {
        let (line_start, line_len) = gold_line[b];
        let whole_line = line_start >= b && line_start + line_len <= b + n;
        for &o in &owner[a..a + n] {
            let whole = start[o] >= a && start[o] + total[o] <= a + n;
            if n >= MIN_RUN || (whole && whole_line) {
                matched[o] += 1;
            }
        }
    }
    matched
        .iter()
        .zip(&total)
        .map(|(&m, &t)| if t == 0 { 0.0 } else { m as f64 / t as f64 })
        .collect()
}

/// The words of a gold segment's text (single spaces between words), as the
/// cleaner counts them (`ncleaner::words`): its spaces plus one, or, in a
/// text that holds Han, kana or full-width characters, the words'
/// count.
pub fn gold_words(text: &str) -> usize {
    if ncleaner::words::holds_unspaced(text) {
        ncleaner::words::count(text)
    } else {
        text.split(' ').count()
    }
}

/// Clean (true) or dirty labels of segments from their aligned shares.
pub fn labels<S: AsRef<str>>(segments: &[S], gold: &str) -> Vec<bool> {
    aligned_shares(segments, gold)
        .into_iter()
        .map(|s| s >= CLEAN_SHARE)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares() {
        let segs = [
            "Home | News",
            "The cat sat on the mat.",
            "It was happy there too.",
            "Copyright 2007",
        ];
        let gold = "URL: x\n<p> The cat sat on the mat.\n<p> It was happy there.";
        let s = aligned_shares(&segs, gold);
        assert_eq!(s[0], 0.0);
        assert_eq!(s[1], 1.0);
        assert!((s[2] - 0.6).abs() < 1e-9, "{s:?}"); // "there" ≠ "there."
        assert_eq!(s[3], 0.0);
        assert_eq!(labels(&segs, gold), vec![false, true, true, false]);
    }

    /// A menu word that also occurs inside the gold's prose is not clean;
    /// the same word as a whole gold line (a heading) is.
    #[test]
    fn lone_words_count_only_against_whole_lines() {
        let segs = [
            "About",
            "Recipes",
            "We cook what we like to eat, every day.",
        ];
        let gold = "<p> About us: we cook what we like to eat, every day.";
        assert_eq!(labels(&segs, gold), vec![false, false, true]);
        let gold = "<h> About\n<p> We cook what we like to eat, every day.";
        assert_eq!(labels(&segs, gold), vec![true, false, true]);
    }

    /// Chinese is aligned character by character: a paragraph that differs
    /// from its gold line in one character is still clean.
    #[test]
    fn chinese_is_aligned_by_characters() {
        let segs = ["新华社北京电，会议在北京举行。", "相关新闻"];
        let shares = aligned_shares(&segs, "<p> 新华社北京电，会议在上海举行。");
        assert!(shares[0] > 0.8, "{shares:?}");
        assert_eq!(shares[1], 0.0);
    }

    #[test]
    fn empty_inputs() {
        assert!(aligned_shares::<&str>(&[], "gold").is_empty());
        assert_eq!(aligned_shares(&["a b"], ""), vec![0.0]);
    }
}
