//! The words the pass's walker reads against the words of a browser's tree
//! (html5ever's tree builder; `support/browser_text.rs` defines both
//! readings and what the walker hides by design): on hand-made markup the
//! same; on every shared page (feature `shared-data`) the same but on the
//! pages listed in [`DELIBERATE`], each with the difference that
//! ARCHITECTURE.md ("HTML as browsers read it") lists as deliberate.
//!
//! A page differs when a single word does (as multisets: word order is not
//! compared, since the tree builder moves text, a table's stray text before
//! the table); there is no other tolerance.

#[path = "support/browser_text.rs"]
mod browser_text;
mod common;

use browser_text::{Diff, diff};

fn same(page: &str) {
    let d = diff(page);
    assert!(
        d.count() == 0,
        "{page:?}: the walker misses {:?} and adds {:?}",
        d.missing,
        d.extra
    );
}

#[test]
fn hand_made_markup_reads_as_in_a_browser() {
    for page in [
        "<p>One.</p><p>Two <b>bold</b> and <i>it<b>al</i>ic</b>.</p>",
        "<ul><li>a<li>b</ul><table><tr><td>c<td>d</table>",
        "<table>stray<tr><td>cell</table>",
        "<p>a<br>b<br><br>c</p><div hidden><p>flagged</p></div><span hidden>gone</span>",
        "<script>x</script><style>y</style><title>z</title><template>t</template>word",
        "<noscript><p>read as markup</p></noscript><p>a<noscript><b>b</b></noscript>c</p>",
        "<label>Sort:</label><select><option>one<option>two</select>Next",
        // Foreign content (issue 52).
        "<p>First.</p><svg><title/></svg><p>Second.</p>",
        "<p>First.</p><math><title/></math><p>Second.</p>",
        "<svg><style>.a{}</svg><p>After.</p>",
        "<svg><text><![CDATA[ x > y <title> ]]></text></svg><p>After.</p>",
        "<p>Let <math><mi>x</mi></math> be.</p>",
        "<svg><g><p>Breaks out.</p>",
        "<svg><font color=red>Red.</font></svg>",
        "<svg><foreignObject><title>t</title><p>in</p></foreignObject></svg><p>After.</p>",
        "<svg><desc><p>in</p></desc></svg><p>After.</p>",
        "<math><annotation-xml encoding=text/html><div>in</div></annotation-xml></math><p>After.</p>",
        "<math><annotation-xml><div>out</div></annotation-xml></math>",
        "<p>a <svg/> b</p><p>c</p>",
        "<svg><svg><g></svg></x></svg><p>After.</p>",
        // An end tag that stops at a special element (a fuzz round's find).
        "<g></textarea><caption><h1><text><annotation-xml><mtext><text><svg> two  one  one  one \
         <annotation-xml encoding=text/html><iframe></style></g><annotation-xml><<text> one ",
        "<g><h1><x><svg><text>a</g>b</svg></h1><p>c</p>",
        "<g></textarea><caption><annotation-xml><mtext><text><svg> two <iframe></style></g>\
         <annotation-xml><text> one ",
        "<g><caption><x><svg><text>a</g>b",
        "<g><td><body><svg><text>a</g>b",
        "<g><span><svg><text>a</g>b</svg><p>c</p>",
        "<em><h1><svg><text>a</em>b</h1><p>c</p>",
        "<b><h1><div><svg><text>a</b>b</h1><p>c</p>",
        "<p><em><svg><text>a</em>b</p>",
        "<i><div><span><svg><text>a</i>b</div>c",
    ] {
        same(page);
    }
}

/// The shared pages whose words differ, and why (ARCHITECTURE.md, "HTML
/// as browsers read it").
const DELIBERATE: &[(&str, &str)] = &[
    (
        "googlenews/train/e13f3ee4-f7ed-4ca7-b111-665ce83d105f.html",
        "table parts outside a table (an XML island's <Caption>): blocks to the walker, \
         ignored by the tree builder; the words at their edges join in the tree",
    ),
    (
        "daniel/train/20120117_tech.sina.com.cn_4b3e1627f928b5f9e1a076dfd6aa6b2fb9ea85bab63eee5ce5220847.html.gz",
        "a repeated attribute (style=… style=\"display:none\"): the walker reads every \
         copy, the tree keeps the first",
    ),
];

#[test]
#[cfg_attr(
    not(feature = "shared-data"),
    ignore = "needs ../shared/data, Python, Java or Chromium: scripts/test runs it"
)]
fn every_shared_page_reads_as_in_a_browser() {
    let data = common::shared_dir().join("data");
    let mut pages = 0;
    let mut differ: Vec<(String, Diff)> = Vec::new();
    for set in [
        "cleaneval",
        "cleanportaleval",
        "dragnet",
        "googlenews",
        "wcxb/dev",
        "daniel/train",
    ] {
        for path in common::pages(&data.join(set)) {
            let Some(raw) = common::read_page(&path) else {
                continue;
            };
            let doc = ncleaner::decode::decode(&raw, None, None);
            let d = diff(&doc.text);
            pages += 1;
            if d.count() > 0 {
                let name = path.strip_prefix(&data).expect("under data").display();
                differ.push((name.to_string(), d));
            }
        }
    }
    assert!(
        pages >= 4046,
        "only {pages} pages read: is the shared data complete?"
    );
    eprintln!(
        "{pages} pages, {} whose words differ from a browser's:",
        differ.len()
    );
    for (name, d) in &differ {
        eprintln!(
            "  {name}: {} of {} words; {}",
            d.count(),
            d.words,
            sample(d)
        );
    }
    let unexplained: Vec<&str> = differ
        .iter()
        .map(|(name, _)| name.as_str())
        .filter(|name| !DELIBERATE.iter().any(|(n, _)| n == name))
        .collect();
    assert!(
        unexplained.is_empty(),
        "pages whose words differ from a browser's, not listed as deliberate: {unexplained:?}"
    );
}

fn sample(d: &Diff) -> String {
    let take = |v: &[String]| v.iter().take(8).cloned().collect::<Vec<_>>().join(" ");
    format!("missing [{}], extra [{}]", take(&d.missing), take(&d.extra))
}
