//! The web port's settings beyond its address: the static root, the relay's limits, the
//! allowed origins, every per-connection and per-address limit (docs/NETWORK.md, "Limits"),
//! and the heartbeat to a directory that runs on its runtime (`net::server::announce`).

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;

/// What `--headless` is told about its web port.
#[derive(Clone, Debug)]
pub struct WebConfig {
    /// Static files served at `/` (the browser build, `web/build.sh`'s output).
    pub root: PathBuf,
    /// Most WebSocket relays open at once.
    pub max_relays: usize,
    /// Most WebSocket relays open at once from one IP address (0: no limit).
    pub relays_per_address: usize,
    /// A relay is closed when the netcode server has sent no session packet (keep-alive or
    /// payload) through it for this long, from the upgrade on: WebSocket pings alone keep no
    /// relay open.
    pub relay_session: Duration,
    /// A relay with no message from its browser for this long is closed.
    pub idle: Duration,
    /// Origins allowed besides this host's own names (`--allow-origin`, as a browser sends
    /// them: `https://play.example`).
    pub origins: Vec<String>,
    /// The hosts players reach this server at (`--public`'s addresses): a page served from one
    /// of them, on the web port, is this host's own origin.
    pub public_hosts: Vec<IpAddr>,
    pub limits: WebLimits,
    /// `--announce`: heartbeat to a directory (`net::server::announce`).
    pub announce: Option<AnnounceConfig>,
    /// Set when a drain begins (`--drain-seconds`, `net::server::drain`): the API refuses new
    /// rooms and joins, `/readyz` says so and the announce tells the directory.
    pub draining: Draining,
    /// The Agones GameServer this host is (`--agones`, learnt from the SDK sidecar): every
    /// announce carries it, so the directory names the fleet's server behind each entry.
    pub game_server: GameServerName,
    /// `--board`: the results board this port serves under `/api/board` (`crate::board`).
    pub board: Option<std::sync::Arc<super::board::BoardDoor>>,
}

/// The host's drain switch, shared by the signal handler, the web port and every world.
#[derive(Clone, Debug, Default, bevy::prelude::Resource)]
pub struct Draining(pub std::sync::Arc<std::sync::atomic::AtomicBool>);

impl Draining {
    pub fn is_on(&self) -> bool {
        self.0.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// Turns the drain on; true when it was off (the first signal).
    pub fn begin(&self) -> bool {
        !self.0.swap(true, std::sync::atomic::Ordering::SeqCst)
    }
}

/// The Agones GameServer's name, once the SDK sidecar has told it (`net::server::agones`).
#[derive(Clone, Debug, Default)]
pub struct GameServerName(pub std::sync::Arc<std::sync::Mutex<Option<String>>>);

impl GameServerName {
    pub fn get(&self) -> Option<String> {
        self.0.lock().ok().and_then(|n| n.clone())
    }

    pub fn set(&self, name: String) {
        if let Ok(mut n) = self.0.lock() {
            *n = Some(name);
        }
    }
}

impl Default for WebConfig {
    fn default() -> Self {
        WebConfig {
            root: PathBuf::from("web/dist"),
            max_relays: 256,
            relays_per_address: 8,
            relay_session: Duration::from_secs(5),
            idle: Duration::from_secs(15),
            origins: Vec::new(),
            public_hosts: Vec::new(),
            limits: WebLimits::default(),
            announce: None,
            draining: Draining::default(),
            game_server: GameServerName::default(),
            board: None,
        }
    }
}

impl WebConfig {
    /// This config with the hosts of the addresses connect tokens name as its public names.
    pub fn with_public(mut self, public: &[SocketAddr]) -> Self {
        for a in public {
            if !self.public_hosts.contains(&a.ip()) {
                self.public_hosts.push(a.ip());
            }
        }
        self
    }
}

/// What one peer may hold or ask of the web port. Each refusal is counted in
/// [`super::counters::WebCounters`].
#[derive(Clone, Debug)]
pub struct WebLimits {
    /// Connections open at once, from everyone (over it: closed at once).
    pub max_connections: usize,
    /// Connections open at once from one IP address (over it: closed at once).
    pub per_address: usize,
    /// A request head must arrive whole within this long of the connection's (or the previous
    /// response's) end: one deadline for slow heads and idle keep-alive connections.
    pub head: Duration,
    /// An API request's whole body must arrive within this long of its head (else 408).
    pub body: Duration,
    /// The largest API request body (else 413).
    pub max_body: usize,
    /// A response write that makes no progress for this long (a peer that stopped reading)
    /// closes the connection.
    pub write_stall: Duration,
    /// Live rooms one IP address may have created (0: no limit; else 429 `rooms_per_address`).
    pub rooms_per_address: usize,
    /// Room creations one IP address may make in a burst (0: no limit) …
    pub room_burst: u32,
    /// … refilled by one every this long (else 429 `room_rate_limit`).
    pub room_refill: Duration,
}

impl Default for WebLimits {
    fn default() -> Self {
        WebLimits {
            max_connections: 4096,
            per_address: 64,
            head: Duration::from_secs(10),
            body: Duration::from_secs(10),
            max_body: 4096,
            write_stall: Duration::from_secs(30),
            rooms_per_address: 4,
            room_burst: 4,
            room_refill: Duration::from_secs(15),
        }
    }
}

/// The default heartbeat period: three beats fit in the directory's 15 s TTL.
pub const ANNOUNCE_EVERY: Duration = Duration::from_secs(5);

/// What `--announce` and its companions say.
#[derive(Clone, Debug)]
pub struct AnnounceConfig {
    /// The directory, `http://HOST:PORT`.
    pub directory: String,
    pub name: String,
    pub region: String,
    /// `--fleet-secret`: the directory operator's own servers.
    pub fleet: Option<String>,
    /// `--public-web`: where players reach the web port (default: the bound address, with
    /// 127.0.0.1 for an unspecified one).
    pub address: Option<SocketAddr>,
    pub every: Duration,
    /// Most rooms the server hosts (`--max-rooms`).
    pub capacity: usize,
}

/// The address announced for a web port bound at `bound`.
pub fn public_web(cfg: &AnnounceConfig, bound: SocketAddr) -> SocketAddr {
    cfg.address.unwrap_or_else(|| match bound.ip().is_unspecified() {
        true => SocketAddr::new([127, 0, 0, 1].into(), bound.port()),
        false => bound,
    })
}
