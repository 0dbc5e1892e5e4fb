//! The walker's words against a browser's (html5ever's tree builder) on
//! generated markup: every input byte picks a piece of HTML, weighted to
//! what a stack of open elements gets wrong (`svg`, `math` and their
//! integration points, raw-text names inside them, CDATA, self-closing
//! tags, `template`, tables, misnested formatting, implied end tags); the
//! words must be the same, as multisets, but for words split or joined
//! (their characters must be the same)
//! (`crates/ncleaner/tests/support/browser_text.rs` defines both readings
//! and what the walker hides by design). Hiding attributes are left out:
//! a formatting element the tree builder reopens carries its attributes
//! (ARCHITECTURE.md lists that difference).
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
];

fuzz_target!(|data: &[u8]| {
    if data.len() > 4096 {
        return;
    }
    let html: String = data
        .iter()
        .map(|&b| PIECES[b as usize % PIECES.len()])
        .collect();
    let d = browser_text::diff(&html);
    // Text lost or added shows in the characters; words may only split or
    // join where the walker ends a block that the tree builder does not
    // make (table parts outside a table: a deliberate difference).
    let chars = |words: &[String]| {
        let mut c: Vec<char> = words.iter().flat_map(|w| w.chars()).collect();
        c.sort_unstable();
        c
    };
    assert!(
        chars(&d.missing) == chars(&d.extra),
        "{html:?}: {} of {} words differ, the walker misses {:?} and adds {:?}",
        d.count(),
        d.words,
        d.missing,
        d.extra
    );
});
