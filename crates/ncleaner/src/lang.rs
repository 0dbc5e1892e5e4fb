//! Language identification of a page, for routing it to a model trained on
//! its language ([`crate::pipeline::Routes`]).
//!
//! **The identifier is `whatlang`** (trigram profiles of 70 languages after a
//! script detection; no model files, no C dependency; MIT; maintained since
//! 2017). It costs about 0.1 ms per call whatever the text, which would be a
//! fifth of cleaning a page, so two things keep it cheap: English running
//! text is recognised first by its function words ([`english_share`], a few
//! µs), and whatlang never sees the whole page: the [`sample`] is the page's longest segments that are neither
//! mostly link text nor recognised as boilerplate by the segmentation
//! heuristics, up to [`SAMPLE_BYTES`] bytes. Those are where the article is,
//! so the sample is both small and the part of the page whose language
//! matters; a menu in English around a German article does not outvote it.
//!
//! **Tags are ISO 639-1 two-letter codes** (`en`, `de`, `fr`, `es`, …),
//! what HTML's `lang` attribute, HTTP's `Content-Language` and most corpora
//! use, and what users will type after `train --language`. whatlang names
//! languages by ISO 639-3 (`eng`, `deu`); every one of its 70 languages has a
//! 639-1 code today (Mandarin → `zh`, Iranian Persian → `fa`, Norwegian
//! Bokmål → `nb`), and a language without one would be tagged with its
//! 639-3 code ([`tag`]). Model tags are compared with [`normalise_tag`], so
//! `DE`, `de-AT` and `deu` all route German pages.
//!
//! **`None` when unsure.** A detection is used only when the sample has at
//! least [`MIN_SAMPLE_CHARS`] letters' worth of text and whatlang's
//! confidence (how far the best language's score is ahead of the second's,
//! 0–1) reaches [`MIN_CONFIDENCE`]. A page without a detection goes to the
//! fallback model, which is the safe choice: the non-lexical model works
//! for any language.

use crate::segment::Segment;

/// The most text (bytes, UTF-8) given to the identifier per page. 1 KB of
/// running text (150-odd words) is enough for whatlang's trigram profiles,
/// and bounds the cost per page whatever the page's size. whatlang costs
/// about 80 µs per call whatever the length (it compares the text's
/// trigrams with the 300 of each of the script's ~40 languages) plus about
/// 30 ns per byte: on the CleanEval pages a 1 KB sample costs ~110 µs per
/// page, 2 KB ~150 µs, and 256 bytes ~85 µs but misses one more page
/// (`cargo run --release -p ncleaner --example lang_speed`, BENCHMARKS.md).
pub const SAMPLE_BYTES: usize = 1024;

/// Below this many characters of sample, no language is claimed.
pub const MIN_SAMPLE_CHARS: usize = 40;

/// The least whatlang confidence at which a detection is used. whatlang's own
/// "reliable" line is 0.9; we take a little less because our samples are
/// running text, where the runner-up language is rarely close, and a page
/// left undetected loses its language model. (Of the 398 CleanEval dev and
/// train pages, all English, 396 are detected as `en` and two, with little
/// prose, as nothing; see BENCHMARKS.md.)
pub const MIN_CONFIDENCE: f64 = 0.5;

/// A page's detected language.
#[derive(Debug, Clone, PartialEq)]
pub struct Detection {
    /// The language's tag: ISO 639-1 where it has one, else ISO 639-3.
    pub tag: &'static str,
    /// whatlang's confidence, 0–1.
    pub confidence: f64,
}

/// The text the identifier sees for a page: its longest prose segments,
/// joined by newlines, at most [`SAMPLE_BYTES`] bytes (the last one cut at
/// a character boundary). Prose is a paragraph (not a heading or list item)
/// outside `pre` and lists, not mostly links and not heuristic boilerplate:
/// code, lists and menus do not decide a page's language (a blog post in
/// English with Rust code is English, whatever the code's identifiers look
/// like). Without prose, segments that are not mostly links are the
/// candidates; without those, all segments.
pub fn sample(segments: &[Segment]) -> String {
    use crate::html::Context;
    let wordy =
        |s: &&Segment| s.heuristic.is_none() && (s.link_chars as usize) * 2 < s.text().len();
    let prose = |s: &&Segment| {
        wordy(s)
            && s.kind == crate::segment::Kind::P
            && !s.context.has(Context::PRE)
            && !s.context.has(Context::LIST)
    };
    let mut candidates: Vec<&Segment> = segments.iter().filter(prose).collect();
    if candidates.is_empty() {
        candidates = segments.iter().filter(wordy).collect();
    }
    if candidates.is_empty() {
        candidates = segments.iter().collect();
    }
    candidates.sort_by_key(|s| std::cmp::Reverse(s.text().len()));
    let mut out = String::with_capacity(SAMPLE_BYTES + 4);
    for s in candidates {
        let room = SAMPLE_BYTES.saturating_sub(out.len());
        if room == 0 {
            break;
        }
        let mut end = s.text().len().min(room);
        while !s.text().is_char_boundary(end) {
            end -= 1;
        }
        out.push_str(&s.text()[..end]);
        out.push('\n');
    }
    out
}

/// Identifies the language of a page from its segments ([`sample`]).
pub fn detect_segments(segments: &[Segment]) -> Option<Detection> {
    detect(&sample(segments))
}

/// Identifies the language of a text; `None` when there is too little text
/// or the identifier is not confident enough.
pub fn detect(text: &str) -> Option<Detection> {
    if text
        .chars()
        .filter(|c| c.is_alphabetic())
        .take(MIN_SAMPLE_CHARS)
        .count()
        < MIN_SAMPLE_CHARS
    {
        return None;
    }
    if english_share(text) >= ENGLISH_SHARE {
        return Some(Detection {
            tag: "en",
            confidence: 1.0,
        });
    }
    let info = whatlang::detect(text)?;
    (info.confidence() >= MIN_CONFIDENCE).then(|| Detection {
        tag: tag(info.lang()),
        confidence: info.confidence(),
    })
}

/// The share of English function words among the words of a text at which
/// [`detect`] calls it English without asking whatlang. English running
/// text has 30–50 % of its words in [`english_share`]'s list (pages' samples
/// with lists and headings less); German, French, Spanish and Italian text
/// has under 5 % (the list leaves out words those languages and Dutch share
/// with English, such as `in`, `is`, `a`, `an`, `on`, `die`).
pub const ENGLISH_SHARE: f64 = 0.15;

/// The fast path for English: the share of a text's words (runs of
/// letters; 0 when it has fewer than 30) that are common English function
/// words. whatlang costs ~100 µs a page whatever the text, most of it
/// comparing trigram profiles of 40 languages; this costs a few µs, and most
/// pages of an English crawl are settled by it. On the CleanEval pages it
/// agrees with whatlang on every page it claims (`examples/lang_speed.rs`).
pub fn english_share(text: &str) -> f64 {
    let (mut words, mut hits) = (0usize, 0usize);
    for w in text
        .split(|c: char| !c.is_alphabetic() && c != '\'')
        .filter(|w| !w.is_empty())
    {
        words += 1;
        if w.len() <= 5 && is_english_function_word(w) {
            hits += 1;
        }
    }
    if words < 30 {
        return 0.0;
    }
    hits as f64 / words as f64
}

/// The English function words ([`crate::lexicon::FUNCTION_WORDS`]), each
/// packed in a `u64` as [`pack`] packs a word, sorted: a look-up is a
/// search of 56 numbers, where comparing strings was a chain of tests.
fn english_function_words() -> &'static [u64] {
    static WORDS: std::sync::OnceLock<Vec<u64>> = std::sync::OnceLock::new();
    WORDS.get_or_init(|| {
        let mut words: Vec<u64> = crate::lexicon::FUNCTION_WORDS
            .words_of("en")
            .filter_map(|w| pack(w.as_bytes()))
            .collect();
        words.sort_unstable();
        words
    })
}

/// Up to eight bytes lower-cased (ASCII) into a number, the first byte
/// lowest; `None` for a longer word.
fn pack(w: &[u8]) -> Option<u64> {
    (w.len() <= 8).then(|| {
        w.iter()
            .rev()
            .fold(0u64, |n, &b| n << 8 | u64::from(b.to_ascii_lowercase()))
    })
}

fn is_english_function_word(w: &str) -> bool {
    pack(w.as_bytes()).is_some_and(|n| english_function_words().binary_search(&n).is_ok())
}

/// The tag of a whatlang language: its ISO 639-1 code, or its ISO 639-3 code
/// for a language without one.
pub fn tag(lang: whatlang::Lang) -> &'static str {
    iso639_1(lang).unwrap_or_else(|| lang.code())
}

/// A language tag as models and routes compare it: lower case, the primary
/// subtag only (`de-AT` → `de`), ISO 639-3 codes of whatlang's languages
/// mapped to their 639-1 code (`deu` → `de`). `None` for an empty tag or
/// one with characters other than ASCII letters, digits, `-` and `_`.
pub fn normalise_tag(tag: &str) -> Option<String> {
    let tag = tag.trim();
    if tag.is_empty()
        || !tag
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    {
        return None;
    }
    let primary = tag
        .split(['-', '_'])
        .next()
        .unwrap_or(tag)
        .to_ascii_lowercase();
    if primary.is_empty() {
        return None;
    }
    match whatlang::Lang::from_code(primary.as_str()) {
        Some(lang) if primary.len() == 3 => Some(self::tag(lang).to_string()),
        _ => Some(primary),
    }
}

/// A model's language field as models and routes compare it: one tag or
/// several separated by commas (`zh,ru,pl,el`, a model trained on pages of
/// several languages that takes the pages of each), each normalised by
/// [`normalise_tag`], in their order, a tag given twice kept once. `None`
/// when any of them is not a tag (an empty one included: `en,`).
pub fn normalise_tags(tags: &str) -> Option<String> {
    let mut out: Vec<String> = Vec::new();
    for t in tags.split(',') {
        let t = normalise_tag(t)?;
        if !out.contains(&t) {
            out.push(t);
        }
    }
    Some(out.join(","))
}

/// The ISO 639-1 code of each of whatlang's languages.
fn iso639_1(lang: whatlang::Lang) -> Option<&'static str> {
    use whatlang::Lang::*;
    Some(match lang {
        Epo => "eo",
        Eng => "en",
        Rus => "ru",
        Cmn => "zh",
        Spa => "es",
        Por => "pt",
        Ita => "it",
        Ben => "bn",
        Fra => "fr",
        Deu => "de",
        Ukr => "uk",
        Kat => "ka",
        Ara => "ar",
        Hin => "hi",
        Jpn => "ja",
        Heb => "he",
        Yid => "yi",
        Pol => "pl",
        Amh => "am",
        Jav => "jv",
        Kor => "ko",
        Nob => "nb",
        Dan => "da",
        Swe => "sv",
        Fin => "fi",
        Tur => "tr",
        Nld => "nl",
        Hun => "hu",
        Ces => "cs",
        Ell => "el",
        Bul => "bg",
        Bel => "be",
        Mar => "mr",
        Kan => "kn",
        Ron => "ro",
        Slv => "sl",
        Hrv => "hr",
        Srp => "sr",
        Mkd => "mk",
        Lit => "lt",
        Lav => "lv",
        Est => "et",
        Tam => "ta",
        Vie => "vi",
        Urd => "ur",
        Tha => "th",
        Guj => "gu",
        Uzb => "uz",
        Pan => "pa",
        Aze => "az",
        Ind => "id",
        Tel => "te",
        Pes => "fa",
        Mal => "ml",
        Ori => "or",
        Mya => "my",
        Nep => "ne",
        Sin => "si",
        Khm => "km",
        Tuk => "tk",
        Aka => "ak",
        Zul => "zu",
        Sna => "sn",
        Afr => "af",
        Lat => "la",
        Slk => "sk",
        Cat => "ca",
        Tgl => "tl",
        Hye => "hy",
        Cym => "cy",
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::segment::Kind;

    const DE: &str = "Es war einmal ein König, der hatte drei Söhne, von denen \
        war der jüngste so schön, dass die Sonne selber sich wunderte, sooft sie \
        ihm ins Gesicht schien. Nahe bei dem Schlosse lag ein großer dunkler Wald.";
    const FR: &str = "Il y avait en Westphalie, dans le château de monsieur le \
        baron, un jeune garçon à qui la nature avait donné les mœurs les plus \
        douces. Sa physionomie annonçait son âme.";
    const ES: &str = "En un lugar de la Mancha, de cuyo nombre no quiero \
        acordarme, no ha mucho tiempo que vivía un hidalgo de los de lanza en \
        astillero, adarga antigua, rocín flaco y galgo corredor.";
    const EN: &str = "It was the best of times, it was the worst of times, it \
        was the age of wisdom, it was the age of foolishness, it was the epoch \
        of belief, it was the epoch of incredulity.";

    /// Code in `pre`, list items and headings do not reach the sample while
    /// there is prose; without prose, they do.
    #[test]
    fn the_sample_is_prose_only() {
        use crate::html::Context;
        let code = "impl<T: Ord> BinaryHeap<T> { pub fn peek_mut(&mut self) -> Option<PeekMut<'_, T>> { \
                    if self.is_empty() { None } else { Some(PeekMut { heap: self, original_len: None }) } } }";
        let mut pre = Segment::plain(Kind::P, code.repeat(3));
        pre.context = Context(Context::PRE);
        let mut item = Segment::plain(
            Kind::L,
            "Vec::with_capacity usize::MAX HashMap::entry".into(),
        );
        item.context = Context(Context::LIST);
        let prose = Segment::plain(Kind::P, EN.into());
        let s = sample(&[pre.clone(), item.clone(), prose]);
        assert!(
            !s.contains("BinaryHeap") && !s.contains("with_capacity"),
            "{s}"
        );
        assert!(s.contains("best of times"));
        assert_eq!(
            detect_segments(&[pre.clone(), Segment::plain(Kind::P, EN.into())])
                .unwrap()
                .tag,
            "en"
        );
        let only_code = sample(&[pre, item]);
        assert!(only_code.contains("BinaryHeap"), "without prose, the rest");
    }

    #[test]
    fn detects_languages_with_two_letter_tags() {
        for (text, want) in [(DE, "de"), (FR, "fr"), (ES, "es"), (EN, "en")] {
            let d = detect(text).expect("detected");
            assert_eq!(d.tag, want, "{text}");
            assert!(d.confidence >= MIN_CONFIDENCE && d.confidence <= 1.0);
        }
    }

    #[test]
    fn the_english_fast_path_claims_english_only() {
        assert!(english_share(&EN.repeat(2)) >= ENGLISH_SHARE);
        for text in [DE, FR, ES] {
            let share = english_share(&text.repeat(2));
            assert!(share < 0.05, "{share} {text}");
        }
        // The routing test's passages, paragraph by paragraph.
        for (lang, text) in [
            (
                "de",
                include_str!("../../ncleaner-cli/tests/data/lang/de.txt"),
            ),
            (
                "fr",
                include_str!("../../ncleaner-cli/tests/data/lang/fr.txt"),
            ),
            (
                "es",
                include_str!("../../ncleaner-cli/tests/data/lang/es.txt"),
            ),
            (
                "it",
                include_str!("../../ncleaner-cli/tests/data/lang/it.txt"),
            ),
        ] {
            for p in text.lines().filter(|l| !l.is_empty()) {
                let share = english_share(p);
                assert!(share < ENGLISH_SHARE / 2.0, "{lang} {share}: {p}");
            }
        }
        for p in include_str!("../../ncleaner-cli/tests/data/lang/en.txt").lines() {
            assert!(english_share(p) >= ENGLISH_SHARE, "{p}");
        }
        // Too few words: no claim.
        assert_eq!(english_share("the of and to that"), 0.0);
        // Non-ASCII words of up to five bytes do not trip the byte compare.
        assert_eq!(english_share(&"écrit où à ça ñandú ".repeat(10)), 0.0);
    }

    #[test]
    fn too_little_text_is_no_language() {
        assert_eq!(detect(""), None);
        assert_eq!(detect("Home | About"), None);
        assert_eq!(detect("1234 5678 ---- !!!! ???? 2024-01-01 12:00"), None);
        assert_eq!(detect_segments(&[]), None);
    }

    #[test]
    fn sample_prefers_long_prose_and_is_bounded() {
        let mut menu = Segment::plain(
            Kind::L,
            "Startseite Impressum Kontakt Datenschutz Hilfe Suche Anmelden Warenkorb Hilfe"
                .repeat(3),
        );
        menu.link_chars = menu.text().chars().count() as u32;
        let segments = vec![
            menu,
            Segment::plain(Kind::P, EN.to_string()),
            Segment::plain(Kind::P, DE.repeat(40)),
        ];
        let s = sample(&segments);
        assert!(s.len() <= SAMPLE_BYTES + 1);
        assert!(s.starts_with("Es war einmal"));
        assert!(!s.contains("Startseite"));
        assert_eq!(detect_segments(&segments).unwrap().tag, "de");
        // Only links: they are used rather than nothing.
        let links = vec![segments[0].clone()];
        assert!(sample(&links).contains("Startseite"));
    }

    #[test]
    fn sample_cuts_at_a_character_boundary() {
        let text = "é".repeat(SAMPLE_BYTES); // 2 bytes each
        let s = sample(&[Segment::plain(Kind::P, format!("x{text}"))]);
        assert!(s.len() <= SAMPLE_BYTES + 1);
    }

    #[test]
    fn tags_are_normalised() {
        assert_eq!(normalise_tag("de").as_deref(), Some("de"));
        assert_eq!(normalise_tag(" DE-at ").as_deref(), Some("de"));
        assert_eq!(normalise_tag("deu").as_deref(), Some("de"));
        assert_eq!(normalise_tag("cmn").as_deref(), Some("zh"));
        assert_eq!(normalise_tag("gsw").as_deref(), Some("gsw"));
        assert_eq!(normalise_tag(""), None);
        assert_eq!(normalise_tag("-"), None);
        assert_eq!(normalise_tag("d e"), None);
        assert_eq!(normalise_tag("de\n"), Some("de".into()));
        assert_eq!(normalise_tags("de").as_deref(), Some("de"));
        assert_eq!(
            normalise_tags("zh, RU,pol,el").as_deref(),
            Some("zh,ru,pl,el")
        );
        assert_eq!(normalise_tags("zh,cmn,ru").as_deref(), Some("zh,ru"));
        assert_eq!(normalise_tags("zh,"), None);
        assert_eq!(normalise_tags(",zh"), None);
        assert_eq!(normalise_tags("zh;ru"), None);
        for &lang in whatlang::Lang::all() {
            let t = tag(lang);
            assert_eq!(t.len(), 2, "{lang:?}");
            assert_eq!(normalise_tag(lang.code()).as_deref(), Some(t));
        }
    }
}
