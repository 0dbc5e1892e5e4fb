//! The consumer that makes each block what the classifier reads: its kind
//! (heading, list item, paragraph), its structural context and the
//! attribute words of the elements around it. The walker writes the
//! block's text; this fills in the rest when the block ends.

use super::consumer::{BlockEnd, Consumer, wants};
use super::walk::Tree;
use super::{BOLD_HEADING_MAX_WORDS, Kind, Page, Tag};

/// Kind, context and attribute words of each block (see the module documentation).
#[derive(Default)]
pub(super) struct Blocks {
    /// The attribute words of the last block, sorted, and the version of
    /// the walker's words they were taken from: blocks one after the other
    /// in the same elements (paragraphs of one article) share them. The
    /// buffer is reused: a block's own list is its one allocation.
    last: Vec<u32>,
    version: Option<u64>,
}

impl Consumer for Blocks {
    const WANTS: u32 = wants::BOUNDARY;

    fn boundary(&mut self, block: Option<&mut BlockEnd<'_>>, tree: &mut Tree) {
        let Some(end) = block else { return };
        let heading = (0..6).any(|i| tree.count(Tag::heading(i)) > 0);
        end.block.kind = if heading {
            Kind::H
        } else if tree.count(Tag::Li) > 0 {
            Kind::L
        } else if end.bold_chars == end.chars && end.words as usize <= BOLD_HEADING_MAX_WORDS {
            Kind::H
        } else {
            Kind::P
        };
        end.block.context = tree.context();
        // The attribute words of the nearest enclosing elements, sorted,
        // without repeats.
        // Hashing the words (if not yet) moves their version: read it after.
        tree.near_words();
        let version = tree.words_version();
        if self.version != Some(version) {
            self.last.clear();
            self.last.extend_from_slice(tree.near_words());
            sort_few(&mut self.last);
            self.last.dedup();
            self.version = Some(version);
        }
        end.block.attrs = self.last.clone();
    }

    fn finish(&mut self, _page: &mut Page, _tree: &mut Tree) {}
}

/// Sorts a list of at most [`super::ATTR_WORDS`] words by insertion: on so
/// few, fewer instructions than the standard library's sort, which is made
/// for any length.
fn sort_few(words: &mut [u32]) {
    for i in 1..words.len() {
        let w = words[i];
        let mut j = i;
        while j > 0 && words[j - 1] > w {
            words[j] = words[j - 1];
            j -= 1;
        }
        words[j] = w;
    }
}

#[cfg(test)]
mod tests {
    proptest::proptest! {
        #[test]
        fn few_words_sort_as_the_standard_library_sorts(
            mut words in proptest::collection::vec(0u32..40, 0..=super::super::ATTR_WORDS)
        ) {
            let mut want = words.clone();
            want.sort_unstable();
            super::sort_few(&mut words);
            proptest::prop_assert_eq!(words, want);
        }
    }
}
