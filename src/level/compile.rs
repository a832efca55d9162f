//! Level file → validated `sim::kitchen::Level`: every check, every problem reported at once.
//!
//! The order of work is: decode the text, parse the schema, then run each check into one
//! error list. Checks that depend on a sound grid (spawn and station reachability) run only
//! once the grid itself is clean, so one typo in a row is one error, not a cascade.

use std::collections::BTreeSet;

use super::error::{ErrorCode, LevelError, Pos};
use super::grid::{Grid, HazardGrid, Report, duration_problem, flood, ticks, usable_from};
use super::limits::{
    MAX_CONCURRENT, MAX_GRID_SIDE, MAX_ORDER_SPAN_S, MAX_PROPS, MAX_SCORE, MAX_TIME_LIMIT_S,
    valid_id,
};
use super::schema::{LevelFile, TileSpec};
use super::source_map::{SourceMap, StrLoc};
use super::text::{decode_text, parse_ron};
use crate::sim::hazard_spec::HazardSpec;
use crate::sim::kinds::{Form, Ingredient, StationKind, Tile, Vessel};
use crate::sim::kitchen::{Level, LevelFixed, OrdersSpec, PropLimits, StationDef};
use crate::sim::recipe_book::RecipeBook;
use crate::sim::units::MAX_COOKS;
use crate::sim::versus::TeamsSpec;

/// The highest spawn digit: one spawn a seat.
const MAX_SPAWNS: u32 = MAX_COOKS as u32;

/// Parses, validates and compiles one level against the recipe book.
pub fn parse_level(src: &[u8], file: &str, book: &RecipeBook) -> Result<Level, Vec<LevelError>> {
    let text = decode_text(src, file)?;
    let raw: LevelFile = parse_ron(text, file, "Level")?;
    compile_level(&raw, &SourceMap::new(text), file, book)
}

/// Where the level's `id:` value sits in its text (for set-wide DUPLICATE_ID reports).
pub fn id_position(src: &[u8]) -> Option<Pos> {
    let text = std::str::from_utf8(src).ok()?;
    SourceMap::new(text).field_value("id")
}

/// What one grid character means.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Glyph {
    Tile(Tile),
    /// Floor with cook spawn number `n` (1-based).
    Spawn(u32),
}

/// The built-in legend (docs/LEVELS.md lists it).
pub fn builtin_glyph(c: char) -> Option<Glyph> {
    let tile = match c {
        '#' => Tile::Wall,
        '.' => Tile::Floor,
        '_' => Tile::Void,
        '-' => Tile::Station(StationKind::Counter),
        'K' => Tile::Station(StationKind::ChopBoard),
        'F' => Tile::Station(StationKind::Stove(Vessel::Pan)),
        'U' => Tile::Station(StationKind::Stove(Vessel::Pot)),
        'P' => Tile::Station(StationKind::Prep),
        'W' => Tile::Station(StationKind::Serve),
        'S' => Tile::Station(StationKind::Sink),
        'T' => Tile::Station(StationKind::Trash),
        'R' => Tile::Station(StationKind::PlateRack),
        'E' => Tile::Station(StationKind::ExtinguisherStand),
        _ if is_spawn_char(c) => return c.to_digit(10).map(Glyph::Spawn),
        _ => {
            let ingredient = Ingredient::ALL.into_iter().find(|i| i.shelf_char() == c)?;
            Tile::Station(StationKind::Shelf(ingredient))
        }
    };
    Some(Glyph::Tile(tile))
}

fn is_spawn_char(c: char) -> bool {
    c.to_digit(10).is_some_and(|d| (1..=MAX_SPAWNS).contains(&d))
}

/// A legend value as a tile; `None` for a shelf of an unknown ingredient.
fn spec_tile(spec: &TileSpec) -> Option<Tile> {
    let kind = match spec {
        TileSpec::Wall => return Some(Tile::Wall),
        TileSpec::Floor => return Some(Tile::Floor),
        TileSpec::Void => return Some(Tile::Void),
        TileSpec::Counter => StationKind::Counter,
        TileSpec::ChopBoard => StationKind::ChopBoard,
        TileSpec::Stove(v) => StationKind::Stove(*v),
        TileSpec::Prep => StationKind::Prep,
        TileSpec::Serve => StationKind::Serve,
        TileSpec::Sink => StationKind::Sink,
        TileSpec::Trash => StationKind::Trash,
        TileSpec::PlateRack => StationKind::PlateRack,
        TileSpec::Extinguisher => StationKind::ExtinguisherStand,
        TileSpec::Shelf(name) => StationKind::Shelf(Ingredient::from_name(name)?),
    };
    Some(Tile::Station(kind))
}

/// The level's legend folded over the built-in one, with its own errors reported.
struct Legend {
    extra: Vec<(char, Glyph)>,
}

impl Legend {
    fn build(raw: &LevelFile, rep: &mut Report) -> Legend {
        let pos = rep.map.field("legend");
        let mut extra = Vec::new();
        for (&c, spec) in &raw.legend {
            if is_spawn_char(c) {
                let msg = format!(
                    "`{c}` is a cook spawn and cannot be redefined; pick another character"
                );
                rep.push(ErrorCode::BadLegend, pos, msg);
                continue;
            }
            let tile = match spec_tile(spec) {
                Some(tile) => tile,
                None => {
                    let name = match spec {
                        TileSpec::Shelf(name) => name.as_str(),
                        _ => "",
                    };
                    let msg = format!(
                        "`{c}`: Shelf(\"{name}\") names no ingredient; known: {}",
                        ingredient_names()
                    );
                    rep.push(ErrorCode::UnknownIngredient, pos, msg);
                    // A stand-in keeps the grid checks from also calling `c` unknown.
                    Tile::Station(StationKind::Counter)
                }
            };
            extra.push((c, Glyph::Tile(tile)));
        }
        Legend { extra }
    }

    fn glyph(&self, c: char) -> Option<Glyph> {
        match self.extra.iter().find(|(k, _)| *k == c) {
            Some((_, g)) => Some(*g),
            None => builtin_glyph(c),
        }
    }
}

fn ingredient_names() -> String {
    Ingredient::ALL.map(Ingredient::name).join(", ")
}

fn decode_grid(raw: &LevelFile, legend: &Legend, rep: &mut Report) -> Grid {
    let locs = rep.map.field_strings("grid");
    let row_loc = |r: usize| -> Option<&StrLoc> { locs.get(r) };
    let cell_pos = |r: usize, x: usize| row_loc(r).map(|l| l.char_pos(x));
    let rows: Vec<Vec<char>> = raw.grid.iter().map(|r| r.chars().collect()).collect();
    let width = rows.first().map_or(0, Vec::len);
    let height = rows.len();
    let mut grid = Grid {
        width: 0,
        height: 0,
        tiles: Vec::new(),
        spawns: Vec::new(),
        stations: Vec::new(),
        sound: false,
    };
    let grid_pos = rep.map.field("grid");
    if height == 0 || width == 0 {
        rep.push(ErrorCode::GridSize, grid_pos, "the grid has no cells; write at least one row");
        return grid;
    }
    if height > MAX_GRID_SIDE || width > MAX_GRID_SIDE {
        let msg =
            format!("the grid is {width}×{height}; at most {MAX_GRID_SIDE}×{MAX_GRID_SIDE} cells");
        rep.push(ErrorCode::GridSize, grid_pos, msg);
        return grid;
    }
    let mut sound = true;
    for (r, row) in rows.iter().enumerate() {
        if row.len() != width {
            // Cells and rows count from 0, as hazards and the designer's F2 grid do (the
            // `FILE:LINE:COL` before the message is the file's text, from 1, like any editor).
            let msg = format!(
                "grid row y={r} has {} cells but row y=0 has {width}; every row must be the same length",
                row.len()
            );
            rep.push(ErrorCode::GridRagged, cell_pos(r, row.len().min(width)), msg);
            sound = false;
        }
    }
    grid.width = width as i32;
    grid.height = height as i32;
    grid.tiles = vec![Tile::Void; width * height];
    for (r, row) in rows.iter().enumerate() {
        for (x, &c) in row.iter().enumerate().take(width) {
            let cell = (x as i32, r as i32);
            let pos = cell_pos(r, x);
            let tile = match legend.glyph(c) {
                Some(Glyph::Tile(tile)) => tile,
                Some(Glyph::Spawn(n)) => {
                    grid.spawns.push((n, cell, pos));
                    Tile::Floor
                }
                None => {
                    let msg = format!(
                        "`{}` at cell ({x}, {r}) is not a tile; see the legend in docs/LEVELS.md or add it to `legend`",
                        c.escape_debug(),
                    );
                    rep.push(ErrorCode::UnknownTile, pos, msg);
                    sound = false;
                    Tile::Void
                }
            };
            if let Tile::Station(kind) = tile {
                grid.stations.push((kind, cell, pos));
            }
            if let Some(slot) = grid.tiles.get_mut(r * width + x) {
                *slot = tile;
            }
        }
    }
    grid.sound = sound;
    grid
}

fn check_spawns(grid: &Grid, rep: &mut Report) {
    if grid.width == 0 {
        return;
    }
    if grid.spawns.is_empty() {
        let msg = format!(
            "no cook spawn; put the digits 1..{MAX_SPAWNS} on floor cells (1 is the first seat)"
        );
        rep.push(ErrorCode::NoSpawn, rep.map.field("grid"), msg);
        return;
    }
    let mut seen = BTreeSet::new();
    for &(n, _, pos) in &grid.spawns {
        if !seen.insert(n) {
            rep.push(ErrorCode::SpawnNumbering, pos, format!("spawn {n} appears more than once"));
        }
    }
    for (expected, &n) in (1u32..).zip(seen.iter()) {
        if n != expected {
            let pos = grid.spawns.iter().find(|s| s.0 == n).and_then(|s| s.2);
            let order: Vec<String> = (1..=MAX_SPAWNS).map(|d| d.to_string()).collect();
            let order = order.join(", ");
            let msg = format!("spawn {n} without spawn {expected}; number spawns {order} in order");
            rep.push(ErrorCode::SpawnNumbering, pos, msg);
            break;
        }
    }
}

fn check_serve(grid: &Grid, rep: &mut Report) {
    if grid.width > 0 && !grid.has_station(StationKind::Serve) {
        let msg = "no serve window; place a `W` where dishes leave the kitchen";
        rep.push(ErrorCode::NoServe, rep.map.field("grid"), msg);
    }
}

fn check_reachability(grid: &Grid, rep: &mut Report) {
    if !grid.sound || grid.spawns.is_empty() {
        return;
    }
    let mut union = vec![false; grid.tiles.len()];
    for &(n, cell, pos) in &grid.spawns {
        let region = flood(grid, cell);
        let uses_any = grid.stations.iter().any(|&(_, at, _)| usable_from(grid, &region, at));
        if !uses_any {
            let msg = format!("the cook at spawn {n} is walled in and can reach no station");
            rep.push(ErrorCode::SpawnBlocked, pos, msg);
        }
        for (u, r) in union.iter_mut().zip(region) {
            *u |= r;
        }
    }
    for &(kind, (x, y), pos) in &grid.stations {
        if !usable_from(grid, &union, (x, y)) {
            let msg = format!(
                "the {} at cell ({x}, {y}) cannot be reached from any spawn",
                kind.label(),
            );
            rep.push(ErrorCode::UnreachableStation, pos, msg);
        }
    }
}

/// What a dish needs beyond its shelves: the station each form is made on, and the prep
/// counter every dish is plated at.
fn station_for(form: Form) -> Option<StationKind> {
    match form {
        Form::Raw | Form::Burnt => None,
        Form::Chopped => Some(StationKind::ChopBoard),
        Form::Cooked => Some(StationKind::Stove(Vessel::Pan)),
        Form::Boiled => Some(StationKind::Stove(Vessel::Pot)),
    }
}

fn missing_for_recipe(grid: &Grid, book: &RecipeBook, index: usize) -> Vec<StationKind> {
    let Some(recipe) = book.recipes.get(index) else {
        return Vec::new();
    };
    let mut needed = vec![StationKind::Prep];
    for &(ingredient, form) in &recipe.parts {
        needed.push(StationKind::Shelf(ingredient));
        needed.extend(station_for(form));
    }
    let mut missing: Vec<StationKind> =
        needed.into_iter().filter(|k| !grid.has_station(*k)).collect();
    missing.sort();
    missing.dedup();
    missing
}

fn check_pool(raw: &LevelFile, grid: &Grid, book: &RecipeBook, rep: &mut Report) {
    let locs = rep.map.field_strings("pool");
    if raw.orders.pool.is_empty() {
        let msg = "orders.pool is empty; list at least one recipe id";
        rep.push(ErrorCode::BadCount, rep.at("pool", "orders"), msg);
        return;
    }
    for (i, id) in raw.orders.pool.iter().enumerate() {
        let pos = locs.get(i).map(|l| l.start).or_else(|| rep.map.field("pool"));
        let Some(index) = book.index_of(id) else {
            let known: Vec<&str> = book.recipes.iter().map(|r| r.id.as_str()).collect();
            let msg = format!("no recipe `{id}` in the recipe book; known: {}", known.join(", "));
            rep.push(ErrorCode::UnknownRecipe, pos, msg);
            continue;
        };
        if grid.width == 0 {
            continue;
        }
        let missing = missing_for_recipe(grid, book, index);
        if !missing.is_empty() {
            let names: Vec<String> = missing.iter().map(|k| k.label()).collect();
            let msg =
                format!("`{id}` cannot be made here: the kitchen has no {}", names.join(", no "));
            rep.push(ErrorCode::RecipeUncookable, pos, msg);
        }
    }
}

fn check_props(raw: &LevelFile, grid: &Grid, rep: &mut Report) {
    let props = &raw.props;
    for (name, value) in [("plates", props.plates), ("pots", props.pots)] {
        if !(0..=MAX_PROPS).contains(&value) {
            let msg = format!("props.{name} is {value}; it must be 0..={MAX_PROPS}");
            rep.push(ErrorCode::BadCount, rep.at(name, "props"), msg);
        }
    }
    if props.plates == 0 {
        let msg = "props.plates is 0 but every dish is served on a plate; give the kitchen plates";
        rep.push(ErrorCode::StationLimitZero, rep.at("plates", "props"), msg);
    }
    if props.pots == 0 && grid.has_station(StationKind::Stove(Vessel::Pot)) {
        let msg = "props.pots is 0 but the kitchen has a pot stove `U`; set pots ≥ 1";
        rep.push(ErrorCode::StationLimitZero, rep.at("pots", "props"), msg);
    }
}

fn check_durations(raw: &LevelFile, rep: &mut Report) {
    let (lo, hi) = raw.orders.interval;
    let checks = [
        ("time_limit", "time_limit", raw.time_limit, MAX_TIME_LIMIT_S),
        ("interval", "orders.interval min", lo, MAX_ORDER_SPAN_S),
        ("interval", "orders.interval max", hi, MAX_ORDER_SPAN_S),
        ("deadline", "orders.deadline", raw.orders.deadline, MAX_ORDER_SPAN_S),
    ];
    let mut interval_ok = true;
    for (field, label, seconds, max) in checks {
        if let Some(problem) = duration_problem(seconds, max) {
            interval_ok &= field != "interval";
            rep.push(ErrorCode::BadDuration, rep.at(field, "orders"), format!("{label} {problem}"));
        }
    }
    if interval_ok && lo > hi {
        let msg =
            format!("orders.interval is ({lo}, {hi}); the minimum must not exceed the maximum");
        rep.push(ErrorCode::BadDuration, rep.at("interval", "orders"), msg);
    }
}

fn check_numbers(raw: &LevelFile, rep: &mut Report) {
    let concurrent = raw.orders.concurrent;
    if !(1..=MAX_CONCURRENT).contains(&concurrent) {
        let msg = format!("orders.concurrent is {concurrent}; it must be 1..={MAX_CONCURRENT}");
        rep.push(ErrorCode::BadCount, rep.at("concurrent", "orders"), msg);
    }
    let target = raw.target_score;
    if !(1..=MAX_SCORE).contains(&target) {
        let msg = format!("target_score is {target}; it must be 1..={MAX_SCORE}");
        rep.push(ErrorCode::BadScore, rep.at("target_score", "target_score"), msg);
    }
    let penalty = raw.orders.miss_penalty;
    if !(0..=MAX_SCORE).contains(&penalty) {
        let msg = format!("orders.miss_penalty is {penalty}; it must be 0..={MAX_SCORE}");
        rep.push(ErrorCode::BadScore, rep.at("miss_penalty", "orders"), msg);
    }
}

fn check_id(raw: &LevelFile, rep: &mut Report) {
    if !valid_id(&raw.id) {
        let msg =
            format!("id `{}` must be non-empty lower-case a-z, 0-9 and _", raw.id.escape_debug());
        rep.push(ErrorCode::BadId, rep.at("id", "id"), msg);
    }
}

fn to_i32(n: i64) -> i32 {
    i32::try_from(n).unwrap_or(if n < 0 { i32::MIN } else { i32::MAX })
}

fn to_u32(n: i64) -> u32 {
    u32::try_from(n.max(0)).unwrap_or(u32::MAX)
}

fn build(raw: &LevelFile, grid: Grid, hazards: HazardSpec, teams: Option<TeamsSpec>) -> Level {
    let mut spawns = grid.spawns.clone();
    spawns.sort_by_key(|s| s.0);
    let (lo, hi) = raw.orders.interval;
    let fixed = LevelFixed {
        id: raw.id.clone(),
        name: raw.name.clone(),
        hint: raw.hint.clone(),
        spawns: spawns.into_iter().map(|s| s.1).collect(),
        stations: grid.stations.iter().map(|&(kind, cell, _)| StationDef { kind, cell }).collect(),
        props: PropLimits { plates: to_u32(raw.props.plates), pots: to_u32(raw.props.pots) },
        orders: OrdersSpec {
            pool: raw.orders.pool.clone(),
            concurrent: to_u32(raw.orders.concurrent),
            interval_min: ticks(lo),
            interval_max: ticks(hi),
            deadline: ticks(raw.orders.deadline),
            miss_penalty: to_i32(raw.orders.miss_penalty),
        },
        time_limit: ticks(raw.time_limit),
        target_score: to_i32(raw.target_score),
        hazards,
        teams,
    };
    Level::new(grid.width, grid.height, grid.tiles, fixed)
}

/// Validates a parsed level file and compiles it; `map` locates problems in its text.
pub fn compile_level(
    raw: &LevelFile,
    map: &SourceMap,
    file: &str,
    book: &RecipeBook,
) -> Result<Level, Vec<LevelError>> {
    let mut rep = Report::new(file, map);
    check_id(raw, &mut rep);
    let legend = Legend::build(raw, &mut rep);
    let grid = decode_grid(raw, &legend, &mut rep);
    let hazards = super::hazards::check_hazards(raw, &HazardGrid(&grid), &mut rep);
    check_spawns(&grid, &mut rep);
    check_serve(&grid, &mut rep);
    check_reachability(&grid, &mut rep);
    check_pool(raw, &grid, book, &mut rep);
    check_props(raw, &grid, &mut rep);
    check_durations(raw, &mut rep);
    check_numbers(raw, &mut rep);
    let teams = super::teams::check_teams(raw, &grid, &mut rep);
    if rep.errors.is_empty() { Ok(build(raw, grid, hazards, teams)) } else { Err(rep.errors) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::recipes::builtin_recipes;

    fn level_src(grid: &[&str], legend: &str, extra: &str) -> String {
        let rows: Vec<String> = grid.iter().map(|r| format!("        \"{r}\",")).collect();
        format!(
            "Level(\n    id: \"t\",\n    name: \"T\",\n    grid: [\n{}\n    ],\n    legend: {{{legend}}},\n    props: (plates: 2, pots: 1),\n    orders: (pool: [\"salad\"], concurrent: 1, interval: (0.01, 12.49), deadline: 30.0),\n    time_limit: 60.0,\n    target_score: 10,\n    {extra}\n)",
            rows.join("\n")
        )
    }

    const KITCHEN: [&str; 4] = ["#lt-K-P#", "-2....1W", "-......T", "########"];

    fn compile(src: &str) -> Result<Level, Vec<LevelError>> {
        parse_level(src.as_bytes(), "t.ron", &builtin_recipes().expect("book"))
    }

    fn codes(src: &str) -> Vec<ErrorCode> {
        compile(src).expect_err("invalid").into_iter().map(|e| e.code).collect()
    }

    #[test]
    fn durations_round_to_ticks_and_clamp_to_one() {
        let level = compile(&level_src(&KITCHEN, "", "")).expect("valid");
        assert_eq!(level.orders.interval_min, 1, "0.01 s rounds to 0 ticks, clamped to 1");
        assert_eq!(level.orders.interval_max, 250, "12.49 s is 249.8 ticks, rounded");
        assert_eq!(level.orders.deadline, 600);
        assert_eq!(level.time_limit, 1200);
        assert_eq!(level.orders.miss_penalty, 0, "miss_penalty defaults to 0");
    }

    #[test]
    fn spawns_follow_digits_and_stations_follow_the_scan() {
        let level = compile(&level_src(&KITCHEN, "", "")).expect("valid");
        assert_eq!(level.spawns, vec![(6, 1), (1, 1)]);
        let kinds: Vec<StationKind> = level.stations.iter().map(|s| s.kind).collect();
        assert_eq!(
            kinds[..3],
            [
                StationKind::Shelf(Ingredient::Lettuce),
                StationKind::Shelf(Ingredient::Tomato),
                StationKind::Counter
            ]
        );
        assert_eq!(level.stations[6].kind, StationKind::Counter);
        assert_eq!(level.stations[6].cell, (0, 1));
    }

    #[test]
    fn the_legend_adds_and_overrides_characters() {
        let grid = ["#lt-K-P#", "-2....1W", "-.x...oT", "########"];
        let level = compile(&level_src(&grid, "'x': Stove(Pot), 'o': Shelf(\"Mushroom\")", ""))
            .expect("valid");
        assert_eq!(level.tile((2, 2)), Tile::Station(StationKind::Stove(Vessel::Pot)));
        assert_eq!(level.tile((6, 2)), Tile::Station(StationKind::Shelf(Ingredient::Mushroom)));
    }

    #[test]
    fn a_walkable_station_is_used_by_standing_on_it() {
        // The sink sits in a notch only reachable by walking onto the serve window.
        let grid = ["#lt-K-P##", "-2....1W#", "-......WS", "#########"];
        assert!(compile(&level_src(&grid, "", "")).is_ok());
        let sealed = ["#lt-K-P##", "-2....1W#", "-......#S", "#########"];
        assert_eq!(codes(&level_src(&sealed, "", "")), [ErrorCode::UnreachableStation]);
    }

    #[test]
    fn a_pot_stove_needs_pots_and_soup_needs_its_stations() {
        let src = level_src(&KITCHEN, "", "").replace("pots: 1", "pots: 0");
        assert!(compile(&src).is_ok(), "no pot stove, no pots needed");
        let grid = ["#lt-K-P#", "-2....1W", "-.U....T", "########"];
        let src = level_src(&grid, "", "").replace("pots: 1", "pots: 0");
        assert_eq!(codes(&src), [ErrorCode::StationLimitZero]);
        let src = level_src(&KITCHEN, "", "").replace("[\"salad\"]", "[\"burger\"]");
        let errors = compile(&src).expect_err("no bun, patty, pan");
        assert_eq!(errors.len(), 1);
        assert!(errors[0].message.contains("bun shelf"), "{}", errors[0]);
        assert!(errors[0].message.contains("stove (pan)"), "{}", errors[0]);
    }

    #[test]
    fn nan_inverted_and_absurd_durations_are_bad() {
        let src = level_src(&KITCHEN, "", "")
            .replace("(0.01, 12.49)", "(20.0, 10.0)")
            .replace("deadline: 30.0", "deadline: NaN")
            .replace("time_limit: 60.0", "time_limit: 100000.0");
        assert_eq!(codes(&src), [ErrorCode::BadDuration; 3]);
    }

    #[test]
    fn oversized_grids_are_refused_before_any_allocation() {
        let row = "#".repeat(MAX_GRID_SIDE + 1);
        assert_eq!(codes(&level_src(&[row.as_str()], "", "")), [ErrorCode::GridSize]);
    }
}
