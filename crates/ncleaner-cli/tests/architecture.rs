//! The map of ARCHITECTURE.md, enforced: which crate may use which, and in
//! which order the product library's modules (the pipeline's stages) may
//! use each other. It reads the sources and manifests of the workspace, so
//! it needs nothing but the checkout.
//!
//! A module's dependencies are the modules its files name by a path
//! (`crate::…`, `super::…`, `self::…`, or a child's name), every module of
//! every crate a node ([`module_graph`]); comment lines and the trailing
//! `#[cfg(test)] mod tests` block are left out: a test may reach for
//! anything.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The workspace's crates, whose sources the tests below read.
const CRATES: [&str; 6] = [
    "ncleaner",
    "ncleaner-corpus",
    "ncleaner-lab",
    "ncleaner-cli",
    "ncleaner-serve",
    "ncleaner-py",
];

/// The stages of the product library, each allowed to use only those
/// before it (ARCHITECTURE.md, "Modules of the product").
const PRODUCT_ORDER: &[&str] = &[
    "error",
    "cancel",
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
    "page",
    "cleaned",
    "quality",
    "model",
    "policy",
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
    code_of(&src)
}

/// `src` without comment lines and without its trailing test module.
fn code_of(src: &str) -> String {
    let src = match src.find("#[cfg(test)]\nmod tests") {
        Some(i) => &src[..i],
        None => src,
    };
    src.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Whether `c` may be part of a path's identifier.
fn ident_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// Reads the path at `s[*i..]` (identifiers joined by `::`, `{…}` groups
/// expanded, an `as` rename skipped), each full path after `prefix` pushed
/// to `out`.
fn read_path(s: &[u8], i: &mut usize, prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
    let skip_space = |i: &mut usize| {
        while *i < s.len() && s[*i].is_ascii_whitespace() {
            *i += 1;
        }
    };
    let mut segs = prefix;
    loop {
        skip_space(i);
        if s.get(*i) == Some(&b'{') {
            *i += 1;
            loop {
                skip_space(i);
                match s.get(*i) {
                    None => return,
                    Some(b'}') => {
                        *i += 1;
                        return;
                    }
                    _ => {}
                }
                read_path(s, i, segs.clone(), out);
                // Past an `as` rename, to the item's comma or the group's end.
                while *i < s.len() && !matches!(s[*i], b',' | b'}' | b'{') {
                    *i += 1;
                }
                match s.get(*i) {
                    Some(b',') => *i += 1,
                    Some(b'}') => {}
                    _ => return,
                }
            }
        }
        let start = *i;
        while *i < s.len() && (ident_byte(s[*i]) || s[*i] == b'*') {
            *i += 1;
        }
        if *i == start {
            break;
        }
        segs.push(String::from_utf8_lossy(&s[start..*i]).into_owned());
        if s[*i..].starts_with(b"::") {
            *i += 2;
        } else {
            break;
        }
    }
    out.push(segs);
}

/// The paths of `code` that start at a module: each `crate::…`,
/// `super::…` and `self::…` path, `{…}` groups expanded, as written
/// (`["super", "super", "tags", "Tag"]`).
fn module_paths(code: &str) -> Vec<Vec<String>> {
    let s = code.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < s.len() {
        let at_head = ["crate::", "super::", "self::"]
            .iter()
            .any(|h| s[i..].starts_with(h.as_bytes()));
        let after_path = i > 0 && (ident_byte(s[i - 1]) || matches!(s[i - 1], b':' | b'$'));
        if at_head && !after_path {
            read_path(s, &mut i, Vec::new(), &mut out);
        } else {
            i += 1;
        }
    }
    out
}

/// The modules that `code` (of the module `module`) declares with
/// `mod NAME;` and names by a relative path (`NAME::item`).
fn child_paths(code: &str, module: &[String]) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for line in code.lines() {
        let mut t = line.trim();
        if let Some(rest) = t.strip_prefix("pub") {
            t = match rest.trim_start().strip_prefix('(') {
                Some(r) => r.split_once(')').map_or("", |(_, r)| r),
                None => rest,
            }
            .trim_start();
        }
        let Some(name) = t
            .strip_prefix("mod ")
            .and_then(|r| r.trim().strip_suffix(';'))
        else {
            continue;
        };
        let needle = format!("{name}::");
        let named = code.match_indices(&needle).any(|(j, _)| {
            j == 0 || !(ident_byte(code.as_bytes()[j - 1]) || code.as_bytes()[j - 1] == b':')
        });
        if named {
            let mut m = module.to_vec();
            m.push(name.to_string());
            out.push(m);
        }
    }
    out
}

/// The path of the module a source file holds: `html::walk::foreign` for
/// `src/html/walk/foreign.rs` or `src/html/walk/foreign/mod.rs`; the
/// crate's root (`lib.rs`, `main.rs`) is the empty path.
fn module_path(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).expect("under src");
    let mut m: Vec<String> = rel
        .components()
        .map(|c| {
            c.as_os_str()
                .to_string_lossy()
                .trim_end_matches(".rs")
                .to_string()
        })
        .collect();
    if m.len() == 1 && (m[0] == "lib" || m[0] == "main") || m.last().is_some_and(|l| l == "mod") {
        m.pop();
    }
    m
}

/// Module → the other modules of the same crate it uses, every module of
/// the crate (`a::b::c`) a node. A use is a path from `crate`, `super` or
/// `self` to an item, counted as a use of the deepest module on the path,
/// or a relative path into a module that the file declares (`mod c;`,
/// then `c::f()`). A module's uses of its own ancestors (its parent's
/// items through `super::`, the crate root's re-exports) are not edges: a
/// module is part of its ancestors, which declare it, so they cannot be a
/// circle of modules that could be pulled apart. Test modules (`tests`,
/// and a file's trailing `#[cfg(test)] mod tests`) are left out: a test
/// may reach for anything.
fn module_graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let files: Vec<(Vec<String>, &PathBuf)> = files
        .iter()
        .map(|f| (module_path(src, f), f))
        .filter(|(m, _)| !m.is_empty() && !m.iter().any(|c| c == "tests"))
        .collect();
    let modules: BTreeSet<Vec<String>> = files.iter().map(|(m, _)| m.clone()).collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (m, f) in &files {
        let code = code(f);
        let deps = graph.entry(m.join("::")).or_default();
        let mut targets = child_paths(&code, m);
        for path in module_paths(&code) {
            let (mut base, rest) = match path[0].as_str() {
                "crate" => (Vec::new(), &path[1..]),
                "self" => (m.clone(), &path[1..]),
                _ => (m[..m.len() - 1].to_vec(), &path[1..]),
            };
            let mut rest = rest.iter().peekable();
            while rest.next_if(|s| *s == "super").is_some() {
                base.pop();
            }
            base.extend(rest.cloned());
            targets.push(base);
        }
        for mut t in targets {
            while !t.is_empty() && !modules.contains(&t) {
                t.pop();
            }
            let ancestor_or_self = t.len() <= m.len() && m[..t.len()] == t[..];
            if !t.is_empty() && !ancestor_or_self {
                deps.insert(t.join("::"));
            }
        }
    }
    graph
}

/// The graph of the crate's top-level modules: `m`'s uses of other
/// top-level modules, wherever in `m` they are.
fn top_level(graph: &BTreeMap<String, BTreeSet<String>>) -> BTreeMap<String, BTreeSet<String>> {
    let top = |m: &str| m.split("::").next().unwrap_or(m).to_string();
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (m, deps) in graph {
        let tm = top(m);
        let entry = out.entry(tm.clone()).or_default();
        entry.extend(deps.iter().map(|d| top(d)).filter(|d| *d != tm));
    }
    out
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
    let graph = top_level(&module_graph(&workspace().join("crates/ncleaner/src")));
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
    for krate in CRATES {
        let graph = module_graph(&workspace().join("crates").join(krate).join("src"));
        assert!(!graph.is_empty(), "{krate}: no modules found");
        if let Some(c) = find_cycle(&graph) {
            panic!("{krate}: module cycle {}", c.join(" -> "));
        }
    }
}

/// Writes a crate's sources (path under `src`, code) into a fresh folder,
/// and returns the folder with its module graph.
fn planted(files: &[(&str, &str)]) -> (tempfile::TempDir, BTreeMap<String, BTreeSet<String>>) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    for (path, code) in files {
        let p = dir.path().join("src").join(path);
        std::fs::create_dir_all(p.parent().expect("a parent")).expect("a folder");
        std::fs::write(&p, code).expect("a source file");
    }
    let graph = module_graph(&dir.path().join("src"));
    (dir, graph)
}

#[test]
fn a_circle_between_submodules_is_caught() {
    // Two siblings that use each other, one by `super::`, one by `crate::`.
    let (_dir, graph) = planted(&[
        ("lib.rs", "mod a;\n"),
        ("a.rs", "mod x;\nmod y;\n"),
        ("a/x.rs", "use super::y::Y;\npub struct X;\n"),
        ("a/y.rs", "use crate::a::x::X;\npub struct Y;\n"),
    ]);
    let c = find_cycle(&graph).expect("the planted circle");
    assert_eq!(c, ["a::x", "a::y", "a::x"]);

    // Through a parent's relative path into its child: `c` uses `a`, which
    // calls into its `x`, which uses `c` (consumer -> walk -> walk::noscript
    // -> consumer).
    let (_dir, graph) = planted(&[
        ("lib.rs", "mod a;\nmod c;\n"),
        ("a.rs", "mod x;\npub struct T;\nfn f() { x::g() }\n"),
        ("a/x.rs", "use super::super::c::C;\npub fn g() {}\n"),
        ("c.rs", "use crate::a::{T, self};\npub struct C;\n"),
    ]);
    let c = find_cycle(&graph).expect("the planted circle");
    assert_eq!(c, ["a", "a::x", "c", "a"]);

    // A child using its parent's items and the crate root's is no circle.
    let (_dir, graph) = planted(&[
        ("lib.rs", "mod a;\npub use a::T;\n"),
        ("a/mod.rs", "mod x;\npub struct T;\nfn f() { x::g() }\n"),
        (
            "a/x.rs",
            "use super::T;\nuse crate::T as U;\npub fn g() {}\n",
        ),
    ]);
    assert_eq!(find_cycle(&graph), None);
    assert_eq!(graph["a"], BTreeSet::from(["a::x".to_string()]));
    assert!(graph["a::x"].is_empty());
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
    // What the binary is for: it parses the command line and hands the work
    // to the library crates, where their users reach it too. So its files
    // are `main.rs` (the parser and the dispatch) and one module per
    // subcommand under `cmd/` (`cmd/mod.rs` lists them, `cmd/common.rs`
    // holds what they share), each dispatched to by `main.rs`; it names the
    // library's public API alone (the crate's root and `format`), never a
    // stage's module (`classify`, `html`, `model`, …). The lab's commands
    // live in `ncleaner-lab::cli`, the server's in `ncleaner-serve::cli`;
    // both are optional, so `--no-default-features` builds the product's
    // commands alone.
    let src = workspace().join("crates/ncleaner-cli/src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    assert!(
        files.len() >= 4,
        "the CLI's sources were not read ({files:?})"
    );
    let main = std::fs::read_to_string(src.join("main.rs")).expect("the CLI's main.rs");
    for f in &files {
        let rel = f
            .strip_prefix(&src)
            .expect("a file under src")
            .to_string_lossy()
            .replace('\\', "/");
        let allowed = match rel.as_str() {
            "main.rs" | "cmd/mod.rs" | "cmd/common.rs" => true,
            other => other
                .strip_prefix("cmd/")
                .and_then(|m| m.strip_suffix(".rs"))
                .is_some_and(|m| !m.contains('/') && main.contains(&format!("cmd::{m}::run("))),
        };
        assert!(
            allowed,
            "{rel}: the CLI's files are main.rs and one module per subcommand under cmd/ that main.rs dispatches to"
        );
        let c = code(f);
        let mut rest = c.as_str();
        while let Some(at) = rest.find("ncleaner::") {
            let path = &rest[at + "ncleaner::".len()..];
            let seg: String = path
                .chars()
                .take_while(|ch| ch.is_ascii_alphanumeric() || *ch == '_')
                .collect();
            let is_module = path[seg.len()..].starts_with("::")
                && seg.chars().next().is_some_and(|ch| ch.is_ascii_lowercase());
            assert!(
                !is_module || seg == "format",
                "{rel} names ncleaner::{seg}::, a stage of the library: use what the crate's root exports"
            );
            rest = &path[seg.len()..];
        }
    }
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
    let c = "use crate::{a, b::{c, d as e}, f::*};\nlet x = crate::g::h();\n\
             use super::super::tags::Tag;\n  // crate::not_this\nfoo::crate::no;";
    let got = module_paths(&code_of(c));
    let want: Vec<Vec<&str>> = vec![
        vec!["crate", "a"],
        vec!["crate", "b", "c"],
        vec!["crate", "b", "d"],
        vec!["crate", "f", "*"],
        vec!["crate", "g", "h"],
        vec!["super", "super", "tags", "Tag"],
    ];
    assert_eq!(got, want);
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

/// The body of the item that starts at `at` in `code`: from its first `{`
/// to the matching `}` (braces inside strings and characters are not
/// expected in the items read here).
fn braced(code: &str, at: usize) -> &str {
    let open = at + code[at..].find('{').expect("an item with a body");
    let mut depth = 0;
    for (i, c) in code[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return &code[open..=open + i];
                }
            }
            _ => {}
        }
    }
    panic!("unbalanced braces after byte {at}");
}

/// The frozen page (ARCHITECTURE.md, "The frozen page"): `Page` has no
/// public field and no method that takes `&mut self`, so nothing after
/// the front end changes it.
#[test]
fn the_page_is_frozen() {
    let src = workspace().join("crates/ncleaner/src/page.rs");
    let code = code(&src);
    let at = code
        .find("pub struct Page {")
        .expect("page.rs defines `Page`");
    let fields = braced(&code, at);
    assert!(
        !fields.lines().any(|l| l.trim_start().starts_with("pub")),
        "a field of `Page` is public: {fields}"
    );
    let mut impls = 0;
    for (at, _) in code.match_indices("impl Page {") {
        impls += 1;
        let body = braced(&code, at);
        assert!(
            !body.contains("&mut self"),
            "a method of `Page` takes `&mut self`"
        );
    }
    assert!(impls > 0, "page.rs has no `impl Page`");
}

/// Every decision after the method's is written by the policy's loop
/// (ARCHITECTURE.md, "The back end"): the rules' module builds no
/// `Decision` and assigns no reason (a rule's reason is the value of its
/// `reason` method, which the loop writes), and no module but `policy`
/// assigns a segment's decision.
#[test]
fn no_rule_body_writes_a_decision() {
    let src = workspace().join("crates/ncleaner/src");
    let rules = code(&src.join("policy/rules.rs"));
    // An assignment, not a comparison (`reason == Reason::Score` reads).
    let assigns = |what: &str| {
        rules
            .match_indices(what)
            .any(|(i, _)| !rules[i + what.len()..].starts_with('='))
    };
    for written in ["Decision {", ".decision =", "reason:", "reason ="] {
        assert!(
            !assigns(written),
            "policy/rules.rs writes a decision or a reason (`{written}`)"
        );
    }
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    for f in files {
        let rel = f.strip_prefix(&src).expect("under src");
        if rel == Path::new("policy.rs") || rel.ends_with("tests.rs") {
            continue;
        }
        assert!(
            !code(&f).contains(".decision ="),
            "{} assigns a decision; decisions are written by the policy's loop",
            rel.display()
        );
    }
}
/// The most lines a function may have: from its `fn` to its closing brace.
const MAX_FN_LINES: usize = 120;

/// A function of more than [`MAX_FN_LINES`] lines: "file:line name (lines)".
type LongFn = String;

/// Whether `attrs` hold `#[test]` or a `#[cfg(...)]` that holds only in
/// tests (`cfg(test)`, `cfg(all(test, ...))`).
fn test_only(attrs: &[syn::Attribute]) -> bool {
    fn test_cfg(meta: &syn::Meta) -> bool {
        match meta {
            syn::Meta::Path(p) => p.is_ident("test"),
            syn::Meta::List(l) if l.path.is_ident("all") => l
                .parse_args_with(
                    syn::punctuated::Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated,
                )
                .is_ok_and(|metas| metas.iter().any(test_cfg)),
            _ => false,
        }
    }
    attrs.iter().any(|a| {
        a.path().is_ident("test")
            || a.path().is_ident("cfg") && a.parse_args::<syn::Meta>().is_ok_and(|m| test_cfg(&m))
    })
}

/// The lines of the literal list that a function's body ends in, if it
/// does: `[…]`, `&[…]` or `vec![…]`. Such a function is a data table (a
/// catalogue of cases, a list of rows): its rows are not counted.
fn table_lines(block: &syn::Block) -> usize {
    use syn::spanned::Spanned;
    let Some(syn::Stmt::Expr(tail, None)) = block.stmts.last() else {
        return 0;
    };
    let mut e = tail;
    if let syn::Expr::Reference(r) = e {
        e = &r.expr;
    }
    let list = match e {
        syn::Expr::Array(_) => true,
        syn::Expr::Macro(m) => m.mac.path.is_ident("vec"),
        _ => false,
    };
    if !list {
        return 0;
    }
    let span = e.span();
    span.end().line - span.start().line + 1
}

/// Walks a crate's module tree from its root file, noting every function
/// of more than [`MAX_FN_LINES`] lines outside tests and data tables.
struct FnLengths {
    /// The file being read.
    file: PathBuf,
    /// Where the files of the current module's `mod NAME;` children are.
    dir: PathBuf,
    /// The files read, or seen and exempt.
    read: BTreeSet<PathBuf>,
    /// The crate's `tests` and `benches` folders (canonical): not read.
    exempt: Vec<PathBuf>,
    long: Vec<LongFn>,
}

impl FnLengths {
    /// Reads `file`, whose `mod NAME;` children are in `dir`.
    fn read_file(&mut self, file: &Path, dir: &Path) {
        let src =
            std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let ast = syn::parse_file(&src).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        self.read.insert(file.to_path_buf());
        let saved = (
            std::mem::replace(&mut self.file, file.to_path_buf()),
            std::mem::replace(&mut self.dir, dir.to_path_buf()),
        );
        syn::visit::visit_file(self, &ast);
        (self.file, self.dir) = saved;
    }

    /// The file of the module `m` declared as `mod NAME;` in the current
    /// module, and the folder of its own `mod` children.
    fn module_file(&self, m: &syn::ItemMod) -> (PathBuf, PathBuf) {
        let name = m.ident.to_string();
        // `#[path = "…"]`: relative to the folder of the file that says it.
        let path = m.attrs.iter().find_map(|a| match &a.meta {
            syn::Meta::NameValue(nv) if nv.path.is_ident("path") => match &nv.value {
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s),
                    ..
                }) => Some(s.value()),
                _ => None,
            },
            _ => None,
        });
        if let Some(path) = path {
            let file = self.file.parent().expect("a folder").join(path);
            let dir = file.with_extension("");
            return (file, dir);
        }
        let flat = self.dir.join(format!("{name}.rs"));
        if flat.exists() {
            (flat, self.dir.join(&name))
        } else {
            (self.dir.join(&name).join("mod.rs"), self.dir.join(&name))
        }
    }

    /// Notes the function `name` from `fn` to the end of `block`.
    fn check(&mut self, name: &syn::Ident, fn_token: &syn::token::Fn, block: &syn::Block) {
        let start = fn_token.span.start().line;
        let end = block.brace_token.span.close().end().line;
        let lines = end - start + 1 - table_lines(block);
        if lines > MAX_FN_LINES {
            self.long.push(format!(
                "{}:{start} {name} ({lines} lines)",
                self.file.display()
            ));
        }
    }
}

impl<'ast> syn::visit::Visit<'ast> for FnLengths {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        let attrs = match item {
            syn::Item::Fn(i) => &i.attrs,
            syn::Item::Impl(i) => &i.attrs,
            syn::Item::Mod(i) => &i.attrs,
            syn::Item::Trait(i) => &i.attrs,
            _ => return syn::visit::visit_item(self, item),
        };
        if !test_only(attrs) {
            syn::visit::visit_item(self, item);
        } else if let syn::Item::Mod(m) = item
            && m.content.is_none()
        {
            // A test module's file: seen, not read.
            let (file, _) = self.module_file(m);
            self.read.insert(file);
        }
    }

    fn visit_impl_item(&mut self, item: &'ast syn::ImplItem) {
        if !matches!(item, syn::ImplItem::Fn(f) if test_only(&f.attrs)) {
            syn::visit::visit_impl_item(self, item);
        }
    }

    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        self.check(&f.sig.ident, &f.sig.fn_token, &f.block);
        syn::visit::visit_item_fn(self, f);
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        self.check(&f.sig.ident, &f.sig.fn_token, &f.block);
        syn::visit::visit_impl_item_fn(self, f);
    }

    fn visit_trait_item_fn(&mut self, f: &'ast syn::TraitItemFn) {
        if let Some(block) = &f.default {
            self.check(&f.sig.ident, &f.sig.fn_token, block);
        }
        syn::visit::visit_trait_item_fn(self, f);
    }

    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        if m.content.is_some() {
            let dir = self.dir.join(m.ident.to_string());
            let saved = std::mem::replace(&mut self.dir, dir);
            syn::visit::visit_item_mod(self, m);
            self.dir = saved;
        } else {
            let (file, dir) = self.module_file(m);
            let canonical = file
                .canonicalize()
                .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            if self.exempt.iter().any(|d| canonical.starts_with(d)) {
                // Test code an example shares (`#[path = "../tests/…"]`).
                self.read.insert(file);
            } else {
                self.read_file(&file, &dir);
            }
        }
    }
}

/// The functions of more than [`MAX_FN_LINES`] lines of the crate in
/// `krate` (its library, binaries and examples), and the files read.
fn long_functions(krate: &Path) -> (Vec<LongFn>, BTreeSet<PathBuf>) {
    let mut walk = FnLengths {
        file: PathBuf::new(),
        dir: PathBuf::new(),
        read: BTreeSet::new(),
        exempt: ["tests", "benches"]
            .iter()
            .filter_map(|d| krate.join(d).canonicalize().ok())
            .collect(),
        long: Vec::new(),
    };
    let src = krate.join("src");
    for root in ["lib.rs", "main.rs"] {
        if src.join(root).exists() {
            walk.read_file(&src.join(root), &src);
        }
    }
    if let Ok(examples) = std::fs::read_dir(krate.join("examples")) {
        let mut files: Vec<PathBuf> = examples
            .map(|e| e.expect("a directory entry").path())
            .collect();
        files.sort();
        for f in files {
            let (root, dir) = if f.is_dir() {
                (f.join("main.rs"), f.clone())
            } else {
                (f.clone(), f.parent().expect("a folder").to_path_buf())
            };
            if root.extension().is_some_and(|x| x == "rs") && root.exists() {
                walk.read_file(&root, &dir);
            }
        }
    }
    (walk.long, walk.read)
}

/// ARCHITECTURE.md's invariant: no function runs past [`MAX_FN_LINES`]
/// lines, counted from its `fn` to its closing brace, in any crate of the
/// workspace (libraries, binaries, examples). A long function is cut at
/// its seams into named helpers that each do one thing. Exempt: tests
/// (`#[test]` functions, `#[cfg(test)]` items and modules, and the
/// `tests/` and `benches/` folders, which are not read); and the rows of a
/// data table: a function whose body ends in one literal list (`[…]`,
/// `&[…]` or `vec![…]`, a catalogue of cases or rows) counts its lines
/// without that list's.
#[test]
fn no_function_is_longer_than_its_limit() {
    let mut long = Vec::new();
    for krate in CRATES {
        let dir = workspace().join("crates").join(krate);
        let (found, read) = long_functions(&dir);
        // Every source file under src is part of the module tree, so the
        // walk saw it (a file it missed would go unchecked).
        let mut files = Vec::new();
        rust_files(&dir.join("src"), &mut files);
        for f in files {
            assert!(
                read.contains(&f),
                "{}: not reached from the crate's root",
                f.display()
            );
        }
        long.extend(found);
    }
    assert!(
        long.is_empty(),
        "functions of more than {MAX_FN_LINES} lines (cut them at their seams):\n{}",
        long.join("\n")
    );
}

#[test]
fn the_length_check_sees_long_functions_and_spares_tests_and_tables() {
    let body = |n: usize| "    let x = 1;\n".repeat(n);
    let rows = |n: usize| "        1,\n".repeat(n);
    let lib = format!(
        "pub fn long() {{\n{}}}\n\
         pub fn short() {{\n{}}}\n\
         pub fn table() -> Vec<u8> {{\n    let y = 2;\n    vec![\n{}    ]\n}}\n\
         pub fn slice() -> &'static [u8] {{\n    &[\n{}    ]\n}}\n\
         #[cfg(test)]\nmod tests {{\n    fn long_test() {{\n{}    }}\n}}\n\
         mod a;\n",
        body(MAX_FN_LINES - 1),
        body(MAX_FN_LINES - 2),
        rows(300),
        rows(300),
        body(200),
    );
    let a = format!(
        "pub struct S;\nimpl S {{\n    pub fn method(&self) {{\n{}    }}\n    #[cfg(test)]\n    fn helper() {{\n{}    }}\n}}\n\
         #[test]\nfn a_test() {{\n{}}}\n",
        body(MAX_FN_LINES),
        body(200),
        body(200),
    );
    let dir = tempfile::tempdir().expect("a temporary folder");
    std::fs::create_dir_all(dir.path().join("src")).expect("a folder");
    std::fs::write(dir.path().join("src/lib.rs"), lib).expect("lib.rs");
    std::fs::write(dir.path().join("src/a.rs"), a).expect("a.rs");
    let (long, read) = long_functions(dir.path());
    let names: Vec<&str> = long
        .iter()
        .map(|l| l.split(' ').nth(1).expect("a name"))
        .collect();
    // `long`: 121 lines; `method`: 122; the tests, the test helper and the
    // tables are spared, `short` is 120.
    assert_eq!(names, ["long", "method"], "{long:?}");
    assert!(long[0].ends_with("(121 lines)"), "{long:?}");
    assert_eq!(read.len(), 2);
}
