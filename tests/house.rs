//! The house rules of `src/`, read from the source files themselves (docs/ARCHITECTURE.md):
//! no file imports a module that imports it back (directly or around a loop), the rules never
//! import the content layer above them, and no file outside test modules passes 700 lines.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module's path from the crate root (`["net", "web", "api"]`); the root is empty.
type Module = Vec<String>;

/// The longest a source file may be, its test modules not counted.
const MAX_LINES: usize = 700;

/// Every `.rs` file under `src/` by module path (`mod.rs`, `lib.rs` and `main.rs` name their
/// folder's module).
fn modules(src: &Path) -> BTreeMap<Module, PathBuf> {
    let mut out = BTreeMap::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("src/ is readable") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let rel = path.strip_prefix(src).expect("under src/").with_extension("");
            let mut module: Module =
                rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
            if matches!(module.last().map(String::as_str), Some("mod" | "lib" | "main")) {
                module.pop();
            }
            out.insert(module, path);
        }
    }
    out
}

/// The text without comments and without `#[cfg(test)] mod … { … }` blocks (a test module may
/// reach anywhere; it is not part of the house).
fn code_of(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let code = line.find("//").map_or(line, |i| &line[..i]);
        out.push_str(code);
        out.push('\n');
    }
    let mut kept = String::with_capacity(out.len());
    let mut rest = out.as_str();
    while let Some(at) = rest.find("#[cfg(test)]") {
        kept.push_str(&rest[..at]);
        let after = &rest[at + "#[cfg(test)]".len()..];
        let is_mod = after.trim_start().starts_with("mod ");
        // `mod tests { … }` inline, not `mod tests;` (a file of its own, not read here).
        let open = after.find(['{', ';']).filter(|&i| after.as_bytes()[i] == b'{');
        match (is_mod, open) {
            (true, Some(open)) => {
                let mut depth = 0usize;
                let mut end = after.len();
                for (i, c) in after[open..].char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                end = open + i + 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                rest = &after[end..];
            }
            _ => rest = after,
        }
    }
    kept.push_str(rest);
    kept
}

/// `a::{b, c::{d, e}}` as `a::b`, `a::c::d`, `a::c::e`.
fn expand(path: &str) -> Vec<String> {
    let path: String = path.split_whitespace().collect::<Vec<_>>().join(" ");
    let (Some(open), Some(close)) = (path.find('{'), path.rfind('}')) else { return vec![path] };
    if close < open {
        return vec![path];
    }
    let (head, body) = (&path[..open], &path[open + 1..close]);
    let mut items = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in body.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&body[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(&body[start..]);
    items
        .into_iter()
        .map(str::trim)
        .filter(|i| !i.is_empty())
        .flat_map(|i| expand(i).into_iter().map(move |e| format!("{head}{e}")))
        .collect()
}

/// The module file a path names from `module`: the deepest module along it (`crate::`,
/// `super::`, `self::`, or a child module's name), `None` for another crate's.
fn resolve(module: &Module, path: &str, files: &BTreeMap<Module, PathBuf>) -> Option<Module> {
    let path = path.split(" as ").next().unwrap_or(path).trim();
    let mut segs = path.split("::").map(str::trim).filter(|s| !s.is_empty()).peekable();
    let first = *segs.peek()?;
    let mut base: Module = match first {
        "crate" => {
            segs.next();
            Vec::new()
        }
        "self" => {
            segs.next();
            module.clone()
        }
        "super" => {
            let mut b = module.clone();
            while segs.next_if_eq(&"super").is_some() {
                b.pop();
            }
            b
        }
        child => {
            let mut b = module.clone();
            b.push(child.to_string());
            if !files.contains_key(&b) {
                return None;
            }
            module.clone()
        }
    };
    let mut best = files.contains_key(&base).then(|| base.clone());
    for seg in segs {
        base.push(seg.to_string());
        if files.contains_key(&base) {
            best = Some(base.clone());
        } else {
            break;
        }
    }
    best
}

/// Who imports whom: `use` items (grouped and `pub use` included) and inline paths.
fn imports(files: &BTreeMap<Module, PathBuf>) -> BTreeMap<Module, BTreeSet<Module>> {
    let mut graph = BTreeMap::new();
    for (module, path) in files {
        let code = code_of(&std::fs::read_to_string(path).expect("a readable source file"));
        let mut deps = BTreeSet::new();
        let mut add = |p: &str| {
            if let Some(m) = resolve(module, p, files).filter(|m| m != module) {
                deps.insert(m);
            }
        };
        // `use` items start a line (after `pub`, `pub(crate)`, …) and end at their `;`.
        let mut offset = 0;
        for line in code.lines() {
            let start = offset;
            offset += line.len() + 1;
            let trimmed = line.trim_start();
            let item = trimmed.strip_prefix("pub ").or_else(|| {
                let after = trimmed.strip_prefix("pub(")?;
                Some(after[after.find(')')? + 1..].trim_start())
            });
            let Some(after) = item.unwrap_or(trimmed).strip_prefix("use ") else { continue };
            let from = start + (line.len() - after.len());
            let end = code[from..].find(';').map_or(code.len(), |e| from + e);
            for p in expand(&code[from..end]) {
                add(&p);
            }
        }
        // Inline paths: `crate::a::b`, `super::x`, `child::y` anywhere in the code.
        let bytes = code.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let starts = bytes[i].is_ascii_alphabetic() || bytes[i] == b'_';
            let fresh = i == 0
                || !(bytes[i - 1].is_ascii_alphanumeric()
                    || bytes[i - 1] == b'_'
                    || bytes[i - 1] == b':');
            if !(starts && fresh) {
                i += 1;
                continue;
            }
            let mut j = i;
            while j < bytes.len()
                && (bytes[j].is_ascii_alphanumeric() || bytes[j] == b'_' || bytes[j] == b':')
            {
                j += 1;
            }
            let word = &code[i..j];
            if word.contains("::") {
                add(word);
            }
            i = j;
        }
        graph.insert(module.clone(), deps);
    }
    graph
}

/// The loops of a graph: its strongly connected components of more than one module (Tarjan).
fn loops(graph: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<Module>> {
    struct Walk<'a> {
        graph: &'a BTreeMap<Module, BTreeSet<Module>>,
        index: BTreeMap<&'a Module, usize>,
        low: BTreeMap<&'a Module, usize>,
        stack: Vec<&'a Module>,
        on: BTreeSet<&'a Module>,
        found: Vec<Vec<Module>>,
    }
    impl<'a> Walk<'a> {
        fn visit(&mut self, v: &'a Module) {
            let n = self.index.len();
            self.index.insert(v, n);
            self.low.insert(v, n);
            self.stack.push(v);
            self.on.insert(v);
            for w in self.graph.get(v).into_iter().flatten() {
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let lw = self.low[w];
                    let lv = self.low.get_mut(v).expect("visited");
                    *lv = (*lv).min(lw);
                } else if self.on.contains(w) {
                    let iw = self.index[w];
                    let lv = self.low.get_mut(v).expect("visited");
                    *lv = (*lv).min(iw);
                }
            }
            if self.low[v] == self.index[v] {
                let mut component = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on.remove(w);
                    component.push(w.clone());
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort();
                    self.found.push(component);
                }
            }
        }
    }
    let mut walk = Walk {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        found: Vec::new(),
    };
    for v in graph.keys() {
        if !walk.index.contains_key(v) {
            walk.visit(v);
        }
    }
    walk.found
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn named(m: &Module) -> String {
    if m.is_empty() { "(crate root)".to_string() } else { m.join("/") }
}

#[test]
fn no_file_imports_a_module_that_imports_it_back() {
    let files = modules(&src());
    let found = loops(&imports(&files));
    let words: Vec<String> =
        found.iter().map(|c| c.iter().map(named).collect::<Vec<_>>().join(" <-> ")).collect();
    assert!(found.is_empty(), "module loops in src/:\n{}", words.join("\n"));
}

#[test]
fn the_loop_finder_sees_use_super_grouped_imports_and_inline_paths() {
    let m =
        |s: &str| -> Module { s.split('/').filter(|p| !p.is_empty()).map(String::from).collect() };
    let files: BTreeMap<Module, PathBuf> =
        ["", "a", "a/b", "a/c", "d"].iter().map(|s| (m(s), PathBuf::new())).collect();
    assert_eq!(resolve(&m("a/b"), "super::c::Thing", &files), Some(m("a/c")));
    assert_eq!(resolve(&m("a/b"), "super::Thing", &files), Some(m("a")));
    assert_eq!(resolve(&m("a"), "b::Thing", &files), Some(m("a/b")));
    assert_eq!(resolve(&m("a"), "bevy::prelude::App", &files), None);
    assert_eq!(resolve(&m("d"), "crate::a::c::f", &files), Some(m("a/c")));
    assert_eq!(
        expand("crate::a::{b::X, c::{Y, Z as W}}"),
        ["crate::a::b::X", "crate::a::c::Y", "crate::a::c::Z as W"]
    );
    let graph: BTreeMap<Module, BTreeSet<Module>> = [
        (m("a"), [m("a/b")].into()),
        (m("a/b"), [m("a/c")].into()),
        (m("a/c"), [m("a")].into()),
        (m("d"), [m("a")].into()),
    ]
    .into();
    assert_eq!(loops(&graph), vec![vec![m("a"), m("a/b"), m("a/c")]]);
    let code =
        code_of("use x;\n#[cfg(test)]\nmod tests {\n    use super::y;\n}\nfn f() {} // use z;\n");
    assert!(code.contains("use x") && !code.contains("use super::y") && !code.contains("use z"));
    let code = code_of("#[cfg(test)]\nmod tests;\nuse super::kept;\nfn g() { }\n");
    assert!(code.contains("use super::kept") && code.contains("fn g"), "{code}");
}

#[test]
fn the_rules_never_import_the_content_layer() {
    let files = modules(&src());
    let offenders: Vec<String> = files
        .iter()
        .filter(|(m, _)| m.first().is_some_and(|f| f == "sim"))
        .filter(|(_, p)| {
            let text = std::fs::read_to_string(p).expect("readable");
            text.contains("crate::level")
        })
        .map(|(m, _)| named(m))
        .collect();
    assert!(offenders.is_empty(), "src/sim/ files naming crate::level: {offenders:?}");
}

#[test]
fn no_source_file_passes_seven_hundred_lines_outside_its_tests() {
    let files = modules(&src());
    let long: Vec<String> = files
        .iter()
        .filter(|(m, _)| !m.iter().any(|s| s == "tests"))
        .filter_map(|(m, p)| {
            let lines = code_of(&std::fs::read_to_string(p).expect("readable")).lines().count();
            (lines > MAX_LINES).then(|| format!("{} ({lines})", named(m)))
        })
        .collect();
    assert!(long.is_empty(), "over {MAX_LINES} lines outside test modules: {long:?}");
}
