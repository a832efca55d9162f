//! The local host: the embedded server of solo and couch play. The only client code that
//! touches the simulation — it spawns `Room` entities and pushes each local seat's frames into
//! `room.inputs` before the sim resolves them; everything else reads the projected views.

use super::input::{CollectInput, Lineup, Outbox};
use super::{AppState, Options};
use crate::clock::TickClockPlugin;
use crate::level::model::{Level, RecipeBook};
use crate::level::{find_level, load_recipes_file};
use crate::project::{ProjectionPlugin, project_rooms};
use crate::protocol::{InRoom, RoomView};
use crate::sim::room::{Room, SeatSpec};
use crate::sim::units::TICK_HZ;
use crate::sim::{SimPlugin, SimSystems};
use bevy::prelude::*;
use std::sync::Arc;

/// Seconds of "3, 2, 1" before the clock starts.
pub const COUNTDOWN_SECS: f32 = 3.0;

/// The level the next local round plays (set by the menu or `--level`).
#[derive(Resource, Clone, Debug)]
pub struct SelectedLevel(pub String);

/// Where a local round is.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub enum RoundPhase {
    /// Seconds (real time) left before the first tick.
    Countdown(f32),
    Live,
    Paused,
    /// The verdict is in (the sim keeps settling; the HUD shows the result).
    Over,
}

/// The running local room.
#[derive(Resource, Clone, Debug)]
pub struct LocalGame {
    pub room: Entity,
    pub level: Arc<Level>,
    pub book: Arc<RecipeBook>,
    pub seats: Vec<SeatSpec>,
}

/// Why a local round could not start (shown on the menu).
#[derive(Resource, Clone, Debug, Default)]
pub struct HostError(pub Option<String>);

pub(super) fn plugin(app: &mut App) {
    app.add_plugins((TickClockPlugin, SimPlugin, ProjectionPlugin));
    app.insert_resource(RoundPhase::Live).init_resource::<HostError>();
    app.add_systems(OnEnter(AppState::Playing), start_local_round);
    app.add_systems(OnExit(AppState::Playing), end_local_round);
    app.add_systems(
        FixedUpdate,
        push_local_inputs.after(CollectInput).before(SimSystems::ResolveInput),
    );
    app.add_systems(
        Update,
        (
            count_down,
            // Before the first tick (and while paused) nothing ticks, so project by hand: the
            // kitchen is on screen during the countdown.
            project_rooms.run_if(|p: Res<RoundPhase>| {
                matches!(*p, RoundPhase::Countdown(_) | RoundPhase::Paused)
            }),
            toggle_pause,
            restart_or_leave,
            notice_round_end,
        )
            .chain()
            .run_if(in_state(AppState::Playing)),
    );
}

/// Load the selected level and spawn its room.
fn start_local_round(world: &mut World) {
    let options = world.resource::<Options>().0.clone();
    let level_id = world
        .get_resource::<SelectedLevel>()
        .map(|s| s.0.clone())
        .or(options.level.clone())
        .unwrap_or_else(|| "tutorial".into());
    let loaded = load_recipes_file(&options.recipes)
        .and_then(|book| find_level(&options.levels, &level_id, &book).map(|l| (l, book)));
    let (mut level, book) = match loaded {
        Ok(x) => x,
        Err(e) => {
            error!("cannot start level `{level_id}`: {e}");
            world.resource_mut::<HostError>().0 = Some(format!("cannot start `{level_id}`: {e}"));
            world.resource_mut::<NextState<AppState>>().set(AppState::Menu);
            return;
        }
    };
    if let Some(s) = options.round_seconds {
        level.time_limit = s * TICK_HZ;
    }
    let players = world.resource::<Lineup>().0.len().max(options.players as usize);
    let seats: Vec<SeatSpec> = (0..players as u8)
        .map(|s| SeatSpec::new(s, format!("P{} {}", s + 1, COOK_NAMES[s as usize % 4])))
        .collect();
    let (level, book) = (Arc::new(level), Arc::new(book));
    let room = world.spawn(Room::new(level.clone(), book.clone(), options.seed, &seats)).id();
    world.insert_resource(LocalGame { room, level, book, seats });
    world.resource_mut::<HostError>().0 = None;
    let automated = options.autoplay.is_some() || options.screenshot.is_some();
    let phase = if automated { RoundPhase::Live } else { RoundPhase::Countdown(COUNTDOWN_SECS) };
    set_phase(world, phase);
}

const COOK_NAMES: [&str; 4] = ["Basil", "Saffron", "Pepper", "Ginger"];

/// The clock follows the phase: only a live (or settling) round ticks.
fn set_phase(world: &mut World, phase: RoundPhase) {
    world.insert_resource(phase);
    let mut time = world.resource_mut::<Time<Virtual>>();
    match phase {
        RoundPhase::Countdown(_) | RoundPhase::Paused => time.pause(),
        RoundPhase::Live | RoundPhase::Over => time.unpause(),
    }
}

/// Despawn the room and every view of it.
fn despawn_local_room(world: &mut World) {
    let Some(game) = world.remove_resource::<LocalGame>() else { return };
    let views: Vec<Entity> = world
        .query::<(Entity, &InRoom)>()
        .iter(world)
        .filter(|(_, r)| r.0 == game.room)
        .map(|(e, _)| e)
        .collect();
    for e in views {
        world.despawn(e);
    }
    world.despawn(game.room);
    world.resource_mut::<Outbox>().frames.clear();
}

fn end_local_round(world: &mut World) {
    despawn_local_room(world);
    set_phase(world, RoundPhase::Live);
}

/// Each tick, before the sim resolves input: the outbox's frames into the room's queue,
/// stamped with the tick they are for (the embedded server's arrival stamp).
pub fn push_local_inputs(
    mut outbox: ResMut<Outbox>,
    game: Option<Res<LocalGame>>,
    mut rooms: Query<&mut Room>,
) {
    let frames = std::mem::take(&mut outbox.frames);
    let Some(game) = game else { return };
    let Ok(mut room) = rooms.get_mut(game.room) else { return };
    let tick = room.tick;
    for (seat, mut frame) in frames {
        frame.tick = tick;
        room.inputs.push(seat, frame);
    }
}

fn count_down(world: &mut World) {
    let RoundPhase::Countdown(left) = *world.resource::<RoundPhase>() else { return };
    let dt = world.resource::<Time<Real>>().delta_secs();
    let left = left - dt;
    if left <= 0.0 {
        set_phase(world, RoundPhase::Live);
    } else {
        world.insert_resource(RoundPhase::Countdown(left));
    }
}

/// P / Escape / a gamepad's Start: pause or resume a live round.
fn toggle_pause(world: &mut World) {
    let keys = world.resource::<ButtonInput<KeyCode>>();
    let mut pressed = keys.any_just_pressed([KeyCode::KeyP, KeyCode::Escape]);
    pressed |= world.query::<&Gamepad>().iter(world).any(|g| g.just_pressed(GamepadButton::Start));
    if !pressed {
        return;
    }
    match *world.resource::<RoundPhase>() {
        RoundPhase::Live => set_phase(world, RoundPhase::Paused),
        RoundPhase::Paused => set_phase(world, RoundPhase::Live),
        _ => {}
    }
}

/// While paused or over: R restarts the level, M (or Escape once over) goes to the menu.
fn restart_or_leave(world: &mut World) {
    let phase = *world.resource::<RoundPhase>();
    if !matches!(phase, RoundPhase::Paused | RoundPhase::Over) {
        return;
    }
    let keys = world.resource::<ButtonInput<KeyCode>>();
    let restart = keys.just_pressed(KeyCode::KeyR);
    let leave = keys.just_pressed(KeyCode::KeyM)
        || (phase == RoundPhase::Over && keys.just_pressed(KeyCode::Escape));
    if restart {
        restart_local_round(world);
    } else if leave {
        world.resource_mut::<NextState<AppState>>().set(AppState::Menu);
    }
}

/// Throw the room away and start the same level afresh, with a countdown.
pub fn restart_local_round(world: &mut World) {
    despawn_local_room(world);
    start_local_round(world);
}

/// A verdict in the room's view ends the round for the local host (the HUD shows it).
fn notice_round_end(world: &mut World) {
    if *world.resource::<RoundPhase>() != RoundPhase::Live {
        return;
    }
    let Some(room) = world.get_resource::<LocalGame>().map(|g| g.room) else { return };
    if world.get::<RoomView>(room).is_some_and(|v| v.result.is_some()) {
        set_phase(world, RoundPhase::Over);
    }
}
