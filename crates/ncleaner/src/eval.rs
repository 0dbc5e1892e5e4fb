//! Word-level evaluation against CleanEval gold files (placeholder, being written).
