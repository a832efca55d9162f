//! A scripted local round (`play --script FILE`): a replay script's level, seed, seats and
//! pre-placed items make the room, and its frames are pushed into the room's queue tick by tick
//! exactly as `replay` does — so the game can be looked at in a known moment (a throw in flight
//! for the screenshot test). `--hold-at-tick N` stops the sim at tick N while the frame keeps
//! drawing, so a screenshot catches that tick however long the renderer takes to settle.

use crate::client::args::Options;
use crate::replay::build_room;
use crate::replay::cli::{ReplayPaths, load};
use crate::replay::script::InputScript;
use crate::sim::room::Room;
use bevy::prelude::*;

/// The script driving the local round's seats.
#[derive(Resource, Clone, Debug)]
pub struct ScriptPilot {
    pub script: InputScript,
    /// The room it plays (set by the local host once spawned).
    pub room: Entity,
}

/// The room of `--script`, and the pilot that plays its frames; the reason in words when the
/// script cannot be read, is invalid, or names a level that cannot be loaded.
pub fn scripted_room(options: &Options) -> Option<Result<(Room, ScriptPilot), String>> {
    let path = options.0.script.as_ref()?;
    let paths = ReplayPaths { levels: options.0.levels.clone(), goldens: "goldens".into() };
    Some(
        load(path, &paths)
            .map(|l| {
                (
                    build_room(l.level, l.book, &l.script),
                    ScriptPilot { script: l.script, room: Entity::PLACEHOLDER },
                )
            })
            .map_err(|e| e.to_string()),
    )
}

/// Each tick, before the sim resolves input: the script's frames for this tick into the queue
/// (a refused frame is logged by its reason: a valid script is never refused).
pub fn push_script_frames(pilot: Option<Res<ScriptPilot>>, mut rooms: Query<&mut Room>) {
    let Some(pilot) = pilot else { return };
    let Ok(mut room) = rooms.get_mut(pilot.room) else { return };
    let now = room.tick;
    for (seat, frame) in pilot.script.frames_for(now) {
        if let Err(why) = room.inputs.admit(now, seat, frame, 0) {
            warn!("script frame for seat {seat} at tick {now} refused: {why:?}");
        }
    }
}

/// Whether the local sim may step: not once the room reaches `--hold-at-tick`.
pub fn not_held(
    options: Res<Options>,
    pilot: Option<Res<ScriptPilot>>,
    rooms: Query<&Room>,
) -> bool {
    let Some(hold) = options.0.hold_at_tick else { return true };
    let tick = pilot.and_then(|p| rooms.get(p.room).ok().map(|r| r.tick));
    tick.is_none_or(|t| t < hold)
}
