//! The experiments' results as Markdown, ready to paste into a document
//! (`EVALUATION.md` is assembled from these). Percentages with two decimals,
//! as the paper prints them.

use std::fmt::Write as _;

use super::curve::Curve;
use super::entropy::EntropyGrid;
use super::table::{Table, precision_differences};
use super::tune::{FGrid, Objective};
use crate::eval::{MeanSd, Prf};
use crate::stats::TTest;

fn pct(x: f64) -> String {
    format!("{:.2}", 100.0 * x)
}

fn pct_sd(m: MeanSd) -> String {
    format!("{:.2} ± {:.2}", 100.0 * m.mean, 100.0 * m.sd)
}

/// A p-value as the paper prints them: four decimals, or two significant
/// digits in scientific notation below 0.001.
pub fn p_value(p: f64) -> String {
    if p.is_nan() {
        "–".into()
    } else if p >= 0.001 {
        format!("{p:.4}")
    } else if p == 0.0 {
        "< 1e-300".into()
    } else {
        format!("{p:.1e}")
    }
}

fn t_cells(t: Option<TTest>) -> String {
    match t {
        Some(t) => format!("{:.3} | {} | {}", t.t, t.df, p_value(t.p)),
        None => "– | – | –".into(),
    }
}

/// Table 2: word-level scores, then segmentation scores and t-tests.
pub fn table2(t: &Table) -> String {
    let mut s = String::new();
    let how = match t.folds {
        Some(k) => format!("{k}-fold cross-validation over {} pages", t.pages),
        None => format!("fixed models, {} pages", t.pages),
    };
    let _ = writeln!(
        s,
        "Word level ({how}; percent; macro: mean ± SD over files):\n"
    );
    s.push_str("| row | F | P | R | macro F | macro P | macro R |\n");
    s.push_str("| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    for r in &t.rows {
        let (mi, ma) = (r.report.micro(), r.report.macro_());
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} |",
            r.variant.name,
            pct(mi.f),
            pct(mi.precision),
            pct(mi.recall),
            pct_sd(ma.f),
            pct_sd(ma.precision),
            pct_sd(ma.recall)
        );
    }
    s.push_str(
        "\nSegmentation (labelled and unlabelled markers, micro) and paired t-tests across \
         files against the raw dump of the same input (per-file F, per-file precision):\n\n",
    );
    s.push_str(
        "| row | seg-l F | seg-l P | seg-l R | seg-u F | seg-u P | seg-u R | t (F) | df | p (F) | t (P) | df | p (P) |\n",
    );
    s.push_str("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    for r in &t.rows {
        let seg = |c: Option<crate::eval::Counts>| {
            let x = c.map(|c| c.prf()).unwrap_or_default();
            format!("{} | {} | {}", pct(x.f), pct(x.precision), pct(x.recall))
        };
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} |",
            r.variant.name,
            seg(r.report.seg_labelled()),
            seg(r.report.seg_unlabelled()),
            t_cells(r.t_f),
            t_cells(r.t_p)
        );
    }
    s
}

/// Figure 3's numbers: how the per-file precision of `row` differs from the
/// baseline's, in bins of `bin` percentage points.
pub fn precision_histogram(t: &Table, row: &str, bin: f64) -> Option<String> {
    let r = t.row(row)?;
    let b = t.baseline_of(r)?;
    let d = precision_differences(&r.report, &b.report);
    let mut s = String::new();
    let n = d.len();
    let count = |f: &dyn Fn(f64) -> bool| d.iter().filter(|&&x| f(x)).count();
    let _ = writeln!(
        s,
        "Per-file precision of {} minus that of {} ({} files): higher for {}, equal for {}, \
         lower for {}; {} files ({:.0} %) gain 10 points or more, {} lose 10 or more; mean {:+.2} points.\n",
        r.variant.name,
        b.variant.name,
        n,
        count(&|x| x > 1e-9),
        count(&|x| x.abs() <= 1e-9),
        count(&|x| x < -1e-9),
        count(&|x| x >= 10.0),
        100.0 * count(&|x| x >= 10.0) as f64 / n.max(1) as f64,
        count(&|x| x <= -10.0),
        d.iter().sum::<f64>() / n.max(1) as f64
    );
    s.push_str("| difference (points) | files |\n| --- | ---: |\n");
    for (lo, c) in histogram(&d, bin) {
        let _ = writeln!(s, "| [{:+.0}, {:+.0}) | {} |", lo, lo + bin, c);
    }
    Some(s)
}

/// Counts of values in bins `[lo, lo + bin)`, from the bin of the smallest
/// value to the bin of the largest.
pub fn histogram(values: &[f64], bin: f64) -> Vec<(f64, usize)> {
    if values.is_empty() || bin <= 0.0 {
        return Vec::new();
    }
    let idx = |x: f64| (x / bin).floor() as i64;
    let lo = values.iter().map(|&x| idx(x)).min().expect("non-empty");
    let hi = values.iter().map(|&x| idx(x)).max().expect("non-empty");
    let mut counts = vec![0usize; (hi - lo + 1) as usize];
    for &x in values {
        counts[(idx(x) - lo) as usize] += 1;
    }
    counts
        .into_iter()
        .enumerate()
        .map(|(i, c)| ((lo + i as i64) as f64 * bin, c))
        .collect()
}

/// Figure 2's numbers: cross-entropy per n (rows) and q (columns), the
/// minimum of each row, and the overall minimum.
pub fn entropy(g: &EntropyGrid) -> String {
    let mut s = String::new();
    let (n, q, b) = g.minimum();
    let _ = writeln!(
        s,
        "Cross-entropy of the {} raw-dump model, bits per character, {}-fold cross-validated \
         over {} held-out characters. Minimum: **n = {n}, q = {q}, {b:.3} bits**.\n",
        g.alphabet.name(),
        g.folds,
        g.symbols
    );
    s.push_str("| n | best q | bits |");
    for q in &g.qs {
        let _ = write!(s, " q={q} |");
    }
    s.push_str("\n| ---: | ---: | ---: |");
    for _ in &g.qs {
        s.push_str(" ---: |");
    }
    s.push('\n');
    for (i, &order) in g.orders.iter().enumerate() {
        let (bq, bb) = g.best_q(order).expect("order on the grid");
        let _ = write!(s, "| {order} | {bq} | {bb:.3} |");
        for &x in &g.bits[i] {
            let _ = write!(s, " {x:.3} |");
        }
        s.push('\n');
    }
    s
}

fn prf_cells(p: Prf) -> String {
    format!("{} | {} | {}", pct(p.f), pct(p.precision), pct(p.recall))
}

/// The end-to-end grid: the best points by the objective, then micro F per
/// n and q at threshold 0 and at each (n, q)'s best threshold.
pub fn f_grid(g: &FGrid, objective: Objective, top: usize) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{}-fold cross-validated word-level scores over {} pages ({} models, {} input), \
         {} grid points ({} orders × {} q × {} thresholds), ranked by {}:\n",
        g.folds,
        g.pages,
        g.options.alphabet.name(),
        crate::crossval::input_name(g.options.input),
        g.points.len(),
        g.options.orders.len(),
        g.options.qs.len(),
        g.options.thresholds.len(),
        objective.describe()
    );
    s.push_str("| rank | n | q | threshold | F | P | R | macro F |\n");
    s.push_str("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    for (i, p) in g.ranked(objective).into_iter().take(top).enumerate() {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} |",
            i + 1,
            p.n,
            p.q,
            p.threshold,
            prf_cells(p.micro),
            pct_sd(p.macro_.f)
        );
    }
    if g.options.thresholds.contains(&0.0) {
        s.push_str("\nMicro F at threshold 0 (the paper's rule), by n (rows) and q (columns):\n\n");
        s.push_str(&fq_table(g, |n, q| g.at(n, q, 0.0).map(|p| p.micro.f)));
    }
    s
}

/// Chosen grid points (label, n, q, threshold) with their scores, for
/// comparing the defaults and the paper's choices with the grid's best.
pub fn f_points(g: &FGrid, points: &[(&str, usize, f64, f64)]) -> String {
    let mut s = String::from("| point | n | q | threshold | F | P | R | macro F |\n");
    s.push_str("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    for &(label, n, q, t) in points {
        if let Some(p) = g.at(n, q, t) {
            let _ = writeln!(
                s,
                "| {label} | {n} | {q} | {t} | {} | {} |",
                prf_cells(p.micro),
                pct_sd(p.macro_.f)
            );
        }
    }
    s
}

fn fq_table(g: &FGrid, cell: impl Fn(usize, f64) -> Option<f64>) -> String {
    let mut s = String::from("| n |");
    for q in &g.options.qs {
        let _ = write!(s, " q={q} |");
    }
    s.push_str("\n| ---: |");
    for _ in &g.options.qs {
        s.push_str(" ---: |");
    }
    s.push('\n');
    for &n in &g.options.orders {
        let _ = write!(s, "| {n} |");
        for &q in &g.options.qs {
            let _ = write!(s, " {} |", cell(n, q).map(pct).unwrap_or_default());
        }
        s.push('\n');
    }
    s
}

/// Figure 4's numbers: per training-set size, mean ± SD over draws.
pub fn curve(c: &Curve) -> String {
    let mut s = String::new();
    let o = &c.options;
    let _ = writeln!(
        s,
        "Models (n = {}, q = {}, {}) trained on random subsets of {} pool pages, {} draws per \
         size, each scored on the same {} held-out pages (fold 0 of a {}-fold split, seed {}). \
         Micro-averaged percent, mean ± SD over draws [min, max]. The raw dump of the held-out \
         pages: F {}, P {}, R {}.\n",
        o.params.n,
        o.params.q,
        o.params.alphabet.name(),
        c.train_pool,
        o.draws,
        c.held_out.len(),
        o.held_out_folds,
        o.seed,
        pct(c.baseline.f),
        pct(c.baseline.precision),
        pct(c.baseline.recall)
    );
    s.push_str("| pages | draws | gold words | F | F range | P | P range | R |\n");
    s.push_str("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    for z in c.sizes() {
        let _ = writeln!(
            s,
            "| {} | {} | {:.0} | {} | [{}, {}] | {} | [{}, {}] | {} |",
            z.pages,
            z.draws,
            z.train_words.mean,
            pct_sd(z.f),
            pct(z.f_range.0),
            pct(z.f_range.1),
            pct_sd(z.precision),
            pct(z.precision_range.0),
            pct(z.precision_range.1),
            pct_sd(z.recall)
        );
    }
    s
}

/// The tuned point against the defaults, as the cleaner itself scores them.
pub fn confirmation(c: &super::tune::Confirmation) -> String {
    let mut s = String::from(
        "The best grid point and the defaults, rerun through the cleaner (cross-validated as \
         `crossval` does):\n\n| row | F | P | R | macro F | t (F) vs raw | p |\n\
         | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n",
    );
    for r in &c.table.rows {
        let (mi, ma) = (r.report.micro(), r.report.macro_());
        let (t, p) = r
            .t_f
            .map(|t| (format!("{:.3}", t.t), p_value(t.p)))
            .unwrap_or_else(|| ("–".into(), "–".into()));
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} |",
            r.variant.name,
            prf_cells(mi),
            pct_sd(ma.f),
            format_args!("{t} | {p}")
        );
    }
    for (what, t) in [
        ("F", c.tuned_vs_default),
        ("precision", c.tuned_vs_default_precision),
    ] {
        if let Some(t) = t {
            let _ = writeln!(
                s,
                "\nTuned minus default, per-file {what}: mean {:+.2} points, paired t = {:.3}, df = {}, p = {}.",
                100.0 * t.mean_diff,
                t.t,
                t.df,
                p_value(t.p)
            );
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histogram_bins() {
        let h = histogram(&[-3.0, 0.0, 4.9, 5.0, 12.0], 5.0);
        assert_eq!(h, vec![(-5.0, 1), (0.0, 2), (5.0, 1), (10.0, 1)]);
        assert!(histogram(&[], 5.0).is_empty());
    }

    #[test]
    fn p_values() {
        assert_eq!(p_value(0.0499), "0.0499");
        assert_eq!(p_value(5.055e-16), "5.1e-16");
        assert_eq!(p_value(f64::NAN), "–");
    }
}
