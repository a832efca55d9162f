//! `undercooked bench directory`: what one directory process answers. A real game server (in
//! this process) is the address every entry claims (so the directory's probe passes), `--servers`
//! entries of `--rooms` rooms each are registered under the directory's fleet secret, then
//! client threads on kept-alive connections time room-code lookups and heartbeats (renewals,
//! the steady state of announces): requests per second and p50/p99 latency, in this process's
//! store or on Redis (`--redis URL`). Also the heartbeat's bytes per server per second.
//!
//! Wall-clock time is read here: this measures a service, it is no part of the simulation.

use super::cli::{DirectoryArgs, open};
use super::limits::DirLimits;
use super::serve::DirectoryHandle;
use crate::net::server::worlds::{HostConfig, spawn_server};
use crate::net::wire::directory::{ANNOUNCE_PATH, Announce, Announced, ROOMS_PATH, RoomEntry};
use crate::net::wire::tokens::{CODE_ALPHABET, CODE_LEN, PROTOCOL_ID};
use serde_json::json;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

/// The fleet secret the benchmark's own directory is started with.
const FLEET: &str = "bench-directory-fleet";

/// Options of `bench directory`.
#[derive(clap::Args, Debug, Clone)]
pub struct DirBenchArgs {
    /// Keep the entries in this Redis (`redis://HOST:PORT/DB`; its data is overwritten under
    /// the directory's keys); without it, in the directory's process.
    #[arg(long)]
    pub redis: Option<String>,
    /// Servers registered before the timed runs.
    #[arg(long, default_value_t = 100)]
    pub servers: u32,
    /// Rooms each server announces (the heartbeat measured is one such server's).
    #[arg(long, default_value_t = 10)]
    pub rooms: u32,
    /// Requests of each timed run, spread over the client threads.
    #[arg(long, default_value_t = 20_000)]
    pub requests: u32,
    /// Client threads, each on one kept-alive connection.
    #[arg(long, default_value_t = 8)]
    pub clients: u32,
    /// The heartbeat period the bytes per second are given for (the server's `--announce-secs`).
    #[arg(long, default_value_t = 5)]
    pub announce_secs: u64,
}

/// One HTTP/1.1 connection kept alive across requests.
struct Conn {
    reader: BufReader<TcpStream>,
}

impl Conn {
    fn open(addr: SocketAddr) -> std::io::Result<Conn> {
        let s = TcpStream::connect(addr)?;
        s.set_nodelay(true)?;
        s.set_read_timeout(Some(Duration::from_secs(30)))?;
        Ok(Conn { reader: BufReader::new(s) })
    }

    /// Sends `request` whole and reads one answer: its status and body.
    fn call(&mut self, request: &[u8]) -> std::io::Result<(u16, Vec<u8>)> {
        self.reader.get_mut().write_all(request)?;
        let mut line = String::new();
        self.reader.read_line(&mut line)?;
        let status = line.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
        let mut len = 0usize;
        loop {
            line.clear();
            if self.reader.read_line(&mut line)? == 0 || line == "\r\n" {
                break;
            }
            if let Some((k, v)) = line.split_once(':')
                && k.eq_ignore_ascii_case("content-length")
            {
                len = v.trim().parse().unwrap_or(0);
            }
        }
        let mut body = vec![0; len];
        self.reader.read_exact(&mut body)?;
        Ok((status, body))
    }
}

fn get_request(path: &str) -> Vec<u8> {
    format!("GET {path} HTTP/1.1\r\nHost: directory\r\n\r\n").into_bytes()
}

fn post_request(path: &str, body: &str) -> Vec<u8> {
    format!(
        "POST {path} HTTP/1.1\r\nHost: directory\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// The `i`th room code (distinct for every `i` below 25^5).
fn code(mut i: u32) -> String {
    let n = CODE_ALPHABET.len() as u32;
    (0..CODE_LEN)
        .map(|_| {
            let c = CODE_ALPHABET[(i % n) as usize] as char;
            i /= n;
            c
        })
        .collect()
}

/// Server `s`'s announce of its `rooms` rooms, claiming `address`.
fn announce(s: u32, rooms: u32, address: SocketAddr) -> Announce {
    Announce {
        id: None,
        secret: None,
        fleet: Some(FLEET.into()),
        address: address.to_string(),
        name: format!("Bench kitchen {s:04}"),
        region: "eu-west".into(),
        protocol: PROTOCOL_ID,
        capacity: rooms.max(1),
        draining: false,
        game_server: None,
        rooms: (0..rooms)
            .map(|r| RoomEntry {
                code: code(s * rooms + r),
                level: "level_01".into(),
                mode: "Cooking".into(),
                phase: if r % 2 == 0 { "Lobby" } else { "Playing" }.into(),
                seats_taken: 2,
                seats_free: 2,
                public: r % 2 == 0,
            })
            .collect(),
    }
}

/// Requests per second and latency percentiles of one timed run.
struct Run {
    per_s: f64,
    p50_us: u128,
    p99_us: u128,
    failed: u32,
}

/// `total` requests over `clients` threads, the `i`th being `request(i)`; `ok` is its status.
fn timed(
    addr: SocketAddr,
    clients: u32,
    total: u32,
    ok: u16,
    request: impl Fn(u32) -> Vec<u8> + Sync,
) -> Result<Run, String> {
    let start = Instant::now();
    let results: Vec<Result<(Vec<Duration>, u32), String>> = std::thread::scope(|scope| {
        let request = &request;
        let threads: Vec<_> = (0..clients)
            .map(|c| {
                scope.spawn(move || {
                    let mut conn = Conn::open(addr).map_err(|e| e.to_string())?;
                    let (mut took, mut failed) = (Vec::new(), 0);
                    for i in (c..total).step_by(clients as usize) {
                        let bytes = request(i);
                        let t = Instant::now();
                        let (status, _) = conn.call(&bytes).map_err(|e| e.to_string())?;
                        took.push(t.elapsed());
                        failed += u32::from(status != ok);
                    }
                    Ok((took, failed))
                })
            })
            .collect();
        threads.into_iter().map(|t| t.join().unwrap_or_else(|_| Err("panicked".into()))).collect()
    });
    let wall = start.elapsed();
    let (mut all, mut failed) = (Vec::new(), 0);
    for r in results {
        let (took, f) = r?;
        all.extend(took);
        failed += f;
    }
    all.sort();
    let pct = |p: usize| all.get((all.len() * p / 100).min(all.len().saturating_sub(1)));
    Ok(Run {
        per_s: all.len() as f64 / wall.as_secs_f64(),
        p50_us: pct(50).map_or(0, Duration::as_micros),
        p99_us: pct(99).map_or(0, Duration::as_micros),
        failed,
    })
}

/// The directory the benchmark measures: its limits off (every request comes from here).
fn directory(redis: Option<String>) -> Result<DirectoryHandle, String> {
    let off = DirLimits::OFF;
    open(&DirectoryArgs {
        bind: [127, 0, 0, 1].into(),
        web_port: 0,
        redis,
        ttl_secs: 600,
        fleet_secret: Some(FLEET.into()),
        max_connections: 4096,
        max_connections_per_address: 4096,
        head_secs: 10,
        announces_per_minute: off.announces_per_minute,
        lookups_per_minute: off.lookups_per_minute,
        unknown_lookups_per_minute: off.unknown_lookups_per_minute,
        quick_matches_per_minute: off.quick_matches_per_minute,
        board: false,
        board_db: "board.sqlite".into(),
        levels: "levels".into(),
        board_per_minute: 0,
    })
}

fn measure(args: &DirBenchArgs) -> Result<serde_json::Value, String> {
    let data = std::env::temp_dir().join(format!("uc-bench-directory-{}", std::process::id()));
    let game = spawn_server(HostConfig::loopback(data.clone())).map_err(|e| e.to_string())?;
    let dir = directory(args.redis.clone())?;
    let (servers, rooms) = (args.servers.max(1), args.rooms);
    // Register every server (each probed once), keeping their ids and secrets for renewals.
    let mut conn = Conn::open(dir.addr).map_err(|e| e.to_string())?;
    let mut renewals = Vec::new();
    for s in 0..servers {
        let mut a = announce(s, rooms, game.addrs.web);
        let body = serde_json::to_string(&a).map_err(|e| e.to_string())?;
        let (status, answer) =
            conn.call(&post_request(ANNOUNCE_PATH, &body)).map_err(|e| e.to_string())?;
        let answered: Announced = serde_json::from_slice(&answer)
            .map_err(|_| format!("register {s}: {status} {}", String::from_utf8_lossy(&answer)))?;
        a.id = Some(answered.id);
        a.secret = answered.secret;
        renewals.push(serde_json::to_string(&a).map_err(|e| e.to_string())?);
    }
    let codes = servers * rooms.max(1);
    let lookups = timed(dir.addr, args.clients, args.requests, 200, |i| {
        get_request(&format!("{ROOMS_PATH}/{}", code(i.wrapping_mul(7919) % codes)))
    })?;
    let announces = timed(dir.addr, args.clients, args.requests, 200, |i| {
        post_request(ANNOUNCE_PATH, &renewals[(i % servers) as usize])
    })?;
    let body = renewals[0].len();
    let head = post_request(ANNOUNCE_PATH, &renewals[0]).len() - body;
    let every = args.announce_secs.max(1) as f64;
    drop(dir);
    game.stop();
    let _ = std::fs::remove_dir_all(&data);
    let run = |r: &Run| json!({"per_s": r.per_s.round() as u64, "p50_us": r.p50_us, "p99_us": r.p99_us, "failed": r.failed});
    Ok(json!({
        "bench": "directory",
        "store": if args.redis.is_some() { "redis" } else { "memory" },
        "servers": servers,
        "rooms_per_server": rooms,
        "clients": args.clients,
        "lookups": run(&lookups),
        "announces": run(&announces),
        "heartbeat": {
            "body_bytes": body,
            "request_bytes": body + head,
            "every_s": args.announce_secs,
            "bytes_per_s": ((body + head) as f64 / every).round() as u64,
        },
    }))
}

/// Runs `bench directory`; exit 0, or 1 when it could not be measured.
pub fn run(args: &DirBenchArgs) -> u8 {
    match measure(args) {
        Ok(v) => {
            let line = |what: &str| {
                let r = &v[what];
                println!(
                    "{what:>10}: {:>8} /s  p50 {:>6} µs  p99 {:>6} µs  ({} not 200)",
                    r["per_s"], r["p50_us"], r["p99_us"], r["failed"]
                );
            };
            println!(
                "bench directory: store {}, {} servers x {} rooms, {} clients",
                v["store"].as_str().unwrap_or(""),
                v["servers"],
                v["rooms_per_server"],
                v["clients"]
            );
            line("lookups");
            line("announces");
            let h = &v["heartbeat"];
            println!(
                " heartbeat: {} B body, {} B request, every {} s: {} B/s per server",
                h["body_bytes"], h["request_bytes"], h["every_s"], h["bytes_per_s"]
            );
            println!("{v}");
            u8::from(v["lookups"]["failed"] != 0 || v["announces"]["failed"] != 0)
        }
        Err(e) => {
            eprintln!("bench directory: {e}");
            1
        }
    }
}
