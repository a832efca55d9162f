//! Reachability: which fixtures a cook can walk to, from the level's static layout (the
//! `Distances` maps are breadth-first over walls, fixtures and holes as drawn, so a floor that
//! shifts — a drawbridge — counts as there, and only cells no floor state ever connects are
//! "unreachable"). A cook on a bank with no serve window is a **feeder** (`bot::feed`); a cook
//! whose bank lacks a part's shelf (or its board) gets that part **fed** across the water.
//! On a kitchen every cook can walk all of, none of this changes a single choice.

use super::claims::ClaimTable;
use super::nav::{Distances, FAR, distances, walkable};
use super::throwing::spots;
use super::view::{View, is_heat, process_kind};
use crate::sim::ids::Seat;
use crate::sim::kinds::StationKind;
use crate::sim::kitchen::Level;
use crate::sim::recipe_book::Part;
use crate::sim::room::Room;
use crate::sim::units::Cell;

/// Can a cook standing on `cell` walk to a working cell of fixture `s`?
pub(super) fn reaches(dist: &Distances, cell: Cell, s: usize) -> bool {
    dist.to(s, cell) != FAR
}

/// Can a cook on `cell` reach a fixture of this kind?
fn reaches_kind(room: &Room, dist: &Distances, cell: Cell, kind: StationKind) -> bool {
    (0..room.stations.len()).any(|s| room.stations[s].kind == kind && reaches(dist, cell, s))
}

/// A cook on `cell` can reach no serve window: it cannot finish a dish, only feed one.
pub(super) fn is_feeder_cell(room: &Room, dist: &Distances, cell: Cell) -> bool {
    !reaches_kind(room, dist, cell, StationKind::Serve)
}

/// Is `seat`'s cook a feeder?
pub(super) fn is_feeder(room: &Room, dist: &Distances, seat: Seat) -> bool {
    room.cook_index(seat).is_some_and(|c| is_feeder_cell(room, dist, room.cooks[c].pos.cell()))
}

/// Can the cook of `v` make `part` alone: its shelf, and the board for a chop, on its bank?
/// (A heat part's stove is the cook's own concern: it is checked by [`fed`].)
pub(super) fn self_made(v: &View, part: Part) -> bool {
    if v.shelf(part.0).is_none() {
        return false;
    }
    match process_kind(part) {
        Some(kind) if !is_heat(kind) => reaches_kind(v.room, v.dist, v.cell, kind),
        _ => true,
    }
}

/// A part the cook of `v` cannot make alone but can finish once it is fed: a feeder brings
/// it chopped (or raw) onto the plate, or raw into a stove on the cook's bank.
pub(super) fn fed(v: &View, part: Part) -> bool {
    if self_made(v, part) {
        return false;
    }
    match process_kind(part) {
        Some(kind) if is_heat(kind) => reaches_kind(v.room, v.dist, v.cell, kind),
        _ => true,
    }
}

/// Can a feeder on `cell` make `part` for throwing: its shelf, and a board when it is chopped?
/// (A heat part is thrown raw into the cook's stove.)
pub(super) fn feeds(room: &Room, dist: &Distances, cell: Cell, part: Part) -> bool {
    if !reaches_kind(room, dist, cell, StationKind::Shelf(part.0)) {
        return false;
    }
    match process_kind(part) {
        Some(kind) if !is_heat(kind) => reaches_kind(room, dist, cell, kind),
        _ => true,
    }
}

/// The feeders on other seats than `seat`, in seat order, with their cells.
pub(super) fn feeders(room: &Room, dist: &Distances, seat: Seat) -> Vec<(Seat, Cell)> {
    room.cooks
        .iter()
        .filter(|c| c.seat != seat && is_feeder_cell(room, dist, c.pos.cell()))
        .map(|c| (c.seat, c.pos.cell()))
        .collect()
}

/// Can the cook of `v` get `part` onto a plate: alone, or fed by a teammate across the water?
pub(super) fn makeable(v: &View, part: Part) -> bool {
    self_made(v, part)
        || (fed(v, part)
            && feeders(v.room, v.dist, v.seat)
                .iter()
                .any(|&(_, cell)| feeds(v.room, v.dist, cell, part)))
}

/// Does every walkable cell of the level reach every fixture (one bank, however it is
/// drawn)? Then no cook is a feeder and no part is fed: the planner plays as it always did.
pub fn total(level: &Level) -> bool {
    let dist = Distances::new(level);
    (0..level.height).all(|y| {
        (0..level.width).all(|x| {
            let cell = (x, y);
            !walkable(level, cell) || (0..level.stations.len()).all(|s| reaches(&dist, cell, s))
        })
    })
}

/// Can a feeder across the water get `food` onto fixture `s`: walk to it (a pass counter both
/// banks touch: the hand-off, set down by one cook and picked up by the other) or throw onto it
/// from a cell of its bank? A cook parks a plate only where its fed parts can come down.
pub(super) fn lands_from_feeder(v: &View, food: Part, s: usize) -> bool {
    let room = v.room;
    let w = room.level.width.max(1) as usize;
    feeders(room, v.dist, v.seat).into_iter().any(|(seat, cell)| {
        if reaches(v.dist, cell, s) {
            return true;
        }
        let walk = distances(&room.level, &[cell], &|_| false);
        spots(room, seat, food, s)
            .into_iter()
            .any(|(c, _)| walk[c.1 as usize * w + c.0 as usize] != FAR)
    })
}

/// Our claimed stoves that stand empty waiting for fed food (a part of `recipe` made there
/// that we cannot fetch): kept claimed, so the feeder knows where to throw.
pub(super) fn awaited_stoves(v: &View, claims: &ClaimTable, recipe: usize) -> Vec<usize> {
    let parts = &v.room.book.recipes[recipe].parts;
    claims
        .stations_of(v.seat)
        .into_iter()
        .filter(|&s| {
            let kind = v.kind(s);
            is_heat(kind) && parts.iter().any(|&p| process_kind(p) == Some(kind) && fed(v, p))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::{builtin_recipes, parse_level};
    use crate::sim::kinds::{Form, Ingredient};
    use crate::sim::open::SeatSpec;
    use std::sync::Arc;

    /// A salad kitchen drawn with `grid`.
    fn room(grid: &[&str]) -> Room {
        let rows: Vec<String> = grid.iter().map(|r| format!("\"{r}\"")).collect();
        let src = format!(
            "Level(id: \"t\", name: \"T\", grid: [{}], props: (plates: 2), orders: (pool: \
             [\"salad\"], concurrent: 1, interval: (5.0, 5.0), deadline: 60.0), time_limit: \
             60.0, target_score: 10)",
            rows.join(",")
        );
        let book = builtin_recipes().expect("book");
        let level = parse_level(src.as_bytes(), "t.ron", &book).expect("level");
        Room::new(Arc::new(level), Arc::new(book), 1, &SeatSpec::numbered(2))
    }

    #[test]
    fn a_river_nobody_crosses_makes_the_shelves_bank_a_feeder() {
        let r =
            room(&["#########", "l..___-.W", "t1.___P2R", "K..___-.T", "#T.......", "#########"]);
        // The bottom row's floor runs under the river's end: one bank after all.
        assert!(total(&r.level));
        let r =
            room(&["#########", "l..___-.W", "t1.___P2R", "K..___-.T", "#T.___..#", "#########"]);
        assert!(!total(&r.level));
        let dist = Distances::new(&r.level);
        assert!(is_feeder(&r, &dist, 0));
        assert!(!is_feeder(&r, &dist, 1));
        assert_eq!(feeders(&r, &dist, 1), vec![(0, (1, 2))]);
        assert!(feeds(&r, &dist, (1, 2), (Ingredient::Lettuce, Form::Chopped)));
        assert!(!feeds(&r, &dist, (7, 2), (Ingredient::Lettuce, Form::Chopped)));
    }
}
