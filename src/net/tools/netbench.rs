//! `undercooked bench net`: a room of four headless clients playing through the impairment
//! proxy (`net::tools::impair`) to a real server on 127.0.0.1, for a list of link conditions, and
//! per condition what the gate did with the frames, how long a press took to take effect,
//! how the prediction fared and what each client cost the link (docs/PERFORMANCE.md,
//! "Network conditions"). The tests start the same harness ([`ImpairedHost`]) at one bad link.
//!
//! Wall-clock time is read here: this measures the network, it is no part of the rules.

use crate::net::client::api::{api_create, api_join};
use crate::net::client::headless::{HeadlessClient, percentile};
use crate::net::client::headless_inputs::InputMode;
use crate::net::client::transport::Transport;
use crate::net::server::inputs::{FrameCounts, seat_frame_counts};
use crate::net::server::rooms::{HostedRoom, replay_live};
use crate::net::server::worlds::{HostConfig, ServerHandle, spawn_server};
use crate::net::tools::impair::{Conditions, TcpProxy, UdpProxy};
use crate::net::tools::loadgen::drive;
use crate::net::wire::error::NetError;
use crate::sim::room::Room;
use clap::Args;
use serde_json::{Value, json};
use std::net::{SocketAddr, UdpSocket};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Options of `bench net`.
#[derive(Args, Debug, Clone)]
pub struct NetBenchArgs {
    /// Round trips to measure, in ms, comma-separated.
    #[arg(long, value_delimiter = ',', default_values_t = [0u32, 50, 100, 200, 300])]
    pub rtt: Vec<u32>,
    /// Jitter each way, as a percentage of the round trip.
    #[arg(long, default_value_t = 10)]
    pub jitter_pct: u32,
    /// Loss each way, percent.
    #[arg(long, default_value_t = 2.0)]
    pub loss: f64,
    /// Seconds of play measured per condition (after the round has started).
    #[arg(long, default_value_t = 10)]
    pub seconds: u64,
    /// Clients in the room (1–4).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u8).range(1..=crate::sim::units::MAX_COOKS as i64))]
    pub clients: u8,
    /// Through the web port's WebSocket relay (a TCP proxy) instead of UDP.
    #[arg(long)]
    pub ws: bool,
    /// The level the room plays.
    #[arg(long, default_value = "tutorial")]
    pub level: String,
    /// What the clients press: `bot` plays like people (planner bots on the views, moving
    /// with purpose and around each other), `random` wanders and mashes.
    #[arg(long, value_enum, default_value_t = InputMode::Bot)]
    pub inputs: InputMode,
    /// Seed of the proxy's loss and jitter.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// End with one JSON object on the last line.
    #[arg(long)]
    pub json: bool,
}

/// A real server behind the impairment proxy: UDP through a [`UdpProxy`] that its connect
/// tokens name, or the WebSocket relay through a [`TcpProxy`] in front of its web port.
pub struct ImpairedHost {
    pub server: ServerHandle,
    udp: Option<UdpProxy>,
    tcp: Option<TcpProxy>,
    pub dir: PathBuf,
}

impl ImpairedHost {
    /// Starts the server and its proxy with `conditions` both ways.
    pub fn start(
        name: &str,
        conditions: Conditions,
        seed: u64,
        ws: bool,
    ) -> Result<ImpairedHost, NetError> {
        let dir = std::env::temp_dir().join(format!("uc-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let cfg = HostConfig::loopback(dir.clone());
        if ws {
            let server = spawn_server(cfg)?;
            let tcp = TcpProxy::spawn(server.addrs.web, conditions, conditions, seed)
                .map_err(NetError::io("tcp proxy"))?;
            return Ok(ImpairedHost { server, udp: None, tcp: Some(tcp), dir });
        }
        ImpairedHost::start_on(cfg, conditions, seed)
    }

    /// [`ImpairedHost::start`] over UDP for a host configured as `cfg` (its levels, its bots;
    /// the port and public address are the proxy's to set).
    pub fn start_on(
        mut cfg: HostConfig,
        conditions: Conditions,
        seed: u64,
    ) -> Result<ImpairedHost, NetError> {
        let dir = cfg.data_dir.clone();
        // The tokens must name the proxy, so the server's port is chosen first.
        let port = UdpSocket::bind("127.0.0.1:0")
            .and_then(|s| s.local_addr())
            .map_err(NetError::io("free port"))?
            .port();
        let upstream = SocketAddr::from(([127, 0, 0, 1], port));
        let udp = UdpProxy::spawn(upstream, conditions, conditions, seed)
            .map_err(NetError::io("udp proxy"))?;
        cfg.port = port;
        cfg.public = vec![udp.local_addr()];
        let server = spawn_server(cfg)?;
        Ok(ImpairedHost { server, udp: Some(udp), tcp: None, dir })
    }

    /// The web port (the API goes there directly: only the game's traffic is impaired).
    pub fn web(&self) -> String {
        self.server.addrs.web.to_string()
    }

    /// How a client reaches the game: UDP (the token names the proxy) or the relay through
    /// the TCP proxy.
    pub fn transport(&self) -> Transport {
        match &self.tcp {
            Some(tcp) => Transport::WebSocket { web: tcp.local_addr().to_string(), origin: None },
            None => Transport::Udp,
        }
    }

    /// Bytes the proxy carried (up, down) since it started.
    pub fn bytes(&self) -> (u64, u64) {
        let stats = match (&self.udp, &self.tcp) {
            (Some(u), _) => u.stats(),
            (_, Some(t)) => t.stats(),
            _ => return (0, 0),
        };
        (stats.up.bytes_delivered, stats.down.bytes_delivered)
    }

    /// Datagrams (UDP) or chunks (TCP) the proxy delivered (up, down) since it started.
    pub fn packets(&self) -> (u64, u64) {
        let stats = match (&self.udp, &self.tcp) {
            (Some(u), _) => u.stats(),
            (_, Some(t)) => t.stats(),
            _ => return (0, 0),
        };
        (stats.up.delivered, stats.down.delivered)
    }

    /// What the gate did with each seat's frames.
    pub fn links(&self) -> Vec<(u8, FrameCounts)> {
        self.server.with_world(seat_frame_counts)
    }

    /// Replays the live round of room `code` from its admitted log: whether it reaches the
    /// same hash, and at which tick (None: no live round).
    pub fn replay_matches(&self, code: &str) -> Option<(bool, u32)> {
        let code = code.to_string();
        let room = self.server.with_world(move |w| {
            let mut q = w.query::<&HostedRoom>();
            let hosted = q.iter(w).find(|r| r.code == code)?;
            w.get::<Room>(hosted.round?).cloned()
        })?;
        let hash = replay_live(&room);
        Some((hash == room.hash, room.tick))
    }

    pub fn stop(self) {
        self.server.stop();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Seats `n` clients in one new room on `level` and connects them through the host's
/// transport; answers the room code and the clients once the round is live.
pub fn seat_room(
    host: &ImpairedHost,
    n: u8,
    level: &str,
    mode: InputMode,
) -> Result<(String, Vec<HeadlessClient>), NetError> {
    let web = host.web();
    let first = api_create(&web, "Cook 1", Some(level))?;
    let mut replies = vec![first.clone()];
    for i in 1..n {
        replies.push(api_join(&web, &first.code, &format!("Cook {}", i + 1), None)?);
    }
    let transport = host.transport();
    let mut clients = replies
        .iter()
        .map(|r| HeadlessClient::connect_via(r, mode, &transport))
        .collect::<Result<Vec<_>, _>>()?;
    let end = Instant::now() + Duration::from_secs(40);
    while Instant::now() < end {
        drive(&mut clients, Duration::from_millis(5), Instant::now() + Duration::from_millis(50));
        if clients.iter_mut().all(|c| c.clock().is_some_and(|k| k.tick > 0)) {
            return Ok((first.code, clients));
        }
    }
    Err(NetError::Timeout("the round did not start within 40 s"))
}

/// One condition's row.
fn measure(args: &NetBenchArgs, rtt: u32) -> Result<Value, NetError> {
    let jitter = rtt * args.jitter_pct / 100;
    let cond = Conditions::around_rtt(rtt, jitter, args.loss);
    let host = ImpairedHost::start("bench-net", cond, args.seed, args.ws)?;
    let (code, mut clients) = seat_room(&host, args.clients, &args.level, args.inputs)?;
    if args.inputs == InputMode::Bot {
        // The bots of one room share their claims, as a server's team does.
        let claims = crate::bot::remote::SharedClaims::default();
        for c in &mut clients {
            c.share_claims(claims.clone());
        }
    }
    let (up0, down0) = host.bytes();
    let (pup0, pdown0) = host.packets();
    let t0 = Instant::now();
    drive(&mut clients, Duration::from_millis(5), t0 + Duration::from_secs(args.seconds));
    let secs = t0.elapsed().as_secs_f64();
    let (up1, down1) = host.bytes();
    let (pup1, pdown1) = host.packets();
    let replay = host.replay_matches(&code);
    let links = host.links();
    let mut total = FrameCounts::default();
    for (_, c) in &links {
        total.add_change(&FrameCounts::default(), c);
    }
    let mut press = Vec::new();
    let (mut corrections, mut sizes, mut errors, mut press_move, mut sent) =
        (0usize, Vec::new(), Vec::new(), Vec::new(), 0u64);
    let (mut payload_up, mut payload_down) = (0.0, 0.0);
    for c in &clients {
        let s = c.session();
        let st = c.stats();
        payload_up += st["up_bytes_per_s"].as_f64().unwrap_or(0.0);
        payload_down += st["down_bytes_per_s"].as_f64().unwrap_or(0.0);
        sent += s.frames_sent;
        if let Some(link) = s.uplink() {
            press.extend(link.stats.press_to_applied_ms.iter().copied());
        }
        if let Some(p) = s.predictor() {
            corrections += p.stats.corrected as usize;
            sizes.extend(p.stats.corrections.iter().copied());
            errors.extend(p.stats.errors.iter().copied());
            press_move.extend(p.stats.press_to_move_ticks.iter().map(|t| *t as f64));
        }
    }
    let n = clients.len() as f64;
    let round3 = |v: f64| (v * 1000.0).round() / 1000.0;
    let row = json!({
        "rtt_ms": rtt,
        "jitter_ms": jitter,
        "loss_pct": args.loss,
        "transport": if args.ws { "websocket" } else { "udp" },
        "inputs": format!("{:?}", args.inputs).to_lowercase(),
        "seconds": round3(secs),
        "frames": {
            "sent": sent,
            "admitted": total.admitted,
            "merged": total.merged,
            "late": total.late,
            "lost": total.lost,
            "refused": total.refused(),
        },
        "press_to_applied_ms": {"p50": percentile(&press, 50), "p99": percentile(&press, 99), "presses": press.len()},
        "press_to_predicted_move_ticks": {"max": press_move.iter().copied().reduce(f64::max), "presses": press_move.len()},
        "corrections": {
            "per_s": round3(corrections as f64 / secs / n),
            "mean_tiles": round3(sizes.iter().sum::<f64>() / sizes.len().max(1) as f64),
            "max_tiles": round3(sizes.iter().copied().fold(0.0, f64::max)),
        },
        "prediction_error_max_tiles": round3(errors.iter().copied().fold(0.0, f64::max)),
        "bytes_per_s_per_client": {
            "up": ((up1 - up0) as f64 / secs / n).round(),
            "down": ((down1 - down0) as f64 / secs / n).round(),
            "renet_payload_up": (payload_up / n).round(),
            "renet_payload_down": (payload_down / n).round(),
        },
        "packets_per_s_per_client": {
            "up": round3((pup1 - pup0) as f64 / secs / n),
            "down": round3((pdown1 - pdown0) as f64 / secs / n),
        },
        "replay_matches": replay.map(|(ok, _)| ok),
    });
    for c in &mut clients {
        c.disconnect();
    }
    host.stop();
    Ok(row)
}

fn opt(v: &Value) -> String {
    match v {
        Value::Null => "-".into(),
        Value::Number(n) => n.to_string(),
        other => other.to_string(),
    }
}

/// Runs `bench net`; exit 0, or 1 when a condition could not be measured.
pub fn run(args: &NetBenchArgs) -> u8 {
    let mut rows = Vec::new();
    println!(
        "{:>6} {:>6} {:>5} | {:>6} {:>6} {:>5} {:>4} {:>4} {:>5} | {:>6} {:>6} | {:>4} | {:>7} {:>6} {:>6} | {:>6} | {:>6} {:>6} | {:>6} {:>6} | replay",
        "rtt",
        "jitter",
        "loss",
        "sent",
        "admit",
        "merge",
        "late",
        "lost",
        "refus",
        "p50ms",
        "p99ms",
        "move",
        "corr/s",
        "mean",
        "max",
        "err",
        "up B/s",
        "dn B/s",
        "up pl",
        "dn pl"
    );
    for &rtt in &args.rtt {
        match measure(args, rtt) {
            Ok(r) => {
                let f = &r["frames"];
                println!(
                    "{:>6} {:>6} {:>5} | {:>6} {:>6} {:>5} {:>4} {:>4} {:>5} | {:>6} {:>6} | {:>4} | {:>7} {:>6} {:>6} | {:>6} | {:>6} {:>6} | {:>6} {:>6} | {}",
                    r["rtt_ms"],
                    r["jitter_ms"],
                    r["loss_pct"],
                    f["sent"],
                    f["admitted"],
                    f["merged"],
                    f["late"],
                    f["lost"],
                    f["refused"],
                    opt(&r["press_to_applied_ms"]["p50"]),
                    opt(&r["press_to_applied_ms"]["p99"]),
                    opt(&r["press_to_predicted_move_ticks"]["max"]),
                    r["corrections"]["per_s"],
                    r["corrections"]["mean_tiles"],
                    r["corrections"]["max_tiles"],
                    r["prediction_error_max_tiles"],
                    r["bytes_per_s_per_client"]["up"],
                    r["bytes_per_s_per_client"]["down"],
                    r["bytes_per_s_per_client"]["renet_payload_up"],
                    r["bytes_per_s_per_client"]["renet_payload_down"],
                    opt(&r["replay_matches"]),
                );
                rows.push(r);
            }
            Err(e) => {
                eprintln!("bench net: {rtt} ms: {e}");
                return 1;
            }
        }
    }
    if args.json {
        println!("{}", json!({"bench": "net", "conditions": rows}));
    }
    0
}
