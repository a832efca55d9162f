//! The `hazards` list of a level file: validated into named errors and compiled to ticks and
//! µtiles (stage 6's `sim::hazard_spec::HazardSpec`).
//!
//! Every hazard is checked on its own (cells, path, timing), then against the others (shared
//! cells, a second Fire) and against the kitchen (an extinguisher stand for Fire, no spawn
//! stranded by a shifting floor). Each problem points at the hazard's field in the file.

use super::error::ErrorCode;
use super::grid::{HazardGrid, Report, duration_problem, ticks};
use super::schema::{CellFile, HazardFile, LevelFile, ShiftTo};
use crate::sim::hazard_spec::{CartSpec, FireSpec, HazardSpec, PatchSpec, ShiftSpec, Traction};
use crate::sim::kinds::{StationKind, Tile};
use crate::sim::units::Cell;
use crate::sim::units::TICK_HZ;

/// Longest hazard duration or cycle, seconds (ten minutes, as for orders).
pub const MAX_HAZARD_S: f64 = 600.0;
/// Longest a fire may take to put out, seconds: longer is a level nobody can save.
pub const MAX_EXTINGUISH_S: f64 = 30.0;
/// Fastest cart, tiles per second (quicker than a cook's 3.5 is a wall of pain; 5 keeps a
/// tick's travel under a quarter tile, so a cart never skips past a body).
pub const MAX_CART_SPEED: f64 = 5.0;

fn at(rep: &Report, k: usize, field: &str) -> Option<super::error::Pos> {
    rep.map.list_item_field("hazards", k, field)
}

/// The cells of a list that lie inside the grid; the rest are reported.
fn cells_inside(
    rep: &mut Report,
    grid: &HazardGrid,
    k: usize,
    field: &str,
    name: &str,
    cells: &[CellFile],
) -> Option<Vec<Cell>> {
    let (w, h) = grid.size();
    let mut ok = Vec::with_capacity(cells.len());
    let mut good = true;
    for &(x, y) in cells {
        if x < 0 || y < 0 || x >= w as i64 || y >= h as i64 {
            let msg = format!(
                "{name} cell ({x}, {y}) is outside the {w}×{h} grid; x is the column (0..{w}), y the row (0..{h})"
            );
            rep.push(ErrorCode::HazardCellOutside, at(rep, k, field), msg);
            good = false;
        } else {
            ok.push((x as i32, y as i32));
        }
    }
    if cells.is_empty() {
        let msg = format!("{name} lists no cells");
        rep.push(ErrorCode::HazardCellOutside, at(rep, k, field), msg);
        good = false;
    }
    good.then_some(ok)
}

/// A duration that must be > 0 and ≤ `max`; reports and returns false otherwise.
fn positive(rep: &mut Report, k: usize, field: &str, label: &str, s: f64, max: f64) -> bool {
    match duration_problem(s, max) {
        Some(problem) => {
            rep.push(ErrorCode::HazardBadTiming, at(rep, k, field), format!("{label} {problem}"));
            false
        }
        None => true,
    }
}

/// A start time that may be 0 but not negative, NaN or beyond `MAX_HAZARD_S`.
fn not_negative(rep: &mut Report, k: usize, field: &str, label: &str, s: f64) -> bool {
    if s.is_nan() || !(0.0..=MAX_HAZARD_S).contains(&s) {
        let msg = format!("{label} is {s} s; it must be 0..={MAX_HAZARD_S} s");
        rep.push(ErrorCode::HazardBadTiming, at(rep, k, field), msg);
        false
    } else {
        true
    }
}

/// Seconds → ticks for a start time, where 0 is allowed.
fn whole_ticks(s: f64) -> u32 {
    u32::try_from(super::grid::seconds_to_ticks(s).max(0)).unwrap_or(0)
}

fn is_floor(grid: &HazardGrid, cell: Cell) -> bool {
    grid.tile(cell) == Tile::Floor
}

#[allow(clippy::too_many_arguments)]
fn patch(
    rep: &mut Report,
    grid: &HazardGrid,
    k: usize,
    traction: Traction,
    cells: &[CellFile],
    from: f64,
    lasts: Option<f64>,
    every: Option<f64>,
) -> Option<PatchSpec> {
    let name = if traction == Traction::Ice { "Ice" } else { "Spill" };
    let cells = cells_inside(rep, grid, k, "cells", name, cells);
    if let Some(cells) = &cells {
        for &(x, y) in cells {
            if !is_floor(grid, (x, y)) {
                let msg = format!("{name} cell ({x}, {y}) is not floor; a slick lies on floor");
                rep.push(ErrorCode::HazardCellBlocked, at(rep, k, "cells"), msg);
            }
        }
    }
    let mut ok = not_negative(rep, k, "from", &format!("{name} from"), from);
    if let Some(l) = lasts {
        ok &= positive(rep, k, "lasts", &format!("{name} lasts"), l, MAX_HAZARD_S);
    }
    if let Some(e) = every {
        ok &= positive(rep, k, "every", &format!("{name} every"), e, MAX_HAZARD_S);
    }
    if ok {
        match (lasts.map(ticks), every.map(ticks)) {
            (None, Some(_)) => {
                let msg = format!("{name} repeats `every` but lies forever; give it `lasts`");
                rep.push(ErrorCode::HazardBadTiming, at(rep, k, "every"), msg);
                ok = false;
            }
            (Some(l), Some(e)) if l >= e => {
                let msg = format!(
                    "{name} lasts {l} ticks but comes back every {e}; `lasts` must be shorter than `every`"
                );
                rep.push(ErrorCode::HazardBadTiming, at(rep, k, "lasts"), msg);
                ok = false;
            }
            _ => {}
        }
    }
    Some(PatchSpec {
        traction,
        cells: cells?,
        from: whole_ticks(from),
        lasts: lasts.map(ticks),
        every: every.map(ticks),
    })
    .filter(|_| ok)
}

fn cart(
    rep: &mut Report,
    grid: &HazardGrid,
    k: usize,
    path: &[CellFile],
    speed: f64,
) -> Option<CartSpec> {
    let path = cells_inside(rep, grid, k, "path", "Cart", path);
    let spawns = grid.spawns();
    let mut ok = true;
    if let Some(path) = &path {
        for &(x, y) in path {
            if !is_floor(grid, (x, y)) {
                let msg = format!("Cart path cell ({x}, {y}) is not floor; carts run on floor");
                rep.push(ErrorCode::HazardCellBlocked, at(rep, k, "path"), msg);
                ok = false;
            } else if spawns.iter().any(|s| s.1 == (x, y)) {
                let msg = format!("Cart path cell ({x}, {y}) is a cook spawn; route it around");
                rep.push(ErrorCode::HazardCellBlocked, at(rep, k, "path"), msg);
                ok = false;
            }
        }
        if path.len() < 2 {
            let msg = "a Cart path needs at least 2 cells to travel between";
            rep.push(ErrorCode::HazardPathBroken, at(rep, k, "path"), msg);
            ok = false;
        } else {
            for i in 0..path.len() {
                let (a, b) = (path[i], path[(i + 1) % path.len()]);
                if (a.0 - b.0).abs() + (a.1 - b.1).abs() != 1 {
                    let what = if i + 1 == path.len() { " (the loop back)" } else { "" };
                    let msg = format!(
                        "Cart path step {a:?} → {b:?}{what} is not to a side-by-side cell; each step moves one cell up, down, left or right, and the last cell sits next to the first"
                    );
                    rep.push(ErrorCode::HazardPathBroken, at(rep, k, "path"), msg);
                    ok = false;
                    break;
                }
            }
        }
    }
    if speed.is_nan() || speed <= 0.0 || speed > MAX_CART_SPEED {
        let msg = format!(
            "Cart speed is {speed} tiles/s; it must be more than 0 and at most {MAX_CART_SPEED}"
        );
        rep.push(ErrorCode::HazardBadTiming, at(rep, k, "speed"), msg);
        ok = false;
    }
    let per_tick = (speed * 1_000_000.0 / TICK_HZ as f64).round().max(1.0) as i32;
    Some(CartSpec { path: path?, speed: per_tick }).filter(|_| ok)
}

fn fire(
    rep: &mut Report,
    k: usize,
    delay: f64,
    (lo, hi): (f64, f64),
    extinguish: f64,
) -> Option<FireSpec> {
    let mut ok = positive(rep, k, "delay", "Fire delay", delay, MAX_HAZARD_S);
    let spread = positive(rep, k, "spread_every", "Fire spread_every min", lo, MAX_HAZARD_S)
        & positive(rep, k, "spread_every", "Fire spread_every max", hi, MAX_HAZARD_S);
    if spread && lo > hi {
        let msg =
            format!("Fire spread_every is ({lo}, {hi}); the minimum must not exceed the maximum");
        rep.push(ErrorCode::HazardBadTiming, at(rep, k, "spread_every"), msg);
        ok = false;
    }
    ok &= spread;
    ok &= positive(rep, k, "extinguish", "Fire extinguish", extinguish, MAX_EXTINGUISH_S);
    ok.then(|| FireSpec {
        delay: ticks(delay),
        spread_min: ticks(lo),
        spread_max: ticks(hi),
        extinguish: ticks(extinguish),
    })
}

#[allow(clippy::too_many_arguments)]
fn shift(
    rep: &mut Report,
    grid: &HazardGrid,
    k: usize,
    cells: &[CellFile],
    to: ShiftTo,
    every: f64,
    gone: f64,
    warning: f64,
    first: Option<f64>,
) -> Option<ShiftSpec> {
    let cells = cells_inside(rep, grid, k, "cells", "Shift", cells);
    let mut ok = true;
    if let Some(cells) = &cells {
        let spawns = grid.spawns();
        for &(x, y) in cells {
            let tile = grid.tile((x, y));
            if let Some(&(n, _, _)) = spawns.iter().find(|s| s.1 == (x, y)) {
                let msg = format!(
                    "Shift cell ({x}, {y}) is spawn {n}; a cook must not start on a floor that goes"
                );
                rep.push(ErrorCode::ShiftStrandsSpawn, at(rep, k, "cells"), msg);
                ok = false;
            } else if !matches!(tile, Tile::Floor | Tile::Station(StationKind::Counter)) {
                let msg = format!(
                    "Shift cell ({x}, {y}) is not floor or a plain counter `-`; only those can come and go"
                );
                rep.push(ErrorCode::HazardCellBlocked, at(rep, k, "cells"), msg);
                ok = false;
            }
        }
    }
    ok &= positive(rep, k, "every", "Shift every", every, MAX_HAZARD_S);
    ok &= positive(rep, k, "gone", "Shift gone", gone, MAX_HAZARD_S);
    ok &= positive(rep, k, "warning", "Shift warning", warning, MAX_HAZARD_S);
    if let Some(f) = first {
        ok &= not_negative(rep, k, "first", "Shift first", f);
    }
    let (every_t, gone_t, warning_t) = (ticks(every), ticks(gone), ticks(warning));
    if ok && gone_t + warning_t > every_t {
        let msg = format!(
            "Shift is gone {gone_t} ticks and warns {warning_t} ticks, but the cycle is only {every_t}; `gone` + `warning` must fit in `every`"
        );
        rep.push(ErrorCode::HazardBadTiming, at(rep, k, "gone"), msg);
        ok = false;
    }
    let to = match to {
        ShiftTo::Void => Tile::Void,
        ShiftTo::Wall => Tile::Wall,
    };
    Some(ShiftSpec {
        cells: cells?,
        to,
        start: first.map_or(every_t, whole_ticks),
        every: every_t,
        gone: gone_t,
        warning: warning_t,
    })
    .filter(|_| ok)
}

/// Validate and compile the level's hazards; problems go to `rep` (the spec is then unused).
pub(super) fn check_hazards(raw: &LevelFile, grid: &HazardGrid, rep: &mut Report) -> HazardSpec {
    let mut spec = HazardSpec::default();
    if raw.hazards.is_empty() {
        return spec;
    }
    if grid.size().0 == 0 {
        return spec; // GRID_SIZE already named the problem; cells mean nothing without a grid
    }
    let mut fire_at: Option<usize> = None;
    // Which hazard claims each cell: (cell, hazard index, kind tag).
    let mut claims: Vec<(Cell, usize, &'static str)> = Vec::new();
    for (k, hazard) in raw.hazards.iter().enumerate() {
        match hazard {
            HazardFile::Spill { cells, from, lasts, every }
            | HazardFile::Ice { cells, from, lasts, every } => {
                let traction = if matches!(hazard, HazardFile::Ice { .. }) {
                    Traction::Ice
                } else {
                    Traction::Spill
                };
                if let Some(p) = patch(rep, grid, k, traction, cells, *from, *lasts, *every) {
                    claims.extend(p.cells.iter().map(|&c| (c, k, "slick")));
                    spec.patches.push(p);
                }
            }
            HazardFile::Cart { path, speed } => {
                if let Some(c) = cart(rep, grid, k, path, *speed) {
                    let mut cells = c.path.clone();
                    cells.sort();
                    cells.dedup();
                    claims.extend(cells.into_iter().map(|c| (c, k, "cart")));
                    spec.carts.push(c);
                }
            }
            HazardFile::Fire { delay, spread_every, extinguish } => {
                if let Some(first) = fire_at {
                    let msg = format!(
                        "a second Fire entry (hazard {} is the first); a kitchen has one set of fire rules",
                        first + 1
                    );
                    rep.push(ErrorCode::HazardConflict, rep.map.list_item("hazards", k), msg);
                    continue;
                }
                fire_at = Some(k);
                if grid.sound() && !grid.has_station(StationKind::ExtinguisherStand) {
                    let msg = "a Fire hazard needs an extinguisher stand `E` in the grid, or no fire could ever be put out";
                    rep.push(ErrorCode::ExtinguisherMissing, rep.map.list_item("hazards", k), msg);
                }
                spec.fire = fire(rep, k, *delay, *spread_every, *extinguish);
            }
            HazardFile::Shift { cells, to, every, gone, warning, first } => {
                if let Some(s) = shift(rep, grid, k, cells, *to, *every, *gone, *warning, *first) {
                    let mut cells = s.cells.clone();
                    cells.sort();
                    cells.dedup();
                    claims.extend(cells.into_iter().map(|c| (c, k, "shift")));
                    spec.shifts.push(s);
                }
            }
        }
    }
    // Two hazards on one cell: slicks may lie under a cart's path, nothing else may share.
    claims.sort();
    for pair in claims.windows(2) {
        let ((cell, a, ka), (cell_b, b, kb)) = (pair[0], pair[1]);
        if cell != cell_b
            || a == b
            || (ka, kb) == ("cart", "slick")
            || (ka, kb) == ("slick", "cart")
        {
            continue;
        }
        let (na, nb) = (raw.hazards[a].name(), raw.hazards[b].name());
        let msg = format!(
            "cell {cell:?} is claimed by hazard {} ({na}) and hazard {} ({nb}); a cell takes one slick, one cart path or one shifting floor",
            a + 1,
            b + 1
        );
        rep.push(ErrorCode::HazardConflict, rep.map.list_item("hazards", b.max(a)), msg);
    }
    // Every spawn must still reach a station with every shifting floor gone at once (void
    // and wall both block a body, so one flood covers both).
    if grid.sound() && !spec.shifts.is_empty() {
        let all: Vec<Cell> = spec.shifts.iter().flat_map(|s| s.cells.clone()).collect();
        for (n, pos) in grid.stranded_spawns(&all, Tile::Void) {
            let msg = format!(
                "with the shifting floors gone, the cook at spawn {n} can reach no station"
            );
            rep.push(ErrorCode::ShiftStrandsSpawn, pos, msg);
        }
    }
    spec
}
