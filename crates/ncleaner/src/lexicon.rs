//! Every word list the code matches, each a named set ([`WordSet`]) with
//! its words per language: `class`/`id`/`role` words and URL path words
//! ([`markup`], [`url`]), the words of visible text (bylines, datelines,
//! author fields, copyright lines, function words, abbreviations: [`text`]),
//! the phrases of furniture in the text (comments, share, "read more",
//! relative dates: [`phrases`]) and the calendar ([`calendar`]).
//!
//! A set holds entries per language, each an ISO 639-1 code (`en`), and
//! entries of [`ANY`] language: tokens that pages of every language use,
//! such as the class and id words that sites write in English whatever
//! their text's language. Users read a set's words through [`WordSet`]'s
//! methods ([`WordSet::words`], every language's; [`WordSet::words_of`],
//! one language's and [`ANY`]'s), so a language added to a set reaches
//! them without a change to their code. Where a word is matched in the hot
//! path (per attribute word, per segment), the user builds its own fast
//! structure from the set once (hashed words, a bit filter, a table).
//!
//! Names of a vocabulary that a standard fixes are not word lists of the
//! lexicon and stay with their readers: HTML element and attribute names,
//! ARIA roles, `<meta>` keys, schema.org types and properties, `og:type`
//! values, highlighters' class conventions (`language-`, `brush:`).
//!
//! The sets that a trained model's inputs read (segment contexts, page
//! signals, page features, the metadata that page features count) are
//! [`MODEL_INPUTS`]: their versions ([`WordSet::version`]) are stored in
//! the model file ([`model_versions`]), and a model trained with other
//! versions is refused when loaded ([`check_versions`]).

use std::collections::BTreeMap;

mod calendar;
mod markup;
mod phrases;
mod text;
mod url;

pub use calendar::*;
pub use markup::*;
pub use phrases::*;
pub use text::*;
pub use url::*;

/// A language of a set's entry: an ISO 639-1 code, or [`ANY`].
pub type Lang = &'static str;

/// The language of an entry whose words pages of any language use.
pub const ANY: Lang = "*";

/// A named set of words, by language.
#[derive(Debug, PartialEq, Eq)]
pub struct WordSet {
    /// The set's name, as model files and messages give it (kebab case,
    /// unique in the lexicon).
    pub name: &'static str,
    /// Sets whose words this one holds too, before its own.
    pub includes: &'static [&'static WordSet],
    /// The words, by language, in the order their users read them.
    pub entries: &'static [(Lang, &'static [&'static str])],
}

impl WordSet {
    /// A set of the given entries.
    pub const fn new(
        name: &'static str,
        entries: &'static [(Lang, &'static [&'static str])],
    ) -> WordSet {
        WordSet {
            name,
            includes: &[],
            entries,
        }
    }

    /// A set of the words of `includes` and of the given entries.
    pub const fn including(
        name: &'static str,
        includes: &'static [&'static WordSet],
        entries: &'static [(Lang, &'static [&'static str])],
    ) -> WordSet {
        WordSet {
            name,
            includes,
            entries,
        }
    }

    /// The number of words, every language's (a word of two entries
    /// counts twice).
    pub const fn len(&self) -> usize {
        let mut n = 0;
        let mut i = 0;
        while i < self.includes.len() {
            n += self.includes[i].len();
            i += 1;
        }
        let mut e = 0;
        while e < self.entries.len() {
            n += self.entries[e].1.len();
            e += 1;
        }
        n
    }

    /// Whether the set has no word.
    pub const fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Word `i` of [`WordSet::words`] (for constant tables built from a
    /// set). Panics past the end.
    pub const fn get(&self, mut i: usize) -> &'static str {
        let mut s = 0;
        while s < self.includes.len() {
            let n = self.includes[s].len();
            if i < n {
                return self.includes[s].get(i);
            }
            i -= n;
            s += 1;
        }
        let mut e = 0;
        while e < self.entries.len() {
            let words = self.entries[e].1;
            if i < words.len() {
                return words[i];
            }
            i -= words.len();
            e += 1;
        }
        panic!("a word past the end of a word set")
    }

    /// The words of one language's own entry, in order (empty without
    /// one): for sets whose order means something, such as the months.
    pub const fn entry(&self, lang: &str) -> &'static [&'static str] {
        let mut e = 0;
        while e < self.entries.len() {
            if const_eq(self.entries[e].0, lang) {
                return self.entries[e].1;
            }
            e += 1;
        }
        &[]
    }

    /// Every word with its language: the included sets' first, then each
    /// entry's, in order.
    pub fn tagged(&self) -> Box<dyn Iterator<Item = (Lang, &'static str)> + '_> {
        Box::new(
            self.includes.iter().flat_map(|s| s.tagged()).chain(
                self.entries
                    .iter()
                    .flat_map(|&(lang, words)| words.iter().map(move |&w| (lang, w))),
            ),
        )
    }

    /// Every word, every language's, in the order of [`WordSet::tagged`].
    pub fn words(&self) -> impl Iterator<Item = &'static str> + Clone + '_ {
        (0..self.len()).map(|i| self.get(i))
    }

    /// The words of language `lang` (an ISO 639-1 code) and of [`ANY`].
    pub fn words_of<'a>(&'a self, lang: &'a str) -> impl Iterator<Item = &'static str> + 'a {
        self.tagged()
            .filter(move |&(l, _)| l == ANY || l == lang)
            .map(|(_, w)| w)
    }

    /// Whether `word` is one of the set's words (any language), exactly.
    pub fn contains(&self, word: &str) -> bool {
        self.includes.iter().any(|s| s.contains(word))
            || self.entries.iter().any(|(_, words)| words.contains(&word))
    }

    /// The set's version: 16 hexadecimal digits of a hash (FNV-1a, 64
    /// bits) of its languages and words in order, the same on every
    /// machine and build. Any change of a word, of its language or of the
    /// order changes it.
    pub fn version(&self) -> String {
        let mut h = Fnv64::default();
        for (lang, word) in self.tagged() {
            h.write(lang.as_bytes());
            h.write(&[0x1f]);
            h.write(word.as_bytes());
            h.write(&[0x1e]);
        }
        format!("{:016x}", h.0)
    }
}

/// FNV-1a, 64 bits: a hash that no build or platform changes.
struct Fnv64(u64);

impl Default for Fnv64 {
    fn default() -> Fnv64 {
        Fnv64(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv64 {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// The words of a set looked for anywhere in a text, in any ASCII case
/// (bytes outside ASCII compared as they are), in one pass over the text
/// (an Aho-Corasick automaton): where a set's words are tested on every
/// element or every segment. One scan of the text for each word's first
/// byte (`memchr2`) took twice the instructions on `href`s and as many on
/// `class` values; a byte-by-byte table walk took more on both
/// (docs/benchmarks-log.md, 2026-12-07).
#[derive(Debug, Clone)]
pub(crate) struct AsciiSearch(aho_corasick::AhoCorasick);

impl AsciiSearch {
    /// The search for the words of `set`, every language's.
    pub(crate) fn new(set: &WordSet) -> AsciiSearch {
        AsciiSearch::of(set.words())
    }

    /// The search for `words`.
    pub(crate) fn of<W: AsRef<[u8]>>(words: impl IntoIterator<Item = W>) -> AsciiSearch {
        let automaton = aho_corasick::AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .build(words)
            .expect("a lexicon's words make an automaton");
        AsciiSearch(automaton)
    }

    /// Whether `text` holds one of the words.
    pub(crate) fn holds(&self, text: &[u8]) -> bool {
        self.0.is_match(text)
    }
}

/// Whether two strings are equal, in a constant context.
const fn const_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// A family of sets read together, each a group whose name is a model's
/// column (the page signals' class word groups, the URL's word groups):
/// versioned as one.
#[derive(Debug)]
pub struct Groups {
    /// The family's name, as model files and messages give it.
    pub name: &'static str,
    /// The groups, in the order of their columns.
    pub groups: &'static [WordSet],
}

impl Groups {
    /// The family's version: [`WordSet::version`]'s hash over each group's
    /// name and words, in order.
    pub fn version(&self) -> String {
        let mut h = Fnv64::default();
        for g in self.groups {
            h.write(g.name.as_bytes());
            h.write(&[0x1d]);
            h.write(g.version().as_bytes());
            h.write(&[0x1d]);
        }
        format!("{:016x}", h.0)
    }
}

/// A set or a family of sets that a trained model's inputs read.
#[derive(Debug, Clone, Copy)]
pub enum ModelInput {
    /// One set.
    Set(&'static WordSet),
    /// A family of groups.
    Groups(&'static Groups),
}

impl ModelInput {
    /// Its name in model files.
    pub fn name(self) -> &'static str {
        match self {
            ModelInput::Set(s) => s.name,
            ModelInput::Groups(g) => g.name,
        }
    }

    /// Its version ([`WordSet::version`], [`Groups::version`]).
    pub fn version(self) -> String {
        match self {
            ModelInput::Set(s) => s.version(),
            ModelInput::Groups(g) => g.version(),
        }
    }
}

/// The sets that a trained model depends on: those read before the
/// classifier, by the segments' contexts ([`COMMENT_SECTION`]), the page
/// signals ([`PAGE_CLASS_WORDS`]), the page features ([`URL_WORDS`],
/// [`CURRENCY_SIGNS`], [`MONTHS`]), the metadata whose fields the page
/// features count (authors, dates) and the segments' phrase columns
/// ([`TEXT_PHRASES`]). The sets read after the decisions
/// (roles, the kept content's bylines), by the language's fast path and by
/// the word models' sentence splitter are not among them.
pub const MODEL_INPUTS: &[ModelInput] = &[
    ModelInput::Set(&COMMENT_SECTION),
    ModelInput::Groups(&PAGE_CLASS_WORDS),
    ModelInput::Groups(&URL_WORDS),
    ModelInput::Set(&CURRENCY_SIGNS),
    ModelInput::Set(&MONTHS),
    ModelInput::Set(&WEEKDAYS),
    ModelInput::Set(&BYLINE_ELEMENT),
    ModelInput::Set(&PUBLISHED_ELEMENT),
    ModelInput::Set(&MODIFIED_ELEMENT),
    ModelInput::Set(&COMMENT_BYLINE),
    ModelInput::Set(&AUTHOR_URL),
    ModelInput::Set(&AUTHOR_LABELS),
    ModelInput::Set(&AUTHOR_FIELD_PREFIXES),
    ModelInput::Set(&AUTHOR_PLACEHOLDERS),
    ModelInput::Set(&BYLINE_NAME_PREFIXES),
    ModelInput::Set(&BYLINE_NAME_ENDS),
    ModelInput::Set(&NAME_PARTICLES),
    ModelInput::Set(&DATELINE_WORDS),
    ModelInput::Groups(&TEXT_PHRASES),
];

/// The versions of [`MODEL_INPUTS`] by name, as a model file stores them.
pub fn model_versions() -> BTreeMap<String, String> {
    MODEL_INPUTS
        .iter()
        .map(|i| (i.name().to_string(), i.version()))
        .collect()
}

/// Checks the versions a model file stores against this build's: the
/// reason, naming the first set that differs, when they do not agree.
/// A file that stores none (written before sets were versioned) passes.
pub fn check_versions(stored: &BTreeMap<String, String>) -> Result<(), String> {
    if stored.is_empty() {
        return Ok(());
    }
    let retrain = "retrain the model with this build (`ncleaner train`; the embedded models: \
                   scripts/build-models)";
    for input in MODEL_INPUTS {
        let (name, version) = (input.name(), input.version());
        match stored.get(name) {
            Some(v) if *v == version => {}
            Some(v) => {
                return Err(format!(
                    "trained with another version of the word set `{name}` ({v}; this build's is \
                     {version}), so its features would not be the ones it learned: {retrain}"
                ));
            }
            None => {
                return Err(format!(
                    "trained without the word set `{name}` that this build reads: {retrain}"
                ));
            }
        }
    }
    if let Some(name) = stored
        .keys()
        .find(|k| !MODEL_INPUTS.iter().any(|i| i.name() == k.as_str()))
    {
        return Err(format!(
            "trained with a word set `{name}` that this build does not have: {retrain}"
        ));
    }
    Ok(())
}

/// Every set of the lexicon (the groups of a family one by one).
pub fn all() -> Vec<&'static WordSet> {
    let mut sets: Vec<&'static WordSet> = vec![
        &COMMENT_SECTION,
        &COMMENT_BYLINE,
        &BYLINE_ELEMENT,
        &PUBLISHED_ELEMENT,
        &MODIFIED_ELEMENT,
        &AUTHOR_URL,
        &BYLINE_ROLE,
        &CAPTION_ROLE,
        &FURNITURE_ROLE,
        &CURRENCY_SIGNS,
        &MONTHS,
        &WEEKDAYS,
        &MONTHS_OF_DATES,
        &DATE_JOINERS,
        &DATE_UNITS,
        &AUTHOR_LABELS,
        &AUTHOR_FIELD_PREFIXES,
        &AUTHOR_PLACEHOLDERS,
        &BYLINE_NAME_PREFIXES,
        &BYLINE_NAME_ENDS,
        &NAME_PARTICLES,
        &DATELINE_WORDS,
        &BYLINE_LEADS,
        &AUTHOR_LINE_LEADS,
        &PUBLICATION_WORDS,
        &UPDATE_WORDS,
        &COPYRIGHT_SIGNS,
        &COPYRIGHT_LINE,
        &FUNCTION_WORDS,
        &ABBREVIATIONS,
    ];
    sets.extend(PAGE_CLASS_WORDS.groups);
    sets.extend(URL_WORDS.groups);
    sets.extend(TEXT_PHRASES.groups);
    sets
}

#[cfg(test)]
mod tests;
