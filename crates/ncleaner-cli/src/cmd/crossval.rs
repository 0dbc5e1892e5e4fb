//! `ncleaner crossval`: the paper's cross-validation experiment.

use std::path::PathBuf;

use anyhow::{Context, Result};
use ncleaner::InputKind;
use ncleaner::classify::Method;
use ncleaner::crossval::{self, PoolCounts, Variant};
use ncleaner::eval::{self, EvalOptions};
use ncleaner::format;
use ncleaner::model::Alphabet;
use ncleaner::train;

/// Arguments of `ncleaner crossval`.
#[derive(clap::Args)]
pub struct Args {
    /// Directory of HTML pages (repeatable; pairs with the --gold of the same position).
    #[arg(long, value_name = "DIR", required = true)]
    pub html: Vec<PathBuf>,
    /// Directory of gold files (repeatable).
    #[arg(long, value_name = "DIR", required = true)]
    pub gold: Vec<PathBuf>,
    /// Number of folds.
    #[arg(long, default_value_t = 10)]
    pub folds: usize,
    /// Seed of the fold assignment.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Decision threshold of the model rows.
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    pub threshold: f64,
    /// Also write every row's cleaned pages under DIR/ROW/KEY.txt (CleanEval format).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Instead of the paper's table: the "Beyond NCleaner" steps one by one
    /// (aligned dirty model, classifier, neighbours, class/id words, HMM,
    /// operating points), and the calibration of the default model's
    /// probabilities; also written to DIR/ablation.md with --report DIR.
    #[arg(long)]
    pub ablation: bool,
    /// With --ablation: write the tables to DIR/ablation.md.
    #[arg(long, value_name = "DIR", requires = "ablation")]
    pub report: Option<PathBuf>,
}

/// Runs `ncleaner crossval`.
pub fn run(args: Args) -> Result<()> {
    anyhow::ensure!(
        args.html.len() == args.gold.len(),
        "give --html and --gold in pairs"
    );
    anyhow::ensure!(args.folds >= 2, "--folds must be at least 2");
    let mut pairs = Vec::new();
    for (h, g) in args.html.iter().zip(&args.gold) {
        let mut p = train::pair(h, g)?;
        if args.html.len() > 1 {
            let prefix = h
                .file_name()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            p.iter_mut()
                .for_each(|x| x.key = format!("{prefix}/{}", x.key));
        }
        pairs.extend(p);
    }
    if args.ablation {
        return super::ablation::run(&pairs, args.folds, args.seed, args.report.as_deref());
    }
    let t = std::time::Instant::now();
    let pool = crossval::load_pool(&pairs)?;
    let fold = crossval::folds(pool.len(), args.folds, args.seed);
    let lex = PoolCounts::new(&pool, 3, Alphabet::Lexical);
    let nonlex = PoolCounts::new(&pool, 6, Alphabet::NonLexical);
    let mut variants = Vec::new();
    for input in [InputKind::Html, InputKind::Text] {
        let suffix = if input == InputKind::Html {
            "html"
        } else {
            "text"
        };
        let v = |name: &str, method, alphabet, n, q| Variant {
            name: format!("{name}-{suffix}"),
            input,
            method,
            alphabet,
            n,
            q,
            threshold: args.threshold,
        };
        variants.push(v("baseline", Method::KeepAll, Alphabet::Lexical, 3, 0.5));
        variants.push(v(
            "heuristics",
            Method::Heuristics,
            Alphabet::Lexical,
            3,
            0.5,
        ));
        variants.push(v("ncleaner", Method::NCleaner, Alphabet::Lexical, 3, 0.5));
        variants.push(v(
            "nonlexical",
            Method::NCleaner,
            Alphabet::NonLexical,
            6,
            0.4,
        ));
    }
    println!(
        "{:<18} {:>6} {:>6} {:>6}   {:>13} {:>13} {:>13}   {:>7} {:>7}",
        "row", "F", "P", "R", "macro F", "macro P", "macro R", "seg-l F", "seg-u F"
    );
    for v in &variants {
        let counts = if v.alphabet == Alphabet::Lexical {
            &lex
        } else {
            &nonlex
        };
        let outputs = crossval::run(&pool, counts, &fold, args.folds, v)?;
        let texts: Vec<(String, String, &str)> = pool
            .iter()
            .zip(&outputs)
            .map(|(page, cleaned)| {
                let mut buf = Vec::new();
                format::write_cleaneval(&mut buf, cleaned).expect("writing to memory");
                (
                    page.key.clone(),
                    String::from_utf8(buf).expect("UTF-8"),
                    page.gold.as_str(),
                )
            })
            .collect();
        if let Some(out) = &args.out {
            for (key, text, _) in &texts {
                let path = out.join(&v.name).join(format!("{key}.txt"));
                std::fs::create_dir_all(path.parent().expect("has parent"))?;
                std::fs::write(&path, text)
                    .with_context(|| format!("writing {}", path.display()))?;
            }
        }
        let report = eval::score_texts(texts, &EvalOptions::default());
        let (mi, ma) = (report.micro(), report.macro_());
        let pct = |x: f64| 100.0 * x;
        let seg = |c: Option<eval::Counts>| c.map_or(0.0, |c| pct(c.prf().f));
        println!(
            "{:<18} {:>6.2} {:>6.2} {:>6.2}   {:>6.2}±{:<6.2} {:>6.2}±{:<6.2} {:>6.2}±{:<6.2}   {:>7.2} {:>7.2}",
            v.name,
            pct(mi.f),
            pct(mi.precision),
            pct(mi.recall),
            pct(ma.f.mean),
            pct(ma.f.sd),
            pct(ma.precision.mean),
            pct(ma.precision.sd),
            pct(ma.recall.mean),
            pct(ma.recall.sd),
            seg(report.seg_labelled()),
            seg(report.seg_unlabelled()),
        );
    }
    eprintln!(
        "ncleaner: {} pages, {} folds, {} rows in {:.1} s",
        pool.len(),
        args.folds,
        variants.len(),
        t.elapsed().as_secs_f64()
    );
    Ok(())
}
