//! The house rules of `src/`, read from the source files themselves (docs/ARCHITECTURE.md,
//! "Rules of the house"): every module stands on a floor and imports nothing from a floor above
//! it; no folder imports a folder that imports it back; no file imports a module that imports
//! it back (directly or around a loop); the rules never import the content layer above them;
//! no file outside test modules passes 700 lines; `net/` and `client/` keep their files in
//! rooms, not flat.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module's path from the crate root (`["net", "web", "api"]`); the root is empty.
type Module = Vec<String>;

/// The longest a source file may be, its test modules not counted.
const MAX_LINES: usize = 700;

/// The most `.rs` files that may sit directly in `src/net/` or `src/client/`; the rest live in
/// subfolders named for what they hold.
const MAX_FLAT_FILES: usize = 12;

/// The floors of the house, lowest first, written once. A module may import its own floor and
/// the floors below it, never one above. A module's floor is that of the longest path listed
/// here that starts its own (`tandem` is the couch mode's rules; its scripts, bundles,
/// recorder and replay CLI stand on the replay floor they use); `""` is the crate root alone.
/// A new top-level module fails the house until it is placed here.
const FLOORS: &[(&str, &[&str])] = &[
    ("rules", &["sim", "tandem", "clock", "schedule", "caught", "stdout"]),
    (
        "level and replay core",
        &[
            "level",
            "replay",
            "report",
            "tandem/script",
            "tandem/bundle",
            "tandem/recorder",
            "tandem/cli",
        ],
    ),
    ("protocol", &["protocol", "project"]),
    ("bots", &["bot"]),
    ("net", &["net", "board"]),
    ("client", &["client"]),
    ("tools and CLI", &["bench", "soak", "fuzz", "directory", ""]),
];

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

/// `"a/b"` as a module path (`""` is the crate root).
fn module_of(path: &str) -> Module {
    path.split('/').filter(|p| !p.is_empty()).map(String::from).collect()
}

/// Test modules (a `tests` folder or file anywhere in the path) may reach anywhere.
fn in_tests(m: &Module) -> bool {
    m.iter().any(|s| s == "tests")
}

/// The floor (index into `floors`) of a module: that of the longest listed path starting its
/// own; `""` names the crate root only. `None`: a module nobody placed.
fn floor_of(module: &Module, floors: &[(&str, &[&str])]) -> Option<usize> {
    let mut best: Option<(usize, usize)> = None;
    for (floor, (_, paths)) in floors.iter().enumerate() {
        for path in *paths {
            let prefix = module_of(path);
            let fits =
                if prefix.is_empty() { module.is_empty() } else { module.starts_with(&prefix) };
            if fits && best.is_none_or(|(len, _)| prefix.len() >= len) {
                best = Some((prefix.len(), floor));
            }
        }
    }
    best.map(|(_, floor)| floor)
}

/// Every import that climbs: (importer, imported), the importer on a lower floor than what it
/// imports. Modules without a floor are [`unplaced`]'s to report, not this.
fn upward_imports(
    graph: &BTreeMap<Module, BTreeSet<Module>>,
    floors: &[(&str, &[&str])],
) -> Vec<(Module, Module)> {
    let mut out = Vec::new();
    for (from, deps) in graph.iter().filter(|(m, _)| !in_tests(m)) {
        let Some(low) = floor_of(from, floors) else { continue };
        for to in deps {
            if floor_of(to, floors).is_some_and(|high| high > low) {
                out.push((from.clone(), to.clone()));
            }
        }
    }
    out
}

/// Modules outside test modules that no floor holds.
fn unplaced<'a>(
    modules: impl IntoIterator<Item = &'a Module>,
    floors: &[(&str, &[&str])],
) -> Vec<Module> {
    modules.into_iter().filter(|m| !in_tests(m) && floor_of(m, floors).is_none()).cloned().collect()
}

/// The folders among the modules: every path with a module below it (`net`, `net/web`,
/// `sim/action`), whatever its depth.
fn folders<'a>(modules: impl IntoIterator<Item = &'a Module>) -> BTreeSet<Module> {
    modules.into_iter().flat_map(|m| (1..m.len()).map(|d| m[..d].to_vec())).collect()
}

/// The imports between sibling folders (same parent, so the same depth): for a module import
/// a → b, the two folders where their paths part, when both are folders. Each folder edge
/// keeps the first module import that makes it, to name in a failure.
fn folder_imports(
    graph: &BTreeMap<Module, BTreeSet<Module>>,
    folders: &BTreeSet<Module>,
) -> BTreeMap<(Module, Module), (Module, Module)> {
    let mut out = BTreeMap::new();
    for (from, deps) in graph.iter().filter(|(m, _)| !in_tests(m)) {
        for to in deps {
            let common = from.iter().zip(to).take_while(|(x, y)| x == y).count();
            if from.len() <= common || to.len() <= common {
                continue;
            }
            let (a, b) = (from[..=common].to_vec(), to[..=common].to_vec());
            if folders.contains(&a) && folders.contains(&b) {
                out.entry((a, b)).or_insert_with(|| (from.clone(), to.clone()));
            }
        }
    }
    out
}

/// The loops between sibling folders, each with the module imports that close it:
/// ("a <-> b", ["a/x imports b/y", …]).
fn folder_loops(
    graph: &BTreeMap<Module, BTreeSet<Module>>,
    folders: &BTreeSet<Module>,
) -> Vec<(String, Vec<String>)> {
    let edges = folder_imports(graph, folders);
    let mut folder_graph: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for (a, b) in edges.keys() {
        folder_graph.entry(a.clone()).or_default().insert(b.clone());
        folder_graph.entry(b.clone()).or_default();
    }
    loops(&folder_graph)
        .into_iter()
        .map(|ring| {
            let why = edges
                .iter()
                .filter(|((a, b), _)| ring.contains(a) && ring.contains(b))
                .map(|(_, (from, to))| format!("{} imports {}", named(from), named(to)))
                .collect();
            (ring.iter().map(named).collect::<Vec<_>>().join(" <-> "), why)
        })
        .collect()
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

#[test]
fn every_module_stands_on_a_floor_and_no_import_climbs() {
    let files = modules(&src());
    let lost = unplaced(files.keys(), FLOORS);
    let lost: Vec<String> = lost.iter().map(named).collect();
    assert!(
        lost.is_empty(),
        "modules on no floor (place them in FLOORS, tests/house.rs): {lost:?}"
    );
    let floor = |m: &Module| floor_of(m, FLOORS).map_or("?", |f| FLOORS[f].0);
    let climbs: Vec<String> = upward_imports(&imports(&files), FLOORS)
        .iter()
        .map(|(from, to)| {
            let file =
                files[from].strip_prefix(src()).map_or(files[from].clone(), Path::to_path_buf);
            format!(
                "src/{} ({}) imports crate::{} ({})",
                file.display(),
                floor(from),
                to.join("::"),
                floor(to)
            )
        })
        .collect();
    assert!(
        climbs.is_empty(),
        "imports from a lower floor to a higher one:\n{}",
        climbs.join("\n")
    );
}

/// Folder loops that were there when the check was written, each to be untangled and then
/// taken off this list (the test fails on a listed ring that is gone, so the list cannot rot).
/// The client's ring came with the grouping of `client/` (issue 32): the Tandem screen's
/// online half uses the window's session, the join window starts Tandem's online plugin, and
/// the screenshot capture reads the Tandem screen.
const KNOWN_FOLDER_LOOPS: &[&str] = &[];

#[test]
fn no_folder_imports_a_folder_that_imports_it_back() {
    let files = modules(&src());
    let found = folder_loops(&imports(&files), &folders(files.keys()));
    let new: Vec<String> = found
        .iter()
        .filter(|(ring, _)| !KNOWN_FOLDER_LOOPS.contains(&ring.as_str()))
        .map(|(ring, why)| format!("{ring}: {}", why.join("; ")))
        .collect();
    assert!(new.is_empty(), "folder loops in src/:\n{}", new.join("\n"));
    let gone: Vec<&&str> =
        KNOWN_FOLDER_LOOPS.iter().filter(|k| !found.iter().any(|(ring, _)| ring == **k)).collect();
    assert!(gone.is_empty(), "untangled, take off KNOWN_FOLDER_LOOPS: {gone:?}");
}

#[test]
fn the_floor_checker_fails_a_climb_and_a_folder_loop_and_passes_a_sound_house() {
    let m = module_of;
    let floors: &[(&str, &[&str])] =
        &[("rules", &["core", "base"]), ("middle", &["mid", "core/tool"]), ("top", &["app", ""])];
    let graph = |edges: &[(&str, &str)]| {
        let mut g: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
        for (a, b) in edges {
            g.entry(m(a)).or_default().insert(m(b));
            g.entry(m(b)).or_default();
        }
        g
    };
    // Sound: each import lands on its own floor or below; core/tool (middle) may use mid.
    let sound = graph(&[
        ("app/x", "mid/y"),
        ("app/x", "core/z"),
        ("mid/y", "base/z"),
        ("core/tool", "mid/y"),
        ("", "app/x"),
        ("core/tests/t", "app/x"),
    ]);
    assert!(upward_imports(&sound, floors).is_empty());
    assert!(folder_loops(&sound, &folders(sound.keys())).is_empty());
    assert!(unplaced(sound.keys(), floors).is_empty());
    // The rules reaching up to the middle floor: named, importer first.
    let climb = graph(&[("core/z", "mid/y"), ("mid/y", "core/w")]);
    assert_eq!(upward_imports(&climb, floors), vec![(m("core/z"), m("mid/y"))]);
    // Two folders on one floor that import each other: a loop, with the imports that close it.
    let ring = graph(&[("mid/a/x", "mid/b/y"), ("mid/b/z", "mid/a/w")]);
    let found = folder_loops(&ring, &folders(ring.keys()));
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "mid/a <-> mid/b");
    assert_eq!(found[0].1, ["mid/a/x imports mid/b/y", "mid/b/z imports mid/a/w"]);
    // A three-folder ring at the top level is a loop too; a file importing a folder is not.
    let around = graph(&[("app/p", "mid/q"), ("mid/q", "core/r"), ("core/r", "app/s")]);
    assert_eq!(folder_loops(&around, &folders(around.keys()))[0].0, "app <-> core <-> mid");
    let file = graph(&[("app", "mid/q"), ("mid/q", "app")]);
    assert!(folder_loops(&file, &folders(file.keys())).is_empty());
    // A module no floor holds is reported, not skipped.
    assert_eq!(unplaced(&[m("stray/x")], floors), vec![m("stray/x")]);
}

#[test]
fn net_and_client_keep_their_files_in_rooms() {
    // Armed per folder once its grouping has landed (the move that makes `net/server/` and
    // `client/screens/`); until then the flat folder is what the move is for, not a breach.
    for (folder, room) in [("net", "server"), ("client", "screens")] {
        let dir = src().join(folder);
        if !dir.join(room).is_dir() {
            eprintln!("src/{folder}/{room}/ is not there yet: the flat-file limit waits for it");
            continue;
        }
        let flat: Vec<String> = std::fs::read_dir(&dir)
            .expect("readable")
            .map(|e| e.expect("a directory entry").path())
            .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "rs"))
            .map(|p| p.file_name().expect("a name").to_string_lossy().into_owned())
            .collect();
        assert!(
            flat.len() <= MAX_FLAT_FILES,
            "src/{folder}/ has {} .rs files directly in it (at most {MAX_FLAT_FILES}): {flat:?}",
            flat.len()
        );
    }
}
