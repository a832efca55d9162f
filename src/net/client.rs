//! The headless network client: gets a connect token from the web port like a player, connects
//! over netcode, marks itself ready, sends one input frame per tick and measures what it gets
//! back. It is `undercooked join … --headless`, the load generator and the tests' client.

use super::tokens::read_token;
use crate::protocol::{
    CookMotion, CookView, InputBatch, LobbyCommand, LobbyView, RoomClock, RoomView, TickEvents,
    Welcome,
};
use crate::sim::input::InputFrame;
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy_replicon_renet::RenetClient;
use bevy_replicon_renet::netcode::{ClientAuthentication, NetcodeClientTransport};
use serde_json::{Value, json};
use std::collections::{BTreeMap, VecDeque};
use std::net::UdpSocket;
use std::time::{Duration, Instant};

pub use super::session::{
    INPUT_LEAD, JoinReply, KEEPALIVE, SendPace, add_client_plugins, insert_client, parse_reply,
    ready_due,
};

fn post(url: &str, body: &Value) -> Result<(i32, Value), String> {
    let resp = minreq::post(url)
        .with_header("Content-Type", "application/json")
        .with_body(body.to_string())
        .with_timeout(10)
        .send()
        .map_err(|e| format!("{url}: {e}"))?;
    let value = serde_json::from_str(resp.as_str().unwrap_or("")).unwrap_or(Value::Null);
    Ok((resp.status_code, value))
}

/// Asks the web port for a seat: a new room when `code` is `None` (with `level`, if given),
/// otherwise the room `code`. Shared by the headless client and the windowed online client.
pub fn request_seat(
    web: &str,
    code: Option<&str>,
    name: &str,
    level: Option<&str>,
) -> Result<JoinReply, String> {
    match code {
        None => api_create(web, name, level),
        Some(code) => api_join(web, code, name, None),
    }
}

/// Makes `app` a network client seated by `reply`: replicon, renet, the protocol, a netcode
/// transport (UDP, or the web port's WebSocket relay) carrying the reply's connect token, and the
/// send pacing ([`SendPace`]). Shared by
/// the headless client and the windowed online client (`client::online`).
pub fn add_connection(
    app: &mut App,
    reply: &JoinReply,
    transport: &Transport,
) -> Result<(), String> {
    let token = read_token(&reply.token)?;
    add_client_plugins(app);
    app.add_plugins(super::ws::WsClientPlugin);
    match transport {
        Transport::Udp => {
            let socket = UdpSocket::bind(("0.0.0.0", 0)).map_err(|e| e.to_string())?;
            let transport = NetcodeClientTransport::new(
                super::tokens::unix_now(),
                ClientAuthentication::Secure { connect_token: token },
                socket,
            )
            .map_err(|e| e.to_string())?;
            insert_client(app.world_mut(), transport);
        }
        Transport::WebSocket { web, origin } => {
            let transport = super::ws::WsClientTransport::connect(web, origin.as_deref(), token)?;
            insert_client(app.world_mut(), transport);
        }
    }
    Ok(())
}

/// `POST /api/rooms`: a new room, with the caller seated in it.
pub fn api_create(web: &str, name: &str, level: Option<&str>) -> Result<JoinReply, String> {
    let (status, v) =
        post(&format!("http://{web}/api/rooms"), &json!({"name": name, "level": level}))?;
    parse_reply(status, v)
}

/// `POST /api/rooms/CODE/join`; `reconnect` resumes a held seat.
pub fn api_join(
    web: &str,
    code: &str,
    name: &str,
    reconnect: Option<&str>,
) -> Result<JoinReply, String> {
    let mut body = json!({"name": name});
    if let Some(r) = reconnect {
        body["reconnect"] = json!(r);
    }
    let (status, v) = post(&format!("http://{web}/api/rooms/{code}/join"), &body)?;
    parse_reply(status, v)
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
    /// Neutral frames (still sent, so the echo is measured).
    Idle,
    /// Nothing sent (tests drive inputs by hand).
    Manual,
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
    /// (frame tick, tick known when sent).
    pending: VecDeque<(u32, u32)>,
    pub echoes: Vec<u32>,
    down: Vec<f64>,
    up: Vec<f64>,
    rng: u64,
    stick: (i16, i16),
    last_ready: Option<Instant>,
    /// Every cook seen, by seat: how far it got from where it was first seen.
    pub cooks_seen: BTreeMap<u8, CookTrack>,
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

    fn frame(&mut self, tick: u32) -> InputFrame {
        if self.mode == InputMode::Idle {
            return InputFrame { seq: 0, tick, ..Default::default() };
        }
        if tick.is_multiple_of(10) {
            let r = self.next();
            let axis = |v: u64| ((v % 3) as i16 - 1) * 1000;
            self.stick = (axis(r), axis(r >> 8));
        }
        let action = self.next().is_multiple_of(8);
        InputFrame { seq: self.frames_sent as u32, tick, mv: self.stick, action, face: None }
    }

    /// The 99th percentile of input → echo, in ticks.
    pub fn echo_p99(&self) -> Option<u32> {
        let mut e = self.echoes.clone();
        e.sort_unstable();
        (!e.is_empty()).then(|| e[((e.len() * 99).div_ceil(100)).saturating_sub(1)])
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
            "echo_ticks_p99": self.echo_p99(),
            "cooks": self.cooks_seen.iter().map(|(seat, c)| json!({
                "seat": seat,
                "name": c.name,
                "first": [c.first.0, c.first.1],
                "farthest_utiles": c.farthest,
            })).collect::<Vec<Value>>(),
        })
    }
}

/// One connection, as an app stepped by its owner.
pub struct HeadlessClient {
    pub app: App,
}

impl HeadlessClient {
    /// Connects with the token of `reply`, over UDP.
    pub fn connect(reply: &JoinReply, mode: InputMode) -> Result<HeadlessClient, String> {
        Self::connect_via(reply, mode, &Transport::Udp)
    }

    /// Connects with the token of `reply` over `transport`: the same app either way, only the
    /// resource that carries netcode's packets differs.
    pub fn connect_via(
        reply: &JoinReply,
        mode: InputMode,
        transport: &Transport,
    ) -> Result<HeadlessClient, String> {
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, StatesPlugin));
        add_connection(&mut app, reply, transport)?;
        app.add_systems(
            Update,
            (note_welcome, follow_room, auto_ready, sample_bandwidth, track_cooks),
        );
        let seed = u64::from_le_bytes(bevy_replicon_renet::netcode::generate_random_bytes()) | 1;
        app.insert_resource(ClientSession {
            mode,
            welcome: None,
            tick: None,
            ticks_received: 0,
            events_received: 0,
            frames_sent: 0,
            pending: VecDeque::new(),
            echoes: Vec::new(),
            down: Vec::new(),
            up: Vec::new(),
            rng: seed,
            stick: (0, 0),
            last_ready: None,
            cooks_seen: BTreeMap::new(),
        });
        app.finish();
        app.cleanup();
        Ok(HeadlessClient { app })
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

    /// Sends raw frames (tests: hostile payloads).
    pub fn send(&mut self, frames: Vec<InputFrame>) {
        self.app.world_mut().write_message(InputBatch { frames });
        self.app.world_mut().resource_mut::<SendPace>().due = true;
    }

    pub fn command(&mut self, command: LobbyCommand) {
        self.app.world_mut().write_message(command);
    }

    /// Disconnects cleanly (netcode's disconnect packets go out now).
    pub fn disconnect(&mut self) {
        if let Some(mut t) = self.app.world_mut().get_resource_mut::<NetcodeClientTransport>() {
            t.disconnect();
        }
        if let Some(mut t) = self.app.world_mut().get_resource_mut::<super::ws::WsClientTransport>()
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
    for w in welcome.read() {
        s.welcome = Some(w.clone());
    }
    s.events_received += events.read().count() as u64;
}

/// Follows the room clock: counts ticks, closes echoes, sends the next frame.
fn follow_room(
    rooms: Query<(&RoomClock, &RoomView)>,
    mut s: ResMut<ClientSession>,
    mut pace: ResMut<SendPace>,
    mut out: MessageWriter<InputBatch>,
) {
    let Some((clock, view)) = rooms.iter().next() else {
        s.tick = None;
        s.pending.clear();
        return;
    };
    let now = clock.tick;
    match s.tick {
        Some(old) if now > old => s.ticks_received += (now - old) as u64,
        Some(old) if now == old => return,
        _ => {}
    }
    s.tick = Some(now);
    while let Some(&(frame_tick, sent_at)) = s.pending.front() {
        if frame_tick >= now {
            break;
        }
        s.pending.pop_front();
        s.echoes.push(now - sent_at);
    }
    if s.mode == InputMode::Manual || view.result.is_some() {
        return;
    }
    // Stamped one tick past the one the server simulates next: a frame delayed by up to a
    // tick is still admitted (stamping `now` lost ~10 % as stale on a loaded 2-core host).
    let target = now + INPUT_LEAD;
    let frame = s.frame(target);
    s.frames_sent += 1;
    s.pending.push_back((target, now));
    out.write(InputBatch { frames: vec![frame] });
    pace.due = true;
}

/// Marks the seat ready whenever the lobby shows it is not (so rounds follow rounds).
fn auto_ready(
    lobbies: Query<&LobbyView>,
    mut s: ResMut<ClientSession>,
    mut out: MessageWriter<LobbyCommand>,
) {
    let Some(seat) = s.welcome.as_ref().map(|w| w.seat) else { return };
    if s.mode == InputMode::Manual {
        return;
    }
    let Some(lobby) = lobbies.iter().next() else { return };
    if ready_due(lobby, seat, s.last_ready) {
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

fn sample_bandwidth(client: Option<Res<RenetClient>>, mut s: ResMut<ClientSession>) {
    if let Some(c) = client
        && c.is_connected()
        && s.tick.is_some()
    {
        let info = c.network_info();
        s.down.push(info.bytes_received_per_second);
        s.up.push(info.bytes_sent_per_second);
    }
}

/// `undercooked join` options.
#[derive(Clone, Debug)]
pub struct JoinArgs {
    pub web: String,
    pub room: Option<String>,
    pub create: bool,
    pub name: String,
    pub inputs: InputMode,
    pub seconds: f64,
    pub stats: bool,
    pub clients: usize,
    pub level: Option<String>,
    /// The loop period: every connection is stepped once per period (5 ms measures the echo
    /// finely; a load run of hundreds of connections on a small host uses 20).
    pub frame_ms: u64,
    /// Connect through the web port's WebSocket relay instead of UDP.
    pub ws: bool,
    /// Resume the held seat of `room` with this reconnect secret.
    pub reconnect: Option<String>,
}

/// Runs `undercooked join … --headless`; returns the exit code.
pub fn run_join(args: &JoinArgs) -> u8 {
    let first = if let (Some(code), Some(secret)) = (&args.room, &args.reconnect) {
        api_join(&args.web, code, &args.name, Some(secret))
    } else if args.create || args.room.is_some() {
        let code = if args.create { None } else { args.room.as_deref() };
        request_seat(&args.web, code, &args.name, args.level.as_deref())
    } else {
        Err("give --room CODE or --create".into())
    };
    let first = match first {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return 1;
        }
    };
    if args.create {
        println!("room: {}", first.code);
    }
    let mut replies = vec![first.clone()];
    for i in 1..args.clients.max(1) {
        match api_join(&args.web, &first.code, &format!("{}-{i}", args.name), None) {
            Ok(r) => replies.push(r),
            Err(e) => eprintln!("warning: client {i}: {e}"),
        }
    }
    let transport = if args.ws {
        Transport::WebSocket { web: args.web.clone(), origin: None }
    } else {
        Transport::Udp
    };
    let mut clients = Vec::new();
    for r in &replies {
        match HeadlessClient::connect_via(r, args.inputs, &transport) {
            Ok(c) => clients.push(c),
            Err(e) => {
                eprintln!("error: connect: {e}");
                return 1;
            }
        }
    }
    eprintln!(
        "joined room {} with {} connection(s) over {}",
        first.code,
        clients.len(),
        if args.ws { "the WebSocket relay" } else { "UDP" }
    );
    let end = Instant::now() + Duration::from_secs_f64(args.seconds.max(0.0));
    while Instant::now() < end {
        let t0 = Instant::now();
        for c in &mut clients {
            c.step();
        }
        if let Some(rest) = Duration::from_millis(args.frame_ms.max(1)).checked_sub(t0.elapsed()) {
            std::thread::sleep(rest);
        }
    }
    for c in &mut clients {
        c.disconnect();
    }
    if args.stats {
        let per: Vec<Value> = clients.iter().map(|c| c.session().stats()).collect();
        let num = |k: &'static str| per.iter().filter_map(move |v| v[k].as_f64());
        let n = per.len().max(1) as f64;
        let line = json!({
            "room": first.code,
            "clients": per.len(),
            "ticks_received": num("ticks_received").fold(f64::INFINITY, f64::min) as u64,
            "down_bytes_per_s": (num("down_bytes_per_s").sum::<f64>() / n).round(),
            "up_bytes_per_s": (num("up_bytes_per_s").sum::<f64>() / n).round(),
            "echo_ticks_p99": num("echo_ticks_p99").fold(None, |m: Option<f64>, v| Some(m.map_or(v, |m| m.max(v)))),
            "per_client": per,
        });
        println!("{line}");
    }
    0
}
