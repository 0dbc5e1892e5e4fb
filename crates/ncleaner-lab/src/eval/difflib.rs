//! The matching-block search of Python's `difflib.SequenceMatcher`.
//!
//! CleanEval figures are defined by `difflib.SequenceMatcher(None, a, b)` with
//! its default `autojunk=True`, and its heuristics (popular elements, tie
//! breaking, block extension) change the counts, so this is a faithful port of
//! `__chain_b`, `find_longest_match` and `get_matching_blocks` for the case
//! `isjunk=None`, not an optimal alignment.

use rustc_hash::FxHashMap as HashMap;
use std::hash::Hash;

/// The id given to elements of `a` that never occur in `b`: they cannot match.
const ABSENT: u32 = u32::MAX;

/// Matching blocks `(i, j, n)` (`a[i..i + n] == b[j..j + n]`) of
/// `difflib.SequenceMatcher(None, a, b).get_matching_blocks()`.
///
/// Blocks are sorted and adjacent blocks are merged, as in difflib; difflib's
/// final zero-size sentinel `(len(a), len(b), 0)` is left out. With
/// `len(b) >= 200`, elements of `b` occurring more than `len(b) / 100 + 1`
/// times cannot start a match (difflib's `autojunk`), so the result is not
/// always a longest common subsequence: it is whatever difflib finds.
pub fn matching_blocks<T: Eq + Hash>(a: &[T], b: &[T]) -> Vec<(usize, usize, usize)> {
    let mut ids: HashMap<&T, u32> = HashMap::with_capacity_and_hasher(b.len(), Default::default());
    let b_ids: Vec<u32> = b
        .iter()
        .map(|t| {
            let next = ids.len() as u32;
            *ids.entry(t).or_insert(next)
        })
        .collect();
    let a_ids: Vec<u32> = a
        .iter()
        .map(|t| ids.get(t).copied().unwrap_or(ABSENT))
        .collect();
    matching_blocks_ids(&a_ids, &b_ids, ids.len())
}

/// [`matching_blocks`] over interned sequences: every element of `b` is below
/// `n_ids`; elements of `a` at or above `n_ids` match nothing.
pub(crate) fn matching_blocks_ids(
    a: &[u32],
    b: &[u32],
    n_ids: usize,
) -> Vec<(usize, usize, usize)> {
    assert!(
        a.len() < u32::MAX as usize && b.len() < u32::MAX as usize,
        "sequences too long"
    );
    let mut m = Matcher::new(a, b, n_ids);
    let mut queue = vec![(0, a.len(), 0, b.len())];
    let mut blocks = Vec::new();
    while let Some((alo, ahi, blo, bhi)) = queue.pop() {
        let (i, j, k) = m.find_longest_match(alo, ahi, blo, bhi);
        if k > 0 {
            blocks.push((i, j, k));
            if alo < i && blo < j {
                queue.push((alo, i, blo, j));
            }
            if i + k < ahi && j + k < bhi {
                queue.push((i + k, ahi, j + k, bhi));
            }
        }
    }
    blocks.sort_unstable();
    let mut merged: Vec<(usize, usize, usize)> = Vec::with_capacity(blocks.len());
    for (i, j, k) in blocks {
        match merged.last_mut() {
            Some((i1, j1, k1)) if *i1 + *k1 == i && *j1 + *k1 == j => *k1 += k,
            _ => merged.push((i, j, k)),
        }
    }
    merged
}

/// difflib's `b2j` as a CSR table: positions of id `x` in `b` are
/// `pos[start[x]..start[x + 1]]`, ascending; popular ids have none.
struct B2j {
    start: Vec<u32>,
    pos: Vec<u32>,
}

impl B2j {
    /// Positions of `x` in `b` that may start a match, ascending.
    fn get(&self, x: u32) -> &[u32] {
        let x = x as usize;
        if x + 1 >= self.start.len() {
            return &[];
        }
        &self.pos[self.start[x] as usize..self.start[x + 1] as usize]
    }
}

/// `SequenceMatcher` state for one pair: `b2j` and the `j2len` scratch rows.
struct Matcher<'s> {
    a: &'s [u32],
    b: &'s [u32],
    b2j: B2j,
    /// `j2len` of the previous and current rows in one array, shifted by one
    /// (`j2len[j + 1]` is for `b[j]`) so that `j - 1` needs no bounds check.
    /// An entry `(row, len)` counts only if `row` is the previous row's stamp,
    /// which saves clearing a hash map per row as difflib does.
    j2len: Vec<(u32, u32)>,
    /// Stamp of the last row processed; only grows, so stale entries never count.
    row: u32,
}

impl<'s> Matcher<'s> {
    /// difflib's `__chain_b` with `isjunk=None, autojunk=True`.
    fn new(a: &'s [u32], b: &'s [u32], n_ids: usize) -> Self {
        let mut count = vec![0u32; n_ids + 1];
        for &x in b {
            count[x as usize] += 1;
        }
        if b.len() >= 200 {
            let ntest = (b.len() / 100 + 1) as u32;
            for c in &mut count {
                if *c > ntest {
                    *c = 0;
                }
            }
        }
        let mut b2j_start = Vec::with_capacity(n_ids + 1);
        let mut total = 0u32;
        for &c in &count[..n_ids] {
            b2j_start.push(total);
            total += c;
        }
        b2j_start.push(total);
        let mut fill = b2j_start.clone();
        let mut b2j_pos = vec![0u32; total as usize];
        for (j, &x) in b.iter().enumerate() {
            let x = x as usize;
            if count[x] > 0 {
                b2j_pos[fill[x] as usize] = j as u32;
                fill[x] += 1;
            }
        }
        Matcher {
            a,
            b,
            b2j: B2j {
                start: b2j_start,
                pos: b2j_pos,
            },
            j2len: vec![(0, 0); b.len() + 1],
            row: 0,
        }
    }

    /// difflib's `find_longest_match(alo, ahi, blo, bhi)`, same ties, same extensions.
    fn find_longest_match(
        &mut self,
        alo: usize,
        ahi: usize,
        blo: usize,
        bhi: usize,
    ) -> (usize, usize, usize) {
        let (a, b) = (self.a, self.b);
        if self.row as u64 + (ahi - alo) as u64 + 2 >= u32::MAX as u64 {
            self.j2len.fill((0, 0));
            self.row = 0;
        }
        // Skipping one stamp keeps the last row of the previous call from
        // passing for the row before this call's first.
        self.row += 1;
        let (mut besti, mut bestj, mut bestsize) = (alo, blo, 0usize);
        for (i, &x) in a.iter().enumerate().take(ahi).skip(alo) {
            self.row += 1;
            let (prev, cur) = (self.row - 1, self.row);
            let mut js = self.b2j.get(x);
            // difflib skips positions outside blo..bhi one by one; a binary
            // search, only when needed, gives the same positions.
            if js.first().is_some_and(|&j| (j as usize) < blo) {
                js = &js[js.partition_point(|&j| (j as usize) < blo)..];
            }
            if js.last().is_some_and(|&j| (j as usize) >= bhi) {
                js = &js[..js.partition_point(|&j| (j as usize) < bhi)];
            }
            // Going down the row, `j2len[j]` (for `b[j - 1]`) still holds the
            // previous row when `b[j]` reads it, so one array serves both rows.
            // difflib goes up and keeps the first `j` with a longer match than
            // any so far: that is the smallest `j` of the row's longest match.
            let (mut row_k, mut row_j) = (0u32, 0usize);
            for &j in js.iter().rev() {
                let j = j as usize;
                let (stamp, len) = self.j2len[j];
                let k = if stamp == prev { len + 1 } else { 1 };
                self.j2len[j + 1] = (cur, k);
                if k >= row_k {
                    row_k = k;
                    row_j = j;
                }
            }
            let k = row_k as usize;
            if k > bestsize {
                (besti, bestj, bestsize) = (i + 1 - k, row_j + 1 - k, k);
            }
        }
        // With `isjunk=None` nothing is junk, so these loops extend over any
        // equal elements, popular ones included (even from an empty match);
        // difflib's second pair of loops, for junk elements, never runs.
        while besti > alo && bestj > blo && a[besti - 1] == b[bestj - 1] {
            besti -= 1;
            bestj -= 1;
            bestsize += 1;
        }
        while besti + bestsize < ahi
            && bestj + bestsize < bhi
            && a[besti + bestsize] == b[bestj + bestsize]
        {
            bestsize += 1;
        }
        (besti, bestj, bestsize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chars(s: &str) -> Vec<char> {
        s.chars().collect()
    }

    fn blocks(a: &str, b: &str) -> Vec<(usize, usize, usize)> {
        matching_blocks(&chars(a), &chars(b))
    }

    #[test]
    fn difflib_docstring_examples() {
        // From difflib's own docstrings.
        assert_eq!(blocks("abxcd", "abcd"), vec![(0, 0, 2), (3, 2, 2)]);
        assert_eq!(blocks("abcd", "bcd"), vec![(1, 0, 3)]);
        // find_longest_match(" abcd", "abcd abcd") finds (0, 4, 5) first.
        assert_eq!(blocks(" abcd", "abcd abcd"), vec![(0, 4, 5)]);
    }

    #[test]
    fn empty_sequences() {
        assert_eq!(blocks("", ""), vec![]);
        assert_eq!(blocks("abc", ""), vec![]);
        assert_eq!(blocks("", "abc"), vec![]);
        assert_eq!(blocks("xyz", "abc"), vec![]);
        assert_eq!(blocks("abc", "abc"), vec![(0, 0, 3)]);
    }

    #[test]
    fn ties_pick_smallest_i_then_smallest_j() {
        // Every "ab" of b matches "ab" of a; difflib keeps the first i, then the first j.
        assert_eq!(blocks("abab", "xabyab"), vec![(0, 1, 2), (2, 4, 2)]);
        assert_eq!(blocks("qab", "abzab"), vec![(1, 0, 2)]);
        // Two longest matches of equal size: the one earlier in a wins even if later in b.
        assert_eq!(blocks("cdab", "abcd"), vec![(0, 2, 2)]);
    }

    #[test]
    fn not_an_lcs() {
        // The longest block wins even if that loses more elsewhere.
        assert_eq!(blocks("abcdefXYZ", "XYZabcdef"), vec![(0, 3, 6)]);
    }

    /// `b` of 300 elements in which `p` occurs 100 times: popular (> 300/100 + 1).
    fn with_popular() -> Vec<u32> {
        (0..300)
            .map(|j| if j % 3 == 1 { 0 } else { 1000 + j })
            .collect()
    }

    #[test]
    fn autojunk_popular_cannot_start_a_match() {
        let b = with_popular();
        // a made only of the popular element: no match at all, although
        // the element occurs everywhere in b...
        let a = vec![0u32; 5];
        assert_eq!(matching_blocks(&a, &b), vec![]);
        // ...unless a and b start with it: an empty best match at (alo, blo)
        // is extended over equal elements, popular or not.
        let b2: Vec<u32> = [0u32, 0].iter().chain(&b[1..]).copied().collect();
        assert_eq!(matching_blocks(&a, &b2), vec![(0, 0, 3)]);
        // Below 200 elements nothing is popular.
        let small: Vec<u32> = b[..150].to_vec();
        let expected: Vec<_> = (0..5).map(|i| (i, 3 * i + 1, 1)).collect();
        assert_eq!(matching_blocks(&a, &small), expected);
    }

    #[test]
    fn autojunk_threshold_is_strictly_more_than_one_percent_plus_one() {
        // len 200: ntest = 3; an element occurring 3 times is not popular, 4 times is.
        let mk = |n: usize| -> Vec<u32> {
            (0..200)
                .map(|j| if j < n { 7 } else { 100 + j as u32 })
                .rev()
                .collect()
        };
        let a = vec![5u32, 7];
        assert_eq!(matching_blocks(&a, &mk(3)), vec![(1, 197, 1)]);
        assert_eq!(matching_blocks(&a, &mk(4)), vec![]);
    }

    #[test]
    fn extension_runs_over_popular_elements() {
        // A non-popular match "x y" flanked by popular zeros in both sequences
        // grows over them: difflib's first extension loops only skip junk,
        // and with isjunk=None there is none.
        let mut b = with_popular();
        b[150] = 0;
        b[151] = 1;
        b[152] = 2;
        b[153] = 0;
        let a = vec![9u32, 0, 1, 2, 0, 9];
        assert_eq!(matching_blocks(&a, &b), vec![(1, 150, 4)]);
    }

    #[test]
    fn recursion_finds_blocks_on_both_sides() {
        let a = chars("the quick brown fox jumps over the lazy dog");
        let b = chars("a quick brown cat jumps over a lazy dog!");
        let got = matching_blocks(&a, &b);
        let total: usize = got.iter().map(|&(_, _, k)| k).sum();
        // Python: sum(k for *_, k in SequenceMatcher(None, a, b).get_matching_blocks())
        assert_eq!(total, 34);
        for &(i, j, k) in &got {
            assert_eq!(a[i..i + k], b[j..j + k]);
        }
        for w in got.windows(2) {
            assert!(w[0].0 + w[0].2 <= w[1].0 && w[0].1 + w[0].2 <= w[1].1);
        }
    }

    #[test]
    fn many_calls_do_not_leak_rows_between_calls() {
        // Many sub-problems, each starting right after the previous one's
        // last row: a stale j2len entry would lengthen a match.
        let a: Vec<u32> = (0..400).map(|i| (i * 7 % 13) as u32).collect();
        let b: Vec<u32> = (0..400).map(|i| (i * 5 % 13) as u32).collect();
        for (i, j, k) in matching_blocks(&a, &b) {
            assert_eq!(a[i..i + k], b[j..j + k]);
        }
    }
}
