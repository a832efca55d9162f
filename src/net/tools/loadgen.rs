//! `undercooked join … --headless`: the seats asked for, the connections driven from one thread
//! (one `poll` over every socket), and the `--stats` summary; with `--rooms N`, the load
//! generator.

use crate::bot::remote::SharedClaims;
use crate::net::client::api::{api_join, create_room, quick_seat, request_seat};
use crate::net::client::headless::HeadlessClient;
use crate::net::client::headless_inputs::InputMode;
use crate::net::client::session::JoinReply;
use crate::net::client::transport::Transport;
use crate::net::tools::lean_client::{LeanClient, LeanWire};
use crate::net::wire::error::NetError;
use crate::protocol::emote::Emote;
use crate::protocol::tandem::GameMode;
use crate::stdout::print_line;
use bevy::prelude::*;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::net::UdpSocket;
use std::time::{Duration, Instant};

/// `undercooked join` options: the command line's (flattened into `join`, which adds only the
/// window-or-headless choice) and what the headless client and the load generator run on.
/// The doc comments are the `--help` text.
#[derive(Clone, Debug, clap::Args)]
pub struct JoinArgs {
    /// The server's web address, HOST:WEB_PORT, or a join link
    /// (`http://HOST:WEB_PORT/?room=CODE`, which needs no --room); none with --directory.
    #[arg(default_value = "")]
    pub web: String,
    /// Room code to join.
    #[arg(long, conflicts_with = "create")]
    pub room: Option<String>,
    /// A directory (`http://HOST:PORT`) that finds --room's server, or --quick's room: no
    /// server address needed.
    #[arg(long, value_name = "URL")]
    pub directory: Option<String>,
    /// Create a room (prints `room: CODE` first).
    #[arg(long)]
    pub create: bool,
    /// Quick match through --directory: a public lobby with enough free seats on the server
    /// with the lowest round trip, else a public room in play (watch until its next round),
    /// else a new public room on the least loaded nearby server.
    #[arg(long, requires = "directory", conflicts_with_all = ["room", "create"])]
    pub quick: bool,
    /// A room made with --create is public: the server's directory lists it for quick match.
    #[arg(long, requires = "create")]
    pub public: bool,
    #[arg(long, default_value = "Cook")]
    pub name: String,
    #[arg(long, value_enum, default_value = "random")]
    pub inputs: InputMode,
    /// How long to stay connected.
    #[arg(long, default_value_t = 30.0)]
    pub seconds: f64,
    /// End with one JSON line of measurements.
    #[arg(long)]
    pub stats: bool,
    /// Connections opened by this process (all in the same room; with --rooms, per room).
    #[arg(long, default_value_t = 1)]
    pub clients: usize,
    /// Create this many rooms, each with --clients connections, all driven by this one
    /// process on one thread: the load generator (needs --create).
    #[arg(long, default_value_t = 1, requires = "create")]
    pub rooms: usize,
    /// Level id for a room made with --create.
    #[arg(long)]
    pub level: Option<String>,
    /// What a room made with --create plays: cooking (the default), survival, tandem or versus
    /// (a versus kitchen of the host's --versus-levels; --level picks one by id).
    #[arg(long, requires = "create", value_parser = GameMode::parse)]
    pub mode: Option<GameMode>,
    /// The longest a connection goes unstepped, in ms: a UDP connection is stepped when a
    /// packet arrives and otherwise after this long; a --ws connection on this period.
    // 5 ms follows the relay finely; a load run uses 50.
    #[arg(long, default_value_t = 5)]
    pub frame_ms: u64,
    /// Connect through the web port's WebSocket relay (the browser's transport), not UDP.
    #[arg(long)]
    pub ws: bool,
    /// Take back a held seat of `--room` with its reconnect secret (the `reconnect` of the
    /// create or join answer) instead of taking a new one.
    #[arg(long, requires = "room")]
    pub reconnect: Option<String>,
    /// Make this emote (here, help, thanks or hurry) every 1.5 s while in a live round: the room's
    /// other players see it over this cook, and `--stats` counts what each side sent and saw.
    #[arg(long, value_parser = Emote::parse)]
    pub emote: Option<Emote>,
    /// Lean connections for a capacity run: netcode and renet spoken directly (no Bevy app per
    /// connection), random inputs, mutations acknowledged but not applied; UDP only.
    #[arg(long, requires = "create", conflicts_with_all = ["ws", "emote", "reconnect"])]
    pub lean: bool,
}

/// The seats `undercooked join` asks for: the created, named or resumed (`--reconnect`) room's
/// first, then `--clients` − 1 more in the same room (a refused extra seat is a warning); with
/// `--rooms N`, that for each of N new rooms (a refused room is a warning, and ends the
/// creating).
pub fn open_seats(args: &JoinArgs) -> Result<Vec<JoinReply>, NetError> {
    if args.rooms > 1 {
        if !args.create {
            return Err(NetError::Usage("--rooms needs --create"));
        }
        let mut replies = Vec::new();
        for r in 0..args.rooms {
            let one = JoinArgs { rooms: 1, name: format!("{}{r}", args.name), ..args.clone() };
            match open_seats(&one) {
                Ok(seats) => replies.extend(seats),
                Err(e) => {
                    eprintln!("warning: room {r}: {e}");
                    break;
                }
            }
        }
        return if replies.is_empty() {
            Err(NetError::Usage("no room was created"))
        } else {
            Ok(replies)
        };
    }
    let first = if let (Some(code), Some(secret)) = (&args.room, &args.reconnect) {
        api_join(&args.web, code, &args.name, Some(secret))?
    } else if args.create && args.quick {
        // Quick match picked this server to make a room: the server seats us in a public
        // lobby another quick match made a moment ago, if there is one, else makes ours.
        quick_seat(&args.web, &args.name, 1)?
    } else if args.create && (args.public || args.mode.is_some()) {
        let mode = args.mode.unwrap_or_default();
        create_room(&args.web, &args.name, args.level.as_deref(), 1, args.public, mode)?
    } else if args.create || args.room.is_some() {
        let code = if args.create { None } else { args.room.as_deref() };
        request_seat(&args.web, code, &args.name, args.level.as_deref(), 1)?
    } else {
        return Err(NetError::Usage("give --room CODE or --create"));
    };
    let mut replies = vec![first.clone()];
    for i in 1..args.clients.max(1) {
        match api_join(&args.web, &first.code, &format!("{}-{i}", args.name), None) {
            Ok(r) => replies.push(r),
            Err(e) => eprintln!("warning: client {i}: {e}"),
        }
    }
    Ok(replies)
}

/// One headless connection per seat, with `args.inputs`; `--inputs bot` connections of a room
/// share one claim table, so the process's bots split each kitchen like a server team.
pub fn connect_seats(
    args: &JoinArgs,
    replies: &[JoinReply],
) -> Result<Vec<HeadlessClient>, NetError> {
    let transport = if args.ws {
        Transport::WebSocket { web: args.web.clone(), origin: None }
    } else {
        Transport::Udp
    };
    let mut clients = replies
        .iter()
        .map(|r| HeadlessClient::connect_via(r, args.inputs, &transport))
        .collect::<Result<Vec<_>, NetError>>()
        .map_err(|e| NetError::Connect(Box::new(e)))?;
    if let Some(emote) = args.emote {
        clients.iter_mut().for_each(|c| c.repeat_emote(emote));
    }
    if args.inputs == InputMode::Bot {
        let mut claims: BTreeMap<&str, SharedClaims> = BTreeMap::new();
        for (c, r) in clients.iter_mut().zip(replies) {
            c.share_claims(claims.entry(r.code.as_str()).or_default().clone());
        }
    }
    Ok(clients)
}

/// What [`drive`] steps: a headless client or a lean connection.
pub trait Stepped {
    /// The UDP socket to poll for waiting packets; `None` steps on the timer only.
    fn probe(&self) -> Option<&UdpSocket>;
    /// How long until the connection's next input frame is due, when it schedules its own.
    fn until_send(&self) -> Option<Duration>;
    fn step(&mut self);
    fn disconnect(&mut self);
    /// The connection's `--stats` object.
    fn stats(&self) -> Value;
}

impl Stepped for HeadlessClient {
    fn probe(&self) -> Option<&UdpSocket> {
        HeadlessClient::probe(self)
    }
    fn until_send(&self) -> Option<Duration> {
        HeadlessClient::until_send(self)
    }
    fn step(&mut self) {
        HeadlessClient::step(self)
    }
    fn disconnect(&mut self) {
        HeadlessClient::disconnect(self)
    }
    fn stats(&self) -> Value {
        let mut v = HeadlessClient::stats(self);
        if let Some(bot) = self.bot() {
            v["bot_plans"] = json!(bot.plans);
            v["bot_error"] = json!(bot.error.as_ref().map(ToString::to_string));
        }
        v
    }
}

impl Stepped for LeanClient {
    fn probe(&self) -> Option<&UdpSocket> {
        Some(LeanClient::probe(self))
    }
    // Its frames answer the server's acks, so packets alone wake it.
    fn until_send(&self) -> Option<Duration> {
        None
    }
    fn step(&mut self) {
        LeanClient::step(self)
    }
    fn disconnect(&mut self) {
        LeanClient::disconnect(self);
        LeanClient::step(self);
    }
    fn stats(&self) -> Value {
        LeanClient::stats(self)
    }
}

/// One lean connection per seat (`--lean`).
pub fn connect_lean(replies: &[JoinReply]) -> Result<Vec<LeanClient>, NetError> {
    let wire = LeanWire::new()?;
    replies
        .iter()
        .map(|r| {
            let seed = u64::from_le_bytes(bevy_replicon_renet::netcode::generate_random_bytes());
            LeanClient::connect(&wire, r, seed)
        })
        .collect::<Result<Vec<_>, NetError>>()
        .map_err(|e| NetError::Connect(Box::new(e)))
}

/// How long the load generator lets packets gather after the first arrives (see [`drive`]).
const COALESCE: Duration = Duration::from_micros(1000);

/// Steps `clients` until `end`: each when a packet is waiting on its socket, or when `idle`
/// has passed since its last step (relay connections: on that period only).
///
/// Stepping every connection every few milliseconds made an idle step most of a load
/// generator's work; a connection has something to do ~20 times a second (the room's tick
/// arrives, its frame goes out) plus its keepalive, so the kernel says which sockets wait. With
/// `poll` over every socket at each wake-up, the kernel's per-socket checks were a quarter of
/// a 400-connection generator's CPU (perf); one epoll set, registered once, answers only the
/// ready ones.
///
/// Answers how many steps it took.
pub fn drive<C: Stepped>(clients: &mut [C], idle: Duration, end: Instant) -> u64 {
    use rustix::event::{Timespec, epoll};
    let timespec =
        |d: Duration| Timespec { tv_sec: d.as_secs() as _, tv_nsec: d.subsec_nanos() as _ };
    let set = epoll::create(epoll::CreateFlags::CLOEXEC).ok();
    if let Some(set) = &set {
        for (i, c) in clients.iter().enumerate() {
            if let Some(socket) = c.probe() {
                let data = epoll::EventData::new_u64(i as u64);
                if let Err(e) = epoll::add(set, socket, data, epoll::EventFlags::IN) {
                    eprintln!("warning: epoll: {e}: connection {i} steps on its timer only");
                }
            }
        }
    }
    let mut events: Vec<epoll::Event> = Vec::with_capacity(clients.len().max(1));
    let mut last = vec![Instant::now(); clients.len()];
    let mut ready = vec![false; clients.len()];
    let mut steps = 0;
    loop {
        let now = Instant::now();
        if now >= end {
            return steps;
        }
        // Each connection wakes for its packets, its keepalive, and the moment its next frame
        // is due (the uplink sends each frame as late as still arrives in time).
        let due: Vec<Instant> = clients
            .iter()
            .zip(&last)
            .map(|(c, t)| c.until_send().map_or(*t + idle, |d| (now + d).min(*t + idle)))
            .collect();
        let next = due.iter().copied().min().unwrap_or(end).min(end);
        let wait = next.saturating_duration_since(now);
        ready.fill(false);
        match &set {
            Some(set) => {
                events.clear();
                match epoll::wait(
                    set,
                    rustix::buffer::spare_capacity(&mut events),
                    Some(&timespec(wait)),
                ) {
                    // A server flushes a tick to every client of a world in one go: waiting a
                    // moment lets one step take a connection's packets and one wake-up many
                    // connections.
                    Ok(n) if n > 0 => {
                        std::thread::sleep(COALESCE);
                        events.clear();
                        let zero = timespec(Duration::ZERO);
                        let _ = epoll::wait(
                            set,
                            rustix::buffer::spare_capacity(&mut events),
                            Some(&zero),
                        );
                    }
                    Ok(_) | Err(rustix::io::Errno::INTR) => {}
                    Err(e) => {
                        eprintln!("warning: epoll: {e}");
                        std::thread::sleep(idle);
                    }
                }
                for e in &events {
                    if let Some(r) = ready.get_mut(e.data.u64() as usize) {
                        *r = true;
                    }
                }
            }
            None => std::thread::sleep(wait),
        }
        let now = Instant::now();
        for (((c, t), r), d) in clients.iter_mut().zip(&mut last).zip(&ready).zip(&due) {
            if *r || now >= *d {
                c.step();
                *t = now;
                steps += 1;
            }
        }
    }
}

/// CPU seconds this process has used (user + system), so `--stats` says what the load cost.
fn cpu_seconds() -> f64 {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ProcessCPUTime);
    t.tv_sec as f64 + t.tv_nsec as f64 / 1e9
}

/// Runs `undercooked join … --headless`; returns the exit code.
pub fn run_join(args: &JoinArgs) -> u8 {
    let replies = match open_seats(args) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return 1;
        }
    };
    if replies.is_empty() {
        return 1;
    }
    let mut rooms: Vec<&str> = replies.iter().map(|r| r.code.as_str()).collect();
    rooms.dedup();
    if args.create {
        for code in &rooms {
            if let Err(e) = print_line(&format!("room: {code}"), "the room line") {
                eprintln!("error: {e}");
                return 1;
            }
        }
    }
    let connected = if args.lean {
        connect_lean(&replies).map(|c| drive_and_report(args, &replies, c))
    } else {
        connect_seats(args, &replies).map(|c| drive_and_report(args, &replies, c))
    };
    connected.unwrap_or_else(|e| {
        eprintln!("error: {e}");
        1
    })
}

/// Drives the connected `clients` for `--seconds`, then prints `--stats`; the exit code.
fn drive_and_report<C: Stepped>(args: &JoinArgs, replies: &[JoinReply], mut clients: Vec<C>) -> u8 {
    let first = &replies[0];
    let codes: Vec<&str> = replies.iter().map(|r| r.code.as_str()).collect();
    let mut rooms = codes.clone();
    rooms.dedup();
    eprintln!(
        "joined {} with {} connection(s) over {}",
        if rooms.len() == 1 {
            format!("room {}", first.code)
        } else {
            format!("{} rooms", rooms.len())
        },
        clients.len(),
        if args.ws { "the WebSocket relay" } else { "UDP" }
    );
    let (start, cpu_start) = (Instant::now(), cpu_seconds());
    let end = start + Duration::from_secs_f64(args.seconds.max(0.0));
    let steps = drive(&mut clients, Duration::from_millis(args.frame_ms.max(1)), end);
    let cpu_s = cpu_seconds() - cpu_start;
    let cpu = cpu_s / start.elapsed().as_secs_f64().max(1e-3);
    for c in &mut clients {
        c.disconnect();
    }
    if args.stats {
        let per: Vec<Value> = clients.iter().map(Stepped::stats).collect();
        let mut line = summarize(&per);
        // The generator's own CPU while it drove the connections (1.0 = one core busy).
        line["cpu_cores"] = json!((cpu * 1000.0).round() / 1000.0);
        line["steps_per_s"] = json!((steps as f64 / args.seconds.max(1e-3)).round());
        line["cpu_us_per_step"] = json!((cpu_s * 1e6 / steps.max(1) as f64).round());
        if rooms.len() == 1 {
            line["room"] = json!(first.code);
            line["per_client"] = json!(per);
        } else {
            line["rooms"] = json!(rooms.len());
            line["per_room"] = rooms
                .iter()
                .map(|code| {
                    let mine: Vec<Value> = per
                        .iter()
                        .zip(&codes)
                        .filter(|(_, c)| *c == code)
                        .map(|(v, _)| v.clone())
                        .collect();
                    let mut s = summarize(&mine);
                    s["room"] = json!(code);
                    s
                })
                .collect();
        }
        if let Err(e) = print_line(&line.to_string(), "the --stats line") {
            eprintln!("error: {e}");
            return 1;
        }
    }
    0
}

/// The `--stats` figures over some connections: how many, the fewest ticks any followed, the
/// median of that, mean bandwidth, the worst round trip and press → applied p99, late frames.
fn summarize(per: &[Value]) -> Value {
    let num = |k: &'static str| per.iter().filter_map(move |v| v[k].as_f64());
    let n = per.len().max(1) as f64;
    let mut ticks: Vec<f64> = num("ticks_received").collect();
    ticks.sort_by(f64::total_cmp);
    json!({
        "clients": per.len(),
        "ticks_received": ticks.first().copied().unwrap_or(0.0) as u64,
        "ticks_received_median": ticks.get(ticks.len() / 2).copied().unwrap_or(0.0) as u64,
        "down_bytes_per_s": (num("down_bytes_per_s").sum::<f64>() / n).round(),
        "up_bytes_per_s": (num("up_bytes_per_s").sum::<f64>() / n).round(),
        "rtt_ms": num("rtt_ms").reduce(f64::max),
        "press_to_applied_ms_p99": num("press_to_applied_ms_p99").reduce(f64::max),
        "late": num("late").sum::<f64>(),
    })
}
