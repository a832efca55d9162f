//! The designer's loop (issue 34, item 6) on the level side: one convention for cells in
//! every validator message (from 0, as hazards and the F2 grid count), and a designer's
//! watcher and host that follow the play order — an index edit, an index removed, a level
//! added to a folder without one — without a restart.

use super::publish::Host;
use super::{book, root, temp_levels};
use std::time::Duration;
use undercooked::level::compile::parse_level;
use undercooked::level::{ErrorCode, LevelError, parse_index};

/// The tutorial's grid rows, as the file writes them (row y is `rows[y]`, cell x its `x`th).
fn tutorial_rows(text: &str) -> Vec<Vec<char>> {
    let grid = text.split("grid: [").nth(1).and_then(|g| g.split("],").next()).expect("a grid");
    grid.lines()
        .filter_map(|l| l.trim().strip_prefix('"').and_then(|l| l.strip_suffix("\",")))
        .map(|l| l.chars().collect())
        .collect()
}

fn errors_of(text: &str) -> Vec<LevelError> {
    parse_level(text.as_bytes(), "t.ron", &book()).expect_err("the edit is invalid")
}

/// The `(x, y)` a message names, as numbers.
fn cell_in(message: &str) -> (usize, usize) {
    let at = message.find("cell (").expect("the message names a cell") + "cell (".len();
    let (x, rest) = message[at..].split_once(", ").expect("x, y");
    let y = rest.split_once(')').expect("(x, y)").0;
    (x.parse().expect("x"), y.parse().expect("y"))
}

/// An unknown tile, an unreachable station and a misplaced hazard are all named by the cell
/// `(x, y)` counting from 0 — the numbers a hazard is written with and the F2 grid shows — and
/// each names the very character of the grid strings it is about.
#[test]
fn every_message_names_cells_from_zero_as_hazards_and_the_grid_do() {
    let text = std::fs::read_to_string(root().join("levels/tutorial.ron")).unwrap();
    let rows = tutorial_rows(&text);
    assert_eq!(rows.len(), 5, "{rows:?}");

    let unknown = errors_of(&text.replacen("\"#.......#\"", "\"#..?....#\"", 1));
    let e = unknown.iter().find(|e| e.code == ErrorCode::UnknownTile).expect("UNKNOWN_TILE");
    assert_eq!(cell_in(&e.message), (3, 1), "{e}");

    // The top row of shelves walled off from the floor: the first, the lettuce at (2, 0).
    let walled = errors_of(&text.replacen("\"#.......#\"", "\"#########\"", 1));
    let e = walled.iter().find(|e| e.code == ErrorCode::UnreachableStation).expect("unreachable");
    let (x, y) = cell_in(&e.message);
    assert_eq!((x, y), (2, 0), "{e}");
    assert_eq!(rows[y][x], 'l', "the message's cell is the lettuce shelf's character");

    // A spill on the counter at (3, 0), written the way hazards are.
    let spill = errors_of(&text.replace("hazards: [],", "hazards: [Spill(cells: [(3, 0)])],"));
    let e = spill.iter().find(|e| e.code == ErrorCode::HazardCellBlocked).expect("blocked");
    let (x, y) = cell_in(&e.message);
    assert_eq!((x, y), (3, 0), "{e}");
    assert_eq!(rows[y][x], '-', "the hazard's cell is the counter's character");

    // A ragged row names its row by y too.
    let ragged = errors_of(&text.replacen("\"#.......#\"", "\"#......#\"", 1));
    let e = ragged.iter().find(|e| e.code == ErrorCode::GridRagged).expect("GRID_RAGGED");
    assert!(e.message.contains("row y=1 "), "{e}");
}

/// The play order as the watcher reported it.
#[derive(bevy::prelude::Resource, Default)]
struct Orders(Vec<Vec<String>>);

fn collect_orders(
    mut seen: bevy::prelude::ResMut<Orders>,
    mut changed: bevy::prelude::MessageReader<undercooked::level::CampaignChanged>,
) {
    seen.0.extend(changed.read().map(|c| c.ids.clone()));
}

/// Updates until the watcher reports a new play order (at most 10).
fn next_order(app: &mut bevy::prelude::App) -> Vec<String> {
    let before = app.world().resource::<Orders>().0.len();
    for _ in 0..10 {
        app.update();
        if let Some(order) = app.world().resource::<Orders>().0.get(before) {
            return order.clone();
        }
    }
    panic!("no new play order within 10 updates");
}

/// A designer's watcher (untrusted) reads the index as the trusted one does: a reordered
/// index is the new play order, the running text is published or not by its hash, a deleted
/// index makes the folder's file-name order, and a level added to it joins that order.
#[test]
fn a_designer_watcher_follows_the_index_its_removal_and_new_files() {
    use bevy::prelude::*;
    use undercooked::level::{LevelLibrary, LevelWatchConfig, LevelWatchPlugin};

    let dir = temp_levels("designer-order", true);
    let mut app = undercooked::clock::headless_app();
    app.insert_resource(LevelWatchConfig {
        levels_dir: dir.clone(),
        recipes: Some(root().join("assets/recipes.ron")),
        poll_every: Duration::ZERO,
    });
    app.add_plugins(LevelWatchPlugin).init_resource::<Orders>();
    app.add_systems(Update, collect_orders);
    app.update();
    let lib = |app: &App| app.world().resource::<LevelLibrary>().clone();
    assert!(lib(&app).published("tutorial"), "the shipped tutorial hashes to its entry");

    // The index reordered (the last level first): the new order, without a restart.
    let index_path = dir.join("index.ron");
    let mut index = parse_index(&std::fs::read(&index_path).unwrap(), "index.ron").unwrap();
    let last = index.levels.pop().unwrap();
    index.levels.insert(0, last.clone());
    std::fs::write(&index_path, index.to_text("")).unwrap();
    let order = next_order(&mut app);
    assert_eq!(order[0], last.id);
    assert_eq!(order.len(), index.levels.len());

    // An edit runs (designer mode) and is unpublished.
    let file = dir.join("tutorial.ron");
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, text.replace("First Shift", "First Shift, edited")).unwrap();
    let taken = (0..10).any(|_| {
        app.update();
        lib(&app).level("tutorial").is_some_and(|l| l.name == "First Shift, edited")
    });
    assert!(taken, "the designer's watcher takes the edit");
    assert!(!lib(&app).published("tutorial"), "the edit is not what the index publishes");

    // No index: every valid level by file name.
    std::fs::remove_file(&index_path).unwrap();
    let order = next_order(&mut app);
    let mut by_file: Vec<(std::path::PathBuf, String)> =
        lib(&app).levels.iter().map(|(id, e)| (e.file.clone(), id.clone())).collect();
    by_file.sort();
    assert_eq!(order, by_file.into_iter().map(|(_, id)| id).collect::<Vec<_>>());
    assert!(!lib(&app).published("tutorial"), "nothing is published without an index");

    // A new level in the folder joins the order.
    let fresh = text.replace("id: \"tutorial\"", "id: \"zz_fresh\"");
    std::fs::write(dir.join("zz_fresh.ron"), fresh).unwrap();
    let order = next_order(&mut app);
    assert_eq!(order.last().map(String::as_str), Some("zz_fresh"), "{order:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--headless --designer` on a folder without an index: a level file saved beside the others
/// is offered without a restart (the host says how many it offers now).
#[test]
fn a_designer_host_offers_a_new_level_without_a_restart() {
    let dir = temp_levels("designer-host", false);
    // No daily kitchen: the count is of the folder's levels.
    let host = Host::start_with(&dir, &["--designer", "--no-daily"]);
    assert!(host.wait_for(&["has no index.ron", "1 valid level(s)"]).is_some(), "started");
    let text = std::fs::read_to_string(dir.join("tutorial.ron")).unwrap();
    std::fs::write(dir.join("zz_fresh.ron"), text.replace("id: \"tutorial\"", "id: \"zz_fresh\""))
        .unwrap();
    let offered = host.wait_for(&["offering 2 level(s)"]);
    drop(host);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(offered.is_some(), "the new level is offered without a restart");
}
