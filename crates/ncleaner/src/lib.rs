//! ncleaner: boilerplate removal for web pages and web-text dumps.
//!
//! The library is the pipeline of `ARCHITECTURE.md`, one module per stage, data
//! flowing one way:
//!
//! ```text
//! bytes ─► decode ─► html ─► segment ─► model/score ─► classify ─► format
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

pub mod classify;
pub mod cleaned;
pub mod decode;
pub mod error;
pub mod format;
pub mod html;
pub mod lang;
pub mod lm;
pub mod model;
pub mod options;
pub mod perplexity;
pub mod pipeline;
pub mod quality;
pub mod segment;
pub mod site;

pub use error::{Error, OptionError};
pub use options::{CleanOptions, clean_html};
pub use pipeline::{Cancel, Cancelled, Cleaned, Cleaner, InputKind, Route, Routes, ScoredSegment};
pub use segment::{Kind, Segment};
