//! The segment classifier's feature schema: a row is a list of named groups
//! of columns.
//!
//! Each group ([`Columns`]) names its columns and fills them, in one type
//! ([`super::features`] holds them, and the contracts of a group). [`GROUPS`]
//! lists every group in row order. Training, the page's decisions and the
//! model file all read the one [`Schema`]: a trainer chooses the optional
//! groups by name ([`Schema::with`]) and stores the schema's column names
//! in the classifier ([`super::Classifier::columns`]); everything after
//! reads the groups from those names ([`Schema::of`], checked when a model
//! is loaded by [`Schema::read`]). No flag on the classifier chooses a
//! group. The rows the lab trains on and the rows a page is decided on are
//! built by [`Schema::rows`].
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

impl std::fmt::Debug for Schema {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.groups.iter().map(|g| g.group()))
            .finish()
    }
}

/// The column names of each of [`GROUPS`], computed once.
fn group_names() -> &'static [Vec<String>] {
    static NAMES: std::sync::OnceLock<Vec<Vec<String>>> = std::sync::OnceLock::new();
    NAMES.get_or_init(|| GROUPS.iter().map(|g| g.names()).collect())
}

impl Schema {
    fn new(groups: Vec<&'static dyn Columns>) -> Schema {
        let width = groups.iter().map(|g| g.width()).sum();
        Schema { groups, width }
    }

    /// The groups of `classifier`'s rows, read from its stored column names
    /// ([`Classifier::columns`]): in row order, each group of [`GROUPS`]
    /// whose names come next in the list. A list this build cannot read to
    /// its end is refused when the model is loaded ([`Schema::read`]), so
    /// here, where every page's rows read the schema, a group is recognised
    /// by its first name alone (no two columns of the groups share a name).
    pub fn of(classifier: &Classifier) -> Schema {
        Schema::matching(&classifier.columns, false).0
    }

    /// The groups a list of column names holds, how many of the names they
    /// account for, and the index in [`GROUPS`] after the last of them: a
    /// group matches where its names come next, all of them compared
    /// (`whole`) or its first alone.
    fn matching(stored: &[String], whole: bool) -> (Schema, usize, usize) {
        let mut groups = Vec::with_capacity(GROUPS.len());
        let (mut at, mut next) = (0, 0);
        for (k, (g, names)) in GROUPS.iter().zip(group_names()).enumerate() {
            let fits = if whole {
                stored[at..].starts_with(names)
            } else {
                stored.get(at) == names.first() && at + names.len() <= stored.len()
            };
            if fits {
                groups.push(*g);
                at += names.len();
                next = k + 1;
            }
        }
        (Schema::new(groups), at, next)
    }

    /// The schema of a trainer's classifier: every group that is not
    /// optional, and the optional ones named in `optional` (by
    /// [`Columns::group`]). Its [`Schema::names`] are what the classifier
    /// stores. `Err` names a group this build does not have.
    pub fn with(optional: &[&str]) -> Result<Schema, String> {
        if let Some(unknown) = optional
            .iter()
            .find(|name| !GROUPS.iter().any(|g| g.optional() && g.group() == **name))
        {
            return Err(format!("no optional column group is named `{unknown}`"));
        }
        Ok(Schema::new(
            GROUPS
                .iter()
                .copied()
                .filter(|g| !g.optional() || optional.contains(&g.group()))
                .collect(),
        ))
    }

    /// The schema of a model file's stored column names: `Err` names the
    /// first column where no group of this build fits, and the columns
    /// this build does not know.
    pub fn read(stored: &[String]) -> Result<Schema, String> {
        if stored.is_empty() {
            return Err("the model stores no column names".into());
        }
        let (schema, at, next) = Schema::matching(stored, true);
        let required = GROUPS.iter().filter(|g| !g.optional());
        if at == stored.len() && required.clone().all(|g| schema.has(g.group())) {
            return Ok(schema);
        }
        // What this build could have read: the names matched so far, then
        // those of every later group.
        let ours: Vec<String> = stored[..at]
            .iter()
            .chain(group_names()[next..].iter().flatten())
            .cloned()
            .collect();
        super::compare_names("model's", stored, &ours)?;
        Err(format!(
            "the model's columns lack the groups every classifier has: {}",
            required
                .filter(|g| !schema.has(g.group()))
                .map(|g| g.group())
                .collect::<Vec<_>>()
                .join(", ")
        ))
    }

    /// Whether the rows have the group named `group` ([`Columns::group`]).
    pub fn has(&self, group: &str) -> bool {
        self.groups.iter().any(|g| g.group() == group)
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
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stored list that differs is refused with the columns named.
    #[test]
    fn a_different_column_list_is_named() {
        let c = super::super::tests::classifier();
        let mut names = Schema::of(&c).names();
        assert_eq!(Schema::read(&names).map(|s| s.names()), Ok(names.clone()));
        assert!(
            Schema::read(&[])
                .unwrap_err()
                .contains("stores no column names")
        );
        names[3] = "log_syllables".into();
        let err = Schema::read(&names).unwrap_err();
        assert!(
            err.contains("column 3 is `log_syllables` in the model and `log_words` here"),
            "{err}"
        );
        assert!(err.contains("does not know: log_syllables"), "{err}");
        assert!(err.contains("the model lacks: log_words"), "{err}");
        names.truncate(3);
        let err = Schema::read(&names).unwrap_err();
        assert!(
            err.contains("column 3 is `the row's end` in the model"),
            "{err}"
        );
    }

    /// The optional groups are chosen by name, and the stored names give
    /// the same groups back; a name no group has is refused.
    #[test]
    fn optional_groups_are_read_back_from_their_names() {
        let plain = Schema::with(&[]).unwrap();
        assert!(!plain.has("neighbours") && plain.has("containers"));
        let full = Schema::with(&["site", "neighbours", "hidden", "phrases"]).unwrap();
        let back = Schema::read(&full.names()).unwrap();
        for g in ["neighbours", "site", "hidden", "phrases"] {
            assert!(back.has(g), "{g}");
        }
        assert!(!back.has("page_type") && !back.has("words"));
        assert_eq!(back.names(), full.names());
        assert_eq!(back.width(), full.width());
        assert!(Schema::with(&["containers"]).is_err(), "not optional");
        assert!(Schema::with(&["nope"]).unwrap_err().contains("`nope`"));
        let mut c = super::super::tests::classifier();
        c.columns = Schema::with(&["hidden"]).unwrap().names();
        assert!(c.schema().has("hidden") && !c.schema().has("neighbours"));
    }
}
