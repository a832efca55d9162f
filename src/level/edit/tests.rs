//! The editor's model against the shipped levels and a new kitchen built edit by edit.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::document::parse_size;
use super::*;
use crate::level::compile::parse_level;
use crate::level::error::ErrorCode;
use crate::level::recipes::builtin_recipes;
use crate::sim::kinds::{Ingredient, StationKind};

fn book() -> Arc<crate::sim::recipe_book::RecipeBook> {
    Arc::new(builtin_recipes().expect("the built-in recipe book is valid"))
}

/// The campaign's kitchens and the versus ones (their `teams` block must survive a save too).
fn shipped() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["levels", "levels_versus"] {
        files.extend(crate::level::files::level_files(&root.join(dir)).expect("readable"));
    }
    files
}

fn codes(doc: &KitchenDoc) -> Vec<ErrorCode> {
    doc.problems().iter().map(|p| p.code).collect()
}

fn paint(doc: &mut KitchenDoc, cell: (usize, usize), brush: Brush) {
    assert_eq!(doc.apply(&Edit::Paint { cell, brush }), Ok(true), "{cell:?} {brush:?}");
}

/// A folder of its own under the system's temporary folder, emptied first.
fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("undercooked-editor-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
fn every_shipped_level_saves_to_the_same_level_and_a_second_save_to_the_same_text() {
    let book = book();
    let files = shipped();
    assert!(files.len() >= 18, "{files:?}");
    for path in files {
        let bytes = std::fs::read(&path).expect("read");
        let label = path.display().to_string();
        let doc = KitchenDoc::from_text(&bytes, &label, book.clone()).expect("a level file");
        assert!(doc.problems().is_empty(), "{label}: {:?}", doc.problems());
        let original = parse_level(&bytes, &label, &book).expect("shipped levels are valid");
        let saved = parse_level(doc.text().as_bytes(), &label, &book).expect("the save is valid");
        assert_eq!(saved, original, "{label}: the saved text parses to another level");
        let again =
            KitchenDoc::from_text(doc.text().as_bytes(), &label, book.clone()).expect("re-read");
        assert_eq!(again.text(), doc.text(), "{label}: a second save moved something");
        assert!(doc.text().starts_with("//"), "{label}: its top comment was dropped");
    }
}

#[test]
fn the_tutorial_is_written_as_its_file_is() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/tutorial.ron");
    let bytes = std::fs::read(&path).expect("read");
    let doc = KitchenDoc::from_text(&bytes, "tutorial.ron", book()).expect("level");
    assert_eq!(doc.text(), std::str::from_utf8(&bytes).expect("utf-8"));
}

#[test]
fn a_new_kitchen_loses_its_problems_one_by_one_as_a_salad_kitchen_is_built() {
    let mut doc = KitchenDoc::new_blank("garden", (9, 7), book(), "garden.ron");
    assert_eq!(doc.size(), (9, 7));
    let first = codes(&doc);
    for code in [ErrorCode::NoSpawn, ErrorCode::NoServe, ErrorCode::RecipeUncookable] {
        assert!(first.contains(&code), "{first:?}");
    }
    let steps = [
        ((4, 3), Brush::Spawn(1)),
        ((8, 3), Brush::Station(StationKind::Serve)),
        ((1, 0), Brush::Station(StationKind::Shelf(Ingredient::Lettuce))),
        ((2, 0), Brush::Station(StationKind::Shelf(Ingredient::Tomato))),
        ((3, 0), Brush::Station(StationKind::ChopBoard)),
        ((4, 0), Brush::Station(StationKind::Prep)),
    ];
    let mut counts = vec![doc.problems().len()];
    for (cell, brush) in steps {
        paint(&mut doc, cell, brush);
        counts.push(doc.problems().len());
    }
    assert!(counts.windows(2).all(|w| w[1] <= w[0]), "{counts:?}");
    assert_eq!(doc.problems(), &[], "{counts:?}");
    assert!(doc.level().is_some());
}

#[test]
fn a_problem_on_a_cell_is_marked_there() {
    let mut doc = KitchenDoc::new_blank("corner", (9, 7), book(), "corner.ron");
    paint(&mut doc, (0, 0), Brush::Station(StationKind::Sink));
    paint(&mut doc, (4, 3), Brush::Spawn(1));
    let unreachable: Vec<_> =
        doc.problems().iter().filter(|p| p.code == ErrorCode::UnreachableStation).collect();
    assert_eq!(unreachable.len(), 1, "{:?}", doc.problems());
    assert_eq!(unreachable[0].cell, Some((0, 0)));
    let no_serve = doc.problems().iter().find(|p| p.code == ErrorCode::NoServe).expect("no window");
    assert_eq!(no_serve.cell, None);
    let text = doc.text().replace("\"#.......#\"", "\"#..?....#\"");
    let odd = KitchenDoc::from_text(text.as_bytes(), "odd.ron", book()).expect("parses");
    let unknown = odd.problems().iter().find(|p| p.code == ErrorCode::UnknownTile).expect("`?`");
    assert_eq!(unknown.cell, Some((3, 1)), "{:?}", odd.problems());
}

#[test]
fn undo_restores_the_grid_and_redo_brings_the_change_back() {
    let mut doc = KitchenDoc::new_blank("undo", (5, 4), book(), "undo.ron");
    let before = doc.text().to_string();
    assert!(!doc.can_undo());
    paint(&mut doc, (1, 1), Brush::Wall);
    let after = doc.text().to_string();
    assert_ne!(before, after);
    assert_eq!(doc.apply(&Edit::Paint { cell: (1, 1), brush: Brush::Wall }), Ok(false));
    assert!(doc.undo());
    assert_eq!(doc.text(), before);
    assert!(!doc.undo());
    assert!(doc.redo());
    assert_eq!(doc.text(), after);
    assert!(doc.undo());
    doc.apply(&Edit::SetName("Other".into())).expect("a name");
    assert!(!doc.redo(), "a new edit clears what was undone");
}

#[test]
fn fields_and_refused_edits() {
    let mut doc = KitchenDoc::new_blank("fields", (5, 4), book(), "fields.ron");
    let outside = doc.apply(&Edit::Paint { cell: (5, 0), brush: Brush::Wall });
    assert_eq!(outside, Err(EditError::OutsideGrid { x: 5, y: 0, width: 5, height: 4 }));
    assert_eq!(
        doc.apply(&Edit::Paint { cell: (1, 1), brush: Brush::Spawn(5) }),
        Err(EditError::BadSpawn(5))
    );
    assert!(!doc.can_undo(), "a refused edit takes no step");
    doc.apply(&Edit::SetTarget(0)).expect("applies");
    assert!(codes(&doc).contains(&ErrorCode::BadScore));
    doc.apply(&Edit::SetPool(vec!["onion_soup".into()])).expect("applies");
    doc.apply(&Edit::SetInterval(20.0, 10.0)).expect("applies");
    assert!(codes(&doc).contains(&ErrorCode::BadDuration), "{:?}", codes(&doc));
    assert!(doc.text().contains("pool: [\"onion_soup\"],"));
    assert!(doc.text().contains("interval: (20.0, 10.0),"));
}

#[test]
fn a_spawn_placed_again_moves_and_a_taken_character_gets_a_legend_entry() {
    let mut doc = KitchenDoc::new_blank("moves", (6, 5), book(), "moves.ron");
    paint(&mut doc, (1, 1), Brush::Spawn(1));
    paint(&mut doc, (3, 2), Brush::Spawn(1));
    assert_eq!(doc.file().grid.iter().map(|r| r.matches('1').count()).sum::<usize>(), 1);
    assert_eq!(doc.file().grid[2].chars().nth(3), Some('1'));
    let text = doc.text().replace("legend: {}", "legend: {'-': Wall}");
    let mut taken = KitchenDoc::from_text(text.as_bytes(), "taken.ron", book()).expect("parses");
    paint(&mut taken, (2, 1), Brush::Station(StationKind::Counter));
    let c = taken.file().grid[1].chars().nth(2).expect("cell");
    assert_ne!(c, '-');
    assert_eq!(
        brush::brush_of_char(c, &taken.file().legend),
        Some(Brush::Station(StationKind::Counter))
    );
}

#[test]
fn an_invalid_kitchen_never_overwrites_a_valid_file() {
    let dir = scratch("save");
    let file = dir.join("salad.ron");
    let tutorial = Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/tutorial.ron");
    let valid = std::fs::read(&tutorial).expect("read");
    std::fs::write(&file, &valid).expect("write");
    let mut doc = KitchenDoc::from_text(&valid, "salad.ron", book()).expect("level");
    assert_eq!(save_doc(&doc, &file).expect("a valid save"), Saved::File(file.clone()));
    doc.apply(&Edit::Paint { cell: (8, 2), brush: Brush::Wall }).expect("paint over the window");
    assert!(codes(&doc).contains(&ErrorCode::NoServe));
    match save_doc(&doc, &file) {
        Err(SaveError::WouldBreakValidFile { draft, problems, .. }) => {
            assert_eq!(draft, dir.join("salad.draft.ron"));
            assert!(problems >= 1);
            assert_eq!(std::fs::read_to_string(&draft).expect("draft"), doc.text());
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(std::fs::read(&file).expect("read"), valid, "the valid file was touched");
    let listed = crate::level::files::level_files(&dir).expect("list");
    assert_eq!(listed, vec![file.clone()], "a draft is not a level of the folder");
    let fresh = dir.join("fresh.ron");
    assert_eq!(save_doc(&doc, &fresh).expect("nothing valid to keep"), Saved::File(fresh.clone()));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sizes_are_read_and_bounded() {
    assert_eq!(parse_size("9x7"), Ok((9, 7)));
    assert_eq!(parse_size("9×7"), Ok((9, 7)));
    assert!(matches!(parse_size("9"), Err(NewKitchenError::NotASize(_))));
    assert_eq!(parse_size("2x7"), Err(NewKitchenError::OutOfRange(2, 7)));
    assert_eq!(parse_size("65x7"), Err(NewKitchenError::OutOfRange(65, 7)));
}

#[test]
fn a_line_added_and_removed_at_each_edge_moves_hazard_cells_with_the_kitchen() {
    let mut doc = KitchenDoc::new_blank("k", (9, 7), book(), "k.ron");
    let spill = crate::level::schema::HazardFile::Spill {
        cells: vec![(2, 2), (0, 3)],
        from: 0.0,
        lasts: None,
        every: None,
    };
    doc.apply(&Edit::SetHazards(vec![spill])).expect("hazards");
    let cells = |doc: &KitchenDoc| match &doc.file().hazards[0] {
        crate::level::schema::HazardFile::Spill { cells, .. } => cells.clone(),
        _ => unreachable!("a spill was set"),
    };
    doc.apply(&Edit::AddLine(Edge::Top)).expect("grow");
    doc.apply(&Edit::AddLine(Edge::Left)).expect("grow");
    assert_eq!(doc.size(), (10, 8));
    assert_eq!(doc.file().grid[0], "##########");
    assert_eq!(cells(&doc), [(3, 3), (1, 4)]);
    doc.apply(&Edit::RemoveLine(Edge::Left)).expect("shrink");
    doc.apply(&Edit::RemoveLine(Edge::Left)).expect("shrink");
    assert_eq!(cells(&doc), [(1, 3)], "the cell on the removed column went with it");
    assert_eq!(doc.size(), (8, 8));
    for _ in 0..4 {
        doc.undo();
    }
    assert_eq!((doc.size(), cells(&doc)), ((9, 7), vec![(2, 2), (0, 3)]), "undone whole");
    let mut tiny = KitchenDoc::new_blank("t", (3, 3), book(), "t.ron");
    assert_eq!(
        tiny.apply(&Edit::RemoveLine(Edge::Bottom)),
        Err(EditError::SizeLimit { width: 3, height: 2 })
    );
}

#[test]
fn each_settings_row_steps_its_field_and_the_pool_counts_recipes() {
    let mut doc = KitchenDoc::new_blank("k", (9, 7), book(), "k.ron");
    let rows = settings_of(doc.file(), doc.book());
    let salad = doc.book().index_of("salad").expect("salad");
    assert!(rows.contains(&Setting::Recipe(salad)) && rows[0] == Setting::Name);
    let step = |doc: &mut KitchenDoc, row, dir| {
        let edit = settings::step(doc.file(), doc.book(), row, dir).expect("a stepped row");
        doc.apply(&edit).expect("applied")
    };
    assert!(step(&mut doc, Setting::Target, 1));
    assert_eq!(doc.file().target_score, 110);
    assert!(step(&mut doc, Setting::Recipe(salad), 1));
    assert_eq!(doc.file().orders.pool, ["salad", "salad"]);
    assert!(step(&mut doc, Setting::Recipe(salad), -1));
    assert!(step(&mut doc, Setting::Recipe(salad), -1));
    assert!(doc.file().orders.pool.is_empty());
    assert!(!doc.problems().is_empty(), "an empty pool is a problem the validator names");
    assert!(!step(&mut doc, Setting::Recipe(salad), -1), "nothing left to take: no undo step");
    assert!(step(&mut doc, Setting::TimeLimit, -1));
    assert_eq!(doc.file().time_limit, 170.0);
    let label = settings::label(doc.file(), doc.book(), Setting::TimeLimit);
    assert_eq!(label, "Round clock: 170 s");
    let fire = crate::level::schema::HazardFile::Fire {
        delay: 1.0,
        spread_every: (4.0, 6.0),
        extinguish: 2.0,
    };
    doc.apply(&Edit::SetHazards(vec![fire])).expect("fire");
    let rows = settings_of(doc.file(), doc.book());
    assert!(rows.contains(&Setting::Hazard(0, Timing::Extinguish)));
    assert!(step(&mut doc, Setting::Hazard(0, Timing::SpreadMax), 1));
    let text = doc.text().to_string();
    assert!(text.contains("spread_every: (4.0, 6.5)"), "{text}");
}
