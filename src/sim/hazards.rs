//! Stage 6, hazards: shifting floors, carts, fire and the extinguisher, spills and ice.
//!
//! Runs after orders, so its draws continue the room's rng stream from the post-orders state.
//! Within a tick the order is fixed: shifts (the floor changes first, so everything after sees
//! this tick's grid) → carts → fire (sprays, then ignition and spread, station index order) →
//! traction (last, so a cook moved by a shift or a cart gets the modifier of where it ends).
//! A level with no hazards and no extinguisher stand leaves this state inert and unhashed.

use super::action::reach::select_target;
use super::cook::{CookState, MoveModifiers};
use super::events::SimEvent;
pub use super::fires::FireState;
use super::hazard_spec::{ShiftPhase, Traction};
use super::hazard_state::{CartState, Spray};
use super::ids::ItemId;
use super::item::{ItemKind, Place};
use super::kinds::{Form, StationKind, Tile};
use super::kitchen::Level;
use super::movement::{Axis, stun, sweep_axis};
use super::room::Room;
use super::station::StationState;
use super::units::Cell;
use super::units::{PUSH_SLOP, RADIUS, TILE};
use super::v2::V2;
use smallvec::SmallVec;
use std::sync::Arc;

/// Half-width of a cart's body square: 0.4 tile (a little bigger than a cook).
pub const CART_RADIUS: i32 = 400_000;
/// A spill keeps 60 % of the top speed…
pub const SPILL_SPEED_PPM: u32 = 600_000;
/// …and 35 % of the grip (acceleration and braking).
pub const SPILL_GRIP_PPM: u32 = 350_000;
/// Set up a new room's hazard state and hang an extinguisher on every stand.
pub fn init_room(room: &mut Room) {
    let spec = &room.level.hazards;
    let stands: Vec<usize> = (0..room.stations.len())
        .filter(|&s| room.stations[s].kind == StationKind::ExtinguisherStand)
        .collect();
    if spec.is_empty() && stands.is_empty() {
        return;
    }
    let h = &mut room.hazards;
    h.active = true;
    h.patches = smallvec::smallvec![false; spec.patches.len()];
    h.carts = smallvec::smallvec![CartState::default(); spec.carts.len()];
    h.fire = spec.fire.is_some();
    if h.fire {
        h.stoves = (0..room.stations.len())
            .filter(|&s| matches!(room.stations[s].kind, StationKind::Stove(_)))
            .map(|s| s as u16)
            .collect();
    }
    h.shifts = smallvec::smallvec![ShiftPhase::Present; spec.shifts.len()];
    h.spray = smallvec::smallvec![Spray::default(); room.cooks.len()];
    if !spec.shifts.is_empty() {
        h.pristine = Some(room.level.clone());
    }
    for s in stands {
        room.create_item(ItemKind::Extinguisher, Place::Station(s as u16));
    }
}

/// Stage 6 for one room.
pub fn step_room_hazards(room: &mut Room) {
    if !room.hazards.active {
        return;
    }
    step_shifts(room);
    step_carts(room);
    step_fire(room);
    step_traction(room);
}

// ------------------------------------------------------------------------------ geometry

/// Where a cart is: its leaving cell's centre plus `along` toward the next cell.
pub fn cart_pos(path: &[Cell], cart: CartState) -> V2 {
    let a = path[cart.seg as usize % path.len()];
    let b = path[(cart.seg as usize + 1) % path.len()];
    let c = V2::centre_of(a);
    V2::new(c.x + (b.0 - a.0) * cart.along, c.y + (b.1 - a.1) * cart.along)
}

/// Do a cook body at `cook` and a cart body at `cart` overlap beyond slop?
fn touches_cart(cook: V2, cart: V2) -> bool {
    let reach = RADIUS + CART_RADIUS;
    reach - (cook.x - cart.x).abs() > PUSH_SLOP && reach - (cook.y - cart.y).abs() > PUSH_SLOP
}

/// Do two cook bodies overlap beyond slop?
fn touches_cook(a: V2, b: V2) -> bool {
    2 * RADIUS - (a.x - b.x).abs() > PUSH_SLOP && 2 * RADIUS - (a.y - b.y).abs() > PUSH_SLOP
}

/// Every cart's position now.
fn cart_positions(room: &Room) -> Vec<V2> {
    let spec = &room.level.hazards.carts;
    room.hazards.carts.iter().zip(spec).map(|(c, s)| cart_pos(&s.path, *c)).collect()
}

/// Is `pos` a place cook `c` may be left: no other cook and no cart overlapping it?
fn clear_of_bodies(room: &Room, c: usize, pos: V2, carts: &[V2]) -> bool {
    carts.iter().all(|&k| !touches_cart(pos, k))
        && room.cooks.iter().enumerate().all(|(j, o)| j == c || !touches_cook(pos, o.pos))
}

/// Set cook `c` down on the nearest safe cell centre: walkable now, clear of other cooks and
/// carts. Nearest by squared distance from its centre; ties go to the first cell in reading
/// order, so the choice is the same on every machine.
fn rescue(room: &mut Room, c: usize) {
    let carts = cart_positions(room);
    let from = room.cooks[c].pos;
    let mut best: Option<(i64, Cell)> = None;
    for y in 0..room.level.height {
        for x in 0..room.level.width {
            if room.level.tile((x, y)).blocks_body() {
                continue;
            }
            let at = V2::centre_of((x, y));
            let (dx, dy) = ((at.x - from.x) as i64, (at.y - from.y) as i64);
            let d = dx * dx + dy * dy;
            if best.is_some_and(|(b, _)| b <= d) || !clear_of_bodies(room, c, at, &carts) {
                continue;
            }
            best = Some((d, (x, y)));
        }
    }
    if let Some((_, cell)) = best {
        let cook = &mut room.cooks[c];
        cook.pos = V2::centre_of(cell);
        cook.vel = V2::ZERO;
        room.events.push(SimEvent::Rescued { seat: cook.seat, cell });
    }
}

/// Does the body at `pos` overlap a cell that blocks bodies now?
fn body_blocked(level: &Level, pos: V2) -> bool {
    let (x0, x1) = ((pos.x - RADIUS).div_euclid(TILE), (pos.x + RADIUS - 1).div_euclid(TILE));
    let (y0, y1) = ((pos.y - RADIUS).div_euclid(TILE), (pos.y + RADIUS - 1).div_euclid(TILE));
    (y0..=y1).any(|y| (x0..=x1).any(|x| level.tile((x, y)).blocks_body()))
}

// ------------------------------------------------------------------------------ items

/// Send an extinguisher back to the first free stand (there are as many stands as
/// extinguishers and each holds one, so one is free whenever an extinguisher is off its own).
fn return_to_stand(room: &mut Room, id: ItemId) {
    let free = (0..room.stations.len()).find(|&s| {
        room.stations[s].kind == StationKind::ExtinguisherStand && room.items_on(s).next().is_none()
    });
    if let (Some(s), Some(i)) = (free, room.item_index(id)) {
        room.items[i].place = Place::Station(s as u16);
        room.items[i].mark = None;
    }
}

/// Everything lying on station `s` is lost to the kitchen (WASTED), except the extinguisher,
/// which goes back to a stand.
fn clear_station(room: &mut Room, s: usize) {
    let lying: Vec<(ItemId, bool)> =
        room.items_on(s).map(|i| (i.id, i.kind == ItemKind::Extinguisher)).collect();
    for (id, tool) in lying {
        if tool {
            return_to_stand(room, id);
        } else {
            room.destroy_item(id);
            room.counters.destroyed += 1;
            room.counters.wasted += 1;
            room.events.push(SimEvent::Wasted { item: id, station: s as u16 });
        }
    }
}

// ------------------------------------------------------------------------------ shifts

fn set_tile(level: &mut Level, (x, y): Cell, tile: Tile) {
    if x >= 0 && y >= 0 && x < level.width && y < level.height {
        level.tiles[(y * level.width + x) as usize] = tile;
    }
}

/// Shifting floors: warn, go (cells become void/wall, what lay on a vanishing counter falls,
/// cooks standing there are set down on the nearest safe tile), come back.
fn step_shifts(room: &mut Room) {
    let t = room.tick;
    for g in 0..room.hazards.shifts.len() {
        let spec = &room.level.hazards.shifts[g];
        let (phase, prev) = (spec.phase_at(t), room.hazards.shifts[g]);
        if phase == prev {
            continue;
        }
        let until = spec.ticks_until_gone(t);
        room.hazards.shifts[g] = phase;
        let group = g as u16;
        if phase == ShiftPhase::Gone {
            go(room, g);
            room.events.push(SimEvent::Shifted { group, gone: true });
            continue;
        }
        if prev == ShiftPhase::Gone {
            come_back(room, g);
            room.events.push(SimEvent::Shifted { group, gone: false });
        }
        if phase == ShiftPhase::Warning {
            room.events.push(SimEvent::ShiftWarning { group, ticks: until });
        }
    }
}

fn go(room: &mut Room, g: usize) {
    let (cells, to) = {
        let spec = &room.level.hazards.shifts[g];
        (spec.cells.clone(), spec.to)
    };
    // Fixtures on the cells fall first (found on the drawn level, while they still stand).
    for &cell in &cells {
        if let Some(s) = room.level.station_at(cell) {
            clear_station(room, s);
            let st = &mut room.stations[s];
            st.state = StationState::Idle;
            st.worker = None;
            st.progress = 0;
            st.cooldown = 0;
            room.hazards.fires.set(s, FireState::default());
        }
    }
    let level = Arc::make_mut(&mut room.level);
    for &cell in &cells {
        set_tile(level, cell, to);
    }
    // What lay on that floor falls with it, and a throw over a cell that became wall drops.
    let lost: Vec<ItemId> = room
        .items
        .iter()
        .filter(|i| match i.place {
            Place::Floor(at) => cells.contains(&at.cell()),
            Place::Air(f) => room.level.tile(f.pos.cell()) == Tile::Wall,
            Place::Hand(_) | Place::Station(_) => false,
        })
        .map(|i| i.id)
        .collect();
    for id in lost {
        super::flights::fall(room, id);
    }
    for c in 0..room.cooks.len() {
        if body_blocked(&room.level, room.cooks[c].pos) {
            rescue(room, c);
        }
    }
}

fn come_back(room: &mut Room, g: usize) {
    let Some(pristine) = room.hazards.pristine.clone() else { return };
    let cells = room.level.hazards.shifts[g].cells.clone();
    let level = Arc::make_mut(&mut room.level);
    for cell in cells {
        set_tile(level, cell, pristine.tile(cell));
    }
}

// ------------------------------------------------------------------------------ carts

/// Carts advance along their loops; a cart touching a cook knocks it down (unless it is
/// already down) and shoves it clear.
fn step_carts(room: &mut Room) {
    for k in 0..room.hazards.carts.len() {
        let (len, speed) = {
            let spec = &room.level.hazards.carts[k];
            (spec.path.len(), spec.speed)
        };
        let cart = &mut room.hazards.carts[k];
        cart.along += speed;
        while cart.along >= TILE {
            cart.along -= TILE;
            cart.seg = ((cart.seg as usize + 1) % len) as u16;
        }
        let pos = cart_pos(&room.level.hazards.carts[k].path, room.hazards.carts[k]);
        for c in 0..room.cooks.len() {
            if !touches_cart(room.cooks[c].pos, pos) {
                continue;
            }
            let cook = &mut room.cooks[c];
            if cook.stun == 0 && cook.state != CookState::Stunned {
                stun(cook);
                room.events.push(SimEvent::Knocked { seat: cook.seat, cart: k as u16 });
            }
            shove_clear(room, c, k, pos);
        }
    }
}

/// Push cook `c` just clear of cart `k`: sideways off the path first (the side its centre is
/// on, then the other), then ahead of the cart, then behind — the first move the terrain
/// allows in full that lands clear of every cart and cook. If none does, set it down on the
/// nearest safe tile. Never into a wall: the moves go through the movement sweep.
fn shove_clear(room: &mut Room, c: usize, k: usize, cart: V2) {
    let (dx, dy) = {
        let spec = &room.level.hazards.carts[k];
        let st = room.hazards.carts[k];
        let a = spec.path[st.seg as usize];
        let b = spec.path[(st.seg as usize + 1) % spec.path.len()];
        (b.0 - a.0, b.1 - a.1)
    };
    let pos = room.cooks[c].pos;
    let reach = RADIUS + CART_RADIUS;
    // (axis, sign): the push that clears the cart along that axis in that direction.
    let (side_axis, side_off, along_axis) = if dx != 0 {
        (Axis::Y, pos.y - cart.y, Axis::X)
    } else {
        (Axis::X, pos.x - cart.x, Axis::Y)
    };
    let side = if side_off > 0 { 1 } else { -1 };
    let ahead = if dx != 0 { dx } else { dy };
    let tries = [(side_axis, side), (side_axis, -side), (along_axis, ahead), (along_axis, -ahead)];
    let carts = cart_positions(room);
    for (axis, sign) in tries {
        let (p, q) = match axis {
            Axis::X => (pos.x, cart.x),
            Axis::Y => (pos.y, cart.y),
        };
        let delta = if sign > 0 { q + reach - p } else { q - reach - p };
        if sweep_axis(&room.level, pos, axis, delta) != delta {
            continue;
        }
        let to = match axis {
            Axis::X => V2::new(pos.x + delta, pos.y),
            Axis::Y => V2::new(pos.x, pos.y + delta),
        };
        if clear_of_bodies(room, c, to, &carts) {
            let cook = &mut room.cooks[c];
            cook.pos = to;
            cook.vel = V2::ZERO;
            return;
        }
    }
    rescue(room, c);
}

// ------------------------------------------------------------------------------ fire

/// Is this stove holding a burnt dish (the fuel a fire needs)?
fn smouldering(room: &Room, s: usize) -> bool {
    let st = &room.stations[s];
    matches!(st.kind, StationKind::Stove(_))
        && st.state == StationState::Dirty
        && room.items_on(s).any(|i| matches!(i.kind, ItemKind::Food(_, Form::Burnt)))
}

/// Set station `s` alight on tick `t`: it blocks, loses its worker and what lies on it, and
/// draws its first spread gap. A pot stove's pot is thrown clear (back to the clean stock),
/// so the props' stock still adds up once the fire is out.
fn ignite(room: &mut Room, s: usize, t: u32) {
    let Some(spec) = room.level.hazards.fire else { return };
    clear_station(room, s);
    room.reset_station(s, StationState::Blocked);
    let gap = room.rng.range_inclusive(spec.spread_min, spec.spread_max).max(1);
    room.hazards.fires.set(s, FireState { burning: true, smoulder: 0, next_spread: t + gap });
}

/// Is station `s` still standing (its cell not shifted away)? Every station has a cell of its
/// own (one grid character each), so this is `level.station_at(cell) == Some(s)` without that
/// call's scan of the station list, which made the every-tick burnt-down check quadratic.
fn standing(room: &Room, s: usize) -> bool {
    matches!(room.level.tile(room.stations[s].cell), Tile::Station(_))
}

/// Fixtures fire could jump to from `s`: flammable, standing, not burning, sharing an edge
/// (at most four, so they live on the stack).
fn spread_targets(room: &Room, s: usize) -> SmallVec<[usize; 4]> {
    let (x, y) = room.stations[s].cell;
    (0..room.stations.len())
        .filter(|&n| {
            let (nx, ny) = room.stations[n].cell;
            (nx - x).abs() + (ny - y).abs() == 1
                && room.stations[n].kind.flammable()
                && !room.hazards.fires.burning(n)
                && standing(room, n)
        })
        .collect()
}

fn step_fire(room: &mut Room) {
    let Some(spec) = room.level.hazards.fire else { return };
    // Sprays first: a fire put out this tick does not also spread this tick.
    step_sprays(room, spec.extinguish);
    step_ignition_and_spread(room, spec.delay, spec.spread_min, spec.spread_max);
    // Nothing burning is never burnt down, so the pass over every station runs only in a
    // kitchen on fire.
    room.hazards.burnt_down = room.hazards.fires.any_burning() && all_flammable_burning(room);
}

/// Each cook holding the extinguisher with the button down counts spray ticks at the burning
/// station it targets; at `extinguish` ticks that fire is out.
fn step_sprays(room: &mut Room, extinguish: u32) {
    if !room.hazards.fires.any_burning() {
        // No target for anyone: every spray stops, which is what the check below finds.
        room.hazards.spray.fill(Spray::default());
        return;
    }
    for c in 0..room.cooks.len() {
        let Some(s) = spray_target(room, c) else {
            room.hazards.spray[c] = Spray::default();
            continue;
        };
        let spray = &mut room.hazards.spray[c];
        if spray.station == s as u16 {
            spray.ticks += 1;
        } else {
            *spray = Spray { station: s as u16, ticks: 1 };
        }
        if spray.ticks >= extinguish {
            put_out(room, c, s);
        }
    }
}

/// The burning station cook `c` sprays this tick, if any: the button held (cheap checks
/// first), the extinguisher in hand, a burning target.
fn spray_target(room: &Room, c: usize) -> Option<usize> {
    let cook = &room.cooks[c];
    if cook.action_ticks == 0 || cook.stun != 0 {
        return None;
    }
    room.item(cook.held?)
        .filter(|i| i.kind == ItemKind::Extinguisher)
        .and_then(|_| select_target(room, cook).ok())
        .filter(|&s| room.hazards.fires.burning(s))
}

/// Cook `c`'s spray has put out station `s`: it stands idle again, and every spray at it stops.
fn put_out(room: &mut Room, c: usize, s: usize) {
    room.hazards.fires.set(s, FireState::default());
    let st = &mut room.stations[s];
    st.state = StationState::Idle;
    st.progress = 0;
    for other in room.hazards.spray.iter_mut().filter(|p| p.station == s as u16) {
        *other = Spray::default();
    }
    let seat = room.cooks[c].seat;
    room.events.push(SimEvent::Extinguished { seat, station: s as u16 });
}

/// Ignition and spread, in station index order. Only stoves (which may smoulder) and stations
/// already burning have anything to do; every other station's fire state is calm and stays
/// so, so visiting just those, in the same order, draws the same numbers in the same order.
/// A station lit during this pass needs no visit: its first spread is at least a tick away.
fn step_ignition_and_spread(room: &mut Room, delay: u32, spread_min: u32, spread_max: u32) {
    let t = room.tick;
    let mut visit: SmallVec<[u16; 8]> = SmallVec::from_slice(&room.hazards.stoves);
    if room.hazards.fires.any_burning() {
        visit.extend(room.hazards.fires.burning_stations().map(|s| s as u16));
        visit.sort_unstable();
        visit.dedup();
    }
    for s in visit.into_iter().map(usize::from) {
        let fire = room.hazards.fires.get(s);
        if fire.burning {
            if t < fire.next_spread {
                continue;
            }
            let targets = spread_targets(room, s);
            if !targets.is_empty() {
                let to = targets[room.rng.index(targets.len())];
                ignite(room, to, t);
                room.events.push(SimEvent::Spread { from: s as u16, to: to as u16 });
            }
            let gap = room.rng.range_inclusive(spread_min, spread_max).max(1);
            room.hazards.fires.set(s, FireState { next_spread: t + gap, ..fire });
        } else if smouldering(room, s) {
            let smoulder = fire.smoulder + 1;
            room.hazards.fires.set(s, FireState { smoulder, ..fire });
            if smoulder > delay {
                ignite(room, s, t);
                room.events.push(SimEvent::Ignited { station: s as u16 });
            }
        } else if fire.smoulder != 0 {
            room.hazards.fires.set(s, FireState { smoulder: 0, ..fire });
        }
    }
}

/// Every flammable fixture still standing is ablaze (and there is at least one).
fn all_flammable_burning(room: &Room) -> bool {
    let mut flammable = room
        .stations
        .iter()
        .enumerate()
        .filter(|&(s, st)| st.kind.flammable() && standing(room, s))
        .peekable();
    flammable.peek().is_some() && flammable.all(|(s, _)| room.hazards.fires.burning(s))
}

// ------------------------------------------------------------------------------ traction

/// Patches appear and dry on their timetables; every cook takes the modifier of the patch
/// under its centre (a later patch wins a shared cell; the validator forbids sharing anyway).
fn step_traction(room: &mut Room) {
    let t = room.tick;
    for p in 0..room.hazards.patches.len() {
        let spec = &room.level.hazards.patches[p];
        let (active, appears) = spec.state_at(t);
        room.hazards.patches[p] = active;
        if appears {
            let ice = spec.traction == Traction::Ice;
            room.events.push(SimEvent::Spilled { patch: p as u16, ice });
        }
    }
    for c in 0..room.cooks.len() {
        let cell = room.cooks[c].pos.cell();
        let mut m = MoveModifiers::default();
        for (p, spec) in room.level.hazards.patches.iter().enumerate() {
            if room.hazards.patches[p] && spec.cells.contains(&cell) {
                m = match spec.traction {
                    Traction::Spill => MoveModifiers {
                        speed_ppm: SPILL_SPEED_PPM,
                        accel_ppm: SPILL_GRIP_PPM,
                        slide: false,
                    },
                    Traction::Ice => MoveModifiers { slide: true, ..MoveModifiers::default() },
                };
            }
        }
        room.cooks[c].modifiers = m;
    }
}
