//! `--drain-seconds N`: the stop that keeps rounds. The first SIGTERM/SIGINT turns the host's
//! [`Draining`] switch on: the web port refuses new rooms and joins (`draining`), `/readyz`
//! answers 503 `draining`, the announce tells the directory (which stops offering the server),
//! and lobbies start no new round. Rounds in play run on until none is left or N seconds
//! passed; then the ordinary shutdown ends what is still live (reason `shutdown`, recorded and
//! bundled) and the process exits 0. A second signal during the drain stops at once.

use crate::net::server::web::config::Draining;
use bevy::log::info;
use bevy::prelude::*;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How often the waiting thread looks at the switch and counts live rounds.
const POLL: Duration = Duration::from_millis(50);

/// Rounds in play in one world (a lobby between rounds holds none).
pub fn live_rounds(world: &mut World) -> usize {
    let mut q = world.query::<&crate::net::server::hosted::HostedRoom>();
    q.iter(world).filter(|h| h.round.is_some()).count()
}

/// What a signal does: with a drain bound, the first one (`first`) begins the drain and any
/// later one stops; without, it stops (today's shutdown: live rounds end `shutdown`). A drain
/// begun another way (an Agones shutdown) leaves the next signal a first one: Kubernetes sends
/// SIGTERM to a GameServer it is deleting, and that must not cut the drain short.
pub fn on_signal(
    drain: Option<Duration>,
    draining: &Draining,
    stops: &[Arc<AtomicBool>],
    first: bool,
) {
    if drain.is_some() && first {
        draining.begin();
        return;
    }
    stops.iter().for_each(|f| f.store(true, Ordering::SeqCst));
}

/// What the drain needs of the host's shards (`worlds::run_sharded` gives them).
pub struct ShardWatch<'a> {
    /// Rounds in play in all shards now (a shard that does not answer holds none we wait on).
    pub live: &'a dyn Fn() -> usize,
    /// Whether every shard was stopped another way (a second signal) or has ended.
    pub stopped: &'a dyn Fn() -> bool,
    /// Throws every shard's stop switch: the ordinary shutdown.
    pub stop: &'a dyn Fn(),
}

/// Waits (on the calling thread) for a drain to begin, then until no shard has a round in play
/// or `bound` passed, and stops the shards. Returns early when they were stopped another way.
pub fn drain_then_stop(shards: ShardWatch<'_>, draining: &Draining, bound: Duration) {
    let stopped = shards.stopped;
    while !draining.is_on() {
        if stopped() {
            return;
        }
        std::thread::sleep(POLL);
    }
    let end = Instant::now() + bound;
    let mut announced = None;
    loop {
        if stopped() {
            return;
        }
        let live = (shards.live)();
        if announced != Some(live) {
            info!(live_rounds = live, bound_secs = bound.as_secs(), "draining");
            announced = Some(live);
        }
        if live == 0 || Instant::now() >= end {
            break;
        }
        std::thread::sleep(POLL);
    }
    (shards.stop)();
}
