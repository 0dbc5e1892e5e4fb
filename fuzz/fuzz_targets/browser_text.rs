//! The walker's blocks against a browser's (html5ever's tree builder) on
//! generated markup: every input byte picks a piece of HTML, weighted to
//! what a stack of open elements gets wrong (`svg`, `math` and their
//! integration points, raw-text names inside them, CDATA, self-closing
//! tags, `template`, tables, misnested formatting, implied end tags, end
//! tags that cross special elements, a table's parts outside a table); the
//! blocks must be the same, each block's text, in order
//! (`crates/ncleaner/tests/support/browser_text.rs` defines both readings
//! and what the walker hides by design).
//!
//! The grammar is the markup these pieces make less what needs a tree to
//! reorder content, which the walker leaves where it stands by design
//! (ARCHITECTURE.md, "HTML as browsers read it"): markup whose tree the
//! tree builder builds by foster parenting (a table's stray content moved
//! before the table), or by an adoption agency round that reparents
//! beyond what the walker's stack does (elements between a formatting
//! element and the special elements it crosses). The reading counts both
//! as it builds the tree, and such an input is left out. Nor markup that
//! may close an HTML element across a special MathML or SVG element, which
//! html5ever reads against the standard ([`crosses_foreign_special`]), nor
//! a `noscript` in the head, where the reference reading cuts a block that
//! neither the walker nor a browser without scripts cuts
//! ([`noscript_in_head`]). Hiding attributes
//! are left out too: a formatting element the tree builder reopens
//! carries its attributes (ARCHITECTURE.md lists that difference).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../crates/ncleaner/tests/support/browser_text.rs"]
mod browser_text;

/// The pieces markup is built from: one per input byte (modulo their count).
const PIECES: &[&str] = &[
    " one ", " two ", " three ", " four ", " five ", " six ", "<svg>", "</svg>", "<svg/>",
    "<math>", "</math>", "<math/>", "<title>", "</title>", "<title/>", "<style>", "</style>",
    "<textarea>", "</textarea>", "<script>", "</script>", "<xmp>", "<noscript>",
    "</noscript>", "<![CDATA[", "]]>", "<foreignObject>", "</foreignObject>", "<desc>",
    "</desc>", "<g>", "</g>", "<path/>", "<text>", "</text>", "<mi>", "</mi>", "<mtext>",
    "<mglyph>", "<annotation-xml encoding=text/html>", "<annotation-xml>", "</annotation-xml>",
    "<template>", "</template>", "<table>", "</table>", "<tr>", "</tr>", "<td>", "</td>",
    "<th>", "<tbody>", "<caption>", "<p>", "</p>", "<div>", "</div>", "<b>", "</b>", "<i>",
    "</i>", "<a href=x>", "</a>", "<font color=red>", "<font>", "</font>", "<span>",
    "</span>", "<br>", "</br>", "<ul>", "<li>", "</li>", "</ul>", "<h1>", "</h1>", "<h2>",
    "<pre>", "</pre>", "<!-- c -->", "<img/>", "<iframe>", "</iframe>", ">", "<", "/>",
    "<section>", "</section>", "<label>", "</label>", "<em>", "</em>", "</td>", "</th>",
    "</tbody>", "</caption>", "<legend>", "</legend>", "<form>", "</form>", "<button>",
    "</button>", "<object>", "</object>", "<ol>", "</ol>", "</h2>", "</body>", "</html>",
    "<dl>", "<dt>", "<dd>", "</dd>", "<select>", "</select>", "<option>", "<hr>",
];

fuzz_target!(|data: &[u8]| {
    if data.len() > 4096 {
        return;
    }
    let pieces: Vec<&str> = data
        .iter()
        .map(|&b| PIECES[b as usize % PIECES.len()])
        .collect();
    // `select` ends the scopes in html5ever 0.40 (2025's customizable
    // select), and a `button` closes the `button` open in scope; the
    // walker's rules for them wait on branch wt/70-select for the next
    // rebuild of the models, whose features they move on training pages.
    // Until then the grammar leaves out `select` and a second `button`.
    if crosses_foreign_special(&pieces)
        || pieces.contains(&"<select>")
        || pieces.iter().filter(|&&p| p == "<button>").count() > 1
        || noscript_in_head(&pieces)
    {
        return;
    }
    let html: String = pieces.concat();
    let reading = browser_text::browser_reading(&html);
    if reading.fostered > 0 || reading.adopted_beyond > 0 {
        return;
    }
    let ours = browser_text::our_blocks(&html);
    let d = browser_text::compare_blocks(&reading.blocks, &ours);
    assert!(
        d.first.is_none(),
        "{html:?}: the blocks part at block {:?} of {} (walker {}): the browser's {:?}, \
         the walker's {:?}",
        d.first,
        d.blocks,
        d.ours,
        d.browser_from,
        d.ours_from
    );
});

/// Whether the markup may close an HTML element across a MathML or SVG
/// element that the standard counts as special (HTML § 13.2.4.2: `mi`,
/// `mo`, `mn`, `ms`, `mtext`, `annotation-xml`, `foreignObject`, `desc`,
/// `title`), where html5ever 0.40 reads against it: its special elements
/// are HTML's alone and its default scope lacks `annotation-xml`, so in
/// `<li><math><annotation-xml encoding=text/html><li>` the second `li`
/// closes the first and the math with it, and `</span>` in `<span><math>
/// <mi></span>` closes the span. The walker stops there, as the standard
/// and browsers do (ARCHITECTURE.md, "HTML as browsers read it"). Coarse
/// by choice: after such an element's start tag anywhere past an `svg` or
/// `math`, any end tag but `</svg>` and `</math>`, and any `li`, `dd` or
/// `dt`, leaves the input out.
fn crosses_foreign_special(pieces: &[&str]) -> bool {
    let mut foreign = false;
    let mut special = false;
    for &p in pieces {
        match p {
            "<svg>" | "<svg/>" | "<math>" | "<math/>" => foreign = true,
            "<mi>" | "<mtext>" | "<annotation-xml encoding=text/html>" | "<annotation-xml>"
            | "<foreignObject>" | "<desc>" | "<title>" | "<title/>"
                if foreign =>
            {
                special = true
            }
            "</svg>" | "</math>" => {}
            "<li>" | "<dd>" | "<dt>" if special => return true,
            _ if special && p.starts_with("</") => return true,
            _ => {}
        }
    }
    false
}

/// Whether a `noscript` may stand in the document's head: before any
/// markup that starts the body. The reference reading parses its content
/// as a fragment of its own under the head, and the body after it starts a
/// block there; the walker, which opens no implied head or body, reads on
/// in the same block (`<noscript>a</noscript> b`: `a`, `b` against `a b`,
/// where a browser without scripts carries `a` into the body: `a b`).
/// Conservative: comments, raw text of the head's elements, end tags the
/// head ignores and the pieces that may be part of another token (`<`,
/// `>`, `/>`) leave the document in the head.
fn noscript_in_head(pieces: &[&str]) -> bool {
    let mut raw: Option<&str> = None;
    let mut comment = false;
    for (i, &p) in pieces.iter().enumerate() {
        if comment {
            comment = !p.contains('>');
            continue;
        }
        if let Some(end) = raw {
            if p == end {
                raw = None;
            }
            continue;
        }
        match p {
            "<noscript>" => return true,
            "<title>" | "<title/>" => raw = Some("</title>"),
            "<style>" => raw = Some("</style>"),
            "<script>" => raw = Some("</script>"),
            "<template>" => return pieces[i..].contains(&"<noscript>"),
            "<![CDATA[" => comment = true,
            "<!-- c -->" | "<" | ">" | "/>" => {}
            "</br>" | "</body>" | "</html>" => return false,
            _ if p.starts_with("</") => {}
            _ => return false,
        }
    }
    false
}
