//! Consecutive kept cells of one table as a GFM pipe table, when they hold
//! data rather than lay out the page.

use super::escape::Place;
use super::inline::inline_text;
use crate::cleaned::ScoredSegment;
use crate::html::Cell;

/// The most columns a rendered table has; cells beyond are joined into the last.
pub const MAX_COLUMNS: usize = 64;

/// Whether consecutive kept cells of one table are a data table: they fill
/// a grid of at least two rows and two columns ([`is_grid`]), and no cell
/// holds more than [`DATA_CELL_WORDS`](crate::policy::rules::DATA_CELL_WORDS) words of output text
/// ([`crate::policy::rules::layout_tables`]).
pub(super) fn holds_data(cells: &[&ScoredSegment]) -> bool {
    is_grid(cells)
        && crate::policy::rules::layout_tables(
            cells
                .iter()
                .map(|s| (&s.segment, crate::words::count(s.text()))),
        )
        .is_empty()
}

/// Whether kept cells span two rows or more and two columns or more. A
/// table of one column is a list laid out in cells (a menu, a column of
/// links or of notes), and a table of one row a header without data or a
/// bar of buttons: written as a pipe table, they make rows the WCXB gold
/// writes as text (WCXB's development pages, cross-validated by domain with
/// the fold models of `scripts/wcxb-crossval`: 136 of the 3,727 rows a
/// pipe table would write, 8 of them rows of the gold's tables). Their
/// cells are written as blocks, as a layout table's are. The rule is chosen
/// on these pages; table rows are 0.764 / 0.672 (recall / precision) with
/// it and 0.767 / 0.649 without.
fn is_grid(cells: &[&ScoredSegment]) -> bool {
    let mut rows = 0;
    let mut last_row = None;
    let mut wide = false;
    for c in cells
        .iter()
        .filter_map(|s| s.segment.structure.and_then(|t| t.cell))
    {
        if last_row != Some(c.row) {
            rows += 1;
            last_row = Some(c.row);
        }
        wide |= c.column >= 2;
    }
    rows >= 2 && wide
}

/// A GFM pipe table of consecutive kept cells of one table.
pub(super) fn table(out: &mut String, cells: &[&ScoredSegment], base: Option<&url::Url>) {
    let mut rows: Vec<(u32, Vec<String>)> = Vec::new();
    for s in cells {
        let Some(Cell { row, column, .. }) = s.segment.structure.and_then(|t| t.cell) else {
            continue;
        };
        // Escaped for a cell: `|` too, and no line break.
        let text = inline_text(s, base, Place::Cell);
        if rows.last().is_none_or(|(r, _)| *r != row) {
            rows.push((row, Vec::new()));
        }
        let (_, v) = rows.last_mut().expect("pushed above");
        // Cells past the bound share the last column; several segments of
        // one cell share it, joined by a space.
        let at = (column.max(1) as usize).min(MAX_COLUMNS) - 1;
        if v.len() <= at {
            v.resize(at + 1, String::new());
        }
        if !v[at].is_empty() {
            v[at].push(' ');
        }
        v[at].push_str(&text);
    }
    let columns = rows.iter().map(|(_, v)| v.len()).max().unwrap_or(0);
    if columns == 0 {
        return;
    }
    for (n, (_, row)) in rows.iter().enumerate() {
        out.push('|');
        for c in 0..columns {
            out.push(' ');
            out.push_str(row.get(c).map_or("", String::as_str));
            out.push_str(" |");
        }
        out.push('\n');
        if n == 0 {
            out.push('|');
            for _ in 0..columns {
                out.push_str(" --- |");
            }
            out.push('\n');
        }
    }
}
