//! `undercooked netem`: the impairment proxy by hand, in front of a real server, printing its
//! counters once a second and on Ctrl-C.

use super::conditions::Conditions;
use super::stats::ProxyStats;
use super::tcp::TcpProxy;
use super::udp::UdpProxy;
use clap::{ArgGroup, Args};
use std::net::{SocketAddr, ToSocketAddrs};
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::time::Duration;

/// Options of `undercooked netem`. The conditions apply to each direction alike.
#[derive(Args, Debug, Clone)]
#[command(group(ArgGroup::new("transport").required(true).args(["udp", "tcp"])))]
pub struct NetemArgs {
    /// Address to listen on; clients use it instead of the server's.
    #[arg(long, default_value = "127.0.0.1:0")]
    pub listen: SocketAddr,
    /// The server, HOST:PORT (the UDP port, or the web port for --tcp).
    #[arg(long)]
    pub upstream: String,
    /// Proxy UDP datagrams (the netcode port).
    #[arg(long)]
    pub udp: bool,
    /// Proxy TCP connections (the web port: `join --ws`, browsers on ws://).
    #[arg(long)]
    pub tcp: bool,
    /// Base round trip in ms, half of it each way.
    #[arg(long, default_value_t = 0)]
    pub rtt: u32,
    /// Jitter in ms each way: a uniform extra delay in 0..=2×JITTER (mean JITTER).
    #[arg(long, default_value_t = 0)]
    pub jitter: u32,
    /// Loss in % each way (TCP: a chunk stalls for a retransmission instead).
    #[arg(long, default_value_t = 0.0)]
    pub loss: f64,
    /// Datagrams held back to be overtaken, in % each way (UDP only).
    #[arg(long, default_value_t = 0.0)]
    pub reorder: f64,
    /// Datagrams delivered twice, in % each way (UDP only).
    #[arg(long, default_value_t = 0.0)]
    pub duplicate: f64,
    /// Seed of the fates drawn: the same seed and traffic give the same losses.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Either proxy, for printing.
enum Running {
    Udp(UdpProxy),
    Tcp(TcpProxy),
}

impl Running {
    fn stats(&self) -> ProxyStats {
        match self {
            Running::Udp(p) => p.stats(),
            Running::Tcp(p) => p.stats(),
        }
    }
}

/// Runs the proxy until SIGINT/SIGTERM. Exit 0, or 2 when it cannot start.
pub fn run(args: &NetemArgs) -> u8 {
    let upstream = match resolve(&args.upstream) {
        Ok(addr) => addr,
        Err(e) => {
            eprintln!("error: --upstream {}: {e}", args.upstream);
            return 2;
        }
    };
    let conditions = Conditions::from_rtt(args.rtt, args.jitter, args.loss)
        .with_reorder_percent(args.reorder)
        .with_duplicate_percent(args.duplicate);
    let started = if args.tcp {
        TcpProxy::bind(args.listen, upstream, conditions, conditions, args.seed).map(Running::Tcp)
    } else {
        UdpProxy::bind(args.listen, upstream, conditions, conditions, args.seed).map(Running::Udp)
    };
    let proxy = match started {
        Ok(proxy) => proxy,
        Err(e) => {
            eprintln!("error: cannot listen on {}: {e}", args.listen);
            return 2;
        }
    };
    let (local, kind) = match &proxy {
        Running::Udp(p) => (p.local_addr(), "udp"),
        Running::Tcp(p) => (p.local_addr(), "tcp"),
    };
    println!("netem: {kind} {local} -> {upstream}, seed {}", args.seed);
    println!("each way: {conditions}");
    if args.tcp && (conditions.reorder_ppm > 0 || conditions.duplicate_ppm > 0) {
        println!(
            "note: TCP cannot reorder or duplicate bytes: --reorder and --duplicate are ignored"
        );
    }
    let (tx, rx) = channel();
    if let Err(e) = ctrlc::set_handler(move || {
        let _ = tx.send(());
    }) {
        eprintln!("error: cannot catch Ctrl-C: {e}");
        return 2;
    }
    // A second without a signal prints a line; the signal (or a lost handler) ends it.
    while let Err(RecvTimeoutError::Timeout) = rx.recv_timeout(Duration::from_secs(1)) {
        println!("{}", proxy.stats());
    }
    println!("final: {}", proxy.stats());
    0
}

/// HOST:PORT to the first address it names.
fn resolve(upstream: &str) -> std::io::Result<SocketAddr> {
    upstream.to_socket_addrs()?.next().ok_or_else(|| std::io::Error::other("no address"))
}
