//! What a host watches: the server's metrics in the Prometheus/OpenMetrics text format
//! (prometheus-client, the Prometheus project's Rust client), served at `GET /metrics`.
//!
//! One registry per process, shared by its shard worlds (each writes its own `shard` label),
//! so a sharded host is scraped at one address. Each world publishes once per frame from the
//! counters its parts keep anyway (the UDP transport's [`UdpStats`], the input gate's
//! [`FrameTally`], the protocol-check deadline's drops, the rooms' faults, the emotes' tally,
//! the tick timer), so
//! a metric is never a second count that could drift from the first.

use crate::net::server::emotes::EmoteTally;
use crate::net::server::gate::UnauthorisedDrops;
use crate::net::server::inputs::FrameTally;
use crate::net::server::rooms::{RoomIndex, RoundFaults};
use crate::net::server::udp::{HostTransport, Refusal, UdpStats};
use bevy::prelude::*;
use prometheus_client::encoding::{EncodeLabelSet, EncodeLabelValue};
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;
use std::sync::Arc;

/// The `shard` label every series carries.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct Shard {
    shard: u32,
}

/// What became of input frames at the gate.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq, EncodeLabelValue)]
#[allow(non_camel_case_types)]
enum FrameOutcome {
    admitted,
    late,
    merged,
    duplicate,
    lost,
    clamped,
    future,
    flood,
    no_round,
    malformed,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct Frames {
    shard: u32,
    outcome: FrameOutcome,
}

/// What became of a seat's emote.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq, EncodeLabelValue)]
#[allow(non_camel_case_types)]
enum EmoteOutcome {
    shown,
    too_fast,
    no_seat,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct Emotes {
    shard: u32,
    outcome: EmoteOutcome,
}

#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq, EncodeLabelValue)]
#[allow(non_camel_case_types)]
enum Direction {
    received,
    sent,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct Traffic {
    shard: u32,
    direction: Direction,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct Datagram {
    shard: u32,
    reason: String,
}

/// The limit that refused a peer: each named in its refusal and counted here.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq, EncodeLabelValue)]
#[allow(non_camel_case_types)]
pub enum Limit {
    /// A source address's connection-request rate.
    connect_rate_source,
    /// All sources' connection-request rate together.
    connect_rate_global,
    /// A netcode session that did not pass the protocol check in time.
    auth_deadline,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct Limited {
    shard: u32,
    limit: Limit,
}

#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq, EncodeLabelValue)]
#[allow(non_camel_case_types)]
enum Caught {
    /// While processing one peer's datagram (that peer's connection was ended).
    datagram,
    /// In a room's sim stage (that round was aborted and recorded).
    sim,
    /// Anywhere else in a server frame (the shard's rounds were recorded, its world rebuilt).
    shard,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct Panics {
    shard: u32,
    at: Caught,
}

/// The families, registered once.
struct MetricSet {
    registry: Registry,
    rooms: Family<Shard, Gauge>,
    rounds_live: Family<Shard, Gauge>,
    clients: Family<Shard, Gauge>,
    tick_seconds: Family<Shard, Histogram>,
    frames: Family<Frames, Counter>,
    emotes: Family<Emotes, Counter>,
    udp_bytes: Family<Traffic, Counter>,
    udp_datagrams: Family<Traffic, Counter>,
    udp_refused: Family<Datagram, Counter>,
    refused: Family<Limited, Counter>,
    panics: Family<Panics, Counter>,
    invariant_faults: Family<Shard, Counter>,
    sdk_errors: Family<SdkCall, Counter>,
    health_pings: Counter,
}

/// An Agones SDK call that failed (`net::server::agones`), by the call's name.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct SdkCall {
    call: &'static str,
}

/// Frame times from 0.25 ms to ~65 ms: a tick's budget is 50 ms.
fn tick_histogram() -> Histogram {
    Histogram::new(exponential_buckets(0.000_25, 2.0, 9))
}

/// The process's metrics (cheap to clone: every shard holds the same registry).
#[derive(Resource, Clone)]
pub struct HostMetrics(Arc<MetricSet>);

impl Default for HostMetrics {
    fn default() -> Self {
        let mut registry = Registry::with_prefix("undercooked");
        let set = MetricSet {
            rooms: Family::default(),
            rounds_live: Family::default(),
            clients: Family::default(),
            tick_seconds: Family::new_with_constructor(tick_histogram),
            frames: Family::default(),
            emotes: Family::default(),
            udp_bytes: Family::default(),
            udp_datagrams: Family::default(),
            udp_refused: Family::default(),
            refused: Family::default(),
            panics: Family::default(),
            invariant_faults: Family::default(),
            sdk_errors: Family::default(),
            health_pings: Counter::default(),
            registry: Registry::default(),
        };
        registry.register("rooms", "Hosted rooms (lobbies and live rounds)", set.rooms.clone());
        registry.register("rounds_live", "Rooms with a round in play", set.rounds_live.clone());
        registry.register("clients", "Connected netcode clients", set.clients.clone());
        registry.register(
            "tick_seconds",
            "Wall time of each server frame that ran a simulation tick",
            set.tick_seconds.clone(),
        );
        registry.register(
            "input_frames",
            "Input frames at the gate, by outcome (clamped frames are admitted too)",
            set.frames.clone(),
        );
        registry.register(
            "emotes",
            "Emotes seats made, by outcome (shown to the room, or refused by name)",
            set.emotes.clone(),
        );
        registry.register("udp_bytes", "UDP payload bytes", set.udp_bytes.clone());
        registry.register("udp_datagrams", "UDP datagrams", set.udp_datagrams.clone());
        registry.register(
            "udp_refused",
            "Datagrams refused before or by netcode, by reason",
            set.udp_refused.clone(),
        );
        registry.register("refused", "Peers refused by a named limit", set.refused.clone());
        registry.register(
            "panics_caught",
            "Panics caught without ending the process, by where",
            set.panics.clone(),
        );
        registry.register(
            "invariant_faults",
            "Rounds aborted for a broken invariant",
            set.invariant_faults.clone(),
        );
        registry.register(
            "agones_sdk_errors",
            "Agones SDK calls that failed (logged and retried), by call",
            set.sdk_errors.clone(),
        );
        registry.register(
            "agones_health_pings",
            "Health pings sent to the Agones sidecar (one only when every world ticked)",
            set.health_pings.clone(),
        );
        HostMetrics(Arc::new(MetricSet { registry, ..set }))
    }
}

impl HostMetrics {
    /// A shard's frame panicked (counted by the supervisor, outside any world).
    pub fn count_shard_panic(&self, shard: u32) {
        self.0.panics.get_or_create(&Panics { shard, at: Caught::shard }).inc();
    }

    /// An Agones SDK call failed (`net::server::agones`).
    pub fn count_sdk_error(&self, call: &'static str) {
        self.0.sdk_errors.get_or_create(&SdkCall { call }).inc();
    }

    /// A health ping went to the Agones sidecar.
    pub fn count_health_ping(&self) {
        self.0.health_pings.inc();
    }

    /// The exposition text (`GET /metrics`).
    pub fn encode(&self) -> String {
        let mut out = String::new();
        // Writing into a String cannot fail.
        let _ = prometheus_client::encoding::text::encode(&mut out, &self.0.registry);
        out
    }
}

/// This world's shard index, for the label.
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct ShardIndex(pub u32);

/// The counts last published, so each frame adds only what is new.
#[derive(Resource, Default)]
struct Published {
    udp: UdpStats,
    frames: FrameTally,
    emotes: EmoteTally,
    drops: u64,
    faults: RoundFaults,
    samples: u64,
}

/// Publishes this world's counters into the shared registry every frame.
pub struct MetricsPlugin;

impl Plugin for MetricsPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<HostMetrics>().init_resource::<ShardIndex>();
        app.init_resource::<Published>();
        app.add_systems(Last, publish_metrics);
    }
}

fn publish_metrics(
    metrics: Res<HostMetrics>,
    shard: Res<ShardIndex>,
    mut last: ResMut<Published>,
    index: Res<RoomIndex>,
    rooms: Query<&crate::net::server::rooms::HostedRoom>,
    transport: Option<Res<HostTransport>>,
    tally: Res<FrameTally>,
    drops: Res<UnauthorisedDrops>,
    faults: Res<RoundFaults>,
    emotes: Option<Res<EmoteTally>>,
    times: Option<Res<crate::net::server::ticktime::TickTimes>>,
) {
    let m = &metrics.0;
    let s = shard.0;
    let at = Shard { shard: s };
    m.rooms.get_or_create(&at).set(index.by_code.len() as i64);
    let live = rooms.iter().filter(|r| r.round.is_some()).count();
    m.rounds_live.get_or_create(&at).set(live as i64);
    if let Some(t) = &transport {
        m.clients.get_or_create(&at).set(t.connected_clients() as i64);
        let (now, was) = (&t.stats, &last.udp);
        let traffic = |direction| Traffic { shard: s, direction };
        m.udp_bytes
            .get_or_create(&traffic(Direction::received))
            .inc_by(now.bytes_in - was.bytes_in);
        m.udp_bytes.get_or_create(&traffic(Direction::sent)).inc_by(now.bytes_out - was.bytes_out);
        m.udp_datagrams
            .get_or_create(&traffic(Direction::received))
            .inc_by(now.datagrams_in - was.datagrams_in);
        m.udp_datagrams
            .get_or_create(&traffic(Direction::sent))
            .inc_by(now.datagrams_out - was.datagrams_out);
        for r in Refusal::ALL {
            let new = now.refused(r) - was.refused(r);
            if new > 0 {
                let reason = r.name().to_string();
                m.udp_refused.get_or_create(&Datagram { shard: s, reason }).inc_by(new);
            }
        }
        let limited = |limit| Limited { shard: s, limit };
        let source = now.refused(Refusal::SourceRate) - was.refused(Refusal::SourceRate);
        let global = now.refused(Refusal::GlobalRate) - was.refused(Refusal::GlobalRate);
        m.refused.get_or_create(&limited(Limit::connect_rate_source)).inc_by(source);
        m.refused.get_or_create(&limited(Limit::connect_rate_global)).inc_by(global);
        let panics = Panics { shard: s, at: Caught::datagram };
        m.panics.get_or_create(&panics).inc_by(now.panics - was.panics);
        last.udp = now.clone();
    }
    let frames = |outcome| Frames { shard: s, outcome };
    let (now, was) = (&tally.0, &last.frames.0);
    for (outcome, n) in [
        (FrameOutcome::admitted, now.admitted - was.admitted),
        (FrameOutcome::late, now.late - was.late),
        (FrameOutcome::merged, now.merged - was.merged),
        (FrameOutcome::duplicate, now.duplicate - was.duplicate),
        (FrameOutcome::lost, now.lost - was.lost),
        (FrameOutcome::clamped, now.clamped - was.clamped),
        (FrameOutcome::future, now.future - was.future),
        (FrameOutcome::flood, now.flood - was.flood),
        (FrameOutcome::no_round, now.no_round - was.no_round),
        (FrameOutcome::malformed, now.malformed - was.malformed),
    ] {
        m.frames.get_or_create(&frames(outcome)).inc_by(n);
    }
    last.frames = *tally;
    if let Some(now) = emotes.as_deref() {
        let was = &last.emotes;
        for (outcome, n) in [
            (EmoteOutcome::shown, now.shown - was.shown),
            (EmoteOutcome::too_fast, now.too_fast - was.too_fast),
            (EmoteOutcome::no_seat, now.no_seat - was.no_seat),
        ] {
            m.emotes.get_or_create(&Emotes { shard: s, outcome }).inc_by(n);
        }
        last.emotes = *now;
    }
    let deadline = Limited { shard: s, limit: Limit::auth_deadline };
    m.refused.get_or_create(&deadline).inc_by(drops.0 - last.drops);
    last.drops = drops.0;
    let sim = Panics { shard: s, at: Caught::sim };
    m.panics.get_or_create(&sim).inc_by(faults.panics - last.faults.panics);
    m.invariant_faults.get_or_create(&at).inc_by(faults.invariants - last.faults.invariants);
    last.faults = *faults;
    // A frame records at most one sample (after this system), so the last one is all that is
    // new; its first field is the frame's total, in µs.
    if let Some(times) = times
        && times.recorded > last.samples
        && let Some(sample) = times.last
    {
        m.tick_seconds.get_or_create(&at).observe(sample[0] as f64 / 1e6);
        last.samples = times.recorded;
    }
}
