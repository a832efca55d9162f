//! The tick clock: `FixedUpdate` at 20 Hz with at most two ticks per frame, and the headless
//! stepping mode where one `app.update()` is exactly one tick. Lives outside `sim/` because it
//! speaks in time types, which the simulation never touches.

use crate::sim::SimPlugin;
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy::time::TimeUpdateStrategy;
use std::time::Duration;

/// One tick: the rulebook's STEP_DT.
pub const TICK: Duration = Duration::from_millis(50);
/// The rulebook's MAX_DT: a stall costs at most two ticks.
pub const MAX_FRAME: Duration = Duration::from_millis(100);

/// Runs `FixedUpdate` at the sim rate with the MAX_DT ceiling.
pub struct TickClockPlugin;

impl Plugin for TickClockPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(Time::<Fixed>::from_duration(TICK));
        app.insert_resource(Time::<Virtual>::from_max_delta(MAX_FRAME));
    }
}

/// A headless app for tests, replays and benchmarks: no window, no real time; every
/// `update()` advances exactly one tick.
pub fn headless_app() -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, TickClockPlugin, SimPlugin));
    app.insert_resource(TimeUpdateStrategy::ManualDuration(TICK));
    // Bevy's first update only starts the clock (zero delta); spend it here so that from now
    // on one update is one tick.
    app.update();
    app
}
