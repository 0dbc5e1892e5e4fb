//! Foreign content as browsers read it (the module documentation's rules),
//! through the whole pass.

use crate::html::tokenizer::{StartTag, Text, TokenSink, Tokenizer};
use crate::html::{Context, parse};

/// The text of the blocks a reader is shown (not flagged hidden).
fn shown(html: &str) -> Vec<String> {
    parse(html)
        .blocks
        .into_iter()
        .filter(|b| !b.context.has(Context::HIDDEN))
        .map(|b| b.text)
        .collect()
}

#[test]
fn a_self_closing_svg_title_does_not_swallow_the_page() {
    // Issue 52: `<title/>` switched the tokenizer to RCDATA and the second
    // paragraph disappeared into a title.
    let html = "<html><head><title>Two paragraphs</title></head><body>\
                <p>The first paragraph.</p>\
                <svg viewBox=\"0 0 1 1\"><title/><path d=\"M0 0\"/></svg>\
                <p>The second paragraph.</p></body></html>";
    assert_eq!(
        shown(html),
        ["The first paragraph.", "The second paragraph."]
    );
    let math = "<p>One.</p><math><title/><mi>x</mi></math><p>Two.</p>";
    assert_eq!(shown(math), ["One.", "Two."]);
}

#[test]
fn svg_raw_text_names_hold_markup() {
    // An unclosed SVG `style` (or `textarea`, `script`, `xmp`) is an
    // element whose content is markup: `</svg>` ends it.
    for name in ["style", "textarea", "script", "xmp", "iframe", "noscript"] {
        let html = format!("<p>Before.</p><svg><{name}>.a{{fill:red}}</svg><p>After.</p>");
        assert_eq!(shown(&html), ["Before.", "After."], "{name}");
    }
    // Its text stays hidden, as everything in an `svg`.
    assert_eq!(
        shown("<p>A <svg><style>p{}</style><text>label</text></svg>b.</p>"),
        ["A b."]
    );
}

#[test]
fn cdata_is_text_in_foreign_content_and_a_comment_outside() {
    // In SVG a CDATA section runs to `]]>`, whatever it holds.
    let html = "<p>Before.</p><svg><text><![CDATA[ x > y <title> ]]></text></svg><p>After.</p>";
    assert_eq!(shown(html), ["Before.", "After."]);
    let script = "<svg><script><![CDATA[ if (a < b) document.write('<p>no</p>'); ]]></script>\
                  </svg><p>After.</p>";
    assert_eq!(shown(script), ["After."]);
    // In HTML it is a bogus comment, to the first `>`.
    assert_eq!(shown("<p>a<![CDATA[b]]>c</p>"), ["ac"]);
    assert_eq!(shown("<p>a<![CDATA[b>c]]>d</p>"), ["ac]]>d"]);
}

#[test]
fn cdata_sections_are_tokenized_where_the_sink_says() {
    struct Sink(Vec<String>, bool);
    impl TokenSink for Sink {
        fn start_tag(&mut self, tag: &StartTag<'_>) {
            self.0
                .push(format!("<{}>", String::from_utf8_lossy(tag.name)));
        }
        fn end_tag(&mut self, name: &[u8]) {
            self.0.push(format!("</{}>", String::from_utf8_lossy(name)));
        }
        fn text(&mut self, text: Text<'_>) {
            self.0.push(text.decoded(&mut String::new()).to_string());
        }
        fn in_foreign_content(&self) -> bool {
            self.1
        }
    }
    let run = |html: &str, foreign: bool| {
        let mut sink = Sink(Vec::new(), foreign);
        Tokenizer::default().run(html, &mut sink);
        sink.0
    };
    let html = "a<![CDATA[<b>&amp;\r\n]]]>c<![CDATA[unclosed";
    assert_eq!(run(html, true), ["a", "<b>&amp;\n]", "c", "unclosed"]);
    assert_eq!(run(html, false), ["a", "&\n]]]>c"]);
    // Raw text where the sink is in HTML, markup where it is foreign.
    assert_eq!(
        run("<title><b>x</b></title>", false),
        ["<title>", "<b>x</b>", "</title>"]
    );
    assert_eq!(
        run("<title><b>x</b></title>", true),
        ["<title>", "<b>", "x", "</b>", "</title>"]
    );
}

#[test]
fn math_is_hidden_and_ends_where_it_ends() {
    assert_eq!(
        shown("<p>Let <math><mi>x</mi><mo>=</mo><mn>2</mn></math> be even.</p>"),
        ["Let be even."]
    );
    // `mi` is a text integration point: an HTML `textarea` there is RCDATA.
    assert_eq!(
        shown("<math><mi><textarea></math><p>no</p></textarea></mi></math><p>After.</p>"),
        ["After."]
    );
    // `mglyph` inside `mi` stays MathML.
    assert_eq!(
        shown("<math><mi><mglyph><title/></mglyph></mi></math><p>After.</p>"),
        ["After."]
    );
}

#[test]
fn html_breaks_out_of_foreign_content() {
    // An unclosed `svg` ends where a `p`, `div`, `b`, … starts, as in browsers.
    assert_eq!(
        shown("<div><svg><g><path d=x><p>Breaks out.</p><p>And on.</p></div>"),
        ["Breaks out.", "And on."]
    );
    assert_eq!(shown("<p>a<math><mrow><b>bold</b> c</p>"), ["abold c"]);
    // `font` breaks out with `color`, `face` or `size` only.
    assert_eq!(shown("<svg><font color=red>Red.</font>"), ["Red."]);
    assert!(shown("<svg><font>In svg.</font></svg>").is_empty());
    // `</p>` and `</br>` break out too.
    assert_eq!(shown("<p>a<svg><g></p>b"), ["a", "b"]);
    assert_eq!(shown("<p>a<svg><g></br>b"), ["a b"]);
    // Other tags named as HTML's stay SVG's.
    assert!(shown("<svg><a href=/x><text>Link</text></a><td>cell</td></svg>").is_empty());
}

#[test]
fn integration_points_read_html() {
    // Inside `foreignObject`, `desc`, `title` and HTML `annotation-xml`,
    // start tags are HTML: a `p` stays inside (hidden with its `svg`)...
    for html in [
        "<svg><foreignObject><p>in</p></foreignObject></svg><p>After.</p>",
        "<svg><desc><p>in</p></desc></svg><p>After.</p>",
        "<svg><title><div>in</div></title></svg><p>After.</p>",
        "<math><annotation-xml encoding=\"Text/HTML\"><div>in</div></annotation-xml></math><p>After.</p>",
        "<math><annotation-xml encoding=application/xhtml+xml><p>in</p></annotation-xml></math><p>After.</p>",
    ] {
        assert_eq!(shown(html), ["After."], "{html}");
    }
    // ... and a `title` or `style` there is raw text, as in HTML.
    assert_eq!(
        shown(
            "<svg><foreignObject><style></svg><p>no</p></style></foreignObject></svg><p>After.</p>"
        ),
        ["After."]
    );
    // Other `annotation-xml` is MathML: a `div` breaks out of it.
    assert_eq!(
        shown("<math><annotation-xml encoding=x-tex><div>out</div>"),
        ["out"]
    );
    // An `svg` inside `annotation-xml` is SVG, whose `title` is not raw text.
    assert_eq!(
        shown("<math><annotation-xml><svg><title/></svg></annotation-xml></math><p>After.</p>"),
        ["After."]
    );
    // An HTML end tag inside an integration point closes only what is
    // open inside it, and `</svg>` is not HTML's: as in a browser, the
    // rest of the page is inside the picture.
    assert_eq!(
        shown("<div><svg><foreignObject><span></div>x</span></foreignObject></svg>y</div>"),
        ["y"]
    );
    assert!(shown("<svg><foreignObject><div>in</svg><p>After.</p>").is_empty());
    // A `p` inside a `foreignObject` does not close the `p` outside (a
    // block starts and ends there all the same, hidden as it is).
    assert_eq!(
        shown("<p>a<svg><foreignObject><p>in</p></foreignObject></svg>b</p>"),
        ["a", "b"]
    );
}

#[test]
fn self_closing_foreign_elements_close() {
    assert_eq!(shown("<p>a <svg/> b</p><p>c</p>"), ["a b", "c"]);
    assert_eq!(shown("<p>a <math/> b</p>"), ["a b"]);
    assert_eq!(
        shown("<svg><g/><path/><svg/></svg><p>After.</p>"),
        ["After."]
    );
    // In HTML `/>` is ignored: the `div` holds the text.
    let page = parse("<div hidden/><p>x</p></div><p>y</p>");
    let hidden: Vec<bool> = page
        .blocks
        .iter()
        .map(|b| b.context.has(Context::HIDDEN))
        .collect();
    assert_eq!(hidden, [true, false]);
}

#[test]
fn foreign_end_tags_close_by_name() {
    // Nested `svg`, and an end tag of an element that is not open.
    assert_eq!(
        shown("<svg><svg><g></svg></x></svg><p>After.</p>"),
        ["After."]
    );
    assert_eq!(shown("<svg><g><path></g></svg>After."), ["After."]);
    // Upper-case names, as SVG writes them, close their element.
    assert_eq!(
        shown("<svg><foreignObject><p>in</p></foreignObject><title/></svg><p>After.</p>"),
        ["After."]
    );
}

#[test]
fn an_unknown_end_tag_stops_at_a_special_element() {
    // Issue 52, a fuzz round of `browser_text`: `</g>` is the tree
    // builder's "any other end tag"; walking down it meets the `h1`, a
    // special element, and is ignored, so the `svg` and its text stay.
    assert_eq!(
        shown("<g><h1><x><svg><text>a</g>b</svg></h1><p>c</p>"),
        ["c"]
    );
    assert_eq!(
        shown("<g><span><svg><text>a</g>b</svg><p>c</p>"),
        ["b", "c"]
    );
    // A formatting element's end tag runs the adoption agency, which moves
    // the `h1` out of the `em` and pops what is above it: the `svg`.
    assert_eq!(shown("<em><h1><svg><text>a</em>b</h1><p>c</p>"), ["b", "c"]);
    assert_eq!(
        shown("<b><h1><div><svg><text>a</b>b</h1><p>c</p>"),
        ["b", "c"]
    );
    // A stray `caption` (the tree builder ignores it outside a table) is no
    // barrier.
    assert_eq!(shown("<g><caption><x><svg><text>a</g>b"), ["b"]);
    // Without a special element between, it pops to its element.
    assert_eq!(shown("<p><em><svg><text>a</em>b</p>"), ["b"]);
}

#[test]
fn deep_foreign_nesting_is_linear() {
    let n = 100_000;
    let html = format!(
        "<svg>{}{}</svg><p>After.</p><svg><title><div><svg>{}{}",
        "<g>".repeat(n),
        "</x>".repeat(n),
        "<g>".repeat(n),
        "</title>".repeat(n)
    );
    assert_eq!(shown(&html), ["After."]);
}

#[test]
fn the_page_title_is_the_first_html_title() {
    let title = |html: &str| {
        let page = parse(html);
        (page.metadata.title, page.meta.title)
    };
    let want = |t: &str| (Some(t.to_string()), t.to_string());
    let bread = "<title>How to Bake Bread at Home</title>";
    let menu = "<svg><title>Menu</title><path d=x/></svg>";
    // Issue 52: "How to Bake Bread at HomeMenu".
    assert_eq!(
        title(&format!(
            "<html><head>{bread}</head><body>{menu}<p>Knead.</p>"
        )),
        want("How to Bake Bread at Home")
    );
    assert_eq!(
        title(&format!("<html><body>{menu}{bread}<p>Knead.</p>")),
        want("How to Bake Bread at Home")
    );
    assert_eq!(
        title(&format!(
            "<html><head>{bread}<title>Second title</title></head><p>Knead.</p>"
        )),
        want("How to Bake Bread at Home")
    );
    // An HTML `title` inside an integration point is an HTML title.
    assert_eq!(
        title("<svg><foreignObject><title>In HTML</title></foreignObject></svg>"),
        want("In HTML")
    );
}
