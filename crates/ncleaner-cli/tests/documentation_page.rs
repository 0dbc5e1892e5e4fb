//! A documentation page as Sphinx writes one (Flask's quickstart, cut
//! down): its code keeps its lines and indentation in every output of kept
//! text, and its headings and title lose the permalink marks (`¶`) that
//! Sphinx puts after each heading. The segments (`--segments`, CleanEval)
//! stay as read.

mod common;

use common::*;

const PAGE: &str = r##"<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>Quickstart &#8212; Flask Documentation (3.1.x)</title></head>
<body>
<div class="related" role="navigation"><h3>Navigation</h3><ul>
<li><a href="../genindex/" title="General Index">index</a></li>
<li><a href="../py-modindex/" title="Python Module Index">modules</a> |</li>
<li><a href="../tutorial/" title="Tutorial">next</a> |</li>
<li><a href="../installation/" title="Installation">previous</a> |</li>
</ul></div>
<div class="document"><div class="documentwrapper"><div class="body" role="main">
<section id="quickstart">
<h1>Quickstart<a class="headerlink" href="#quickstart" title="Link to this heading">¶</a></h1>
<p>Eager to get started? This page gives a good introduction to Flask. Follow
Installation to set up a project and install Flask first, then come back here
and write your first application in a few lines of Python.</p>
<section id="a-minimal-application">
<h2>A Minimal Application<a class="headerlink" href="#a-minimal-application" title="Link to this heading">¶</a></h2>
<p>A minimal Flask application looks something like this, and it is all you need
to answer your first request with a greeting from your own computer:</p>
<div class="highlight-python notranslate"><div class="highlight"><pre><span></span><span class="kn">from</span> <span class="nn">flask</span> <span class="kn">import</span> <span class="n">Flask</span>

<span class="n">app</span> <span class="o">=</span> <span class="n">Flask</span><span class="p">(</span><span class="vm">__name__</span><span class="p">)</span>

<span class="nd">@app</span><span class="o">.</span><span class="n">route</span><span class="p">(</span><span class="s2">&quot;/&quot;</span><span class="p">)</span>
<span class="k">def</span> <span class="nf">hello_world</span><span class="p">():</span>
    <span class="k">return</span> <span class="s2">&quot;&lt;p&gt;Hello, World!&lt;/p&gt;&quot;</span>
</pre></div></div>
<p>So what did that code do? First we imported the Flask class. An instance of
this class will be our application, which the web server calls for every
request that it receives from a browser.</p>
<p>Next we create an instance of this class. The first argument is the name of
the application's module or package, so that Flask knows where to look for
resources such as templates and static files.</p>
<p>We then use the route decorator to tell Flask what address should trigger our
function, and the function returns the message we want to display in the
user's browser, which is rendered as HTML by default.</p>
</section></section>
</div></div></div>
<div class="footer" role="contentinfo">&#169; Copyright 2010 Pallets. Created using Sphinx 8.1.3.</div>
</body></html>
"##;

/// The code as the page shows it.
const CODE: &str = "@app.route(\"/\")\ndef hello_world():\n    return \"<p>Hello, World!</p>\"";

fn page() -> (tempfile::TempDir, String) {
    let dir = tempdir();
    let path = dir.path().join("quickstart.html");
    std::fs::write(&path, PAGE).unwrap();
    let p = path.display().to_string();
    (dir, p)
}

#[test]
fn code_keeps_its_lines_in_text_and_json_lines() {
    let (_dir, p) = page();
    let text = ok(&["clean", "-q", &p]);
    assert!(text.contains(&format!("\n{CODE}\n")), "{text}");
    assert!(text.contains("\nfrom flask import Flask\n"), "{text}");
    let jsonl = ok(&["clean", "-q", "--format", "jsonl", &p]);
    let record: serde_json::Value = serde_json::from_str(jsonl.trim()).unwrap();
    assert_eq!(record["text"].as_str().unwrap(), text.trim_end());
    // Markdown's fenced block has the same lines.
    let md = ok(&["clean", "-q", "--format", "markdown", &p]);
    assert!(md.contains(&format!("\n{CODE}\n```\n")), "{md}");
    // The segment, as the model read it: one line; so is CleanEval's.
    let segments = ok(&["clean", "-q", "--format", "jsonl", "--segments", &p]);
    let record: serde_json::Value = serde_json::from_str(segments.trim()).unwrap();
    let one_line = CODE.replace("\n    ", " ").replace('\n', " ");
    assert!(
        record["segments"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["text"] == one_line.as_str()),
        "{segments}"
    );
    let cleaneval = ok(&["clean", "-q", "--format", "cleaneval", &p]);
    assert!(
        cleaneval.contains(&format!("<p> {one_line}\n")),
        "{cleaneval}"
    );
}

/// Whether the model keeps the one-word `<h1>` is the classifier's call (the
/// models trained with DAnIEL's English news drop it on this cut-down page;
/// the metadata keeps the title): the marks are checked with every segment
/// kept (`--method keep-all`), and on what the default keeps.
#[test]
fn headings_and_the_title_carry_no_permalink_mark() {
    let (_dir, p) = page();
    let text = ok(&["clean", "-q", &p]);
    assert!(text.contains("\nA Minimal Application\n"), "{text}");
    assert!(!text.contains('¶'), "{text}");
    let all = ok(&["clean", "-q", "--method", "keep-all", &p]);
    assert!(all.contains("\nQuickstart\nEager to get started?"), "{all}");
    assert!(!all.contains('¶'), "{all}");
    for extra in [&[][..], &["--links"][..]] {
        let mut args = vec![
            "clean", "-q", "--method", "keep-all", "--format", "markdown",
        ];
        args.extend_from_slice(extra);
        args.push(&p);
        let md = ok(&args);
        assert!(md.contains("\n# Quickstart\n"), "{extra:?}: {md}");
        assert!(
            md.contains("\n## A Minimal Application\n"),
            "{extra:?}: {md}"
        );
        assert!(!md.contains('¶'), "{extra:?}: {md}");
    }
    let jsonl = ok(&["clean", "-q", "--format", "jsonl", "--segments", &p]);
    let record: serde_json::Value = serde_json::from_str(jsonl.trim()).unwrap();
    assert_eq!(record["metadata"]["title"], "Quickstart", "{jsonl}");
    assert!(!record["text"].as_str().unwrap().contains('¶'));
    // The segment as read keeps it: the model scored that text.
    let segments = record["segments"].as_array().unwrap();
    assert!(
        segments.iter().any(|s| s["text"] == "Quickstart¶"),
        "{jsonl}"
    );
}
