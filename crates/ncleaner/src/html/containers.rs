//! The consumer that records the page's tree of containers: one node per
//! block-level element (its parent, the shape of its tag and attribute
//! words, whether it is inside a comment section) and, per block, the
//! innermost open node with the block's words and link share. At the end
//! of the page [`super::tree::containers`] turns them into each block's
//! [`super::Container`] features.

use super::Page;
use super::consumer::{BlockEnd, Consumer, Element, wants};
use super::open::{Open, Tree};
use super::tree::{BlockWords, Node, containers};

/// The tree of block-level elements and each block's place in it.
pub(super) struct Containers {
    /// The nodes (node 0 is the document).
    nodes: Vec<Node>,
    /// The innermost open node.
    node: u32,
    /// Words and node of each block.
    blocks: Vec<BlockWords>,
    /// A buffer for sorting an element's words.
    buf: Vec<u32>,
}

impl Default for Containers {
    fn default() -> Containers {
        Containers {
            nodes: vec![Node::root()],
            node: 0,
            blocks: Vec::new(),
            buf: Vec::new(),
        }
    }
}

impl Consumer for Containers {
    const WANTS: u32 = wants::OPEN | wants::CLOSE | wants::BOUNDARY;

    fn open(&mut self, el: &Element<'_, '_>, tree: &mut Tree) {
        if el.tag.is_block() {
            // Inside a comment section when it or an element around it names one.
            let in_comment = tree.in_comment();
            let node = Node::new(
                self.node,
                el.tag,
                tree.top_words(),
                in_comment,
                &mut self.buf,
            );
            self.nodes.push(node);
            self.node = (self.nodes.len() - 1) as u32;
        }
    }

    fn close(&mut self, open: &Open, _tree: &mut Tree) {
        if open.tag.is_block() {
            self.node = self.nodes[self.node as usize].parent;
        }
    }

    fn boundary(&mut self, block: Option<&mut BlockEnd<'_>>, _tree: &mut Tree) {
        if let Some(end) = block {
            // A hidden block (read all the same, Context::HIDDEN) sits in its
            // container but adds no words to it: the containers' shares,
            // link densities and the best prose container are those of
            // the page as shown.
            let hidden = end.block.context.has(super::Context::HIDDEN);
            self.blocks.push(BlockWords {
                node: self.node,
                words: if hidden { 0 } else { end.words },
                link_share: end.block.link_chars as f32 / end.chars.max(1) as f32,
            });
        }
    }

    fn finish(&mut self, page: &mut Page, _tree: &mut Tree) {
        for (block, c) in page
            .blocks
            .iter_mut()
            .zip(containers(&self.nodes, &self.blocks))
        {
            block.container = c;
        }
    }
}
