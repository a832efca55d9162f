//! The integer score, identical for both seats (the game is fully cooperative), in permille:
//! delivered 300 + 350·speed + 350·condition (300..=1000), otherwise 250·progress·condition
//! (0..250). Any delivery beats every non-delivery; a wrecked couch scores 0.

use super::room::TandemRoom;
use serde::{Deserialize, Serialize};

/// A run's score and its parts, all permille.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Score {
    pub score: i32,
    pub delivered: bool,
    /// clamp(2 − t/par, 0, 1).
    pub speed: i32,
    /// (1000 − damage) / 1000, floored at 0.
    pub condition: i32,
    pub progress: i32,
    /// The tick count scored: the delivery tick, else the final tick.
    pub ticks: u32,
    pub par_ticks: u32,
}

/// The score from its inputs.
pub fn score_of(
    delivery_tick: Option<u32>,
    final_tick: u32,
    par: u32,
    damage: i32,
    progress: i32,
) -> Score {
    let condition = (1000 - damage).clamp(0, 1000);
    let t = delivery_tick.unwrap_or(final_tick);
    let speed = (2000 - t as i64 * 1000 / par.max(1) as i64).clamp(0, 1000) as i32;
    let progress = progress.clamp(0, 1000);
    let score = match delivery_tick {
        Some(_) => 300 + (350 * speed + 350 * condition) / 1000,
        None => (250 * progress as i64 * condition as i64 / 1_000_000) as i32,
    };
    Score {
        score,
        delivered: delivery_tick.is_some(),
        speed,
        condition,
        progress,
        ticks: t,
        par_ticks: par,
    }
}

impl TandemRoom {
    /// The score as it stands (final once the run has ended).
    pub fn score(&self) -> Score {
        score_of(
            self.delivery_tick,
            self.tick,
            self.course.par_ticks,
            self.damage,
            self.best_progress_permille,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seed_formula_in_permille() {
        // At par, unscathed: 0.30 + 0.35 + 0.35.
        assert_eq!(score_of(Some(600), 600, 600, 0, 1000).score, 1000);
        // At twice par with half the couch: 0.30 + 0 + 0.175.
        assert_eq!(score_of(Some(1200), 1200, 600, 500, 1000).score, 475);
        // Not delivered: 0.25 · 0.8 · 0.9.
        assert_eq!(score_of(None, 2400, 600, 100, 800).score, 180);
        // Wrecked: zero.
        assert_eq!(score_of(None, 900, 600, 1000, 700).score, 0);
        // Any delivery beats every non-delivery.
        assert!(score_of(Some(5000), 5000, 600, 999, 1000).score >= 300);
        assert!(score_of(None, 2400, 600, 0, 999).score < 250);
    }
}
