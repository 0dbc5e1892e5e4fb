//! The walker's reading of the page's metadata from start tags: `<meta>`,
//! `<link rel=canonical>`, `<html lang>`, `<time datetime>`, and the
//! elements whose text states a field (microdata, bylines).

use super::{ATTR_WORDS, CaptureKind, Context, Field, PendingTag, Tag, Walker};

impl Walker {
    /// What a start tag's attributes state for [`crate::html::Metadata`]:
    /// `<meta>`, `<link rel=canonical>`, `<html lang>`, `<time datetime>`.
    pub(super) fn metadata_tag(&mut self, tag: Tag, p: &PendingTag) {
        let md = &p.md;
        if !md.meta_keys.is_empty() && p.name.eq_ignore_ascii_case(b"meta") {
            self.metadata.meta_tag(&md.meta_keys, &p.content);
        } else if tag == Tag::Void && p.name.eq_ignore_ascii_case(b"link") {
            if md.rel.split_ascii_whitespace().any(|r| r == "canonical") {
                self.metadata.canonical_link(&md.href);
            }
        } else if tag == Tag::Html && !md.lang.is_empty() {
            self.metadata.html_lang(&md.lang);
        } else if !md.datetime.is_empty()
            && self.hiding == 0
            && p.name.eq_ignore_ascii_case(b"time")
        {
            let hints = md_hints();
            let has = |w: u32| p.words.contains(&w) || self.near_words().contains(&w);
            if self.in_reply > 0 {
                // A comment's or an answer's date is not the page's.
            } else if md.itemprop == "datepublished" || md.pubdate {
                self.metadata
                    .time_element(&md.datetime, Field::Published, true);
            } else if md.itemprop == "datemodified" {
                self.metadata
                    .time_element(&md.datetime, Field::Modified, true);
            } else if md.itemprop == "datecreated" {
                // A question's or a forum post's date (schema.org's `dateCreated`).
                if !self.in_comment(p) {
                    self.metadata.created_time(&md.datetime);
                }
            } else if !self.outside_article()
                && !self.in_comment(p)
                && !hints.modified.iter().any(|&w| p.words.contains(&w))
                && hints.published.iter().any(|&w| has(w))
            {
                self.metadata
                    .time_element(&md.datetime, Field::Published, false);
            } else if !self.outside_article()
                && !self.in_comment(p)
                && !hints.modified.iter().any(|&w| has(w))
            {
                self.metadata.plain_time(&md.datetime);
            }
        }
    }

    /// Starts reading the text of an element that states a metadata field:
    /// microdata `itemprop` (author, headline, datePublished) or a byline
    /// (`rel=author`, a class naming the author or byline).
    pub(super) fn metadata_capture(&mut self, p: &PendingTag) {
        if self.metadata.capturing().is_some() || self.hiding > 0 {
            return;
        }
        let md = &p.md;
        let what = match md.itemprop.as_str() {
            "author" | "creator" => Some(CaptureKind::MicrodataAuthor),
            "headline" => Some(CaptureKind::MicrodataHeadline),
            // A comment's or an answer's date is not the page's.
            "datepublished" | "datecreated" if md.datetime.is_empty() && self.in_comment(p) => None,
            "datepublished" if md.datetime.is_empty() => Some(CaptureKind::MicrodataDate),
            "datecreated" if md.datetime.is_empty() => Some(CaptureKind::MicrodataCreated),
            _ => None,
        };
        let what = what.or_else(|| {
            let hints = md_hints();
            let byline = md.rel.split_ascii_whitespace().any(|r| r == "author")
                || md.author_href
                || hints.byline.iter().any(|w| p.words.contains(w));
            (byline
                && !self.outside_article()
                && !hints.comment.iter().any(|w| self.near_words().contains(w)))
            .then_some(CaptureKind::Byline)
        });
        if let Some(what) = what {
            self.metadata.start_capture(self.stack.len(), what);
        }
    }

    /// Whether the element is inside microdata of a comment or an answer, or
    /// it or one of the few nearest open elements has a class or id that says
    /// comment or reply.
    fn in_comment(&self, p: &PendingTag) -> bool {
        self.in_reply > 0
            || md_hints()
                .comment
                .iter()
                .any(|w| p.words.contains(w) || self.near_words().contains(w))
    }

    /// The attribute words of the few nearest open elements.
    fn near_words(&self) -> &[u32] {
        &self.words[self.words.len().saturating_sub(ATTR_WORDS)..]
    }

    /// Whether an element is inside `nav`, `aside` or `footer`, where
    /// bylines and dates are those of other pages.
    fn outside_article(&self) -> bool {
        [Context::NAV, Context::ASIDE, Context::FOOTER]
            .iter()
            .any(|f| self.context_counts[f.trailing_zeros() as usize] > 0)
    }
}

/// Hashed class/id words that tell metadata what an element holds.
struct MdHints {
    published: [u32; 6],
    modified: [u32; 3],
    byline: [u32; 2],
    comment: [u32; 4],
}

fn md_hints() -> &'static MdHints {
    static HINTS: std::sync::OnceLock<MdHints> = std::sync::OnceLock::new();
    let h = |w: &str| crate::html::attrs::word_hash(w.as_bytes());
    HINTS.get_or_init(|| MdHints {
        published: [
            h("published"),
            h("publish"),
            h("pubdate"),
            h("posted"),
            h("publication"),
            h("byline"),
        ],
        modified: [h("modified"), h("updated"), h("update")],
        byline: [h("byline"), h("author")],
        comment: [h("comment"), h("comments"), h("reply"), h("respond")],
    })
}
