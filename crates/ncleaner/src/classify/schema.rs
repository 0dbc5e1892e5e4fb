//! The segment classifier's feature schema: a row is a list of named groups
//! of columns.
//!
//! Each group ([`Columns`]) names its columns and fills them, in one type
//! ([`super::features`] holds them, and the contracts of a group). [`GROUPS`]
//! lists every group in row order; a classifier's rows have the groups it
//! uses ([`Columns::used_by`]). Training, the page's decisions and the model file
//! all read the one [`Schema`]: the rows the lab trains on and the rows a
//! page is decided on are built by [`Schema::rows`], and a model file stores
//! the column names it was trained with ([`super::Classifier::columns`]),
//! which [`Schema::check`] compares with this build's when it is loaded.
//!
//! Adding a column is one type implementing [`SegmentColumns`] (or
//! [`Columns`]) and one line in [`GROUPS`]; the test
//! `a_planted_group_trains_and_decides` (in the pipeline's tests, which
//! train and clean) adds one that way.
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

use super::Classifier;
use super::features::{Columns, GROUPS, RowInput};

#[cfg(doc)]
use super::features::{Facts, SegmentColumns};

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
        super::compare_names("model's", stored, &self.names())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
