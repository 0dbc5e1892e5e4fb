//! The calendar's words: months and weekdays, by language.

use super::WordSet;

/// The months' names, January first, lower case: each language's entry
/// holds twelve, in order (a month's number is its place). Read by the
/// dates of text (`html::date_in_text`: a month by at least its first
/// three letters), the byline's name (a month ends it), and the page
/// features' quick test for a date (any month's first three letters).
pub const MONTHS: WordSet = WordSet::new(
    "months",
    &[(
        "en",
        &[
            "january",
            "february",
            "march",
            "april",
            "may",
            "june",
            "july",
            "august",
            "september",
            "october",
            "november",
            "december",
        ],
    )],
);

/// The weekdays' names, Monday first, lower case: each language's entry
/// holds seven, in order. Read by the dates of text (a weekday before a
/// date is skipped) and the byline's name (a weekday ends it).
pub const WEEKDAYS: WordSet = WordSet::new(
    "weekdays",
    &[(
        "en",
        &[
            "monday",
            "tuesday",
            "wednesday",
            "thursday",
            "friday",
            "saturday",
            "sunday",
        ],
    )],
);
