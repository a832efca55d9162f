//! Stage 6's compiled hazards (spills and ice, carts, fire, shifting floors), in ticks and
//! µtiles, with the pure timetables client and sim both read.

use super::kinds::Tile;
use super::units::Cell;

/// What a patch of floor does to the cook standing on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Traction {
    /// Spilled oil: slower, and less grip to speed up or brake.
    Spill,
    /// Ice: no braking at all (throttle still works).
    Ice,
}

/// A spill or ice patch: which floor cells, and when it lies there (ticks).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatchSpec {
    pub traction: Traction,
    pub cells: Vec<Cell>,
    /// The tick it first appears on.
    pub from: u32,
    /// Ticks it lies each time (`None`: it stays once it appears).
    pub lasts: Option<u32>,
    /// It reappears this many ticks after each appearance (`None`: once).
    pub every: Option<u32>,
}

impl PatchSpec {
    /// Is the patch on the floor during tick `t`? A pure function of the tick, so the client
    /// and the sim agree without sending a timetable.
    pub fn active_at(&self, t: u32) -> bool {
        self.state_at(t).0
    }

    /// Does the patch appear on tick `t` (the tick its SPILLED event is emitted)?
    pub fn appears_at(&self, t: u32) -> bool {
        self.state_at(t).1
    }

    /// `(active_at(t), appears_at(t))` from one division: stage 6 asks both every tick.
    pub fn state_at(&self, t: u32) -> (bool, bool) {
        if t < self.from {
            return (false, false);
        }
        let since = t - self.from;
        let phase = match self.every {
            Some(every) => since % every.max(1),
            None => since,
        };
        (self.lasts.is_none_or(|lasts| phase < lasts), phase == 0)
    }
}

/// A cart (or rat) looping a path of floor cells at a constant speed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CartSpec {
    /// Consecutive cells are orthogonal neighbours, and the last neighbours the first.
    pub path: Vec<Cell>,
    /// µtiles per tick (≥ 1).
    pub speed: i32,
}

/// The kitchen's fire rules (one per level).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FireSpec {
    /// Ticks from a dish burning on a stove to the stove catching fire.
    pub delay: u32,
    /// A burning station spreads to a neighbour after a gap drawn from this range (ticks).
    pub spread_min: u32,
    pub spread_max: u32,
    /// Ticks of continuous spraying that put a fire out.
    pub extinguish: u32,
}

/// A group of cells that switches between its drawn tile and void/wall on a timetable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShiftSpec {
    pub cells: Vec<Cell>,
    /// What the cells become while gone: `Tile::Void` or `Tile::Wall`.
    pub to: Tile,
    /// The tick the cells first go.
    pub start: u32,
    /// Ticks from one going to the next (the cycle).
    pub every: u32,
    /// Ticks the cells stay gone each cycle (< every).
    pub gone: u32,
    /// Ticks of warning before each going (≥ 1, fits in the present part of the cycle).
    pub warning: u32,
}

/// Where a shift group is in its cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum ShiftPhase {
    Present,
    /// Going soon: the client flashes the cells.
    Warning,
    Gone,
}

impl ShiftSpec {
    /// The phase during tick `t` (a pure function of the tick, so client and sim agree).
    /// Gone for `gone` ticks from `start + k·every`; a warning for the `warning` ticks before
    /// each going (the first one included, even before `start`).
    pub fn phase_at(&self, t: u32) -> ShiftPhase {
        let every = self.every.max(1);
        let until_next = if t < self.start {
            self.start - t
        } else {
            let into = (t - self.start) % every;
            if into < self.gone {
                return ShiftPhase::Gone;
            }
            every - into
        };
        if until_next <= self.warning { ShiftPhase::Warning } else { ShiftPhase::Present }
    }

    /// Ticks until the cells next go (0 while gone): the client's warning countdown.
    pub fn ticks_until_gone(&self, t: u32) -> u32 {
        let every = self.every.max(1);
        if t < self.start {
            return self.start - t;
        }
        let into = (t - self.start) % every;
        if into < self.gone { 0 } else { every - into }
    }
}

/// Every hazard of a level, compiled.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HazardSpec {
    pub patches: Vec<PatchSpec>,
    pub carts: Vec<CartSpec>,
    pub fire: Option<FireSpec>,
    pub shifts: Vec<ShiftSpec>,
}

impl HazardSpec {
    pub fn is_empty(&self) -> bool {
        self.patches.is_empty()
            && self.carts.is_empty()
            && self.fire.is_none()
            && self.shifts.is_empty()
    }
}
