//! End tags as browsers read them (the module documentation's rules),
//! through the whole pass: where blocks end.

use crate::html::parse;

/// The text of every block, in order.
fn blocks(html: &str) -> Vec<String> {
    parse(html).blocks.into_iter().map(|b| b.text).collect()
}

#[test]
fn an_end_tag_does_not_cross_a_special_element() {
    // Issue 70: `</span>` over an open `<div>` popped the `div`, and `b`
    // was a block of its own; a browser ignores the end tag.
    assert_eq!(blocks("<span><div>a</span>b</div>"), ["ab"]);
    assert_eq!(blocks("<x-card><p>a</x-card>b</p>c"), ["ab", "c"]);
    assert_eq!(blocks("<label><li>a</label>b</li>"), ["ab"]);
    assert_eq!(blocks("<span><h2>a</span>b</h2>c"), ["ab", "c"]);
    // With no special element between, it closes what is open above its
    // element, as ever.
    assert_eq!(blocks("<p><span>a<b>b</span>c</p>"), ["abc"]);
    assert_eq!(blocks("<div><span>a<i>b</span></div>c"), ["ab", "c"]);
}

#[test]
fn block_end_tags_close_only_in_their_scope() {
    // A table ends the scope of the `div` outside it: `</div>` in the
    // cell closes nothing.
    assert_eq!(
        blocks("<div>x<table><tr><td>a</div>b</td></tr></table>c</div>d"),
        ["x", "ab", "c", "d"]
    );
    // `</li>` stops at a list inside the item, `</p>` at a button.
    assert_eq!(
        blocks("<ul><li>a<ol><li>b</li></li>c</ol>d</li></ul>"),
        ["a", "b", "c", "d"]
    );
    // (A `button` is inline: `c` and `d` are one block.)
    assert_eq!(
        blocks("<p>a<button>b</p>c</button>d</p>e"),
        ["ab", "cd", "e"]
    );
    // An `object` ends the scope of the paragraph and `div` outside it.
    assert_eq!(
        blocks("<div><p>a<object>b</p>c</div>d</object>e</p>f</div>g"),
        ["ab", "cde", "f", "g"]
    );
}

#[test]
fn table_parts_outside_a_table_are_ignored() {
    // Issue 70: the walker pushed them, and cut blocks where a browser
    // has none.
    assert_eq!(blocks("<p>a<td>b</td>c</p>"), ["abc"]);
    assert_eq!(blocks("<div>a<tbody><tr>b</tr></tbody>c</div>"), ["abc"]);
    assert_eq!(blocks("<caption>a</caption>b<th>c"), ["abc"]);
    // Inside a table they are its parts, as ever.
    assert_eq!(
        blocks("<table><caption>a</caption><tr><th>b<td>c</table>"),
        ["a", "b", "c"]
    );
}

#[test]
fn a_formatting_end_tag_moves_special_elements_out() {
    // The adoption agency: the `div` leaves the `b` and stays open.
    assert_eq!(blocks("<b><div>a</b>b</div>c"), ["ab", "c"]);
    assert_eq!(blocks("<a href=x><h3>a<span>b</a>c</h3>d"), ["abc", "d"]);
    // What is above the innermost special element closes.
    assert_eq!(
        blocks("<em><div><p><i>a</em>b</p>c</div>d"),
        ["ab", "c", "d"]
    );
    // Eight special elements or more: the agency's eight rounds end before
    // it closes anything.
    let html = format!("<b>{}<i>a</b>b</i>c", "<div>".repeat(8));
    assert_eq!(blocks(&html), ["abc"]);
}

#[test]
fn body_and_html_end_tags_close_nothing() {
    assert_eq!(blocks("<div>a</body>b</div>c"), ["ab", "c"]);
    assert_eq!(blocks("<p>a</html>b"), ["ab"]);
}

#[test]
fn hostile_end_tags_stay_linear() {
    // Every `</x>` meets the `div` at once: no walk down the spans.
    let n = 100_000;
    let html = format!(
        "<x><div>{}deep{}</div></x>after",
        "<span>".repeat(n),
        "</x>".repeat(n)
    );
    assert_eq!(blocks(&html), ["deep", "after"]);
    // Nor down the divs for a formatting element's end tag.
    let html = format!("<b>{}deep{}", "<div>".repeat(n), "</b>".repeat(n));
    assert_eq!(blocks(&html), ["deep"]);
}

#[test]
fn a_form_end_tag_leaves_what_is_open_inside_the_form() {
    // The form leaves the stack; the `span` stays open in it, and the
    // form's content ends with the `span`.
    assert_eq!(blocks("<form><span>a</form>b</span>c"), ["ab", "c"]);
    assert_eq!(blocks("<form><div>a</form>b</div>c</form>d"), ["ab", "cd"]);
    // While the form element pointer is set, `<form>` is ignored, also
    // after another end tag closed the form.
    assert_eq!(blocks("<div><form>a</div><form>b</form>c"), ["a", "bc"]);
    // A `</form>` that finds its form open on top closes it, also when
    // the form's start tag closed a paragraph first.
    assert_eq!(blocks("<form><p>a</form>b"), ["a", "b"]);
    assert_eq!(blocks("<p>a<form>b</form>c"), ["a", "b", "c"]);
}

#[test]
fn noscript_content_closes_nothing_outside_it() {
    // Read as a fragment of its own: `</div>` there does not close the
    // `div` the `noscript` stands in.
    assert_eq!(
        blocks("<div>a<noscript></div>b</noscript>c</div>d"),
        ["abc", "d"]
    );
    assert_eq!(
        blocks("<h1>a<noscript><h2>b</h2></noscript>c</h1>d"),
        ["a", "b", "c", "d"]
    );
}

#[test]
fn an_item_closes_the_item_before_it_up_to_a_special_element() {
    // `<li>` inside a `section` of an item nests: the `section` is a
    // special element.
    assert_eq!(
        blocks("<ul><li>a<section>b<li>c</section>d</ul>"),
        ["a", "b", "c", "d"]
    );
    // Through a `div` it closes the item, as ever.
    assert_eq!(blocks("<ul><li>a<div>b<li>c</div>d</ul>"), ["a", "b", "cd"]);
    assert_eq!(blocks("<dl><dt>a<span>b<dd>c</dl>"), ["ab", "c"]);
}
