//! Local players' devices: leafwing maps (keyboard halves, gamepads), the lineup joined on the
//! menu, and their frames (and emotes) into the outbox (`net::client::outbox`) the host drains once a tick
//! or, online, the session's uplinks send: the one place the devices are read.

use super::settings::config::Bindings;
// The actions and devices live in `device`, so `config` can bind them without importing this
// file back; re-exported for the callers (the client tests) that name them `input::…`.
use super::args::{Autoplay, Options};
pub use super::settings::device::{CookAction, Device};
use super::state::AppState;
use crate::net::client::outbox::Outbox;
use crate::net::client::seats::SessionSystems;
use crate::protocol::emote::Emote;
use crate::schedule::TickSystems;
use crate::sim::ids::Seat;
use crate::sim::kinds::Dir4;
use crate::sim::rng::SplitMix64;
use crate::sim::units::MAX_COOKS;
use bevy::prelude::*;
use bevy_replicon_renet::RenetClient;
use leafwing_input_manager::prelude::*;

/// The devices that joined, in seat order (seat = index).
#[derive(Resource, Clone, Debug, Default)]
pub struct Lineup(pub Vec<Device>);

impl Lineup {
    /// Join `device` if it is not in yet and a seat is free; true when it joined.
    pub fn join(&mut self, device: Device) -> bool {
        if self.0.contains(&device) || self.0.len() >= MAX_COOKS {
            return false;
        }
        self.0.push(device);
        true
    }
}

/// A local player's entity: which seat its frames are for.
#[derive(Component, Clone, Copy, Debug)]
pub struct LocalPlayer {
    pub seat: Seat,
}

/// The default map of one device (Settings may rebind it: [`Bindings::map`]).
pub fn input_map(device: Device) -> InputMap<CookAction> {
    Bindings::default().map(device)
}

/// One tick's stick and button from an action state, in the sim's units: x right, y down (the
/// grid's rows grow downward while every device reports up as +y), −1000..=1000 per axis.
/// While the emote button is held the stick picks an emote ([`emote_from_action`]) and the
/// cook stands still.
pub fn frame_from_action(state: &ActionState<CookAction>) -> ((i16, i16), bool) {
    let v = state.clamped_axis_pair(&CookAction::Move);
    // A small dead zone: worn sticks rest a few percent off centre.
    let v = if v.length() < 0.15 || state.pressed(&CookAction::Emote) { Vec2::ZERO } else { v };
    let axis = |f: f32| (f * 1000.0).round().clamp(-1000.0, 1000.0) as i16;
    ((axis(v.x), axis(-v.y)), state.pressed(&CookAction::Act))
}

/// The emote picked now: the emote button held and the stick (or d-pad) pushed past half way,
/// its stronger axis naming the direction ([`Emote::of_direction`]).
pub fn emote_from_action(state: &ActionState<CookAction>) -> Option<Emote> {
    if !state.pressed(&CookAction::Emote) {
        return None;
    }
    let v = state.clamped_axis_pair(&CookAction::Move);
    if v.length() < 0.5 {
        return None;
    }
    let dir = if v.x.abs() > v.y.abs() {
        if v.x > 0.0 { Dir4::Right } else { Dir4::Left }
    } else if v.y > 0.0 {
        Dir4::Up
    } else {
        Dir4::Down
    };
    Some(Emote::of_direction(dir))
}

/// Whether the second button (dash / throw) is down: its level, like the action's — the sim
/// takes the rising edge (docs/SIMULATION.md §5.8).
pub fn dash_from_action(state: &ActionState<CookAction>) -> bool {
    state.pressed(&CookAction::Dash)
}

/// The random autoplay: each seat holds a stick direction for a while and taps the button.
#[derive(Resource, Debug)]
pub struct RandomPilot {
    rng: SplitMix64,
    sticks: Vec<((i16, i16), u32)>,
}

impl RandomPilot {
    pub fn new(seed: u64, seats: usize) -> Self {
        RandomPilot { rng: SplitMix64::new(seed ^ 0x5EED_CAFE), sticks: vec![((0, 0), 0); seats] }
    }

    /// The next frame's stick and button for `seat`.
    pub fn next(&mut self, seat: usize) -> ((i16, i16), bool) {
        const DIRS: [(i16, i16); 9] = [
            (0, 0),
            (1000, 0),
            (-1000, 0),
            (0, 1000),
            (0, -1000),
            (700, 700),
            (-700, 700),
            (700, -700),
            (-700, -700),
        ];
        let (stick, left) = self.sticks[seat];
        let stick = if left == 0 {
            let s = DIRS[self.rng.index(DIRS.len())];
            self.sticks[seat] = (s, self.rng.range_inclusive(4, 16));
            s
        } else {
            self.sticks[seat].1 -= 1;
            stick
        };
        (stick, self.rng.range_inclusive(0, 9) < 3)
    }
}

/// Local players from devices, and their frames into the outbox once a tick.
pub struct CookInputPlugin;

impl Plugin for CookInputPlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins(InputManagerPlugin::<CookAction>::default());
        app.init_resource::<Lineup>().init_resource::<Outbox>();
        app.add_systems(OnEnter(AppState::Playing), spawn_local_players);
        app.add_systems(FixedUpdate, collect_frames.in_set(TickSystems::Collect));
        // Emotes are no frames: read every display frame, online before the session sends.
        app.add_systems(
            Update,
            pick_emotes.before(SessionSystems::Send).run_if(in_state(AppState::Playing)),
        );
        // Online the devices are read every display frame, not every tick: a press goes out
        // (and is predicted) the moment it happens rather than at the next tick.
        app.add_systems(
            Update,
            collect_device_frames
                .in_set(SessionSystems::Feed)
                .run_if(resource_exists::<RenetClient>),
        );
    }
}

/// One entity per joined device (and a default lineup from `--players` when nobody joined).
fn spawn_local_players(
    mut commands: Commands,
    mut lineup: ResMut<Lineup>,
    options: Res<Options>,
    bindings: Res<Bindings>,
    pads: Query<Entity, With<Gamepad>>,
) {
    fill_lineup(&mut lineup, options.0.players, &pads.iter().collect::<Vec<_>>());
    commands.remove_resource::<RandomPilot>();
    // A scripted round (`--script`) plays the script's frames on every seat: no devices.
    if options.0.script.is_some() || options.0.bundle.is_some() {
        return;
    }
    match options.0.autoplay {
        Some(Autoplay::Random) => {
            commands.insert_resource(RandomPilot::new(options.0.seed, lineup.0.len()));
            return;
        }
        // The host seats planner bots on every seat (`local::LocalBots`): no devices.
        Some(Autoplay::Bot) => return,
        None => {}
    }
    for (seat, device) in lineup.0.iter().enumerate() {
        commands.spawn((
            bindings.map(*device),
            LocalPlayer { seat: seat as Seat },
            DespawnOnExit(AppState::Playing),
        ));
    }
}

/// Top the lineup up to `players` seats: keyboard halves first, then connected gamepads.
pub fn fill_lineup(lineup: &mut Lineup, players: u8, pads: &[Entity]) {
    let mut candidates = vec![Device::KeyboardLeft, Device::KeyboardRight];
    candidates.extend(pads.iter().map(|p| Device::Gamepad(*p)));
    for device in candidates {
        if lineup.0.len() >= players.max(1) as usize {
            break;
        }
        lineup.join(device);
    }
    // More seats than devices (`--players 4` on a keyboard): the rest stand idle.
    while lineup.0.len() < players as usize {
        lineup.0.push(Device::Gamepad(Entity::PLACEHOLDER));
    }
}

/// Each tick: one frame per local seat into the outbox (the autopilot's, or in local play the
/// devices'; online those are read every frame by [`collect_device_frames`]).
fn collect_frames(
    mut outbox: ResMut<Outbox>,
    players: Query<(&LocalPlayer, &ActionState<CookAction>)>,
    pilot: Option<ResMut<RandomPilot>>,
    lineup: Res<Lineup>,
    online: Option<Res<RenetClient>>,
) {
    if let Some(mut pilot) = pilot {
        for seat in 0..lineup.0.len() {
            let (mv, action) = pilot.next(seat);
            outbox.send(seat as Seat, mv, action, false);
        }
        return;
    }
    if online.is_none() {
        collect_device_frames(outbox, players);
    }
}

/// One frame per local player, from its devices, into the outbox.
fn collect_device_frames(
    mut outbox: ResMut<Outbox>,
    players: Query<(&LocalPlayer, &ActionState<CookAction>)>,
) {
    let mut players: Vec<_> = players.iter().collect();
    players.sort_by_key(|(p, _)| p.seat); // seq order follows seat order, not query order
    for (player, state) in players {
        let (mv, action) = frame_from_action(state);
        outbox.send(player.seat, mv, action, dash_from_action(state));
    }
}

/// Each local player's emote into the outbox, once per push: a direction picks one while the
/// emote button is held, and the stick must come back to the middle before it picks another.
fn pick_emotes(
    mut outbox: ResMut<Outbox>,
    players: Query<(&LocalPlayer, &ActionState<CookAction>)>,
    mut picked: Local<[bool; MAX_COOKS]>,
) {
    let mut players: Vec<_> = players.iter().collect();
    players.sort_by_key(|(p, _)| p.seat);
    for (player, state) in players {
        let Some(was) = picked.get_mut(player.seat as usize) else { continue };
        let emote = emote_from_action(state);
        if let Some(e) = emote
            && !*was
        {
            outbox.say(player.seat, e);
        }
        *was = emote.is_some();
    }
}
