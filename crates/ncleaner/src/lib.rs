//! ncleaner: boilerplate removal for web pages and web-text dumps.
//!
//! The library is the pipeline of `ARCHITECTURE.md`, one module per stage, data
//! flowing one way:
//!
//! ```text
//! bytes ─► decode ─► html ─► segment ─► page (frozen) ─► policy (decide) ─► cleaned ─► format
//! ```
//!
//! Most users need one call: [`clean_html`] for one page, or a [`Cleaner`]
//! made from [`CleanOptions`] (the options of every front end: `ncleaner
//! clean`, the web API, Python) whose [`Cleaner::clean`] turns the bytes of
//! one page (or one text dump) into segments with scores and keep/drop
//! decisions.
//!
//! ```
//! use ncleaner::{CleanOptions, Cleaner, InputKind};
//! let cleaner = Cleaner::new(CleanOptions::default()).unwrap();
//! let page = b"<html><body><ul><li><a href=/>Home</a></li><li><a href=/c>Contact</a></li></ul>\
//!     <h1>Portrait photography</h1><p>The basics of portrait photography could fill many \
//!     large books, but a few rules of thumb will take a beginner a long way: keep the light \
//!     soft, focus on the eyes, and let the background fall away.</p><p>Window light on an \
//!     overcast day is the cheapest softbox there is, and it flatters almost every face.</p>\
//!     <p>Copyright 2008. All rights reserved.</p></body></html>";
//! let cleaned = cleaner.clean(page, InputKind::Html, None);
//! assert!(cleaned.text().contains("The basics of portrait photography"));
//! assert!(!cleaned.text().contains("Contact"));
//! ```
//!
//! # The public API
//!
//! With the default features the crate's API is its front door, every item
//! at the crate root except the writers (`format`):
//!
//! - [`Cleaner::new`] from [`CleanOptions`] (and the options' field types:
//!   [`InputKind`], [`Method`], [`Preference`], [`Comments`], [`Roles`],
//!   [`Smoothing`], [`OptionValue`], [`Models`]), [`Cleaner::clean`] and
//!   [`clean_html`];
//! - what a cleaned page holds: [`Cleaned`], [`ScoredSegment`], [`Segment`],
//!   [`Decision`], [`Reason`], [`Role`], [`Metadata`], [`PageQuality`],
//!   [`PagePrediction`], [`PageType`], [`Cut`], [`OperatingPoint`];
//! - the models: [`Model::open`], [`WordLm::open`], [`Routes`], and the
//!   perplexity filter [`SentenceFilter`];
//! - [`Error`], [`OptionError`] and [`Result`].
//!
//! `tests/public_api.rs` lists these items and compares them with the
//! committed `public-api.txt`, so that the API grows only on purpose.
//!
//! The pipeline's stages (`decode`, `html`, `segment`, `model`, `classify`,
//! `pipeline`, …) are private modules. The cargo feature `internals` makes
//! them public for the workspace's own crates: `ncleaner-lab` trains and
//! evaluates with them (`model::train`, `Forest::fit`, …), and the corpus
//! crate, the CLI, the server and the Python module reach below the front
//! door where they need to (decoding a document alone, the embedded
//! models' table, the site memory). The feature is a door for the
//! workspace, not a stable API: the stages change with the method.

// Without `internals`, what only the workspace's other crates call (the
// lab's training, the corpus crate's site memory) is unused here.
#![cfg_attr(not(feature = "internals"), allow(dead_code, unused_imports))]

/// Emits an item (a method, mostly) `pub` with the `internals` feature and
/// `pub(crate)` without: the front door's types (`Cleaner`, `Model`,
/// `WordLm`, `SentenceFilter`) keep the methods that name a stage's types,
/// which only the workspace's crates call, out of the default API.
macro_rules! internal {
    ($(#[$meta:meta])* pub $($item:tt)*) => {
        $(#[$meta])*
        #[cfg(feature = "internals")]
        pub $($item)*

        $(#[$meta])*
        #[cfg(not(feature = "internals"))]
        pub(crate) $($item)*
    };
}

// The pipeline's stages: private unless the `internals` feature is on (see
// the crate's doc above). `format` holds the writers and is the one public module.
#[cfg(feature = "internals")]
pub mod cancel;
#[cfg(not(feature = "internals"))]
mod cancel;

#[cfg(feature = "internals")]
pub mod classify;
#[cfg(not(feature = "internals"))]
mod classify;

#[cfg(feature = "internals")]
pub mod cleaned;
#[cfg(not(feature = "internals"))]
mod cleaned;

#[cfg(feature = "internals")]
pub mod decode;
#[cfg(not(feature = "internals"))]
mod decode;

#[cfg(feature = "internals")]
pub mod error;
#[cfg(not(feature = "internals"))]
mod error;

#[cfg(feature = "internals")]
pub mod html;
#[cfg(not(feature = "internals"))]
mod html;

#[cfg(feature = "internals")]
pub mod lang;
#[cfg(not(feature = "internals"))]
mod lang;

#[cfg(feature = "internals")]
pub mod lexicon;
#[cfg(not(feature = "internals"))]
mod lexicon;

#[cfg(feature = "internals")]
pub mod lm;
#[cfg(not(feature = "internals"))]
mod lm;

#[cfg(feature = "internals")]
pub mod model;
#[cfg(not(feature = "internals"))]
mod model;

#[cfg(feature = "internals")]
pub mod options;
#[cfg(not(feature = "internals"))]
mod options;

#[cfg(feature = "internals")]
pub mod page;
#[cfg(not(feature = "internals"))]
mod page;

#[cfg(feature = "internals")]
pub mod perplexity;
#[cfg(not(feature = "internals"))]
mod perplexity;

#[cfg(feature = "internals")]
pub mod pipeline;
#[cfg(not(feature = "internals"))]
mod pipeline;

#[cfg(feature = "internals")]
pub mod policy;
#[cfg(not(feature = "internals"))]
mod policy;

#[cfg(feature = "internals")]
pub mod quality;
#[cfg(not(feature = "internals"))]
mod quality;

#[cfg(feature = "internals")]
pub mod segment;
#[cfg(not(feature = "internals"))]
mod segment;

#[cfg(feature = "internals")]
pub mod site;
#[cfg(not(feature = "internals"))]
mod site;
#[cfg(feature = "internals")]
pub mod words;
#[cfg(not(feature = "internals"))]
mod words;

pub mod format;

pub use cancel::{Cancel, Cancelled};
pub use classify::page::{PagePrediction, PageType};
pub use classify::{Comments, Decision, Method, Preference, Reason};
pub use cleaned::{
    Cleaned, Cut, InputKind, OperatingPoint, PageQuality, Role, Roles, ScoredSegment,
};
pub use error::{Error, OptionError, Result};
pub use html::Metadata;
pub use lm::{Smoothing, WordLm};
pub use model::Model;
pub use options::{CleanOptions, DEFAULT_WORD_MODEL, Models, OptionValue, clean_html};
pub use perplexity::{DEFAULT_MAX_PERPLEXITY, SentenceFilter, SentenceScore};
pub use pipeline::{Cleaner, DEFAULT_FALLBACK, DEFAULT_MODELS, Route, Routes};
pub use segment::{Kind, Segment};
