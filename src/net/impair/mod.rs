//! A network-impairment proxy in user space (kernel netem is not available everywhere we test):
//! it sits between real clients and a real server and delays, jitters, loses, reorders and
//! duplicates their traffic, from a seeded generator so a run can be repeated.
//!
//! - [`UdpProxy`]: the netcode path. One listening socket; each client source address gets an
//!   upstream socket of its own (the server sees one peer per client); datagrams wait in a
//!   binary heap ordered by delivery time, all on one thread.
//! - [`TcpProxy`]: the WebSocket path (`ws://`). Each chunk read is delayed, byte order kept;
//!   loss becomes a retransmission stall; half-closes and closes pass through.
//! - [`Conditions`]: one direction's delay, jitter, loss, reordering and duplication.
//! - [`cli`]: `undercooked netem`, the proxy by hand.
//!
//! Both proxies stop and join every thread they started on [`Drop`]. docs/NETWORK.md
//! ("Impairment proxy") describes the model and its limits.

pub mod cli;
pub mod conditions;
pub mod stats;
pub mod tcp;
pub mod udp;

#[cfg(test)]
mod tests;

pub use conditions::{Conditions, Fate, PPM, percent_to_ppm};
pub use stats::{DirectionStats, ProxyStats};
pub use tcp::TcpProxy;
pub use udp::UdpProxy;

use crate::sim::rng::SplitMix64;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

/// Which way traffic flows through a proxy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Client → server.
    Up,
    /// Server → client.
    Down,
}

/// The random stream of one direction (of one TCP connection), derived from the caller's seed,
/// so the two directions' fates do not depend on how their traffic interleaves.
///
/// The stream starts at a mixed output, not at the seed nudged by the salt (as
/// `SplitMix64::fork` does): splitmix64 steps every stream by the same constant, so nudged
/// states of neighbouring salts would walk one step apart through nearly the same sequence.
pub(crate) fn stream(seed: u64, direction: Direction, connection: u64) -> SplitMix64 {
    let salt = connection.wrapping_mul(2) + u64::from(direction == Direction::Down) + 1;
    SplitMix64::new(SplitMix64::new(seed ^ salt.wrapping_mul(0xD1B5_4A32_D192_ED03)).next_u64())
}

/// The local address a socket towards `upstream` binds: loopback for a loopback server (so a
/// test never touches another interface), otherwise any interface of the same family.
pub(crate) fn local_for(upstream: SocketAddr) -> SocketAddr {
    let ip = match (upstream.ip(), upstream.ip().is_loopback()) {
        (IpAddr::V4(_), true) => IpAddr::V4(Ipv4Addr::LOCALHOST),
        (IpAddr::V4(_), false) => IpAddr::V4(Ipv4Addr::UNSPECIFIED),
        (IpAddr::V6(_), true) => IpAddr::V6(Ipv6Addr::LOCALHOST),
        (IpAddr::V6(_), false) => IpAddr::V6(Ipv6Addr::UNSPECIFIED),
    };
    SocketAddr::new(ip, 0)
}

/// Where the proxies listen by default: an ephemeral port on 127.0.0.1.
pub(crate) fn loopback_any_port() -> SocketAddr {
    SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), 0)
}
