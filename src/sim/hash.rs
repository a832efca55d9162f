//! The per-tick hash chain: a four-lane multiply-rotate word hash over the room's canonical
//! field walk, finished with a full avalanche.
//!
//! One visitor walks the state in a fixed field order (room scalars, cooks by seat, stations by
//! index, items by id); the hasher folds each value into one of four lanes, the replay harness
//! records the same walk as named fields so a mismatch names the first differing field.
//!
//! Why not byte-wise FNV-1a (what DESIGN.md first named): FNV-1a is one dependent multiply per
//! byte, so its cost is the walk's byte count times the multiply latency, and it was 38 % of a
//! batch room-tick. Here each value is one multiply, and consecutive values go to independent
//! lanes, so the CPU overlaps them (docs/ARCHITECTURE.md, docs/PERFORMANCE.md).

use super::cook::CookState;
use super::hazard_spec::ShiftPhase;
use super::item::{ItemKind, Place};
use super::kinds::{Dir4, Form};
use super::room::Room;
use super::station::{Station, StationState};
use super::versus::Team;

/// Receives the canonical field walk. `name` is only called by sinks that keep names.
pub trait FieldSink {
    fn field(&mut self, name: &dyn Fn() -> String, value: i64);
}

/// The lanes' multiplier: 2^64 / φ, odd (every lane step is a bijection of the lane).
const LANE_K: u64 = 0x9e37_79b9_7f4a_7c15;
/// The lanes' starting values (the first digits of π, so nothing starts at zero).
const LANE_SEEDS: [u64; 4] =
    [0x243f_6a88_85a3_08d3, 0x1319_8a2e_0370_7344, 0xa409_3822_299f_31d0, 0x082e_fa98_ec4e_6c89];

/// One lane step: rotate, xor the value in, multiply (the Fx hash's step, which rustc uses).
#[inline(always)]
const fn lane_step(lane: u64, value: u64) -> u64 {
    (lane.rotate_left(5) ^ value).wrapping_mul(LANE_K)
}

/// MurmurHash3's 64-bit finaliser: every input bit flips each output bit with p ≈ ½.
#[inline(always)]
const fn avalanche(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

/// The chain's hasher. Value `n` (0-based, counting `prev` as value 0) goes to lane `n mod 4`;
/// the lanes rotate through registers instead of being indexed, so there is no branch and no
/// memory traffic per value. `finish` folds the lanes in order, then the count, each through
/// the avalanche, so lane order, value order and length all matter.
#[derive(Clone, Copy)]
struct LaneHasher {
    /// `lanes[0]` takes the next value; after it, the array rotates left by one.
    lanes: [u64; 4],
    count: u64,
}

impl LaneHasher {
    const fn new() -> Self {
        LaneHasher { lanes: LANE_SEEDS, count: 0 }
    }

    #[inline(always)]
    fn write(&mut self, value: u64) {
        let [a, b, c, d] = self.lanes;
        self.lanes = [b, c, d, lane_step(a, value)];
        self.count += 1;
    }

    fn finish(&self) -> u64 {
        // Undo the rotation so lane k is the lane that took values n ≡ k (mod 4). Constant
        // indices only: a computed index would keep the lanes in memory for the whole walk
        // (LLVM cannot split an array indexed by a variable into registers), and storing four
        // lanes per value made the walk store-bound at ~2.4 cycles a value.
        let [a, b, c, d] = self.lanes;
        let in_order = match self.count % 4 {
            0 => [a, b, c, d],
            1 => [d, a, b, c],
            2 => [c, d, a, b],
            _ => [b, c, d, a],
        };
        let mut h = 0u64;
        for lane in in_order {
            h = avalanche(h ^ lane);
        }
        avalanche(h ^ self.count)
    }
}

/// Hashes the walk: every value as its 64-bit two's-complement pattern (names are not hashed).
struct HashSink(LaneHasher);

impl FieldSink for HashSink {
    #[inline(always)]
    fn field(&mut self, _name: &dyn Fn() -> String, value: i64) {
        self.0.write(value as u64);
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

/// One station as one hashed word: `state | (worker + 1) << 8 | cooldown << 24 | progress << 32`
/// (worker 0 = none). A station has dozens of siblings and most sit idle, so four values each
/// were a third of a hazard level's walk (docs/SIMULATION.md §8). Every part fits its bits: the
/// state code is < 5, a seat + 1 ≤ 256, the release grace never passes `RELEASE_TICKS` (4),
/// progress is a `u32`.
fn station_word(st: &Station) -> i64 {
    let worker = st.worker.map_or(0, |w| w as u64 + 1);
    (station_state_code(st.state) as u64
        | worker << 8
        | (st.cooldown as u64 & 0xff) << 24
        | (st.progress as u64) << 32) as i64
}

fn place_code(p: Place) -> i64 {
    match p {
        Place::Hand(seat) => 0x1_0000 | seat as i64,
        Place::Station(i) => 0x2_0000 | i as i64,
        Place::Floor(_) => 0x3_0000,
        Place::Air(_) => 0x4_0000,
    }
}

/// The dash state of every cook, by seat (the flights are walked with their items).
fn walk_moves<S: FieldSink + ?Sized>(room: &Room, sink: &mut S) {
    for c in &room.cooks {
        let s = c.seat;
        sink.field(&|| format!("cooks[{s}].dash"), c.dash as i64);
        sink.field(&|| format!("cooks[{s}].dash_cooldown"), c.dash_cooldown as i64);
        sink.field(&|| format!("cooks[{s}].dash_down"), c.dash_down as i64);
    }
}

/// Walk the canonical state. The order here IS the hash's field order (docs/SIMULATION.md).
/// Generic so the hashing sink is inlined into the walk (a `dyn` sink still works).
pub fn walk<S: FieldSink + ?Sized>(room: &Room, sink: &mut S) {
    // Only an assisted round has the field, so every unassisted chain is as it was.
    if room.assist.is_on() {
        sink.field(&|| "assist".into(), room.assist.code());
    }
    // Likewise survival: only a survival round has its three tallies.
    if let Some(s) = &room.survival {
        sink.field(&|| "survival.added".into(), s.added as i64);
        sink.field(&|| "survival.taken".into(), s.taken as i64);
        sink.field(&|| "survival.survived".into(), s.survived as i64);
    }
    // Likewise versus: only a level with teams has the two teams' tallies.
    if let Some(v) = &room.versus {
        for team in Team::BOTH {
            let t = v.team(team);
            let n = team.as_str();
            sink.field(&|| format!("versus.{n}.score"), t.score as i64);
            sink.field(&|| format!("versus.{n}.streak"), t.streak as i64);
            sink.field(&|| format!("versus.{n}.longest_streak"), t.longest_streak as i64);
            sink.field(&|| format!("versus.{n}.served"), t.served as i64);
            sink.field(&|| format!("versus.{n}.missed"), t.missed as i64);
        }
    }
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
        // Only a versus rail's orders have a team, so a co-op rail walks as before.
        if let Some(team) = o.team {
            sink.field(&|| format!("orders[#{id}].team"), team.index() as i64);
        }
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
        sink.field(&|| format!("stations[{i}]"), station_word(st));
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
        // Only a thrown item ever lies on the floor, so a room without throws walks as before.
        match item.place {
            Place::Floor(at) => {
                sink.field(&|| format!("items[#{id}].floor.x"), at.x as i64);
                sink.field(&|| format!("items[#{id}].floor.y"), at.y as i64);
            }
            Place::Air(f) => {
                sink.field(&|| format!("items[#{id}].flight.thrower"), f.thrower as i64);
                sink.field(&|| format!("items[#{id}].flight.dir"), dir_code(f.dir));
                sink.field(&|| format!("items[#{id}].flight.pos.x"), f.pos.x as i64);
                sink.field(&|| format!("items[#{id}].flight.pos.y"), f.pos.y as i64);
                sink.field(&|| format!("items[#{id}].flight.age"), f.age as i64);
                let (x, y) = f.last_floor.map_or((-1, -1), |p| (p.x as i64, p.y as i64));
                sink.field(&|| format!("items[#{id}].flight.last_floor.x"), x);
                sink.field(&|| format!("items[#{id}].flight.last_floor.y"), y);
            }
            Place::Hand(_) | Place::Station(_) => {}
        }
        sink.field(&|| format!("items[#{id}].quality"), item.quality as i64);
        let (placer, at) = item.mark.map_or((-1, -1), |m| (m.placer as i64, m.tick as i64));
        sink.field(&|| format!("items[#{id}].mark.placer"), placer);
        sink.field(&|| format!("items[#{id}].mark.tick"), at);
        sink.field(&|| format!("items[#{id}].heat"), item.heat as i64);
    }
    // The moves are walked only once the second button has gone down in the room: before
    // that every dash and flight field is at rest, so older goldens keep their hashes.
    if room.moves_seen {
        walk_moves(room, sink);
    }
    // Stage 6 is walked only for a room that has hazards (or a stand), so a calm kitchen
    // hashes exactly as it did before hazards existed.
    if room.hazards.active {
        walk_hazards(room, sink);
    }
}

/// The next link of the chain: the lane hash of the previous head, then the canonical state.
pub fn chain(prev: u64, room: &Room) -> u64 {
    let mut sink = HashSink(LaneHasher::new());
    sink.0.write(prev);
    walk(room, &mut sink);
    sink.0.finish()
}

/// The state as named fields (for golden diffs and debugging).
pub fn named_fields(room: &Room) -> Vec<(String, i64)> {
    let mut sink = NamedFields::default();
    walk(room, &mut sink);
    sink.0
}

/// The hazard section of the hash walk (called by `walk` only for an active room).
/// Inlined into the walk so the hasher's lanes stay in registers across it.
#[inline(always)]
fn walk_hazards<S: FieldSink + ?Sized>(room: &Room, sink: &mut S) {
    let h = &room.hazards;
    for (p, on) in h.patches.iter().enumerate() {
        sink.field(&|| format!("hazards.patches[{p}]"), *on as i64);
    }
    for (k, cart) in h.carts.iter().enumerate() {
        sink.field(&|| format!("hazards.carts[{k}].seg"), cart.seg as i64);
        sink.field(&|| format!("hazards.carts[{k}].along"), cart.along as i64);
    }
    for (g, phase) in h.shifts.iter().enumerate() {
        let code = match phase {
            ShiftPhase::Present => 0,
            ShiftPhase::Warning => 1,
            ShiftPhase::Gone => 2,
        };
        sink.field(&|| format!("hazards.shifts[{g}]"), code);
    }
    // Only the map's entries, one packed word each after the station: a kitchen with no fire
    // hashes one value here instead of three per station (docs/SIMULATION.md §8).
    if h.fire {
        sink.field(&|| "hazards.fires.len".into(), h.fires.len() as i64);
        for (s, f) in h.fires.iter() {
            sink.field(&|| format!("hazards.fires[{s}].station"), s as i64);
            sink.field(&|| format!("hazards.fires[{s}].state"), f.packed());
        }
    }
    for (c, spray) in h.spray.iter().enumerate() {
        sink.field(&|| format!("hazards.spray[{c}].station"), spray.station as i64);
        sink.field(&|| format!("hazards.spray[{c}].ticks"), spray.ticks as i64);
    }
    sink.field(&|| "hazards.burnt_down".into(), h.burnt_down as i64);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::rng::SplitMix64;

    /// The definition, written the plain way: indexed lanes, value n to lane n mod 4, then the
    /// lanes in order and the count through the avalanche.
    fn reference(values: &[u64]) -> u64 {
        let mut lanes = LANE_SEEDS;
        for (n, v) in values.iter().enumerate() {
            let lane = &mut lanes[n % 4];
            *lane = (lane.rotate_left(5) ^ v).wrapping_mul(LANE_K);
        }
        let mut h = 0u64;
        for lane in lanes {
            h = avalanche(h ^ lane);
        }
        avalanche(h ^ values.len() as u64)
    }

    fn hash(values: &[u64]) -> u64 {
        let mut h = LaneHasher::new();
        for v in values {
            h.write(*v);
        }
        h.finish()
    }

    #[test]
    fn the_rotating_lanes_compute_the_plain_definition() {
        let mut rng = SplitMix64::new(3);
        let mut values =
            vec![0, 1, 0xff, 0x100, u64::MAX, 1 << 63, (-1i64) as u64, (-175_000i64) as u64];
        for _ in 0..300 {
            let width = rng.index(9) as u32 * 8;
            let v =
                if width == 64 { rng.next_u64() } else { rng.next_u64() & ((1u64 << width) - 1) };
            values.push(if rng.index(4) == 0 { v.wrapping_neg() } else { v });
        }
        for n in 0..values.len() {
            assert_eq!(hash(&values[..n]), reference(&values[..n]), "after {n} values");
        }
    }

    /// Known answers, so a change to the constants or the fold is a visible contract change
    /// (docs/SIMULATION.md §8), not a silent one that only the goldens would catch.
    #[test]
    fn the_lane_hash_has_fixed_known_answers() {
        assert_eq!(hash(&[]), 0x95df_2e41_b0cc_dd08);
        assert_eq!(hash(&[0]), 0x7a19_1460_66c1_ed28);
        assert_eq!(hash(&[1, 2, 3, 4, 5]), 0x4a1d_5049_9653_ed90);
    }

    #[test]
    fn order_length_and_every_bit_matter() {
        assert_ne!(hash(&[1, 2]), hash(&[2, 1]));
        assert_ne!(hash(&[0]), hash(&[0, 0]));
        assert_ne!(hash(&[1, 0, 0, 0, 0]), hash(&[0, 0, 0, 0, 1]));
        // A one-bit change anywhere flips about half of the output bits.
        let base: Vec<u64> = (0..40u64).map(|i| i * 7919).collect();
        let h0 = hash(&base);
        let mut total = 0u32;
        let mut flips = 0u32;
        for i in 0..base.len() {
            for bit in 0..64 {
                let mut v = base.clone();
                v[i] ^= 1 << bit;
                let d = (hash(&v) ^ h0).count_ones();
                assert!((8..=56).contains(&d), "value {i} bit {bit}: {d} output bits flipped");
                total += d;
                flips += 1;
            }
        }
        // Mean within 30..34 of 64, in integers (no floats anywhere under sim/).
        assert!((30 * flips..34 * flips).contains(&total), "mean flipped bits {total}/{flips}");
    }

    #[test]
    fn a_station_is_one_word_with_each_part_in_its_bits() {
        use crate::sim::kinds::StationKind;
        let mut st = Station {
            kind: StationKind::ChopBoard,
            cell: (1, 2),
            state: StationState::Idle,
            progress: 0,
            worker: None,
            cooldown: 0,
        };
        assert_eq!(station_word(&st), 0, "an idle, unworked station is zero");
        st.state = StationState::Working;
        st.worker = Some(2);
        st.cooldown = 3;
        st.progress = 17;
        assert_eq!(station_word(&st), 1 | 3 << 8 | 3 << 24 | 17 << 32);
        st.worker = Some(255);
        st.progress = u32::MAX;
        assert_eq!(station_word(&st) as u64 >> 8 & 0xffff, 256, "seat 255 + 1 fits");
        assert_eq!(station_word(&st) as u64 >> 32, u32::MAX as u64);
    }

    /// The sketch `#####` `#1.2#` `#-T-#` `#####` with two cooks, built by hand: the rules
    /// import nothing from `level/`, so their own tests build levels without its sketches.
    fn two_cook_room() -> Room {
        use crate::sim::kinds::{StationKind, Tile};
        use crate::sim::kitchen::{Level, LevelFixed, StationDef};
        use crate::sim::open::SeatSpec;
        use crate::sim::recipe_book::RecipeBook;
        use std::sync::Arc;
        let (w, f) = (Tile::Wall, Tile::Floor);
        let (counter, trash) = (StationKind::Counter, StationKind::Trash);
        let (c, t) = (Tile::Station(counter), Tile::Station(trash));
        let tiles = vec![w, w, w, w, w, w, f, f, f, w, w, c, t, c, w, w, w, w, w, w];
        let stations = [(counter, 1), (trash, 2), (counter, 3)]
            .map(|(kind, x)| StationDef { kind, cell: (x, 2) })
            .to_vec();
        let fixed = LevelFixed { spawns: vec![(1, 1), (3, 1)], stations, ..Default::default() };
        let level = Arc::new(Level::new(5, 4, tiles, fixed));
        Room::new(level, Arc::new(RecipeBook::default()), 1, &SeatSpec::numbered(2))
    }

    #[test]
    fn the_chain_hashes_exactly_the_named_walk() {
        use crate::sim::item::ItemKind;
        use crate::sim::kinds::{Form, Ingredient};
        let mut room = two_cook_room();
        room.preplace(0, ItemKind::Food(Ingredient::Onion, Form::Chopped));
        let parts = vec![(Ingredient::Lettuce, Form::Chopped), (Ingredient::Tomato, Form::Chopped)];
        room.preplace(2, ItemKind::Plate { parts });
        room.cooks[1].vel = crate::sim::v2::V2::new(-175_000, 3);
        let values: Vec<u64> = named_fields(&room).into_iter().map(|(_, v)| v as u64).collect();
        let mut all = vec![12_345u64];
        all.extend(values);
        assert_eq!(chain(12_345, &room), reference(&all));
    }
}
