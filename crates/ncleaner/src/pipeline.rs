//! (being written)
/// Cleaner.
pub struct Cleaner;
/// Cleaned.
pub struct Cleaned;
/// Input kind.
pub enum InputKind { Html, Text }
/// Scored segment.
pub struct ScoredSegment;
