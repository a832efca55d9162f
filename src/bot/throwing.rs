//! Throwing: the cells from which a bot's throw comes down on a fixture, and whether throwing
//! beats walking there. Where a throw ends is the sim's own answer (`flights::predict` runs
//! the flights stage ahead on the room as it stands), never a copy of its rule, so a bot
//! throws only where the landing is certain.

use super::act::{Act, Mode};
use super::nav::{FAR, distances, walkable};
use super::view::{View, own_dirs, own_x};
use crate::sim::flight::Flight;
use crate::sim::flights::{FlightEnd, predict};
use crate::sim::ids::Seat;
use crate::sim::item::{ItemKind, Place};
use crate::sim::kinds::{Dir4, Form};
use crate::sim::recipe_book::Part;
use crate::sim::room::Room;
use crate::sim::stations::transition;
use crate::sim::units::{Cell, THROW_SPEED, THROW_TICKS, TILE};
use crate::sim::v2::V2;

/// Cells a throw must save over the walk before a bot throws. Turning to face the line costs
/// a tick or two, and a throw that a teammate's step spoils costs a re-plan.
pub const THROW_MARGIN: u32 = 3;

/// How far a throw carries, in whole cells along its line (`THROW_TICKS × THROW_SPEED`).
pub(super) fn range_cells() -> i32 {
    (THROW_TICKS as i64 * THROW_SPEED as i64).div_euclid(TILE as i64) as i32
}

/// Can the second button throw this food (the sim refuses cooked, boiled and burnt food)?
pub(super) fn throwable(food: Part) -> bool {
    matches!(food.1, Form::Raw | Form::Chopped)
}

/// Does `seat`'s throw of `food` from `pos` along `dir` come down on fixture `s`, the room as
/// it stands (nobody else catching it on the way)?
pub(super) fn lands_on(room: &Room, seat: Seat, food: Part, pos: V2, dir: Dir4, s: usize) -> bool {
    predict(room, food, Flight::thrown(&room.level, seat, pos, dir)) == FlightEnd::Station(s)
}

/// The cells (with the facing) from which `seat`'s throw of `food` comes down on fixture `s`:
/// walkable cells up to a throw's range from it along each of the four lines, in a fixed
/// order (direction, then distance). The landing cell along a line does not depend on where
/// in its cell the thrower stands (the range is whole cells), so the cell's centre stands
/// for the cell; the act checks again from the exact point before it presses.
pub(super) fn spots(room: &Room, seat: Seat, food: Part, s: usize) -> Vec<(Cell, Dir4)> {
    let cell = room.stations[s].cell;
    let mut out = Vec::new();
    for dir in own_dirs(room, seat) {
        let (dx, dy) = dir.delta();
        for k in 1..=range_cells() {
            let spot = (cell.0 - k * dx, cell.1 - k * dy);
            if walkable(&room.level, spot)
                && lands_on(room, seat, food, V2::centre_of(spot), dir, s)
            {
                out.push((spot, dir));
            }
        }
    }
    out
}

/// The nearest throw spot for `food` onto `s` by walking from `from` (cells, spot, facing).
fn nearest_spot(
    room: &Room,
    seat: Seat,
    food: Part,
    s: usize,
    from: Cell,
) -> Option<(u32, Cell, Dir4)> {
    let dist = distances(&room.level, &[from], &|_| false);
    let w = room.level.width as usize;
    spots(room, seat, food, s)
        .into_iter()
        .map(|(c, d)| (dist[c.1 as usize * w + c.0 as usize], c, d))
        .filter(|(n, _, _)| *n != FAR)
        .min_by_key(|&(n, c, d)| {
            let turn = own_dirs(room, seat).iter().position(|&o| o == d);
            (n, c.1, own_x(room, seat, c.0), turn)
        })
}

/// Deliver the held `food` to fixture `s`: a throw when the team throws and it is the faster
/// way (the walk to the nearest spot, plus [`THROW_MARGIN`], is shorter than the walk to a
/// working cell of `s`, or `s` cannot be walked to at all), else the press at `s`.
pub(super) fn throw_or_press(v: &View, food: Part, s: usize, label: String) -> Option<Act> {
    if v.throws
        && throwable(food)
        && let Some((n, from, dir)) = nearest_spot(v.room, v.seat, food, s, v.cell)
        && (v.cost(s) == FAR || n.saturating_add(THROW_MARGIN) < v.cost(s))
    {
        let label = format!("throw from {from:?}: {label}");
        return Some(Act { station: s, mode: Mode::Throw { from, dir }, label });
    }
    Some(Act { station: s, mode: Mode::Press, label })
}

/// Throw the held `food` onto fixture `s` from the nearest spot this bot can walk to, however
/// far: a feeder's only way across water no walk crosses (`bot::feed`). None when no spot on
/// this bot's bank lands it there now (a cook stands in the line, the fixture is full).
pub(super) fn throw_onto(v: &View, food: Part, s: usize, label: String) -> Option<Act> {
    if !throwable(food) {
        return None;
    }
    let (_, from, dir) = nearest_spot(v.room, v.seat, food, s, v.cell)?;
    let label = format!("throw from {from:?}: {label}");
    Some(Act { station: s, mode: Mode::Throw { from, dir }, label })
}

/// Cells from fixture `anchor`'s working cells to the nearest spot that throws `food` onto
/// fixture `s` (FAR when none): how near `s` is to work done at `anchor`, by throw.
pub(super) fn throw_reach(v: &View, food: Part, anchor: usize, s: usize) -> u32 {
    spots(v.room, v.seat, food, s)
        .into_iter()
        .map(|(c, _)| v.dist.to(anchor, c))
        .min()
        .map_or(FAR, |n| n.saturating_add(THROW_MARGIN))
}

/// The food `seat` has in the air, each with the fixture it will come down on (None: the
/// floor, a hole or a catcher).
pub(super) fn in_flight(room: &Room, seat: Seat) -> Vec<(Part, Option<usize>)> {
    room.items
        .iter()
        .filter_map(|i| match (i.place, &i.kind) {
            (Place::Air(f), ItemKind::Food(g, fm)) if f.thrower == seat => {
                let end = match predict(room, (*g, *fm), f) {
                    FlightEnd::Station(s) => Some(s),
                    FlightEnd::Caught(_) | FlightEnd::Floor(_) | FlightEnd::Fell => None,
                };
                Some(((*g, *fm), end))
            }
            _ => None,
        })
        .collect()
}

/// The part an airborne `food` becomes where it lands: what fixture `end` turns it into, or
/// itself.
pub(super) fn landed_form(room: &Room, food: Part, end: Option<usize>) -> Part {
    let kind = end.map(|s| room.stations[s].kind);
    let form = kind.and_then(|k| transition(k, food.0, food.1)).map_or(food.1, |t| t.0);
    (food.0, form)
}
