//! `eval` against Python itself: difflib's matching blocks, the reference
//! scorer's tokens and counts, and UTF-8 decoding with replacement.
//!
//! Needs `python3` on PATH and the shared data (`$NCLEANER_SHARED` or
//! `../shared`); fails, saying so, without them.

// The shared-data and Python helpers of the product crate's tests, one copy.
#[path = "../../ncleaner/tests/common/mod.rs"]
mod common;

use common::{Rng, TRICKY, perturb, run_python, shared_dir, txt_files};
use ncleaner_lab::eval::{EvalOptions, difflib::matching_blocks, score_pair, tokens};
use serde_json::{Value, json};

/// Answers every request with Python's difflib and the reference scorer.
const PYTHON: &str = r#"
import difflib, json, sys
sys.path.insert(0, sys.argv[1])
import cleaneval_score as ref

req = json.load(sys.stdin)
res = {
    "blocks": [[list(m) for m in difflib.SequenceMatcher(None, a, b).get_matching_blocks()[:-1]]
               for a, b in req["blocks"]],
    "tokens": [ref.tokens(t, asc, unl) for t, asc, unl in req["tokens"]],
    "decode": [bytes(b).decode("utf-8", errors="replace") for b in req["decode"]],
    "pairs": [],
}
for out, gold, asc, words_only in req["pairs"]:
    (tp, fp, fn), seg = ref.score_pair(out, gold, asc, words_only)
    unl_words = ref.counts(ref.tokens(out, asc, True), ref.tokens(gold, asc, True))[:3]
    res["pairs"].append([tp, fp, fn, *seg["labelled"], *seg["unlabelled"], *unl_words])
json.dump(res, sys.stdout)
"#;

/// Random token sequences: independent ones, and `b` edited from `a` so that
/// long blocks, recursion on both sides and popular elements all occur.
fn random_pairs(rng: &mut Rng, n: usize) -> Vec<(Vec<u32>, Vec<u32>)> {
    (0..n)
        .map(|_| {
            let vocab = *rng.pick(&[1usize, 2, 3, 5, 8, 20, 60, 400]);
            let len = match rng.below(3) {
                0 => rng.below(40),
                1 => rng.below(200),
                _ => 150 + rng.below(450),
            };
            // A skewed distribution makes a few tokens popular in long sequences.
            let tok = |rng: &mut Rng| -> u32 {
                if rng.chance(1, 4) {
                    0
                } else {
                    rng.below(vocab) as u32
                }
            };
            let b: Vec<u32> = (0..len).map(|_| tok(rng)).collect();
            let a: Vec<u32> = if rng.chance(1, 4) {
                (0..rng.below(600)).map(|_| tok(rng)).collect()
            } else {
                let mut a = Vec::with_capacity(len);
                let mut j = 0;
                while j < b.len() {
                    match rng.below(12) {
                        0 => j += 1 + rng.below(10),
                        1 => a.extend((0..1 + rng.below(5)).map(|_| tok(rng))),
                        2 => {
                            let k = rng.below(b.len());
                            a.extend_from_slice(&b[k..(k + 10).min(b.len())]);
                        }
                        _ => {
                            a.push(b[j]);
                            j += 1;
                        }
                    }
                }
                a
            };
            if rng.chance(1, 2) { (a, b) } else { (b, a) }
        })
        .collect()
}

/// Random texts made of words, markers, whitespace and tricky characters.
fn random_texts(rng: &mut Rng, n: usize) -> Vec<String> {
    const PIECES: &[&str] = &[
        "URL", "URL:", " URL", "a", "word", "p", ">", " ", " ", "\n", "\n\n", "<p>", "<l>", "<H>",
        "<p", "\x00", "\x1f", "\u{fffd}", "ÿ",
    ];
    (0..n)
        .map(|_| {
            let len = rng.below(30);
            (0..len)
                .map(|_| {
                    if rng.chance(1, 3) {
                        *rng.pick(TRICKY)
                    } else {
                        *rng.pick(PIECES)
                    }
                })
                .collect()
        })
        .collect()
}

/// Random byte strings, rich in invalid and truncated UTF-8.
fn random_bytes(rng: &mut Rng, n: usize) -> Vec<Vec<u8>> {
    const PIECES: &[&[u8]] = &[
        b"a",
        b" ",
        b"\x80",
        b"\xbf",
        b"\xc0\x80",
        b"\xc3",
        b"\xc3\xa9",
        b"\xe2\x82",
        b"\xe2\x82\xac",
        b"\xed\xa0\x80",
        b"\xef\xbf\xbd",
        b"\xf0\x9f\x98",
        b"\xf0\x9f\x98\x80",
        b"\xf4\x90\x80\x80",
        b"\xf5",
        b"\xff",
        b"\xe0\x80\xaf",
        b"\xf0\x80\x80\x80",
    ];
    (0..n)
        .map(|_| {
            (0..rng.below(12))
                .flat_map(|_| rng.pick(PIECES).iter().copied())
                .collect()
        })
        .collect()
}

/// `(output, gold, ascii, words_only)` from the shared gold files: perturbed
/// copies, other files' gold, and empty outputs.
fn real_pairs(rng: &mut Rng) -> Vec<(String, String, bool, bool)> {
    let gold_root = shared_dir().join("data/gold");
    let mut files = Vec::new();
    for (sub, take) in [
        ("cleaneval/dev", 58),
        ("cleaneval/test", 20),
        ("cleanportaleval", 25),
        ("googlenews/train", 15),
        ("dragnet/train", 15),
    ] {
        let all = txt_files(&gold_root.join(sub));
        assert!(
            !all.is_empty(),
            "{sub}: no gold files under {}",
            gold_root.display()
        );
        let step = (all.len() / take).max(1);
        files.extend(all.into_iter().step_by(step).take(take));
    }
    let texts: Vec<String> = files
        .iter()
        .map(|p| String::from_utf8_lossy(&std::fs::read(p).expect("read gold")).into_owned())
        .collect();
    let mut pairs = Vec::new();
    for (k, gold) in texts.iter().enumerate() {
        let out = match k % 6 {
            0 => texts[(k * 7 + 3) % texts.len()].clone(),
            1 if k % 12 == 1 => String::new(),
            _ => perturb(gold, rng),
        };
        let ascii = rng.chance(1, 3);
        let words_only = rng.chance(1, 3);
        pairs.push((out, gold.clone(), ascii, words_only));
    }
    pairs
}

#[cfg_attr(
    not(feature = "shared-data"),
    ignore = "needs ../shared/data, Python, Java or Chromium: scripts/test runs it"
)]
#[test]
fn same_results_as_python() {
    let mut rng = Rng(0x5eed_2007);
    let blocks = random_pairs(&mut rng, 400);
    let texts = random_texts(&mut rng, 400);
    let token_reqs: Vec<(String, bool, bool)> = texts
        .iter()
        .enumerate()
        .map(|(k, t)| (t.clone(), k % 2 == 1, k % 4 >= 2))
        .collect();
    let bytes = random_bytes(&mut rng, 300);
    let mut pairs = real_pairs(&mut rng);
    // Short random texts as pairs too: the corner cases of empty tokens.
    for w in texts.chunks(2).take(150) {
        pairs.push((
            w[0].clone(),
            w[1].clone(),
            rng.chance(1, 2),
            rng.chance(1, 3),
        ));
    }

    let request = json!({
        "blocks": blocks,
        "tokens": token_reqs,
        "decode": bytes,
        "pairs": pairs,
    });
    let tools = shared_dir().join("tools");
    let answer = run_python(PYTHON, &[&tools], request.to_string().as_bytes());
    let answer: Value = serde_json::from_slice(&answer).expect("python's JSON");

    for ((a, b), want) in blocks.iter().zip(answer["blocks"].as_array().unwrap()) {
        let want: Vec<(usize, usize, usize)> = serde_json::from_value(want.clone()).unwrap();
        assert_eq!(matching_blocks(a, b), want, "a={a:?}\nb={b:?}");
    }
    for ((t, asc, unl), want) in token_reqs.iter().zip(answer["tokens"].as_array().unwrap()) {
        let want: Vec<String> = serde_json::from_value(want.clone()).unwrap();
        assert_eq!(
            tokens(t, *asc, *unl),
            want,
            "text={t:?} ascii={asc} unlabelled={unl}"
        );
    }
    for (b, want) in bytes.iter().zip(answer["decode"].as_array().unwrap()) {
        assert_eq!(
            String::from_utf8_lossy(b),
            want.as_str().unwrap(),
            "bytes={b:?}"
        );
    }
    let got_pairs = answer["pairs"].as_array().unwrap();
    assert_eq!(got_pairs.len(), pairs.len());
    for ((out, gold, ascii, words_only), want) in pairs.iter().zip(got_pairs) {
        let want: Vec<usize> = serde_json::from_value(want.clone()).unwrap();
        let opts = EvalOptions {
            ascii: *ascii,
            words_only: *words_only,
            unlabelled: false,
            cjk_chars: false,
        };
        let s = score_pair(out, gold, &opts);
        let got = [
            s.words.tp,
            s.words.fp,
            s.words.fn_,
            s.seg_labelled.tp,
            s.seg_labelled.fp,
            s.seg_labelled.fn_,
            s.seg_unlabelled.tp,
            s.seg_unlabelled.fp,
            s.seg_unlabelled.fn_,
        ];
        let short = |t: &str| t.chars().take(300).collect::<String>();
        let ctx = || {
            format!(
                "ascii={ascii} words_only={words_only}\nout={:?}\ngold={:?}",
                short(out),
                short(gold)
            )
        };
        assert_eq!(got, want[..9], "{}", ctx());
        if !words_only {
            let u = score_pair(
                out,
                gold,
                &EvalOptions {
                    unlabelled: true,
                    ..opts
                },
            );
            assert_eq!(
                [u.words.tp, u.words.fp, u.words.fn_],
                want[9..],
                "{}",
                ctx()
            );
        }
    }
}
