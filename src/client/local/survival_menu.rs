//! Survival in local play: the round option (`sim::survival`) chosen on the Level Select
//! screen before the round, held here until a round starts (`local::start_local_round` reads
//! it), and how a saved best survival reads on that screen.

use crate::client::args::Options;
use crate::client::save::SurvivalBest;
use crate::sim::units::TICK_HZ;
use bevy::prelude::*;

/// Is the next local round a survival round? (Absent: no.)
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RoundSurvival(pub bool);

/// The Level Select screen flipped the survival line.
#[derive(Event, Clone, Copy, Debug)]
pub struct SurvivalFlip;

/// The survival line on the screen.
pub fn survival_label(on: bool) -> String {
    format!("Mode: < {} >", if on { "survival" } else { "standard" })
}

/// "2:35, 12 dishes": a best survival as a level's line shows it (whole seconds, rounded down).
pub fn survival_text(best: &SurvivalBest) -> String {
    let secs = best.ticks / TICK_HZ;
    format!("{}:{:02}, {} dishes", secs / 60, secs % 60, best.dishes)
}

/// Survival's choice on the Level Select screen.
pub struct SurvivalMenuPlugin;

impl Plugin for SurvivalMenuPlugin {
    fn build(&self, app: &mut App) {
        app.add_observer(flip_round_survival);
        // `play --survival`: the first round (and the Level Select line) starts on survival.
        if app.world().get_resource::<Options>().is_some_and(|o| o.0.survival) {
            app.insert_resource(RoundSurvival(true));
        }
    }
}

fn flip_round_survival(
    _flip: On<SurvivalFlip>,
    round: Option<ResMut<RoundSurvival>>,
    mut commands: Commands,
) {
    match round {
        Some(mut r) => r.0 = !r.0,
        None => commands.insert_resource(RoundSurvival(true)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_best_reads_as_minutes_seconds_and_dishes() {
        assert_eq!(survival_text(&SurvivalBest { ticks: 3119, dishes: 12 }), "2:35, 12 dishes");
        assert_eq!(survival_text(&SurvivalBest { ticks: 19, dishes: 0 }), "0:00, 0 dishes");
        assert_ne!(survival_label(true), survival_label(false));
    }
}
