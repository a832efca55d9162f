//! Survival's clock rules (`sim::survival`, docs/SIMULATION.md §2.4b) on a sketched kitchen,
//! driven through `step_room`: the start, a serve's seconds, a miss's, the cap, the end and
//! the hash that only a survival round has.

use super::kitchen::{give, idle, plate, recipe_parts, round_room, tap};
use crate::report::result_payload;
use crate::sim::events::SimEvent;
use crate::sim::room::Room;
use crate::sim::round::stars;
use crate::sim::step_room;
use crate::sim::survival::{
    SURVIVAL_CAP_TICKS, SURVIVAL_MISS_TICKS, SURVIVAL_START_TICKS, dish_ticks,
};
use crate::sim::verdict::Verdict;

/// `round_room` (a salad rail, 20-tick spawns, 1200-tick deadlines) as a survival round.
fn survival_room(target: i32) -> Room {
    round_room(2000, target).with_survival(true)
}

fn clock_events(r: &Room) -> Vec<(i32, u32)> {
    r.events
        .iter()
        .filter_map(|e| match e {
            SimEvent::Clock { delta, time_left } => Some((*delta, *time_left)),
            _ => None,
        })
        .collect()
}

#[test]
fn the_clock_starts_short_and_a_serve_adds_its_recipes_seconds() {
    let mut r = survival_room(1);
    assert_eq!(r.time_left, SURVIVAL_START_TICKS);
    idle(&mut r, 31);
    let dish = plate(&recipe_parts(&r, "salad"));
    give(&mut r, 0, dish);
    let t = r.tick;
    tap(&mut r, 0);
    let bonus = dish_ticks(20);
    assert_eq!(bonus, 400, "a salad's 20 points buy 20 s");
    let before_stage_7 = SURVIVAL_START_TICKS - t + bonus;
    assert_eq!(clock_events(&r), vec![(400, before_stage_7)]);
    assert_eq!(r.time_left, before_stage_7 - 1);
    assert_eq!(r.survival.map(|s| s.added), Some(400));
    // The score passed the target of 1, but survival has none: no verdict.
    assert!(r.score >= 1);
    assert_eq!(r.result, None);
}

#[test]
fn a_serve_never_lifts_the_clock_past_its_cap() {
    let mut r = survival_room(1_000_000);
    idle(&mut r, 31);
    r.time_left = SURVIVAL_CAP_TICKS - 100;
    let dish = plate(&recipe_parts(&r, "salad"));
    give(&mut r, 0, dish);
    tap(&mut r, 0);
    assert_eq!(clock_events(&r), vec![(100, SURVIVAL_CAP_TICKS)]);
    assert_eq!(r.time_left, SURVIVAL_CAP_TICKS - 1);
    assert_eq!(r.survival.map(|s| s.added), Some(100));
}

#[test]
fn misses_take_their_seconds_and_the_round_ends_when_the_clock_runs_out() {
    let mut r = survival_room(1_000_000);
    let mut moves = Vec::new();
    let mut ends = 0;
    while r.result.is_none() {
        step_room(&mut r);
        moves.extend(clock_events(&r).into_iter().map(|m| (r.tick - 1, m)));
        ends += r.events.iter().filter(|e| matches!(e, SimEvent::RoundEnd { .. })).count();
    }
    // Orders at ticks 30 and 50 expire 1200 ticks later: 570 ticks left − 300 = 270, then
    // 270 − 20 ticks − 300 saturates at 0, and the round ends on that tick.
    assert_eq!(moves, vec![(1230, (-300, 270)), (1250, (-250, 0))]);
    assert_eq!(r.counters.missed, 2);
    assert_eq!(r.result, Some(Verdict::Lost));
    assert_eq!(ends, 1);
    assert_eq!(stars(&r), 0, "a survival round earns no stars");
    let s = r.survival.expect("a survival round");
    assert_eq!((s.added, s.taken, s.survived), (0, 2 * SURVIVAL_MISS_TICKS - 50, 1251));
    // The settle freezes it: the length is the verdict's, not the room's tick.
    idle(&mut r, 40);
    assert_eq!(r.survival.map(|s| s.ticks_survived(r.tick)), Some(1251));
    let payload = result_payload(&r);
    assert_eq!(payload["mode"], "survival");
    assert_eq!(payload["survival"]["ticks_survived"], 1251);
    assert_eq!(payload["survival"]["seconds_survived"], 62.55);
    assert_eq!(payload["survival"]["dishes_served"], 0);
    assert_eq!(payload["survival"]["seconds_taken"], 27.5);
}

#[test]
fn survival_is_hashed_only_when_on() {
    let plain = round_room(2000, 10);
    let off = round_room(2000, 10).with_survival(false);
    let on = round_room(2000, 10).with_survival(true);
    assert_eq!(plain.hash, off.hash, "off changes nothing");
    assert!(off.survival.is_none() && result_payload(&off).get("survival").is_none());
    assert_ne!(plain.hash, on.hash);
    // The same clock without the survival fields is still another chain.
    let mut same_clock = round_room(2000, 10);
    same_clock.time_left = SURVIVAL_START_TICKS;
    let rehashed = crate::sim::hash::chain(0, &same_clock);
    assert_ne!(rehashed, on.hash);
}
