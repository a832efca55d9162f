//! Levels, recipes and the validator end to end: shipped files, one fixture per error code,
//! fuzzed garbage, the `validate` CLI's exit codes, the Bevy asset loader, and generated
//! kitchens (`levels/generated.rs`).
//!
//! One test binary on purpose: each integration binary links Bevy, and link time dominates.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use undercooked::level::compile::parse_level;
use undercooked::level::files::{
    KnownLevel, LevelSource, check_campaign, check_level_set, level_files,
};
use undercooked::level::{
    ErrorCode, LevelError, builtin_recipes, find_level, load_campaign, load_recipes_file,
    parse_recipes,
};
use undercooked::sim::kinds::{StationKind, Tile};
use undercooked::sim::kitchen::Level;
use undercooked::sim::recipe_book::RecipeBook;
use undercooked::sim::units::TICK_HZ;

#[path = "levels/designer.rs"]
mod designer;
#[path = "levels/generated.rs"]
mod generated;
#[path = "levels/publish.rs"]
mod publish;
#[path = "levels/versus.rs"]
mod versus;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn book() -> RecipeBook {
    load_recipes_file(&root().join("assets/recipes.ron")).expect("the shipped recipe book is valid")
}

fn shipped_sources() -> Vec<LevelSource> {
    let files = level_files(&root().join("levels")).expect("levels/ is readable");
    files
        .iter()
        .map(|p| LevelSource {
            file: p.display().to_string(),
            bytes: std::fs::read(p).expect("readable level"),
        })
        .collect()
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The invariants the sim relies on, for any level the compiler accepts.
fn assert_level_invariants(level: &Level) {
    assert!(level.width > 0 && level.height > 0);
    assert_eq!(level.tiles.len(), (level.width * level.height) as usize);
    assert!(!level.spawns.is_empty());
    for &spawn in &level.spawns {
        assert!(!level.tile(spawn).blocks_body(), "spawn {spawn:?} is walkable");
    }
    let mut last = (-1, -1);
    for (i, s) in level.stations.iter().enumerate() {
        assert_eq!(level.tile(s.cell), Tile::Station(s.kind));
        let key = (s.cell.1, s.cell.0);
        assert!(key > last, "stations are row-major (station_at binary-searches on it)");
        last = key;
        assert_eq!(level.station_at(s.cell), Some(i));
    }
    assert_eq!(level.station_at((-1, 0)), None);
    assert_eq!(level.station_at((level.width, level.height)), None);
    let tile_stations = level.tiles.iter().filter(|t| matches!(t, Tile::Station(_))).count();
    assert_eq!(tile_stations, level.stations.len());
    let o = &level.orders;
    assert!(o.interval_min >= 1 && o.interval_min <= o.interval_max);
    assert!(o.deadline >= 1 && level.time_limit >= 1 && o.concurrent >= 1);
    assert!(level.props.plates >= 1);
}

// ---------------------------------------------------------------- (a) shipped files

#[test]
fn the_shipped_campaign_loads_in_index_order() {
    let book = book();
    let levels = load_campaign(&root().join("levels"), &book).expect("campaign is valid");
    let ids: Vec<&str> = levels.iter().map(|l| l.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "tutorial",
            "dash_diner",
            "corner_diner",
            "soup_kitchen",
            "river_crossing",
            "dish_pit",
            "burger_bar",
            "catch_yard",
            "ferry",
            "long_pass",
            "relay_line",
            "harbour",
            "grill_fire",
            "dim_sum_express",
            "drawbridge"
        ]
    );
    for level in &levels {
        assert_level_invariants(level);
        for kind in [StationKind::Serve, StationKind::Trash, StationKind::Prep] {
            assert!(level.stations.iter().any(|s| s.kind == kind), "{} has a {kind:?}", level.id);
        }
        let washes = level.stations.iter().any(|s| s.kind == StationKind::Sink);
        let rack = level.stations.iter().any(|s| s.kind == StationKind::PlateRack);
        assert!(washes || rack, "{} has a plate path", level.id);
        assert!((9..=14).contains(&level.width) && (5..=9).contains(&level.height));
    }
    // Issue 9: a campaign of at least ten kitchens.
    assert!(levels.len() >= 10, "{} levels", levels.len());
}

/// What the docs say about the campaign is the campaign: docs/LEVELS.md's `index.ron` block
/// and its table (order, names, hints) are `levels/index.ron` and the level files, and the
/// README's "N-kitchen campaign" is its size.
#[test]
fn the_docs_campaign_is_the_shipped_campaign() {
    let book = book();
    let levels = load_campaign(&root().join("levels"), &book).expect("campaign is valid");
    let ids: Vec<&str> = levels.iter().map(|l| l.id.as_str()).collect();
    let doc = std::fs::read_to_string(root().join("docs/LEVELS.md")).expect("docs/LEVELS.md");
    let section = doc.split("## The campaign (`levels/index.ron`)").nth(1).expect("its section");
    let block = section.split("```ron").nth(1).and_then(|b| b.split("```").next()).expect("block");
    let listed: Vec<&str> =
        block.split("id: \"").skip(1).filter_map(|b| b.split('"').next()).collect();
    assert_eq!(listed, ids, "docs/LEVELS.md's index.ron block");
    let rows: Vec<Vec<&str>> = section
        .lines()
        .take_while(|l| !l.starts_with("## "))
        .filter(|l| l.starts_with("| ") && l[2..].starts_with(|c: char| c.is_ascii_digit()))
        .map(|l| l.trim_matches('|').split(" | ").map(str::trim).collect())
        .collect();
    assert_eq!(rows.len(), levels.len(), "one table row per campaign level");
    for (n, (row, level)) in rows.iter().zip(&levels).enumerate() {
        assert_eq!(row[0], (n + 1).to_string(), "{row:?}");
        assert_eq!(row[1], format!("`{}`", level.id), "{row:?}");
        assert_eq!(row[2], level.name, "{row:?}");
        assert_eq!(row[4], level.hint, "{row:?}");
    }
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let size = format!("a {}-kitchen campaign", levels.len());
    assert!(readme.contains(&size), "the README should say \"{size}\"");
}

/// docs/LEVELS.md quotes the last line but one of `undercooked bot prove` (the campaign's
/// shape: rounds won, stars, the share of the clock the wins took): the quote is what the
/// command prints today.
#[test]
fn the_docs_campaign_shape_is_what_bot_prove_prints() {
    let out = Command::new(env!("CARGO_BIN_EXE_undercooked"))
        .args(["bot", "prove"])
        .current_dir(root())
        .env_remove("UNDERCOOKED_RECIPES")
        .output()
        .expect("the binary runs");
    assert_eq!(out.status.code(), Some(0), "every level winnable");
    let text = String::from_utf8_lossy(&out.stdout);
    let shape = text.lines().find(|l| l.starts_with("all: ")).expect("the shape line");
    let doc = std::fs::read_to_string(root().join("docs/LEVELS.md")).expect("docs/LEVELS.md");
    assert!(doc.contains(&format!("\n{shape}\n")), "docs/LEVELS.md should quote: {shape}");
}

#[test]
fn every_shipped_level_file_validates_as_a_set() {
    let book = book();
    for checked in check_level_set(&shipped_sources(), &book) {
        if let Err(errors) = &checked.result {
            panic!("{} is invalid:\n{}", checked.file, lines(errors));
        }
    }
}

#[test]
fn the_builtin_book_is_the_shipped_file() {
    assert_eq!(builtin_recipes().expect("valid"), book());
}

#[test]
fn the_tutorial_compiles_to_the_documented_shape() {
    let book = book();
    let level = find_level(&root().join("levels"), "tutorial", &book).expect("found");
    assert_eq!((level.width, level.height), (9, 5));
    // Spawns by digit, stations row-major: the first station is the lettuce shelf at (2, 0).
    assert_eq!(level.spawns, vec![(3, 2), (5, 2)]);
    assert_eq!(level.stations[0].cell, (2, 0));
    assert_eq!(level.time_limit, 180 * TICK_HZ);
    assert_eq!(level.orders.interval_min, 12 * TICK_HZ);
    assert_eq!(level.orders.interval_max, 18 * TICK_HZ);
    assert_eq!(level.orders.deadline, 60 * TICK_HZ);
    assert!(matches!(
        find_level(&root().join("levels"), "no_such_level", &book),
        Err(undercooked::level::LoadError::NotFound(_))
    ));
}

// ---------------------------------------------------------------- (b) one fixture per code

/// A fixture's first line: `// expect: CODE @ LINE` (or `@ -` when the error has no place).
fn expectation(src: &str, path: &Path) -> (ErrorCode, Option<u32>) {
    let header = src.lines().next().unwrap_or_default();
    let rest = header
        .strip_prefix("// expect: ")
        .unwrap_or_else(|| panic!("{}: missing `// expect:` header", path.display()));
    let (code, line) = rest.split_once(" @ ").expect("`CODE @ LINE`");
    let code = ErrorCode::from_str_code(code.trim()).expect("a known code");
    (code, line.trim().parse().ok())
}

fn fixtures(dir: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
        .expect("fixture folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    files.sort();
    files
}

fn lines(errors: &[LevelError]) -> String {
    errors.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n")
}

fn assert_exactly(path: &Path, errors: &[LevelError], code: ErrorCode, line: Option<u32>) {
    let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
    assert_eq!(name, code.as_str().to_lowercase(), "fixture named after its code");
    assert!(!errors.is_empty(), "{}: no errors", path.display());
    assert!(
        errors.iter().all(|e| e.code == code),
        "{}: expected only {code}, got\n{}",
        path.display(),
        lines(errors)
    );
    assert_eq!(errors[0].line, line, "{}: line of\n{}", path.display(), lines(errors));
}

#[test]
fn each_bad_fixture_yields_exactly_its_code_and_line() {
    let book = book();
    let mut covered = BTreeSet::new();
    for path in fixtures("tests/fixtures/levels/bad") {
        let bytes = read(&path);
        let (code, line) = expectation(&String::from_utf8_lossy(&bytes), &path);
        // Validated after the shipped levels, as `validate levels/ fixture.ron` would.
        let mut set = shipped_sources();
        set.push(LevelSource { file: path.display().to_string(), bytes });
        let checked = check_level_set(&set, &book);
        let last = checked.last().expect("the fixture");
        let errors = last.result.as_ref().expect_err("fixture must be invalid");
        assert_exactly(&path, errors, code, line);
        covered.insert(code);
    }
    // The shipped levels as they are, except tutorial's hash, which the fixtures' index
    // entries do not match (LEVEL_NOT_PUBLISHED).
    let known: Vec<KnownLevel> = ["tutorial", "soup_kitchen", "burger_bar", "harbour"]
        .map(|id| KnownLevel {
            id: id.into(),
            hash: undercooked::level::file_hash(&read(&root().join(format!("levels/{id}.ron")))),
        })
        .into();
    for path in fixtures("tests/fixtures/levels/bad_index") {
        let bytes = read(&path);
        let (code, line) = expectation(&String::from_utf8_lossy(&bytes), &path);
        let errors = check_campaign(&bytes, &path.display().to_string(), &known).expect_err("bad");
        assert_exactly(&path, &errors, code, line);
        covered.insert(code);
    }
    for path in fixtures("tests/fixtures/recipes/bad") {
        let bytes = read(&path);
        let (code, line) = expectation(&String::from_utf8_lossy(&bytes), &path);
        let errors = parse_recipes(&bytes, &path.display().to_string()).expect_err("bad");
        assert_exactly(&path, &errors, code, line);
        covered.insert(code);
    }
    let missing: Vec<&str> =
        ErrorCode::ALL.iter().filter(|c| !covered.contains(c)).map(|c| c.as_str()).collect();
    assert!(missing.is_empty(), "codes without a fixture: {missing:?}");
}

#[test]
fn a_broken_level_reports_every_problem_at_once() {
    let src = read(&root().join("levels/tutorial.ron"));
    let text = String::from_utf8(src)
        .expect("utf8")
        .replace("\"R..1.2..W\"", "\"R..1.2..Q\"")
        .replace("concurrent: 2", "concurrent: 0")
        .replace("time_limit: 180.0", "time_limit: -1.0");
    let errors = parse_level(text.as_bytes(), "t.ron", &book()).expect_err("invalid");
    let codes: BTreeSet<ErrorCode> = errors.iter().map(|e| e.code).collect();
    let want =
        [ErrorCode::UnknownTile, ErrorCode::NoServe, ErrorCode::BadCount, ErrorCode::BadDuration];
    assert_eq!(codes, want.into_iter().collect(), "{}", lines(&errors));
}

// ---------------------------------------------------------------- (c) fuzz: never panic

/// xorshift64: a fixed-seed byte source, so failures reproduce without a rand crate.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Runs every parser over `bytes`; whatever the input, the answer is a value or coded errors.
fn parse_all(bytes: &[u8], book: &RecipeBook) -> Result<(), Vec<LevelError>> {
    let known = vec![KnownLevel { id: "tutorial".into(), hash: "0000000000000000".into() }];
    let _ = parse_recipes(bytes, "fuzz.ron");
    let _ = check_campaign(bytes, "fuzz.ron", &known);
    match parse_level(bytes, "fuzz.ron", book) {
        Ok(level) => {
            assert_level_invariants(&level);
            Ok(())
        }
        Err(errors) => {
            assert!(!errors.is_empty(), "an Err always names a problem");
            Err(errors)
        }
    }
}

fn shipped_texts() -> Vec<(String, Vec<u8>)> {
    let mut texts: Vec<(String, Vec<u8>)> =
        shipped_sources().into_iter().map(|s| (s.file, s.bytes)).collect();
    for extra in ["levels/index.ron", "assets/recipes.ron"] {
        texts.push((extra.into(), read(&root().join(extra))));
    }
    texts
}

#[test]
fn every_truncation_of_every_shipped_file_is_an_error() {
    let book = book();
    for (file, bytes) in shipped_texts() {
        // Past the final `)` only whitespace is cut, and the file is still whole.
        let end = bytes.iter().rposition(|&b| b == b')').expect("ends with )");
        for cut in 0..=end {
            let errors = parse_all(&bytes[..cut], &book);
            assert!(errors.is_err(), "{file} cut at byte {cut} was accepted as a level");
            let code = errors.err().and_then(|e| e.first().map(|e| e.code));
            assert!(code.is_some(), "{file} cut at {cut}");
        }
    }
}

#[test]
fn empty_binary_and_random_inputs_are_coded_errors() {
    let book = book();
    let fixed: [&[u8]; 9] = [
        b"",
        b"   \n\n",
        b"\xEF\xBB\xBF",
        b"\xff\xfe\xfd",
        b"Level(\x00)",
        b"Level(",
        b"Level()",
        b"RecipeBook(recipes: [])",
        b"((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((",
    ];
    for bytes in fixed {
        let errors = parse_all(bytes, &book).expect_err("not a level");
        assert!(!errors.is_empty());
    }
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    for _ in 0..400 {
        let len = rng.below(600);
        let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        assert!(parse_all(&bytes, &book).is_err(), "random bytes are not a level");
    }
}

#[test]
fn mutated_shipped_files_never_panic() {
    let book = book();
    let mut rng = XorShift(0xD1B5_4A32_D192_ED03);
    const ALPHABET: &[u8] = b"#.-_KFUPWSTR1234oltmbpfr\"'(),:[]{} \n0123456789e-+.xZ";
    for (_, original) in shipped_texts() {
        for _ in 0..150 {
            let mut bytes = original.clone();
            for _ in 0..=rng.below(4) {
                let at = rng.below(bytes.len());
                match rng.below(4) {
                    0 => bytes[at] = ALPHABET[rng.below(ALPHABET.len())],
                    1 => {
                        let to = (at + rng.below(24)).min(bytes.len());
                        bytes.drain(at..to);
                    }
                    2 => bytes.insert(at, ALPHABET[rng.below(ALPHABET.len())]),
                    _ => bytes[at] = rng.next() as u8,
                }
                if bytes.is_empty() {
                    break;
                }
            }
            let _ = parse_all(&bytes, &book);
        }
    }
}

// ---------------------------------------------------------------- (d) the CLI's exit codes

fn validate(args: &[&Path]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_undercooked"))
        .arg("validate")
        .args(args)
        .current_dir(root())
        .env_remove("UNDERCOOKED_RECIPES")
        .output()
        .expect("the binary runs");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap_or(-1), text)
}

fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("undercooked-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
fn validate_exits_0_on_the_shipped_levels() {
    let (code, out) = validate(&[]);
    assert_eq!(code, 0, "{out}");
    let twice =
        [Path::new("levels"), Path::new("levels/tutorial.ron"), Path::new("levels/index.ron")];
    let (code, out) = validate(&twice);
    assert_eq!(code, 0, "naming a file twice is not a duplicate id:\n{out}");
    // Every file in the folder (levels and the index) once, however often it was named.
    let files = std::fs::read_dir(root().join("levels"))
        .expect("levels/")
        .filter(|e| e.as_ref().is_ok_and(|e| e.path().extension().is_some_and(|x| x == "ron")))
        .count();
    assert!(out.contains(&format!("{files} file(s) checked: {files} valid, 0 invalid")), "{out}");
}

/// A folder without `index.ron` is levels, not a campaign: `validate DIR` checks them and says
/// the index is missing in a note; plain `validate` checks the campaign the game loads, so there
/// a missing `levels/index.ron` is a missing path (exit 2), as the game would find it.
#[test]
fn validate_says_when_a_folder_has_no_campaign_index() {
    let dir = scratch_dir("no-index");
    std::fs::create_dir_all(dir.join("levels")).unwrap();
    std::fs::copy(root().join("levels/tutorial.ron"), dir.join("levels/tutorial.ron")).unwrap();
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_undercooked"))
            .arg("validate")
            .args(args)
            .current_dir(&dir)
            .env_remove("UNDERCOOKED_RECIPES")
            .output()
            .expect("the binary runs");
        let text = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        (out.status.code(), text)
    };
    let (code, out) = run(&["levels"]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("levels has no index.ron"), "{out}");
    let (code, out) = run(&[]);
    assert_eq!(code, Some(2), "{out}");
    assert!(
        out.contains("levels/index.ron: cannot read: the campaign's index is missing"),
        "{out}"
    );
    std::fs::copy(root().join("levels/index.ron"), dir.join("levels/index.ron")).unwrap();
    let (code, out) = run(&[]);
    assert_eq!(code, Some(1), "the index names 14 levels the folder lacks: {out}");
    assert!(out.contains("UNKNOWN_LEVEL"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn validate_exits_1_on_a_bad_fixture_and_names_the_code() {
    let (code, out) = validate(&[Path::new("tests/fixtures/levels/bad/grid_ragged.ron")]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("grid_ragged.ron:10:18: GRID_RAGGED:"), "{out}");
    let (code, out) = validate(&[Path::new("tests/fixtures/levels/bad")]);
    assert_eq!(code, 1, "{out}");
}

#[test]
fn validate_exits_2_on_a_missing_path() {
    let (code, out) = validate(&[Path::new("levels/tutorial.ron"), Path::new("no/such/level.ron")]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("no/such/level.ron"), "{out}");
}

#[test]
fn validate_exits_1_never_101_on_garbage_files() {
    let dir = scratch_dir("garbage");
    let tutorial = read(&root().join("levels/tutorial.ron"));
    let mut rng = XorShift(42);
    let mut files: Vec<(String, Vec<u8>)> = vec![
        ("empty.ron".into(), Vec::new()),
        ("binary.bin".into(), (0..=255u8).collect()),
        ("latin1.ron".into(), b"Level(name: \"caf\xe9\")".to_vec()),
    ];
    for i in 0..8 {
        let cut = rng.below(tutorial.len() - 2);
        files.push((format!("cut{i}.ron"), tutorial[..cut].to_vec()));
        let random: Vec<u8> = (0..rng.below(300)).map(|_| rng.next() as u8).collect();
        files.push((format!("random{i}.ron"), random));
    }
    for (name, bytes) in &files {
        let path = dir.join(name);
        std::fs::write(&path, bytes).expect("write");
        let (code, out) = validate(&[&path]);
        assert_eq!(code, 1, "{name}: {out}");
        assert!(
            ErrorCode::ALL.iter().any(|c| out.contains(c.as_str())),
            "{name} names a code: {out}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------------- the Bevy asset loader

mod loader {
    use super::*;
    use bevy::asset::io::AssetSourceBuilder;
    use bevy::prelude::*;
    use undercooked::level::loader::{
        LastGoodLevels, LevelAsset, LevelPlugin, RecipeBookAsset, register_levels_source,
    };

    fn app() -> App {
        let mut app = App::new();
        app.add_plugins(MinimalPlugins);
        register_levels_source(&mut app, "levels");
        app.register_asset_source(
            "fixtures",
            AssetSourceBuilder::platform_default("tests/fixtures/levels/bad", None),
        );
        app.add_plugins((AssetPlugin::default(), LevelPlugin));
        app
    }

    /// Steps the app until `done` holds; loading runs on Bevy's IO threads.
    fn update_until(app: &mut App, done: impl Fn(&World) -> bool) {
        for _ in 0..5000 {
            app.update();
            if done(app.world()) {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        panic!("assets never finished loading");
    }

    #[test]
    fn loads_good_and_bad_levels_and_keeps_only_good_ones() {
        let mut app = app();
        let server = app.world().resource::<AssetServer>().clone();
        let good: Handle<LevelAsset> = server.load("levels://tutorial.ron");
        let bad: Handle<LevelAsset> = server.load("fixtures://grid_ragged.ron");
        let book: Handle<RecipeBookAsset> = server.load("recipes.ron");
        let ids = (good.id(), bad.id(), book.id());
        update_until(&mut app, move |w| {
            w.resource::<Assets<LevelAsset>>().get(ids.0).is_some()
                && w.resource::<Assets<LevelAsset>>().get(ids.1).is_some()
                && w.resource::<Assets<RecipeBookAsset>>().get(ids.2).is_some()
        });
        app.update();
        let levels = app.world().resource::<Assets<LevelAsset>>();
        assert_eq!(
            levels.get(&good).and_then(LevelAsset::level).map(|l| l.id.as_str()),
            Some("tutorial")
        );
        let errors =
            levels.get(&bad).and_then(|a| a.result.as_ref().err()).expect("bad fixture fails");
        assert!(errors.iter().all(|e| e.code == ErrorCode::GridRagged), "{}", lines(errors));
        let books = app.world().resource::<Assets<RecipeBookAsset>>();
        assert!(books.get(&book).is_some_and(|b| b.result.is_ok()));
        let kept = app.world().resource::<LastGoodLevels>();
        assert!(kept.get(&good).is_some());
        assert!(kept.get(&bad).is_none());
    }
}

// ---- Hot reload: the polling watcher, the designer restart, and the server process ----

/// The valid edit: the top row's counter moves two cells left (the kitchen stays winnable).
const MOVE_A: &str = "\"##l-t-K##\"";
const MOVE_B: &str = "\"#-l#t-K##\"";
/// The broken edit: an unknown tile in the first floor row.
const BREAK_A: &str = "\"#.......#\"";
const BREAK_B: &str = "\"#..?....#\"";

/// A fresh temporary copy of the shipped levels folder (`all`) or of tutorial.ron alone.
fn temp_levels(name: &str, all: bool) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("uc-reload-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let files = if all {
        std::fs::read_dir(root().join("levels")).unwrap().map(|e| e.unwrap().path()).collect()
    } else {
        vec![root().join("levels/tutorial.ron")]
    };
    for f in files {
        std::fs::copy(&f, dir.join(f.file_name().unwrap())).unwrap();
    }
    dir
}

/// The 1-based line and column of the first `?` in `text` (what UNKNOWN_TILE must point at).
fn position_of_question_mark(text: &str) -> (u32, u32) {
    for (i, line) in text.lines().enumerate() {
        if let Some(col) = line.chars().position(|c| c == '?') {
            return (i as u32 + 1, col as u32 + 1);
        }
    }
    panic!("no `?` in the text")
}

/// Every watcher message seen so far (messages live two updates; the test reads them later).
#[derive(bevy::prelude::Resource, Default)]
struct Seen {
    reloaded: Vec<String>,
    rejected: Vec<undercooked::level::LevelRejected>,
}

fn collect(
    mut seen: bevy::prelude::ResMut<Seen>,
    mut ok: bevy::prelude::MessageReader<undercooked::level::LevelReloaded>,
    mut bad: bevy::prelude::MessageReader<undercooked::level::LevelRejected>,
) {
    seen.reloaded.extend(ok.read().map(|r| r.id.clone()));
    seen.rejected.extend(bad.read().cloned());
}

#[test]
fn hot_reload_restarts_the_designer_room_keeps_the_last_good_level_and_clears_on_fix() {
    use bevy::prelude::*;
    use std::time::Duration;
    use undercooked::level::{DesignerPlugin, LevelLibrary, LevelWatchConfig, LevelWatchPlugin};
    use undercooked::sim::open::SeatSpec;
    use undercooked::sim::room::Room;

    let dir = temp_levels("app", false);
    let file = dir.join("tutorial.ron");
    let original = std::fs::read_to_string(&file).unwrap();
    let mut app = undercooked::clock::headless_app();
    app.insert_resource(LevelWatchConfig {
        levels_dir: dir.clone(),
        recipes: Some(root().join("assets/recipes.ron")),
        // Poll on every update: the test counts updates, never wall-clock time.
        poll_every: Duration::ZERO,
    });
    app.add_plugins((LevelWatchPlugin, DesignerPlugin));
    app.init_resource::<Seen>().add_systems(Update, collect);

    let lib = app.world().resource::<LevelLibrary>();
    let level = lib.level("tutorial").expect("the copy is in the library");
    let room = Room::new(level.clone(), lib.book.clone(), 7, &SeatSpec::numbered(2));
    let room = app.world_mut().spawn(room).id();
    let room_of = |app: &App| app.world().get::<Room>(room).expect("the room lives").clone();
    for _ in 0..5 {
        app.update();
    }
    assert!(room_of(&app).tick >= 4, "the room ticks");
    assert!(app.world().resource::<Seen>().reloaded.is_empty(), "no edit, no reload");

    // A valid edit: the room restarts on the moved counter, same seats and seed.
    std::fs::write(&file, original.replace(MOVE_A, MOVE_B)).unwrap();
    let moved = (0..10).find_map(|_| {
        app.update();
        let r = room_of(&app);
        (r.level.tiles != level.tiles).then_some(r)
    });
    let moved = moved.expect("the room's grid changed within 10 updates");
    assert_eq!(moved.seed, 7);
    assert_eq!(moved.cooks.iter().map(|c| c.seat).collect::<Vec<_>>(), vec![0, 1]);
    assert_eq!(app.world().resource::<Seen>().reloaded, vec!["tutorial".to_string()]);
    let moved_tiles = moved.level.tiles.clone();

    // A broken edit: reported with its code and position; the room keeps the moved kitchen.
    let broken = original.replace(MOVE_A, MOVE_B).replace(BREAK_A, BREAK_B);
    std::fs::write(&file, &broken).unwrap();
    let rejected = (0..10).find_map(|_| {
        app.update();
        app.world().resource::<Seen>().rejected.first().cloned()
    });
    let rejected = rejected.expect("the broken edit is rejected within 10 updates");
    let (line, col) = position_of_question_mark(&broken);
    let e = &rejected.errors[0];
    assert_eq!(rejected.file, file);
    assert_eq!((e.code, e.line, e.col), (ErrorCode::UnknownTile, Some(line), Some(col)));
    let tick = room_of(&app).tick;
    for _ in 0..5 {
        app.update();
    }
    let still = room_of(&app);
    assert_eq!(still.level.tiles, moved_tiles, "the last good level stays");
    assert!(still.tick >= tick + 4, "the room kept ticking");
    let lib = app.world().resource::<LevelLibrary>();
    assert!(lib.errors.contains_key(&file));
    assert_eq!(lib.level("tutorial").unwrap().tiles, moved_tiles);

    // The fix: reloaded again, the error cleared, the room back on the original kitchen.
    std::fs::write(&file, &original).unwrap();
    let fixed = (0..10).any(|_| {
        app.update();
        room_of(&app).level.tiles == level.tiles
    });
    assert!(fixed, "the fix reached the room within 10 updates");
    assert!(app.world().resource::<LevelLibrary>().errors.is_empty(), "the error cleared");
    assert_eq!(app.world().resource::<Seen>().reloaded.len(), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_recipe_book_edit_revalidates_every_level_and_a_broken_book_keeps_the_old_one() {
    use bevy::prelude::*;
    use std::time::Duration;
    use undercooked::level::{LevelLibrary, LevelWatchConfig, LevelWatchPlugin};

    let dir = temp_levels("book", false);
    let book_path = dir.join("recipes.book");
    let book_text = std::fs::read_to_string(root().join("assets/recipes.ron")).unwrap();
    std::fs::write(&book_path, &book_text).unwrap();
    let mut app = undercooked::clock::headless_app();
    app.insert_resource(LevelWatchConfig {
        levels_dir: dir.clone(),
        recipes: Some(book_path.clone()),
        poll_every: Duration::ZERO,
    });
    app.add_plugins(LevelWatchPlugin);
    app.init_resource::<Seen>().add_systems(Update, collect);
    app.update();
    std::fs::write(&book_path, "not a book").unwrap();
    app.update();
    let seen = app.world().resource::<Seen>();
    assert_eq!(seen.rejected.len(), 1, "the book is rejected");
    assert_eq!(seen.rejected[0].file, book_path);
    assert!(seen.reloaded.is_empty());
    assert!(app.world().resource::<LevelLibrary>().level("tutorial").is_some());
    // A valid rewrite (a comment added) re-validates every level against it.
    std::fs::write(&book_path, format!("// edited\n{book_text}")).unwrap();
    app.update();
    assert_eq!(app.world().resource::<Seen>().reloaded, vec!["tutorial".to_string()]);
    assert!(app.world().resource::<LevelLibrary>().errors.is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--designer`: the host runs unpublished edits (and says so), so a designer's own server
/// follows every saved edit; without it, see `publish::the_hosted_server_refuses_…`.
#[test]
fn the_headless_server_logs_reloads_and_named_errors_for_edits_under_its_levels_folder() {
    use std::io::BufRead;
    use std::time::{Duration, Instant};

    let dir = temp_levels("server", true);
    let data = dir.join("data");
    let mut child = Command::new(env!("CARGO_BIN_EXE_undercooked"))
        .args(["--headless", "--designer", "--port", "0", "--web-port", "0", "--bind"])
        .arg("127.0.0.1")
        .arg("--levels")
        .arg(&dir)
        .arg("--data-dir")
        .arg(&data)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut banner = String::new();
    out.read_line(&mut banner).unwrap();
    assert!(banner.contains("undercooked server"), "banner: {banner}");
    // Keep both pipes drained (a full pipe would block the host); the log lines come back.
    std::thread::spawn(move || out.lines().for_each(drop));
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    let err = child.stderr.take().unwrap();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(err).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let wait_for = |needles: &[&str]| -> Option<String> {
        let end = Instant::now() + Duration::from_secs(30);
        while let Some(left) = end.checked_duration_since(Instant::now()) {
            let line = rx.recv_timeout(left).ok()?;
            if needles.iter().all(|n| line.contains(n)) {
                return Some(line);
            }
        }
        None
    };

    let designer = wait_for(&["designer: running unpublished level files and edits"]);
    let file = dir.join("tutorial.ron");
    let original = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, original.replace(MOVE_A, MOVE_B)).unwrap();
    let reloaded = wait_for(&["level reloaded: tutorial"]);
    let broken = original.replace(BREAK_A, BREAK_B);
    std::fs::write(&file, &broken).unwrap();
    let (line, col) = position_of_question_mark(&broken);
    let at = format!("tutorial.ron:{line}:{col}: UNKNOWN_TILE");
    let rejected = wait_for(&["level rejected:", &at]);
    let _ = Command::new("kill").args(["-TERM", &child.id().to_string()]).status();
    let end = Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break Some(s);
        }
        if Instant::now() > end {
            let _ = child.kill();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let _ = std::fs::remove_dir_all(&dir);
    assert!(designer.is_some(), "the designer host says it runs unpublished edits");
    assert!(reloaded.is_some(), "`level reloaded: tutorial` in the server log");
    assert!(rejected.is_some(), "`level rejected: …{at}` in the server log");
    assert!(status.is_some_and(|s| s.success()), "exit 0 on SIGTERM: {status:?}");
}
