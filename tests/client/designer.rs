//! The designer's loop (issue 34, item 6, and item 3's "unpublished"), in the real game under
//! Xvfb where it is about the window: a hot-reloaded station drawn where the level now puts
//! it, a file broken at start-up that starts once fixed, a screenshot of a broken level that
//! fails by name, a designer round that leaves the save alone, the error list clear of the
//! rail and the clock, and the badge that says a kitchen is unpublished. The game reports
//! what it shows from its own state (`designer report:` lines at exit, `designer:` lines as it
//! goes); the F2 grid is driven by a key press in a headless app.

use super::{root, temp_dir, xvfb_run};
use bevy::input::InputPlugin;
use bevy::prelude::*;
use leafwing_input_manager::prelude::*;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use undercooked::level::{load_level_file, load_recipes_file};

/// The tutorial's first floor row, and an unknown tile in it (UNKNOWN_TILE).
const FLOOR_ROW: &str = "\"#.......#\"";
const BROKEN_ROW: &str = "\"#..?....#\"";

/// A designer's window on `file` under Xvfb, its stdout lines on a channel.
struct Window {
    child: Child,
    lines: Receiver<String>,
    said: Vec<String>,
}

impl Window {
    fn open(xvfb: &Path, file: &Path, dir: &Path, extra: &[&str]) -> Window {
        let mut child = Command::new(xvfb)
            .args(["-a", "-s", "-screen 0 1280x720x24"])
            .arg(env!("CARGO_BIN_EXE_undercooked"))
            .arg("play")
            .arg("--level")
            .arg(file)
            .args(["--designer", "--size", "640x360"])
            .args(extra)
            .current_dir(root())
            .env("UNDERCOOKED_SAVE", dir.join("save.json"))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run xvfb-run");
        let out = child.stdout.take().expect("stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
        Window { child, lines, said: Vec::new() }
    }

    /// Reads lines until one starts with `start` (None when the game's stdout closed first).
    fn wait_for(&mut self, start: &str) -> Option<String> {
        while let Ok(line) = self.lines.recv() {
            self.said.push(line.clone());
            if line.starts_with(start) {
                return Some(line);
            }
        }
        None
    }

    /// Waits for the exit: (success, every stdout line, stderr).
    fn finish(mut self) -> (bool, Vec<String>, String) {
        let mut err = String::new();
        if let Some(mut e) = self.child.stderr.take() {
            let _ = std::io::Read::read_to_string(&mut e, &mut err);
        }
        let status = self.child.wait().expect("the game exits");
        self.said.extend(self.lines.iter());
        (status.success(), self.said, err)
    }
}

/// The line starting with `start`, or a failure showing everything the game said.
fn line<'a>(said: &'a [String], start: &str, err: &str) -> &'a str {
    said.iter()
        .find(|l| l.starts_with(start))
        .unwrap_or_else(|| panic!("no `{start}` line in:\n{}\n{err}", said.join("\n")))
}

/// A scratch folder holding a copy of the tutorial, edited by `edit`.
fn tutorial_copy(tag: &str, edit: impl Fn(&str) -> String) -> (std::path::PathBuf, String) {
    let dir = temp_dir(tag);
    let text = std::fs::read_to_string(root().join("levels/tutorial.ron")).unwrap();
    std::fs::write(dir.join("tutorial.ron"), edit(&text)).unwrap();
    (dir, text)
}

macro_rules! need_xvfb {
    () => {
        match xvfb_run() {
            Some(x) => x,
            None => {
                eprintln!(
                    "SKIPPED: xvfb-run is not installed (apt-get install xvfb; .ci/run does)"
                );
                return;
            }
        }
    };
}

/// A saved edit that moves the top row of fixtures one cell left and turns the bottom chop
/// board into a pan stove: after the hot reload the game reports, from its drawn station
/// entities, every body at the cell and of the kind the edited file puts it (the bug: the old
/// bodies stayed where they were while the sim played the new layout).
#[test]
fn a_hot_reloaded_station_is_drawn_where_the_level_now_puts_it_under_xvfb() {
    let xvfb = need_xvfb!();
    let (dir, text) = tutorial_copy("designer-redraw", |t| t.to_string());
    let file = dir.join("tutorial.ron");
    let mut window =
        Window::open(&xvfb, &file, &dir, &["--autoplay", "bot", "--exit-after-ticks", "100"]);
    assert!(window.wait_for("designer: round started on `tutorial`").is_some(), "it started");
    let edited = text.replacen("\"##l-t-K##\"", "\"#l-t-K###\"", 1).replacen(
        "\"#-T-S-K-#\"",
        "\"#-T-S-F-#\"",
        1,
    );
    assert_ne!(edited, text, "the tutorial's rows are the ones edited");
    std::fs::write(&file, &edited).unwrap();
    let restarted = window.wait_for("designer: round started on `tutorial`");
    let (ok, said, err) = window.finish();
    assert!(restarted.is_some(), "the edit restarted the round:\n{}\n{err}", said.join("\n"));
    assert!(ok, "the game exited with an error:\n{}\n{err}", said.join("\n"));
    let book = load_recipes_file(&root().join("assets/recipes.ron")).expect("book");
    let level = load_level_file(&file, &book).expect("the edit is valid");
    let want: Vec<String> = level
        .stations
        .iter()
        .enumerate()
        .map(|(i, s)| format!("#{i} {:?} {},{}", s.kind, s.cell.0, s.cell.1))
        .collect();
    let drawn = line(&said, "designer report: drawn stations: ", &err);
    let drawn: Vec<&str> =
        drawn.trim_start_matches("designer report: drawn stations: ").split("; ").collect();
    assert_eq!(drawn, want, "every drawn station stands where and as the edited level says");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A file broken when `--designer` opens the window does not start (the window waits, saying
/// why); saving the fix starts its kitchen, which then plays to `--exit-after-ticks`.
#[test]
fn a_level_broken_at_start_starts_once_fixed_under_xvfb() {
    let xvfb = need_xvfb!();
    let (dir, text) = tutorial_copy("designer-fix", |t| t.replacen(FLOOR_ROW, BROKEN_ROW, 1));
    let file = dir.join("tutorial.ron");
    let mut window =
        Window::open(&xvfb, &file, &dir, &["--autoplay", "bot", "--exit-after-ticks", "20"]);
    let waiting = window.wait_for("designer: waiting for a fix: ");
    assert!(waiting.as_deref().is_some_and(|w| w.contains("UNKNOWN_TILE")), "{waiting:?}");
    std::fs::write(&file, &text).unwrap();
    let started = window.wait_for("designer: round started on `tutorial`");
    let (ok, said, err) = window.finish();
    assert!(started.is_some(), "the fixed file started:\n{}\n{err}", said.join("\n"));
    assert!(ok, "the game exited with an error:\n{}\n{err}", said.join("\n"));
    let report = line(&said, "designer report: level ", &err);
    assert!(report.contains("`tutorial`") && report.contains("round live"), "{report}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--screenshot` of a level that cannot start exits 1 at once with the validator's named
/// error (file, line, column, code) and writes no picture.
#[test]
fn a_screenshot_of_a_broken_level_fails_by_name_under_xvfb() {
    let xvfb = need_xvfb!();
    let (dir, _) = tutorial_copy("designer-shot-broken", |t| t.replacen(FLOOR_ROW, BROKEN_ROW, 1));
    let png = dir.join("never.png");
    let out = Command::new(xvfb)
        .args(["-a", "-s", "-screen 0 1280x720x24"])
        .arg(env!("CARGO_BIN_EXE_undercooked"))
        .arg("play")
        .arg("--level")
        .arg(dir.join("tutorial.ron"))
        .arg("--screenshot")
        .arg(&png)
        .args(["--size", "640x360"])
        .current_dir(root())
        .env("UNDERCOOKED_SAVE", dir.join("save.json"))
        .output()
        .expect("run xvfb-run");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "exit 1:\n{err}");
    assert!(err.contains("error: cannot start level"), "{err}");
    assert!(err.contains("tutorial.ron:8:") && err.contains("UNKNOWN_TILE"), "{err}");
    assert!(!png.exists(), "no screenshot of a kitchen that never ran");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A designer round played to a win (two bots, a target of one salad) leaves the player's save
/// byte for byte as it was; the kitchen (a folder with no index) says "unpublished".
#[test]
fn a_designer_round_leaves_the_save_untouched_under_xvfb() {
    let xvfb = need_xvfb!();
    let (dir, _) =
        tutorial_copy("designer-save", |t| t.replace("target_score: 140", "target_score: 20"));
    let save = dir.join("save.json");
    let before = br#"{"best_stars":{"dash_diner":1},"volume":0.5,"assisted":[],"skipped":[]}"#;
    std::fs::write(&save, before).unwrap();
    let png = dir.join("won.png");
    let shot = ["--autoplay", "bot", "--players", "2", "--at-round-end", "--screenshot"];
    let mut args: Vec<&str> = shot.to_vec();
    args.push(png.to_str().unwrap());
    let window = Window::open(&xvfb, &dir.join("tutorial.ron"), &dir, &args);
    let (ok, said, err) = window.finish();
    assert!(ok, "the game exited with an error:\n{}\n{err}", said.join("\n"));
    let report = line(&said, "designer report: level ", &err);
    assert!(report.contains("round won ") && !report.contains("won 0 stars"), "{report}");
    assert!(report.contains(", unpublished,"), "{report}");
    assert_eq!(std::fs::read(&save).unwrap(), before.to_vec(), "the save is untouched");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A broken file beside a published kitchen: the error list is shown where it covers neither
/// the ticket rail nor the clock (their rectangles, from the laid-out UI), and the published
/// kitchen carries no "unpublished" badge.
#[test]
fn the_error_list_clears_the_rail_and_clock_and_a_published_kitchen_has_no_badge_under_xvfb() {
    let xvfb = need_xvfb!();
    let (dir, text) = tutorial_copy("designer-layout", |t| t.to_string());
    std::fs::copy(root().join("levels/index.ron"), dir.join("index.ron")).unwrap();
    let broken = text.replace("\"tutorial\"", "\"sketch\"").replacen(FLOOR_ROW, BROKEN_ROW, 1);
    std::fs::write(dir.join("sketch.ron"), broken).unwrap();
    let png = dir.join("layout.png");
    let args = ["--after-ticks", "60", "--screenshot", png.to_str().unwrap()];
    let window = Window::open(&xvfb, &dir.join("tutorial.ron"), &dir, &args);
    let (ok, said, err) = window.finish();
    assert!(ok, "the game exited with an error:\n{}\n{err}", said.join("\n"));
    let report = line(&said, "designer report: level ", &err);
    assert!(report.contains("`tutorial`, published,"), "{report}");
    let list = line(&said, "designer report: error list ", &err);
    assert!(list.contains("error list shown"), "the sketch's error is listed: {list}");
    assert!(list.contains("rail 1 box(es)") && list.contains("clock 1 box(es)"), "{list}");
    assert!(list.contains("covers rail: no; covers clock: no"), "{list}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// WCAG relative luminance of an sRGB colour.
fn luminance(c: Color) -> f32 {
    let s = c.to_srgba();
    let lin = |v: f32| if v <= 0.04045 { v / 12.92 } else { ((v + 0.055) / 1.055).powf(2.4) };
    0.2126 * lin(s.red) + 0.7152 * lin(s.green) + 0.0722 * lin(s.blue)
}

/// `top` (with its alpha) over the opaque `under`, in sRGB.
fn over(top: Color, under: Color) -> Color {
    let (t, u) = (top.to_srgba(), under.to_srgba());
    let a = t.alpha;
    Color::srgb(
        t.red * a + u.red * (1.0 - a),
        t.green * a + u.green * (1.0 - a),
        t.blue * a + u.blue * (1.0 - a),
    )
}

fn contrast(a: Color, b: Color) -> f32 {
    let (x, y) = (luminance(a), luminance(b));
    (x.max(y) + 0.05) / (x.min(y) + 0.05)
}

/// F2 through the keyboard in a headless app running a tutorial room: every cell's label is
/// `x,y` from 0 pinned over that cell, the caption on screen says so, and every label reads at
/// a contrast of at least 4.5:1 (WCAG AA) over the cream floor and over the walls.
#[test]
fn f2_labels_cells_from_zero_says_so_and_reads_on_cream_and_walls() {
    use std::sync::Arc;
    use undercooked::client::local::LocalGame;
    use undercooked::client::local::designer::{
        DesignerToolsPlugin, GRID_CAPTION, GridCaption, GridLabel,
    };
    use undercooked::client::state::AppState;
    use undercooked::client::theme::{FLOOR_DARK, FLOOR_LIGHT, WALL};
    use undercooked::level::find_level;
    use undercooked::project::{RoomTick, project_rooms};
    use undercooked::sim::open::SeatSpec;
    use undercooked::sim::room::Room;

    let book = load_recipes_file(&root().join("assets/recipes.ron")).expect("book");
    let level = find_level(&root().join("levels"), "tutorial", &book).expect("tutorial");
    let (level, book) = (Arc::new(level), Arc::new(book));
    let mut app = undercooked::clock::headless_app();
    app.init_state::<AppState>();
    app.add_plugins(InputPlugin);
    app.add_message::<RoomTick>().add_systems(Update, project_rooms);
    app.add_plugins(DesignerToolsPlugin);
    let seats = SeatSpec::numbered(1);
    let room = app.world_mut().spawn(Room::new(level.clone(), book.clone(), 1, &seats)).id();
    app.insert_resource(LocalGame { room, level, book, seats });
    app.world_mut().resource_mut::<NextState<AppState>>().set(AppState::Playing);
    for _ in 0..3 {
        app.update();
    }
    let labels = |app: &mut App| {
        let mut q = app.world_mut().query::<(&GridLabel, &Text, &TextColor, &BackgroundColor)>();
        q.iter(app.world()).map(|(l, t, c, b)| (l.0, t.0.clone(), c.0, b.0)).collect::<Vec<_>>()
    };
    assert!(labels(&mut app).is_empty(), "no labels before F2");
    KeyCode::F2.press(app.world_mut());
    app.update();
    KeyCode::F2.release(app.world_mut());
    app.update();
    app.update();
    let shown = labels(&mut app);
    let cell = shown.iter().find(|(_, t, ..)| t == "3,1").expect("a label `3,1`");
    assert_eq!((cell.0.x, cell.0.z), (3.5, 1.5), "`3,1` is pinned over column 3 of row 1");
    assert!(shown.iter().any(|(_, t, ..)| t == "0,0"), "the first cell is 0,0");
    let mut q = app.world_mut().query_filtered::<(&Text, &Node), With<GridCaption>>();
    let (caption, node) = q.single(app.world()).expect("one caption");
    assert_eq!(node.display, Display::Flex, "the caption is shown with the labels");
    assert_eq!(caption.0, GRID_CAPTION);
    assert!(caption.0.contains("(x, y) from 0"), "{}", caption.0);
    for (_, text, color, chip) in &shown {
        for ground in [FLOOR_LIGHT, FLOOR_DARK, WALL] {
            let c = contrast(*color, over(*chip, ground));
            assert!(c >= 4.5, "label `{text}` reads at {c:.1}:1 over {ground:?}");
        }
    }
}
