//! The headless network client: a connection opened with a connect token (UDP, or the web
//! port's WebSocket relay: `net::client::transport`), driven by the session every client shares
//! (`net::client::seats`: marking itself ready, sending one input frame per tick through the
//! uplink, predicting its cook) with its `--inputs` planned into the session's outbox
//! (`net::client::headless_inputs`), and measuring what it gets back. It is `undercooked join
//! … --headless`, the load generator's connection and the tests' client.

use crate::bot::remote::{RemoteBot, SharedClaims};
use crate::net::client::emotes::{ClientEmotesPlugin, EmoteCounts};
use crate::net::client::headless_inputs::{HeadlessInputs, InputMode, plan_inputs};
use crate::net::client::outbox::Outbox;
use crate::net::client::seats::{ClientSession, ClientSessionPlugin, SessionSystems};
use crate::net::client::session::{JoinReply, SendPace, SendPacingPlugin};
use crate::net::client::tandem_seat::{SeatDriver, TandemSeat, play_tandem_seat};
use crate::net::client::tandem_watch::TandemWatch;
use crate::net::client::transport::{Transport, disconnect, open_probed_connection};
use crate::net::client::watching::WATCHING;
use crate::net::wire::error::NetError;
use crate::protocol::emote::{Emote, EmoteSaid};
use crate::protocol::tandem::{TandemLive, TandemOrder, TandemRoundInfo};
use crate::protocol::{
    CookMotion, CookView, InputBatch, LobbyCommand, LobbyView, RoomClock, RoomView,
};
use crate::tandem::view::TandemView;
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy_replicon_renet::RenetClient;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::net::UdpSocket;
use std::time::Duration;

/// What a headless connection measures beyond its session: bandwidth, the cooks and the
/// Tandem rounds it saw (`--stats`).
#[derive(Resource, Debug, Default)]
pub struct LinkWatch {
    down: Vec<f64>,
    up: Vec<f64>,
    /// Every cook seen, by seat: how far it got from where it was first seen.
    pub cooks_seen: BTreeMap<u8, CookTrack>,
    /// The Tandem rounds seen: the couch's way, and each seat's orders as the server ran them.
    pub tandem_seen: TandemWatch,
}

/// Where a cook was first seen and the farthest it has been from there (µtiles, Manhattan):
/// what `--stats` shows an observer of other players' cooks (web/e2e.sh watches a browser's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CookTrack {
    pub name: String,
    pub first: (i32, i32),
    pub farthest: u32,
}

/// What the prediction measured: corrections per second of play and their size, and how far
/// the predicted cook was from the authoritative one at each authoritative tick.
fn prediction_stats(s: &ClientSession) -> Value {
    let Some(p) = s.predictor() else { return Value::Null };
    let played = s.played().as_secs_f64();
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

/// The mean of `v`, 0 when empty (the `--stats` byte rates).
pub fn mean(v: &[f64]) -> f64 {
    if v.is_empty() { 0.0 } else { v.iter().sum::<f64>() / v.len() as f64 }
}

/// The `--stats` object of one connection.
fn stats(s: &ClientSession, w: &LinkWatch, emotes: &EmoteCounts) -> Value {
    let now = s.clock_now();
    let link = s.uplink().cloned().unwrap_or_default();
    json!({
        "ticks_received": s.ticks_received,
        "events_received": s.events_received,
        "frames_sent": s.frames_sent,
        "down_bytes_per_s": mean(&w.down).round(),
        "up_bytes_per_s": mean(&w.up).round(),
        "rtt_ms": link.stats.rtt_ms.map(f64::round),
        "jitter_ms": link.stats.jitter_ms.round(),
        "input_delay_ticks": (link.input_delay_ticks(now) * 10.0).round() / 10.0,
        "late": link.stats.late,
        "press_to_applied_ms_p50": percentile(&link.stats.press_to_applied_ms, 50),
        "press_to_applied_ms_p99": percentile(&link.stats.press_to_applied_ms, 99),
        "prediction": prediction_stats(s),
        "cooks": w.cooks_seen.iter().map(|(seat, c)| json!({
            "seat": seat,
            "name": c.name,
            "first": [c.first.0, c.first.1],
            "farthest_utiles": c.farthest,
        })).collect::<Vec<Value>>(),
        "tandem": w.tandem_seen.stats(),
        "rounds_watched": s.rounds_watched,
        "emotes": emotes.stats(),
    })
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

/// A headless client's registration without a connection, finished: the protocol's channels,
/// message registry and hash as every client has them (the lean connections read theirs here).
pub fn protocol_app() -> App {
    let mut app = App::new();
    app.add_plugins(HeadlessClientPlugin);
    app.finish();
    app
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
        app.add_plugins((ClientSessionPlugin, ClientEmotesPlugin));
        let by_hand = mode == InputMode::Manual;
        app.insert_resource(ClientSession::new(&reply.code, by_hand));
        let seed = u64::from_le_bytes(bevy_replicon_renet::netcode::generate_random_bytes());
        app.insert_resource(HeadlessInputs::new(mode, reply.seat(), seed));
        app.init_resource::<LinkWatch>();
        app.add_systems(Update, plan_inputs.in_set(SessionSystems::Feed));
        app.add_systems(
            Update,
            (sample_bandwidth, track_cooks, track_tandem, tell_watching)
                .after(SessionSystems::Follow),
        );
        app.add_systems(Update, repeat_emote.in_set(SessionSystems::Feed));
        // In a Tandem round the same `--inputs` drive this seat's handle (src/net/client/tandem_seat.rs).
        let driver = match mode {
            InputMode::Bot => SeatDriver::Porter,
            InputMode::Random => SeatDriver::Random,
            InputMode::Idle => SeatDriver::Hold,
            InputMode::Manual => SeatDriver::Manual,
        };
        app.insert_resource(TandemSeat::new(driver, reply.seats.first().copied()));
        app.add_systems(Update, play_tandem_seat);
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

    /// The session this connection runs (its seats, links and counts).
    pub fn session(&self) -> &ClientSession {
        self.app.world().resource::<ClientSession>()
    }

    /// What this connection measured beyond its session.
    pub fn watch(&self) -> &LinkWatch {
        self.app.world().resource::<LinkWatch>()
    }

    /// The `--stats` object of this connection.
    pub fn stats(&self) -> Value {
        stats(self.session(), self.watch(), self.emotes())
    }

    /// What this connection's emotes came to (sent, held back, refused, others' seen).
    pub fn emotes(&self) -> &EmoteCounts {
        self.app.world().resource::<EmoteCounts>()
    }

    /// Local player `slot` makes `emote`, as a player's button would (kept to the pace).
    pub fn say(&mut self, slot: u8, emote: Emote) {
        self.app.world_mut().resource_mut::<Outbox>().say(slot, emote);
    }

    /// Sends an emote as it is, past this client's own pace (tests: a flooding peer).
    pub fn send_emote(&mut self, said: EmoteSaid) {
        self.app.world_mut().write_message(said);
        self.app.world_mut().resource_mut::<SendPace>().due = true;
    }

    /// `join --emote`: `emote` every [`EMOTE_REPEAT`] while this connection plays a live round.
    pub fn repeat_emote(&mut self, emote: Emote) {
        self.app.insert_resource(RepeatEmote { emote, last: None });
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
        self.app.world().resource::<HeadlessInputs>().bot.as_ref()
    }

    /// Share the planner's claims with the other bot connections of this process.
    pub fn share_claims(&mut self, claims: SharedClaims) {
        if let Some(bot) = self.app.world_mut().resource_mut::<HeadlessInputs>().bot.as_mut() {
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
        if s.by_hand {
            return None;
        }
        s.uplink()?.until_due(s.clock_now())
    }

    pub fn command(&mut self, command: LobbyCommand) {
        self.app.world_mut().write_message(command);
    }

    /// Disconnects cleanly (netcode's disconnect packets go out now).
    pub fn disconnect(&mut self) {
        disconnect(self.app.world_mut());
        self.step();
    }
}

/// How often `join --emote` makes its emote: within the pace, so none is refused, and under a
/// bubble's two seconds, so one is always over the cook.
pub const EMOTE_REPEAT: Duration = Duration::from_millis(1500);

/// `join --emote`'s emote and when it was last made.
#[derive(Resource, Debug)]
struct RepeatEmote {
    emote: Emote,
    last: Option<Duration>,
}

/// Makes `--emote`'s emote every [`EMOTE_REPEAT`] while a round is live and this connection
/// plays in it (a watcher has no cook to show it over).
fn repeat_emote(
    repeat: Option<ResMut<RepeatEmote>>,
    session: Res<ClientSession>,
    mut outbox: ResMut<Outbox>,
) {
    let Some(mut repeat) = repeat else { return };
    let now = session.clock_now();
    let due = repeat.last.is_none_or(|t| now.saturating_sub(t) >= EMOTE_REPEAT);
    if session.tick.is_some() && !session.watching && !session.seats().is_empty() && due {
        repeat.last = Some(now);
        outbox.say(0, repeat.emote);
    }
}

/// Says once a round, on stderr, that this connection watches a round it joined after it
/// began (its frames count as `no_round` on the server until the next round).
fn tell_watching(s: Res<ClientSession>, mut told: Local<u32>) {
    if s.watching && *told != s.rounds_watched {
        *told = s.rounds_watched;
        eprintln!("room {}: {WATCHING}", s.code);
    }
}

fn track_cooks(cooks: Query<(&CookView, &CookMotion)>, mut s: ResMut<LinkWatch>) {
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
fn track_tandem(rounds: Query<(Entity, &TandemRoundInfo, &TandemLive)>, mut s: ResMut<LinkWatch>) {
    for (round, info, live) in &rounds {
        s.tandem_seen.see(round, info, &live.0);
    }
}

/// Samples renet's byte rates while a round is followed (a kitchen round's clock, or a Tandem
/// round's view).
fn sample_bandwidth(
    client: Option<Res<RenetClient>>,
    tandem: Query<(), With<TandemLive>>,
    session: Res<ClientSession>,
    mut s: ResMut<LinkWatch>,
) {
    if let Some(c) = client
        && c.is_connected()
        && (session.tick.is_some() || !tandem.is_empty())
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
