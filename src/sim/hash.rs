//! The per-tick hash chain: FNV-1a 64 over the room's canonical little-endian encoding.
//!
//! One visitor walks the state in a fixed field order (room scalars, cooks by seat, stations by
//! index, items by id); the hasher feeds the bytes to FNV-1a, the replay harness records the
//! same walk as named fields so a mismatch names the first differing field.

use super::kinds::{Dir4, Form};
use super::room::{CookState, ItemKind, Place, Room, StationState};
use fnv::FnvHasher;
use std::hash::Hasher;

/// Receives the canonical field walk. `name` is only called by sinks that keep names.
pub trait FieldSink {
    fn field(&mut self, name: &dyn Fn() -> String, value: i64);
}

/// Hashes the walk: every value as 8 little-endian bytes (names are not hashed).
struct HashSink(FnvHasher);

impl FieldSink for HashSink {
    fn field(&mut self, _name: &dyn Fn() -> String, value: i64) {
        self.0.write(&value.to_le_bytes());
    }
}

/// Collects the walk as (name, value) pairs, for golden diffs.
#[derive(Default)]
pub struct NamedFields(pub Vec<(String, i64)>);

impl FieldSink for NamedFields {
    fn field(&mut self, name: &dyn Fn() -> String, value: i64) {
        self.0.push((name(), value));
    }
}

fn dir_code(d: Dir4) -> i64 {
    d.code() as i64
}

fn form_code(f: Form) -> i64 {
    f.code() as i64
}

fn cook_state_code(s: CookState) -> i64 {
    match s {
        CookState::Idle => 0,
        CookState::Moving => 1,
        CookState::Stunned => 2,
    }
}

fn station_state_code(s: StationState) -> i64 {
    match s {
        StationState::Idle => 0,
        StationState::Working => 1,
        StationState::Ready => 2,
        StationState::Dirty => 3,
        StationState::Blocked => 4,
    }
}

fn place_code(p: Place) -> i64 {
    match p {
        Place::Hand(seat) => 0x1_0000 | seat as i64,
        Place::Station(i) => 0x2_0000 | i as i64,
    }
}

/// Walk the canonical state. The order here IS the hash's field order (docs/SIMULATION.md).
pub fn walk(room: &Room, sink: &mut dyn FieldSink) {
    sink.field(&|| "tick".into(), room.tick as i64);
    sink.field(&|| "rng".into(), room.rng.state as i64);
    sink.field(&|| "next_item".into(), room.next_item as i64);
    sink.field(&|| "plates_clean".into(), room.plates_clean as i64);
    sink.field(&|| "plates_dirty".into(), room.plates_dirty as i64);
    sink.field(&|| "pots_clean".into(), room.pots_clean as i64);
    sink.field(&|| "pots_dirty".into(), room.pots_dirty as i64);
    sink.field(&|| "counters.trashed".into(), room.counters.trashed as i64);
    sink.field(&|| "counters.created".into(), room.counters.created as i64);
    sink.field(&|| "counters.destroyed".into(), room.counters.destroyed as i64);
    sink.field(&|| "counters.served".into(), room.counters.served as i64);
    sink.field(&|| "counters.missed".into(), room.counters.missed as i64);
    sink.field(&|| "counters.wasted".into(), room.counters.wasted as i64);
    sink.field(&|| "score".into(), room.score as i64);
    sink.field(&|| "streak".into(), room.streak as i64);
    sink.field(&|| "longest_streak".into(), room.longest_streak as i64);
    sink.field(&|| "time_left".into(), room.time_left as i64);
    sink.field(&|| "result".into(), room.result.map_or(-1, |v| v as i64));
    sink.field(&|| "next_order_at".into(), room.next_order_at as i64);
    sink.field(&|| "next_order_id".into(), room.next_order_id as i64);
    sink.field(&|| "orders.len".into(), room.orders.len() as i64);
    for o in &room.orders {
        let id = o.id;
        sink.field(&|| format!("orders[#{id}].id"), id as i64);
        sink.field(&|| format!("orders[#{id}].recipe"), o.recipe as i64);
        sink.field(&|| format!("orders[#{id}].value"), o.value as i64);
        sink.field(&|| format!("orders[#{id}].deadline"), o.deadline as i64);
    }
    sink.field(&|| "cooks.len".into(), room.cooks.len() as i64);
    for c in &room.cooks {
        let s = c.seat;
        sink.field(&|| format!("cooks[{s}].seat"), s as i64);
        sink.field(&|| format!("cooks[{s}].pos.x"), c.pos.x as i64);
        sink.field(&|| format!("cooks[{s}].pos.y"), c.pos.y as i64);
        sink.field(&|| format!("cooks[{s}].vel.x"), c.vel.x as i64);
        sink.field(&|| format!("cooks[{s}].vel.y"), c.vel.y as i64);
        sink.field(&|| format!("cooks[{s}].facing"), dir_code(c.facing));
        sink.field(&|| format!("cooks[{s}].state"), cook_state_code(c.state));
        sink.field(&|| format!("cooks[{s}].stun"), c.stun as i64);
        sink.field(&|| format!("cooks[{s}].held"), c.held.map_or(0, |i| i.0 as i64));
        sink.field(&|| format!("cooks[{s}].action_ticks"), c.action_ticks as i64);
        sink.field(&|| format!("cooks[{s}].trash_hold"), c.trash_hold as i64);
        sink.field(&|| format!("cooks[{s}].speed_ppm"), c.modifiers.speed_ppm as i64);
        sink.field(&|| format!("cooks[{s}].accel_ppm"), c.modifiers.accel_ppm as i64);
        sink.field(&|| format!("cooks[{s}].slide"), c.modifiers.slide as i64);
        sink.field(&|| format!("cooks[{s}].score"), c.score as i64);
        sink.field(&|| format!("cooks[{s}].dishes_served"), c.dishes_served as i64);
    }
    sink.field(&|| "stations.len".into(), room.stations.len() as i64);
    for (i, st) in room.stations.iter().enumerate() {
        sink.field(&|| format!("stations[{i}].state"), station_state_code(st.state));
        sink.field(&|| format!("stations[{i}].progress"), st.progress as i64);
        sink.field(&|| format!("stations[{i}].worker"), st.worker.map_or(-1, |w| w as i64));
        sink.field(&|| format!("stations[{i}].cooldown"), st.cooldown as i64);
    }
    sink.field(&|| "items.len".into(), room.items.len() as i64);
    for item in &room.items {
        let id = item.id.0;
        sink.field(&|| format!("items[#{id}].id"), id as i64);
        match &item.kind {
            ItemKind::Food(ingredient, form) => {
                sink.field(&|| format!("items[#{id}].kind"), ingredient.code() as i64);
                sink.field(&|| format!("items[#{id}].form"), form_code(*form));
            }
            ItemKind::Plate { parts } => {
                sink.field(&|| format!("items[#{id}].kind"), 100);
                sink.field(&|| format!("items[#{id}].parts"), parts.len() as i64);
                for (k, (ingredient, form)) in parts.iter().enumerate() {
                    sink.field(
                        &|| format!("items[#{id}].parts[{k}]"),
                        (ingredient.code() as i64) << 8 | form_code(*form),
                    );
                }
            }
        }
        sink.field(&|| format!("items[#{id}].place"), place_code(item.place));
        sink.field(&|| format!("items[#{id}].quality"), item.quality as i64);
        let (placer, at) = item.mark.map_or((-1, -1), |m| (m.placer as i64, m.tick as i64));
        sink.field(&|| format!("items[#{id}].mark.placer"), placer);
        sink.field(&|| format!("items[#{id}].mark.tick"), at);
        sink.field(&|| format!("items[#{id}].heat"), item.heat as i64);
    }
}

/// The next link of the chain: FNV-1a 64 over the previous head then the canonical state.
pub fn chain(prev: u64, room: &Room) -> u64 {
    let mut sink = HashSink(FnvHasher::default());
    sink.0.write(&prev.to_le_bytes());
    walk(room, &mut sink);
    sink.0.finish()
}

/// The state as named fields (for golden diffs and debugging).
pub fn named_fields(room: &Room) -> Vec<(String, i64)> {
    let mut sink = NamedFields::default();
    walk(room, &mut sink);
    sink.0
}
