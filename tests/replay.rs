//! Replays end to end: every committed golden matches, a one-coordinate edit is caught and
//! named, the CLI's three exit paths, re-blessing into a temporary folder, and determinism.

use std::path::{Path, PathBuf};
use std::process::Command;
use undercooked::replay::cli::{ReplayPaths, check, load, record};
use undercooked::replay::golden::CheckOutcome;
use undercooked::replay::run_script;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn paths() -> ReplayPaths {
    ReplayPaths { levels: root().join("levels"), goldens: root().join("goldens") }
}

fn scripts() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join("goldens/scripts"))
        .expect("goldens/scripts")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    v.sort();
    v
}

fn cli(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_undercooked"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("run the binary");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap_or(-1), text)
}

#[test]
fn the_four_kernel_goldens_are_committed() {
    let names: Vec<String> =
        scripts().iter().map(|p| p.file_stem().unwrap().to_string_lossy().into_owned()).collect();
    for required in ["walk_solo", "pass_contest", "pick_place_trash", "doorway_chain"] {
        assert!(names.iter().any(|n| n == required), "missing script {required}");
        assert!(root().join(format!("goldens/{required}.golden.json")).is_file());
    }
}

#[test]
fn every_committed_golden_matches() {
    for script in scripts() {
        match check(&script, &paths()).expect("check runs") {
            CheckOutcome::Match { .. } => {}
            CheckOutcome::Mismatch { tick, fields, .. } => {
                panic!("{}: mismatch at tick {tick}: {fields:?}", script.display())
            }
        }
    }
}

#[test]
fn the_cli_checks_every_golden() {
    let mut args = vec!["replay".to_string(), "check".to_string()];
    args.extend(scripts().iter().map(|p| p.display().to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, text) = cli(&args);
    assert_eq!(code, 0, "{text}");
}

/// Write a copy of a committed script with one edit into a temp folder.
fn mutated(name: &str, from: &str, to: &str) -> PathBuf {
    let text = std::fs::read_to_string(root().join(format!("goldens/scripts/{name}.ron")))
        .expect("script");
    assert!(text.contains(from), "the edit target must exist");
    let dir = std::env::temp_dir().join(format!("uc-replay-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("tmp");
    let path = dir.join(format!("{name}.ron"));
    std::fs::write(&path, text.replacen(from, to, 1)).expect("write");
    path
}

#[test]
fn editing_one_coordinate_names_the_tick_and_the_field() {
    let script = mutated(
        "walk_solo",
        "(tick: 200, seat: 0, move: (700, -300)",
        "(tick: 200, seat: 0, move: (700, -301)",
    );
    match check(&script, &paths()).expect("check runs") {
        CheckOutcome::Match { .. } => panic!("an edited script must not match"),
        CheckOutcome::Mismatch { tick, fields, .. } => {
            assert_eq!(tick, 201, "the first tick that simulates the edited frame");
            assert!(fields.iter().any(|f| f.field == "cooks[0].vel.y"), "{fields:?}");
        }
    }
    let (code, text) = cli(&["replay", "check", script.to_str().unwrap()]);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("MISMATCH at tick 201") && text.contains("cooks[0]"), "{text}");
}

#[test]
fn missing_script_level_or_golden_exits_2() {
    let (code, _) = cli(&["replay", "check", "goldens/scripts/no_such_script.ron"]);
    assert_eq!(code, 2);
    let level = mutated("walk_solo", "level: \"tutorial\"", "level: \"no_such_level\"");
    let (code, text) = cli(&["replay", "check", level.to_str().unwrap()]);
    assert_eq!(code, 2, "{text}");
    let golden = mutated("walk_solo", "name: \"walk_solo\"", "name: \"never_recorded\"");
    let (code, text) = cli(&["replay", "check", golden.to_str().unwrap()]);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("no golden"), "{text}");
}

#[test]
fn a_malformed_script_is_a_named_refusal() {
    let bad = mutated("pass_contest", "seat: 1, move: (-1000, 0)", "seat: 9, move: (-1000, 0)");
    let (code, text) = cli(&["replay", "run", bad.to_str().unwrap(), "--json"]);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("seat 9"), "{text}");
    let truncated = mutated("pass_contest", "frames: [", "frames: [ (tick: ");
    let (code, _) = cli(&["replay", "run", truncated.to_str().unwrap()]);
    assert_eq!(code, 2);
}

#[test]
fn record_writes_a_golden_that_then_checks() {
    let dir = std::env::temp_dir().join(format!("uc-rebless-{}", std::process::id()));
    let tmp = ReplayPaths { levels: root().join("levels"), goldens: dir.clone() };
    let script = root().join("goldens/scripts/pass_contest.ron");
    let line = record(&script, &tmp).expect("record");
    assert!(line.contains("RE-BLESSED"));
    let ours = std::fs::read_to_string(dir.join("pass_contest.golden.json")).expect("written");
    let committed = std::fs::read_to_string(root().join("goldens/pass_contest.golden.json"))
        .expect("committed");
    assert_eq!(ours, committed, "recording is deterministic and equals the committed golden");
    assert!(matches!(check(&script, &tmp).expect("check"), CheckOutcome::Match { .. }));
}

#[test]
fn run_json_is_one_line_and_replays_are_deterministic() {
    let (code, text) = cli(&["replay", "run", "goldens/scripts/pick_place_trash.ron", "--json"]);
    assert_eq!(code, 0, "{text}");
    let last = text.lines().last().expect("a line");
    let v: serde_json::Value = serde_json::from_str(last).expect("json");
    assert_eq!(v["counters"]["trashed"], 1);
    assert_eq!(v["ticks"], 110);

    let l = load(Path::new("goldens/scripts/doorway_chain.ron"), &paths()).expect("load");
    let a = run_script(l.level.clone(), l.book.clone(), &l.script, 160, false);
    let b = run_script(l.level, l.book, &l.script, 160, false);
    assert_eq!(a.hashes, b.hashes);
}
