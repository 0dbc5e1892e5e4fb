//! The pass's walker against a browser's tree (html5ever's tree builder;
//! `support/browser_text.rs` defines both readings and what the walker
//! hides by design), twice: the words, as multisets, and the blocks, as a
//! sequence (each block's text, in order: where the walker cuts a page).
//! On hand-made markup the same; on every shared page (feature
//! `shared-data`) the same but on the pages listed in [`DELIBERATE`], each
//! with the difference that ARCHITECTURE.md ("HTML as browsers read it")
//! lists as deliberate.
//!
//! A page differs when a single word does, or a single block; there is no
//! other tolerance. Foster parenting (a table's stray text moved before the
//! table) is undone by the browser's reading, which reads such text where
//! the markup has it, as the walker does: a deliberate difference that the
//! reading applies (`foster_parenting_is_read_where_the_markup_has_it`).

#[path = "support/browser_text.rs"]
mod browser_text;
mod common;

use browser_text::{
    BlockDiff, Diff, Reading, browser_blocks_as_built, browser_reading, compare_blocks, diff,
    diff_blocks, diff_words, our_blocks, words_of,
};

fn same(page: &str) {
    let d = diff(page);
    assert!(
        d.count() == 0,
        "{page:?}: the walker misses {:?} and adds {:?}",
        d.missing,
        d.extra
    );
    let b = diff_blocks(page);
    assert!(
        b.first.is_none(),
        "{page:?}: the blocks part at block {:?}: the browser's {:?}, the walker's {:?}",
        b.first,
        b.browser_from,
        b.ours_from
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

#[test]
fn end_tags_read_as_in_a_browser() {
    // Issue 70: the walker cut blocks where a browser does not.
    for page in [
        // An end tag that would cross a special element is ignored.
        "<span><div>a</span>b</div>",
        "<x-card><p>a</x-card>b</p>c",
        "<label><li>a</label>b</li>",
        "<span><h2>a</span>b</h2>c",
        "<p><span>a<b>b</span>c</p>",
        "<div><span>a<i>b</span></div>c",
        // Block end tags close in their scope.
        "<div>x<table><tr><td>a</div>b</td></tr></table>c</div>d",
        "<ul><li>a<ol><li>b</li></li>c</ol>d</li></ul>",
        "<p>a<button>b</p>c</button>d</p>e",
        "<div><p>a<object>b</p>c</div>d</object>e</p>f</div>g",
        // A table's parts outside a table are ignored.
        "<p>a<td>b</td>c</p>",
        "<div>a<tbody><tr>b</tr></tbody>c</div>",
        "<caption>a</caption>b<th>c",
        "<table><caption>a</caption><tr><th>b<td>c</table>",
        // A formatting element's end tag moves special elements out.
        "<b><div>a</b>b</div>c",
        "<a href=x><h3>a<span>b</a>c</h3>d",
        "<em><div><p><i>a</em>b</p>c</div>d",
        "<b><div><div><div><div><div><div><div><div><i>a</b>b</i>c",
        // `</body>` and `</html>` close nothing.
        "<div>a</body>b</div>c",
        "<p>a</html>b",
        // `</form>` takes its form off the stack, and nothing else.
        "<form><span>a</form>b</span>c",
        "<form><div>a</form>b</div>c</form>d",
        "<div><form>a</div><form>b</form>c",
        "<form><p>a</form>b",
        "<p>a<form>b</form>c",
        "<x><form><span>a</form>b</x>c",
        // An item closes the item before it up to a special element.
        "<ul><li>a<section>b<li>c</section>d</ul>",
        "<ul><li>a<div>b<li>c</div>d</ul>",
        "<dl><dt>a<span>b<dd>c</dl>",
        // A `select` inside a select closes it; an `input` too (a fuzz
        // round's find: the text after the second `select` is shown).
        "<select><h1> one  one <select> five </html></button>",
        "<p>a<select><option>b<select>c</select>d",
        "<select><option>a<input>b</select>c",
        "<select><table><select>a</table>b",
        // A row or cell closes the open cell in table scope, which only a
        // `template` ends: across an `svg`'s `foreignObject` too.
        "<table><tr><td><svg><foreignObject><tr><td>x",
        "<table><tr><td>a<svg><foreignObject><td>b</table>c",
        // A `noscript`'s content is a fragment of its own.
        "<div>a<noscript></div>b</noscript>c</div>d",
        "<h1>a<noscript><h2>b</h2></noscript>c</h1>d",
        "<table><tr><td>a<noscript><td>b</noscript>c</table>",
    ] {
        same(page);
    }
}

#[test]
fn foster_parenting_is_read_where_the_markup_has_it() {
    // A deliberate difference (ARCHITECTURE.md): text in a row, outside a
    // cell, is moved before the table by the tree builder; the walker reads
    // it where it stands.
    let page = "<table><tr><td>cell</td>stray</tr><tr><td>next</td></tr></table>";
    assert_eq!(browser_blocks_as_built(page), ["stray", "cell", "next"]);
    assert_eq!(our_blocks(page), ["cell", "stray", "next"]);
    // The reference reading undoes the move, and compares the rest.
    let reading = browser_reading(page);
    assert_eq!(reading.fostered, 1);
    assert_eq!(reading.blocks, our_blocks(page));
    // An element too, with what it holds.
    let page = "<p>before</p><table><div>in a div</div><tr><td>cell</table>";
    assert_eq!(
        browser_blocks_as_built(page),
        ["before", "in a div", "cell"]
    );
    assert_eq!(our_blocks(page), ["before", "in a div", "cell"]);
    let page = "<table><tr><td>a</td></tr><b>bold</b><tr><td>b</td></tr></table>";
    assert_eq!(browser_blocks_as_built(page), ["bold", "a", "b"]);
    assert_eq!(our_blocks(page), ["a", "bold", "b"]);
    same(page);
    // Inside a `noscript`, whose content is parsed apart, too (a fuzz
    // round's find: the move went uncounted, and the reading unchanged).
    let page = "<noscript><section>six <table><math/> one </table></section></noscript>";
    let reading = browser_reading(page);
    assert_eq!(reading.fostered, 2);
    assert_eq!(browser_blocks_as_built(page), ["six one"]);
    assert_eq!(our_blocks(page), ["six", "one"]);
    assert_eq!(reading.blocks, our_blocks(page));
}

#[test]
fn the_adoption_agencys_reparenting_is_the_trees_alone() {
    // A deliberate difference (ARCHITECTURE.md): the agency takes the
    // `legend` between the `b` and the `div` off the stack, so `</legend>`
    // later closes nothing in a browser; the walker's stack keeps it open
    // until then, and `c` ends with it.
    let page = "<b><legend><div>a</b>b</div>c</legend>d";
    let reading = browser_reading(page);
    assert_eq!(reading.adopted_beyond, 1);
    assert_eq!(reading.blocks, ["ab", "cd"]);
    assert_eq!(our_blocks(page), ["ab", "c", "d"]);
    // With the special element right inside the formatting element the
    // walker's stack does what the agency does.
    let page = "<b><div>a</b>b</div>c";
    assert_eq!(browser_reading(page).adopted_beyond, 0);
    same(page);
}

/// The shared pages whose words or blocks differ, and why (ARCHITECTURE.md,
/// "HTML as browsers read it").
const DELIBERATE: &[(&str, &str)] = &[(
    "daniel/train/20120117_tech.sina.com.cn_4b3e1627f928b5f9e1a076dfd6aa6b2fb9ea85bab63eee5ce5220847.html.gz",
    "a repeated attribute (style=… style=\"display:none\"): the walker reads every \
     copy, the tree keeps the first; one block of the walker lacks a hidden word",
)];

#[test]
#[cfg_attr(
    not(feature = "shared-data"),
    ignore = "needs ../shared/data, Python, Java or Chromium: scripts/test runs it"
)]
fn every_shared_page_reads_as_in_a_browser() {
    let data = common::shared_dir().join("data");
    let (mut pages, mut fostered, mut adopted) = (0, 0, 0);
    let mut differ: Vec<(String, Diff, BlockDiff, Reading)> = Vec::new();
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
            let reading = browser_reading(&doc.text);
            let ours = our_blocks(&doc.text);
            let d = diff_words(&words_of(&reading.blocks), &words_of(&ours));
            let b = compare_blocks(&reading.blocks, &ours);
            pages += 1;
            fostered += usize::from(reading.fostered > 0);
            adopted += usize::from(reading.adopted_beyond > 0);
            if d.count() > 0 || b.first.is_some() {
                let name = path.strip_prefix(&data).expect("under data").display();
                differ.push((name.to_string(), d, b, reading));
            }
        }
    }
    assert!(
        pages >= 4046,
        "only {pages} pages read: is the shared data complete?"
    );
    eprintln!(
        "{pages} pages ({fostered} with foster parenting undone, {adopted} with the \
         adoption agency's reparenting beyond the walker's), {} whose words or blocks \
         differ from a browser's:",
        differ.len()
    );
    for (name, d, b, r) in &differ {
        eprintln!(
            "  {name}: {} of {} words; {}; blocks part at {:?} of {} (walker {}): \
             browser {:?}, walker {:?}; fostered {}, adopted beyond the walker {}",
            d.count(),
            d.words,
            sample(d),
            b.first,
            b.blocks,
            b.ours,
            b.browser_from,
            b.ours_from,
            r.fostered,
            r.adopted_beyond,
        );
    }
    let unexplained: Vec<&str> = differ
        .iter()
        .map(|p| p.0.as_str())
        .filter(|name| !DELIBERATE.iter().any(|(n, _)| n == name))
        .collect();
    assert!(
        unexplained.is_empty(),
        "pages whose words or blocks differ from a browser's, not listed as deliberate: \
         {unexplained:?}"
    );
    let stale: Vec<&str> = DELIBERATE
        .iter()
        .map(|(n, _)| *n)
        .filter(|n| !differ.iter().any(|p| p.0 == *n))
        .collect();
    assert!(
        stale.is_empty(),
        "pages listed as deliberate that read as in a browser now: {stale:?}"
    );
}

fn sample(d: &Diff) -> String {
    let take = |v: &[String]| v.iter().take(8).cloned().collect::<Vec<_>>().join(" ");
    format!("missing [{}], extra [{}]", take(&d.missing), take(&d.extra))
}
