//! The map of ARCHITECTURE.md, enforced: which crate may use which, and in
//! which order the product library's modules (the pipeline's stages) may
//! use each other. It reads the sources and manifests of the workspace, so
//! it needs nothing but the checkout.
//!
//! A module's dependencies are the `crate::NAME` paths in its files (comment
//! lines and the trailing `#[cfg(test)] mod tests` block left out: a test may
//! reach for anything).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The stages of the product library, each allowed to use only those
/// before it (ARCHITECTURE.md, "Modules of the product").
const PRODUCT_ORDER: &[&str] = &[
    "error",
    "lexicon",
    "words",
    "decode",
    "html",
    "segment",
    "site",
    "lang",
    "lm",
    "perplexity",
    "classify",
    "cleaned",
    "quality",
    "model",
    "pipeline",
    "options",
    "format",
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for e in entries {
        let p = e.expect("a directory entry").path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The code of a file without comment lines and without its test module.
fn code(path: &Path) -> String {
    let src = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let src = match src.find("#[cfg(test)]\nmod tests") {
        Some(i) => &src[..i],
        None => &src[..],
    };
    src.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The top-level modules named after `crate::` in `code`, including those
/// inside `crate::{a, b::c}` groups.
fn crate_paths(code: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    for (i, _) in code.match_indices("crate::") {
        let rest = &code[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 1;
            let mut item = String::new();
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    _ => {}
                }
                if depth == 0 || (depth == 1 && c == ',') {
                    out.insert(ident(item.trim()));
                    item.clear();
                    if depth == 0 {
                        break;
                    }
                } else {
                    item.push(c);
                }
            }
        } else {
            out.insert(ident(rest));
        }
    }
    out
}

/// Module → the other modules of the same crate it uses.
fn module_graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let module_of = |p: &Path| -> String {
        let rel = p.strip_prefix(src).expect("under src");
        let first = rel.components().next().expect("a component");
        first
            .as_os_str()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_string()
    };
    let modules: BTreeSet<String> = files.iter().map(|p| module_of(p)).collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in &files {
        let m = module_of(f);
        if m == "lib" || m == "main" {
            continue;
        }
        let deps = graph.entry(m.clone()).or_default();
        for d in crate_paths(&code(f)) {
            if d != m && modules.contains(&d) {
                deps.insert(d);
            }
        }
    }
    graph
}

/// A cycle of the graph, if it has one (depth-first search).
fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        v: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(v.to_string(), 1);
        stack.push(v.to_string());
        for w in graph.get(v).into_iter().flatten() {
            match state.get(w.as_str()).copied().unwrap_or(0) {
                1 => {
                    let at = stack.iter().position(|s| s == w).expect("on the stack");
                    let mut cycle = stack[at..].to_vec();
                    cycle.push(w.clone());
                    return Some(cycle);
                }
                0 => {
                    if let Some(c) = visit(w, graph, state, stack) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        stack.pop();
        state.insert(v.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for v in graph.keys() {
        if state.get(v.as_str()).copied().unwrap_or(0) == 0
            && let Some(c) = visit(v, graph, &mut state, &mut Vec::new())
        {
            return Some(c);
        }
    }
    None
}

#[test]
fn the_product_modules_follow_the_pipeline_order() {
    let graph = module_graph(&workspace().join("crates/ncleaner/src"));
    let rank = |m: &str| PRODUCT_ORDER.iter().position(|x| *x == m);
    let mut wrong = Vec::new();
    for (m, deps) in &graph {
        let Some(rm) = rank(m) else {
            wrong.push(format!(
                "module `{m}` is not in the map (PRODUCT_ORDER, ARCHITECTURE.md)"
            ));
            continue;
        };
        for d in deps {
            match rank(d) {
                Some(rd) if rd < rm => {}
                _ => wrong.push(format!("`{m}` uses `{d}`, a later stage")),
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn no_crate_has_a_module_cycle() {
    for krate in [
        "ncleaner",
        "ncleaner-corpus",
        "ncleaner-lab",
        "ncleaner-cli",
    ] {
        let graph = module_graph(&workspace().join("crates").join(krate).join("src"));
        assert!(!graph.is_empty(), "{krate}: no modules found");
        if let Some(c) = find_cycle(&graph) {
            panic!("{krate}: module cycle {}", c.join(" -> "));
        }
    }
}

/// The `[dependencies]` table of a crate's manifest (names only).
fn dependencies(krate: &str) -> BTreeSet<String> {
    let path = workspace().join("crates").join(krate).join("Cargo.toml");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut deps = BTreeSet::new();
    let mut inside = false;
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            inside = line == "[dependencies]";
        } else if inside && !line.is_empty() && !line.starts_with('#') {
            let name = line.split(['=', '.', ' ']).next().expect("a name");
            deps.insert(name.to_string());
        }
    }
    deps
}

#[test]
fn crates_depend_one_way() {
    // What each crate must not depend on: the product knows neither the
    // corpus runner nor the lab nor any server or chart crate; the corpus
    // crate knows no lab; the lab no server.
    let forbidden: &[(&str, &[&str])] = &[
        (
            "ncleaner",
            &[
                "ncleaner-corpus",
                "ncleaner-lab",
                "ncleaner-serve",
                "plotters",
                "dejavu",
                "tokio",
                "axum",
                "reqwest",
            ],
        ),
        (
            "ncleaner-corpus",
            &[
                "ncleaner-lab",
                "ncleaner-serve",
                "plotters",
                "tokio",
                "axum",
            ],
        ),
        (
            "ncleaner-lab",
            &["ncleaner-serve", "tokio", "axum", "reqwest"],
        ),
        ("ncleaner-serve", &["ncleaner-lab", "plotters"]),
    ];
    for (krate, bad) in forbidden {
        let deps = dependencies(krate);
        assert!(
            deps.contains("serde"),
            "{krate}: the manifest was not read ({deps:?})"
        );
        for b in *bad {
            assert!(!deps.contains(*b), "{krate} must not depend on {b}");
        }
    }
    // The same in the sources: no path into a crate the manifest must not name.
    for (krate, bad) in [
        (
            "ncleaner",
            &["ncleaner_corpus", "ncleaner_lab", "ncleaner_serve"][..],
        ),
        ("ncleaner-corpus", &["ncleaner_lab", "ncleaner_serve"][..]),
    ] {
        let mut files = Vec::new();
        rust_files(
            &workspace().join("crates").join(krate).join("src"),
            &mut files,
        );
        for f in files {
            let c = code(&f);
            for b in bad {
                assert!(!c.contains(b), "{} names {b}", f.display());
            }
        }
    }
}

#[test]
fn the_cli_stays_thin() {
    // The binary parses and prints: its sources stay under 1,200 lines (the
    // lab's commands live in `ncleaner-lab::cli`), and the lab and the
    // server are optional, so `--no-default-features` builds the product's
    // commands alone.
    let mut files = Vec::new();
    rust_files(&workspace().join("crates/ncleaner-cli/src"), &mut files);
    let lines: usize = files
        .iter()
        .map(|f| {
            std::fs::read_to_string(f)
                .expect("a source file")
                .lines()
                .count()
        })
        .sum();
    assert!(
        lines > 300,
        "the CLI's sources were not read ({lines} lines)"
    );
    assert!(
        lines < 1_200,
        "the CLI holds {lines} lines: move the work into a library crate"
    );
    let manifest = std::fs::read_to_string(workspace().join("crates/ncleaner-cli/Cargo.toml"))
        .expect("the CLI's manifest");
    for dep in ["ncleaner-lab", "ncleaner-serve"] {
        let line = manifest
            .lines()
            .find(|l| l.starts_with(dep))
            .unwrap_or_else(|| panic!("the CLI's manifest names no {dep}"));
        assert!(
            line.contains("optional = true"),
            "{dep} must be optional: {line}"
        );
    }
}

#[test]
fn the_path_reader_sees_groups_and_ignores_comments() {
    let c = "use crate::{a, b::{c, d}, e};\nlet x = crate::f::g();";
    let got: Vec<String> = crate_paths(c).into_iter().collect();
    assert_eq!(got, ["a", "b", "e", "f"]);
    let mut g = BTreeMap::new();
    g.insert("x".to_string(), BTreeSet::from(["y".to_string()]));
    g.insert("y".to_string(), BTreeSet::from(["x".to_string()]));
    assert!(find_cycle(&g).is_some());
    g.insert("y".to_string(), BTreeSet::new());
    assert!(find_cycle(&g).is_none());
}

/// Constants of string literals that are not word lists: names a standard
/// fixes (ARCHITECTURE.md, "One lexicon") and the code's own names.
const NOT_WORD_LISTS: &[&str] = &[
    // HTML element names.
    "ELEMENTS",
    // schema.org properties (microdata's `itemprop`).
    "ITEMPROPS",
    // Open Graph's `og:type` values.
    "OG_TYPES",
    // The classifier's column names, the options' names.
    "NAMES",
];

/// The word lists of `code`: each array or slice literal of three string
/// literals or more, three of them lower-case words ("by ", "author:",
/// "sidebar"), with the name of the constant it initialises, if any.
fn word_lists(code: &str) -> Vec<(Option<String>, Vec<String>)> {
    let is_word = |w: &str| {
        w.starts_with(|c: char| c.is_ascii_lowercase())
            && w.chars()
                .all(|c| c.is_ascii_lowercase() || matches!(c, ' ' | '\'' | '-' | ':'))
    };
    let mut out = Vec::new();
    for (start, _) in code.match_indices('[') {
        let mut rest = &code[start + 1..];
        let mut words = Vec::new();
        loop {
            let r = rest.trim_start();
            let r = r.strip_prefix('b').unwrap_or(r);
            let Some(r) = r.strip_prefix('"') else { break };
            let Some(end) = r.find('"') else { break };
            words.push(r[..end].to_string());
            rest = r[end + 1..].trim_start();
            rest = rest.strip_prefix(',').unwrap_or(rest);
        }
        if !rest.trim_start().starts_with(']')
            || words.len() < 3
            || words.iter().filter(|w| is_word(w)).count() < 3
        {
            continue;
        }
        // `const NAME: TYPE = [` or `= &[`: the constant's name.
        let head = code[..start].trim_end();
        let head = head.strip_suffix('&').unwrap_or(head).trim_end();
        let name = head.strip_suffix('=').and_then(|h| {
            let at = h.rfind("const ").or_else(|| h.rfind("static "))?;
            let decl = &h[at..];
            (!decl.contains(['=', '{', '}'])).then(|| {
                decl.split_whitespace()
                    .nth(1)
                    .unwrap_or("")
                    .trim_end_matches(':')
                    .to_string()
            })
        });
        out.push((name, words));
    }
    out
}

/// ARCHITECTURE.md's invariant: every word list the code matches is a
/// named set of `lexicon`. A list of words written anywhere else in the
/// product library (outside tests) fails, unless it is one of
/// [`NOT_WORD_LISTS`].
#[test]
fn word_lists_live_in_the_lexicon() {
    let src = workspace().join("crates/ncleaner/src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut wrong = Vec::new();
    for f in &files {
        let rel = f.strip_prefix(&src).expect("under src");
        if rel.starts_with("lexicon") || rel.starts_with("lexicon.rs") || rel.ends_with("tests.rs")
        {
            continue;
        }
        for (name, words) in word_lists(&code(f)) {
            if name.as_deref().is_some_and(|n| NOT_WORD_LISTS.contains(&n)) {
                continue;
            }
            wrong.push(format!("{}: {:?}", rel.display(), &words[..3]));
        }
    }
    assert!(
        wrong.is_empty(),
        "word lists outside `lexicon` (make each a named set there):\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_word_list_reader_finds_lists_and_their_names() {
    let c = "const NAMES: [&str; 3] = [\"a b\", \"c\", \"d\"];\n\
             let by = [\"by \", \"von \", b\"par \"].iter();\n\
             const X: &[&str] = &[\"One\", \"Two\", \"three\"];\n\
             f([\"x\", \"y\"]);";
    let got = word_lists(c);
    assert_eq!(got.len(), 2, "{got:?}");
    assert_eq!(got[0].0.as_deref(), Some("NAMES"));
    assert_eq!(got[1].0, None);
    assert_eq!(got[1].1, ["by ", "von ", "par "]);
}
