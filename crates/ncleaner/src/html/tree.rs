//! The page as a tree of containers: what the block-level elements that
//! enclose a block say about it ([`Container`]), from the same single pass
//! that builds the blocks.
//!
//! The walker records one [`Node`] per block-level element it opens (its
//! parent, its tag and the shape of its `class`/`id`/`role` words) and, for
//! every block, the innermost open node. [`containers`] then sums the blocks'
//! words up the tree once (children always come after their parent, so one
//! backward sweep is enough) and derives each block's features:
//!
//! - for the block's own element and its three nearest enclosing containers:
//!   the container's share of the page's words, its link density (words
//!   inside links over words), and how many prose blocks (10+ words) it holds;
//! - the page's **best prose container**: the node maximising P² / W, with P
//!   the words outside links in prose blocks of its subtree and W all its
//!   words. P alone would always pick the root; P² / W is P weighted by the
//!   share of prose in the container, so a tight article body beats the page
//!   around it, and a thread of posts beats any one post. Whether the block
//!   sits inside it, how many levels below it, and its share of the page's
//!   words are features;
//! - **repetition**: how many siblings of the block's element (and, at most,
//!   of its three nearest containers) share its shape, the same tag with the
//!   same set of attribute words: cards, posts and rows come in series.
//!
//! Choices where the method (Foley's sketch, Readability's container
//! scoring) leaves room: 10 words make a prose block; link words are the
//! block's words times its share of characters inside links; the shape
//! ignores digits and one-letter words of attributes (as
//! [`super::attribute_words`] does), so `post-17` and `post-18` match.

use rustc_hash::FxHashMap;

use super::Tag;

/// Words a block needs to count as prose.
pub const PROSE_WORDS: usize = 10;

/// How many levels of enclosing containers the per-level features cover
/// (the block's own element first).
pub const LEVELS: usize = 4;

/// One block-level element of the page.
#[derive(Debug, Clone, Copy)]
pub(super) struct Node {
    /// The enclosing node (the root, node 0, is its own parent).
    pub(super) parent: u32,
    /// Tag and attribute words, hashed: elements of one shape repeat.
    pub(super) shape: u32,
    /// Inside (or itself) an element that names a comment section.
    pub(super) comment: bool,
}

impl Node {
    /// A node under `parent` for an element with tag `tag` and attribute
    /// words `words` (sorted in `buf`, a buffer kept between calls).
    pub(super) fn new(
        parent: u32,
        tag: Tag,
        words: &[u32],
        comment: bool,
        buf: &mut Vec<u32>,
    ) -> Node {
        buf.clear();
        buf.extend_from_slice(words);
        buf.sort_unstable();
        buf.dedup();
        let mut h: u32 = 0x811c_9dc5 ^ tag as u32;
        for &w in buf.iter() {
            h = (h ^ w).wrapping_mul(0x0100_0193);
        }
        Node {
            parent,
            shape: h,
            comment,
        }
    }

    /// The document root.
    pub(super) fn root() -> Node {
        Node {
            parent: 0,
            shape: 0,
            comment: false,
        }
    }
}

/// What the tree of containers says about one block (see the module documentation).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Container {
    /// Share of the page's words held by the block's element and by each of
    /// its three nearest enclosing containers (0 past the root).
    pub share: [f32; LEVELS],
    /// Link density (words inside links over words) of the same containers.
    pub link_density: [f32; LEVELS],
    /// log2(1 + prose blocks) of the same containers.
    pub paragraphs: [f32; LEVELS],
    /// Whether the block sits inside the page's best prose container.
    pub in_best: bool,
    /// Levels from the block's element up to the best container, over 8, at
    /// most 1 (0 when outside it).
    pub below_best: f32,
    /// The best container's share of the page's words.
    pub best_share: f32,
    /// log2(1 + siblings of the same shape) of the block's element.
    pub siblings: f32,
    /// The largest log2(1 + siblings of the same shape) of its three nearest containers.
    pub siblings_above: f32,
    /// The page's best prose container sits inside a comment section: the
    /// page's content is itself a thread of posts or replies (a forum, a
    /// Q&A page), so its comments are its content.
    pub thread: bool,
}

/// Word counts of one block, as the walker records them.
#[derive(Debug, Clone, Copy)]
pub(super) struct BlockWords {
    /// The innermost open node when the block ended.
    pub(super) node: u32,
    /// Words of the block.
    pub(super) words: u32,
    /// Share of its characters inside links.
    pub(super) link_share: f32,
}

#[derive(Debug, Clone, Copy, Default)]
struct Sums {
    words: f32,
    link_words: f32,
    prose: f32,
    paragraphs: u32,
}

/// The container features of every block, from the tree and the blocks' words.
pub(super) fn containers(nodes: &[Node], blocks: &[BlockWords]) -> Vec<Container> {
    let n = nodes.len();
    if n == 0 {
        return vec![Container::default(); blocks.len()];
    }
    let mut sums = vec![Sums::default(); n];
    for b in blocks {
        let s = &mut sums[b.node as usize];
        let words = b.words as f32;
        let links = words * b.link_share;
        s.words += words;
        s.link_words += links;
        if b.words as usize >= PROSE_WORDS {
            s.prose += words - links;
            s.paragraphs += 1;
        }
    }
    for i in (1..n).rev() {
        let child = sums[i];
        let p = &mut sums[nodes[i].parent as usize];
        p.words += child.words;
        p.link_words += child.link_words;
        p.prose += child.prose;
        p.paragraphs += child.paragraphs;
    }
    let page_words = sums[0].words.max(1.0);
    let mut best = 0usize;
    let mut best_score = -1.0f32;
    for (i, s) in sums.iter().enumerate() {
        if s.words > 0.0 {
            let score = s.prose * s.prose / s.words;
            if score > best_score {
                best_score = score;
                best = i;
            }
        }
    }
    // Depth below the best container (None outside it), parents first.
    let mut below: Vec<Option<u32>> = vec![None; n];
    for i in 0..n {
        below[i] = if i == best {
            Some(0)
        } else if i == 0 {
            None
        } else {
            below[nodes[i].parent as usize].map(|d| d.saturating_add(1))
        };
    }
    let mut same_shape: FxHashMap<(u32, u32), u32> = FxHashMap::default();
    for node in &nodes[1..] {
        *same_shape.entry((node.parent, node.shape)).or_insert(0) += 1;
    }
    let siblings = |i: usize| -> f32 {
        if i == 0 {
            return 0.0;
        }
        let count = same_shape[&(nodes[i].parent, nodes[i].shape)];
        (count as f32).log2()
    };
    let best_share = sums[best].words / page_words;
    blocks
        .iter()
        .map(|b| {
            let mut c = Container {
                best_share,
                thread: nodes[best].comment,
                ..Container::default()
            };
            let mut i = b.node as usize;
            for level in 0..LEVELS {
                let s = &sums[i];
                c.share[level] = s.words / page_words;
                c.link_density[level] = s.link_words / s.words.max(1.0);
                c.paragraphs[level] = (1.0 + s.paragraphs as f32).log2();
                if level == 0 {
                    c.siblings = siblings(i);
                } else {
                    c.siblings_above = c.siblings_above.max(siblings(i));
                }
                if i == 0 {
                    break;
                }
                i = nodes[i].parent as usize;
            }
            if let Some(d) = below[b.node as usize] {
                c.in_best = true;
                c.below_best = (d as f32 / 8.0).min(1.0);
            }
            c
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::parse;

    /// The article body is the best container; the menu and the footer are
    /// outside it; the three cards repeat.
    #[test]
    fn best_container_and_repetition() {
        let prose = "This sentence has more than ten words in it, so it is prose.";
        let html = format!(
            "<body><nav><ul><li><a href=/>Home</a></li><li><a href=/a>About</a></li></ul></nav>\
             <div class=wrap><div class=body><h1>Title</h1><p>{prose}</p><p>{prose}</p><p>{prose}</p></div>\
             <div class=card><p>One card</p></div><div class=card><p>Two card</p></div>\
             <div class=card><p>Three card</p></div></div><footer><p>(c) 2026 Us</p></footer></body>"
        );
        let page = parse(&html);
        let by_text = |t: &str| {
            page.blocks
                .iter()
                .find(|b| b.text == t)
                .unwrap_or_else(|| panic!("no block {t:?}"))
                .container
        };
        let p = by_text(prose);
        assert!(p.in_best);
        assert_eq!(p.below_best, 1.0 / 8.0, "one level below the body div");
        assert_eq!(p.link_density[0], 0.0);
        assert!(by_text("Title").in_best);
        let home = by_text("Home");
        assert!(!home.in_best);
        assert_eq!(home.link_density[0], 1.0);
        assert!(!by_text("(c) 2026 Us").in_best);
        let card = by_text("Two card");
        assert!(!card.in_best);
        assert_eq!(card.siblings_above, 3f32.log2(), "three cards");
        assert_eq!(p.siblings, 3f32.log2(), "three paragraphs");
        assert!(p.best_share > 0.6 && p.best_share < 0.9, "{}", p.best_share);
        assert!(
            (p.paragraphs[1] - 2.0).abs() < 1e-6,
            "three prose blocks: log2(4)"
        );
    }

    /// Comments under an article are marked and the page is not a thread;
    /// a page whose prose is all in a comment section is one.
    #[test]
    fn comments_and_threads() {
        use super::super::Context;
        let prose = "This sentence has more than ten words in it, so it is prose.";
        let blog = format!(
            "<article><div class=entry><p>{prose}</p><p>{prose}</p><p>{prose}</p></div></article>             <section id=comments><ol class=comment-list><li><p>Nice post, thanks a lot!</p></li></ol></section>"
        );
        let page = parse(&blog);
        let last = page.blocks.last().unwrap();
        assert!(last.context.has(Context::COMMENT));
        assert!(!last.container.thread);
        assert!(!page.blocks[0].context.has(Context::COMMENT));
        let forum = format!(
            "<h1>Question</h1><div class=\"replies\"><div class=post><p>{prose}</p></div>             <div class=post><p>{prose}</p></div></div>"
        );
        let page = parse(&forum);
        assert!(page.blocks.iter().all(|b| b.container.thread));
        assert!(page.blocks[1].context.has(Context::COMMENT));
    }

    /// A page of one paragraph: it is its own best container, and a deep
    /// hostile nesting costs nothing special.
    #[test]
    fn lone_paragraph_and_deep_nesting() {
        let page = parse("<p>Just one short paragraph.</p>");
        assert!(page.blocks[0].container.in_best);
        let deep = format!("{}<p>deep</p>", "<div>".repeat(100_000));
        let page = parse(&deep);
        assert_eq!(page.blocks.len(), 1);
        assert!(page.blocks[0].container.in_best);
    }
}
