//! The proxies' counters: atomics the forwarding threads bump, read as plain snapshots.

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};

/// What one direction (client → server "up", or server → client "down") saw so far. For TCP a
/// unit is a chunk: what one `read` returned.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DirectionStats {
    /// Datagrams (chunks) that reached the proxy.
    pub received: u64,
    pub bytes_received: u64,
    /// Datagrams (chunks) handed on, duplicates included.
    pub delivered: u64,
    pub bytes_delivered: u64,
    /// Datagrams dropped as lost (UDP only; deterministic for a seed and a traffic sequence).
    pub dropped: u64,
    /// Extra copies scheduled (UDP only).
    pub duplicated: u64,
    /// Datagrams held back by `reorder_ppm` (UDP only).
    pub held: u64,
    /// Datagrams delivered after a later one of the same client and direction (UDP only; from
    /// jitter or a hold; duplicates' second copies are not counted).
    pub reordered: u64,
    /// Chunks chosen as lost and delivered after a retransmission stall (TCP only).
    pub stalled: u64,
    /// Socket errors: a send refused (full buffer, ICMP unreachable), a failed connect.
    pub errors: u64,
}

/// Both directions of a proxy, and its clients.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProxyStats {
    /// Client → server.
    pub up: DirectionStats,
    /// Server → client.
    pub down: DirectionStats,
    /// Client source addresses (UDP) or connections (TCP) seen so far.
    pub sessions: u64,
    /// Of which still open (UDP: not yet expired for idleness).
    pub active: u64,
}

#[derive(Default)]
pub(crate) struct DirectionCounters {
    pub received: AtomicU64,
    pub bytes_received: AtomicU64,
    pub delivered: AtomicU64,
    pub bytes_delivered: AtomicU64,
    pub dropped: AtomicU64,
    pub duplicated: AtomicU64,
    pub held: AtomicU64,
    pub reordered: AtomicU64,
    pub stalled: AtomicU64,
    pub errors: AtomicU64,
}

#[derive(Default)]
pub(crate) struct Counters {
    pub up: DirectionCounters,
    pub down: DirectionCounters,
    pub sessions: AtomicU64,
    pub active: AtomicU64,
}

/// Adds `n` to a counter. Relaxed: the counters are independent tallies, read as a snapshot
/// that need not be consistent across fields to the instant.
pub(crate) fn bump(counter: &AtomicU64, n: u64) {
    counter.fetch_add(n, Ordering::Relaxed);
}

pub(crate) fn drop_one(counter: &AtomicU64) {
    counter.fetch_sub(1, Ordering::Relaxed);
}

impl DirectionCounters {
    /// One datagram or chunk of `bytes` arrived.
    pub fn received(&self, bytes: usize) {
        bump(&self.received, 1);
        bump(&self.bytes_received, bytes as u64);
    }

    /// One datagram or chunk of `bytes` was handed on.
    pub fn delivered(&self, bytes: usize) {
        bump(&self.delivered, 1);
        bump(&self.bytes_delivered, bytes as u64);
    }

    fn snapshot(&self) -> DirectionStats {
        let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
        DirectionStats {
            received: get(&self.received),
            bytes_received: get(&self.bytes_received),
            delivered: get(&self.delivered),
            bytes_delivered: get(&self.bytes_delivered),
            dropped: get(&self.dropped),
            duplicated: get(&self.duplicated),
            held: get(&self.held),
            reordered: get(&self.reordered),
            stalled: get(&self.stalled),
            errors: get(&self.errors),
        }
    }
}

impl Counters {
    pub fn snapshot(&self) -> ProxyStats {
        ProxyStats {
            up: self.up.snapshot(),
            down: self.down.snapshot(),
            sessions: self.sessions.load(Ordering::Relaxed),
            active: self.active.load(Ordering::Relaxed),
        }
    }
}

impl fmt::Display for DirectionStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "in {} ({} B) out {} ({} B) dropped {} dup {} held {} reordered {} stalled {} errors {}",
            self.received,
            self.bytes_received,
            self.delivered,
            self.bytes_delivered,
            self.dropped,
            self.duplicated,
            self.held,
            self.reordered,
            self.stalled,
            self.errors
        )
    }
}

impl fmt::Display for ProxyStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "sessions {} (active {}) | up: {} | down: {}",
            self.sessions, self.active, self.up, self.down
        )
    }
}
