//! `undercooked directory`: its options, and the process that runs one until SIGINT/SIGTERM.

use super::admit::Admission;
use super::memory::MemoryStore;
use super::metrics::DirCounters;
use super::redis_store::RedisStore;
use super::serve::start;
use super::service::DirShared;
use super::store::Store;
use crate::net::server::web::{WebCounters, WebLimits};
use std::net::{IpAddr, SocketAddr};
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
}

/// Runs a directory until a signal; the exit code.
pub fn run(args: &DirectoryArgs) -> u8 {
    let store: Arc<dyn Store> = match &args.redis {
        None => Arc::new(MemoryStore::default()),
        Some(url) => match RedisStore::open(url) {
            Ok(s) => Arc::new(s),
            Err(e) => {
                eprintln!("error: --redis {url}: {e}");
                return 2;
            }
        },
    };
    let shared = DirShared {
        admission: Admission {
            store,
            ttl: Duration::from_secs(args.ttl_secs),
            fleet: args.fleet_secret.clone(),
        },
        counters: DirCounters::default(),
        web: Arc::new(WebCounters::default()),
        body_wait: WebLimits::default().body,
    };
    let limits = WebLimits {
        max_connections: args.max_connections,
        per_address: args.max_connections_per_address,
        ..Default::default()
    };
    let handle = match start(SocketAddr::new(args.bind, args.web_port), shared, limits) {
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
    while !stop.load(Ordering::SeqCst) {
        std::thread::sleep(Duration::from_millis(100));
    }
    handle.stop();
    0
}
