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

mod hazard_tools {
    //! The hazard tools' operations (`level::edit::hazards`) on a new kitchen.

    use super::*;
    use crate::level::edit::hazards::{
        erase_hazard_cell, paint_hazard, remove_hazard_at, toggle_fire,
    };
    use crate::level::schema::{HazardFile, ShiftTo};

    /// Applies a stroke's edit (if any) and returns the hazard being painted after it.
    fn stroke(doc: &mut KitchenDoc, s: Result<HazardStroke, EditError>) -> Option<usize> {
        let s = s.expect("a cell on the grid");
        if let Some(edit) = &s.edit {
            assert_eq!(doc.apply(edit), Ok(true), "{edit:?}");
        }
        s.painting
    }

    fn paint(
        doc: &mut KitchenDoc,
        painting: Option<usize>,
        kind: HazardKind,
        cell: (usize, usize),
    ) -> Option<usize> {
        let s = paint_hazard(doc.file(), painting, kind, cell);
        stroke(doc, s)
    }

    fn hazard_problems(doc: &KitchenDoc) -> Vec<(ErrorCode, Option<(usize, usize)>)> {
        doc.problems()
            .iter()
            .filter(|p| {
                p.code.to_string().starts_with("HAZARD") || p.code == ErrorCode::ShiftStrandsSpawn
            })
            .map(|p| (p.code, p.cell))
            .collect()
    }

    fn spill(cells: Vec<(i64, i64)>) -> HazardFile {
        HazardFile::Spill { cells, from: 0.0, lasts: None, every: None }
    }

    #[test]
    fn a_spill_zone_is_added_painted_cell_by_cell_and_removed() {
        let mut doc = KitchenDoc::new_blank("slick", (9, 7), book(), "slick.ron");
        let at = paint(&mut doc, None, HazardKind::Spill, (2, 2));
        assert_eq!(at, Some(0));
        let at = paint(&mut doc, at, HazardKind::Spill, (3, 2));
        let at = paint(&mut doc, at, HazardKind::Spill, (3, 3));
        assert_eq!(doc.file().hazards, [spill(vec![(2, 2), (3, 2), (3, 3)])]);
        assert!(doc.text().contains("        Spill(cells: [(2, 2), (3, 2), (3, 3)]),\n"));
        assert_eq!(hazard_problems(&doc), [], "a spill on floor is sound");
        // The same cell again: nothing to change, no undo step.
        let again = paint_hazard(doc.file(), at, HazardKind::Spill, (3, 2)).expect("on the grid");
        assert_eq!(again, HazardStroke { edit: None, painting: Some(0) });
        let s = erase_hazard_cell(doc.file(), at, HazardKind::Spill, (3, 2));
        let at = stroke(&mut doc, s);
        assert_eq!(doc.file().hazards, [spill(vec![(2, 2), (3, 3)])]);
        // Ice does not erase a spill's cell.
        let ice = erase_hazard_cell(doc.file(), at, HazardKind::Ice, (2, 2)).expect("on the grid");
        assert_eq!(ice.edit, None);
        // The last cells erased: the zone goes, and nothing is painted any more.
        let s = erase_hazard_cell(doc.file(), at, HazardKind::Spill, (2, 2));
        let at = stroke(&mut doc, s);
        let s = erase_hazard_cell(doc.file(), at, HazardKind::Spill, (3, 3));
        assert_eq!(stroke(&mut doc, s), None);
        assert!(doc.file().hazards.is_empty());
        // A zone removed whole from any of its cells.
        let at = paint(&mut doc, None, HazardKind::Spill, (5, 4));
        let at = paint(&mut doc, at, HazardKind::Spill, (6, 4));
        let s = remove_hazard_at(doc.file(), at, (6, 4));
        assert_eq!(stroke(&mut doc, s), None);
        assert!(doc.file().hazards.is_empty());
        assert_eq!(
            paint_hazard(doc.file(), None, HazardKind::Spill, (9, 0)),
            Err(EditError::OutsideGrid { x: 9, y: 0, width: 9, height: 7 })
        );
    }

    #[test]
    fn new_picks_and_kinds_start_or_join_the_right_hazard() {
        let mut doc = KitchenDoc::new_blank("zones", (9, 7), book(), "zones.ron");
        let first = paint(&mut doc, None, HazardKind::Spill, (1, 1));
        // N (painting none): a second spill zone.
        let second = paint(&mut doc, None, HazardKind::Spill, (5, 1));
        assert_eq!((first, second), (Some(0), Some(1)));
        // Another kind never joins a spill: ice starts its own zone.
        let ice = paint(&mut doc, second, HazardKind::Ice, (5, 5));
        assert_eq!(ice, Some(2));
        // Painting on the first zone's cell picks it; the next cell joins it.
        let picked = paint(&mut doc, ice, HazardKind::Spill, (1, 1));
        assert_eq!(picked, Some(0));
        paint(&mut doc, picked, HazardKind::Spill, (2, 1));
        let shift = paint(&mut doc, None, HazardKind::Shift(ShiftTo::Wall), (4, 3));
        assert_eq!(shift, Some(3));
        let f = doc.file();
        assert_eq!(f.hazards[0], spill(vec![(1, 1), (2, 1)]));
        assert_eq!(f.hazards[1], spill(vec![(5, 1)]));
        assert!(
            matches!(&f.hazards[3], HazardFile::Shift { cells, to: ShiftTo::Wall, .. } if cells == &[(4, 3)])
        );
        assert_eq!(hazard_problems(&doc), []);
        // The shift cell painted over with ice: two hazards on one cell, marked there.
        paint(&mut doc, None, HazardKind::Ice, (4, 3));
        assert_eq!(hazard_problems(&doc), [(ErrorCode::HazardConflict, Some((4, 3)))]);
        // Removing the spill zone before it moves the painted index back by one.
        let s = remove_hazard_at(doc.file(), Some(3), (5, 1));
        assert_eq!(stroke(&mut doc, s), Some(2));
        assert_eq!(HazardKind::of(&doc.file().hazards[2]), HazardKind::Shift(ShiftTo::Wall));
    }

    #[test]
    fn a_cart_track_is_marked_where_it_breaks_until_it_loops_and_undo_restores_the_list() {
        let mut doc = KitchenDoc::new_blank("track", (9, 7), book(), "track.ron");
        let mut lists = vec![doc.file().hazards.clone()];
        let mut at = None;
        let mut marks = Vec::new();
        for cell in [(2, 2), (3, 2), (3, 3), (2, 3)] {
            at = paint(&mut doc, at, HazardKind::Cart, cell);
            lists.push(doc.file().hazards.clone());
            marks.push(hazard_problems(&doc));
        }
        let broken = ErrorCode::HazardPathBroken;
        // One cell: too short to run, marked on the track's cell (its message names none).
        assert_eq!(marks[0], [(broken, Some((2, 2)))]);
        // Three cells: the loop back (3, 3) → (2, 2) is no step, marked where it leaves.
        assert_eq!(marks[2], [(broken, Some((3, 3)))]);
        assert_eq!(marks[3], [], "four cells round a square loop");
        let track = vec![(2, 2), (3, 2), (3, 3), (2, 3)];
        assert_eq!(doc.file().hazards, [HazardFile::Cart { path: track.clone(), speed: 1.5 }]);
        assert!(doc.text().contains("Cart(path: [(2, 2), (3, 2), (3, 3), (2, 3)], speed: 1.5),"));
        // The first cell again closes nothing new; a cell in the middle is a shuttle's way back.
        let first = paint_hazard(doc.file(), at, HazardKind::Cart, (2, 2)).expect("on the grid");
        assert_eq!(first.edit, None);
        // Undo walks the list back one cell at a time; redo brings each back.
        for want in lists.iter().rev().skip(1) {
            assert!(doc.undo());
            assert_eq!(&doc.file().hazards, want);
        }
        for want in lists.iter().skip(1) {
            assert!(doc.redo());
            assert_eq!(&doc.file().hazards, want);
        }
        // Erasing a cell of the track opens it again, marked.
        let s = erase_hazard_cell(doc.file(), at, HazardKind::Cart, (3, 2));
        stroke(&mut doc, s);
        assert_eq!(hazard_problems(&doc), [(broken, Some((2, 2)))]);
    }

    #[test]
    fn fire_is_a_toggle_and_the_written_hazards_keep_the_files_field_order() {
        let mut doc = KitchenDoc::new_blank("order", (9, 7), book(), "order.ron");
        let at = paint(&mut doc, None, HazardKind::Ice, (1, 5));
        let fire = toggle_fire(doc.file(), at);
        stroke(&mut doc, Ok(fire));
        assert!(doc.problems().iter().any(|p| p.code == ErrorCode::ExtinguisherMissing));
        let at = paint(&mut doc, None, HazardKind::Shift(ShiftTo::Void), (6, 3));
        paint(&mut doc, at, HazardKind::Shift(ShiftTo::Void), (6, 4));
        let before = doc.text().to_string();
        paint(&mut doc, at, HazardKind::Shift(ShiftTo::Void), (6, 5));
        let block = "    hazards: [\n        Ice(cells: [(1, 5)]),\n        Fire(delay: 5.0, spread_every: (8.0, 14.0), extinguish: 1.5),\n        Shift(cells: [(6, 3), (6, 4), (6, 5)], to: Void, every: 30.0, gone: 10.0, warning: 3.0),\n    ],\n";
        assert!(doc.text().contains(block), "{}", doc.text());
        // One more cell changes one line of the file, and the text reads back to itself.
        let changed: Vec<_> =
            before.lines().zip(doc.text().lines()).filter(|(a, b)| a != b).collect();
        assert_eq!(changed.len(), 1, "{changed:?}");
        let again =
            KitchenDoc::from_text(doc.text().as_bytes(), "order.ron", book()).expect("re-read");
        assert_eq!(again.text(), doc.text());
        assert_eq!(again.file().hazards, doc.file().hazards);
        // The fire tool again: fire off, the other hazards kept in their order.
        let off = toggle_fire(doc.file(), None);
        stroke(&mut doc, Ok(off));
        let kinds: Vec<HazardKind> = doc.file().hazards.iter().map(HazardKind::of).collect();
        assert_eq!(kinds, [HazardKind::Ice, HazardKind::Shift(ShiftTo::Void)]);
        assert!(doc.undo(), "the toggle was one undo step");
        assert_eq!(doc.file().hazards.len(), 3);
    }

    #[test]
    fn the_palette_keeps_the_brushes_first_and_ends_with_every_hazard_tool() {
        let palette = Tool::palette();
        let brushes = Brush::palette();
        assert_eq!(palette.len(), brushes.len() + HazardKind::ALL.len());
        assert!(palette.iter().zip(&brushes).all(|(t, b)| *t == Tool::Brush(*b)));
        assert_eq!(palette.last(), Some(&Tool::Hazard(HazardKind::Fire)));
    }
}
