//! What each segment of a page is: its title, a byline, a caption, the
//! body, a comment or a post, a table, code, or page furniture ([`Role`]),
//! and which roles the output's text carries ([`Roles`]).
//!
//! Roles are read from what the one pass recorded (the heading level, the
//! enclosing `figure`, `pre`, table cells and comment sections, the
//! `class`/`id` words of the enclosing elements, the page's stated title)
//! and from the page's predicted type, by the policy before its rules;
//! they change no decision but the one [`Roles`] asks for (the policy's
//! rule `roles`). They are assigned to every segment of an HTML page, kept
//! or dropped, so that a reader of `--segments` sees what the model dropped
//! too; once the page is decided, a dropped segment whose role would be the
//! body has none ([`super::Cleaned::assemble`]): the body is what the page
//! keeps.

use crate::classify::page::PagePrediction;
use crate::html::{Context, Kind, Tag, word_hash};
use crate::lexicon;

use crate::segment::Segment;

/// What a segment is on its page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Role {
    /// The page's title: its `h1`, or a heading that the page's stated
    /// title repeats.
    Title,
    /// A byline or a dateline near the title ("By Jane Doe", "March 4, 2025").
    Byline,
    /// The running text.
    Body,
    /// An image's caption or credit (inside `figure`, `figcaption`, or an
    /// element whose class names a caption or a credit).
    Caption,
    /// A comment under the page's content (inside a comment section of a
    /// page whose content is not itself a thread).
    Comment,
    /// A post of the page's own thread: a forum's or a Q&A page's content.
    Post,
    /// A cell of a data table.
    Table,
    /// Preformatted text: code.
    Code,
    /// Page furniture: a share bar, a "follow us" or newsletter box (short,
    /// inside an element whose class names sharing, following or subscribing).
    Furniture,
}

impl Role {
    /// Every role.
    pub const ALL: [Role; 9] = [
        Role::Title,
        Role::Byline,
        Role::Body,
        Role::Caption,
        Role::Comment,
        Role::Post,
        Role::Table,
        Role::Code,
        Role::Furniture,
    ];

    /// The role's name (`title`, `byline`, `body`, `caption`, `comment`,
    /// `post`, `table`, `code`, `furniture`), as in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Title => "title",
            Role::Byline => "byline",
            Role::Body => "body",
            Role::Caption => "caption",
            Role::Comment => "comment",
            Role::Post => "post",
            Role::Table => "table",
            Role::Code => "code",
            Role::Furniture => "furniture",
        }
    }
}

/// Which roles of the kept segments the output's text carries.
///
/// The default, [`Roles::Content`], follows the reading of a page's main
/// content that most gold sets share (WCXB's, CleanEval's, Google News's,
/// DAnIEL's): the title, bylines, captions, the body, tables, code and a
/// thread's posts, but neither comments nor furniture. It is chosen by
/// `scripts/roles` (EVALUATION.md, "`--roles`: the default"): highest on
/// most of the sets that choose. [`Roles::All`] carries every kept
/// segment, whatever its role (the model decided them, and which comments
/// go is `--comments`' choice): Dragnet's reading, whose gold keeps
/// comments. [`Roles::Body`] is the article's body alone: the body,
/// tables, code and posts, without its title, bylines and captions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Roles {
    /// Every kept segment, comments included.
    All,
    /// Main content (the default): all but comments and furniture.
    #[default]
    Content,
    /// The body alone: body, tables, code, posts.
    Body,
}

impl Roles {
    /// Every setting, in the order the command line lists them.
    pub const ALL: [Roles; 3] = [Roles::All, Roles::Content, Roles::Body];

    /// The setting's name (`all`, `content`, `body`).
    pub fn as_str(self) -> &'static str {
        match self {
            Roles::All => "all",
            Roles::Content => "content",
            Roles::Body => "body",
        }
    }

    /// Whether the text carries a kept segment of this role.
    pub(crate) fn carries(self, role: Role) -> bool {
        match self {
            Roles::All => true,
            Roles::Content => !matches!(role, Role::Comment | Role::Furniture),
            Roles::Body => matches!(role, Role::Body | Role::Table | Role::Code | Role::Post),
        }
    }
}

impl std::str::FromStr for Roles {
    type Err = String;
    fn from_str(s: &str) -> Result<Roles, String> {
        Roles::ALL
            .into_iter()
            .find(|r| r.as_str() == s)
            .ok_or_else(|| format!("{s:?}: give all, content or body"))
    }
}

/// Most words of a byline or a dateline.
pub const BYLINE_MAX_WORDS: usize = 15;

/// Most words of a caption or a credit.
pub const CAPTION_MAX_WORDS: usize = 60;

/// Most words of a piece of furniture.
pub const FURNITURE_MAX_WORDS: usize = 12;

/// How many segments after the title a byline may sit (before it, as many
/// as a byline above the headline needs: two).
pub const BYLINE_REACH: usize = 8;

/// Hashed attribute words that name each kind of segment.
struct Words {
    byline: WordSet,
    caption: WordSet,
    furniture: WordSet,
}

/// A few hashed words, and a 64-bit filter of them (bit `hash % 64`): a
/// segment's attribute words (up to [`crate::html::ATTR_WORDS`]) are
/// nearly all in no list, and one bit test spares each a scan of the list
/// (the scans were most of [`assign_roles`]' time).
struct WordSet {
    words: Vec<u32>,
    bits: u64,
}

impl WordSet {
    fn new(set: &lexicon::WordSet) -> WordSet {
        let words: Vec<u32> = set.words().map(|w| word_hash(w.as_bytes())).collect();
        let bits = words.iter().fold(0, |bits, &h| bits | 1 << (h % 64));
        WordSet { words, bits }
    }

    /// Whether any of `attrs` is in the set.
    fn any_in(&self, attrs: &[u32]) -> bool {
        attrs
            .iter()
            .any(|a| self.bits & 1 << (a % 64) != 0 && self.words.contains(a))
    }
}

fn words() -> &'static Words {
    static WORDS: std::sync::OnceLock<Words> = std::sync::OnceLock::new();
    let h = WordSet::new;
    WORDS.get_or_init(|| Words {
        byline: h(&lexicon::BYLINE_ROLE),
        caption: h(&lexicon::CAPTION_ROLE),
        furniture: h(&lexicon::FURNITURE_ROLE),
    })
}

/// The role of every segment of an HTML page ([`Role`]), in order.
pub fn assign_roles(segments: &[Segment], page_type: Option<&PagePrediction>) -> Vec<Role> {
    let forum = page_type.is_some_and(PagePrediction::is_forum);
    let w = words();
    let has = |s: &Segment, set: &WordSet| set.any_in(&s.attrs);
    let mut title: Option<usize> = None;
    let mut roles = Vec::with_capacity(segments.len());
    for (i, seg) in segments.iter().enumerate() {
        let st = seg.structure.unwrap_or_default();
        let words = seg.words();
        let role = if st.pre || seg.context.has(Context::PRE) {
            Role::Code
        } else if st.cell.is_some() && !seg.context.has(Context::COMMENT) {
            Role::Table
        } else if seg.context.has(Context::COMMENT) {
            if seg.is_comment(forum) {
                Role::Comment
            } else {
                Role::Post
            }
        } else if seg.kind == Kind::H
            && title.is_none()
            && (seg.meta.is_some_and(|m| m[0] >= 0.6 && words >= 2)
                || (st.heading == 1
                    && !seg.context.has(Context::NAV)
                    && !seg.context.has(Context::FOOTER)
                    && !seg.context.has(Context::ASIDE)))
        {
            title = Some(i);
            Role::Title
        } else if words <= CAPTION_MAX_WORDS
            && seg.kind != Kind::H
            && (seg.context.has(Context::FIGURE)
                || matches!(seg.tag, Some(Tag::Figcaption | Tag::Caption))
                || has(seg, &w.caption))
        {
            Role::Caption
        } else if words <= FURNITURE_MAX_WORDS && has(seg, &w.furniture) {
            Role::Furniture
        } else {
            Role::Body
        };
        roles.push(role);
    }
    // Bylines: short lines near the title that name an author or a date.
    let Some(t) = title else { return roles };
    let from = t.saturating_sub(2);
    let to = (t + BYLINE_REACH).min(segments.len().saturating_sub(1));
    for (s, role) in segments[from..=to].iter().zip(&mut roles[from..=to]) {
        if *role != Role::Body || s.kind == Kind::H {
            continue;
        }
        let text = s.text();
        if s.words() > BYLINE_MAX_WORDS {
            continue;
        }
        // The longest lead is 20 bytes ("συντάκτης: "): the line's start,
        // cut at a character, is lowered to be compared.
        let mut cut = text.len().min(32);
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        let lower = text[..cut].to_lowercase();
        let by = lexicon::BYLINE_LEADS.words().any(|p| lower.starts_with(p));
        if by || has(s, &w.byline) || crate::html::date_in_text(text).is_some() {
            *role = Role::Byline;
        }
    }
    roles
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classify::page::PageType;
    use crate::cleaned::InputKind;

    /// The segments of an HTML page with their roles.
    fn roles_of(html: &str, page_type: Option<PageType>) -> Vec<(String, Role)> {
        let (_, segments) = crate::page::segments_of(html, InputKind::Html);
        let prediction = page_type.map(|t| {
            let mut probabilities = [0.0; 7];
            probabilities[t.index()] = 1.0;
            PagePrediction { probabilities }
        });
        let roles = assign_roles(&segments, prediction.as_ref());
        segments
            .iter()
            .zip(roles)
            .map(|(s, r)| (s.text().to_string(), r))
            .collect()
    }

    /// A short line under the title that a byline's lead starts, in any
    /// language of the lexicon's leads, with no class that says so: English's
    /// leads whole or bare ("Written by" before the name's own element),
    /// Russian's, Chinese's and Greek's (whose leads pass the first 11 bytes).
    #[test]
    fn a_line_that_a_bylines_lead_starts_is_a_byline() {
        for line in [
            "By Jane Doe",
            "Written by",
            "WRITTEN BY",
            "Posted By",
            "Автор: Иван Петров",
            "作者：张小明",
            "Συντάκτης: Γιώργος Παπαδόπουλος",
        ] {
            let html = format!(
                "<html><body><h1>Bridge to be rebuilt</h1><p>{line}</p><p>{PROSE}</p></body></html>"
            );
            let roles = roles_of(&html, None);
            assert_eq!(role(&roles, line), Role::Byline, "{line}");
        }
        let html = format!(
            "<html><body><h1>Bridge</h1><p>Bylines are rare</p><p>{PROSE}</p></body></html>"
        );
        assert_eq!(role(&roles_of(&html, None), "Bylines are rare"), Role::Body);
    }

    fn role(roles: &[(String, Role)], text: &str) -> Role {
        roles
            .iter()
            .find(|(t, _)| t == text)
            .unwrap_or_else(|| panic!("no segment {text:?} in {roles:?}"))
            .1
    }

    const PROSE: &str =
        "The council voted on Tuesday to rebuild the old bridge over the river by 2027.";

    /// The furniture: a byline, a caption and a share bar.
    #[test]
    fn a_byline_a_caption_and_a_share_bar_carry_their_roles() {
        let html = format!(
            "<html><head><title>Bridge to be rebuilt | Town News</title></head><body>\
             <article><h1>Bridge to be rebuilt</h1><p class=byline>By Jane Doe</p>\
             <p>March 4, 2025</p>\
             <figure><img src=b.jpg><figcaption>The old bridge in 1950. Photo: Town archive</figcaption></figure>\
             <p>{PROSE}</p><p>{PROSE}</p>\
             <div class=\"share-buttons\"><a href=/f>Facebook</a> <a href=/t>Share on X</a></div>\
             <table><tr><td>Cost</td><td>4 million</td></tr></table>\
             <pre>bridge --rebuild</pre></article>\
             <div id=comments><p>Finally! It took them long enough to decide this.</p></div>\
             </body></html>"
        );
        let roles = roles_of(&html, Some(PageType::Article));
        assert_eq!(role(&roles, "Bridge to be rebuilt"), Role::Title);
        assert_eq!(role(&roles, "By Jane Doe"), Role::Byline);
        assert_eq!(role(&roles, "March 4, 2025"), Role::Byline, "a dateline");
        assert_eq!(
            role(&roles, "The old bridge in 1950. Photo: Town archive"),
            Role::Caption
        );
        assert_eq!(role(&roles, PROSE), Role::Body);
        assert_eq!(role(&roles, "Facebook Share on X"), Role::Furniture);
        assert_eq!(role(&roles, "Cost"), Role::Table);
        assert_eq!(role(&roles, "bridge --rebuild"), Role::Code);
        assert_eq!(
            role(&roles, "Finally! It took them long enough to decide this."),
            Role::Comment
        );
    }

    /// On a forum, posts in comment-named markup are posts.
    #[test]
    fn a_forum_s_comments_are_posts() {
        let html = format!(
            "<h1>Which bridge design?</h1><div class=comment><p>{PROSE}</p></div>\
             <div class=comment><p>I agree, the old one was unsafe.</p></div>"
        );
        let roles = roles_of(&html, Some(PageType::Forum));
        assert_eq!(role(&roles, PROSE), Role::Post);
        let roles = roles_of(&html, Some(PageType::Article));
        assert_eq!(
            role(&roles, PROSE),
            Role::Post,
            "the comment section is the page's best container: a thread"
        );
    }

    #[test]
    fn the_settings_carry_their_roles_and_parse() {
        for r in Roles::ALL {
            assert_eq!(r.as_str().parse::<Roles>(), Ok(r));
        }
        assert!("most".parse::<Roles>().is_err());
        assert!(Role::ALL.iter().all(|&r| Roles::All.carries(r)));
        assert!(!Roles::Content.carries(Role::Comment));
        assert!(!Roles::Content.carries(Role::Furniture));
        assert!(Roles::Content.carries(Role::Caption) && Roles::Content.carries(Role::Post));
        assert!(!Roles::Body.carries(Role::Title) && !Roles::Body.carries(Role::Byline));
        assert!(Roles::Body.carries(Role::Body) && Roles::Body.carries(Role::Code));
        let names: Vec<&str> = Role::ALL.iter().map(|r| r.as_str()).collect();
        assert_eq!(
            serde_json::to_value(Role::ALL).unwrap(),
            serde_json::json!(names)
        );
    }

    /// A comment is dropped where asked, except on a page typed a forum or
    /// in a thread (a comment section holding the page's best prose); a
    /// segment outside comment sections never is. The role reads the same
    /// definition: the segments dropped are those given the comment role.
    #[test]
    fn dropped_comments_follow_the_page() {
        let mut comment = crate::segment::Segment::plain(crate::html::Kind::P, "Nice post!".into());
        comment.context = crate::html::Context(crate::html::Context::COMMENT);
        let mut thread = comment.clone();
        thread.container = Some(crate::html::Container {
            thread: true,
            ..Default::default()
        });
        let prose = crate::segment::Segment::plain(crate::html::Kind::P, "The story.".into());
        let mut forum = PagePrediction {
            probabilities: [0.0; 7],
        };
        forum.probabilities[PageType::Forum.index()] = 0.9;
        let article = PagePrediction {
            probabilities: [0.9, 0.1, 0.0, 0.0, 0.0, 0.0, 0.0],
        };
        use crate::classify::{Comments, DroppedComments};
        let drop = |page: Option<&PagePrediction>| DroppedComments::of(Comments::Drop, page);
        for page in [None, Some(&article)] {
            assert!(drop(page).contains(&comment));
            assert!(!drop(page).contains(&thread));
            assert!(!drop(page).contains(&prose));
            assert!(!DroppedComments::of(Comments::Keep, page).contains(&comment));
        }
        assert!(!drop(Some(&forum)).contains(&comment));
        assert!(!DroppedComments::NONE.contains(&comment));
        for (s, page) in [
            (&comment, None),
            (&comment, Some(&forum)),
            (&thread, None),
            (&prose, None),
        ] {
            let role = assign_roles(std::slice::from_ref(s), page)[0];
            assert_eq!(role == Role::Comment, drop(page).contains(s), "{role:?}");
        }
    }
}
