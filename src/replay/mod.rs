//! Replays: run an input script through the real schedule, record goldens, check them; and
//! hosted rounds' bundles (a script and its golden in one file).

pub mod admitted;
pub mod bundle;
pub mod bundle_read;
pub mod chain;
pub mod cli;
pub mod golden;
pub mod hex;
pub mod local_round;
pub mod script;
pub mod verdict;
pub mod writer;

use crate::clock::headless_app;
use crate::sim::events::SimEvent;
use crate::sim::hash::named_fields;
use crate::sim::kitchen::Level;
use crate::sim::open::SeatSpec;
use crate::sim::recipe_book::RecipeBook;
use crate::sim::room::Room;
use bevy::prelude::*;
use golden::{CheckOutcome, Golden, diff_fields, field_log, fields_at};
use hex::hex;
use script::InputScript;
use std::collections::BTreeMap;
use std::sync::Arc;

/// A finished replay: the final room and what was recorded along the way.
pub struct ReplayRun {
    pub room: Room,
    /// (tick, chain head) at the recorded ticks.
    pub hashes: Vec<(u32, u64)>,
    /// Full named-field snapshots at the recorded ticks (when asked for).
    pub snapshots: Vec<(u32, Vec<(String, i64)>)>,
    /// Every event, with the tick that emitted it.
    pub events: Vec<(u32, SimEvent)>,
}

/// Build the script's room: seats 0..n named "Cook n", pre-placed items, tick 0.
pub fn build_room(level: Arc<Level>, book: Arc<RecipeBook>, script: &InputScript) -> Room {
    let seats = SeatSpec::numbered(script.seat_count());
    let mut room = Room::assisted(level, book, script.seed, &seats, script.assist)
        .with_survival(script.survival);
    for p in &script.items {
        room.preplace(p.station as usize, p.item.kind());
    }
    room
}

fn recorded(tick: u32, every: u32, last: u32) -> bool {
    tick == 0 || tick == last || (every > 0 && tick.is_multiple_of(every))
}

/// Run a (validated) script for `ticks` ticks through the headless app: one `update()` per
/// tick, the script's frames pushed into the room's input queue before each.
pub fn run_script(
    level: Arc<Level>,
    book: Arc<RecipeBook>,
    script: &InputScript,
    ticks: u32,
    keep_fields: bool,
) -> ReplayRun {
    let mut app = headless_app();
    let entity = app.world_mut().spawn(build_room(level, book, script)).id();
    let mut hashes = Vec::new();
    let mut snapshots = Vec::new();
    let mut events = Vec::new();
    let start = app.world().get::<Room>(entity).expect("room");
    hashes.push((0, start.hash));
    if keep_fields {
        snapshots.push((0, named_fields(start)));
    }
    let mut record = |room: &Room| {
        events.extend(room.events.iter().map(|e| (room.tick - 1, e.clone())));
        if recorded(room.tick, script.record_every, ticks) {
            hashes.push((room.tick, room.hash));
            if keep_fields {
                snapshots.push((room.tick, named_fields(room)));
            }
        }
    };
    for tick in 0..ticks {
        {
            let mut room = app.world_mut().get_mut::<Room>(entity).expect("room");
            for (seat, frame) in script.frames_for(tick) {
                room.inputs.queue_stamped(seat, frame);
            }
        }
        app.update();
        record(app.world().get::<Room>(entity).expect("room"));
    }
    let room = app.world_mut().entity_mut(entity).take::<Room>().expect("room");
    ReplayRun { room, hashes, snapshots, events }
}

/// Record a golden from a run.
pub fn make_golden(script: &InputScript, run: &ReplayRun) -> Golden {
    Golden {
        name: script.name.clone(),
        level: script.level.clone(),
        seed: script.seed,
        seats: script.seat_count(),
        ticks: run.room.tick,
        record_every: script.record_every,
        final_hash: hex(run.room.hash),
        hashes: run.hashes.iter().map(|(t, h)| (*t, hex(*h))).collect(),
        fields: field_log(&run.snapshots),
    }
}

/// Compare a run against a golden: the first recorded tick whose hash differs, with the fields
/// that differ there (golden value vs replayed value).
pub fn compare(golden: &Golden, run: &ReplayRun) -> CheckOutcome {
    let replayed: BTreeMap<u32, u64> = run.hashes.iter().copied().collect();
    for (tick, want) in &golden.hashes {
        let got = replayed.get(tick).map(|h| hex(*h)).unwrap_or_else(|| "missing".into());
        if &got != want {
            let golden_fields = fields_at(&golden.fields, *tick);
            let replayed_fields: BTreeMap<String, i64> = run
                .snapshots
                .iter()
                .find(|(t, _)| t == tick)
                .map(|(_, f)| f.iter().cloned().collect())
                .unwrap_or_default();
            return CheckOutcome::Mismatch {
                tick: *tick,
                golden: want.clone(),
                replayed: got,
                fields: diff_fields(&golden_fields, &replayed_fields),
            };
        }
    }
    CheckOutcome::Match { ticks: run.room.tick, final_hash: run.room.hash }
}
