//! (being written)
/// The kind of a segment, as CleanEval labels it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind { P, H, L }
/// A segment.
pub struct Segment;
