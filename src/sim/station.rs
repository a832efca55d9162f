//! One fixture's row in a room: its pipeline state, progress and worker (stage 4 runs it).

use super::ids::Seat;
use super::kinds::StationKind;
use super::units::Cell;

/// A fixture's pipeline state.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum StationState {
    #[default]
    Idle,
    Working,
    Ready,
    Dirty,
    Blocked,
}

/// One fixture, by its level index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Station {
    pub kind: StationKind,
    pub cell: Cell,
    pub state: StationState,
    /// Ticks of work done.
    pub progress: u32,
    /// The seat working it, if any.
    pub worker: Option<Seat>,
    /// Release-grace bookkeeping (ticks the worker has been out of reach).
    pub cooldown: u32,
}
