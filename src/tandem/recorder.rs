//! Recording a live Tandem run for its bundle while the room steps: every installed order
//! (packed) and the hash chain with its field log at the bundle cadence. Plain data, no Bevy:
//! the desktop client's run owns one (`client/tandem/record.rs`), a hosted room can too.

use super::bundle::{TANDEM_BUNDLE_EVERY, TANDEM_BUNDLE_VERSION, TandemBundle, pack};
use super::control::SeatOrder;
use super::events::{Outcome, StepRefusal};
use super::hash::walk;
use super::room::TandemRoom;
use crate::replay::chain::ChainRecorder;
use crate::replay::hex::hex;

/// One run's recording.
#[derive(Clone, Debug)]
pub struct TandemRecorder {
    /// Where it is played (`local`, or a room code) and the run's number there.
    pub room: String,
    pub round: u32,
    /// (seat, who drives it).
    pub seats: Vec<(u8, String)>,
    chain: ChainRecorder,
    orders: Vec<super::bundle::BundleOrder>,
    /// How much of the room's order log is packed.
    seen: usize,
}

/// The room's hashed fields by name.
fn named(room: &TandemRoom) -> Vec<(String, i64)> {
    let mut v = Vec::new();
    walk(room, &mut |name, x| v.push((name(), x)));
    v
}

/// The name of an outcome in a bundle's `reason`.
pub fn reason_of(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Delivered => "delivered",
        Outcome::Wrecked => "wrecked",
        Outcome::SimFault => "sim_fault",
        Outcome::OutOfTime => "out_of_time",
    }
}

impl TandemRecorder {
    /// Starts recording a room before its first tick (its tick 0: the course digest).
    pub fn start(room: &TandemRoom, code: &str, round: u32, seats: Vec<(u8, String)>) -> Self {
        let mut r = TandemRecorder {
            room: code.to_string(),
            round,
            seats,
            chain: ChainRecorder::default(),
            orders: Vec::new(),
            seen: 0,
        };
        r.after_step(room);
        r
    }

    /// Call after every `step` (and once at the start): packs the orders the tick installed,
    /// and records the chain on the cadence and when the run has ended.
    pub fn after_step(&mut self, room: &TandemRoom) {
        for r in room.order_log.iter().skip(self.seen) {
            self.orders.push(pack(r));
        }
        self.seen = room.order_log.len();
        if room.tick.is_multiple_of(TANDEM_BUNDLE_EVERY) || room.outcome().is_some() {
            self.record(room);
        }
    }

    /// Steps the room one tick with these orders and records it: the path a recorded run
    /// takes (the desktop client's, and the tests').
    pub fn step(
        &mut self,
        room: &mut TandemRoom,
        orders: [SeatOrder; 2],
    ) -> Result<(), StepRefusal> {
        room.step(orders)?;
        self.after_step(room);
        Ok(())
    }

    fn record(&mut self, room: &TandemRoom) {
        if self.chain.hashes.last().is_none_or(|(t, _)| *t != room.tick) {
            self.chain.record_fields(room.tick, room.hash, named(room));
        }
    }

    /// The bundle of the run as it stands: ended (its outcome is the reason) or stopped
    /// early (`reason`, e.g. `left`).
    pub fn finish(mut self, room: &TandemRoom, reason: &str) -> TandemBundle {
        self.after_step(room);
        self.record(room);
        let reason = room.outcome().map_or_else(|| reason.to_string(), |o| reason_of(o).into());
        TandemBundle {
            tandem_bundle_version: TANDEM_BUNDLE_VERSION,
            room: self.room,
            round: self.round,
            reason,
            seed: room.course.seed,
            turn_ticks: room.turn_ticks,
            course_digest: hex(room.course.digest),
            course: (*room.course).clone(),
            seats: self.seats,
            ticks: room.tick,
            record_every: TANDEM_BUNDLE_EVERY,
            final_hash: hex(room.hash),
            hashes: self.chain.hex_hashes(),
            fields: self.chain.fields,
            orders: self.orders,
            outcome: room.outcome(),
            score: room.score(),
        }
    }
}
