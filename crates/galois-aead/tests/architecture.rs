//! The module layering of docs/architecture.md holds in the source: every
//! `crate::` path of a module of src/ names a module of its own layer or a
//! lower one, and the module graph has no cycle. The layers are read from
//! the document itself, so the document and this check cannot drift apart.
//! The module graph block of docs/architecture.md (between the
//! `<!-- module-graph: ... -->` and `<!-- /module-graph -->` markers) must
//! equal the graph computed here; `GALOIS_BLESS=1 cargo test -p galois-aead
//! --test architecture` rewrites the block.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Imports that break the layering today, each with the work that removes
/// it. They are reported, not refused; a new one fails the test.
const PENDING: &[(&str, &str, &str)] = &[];

fn src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The layers of docs/architecture.md: lines `layer N (name): a, b, c`.
fn doc_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/architecture.md")
}

fn layers() -> BTreeMap<String, u32> {
    let text = std::fs::read_to_string(doc_path()).expect("docs/architecture.md");
    let mut out = BTreeMap::new();
    for line in text.lines() {
        let Some(rest) = line.trim().strip_prefix("layer ") else {
            continue;
        };
        let (head, mods) = rest.rsplit_once(':').expect("layer N (name): modules");
        let n: u32 = head
            .split_whitespace()
            .next()
            .and_then(|d| d.parse().ok())
            .expect("layer number");
        for m in mods.split(',').map(str::trim).filter(|m| !m.is_empty()) {
            assert!(
                out.insert(m.to_string(), n).is_none(),
                "{m} is in two layers"
            );
        }
    }
    assert!(
        !out.is_empty(),
        "no `layer N (name): ...` lines in docs/architecture.md"
    );
    out
}

/// The crate's top-level modules and, for the names re-exported at the
/// crate root (`crate::AesGcm`), the module each comes from.
fn root() -> (BTreeSet<String>, BTreeMap<String, String>) {
    let lib = std::fs::read_to_string(src_dir().join("lib.rs")).unwrap();
    let (mut mods, mut names) = (BTreeSet::new(), BTreeMap::new());
    for line in lib.lines().map(str::trim) {
        let l = line.strip_prefix("pub ").unwrap_or(line);
        if let Some(m) = l.strip_prefix("mod ") {
            mods.insert(m.trim_end_matches(';').trim().to_string());
        } else if let Some(u) = l.strip_prefix("use ") {
            let (m, rest) = u.split_once("::").expect("pub use module::...");
            let rest = rest.trim_end_matches(';');
            for item in rest.trim_matches(|c| c == '{' || c == '}').split(',') {
                let name = item.rsplit("::").next().unwrap().trim();
                names.insert(name.to_string(), m.to_string());
            }
        }
    }
    (mods, names)
}

/// Source text without `//` comments (doc links are not imports).
fn code(text: &str) -> String {
    text.lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn ident(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

/// The first path segments after each `crate::` in `text`, with
/// `use crate::{a::X, b}` giving `a` and `b`.
fn crate_paths(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("crate::") {
        let before = rest[..i].chars().last();
        rest = &rest[i + "crate::".len()..];
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
            continue; // some_crate::...
        }
        if let Some(group) = rest.strip_prefix('{') {
            // Top-level names of a use group, skipping nested groups.
            let (mut depth, mut start) = (1, true);
            for (k, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 1 => break,
                    '}' => depth -= 1,
                    ',' if depth == 1 => start = true,
                    c if start && !c.is_whitespace() => {
                        out.push(ident(&group[k..]).to_string());
                        start = false;
                    }
                    _ => {}
                }
            }
        } else {
            out.push(ident(rest).to_string());
        }
    }
    out
}

fn rs_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rs_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// module -> module -> one file that makes the edge.
fn graph() -> BTreeMap<String, BTreeMap<String, String>> {
    let (mods, names) = root();
    let src = src_dir();
    let mut files = Vec::new();
    rs_files(&src, &mut files);
    let mut g: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for f in files {
        let rel = f.strip_prefix(&src).unwrap().to_string_lossy().into_owned();
        let top = rel.split('/').next().unwrap().trim_end_matches(".rs");
        if top == "lib" {
            continue;
        }
        assert!(mods.contains(top), "{rel}: not under a module of lib.rs");
        let text = code(&std::fs::read_to_string(&f).unwrap());
        for seg in crate_paths(&text) {
            let to = if mods.contains(&seg) {
                seg
            } else if let Some(m) = names.get(&seg) {
                m.clone()
            } else {
                panic!("{rel}: crate::{seg} is neither a module nor a root re-export");
            };
            if to != top {
                g.entry(top.to_string())
                    .or_default()
                    .entry(to)
                    .or_insert(rel.clone());
            }
        }
        g.entry(top.to_string()).or_default();
    }
    g
}

#[test]
fn modules_import_only_their_own_layer_or_lower_and_never_in_a_cycle() {
    let layer = layers();
    let (mods, _) = root();
    for m in &mods {
        assert!(
            layer.contains_key(m),
            "module {m} is in no layer of docs/architecture.md: add it"
        );
    }
    for m in layer.keys() {
        assert!(
            mods.contains(m),
            "docs/architecture.md lists {m}, which lib.rs does not declare"
        );
    }
    let g = graph();
    let bad = violations(&layer, &g, PENDING);
    assert!(
        bad.is_empty(),
        "the layering of docs/architecture.md is broken:\n{}",
        bad.join("\n")
    );
}

type Graph = BTreeMap<String, BTreeMap<String, String>>;

const GRAPH_OPEN: &str =
    "<!-- module-graph: generated by tests/architecture.rs; GALOIS_BLESS=1 rewrites it -->";
const GRAPH_CLOSE: &str = "<!-- /module-graph -->";

/// The graph as the document shows it: one line per module, in layer order
/// and, within a layer, in the order of its `layer` line; each line is
/// `N module -> imports`.
fn render(layer_lines: &[(u32, Vec<String>)], g: &Graph) -> String {
    let width = layer_lines
        .iter()
        .flat_map(|(_, ms)| ms.iter().map(String::len))
        .max()
        .unwrap_or(0);
    let mut out = String::from("```text\n");
    for (n, mods) in layer_lines {
        for m in mods {
            let list: Vec<&str> = g
                .get(m)
                .into_iter()
                .flat_map(|t| t.keys().map(String::as_str))
                .collect();
            let line = format!("{n} {m:<width$} -> {}", list.join(", "));
            out.push_str(line.trim_end());
            out.push('\n');
        }
    }
    out.push_str("```\n");
    out
}

/// The `layer` lines in document order: (number, modules in order).
fn layer_lines(text: &str) -> Vec<(u32, Vec<String>)> {
    let layer = layers();
    let mut out: Vec<(u32, Vec<String>)> = Vec::new();
    for line in text.lines() {
        let Some(rest) = line.trim().strip_prefix("layer ") else {
            continue;
        };
        let (_, mods) = rest.rsplit_once(':').expect("layer N (name): modules");
        let mods: Vec<String> = mods
            .split(',')
            .map(str::trim)
            .filter(|m| !m.is_empty())
            .map(String::from)
            .collect();
        out.push((layer[&mods[0]], mods));
    }
    out.sort_by_key(|(n, _)| *n);
    out
}

/// Replaces the text between the two marker lines of `doc` by `block`;
/// `None` if the markers are missing or out of order.
fn replace_block(doc: &str, block: &str) -> Option<String> {
    let open = doc.find(GRAPH_OPEN)? + GRAPH_OPEN.len();
    let open = open + doc[open..].find('\n')? + 1;
    let close = open + doc[open..].find(GRAPH_CLOSE)?;
    Some(format!("{}{block}{}", &doc[..open], &doc[close..]))
}

#[test]
fn the_documented_module_graph_is_the_computed_one() {
    let path = doc_path();
    let doc = std::fs::read_to_string(&path).expect("docs/architecture.md");
    let block = render(&layer_lines(&doc), &graph());
    let fresh = replace_block(&doc, &block).unwrap_or_else(|| {
        panic!("docs/architecture.md has no `{GRAPH_OPEN}` ... `{GRAPH_CLOSE}` block")
    });
    if fresh == doc {
        return;
    }
    if std::env::var_os("GALOIS_BLESS").is_some_and(|v| v == "1") {
        std::fs::write(&path, fresh).expect("write docs/architecture.md");
        return;
    }
    panic!(
        "the module graph of docs/architecture.md is stale; run with GALOIS_BLESS=1 \
         or replace the block by:\n{block}"
    );
}

/// The block rendering and replacement themselves.
#[test]
fn the_graph_block_is_rendered_and_replaced() {
    let mut g = Graph::new();
    g.entry("a".into())
        .or_default()
        .insert("lo".into(), "a.rs".into());
    let lines = vec![(0, vec!["lo".to_string()]), (1, vec!["a".to_string()])];
    let block = render(&lines, &g);
    assert_eq!(block, "```text\n0 lo ->\n1 a  -> lo\n```\n");
    let doc = format!("x\n{GRAPH_OPEN}\nold\n{GRAPH_CLOSE}\ny\n");
    assert_eq!(
        replace_block(&doc, &block).unwrap(),
        format!("x\n{GRAPH_OPEN}\n{block}{GRAPH_CLOSE}\ny\n")
    );
    assert!(replace_block("no markers", &block).is_none());
}

/// Upward imports that are not pending, and cycles among the edges that
/// are not pending.
fn violations(
    layer: &BTreeMap<String, u32>,
    g: &Graph,
    pending: &[(&str, &str, &str)],
) -> Vec<String> {
    let find = |a: &str, b: &str| pending.iter().find(|p| p.0 == a && p.1 == b);
    let mut bad = Vec::new();
    for (a, tos) in g {
        for (b, file) in tos {
            if layer[b] > layer[a] {
                match find(a, b) {
                    Some(p) => println!("    pending: {a} -> {b} ({})", p.2),
                    None => bad.push(format!(
                        "{file}: {a} (layer {}) imports {b} (layer {})",
                        layer[a], layer[b]
                    )),
                }
            }
        }
    }
    for p in pending {
        if !g.get(p.0).is_some_and(|t| t.contains_key(p.1)) {
            bad.push(format!("done, remove from PENDING: {} -> {}", p.0, p.1));
        }
    }
    fn visit<'a>(
        m: &'a str,
        g: &'a Graph,
        skip: &dyn Fn(&str, &str) -> bool,
        state: &mut BTreeMap<&'a str, u8>,
        path: &mut Vec<&'a str>,
        cycles: &mut Vec<String>,
    ) {
        match state.get(m) {
            Some(2) => return,
            Some(1) => {
                let at = path.iter().position(|x| *x == m).unwrap();
                cycles.push(format!("{} -> {m}", path[at..].join(" -> ")));
                return;
            }
            _ => {}
        }
        state.insert(m, 1);
        path.push(m);
        for b in g.get(m).into_iter().flat_map(|t| t.keys()) {
            if !skip(m, b) {
                visit(b, g, skip, state, path, cycles);
            }
        }
        path.pop();
        state.insert(m, 2);
    }
    let skip = |a: &str, b: &str| find(a, b).is_some();
    let (mut state, mut cycles) = (BTreeMap::new(), Vec::new());
    for m in g.keys() {
        visit(m, g, &skip, &mut state, &mut Vec::new(), &mut cycles);
    }
    bad.extend(cycles.into_iter().map(|c| format!("import cycle: {c}")));
    bad
}

/// The checker itself: an upward import and a cycle are both found.
#[test]
fn the_checker_finds_upward_imports_and_cycles() {
    let layer: BTreeMap<String, u32> = [("lo", 0), ("a", 1), ("b", 1), ("hi", 2)]
        .map(|(m, n)| (m.to_string(), n))
        .into();
    let graph = |edges: &[(&str, &str)]| {
        let mut g = Graph::new();
        for (a, b) in edges {
            g.entry(a.to_string())
                .or_default()
                .insert(b.to_string(), format!("{a}.rs"));
        }
        g
    };
    let ok = graph(&[("hi", "a"), ("a", "b"), ("b", "lo"), ("a", "lo")]);
    assert!(violations(&layer, &ok, &[]).is_empty());
    let up = graph(&[("lo", "hi")]);
    assert_eq!(violations(&layer, &up, &[]).len(), 1);
    assert!(violations(&layer, &up, &[("lo", "hi", "why")]).is_empty());
    let cycle = graph(&[("a", "b"), ("b", "a")]);
    let v = violations(&layer, &cycle, &[]);
    assert!(v.len() == 1 && v[0].starts_with("import cycle"), "{v:?}");
    assert!(violations(&layer, &cycle, &[("b", "a", "why")]).is_empty());
    let paths = crate_paths(
        "use crate::{aes::{Aes, X}, gcm::Tag, ct};\nlet x = crate::detect::f(); other_crate::no;",
    );
    assert_eq!(paths, ["aes", "gcm", "ct", "detect"]);
    assert_eq!(code("a // crate::gcm\nb"), "a \nb");
}

/// Sealing with a caller's salt or nonce repeats nonces if the caller
/// repeats it: such functions (`*_for_tests`, `*with_salt*`, `*with_nonce*`)
/// exist only with the `hazmat` feature, which no binding enables.
#[test]
fn fixed_salt_and_nonce_sealing_is_hazmat_only() {
    let mut found = 0;
    let mut stack = vec![src_dir()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            let text = std::fs::read_to_string(&p).unwrap();
            let lines: Vec<&str> = text.lines().collect();
            for (i, l) in lines.iter().enumerate() {
                let Some(rest) = l.trim_start().strip_prefix("pub fn ") else {
                    continue;
                };
                let name = ident(rest);
                if !(name.ends_with("_for_tests")
                    || name.contains("with_salt")
                    || name.contains("with_nonce"))
                {
                    continue;
                }
                found += 1;
                let attrs = lines[..i].iter().rev().take_while(|l| {
                    l.trim_start().starts_with("#[") || l.trim_start().starts_with("///")
                });
                assert!(
                    attrs
                        .into_iter()
                        .any(|l| l.contains("#[cfg(feature = \"hazmat\")]")),
                    "{}:{}: pub fn {name} is not behind #[cfg(feature = \"hazmat\")]",
                    p.display(),
                    i + 1
                );
            }
        }
    }
    assert!(
        found >= 2,
        "expected the chunked and stream test sealers, found {found}"
    );
    for binding in ["galois-capi", "galois-py", "galois-rustls"] {
        let toml = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../{binding}/Cargo.toml")),
        )
        .unwrap();
        assert!(!toml.contains("hazmat"), "{binding} enables hazmat");
    }
}
