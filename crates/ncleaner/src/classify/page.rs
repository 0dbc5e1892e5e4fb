//! The page's type, predicted before its segments are decided: an
//! article's teaser cards, comments and share bars are boilerplate, a
//! listing's or a collection's cards are its content, a forum's posts are
//! content whatever their markup is called.
//!
//! [`PageTypeModel`] is a boosted-tree softmax ([`super::trees::fit_softmax`])
//! over [`PageFeatures`], trained on pages labelled with WCXB's seven types
//! (the lab's `train --page-types`) and stored in the classifier of the
//! model file. Its probabilities join every segment's features
//! ([`super::Classifier::page_type`]), so that the segment model learns
//! what each kind of segment is worth on each kind of page.

mod features;

pub(crate) use features::holds_price;

pub use features::{PageFeatures, count as feature_count, names as feature_names};

use super::trees::{Boost, Forest, PADDED, fit_softmax, softmax};

/// The kinds of page (WCXB's seven types).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum PageType {
    /// A news story, a blog post, a recipe, an essay: one text.
    Article,
    /// A forum thread or a Q&A page: posts by several people.
    Forum,
    /// One product for sale.
    Product,
    /// A category page of a shop or a site: cards of products or items.
    Collection,
    /// A list of entries (search results, events, jobs, an archive).
    Listing,
    /// Documentation: a manual's or an API's page.
    Documentation,
    /// A business's page of its services, about, contact or pricing.
    Service,
}

impl PageType {
    /// Every type, in the order of [`PagePrediction::probabilities`].
    pub const ALL: [PageType; 7] = [
        PageType::Article,
        PageType::Forum,
        PageType::Product,
        PageType::Collection,
        PageType::Listing,
        PageType::Documentation,
        PageType::Service,
    ];

    /// The type's name (`article`, `forum`, … as WCXB names them).
    pub fn as_str(self) -> &'static str {
        match self {
            PageType::Article => "article",
            PageType::Forum => "forum",
            PageType::Product => "product",
            PageType::Collection => "collection",
            PageType::Listing => "listing",
            PageType::Documentation => "documentation",
            PageType::Service => "service",
        }
    }

    /// The type's index in [`PageType::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }
}

impl std::str::FromStr for PageType {
    type Err = String;
    fn from_str(s: &str) -> Result<PageType, String> {
        PageType::ALL
            .into_iter()
            .find(|t| t.as_str() == s)
            .ok_or_else(|| {
                format!(
                    "unknown page type {s:?} (article, forum, product, collection, listing, documentation, service)"
                )
            })
    }
}

impl std::fmt::Display for PageType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The least probability of [`PageType::Forum`] at which a page's
/// comment-named posts are its content ([`PagePrediction::is_forum`]).
pub const FORUM_AT_LEAST: f32 = 0.5;

/// The predicted type of a page, with the probability of every type.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct PagePrediction {
    /// P(type) of each of [`PageType::ALL`], summing to 1.
    pub probabilities: [f32; 7],
}

impl PagePrediction {
    /// The likeliest type.
    pub fn page_type(&self) -> PageType {
        let mut best = 0;
        for (i, p) in self.probabilities.iter().enumerate() {
            if *p > self.probabilities[best] {
                best = i;
            }
        }
        PageType::ALL[best]
    }

    /// The probability of the likeliest type.
    pub fn confidence(&self) -> f32 {
        self.probabilities[self.page_type().index()]
    }

    /// The probability of one type.
    pub fn probability(&self, t: PageType) -> f32 {
        self.probabilities[t.index()]
    }

    /// Whether the page is a forum or Q&A thread, whose comment-named posts
    /// are its content: [`PageType::Forum`] more likely than not
    /// ([`FORUM_AT_LEAST`]). The likeliest of seven types can be a weak
    /// guess (a short blog post with three comments under it is typed a
    /// forum at 0.38 by the embedded models), and a weak guess should not
    /// overrule `--comments drop` or call comments posts.
    pub fn is_forum(&self) -> bool {
        self.probability(PageType::Forum) > FORUM_AT_LEAST
    }
}

/// How the page type appears in JSON: `{"type": "article", "confidence": 0.93}`.
impl serde::Serialize for PagePrediction {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("PagePrediction", 2)?;
        // Three decimals: more would claim a precision the model has not.
        let confidence = (f64::from(self.confidence()) * 1000.0).round() / 1000.0;
        st.serialize_field("confidence", &confidence)?;
        st.serialize_field("type", self.page_type().as_str())?;
        st.end()
    }
}

/// The page-type classifier: one forest per type over [`PageFeatures`].
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PageTypeModel {
    /// The number of features a row has (checked when a model file loads).
    pub width: usize,
    /// The names of the features it was trained on ([`feature_names`]),
    /// compared with this build's when a model file loads
    /// ([`PageTypeModel::check_names`]); absent (empty) in older files,
    /// which are checked by their width alone.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub names: Vec<String>,
    /// One forest per type of [`PageType::ALL`]: its margin, before the softmax.
    pub forests: Vec<Forest>,
}

/// How the page-type classifier's trees are grown: small trees and few
/// rounds suit its 1,500 or so training pages (chosen by cross-validation
/// by domain on WCXB's development pages, the lab's `pagetype`).
pub fn default_boost() -> Boost {
    Boost {
        trees: 150,
        depth: 4,
        learning_rate: 0.1,
        lambda: 1.0,
        min_child_share: 0.01,
    }
}

impl PageTypeModel {
    /// Fits the classifier to labelled pages, each with a weight.
    pub fn fit(
        rows: &[PageFeatures],
        labels: &[PageType],
        weights: &[f32],
        cfg: Boost,
    ) -> PageTypeModel {
        let x: Vec<Vec<f32>> = rows.iter().map(|r| r.0.clone()).collect();
        let y: Vec<usize> = labels.iter().map(|t| t.index()).collect();
        PageTypeModel {
            width: feature_count(),
            names: feature_names(),
            forests: fit_softmax(&x, &y, PageType::ALL.len(), weights, cfg),
        }
    }

    /// The predicted type of a page.
    #[inline(never)]
    pub fn predict(&self, features: &PageFeatures) -> PagePrediction {
        let mut p = [0f64; 7];
        let x = &features.0;
        if x.len() < self.width || self.forests.len() != 7 {
            // A model file of another feature set: no opinion.
            return PagePrediction {
                probabilities: [1.0 / 7.0; 7],
            };
        }
        let mut margins = [0f32; 7];
        if x.len() <= PADDED {
            // Each forest's walk indexes a padded copy with no bounds check.
            let mut padded = [0f32; PADDED];
            padded[..x.len()].copy_from_slice(x);
            for (m, f) in margins.iter_mut().zip(&self.forests) {
                *m = f.padded_margin(&padded, x.len());
            }
        } else {
            for (m, f) in margins.iter_mut().zip(&self.forests) {
                *m = f.margin(x);
            }
        }
        softmax(&margins, &mut p);
        let mut probabilities = [0f32; 7];
        for (q, p) in probabilities.iter_mut().zip(p) {
            *q = p as f32;
        }
        PagePrediction { probabilities }
    }

    /// Checks the feature names the model stores against this build's
    /// ([`super::compare_names`]; none stored: not checked).
    pub fn check_names(&self) -> Result<(), String> {
        if self.names.is_empty() {
            return Ok(());
        }
        super::compare_names("page-type model's", &self.names, &feature_names())
    }

    /// Whether the forests fit the feature rows (a check for model files).
    pub fn is_valid(&self) -> bool {
        self.width == feature_count()
            && self.forests.len() == PageType::ALL.len()
            && self.forests.iter().all(|f| f.is_valid(self.width))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A page-type model trained on other features is refused by name; one
    /// without names (an older file) is not checked by them.
    #[test]
    fn a_page_type_model_of_other_features_is_refused_by_name() {
        let mut m = PageTypeModel {
            width: feature_count(),
            names: feature_names(),
            forests: Vec::new(),
        };
        assert_eq!(m.check_names(), Ok(()));
        let first = m.names[0].clone();
        m.names[0] = "renamed_feature".into();
        let e = m.check_names().unwrap_err();
        assert!(e.starts_with("the page-type model's"), "{e}");
        assert!(e.contains("does not know: renamed_feature"), "{e}");
        assert!(e.contains(&format!("the model lacks: {first}")), "{e}");
        m.names.clear();
        assert_eq!(m.check_names(), Ok(()));
    }

    #[test]
    fn a_forum_must_be_more_likely_than_not() {
        // Forum the likeliest of seven at 0.38: not a thread.
        let weak = PagePrediction {
            probabilities: [0.2, 0.38, 0.1, 0.1, 0.1, 0.02, 0.1],
        };
        assert_eq!(weak.page_type(), PageType::Forum);
        assert!(!weak.is_forum());
        let sure = PagePrediction {
            probabilities: [0.1, 0.8, 0.02, 0.02, 0.02, 0.02, 0.02],
        };
        assert!(sure.is_forum());
    }

    #[test]
    fn names_round_trip_and_predictions_serialise() {
        for t in PageType::ALL {
            assert_eq!(t.as_str().parse::<PageType>(), Ok(t));
            assert_eq!(PageType::ALL[t.index()], t);
        }
        assert!("blog".parse::<PageType>().is_err());
        let p = PagePrediction {
            probabilities: [0.1, 0.05, 0.6, 0.05, 0.1, 0.05, 0.05],
        };
        assert_eq!(p.page_type(), PageType::Product);
        assert_eq!(
            serde_json::to_value(p).unwrap(),
            serde_json::json!({"type": "product", "confidence": 0.6})
        );
    }

    /// Pages told apart by one feature: the model learns it, and a row of
    /// another width gets no opinion.
    #[test]
    fn a_model_learns_and_refuses_other_rows() {
        let n = feature_count();
        let (mut rows, mut labels) = (Vec::new(), Vec::new());
        for i in 0..140 {
            let t = PageType::ALL[i % 7];
            let mut f = vec![0.0; n];
            f[3] = t.index() as f32;
            f[5] = (i % 5) as f32;
            rows.push(PageFeatures(f));
            labels.push(t);
        }
        let cfg = Boost {
            trees: 40,
            ..default_boost()
        };
        let m = PageTypeModel::fit(&rows, &labels, &vec![1.0; rows.len()], cfg);
        assert!(m.is_valid());
        for (r, &t) in rows.iter().zip(&labels) {
            assert_eq!(m.predict(r).page_type(), t);
        }
        let short = PageFeatures(vec![0.0; 3]);
        assert!((m.predict(&short).confidence() - 1.0 / 7.0).abs() < 1e-6);
    }
}
