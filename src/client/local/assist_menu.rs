//! Assist mode in local play: the round's assists, chosen on the Level Select screen before
//! the round (order timers ×1 / ×1.5 / ×2, the round +50 %), and "skip level", which opens the
//! next campaign level without a star. The round setting is `sim::assist::Assist`; this file
//! holds the choice until a round starts (`local::start_local_round` reads it).

use crate::client::args::Options;
use crate::sim::assist::{Assist, OrderTime};
use bevy::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

/// The assists the next local round starts with (absent: the command line's, `--assist-*`).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RoundAssist(pub Assist);

/// One assist line of the Level Select screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AssistOption {
    OrderTime,
    LongerRound,
}

impl AssistOption {
    pub const ALL: [AssistOption; 2] = [AssistOption::OrderTime, AssistOption::LongerRound];
}

/// The Level Select screen stepped an assist (`up`: Right or confirm).
#[derive(Event, Clone, Copy, Debug)]
pub struct AssistChoice {
    pub option: AssistOption,
    pub up: bool,
}

/// An assist's line on the screen.
pub fn assist_label(a: &Assist, option: AssistOption) -> String {
    match option {
        AssistOption::OrderTime => format!("Assist: order timers  < {} >", a.order_time.label()),
        AssistOption::LongerRound => {
            format!("Assist: round time  < {} >", if a.longer_round { "+50%" } else { "+0%" })
        }
    }
}

/// Step an assist: order timers cycle ×1 → ×1.5 → ×2 (back with Left), the longer round flips.
pub fn step_assist(a: &mut Assist, option: AssistOption, up: bool) {
    match option {
        AssistOption::OrderTime => {
            let all = OrderTime::ALL;
            let at = all.iter().position(|o| *o == a.order_time).unwrap_or(0);
            let next = if up { at + 1 } else { at + all.len() - 1 };
            a.order_time = all[next % all.len()];
        }
        AssistOption::LongerRound => a.longer_round = !a.longer_round,
    }
}

/// The campaign level "skip level" skips: the first one that is open, has no star, is not
/// skipped already and has a level after it to open. `open(index)` says whether a level is
/// open.
pub fn skip_target(
    ids: &[String],
    best_stars: &BTreeMap<String, u8>,
    skipped: &BTreeSet<String>,
    open: impl Fn(usize) -> bool,
) -> Option<usize> {
    (0..ids.len().saturating_sub(1)).find(|&k| {
        open(k)
            && best_stars.get(&ids[k]).copied().unwrap_or(0) == 0
            && !skipped.contains(&ids[k])
            // A later level still locked: skipping this one is what would open it.
            && !open(k + 1)
    })
}

/// Assist choices on the Level Select screen.
pub struct AssistMenuPlugin;

impl Plugin for AssistMenuPlugin {
    fn build(&self, app: &mut App) {
        app.add_observer(step_round_assist);
        app.add_systems(Startup, assist_from_args);
    }
}

/// `--assist-orders` / `--assist-round`: the choice the menus start from (and that a hosted
/// room is sent).
fn assist_from_args(options: Option<Res<Options>>, mut commands: Commands) {
    if let Some(o) = options
        && o.0.assist().is_on()
    {
        commands.insert_resource(RoundAssist(o.0.assist()));
    }
}

fn step_round_assist(
    choice: On<AssistChoice>,
    options: Option<Res<Options>>,
    round: Option<ResMut<RoundAssist>>,
    mut commands: Commands,
) {
    let mut assist = match &round {
        Some(r) => r.0,
        None => options.map_or(Assist::OFF, |o| o.0.assist()),
    };
    step_assist(&mut assist, choice.option, choice.up);
    match round {
        Some(mut r) => r.0 = assist,
        None => commands.insert_resource(RoundAssist(assist)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_timers_cycle_both_ways() {
        let mut a = Assist::OFF;
        step_assist(&mut a, AssistOption::OrderTime, true);
        assert_eq!(a.order_time, OrderTime::Longer);
        step_assist(&mut a, AssistOption::OrderTime, true);
        step_assist(&mut a, AssistOption::OrderTime, true);
        assert_eq!(a.order_time, OrderTime::Normal);
        step_assist(&mut a, AssistOption::OrderTime, false);
        assert_eq!(a.order_time, OrderTime::Double);
        step_assist(&mut a, AssistOption::LongerRound, false);
        assert!(a.longer_round);
        assert_eq!(assist_label(&a, AssistOption::LongerRound), "Assist: round time  < +50% >");
    }

    #[test]
    fn skip_targets_the_level_that_blocks_the_campaign() {
        let ids: Vec<String> = (0..5).map(|i| format!("l{i}")).collect();
        let mut best = BTreeMap::new();
        let skipped = BTreeSet::new();
        // Levels 0-2 open; 0 and 1 have stars, 2 blocks 3.
        best.insert("l0".to_string(), 1);
        best.insert("l1".to_string(), 2);
        let open = |k: usize| k < 3;
        assert_eq!(skip_target(&ids, &best, &skipped, open), Some(2));
        let skipped: BTreeSet<String> = ["l2".to_string()].into();
        let open = |k: usize| k < 4;
        assert_eq!(skip_target(&ids, &best, &skipped, open), Some(3));
        // Everything open: nothing to skip.
        assert_eq!(skip_target(&ids, &best, &skipped, |_| true), None);
    }
}
