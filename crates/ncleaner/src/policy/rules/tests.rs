//! The rules' selections, each on pages set by hand, through the rule's
//! own decision and reason ([`apply`]).

use super::*;
use crate::classify::{Comments, Decision, DroppedComments};
use crate::cleaned::ScoredSegment;

/// Applies a rule's selection to decided segments as the policy does: the
/// rule's decision and reason on each segment it selects.
fn apply(
    rule: &dyn Rule,
    s: &mut [ScoredSegment],
    select: impl FnOnce(&[Segment], &[Verdict], &mut Vec<usize>),
) {
    let segments: Vec<Segment> = s.iter().map(|x| x.segment.clone()).collect();
    let verdicts: Vec<Verdict> = s
        .iter()
        .map(|x| Verdict {
            output: x.output.clone(),
            ..Verdict::of(x.decision)
        })
        .collect();
    let mut out = Vec::new();
    select(&segments, &verdicts, &mut out);
    for i in out {
        s[i].decision = Decision {
            keep: rule.keeps(),
            reason: rule.reason(&segments[i]),
        };
    }
}

fn drop_bare_headings(s: &mut [ScoredSegment]) {
    apply(&BareHeadings, s, bare_headings);
}

fn drop_repeats(s: &mut [ScoredSegment]) {
    apply(&Repeats, s, repeats);
}

fn keep_table_rows(s: &mut [ScoredSegment], comments: DroppedComments) {
    apply(&TableRows, s, |seg, v, out| {
        table_rows(seg, v, comments, out)
    });
}

fn scored(text: &str, keep: bool) -> ScoredSegment {
    ScoredSegment::new(
        Segment::plain(segment::Kind::P, text.to_string()),
        Decision {
            keep,
            reason: Reason::Score,
        },
    )
}

#[test]
fn a_page_that_keeps_a_few_words_of_headings_alone_keeps_nothing() {
    let heading = |text: &str, keep: bool| {
        let mut s = scored(text, keep);
        s.segment.kind = segment::Kind::H;
        s
    };
    // A shop's shell: its name as the one kept heading.
    let mut s = vec![
        heading("Aliexpress", true),
        scored(
            "Help Center, Disputes & Reports, Return & refund policy",
            false,
        ),
    ];
    drop_bare_headings(&mut s);
    assert!(s.iter().all(|x| !x.decision.keep));
    assert_eq!(s[0].decision.reason, Reason::BareHeadings);
    assert_eq!(s[1].decision.reason, Reason::Score);

    // Headings of 15 words in all are still bare; 16 are not.
    let words = |n: usize| vec!["word"; n].join(" ");
    let mut s = vec![heading(&words(10), true), heading(&words(5), true)];
    drop_bare_headings(&mut s);
    assert!(s.iter().all(|x| !x.decision.keep));
    let mut s = vec![heading(&words(10), true), heading(&words(6), true)];
    drop_bare_headings(&mut s);
    assert!(s.iter().all(|x| x.decision.keep));

    // A heading with a kept paragraph under it is content.
    let mut s = vec![heading("Specifications", true), scored("Weight", true)];
    drop_bare_headings(&mut s);
    assert!(s.iter().all(|x| x.decision.keep));

    // A page that keeps nothing is left as it is.
    let mut s = vec![heading("Menu", false)];
    drop_bare_headings(&mut s);
    assert_eq!(s[0].decision.reason, Reason::Score);
}

#[test]
fn repeats_of_kept_segments_are_dropped() {
    let mut s = vec![
        scored("Colorful design that lets you shine", true),
        scored(" Colorful design that lets you shine ", true),
        scored("Read more", true),
        scored("Read more", true),
        scored("A dropped one here", false),
        scored("A dropped one here", true),
        scored("Colorful design that lets you shine", true),
    ];
    drop_repeats(&mut s);
    let kept: Vec<bool> = s.iter().map(|x| x.decision.keep).collect();
    // Short texts repeat in real content; a repeat of a dropped
    // segment is the first kept one.
    assert_eq!(kept, [true, false, true, true, false, true, false]);
    assert_eq!(s[1].decision.reason, Reason::Repeat);
    assert_eq!(s[4].decision.reason, Reason::Score);
}

/// A scored segment in cell (`table`, `row`, `column`).
fn cell(text: &str, keep: bool, (table, row, column): (u32, u32, u32)) -> ScoredSegment {
    let mut s = scored(text, keep);
    s.segment.structure = Some(crate::html::Structure {
        cell: Some(crate::html::Cell {
            table,
            row,
            column,
            header: false,
        }),
        ..Default::default()
    });
    s
}

fn kept(s: &[ScoredSegment]) -> Vec<bool> {
    s.iter().map(|x| x.decision.keep).collect()
}

#[test]
fn short_cells_of_a_kept_row_are_kept() {
    let long = "word ".repeat(ROW_CELL_WORDS + 1);
    let mut s = vec![
        // A row of specifications: label dropped, value kept.
        cell("Lens Shift", false, (1, 1, 1)),
        cell("Vertical and horizontal, motorised", true, (1, 1, 2)),
        // A long dropped cell is judged on its own.
        cell(&long, false, (1, 2, 1)),
        cell("Kept value", true, (1, 2, 2)),
        // Not the table's cell: a paragraph after the table.
        scored("Next paragraph", false),
        // A table of which nothing is kept stays dropped.
        cell("Weight", false, (2, 1, 1)),
        cell("3.2 kg", false, (2, 1, 2)),
        // A row of one column is no row of facts (outside the best
        // container, in a table of one row).
        cell("Alone", false, (3, 1, 1)),
        cell("Also alone", true, (3, 1, 1)),
    ];
    keep_table_rows(&mut s, DroppedComments::NONE);
    assert_eq!(
        kept(&s),
        [true, true, false, true, false, false, false, false, true]
    );
    assert_eq!(s[0].decision.reason, Reason::TableRow);
    assert_eq!(s[1].decision.reason, Reason::Score);
    assert_eq!(s[2].decision.reason, Reason::Score);
}

/// A table of figures: a header row of `th` cells, then one row per
/// month; `kept` says which months the classifier kept.
fn figures(kept: [bool; 4], in_best: bool) -> Vec<ScoredSegment> {
    let mut s = vec![
        cell("Month", false, (1, 1, 1)),
        cell("Rainfall (mm)", false, (1, 1, 2)),
    ];
    for (i, (month, keep)) in ["January", "February", "March", "April"]
        .into_iter()
        .zip(kept)
        .enumerate()
    {
        s.push(cell(month, keep, (1, i as u32 + 2, 1)));
        s.push(cell("112", keep, (1, i as u32 + 2, 2)));
    }
    for (i, x) in s.iter_mut().enumerate() {
        let c = x.segment.structure.as_mut().and_then(|t| t.cell.as_mut());
        c.expect("a cell").header = i < 2;
        x.segment.container = Some(crate::html::Container {
            in_best,
            ..Default::default()
        });
    }
    s
}

#[test]
fn a_data_table_mostly_kept_is_kept_whole() {
    // The header row and one data row dropped (every cell of both),
    // the other rows kept: 3 rows of 5 have a kept cell.
    let mut s = figures([true, false, true, true], false);
    keep_table_rows(&mut s, DroppedComments::NONE);
    assert!(s.iter().all(|x| x.decision.keep));
    for i in [0, 1, 4, 5] {
        assert_eq!(s[i].decision.reason, Reason::TableRow);
    }
    // In the page's best prose container, one kept row is enough.
    let mut s = figures([false, false, true, false], true);
    keep_table_rows(&mut s, DroppedComments::NONE);
    assert!(s.iter().all(|x| x.decision.keep));
}

#[test]
fn a_table_with_few_kept_rows_outside_the_content_is_left_alone() {
    // 2 rows of 5 kept, outside the best container: nothing changes
    // (the kept rows' cells are all kept already).
    let mut s = figures([true, false, true, false], false);
    keep_table_rows(&mut s, DroppedComments::NONE);
    assert_eq!(
        kept(&s),
        [
            false, false, true, true, false, false, true, true, false, false
        ]
    );
    // A kept cell in the best container, but one long dropped cell:
    // it is judged on its own.
    let mut s = figures([true, false, false, false], true);
    let long = "word ".repeat(ROW_CELL_WORDS + 1);
    s[4].segment = Segment::plain(segment::Kind::P, long);
    s[4].segment.structure = s[5].segment.structure;
    keep_table_rows(&mut s, DroppedComments::NONE);
    assert!(!s[4].decision.keep);
    assert!(s.iter().enumerate().all(|(i, x)| i == 4 || x.decision.keep));
}

#[test]
fn layout_tables_heuristics_and_comments_are_left_alone() {
    let article = "word ".repeat(DATA_CELL_WORDS + 1);
    let mut s = vec![
        // A table that lays out the page: its short cells stay dropped,
        // even in a row before the long cell.
        cell("Menu", false, (1, 1, 1)),
        cell("Kept", true, (1, 1, 2)),
        cell(&article, true, (1, 2, 1)),
        cell("Sidebar", false, (1, 2, 2)),
        // A row of it with nothing kept stays dropped as well.
        cell("Footer", false, (1, 3, 1)),
        cell("Links", false, (1, 3, 2)),
        // A cell a heuristic rule dropped stays dropped.
        cell("a | b | c", false, (2, 1, 1)),
        cell("Kept value", true, (2, 1, 2)),
        // A comment, with comments dropped.
        cell("Nice post", false, (3, 1, 1)),
        cell("Kept value", true, (3, 1, 2)),
    ];
    s[6].decision.reason = Reason::Heuristic {
        rule: segment::Heuristic::PipeNavBar,
    };
    s[8].segment.context = crate::html::Context(crate::html::Context::COMMENT);
    keep_table_rows(&mut s, DroppedComments::of(Comments::Drop, None));
    assert_eq!(
        kept(&s),
        [
            false, true, true, false, false, false, false, true, false, true
        ]
    );
    // Comments kept, the same cell is kept.
    keep_table_rows(&mut s, DroppedComments::NONE);
    assert!(s[8].decision.keep);
}

#[test]
fn table_cells_are_not_repeats() {
    let mut s = vec![
        cell("41% / 46%", true, (1, 1, 2)),
        cell("41% / 46%", true, (1, 2, 2)),
        // Outside tables, repeats are dropped.
        scored("41% / 46%", true),
        scored("41% / 46%", true),
    ];
    drop_repeats(&mut s);
    assert_eq!(kept(&s), [true, true, true, false]);
}
