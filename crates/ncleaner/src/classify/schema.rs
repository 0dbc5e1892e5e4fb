//! The segment classifier's feature schema: a row is a list of named groups
//! of columns.
//!
//! Each group ([`Columns`]) names its columns and fills them, in one type
//! ([`super::features`] holds them). [`GROUPS`] lists every group in row
//! order; a classifier's rows have the groups it uses
//! ([`Columns::used_by`]). Training, the page's decisions and the model file
//! all read the one [`Schema`]: the rows the lab trains on and the rows a
//! page is decided on are built by [`Schema::rows`], and a model file stores
//! the column names it was trained with ([`super::Classifier::columns`]),
//! which [`Schema::check`] compares with this build's when it is loaded.
//!
//! Adding a column is one type implementing [`SegmentColumns`] (or
//! [`Columns`]) and one line in [`GROUPS`]; the test
//! `a_planted_group_trains_and_decides` adds one that way.
//!
//! Choices:
//! - A row starts as zeros; a group that has nothing to say (the HTML-only
//!   groups on a text dump) leaves its columns at 0, as the model was
//!   trained.
//! - Groups fill in row order, and a group may read the columns of earlier
//!   groups of any row of the page (the neighbours' columns do).
//! - What several groups read of a segment (its n-gram score, its character
//!   counts) is computed once per segment, before any group fills
//!   ([`Facts`]).

use crate::segment::Segment;

use super::Classifier;
use super::features::{self, CharStats};
use super::page::PagePrediction;

/// What every group may read of a page: its segments and what was computed
/// once for each ([`Facts`]).
pub struct RowInput<'a> {
    /// The classifier whose rows are built (its attribute words, its word model).
    pub classifier: &'a Classifier,
    /// The page's segments, in order.
    pub segments: &'a [Segment],
    /// One [`Facts`] per segment.
    pub facts: &'a [Facts],
    /// Whether the page is HTML (else a text dump: the HTML-only groups
    /// leave their columns at 0).
    pub html: bool,
    /// The page's predicted type (HTML pages of a classifier with a
    /// page-type model).
    pub page_type: Option<&'a PagePrediction>,
}

/// What several groups read of one segment, computed once.
#[derive(Debug, Clone, Copy, Default)]
pub struct Facts {
    /// The n-gram log-odds of the segment, in bits.
    pub score: f64,
    /// The number of symbols the score sums over.
    pub symbols: usize,
    /// The segment's characters counted by class.
    pub chars: CharStats,
}

impl Facts {
    /// The facts of a segment scored `(score, symbols)`.
    pub fn of(segment: &Segment, (score, symbols): (f64, usize)) -> Facts {
        Facts {
            score,
            symbols,
            chars: features::char_stats(segment.text()),
        }
    }
}

/// A group of columns of the classifier's rows.
pub trait Columns: Sync {
    /// Whether a classifier's rows have this group.
    fn used_by(&self, classifier: &Classifier) -> bool;
    /// The group's column names, in order (stored in model files).
    fn names(&self) -> Vec<String>;
    /// The number of columns (the length of [`Columns::names`]).
    fn width(&self) -> usize;
    /// Writes the group's columns of every segment of a page:
    /// `rows[i][at..at + width]` for segment `i`. The columns before `at`
    /// are filled; those after are 0.
    fn fill(&self, input: &RowInput<'_>, rows: &mut [Vec<f32>], at: usize);
}

/// A group whose columns of a segment depend on that segment alone (and
/// the page's facts), not on other rows: most groups.
pub trait SegmentColumns: Sync {
    /// The column names, in order.
    const NAMES: &'static [&'static str];
    /// Whether a classifier's rows have this group (every classifier, by default).
    fn used_by(&self, _classifier: &Classifier) -> bool {
        true
    }
    /// Writes segment `i`'s columns into `out` (as long as [`Self::NAMES`],
    /// zeros on entry).
    fn fill_one(&self, input: &RowInput<'_>, i: usize, out: &mut [f32]);
}

impl<T: SegmentColumns> Columns for T {
    fn used_by(&self, classifier: &Classifier) -> bool {
        SegmentColumns::used_by(self, classifier)
    }

    fn names(&self) -> Vec<String> {
        T::NAMES.iter().map(|n| (*n).to_string()).collect()
    }

    fn width(&self) -> usize {
        T::NAMES.len()
    }

    fn fill(&self, input: &RowInput<'_>, rows: &mut [Vec<f32>], at: usize) {
        let n = T::NAMES.len();
        for (i, row) in rows.iter_mut().enumerate() {
            self.fill_one(input, i, &mut row[at..at + n]);
        }
    }
}

/// Every group, in row order.
pub static GROUPS: &[&dyn Columns] = &[
    &features::Bias,
    &features::Ngram,
    &features::Size,
    &features::LinkShare,
    &features::Kind,
    &features::Enclosing,
    &features::Element,
    &features::Position,
    &features::Surface,
    &features::AttrWords,
    &features::Metadata,
    &features::Containers,
    &features::Neighbours,
    &features::Site,
    &features::PageType,
    &features::Hidden,
    &features::Words,
    #[cfg(test)]
    &tests::Planted,
];

/// The groups of one classifier's rows.
pub struct Schema {
    groups: Vec<&'static dyn Columns>,
    width: usize,
}

impl Schema {
    /// The groups `classifier` uses, in row order.
    pub fn of(classifier: &Classifier) -> Schema {
        let groups: Vec<&'static dyn Columns> = GROUPS
            .iter()
            .copied()
            .filter(|g| g.used_by(classifier))
            .collect();
        let width = groups.iter().map(|g| g.width()).sum();
        Schema { groups, width }
    }

    /// The number of columns of a row.
    pub fn width(&self) -> usize {
        self.width
    }

    /// The column names of a row, in order.
    pub fn names(&self) -> Vec<String> {
        self.groups.iter().flat_map(|g| g.names()).collect()
    }

    /// The rows of a page's segments, one per segment.
    pub fn rows(&self, input: &RowInput<'_>) -> Vec<Vec<f32>> {
        let mut rows = vec![vec![0f32; self.width]; input.segments.len()];
        let mut at = 0;
        for g in &self.groups {
            g.fill(input, &mut rows, at);
            at += g.width();
        }
        rows
    }

    /// Checks the column names a model file stores against this schema's:
    /// `Err` names the first column where they part and what is missing or
    /// extra. An empty list (files written before the names were stored)
    /// is not checked.
    pub fn check(&self, stored: &[String]) -> Result<(), String> {
        if stored.is_empty() {
            return Ok(());
        }
        compare_names("model's", stored, &self.names())
    }
}

/// Compares the column names a model stores with this build's: `Err` says
/// how many each has, the first column where they part, the names this
/// build does not know and those the model lacks (`what`: whose columns,
/// as the message names them: "model's", "page-type model's").
pub fn compare_names(what: &str, stored: &[String], ours: &[String]) -> Result<(), String> {
    if ours == stored {
        return Ok(());
    }
    let first = ours
        .iter()
        .zip(stored)
        .position(|(a, b)| a != b)
        .unwrap_or(ours.len().min(stored.len()));
    let missing: Vec<&str> = ours
        .iter()
        .filter(|n| !stored.contains(n))
        .map(String::as_str)
        .collect();
    let unknown: Vec<&str> = stored
        .iter()
        .filter(|n| !ours.contains(n))
        .map(String::as_str)
        .collect();
    fn at(v: &[String], i: usize) -> &str {
        v.get(i).map_or("the row's end", String::as_str)
    }
    let mut msg = format!(
        "the {what} {} feature columns are not this build's {}: column {} is `{}` in the model and `{}` here",
        stored.len(),
        ours.len(),
        first,
        at(stored, first),
        at(ours, first)
    );
    if !unknown.is_empty() {
        msg.push_str(&format!(
            "; columns this build does not know: {}",
            unknown.join(", ")
        ));
    }
    if !missing.is_empty() {
        msg.push_str(&format!(
            "; columns the model lacks: {}",
            missing.join(", ")
        ));
    }
    Err(msg)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A test-only group, used by a classifier whose stored columns name it:
    /// 1 when the segment's text holds the word "planted".
    pub(crate) struct Planted;

    impl SegmentColumns for Planted {
        const NAMES: &'static [&'static str] = &["planted"];

        fn used_by(&self, classifier: &Classifier) -> bool {
            classifier.columns.iter().any(|n| n == "planted")
        }

        fn fill_one(&self, input: &RowInput<'_>, i: usize, out: &mut [f32]) {
            out[0] = f32::from(u8::from(
                input.segments[i].text().split(' ').any(|w| w == "planted"),
            ));
        }
    }

    /// A group added in one place (the line of [`GROUPS`] under
    /// `cfg(test)`) is trained on, stored in the model file by name, read
    /// back, and decides pages: a classifier whose only telling column is
    /// the planted one keeps exactly the paragraphs it marks.
    #[test]
    fn a_planted_group_trains_and_decides() {
        use crate::model::{Alphabet, Model, TrainOptions, TrainingPage, train};
        use crate::segment::Kind;
        let sentence = |i: usize, w: &str| {
            format!("Paragraph {i} says a {w} thing in words like the others do.")
        };
        let page = |k: usize| -> Vec<String> {
            (0..12)
                .map(|i| {
                    sentence(
                        100 * k + i,
                        if (i + k) % 3 == 0 { "planted" } else { "plain" },
                    )
                })
                .collect()
        };
        let mut model = train(
            &[TrainingPage {
                name: "a".into(),
                raw: page(0),
                clean: page(0),
            }],
            &TrainOptions {
                n: 3,
                q: 0.3,
                alphabet: Alphabet::Lexical,
            },
            "a planted column's model",
        )
        .unwrap();
        let mut c = crate::classify::tests::classifier();
        c.neighbours = false;
        c.columns = vec!["planted".into()];
        let names = c.schema().names();
        assert_eq!(names.last().map(String::as_str), Some("planted"));
        c.columns = names;
        // Train the text-dump weights on five pages' rows.
        let (mut x, mut y) = (Vec::new(), Vec::new());
        for k in 1..=5 {
            let segments: Vec<Segment> = page(k)
                .into_iter()
                .map(|t| Segment::plain(Kind::P, t))
                .collect();
            y.extend(segments.iter().map(|s| s.text().contains("planted")));
            x.extend(c.feature_rows(&segments, model.scorer(), false, None));
        }
        let weights = vec![1.0; y.len()];
        c.text = Some(crate::classify::logistic::Logistic::fit(
            &x, &y, &weights, 1.0,
        ));
        c.threshold = [0.0, 0.0];
        model.classifier = Some(c);
        // Through the file: the names are stored and read back.
        let read = Model::from_bytes(&model.to_binary(), "planted").unwrap();
        let stored = &read.classifier.as_ref().unwrap().columns;
        assert_eq!(stored.last().map(String::as_str), Some("planted"));
        let dump = page(7).join("\n\n");
        let cleaned =
            crate::Cleaner::from_model(read).clean(dump.as_bytes(), crate::InputKind::Text, None);
        let text = cleaned.text();
        let kept: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        let want: Vec<String> = page(7)
            .into_iter()
            .filter(|t| t.contains("planted"))
            .collect();
        assert_eq!(kept, want);
        // A build without the column refuses the file, naming it.
        let mut renamed = model.classifier.clone().unwrap();
        for n in &mut renamed.columns {
            if n == "planted" {
                *n = "unplanted".into();
            }
        }
        model.classifier = Some(renamed);
        let err = Model::from_bytes(&model.to_binary(), "renamed")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("columns this build does not know: unplanted"),
            "{err}"
        );
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

    /// A stored list that differs is refused with the columns named.
    #[test]
    fn a_different_column_list_is_named() {
        let c = super::super::tests::classifier();
        let schema = Schema::of(&c);
        let mut names = schema.names();
        assert_eq!(schema.check(&names), Ok(()));
        assert_eq!(schema.check(&[]), Ok(()));
        names[3] = "log_syllables".into();
        let err = schema.check(&names).unwrap_err();
        assert!(
            err.contains("column 3 is `log_syllables` in the model and `log_words` here"),
            "{err}"
        );
        assert!(err.contains("does not know: log_syllables"), "{err}");
        assert!(err.contains("the model lacks: log_words"), "{err}");
        names.truncate(3);
        let err = schema.check(&names).unwrap_err();
        assert!(
            err.contains("column 3 is `the row's end` in the model"),
            "{err}"
        );
    }
}
