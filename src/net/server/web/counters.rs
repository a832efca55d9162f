//! What the web port refused and why, as plain atomics: the accept loop and every connection
//! task bump them, and metrics (the web port's own `/metrics` lines, or the world) read them.

use std::fmt::Write;
use std::sync::atomic::{AtomicU64, Ordering};

/// Counters (and two gauges) of the web port, shared through an `Arc`.
#[derive(Debug, Default)]
pub struct WebCounters {
    /// Connections accepted (within the caps).
    pub accepted: AtomicU64,
    /// Connections open now (gauge).
    pub open: AtomicU64,
    /// Closed at accept: `max_connections` reached.
    pub refused_max_connections: AtomicU64,
    /// Closed at accept: the peer's address held `per_address` connections.
    pub refused_per_address: AtomicU64,
    /// Closed: no whole request head within the head deadline (slow heads, idle keep-alive).
    pub head_timeouts: AtomicU64,
    /// 408: an API body did not arrive within the body deadline.
    pub body_timeouts: AtomicU64,
    /// Closed: a response write made no progress within the write-stall deadline.
    pub write_stalls: AtomicU64,
    /// 413: an API body over the limit.
    pub body_too_large: AtomicU64,
    /// 415: a POST without `Content-Type: application/json`.
    pub unsupported_media: AtomicU64,
    /// 400: a body that is not the endpoint's JSON (malformed, unknown field, wrong type,
    /// out of range).
    pub bad_requests: AtomicU64,
    /// 403: an `Origin` outside the allow-list.
    pub origin_refused: AtomicU64,
    /// 503: a WebSocket upgrade over `max_relays`.
    pub relay_refused: AtomicU64,
    /// 429 `relays_per_address`: an upgrade from an address holding its relays.
    pub relay_refused_per_address: AtomicU64,
    /// Relays closed because no netcode session ran through them (pings alone hold nothing).
    pub relays_sessionless: AtomicU64,
    /// WebSocket relays open now (gauge; counted once the handshake completed).
    pub relays_open: AtomicU64,
    /// 429 `room_rate_limit`.
    pub room_rate_limited: AtomicU64,
    /// 429 `rooms_per_address`.
    pub rooms_per_address: AtomicU64,
}

/// Whether a series only goes up or is a level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeriesKind {
    Counter,
    Gauge,
}

impl WebCounters {
    /// Adds one.
    pub fn bump(counter: &AtomicU64) {
        counter.fetch_add(1, Ordering::Relaxed);
    }

    /// Every series: name (without prefix), kind, help text, value now.
    pub fn series(&self) -> Vec<(&'static str, SeriesKind, &'static str, u64)> {
        use SeriesKind::{Counter, Gauge};
        let v = |c: &AtomicU64| c.load(Ordering::Relaxed);
        vec![
            ("connections_accepted_total", Counter, "Connections accepted.", v(&self.accepted)),
            ("connections_open", Gauge, "Connections open now.", v(&self.open)),
            (
                "refused_max_connections_total",
                Counter,
                "Connections closed at accept: the total cap.",
                v(&self.refused_max_connections),
            ),
            (
                "refused_per_address_total",
                Counter,
                "Connections closed at accept: the per-address cap.",
                v(&self.refused_per_address),
            ),
            ("head_timeouts_total", Counter, "Request head deadline hits.", v(&self.head_timeouts)),
            (
                "body_timeouts_total",
                Counter,
                "Request body deadline hits (408).",
                v(&self.body_timeouts),
            ),
            ("write_stalls_total", Counter, "Peers that stopped reading.", v(&self.write_stalls)),
            (
                "body_too_large_total",
                Counter,
                "Bodies over the limit (413).",
                v(&self.body_too_large),
            ),
            (
                "unsupported_media_total",
                Counter,
                "POSTs without a JSON Content-Type (415).",
                v(&self.unsupported_media),
            ),
            ("bad_requests_total", Counter, "Refused bodies (400).", v(&self.bad_requests)),
            ("origin_refused_total", Counter, "Foreign origins (403).", v(&self.origin_refused)),
            (
                "relay_refused_total",
                Counter,
                "Upgrades over the relay cap (503).",
                v(&self.relay_refused),
            ),
            (
                "relay_refused_per_address_total",
                Counter,
                "Upgrades from an address at its relay cap (429).",
                v(&self.relay_refused_per_address),
            ),
            (
                "relays_sessionless_total",
                Counter,
                "Relays closed with no netcode session running through them.",
                v(&self.relays_sessionless),
            ),
            ("relays_open", Gauge, "WebSocket relays open now.", v(&self.relays_open)),
            (
                "room_rate_limited_total",
                Counter,
                "Room creations over an address's rate (429).",
                v(&self.room_rate_limited),
            ),
            (
                "rooms_per_address_total",
                Counter,
                "Room creations over an address's live-room cap (429).",
                v(&self.rooms_per_address),
            ),
        ]
    }

    /// The series as OpenMetrics text (also valid Prometheus text), each named
    /// `undercooked_web_…`: a counter's family is named without its samples' `_total`, as
    /// OpenMetrics requires, so these lines sit beside the registry's own (net::server::metrics).
    pub fn prometheus(&self) -> String {
        let mut out = String::new();
        for (name, kind, help, value) in self.series() {
            let (family, kind) = match kind {
                SeriesKind::Counter => (name.strip_suffix("_total").unwrap_or(name), "counter"),
                SeriesKind::Gauge => (name, "gauge"),
            };
            let _ = writeln!(out, "# HELP undercooked_web_{family} {help}");
            let _ = writeln!(out, "# TYPE undercooked_web_{family} {kind}");
            let _ = writeln!(out, "undercooked_web_{name} {value}");
        }
        out
    }
}
