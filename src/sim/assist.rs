//! Assist mode (as in Overcooked! All You Can Eat): a round's setting, chosen before it starts,
//! that gives the kitchen more time — order timers ×1.5 or ×2, the round +50 %. It is part of
//! the room's configuration like the level and the seed: it scales the level the room reads
//! (integers, rounding up), it is hashed (a field `assist` in the walk, present only when on, so
//! an unassisted round hashes exactly as before), and the replay script, the bundle and the
//! result payload carry it. (The third assist, skipping a level, is not a round setting: the
//! client's save opens the next level.)

use super::kitchen::Level;
use serde::{Deserialize, Serialize};

/// How long orders wait before they are missed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum OrderTime {
    /// The level's own deadline.
    #[default]
    Normal,
    /// ×1.5.
    Longer,
    /// ×2.
    Double,
}

impl OrderTime {
    pub const ALL: [OrderTime; 3] = [OrderTime::Normal, OrderTime::Longer, OrderTime::Double];

    /// The factor as a fraction (numerator, denominator).
    pub fn factor(self) -> (u32, u32) {
        match self {
            OrderTime::Normal => (1, 1),
            OrderTime::Longer => (3, 2),
            OrderTime::Double => (2, 1),
        }
    }

    /// "x1", "x1.5", "x2": for menus and the result payload.
    pub fn label(self) -> &'static str {
        match self {
            OrderTime::Normal => "x1",
            OrderTime::Longer => "x1.5",
            OrderTime::Double => "x2",
        }
    }
}

/// A round's assists. The default is off: the level as written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Assist {
    /// Order timers: the level's deadline ×1, ×1.5 or ×2.
    pub order_time: OrderTime,
    /// The round's clock +50 %.
    pub longer_round: bool,
}

/// `value × num / den`, rounded up, saturating (a level's durations are ≥ 1 and stay so).
fn scale_up(value: u32, (num, den): (u32, u32)) -> u32 {
    let scaled = (u64::from(value) * u64::from(num)).div_ceil(u64::from(den));
    u32::try_from(scaled).unwrap_or(u32::MAX)
}

impl Assist {
    pub const OFF: Assist = Assist { order_time: OrderTime::Normal, longer_round: false };

    /// Is any assist on?
    pub fn is_on(&self) -> bool {
        *self != Assist::OFF
    }

    /// The one word the hash walk folds in: order time 0/1/2 in bits 0–1, the longer round in
    /// bit 2.
    pub fn code(&self) -> i64 {
        let order = match self.order_time {
            OrderTime::Normal => 0,
            OrderTime::Longer => 1,
            OrderTime::Double => 2,
        };
        order | (i64::from(self.longer_round) << 2)
    }

    /// "order timers x2, round time +50%": the HUD's badge, the round end and the online lobby.
    pub fn summary(&self) -> String {
        let round = if self.longer_round { "+50%" } else { "+0%" };
        format!("order timers {}, round time {round}", self.order_time.label())
    }

    /// The level as this round plays it: order deadlines and the round's length scaled.
    /// Nothing else changes (the spawn interval, the target, the stars' thresholds as shares of
    /// the clock), so an assisted round is the same kitchen with more time.
    pub fn apply(&self, level: &mut Level) {
        if self.order_time != OrderTime::Normal {
            level.orders.deadline = scale_up(level.orders.deadline, self.order_time.factor());
        }
        if self.longer_round {
            level.time_limit = scale_up(level.time_limit, (3, 2));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::kitchen::LevelFixed;

    fn level(deadline: u32, time_limit: u32) -> Level {
        let mut fixed = LevelFixed { time_limit, ..LevelFixed::default() };
        fixed.orders.deadline = deadline;
        Level::new(1, 1, vec![crate::sim::kinds::Tile::Floor], fixed)
    }

    #[test]
    fn assists_scale_in_integers_rounding_up() {
        let mut l = level(601, 3600);
        Assist { order_time: OrderTime::Longer, longer_round: true }.apply(&mut l);
        assert_eq!((l.orders.deadline, l.time_limit), (902, 5400));
        let mut l = level(601, 3601);
        Assist { order_time: OrderTime::Double, longer_round: false }.apply(&mut l);
        assert_eq!((l.orders.deadline, l.time_limit), (1202, 3601));
        let mut l = level(601, 3601);
        Assist::OFF.apply(&mut l);
        assert_eq!((l.orders.deadline, l.time_limit), (601, 3601));
        assert_eq!(scale_up(u32::MAX, (2, 1)), u32::MAX);
    }

    #[test]
    fn the_summary_names_both_assists() {
        let a = Assist { order_time: OrderTime::Double, longer_round: true };
        assert_eq!(a.summary(), "order timers x2, round time +50%");
        let a = Assist { order_time: OrderTime::Longer, longer_round: false };
        assert_eq!(a.summary(), "order timers x1.5, round time +0%");
    }

    #[test]
    fn every_assist_has_its_own_code() {
        let mut codes = Vec::new();
        for order_time in OrderTime::ALL {
            for longer_round in [false, true] {
                codes.push(Assist { order_time, longer_round }.code());
            }
        }
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), 6);
        assert_eq!(Assist::OFF.code(), 0);
        assert!(!Assist::OFF.is_on());
    }
}
