//! What a Tandem tick reports: the outcome of a run, its phase, and the per-tick events a
//! client shows (beats, bumps, drops) or a replay logs. Events are never hashed.

use super::control::Seat;
use serde::{Deserialize, Serialize};

/// How a run ended (the seed's end checks, in their order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Outcome {
    /// complete/delivered: all five hull discs inside the goal pad.
    Delivered,
    /// complete/wrecked: damage reached 1000.
    Wrecked,
    /// fault/sim_fault: the invariant guard tripped.
    SimFault,
    /// complete/out_of_time: `MAX_TICKS` ran out.
    OutOfTime,
}

/// Where a run stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Phase {
    Carrying,
    /// The couch is down; the cogs re-attach at `regrip_until`.
    Regrip,
    Ended(Outcome),
}

impl Phase {
    /// A stable number for the hash.
    pub fn code(self) -> i64 {
        match self {
            Phase::Carrying => 0,
            Phase::Regrip => 1,
            Phase::Ended(Outcome::Delivered) => 2,
            Phase::Ended(Outcome::Wrecked) => 3,
            Phase::Ended(Outcome::SimFault) => 4,
            Phase::Ended(Outcome::OutOfTime) => 5,
        }
    }
}

/// One thing that happened in a tick.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TandemEvent {
    /// A seat's new order was installed at a turn boundary.
    OrderInstalled { seat: Seat },
    /// The cogs re-attached after a drop.
    Regrip,
    /// A hull disc hit something: the damage it did and the seat blamed.
    Impact { disc: u8, damage: u16, blame: Seat },
    /// A hull disc scraped along something (at most one event per disc per 6 ticks; the
    /// damage is what accrued since the last one).
    Scrape { disc: u8, damage: u16, blame: Seat },
    /// A seat's slip reached the limit: the couch is dropped.
    Drop { seat: Seat, damage: u16 },
    /// All five hull discs passed doorway `index` for the first time.
    DoorwayBeat { index: u8 },
    /// The run ended.
    Ended { outcome: Outcome },
}

/// Why `TandemRoom::step` refused a tick.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StepRefusal {
    #[error("the run has ended ({0:?}); no more ticks")]
    Ended(Outcome),
}
