//! The kitchen workshop (issue 34, item 1) in the real game under Xvfb, driven through its
//! input path: `edit --script` writes timed key, pointer and mouse-button events into Bevy's
//! input messages, and the editor reports each change on stdout (`editor: …` lines, then an
//! `editor report:` line at exit).

use super::{assert_real_frame, root, temp_dir, xvfb_run};
use std::path::Path;
use std::process::Command;
use undercooked::level::schema::{HazardFile, LevelFile, ShiftTo};
use undercooked::level::{load_level_file, load_recipes_file};

/// The palette's length and the tools' places in it (`level::edit::Tool::palette`: the
/// brushes, then the hazard tools).
const PALETTE: usize = 31;
const COUNTER: usize = 3;
const TOMATO: usize = 5;
const LETTUCE: usize = 6;
const CHOP_BOARD: usize = 12;
const PREP: usize = 15;
const SERVE: usize = 16;
const SPAWN_1: usize = 21;
const SPILL: usize = 25;
const CART: usize = 27;

/// A script under construction, one step a line.
struct Script {
    steps: Vec<String>,
    tool: usize,
}

impl Script {
    fn new() -> Script {
        // The first step waits for the editor's first frames.
        Script { steps: vec!["(wait: 5, then: Point(1.0, 1.0))".into()], tool: 0 }
    }

    fn step(&mut self, then: &str) -> &mut Script {
        self.steps.push(format!("(wait: 1, then: {then})"));
        self
    }

    /// E until the tool is `to`.
    fn tool(&mut self, to: usize) -> &mut Script {
        let taps = (to + PALETTE - self.tool) % PALETTE;
        for _ in 0..taps {
            self.step("Tap(KeyE)");
        }
        self.tool = to;
        self
    }

    fn chord(&mut self, key: &str) -> &mut Script {
        self.step("Press(ControlLeft)").step(&format!("Tap({key})")).step("Release(ControlLeft)")
    }

    fn text(&self) -> String {
        format!("EditorScript(steps: [\n    {},\n])\n", self.steps.join(",\n    "))
    }
}

/// Seconds a window test may run before `timeout` ends it (a hang fails the test, never
/// holds the build).
const WINDOW_BOUND_SECS: &str = "300";

/// Runs `edit FILE ARGS --script` under Xvfb: (success, `editor` stdout lines, all output).
fn run_editor(
    xvfb: &Path,
    dir: &Path,
    file: &Path,
    script: &Script,
    args: &[&str],
) -> (bool, Vec<String>, String) {
    let mut game = vec!["edit".to_string(), file.display().to_string()];
    game.extend(args.iter().map(ToString::to_string));
    run_window(xvfb, dir, script, &game, "--script")
}

/// Runs the game with `game` arguments and the script after `flag` under Xvfb, bounded by
/// [`WINDOW_BOUND_SECS`]: (success, `editor`/`workshop` stdout lines, all output).
fn run_window(
    xvfb: &Path,
    dir: &Path,
    script: &Script,
    game: &[String],
    flag: &str,
) -> (bool, Vec<String>, String) {
    let script_file = dir.join("script.ron");
    std::fs::write(&script_file, script.text()).expect("write the script");
    let out = Command::new("timeout")
        .args(["-k", "10", WINDOW_BOUND_SECS])
        .arg(xvfb)
        .args(["-a", "-s", "-screen 0 1280x720x24"])
        .arg(env!("CARGO_BIN_EXE_undercooked"))
        .args(game)
        .arg(flag)
        .arg(&script_file)
        .args(["--size", "960x540"])
        .current_dir(root())
        .env("UNDERCOOKED_SAVE", dir.join("save.json"))
        .output()
        .expect("run timeout xvfb-run");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let all = format!("{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    let lines = stdout
        .lines()
        .filter(|l| l.starts_with("editor") || l.starts_with("workshop"))
        .map(str::to_string)
        .collect();
    (out.status.success(), lines, all)
}

/// The `editor: WHAT: N problem(s) …` lines as (what, count, codes).
fn changes(lines: &[String]) -> Vec<(String, usize, String)> {
    lines
        .iter()
        .filter_map(|l| {
            let rest = l.strip_prefix("editor: ").filter(|r| !r.starts_with("back from"))?;
            let (what, rest) = rest.split_once(": ")?;
            let (n, codes) = rest.split_once(" problem(s)")?;
            Some((what.to_string(), n.parse().ok()?, codes.trim().to_string()))
        })
        .collect()
}

#[test]
fn a_salad_kitchen_is_built_through_the_window_and_its_marks_go_away() {
    let Some(xvfb) = xvfb_run() else {
        eprintln!("SKIPPED: xvfb-run is not installed (apt-get install xvfb mesa-vulkan-drivers)");
        return;
    };
    let dir = temp_dir("editor-salad");
    let file = dir.join("garden.ron");
    let mut s = Script::new();
    // A spawn by keyboard (the cursor starts in the middle, (4, 3)).
    s.tool(SPAWN_1).step("Tap(Space)");
    // A counter clicked into the wall's corner, where nobody reaches it: marked there; undone.
    s.tool(COUNTER).step("ClickCell(0, 0)").chord("KeyZ");
    // The window, the salad's shelves and board by mouse, the prep counter by keyboard.
    s.tool(SERVE).step("ClickCell(8, 3)");
    s.tool(TOMATO).step("ClickCell(2, 0)");
    s.tool(LETTUCE).step("ClickCell(1, 0)");
    s.tool(CHOP_BOARD).step("ClickCell(3, 0)");
    s.tool(PREP).step("Tap(ArrowRight)").step("Tap(ArrowRight)").step("Tap(Space)");
    s.chord("KeyS");
    // Playtest with one bot (`--bots 1`), back with Escape, then undo the last edit.
    s.step("Tap(KeyP)");
    s.steps.push("(wait: 60, then: Tap(Escape))".into());
    s.steps.push("(wait: 10, then: Press(ControlLeft))".into());
    s.step("Tap(KeyZ)").step("Release(ControlLeft)");
    let args = ["--new", "9x7", "--bots", "1"];
    let (ok, lines, all) = run_editor(&xvfb, &dir, &file, &s, &args);
    assert!(ok, "the editor failed:\n{all}");
    let seen = changes(&lines);
    let counts: Vec<usize> = seen.iter().map(|c| c.1).collect();
    assert_eq!(seen.len(), 9, "one line a change: {lines:#?}");
    assert!(!seen[0].2.contains("NO_SPAWN"), "the spawn cleared NO_SPAWN: {seen:?}");
    assert!(seen[1].2.contains("UNREACHABLE_STATION@0,0"), "the corner is marked: {seen:?}");
    assert_eq!(seen[2].0, "undo");
    assert!(!seen[2].2.contains("UNREACHABLE_STATION"), "undo took the mark away: {seen:?}");
    assert_eq!(seen[2].1, seen[0].1, "undo restored the kitchen before the counter: {seen:?}");
    assert!(counts[2..8].windows(2).all(|w| w[1] <= w[0]), "problems only go away: {counts:?}");
    assert_eq!(counts[7], 0, "the kitchen is valid: {lines:#?}");
    assert!(lines.iter().any(|l| l.starts_with("editor: saved")), "{lines:#?}");
    let built = "grid #ltK#P###/#.......#/#.......#/#...1...W/#.......#/#.......#/#########";
    let said =
        |start: &str| lines.iter().find(|l| l.starts_with(start)).cloned().unwrap_or_default();
    assert_eq!(
        said("editor: playtest garden"),
        "editor: playtest garden with 1 bot(s)",
        "{lines:#?}"
    );
    assert_eq!(
        said("editor: playtest live"),
        "editor: playtest live: 2 cook(s), bots at seats [1]"
    );
    let back = said("editor: back from playtest");
    let tick: u32 = back
        .strip_prefix("editor: back from playtest at tick ")
        .and_then(|r| r.split(':').next())
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(|| panic!("no way back: {lines:#?}"));
    assert!(tick > 0, "the kitchen was played: {back}");
    assert!(back.ends_with(&format!("0 problem(s), {built}")), "unchanged by the Playtest: {back}");
    assert_eq!(seen[8].0, "undo", "{seen:?}");
    let report = said("editor report:");
    assert!(
        report.contains("grid #ltK#####/#.......#/"),
        "undo took the prep counter back: {report}"
    );
    let book = load_recipes_file(&root().join("assets/recipes.ron")).expect("book");
    let level = load_level_file(&file, &book).expect("the saved kitchen is a valid level");
    assert_eq!((level.width, level.height, level.id.as_str()), (9, 7, "garden"));
}

#[test]
fn an_invalid_edit_is_saved_as_a_draft_and_the_screenshot_shows_its_mark() {
    let Some(xvfb) = xvfb_run() else {
        eprintln!("SKIPPED: xvfb-run is not installed (apt-get install xvfb mesa-vulkan-drivers)");
        return;
    };
    let dir = temp_dir("editor-draft");
    let file = dir.join("tutorial.ron");
    std::fs::copy(root().join("levels/tutorial.ron"), &file).expect("copy the tutorial");
    let before = std::fs::read(&file).expect("read");
    let png = dir.join("editor.png");
    let mut s = Script::new();
    // A wall over the serve window (8, 2): NO_SERVE; Ctrl+S must not write it over the file.
    s.tool(1).step("ClickCell(8, 2)").chord("KeyS");
    let shot = ["--screenshot", png.to_str().expect("utf-8 path")];
    let (ok, lines, all) = run_editor(&xvfb, &dir, &file, &s, &shot);
    assert!(ok, "the editor failed:\n{all}");
    let seen = changes(&lines);
    assert!(seen.first().is_some_and(|c| c.2.contains("NO_SERVE")), "{lines:#?}");
    assert!(lines.iter().any(|l| l.contains("saved as the draft")), "{lines:#?}");
    assert_eq!(std::fs::read(&file).expect("read"), before, "the valid file is untouched");
    let draft = std::fs::read_to_string(dir.join("tutorial.draft.ron")).expect("the draft");
    assert!(draft.contains("\"R..1.2..#\""), "{draft}");
    assert_real_frame(&png, (960, 540), &all);
}

/// A copy of the shipped levels folder in `dir` (the workshop lists it and writes into it).
fn copy_levels(dir: &Path) -> std::path::PathBuf {
    let levels = dir.join("levels");
    std::fs::create_dir_all(&levels).expect("make the levels folder");
    for entry in std::fs::read_dir(root().join("levels")).expect("read levels/") {
        let path = entry.expect("an entry").path();
        if path.is_file() {
            std::fs::copy(&path, levels.join(path.file_name().expect("a name"))).expect("copy");
        }
    }
    levels
}

/// The day's kitchen id (`gen_m_YYYYMMDD`) for a Unix time, as the generator names it.
fn daily_id(unix_secs: i64) -> String {
    let day = undercooked::level::generate::Date::from_unix_seconds(unix_secs).expect("a day");
    format!("gen_m_{}", day.to_string().replace('-', ""))
}

/// "Daily kitchen" on the main menu, chosen through the real keys: the window draws the UTC
/// day's kitchen and starts its round (its id in the log; the day before is accepted too, for a
/// test that straddles midnight).
#[test]
fn the_daily_kitchen_opens_from_the_main_menu() {
    let Some(xvfb) = xvfb_run() else {
        eprintln!("SKIPPED: xvfb-run is not installed (apt-get install xvfb mesa-vulkan-drivers)");
        return;
    };
    let dir = temp_dir("menu-daily");
    let now = || {
        let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
        t.expect("after 1970").as_secs() as i64
    };
    let before = now();
    let mut s = Script::new();
    // The title (held), then the main menu: down to "Daily kitchen" (the fourth line); the
    // first Enter joins the keyboard's right half as a cook, the second chooses the line; then
    // a few frames of its round.
    s.step("Tap(Enter)");
    for _ in 0..3 {
        s.step("Tap(ArrowDown)");
    }
    s.step("Tap(Enter)").step("Tap(Enter)");
    s.steps.push("(wait: 30, then: Point(1.0, 1.0))".into());
    let game = ["play", "--screen", "title"].map(String::from);
    let (ok, _, all) = run_window(&xvfb, &dir, &s, &game, "--input-script");
    assert!(ok, "the game failed:\n{all}");
    let ids = [daily_id(before), daily_id(now())];
    assert!(
        ids.iter().any(|id| all.contains(&format!("main menu: kitchen `{id}` drawn"))),
        "the round is the daily kitchen's ({ids:?}):\n{all}"
    );
}

#[test]
fn the_workshop_opens_from_the_main_menu_twice_and_esc_comes_back() {
    let Some(xvfb) = xvfb_run() else {
        eprintln!("SKIPPED: xvfb-run is not installed (apt-get install xvfb mesa-vulkan-drivers)");
        return;
    };
    let dir = temp_dir("editor-menu");
    let levels = copy_levels(&dir);
    let mut s = Script::new();
    // The title (held), then the main menu: down to "Kitchen workshop" (the seventh line); the first
    // Enter joins the keyboard's right half as a cook, the second chooses the line.
    s.step("Tap(Enter)");
    for _ in 0..6 {
        s.step("Tap(ArrowDown)");
    }
    s.step("Tap(Enter)").step("Tap(Enter)");
    // The chooser: the new kitchen's size stepped from 9x7 to 11x7, then chosen.
    s.step("Tap(ArrowRight)").step("Tap(Enter)");
    // A spawn painted (unsaved): the first Esc only warns, the second leaves.
    s.tool(SPAWN_1).step("Tap(Space)").step("Tap(Escape)").step("Tap(Escape)");
    // Again: the workshop, the first file (burger_bar.ron), a wall and its undo, Esc.
    for _ in 0..6 {
        s.step("Tap(ArrowDown)");
    }
    s.step("Tap(Enter)").step("Tap(ArrowDown)").step("Tap(Enter)");
    s.step("Tap(KeyE)").step("Tap(Space)").chord("KeyZ").step("Tap(Escape)");
    // `--screen title` holds the title until a key (no two-second hop under the script).
    let game = ["play", "--screen", "title", "--levels"].map(String::from);
    let game = [&game[..], &[levels.display().to_string()]].concat();
    let (ok, lines, all) = run_window(&xvfb, &dir, &s, &game, "--input-script");
    assert!(ok, "the game failed:\n{all}");
    let new = levels.join("new_kitchen_1.ron");
    let burger = levels.join("burger_bar.ron");
    let expected = [
        format!("workshop: editing {}", new.display()),
        "editor: showing Kitchen workshop - new_kitchen_1.ron - \"New Kitchen\" (11x7) - not valid yet".into(),
        "editor: unsaved changes: Ctrl+S saves them; Esc again leaves without saving".into(),
        format!("editor: back to the menu from {}", new.display()),
        format!("workshop: editing {}", burger.display()),
        format!("editor: back to the menu from {}", burger.display()),
        "editor report: state Menu, no kitchen on the bench".into(),
    ];
    let mut at = 0;
    for want in &expected {
        let found = lines[at..].iter().position(|l| l == want);
        let Some(k) = found else { panic!("missing, in order: {want}\n{lines:#?}\n{all}") };
        at += k + 1;
    }
    let shown: Vec<&String> = lines.iter().filter(|l| l.starts_with("editor: showing")).collect();
    assert!(
        shown.iter().any(|l| l.contains("burger_bar.ron")),
        "the second entry drew its panel: {lines:#?}"
    );
    let seen = changes(&lines);
    let whats: Vec<&str> = seen.iter().map(|c| c.0.as_str()).collect();
    assert_eq!(whats, ["edit", "edit", "undo"], "{lines:#?}");
    assert!(!new.exists(), "the unsaved new kitchen was not written");
    let shipped = std::fs::read(root().join("levels/burger_bar.ron")).expect("read");
    assert_eq!(std::fs::read(&burger).expect("read"), shipped, "the undone file is untouched");
}

#[test]
fn a_gamepad_alone_moves_paints_undoes_resizes_and_saves() {
    let Some(xvfb) = xvfb_run() else {
        eprintln!("SKIPPED: xvfb-run is not installed (apt-get install xvfb mesa-vulkan-drivers)");
        return;
    };
    let dir = temp_dir("editor-pad");
    let file = dir.join("padded.ron");
    let mut s = Script::new();
    // The cursor starts at (4, 3). The pad is plugged in, the stick leans right (one cell:
    // (5, 3)), RB picks the wall, South paints it, West undoes, North redoes.
    s.step("ConnectPad");
    s.step("PadAxis(LeftStickX, 1.0)").step("PadAxis(LeftStickX, 0.0)");
    s.step("PadTap(RightTrigger)").step("PadTap(South)");
    s.step("PadTap(West)").step("PadTap(North)");
    // The d-pad up a row ((5, 2)), East paints it floor again... it is floor: nothing changes.
    s.step("PadTap(DPadUp)").step("PadTap(East)");
    // LT + d-pad down: a line at the bottom (9x8); RT + d-pad right: the right column gone (8x8).
    s.step("PadPress(LeftTrigger2)").step("PadTap(DPadDown)").step("PadRelease(LeftTrigger2)");
    s.step("PadPress(RightTrigger2)").step("PadTap(DPadRight)").step("PadRelease(RightTrigger2)");
    // Select saves.
    s.step("PadTap(Select)");
    let (ok, lines, all) = run_editor(&xvfb, &dir, &file, &s, &["--new", "9x7"]);
    assert!(ok, "the editor failed:\n{all}");
    let whats: Vec<String> = changes(&lines).into_iter().map(|c| c.0).collect();
    assert_eq!(whats, ["edit", "undo", "redo", "edit", "edit"], "{lines:#?}");
    assert!(lines.iter().any(|l| l.starts_with("editor: saved")), "{lines:#?}");
    let report = lines.iter().find(|l| l.starts_with("editor report:")).expect("a report");
    let grid = "grid ########/#......./#......./#....#../#......./#......./########/########";
    assert!(report.contains(", 8x8,") && report.ends_with(grid), "{report}");
    let text = std::fs::read_to_string(&file).expect("the saved file");
    assert!(text.contains("\"#....#..\""), "{text}");
}

#[test]
fn the_settings_panel_types_the_name_and_steps_the_target_by_keys_and_pad_alone() {
    let Some(xvfb) = xvfb_run() else {
        eprintln!("SKIPPED: xvfb-run is not installed (apt-get install xvfb mesa-vulkan-drivers)");
        return;
    };
    let dir = temp_dir("editor-settings");
    let file = dir.join("named.ron");
    let mut s = Script::new();
    // Tab opens the panel on its first row, the name: Enter types, eleven Backspaces clear
    // "New Kitchen", "Bo" and Enter keep it (one edit).
    s.step("Tap(Tab)").step("Tap(Enter)");
    for _ in 0.."New Kitchen".len() {
        s.step("Tap(Backspace)");
    }
    s.step("Type('B')").step("Type('o')").step("Tap(Enter)");
    // Down three rows to the target: Right twice (+20), Left once (-10); the pad's South once
    // more (+10); Ctrl+Z takes that back.
    s.step("Tap(ArrowDown)").step("Tap(ArrowDown)").step("Tap(ArrowDown)");
    s.step("Tap(ArrowRight)").step("Tap(ArrowRight)").step("Tap(ArrowLeft)");
    s.step("ConnectPad").step("PadTap(South)").chord("KeyZ");
    // Up three rows to the name, typed on with the pad alone: South starts, Right adds an A,
    // Down turns it to B, South keeps "BoB" (one edit).
    s.step("Tap(ArrowUp)").step("Tap(ArrowUp)").step("Tap(ArrowUp)");
    s.step("PadTap(South)").step("PadTap(DPadRight)").step("PadTap(DPadDown)");
    s.step("PadTap(South)");
    // Esc closes the panel (the editor stays), then Ctrl+S saves.
    s.step("Tap(Escape)").chord("KeyS");
    let (ok, lines, all) = run_editor(&xvfb, &dir, &file, &s, &["--new", "9x7"]);
    assert!(ok, "the editor failed:\n{all}");
    let whats: Vec<String> = changes(&lines).into_iter().map(|c| c.0).collect();
    assert_eq!(whats, ["edit", "edit", "edit", "edit", "edit", "undo", "edit"], "{lines:#?}");
    assert!(lines.iter().any(|l| l == "editor: settings closed"), "{lines:#?}");
    let report = lines.iter().find(|l| l.starts_with("editor report:")).expect("a report");
    assert!(report.starts_with("editor report: state Editor,"), "Esc only closed the panel");
    let text = std::fs::read_to_string(&file).expect("the saved file");
    assert!(text.contains("name: \"BoB\","), "{text}");
    assert!(text.contains("target_score: 110,"), "{text}");
}

#[test]
fn publish_runs_off_the_window_refuses_unsaved_edits_and_publishes_the_saved_file() {
    let Some(xvfb) = xvfb_run() else {
        eprintln!("SKIPPED: xvfb-run is not installed (apt-get install xvfb mesa-vulkan-drivers)");
        return;
    };
    let dir = temp_dir("editor-publish");
    let file = dir.join("duel.ron");
    let source = root().join("levels_versus/split_salad.ron");
    std::fs::copy(&source, &file).expect("copy a versus kitchen");
    let mut s = Script::new();
    // An unsaved change: Publish refuses at once (it proves the file on disk). Undone, Ctrl+P
    // starts the publish on its thread (a versus kitchen: both teams must score, 1v1 and 2v2),
    // whose answer comes back to the panel and whose entry lands in the folder's index.
    s.tool(1).step("ClickCell(1, 1)").chord("KeyP").chord("KeyZ").chord("KeyP");
    s.steps.push("(wait: 120, then: Point(1.0, 1.0))".into());
    let (ok, lines, all) = run_editor(&xvfb, &dir, &file, &s, &[]);
    assert!(ok, "the editor failed:\n{all}");
    let said = |part: &str| lines.iter().position(|l| l.contains(part));
    let find = |part: &str| said(part).unwrap_or_else(|| panic!("no `{part}`: {lines:#?}"));
    let unsaved = find("not published: save first");
    let started = find("editor: publishing: proving");
    let published = find("editor: publish: published versus `split_salad`");
    assert!(unsaved < started && started < published, "{lines:#?}");
    let index = std::fs::read_to_string(dir.join("index.ron")).expect("the folder's index");
    assert!(index.contains("split_salad") && index.contains("a_wins"), "{index}");
    assert!(
        !lines.iter().any(|l| l.starts_with("editor: playtest")),
        "Ctrl+P is not P: {lines:#?}"
    );
}

/// The hazard tools (issue 34: "set hazards") through the real input path: a spill zone by
/// keyboard and mouse, a cart track dragged with the mouse (marked until it loops, the mark
/// back on undo), shifting floor cells and fire by a gamepad alone; the saved file's hazards
/// read back from its RON.
#[test]
fn hazards_are_placed_by_keys_mouse_and_pad_and_saved() {
    let Some(xvfb) = xvfb_run() else {
        eprintln!("SKIPPED: xvfb-run is not installed (apt-get install xvfb mesa-vulkan-drivers)");
        return;
    };
    let dir = temp_dir("editor-hazards");
    let file = dir.join("slippery.ron");
    let mut s = Script::new();
    // The spill tool: Space at the cursor (4, 3), then (5, 3); a click adds (5, 4) and
    // Delete takes it out again.
    s.tool(SPILL).step("Tap(Space)").step("Tap(ArrowRight)").step("Tap(Space)");
    s.step("ClickCell(5, 4)").step("Tap(Delete)");
    // The cart tool: a drag over (1, 1), (2, 1), (2, 2), then a click on (1, 2) closes the
    // loop; undo opens it again, redo closes it.
    s.tool(CART).step("PointCell(1, 1)").step("Down(Left)");
    s.step("PointCell(2, 1)").step("PointCell(2, 2)").step("Up(Left)");
    s.step("ClickCell(1, 2)").chord("KeyZ").chord("KeyY");
    // A gamepad alone: RB to the shifting floor (to a hole); the d-pad from (1, 2) to (6, 5),
    // A there and a row up; L3 starts a new one at (6, 3), RT + B removes it whole.
    s.step("ConnectPad").step("PadTap(RightTrigger)");
    for _ in 0..5 {
        s.step("PadTap(DPadRight)");
    }
    for _ in 0..3 {
        s.step("PadTap(DPadDown)");
    }
    s.step("PadTap(South)").step("PadTap(DPadUp)").step("PadTap(South)");
    s.step("PadTap(LeftThumb)").step("PadTap(DPadUp)").step("PadTap(South)");
    s.step("PadPress(RightTrigger2)").step("PadTap(East)").step("PadRelease(RightTrigger2)");
    // RB twice to the fire tool: A switches fire on, off, on. Select saves.
    s.step("PadTap(RightTrigger)").step("PadTap(RightTrigger)");
    s.step("PadTap(South)").step("PadTap(South)").step("PadTap(South)");
    s.step("PadTap(Select)");
    let (ok, lines, all) = run_editor(&xvfb, &dir, &file, &s, &["--new", "9x7"]);
    assert!(ok, "the editor failed:\n{all}");
    let seen = changes(&lines);
    let whats: Vec<&str> = seen.iter().map(|c| c.0.as_str()).collect();
    let mut want = vec!["edit"; 8];
    want.extend(["undo", "redo"]);
    want.extend(["edit"; 7]);
    assert_eq!(whats, want, "{lines:#?}");
    let marked = |k: usize, mark: &str| seen[k].2.split(' ').any(|m| m == mark);
    let broken = |k: usize| seen[k].2.contains("HAZARD_PATH_BROKEN");
    assert!(marked(4, "HAZARD_PATH_BROKEN@1,1"), "a one-cell track, marked on it: {seen:?}");
    assert!(!broken(5), "two cells side by side run to and fro: {seen:?}");
    assert!(marked(6, "HAZARD_PATH_BROKEN@2,2"), "no way back from (2, 2): {seen:?}");
    assert!(!broken(7) && broken(8) && !broken(9), "closed, undone, redone: {seen:?}");
    assert!(seen.iter().all(|c| !c.2.contains("HAZARD_CONFLICT")), "{seen:?}");
    assert!(seen[14].2.contains("EXTINGUISHER_MISSING"), "fire needs a stand: {seen:?}");
    assert!(!seen[15].2.contains("EXTINGUISHER_MISSING"), "fire off: {seen:?}");
    assert!(lines.iter().any(|l| l.starts_with("editor: saved")), "{lines:#?}");
    let text = std::fs::read_to_string(&file).expect("the saved file");
    let saved: LevelFile = ron::from_str(&text).expect("the saved file is a Level");
    let expected = [
        HazardFile::Spill { cells: vec![(4, 3), (5, 3)], from: 0.0, lasts: None, every: None },
        HazardFile::Cart { path: vec![(1, 1), (2, 1), (2, 2), (1, 2)], speed: 1.5 },
        HazardFile::Shift {
            cells: vec![(6, 5), (6, 4)],
            to: ShiftTo::Void,
            every: 30.0,
            gone: 10.0,
            warning: 3.0,
            first: None,
        },
        HazardFile::Fire { delay: 5.0, spread_every: (8.0, 14.0), extinguish: 1.5 },
    ];
    assert_eq!(saved.hazards, expected, "{text}");
}
