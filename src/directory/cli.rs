//! `undercooked directory`: its options, and the process that runs one until SIGINT/SIGTERM.

use super::admit::Admission;
use super::limits::{DirLimiter, DirLimits};
use super::memory::MemoryStore;
use super::metrics::DirCounters;
use super::redis_store::RedisStore;
use super::serve::{DirectoryHandle, start};
use super::service::DirShared;
use super::store::Store;
use crate::board::daily::DailyWindow;
use crate::board::running::{Board, BoardConfig, BoardHome, BoardLimits};
use crate::net::server::web::board::BoardDoor;
use crate::net::server::web::{WebCounters, WebLimits};
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How long after its last heartbeat a server leaves the list by default.
pub const TTL_SECS: u64 = 15;

/// `undercooked directory` options (docs/HOSTING.md).
#[derive(clap::Args, Clone, Debug)]
pub struct DirectoryArgs {
    /// Address the directory's port binds to.
    #[arg(long, default_value = "0.0.0.0")]
    pub bind: IpAddr,
    /// HTTP port of the directory (0: any free port).
    #[arg(long, default_value_t = 7790)]
    pub web_port: u16,
    /// Keep entries in Redis (`redis://HOST:PORT/DB`), shared by every directory on it and
    /// kept across restarts; without it, in this process.
    #[arg(long)]
    pub redis: Option<String>,
    /// Seconds after its last heartbeat that a server and its rooms leave the list.
    #[arg(long, default_value_t = TTL_SECS, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub ttl_secs: u64,
    /// A secret this host's own servers announce with (`--fleet-secret` on the server): such a
    /// server may take over its address's entry and claim an address it does not send from.
    #[arg(long)]
    pub fleet_secret: Option<String>,
    /// Most connections open at once; the next is closed at accept.
    #[arg(long, default_value_t = 4096)]
    pub max_connections: usize,
    /// Most connections open at once from one IP address.
    #[arg(long, default_value_t = 64)]
    pub max_connections_per_address: usize,
    /// Seconds a request head may take to arrive whole (also how long an idle kept-alive
    /// connection stays), and an announce's body after its head: slow senders are cut off.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=600))]
    pub head_secs: u64,
    /// Announces one IP address may send per minute, also its burst (0: no limit); over it,
    /// 429 `announce_rate_limit`. A server beats every 5 s (12 a minute).
    #[arg(long, default_value_t = 60)]
    pub announces_per_minute: u32,
    /// Room-code lookups one IP address may make per minute, also its burst (0: no limit);
    /// over it, 429 `lookup_rate_limit`.
    #[arg(long, default_value_t = 120)]
    pub lookups_per_minute: u32,
    /// Lookups of codes no live server holds that one IP address may make per minute, also its
    /// burst (0: no limit); past it every lookup of that address gets 429
    /// `unknown_lookup_rate_limit` until a token refills, so codes cannot be found by guessing.
    #[arg(long, default_value_t = 10)]
    pub unknown_lookups_per_minute: u32,
    /// Quick-match requests one IP address may make per minute, also its burst (0: no limit);
    /// over it, 429 `quick_match_rate_limit`.
    #[arg(long, default_value_t = 20)]
    pub quick_matches_per_minute: u32,
    /// Serve the results board on `/api/board` (docs/NETWORK.md, "The results board"): its
    /// entries in Redis with `--redis`, else in the SQLite file `--board-db`.
    #[arg(long)]
    pub board: bool,
    /// The board's SQLite file (without `--redis`).
    #[arg(long, default_value = "board.sqlite", requires = "board")]
    pub board_db: PathBuf,
    /// The levels folder whose index.ron says which levels the board ranks (besides the daily
    /// kitchens of today and the two days before).
    #[arg(long, default_value = "levels", requires = "board")]
    pub levels: PathBuf,
    /// Bundles one IP address may submit per minute, also its burst (0: no limit); over it,
    /// 429 `TOO_MANY`.
    #[arg(long, default_value_t = 6, requires = "board")]
    pub board_per_minute: u32,
}

impl DirectoryArgs {
    /// The per-address rates these flags set.
    pub fn limits(&self) -> DirLimits {
        DirLimits {
            announces_per_minute: self.announces_per_minute,
            lookups_per_minute: self.lookups_per_minute,
            unknown_lookups_per_minute: self.unknown_lookups_per_minute,
            quick_matches_per_minute: self.quick_matches_per_minute,
        }
    }
}

/// Opens the store and serves a directory on its port as `args` say (`run`, and the benchmark).
pub fn open(args: &DirectoryArgs) -> Result<DirectoryHandle, String> {
    let store: Arc<dyn Store> = match &args.redis {
        None => Arc::new(MemoryStore::default()),
        Some(url) => Arc::new(RedisStore::open(url).map_err(|e| format!("--redis {url}: {e}"))?),
    };
    let wait = Duration::from_secs(args.head_secs);
    let board = match args.board {
        false => None,
        true => Some(BoardDoor::new(
            Board::open(&board_config(args)).map_err(|e| format!("--board: {e}"))?,
        )),
    };
    let shared = DirShared {
        admission: Admission {
            store,
            ttl: Duration::from_secs(args.ttl_secs),
            fleet: args.fleet_secret.clone(),
        },
        counters: DirCounters::default(),
        limiter: DirLimiter::new(&args.limits()),
        web: Arc::new(WebCounters::default()),
        body_wait: wait,
        board,
    };
    let limits = WebLimits {
        max_connections: args.max_connections,
        per_address: args.max_connections_per_address,
        head: wait,
        body: wait,
        ..Default::default()
    };
    start(SocketAddr::new(args.bind, args.web_port), shared, limits).map_err(|e| e.to_string())
}

/// The board `--board` and its companions describe.
fn board_config(args: &DirectoryArgs) -> BoardConfig {
    BoardConfig {
        home: match &args.redis {
            Some(url) => BoardHome::Redis(url.clone()),
            None => BoardHome::Sqlite(args.board_db.clone()),
        },
        levels: args.levels.clone(),
        daily: DailyWindow::WallClock,
        limits: BoardLimits { per_minute: args.board_per_minute, ..BoardLimits::default() },
    }
}

/// Runs a directory until a signal; the exit code.
pub fn run(args: &DirectoryArgs) -> u8 {
    let handle = match open(args) {
        Ok(h) => h,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    if let Err(e) = ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst)) {
        eprintln!("error: signal handler: {e}");
        return 2;
    }
    let store = match &args.redis {
        Some(url) => format!("redis {url}"),
        None => "this process".into(),
    };
    println!(
        "undercooked directory: http://{} (entries in {store}, ttl {} s)",
        handle.addr, args.ttl_secs
    );
    if args.board {
        let home = match &args.redis {
            Some(url) => format!("redis {url}"),
            None => args.board_db.display().to_string(),
        };
        println!("results board: http://{}/api/board (entries in {home})", handle.addr);
    }
    while !stop.load(Ordering::SeqCst) {
        std::thread::sleep(Duration::from_millis(100));
    }
    handle.stop();
    0
}
