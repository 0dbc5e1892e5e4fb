//! The consumer that makes each block what the classifier reads: its kind
//! (heading, list item, paragraph) and the attribute words of the elements
//! around it. The walker writes the block's text and its structural
//! context; this fills in the rest when the block ends.

use super::consumer::{BlockEnd, Consumer, wants};
use super::open::Tree;
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
        end.block.kind = if tree.heading_open() {
            Kind::H
        } else if tree.count(Tag::Li) > 0 {
            Kind::L
        } else if end.bold_chars == end.chars && end.words as usize <= BOLD_HEADING_MAX_WORDS {
            Kind::H
        } else {
            Kind::P
        };
        // The attribute words of the nearest enclosing elements, sorted,
        // without repeats.
        // Hashing the words (if not yet) moves their version: read it after.
        tree.near_words();
        let version = tree.words_version();
        if self.version != Some(version) {
            self.last.clear();
            self.last.extend_from_slice(tree.near_words());
            // The standard library's unstable sort, whose sort of short
            // slices is built to avoid mispredicted branches: about 1 %
            // less time for `clean` on WCXB's pages (`scripts/bench-ab`,
            // docs/benchmarks-log.md) than the insertion sort it replaced,
            // which ran fewer instructions but mispredicted a branch at
            // about every word.
            self.last.sort_unstable();
            self.last.dedup();
            self.version = Some(version);
        }
        end.block.attrs = self.last.clone();
    }

    fn finish(&mut self, _page: &mut Page, _tree: &mut Tree) {}
}
