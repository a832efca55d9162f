//! The online client: the game window connected to a hosted room (`undercooked join HOST:PORT
//! --room CODE` without `--headless`). It gets its connect token and its replicon/renet
//! connection from `net::client` (shared with the headless client), and it never simulates:
//! no `SimPlugin`, no projection, no local host — the kitchen, HUD and audio read the views
//! the server replicates, exactly as they read the embedded server's views in local play.
//!
//! [`OnlinePlugin`] is the network half without any rendering (tests add it to a headless
//! app): local player 1's frames from the [`Outbox`] go out as `InputBatch` messages stamped
//! like the headless client's (latest `RoomClock.tick` + `INPUT_LEAD`), `TickEvents` become the
//! `RoomTick` messages the HUD, audio and save file read, the lobby's phase drives the
//! countdown banner ([`RoundPhase`]), and the seat is marked ready whenever the lobby shows it
//! is not. [`run`] adds the window, the presentation plugins and a small lobby panel.

use super::input::{CookAction, Device, LocalPlayer, Outbox, input_map};
use super::local::RoundPhase;
#[cfg(not(target_arch = "wasm32"))]
use super::{AppState, Options, PlayArgs};
use crate::clock::TickClockPlugin;
#[cfg(not(target_arch = "wasm32"))]
use crate::net::client::{JoinReply, add_connection, request_seat};
use crate::net::session::{INPUT_LEAD, SendPace, ready_due};
use crate::project::RoomTick;
use crate::protocol::{
    InputBatch, LobbyCommand, LobbyPhase, LobbyView, RoomClock, RoomView, TickEvents, Welcome,
};
use crate::sim::input::InputFrame;
use crate::sim::units::TICK_HZ;
use bevy::platform::time::Instant;
use bevy::prelude::*;
use bevy_replicon_renet::RenetClient;
use leafwing_input_manager::prelude::*;
#[cfg(not(target_arch = "wasm32"))]
use std::process::ExitCode;

/// The seat this client holds, and what it has sent.
#[derive(Resource, Debug, Default)]
pub struct OnlineSession {
    /// The room code the web port answered.
    pub code: String,
    /// From the server's `Welcome` (the seat the server gives this connection's frames).
    pub welcome: Option<Welcome>,
    /// The room tick of the last frame sent.
    pub last_tick: Option<u32>,
    pub frames_sent: u64,
    pub events_received: u64,
    /// Player 1's stick and button since the last sent frame (a tap between two room ticks
    /// is kept).
    pending: Option<((i16, i16), bool)>,
    last_ready: Option<Instant>,
}

/// The network half of the online client (no rendering, no sim). Add it after
/// [`add_connection`] (see [`connect`]).
pub struct OnlinePlugin;

impl Plugin for OnlinePlugin {
    fn build(&self, app: &mut App) {
        // The client's FixedUpdate (where local input is sampled) at the room's tick rate;
        // only the clock resources, not the sim.
        app.add_plugins(TickClockPlugin);
        app.add_message::<RoomTick>();
        app.init_resource::<Outbox>().init_resource::<OnlineSession>();
        app.insert_resource(RoundPhase::Live);
        app.add_systems(
            Update,
            (note_welcome, events_to_ticks, send_frames, auto_ready, follow_lobby).chain(),
        );
        app.add_observer(one_seat_many_devices);
    }
}

/// Online, this window holds one seat: player 1 plays it with either keyboard half or any
/// gamepad.
fn one_seat_many_devices(
    add: On<Add, LocalPlayer>,
    players: Query<&LocalPlayer>,
    mut commands: Commands,
) {
    if players.get(add.entity).is_ok_and(|p| p.seat == 0) {
        commands.entity(add.entity).insert(solo_map());
    }
}

/// Both keyboard halves and any gamepad, on one cook.
pub fn solo_map() -> InputMap<CookAction> {
    let mut map = input_map(Device::KeyboardLeft);
    map.merge(&input_map(Device::KeyboardRight));
    map.merge(
        &InputMap::default()
            .with_dual_axis(CookAction::Move, GamepadStick::LEFT)
            .with_dual_axis(CookAction::Move, VirtualDPad::dpad())
            .with(CookAction::Act, GamepadButton::South),
    );
    map
}

/// Makes `app` an online client seated by `reply`: the shared connection plus [`OnlinePlugin`].
#[cfg(not(target_arch = "wasm32"))]
pub fn connect(app: &mut App, reply: &JoinReply) -> Result<(), String> {
    add_connection(app, reply, &crate::net::client::Transport::Udp)?;
    app.add_plugins(OnlinePlugin);
    app.world_mut().resource_mut::<OnlineSession>().code = reply.code.clone();
    Ok(())
}

fn note_welcome(mut welcome: MessageReader<Welcome>, mut s: ResMut<OnlineSession>) {
    for w in welcome.read() {
        s.welcome = Some(w.clone());
    }
}

/// The server's per-tick facts, as the `RoomTick` messages local play's projection writes.
fn events_to_ticks(
    mut events: MessageReader<TickEvents>,
    rooms: Query<Entity, With<RoomView>>,
    mut ticks: MessageWriter<RoomTick>,
    mut s: ResMut<OnlineSession>,
) {
    let room = rooms.iter().next().unwrap_or(Entity::PLACEHOLDER);
    for e in events.read() {
        s.events_received += 1;
        ticks.write(RoomTick { room, tick: e.tick, events: e.events.clone() });
    }
}

/// Player 1's frames (seat 0 of the local lineup) go out once per room tick, stamped
/// `INPUT_LEAD` ticks ahead of the latest replicated clock, as the headless client does. The
/// server takes the seat from the connection; other local seats have no connection and are
/// dropped.
fn send_frames(
    mut outbox: ResMut<Outbox>,
    rooms: Query<(&RoomClock, &RoomView)>,
    mut s: ResMut<OnlineSession>,
    mut pace: ResMut<SendPace>,
    mut out: MessageWriter<InputBatch>,
) {
    for (seat, frame) in std::mem::take(&mut outbox.frames) {
        if seat == 0 {
            let held = s.pending.is_some_and(|(_, a)| a);
            s.pending = Some((frame.mv, frame.action || held));
        }
    }
    let Some((clock, view)) = rooms.iter().next() else {
        s.last_tick = None;
        return;
    };
    if s.last_tick == Some(clock.tick) || view.result.is_some() {
        return;
    }
    let Some((mv, action)) = s.pending.take() else { return };
    s.last_tick = Some(clock.tick);
    let seq = s.frames_sent as u32;
    s.frames_sent += 1;
    out.write(InputBatch {
        frames: vec![InputFrame { seq, tick: clock.tick + INPUT_LEAD, mv, action, face: None }],
    });
    pace.due = true;
}

/// Marks the seat ready whenever the lobby shows it is not (so rounds follow rounds).
fn auto_ready(
    lobbies: Query<&LobbyView>,
    mut s: ResMut<OnlineSession>,
    mut out: MessageWriter<LobbyCommand>,
) {
    let Some(seat) = s.welcome.as_ref().map(|w| w.seat) else { return };
    let Some(lobby) = lobbies.iter().next() else { return };
    if ready_due(lobby, seat, s.last_ready) {
        s.last_ready = Some(Instant::now());
        out.write(LobbyCommand::Ready(true));
    }
}

/// The lobby's phase drives the banner and the countdown beeps, as the local host's phase does.
fn follow_lobby(lobbies: Query<&LobbyView>, mut phase: ResMut<RoundPhase>) {
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

/// The lobby panel: room code, phase, seats and who is ready (bottom left).
#[derive(Component)]
struct LobbyText;

/// A link that opens this room, shown under the lobby panel (the browser client sets it).
#[derive(Resource, Clone, Debug)]
pub struct InviteLink(pub String);

/// The lobby panel (added by [`run`] and the browser client).
pub fn lobby_panel(app: &mut App) {
    app.add_systems(Startup, spawn_lobby_panel);
    app.add_systems(Update, update_lobby_panel.after(follow_lobby));
}

fn spawn_lobby_panel(mut commands: Commands) {
    commands.spawn((
        LobbyText,
        Text::new("connecting..."),
        super::hud::font(18.0),
        TextColor(Color::srgb(0.96, 0.95, 0.9)),
        BackgroundColor(Color::srgba(0.08, 0.09, 0.14, 0.88)),
        Node {
            position_type: PositionType::Absolute,
            bottom: px(8),
            left: px(8),
            padding: UiRect::all(px(8)),
            ..default()
        },
    ));
}

/// The panel's words for a lobby (`seat` is this client's).
pub fn lobby_lines(lobby: &LobbyView, seat: Option<u8>) -> String {
    let phase = match lobby.phase {
        LobbyPhase::Lobby => "lobby - waiting for everyone to be ready".to_string(),
        LobbyPhase::Countdown => format!("starting in {}", lobby.countdown.div_ceil(TICK_HZ)),
        LobbyPhase::Round => "round on".to_string(),
        LobbyPhase::Results => format!("results - lobby in {}", lobby.countdown.div_ceil(TICK_HZ)),
    };
    let mut text = format!("Room {} | {} | level {}", lobby.code, phase, lobby.level_id);
    if lobby.phase != LobbyPhase::Round {
        for s in &lobby.seats {
            let you = if Some(s.seat) == seat { " (you)" } else { "" };
            let state = match (s.connected, s.ready) {
                (false, _) => "away",
                (true, true) => "ready",
                (true, false) => "not ready",
            };
            text.push_str(&format!("\nP{} {}{you}: {state}", s.seat + 1, s.name));
        }
    }
    text
}

fn update_lobby_panel(
    lobbies: Query<&LobbyView>,
    s: Res<OnlineSession>,
    client: Option<Res<RenetClient>>,
    invite: Option<Res<InviteLink>>,
    mut panel: Query<&mut Text, With<LobbyText>>,
) {
    let Ok(mut t) = panel.single_mut() else { return };
    let mut text = match (client.as_deref(), lobbies.iter().next()) {
        (Some(c), _) if c.is_disconnected() => {
            format!("disconnected from room {} (close the window)", s.code)
        }
        (_, Some(lobby)) => lobby_lines(lobby, s.welcome.as_ref().map(|w| w.seat)),
        _ => format!("connecting to room {}...", s.code),
    };
    if let Some(link) = invite
        && lobbies.iter().next().is_none_or(|l| l.phase != LobbyPhase::Round)
    {
        text.push_str(&format!("\ninvite: {}", link.0));
    }
    if t.0 != text {
        t.0 = text;
    }
}

/// `undercooked join HOST:WEB_PORT (--room CODE | --create) --name NAME`: the game window on a
/// hosted room. Returns the exit code (1 when no seat or connection could be had).
#[cfg(not(target_arch = "wasm32"))]
pub fn run(web: &str, room: Option<&str>, name: &str, level: Option<&str>) -> ExitCode {
    let started = Instant::now();
    let reply = match request_seat(web, room, name, level) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    if room.is_none() {
        println!("room: {}", reply.code);
    }
    let args = PlayArgs::default();
    let mut app = App::new();
    app.add_plugins(super::window_plugins(&args));
    app.insert_resource(super::shot::StartedAt(started));
    app.insert_resource(Options(args));
    app.insert_state(AppState::Playing);
    super::presentation(&mut app);
    if let Err(e) = connect(&mut app, &reply) {
        eprintln!("error: connect: {e}");
        return ExitCode::from(1);
    }
    app.add_plugins(lobby_panel);
    eprintln!("joined room {} as {name}", reply.code);
    match app.run() {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(code) => ExitCode::from(code.get()),
    }
}
