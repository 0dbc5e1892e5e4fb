//! The pass's tokenizer on long runs of one state: a prefix that enters a
//! state (inside a tag, an attribute value, a comment, a script escape, a
//! raw-text element, a character reference, …) and a unit repeated up to
//! a million times. The tokenizer must not recurse (no run can overflow
//! the stack), must stay linear, and must agree with html5gum on the same
//! run repeated a few times.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../crates/ncleaner/tests/support/tokens.rs"]
mod tokens;

/// Prefixes that put the tokenizer in a state.
const PREFIXES: &[&str] = &[
    "", "<div ", "<div a=\"", "<div a='", "<div a=", "<div a", "</div ", "<!--", "<!-- -",
    "<!DOCTYPE ", "<?", "<script>", "<script><!--", "<script><!--<script>", "<style>",
    "<title>", "<textarea>", "<noscript>", "<plaintext>", "<p>&", "<p>&#", "<p>&#x", "<a href=\"&",
];

fuzz_target!(|data: &[u8]| {
    let Some((&p, rest)) = data.split_first() else { return };
    let Some((&n, unit)) = rest.split_first() else { return };
    if unit.is_empty() || unit.len() > 16 {
        return;
    }
    let prefix = PREFIXES[p as usize % PREFIXES.len()];
    let unit = String::from_utf8_lossy(unit);
    // A few repeats against html5gum, then a long run alone.
    let short = format!("{prefix}{}", unit.repeat(3 + n as usize % 8));
    assert_eq!(tokens::ours(&short), tokens::gum(&short), "{short:?}");
    let repeats = 1_000_000 / unit.len();
    let long = format!("{prefix}{}", unit.repeat(repeats));
    // A quadratic state would show as libFuzzer's timeout (scripts/fuzz
    // sets 20 s), a recursive one as a stack overflow.
    std::hint::black_box(tokens::ours(&long));
});
