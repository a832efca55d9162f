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

pub mod addr;
pub mod cli;
pub mod conditions;
pub mod direction;
pub mod stats;
pub mod tcp;
pub mod udp;

#[cfg(test)]
mod tests;

pub use conditions::{Conditions, Fate, PPM, percent_to_ppm};
pub use stats::{DirectionStats, ProxyStats};
pub use tcp::TcpProxy;
pub use udp::UdpProxy;
