//! The kitchen workshop (issue 34, item 1) in the real game under Xvfb, driven through its
//! input path: `edit --script` writes timed key, pointer and mouse-button events into Bevy's
//! input messages, and the editor reports each change on stdout (`editor: …` lines, then an
//! `editor report:` line at exit).

use super::{assert_real_frame, root, temp_dir, xvfb_run};
use std::path::Path;
use std::process::Command;
use undercooked::level::{load_level_file, load_recipes_file};

/// The palette's length and the tools' places in it (`level::edit::Brush::palette`).
const PALETTE: usize = 25;
const COUNTER: usize = 3;
const TOMATO: usize = 5;
const LETTUCE: usize = 6;
const CHOP_BOARD: usize = 12;
const PREP: usize = 15;
const SERVE: usize = 16;
const SPAWN_1: usize = 21;

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

/// Runs `edit FILE ARGS --script` under Xvfb: (success, `editor` stdout lines, all output).
fn run_editor(
    xvfb: &Path,
    dir: &Path,
    file: &Path,
    script: &Script,
    args: &[&str],
) -> (bool, Vec<String>, String) {
    let script_file = dir.join("script.ron");
    std::fs::write(&script_file, script.text()).expect("write the script");
    let out = Command::new(xvfb)
        .args(["-a", "-s", "-screen 0 1280x720x24"])
        .arg(env!("CARGO_BIN_EXE_undercooked"))
        .arg("edit")
        .arg(file)
        .args(args)
        .arg("--script")
        .arg(&script_file)
        .args(["--size", "960x540"])
        .current_dir(root())
        .env("UNDERCOOKED_SAVE", dir.join("save.json"))
        .output()
        .expect("run xvfb-run");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let all = format!("{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    let lines = stdout.lines().filter(|l| l.starts_with("editor")).map(str::to_string).collect();
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
