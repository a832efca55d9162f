//! Survival, a round option: the clock starts short, each served dish adds its recipe's seconds,
//! a missed order takes some, and the round lasts until the clock runs out; its result is the
//! dishes served and the ticks survived. Plain data and integer rules on the clock (no Room, so
//! the Room can hold it): the stages that move it are `scoring::serve` (a serve adds),
//! `orders` (a miss takes) and `round` (the end). Hashed only when on (`hash::walk`), so every
//! round without it hashes exactly as before.

use super::units::TICK_HZ;
use serde::{Deserialize, Serialize};

/// The clock a survival round starts with: 90 s, half the shortest campaign round, and longer
/// than every campaign level's order deadline, so an idle kitchen misses orders before it ends.
pub const SURVIVAL_START_TICKS: u32 = 90 * TICK_HZ;
/// What a missed order takes off the clock: 15 s.
pub const SURVIVAL_MISS_TICKS: u32 = 15 * TICK_HZ;
/// The clock never holds more than 3 minutes: a fast kitchen cannot bank an hour and idle, it
/// has to keep serving.
pub const SURVIVAL_CAP_TICKS: u32 = 180 * TICK_HZ;

/// A served dish's seconds, derived from its recipe: its base score in seconds (a salad, 20
/// points, buys 20 s; a burger, 35, buys 35 s), so harder dishes buy more time. A recipe
/// without points buys none.
pub fn dish_ticks(base_score: i32) -> u32 {
    u32::try_from(base_score.max(0)).unwrap_or(0).saturating_mul(TICK_HZ)
}

/// A survival round's tallies, on the room (`Room.survival`, `Some` only in survival).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SurvivalClock {
    /// Ticks the serves put on the clock (what the cap let on).
    pub added: u32,
    /// Ticks the misses took off it (never more than it held).
    pub taken: u32,
    /// Ticks the round lasted, set when its clock ran out (or the kitchen burnt down); 0 while
    /// it runs.
    pub survived: u32,
}

impl SurvivalClock {
    /// A serve's `bonus` ticks onto `time_left`, up to [`SURVIVAL_CAP_TICKS`]: the change made.
    pub fn extend(&mut self, time_left: &mut u32, bonus: u32) -> u32 {
        let before = *time_left;
        // `max(before)`: a clock over the cap (none starts there) is never cut by a serve.
        *time_left = before.saturating_add(bonus).min(SURVIVAL_CAP_TICKS).max(before);
        let delta = *time_left - before;
        self.added += delta;
        delta
    }

    /// A miss's [`SURVIVAL_MISS_TICKS`] off `time_left`, down to zero: the change made.
    pub fn shorten(&mut self, time_left: &mut u32) -> u32 {
        let before = *time_left;
        *time_left = before.saturating_sub(SURVIVAL_MISS_TICKS);
        let delta = before - *time_left;
        self.taken += delta;
        delta
    }

    /// Ticks survived by a round now at `tick`: the round's length once it ended, else the
    /// ticks played so far (a round aborted before its clock ran out).
    pub fn ticks_survived(&self, tick: u32) -> u32 {
        if self.survived > 0 { self.survived } else { tick }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dish_buys_its_base_score_in_seconds() {
        assert_eq!(dish_ticks(20), 400);
        assert_eq!(dish_ticks(35), 700);
        assert_eq!(dish_ticks(0), 0);
        assert_eq!(dish_ticks(-5), 0, "a recipe worth nothing buys nothing");
        assert_eq!(dish_ticks(i32::MAX), u32::MAX, "saturates, never wraps");
    }

    #[test]
    fn serves_add_up_to_the_cap_and_misses_take_down_to_zero() {
        let mut clock = SurvivalClock::default();
        let mut left = SURVIVAL_START_TICKS;
        assert_eq!(clock.extend(&mut left, 400), 400);
        assert_eq!(left, 2200);
        assert_eq!(clock.extend(&mut left, 2000), SURVIVAL_CAP_TICKS - 2200, "capped");
        assert_eq!(left, SURVIVAL_CAP_TICKS);
        assert_eq!(clock.extend(&mut left, 400), 0, "a full clock takes nothing");
        assert_eq!(clock.added, SURVIVAL_CAP_TICKS - SURVIVAL_START_TICKS);
        left = 100;
        assert_eq!(clock.shorten(&mut left), 100, "a miss takes only what is left");
        assert_eq!((left, clock.taken), (0, 100));
        left = 1000;
        assert_eq!(clock.shorten(&mut left), SURVIVAL_MISS_TICKS);
        assert_eq!((left, clock.taken), (700, 400));
    }

    #[test]
    fn ticks_survived_is_the_rounds_length_once_it_ended() {
        let mut clock = SurvivalClock::default();
        assert_eq!(clock.ticks_survived(50), 50);
        clock.survived = 42;
        assert_eq!(clock.ticks_survived(62), 42);
    }
}
