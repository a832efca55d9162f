//! The online client: the game window connected to a hosted room (`undercooked join HOST:PORT
//! --room CODE` without `--headless`). It gets its connect token and its replicon/renet
//! connection from `net::client::api` and `net::client::headless` (shared with the headless client), and it never simulates:
//! no `SimPlugin`, no projection, no local host — the kitchen, HUD and audio read the views
//! the server replicates, exactly as they read the embedded server's views in local play.
//!
//! [`OnlinePlugin`] is the network half without any rendering (tests add it to a headless
//! app): local player 1's frames from the [`Outbox`] go out through the uplink like the
//! headless client's (`net::client::uplink`: clock sync, stamping, repeats), `TickEvents` become the
//! `RoomTick` messages the HUD, audio and save file read, the lobby's phase drives the
//! countdown banner ([`RoundPhase`]), and the seat is marked ready whenever the lobby shows it
//! is not. `join::run` adds the window, the presentation plugins and a small lobby panel.

#[cfg(not(target_arch = "wasm32"))]
pub mod join;
pub mod lobby_assist;
pub mod lobby_mode;

#[cfg(not(target_arch = "wasm32"))]
use super::args::PlayArgs;
use super::input::Lineup;
use super::input::{CookAction, LocalPlayer, Outbox, dash_from_action, frame_from_action};
use super::kitchen::interp::{PredictedCook, PredictedCooks, UTILE};
use super::local::RoundPhase;
use super::settings::config::Bindings;
use super::state::AppState;
#[cfg(not(target_arch = "wasm32"))]
use super::state::Online;
use crate::clock::TickClockPlugin;
#[cfg(not(target_arch = "wasm32"))]
use crate::net::client::api::{join_link, parse_join_link, request_seat};
#[cfg(not(target_arch = "wasm32"))]
use crate::net::client::headless::{Transport, add_connection, open_connection};
use crate::net::client::predict::{Predictor, reconcile_seen};
use crate::net::client::seen::SeenRound;
#[cfg(not(target_arch = "wasm32"))]
use crate::net::client::session::{ClientNetPlugin, JoinReply};
use crate::net::client::session::{SendPace, ready_due, take_welcome};
use crate::net::client::uplink::Uplink;
use crate::net::client::watching::{WATCHING, round_seats, watching_round};
#[cfg(not(target_arch = "wasm32"))]
use crate::net::server::worlds::{HostConfig, ServerHandle, spawn_server};
#[cfg(not(target_arch = "wasm32"))]
use crate::net::wire::error::NetError;
use crate::project::RoomTick;
use crate::protocol::tandem::{GameMode, TandemRoundInfo};
use crate::protocol::{
    CookView, InputAck, InputBatch, LobbyCommand, LobbyPhase, LobbyView, PackedInput, RoomView,
    TickEvents, Welcome,
};
use crate::schedule::FrameSystems;
#[cfg(not(target_arch = "wasm32"))]
use crate::sim::units::MAX_COOKS;
use crate::sim::units::TICK_HZ;
use bevy::platform::time::Instant;
use bevy::prelude::*;
#[cfg(not(target_arch = "wasm32"))]
use bevy_replicon::client::Remote;
use bevy_replicon_renet::RenetClient;
#[cfg(not(target_arch = "wasm32"))]
use bevy_replicon_renet::netcode::NetcodeClientTransport;
use leafwing_input_manager::prelude::ActionState;
#[cfg(not(target_arch = "wasm32"))]
use std::net::{IpAddr, SocketAddr, UdpSocket};
#[cfg(not(target_arch = "wasm32"))]
use std::path::{Path, PathBuf};
#[cfg(not(target_arch = "wasm32"))]
use std::sync::Mutex;
#[cfg(not(target_arch = "wasm32"))]
use std::sync::mpsc::Receiver;

/// The seats this window holds (one per local player), and what it has sent.
#[derive(Resource, Debug, Default)]
pub struct OnlineSession {
    /// The room code the web port answered.
    pub code: String,
    /// From the server's `Welcome` (the seats the server gives this connection's slots).
    pub welcome: Option<Welcome>,
    /// Frames sent, every local player's together.
    pub frames_sent: u64,
    /// One per local player, by slot (from the welcome): its link and its predicted cook.
    pub players: Vec<OnlinePlayer>,
    /// The round the uplinks stamp for (the client's room entity).
    round: Option<Entity>,
    pub events_received: u64,
    last_ready: Option<Instant>,
    /// The start of the uplinks' clock.
    epoch: Option<Instant>,
}

/// One local player's seat online: its frames' link and its cook's prediction.
#[derive(Debug)]
pub struct OnlinePlayer {
    pub seat: u8,
    /// The input link: clock sync, stamping, repeats, and what the F3 overlay shows of it.
    pub uplink: Uplink,
    /// This seat's cook, predicted.
    pub predictor: Predictor,
    /// The latest stick and button of the local player, as its devices or the outbox said.
    controls: ((i16, i16), bool),
    /// The button went down since the last sent frame (a tap between two sends is kept).
    tapped: bool,
    /// The second button (dash / throw): its level, and a tap since the last sent frame.
    dash: bool,
    dash_tapped: bool,
    /// Where the predicted cook was drawn last frame (tiles).
    drawn: Option<(f64, f64)>,
}

impl OnlinePlayer {
    fn new(slot: u8, seat: u8) -> OnlinePlayer {
        OnlinePlayer {
            seat,
            uplink: Uplink::for_slot(slot),
            predictor: Predictor::new(seat),
            controls: ((0, 0), false),
            tapped: false,
            dash: false,
            dash_tapped: false,
            drawn: None,
        }
    }
}

impl OnlineSession {
    /// The uplinks' clock: time since the session first sent (zero before).
    pub fn clock_now(&self) -> std::time::Duration {
        self.epoch.map_or(std::time::Duration::ZERO, |e| e.elapsed())
    }

    /// Local player 1's link (what the F3 overlay shows: every slot shares the connection).
    pub fn uplink(&self) -> Option<&Uplink> {
        self.players.first().map(|p| &p.uplink)
    }

    /// The seats held, by slot.
    pub fn seats(&self) -> Vec<u8> {
        self.welcome.as_ref().map_or_else(Vec::new, |w| w.seats.clone())
    }
}

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
/// menu's Host or Join says so ([`WindowedOnlinePlugin`]).
struct OnlineSystemsPlugin;

impl Plugin for OnlineSystemsPlugin {
    fn build(&self, app: &mut App) {
        app.add_message::<RoomTick>();
        app.init_resource::<Outbox>().init_resource::<OnlineSession>();
        app.add_systems(
            Update,
            (
                note_welcome,
                events_to_ticks,
                send_frames,
                // Ready only once in the kitchen: a host waits on the Host screen for friends.
                auto_ready.run_if(|s: Option<Res<State<AppState>>>| {
                    s.is_none_or(|s| *s.get() == AppState::Playing)
                }),
                follow_lobby,
            )
                .chain()
                .run_if(resource_exists::<RenetClient>),
        );
        app.add_systems(
            Update,
            draw_predicted_cook
                .after(send_frames)
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
    add_connection(app, reply, &crate::net::client::headless::Transport::Udp)?;
    app.add_plugins(OnlinePlugin);
    app.world_mut().resource_mut::<OnlineSession>().code = reply.code.clone();
    Ok(())
}

fn note_welcome(mut welcome: MessageReader<Welcome>, mut s: ResMut<OnlineSession>) {
    let s = &mut *s;
    if let Some(w) = take_welcome(&mut welcome, &mut s.welcome) {
        s.players = w
            .seats
            .iter()
            .enumerate()
            .map(|(slot, seat)| OnlinePlayer::new(slot as u8, *seat))
            .collect();
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

/// Each local player's frames go out through its own uplink (local player `n` plays slot `n`,
/// the connection's `Welcome.seats[n]`): each stamped for the tick at which it will reach the
/// server, every unacknowledged one repeated (`net::client::uplink`), and a change of controls at once
/// (sampled every display frame, not every tick). Each frame sent is predicted on that
/// player's cook at once (`net::client::predict`); each new authoritative tick rebuilds the
/// predictions. Local players beyond the seats held have no cook and send nothing.
fn send_frames(
    mut outbox: ResMut<Outbox>,
    devices: Query<(&LocalPlayer, &ActionState<CookAction>)>,
    seen: SeenRound,
    mut acks: MessageReader<InputAck>,
    mut s: ResMut<OnlineSession>,
    mut pace: ResMut<SendPace>,
    mut out: MessageWriter<InputBatch>,
) {
    s.epoch.get_or_insert_with(Instant::now);
    let now = s.clock_now();
    // The autopilot fills the outbox each tick; a player's devices are read every frame.
    for (slot, frame) in std::mem::take(&mut outbox.frames) {
        if let Some(p) = s.players.get_mut(slot as usize) {
            p.controls = (frame.mv, frame.action);
            p.tapped |= frame.action;
            p.dash = frame.dash;
            p.dash_tapped |= frame.dash;
        }
    }
    for (local, state) in &devices {
        if let Some(p) = s.players.get_mut(local.seat as usize) {
            p.controls = frame_from_action(state);
            p.tapped |= p.controls.1;
            p.dash = dash_from_action(state);
            p.dash_tapped |= p.dash;
        }
    }
    let acks: Vec<InputAck> = acks.read().copied().collect();
    let Some((room, clock, view, _)) = seen.rooms.iter().next() else { return };
    if s.round != Some(room) {
        s.round = Some(room);
        for p in &mut s.players {
            p.uplink.reset_round();
        }
    }
    let mut sent = 0;
    for p in &mut s.players {
        if p.uplink.follow(now, &acks, clock.tick) {
            reconcile_seen(&mut p.predictor, &p.uplink, &seen);
        }
        if view.result.is_some() {
            continue;
        }
        let ((mv, held), tapped) = (p.controls, p.tapped);
        let dash = p.dash || p.dash_tapped;
        let controls = PackedInput { mv, action: held || tapped, face: None, dash };
        let changed = p.uplink.last_sent_controls().is_some_and(|c| c != controls);
        let batch = if changed {
            p.uplink.send_now(now, |_| controls)
        } else {
            p.uplink.send_due(now, |_| controls)
        };
        if let Some(batch) = batch {
            p.tapped = false;
            p.dash_tapped = false;
            p.predictor.catch_up(&p.uplink);
            out.write(batch);
            pace.due = true;
        }
        sent += p.uplink.stats.frames_sent;
    }
    s.frames_sent = sent;
}

/// Your own cooks are drawn where the prediction has them (the fading correction included),
/// each followed with a short smoothing so that the 20 Hz steps of the prediction glide; the
/// other cooks stay where the interpolation of the views put them.
fn draw_predicted_cook(
    time: Res<Time<Real>>,
    mut s: ResMut<OnlineSession>,
    mut commands: Commands,
) {
    let now = s.clock_now();
    let dt = time.delta_secs_f64();
    // Most of the way in one 60 Hz frame (a press shows at once), all of it within a tick.
    let keep = (-dt / DRAW_SMOOTHING).exp();
    let mut cooks = Vec::new();
    for p in &mut s.players {
        let Some(target) = p.predictor.drawn(now) else {
            p.drawn = None;
            continue;
        };
        let target = (target.0 / UTILE as f64, target.1 / UTILE as f64);
        let drawn = match p.drawn {
            Some(d) => (target.0 + (d.0 - target.0) * keep, target.1 + (d.1 - target.1) * keep),
            None => target,
        };
        p.drawn = Some(drawn);
        cooks.push(PredictedCook { seat: p.seat, at: Vec2::new(drawn.0 as f32, drawn.1 as f32) });
    }
    if cooks.is_empty() {
        commands.remove_resource::<PredictedCooks>();
    } else {
        commands.insert_resource(PredictedCooks(cooks));
    }
}

/// The time constant of the drawn cook's glide toward its prediction (s).
const DRAW_SMOOTHING: f64 = 0.012;

/// Marks the seat ready whenever the lobby shows it is not (so rounds follow rounds).
fn auto_ready(
    lobbies: Query<&LobbyView>,
    mut s: ResMut<OnlineSession>,
    mut out: MessageWriter<LobbyCommand>,
) {
    let seats = s.seats();
    let Some(lobby) = lobbies.iter().next() else { return };
    if !seats.is_empty() && ready_due(lobby, &seats, s.last_ready) {
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

/// The panel in the kitchen while connected (the windowed client and the browser client).
pub struct LobbyPanelPlugin;

impl Plugin for LobbyPanelPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            OnEnter(AppState::Playing),
            spawn_lobby_panel.run_if(resource_exists::<RenetClient>),
        );
        app.add_systems(Update, update_lobby_panel.after(follow_lobby));
    }
}

fn spawn_lobby_panel(mut commands: Commands) {
    commands.spawn((
        LobbyText,
        DespawnOnExit(AppState::Playing),
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

/// The panel's words for a lobby (`seats` are this window's; `in_round`, the seats playing the
/// live round: a window with none of them watches, and is told so).
pub fn lobby_lines(lobby: &LobbyView, seats: &[u8], in_round: &[u8]) -> String {
    let phase = match lobby.phase {
        _ if watching_round(lobby, seats, in_round) => format!("round on\n{WATCHING}"),
        LobbyPhase::Lobby => "lobby - waiting for everyone to be ready".to_string(),
        LobbyPhase::Countdown => format!("starting in {}", lobby.countdown.div_ceil(TICK_HZ)),
        LobbyPhase::Round => "round on".to_string(),
        LobbyPhase::Results => format!("results - lobby in {}", lobby.countdown.div_ceil(TICK_HZ)),
    };
    let level = match lobby.mode {
        GameMode::Cooking => format!("level {}", lobby.level_id),
        GameMode::Tandem => format!("mode {} (seats P1 fore, P2 aft)", lobby.mode.label()),
    };
    let mut text = format!("Room {} | {} | {level}", lobby.code, phase);
    if lobby.assist.is_on() {
        text.push_str(&format!(" | ASSIST: {}", lobby.assist.summary()));
    }
    if lobby.phase != LobbyPhase::Round && seats.contains(&0) {
        text.push_str(
            "
You host: F6 order timers, F7 round time (assist mode), F8 cooking / tandem",
        );
    }
    if lobby.phase != LobbyPhase::Round {
        for s in &lobby.seats {
            let you = if seats.contains(&s.seat) { " (you)" } else { "" };
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
    #[cfg(not(target_arch = "wasm32"))] from_menu: Option<Res<Online>>,
    #[cfg(not(target_arch = "wasm32"))] hosting: Option<Res<Hosting>>,
    invite: Option<Res<InviteLink>>,
    mut panel: Query<&mut Text, With<LobbyText>>,
    (cooks, tandem): (Query<&CookView>, Query<&TandemRoundInfo>),
) {
    let Ok(mut t) = panel.single_mut() else { return };
    #[cfg(not(target_arch = "wasm32"))]
    let leave = if from_menu.is_some() { "M for the menu" } else { "close the window" };
    #[cfg(target_arch = "wasm32")]
    let leave = "reload the page";
    let mut text = match (client.as_deref(), lobbies.iter().next()) {
        (Some(c), _) if c.is_disconnected() => {
            format!("disconnected from room {} ({leave})", s.code)
        }
        (_, Some(lobby)) => {
            let in_round = round_seats(cooks.iter().map(|c| c.seat), tandem.iter());
            lobby_lines(lobby, &s.seats(), &in_round)
        }
        _ => format!("connecting to room {}...", s.code),
    };
    #[cfg(not(target_arch = "wasm32"))]
    if let Some(h) = hosting {
        text = format!("Hosting on your network: {} room {}\n{text}", h.web, h.code);
    }
    if let Some(link) = invite
        && lobbies.iter().next().is_none_or(|l| l.phase != LobbyPhase::Round)
    {
        text.push_str(&format!("\ninvite: {}", link.0));
    }
    if t.0 != text {
        t.0 = text;
    }
}

// ---- Host and Join from the game window's menu ----

/// A LAN game this window hosts: the embedded server (a hosted server on its own thread in this
/// process, `net::server::worlds::spawn_server`) and where friends reach it.
#[cfg(not(target_arch = "wasm32"))]
#[derive(Resource)]
pub struct Hosting {
    pub server: ServerHandle,
    /// The web address friends join at (HOST:WEB_PORT, the LAN address when one is found).
    pub web: SocketAddr,
    pub code: String,
}

#[cfg(not(target_arch = "wasm32"))]
impl Hosting {
    /// The link a friend can paste into Join (the browser's room link too).
    pub fn link(&self) -> String {
        join_link(&self.web.to_string(), &self.code)
    }
}

/// What the Join screen's fields mean: a join link in the address field carries its own room
/// code; otherwise the address and the code as typed. Refused with the reason in words.
#[cfg(not(target_arch = "wasm32"))]
pub fn join_target(address: &str, code: &str) -> Result<(String, String), String> {
    if let Some(target) = parse_join_link(address) {
        return Ok(target);
    }
    let address = address.trim();
    let code = code.trim().to_uppercase();
    if address.is_empty() {
        return Err("type the host's address (HOST:PORT) or paste a join link".into());
    }
    if !address.contains(':') {
        return Err(format!("`{address}` has no port: the host's screen shows HOST:PORT"));
    }
    if code.is_empty() {
        return Err("type the room code the host's screen shows".into());
    }
    Ok((address.to_string(), code))
}

/// This machine's address on the local network: the source address of a route to a public
/// address (a UDP `connect` sends nothing), or `None` offline.
#[cfg(not(target_arch = "wasm32"))]
pub fn lan_ip() -> Option<IpAddr> {
    let socket = UdpSocket::bind(("0.0.0.0", 0)).ok()?;
    socket.connect(("192.0.2.1", 9)).ok()?;
    let ip = socket.local_addr().ok()?.ip();
    (!ip.is_unspecified() && !ip.is_loopback()).then_some(ip)
}

/// `preferred` when it is free, else a free port from the OS (0 when even that fails).
#[cfg(not(target_arch = "wasm32"))]
fn free_port(preferred: u16, udp: bool) -> u16 {
    let probe = |port: u16| -> Option<u16> {
        if udp {
            UdpSocket::bind(("0.0.0.0", port)).ok()?.local_addr().ok().map(|a| a.port())
        } else {
            std::net::TcpListener::bind(("0.0.0.0", port)).ok()?.local_addr().ok().map(|a| a.port())
        }
    };
    probe(preferred).or_else(|| probe(0)).unwrap_or(0)
}

/// Opens a hosted server to the LAN on this machine (UDP 7777 and web 7780 when free) and
/// creates a room in it with this window's player seated: the server, the seat, and the
/// web address friends join at. Connect tokens name the LAN address first, then loopback.
#[cfg(not(target_arch = "wasm32"))]
pub fn host_lan(
    levels: &Path,
    level: Option<&str>,
    name: &str,
    players: u8,
    data_dir: PathBuf,
) -> Result<(Hosting, JoinReply), NetError> {
    let udp = free_port(7777, true);
    let web_port = free_port(7780, false);
    let lan = lan_ip();
    let mut public: Vec<SocketAddr> = lan.map(|ip| SocketAddr::new(ip, udp)).into_iter().collect();
    public.push(SocketAddr::from(([127, 0, 0, 1], udp)));
    let server = spawn_server(HostConfig {
        bind: IpAddr::from([0, 0, 0, 0]),
        port: udp,
        web_port,
        levels: levels.to_path_buf(),
        data_dir,
        max_rooms: 4,
        public,
        empty_timeout: std::time::Duration::from_secs(120),
        bots_fill: None,
        shards: 1,
        web: Default::default(),
    })?;
    let web = SocketAddr::new(lan.unwrap_or(IpAddr::from([127, 0, 0, 1])), server.addrs.web.port());
    let local_web = SocketAddr::from(([127, 0, 0, 1], server.addrs.web.port()));
    match request_seat(&local_web.to_string(), None, name, level, players) {
        Ok(reply) => Ok((Hosting { server, web, code: reply.code.clone() }, reply)),
        Err(e) => {
            server.stop();
            Err(e)
        }
    }
}

/// How many seats this window asks a room for: every cook who joined on the title (the
/// lineup), at least `--players`, 1 to [`MAX_COOKS`].
#[cfg(not(target_arch = "wasm32"))]
pub fn local_players(args: &PlayArgs, lineup: &Lineup) -> u8 {
    (lineup.0.len() as u8).max(args.players).clamp(1, MAX_COOKS as u8)
}

/// Where a hosted game keeps its results and server key: beside the save file.
#[cfg(not(target_arch = "wasm32"))]
pub fn host_data_dir() -> PathBuf {
    super::save::save_path()
        .and_then(|p| p.parent().map(|d| d.join("host")))
        .unwrap_or_else(|| std::env::temp_dir().join("undercooked-host"))
}

/// Connects the window (built with [`WindowedOnlinePlugin`]) to the room of `reply`: local
/// hosting stands down ([`Online`]) and the views come from the server.
#[cfg(not(target_arch = "wasm32"))]
pub fn go_online(world: &mut World, reply: &JoinReply) -> Result<(), NetError> {
    open_connection(world, reply, &Transport::Udp)?;
    world.insert_resource(OnlineSession { code: reply.code.clone(), ..default() });
    world.insert_resource(Online);
    world.insert_resource(RoundPhase::Live);
    Ok(())
}

/// Disconnects, forgets the server's entities, stops hosting, and gives the window back to
/// local play.
#[cfg(not(target_arch = "wasm32"))]
pub fn leave_online(world: &mut World) {
    if let Some(mut transport) = world.remove_resource::<NetcodeClientTransport>() {
        transport.disconnect();
    }
    world.remove_resource::<RenetClient>();
    let remote: Vec<Entity> = world.query_filtered::<Entity, With<Remote>>().iter(world).collect();
    for e in remote {
        if let Ok(entity) = world.get_entity_mut(e) {
            entity.despawn();
        }
    }
    world.remove_resource::<Online>();
    world.remove_resource::<PredictedCooks>();
    world.insert_resource(OnlineSession::default());
    world.insert_resource(RoundPhase::Live);
    if let Some(hosting) = world.remove_resource::<Hosting>() {
        hosting.server.stop();
    }
}

/// A join in flight: the web port's answer arrives on another thread (a wrong address must not
/// freeze the window for the request's timeout).
#[cfg(not(target_arch = "wasm32"))]
#[derive(Resource)]
pub struct PendingJoin(pub Mutex<Receiver<Result<JoinReply, NetError>>>);

/// Ask `web` for `players` seats in room `code` on a thread; poll the answer with
/// [`PendingJoin`].
#[cfg(not(target_arch = "wasm32"))]
pub fn start_join(web: String, code: String, name: String, players: u8) -> PendingJoin {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(request_seat(&web, Some(&code), &name, None, players));
    });
    PendingJoin(Mutex::new(rx))
}

/// The game window's networking: the client plugins (inert until a Host or Join connects),
/// the online systems, the lobby panel, and M to leave a room for the menu.
#[cfg(not(target_arch = "wasm32"))]
pub struct WindowedOnlinePlugin;

#[cfg(not(target_arch = "wasm32"))]
impl Plugin for WindowedOnlinePlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins((ClientNetPlugin, OnlineSystemsPlugin));
        app.add_plugins(LobbyPanelPlugin);
        app.add_systems(
            Update,
            leave_on_m.run_if(resource_exists::<Online>.and_then(in_state(AppState::Playing))),
        );
        app.add_systems(Last, stop_hosting_on_exit);
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn leave_on_m(world: &mut World) {
    if world.resource::<ButtonInput<KeyCode>>().just_pressed(KeyCode::KeyM) {
        leave_online(world);
        world.resource_mut::<NextState<AppState>>().set(AppState::Menu);
    }
}

/// Closing the window while hosting ends the hosted rounds cleanly (as SIGTERM would).
#[cfg(not(target_arch = "wasm32"))]
fn stop_hosting_on_exit(world: &mut World) {
    let exiting =
        world.resource::<Messages<AppExit>>().iter_current_update_messages().next().is_some();
    if exiting && world.contains_resource::<Hosting>() {
        leave_online(world);
    }
}
