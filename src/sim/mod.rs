//! The rules: a deterministic, integer-only simulation chained in `FixedUpdate`.
//!
//! Each stage is one system over every Room entity; inside a room everything iterates by
//! stable id. No floats, no clock, no OS randomness anywhere under this folder (a test scans).

pub mod action;
pub mod assist;
pub mod cook;
pub mod counters;
pub mod dishes;
pub mod events;
pub mod fires;
pub mod flight;
pub mod flights;
pub mod freshness;
pub mod hash;
pub mod hazard_spec;
pub mod hazard_state;
pub mod hazards;
pub mod ids;
pub mod input;
pub mod invariants;
pub mod item;
pub mod kinds;
pub mod kitchen;
pub mod movement;
pub mod open;
pub mod order;
pub mod orders;
pub mod pinned;
pub mod recipe_book;
pub mod resolve;
pub mod rng;
pub mod room;
pub mod round;
pub mod scoring;
pub mod station;
pub mod stations;
pub mod survival;
pub mod units;
pub mod v2;
pub mod verdict;
pub mod versus;

use bevy::ecs::batching::BatchingStrategy;
use bevy::prelude::*;
use room::Room;

/// The stages of one tick, chained once in this order (docs/SIMULATION.md has the table).
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SimSystems {
    /// Stage 1: one frame per seat.
    ResolveInput,
    /// Stage 2b: presses, holds, arbitration, the hands.
    ActionGate,
    /// Stage 3: stun, dash, velocity, sweep, push, facing.
    Movement,
    /// Stage 3b: thrown items fly, are caught, land.
    Flights,
    /// Stage 4: station pipelines.
    Stations,
    /// Stage 4b: burn, rot, carry decay.
    Freshness,
    /// Stage 5: the ticket rail.
    Orders,
    /// Stage 6: hazards.
    Hazards,
    /// Stage 7: clock, verdict, settle.
    Round,
    /// tick += 1 and the hash chain.
    Advance,
}

impl SimSystems {
    /// Every stage, in the chain's order (the one list the plugin chains and the windowed
    /// client stands down when it is online).
    pub const ALL: [SimSystems; 10] = [
        SimSystems::ResolveInput,
        SimSystems::ActionGate,
        SimSystems::Movement,
        SimSystems::Flights,
        SimSystems::Stations,
        SimSystems::Freshness,
        SimSystems::Orders,
        SimSystems::Hazards,
        SimSystems::Round,
        SimSystems::Advance,
    ];

    /// The stage's code on one room.
    fn run(self, room: &mut Room) {
        match self {
            // The start of a tick: the previous tick's events are cleared.
            SimSystems::ResolveInput => {
                room.events.clear();
                resolve::resolve_room_inputs(room);
            }
            SimSystems::ActionGate => action::gate_room_actions(room),
            SimSystems::Movement => movement::move_room_cooks(room),
            SimSystems::Flights => flights::step_room_flights(room),
            SimSystems::Stations => stations::step_room_stations(room),
            SimSystems::Freshness => freshness::step_room_freshness(room),
            SimSystems::Orders => orders::step_room_orders(room),
            SimSystems::Hazards => hazards::step_room_hazards(room),
            SimSystems::Round => round::step_room_round(room),
            SimSystems::Advance => advance_room(room),
        }
    }

    /// Does the stage still run once the round is decided? A decided round is frozen for the
    /// settle: only input resolve, the clock clamp and tick += 1 keep running.
    fn runs_when_decided(self) -> bool {
        matches!(self, SimSystems::ResolveInput | SimSystems::Round | SimSystems::Advance)
    }

    /// The stage on one room, if the round's state lets it run.
    fn step(self, room: &mut Room) {
        if self.runs_when_decided() || room.result.is_none() {
            self.run(room);
        }
    }
}

/// Adds the simulation's stages to `FixedUpdate`. The tick rate itself is configured by whoever
/// hosts the schedule (the clock plugin), so this folder stays free of time types.
pub struct SimPlugin;

impl Plugin for SimPlugin {
    fn build(&self, app: &mut App) {
        // Each stage runs after the one before it: the chain, one pair at a time.
        for pair in SimSystems::ALL.windows(2) {
            app.configure_sets(FixedUpdate, pair[1].after(pair[0]));
        }
        // One system per stage, each running that stage's code on every room.
        for stage in SimSystems::ALL {
            let system = move |mut rooms: Query<&mut Room>| {
                for_each_room(&mut rooms, |room| stage.step(room));
            };
            app.add_systems(FixedUpdate, system.in_set(stage));
        }
    }
}

/// Below this many rooms a stage steps them on the calling thread: a task-pool scope costs more
/// than a few room-ticks. Rooms never read each other, so the result is the same either way.
pub const PAR_MIN_ROOMS: usize = 4;

/// Run one stage over every room, in parallel when there are enough rooms to pay for it.
/// A faulted room is skipped; a panic inside one room's stage faults that room only.
fn for_each_room(rooms: &mut Query<&mut Room>, stage: impl Fn(&mut Room) + Send + Sync) {
    if rooms.iter().len() < PAR_MIN_ROOMS {
        for mut room in rooms.iter_mut() {
            guarded(&mut room, &stage);
        }
    } else {
        // Four batches per thread, not Bevy's one: rooms differ in cost from tick to tick, and
        // with one batch each the thread that drew the busy half sets the stage's time.
        rooms
            .par_iter_mut()
            .batching_strategy(BatchingStrategy::new().batches_per_thread(4))
            .for_each(|mut room| guarded(&mut room, &stage));
    }
}

/// One stage on one room, with the room's panic caught: rooms share a system (and a server),
/// so an unwinding bug in one kitchen would otherwise stop them all. The room is marked
/// faulted (its state may be half-updated, so nothing runs on it again) and its host ends it;
/// a healthy room runs exactly the same code as before, so its hash chain is unchanged.
fn guarded(room: &mut Room, stage: &(impl Fn(&mut Room) + Send + Sync)) {
    if room.fault.is_some() {
        return;
    }
    if let Err(payload) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| stage(room))) {
        let message = crate::caught::panic_message(payload.as_ref());
        room.fault = Some(format!("panic at tick {}: {message}", room.tick));
    }
}

/// The last stage: tick += 1, then the next link of the hash chain.
fn advance_room(room: &mut Room) {
    room.tick += 1;
    room.hash = hash::chain(room.hash, room);
}

/// One whole tick of one room outside any schedule: the same stages, in the same order
/// (`SimSystems::ALL`). Tests and tools use it; a test proves it matches the scheduled chain
/// hash for hash.
pub fn step_room(room: &mut Room) {
    for stage in SimSystems::ALL {
        stage.step(room);
    }
}
