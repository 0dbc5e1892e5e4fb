//! The column groups' tests, and the test-only group `Planted`.

use super::*;

/// A test-only group, used by a classifier whose stored columns name it:
/// 1 when the segment's text holds the word "planted".
pub(crate) struct Planted;

impl SegmentColumns for Planted {
    const GROUP: &'static str = "planted";
    const OPTIONAL: bool = true;
    const NAMES: &'static [&'static str] = &["planted"];

    fn fill_one(&self, input: &RowInput<'_>, i: usize, out: &mut [f32]) {
        out[0] = f32::from(u8::from(
            input.segments[i].text().split(' ').any(|w| w == "planted"),
        ));
    }
}

/// Every group's names are as many as its width, and no two columns of
/// all groups share a name.
#[test]
fn names_fit_widths_and_are_unique() {
    let mut all = std::collections::HashSet::new();
    for g in GROUPS {
        assert_eq!(g.names().len(), g.width());
        for n in g.names() {
            assert!(all.insert(n.clone()), "column {n} is named twice");
        }
    }
}

/// The table-driven counts equal the per-character predicates.
#[test]
fn char_stats_match_the_char_predicates() {
    let naive = |t: &str| {
        let mut s = CharStats::default();
        for c in t.chars() {
            s.chars += 1;
            let k = char_class(c);
            s.letters += usize::from(k & C_LETTER != 0);
            s.upper += usize::from(k & C_UPPER != 0);
            s.digits += usize::from(k & C_DIGIT != 0);
            s.bars += usize::from(k & C_BAR != 0);
            s.commas += usize::from(k & C_COMMA != 0);
            s.punct += usize::from(k & C_PUNCT != 0);
        }
        s
    };
    let all_ascii: String = (0u8..128).map(char::from).collect();
    for t in [
        "",
        "Hello, World 42 | x.",
        &all_ascii,
        "Ünïcödé ÀB ½ ٣ 三 \u{a0}\u{2003}|,\u{fffd} 𝔸𝔹 ǅ",
        &"Aa1|, ½€".repeat(700),
    ] {
        assert_eq!(char_stats(t), naive(t), "{t:?}");
    }
    for b in 0u8..128 {
        assert_eq!(ascii_class(b), char_class(char::from(b)), "byte {b}");
    }
}

use crate::segment::Kind as K;

/// The rows of a page's segments as a classifier of every default group
/// builds them (each segment scored `score` over its characters), with
/// the column names.
fn rows(segments: &[Segment], html: bool, score: f64) -> (Vec<String>, Vec<Vec<f32>>) {
    rows_of(&crate::classify::tests::classifier(), segments, html, score)
}

/// The rows of a page's segments as classifier `c` builds them, with the
/// column names.
fn rows_of(
    c: &Classifier,
    segments: &[Segment],
    html: bool,
    score: f64,
) -> (Vec<String>, Vec<Vec<f32>>) {
    let facts: Vec<Facts> = segments
        .iter()
        .map(|s| Facts::of(s, (score, s.text().chars().count())))
        .collect();
    let input = RowInput {
        classifier: c,
        segments,
        facts: &facts,
        html,
        page_type: None,
    };
    let schema = c.schema();
    (schema.names(), schema.rows(&input))
}

/// The value of column `name` in `row`.
fn col(names: &[String], row: &[f32], name: &str) -> f32 {
    row[names.iter().position(|n| n == name).expect(name)]
}

#[test]
fn a_text_segment_s_columns() {
    let s = Segment::plain(K::P, "Hello, World 42 | x.".into());
    let (names, rows) = rows(&[s], false, 10.0);
    let f = &rows[0];
    for n in [
        "attr_mean",
        "attr_min",
        "attr_max",
        "attr_known",
        "link_share",
        "tag_other",
    ] {
        assert_eq!(
            col(&names, f, n),
            0.0,
            "{n}: no HTML columns for text input"
        );
    }
    assert_eq!(col(&names, f, "bias"), 1.0);
    assert_eq!(
        col(&names, f, "position"),
        0.5,
        "a lone segment sits mid-page"
    );
    assert_eq!(col(&names, f, "bars"), 1.0, "one vertical bar");
    assert_eq!(col(&names, f, "ends_sentence"), 1.0, "ends a sentence");
    assert_eq!(
        col(&names, f, "ngram_per_char"),
        0.5,
        "10 bits over 20 characters"
    );
    assert_eq!(names.len(), f.len());
    assert!(f.iter().all(|x| x.is_finite()));
}

/// A Chinese paragraph is counted in characters, ends a sentence at
/// `。`, and its `，` are commas.
#[test]
fn a_chinese_paragraph_has_words_commas_and_an_end() {
    let s = Segment::plain(K::P, "新华社北京电，会议在北京举行。".into());
    assert_eq!(s.words(), 15);
    let (names, rows) = rows(&[s], false, 0.0);
    let f = &rows[0];
    assert_eq!(col(&names, f, "log_words"), 16f32.ln());
    assert_eq!(col(&names, f, "ends_sentence"), 1.0, "。 ends a sentence");
    assert_eq!(
        col(&names, f, "comma_share"),
        1.0 / 15.0,
        "one comma in 15 words"
    );
}

/// Each segment's row holds its neighbours' columns, itself standing
/// in past the page's ends.
#[test]
fn neighbours_columns_come_from_their_rows() {
    let segs: Vec<Segment> = ["One.", "Two words here", "Three"]
        .iter()
        .map(|t| Segment::plain(K::P, (*t).into()))
        .collect();
    let (names, rows) = rows(&segs, true, 4.0);
    for (i, row) in rows.iter().enumerate() {
        let own = col(&names, row, "log_words");
        let prev = col(&names, &rows[i.saturating_sub(1)], "log_words");
        let next = col(&names, &rows[(i + 1).min(2)], "log_words");
        assert_eq!(col(&names, row, "prev1_log_words"), prev);
        assert_eq!(col(&names, row, "next1_log_words"), next);
        assert!(own > 0.0);
    }
    let ends = |i: usize, name: &str| col(&names, &rows[i], name);
    assert_eq!(ends(0, "ends_sentence"), 1.0);
    assert_eq!(ends(2, "prev2_ends_sentence"), 1.0, "two back");
    assert_eq!(
        ends(0, "prev2_ends_sentence"),
        1.0,
        "itself, past the start"
    );
    assert_eq!(ends(0, "next2_ends_sentence"), 0.0, "two on");
}

/// The neighbours' source columns sit at the same place in every
/// classifier's rows, whatever groups it uses.
#[test]
fn neighbour_columns_sit_where_every_row_has_them() {
    let mut c = crate::classify::tests::classifier();
    let optional = ["neighbours", "site", "hidden", "phrases"];
    for flags in 0..16usize {
        let chosen: Vec<&str> = (0..4)
            .filter(|k| flags & (1 << k) != 0)
            .map(|k| optional[k])
            .collect();
        c.columns = crate::classify::schema::Schema::with(&chosen)
            .unwrap()
            .names();
        let names = c.schema().names();
        assert_eq!(names, c.columns);
        for (k, name) in own_index().iter().zip(NEIGHBOUR_COLUMNS) {
            assert_eq!(names[*k], name);
        }
    }
}

/// A classifier with the phrase columns marks the furniture labels of
/// any language the lexicon holds, and one without has no such columns.
#[test]
fn the_phrase_columns_mark_labels_of_any_language() {
    let segs: Vec<Segment> = [
        "Комментарии (3)",
        "Udostępnij",
        "阅读全文",
        "5時間前",
        "The minister said the plan would be read more widely next year.",
    ]
    .iter()
    .map(|t| Segment::plain(K::P, (*t).into()))
    .collect();
    let (names, _) = rows(&segs, true, 0.0);
    assert!(!names.iter().any(|n| n.starts_with("phrase_")));
    let mut c = crate::classify::tests::classifier();
    c.columns = crate::classify::schema::Schema::with(&["neighbours", "phrases"])
        .unwrap()
        .names();
    let (names, rows) = rows_of(&c, &segs, true, 0.0);
    let marks =
        |row: &[f32]| -> Vec<f32> { Phrases::NAMES.iter().map(|n| col(&names, row, n)).collect() };
    assert_eq!(marks(&rows[0]), [1.0, 0.0, 0.0, 0.0]);
    assert_eq!(marks(&rows[1]), [0.0, 1.0, 0.0, 0.0]);
    assert_eq!(marks(&rows[2]), [0.0, 0.0, 1.0, 0.0]);
    assert_eq!(marks(&rows[3]), [0.0, 0.0, 0.0, 1.0]);
    assert_eq!(marks(&rows[4]), [0.0; 4], "a sentence is not a label");
}
