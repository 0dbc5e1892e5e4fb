//! A kept segment as the outputs of kept text write it (plain text, the
//! `text` of JSON Lines, the API and Python, a WARC conversion record,
//! Markdown), which is not always the text the model read:
//!
//! - a block of preformatted text (`pre`: code) keeps its lines and their
//!   indentation. The segment's text has a space where each line broke (the
//!   models were trained on it so); the HTML pass records the breaks beside
//!   it ([`crate::html::Inline::breaks`]), and they are put back here;
//! - a heading loses the permalink mark that documentation generators put
//!   after it (Sphinx's and MkDocs' `<a class="headerlink">¶</a>`): it is a
//!   link to the heading, not a word of it.
//!
//! The segment's own text (`--segments`, the CleanEval format) stays as
//! read; words are counted on it.

use std::borrow::Cow;

use super::ScoredSegment;
use crate::segment::{Kind, without_permalink};

/// Most spaces of indentation put back at the start of a code line.
const MAX_INDENT: u16 = 64;

impl ScoredSegment {
    /// [`ScoredSegment::text`], a heading's without its permalink mark;
    /// other segments' text as it is.
    pub(crate) fn written_line(&self) -> &str {
        match self.segment.kind {
            Kind::H => without_permalink(self.text()),
            _ => self.text(),
        }
    }

    /// The segment as the outputs of kept text write it (module
    /// documentation): [`ScoredSegment::written_line`], with the lines and
    /// the indentation of a `pre` block put back (one line per line of
    /// code, so the text may hold newlines).
    pub fn written_text(&self) -> Cow<'_, str> {
        let text = self.written_line();
        // The marks are offsets into the segment's own text: not into the
        // sentences the perplexity filter kept of it.
        let breaks = match self.segment.inline.as_deref() {
            Some(m) if !m.breaks.is_empty() && self.output.is_none() => &m.breaks,
            _ => return Cow::Borrowed(text),
        };
        let mut out = String::with_capacity(text.len() + 8 * breaks.len());
        let mut pos = 0;
        for &(at, indent) in breaks {
            let at = at as usize;
            if at < pos || text.as_bytes().get(at) != Some(&b' ') {
                continue;
            }
            out.push_str(&text[pos..at]);
            out.push('\n');
            for _ in 0..indent.min(MAX_INDENT) {
                out.push(' ');
            }
            pos = at + 1;
        }
        out.push_str(&text[pos..]);
        Cow::Owned(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::InputKind;
    use crate::classify::{Decision, Reason};

    /// The kept segments of a page, all kept, as the pipeline reads them.
    fn kept(html: &str) -> Vec<ScoredSegment> {
        let (_, segments) = crate::page::segments_of(html, InputKind::Html);
        segments
            .into_iter()
            .map(|s| {
                let decision = Decision {
                    keep: true,
                    reason: Reason::KeepAll,
                };
                ScoredSegment::new(s, decision)
            })
            .collect()
    }

    #[test]
    fn code_keeps_its_lines_and_indentation() {
        let html = "<p>Run it:</p><pre><code>@app.route(\"/\")\ndef hello_world():\n    \
                    return \"&lt;p&gt;Hello, World!&lt;/p&gt;\"\n</code></pre>";
        let segs = kept(html);
        let code = segs.iter().find(|s| s.text().starts_with("@app")).unwrap();
        // What the model read: one line.
        assert_eq!(
            code.text(),
            "@app.route(\"/\") def hello_world(): return \"<p>Hello, World!</p>\""
        );
        assert_eq!(
            code.written_text(),
            "@app.route(\"/\")\ndef hello_world():\n    return \"<p>Hello, World!</p>\""
        );
        // Prose is written as it is read.
        assert_eq!(segs[0].written_text(), "Run it:");
        // Under perplexity filtering the kept sentences are written as kept.
        let mut filtered = code.clone();
        filtered.output = Some("def hello_world():".into());
        assert_eq!(filtered.written_text(), "def hello_world():");
    }

    #[test]
    fn a_heading_loses_its_permalink_mark() {
        let html = "<h1>Quickstart<a class=\"headerlink\" href=\"#quickstart\" \
                    title=\"Link to this heading\">¶</a></h1>\
                    <h2>A Minimal Application <a class=headerlink href=#a>¶</a></h2>\
                    <p>The pilcrow ¶</p><h3>¶</h3>";
        let segs = kept(html);
        let written: Vec<&str> = segs.iter().map(ScoredSegment::written_line).collect();
        assert_eq!(
            written,
            ["Quickstart", "A Minimal Application", "The pilcrow ¶", "¶"]
        );
        assert_eq!(segs[0].text(), "Quickstart¶", "the segment as read");
        assert_eq!(segs[0].written_text(), "Quickstart");
    }
}
