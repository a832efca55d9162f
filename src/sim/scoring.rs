//! Serve scoring: the named serve refusals in the rulebook's order, FIFO matching, the integer
//! points formula, the streak and its cap, the miss penalty and the score floor. In versus a
//! window serves its own team's rail and scores, streaks and penalties are the team's.

use super::dishes::{is_submultiset, recipe_of};
use super::events::{DeniedReason, SimEvent};
use super::item::ItemKind;
use super::kinds::Form;
use super::room::Room;
use super::survival::dish_ticks;
use super::units::QUALITY_FULL;
use super::versus::Team;

/// The streak multiplier stops growing at 5 consecutive serves (×1.5).
pub const STREAK_CAP: u32 = 5;
/// The score never goes below zero.
pub const MIN_SCORE_FLOOR: i32 = 0;

/// `round(base × quality × streak_mult × time_bonus)` in integers, where quality is
/// `quality_ppm / 1 000 000`, `streak_mult = (10 + min(streak, 5)) / 10` (streak after the
/// increment), and `time_bonus = 1 + ½ × time_left / span` with `time_left` clamped to
/// `[0, span]` (a span of 0 buys no bonus). Rounding is half-to-even, exactly as Python's
/// `round`, computed on the exact rational value.
pub fn points(base: i32, quality_ppm: u32, streak: u32, time_left: u32, span: u32) -> i32 {
    let s = streak.min(STREAK_CAP) as i128;
    let (tl, sp) = if span == 0 { (0, 1) } else { (time_left.min(span) as i128, span as i128) };
    let num = base as i128 * quality_ppm as i128 * (10 + s) * (2 * sp + tl);
    let den = QUALITY_FULL as i128 * 10 * 2 * sp;
    round_half_even(num, den) as i32
}

/// `num / den` rounded to the nearest integer, ties to even (den > 0).
pub fn round_half_even(num: i128, den: i128) -> i128 {
    let q = num.div_euclid(den);
    let r = num.rem_euclid(den);
    match (2 * r).cmp(&den) {
        std::cmp::Ordering::Less => q,
        std::cmp::Ordering::Greater => q + 1,
        std::cmp::Ordering::Equal => q + (q & 1),
    }
}

/// Add `delta` to the score, floored at zero; one SCORE event when it moved.
pub fn add_score(room: &mut Room, delta: i32) {
    let before = room.score;
    room.score = (room.score + delta).max(MIN_SCORE_FLOOR);
    let moved = room.score - before;
    if moved != 0 {
        room.events.push(SimEvent::Score { delta: moved, score: room.score });
    }
}

/// Add `delta` to a versus team's score, floored at zero; one TEAM_SCORE event when it moved.
/// A room without teams (or no team) takes it on the co-op score.
pub fn add_team_score(room: &mut Room, team: Option<Team>, delta: i32) {
    let (Some(team), Some(versus)) = (team, room.versus.as_mut()) else {
        add_score(room, delta);
        return;
    };
    let tally = versus.team_mut(team);
    let before = tally.score;
    tally.score = (before + delta).max(MIN_SCORE_FLOOR);
    let (moved, score) = (tally.score - before, tally.score);
    if moved != 0 {
        room.events.push(SimEvent::TeamScore { team, delta: moved, score });
    }
}

/// A score change caused by a cook (the trash's −2): its team's in versus, else the kitchen's.
pub fn add_seat_score(room: &mut Room, seat: super::ids::Seat, delta: i32) {
    let team = room.team_of_seat(seat);
    add_team_score(room, team, delta);
}

/// The scoring half of an expired order: the penalty (floored) and the streak reset, on the
/// order's team in versus.
pub fn apply_miss(room: &mut Room, team: Option<Team>) {
    if let (Some(team), Some(versus)) = (team, room.versus.as_mut()) {
        let tally = versus.team_mut(team);
        tally.streak = 0;
        tally.missed += 1;
    } else {
        room.streak = 0;
    }
    add_team_score(room, team, -room.level.orders.miss_penalty);
}

/// Check a carried dish against the rail, in order: burnt → not a dish → no orders → wrong
/// recipe → incomplete. On a match, the oldest matching order (smallest id) is filled. The
/// rail is `team`'s (a versus window's team), or the one co-op rail for `None`.
pub fn check_serve(
    room: &Room,
    cook_index: usize,
    team: Option<Team>,
) -> Result<usize, DeniedReason> {
    let Some(item) = room.cooks[cook_index].held.and_then(|id| room.item(id)) else {
        return Err(DeniedReason::HandsEmpty);
    };
    let ItemKind::Plate { parts } = &item.kind else {
        return Err(DeniedReason::WrongItem);
    };
    if item.quality == 0 || parts.iter().any(|(_, f)| *f == Form::Burnt) {
        return Err(DeniedReason::Burnt);
    }
    if parts.is_empty() {
        return Err(DeniedReason::NoTarget);
    }
    let mut rail = room.orders.iter().enumerate().filter(|(_, o)| o.team == team);
    if rail.clone().next().is_none() {
        return Err(DeniedReason::NoOrders);
    }
    let dish = recipe_of(&room.book, parts);
    if let Some((i, _)) = rail.clone().find(|(_, o)| Some(o.recipe as usize) == dish) {
        return Ok(i);
    }
    let part_of_order = rail.any(|(_, o)| {
        room.book.recipes.get(o.recipe as usize).is_some_and(|r| is_submultiset(parts, &r.parts))
    });
    Err(if part_of_order { DeniedReason::Incomplete } else { DeniedReason::WrongRecipe })
}

/// Spend a SERVE press at window `station`: a matched dish leaves the kitchen and scores; a
/// refused one stays in the hand with one named DENIED. In versus the window's team's rail is
/// matched and its team scores, whoever carried the plate.
pub fn serve(room: &mut Room, cook_index: usize, station: usize) {
    let seat = room.cooks[cook_index].seat;
    let team = room.level.teams.as_ref().and_then(|t| t.team_of_window(station));
    let order_index = match check_serve(room, cook_index, team) {
        Ok(i) => i,
        Err(reason) => {
            room.events.push(SimEvent::Denied { seat, reason, why: None });
            return;
        }
    };
    let Some(plate) = room.cooks[cook_index].held else { return };
    let quality = room.item(plate).map_or(0, |i| i.quality);
    let order = room.orders.remove(order_index);
    room.destroy_item(plate);
    room.counters.destroyed += 1;
    // The plate comes back dirty to the sink's stack, or clean to the rack in a sinkless kitchen.
    if room.has_sink() {
        room.plates_dirty += 1;
    } else {
        room.plates_clean += 1;
    }
    let streak = match (team, room.versus.as_mut()) {
        (Some(team), Some(versus)) => {
            let tally = versus.team_mut(team);
            tally.streak += 1;
            tally.longest_streak = tally.longest_streak.max(tally.streak);
            tally.served += 1;
            tally.streak
        }
        _ => {
            room.streak += 1;
            room.longest_streak = room.longest_streak.max(room.streak);
            room.streak
        }
    };
    let span = room.level.orders.deadline;
    let left = order.deadline.saturating_sub(room.tick);
    let pts = points(order.value, quality, streak, left, span);
    room.counters.served += 1;
    let cook = &mut room.cooks[cook_index];
    cook.score += pts;
    cook.dishes_served += 1;
    room.events.push(SimEvent::Served { seat, order_id: order.id, points: pts, quality, streak });
    add_team_score(room, team, pts);
    // Survival: the dish buys its recipe's seconds.
    if let Some(mut clock) = room.survival {
        let base = room.book.recipes.get(order.recipe as usize).map_or(0, |r| r.base_score);
        let delta = clock.extend(&mut room.time_left, dish_ticks(base));
        room.survival = Some(clock);
        if delta > 0 {
            room.events.push(SimEvent::Clock { delta: delta as i32, time_left: room.time_left });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn five_hand_computed_serves() {
        // base 20, fresh, first serve (×1.1), full deadline left (×1.5): 20 × 1.1 × 1.5 = 33.
        assert_eq!(points(20, 1_000_000, 1, 1200, 1200), 33);
        // base 30, 80 % quality, streak 3 (×1.3), at the edge (×1.0): 30 × .8 × 1.3 = 31.2 → 31.
        assert_eq!(points(30, 800_000, 3, 0, 1200), 31);
        // base 35, fresh, streak 9 capped at 5 (×1.5), half the deadline (×1.25): 65.625 → 66.
        assert_eq!(points(35, 1_000_000, 9, 600, 1200), 66);
        // base 25, 50 %, streak 1, a quarter left (×1.125): 25 × .5 × 1.1 × 1.125 = 15.46875 → 15.
        assert_eq!(points(25, 500_000, 1, 300, 1200), 15);
        // base 10, fresh, streak 5, zero span buys no bonus: 10 × 1.5 = 15.
        assert_eq!(points(10, 1_000_000, 5, 50, 0), 15);
    }

    #[test]
    fn ties_round_to_even() {
        assert_eq!(round_half_even(5, 2), 2);
        assert_eq!(round_half_even(7, 2), 4);
        assert_eq!(round_half_even(-5, 2), -2);
        assert_eq!(round_half_even(11, 4), 3);
    }
}
