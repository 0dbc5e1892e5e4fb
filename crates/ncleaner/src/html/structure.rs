//! The consumer that records where each block sits in the document's
//! structure, for Markdown ([`super::Structure`]): heading level, lists and
//! their items (numbered in document order), cards, quotes, preformatted
//! text and its code language, table cells.

use super::consumer::{BlockEnd, Consumer, Element, wants};
use super::open::{Open, Tree};
use super::{Cell, CodeLanguage, Page, Tag};

/// Lists, items, tables and code languages open around the block being read.
#[derive(Default)]
pub(super) struct Outline {
    /// The open lists, innermost last: whether each is ordered, and its
    /// number ([`super::Structure::list`]).
    lists: Vec<(bool, u32)>,
    /// Lists opened so far.
    list_count: u32,
    /// The open `li`s, innermost last: their numbers
    /// ([`super::Structure::item`]) and whether a heading or an `article`
    /// has opened inside ([`super::Structure::card`]).
    items: Vec<(u32, bool)>,
    /// `li`s opened so far.
    item_count: u32,
    /// The open tables, innermost last: (number, current row, current
    /// cell of the row).
    tables: Vec<(u32, u32, u32)>,
    /// Tables opened so far.
    table_count: u32,
    /// Code languages named by open elements, innermost last: (the stack
    /// depth of the element, its language).
    code_languages: Vec<(usize, CodeLanguage)>,
    /// The language of an element closed inside the block being read.
    block_code_language: Option<CodeLanguage>,
    /// A buffer for decoded class values.
    buf: String,
}

/// The code language the `class` attributes of a start tag name (the last
/// that is looked at, as they are written): on `pre` and `code` every
/// class, elsewhere a class long enough to hold `highlight-source-`.
fn code_language(el: &Element<'_, '_>, buf: &mut String) -> Option<CodeLanguage> {
    let code = matches!(el.start.name, b"pre" | b"code");
    let mut language = None;
    for (name, value) in el.start.attrs() {
        if name != b"class" {
            continue;
        }
        let v = value.decoded(buf);
        if !v.is_empty() && (code || v.len() > 17) {
            // Outside `pre` and `code` only `highlight-source-X` names a language.
            language = if code || highlight_source().find(v.as_bytes()).is_some() {
                CodeLanguage::from_class(v.as_bytes(), code)
            } else {
                None
            };
        }
    }
    language
}

/// A searcher for `highlight-source-`, built once.
fn highlight_source() -> &'static memchr::memmem::Finder<'static> {
    static FINDER: std::sync::OnceLock<memchr::memmem::Finder<'static>> =
        std::sync::OnceLock::new();
    FINDER.get_or_init(|| memchr::memmem::Finder::new(b"highlight-source-"))
}

impl Consumer for Outline {
    const WANTS: u32 = wants::OPEN | wants::CLOSE | wants::BOUNDARY;

    fn open(&mut self, el: &Element<'_, '_>, tree: &mut Tree) {
        if let Some(l) = code_language(el, &mut self.buf) {
            self.code_languages.push((tree.depth(), l));
        }
        match el.tag {
            Tag::Ul | Tag::Ol | Tag::Menu | Tag::Dir => {
                self.list_count = self.list_count.saturating_add(1);
                self.lists.push((el.tag == Tag::Ol, self.list_count));
            }
            Tag::Li => {
                self.item_count = self.item_count.saturating_add(1);
                self.items.push((self.item_count, false));
            }
            t if t == Tag::Article || t.is_heading() => {
                if let Some(item) = self.items.last_mut() {
                    item.1 = true;
                }
            }
            Tag::Table => {
                self.table_count += 1;
                self.tables.push((self.table_count, 0, 0));
            }
            Tag::Tr => {
                if let Some(t) = self.tables.last_mut() {
                    t.1 += 1;
                    t.2 = 0;
                }
            }
            Tag::Td | Tag::Th => {
                if let Some(t) = self.tables.last_mut() {
                    t.2 = t.2.saturating_add(1);
                }
            }
            _ => {}
        }
    }

    fn close(&mut self, open: &Open, tree: &mut Tree) {
        if self
            .code_languages
            .last()
            .is_some_and(|&(depth, _)| depth >= tree.depth())
        {
            // `<pre><code class=…>` closes its `code` before the block ends.
            self.block_code_language = self.code_languages.pop().map(|(_, l)| l);
        }
        match open.tag {
            Tag::Ul | Tag::Ol | Tag::Menu | Tag::Dir => {
                self.lists.pop();
            }
            Tag::Li => {
                self.items.pop();
            }
            Tag::Table => {
                self.tables.pop();
            }
            _ => {}
        }
    }

    fn boundary(&mut self, block: Option<&mut BlockEnd<'_>>, tree: &mut Tree) {
        if let Some(end) = block {
            end.block.structure = self.structure(end.block.tag, tree);
        }
        self.block_code_language = None;
    }

    fn finish(&mut self, _page: &mut Page, _tree: &mut Tree) {}
}

impl Outline {
    /// Where the block being ended, opened by `tag`, sits.
    fn structure(&self, tag: Tag, tree: &Tree) -> super::Structure {
        let pre = tree.in_pre();
        let cells = tree.count(Tag::Td) + tree.count(Tag::Th);
        super::Structure {
            heading: (1..=6u8)
                .find(|&i| tree.count(Tag::heading(usize::from(i) - 1)) > 0)
                .unwrap_or(0),
            list_depth: self.lists.len().min(u8::MAX as usize) as u8,
            ordered: self.lists.last().is_some_and(|&(ordered, _)| ordered),
            list: self.lists.last().map_or(0, |&(_, list)| list),
            item: self.items.last().map_or(0, |&(item, _)| item),
            card: self.items.last().is_some_and(|&(_, card)| card),
            quote: tree.count(Tag::Blockquote) > 0,
            pre,
            code_language: self
                .code_languages
                .last()
                .map(|&(_, l)| l)
                .or(self.block_code_language)
                .filter(|_| pre),
            // A block in a cell (the cell's own text, or a paragraph, list
            // item or heading inside it) belongs to the cell; whether the
            // table holds data or lays out the page is the Markdown
            // writer's call, once it sees all the table's cells.
            cell: match (tag, self.tables.last()) {
                (Tag::Td | Tag::Th, Some(&(table, row, column))) => Some(Cell {
                    table,
                    row,
                    column,
                    header: tag == Tag::Th,
                }),
                (_, Some(&(table, row, column))) if column > 0 && cells > 0 => Some(Cell {
                    table,
                    row,
                    column,
                    header: tree.count(Tag::Th) > 0,
                }),
                _ => None,
            },
        }
    }
}
