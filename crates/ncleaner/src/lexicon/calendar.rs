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

/// The months' names of other languages as their dates write them, lower
/// case, Greek without its accents: each entry holds twelve, January first;
/// a language whose dates decline the month has two entries, the form of
/// dates (the genitive: "18 listopada 2011", "15 декабря 2011",
/// "15 Δεκεμβρίου 2011") first and the nominative after. An abbreviation
/// is read as the month whose every form it starts ("дек.", "lis.",
/// "févr."), so an entry's words hold no abbreviation.
///
/// Not a model input: the page features and the metadata that the
/// classifier reads know the English months ([`MONTHS`]) as the embedded
/// models were trained on them. These are read after the decisions, by the
/// datelines of the kept content (`pipeline::kept`); moving them into
/// [`MONTHS`] changes the page features and needs the models retrained.
pub const MONTHS_OF_DATES: WordSet = WordSet::new(
    "months-of-dates",
    &[
        (
            "de",
            &[
                "januar",
                "februar",
                "märz",
                "april",
                "mai",
                "juni",
                "juli",
                "august",
                "september",
                "oktober",
                "november",
                "dezember",
            ],
        ),
        (
            "fr",
            &[
                "janvier",
                "février",
                "mars",
                "avril",
                "mai",
                "juin",
                "juillet",
                "août",
                "septembre",
                "octobre",
                "novembre",
                "décembre",
            ],
        ),
        (
            "es",
            &[
                "enero",
                "febrero",
                "marzo",
                "abril",
                "mayo",
                "junio",
                "julio",
                "agosto",
                "septiembre",
                "octubre",
                "noviembre",
                "diciembre",
            ],
        ),
        (
            "pt",
            &[
                "janeiro",
                "fevereiro",
                "março",
                "abril",
                "maio",
                "junho",
                "julho",
                "agosto",
                "setembro",
                "outubro",
                "novembro",
                "dezembro",
            ],
        ),
        (
            "it",
            &[
                "gennaio",
                "febbraio",
                "marzo",
                "aprile",
                "maggio",
                "giugno",
                "luglio",
                "agosto",
                "settembre",
                "ottobre",
                "novembre",
                "dicembre",
            ],
        ),
        (
            "nl",
            &[
                "januari",
                "februari",
                "maart",
                "april",
                "mei",
                "juni",
                "juli",
                "augustus",
                "september",
                "oktober",
                "november",
                "december",
            ],
        ),
        (
            "pl",
            &[
                "stycznia",
                "lutego",
                "marca",
                "kwietnia",
                "maja",
                "czerwca",
                "lipca",
                "sierpnia",
                "września",
                "października",
                "listopada",
                "grudnia",
            ],
        ),
        (
            "pl",
            &[
                "styczeń",
                "luty",
                "marzec",
                "kwiecień",
                "maj",
                "czerwiec",
                "lipiec",
                "sierpień",
                "wrzesień",
                "październik",
                "listopad",
                "grudzień",
            ],
        ),
        (
            "ru",
            &[
                "января",
                "февраля",
                "марта",
                "апреля",
                "мая",
                "июня",
                "июля",
                "августа",
                "сентября",
                "октября",
                "ноября",
                "декабря",
            ],
        ),
        (
            "ru",
            &[
                "январь",
                "февраль",
                "март",
                "апрель",
                "май",
                "июнь",
                "июль",
                "август",
                "сентябрь",
                "октябрь",
                "ноябрь",
                "декабрь",
            ],
        ),
        (
            "el",
            &[
                "ιανουαριου",
                "φεβρουαριου",
                "μαρτιου",
                "απριλιου",
                "μαιου",
                "ιουνιου",
                "ιουλιου",
                "αυγουστου",
                "σεπτεμβριου",
                "οκτωβριου",
                "νοεμβριου",
                "δεκεμβριου",
            ],
        ),
        (
            "el",
            &[
                "ιανουαριος",
                "φεβρουαριος",
                "μαρτιος",
                "απριλιος",
                "μαιος",
                "ιουνιος",
                "ιουλιος",
                "αυγουστος",
                "σεπτεμβριος",
                "οκτωβριος",
                "νοεμβριος",
                "δεκεμβριος",
            ],
        ),
    ],
);

/// Words that join a date's parts ("4 de marzo de 2025", "4 de março de
/// 2025"), lower case, whole: the dates of other languages skip them.
pub const DATE_JOINERS: WordSet =
    WordSet::new("date-joiners", &[("es", &["de", "del"]), ("pt", &["de"])]);

/// The characters after a date's year, month and day in Chinese
/// ("2011年12月15日"; Japanese writes them alike) and in Korean ("2011년
/// 12월 15일"): each entry holds three, in that order.
pub const DATE_UNITS: WordSet = WordSet::new(
    "date-units",
    &[("zh", &["年", "月", "日"]), ("ko", &["년", "월", "일"])],
);
