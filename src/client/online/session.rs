//! The window's front end of the client session: the game window connected to a hosted room
//! drives the session every client shares (`net::client::seats`: the welcome, following the
//! room, acks, ready — each server message handled there), its local players' frames reaching
//! the session's outbox from the input system (`client::input`). What is the window's alone is
//! here: `TickEvents` as the `RoomTick`s the HUD, audio and save file read, the lobby's phase
//! as the countdown banner ([`RoundPhase`]), the seats marked ready only once in the kitchen,
//! and each own cook drawn where the prediction has it.
//!
//! [`OnlinePlugin`] is the network half without any rendering (tests add it to a headless
//! app); the window never simulates: no `SimPlugin`, no projection, no local host.

use crate::client::input::{Lineup, LocalPlayer};
use crate::client::kitchen::interp::{PredictedCook, PredictedCooks, UTILE};
use crate::client::local::RoundPhase;
use crate::client::settings::config::Bindings;
use crate::client::state::AppState;
use crate::clock::TickClockPlugin;
use crate::net::client::emotes::ClientEmotesPlugin;
use crate::net::client::seats::{ClientSession, ClientSessionPlugin, SessionSystems};
#[cfg(not(target_arch = "wasm32"))]
use crate::net::client::session::JoinReply;
#[cfg(not(target_arch = "wasm32"))]
use crate::net::client::transport::{Transport, add_connection};
#[cfg(not(target_arch = "wasm32"))]
use crate::net::wire::error::NetError;
use crate::project::RoomTick;
use crate::protocol::{LobbyPhase, LobbyView, RoomView, TickEvents};
use crate::schedule::FrameSystems;
use crate::sim::units::TICK_HZ;
use bevy::prelude::*;
use bevy_replicon_renet::RenetClient;

/// The network half of the online client (no rendering, no sim). Add it after
/// [`add_connection`] (see [`connect`]).
pub struct OnlinePlugin;

impl Plugin for OnlinePlugin {
    fn build(&self, app: &mut App) {
        // The client's FixedUpdate (where local input is sampled) at the room's tick rate;
        // only the clock resources, not the sim.
        app.add_plugins(TickClockPlugin);
        app.insert_resource(RoundPhase::Live);
        app.add_plugins(OnlineSystemsPlugin);
    }
}

/// The online client's systems, each running only while a connection exists: shared by
/// [`OnlinePlugin`] (connected from the start) and the game window, which connects when the
/// menu's Host or Join says so (`join_flow::WindowedOnlinePlugin`).
pub struct OnlineSystemsPlugin;

impl Plugin for OnlineSystemsPlugin {
    fn build(&self, app: &mut App) {
        app.add_message::<RoomTick>();
        app.add_plugins((ClientSessionPlugin, ClientEmotesPlugin));
        app.init_resource::<DrawnCooks>();
        // Ready only once in the kitchen: a host waits on the Host screen for friends.
        app.configure_sets(
            Update,
            SessionSystems::Ready.run_if(|s: Option<Res<State<AppState>>>| {
                s.is_none_or(|s| *s.get() == AppState::Playing)
            }),
        );
        app.add_systems(
            Update,
            (events_to_ticks, follow_lobby)
                .after(SessionSystems::Follow)
                .run_if(resource_exists::<RenetClient>),
        );
        app.add_systems(
            Update,
            draw_predicted_cook
                .after(SessionSystems::Send)
                .in_set(FrameSystems::Predict)
                .run_if(resource_exists::<RenetClient>),
        );
        app.add_observer(one_seat_many_devices);
    }
}

/// Online with one local player, that player plays with either keyboard half or any gamepad;
/// with several (couch co-op online) each keeps its own device, as in local play. Decided by
/// the lineup the players were spawned from, not by the server's welcome, which usually
/// arrives after the kitchen opened.
fn one_seat_many_devices(
    add: On<Add, LocalPlayer>,
    players: Query<&LocalPlayer>,
    bindings: Res<Bindings>,
    client: Option<Res<RenetClient>>,
    lineup: Option<Res<Lineup>>,
    mut commands: Commands,
) {
    let alone = lineup.is_none_or(|l| l.0.len() <= 1);
    if client.is_some() && alone && players.get(add.entity).is_ok_and(|p| p.seat == 0) {
        commands.entity(add.entity).insert(bindings.solo_map());
    }
}

/// Makes `app` an online client seated by `reply`: the shared connection plus [`OnlinePlugin`].
#[cfg(not(target_arch = "wasm32"))]
pub fn connect(app: &mut App, reply: &JoinReply) -> Result<(), NetError> {
    add_connection(app, reply, &Transport::Udp)?;
    app.add_plugins(OnlinePlugin);
    app.insert_resource(ClientSession::new(&reply.code, false));
    Ok(())
}

/// The server's per-tick facts, as the `RoomTick` messages local play's projection writes.
fn events_to_ticks(
    mut events: MessageReader<TickEvents>,
    rooms: Query<Entity, With<RoomView>>,
    mut ticks: MessageWriter<RoomTick>,
) {
    let room = rooms.iter().next().unwrap_or(Entity::PLACEHOLDER);
    for e in events.read() {
        ticks.write(RoomTick { room, tick: e.tick, events: e.events.clone() });
    }
}

/// Where each own cook was drawn last frame (tiles), by slot.
#[derive(Resource, Debug, Default)]
struct DrawnCooks(Vec<Option<(f64, f64)>>);

/// Your own cooks are drawn where the prediction has them (the fading correction included),
/// each followed with a short smoothing so that the 20 Hz steps of the prediction glide; the
/// other cooks stay where the interpolation of the views put them.
fn draw_predicted_cook(
    time: Res<Time<Real>>,
    mut s: ResMut<ClientSession>,
    mut drawn: ResMut<DrawnCooks>,
    mut commands: Commands,
) {
    let now = s.clock_now();
    let dt = time.delta_secs_f64();
    // Most of the way in one 60 Hz frame (a press shows at once), all of it within a tick.
    let keep = (-dt / DRAW_SMOOTHING).exp();
    drawn.0.resize(s.players.len(), None);
    let mut cooks = Vec::new();
    for (p, was) in s.players.iter_mut().zip(drawn.0.iter_mut()) {
        let Some(target) = p.predictor.as_mut().and_then(|p| p.drawn(now)) else {
            *was = None;
            continue;
        };
        let target = (target.0 / UTILE as f64, target.1 / UTILE as f64);
        let at = match *was {
            Some(d) => (target.0 + (d.0 - target.0) * keep, target.1 + (d.1 - target.1) * keep),
            None => target,
        };
        *was = Some(at);
        cooks.push(PredictedCook { seat: p.seat, at: Vec2::new(at.0 as f32, at.1 as f32) });
    }
    if cooks.is_empty() {
        commands.remove_resource::<PredictedCooks>();
    } else {
        commands.insert_resource(PredictedCooks(cooks));
    }
}

/// The time constant of the drawn cook's glide toward its prediction (s).
const DRAW_SMOOTHING: f64 = 0.012;

/// The lobby's phase drives the banner and the countdown beeps, as the local host's phase does.
pub fn follow_lobby(lobbies: Query<&LobbyView>, mut phase: ResMut<RoundPhase>) {
    let Some(lobby) = lobbies.iter().next() else { return };
    let next = match lobby.phase {
        LobbyPhase::Countdown => RoundPhase::Countdown(lobby.countdown as f32 / TICK_HZ as f32),
        LobbyPhase::Results => RoundPhase::Over,
        LobbyPhase::Lobby | LobbyPhase::Round => RoundPhase::Live,
    };
    if *phase != next {
        *phase = next;
    }
}
