//! Word language models end to end: the embedded `en-ppl` model rebuilds bit
//! for bit, and KenLM's own query code agrees with ours on an exported model.

mod common;

use std::process::Command;

use common::*;

/// `crates/ncleaner/models/en-ppl.ncwl` is what `scripts/build-models` trains, byte for byte.
#[cfg_attr(
    not(feature = "shared-data"),
    ignore = "needs ../shared/data, Python, Java or Chromium: scripts/test runs it"
)]
#[test]
fn embedded_word_model_rebuilds_bit_for_bit() {
    let data = shared_data();
    let dir = tempdir();
    let out = dir.path().join("en-ppl.ncwl");
    let g = |s: &str| data.join("gold/cleaneval").join(s).display().to_string();
    ok(&[
        "lm",
        "train",
        "-n",
        "3",
        "--min-count",
        "2",
        "--gold",
        &g("dev"),
        "--gold",
        &g("train"),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(
        std::fs::read(&out).unwrap()
            == std::fs::read(repo().join("crates/ncleaner/models/en-ppl.ncwl")).unwrap(),
        "crates/ncleaner/models/en-ppl.ncwl differs from what training gives now: run scripts/build-models"
    );
}

/// 1,000 sentences: 500 from the training pool's gold text (known n-grams,
/// backoff at every order) and 500 scrambled ones with unknown words
/// (`<unk>`, unseen contexts). KenLM's log10 probabilities of every token and
/// of `</s>` must agree with ours within 1e-4.
#[cfg_attr(
    not(feature = "shared-data"),
    ignore = "needs ../shared/data, Python, Java or Chromium: scripts/test runs it"
)]
#[test]
fn kenlm_agrees_with_our_scores() {
    let py = python_with("kenlm");
    let data = shared_data();
    let dir = tempdir();
    let arpa = dir.path().join("en-ppl.arpa");
    ok(&["lm", "export", "--arpa", arpa.to_str().unwrap()]);

    // Sentences from the gold text, as plain lines.
    let mut sentences: Vec<String> = Vec::new();
    let gold = data.join("gold/cleaneval/dev");
    let mut files: Vec<_> = std::fs::read_dir(&gold)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    'outer: for f in files {
        let text = String::from_utf8_lossy(&std::fs::read(f).unwrap()).into_owned();
        for (_, seg) in ncleaner::format::read_segments(&text) {
            for s in ncleaner::lm::tokenize::sentences(&seg) {
                sentences.push(s.to_string());
                if sentences.len() == 500 {
                    break 'outer;
                }
            }
        }
    }
    assert_eq!(sentences.len(), 500);
    // Scrambled and with unknown words, by a fixed linear congruential sequence.
    let mut x: u64 = 12345;
    let mut next = |n: usize| {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((x >> 33) as usize) % n
    };
    for i in 0..500 {
        let words: Vec<&str> = sentences[i].split_whitespace().collect();
        let mut out: Vec<String> = (0..words.len().max(1))
            .map(|_| words[next(words.len().max(1)).min(words.len().saturating_sub(1))].to_string())
            .collect();
        if i % 2 == 0 {
            out.insert(next(out.len() + 1), format!("qzxv{}", next(1000)));
        }
        sentences.push(out.join(" "));
    }

    // Our scores, with the normalised tokens that KenLM is given.
    let input = sentences.join("\n") + "\n";
    let out = bin()
        .args(["perplexity", "--json", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            // Written from another thread: the child's output fills its pipe
            // before all input is written.
            let mut stdin = c.stdin.take().unwrap();
            let writer = std::thread::spawn(move || {
                use std::io::Write;
                stdin.write_all(input.as_bytes())
            });
            let out = c.wait_with_output();
            writer.join().expect("writer thread")?;
            out
        })
        .expect("running ncleaner perplexity");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let ours: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(ours.len(), 1000);
    let tokens_file = dir.path().join("tokens.txt");
    let lines: Vec<String> = ours
        .iter()
        .map(|v| {
            let toks = v["tokens"].as_array().unwrap();
            toks[..toks.len() - 1]
                .iter()
                .map(|t| t["word"].as_str().unwrap())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    std::fs::write(&tokens_file, lines.join("\n") + "\n").unwrap();

    let script = repo().join("crates/ncleaner-cli/tests/py/kenlm_scores.py");
    let k = Command::new(&py)
        .arg(&script)
        .arg(&arpa)
        .arg(&tokens_file)
        .output()
        .expect("running python");
    assert!(
        k.status.success(),
        "kenlm_scores.py failed: {}",
        String::from_utf8_lossy(&k.stderr)
    );
    let theirs: Vec<Vec<f64>> = String::from_utf8(k.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(theirs.len(), 1000);
    let (mut compared, mut oov, mut backed_off) = (0usize, 0usize, 0usize);
    for (i, (o, t)) in ours.iter().zip(&theirs).enumerate() {
        let toks = o["tokens"].as_array().unwrap();
        assert_eq!(
            toks.len(),
            t.len(),
            "sentence {i}: token counts differ: {:?}",
            lines[i]
        );
        for (a, b) in toks.iter().zip(t) {
            let a_log = a["log10"].as_f64().unwrap();
            assert!(
                (a_log - b).abs() < 1e-4,
                "sentence {i} {:?}, token {}: ours {a_log}, KenLM {b}",
                lines[i],
                a["word"]
            );
            compared += 1;
            oov += usize::from(a["oov"].as_bool().unwrap());
            backed_off += usize::from(a["ngram"].as_u64().unwrap() < 3);
        }
    }
    assert!(
        compared > 10_000 && oov >= 250 && backed_off > 1000,
        "{compared} tokens, {oov} unknown, {backed_off} backed off"
    );
}

/// `perplexity` ranks a well-formed sentence below word salad, and
/// `clean --method perplexity` drops by the cut-off, or marks with `--mark`.
#[test]
fn perplexity_command_and_method() {
    let ppl = |s: &str| -> f64 { ok(&["perplexity", s]).trim().parse().expect("a number") };
    let good = ppl("The minister said the report would be published next week.");
    let bad = ppl("home login cart zzq wishlist qqv contact");
    assert!(good < 1000.0 && bad > 8000.0, "good {good}, bad {bad}");

    let dir = tempdir();
    let page = dir.path().join("p.html");
    std::fs::write(
        &page,
        "<html><body><p>The minister said the report would be published next week. \
         Home login cart zzq wishlist qqv contact</p><p>zzq qqv xxj</p></body></html>",
    )
    .unwrap();
    let p = page.to_str().unwrap();
    let default = ok(&[
        "clean",
        "-q",
        "--method",
        "perplexity",
        "--format",
        "text",
        p,
    ]);
    assert_eq!(
        default.trim(),
        "The minister said the report would be published next week."
    );
    let none = ok(&[
        "clean",
        "-q",
        "--method",
        "perplexity",
        "--max-perplexity",
        "1",
        "--format",
        "text",
        p,
    ]);
    assert_eq!(none.trim(), "");
    let marked = ok(&[
        "clean",
        "-q",
        "--method",
        "perplexity",
        "--mark",
        "--format",
        "text",
        p,
    ]);
    assert!(
        marked.contains("<del>Home login cart") && marked.contains("<del>zzq qqv xxj</del>"),
        "{marked}"
    );
    let json = ok(&[
        "clean",
        "-q",
        "--method",
        "perplexity",
        "--format",
        "jsonl",
        "--segments",
        p,
    ]);
    let v: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
    let sentences = v["segments"][0]["sentences"]
        .as_array()
        .expect("sentences listed");
    assert_eq!(sentences.len(), 2);
    assert_eq!(sentences[0]["keep"], true);
    assert_eq!(sentences[1]["keep"], false);
    assert!(v["words_out"].as_u64() < v["words_in"].as_u64());
    let err = run(&["clean", "--method", "perplexity", "--max-perplexity=0", p]);
    assert!(!err.status.success());
    assert!(
        String::from_utf8_lossy(&err.stderr)
            .contains("--max-perplexity: 0 is not a positive number")
    );
}
