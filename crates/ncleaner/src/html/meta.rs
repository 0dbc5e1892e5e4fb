//! The page's own statement of what its article is ([`Meta`]): title,
//! descriptions and JSON-LD fields, read by the walker on its way.

/// What the page's metadata says its article is (see the module documentation).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Meta {
    /// The first HTML `<title>`, `og:title`, `twitter:title`, JSON-LD
    /// `headline`, joined by spaces.
    pub title: String,
    /// `description`, `og:description`, `twitter:description`, JSON-LD
    /// `description` and `articleBody`, joined by spaces.
    pub summary: String,
}

/// Most characters of metadata kept per field: a bound on what a hostile
/// page can make the pass hold.
pub const META_MAX_CHARS: usize = 64 * 1024;

impl Meta {
    pub(super) fn push(field: &mut String, text: &str) {
        let room = META_MAX_CHARS.saturating_sub(field.len());
        let text = text.trim();
        if room < 2 || text.is_empty() {
            return;
        }
        if !field.is_empty() {
            field.push(' ');
        }
        let mut end = text.len().min(room - 1);
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        field.push_str(&text[..end]);
    }

    /// Whether the page said nothing about its article.
    pub fn is_empty(&self) -> bool {
        self.title.is_empty() && self.summary.is_empty()
    }

    /// Adds the article fields of a JSON-LD script's value (any nesting, `@graph` included).
    pub(super) fn add_json_ld(&mut self, json: &serde_json::Value) {
        fn walk(v: &serde_json::Value, meta: &mut Meta, depth: usize) {
            if depth > 16 {
                return;
            }
            match v {
                serde_json::Value::Object(o) => {
                    for (k, v) in o {
                        match (k.as_str(), v) {
                            ("headline" | "alternativeHeadline", serde_json::Value::String(t)) => {
                                Meta::push(&mut meta.title, t)
                            }
                            (
                                "description" | "articleBody" | "abstract",
                                serde_json::Value::String(t),
                            ) => Meta::push(&mut meta.summary, t),
                            _ => walk(v, meta, depth + 1),
                        }
                    }
                }
                serde_json::Value::Array(a) => a.iter().for_each(|v| walk(v, meta, depth + 1)),
                _ => {}
            }
        }
        walk(json, self, 0);
    }
}
