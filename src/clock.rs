//! The tick clock: `FixedUpdate` at 20 Hz with at most two ticks per frame, and the headless
//! stepping mode where one `app.update()` is exactly one tick. Lives outside `sim/` because it
//! speaks in time types, which the simulation never touches.

use crate::schedule::SystemOrderPlugin;
use crate::sim::SimPlugin;
use bevy::ecs::schedule::SingleThreadedExecutor;
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy::time::TimeUpdateStrategy;
use std::time::Duration;

/// One tick: the rulebook's STEP_DT.
pub const TICK: Duration = Duration::from_millis(50);
/// The rulebook's MAX_DT: a stall costs at most two ticks.
pub const MAX_FRAME: Duration = Duration::from_millis(100);

/// Runs `FixedUpdate` at the sim rate with the MAX_DT ceiling, its systems in the house order.
pub struct TickClockPlugin;

impl Plugin for TickClockPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(Time::<Fixed>::from_duration(TICK));
        app.insert_resource(Time::<Virtual>::from_max_delta(MAX_FRAME));
        app.add_plugins(SystemOrderPlugin);
    }
}

/// Task pools for a process whose work is stepping rooms: one worker per core.
///
/// A stage steps the rooms with `par_iter_mut`, whose scope runs tasks on the calling thread
/// too, so the compute pool gets `cores − 1` threads and the schedule's thread is the last
/// worker. More runnable workers than cores measured slower (two vCPUs here: 0.74–0.96 M
/// room-ticks/s against 1.07–1.16 M), because a preempted worker holds its batch while the
/// stage waits. Bevy's default gives IO and async compute a quarter of the cores each and
/// compute the rest; those pools stay, idle, for whatever Bevy puts on them.
pub fn sim_task_pools() -> TaskPoolPlugin {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut options = TaskPoolOptions::default();
    options.compute.min_threads = cores.saturating_sub(1).max(1);
    options.compute.max_threads = options.compute.min_threads;
    TaskPoolPlugin { task_pool_options: options }
}

/// Put every schedule of `app` on the single-threaded executor. Call it after the plugins.
///
/// A host's work is rooms, and rooms run in parallel *inside* each stage (`par_iter_mut` over
/// the compute pool, under any executor). Across systems there is nothing to overlap: the sim
/// is one chain, the rest is a few cheap bookkeeping systems. The multi-threaded executor still
/// wakes a thread per system per schedule, about 100 µs an update on two cores, which was a
/// third of the 1,024-room batch (docs/PERFORMANCE.md).
pub fn run_schedules_single_threaded(app: &mut App) {
    for (_, schedule) in app.world_mut().resource_mut::<Schedules>().iter_mut() {
        // `new()`, not `default()`: the derived `Default` turns off the end-of-schedule
        // command flush, and the host's systems spawn rooms through `Commands`.
        schedule.set_executor(SingleThreadedExecutor::new());
    }
}

/// A headless app for tests, replays and benchmarks: no window, no real time; every
/// `update()` advances exactly one tick. Configured like the headless server (task pools,
/// executors), so what a benchmark measures is what a host runs.
pub fn headless_app() -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins.set(sim_task_pools()),
        StatesPlugin,
        TickClockPlugin,
        SimPlugin,
    ));
    app.insert_resource(TimeUpdateStrategy::ManualDuration(TICK));
    run_schedules_single_threaded(&mut app);
    // Bevy's first update only starts the clock (zero delta); spend it here so that from now
    // on one update is one tick.
    app.update();
    app
}
