//! Stage 6's per-room state, held by the Room: patches, carts, fires, shift phases, sprays.
//!
//! Plain data apart from the stage (`hazards.rs`), so the Room's module needs no stage code.

use super::fires::Fires;
use super::hazard_spec::ShiftPhase;
use super::kitchen::Level;
use super::units::MAX_COOKS;
use smallvec::SmallVec;
use std::sync::Arc;

/// No spray target (the spray counter's station when idle).
pub const NO_STATION: u16 = u16::MAX;

/// One cart's place on its loop.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CartState {
    /// Index of the path cell the cart is leaving.
    pub seg: u16,
    /// µtiles travelled from that cell's centre toward the next (0..TILE).
    pub along: i32,
}

/// One cook's continuous spray: at which burning station, for how many ticks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spray {
    pub station: u16,
    pub ticks: u32,
}

impl Default for Spray {
    fn default() -> Self {
        Spray { station: NO_STATION, ticks: 0 }
    }
}

/// Stage 6's per-room state. Everything here except `pristine` and `stoves` is hashed (when
/// `active`). The per-tick lists live inline (`SmallVec`, sized for the levels we ship): stage 6
/// and the hash read them every tick, and a heap vector each cost a cache miss per room per
/// stage in a 1,024-room batch (docs/PERFORMANCE.md).
#[derive(Clone, Debug, Default)]
pub struct HazardState {
    /// The level has hazards or an extinguisher stand: only then does stage 6 run and hash.
    pub active: bool,
    /// Is each spill/ice patch on the floor now (level patch order)?
    pub patches: SmallVec<[bool; 8]>,
    pub carts: SmallVec<[CartState; 2]>,
    /// The level has a Fire hazard (only then are fires walked by the hash).
    pub fire: bool,
    /// The stations burning or smouldering (always empty when the level has no Fire).
    pub fires: Fires,
    /// The stoves' station indices, in index order: the only stations that can smoulder.
    pub stoves: SmallVec<[u16; 4]>,
    /// Each shift group's phase (level order).
    pub shifts: SmallVec<[ShiftPhase; 4]>,
    /// Per cook, in seat order (inline: read every tick, and four cooks at most).
    pub spray: SmallVec<[Spray; MAX_COOKS]>,
    /// Every flammable fixture is ablaze: stage 7 ends the round LOST.
    pub burnt_down: bool,
    /// The level as drawn, kept while shifting floors may rewrite `Room::level` (which is
    /// copied on the first write, so rooms sharing a level never see each other's floors).
    pub pristine: Option<Arc<Level>>,
}
