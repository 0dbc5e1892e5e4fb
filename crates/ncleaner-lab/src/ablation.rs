//! The "Beyond NCleaner" steps measured one by one: cross-validated rows that
//! add the aligned dirty model, the segment classifier, its neighbour
//! features, the `class`/`id` word evidence and the HMM to the paper's model,
//! each for HTML and text-dump input, and the reliability table of the
//! default model's probabilities (`ncleaner crossval --ablation`).
//!
//! Every row is trained and tested by [`Trainer::cross_validate_by`] on the
//! same folds; rows differ only in their [`TrainConfig`] and, for the
//! operating-point rows, in where the cleaner cuts ([`Cut`]), so a row's gain
//! over the one before is what its step bought.

use std::fmt::Write as _;
use std::time::Instant;

use crate::error::Result;
use crate::eval::{EvalOptions, Report, score_texts};
use crate::train::{CalibrationBin, ClassifierConfig, OperatingPoint, TrainConfig, Trainer};
use ncleaner::Cleaner;
use ncleaner::InputKind;
use ncleaner::model::DirtyEstimate;
use ncleaner::{Method, Preference};

/// One row of the ablation: a name, what it adds, and its configuration.
#[derive(Debug, Clone)]
pub struct Step {
    /// Short name.
    pub name: &'static str,
    /// What the row changes with respect to the one above it.
    pub adds: &'static str,
    /// The configuration trained.
    pub config: TrainConfig,
    /// How the row's cleaner cuts each held-out page.
    pub cut: Cut,
}

/// How a row's cleaner cuts each page: the operating-point rows differ from
/// the default in where they cut, which the default's cut per page never
/// reads, so each row names its own.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Cut {
    /// The default cleaner: each page at its own expected F
    /// ([`ncleaner::classify::expected_f_cut`]).
    PerPage,
    /// A stored operating point, as `clean --prefer` chooses it.
    Prefer(Preference),
    /// One threshold for every page: the one the model stored as its
    /// default point (as `clean --threshold` with that value).
    Stored,
}

/// The rows, in order: each adds one step to the row above it, except the
/// last ones, which vary the default (the HMM, the operating point, the
/// order, the non-lexical alphabet).
pub fn steps() -> Vec<Step> {
    let mut steps = additions();
    steps.extend(variations());
    steps
}

/// The paper's model with the dirty model of the aligned segments.
fn aligned() -> TrainConfig {
    TrainConfig {
        dirty: DirtyEstimate::Aligned,
        ..TrainConfig::paper_lexical()
    }
}

/// [`aligned`] with the classifier `c`.
fn with(c: ClassifierConfig) -> TrainConfig {
    TrainConfig {
        classifier: Some(c),
        ..aligned()
    }
}

/// The rows from the paper's model to the default, each adding one step
/// to the row above it.
fn additions() -> Vec<Step> {
    let paper = TrainConfig::paper_lexical();
    let aligned = aligned();
    let full = ClassifierConfig::default();
    let plain = ClassifierConfig {
        neighbours: false,
        attrs: false,
        site: false,
        trees: None,
        ..full.clone()
    };
    vec![
        Step {
            cut: Cut::PerPage,
            name: "paper",
            adds: "the paper's model: differential dirty counts, score ≥ 0",
            config: paper,
        },
        Step {
            cut: Cut::PerPage,
            name: "+aligned",
            adds: "dirty model from the segments the alignment labels dirty",
            config: aligned,
        },
        Step {
            cut: Cut::PerPage,
            name: "+classifier",
            adds: "logistic regression over n-gram score, length, links, tags, position, containers",
            config: with(plain.clone()),
        },
        Step {
            cut: Cut::PerPage,
            name: "+neighbours",
            adds: "the neighbouring segments' features",
            config: with(ClassifierConfig {
                neighbours: true,
                ..plain.clone()
            }),
        },
        Step {
            cut: Cut::PerPage,
            name: "+attrs",
            adds: "class/id/role word evidence",
            config: with(ClassifierConfig {
                site: false,
                ..full.clone()
            }),
        },
        Step {
            cut: Cut::PerPage,
            name: "+site",
            adds: "share of the site's other pages (in the pool) holding the segment",
            config: with(ClassifierConfig {
                trees: None,
                ..full.clone()
            }),
        },
        Step {
            cut: Cut::PerPage,
            name: "+trees (default)",
            adds: "boosted trees on top of the logistic regression",
            config: TrainConfig::lexical(),
        },
    ]
}

/// The rows that vary the default: the word-model features, the HMM, the
/// weights, the operating point, the order, the non-lexical alphabet.
fn variations() -> Vec<Step> {
    let full = ClassifierConfig::default();
    vec![
        Step {
            cut: Cut::PerPage,
            name: "default +perplexity",
            adds: "word-model features: mean log10 p per token, unknown-word share (per-fold trigram models of the gold text)",
            config: with(ClassifierConfig {
                perplexity: true,
                ..full.clone()
            }),
        },
        Step {
            cut: Cut::PerPage,
            name: "default +hmm",
            adds: "two-state HMM posteriors over the classifier's probabilities",
            config: with(ClassifierConfig {
                hmm: true,
                ..full.clone()
            }),
        },
        Step {
            cut: Cut::PerPage,
            name: "default, pooled weights",
            adds: "segments weighted by their words alone, not scaled per page",
            config: with(ClassifierConfig {
                page_weights: false,
                ..full.clone()
            }),
        },
        Step {
            cut: Cut::Prefer(Preference::Precision),
            name: "default, precision point",
            adds: "one threshold for all pages, at the highest pooled F0.5 (`--prefer precision`), instead of each page's cut at its expected F",
            config: TrainConfig::lexical(),
        },
        Step {
            cut: Cut::Stored,
            name: "default, max-F point",
            adds: "one threshold for all pages, at the highest pooled F, instead of each page's cut at its expected F",
            config: with(ClassifierConfig {
                operating_point: OperatingPoint::MaxF,
                ..full.clone()
            }),
        },
        Step {
            cut: Cut::PerPage,
            name: "default, n=4",
            adds: "4-grams instead of 3-grams",
            config: TrainConfig {
                n: 4,
                ..TrainConfig::lexical()
            },
        },
        Step {
            cut: Cut::PerPage,
            name: "non-lexical default",
            adds: "letters → a, digits → 0 (n=6, q=0.4)",
            config: TrainConfig::non_lexical(),
        },
    ]
}

/// The measured figures of one row and input.
#[derive(Debug, Clone)]
pub struct Row {
    /// The step.
    pub name: &'static str,
    /// The input kind.
    pub input: InputKind,
    /// The scores of the cleaned held-out pages.
    pub report: Report,
    /// Seconds the row took (all folds).
    pub seconds: f64,
}

/// Cross-validates every step for HTML and text-dump input (`fold`: the
/// fold of each page, `k` folds). `progress` is told each row as it ends.
pub fn run(
    trainer: &Trainer,
    fold: &[usize],
    k: usize,
    steps: &[Step],
    mut progress: impl FnMut(&Row),
) -> Result<Vec<Row>> {
    let mut rows = Vec::new();
    for step in steps {
        for input in [InputKind::Html, InputKind::Text] {
            let t = Instant::now();
            let outs = trainer.cross_validate_by(fold, k, &step.config, input, |model| {
                let cleaner = Cleaner::from_model(model).with_method(Method::NCleaner);
                match step.cut {
                    Cut::PerPage => cleaner,
                    Cut::Prefer(p) => cleaner.with_preference(p),
                    // The threshold in force at the default point, made fixed.
                    Cut::Stored => {
                        let t = cleaner.threshold(input);
                        cleaner.with_threshold(t)
                    }
                }
            })?;
            let texts: Vec<(String, String, String)> = trainer
                .pages()
                .iter()
                .zip(&outs)
                .map(|(p, c)| {
                    (
                        p.key.clone(),
                        ncleaner::format::cleaneval_string(c),
                        p.gold.clone(),
                    )
                })
                .collect();
            let row = Row {
                name: step.name,
                input,
                report: score_texts(texts, &EvalOptions::default()),
                seconds: t.elapsed().as_secs_f64(),
            };
            progress(&row);
            rows.push(row);
        }
    }
    Ok(rows)
}

/// The ablation as a Markdown table: micro F/P/R and labelled segmentation F per row and input.
pub fn markdown(steps: &[Step], rows: &[Row]) -> String {
    let mut s = String::from(
        "| step | adds | HTML F | HTML P | HTML R | HTML seg-l F | text F | text P | text R |\n|---|---|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for step in steps {
        let get = |input| {
            rows.iter()
                .find(|r| r.name == step.name && r.input == input)
        };
        let (Some(h), Some(t)) = (get(InputKind::Html), get(InputKind::Text)) else {
            continue;
        };
        let (hm, tm) = (h.report.micro(), t.report.micro());
        let seg = h.report.seg_labelled().map_or(f64::NAN, |c| c.prf().f);
        let _ = writeln!(
            s,
            "| {} | {} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} |",
            step.name,
            step.adds,
            100.0 * hm.f,
            100.0 * hm.precision,
            100.0 * hm.recall,
            100.0 * seg,
            100.0 * tm.f,
            100.0 * tm.precision,
            100.0 * tm.recall
        );
    }
    s
}

/// A reliability table as Markdown.
pub fn calibration_markdown(bins: &[CalibrationBin]) -> String {
    let mut s = String::from(
        "| predicted p | segments | words+1 | mean p | clean share |\n|---|---:|---:|---:|---:|\n",
    );
    for b in bins.iter().filter(|b| b.segments > 0) {
        let _ = writeln!(
            s,
            "| {:.1}–{:.1} | {} | {:.0} | {:.3} | {:.3} |",
            b.low, b.high, b.segments, b.weight, b.mean_probability, b.clean_share
        );
    }
    s
}

/// The weighted mean absolute gap between prediction and clean share (expected calibration error).
pub fn calibration_error(bins: &[CalibrationBin]) -> f64 {
    let total: f64 = bins.iter().map(|b| b.weight).sum();
    bins.iter()
        .filter(|b| b.weight > 0.0)
        .map(|b| b.weight * (b.mean_probability - b.clean_share).abs())
        .sum::<f64>()
        / total.max(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_add_one_thing_each_and_the_default_is_among_them() {
        let s = steps();
        assert_eq!(s[0].config, TrainConfig::paper_lexical());
        assert!(s.iter().any(|x| x.config == TrainConfig::lexical()));
        let mut names: Vec<_> = s.iter().map(|x| x.name).collect();
        names.dedup();
        assert_eq!(names.len(), s.len(), "row names are unique");
        // The operating-point rows cut where their point says, not per page
        // (which would give the default's very figures).
        let cut = |name: &str| s.iter().find(|x| x.name == name).map(|x| x.cut);
        assert_eq!(
            cut("default, precision point"),
            Some(Cut::Prefer(Preference::Precision))
        );
        assert_eq!(cut("default, max-F point"), Some(Cut::Stored));
        assert_eq!(cut("+trees (default)"), Some(Cut::PerPage));
    }

    #[test]
    fn calibration_error_weighs_bins_by_words() {
        let bin = |p: f64, share: f64, w: f64| CalibrationBin {
            low: 0.0,
            high: 1.0,
            segments: 1,
            weight: w,
            mean_probability: p,
            clean_share: share,
        };
        let e = calibration_error(&[bin(0.9, 0.8, 3.0), bin(0.1, 0.1, 1.0)]);
        assert!((e - 0.075).abs() < 1e-12, "{e}");
        assert!(calibration_markdown(&[bin(0.5, 0.5, 1.0)]).contains("0.500"));
    }
}
