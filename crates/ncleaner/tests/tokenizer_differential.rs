//! The pass's tokenizer against html5gum 0.9, the tokenizer it replaced:
//! the same tokens on hand-made markup that reaches every state, and
//! (feature `shared-data`) on every shared page. Where the two differ by
//! design (`ncleaner::html::tokenizer`'s module documentation), html5gum is
//! driven with the same rule (`support/tokens.rs`).

mod common;
#[path = "support/tokens.rs"]
mod tokens;

fn same(html: &str) {
    let (ours, gum) = (tokens::ours(html), tokens::gum(html));
    if ours != gum {
        let at = ours
            .iter()
            .zip(&gum)
            .position(|(a, b)| a != b)
            .unwrap_or(ours.len().min(gum.len()));
        panic!(
            "{html:?}: the tokens differ at #{at}:\n ours {:?}\n gum  {:?}",
            &ours[at.saturating_sub(2)..(at + 3).min(ours.len())],
            &gum[at.saturating_sub(2)..(at + 3).min(gum.len())]
        );
    }
}

#[test]
fn hand_made_markup_gives_the_same_tokens() {
    for html in [
        "",
        "plain text",
        "<p>a <b>bold</b> &amp; &AMP &notit; &notin; &#65;&#x42;&#X43 &#; &#x; &copy2 c</p>",
        "<P CLASS=Big Id='x' data-X=\"1&amp;2\" hidden>t</P>",
        "<a href=?a=1&copy=2&amp;b&ampx&gt title=\"&quot;q&quot;\">x</a>",
        "<div class=a class=b CLASS=c id=d>x</div>",
        "<br/><img src=x.png alt=\"an image\"/><input disabled>",
        "<a/b/c =d e = f g= 'h'i>x</a>",
        "<a ==x><a \"q\"=v '=w <x=y>z",
        "a</>b<//x>c</ >d</3>e<?php echo 1 ?>f",
        "a<!---->b<!-->c<!--->d<!-- x -- y --!>e<!--<!-- x -->f<!--- -->g<!---!>h-->i",
        "<!DOCTYPE html PUBLIC \"-//W3C//DTD > \"><!doctype html><![CDATA[x]]>y<!x>z",
        "<title>a &amp; <b>b</b></TITLE x=\">\" >c</title>d",
        "<textarea>a</textareax></textarea >b",
        "<style>p>a{x:'</style'}</STYLE>c",
        "<script>if (a<b && c>d) x='</scr'+'ipt>';</script>e",
        "<script><!-- document.write('<script>x</script>'); --></script>f",
        "<script><!--<script>x</script>y--></script>g",
        "<script><!-- a --- b -></script>h",
        "<script><!--<script>--></script>i",
        "<script><!--<SCRIPT >-x</script -->y</script>j",
        "<script>a<!-x</script>k",
        "<noscript><p>hi</p></noscript><iframe><b>x</b></iframe><noframes><p>y</p></noframes>",
        "<xmp><b>x</b></xmp><noembed>q</noembed><plaintext><b>all text</b></plaintext>",
        "line\r\nbreaks\rhere\n\r<pre>\r\n x</pre><a title='a\r\nb'>c</a>",
        "nul\0here<a\0b c\0d=\"e\0f\">g</a\0b><title>t\0</title><script>s\0</script>",
        "<div\tclass=x\x0cid=y\r\n>z</div>",
        "<a href=\"unclosed",
        "<div class=x",
        "<div",
        "text<",
        "text</",
        "text</div",
        "<!-- unclosed comment",
        "<script>unclosed script",
        "<script><!--<script>unclosed",
        "<title>unclosed title &amp;",
        "<p>&#128;&#x9F;&#0;&#xD800;&#1114112;&#x0d;&#9;</p>",
        "<p>&CounterClockwiseContourIntegral;&NotEqualTilde;&acE;&bne;</p>",
    ] {
        same(html);
    }
}

/// Long runs of each state: html5gum's states call each other, and past a
/// few thousand attributes its stack overflows, so it sees runs of 500;
/// the pass's tokenizer sees them too, and runs of a million, whose tokens
/// are checked by their shape.
fn runs(n: usize) -> Vec<(String, usize)> {
    vec![
        (format!("<div {}>x</div>", "a=\"b\" ".repeat(n)), 3),
        (format!("<div {}>x</div>", "c=d ".repeat(n)), 3),
        (format!("<div {}>x</div>", "e ".repeat(n)), 3),
        (
            format!(
                "<div {}>x</div>",
                (0..n).map(|i| format!("a{i}='v' ")).collect::<String>()
            ),
            3,
        ),
        (format!("<div class=\"{}\">x</div>", "w ".repeat(n)), 3),
        (format!("{}x", "<div>".repeat(n)), n + 1),
        (format!("{}x", "</div>".repeat(n)), n + 1),
        (format!("<!--{}-->x", "- ".repeat(n)), 1),
        (format!("<script>{}</script>x", "<!--<script>".repeat(n)), 2),
        (format!("<p>{}</p>", "&amp;&#65;&notit;".repeat(n)), 3),
        ("<".repeat(n), 1),
        ("</>".repeat(n) + "x", 1),
    ]
}

#[test]
fn long_runs_of_each_state_give_the_same_tokens() {
    for (html, _) in runs(500) {
        same(&html);
    }
    for (html, count) in runs(1_000_000) {
        let tokens = tokens::ours(&html);
        assert_eq!(tokens.len(), count, "{}…", &html[..40]);
    }
    let attrs = |html: &str| match &tokens::ours(html)[0] {
        tokens::Token::Start(_, a, _) => a.len(),
        t => panic!("{t:?}"),
    };
    // A start tag hands on at most MAX_ATTRIBUTES (issue 70, P5).
    let most = ncleaner::html::tokenizer::MAX_ATTRIBUTES;
    assert_eq!(attrs(&runs(1_000_000)[0].0), most);
    assert_eq!(attrs(&runs(100_000)[3].0), most);
}

#[test]
#[cfg_attr(
    not(feature = "shared-data"),
    ignore = "needs ../shared/data, Python, Java or Chromium: scripts/test runs it"
)]
fn every_shared_page_gives_the_same_tokens() {
    let data = common::shared_dir().join("data");
    let mut pages = 0;
    let mut bytes = 0;
    for set in [
        "cleaneval",
        "cleanportaleval",
        "dragnet",
        "googlenews",
        "wcxb/dev",
    ] {
        for entry in common::pages(&data.join(set)) {
            let Some(raw) = common::read_page(&entry) else {
                continue;
            };
            let doc = ncleaner::decode::decode(&raw, None, None);
            same(&doc.text);
            pages += 1;
            bytes += doc.text.len();
        }
    }
    assert!(
        pages >= 2996,
        "only {pages} pages read: is the shared data complete?"
    );
    eprintln!("{pages} pages, {bytes} bytes: the same tokens");
}
