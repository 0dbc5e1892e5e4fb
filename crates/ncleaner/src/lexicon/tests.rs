use std::collections::{BTreeMap, HashSet};

use super::*;

#[test]
fn names_are_unique() {
    let mut names = HashSet::new();
    for set in all()
        .into_iter()
        .filter(|s| !PAGE_CLASS_GROUPS.contains(s) && !URL_GROUPS.contains(s))
    {
        assert!(names.insert(set.name), "two sets named {}", set.name);
    }
    for family in [&PAGE_CLASS_WORDS, &URL_WORDS] {
        assert!(names.insert(family.name), "{}", family.name);
        let mut groups = HashSet::new();
        for g in family.groups {
            assert!(
                groups.insert(g.name),
                "two groups {} in {}",
                g.name,
                family.name
            );
        }
    }
}

#[test]
fn entries_are_languages_or_any() {
    for set in all() {
        for &(lang, words) in set.entries {
            assert!(
                lang == ANY || (lang.len() == 2 && lang.bytes().all(|b| b.is_ascii_lowercase())),
                "{}: {lang:?} is not an ISO 639-1 code",
                set.name
            );
            assert!(!words.is_empty(), "{}: an empty entry", set.name);
            for w in words {
                assert!(!w.is_empty(), "{}: an empty word", set.name);
            }
        }
    }
}

/// The class/id words are matched as one attribute word each: lower-case
/// letters and digits, two at least, not a number (as
/// `html::attribute_words` splits and keeps them).
#[test]
fn class_words_are_single_attribute_words() {
    let mut sets = vec![
        &COMMENT_SECTION,
        &COMMENT_BYLINE,
        &BYLINE_ELEMENT,
        &PUBLISHED_ELEMENT,
        &MODIFIED_ELEMENT,
        &BYLINE_ROLE,
        &CAPTION_ROLE,
        &FURNITURE_ROLE,
    ];
    sets.extend(&PAGE_CLASS_GROUPS);
    for set in sets {
        for w in set.words() {
            assert!(
                w.len() >= 2
                    && w.bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
                    && !w.bytes().all(|b| b.is_ascii_digit()),
                "{}: {w:?} is not one attribute word",
                set.name
            );
        }
    }
}

#[test]
fn calendars_are_complete_and_in_order() {
    for &(lang, months) in MONTHS.entries {
        assert_eq!(months.len(), 12, "months of {lang}");
    }
    for &(lang, days) in WEEKDAYS.entries {
        assert_eq!(days.len(), 7, "weekdays of {lang}");
    }
    assert_eq!(MONTHS.entry("en")[2], "march");
    assert_eq!(WEEKDAYS.entry("en")[0], "monday");
    assert!(MONTHS.entry("xx").is_empty());
    // The page features' quick test for a date reads three bytes of each.
    assert!(MONTHS.words().all(|m| m.len() >= 3));
    // The dates of other languages: twelve forms an entry, in lower case
    // (`html::any_date_in_text` lowers the page's words to match them).
    for &(lang, months) in MONTHS_OF_DATES.entries {
        assert_eq!(months.len(), 12, "months of dates of {lang}");
        for m in months {
            assert_eq!(m.to_lowercase(), *m, "{lang} {m}");
        }
    }
    for &(lang, units) in DATE_UNITS.entries {
        assert_eq!(units.len(), 3, "date units of {lang}");
    }
}

/// `lang::english_share` reads words of five bytes at most.
#[test]
fn english_function_words_are_short() {
    assert!(FUNCTION_WORDS.words_of("en").all(|w| w.len() <= 5));
}

#[test]
fn included_sets_come_first() {
    let words: Vec<&str> = FURNITURE_ROLE.words().collect();
    let share: Vec<&str> = SHARE.words().collect();
    assert_eq!(&words[..share.len()], &share[..]);
    assert_eq!(words.len(), FURNITURE_ROLE.len());
    assert!(FURNITURE_ROLE.contains("newsletter") && FURNITURE_ROLE.contains("addthis"));
    assert!(!FURNITURE_ROLE.contains("comment"));
    for (i, w) in words.iter().enumerate() {
        assert_eq!(FURNITURE_ROLE.get(i), *w);
    }
    let tagged: Vec<&str> = FURNITURE_ROLE.tagged().map(|(_, w)| w).collect();
    assert_eq!(tagged, words);
}

#[test]
fn a_language_reads_its_words_and_those_of_any() {
    const SET: WordSet = WordSet::new(
        "test",
        &[(ANY, &["x"]), ("en", &["by "]), ("de", &["von "])],
    );
    assert_eq!(SET.words_of("de").collect::<Vec<_>>(), ["x", "von "]);
    assert_eq!(SET.words_of("fr").collect::<Vec<_>>(), ["x"]);
    assert_eq!(SET.words().collect::<Vec<_>>(), ["x", "by ", "von "]);
    assert_eq!(SET.entry("de"), ["von "]);
}

#[test]
fn versions_change_with_words_languages_and_order() {
    const A: WordSet = WordSet::new("a", &[("en", &["one", "two"])]);
    const B: WordSet = WordSet::new("b", &[("en", &["one", "two"])]);
    const C: WordSet = WordSet::new("a", &[("en", &["two", "one"])]);
    const D: WordSet = WordSet::new("a", &[("de", &["one", "two"])]);
    const E: WordSet = WordSet::new("a", &[("en", &["one", "two", "three"])]);
    const F: WordSet = WordSet::new("a", &[("en", &["onetwo"])]);
    // A version is of the words, not of the name.
    assert_eq!(A.version(), B.version());
    let versions: HashSet<String> = [&A, &C, &D, &E, &F].iter().map(|s| s.version()).collect();
    assert_eq!(versions.len(), 5);
    assert_eq!(A.version().len(), 16);
}

/// The hash is FNV-1a of 64 bits, whatever the build: its test vector.
#[test]
fn the_version_hash_is_fnv1a() {
    let mut h = Fnv64::default();
    h.write(b"a");
    assert_eq!(h.0, 0xaf63_dc4c_8601_ec8c);
}

#[test]
fn every_model_input_is_in_the_lexicon() {
    let sets = all();
    for input in MODEL_INPUTS {
        match input {
            ModelInput::Set(s) => assert!(sets.contains(s), "{}", s.name),
            ModelInput::Groups(g) => {
                assert!(g.groups.iter().all(|s| sets.contains(&s)), "{}", g.name)
            }
        }
    }
}

#[test]
fn models_with_this_builds_versions_or_none_load() {
    assert_eq!(check_versions(&BTreeMap::new()), Ok(()));
    assert_eq!(check_versions(&model_versions()), Ok(()));
}

#[test]
fn a_model_of_other_versions_is_refused_naming_the_set() {
    let mut changed = model_versions();
    changed.insert("comment-section".into(), "0123456789abcdef".into());
    let e = check_versions(&changed).unwrap_err();
    assert!(
        e.contains("`comment-section`") && e.contains("0123456789abcdef"),
        "{e}"
    );

    let mut missing = model_versions();
    missing.remove("months");
    let e = check_versions(&missing).unwrap_err();
    assert!(e.contains("`months`"), "{e}");

    let mut extra = model_versions();
    extra.insert("colours".into(), "0123456789abcdef".into());
    let e = check_versions(&extra).unwrap_err();
    assert!(e.contains("`colours`"), "{e}");
}

/// The search for a set's words in one pass finds what a test of every
/// word at every byte, ASCII case ignored, finds.
fn at_every_byte(hay: &[u8], words: &[&[u8]]) -> bool {
    (0..=hay.len()).any(|i| {
        words.iter().any(|w| {
            hay[i..]
                .get(..w.len())
                .is_some_and(|h| h.eq_ignore_ascii_case(w))
        })
    })
}

#[test]
fn a_search_finds_its_words_in_any_case() {
    let search = AsciiSearch::new(&AUTHOR_URL);
    assert!(search.holds(b"https://x.org/AUTHOR/ann"));
    assert!(search.holds(b"/Authors"));
    assert!(!search.holds(b"/author"));
    assert!(!search.holds(b""));
    let search = AsciiSearch::of(["caf\u{e9}"]);
    assert!(search.holds("CAF\u{e9} au lait".as_bytes()));
    assert!(!search.holds("CAF\u{c9}".as_bytes()));
}

proptest::proptest! {
    #[test]
    fn a_search_is_a_test_at_every_byte(
        hay in "[aAbByY/ é-]{0,40}",
        w1 in "[abyAYé/]{0,4}",
        w2 in "[abyAY/]{1,4}"
    ) {
        let words = [w1.as_bytes(), w2.as_bytes()];
        proptest::prop_assert_eq!(
            AsciiSearch::of(words).holds(hay.as_bytes()),
            at_every_byte(hay.as_bytes(), &words)
        );
    }
}
