//! The grid computations against the model's own code: cross-entropy
//! against the direct formula ([`ncleaner::model::log2_prob`]), segment scores
//! against the cleaner's scorer, the F grid against `crossval`.

use super::ngram::{FoldTables, Need};
use super::*;
use crate::crossval::{self, PoolCounts, PoolPage, Variant};
use ncleaner::InputKind;
use ncleaner::Method;
use ncleaner::model::{Alphabet, Estimates, TrainOptions, log2_prob};

const CLEAN: [&str; 8] = [
    "The quick brown fox jumps over the lazy dog, and then it rests in the shade.",
    "It was the best of times, it was the worst of times, it was the age of wisdom.",
    "Photography is the art of writing with light; a camera is only its pen.",
    "Norway has a long coastline with many fjords, islands and mountains.",
    "Manga are comics created in Japan, read from right to left.",
    "Computer hardware includes the physical parts of a computer: its case and chips.",
    "A good portrait shows the character of the sitter, not only the face.",
    "Rain fell all night over the old town, and nobody went out.",
];
const DIRTY: [&str; 6] = [
    "Home | About us | Contact",
    "Copyright 2007 Example Inc. All rights reserved.",
    "Click here to subscribe!",
    "Privacy policy",
    "Next page >>",
    "Login",
];

/// A page of `i`: three clean paragraphs and three boilerplate ones, in an order that varies.
pub(crate) fn toy_page(i: usize) -> PoolPage {
    let mut html = String::from("<html><body>");
    let mut gold = format!("URL: http://example.com/{i}\n\n");
    for j in 0..3 {
        let d = DIRTY[(i + 2 * j) % DIRTY.len()];
        html.push_str(&format!("<div>{d} {}</div>", (i * 7 + j) % 5));
        let c = CLEAN[(i * 3 + j) % CLEAN.len()];
        html.push_str(&format!("<p>{c} Page {i}.</p>"));
        gold.push_str(&format!("<p> {c} Page {i}.\n"));
    }
    html.push_str("<ul><li><a href=/>Home</a></li><li><a href=/x>News</a></li></ul></body></html>");
    let bytes = format!("<text id=\"http://example.com/{i}\" title=\"t\">\n{html}");
    PoolPage::from_bytes(&format!("p{i:02}"), bytes.as_bytes(), gold)
}

pub(crate) fn toy_pool() -> Vec<PoolPage> {
    (0..12).map(toy_page).collect()
}

#[test]
fn cross_entropy_equals_the_direct_formula() {
    let pool = toy_pool();
    let k = 3;
    let fold = crossval::folds(pool.len(), k, 7);
    for alphabet in [Alphabet::Lexical, Alphabet::NonLexical] {
        let (orders, qs) = ([1, 2, 3, 5], [0.25, 0.6, 0.9]);
        let g = entropy::cross_entropy(&pool, &fold, k, alphabet, &orders, &qs).unwrap();
        let counts = PoolCounts::new(&pool, 5, alphabet);
        for (i, &n) in orders.iter().enumerate() {
            for (j, &q) in qs.iter().enumerate() {
                let (mut sum, mut count) = (0.0, 0usize);
                for f in 0..k {
                    let m = counts.model(5, 0.5, |p| fold[p] != f, "t").unwrap();
                    let est = Estimates::mle(m.raw(), alphabet.size());
                    for p in pool.iter().zip(&fold).filter(|x| *x.1 == f) {
                        for s in &p.0.html_segments {
                            let (l, c) = log2_prob(&est, alphabet, n, q, s.text());
                            sum += l;
                            count += c;
                        }
                    }
                }
                let direct = -sum / count as f64;
                assert_eq!(g.symbols, count as u64);
                assert!(
                    (g.bits[i][j] - direct).abs() < 1e-9,
                    "{alphabet:?} n={n} q={q}: {} vs {direct}",
                    g.bits[i][j]
                );
            }
        }
        // lower is better, and the minimum is one of the grid's points
        let (n, q, b) = g.minimum();
        assert_eq!(g.at(n, q), Some(b));
        assert!(g.bits.iter().flatten().all(|&x| x >= b));
    }
}

#[test]
fn segment_scores_equal_the_cleaners_scores() {
    let pool = toy_pool();
    let k = 4;
    let fold = crossval::folds(pool.len(), k, 3);
    for (alphabet, input) in [
        (Alphabet::Lexical, InputKind::Html),
        (Alphabet::NonLexical, InputKind::Text),
    ] {
        let opts = tune::FGridOptions {
            alphabet,
            orders: vec![1, 3, 4, 6],
            qs: vec![0.2, 0.5, 0.8],
            thresholds: vec![0.0],
            input,
        };
        let tables = FoldTables::build(&pool, &fold, k, 6, alphabet, Need::CleanAndRaw);
        let scores = tune::segment_scores(&pool, &fold, k, &opts, &tables);
        let counts = PoolCounts::new(&pool, 6, alphabet);
        let mut checked = 0;
        for f in 0..k {
            for (ni, &n) in opts.orders.iter().enumerate() {
                for (qi, &q) in opts.qs.iter().enumerate() {
                    let m = counts.model(n, q, |p| fold[p] != f, "t").unwrap();
                    for i in (0..pool.len()).filter(|&i| fold[i] == f) {
                        for (s, seg) in scores[i].iter().zip(pool[i].segments(input)) {
                            match s {
                                None => assert!(seg.heuristic.is_some()),
                                Some(s) => {
                                    let mine = s[ni * opts.qs.len() + qi];
                                    let theirs = m.score(seg.text());
                                    assert!(
                                        (mine - theirs).abs() < 1e-3 * (1.0 + theirs.abs()),
                                        "n={n} q={q} {:?}: {mine} vs {theirs}",
                                        seg.text()
                                    );
                                    checked += 1;
                                }
                            }
                        }
                    }
                }
            }
        }
        assert!(checked > 100, "{checked}");
    }
}

#[test]
fn f_grid_equals_crossval() {
    let pool = toy_pool();
    let k = 3;
    let fold = crossval::folds(pool.len(), k, 1);
    let opts = tune::FGridOptions {
        alphabet: Alphabet::Lexical,
        orders: vec![2, 3],
        qs: vec![0.3, 0.5],
        thresholds: vec![-5.0, 0.0, 5.0],
        input: InputKind::Html,
    };
    let grid = tune::f_grid(&pool, &fold, k, &opts).unwrap();
    assert_eq!(grid.points.len(), 12);
    let counts = PoolCounts::new(&pool, 3, Alphabet::Lexical);
    for p in &grid.points {
        let params = TrainOptions {
            n: p.n,
            q: p.q,
            alphabet: Alphabet::Lexical,
        };
        let v = Variant::with_model("x", InputKind::Html, Method::NCleaner, &params, p.threshold);
        let cleaned = crossval::run(&pool, &counts, &fold, k, &v).unwrap();
        let outputs: Vec<String> = cleaned
            .iter()
            .map(|c| {
                let mut b = Vec::new();
                ncleaner::format::write_cleaneval(&mut b, c).unwrap();
                String::from_utf8(b).unwrap()
            })
            .collect();
        let r = table::score_outputs(&pool, &outputs);
        assert_eq!(r.micro(), p.micro, "n={} q={} t={}", p.n, p.q, p.threshold);
        assert_eq!(r.macro_(), p.macro_);
    }
    // the ranking puts the best first
    let ranked = grid.ranked(tune::Objective::MicroF);
    assert!(ranked.windows(2).all(|w| w[0].micro.f >= w[1].micro.f));
    let floor = tune::Objective::Precision { min_recall: 0.99 };
    assert!(grid.ranked(floor).iter().all(|p| p.micro.recall >= 0.99));
    // fewer alignments than grid points × pages: equal outputs are aligned once
    assert!(grid.alignments < grid.points.len() * pool.len());
}

#[test]
fn cleaneval_text_is_what_the_writer_writes() {
    let page = toy_page(3);
    let keep = |i: usize| i.is_multiple_of(2);
    let mine = tune::cleaneval_text(page.url.as_deref(), &page.html_segments, keep);
    let cleaner = ncleaner::Cleaner::from_model(ncleaner::model::embedded("en").unwrap())
        .with_method(Method::KeepAll);
    let mut c = crossval::clean_segments(&cleaner, &page, InputKind::Html);
    for (i, s) in c.segments.iter_mut().enumerate() {
        s.decision.keep = keep(i);
    }
    let mut b = Vec::new();
    ncleaner::format::write_cleaneval(&mut b, &c).unwrap();
    assert_eq!(mine, String::from_utf8(b).unwrap());
    assert!(mine.starts_with("URL: http://example.com/3\n\n<"));
}

#[test]
fn table_rows_baselines_and_t_tests() {
    let pool = toy_pool();
    let k = 3;
    let fold = crossval::folds(pool.len(), k, 1);
    let rows = table::paper_rows(&TrainOptions::lexical(), &TrainOptions::non_lexical(), 0.0);
    assert_eq!(rows.len(), 8);
    let t = table::crossval_table(&pool, &fold, k, &rows).unwrap();
    assert_eq!(t.rows.len(), 8);
    for r in &t.rows {
        if r.variant.method == Method::KeepAll {
            assert!(r.baseline.is_none() && r.t_f.is_none());
        } else {
            let b = t.baseline_of(r).unwrap();
            assert_eq!(b.variant.input, r.variant.input);
            assert_eq!(b.variant.method, Method::KeepAll);
            let tf = r.t_f.unwrap();
            assert_eq!(tf.df, (pool.len() - 1) as f64);
            assert!((0.0..=1.0).contains(&tf.p));
        }
    }
    // the models drop the boilerplate of these pages: precision rises over the raw dump
    let lex = &t.rows[2];
    assert!(
        lex.variant
            .name
            .starts_with("NCleaner lexical (n=3, q=0.5), HTML")
    );
    let base = t.baseline_of(lex).unwrap();
    assert!(lex.report.micro().precision > base.report.micro().precision);
    assert!(lex.t_p.unwrap().t > 0.0);
    let md = report::table2(&t);
    assert_eq!(md.matches("| NCleaner lexical").count(), 4);
    let hist = report::precision_histogram(&t, &lex.variant.name, 5.0).unwrap();
    assert!(hist.contains("files"));
    // fixed models: the same rows, no folds
    let fixed = table::fixed_table(&pool, &rows, |v| {
        Some(std::sync::Arc::new(
            ncleaner::model::embedded(if v.alphabet == Alphabet::Lexical {
                "en"
            } else {
                "en-nonlex"
            })
            .unwrap(),
        ))
    })
    .unwrap();
    assert_eq!(fixed.folds, None);
    assert_eq!(fixed.rows[0].report.micro(), t.rows[0].report.micro());
}

#[test]
fn learning_curve_draws_are_reproducible_and_disjoint_from_the_held_out_set() {
    let pool = toy_pool();
    let opts = curve::CurveOptions {
        sizes: vec![1, 2, 5, 100],
        draws: 3,
        held_out_folds: 3,
        ..Default::default()
    };
    let c = curve::learning_curve(&pool, &opts).unwrap();
    assert_eq!(c.held_out.len(), 4);
    assert_eq!(c.train_pool, 8);
    // 3 sizes × 3 draws + everything once (100 is clamped to the 8 training pages)
    assert_eq!(c.points.len(), 10);
    let sizes = c.sizes();
    assert_eq!(
        sizes.iter().map(|z| z.pages).collect::<Vec<_>>(),
        vec![1, 2, 5, 8]
    );
    assert_eq!(sizes[3].draws, 1);
    let again = curve::learning_curve(&pool, &opts).unwrap();
    for (a, b) in c.points.iter().zip(&again.points) {
        assert_eq!(
            (a.pages, a.draw, a.train_words, a.micro),
            (b.pages, b.draw, b.train_words, b.micro)
        );
    }
    assert!(report::curve(&c).contains("| 8 | 1 |"));
}
