//! Stage 3b, flights: a thrown item flies a step a tick along its direction, over counters,
//! floor and holes; a cook facing it with a free hand catches it; at the end of its range (or
//! at a wall) it comes down on the fixture there if that takes it, else on the floor.
//!
//! Runs after movement, so a catcher is judged where it stands and faces this tick, and before
//! the stations, so a landing that loads a stove or a board is worked on the same tick, like a
//! set-down by hand.

use super::action::hands::put_on_station;
use super::dishes::{can_become_dish, with_parts};
use super::events::SimEvent;
use super::flight::Flight;
use super::ids::{ItemId, Seat};
use super::item::{ItemKind, Place};
use super::kinds::{Form, Ingredient, StationKind, Tile, Vessel};
use super::kitchen::Level;
use super::room::Room;
use super::scoring;
use super::station::StationState;
use super::stations::{POT_CAPACITY, transition};
use super::units::{CATCH_REACH, THROW_SPEED, THROW_TICKS, TILE, TRASH_SCORE_DELTA, cell_of};
use super::v2::V2;
use smallvec::SmallVec;

/// Stage 3b for one room: every item in the air one step, in item id order.
pub fn step_room_flights(room: &mut Room) {
    // Nothing has ever been thrown in most rooms: they pay one branch, not a scan.
    if !room.moves_seen {
        return;
    }
    let flying: SmallVec<[(ItemId, Flight); 4]> = room
        .items
        .iter()
        .filter_map(|i| match i.place {
            Place::Air(f) => Some((i.id, f)),
            _ => None,
        })
        .collect();
    for (id, f) in flying {
        step_flight(room, id, f);
    }
}

/// Does a cell stop a flight? Only walls (and the outside): items fly over fixtures and holes.
fn blocks_flight(tile: Tile) -> bool {
    tile == Tile::Wall
}

/// How far a point at `pos` moving `dist` along `dir` gets before a wall: the distance, and
/// whether a wall stopped it (the point then rests just inside the last open cell).
pub fn flight_step(level: &Level, pos: V2, dir: (i32, i32), dist: i32) -> (i32, bool) {
    let (along, cross, sign) =
        if dir.0 != 0 { (pos.x, pos.y, dir.0) } else { (pos.y, pos.x, dir.1) };
    let cross_cell = cell_of(cross);
    let cell = |line: i32| if dir.0 != 0 { (line, cross_cell) } else { (cross_cell, line) };
    let start = cell_of(along);
    let last = cell_of(along + sign * dist);
    let mut line = start;
    while line != last {
        line += sign;
        if blocks_flight(level.tile(cell(line))) {
            let stop = if sign > 0 { line * TILE - 1 } else { (line + 1) * TILE };
            return ((stop - along) * sign, true);
        }
    }
    (dist, false)
}

/// The cook that catches a flight moving from `from` to `to` this tick: a free, standing hand
/// facing against the flight whose square (`CATCH_REACH` each side of its centre) the path
/// crosses, the first the item reaches (the lower seat on a tie). Never the thrower.
fn catcher(room: &Room, f: &Flight, from: V2, to: V2) -> Option<usize> {
    let (dx, dy) = f.dir.delta();
    let against = f.dir.opposite();
    let horizontal = dx != 0;
    let sign = dx + dy;
    let (a0, a1, cross) = if horizontal { (from.x, to.x, from.y) } else { (from.y, to.y, from.x) };
    let (lo, hi) = (a0.min(a1), a0.max(a1));
    room.cooks
        .iter()
        .enumerate()
        .filter(|(_, c)| {
            c.seat != f.thrower
                && c.held.is_none()
                && c.stun == 0
                && c.state != super::cook::CookState::Stunned
                && c.facing == against
        })
        .filter_map(|(i, c)| {
            let (along, across) = if horizontal { (c.pos.x, c.pos.y) } else { (c.pos.y, c.pos.x) };
            let crosses = (across - cross).abs() <= CATCH_REACH
                && along + CATCH_REACH >= lo
                && along - CATCH_REACH <= hi;
            // How far along the path the item meets the cook's square.
            let entry = ((along - a0) * sign - CATCH_REACH).max(0);
            crosses.then_some((entry, c.seat, i))
        })
        .min()
        .map(|(_, _, i)| i)
}

/// One tick of a flight's path before the catch test: the point moves `THROW_SPEED` along its
/// direction (a wall stops it), `age` counts up, and `last_floor` follows the floor it is over.
/// Returns the flight a tick later and whether a wall stopped it.
pub fn advance(level: &Level, f: &Flight) -> (Flight, bool) {
    let dir = f.dir.delta();
    let (dist, walled) = flight_step(level, f.pos, dir, THROW_SPEED);
    let to = V2::new(f.pos.x + dir.0 * dist, f.pos.y + dir.1 * dist);
    let mut next = Flight { pos: to, age: f.age + 1, ..*f };
    if level.tile(to.cell()) == Tile::Floor {
        next.last_floor = Some(to);
    }
    (next, walled)
}

fn step_flight(room: &mut Room, id: ItemId, f: Flight) {
    let Some(i) = room.item_index(id) else { return };
    let (next, walled) = advance(&room.level, &f);
    if let Some(c) = catcher(room, &f, f.pos, next.pos) {
        let seat = room.cooks[c].seat;
        room.items[i].place = Place::Hand(seat);
        room.cooks[c].held = Some(id);
        room.events.push(SimEvent::Caught { seat, item: id, from: f.thrower });
        return;
    }
    room.items[i].place = Place::Air(next);
    if walled || next.age >= THROW_TICKS {
        land(room, id, next);
    }
}

/// How a flight ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlightEnd {
    /// A cook catches it.
    Caught(Seat),
    /// A fixture takes it (level index): onto it, onto the plate lying there, or into the bin.
    Station(usize),
    /// It drops on the floor at this point.
    Floor(V2),
    /// It falls into a hole.
    Fell,
}

/// How a flight of `food` would end if the kitchen stood still from now on: the stage's own
/// steps ([`advance`], the catch test against the cooks where they stand and face now, the
/// landing's choice) run ahead without changing anything. Bots read it to throw only where
/// the landing is certain (`bot::throwing`).
pub fn predict(room: &Room, food: (Ingredient, Form), mut f: Flight) -> FlightEnd {
    loop {
        let (next, walled) = advance(&room.level, &f);
        if let Some(c) = catcher(room, &f, f.pos, next.pos) {
            return FlightEnd::Caught(room.cooks[c].seat);
        }
        if walled || next.age >= THROW_TICKS {
            return match touchdown(room, Some(food), &next) {
                Down::Take(s, _) => FlightEnd::Station(s),
                Down::Floor(at) => FlightEnd::Floor(at),
                Down::Fall => FlightEnd::Fell,
            };
        }
        f = next;
    }
}

/// What a fixture does with a thrown ingredient that comes down on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Take {
    /// Onto the fixture, as a hand's set-down would put it (a pipeline input, or a marked item).
    Put,
    /// Onto the plate lying there, as plating by hand would.
    Plate(ItemId),
    /// Into the bin: trashed, as the long press would.
    Bin,
}

/// Does station `s` take a thrown `(ingredient, form)`? The same answers the verb ladder gives
/// a hand setting it down there; a busy, dirty or burning fixture takes nothing.
fn take_of(room: &Room, s: usize, ingredient: Ingredient, form: Form) -> Option<Take> {
    let st = &room.stations[s];
    if matches!(st.state, StationState::Dirty | StationState::Blocked) || st.worker.is_some() {
        return None;
    }
    let mut on = room.items_on(s);
    let first = on.next();
    let count = usize::from(first.is_some()) + on.count();
    let worked = transition(st.kind, ingredient, form).is_some();
    match st.kind {
        StationKind::Counter | StationKind::Prep => match first.map(|i| (i.id, &i.kind)) {
            None => Some(Take::Put),
            Some((plate, ItemKind::Plate { parts }))
                if can_become_dish(&room.book, &with_parts(parts, &[(ingredient, form)])) =>
            {
                Some(Take::Plate(plate))
            }
            Some(_) => None,
        },
        StationKind::ChopBoard => match first.map(|i| &i.kind) {
            None => Some(Take::Put),
            // The push-out: a rotted item yields to a new one the board works.
            Some(ItemKind::Food(_, Form::Burnt)) if worked => Some(Take::Put),
            Some(_) => None,
        },
        StationKind::Stove(vessel) if worked => {
            let has_room = match vessel {
                Vessel::Pan => count == 0,
                Vessel::Pot => count < POT_CAPACITY && first.is_none_or(|o| o.mark.is_none()),
            };
            let pot_in_stock = vessel == Vessel::Pan || count > 0 || room.pots_clean > 0;
            (has_room && pot_in_stock).then_some(Take::Put)
        }
        StationKind::Stove(_) => (count == 0).then_some(Take::Put),
        StationKind::Trash => Some(Take::Bin),
        StationKind::Shelf(_)
        | StationKind::PlateRack
        | StationKind::Serve
        | StationKind::Sink
        | StationKind::ExtinguisherStand => None,
    }
}

/// Where a landing flight comes down: a fixture that takes it, the floor, or a hole.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Down {
    Take(usize, Take),
    Floor(V2),
    Fall,
}

/// The fixture under the point takes the item, or it drops on the floor (at the point, or —
/// when a fixture refused it — at the last floor it flew over), or it falls into a hole.
fn touchdown(room: &Room, food: Option<(Ingredient, Form)>, f: &Flight) -> Down {
    let cell = f.pos.cell();
    match room.level.tile(cell) {
        Tile::Floor => Down::Floor(f.pos),
        Tile::Void => Down::Fall,
        Tile::Station(_) | Tile::Wall => {
            let taken = room
                .level
                .station_at(cell)
                .and_then(|s| food.and_then(|(i, fm)| take_of(room, s, i, fm)).map(|t| (s, t)));
            match (taken, f.last_floor) {
                (Some((s, take)), _) => Down::Take(s, take),
                (None, Some(at)) => Down::Floor(at),
                (None, None) => Down::Fall,
            }
        }
    }
}

/// The flight is over: it comes down where [`touchdown`] says.
fn land(room: &mut Room, id: ItemId, f: Flight) {
    let food = match room.item(id).map(|i| &i.kind) {
        Some(ItemKind::Food(ingredient, form)) => Some((*ingredient, *form)),
        _ => None,
    };
    match touchdown(room, food, &f) {
        Down::Floor(at) => drop_on_floor(room, id, at),
        Down::Fall => fall(room, id),
        Down::Take(s, take) => take_on(room, id, s, take, f.thrower),
    }
}

fn drop_on_floor(room: &mut Room, id: ItemId, at: V2) {
    if let Some(i) = room.item_index(id) {
        room.items[i].place = Place::Floor(at);
    }
    room.events.push(SimEvent::Landed { item: id, station: None });
}

/// An item lost into a hole: destroyed, counted as waste.
pub fn fall(room: &mut Room, id: ItemId) {
    room.destroy_item(id);
    room.counters.destroyed += 1;
    room.counters.wasted += 1;
    room.events.push(SimEvent::Fell { item: id });
}

fn take_on(room: &mut Room, id: ItemId, s: usize, take: Take, thrower: Seat) {
    let station = Some(s as u16);
    match take {
        Take::Put => {
            room.events.push(SimEvent::Landed { item: id, station });
            put_on_station(room, id, s, thrower);
        }
        Take::Plate(plate) => {
            let Some(food) = room.item(id).cloned() else { return };
            let ItemKind::Food(ingredient, form) = food.kind else { return };
            if let Some(p) = room.item_index(plate) {
                let item = &mut room.items[p];
                if let ItemKind::Plate { parts } = &mut item.kind {
                    *parts = with_parts(parts, &[(ingredient, form)]);
                }
                item.quality = item.quality.min(food.quality);
            }
            room.destroy_item(id);
            room.counters.destroyed += 1;
            room.events.push(SimEvent::Landed { item: id, station });
            room.events.push(SimEvent::Plated { seat: thrower, plate });
        }
        Take::Bin => {
            room.destroy_item(id);
            room.counters.trashed += 1;
            room.counters.destroyed += 1;
            room.events.push(SimEvent::Landed { item: id, station });
            room.events.push(SimEvent::Trashed {
                seat: thrower,
                item: id,
                score_delta: TRASH_SCORE_DELTA,
            });
            scoring::add_seat_score(room, thrower, TRASH_SCORE_DELTA);
        }
    }
}
