//! The local host: the embedded server of solo and couch play. The only client code that
//! touches the simulation — it spawns `Room` entities and pushes each local seat's frames into
//! `room.inputs` before the sim resolves them; everything else reads the projected views.
//! Planner bots (`--bots N`, the menu's "Solo with a bot partner", `--autoplay bot`) are just
//! more seats whose frames go into the same `room.inputs`, pushed by [`drive_local_bots`].

pub mod assist_menu;
pub mod backdrop;
#[cfg(not(target_arch = "wasm32"))]
pub mod board_submit;
pub mod bundle_playback;
pub mod designer;
pub mod emotes;
pub mod generated;
#[cfg(not(target_arch = "wasm32"))]
pub mod round_bundle;
pub mod scripted;
pub mod survival_menu;

use super::args::{Autoplay, Options};
use super::input::Lineup;
use super::local::assist_menu::RoundAssist;
use super::local::bundle_playback::{
    BoardPlayback, BundlePilot, BundlePlaybackPlugin, bundle_round, bundle_unfinished,
    push_bundle_frames,
};
use super::local::scripted::{ScriptPilot, not_held, push_script_frames, scripted_room};
use super::local::survival_menu::RoundSurvival;
use super::state::{AppState, local_play};
use crate::bot::planner::BotTeam;
use crate::clock::TickClockPlugin;
use crate::level::watch::LevelLibrary;
use crate::level::{find_level, load_recipes_file};
use crate::net::client::outbox::Outbox;
use crate::project::{RoomTick, project_rooms};
use crate::protocol::{InRoom, RoomView};
use crate::schedule::TickSystems;
use crate::sim::ids::Seat;
use crate::sim::kitchen::Level;
use crate::sim::open::SeatSpec;
use crate::sim::recipe_book::RecipeBook;
use crate::sim::room::Room;
use crate::sim::units::{MAX_COOKS, TICK_HZ};
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

/// The kitchen workshop's Playtest (`client::editor`): the edited kitchen, played at once with
/// this many bots beside the designer; Escape goes back to the editor, not the menu. Its
/// `last_tick` is the room's tick as last seen, for the editor's line on the way back.
#[derive(Resource, Clone, Debug)]
pub struct PlaytestLevel {
    pub level: Level,
    pub book: Arc<RecipeBook>,
    pub bots: u8,
    pub last_tick: u32,
}

/// The round end's line about the round's bundle and the board (`board_submit` keeps it).
#[derive(Component, Debug)]
pub struct BoardLine;

/// Bots the menu asked for ("Solo with a bot partner"); absent: `--bots` decides.
#[derive(Resource, Clone, Copy, Debug)]
pub struct MenuBots(pub u8);

/// The seed of the next local round when it is not `--seed` (designer F5 re-seeds).
#[derive(Resource, Clone, Copy, Debug)]
pub struct RoundSeed(pub u64);

/// Designer mode: the id of the level under edit, whose last good version comes from the
/// [`LevelLibrary`] rather than from disk (a broken file on disk must not stop a restart).
#[derive(Resource, Clone, Debug)]
pub struct DesignerLevel(pub String);

/// The planner bots of the running local round. The team is (re)built from the room whenever
/// the room is new to it: a fresh round, or a designer reload swapping the level underneath.
#[derive(Resource, Debug, Default)]
pub struct LocalBots {
    pub seats: Vec<Seat>,
    team: Option<BotTeam>,
    level: Option<Arc<Level>>,
    last_tick: u32,
}

impl LocalBots {
    pub fn new(seats: Vec<Seat>) -> Self {
        LocalBots { seats, ..default() }
    }
}

/// A local round's seats: `players` local cooks then `bots` planner bots, four cooks at most.
/// Returns the number of cooks and the bot seats; `all_bots` (`--autoplay bot`) makes every
/// seat a bot.
pub fn seat_plan(players: usize, bots: usize, all_bots: bool) -> (usize, Vec<Seat>) {
    let cooks = (players + bots).clamp(1, MAX_COOKS);
    let first_bot = if all_bots { 0 } else { players.min(cooks) };
    (cooks, (first_bot..cooks).map(|s| s as Seat).collect())
}

/// Why a local round could not start (shown on the menu).
#[derive(Resource, Clone, Debug, Default)]
pub struct HostError(pub Option<String>);

/// The embedded host of local play: the clock, the sim and the projection, standing down
/// while the window is online.
pub struct LocalHostPlugin;

impl Plugin for LocalHostPlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins((
            TickClockPlugin,
            SimPlugin,
            emotes::LocalEmotesPlugin,
            BundlePlaybackPlugin,
        ));
        // `project::ProjectionPlugin`'s two lines, with the projection standing down online.
        app.add_message::<RoomTick>();
        app.add_systems(
            FixedPostUpdate,
            project_rooms.in_set(TickSystems::Project).run_if(local_play),
        );
        // Connected to a server (the menu's Host or Join), no sim stage runs in this window.
        for stage in SimSystems::ALL {
            app.configure_sets(
                FixedUpdate,
                stage.run_if(local_play).run_if(not_held).run_if(bundle_unfinished),
            );
        }
        app.insert_resource(RoundPhase::Live).init_resource::<HostError>();
        app.add_systems(OnEnter(AppState::Playing), start_local_round.run_if(local_play));
        app.add_systems(OnExit(AppState::Playing), end_local_round);
        app.add_systems(
            FixedUpdate,
            (push_local_inputs, drive_local_bots, push_script_frames, push_bundle_frames)
                .chain()
                .in_set(TickSystems::Host)
                .run_if(local_play),
        );
        #[cfg(not(target_arch = "wasm32"))]
        {
            app.add_systems(
                FixedPostUpdate,
                round_bundle::bundle_decided_round.in_set(TickSystems::Publish).run_if(local_play),
            );
        }
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
                .run_if(in_state(AppState::Playing).and_then(local_play)),
        );
    }
}

/// Load the selected level and spawn its room.
fn start_local_round(world: &mut World) {
    if let Some(made) = bundle_round(world) {
        return start_bundle_round(world, made);
    }
    let options = world.resource::<Options>().0.clone();
    let level_id = world
        .get_resource::<SelectedLevel>()
        .map(|s| s.0.clone())
        .or(options.level.clone())
        .unwrap_or_else(|| "tutorial".into());
    // Designer mode plays the library's last good version (the file may be broken right now).
    let from_library = world.get_resource::<DesignerLevel>().and_then(|d| {
        let lib = world.get_resource::<LevelLibrary>()?;
        Some(((*lib.level(&d.0)?).clone(), (*lib.book).clone()))
    });
    // A generated kitchen (the daily or a random one) is the window's own, not a file's.
    let generated = world.get_resource::<generated::GeneratedKitchen>().and_then(|g| {
        let book = load_recipes_file(&options.recipes).ok()?;
        (g.level.id == level_id).then(|| (g.level.clone(), book))
    });
    // The kitchen workshop's Playtest: the edited kitchen, not a file's.
    let playtest =
        world.get_resource::<PlaytestLevel>().map(|p| (p.level.clone(), (*p.book).clone()));
    #[cfg(not(target_arch = "wasm32"))]
    let origin =
        match (&playtest, &from_library, world.get_resource::<generated::GeneratedKitchen>()) {
            (Some(_), _, _) | (_, Some(_), _) => round_bundle::RoundOrigin::UnderEdit,
            (None, None, Some(g)) if generated.is_some() => round_bundle::RoundOrigin::Generated {
                text: g.text.clone(),
                daily: matches!(g.kind, generated::KitchenKind::Daily(_)),
            },
            _ => round_bundle::RoundOrigin::File(level_id.clone()),
        };
    let loaded = match playtest.or(from_library).or(generated) {
        Some(x) => Ok(x),
        None => load_recipes_file(&options.recipes)
            .and_then(|book| find_level(&options.levels, &level_id, &book).map(|l| (l, book))),
    };
    let (mut level, book) = match loaded {
        Ok(x) => x,
        Err(e) => return refuse_start(world, &level_id, e.to_string()),
    };
    if let Some(s) = options.round_seconds {
        level.time_limit = s * TICK_HZ;
    }
    let players = world.resource::<Lineup>().0.len().max(options.players as usize);
    let bots = match world.get_resource::<PlaytestLevel>() {
        Some(p) => p.bots,
        None => world.get_resource::<MenuBots>().map_or(options.bots, |b| b.0),
    };
    let all_bots = options.autoplay == Some(Autoplay::Bot);
    let (cooks, bot_seats) = seat_plan(players, bots as usize, all_bots);
    let seats: Vec<SeatSpec> = (0..cooks as u8)
        .map(|s| {
            let bot = if bot_seats.contains(&s) { "Bot " } else { "" };
            SeatSpec::new(
                s,
                format!("P{} {bot}{}", s + 1, COOK_NAMES[s as usize % COOK_NAMES.len()]),
            )
        })
        .collect();
    let seed = world.get_resource::<RoundSeed>().map_or(options.seed, |s| s.0);
    let assist = world.get_resource::<RoundAssist>().map_or_else(|| options.assist(), |r| r.0);
    let (level, book) = (Arc::new(level), Arc::new(book));
    #[cfg(not(target_arch = "wasm32"))]
    let mut origin = origin;
    #[allow(unused_mut)]
    let mut room = match scripted_room(world.resource::<Options>()) {
        None => {
            let survival = world.get_resource::<RoundSurvival>().is_some_and(|s| s.0);
            Room::assisted(level.clone(), book, seed, &seats, assist).with_survival(survival)
        }
        Some(Ok((room, pilot))) if room.level.id == level.id => {
            world.insert_resource(pilot);
            #[cfg(not(target_arch = "wasm32"))]
            {
                origin = round_bundle::RoundOrigin::Scripted;
            }
            room
        }
        Some(Ok((room, _))) => {
            let why = format!("--level is `{}`, the script's is `{}`", level.id, room.level.id);
            return refuse_start(world, &level_id, why);
        }
        Some(Err(why)) => return refuse_start(world, &level_id, why),
    };
    // A scripted round has the replay's seats.
    let seats = match world.get_resource::<ScriptPilot>() {
        Some(pilot) => SeatSpec::numbered(pilot.script.seat_count()),
        None => seats,
    };
    // The round's bundle: its log on from tick 0, and whether a board may take it.
    #[cfg(not(target_arch = "wasm32"))]
    let record = round_bundle::record_round(&mut room, origin, world.resource::<Options>());
    // The room's own level and book: the assisted level is what the round plays.
    let (level, book) = (room.level.clone(), room.book.clone());
    let room = world.spawn(room).id();
    #[cfg(not(target_arch = "wasm32"))]
    world.insert_resource(round_bundle::RoundRecord { room, ..record });
    if let Some(mut pilot) = world.get_resource_mut::<ScriptPilot>() {
        pilot.room = room;
    }
    world.insert_resource(LocalGame { room, level, book, seats });
    world.insert_resource(LocalBots::new(bot_seats));
    world.resource_mut::<HostError>().0 = None;
    // A Playtest drops the designer into the kitchen at once, like an automated run.
    let automated = options.autoplay.is_some()
        || options.screenshot.is_some()
        || options.designer
        || world.contains_resource::<PlaytestLevel>();
    let phase = if automated { RoundPhase::Live } else { RoundPhase::Countdown(COUNTDOWN_SECS) };
    set_phase(world, phase);
}

/// `play --bundle`: the recorded round's room, its seats as recorded, no local cooks or bots
/// (the bundle's frames drive every seat), live at once.
fn start_bundle_round(world: &mut World, made: Result<(Room, BundlePilot), String>) {
    let (room, mut pilot) = match made {
        Ok(x) => x,
        Err(why) => return refuse_start(world, "bundle", why),
    };
    let (level, book) = (room.level.clone(), room.book.clone());
    let seats = pilot.seats.clone();
    pilot.room = world.spawn(room).id();
    world.insert_resource(LocalGame { room: pilot.room, level, book, seats });
    world.insert_resource(pilot);
    world.insert_resource(LocalBots::new(Vec::new()));
    world.resource_mut::<HostError>().0 = None;
    set_phase(world, RoundPhase::Live);
}

/// A round that cannot start: the reason on the menu and in the log. A run nobody watches
/// (`--screenshot`; `--exit-after-ticks` outside designer mode) fails at once with the error
/// and exit 1 instead of waiting on a menu forever; a designer's window waits for the fix
/// (`designer::start_fixed_level`).
fn refuse_start(world: &mut World, level_id: &str, why: String) {
    error!("cannot start level `{level_id}`: {why}");
    let o = &world.resource::<Options>().0;
    let unattended = o.screenshot.is_some() || (o.exit_after_ticks.is_some() && !o.designer);
    if unattended {
        eprintln!("error: cannot start level `{level_id}`: {why}");
        world.write_message(AppExit::from_code(1));
        return;
    }
    world.resource_mut::<HostError>().0 = Some(format!("cannot start `{level_id}`: {why}"));
    world.resource_mut::<NextState<AppState>>().set(AppState::Menu);
}

/// One name a seat.
const COOK_NAMES: [&str; MAX_COOKS] = ["Basil", "Saffron", "Pepper", "Ginger"];

/// The clock follows the phase: only a live (or settling) round ticks.
pub fn set_phase(world: &mut World, phase: RoundPhase) {
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
    world.remove_resource::<LocalBots>();
    world.remove_resource::<ScriptPilot>();
    world.remove_resource::<BundlePilot>();
    #[cfg(not(target_arch = "wasm32"))]
    world.remove_resource::<round_bundle::RoundRecord>();
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
    let now = room.tick;
    for (seat, mut frame) in frames {
        // The embedded server has no link to cross: each frame is for the room's next tick,
        // always inside the gate's window (two in one tick merge, the press kept).
        frame.tick = now;
        let _ = room.inputs.admit(now, seat, frame, 0);
    }
}

/// Each tick, before the sim resolves input: one frame per bot seat into the room's queue,
/// exactly as the hosted server's bots do (`net::server::bots`), never touching sim state.
pub fn drive_local_bots(
    game: Option<Res<LocalGame>>,
    bots: Option<ResMut<LocalBots>>,
    mut rooms: Query<&mut Room>,
) {
    let (Some(game), Some(mut bots)) = (game, bots) else { return };
    if bots.seats.is_empty() {
        return;
    }
    let Ok(mut room) = rooms.get_mut(game.room) else { return };
    // A decided round is frozen for its settle: nothing to press.
    if room.result.is_some() {
        return;
    }
    let fresh = bots.team.is_none()
        || room.tick < bots.last_tick
        || !bots.level.as_ref().is_some_and(|l| Arc::ptr_eq(l, &room.level));
    if fresh {
        bots.team = Some(BotTeam::new(&room, &bots.seats));
        bots.level = Some(room.level.clone());
    }
    bots.last_tick = room.tick;
    let Some(team) = bots.team.as_mut() else { return };
    team.drive(&mut room);
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
    // In a Playtest, Escape is the way back to the editor (`leave_playtest`), not a pause.
    let escape = world.resource::<ButtonInput<KeyCode>>().just_pressed(KeyCode::Escape);
    // So is it in a board entry's playback, back to the board (`leave_board_playback`).
    let away =
        world.contains_resource::<PlaytestLevel>() || world.contains_resource::<BoardPlayback>();
    if escape && away {
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
        // A Playtest's round ends back in the editor, a board entry's playback on the board.
        let to = if world.contains_resource::<PlaytestLevel>() {
            AppState::Editor
        } else if world.contains_resource::<BoardPlayback>() {
            AppState::Board
        } else {
            AppState::Menu
        };
        world.resource_mut::<NextState<AppState>>().set(to);
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
