//! The per-tick hash chain: FNV-1a 64 over the room's canonical little-endian encoding.
//!
//! One visitor walks the state in a fixed field order (room scalars, cooks by seat, stations by
//! index, items by id); the hasher feeds the bytes to FNV-1a, the replay harness records the
//! same walk as named fields so a mismatch names the first differing field.

use super::kinds::{Dir4, Form};
use super::room::{CookState, ItemKind, Place, Room, StationState};

/// Receives the canonical field walk. `name` is only called by sinks that keep names.
pub trait FieldSink {
    fn field(&mut self, name: &dyn Fn() -> String, value: i64);
}

/// FNV-1a 64's offset basis and prime (the `fnv` crate's, which a test pins this against).
const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// `FNV_PRIME^k` for k = 0..=8: folding k zero bytes into FNV-1a is `h ^= 0; h *= P` k times,
/// which is one multiplication by `P^k`.
const PRIME_POWERS: [u64; 9] = {
    let mut p = [1u64; 9];
    let mut k = 1;
    while k < 9 {
        p[k] = p[k - 1].wrapping_mul(FNV_PRIME);
        k += 1;
    }
    p
};

/// FNV-1a 64 fed 8 little-endian bytes per value, bit for bit what `fnv::FnvHasher` computes.
/// Most fields are small, so their high bytes are zero: those are folded in with one multiply
/// instead of one dependent multiply per byte (the hash was over half of a batch room-tick).
#[derive(Clone, Copy)]
struct Fnv64(u64);

impl Fnv64 {
    #[inline]
    fn write_u64_le(&mut self, v: u64) {
        let significant = 8 - (v.leading_zeros() / 8) as usize;
        let mut h = self.0;
        for k in 0..significant {
            h = (h ^ ((v >> (8 * k)) & 0xff)).wrapping_mul(FNV_PRIME);
        }
        self.0 = h.wrapping_mul(PRIME_POWERS[8 - significant]);
    }
}

/// Hashes the walk: every value as 8 little-endian bytes (names are not hashed).
struct HashSink(Fnv64);

impl FieldSink for HashSink {
    #[inline]
    fn field(&mut self, _name: &dyn Fn() -> String, value: i64) {
        self.0.write_u64_le(value as u64);
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
/// Generic so the hashing sink is inlined into the walk (a `dyn` sink still works).
pub fn walk<S: FieldSink + ?Sized>(room: &Room, sink: &mut S) {
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
            ItemKind::Extinguisher => {
                sink.field(&|| format!("items[#{id}].kind"), 200);
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
    // Stage 6 is walked only for a room that has hazards (or a stand), so a calm kitchen
    // hashes exactly as it did before hazards existed.
    if room.hazards.active {
        super::hazards::walk_hazards(room, sink);
    }
}

/// The next link of the chain: FNV-1a 64 over the previous head then the canonical state.
pub fn chain(prev: u64, room: &Room) -> u64 {
    let mut sink = HashSink(Fnv64(FNV_OFFSET));
    sink.0.write_u64_le(prev);
    walk(room, &mut sink);
    sink.0.0
}

/// The state as named fields (for golden diffs and debugging).
pub fn named_fields(room: &Room) -> Vec<(String, i64)> {
    let mut sink = NamedFields::default();
    walk(room, &mut sink);
    sink.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::rng::SplitMix64;
    use fnv::FnvHasher;
    use std::hash::Hasher;

    /// The reference: the `fnv` crate over the same 8-byte little-endian encoding.
    fn reference(values: &[u64]) -> u64 {
        let mut h = FnvHasher::default();
        for v in values {
            h.write(&v.to_le_bytes());
        }
        h.finish()
    }

    #[test]
    fn the_zero_skipping_fnv_is_bit_exact_with_the_fnv_crate() {
        let mut rng = SplitMix64::new(3);
        let mut values =
            vec![0, 1, 0xff, 0x100, u64::MAX, 1 << 63, (-1i64) as u64, (-175_000i64) as u64];
        for _ in 0..2000 {
            // Every byte width, and negatives, the way real fields look.
            let width = rng.index(9) as u32 * 8;
            let v =
                if width == 64 { rng.next_u64() } else { rng.next_u64() & ((1u64 << width) - 1) };
            values.push(if rng.index(4) == 0 { v.wrapping_neg() } else { v });
        }
        for n in 0..values.len() {
            let mut h = Fnv64(FNV_OFFSET);
            for v in &values[..n] {
                h.write_u64_le(*v);
            }
            assert_eq!(h.0, reference(&values[..n]), "after {n} values");
        }
    }

    #[test]
    fn the_chain_hashes_exactly_the_named_walk() {
        use crate::sim::kinds::{Form, Ingredient};
        use crate::sim::room::ItemKind;
        let mut room = crate::sim::tests::room(&["#####", "#1.2#", "#-T-#", "#####"], 2);
        room.preplace(0, ItemKind::Food(Ingredient::Onion, Form::Chopped));
        let parts = vec![(Ingredient::Lettuce, Form::Chopped), (Ingredient::Tomato, Form::Chopped)];
        room.preplace(2, ItemKind::Plate { parts });
        room.cooks[1].vel = crate::sim::room::V2::new(-175_000, 3);
        let values: Vec<u64> = named_fields(&room).into_iter().map(|(_, v)| v as u64).collect();
        let mut all = vec![12_345u64];
        all.extend(values);
        assert_eq!(chain(12_345, &room), reference(&all));
    }
}
