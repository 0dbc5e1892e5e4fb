//! The "Beyond NCleaner" training on real pages: the aligned dirty model, the
//! segment classifier, its operating points, its model files and the
//! calibration of its probabilities (on `cleaneval/dev`, a training split).

// The shared-data and Python helpers of the product crate's tests, one copy.
#[path = "../../ncleaner/tests/common/mod.rs"]
mod common;

use ncleaner::model::{DirtyEstimate, Model};
use ncleaner::{Cleaner, InputKind};
use ncleaner::{Method, Preference};
use ncleaner_lab::crossval::{folds, load_pool};
use ncleaner_lab::train::{ClassifierConfig, TrainConfig, Trainer, pair};

fn dev_trainer() -> Trainer {
    let data = common::shared_dir().join("data");
    let pairs = pair(
        &data.join("cleaneval/dev"),
        &data.join("gold/cleaneval/dev"),
    )
    .expect("pairs");
    assert_eq!(pairs.len(), 58);
    Trainer::new(load_pool(&pairs).expect("pool"))
}

fn small() -> TrainConfig {
    TrainConfig {
        classifier: Some(ClassifierConfig {
            inner_folds: 4,
            ..ClassifierConfig::default()
        }),
        ..TrainConfig::lexical()
    }
}

#[cfg_attr(
    not(feature = "shared-data"),
    ignore = "needs ../shared/data, Python, Java or Chromium: scripts/test runs it"
)]
#[test]
fn classifier_model_operating_points_and_files() {
    let trainer = dev_trainer();
    let all: Vec<usize> = (0..trainer.pages().len()).collect();
    let model = trainer.fit(&all, &small()).expect("fit");
    assert_eq!(model.meta.dirty, DirtyEstimate::Aligned);
    let c = model.classifier.clone().expect("a classifier");
    let precise = c.precision_threshold.expect("a precision point");
    let recall = c.max_recall_threshold.expect("a recall point");
    for (html, i) in [(true, 0), (false, 1)] {
        assert!(c.weights(html).is_some());
        assert!(c.threshold[i].is_finite() && precise[i].is_finite() && recall[i].is_finite());
        // Precision costs recall: the F0.5 point keeps no more than the F2 point.
        assert!(precise[i] >= recall[i], "{precise:?} {recall:?}");
        assert_eq!(c.operating_threshold(html, Preference::F), c.threshold[i]);
        assert_eq!(
            c.operating_threshold(html, Preference::Precision),
            precise[i]
        );
        assert_eq!(c.operating_threshold(html, Preference::Recall), recall[i]);
    }
    // Both file forms keep the classifier.
    let binary = Model::from_bytes(&model.to_binary(), "binary").expect("binary");
    let text = Model::from_bytes(model.to_text().as_bytes(), "text").expect("text");
    assert_eq!(binary.classifier, model.classifier);
    assert_eq!(
        text.classifier, model.classifier,
        "floats read back exactly"
    );

    // Cleaning gives every model-scored segment a probability, and the knobs move the line.
    let page =
        std::fs::read(common::shared_dir().join("data/cleaneval/train/105.html")).expect("page");
    let cleaner = Cleaner::from_model(model);
    let words = |c: &Cleaner| c.clean(&page, InputKind::Html, None).words_out();
    let out = cleaner.clean(&page, InputKind::Html, None);
    assert!(out.segments.iter().any(|s| s.probability.is_some()));
    for s in &out.segments {
        if let Some(p) = s.probability {
            assert!((0.0..=1.0).contains(&p));
            // A short cell of a data table's row with a kept cell is kept
            // whatever its own probability (`cleaned::keep_table_rows`).
            if s.decision.reason == ncleaner::Reason::TableRow {
                assert!(
                    s.decision.keep && s.segment.words() <= ncleaner::policy::rules::ROW_CELL_WORDS
                );
                continue;
            }
            assert_eq!(
                s.decision.keep,
                ncleaner::classify::log2_odds(p) >= cleaner.threshold(InputKind::Html)
            );
        }
    }
    let strict = cleaner.clone().with_min_probability(0.999);
    let lax = cleaner.clone().with_min_probability(0.01);
    let p = cleaner.clone().with_preference(Preference::Precision);
    let r = cleaner.clone().with_preference(Preference::Recall);
    assert!(words(&strict) <= words(&cleaner) && words(&cleaner) <= words(&lax));
    assert!(words(&p) <= words(&r));
    assert_eq!(p.threshold(InputKind::Text), precise[1]);
    assert_eq!(cleaner.threshold(InputKind::Text), c.threshold[1]);
}

#[cfg_attr(
    not(feature = "shared-data"),
    ignore = "needs ../shared/data, Python, Java or Chromium: scripts/test runs it"
)]
#[test]
fn probabilities_are_calibrated_under_cross_validation() {
    let trainer = dev_trainer();
    let fold = folds(trainer.pages().len(), 3, 1);
    let bins = trainer
        .calibration(&fold, 3, &small(), InputKind::Html, 5)
        .expect("calibration");
    assert_eq!(bins.len(), 5);
    let n: usize = bins.iter().map(|b| b.segments).sum();
    assert!(n > 1000, "{n} segments");
    let ece = ncleaner_lab::ablation::calibration_error(&bins);
    // Measured 0.02 on the 398-page pool (EVALUATION.md); 58 pages in 3 folds are noisier.
    assert!(ece < 0.08, "expected calibration error {ece}: {bins:?}");
    // The lowest bin is mostly boilerplate, the highest mostly clean.
    let (low, high) = (&bins[0], &bins[4]);
    assert!(low.clean_share < 0.3 && high.clean_share > 0.9, "{bins:?}");
    assert!(
        trainer
            .calibration(&fold, 3, &TrainConfig::paper_lexical(), InputKind::Html, 5)
            .is_err()
    );
}

#[cfg_attr(
    not(feature = "shared-data"),
    ignore = "needs ../shared/data, Python, Java or Chromium: scripts/test runs it"
)]
#[test]
fn the_classifier_beats_the_papers_rule_on_held_out_pages() {
    let trainer = dev_trainer();
    let fold = folds(trainer.pages().len(), 3, 1);
    let f = |cfg: &TrainConfig| {
        let outs = trainer
            .cross_validate(&fold, 3, cfg, InputKind::Html, Method::NCleaner, None)
            .expect("cv");
        let texts = trainer
            .pages()
            .iter()
            .zip(&outs)
            .map(|(p, c)| {
                let mut b = Vec::new();
                ncleaner::format::write_cleaneval(&mut b, c).unwrap();
                (p.key.clone(), String::from_utf8(b).unwrap(), p.gold.clone())
            })
            .collect::<Vec<_>>();
        ncleaner_lab::eval::score_texts(texts, &Default::default())
    };
    let paper = f(&TrainConfig::paper_lexical());
    // The default point maximises the mean page F: it beats the paper's
    // rule there. On pooled words it does not on folds this small (39
    // training pages: F 0.923 against 0.929, here and at the precision
    // point); on the whole CleanEval pool it does (EVALUATION.md, the
    // ablation: 95.2 against 93.4).
    let ours = f(&small());
    let (o, p) = (ours.macro_().f.mean, paper.macro_().f.mean);
    assert!(o > p, "mean page F {o} vs {p}");
    assert!(
        ours.micro().recall > paper.micro().recall,
        "{:?} vs {:?}",
        ours.micro(),
        paper.micro()
    );
}

/// The F-beta operating point: beta = 1 is the max-F point, and a smaller
/// beta (precision weighed more) never sets a lower threshold than a larger one.
#[cfg_attr(
    not(feature = "shared-data"),
    ignore = "needs ../shared/data, Python, Java or Chromium: scripts/test runs it"
)]
#[test]
fn f_beta_operating_point_moves_with_beta() {
    use ncleaner_lab::train::OperatingPoint;
    let trainer = dev_trainer();
    let all: Vec<usize> = (0..trainer.pages().len()).collect();
    let fit_at = |op: OperatingPoint| {
        let mut cfg = small();
        cfg.classifier.as_mut().unwrap().operating_point = op;
        trainer
            .fit(&all, &cfg)
            .expect("fit")
            .classifier
            .expect("a classifier")
    };
    let fit = |beta: f64| fit_at(OperatingPoint::MaxFBeta(beta));
    let (strict, even, lax) = (fit(0.25), fit(1.0), fit(4.0));
    let max_f = fit_at(OperatingPoint::MaxF);
    for i in 0..2 {
        assert_eq!(even.threshold[i], max_f.threshold[i], "F1 is F");
        assert_eq!(
            strict.precision_threshold, even.precision_threshold,
            "the stored F0.5 point does not depend on the default"
        );
        assert!(
            strict.threshold[i] >= even.threshold[i] && even.threshold[i] >= lax.threshold[i],
            "{:?} {:?} {:?}",
            strict.threshold,
            even.threshold,
            lax.threshold
        );
    }
    assert!(
        strict.threshold[0] > lax.threshold[0],
        "beta moves the HTML threshold"
    );
}
