//! `ncleaner pagetype`: the page-type classifier cross-validated with
//! folds by domain: accuracy, per-type recall and precision, the confusion
//! table, and the features its trees split on most.

use std::path::PathBuf;

use anyhow::{Context, Result};
use ncleaner::classify::page::{self, PageFeatures, PageType, PageTypeModel};
use ncleaner::classify::trees::Boost;
use rayon::prelude::*;

use crate::crossval::PoolPage;

/// Arguments of `ncleaner pagetype`.
#[derive(clap::Args)]
#[command(after_help = "Example (WCXB's development pages, the folds of \
    scripts/wcxb-crossval 3):\n  ncleaner pagetype --html ../shared/data/wcxb/dev \
    --page-types ../shared/data/wcxb/ground-truth --folds 3")]
pub struct Args {
    /// Directory of HTML pages (`KEY.html` or `KEY.html.gz`).
    #[arg(long, value_name = "DIR", required_unless_present = "predicted")]
    html: Option<PathBuf>,
    /// Instead of cross-validating: score the page types that cleaning
    /// predicted, a JSON Lines file of `clean --format jsonl` (its `id`
    /// names the page: the file name up to its first dot is the key).
    #[arg(long, value_name = "JSONL", conflicts_with = "html")]
    predicted: Option<PathBuf>,
    /// Directory of labels: `KEY.json` in WCXB's ground-truth format
    /// (`_internal.page_type.primary`; `url` gives the page's domain).
    #[arg(long, value_name = "DIR")]
    page_types: PathBuf,
    /// Folds; a domain's pages are all in one (FNV-1a of the host, as
    /// scripts/wcxb-crossval assigns them).
    #[arg(long, default_value_t = 3)]
    folds: usize,
    /// Trees per type.
    #[arg(long)]
    trees: Option<usize>,
    /// Depth of the trees.
    #[arg(long)]
    depth: Option<usize>,
    /// Learning rate.
    #[arg(long)]
    learning_rate: Option<f32>,
    /// Least Hessian share of a child.
    #[arg(long)]
    min_child_share: Option<f64>,
    /// Balance the types' weights ([`crate::train::balanced_weights`])
    /// instead of weighing every page the same.
    #[arg(long)]
    balanced: bool,
    /// Leave out the features whose names start with one of these (repeatable).
    #[arg(long, value_name = "PREFIX")]
    without: Vec<String>,
    /// Print the features the trees split on most (this many).
    #[arg(long, default_value_t = 0)]
    importance: usize,
}

/// Runs `ncleaner pagetype`.
pub fn run(args: Args) -> Result<()> {
    anyhow::ensure!(args.folds >= 2, "--folds must be at least 2");
    let labels = crate::train::read_labels(&args.page_types)?;
    if let Some(path) = &args.predicted {
        print!("{}", report(&predicted_confusion(path, &labels)?));
        return Ok(());
    }
    let html = args.html.clone().context("give --html or --predicted")?;
    let t = std::time::Instant::now();
    let pages = labelled_pages(&args, &html, labels)?;
    anyhow::ensure!(
        !pages.is_empty(),
        "no labelled page found in {}",
        html.display()
    );
    eprintln!(
        "ncleaner: {} labelled pages read in {:.1} s",
        pages.len(),
        t.elapsed().as_secs_f64()
    );
    let names = page::feature_names();
    let keep: Vec<usize> = (0..names.len())
        .filter(|&i| {
            !args
                .without
                .iter()
                .any(|p| names[i].starts_with(p.as_str()))
        })
        .collect();
    let mut confusion = [[0usize; 7]; 7];
    let mut split_counts = vec![0usize; names.len()];
    for (out, m) in &cross_validate(&args, &pages, &keep) {
        for &(want, got) in out {
            confusion[want.index()][got.index()] += 1;
        }
        for forest in &m.forests {
            // A branch that stopped early is padded with splits at f32::MAX: not counted.
            for (&feat, &t) in forest.features.iter().zip(&forest.thresholds) {
                if let Some(c) = split_counts.get_mut(usize::from(feat))
                    && t < f32::MAX
                {
                    *c += 1;
                }
            }
        }
    }
    print!("{}", report(&confusion));
    if args.importance > 0 {
        let mut order: Vec<usize> = (0..names.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(split_counts[i]));
        println!("\nfeature splits:");
        for &i in order.iter().take(args.importance) {
            println!("{:>6} {}", split_counts[i], names[i]);
        }
    }
    Ok(())
}

/// The labelled pages found in `html` (in the order of their keys), each
/// with its fold: by the host of its label's `url` (else of the page's
/// own URL, else its key).
fn labelled_pages(
    args: &Args,
    html: &std::path::Path,
    labels: std::collections::HashMap<String, PageType>,
) -> Result<Vec<(PoolPage, usize)>> {
    let mut keys: Vec<(String, PageType)> = labels.into_iter().collect();
    keys.sort_by(|a, b| a.0.cmp(&b.0));
    keys.par_iter()
        .filter_map(|(key, t)| {
            let page = ["html", "html.gz"]
                .iter()
                .map(|e| html.join(format!("{key}.{e}")))
                .find(|p| p.exists())?;
            Some((key, *t, page))
        })
        .map(|(key, t, path)| -> Result<(PoolPage, usize)> {
            let bytes = ncleaner_corpus::read_document(&path)?;
            let mut p = PoolPage::from_bytes(key, &bytes, String::new());
            p.page_type = Some(t);
            let gt = args.page_types.join(format!("{key}.json"));
            let v: serde_json::Value = serde_json::from_slice(
                &std::fs::read(&gt).with_context(|| format!("reading {}", gt.display()))?,
            )?;
            let host = v
                .get("url")
                .and_then(|u| u.as_str())
                .and_then(crate::crossval::host_of)
                .or_else(|| p.host.clone())
                .unwrap_or_else(|| key.clone());
            Ok((p, fnv(&host) % args.folds))
        })
        .collect()
}

/// Each fold's (label, prediction) pairs and the model that predicted
/// them, trained on the other folds' pages with the features `keep` (the
/// others zero) and the trees `args` asks for.
fn cross_validate(
    args: &Args,
    pages: &[(PoolPage, usize)],
    keep: &[usize],
) -> Vec<(Vec<(PageType, PageType)>, PageTypeModel)> {
    let masked = |f: &PageFeatures| {
        PageFeatures(
            (0..f.0.len())
                .map(|i| if keep.contains(&i) { f.0[i] } else { 0.0 })
                .collect(),
        )
    };
    let d = page::default_boost();
    let cfg = Boost {
        trees: args.trees.unwrap_or(d.trees),
        depth: args.depth.unwrap_or(d.depth),
        learning_rate: args.learning_rate.unwrap_or(d.learning_rate),
        min_child_share: args.min_child_share.unwrap_or(d.min_child_share),
        ..d
    };
    (0..args.folds)
        .into_par_iter()
        .map(|f| {
            let train: Vec<&PoolPage> = pages
                .iter()
                .filter(|(_, g)| *g != f)
                .map(|(p, _)| p)
                .collect();
            let rows: Vec<PageFeatures> = train
                .iter()
                .map(|p| masked(p.features.as_ref().expect("HTML pages have features")))
                .collect();
            let y: Vec<PageType> = train
                .iter()
                .map(|p| p.page_type.expect("labelled"))
                .collect();
            let w = if args.balanced {
                crate::train::balanced_weights(&y)
            } else {
                vec![1.0; y.len()]
            };
            let m = PageTypeModel::fit(&rows, &y, &w, cfg);
            let out = pages
                .iter()
                .filter(|(_, g)| *g == f)
                .map(|(p, _)| {
                    let got = m.predict(&masked(p.features.as_ref().expect("features")));
                    (p.page_type.expect("labelled"), got.page_type())
                })
                .collect();
            (out, m)
        })
        .collect()
}

/// The confusion of the page types in a JSON Lines file of cleaned pages
/// with their labels; a page without a label or a prediction is not counted.
fn predicted_confusion(
    path: &std::path::Path,
    labels: &std::collections::HashMap<String, PageType>,
) -> Result<[[usize; 7]; 7]> {
    use std::io::BufRead;
    let file = std::fs::File::open(path).with_context(|| format!("reading {}", path.display()))?;
    let mut confusion = [[0usize; 7]; 7];
    for (n, line) in std::io::BufReader::new(file).lines().enumerate() {
        let line = line.with_context(|| format!("reading {}", path.display()))?;
        if line.trim().is_empty() {
            continue;
        }
        let v: serde_json::Value = serde_json::from_str(&line)
            .with_context(|| format!("{}:{}: not JSON", path.display(), n + 1))?;
        let key = v
            .get("id")
            .and_then(|i| i.as_str())
            .and_then(|i| std::path::Path::new(i).file_name()?.to_str())
            .map(|f| f.split('.').next().unwrap_or(f).to_string());
        let got = v
            .pointer("/page_type/type")
            .and_then(|t| t.as_str())
            .and_then(|t| t.parse::<PageType>().ok());
        if let (Some(want), Some(got)) = (key.and_then(|k| labels.get(&k)), got) {
            confusion[want.index()][got.index()] += 1;
        }
    }
    Ok(confusion)
}

/// FNV-1a of a string (64 bits), as scripts/wcxb-crossval assigns folds.
fn fnv(s: &str) -> usize {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    h as usize
}

/// The accuracy, each type's recall, precision and F1, and the confusion
/// table (rows: the gold type, columns: the predicted one), as Markdown.
pub fn report(confusion: &[[usize; 7]; 7]) -> String {
    let total: usize = confusion.iter().flatten().sum();
    let right: usize = (0..7).map(|i| confusion[i][i]).sum();
    let mut md = String::new();
    let mut macro_f = 0.0;
    let mut rows = String::new();
    for t in PageType::ALL {
        let i = t.index();
        let gold: usize = confusion[i].iter().sum();
        let predicted: usize = (0..7).map(|j| confusion[j][i]).sum();
        let r = confusion[i][i] as f64 / gold.max(1) as f64;
        let p = confusion[i][i] as f64 / predicted.max(1) as f64;
        let f = if p + r > 0.0 {
            2.0 * p * r / (p + r)
        } else {
            0.0
        };
        macro_f += f / 7.0;
        rows.push_str(&format!("| {t} | {gold} | {r:.3} | {p:.3} | {f:.3} |\n"));
    }
    md.push_str(&format!(
        "Page types: {right} of {total} right (accuracy {:.3}), macro-F1 {macro_f:.3}.\n\n",
        right as f64 / total.max(1) as f64
    ));
    md.push_str("| type | pages | recall (accuracy) | precision | F1 |\n| --- | ---: | ---: | ---: | ---: |\n");
    md.push_str(&rows);
    md.push_str(
        "\nConfusion (rows: the gold type; columns: the predicted type):\n\n| gold \\ predicted |",
    );
    for t in PageType::ALL {
        md.push_str(&format!(" {t} |"));
    }
    md.push_str("\n| --- |");
    md.push_str(&" ---: |".repeat(7));
    md.push('\n');
    for t in PageType::ALL {
        md.push_str(&format!("| {t} |"));
        for c in confusion[t.index()] {
            md.push_str(&format!(" {c} |"));
        }
        md.push('\n');
    }
    md
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_counts_right_and_wrong() {
        let mut c = [[0usize; 7]; 7];
        c[0][0] = 8;
        c[0][1] = 2;
        c[1][1] = 5;
        let md = report(&c);
        assert!(md.contains("13 of 15 right (accuracy 0.867)"), "{md}");
        assert!(
            md.contains("| article | 10 | 0.800 | 1.000 | 0.889 |"),
            "{md}"
        );
        assert!(md.contains("| forum | 5 | 1.000 | 0.714 | 0.833 |"), "{md}");
    }
}
