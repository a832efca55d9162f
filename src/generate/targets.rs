//! The target rule: play the drawn kitchen with bots on a full clock and set the target from
//! what they scored, so the stars mean the same in every generated kitchen.
//!
//! Two bots reach 55 % of their full-clock score at about 55 % of the clock (scores come in
//! at a steady rate once the first dish is out): two stars for a team that cooks like the
//! bots, three for one that beats them. The one-bot cap keeps a lone cook able to win.

use std::sync::Arc;

use crate::bot::prove::play_round;
use crate::sim::kitchen::Level;
use crate::sim::recipe_book::RecipeBook;

/// The target a kitchen is first written with, out of reach, so the bots play the whole clock.
pub const PROBE_TARGET: i32 = 99_999;
/// Seeds 1..=N the two-bot team plays.
pub const TWO_BOT_SEEDS: u64 = 2;
/// Percent of the lower two-bot full-clock score.
pub const TWO_BOT_SHARE: i32 = 55;
/// Percent of the one-bot full-clock score the target may not exceed.
pub const ONE_BOT_SHARE: i32 = 80;
/// Below this the bots barely cooked: the draw is replaced.
pub const MIN_TARGET: i32 = 40;
/// The rule in words, written into each generated file.
pub const RULE: &str =
    "55 % of the lower two-bot score, at most 80 % of the one-bot score, rounded down to 10";

/// Full-clock scores: two bots on seeds 1..=TWO_BOT_SEEDS, one bot on seed 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Measured {
    pub two_bots: Vec<i32>,
    pub one_bot: i32,
}

impl Measured {
    /// The lowest score measured.
    pub fn floor(&self) -> i32 {
        self.two_bots.iter().copied().min().unwrap_or(0).min(self.one_bot)
    }
}

/// Plays `level` (written with [`PROBE_TARGET`]) to the end of its clock.
pub fn measure(level: Level, book: &RecipeBook) -> Measured {
    let (level, book) = (Arc::new(level), Arc::new(book.clone()));
    let score = |seed: u64, bots: u8| {
        play_round(level.clone(), book.clone(), seed, bots, false, |_, _| {}).score
    };
    Measured {
        two_bots: (1..=TWO_BOT_SEEDS).map(|seed| score(seed, 2)).collect(),
        one_bot: score(1, 1),
    }
}

/// The target from the measured scores, or `None` when the bots scored too little for one.
pub fn target_from(m: &Measured) -> Option<i32> {
    let two = m.two_bots.iter().copied().min()?;
    let target = (two * TWO_BOT_SHARE / 100).min(m.one_bot * ONE_BOT_SHARE / 100);
    let target = target / 10 * 10;
    (target >= MIN_TARGET).then_some(target)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rule_takes_the_lower_of_the_two_shares_rounded_down() {
        let m = Measured { two_bots: vec![400, 380], one_bot: 300 };
        // 55 % of 380 = 209; 80 % of 300 = 240 → 209 → 200.
        assert_eq!(target_from(&m), Some(200));
        let lone = Measured { two_bots: vec![400, 400], one_bot: 100 };
        assert_eq!(target_from(&lone), Some(80));
        let idle = Measured { two_bots: vec![60, 400], one_bot: 400 };
        assert_eq!(target_from(&idle), None);
    }
}
