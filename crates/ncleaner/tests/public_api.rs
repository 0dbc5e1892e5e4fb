//! The `ncleaner` crate's public items (default features), compared with the
//! committed list `crates/ncleaner/public-api.txt`, so that growing (or
//! shrinking) the library's API is a deliberate act.
//!
//! The list is read from the sources with `syn` (rustdoc's JSON output would
//! need a nightly toolchain): starting at `lib.rs`, it follows `pub mod` and
//! `pub use` and writes one line per public path: modules, functions, types,
//! traits, constants and statics, and the `pub` methods and associated
//! constants of inherent `impl` blocks of the public types. An item reachable
//! by two paths is listed twice. Items under `#[cfg(...)]` are kept or left out
//! as the default features decide (`test` and every cargo feature off); items
//! made by macros are not seen. A public struct's `pub` fields and a public
//! enum's variants are listed under it (`… (field)`, `… (variant)`), and a
//! struct or enum marked `#[non_exhaustive]` says so (`(struct,
//! non_exhaustive)`): a field or variant added is a change of the API, and a
//! type that gives it up is one too.
//!
//! To accept a change of the API on purpose:
//! `NCLEANER_UPDATE_PUBLIC_API=1 cargo test -p ncleaner --test public_api`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use syn::{Attribute, ImplItem, Item, UseTree, Visibility};

/// One module's items, public or not, as written in its source.
#[derive(Default)]
struct Module {
    /// Items defined here: name → (kind, `pub`).
    defs: BTreeMap<String, (&'static str, bool)>,
    /// `use` declarations: (name, target path, `pub`); name `*` for a glob.
    uses: Vec<(String, Vec<String>, bool)>,
    /// Structs' `pub` fields and enums' variants, compiled ones: type name
    /// → (kind, member name).
    members: BTreeMap<String, Vec<(&'static str, String)>>,
}

/// Inherent `impl` blocks: (module of the impl, type name, public associated items).
type Impls = Vec<(Vec<String>, String, Vec<(&'static str, String)>)>;

struct Crate {
    modules: BTreeMap<Vec<String>, Module>,
    impls: Impls,
}

/// Whether a `#[cfg(...)]` predicate holds with the default features.
fn cfg_holds(meta: &syn::Meta) -> bool {
    match meta {
        syn::Meta::Path(p) => !(p.is_ident("test") || p.is_ident("doc")),
        syn::Meta::NameValue(nv) => {
            let value = match &nv.value {
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s),
                    ..
                }) => s.value(),
                _ => return true,
            };
            if nv.path.is_ident("feature") {
                false
            } else if nv.path.is_ident("target_arch") {
                value == std::env::consts::ARCH
            } else if nv.path.is_ident("target_os") {
                value == std::env::consts::OS
            } else {
                true
            }
        }
        syn::Meta::List(list) => {
            let args: Vec<syn::Meta> = list
                .parse_args_with(
                    syn::punctuated::Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated,
                )
                .map(|p| p.into_iter().collect())
                .unwrap_or_default();
            if list.path.is_ident("not") {
                !args.iter().all(cfg_holds)
            } else if list.path.is_ident("any") {
                args.iter().any(cfg_holds)
            } else {
                args.iter().all(cfg_holds)
            }
        }
    }
}

fn compiled(attrs: &[Attribute]) -> bool {
    attrs
        .iter()
        .filter(|a| a.path().is_ident("cfg"))
        .all(|a| match a.parse_args::<syn::Meta>() {
            Ok(meta) => cfg_holds(&meta),
            Err(_) => true,
        })
}

fn is_pub(vis: &Visibility) -> bool {
    matches!(vis, Visibility::Public(_))
}

fn non_exhaustive(attrs: &[Attribute]) -> bool {
    attrs.iter().any(|a| a.path().is_ident("non_exhaustive"))
}

/// A struct's compiled `pub` fields (named ones by name, a tuple's by
/// index).
fn pub_fields(fields: &syn::Fields) -> Vec<(&'static str, String)> {
    fields
        .iter()
        .enumerate()
        .filter(|(_, f)| is_pub(&f.vis) && compiled(&f.attrs))
        .map(|(i, f)| {
            let name = f.ident.as_ref().map_or(i.to_string(), |id| id.to_string());
            ("field", name)
        })
        .collect()
}

fn flatten_use(tree: &UseTree, prefix: &mut Vec<String>, out: &mut Vec<(String, Vec<String>)>) {
    match tree {
        UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            flatten_use(&p.tree, prefix, out);
            prefix.pop();
        }
        UseTree::Name(n) => {
            let name = n.ident.to_string();
            if name == "self" {
                out.push((prefix.last().cloned().unwrap_or_default(), prefix.clone()));
            } else {
                let mut path = prefix.clone();
                path.push(name.clone());
                out.push((name, path));
            }
        }
        UseTree::Rename(r) => {
            let mut path = prefix.clone();
            path.push(r.ident.to_string());
            out.push((r.rename.to_string(), path));
        }
        UseTree::Glob(_) => out.push(("*".into(), prefix.clone())),
        UseTree::Group(g) => {
            for t in &g.items {
                flatten_use(t, prefix, out);
            }
        }
    }
}

fn type_name(ty: &syn::Type) -> Option<String> {
    match ty {
        syn::Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
        _ => None,
    }
}

impl Crate {
    fn read(src: &Path) -> Crate {
        let mut krate = Crate {
            modules: BTreeMap::new(),
            impls: Vec::new(),
        };
        let file = src.join("lib.rs");
        let items = parse(&file);
        krate.module(vec![], &items, src.to_path_buf());
        krate
    }

    /// Records module `path` (its items `items`; its child modules' files under `dir`).
    fn module(&mut self, path: Vec<String>, items: &[Item], dir: PathBuf) {
        let mut module = Module::default();
        for item in items {
            let (name, kind, vis, attrs) = match item {
                Item::Const(i) => (i.ident.to_string(), "const", &i.vis, &i.attrs),
                Item::Enum(i) => {
                    let variants = i
                        .variants
                        .iter()
                        .filter(|v| compiled(&v.attrs))
                        .map(|v| ("variant", v.ident.to_string()))
                        .collect();
                    module.members.insert(i.ident.to_string(), variants);
                    let kind = if non_exhaustive(&i.attrs) {
                        "enum, non_exhaustive"
                    } else {
                        "enum"
                    };
                    (i.ident.to_string(), kind, &i.vis, &i.attrs)
                }
                Item::Fn(i) => (i.sig.ident.to_string(), "fn", &i.vis, &i.attrs),
                Item::Static(i) => (i.ident.to_string(), "static", &i.vis, &i.attrs),
                Item::Struct(i) => {
                    module
                        .members
                        .insert(i.ident.to_string(), pub_fields(&i.fields));
                    let kind = if non_exhaustive(&i.attrs) {
                        "struct, non_exhaustive"
                    } else {
                        "struct"
                    };
                    (i.ident.to_string(), kind, &i.vis, &i.attrs)
                }
                Item::Trait(i) => (i.ident.to_string(), "trait", &i.vis, &i.attrs),
                Item::Type(i) => (i.ident.to_string(), "type", &i.vis, &i.attrs),
                Item::Union(i) => (i.ident.to_string(), "union", &i.vis, &i.attrs),
                Item::Mod(i) => {
                    if !compiled(&i.attrs) {
                        continue;
                    }
                    let name = i.ident.to_string();
                    let mut child = path.clone();
                    child.push(name.clone());
                    let child_dir = dir.join(&name);
                    match &i.content {
                        Some((_, inner)) => self.module(child, inner, child_dir),
                        None => {
                            let file = [dir.join(format!("{name}.rs")), child_dir.join("mod.rs")]
                                .into_iter()
                                .find(|f| f.exists())
                                .unwrap_or_else(|| {
                                    panic!("no file for module {}", child.join("::"))
                                });
                            self.module(child, &parse(&file), child_dir);
                        }
                    }
                    module.defs.insert(name, ("mod", is_pub(&i.vis)));
                    continue;
                }
                Item::Use(i) => {
                    if compiled(&i.attrs) {
                        let mut flat = Vec::new();
                        flatten_use(&i.tree, &mut Vec::new(), &mut flat);
                        for (name, target) in flat {
                            module.uses.push((name, target, is_pub(&i.vis)));
                        }
                    }
                    continue;
                }
                Item::Impl(i) => {
                    if i.trait_.is_none()
                        && compiled(&i.attrs)
                        && let Some(ty) = type_name(&i.self_ty)
                    {
                        let assoc = i
                            .items
                            .iter()
                            .filter_map(|a| match a {
                                ImplItem::Fn(f) if is_pub(&f.vis) && compiled(&f.attrs) => {
                                    Some(("fn", f.sig.ident.to_string()))
                                }
                                ImplItem::Const(c) if is_pub(&c.vis) && compiled(&c.attrs) => {
                                    Some(("const", c.ident.to_string()))
                                }
                                _ => None,
                            })
                            .collect();
                        self.impls.push((path.clone(), ty, assoc));
                    }
                    continue;
                }
                Item::Macro(m) => {
                    // `#[macro_export]` macros are public at the crate root.
                    if let (Some(ident), true) = (
                        &m.ident,
                        m.attrs.iter().any(|a| a.path().is_ident("macro_export")),
                    ) {
                        module.defs.insert(ident.to_string(), ("macro", true));
                    }
                    continue;
                }
                _ => continue,
            };
            if compiled(attrs) {
                module.defs.insert(name, (kind, is_pub(vis)));
            }
        }
        self.modules.insert(path, module);
    }

    /// The definition a path names from module `from`: (module, name), or
    /// `None` for another crate's item.
    fn resolve(&self, from: &[String], target: &[String]) -> Option<(Vec<String>, String)> {
        let mut module: Vec<String> = from.to_vec();
        let mut rest = target;
        match rest.first().map(String::as_str) {
            Some("crate") => {
                module.clear();
                rest = &rest[1..];
            }
            Some("self") => rest = &rest[1..],
            Some("super") => {
                while rest.first().map(String::as_str) == Some("super") {
                    module.pop();
                    rest = &rest[1..];
                }
            }
            Some(first) => {
                let here = self.modules.get(from)?;
                if !here.defs.contains_key(first) && !here.uses.iter().any(|(n, _, _)| n == first) {
                    return None;
                }
            }
            None => return None,
        }
        let (last, init) = rest.split_last()?;
        for segment in init {
            let here = self.modules.get(&module)?;
            if here.defs.get(segment).is_some_and(|(k, _)| *k == "mod") {
                module.push(segment.clone());
            } else {
                let (_, target, _) = here.uses.iter().find(|(n, _, _)| n == segment)?;
                let (m, name) = self.resolve(&module, target)?;
                module = m;
                module.push(name);
            }
        }
        // A name brought in by a (private) `use` resolves to its definition.
        let here = self.modules.get(&module)?;
        if !here.defs.contains_key(last)
            && let Some((_, target, _)) = here.uses.iter().find(|(n, _, _)| n == last)
        {
            return self.resolve(&module, target);
        }
        Some((module, last.clone()))
    }

    /// The public items of module `module`, listed under the public path `shown`.
    fn list(
        &self,
        module: &[String],
        shown: &str,
        out: &mut BTreeSet<String>,
        seen: &mut BTreeSet<String>,
    ) {
        if !seen.insert(shown.to_string()) {
            return;
        }
        let Some(m) = self.modules.get(module) else {
            return;
        };
        for (name, (kind, public)) in &m.defs {
            if *public {
                self.item(module, name, kind, &format!("{shown}::{name}"), out, seen);
            }
        }
        for (name, target, public) in &m.uses {
            if !*public {
                continue;
            }
            match self.resolve(module, target) {
                Some((def_module, def_name)) if name == "*" => {
                    let mut glob = def_module.clone();
                    glob.push(def_name);
                    if let Some(g) = self.modules.get(&glob) {
                        for (n, (kind, public)) in &g.defs {
                            if *public {
                                self.item(&glob, n, kind, &format!("{shown}::{n}"), out, seen);
                            }
                        }
                    }
                }
                Some((def_module, def_name)) => {
                    let kind = self
                        .modules
                        .get(&def_module)
                        .and_then(|d| d.defs.get(&def_name))
                        .map_or("use", |(k, _)| *k);
                    self.item(
                        &def_module,
                        &def_name,
                        kind,
                        &format!("{shown}::{name}"),
                        out,
                        seen,
                    );
                }
                None => {
                    out.insert(format!("{shown}::{name} (use {})", target.join("::")));
                }
            }
        }
    }

    fn item(
        &self,
        module: &[String],
        name: &str,
        kind: &str,
        shown: &str,
        out: &mut BTreeSet<String>,
        seen: &mut BTreeSet<String>,
    ) {
        out.insert(format!("{shown} ({kind})"));
        let members = self.modules.get(module).and_then(|m| m.members.get(name));
        for (kind, member) in members.into_iter().flatten() {
            out.insert(format!("{shown}::{member} ({kind})"));
        }
        match kind.split(',').next().unwrap_or(kind) {
            "mod" => {
                let mut child = module.to_vec();
                child.push(name.to_string());
                self.list(&child, shown, out, seen);
            }
            "struct" | "enum" | "union" | "trait" => {
                for (impl_module, ty, assoc) in &self.impls {
                    if ty == name && impl_module.starts_with(module) {
                        for (kind, item) in assoc {
                            out.insert(format!("{shown}::{item} ({kind})"));
                        }
                    }
                }
            }
            _ => {}
        }
    }
}

fn parse(file: &Path) -> Vec<Item> {
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    syn::parse_file(&text)
        .unwrap_or_else(|e| panic!("{}: {e}", file.display()))
        .items
}

/// The crate's public items, one a line, sorted.
fn public_items() -> Vec<String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let krate = Crate::read(&src);
    let mut out = BTreeSet::new();
    krate.list(&[], "ncleaner", &mut out, &mut BTreeSet::new());
    out.into_iter().collect()
}

#[test]
fn public_api_is_the_committed_list() {
    let items = public_items();
    let listed = format!(
        "# {} public items (default features); see tests/public_api.rs\n{}\n",
        items.len(),
        items.join("\n")
    );
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("public-api.txt");
    if std::env::var_os("NCLEANER_UPDATE_PUBLIC_API").is_some() {
        std::fs::write(&file, &listed).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(&file).unwrap_or_default();
    if committed != listed {
        let old: BTreeSet<&str> = committed.lines().skip(1).collect();
        let new: BTreeSet<&str> = listed.lines().skip(1).collect();
        let added: Vec<&&str> = new.difference(&old).collect();
        let removed: Vec<&&str> = old.difference(&new).collect();
        panic!(
            "the public API of ncleaner is not the committed list {}:\n  added: {added:#?}\n  removed: {removed:#?}\n\
             If the change is deliberate, update the list with\n  \
             NCLEANER_UPDATE_PUBLIC_API=1 cargo test -p ncleaner --test public_api\nand commit it.",
            file.display()
        );
    }
}
