//! The headless network client: a connection opened with a connect token (UDP, or the web
//! port's WebSocket relay), marking itself ready, sending one input frame per tick through the
//! uplink (clock sync, stamping, repeats: `net::client::uplink`), predicting its cook, and measuring
//! what it gets back. It is `undercooked join … --headless`, the load generator's connection
//! and the tests' client; the game window shares its connection opening.

use crate::bot::remote::{RemoteBot, SharedClaims};
use crate::net::client::predict::{Predictor, reconcile_seen};
use crate::net::client::seen::{SeenRound, with_views};
use crate::net::client::session::{
    ClientNetPlugin, JoinReply, SendPace, SendPacingPlugin, insert_client, ready_due, take_welcome,
};
use crate::net::client::tandem_seat::{SeatDriver, TandemSeat, play_tandem_seat};
use crate::net::client::tandem_watch::TandemWatch;
use crate::net::client::uplink::Uplink;
use crate::net::client::watching::{WATCHING, round_seats, watching_round};
use crate::net::wire::error::NetError;
use crate::net::wire::tokens::read_token;
use crate::protocol::tandem::{TandemLive, TandemOrder, TandemRoundInfo};
use crate::protocol::{
    CookMotion, CookView, GridView, InputAck, InputBatch, LobbyCommand, LobbyPhase, LobbyView,
    PackedInput, RoomClock, RoomView, TickEvents, Welcome,
};
use crate::sim::events::SimEvent;
use crate::sim::input::InputFrame;
use crate::tandem::view::TandemView;
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy_replicon_renet::RenetClient;
use bevy_replicon_renet::netcode::{ClientAuthentication, NetcodeClientTransport};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::net::UdpSocket;
use std::time::{Duration, Instant};

/// Makes `app` a network client seated by `reply`: replicon, renet, the protocol, a netcode
/// transport (UDP, or the web port's WebSocket relay) carrying the reply's connect token, and the
/// send pacing ([`SendPace`]). Shared by
/// the headless client and the windowed online client (`client::online`).
pub fn add_connection(
    app: &mut App,
    reply: &JoinReply,
    transport: &Transport,
) -> Result<(), NetError> {
    app.add_plugins(ClientNetPlugin);
    app.add_plugins(crate::net::client::ws::WsClientPlugin);
    open_connection(app.world_mut(), reply, transport)
}

/// Connects a world that has [`ClientNetPlugin`] (and, for the relay, `ws::WsClientPlugin`):
/// the renet client and the netcode transport carrying `reply`'s connect token. Separate from
/// [`add_connection`] so the game window adds the plugins at start and connects when the
/// menu's Host or Join says so.
pub fn open_connection(
    world: &mut World,
    reply: &JoinReply,
    transport: &Transport,
) -> Result<(), NetError> {
    open_probed_connection(world, reply, transport).map(drop)
}

/// [`open_connection`], also answering a second handle on the UDP socket (none for the relay):
/// the load generator polls it to step a connection only when a packet is waiting.
fn open_probed_connection(
    world: &mut World,
    reply: &JoinReply,
    transport: &Transport,
) -> Result<Option<UdpSocket>, NetError> {
    let token = read_token(&reply.token)?;
    match transport {
        Transport::Udp => {
            let socket = UdpSocket::bind(("0.0.0.0", 0))?;
            let probe = socket.try_clone()?;
            let transport = NetcodeClientTransport::new(
                crate::net::wire::tokens::unix_now(),
                ClientAuthentication::Secure { connect_token: token },
                socket,
            )
            .map_err(|e| NetError::BadToken(e.to_string()))?;
            insert_client(world, transport);
            Ok(Some(probe))
        }
        Transport::WebSocket { web, origin } => {
            let transport =
                crate::net::client::ws::WsClientTransport::connect(web, origin.as_deref(), token)?;
            insert_client(world, transport);
            Ok(None)
        }
    }
}

/// How a client's netcode packets travel.
#[derive(Clone, Debug)]
pub enum Transport {
    /// Straight to the server's UDP port (the token's address).
    Udp,
    /// Through the web port's WebSocket relay at `web` (HOST:WEB_PORT), as a browser does;
    /// `origin` is sent as the `Origin` header when given.
    WebSocket { web: String, origin: Option<String> },
}

/// What the client sends each tick.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum InputMode {
    /// A wandering stick and an occasional press.
    Random,
    /// Neutral frames (still sent, so the link is measured).
    Idle,
    /// Nothing sent (tests drive inputs by hand).
    Manual,
    /// The planner bot plays the seat from the replicated views (src/bot/remote.rs): a load
    /// that behaves like players.
    Bot,
}

/// The client's view of its own session and its measurements.
#[derive(Resource, Debug)]
pub struct ClientSession {
    pub mode: InputMode,
    pub welcome: Option<Welcome>,
    /// The latest room tick seen (the next tick the server simulates).
    pub tick: Option<u32>,
    pub ticks_received: u64,
    pub events_received: u64,
    pub frames_sent: u64,
    /// The input link: clock sync, stamping, repeats, and its measurements.
    pub uplink: Uplink,
    /// The start of the uplink's clock.
    epoch: Instant,
    down: Vec<f64>,
    up: Vec<f64>,
    rng: u64,
    stick: (i16, i16),
    last_ready: Option<Instant>,
    /// The client entity of the round the uplink is stamping for.
    round: Option<Entity>,
    /// This seat's cook, predicted from the frames the server has not simulated yet (once
    /// seated, when this client sends frames).
    pub predictor: Option<Predictor>,
    /// When the first frame of a live round went out (corrections per second are per second
    /// of play).
    playing_since: Option<Duration>,
    /// Every cook seen, by seat: how far it got from where it was first seen.
    pub cooks_seen: BTreeMap<u8, CookTrack>,
    /// The Tandem rounds seen: the couch's way, and each seat's orders as the server ran them.
    pub tandem_seen: TandemWatch,
    /// Rounds this connection watched, having joined after they began (`net::client::watching`).
    pub rounds_watched: u32,
}

/// Where a cook was first seen and the farthest it has been from there (µtiles, Manhattan):
/// what `--stats` shows an observer of other players' cooks (web/e2e.sh watches a browser's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CookTrack {
    pub name: String,
    pub first: (i32, i32),
    pub farthest: u32,
}

impl ClientSession {
    fn next(&mut self) -> u64 {
        // xorshift64*: a load generator needs variety, not quality.
        self.rng ^= self.rng >> 12;
        self.rng ^= self.rng << 25;
        self.rng ^= self.rng >> 27;
        self.rng.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn frame(&mut self, tick: u32) -> PackedInput {
        if self.mode == InputMode::Idle {
            return PackedInput::default();
        }
        if tick.is_multiple_of(10) {
            let r = self.next();
            let axis = |v: u64| ((v % 3) as i16 - 1) * 1000;
            self.stick = (axis(r), axis(r >> 8));
        }
        let action = self.next().is_multiple_of(8);
        PackedInput { mv: self.stick, action, face: None, dash: false }
    }

    /// What the prediction measured: corrections per second of play and their size, and how
    /// far the predicted cook was from the authoritative one at each authoritative tick.
    fn prediction_stats(&self) -> Value {
        let Some(p) = self.predictor.as_ref() else { return Value::Null };
        let played = self.playing_since.map_or(0.0, |t| (self.clock_now() - t).as_secs_f64());
        let c = &p.stats.corrections;
        let round3 = |v: f64| (v * 1000.0).round() / 1000.0;
        json!({
            "reconciles": p.stats.reconciles,
            "corrections": p.stats.corrected,
            "corrections_per_s": if played > 0.0 { round3(p.stats.corrected as f64 / played) } else { 0.0 },
            "correction_mean_tiles": round3(c.iter().sum::<f64>() / c.len().max(1) as f64),
            "correction_max_tiles": round3(c.iter().copied().fold(0.0, f64::max)),
            "error_max_tiles": round3(p.stats.errors.iter().copied().fold(0.0, f64::max)),
            "errors_checked": p.stats.errors.len(),
            "checks_spoilt": p.stats.spoilt,
        })
    }

    /// The uplink's clock: time since this session started.
    pub fn clock_now(&self) -> Duration {
        self.epoch.elapsed()
    }

    fn mean(v: &[f64]) -> f64 {
        if v.is_empty() { 0.0 } else { v.iter().sum::<f64>() / v.len() as f64 }
    }

    /// The `--stats` object of one connection.
    pub fn stats(&self) -> Value {
        json!({
            "ticks_received": self.ticks_received,
            "events_received": self.events_received,
            "frames_sent": self.frames_sent,
            "down_bytes_per_s": Self::mean(&self.down).round(),
            "up_bytes_per_s": Self::mean(&self.up).round(),
            "rtt_ms": self.uplink.stats.rtt_ms.map(f64::round),
            "jitter_ms": self.uplink.stats.jitter_ms.round(),
            "input_delay_ticks": (self.uplink.input_delay_ticks(self.clock_now()) * 10.0).round() / 10.0,
            "late": self.uplink.stats.late,
            "press_to_applied_ms_p50": percentile(&self.uplink.stats.press_to_applied_ms, 50),
            "press_to_applied_ms_p99": percentile(&self.uplink.stats.press_to_applied_ms, 99),
            "prediction": self.prediction_stats(),
            "cooks": self.cooks_seen.iter().map(|(seat, c)| json!({
                "seat": seat,
                "name": c.name,
                "first": [c.first.0, c.first.1],
                "farthest_utiles": c.farthest,
            })).collect::<Vec<Value>>(),
            "tandem": self.tandem_seen.stats(),
            "rounds_watched": self.rounds_watched,
        })
    }
}

/// The plugins of one headless connection: what a client needs and nothing a load generator
/// would pay for hundreds of times over on every step.
///
/// `MinimalPlugins` less the frame counter and the runner (the owner steps the app); replicon
/// and renet without their server halves, whose systems (gated on a server that never runs
/// here) were still evaluated every step; and no fixed timestep, since nothing of a client runs
/// in `FixedUpdate` while `FixedMain`'s five empty schedules ran on every tick-sized step.
struct HeadlessClientPlugin;

impl Plugin for HeadlessClientPlugin {
    fn build(&self, app: &mut App) {
        use bevy::time::TimePlugin;
        use bevy_replicon::prelude::{RepliconPlugins, ServerMessagePlugin, ServerPlugin};
        use bevy_replicon_renet::{RepliconRenetPlugins, RepliconRenetServerPlugin};
        app.add_plugins((TaskPoolPlugin::default(), TimePlugin, StatesPlugin));
        app.insert_resource(Time::<Fixed>::from_duration(Duration::from_secs(24 * 3600)));
        app.add_plugins((
            RepliconPlugins.build().disable::<ServerPlugin>().disable::<ServerMessagePlugin>(),
            RepliconRenetPlugins.build().disable::<RepliconRenetServerPlugin>(),
            crate::protocol::ProtocolPlugin,
        ));
        app.add_plugins(SendPacingPlugin);
        step_only_what_a_client_uses(app);
    }
}

/// Runs the state machinery only on steps that queued a state change.
#[derive(bevy::ecs::schedule::ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
struct QueuedTransitions;

/// Trims the main schedule of a headless connection: no `RunFixedMainLoop` (no fixed
/// timestep here), and `StateTransition` (26 systems, every step) only when replicon's backend
/// queued a client or server state change (connecting, disconnecting), which is rare.
fn step_only_what_a_client_uses(app: &mut App) {
    use bevy::app::MainScheduleOrder;
    use bevy::ecs::schedule::ScheduleLabel;
    use bevy::state::state::StateTransition;
    app.init_schedule(QueuedTransitions);
    app.add_systems(QueuedTransitions, run_queued_transitions);
    let mut order = app.world_mut().resource_mut::<MainScheduleOrder>();
    order.labels.retain(|l| *l != RunFixedMainLoop.intern());
    for label in &mut order.labels {
        if *label == StateTransition.intern() {
            *label = QueuedTransitions.intern();
        }
    }
}

fn run_queued_transitions(world: &mut World) {
    use bevy::state::state::{FreelyMutableState, StateTransition};
    use bevy_replicon::prelude::{ClientState, ServerState};
    fn queued<S: FreelyMutableState>(world: &World) -> bool {
        world.get_resource::<NextState<S>>().is_some_and(|n| !matches!(n, NextState::Unchanged))
    }
    if queued::<ClientState>(world) || queued::<ServerState>(world) {
        world.run_schedule(StateTransition);
    }
}

/// One connection, as an app stepped by its owner.
pub struct HeadlessClient {
    pub app: App,
    /// The connection's UDP socket (a second handle), polled for waiting packets; `None` over
    /// the relay, whose connections are stepped on a timer.
    probe: Option<UdpSocket>,
}

impl HeadlessClient {
    /// Connects with the token of `reply`, over UDP.
    pub fn connect(reply: &JoinReply, mode: InputMode) -> Result<HeadlessClient, NetError> {
        Self::connect_via(reply, mode, &Transport::Udp)
    }

    /// Connects with the token of `reply` over `transport`: the same app either way, only the
    /// resource that carries netcode's packets differs.
    pub fn connect_via(
        reply: &JoinReply,
        mode: InputMode,
        transport: &Transport,
    ) -> Result<HeadlessClient, NetError> {
        let mut app = App::new();
        app.add_plugins(HeadlessClientPlugin);
        app.add_plugins(crate::net::client::ws::WsClientPlugin);
        let probe = open_probed_connection(app.world_mut(), reply, transport)?;
        app.add_systems(
            Update,
            (
                note_welcome,
                follow_room,
                auto_ready,
                sample_bandwidth,
                track_cooks,
                track_tandem,
                tell_watching,
            ),
        );
        // In a Tandem round the same `--inputs` drive this seat's handle (src/net/client/tandem_seat.rs).
        let driver = match mode {
            InputMode::Bot => SeatDriver::Porter,
            InputMode::Random => SeatDriver::Random,
            InputMode::Idle => SeatDriver::Hold,
            InputMode::Manual => SeatDriver::Manual,
        };
        app.insert_resource(TandemSeat::new(driver, reply.seats.first().copied()));
        app.add_systems(Update, play_tandem_seat);
        // The bot learns how far ahead its frames are stamped from each frame's tick.
        let bot = (mode == InputMode::Bot).then(|| RemoteBot::new(reply.seats[0], 2));
        app.insert_resource(BotSeat { bot, events: Vec::new() });
        let seed = u64::from_le_bytes(bevy_replicon_renet::netcode::generate_random_bytes()) | 1;
        app.insert_resource(ClientSession {
            mode,
            welcome: None,
            tick: None,
            ticks_received: 0,
            events_received: 0,
            frames_sent: 0,
            uplink: Uplink::new(),
            epoch: Instant::now(),
            round: None,
            predictor: None,
            playing_since: None,
            down: Vec::new(),
            up: Vec::new(),
            rng: seed,
            stick: (0, 0),
            last_ready: None,
            cooks_seen: BTreeMap::new(),
            tandem_seen: TandemWatch::default(),
            rounds_watched: 0,
        });
        app.finish();
        app.cleanup();
        // One connection's systems are a short chain of cheap bookkeeping: the multi-threaded
        // executor's wake-ups per system were ~90 % of a load generator's CPU (perf, 4
        // connections), so every schedule runs on the stepping thread.
        crate::clock::run_schedules_single_threaded(&mut app);
        Ok(HeadlessClient { app, probe })
    }

    /// The connection's UDP socket (a second handle) to poll for waiting packets; `None` over
    /// the relay.
    pub fn probe(&self) -> Option<&UdpSocket> {
        self.probe.as_ref()
    }

    /// One frame of the client (real time).
    pub fn step(&mut self) {
        self.app.update();
    }

    pub fn session(&self) -> &ClientSession {
        self.app.world().resource::<ClientSession>()
    }

    pub fn connected(&self) -> bool {
        self.app.world().get_resource::<RenetClient>().is_some_and(|c| c.is_connected())
    }

    /// The cooks this client sees (only its room's), with where they are, in seat order.
    pub fn cooks(&mut self) -> Vec<(CookView, CookMotion)> {
        let mut q = self.app.world_mut().query::<(&CookView, &CookMotion)>();
        let mut v: Vec<(CookView, CookMotion)> =
            q.iter(self.app.world()).map(|(c, m)| (c.clone(), *m)).collect();
        v.sort_by_key(|(c, _)| c.seat);
        v
    }

    pub fn lobbies(&mut self) -> Vec<LobbyView> {
        let mut q = self.app.world_mut().query::<&LobbyView>();
        q.iter(self.app.world()).cloned().collect()
    }

    pub fn room(&mut self) -> Option<RoomView> {
        let mut q = self.app.world_mut().query::<&RoomView>();
        q.iter(self.app.world()).next().cloned()
    }

    /// The room's clock (tick, time left), once the round is replicated.
    pub fn clock(&mut self) -> Option<RoomClock> {
        let mut q = self.app.world_mut().query::<&RoomClock>();
        q.iter(self.app.world()).next().copied()
    }

    /// The planner bot playing this connection's seat (`--inputs bot`).
    pub fn bot(&self) -> Option<&RemoteBot> {
        self.app.world().resource::<BotSeat>().bot.as_ref()
    }

    /// Share the planner's claims with the other bot connections of this process.
    pub fn share_claims(&mut self, claims: SharedClaims) {
        if let Some(bot) = self.app.world_mut().resource_mut::<BotSeat>().bot.as_mut() {
            bot.share_claims(claims);
        }
    }

    /// The live Tandem round this client sees: its course info and the run's newest view.
    pub fn tandem(&mut self) -> Option<(TandemRoundInfo, TandemView)> {
        let mut q = self.app.world_mut().query::<(&TandemRoundInfo, &TandemLive)>();
        q.iter(self.app.world()).next().map(|(i, l)| (i.clone(), l.0.clone()))
    }

    /// This connection's Tandem seat: the orders it sent and the round's facts it heard.
    pub fn tandem_seat(&self) -> &TandemSeat {
        self.app.world().resource::<TandemSeat>()
    }

    /// Sends one Tandem order (tests: a player's seat, hostile payloads).
    pub fn send_order(&mut self, order: TandemOrder) {
        self.app.world_mut().write_message(order);
        self.app.world_mut().resource_mut::<SendPace>().due = true;
    }

    /// Sends a raw batch (tests: hostile payloads).
    pub fn send(&mut self, batch: InputBatch) {
        self.app.world_mut().write_message(batch);
        self.app.world_mut().resource_mut::<SendPace>().due = true;
    }

    /// How long until this connection's next input frame is due (None: none is scheduled).
    pub fn until_send(&self) -> Option<Duration> {
        let s = self.session();
        if s.mode == InputMode::Manual {
            return None;
        }
        s.uplink.until_due(s.clock_now())
    }

    pub fn command(&mut self, command: LobbyCommand) {
        self.app.world_mut().write_message(command);
    }

    /// Disconnects cleanly (netcode's disconnect packets go out now).
    pub fn disconnect(&mut self) {
        if let Some(mut t) = self.app.world_mut().get_resource_mut::<NetcodeClientTransport>() {
            t.disconnect();
        }
        if let Some(mut t) =
            self.app.world_mut().get_resource_mut::<crate::net::client::ws::WsClientTransport>()
        {
            t.disconnect();
        }
        self.step();
    }
}

fn note_welcome(
    mut welcome: MessageReader<Welcome>,
    mut events: MessageReader<TickEvents>,
    mut s: ResMut<ClientSession>,
) {
    let s = &mut *s;
    // A manual client's tests stamp frames by hand: nothing to predict.
    if let Some(w) = take_welcome(&mut welcome, &mut s.welcome)
        && s.mode != InputMode::Manual
    {
        s.predictor = Some(Predictor::new(w.seat()));
    }
    s.events_received += events.read().count() as u64;
}

/// Says once a round, on stderr, that this connection watches a round it joined after it
/// began (its frames count as `no_round` on the server until the next round).
fn tell_watching(
    lobbies: Query<&LobbyView>,
    cooks: Query<&CookView>,
    tandem: Query<&TandemRoundInfo>,
    mut s: ResMut<ClientSession>,
    mut told: Local<bool>,
) {
    let Some(lobby) = lobbies.iter().next() else { return };
    if lobby.phase != LobbyPhase::Round {
        *told = false;
        return;
    }
    let seats = s.welcome.as_ref().map(|w| w.seats.clone()).unwrap_or_default();
    let in_round = round_seats(cooks.iter().map(|c| c.seat), tandem.iter());
    if !*told && watching_round(lobby, &seats, &in_round) {
        *told = true;
        s.rounds_watched += 1;
        eprintln!("room {}: {WATCHING}", lobby.code);
    }
}

/// The `--inputs bot` planner of this connection, and the events it has not planned on yet.
#[derive(Resource)]
pub struct BotSeat {
    pub bot: Option<RemoteBot>,
    /// (view tick the events show at, the events), in arrival order.
    events: Vec<(u32, Vec<SimEvent>)>,
}

/// The bot's frame for `tick`, planned on the round as the client sees it now; a neutral frame
/// until the round's grid and sources have arrived.
fn bot_frame(
    seat: &mut BotSeat,
    seen: &SeenRound,
    room: Entity,
    clock: RoomClock,
    view: &RoomView,
    grid: Option<&GridView>,
    tick: u32,
) -> InputFrame {
    let now = clock.tick;
    let mut events = Vec::new();
    seat.events.retain(|(at, ev)| {
        if *at <= now {
            events.extend(ev.iter().cloned());
            false
        } else {
            true
        }
    });
    let (Some(bot), Some(grid), Ok(source)) = (seat.bot.as_mut(), grid, seen.sources.get(room))
    else {
        return InputFrame { tick, ..InputFrame::default() };
    };
    with_views(seen, room, clock, view, grid, &events, |views| {
        bot.frame(room.to_bits(), source, views, tick)
    })
}

/// Follows the room clock and the gate's acks, and sends each frame when it is due: stamped
/// for the tick at which it will arrive, with every unacknowledged frame repeated
/// ([`Uplink`]).
fn follow_room(
    seen: SeenRound,
    mut s: ResMut<ClientSession>,
    mut bot: ResMut<BotSeat>,
    mut ticks: MessageReader<TickEvents>,
    mut acks: MessageReader<InputAck>,
    mut pace: ResMut<SendPace>,
    mut out: MessageWriter<InputBatch>,
) {
    let now = s.clock_now();
    if bot.bot.is_some() {
        let fresh: Vec<(u32, Vec<SimEvent>)> =
            ticks.read().map(|t| (t.tick, t.events.clone())).collect();
        bot.events.extend(fresh);
    }
    let Some((room, clock, view, grid)) = seen.rooms.iter().next() else {
        s.tick = None;
        acks.clear();
        bot.events.clear();
        return;
    };
    if s.round != Some(room) {
        s.round = Some(room);
        s.uplink.reset_round();
    }
    let tick = clock.tick;
    if let Some(old) = s.tick
        && tick > old
    {
        s.ticks_received += (tick - old) as u64;
    }
    s.tick = Some(tick);
    let session = &mut *s;
    if session.uplink.follow(now, acks.read(), tick)
        && let Some(predictor) = session.predictor.as_mut()
    {
        reconcile_seen(predictor, &session.uplink, &seen);
    }
    if s.mode == InputMode::Manual || view.result.is_some() {
        return;
    }
    let session = &mut *s;
    let mut uplink = std::mem::take(&mut session.uplink);
    let batch = uplink.send_due(now, |target| {
        if session.mode == InputMode::Bot {
            PackedInput::of(&bot_frame(&mut bot, &seen, room, *clock, view, grid, target))
        } else {
            session.frame(target)
        }
    });
    session.frames_sent = uplink.stats.frames_sent;
    if let Some(predictor) = session.predictor.as_mut()
        && batch.is_some()
    {
        session.playing_since.get_or_insert(now);
        predictor.catch_up(&uplink);
    }
    session.uplink = uplink;
    if let Some(batch) = batch {
        out.write(batch);
        pace.due = true;
    }
}

/// Marks the seat ready whenever the lobby shows it is not (so rounds follow rounds).
fn auto_ready(
    lobbies: Query<&LobbyView>,
    mut s: ResMut<ClientSession>,
    mut out: MessageWriter<LobbyCommand>,
) {
    let Some(seat) = s.welcome.as_ref().map(|w| w.seat()) else { return };
    if s.mode == InputMode::Manual {
        return;
    }
    let Some(lobby) = lobbies.iter().next() else { return };
    if ready_due(lobby, &[seat], s.last_ready) {
        s.last_ready = Some(Instant::now());
        out.write(LobbyCommand::Ready(true));
    }
}

fn track_cooks(cooks: Query<(&CookView, &CookMotion)>, mut s: ResMut<ClientSession>) {
    for (cook, motion) in &cooks {
        let track = s.cooks_seen.entry(cook.seat).or_insert_with(|| CookTrack {
            name: cook.name.clone(),
            first: motion.pos,
            farthest: 0,
        });
        let d = motion.pos.0.abs_diff(track.first.0) + motion.pos.1.abs_diff(track.first.1);
        track.farthest = track.farthest.max(d);
    }
}

/// Takes each tick's Tandem view into the watch (`--stats`' `tandem`).
fn track_tandem(
    rounds: Query<(Entity, &TandemRoundInfo, &TandemLive)>,
    mut s: ResMut<ClientSession>,
) {
    for (round, info, live) in &rounds {
        s.tandem_seen.see(round, info, &live.0);
    }
}

/// Samples renet's byte rates while a round is followed (a kitchen round's clock, or a Tandem
/// round's view).
fn sample_bandwidth(
    client: Option<Res<RenetClient>>,
    tandem: Query<(), With<TandemLive>>,
    mut s: ResMut<ClientSession>,
) {
    if let Some(c) = client
        && c.is_connected()
        && (s.tick.is_some() || !tandem.is_empty())
    {
        let info = c.network_info();
        s.down.push(info.bytes_received_per_second);
        s.up.push(info.bytes_sent_per_second);
    }
}

/// The `p`th percentile of `v` (nearest rank), None when empty.
pub fn percentile(v: &[f64], p: usize) -> Option<f64> {
    let mut v = v.to_vec();
    v.sort_by(f64::total_cmp);
    (!v.is_empty()).then(|| v[((v.len() * p).div_ceil(100)).saturating_sub(1)].round())
}
