//! Where the asked-for hazards go: all of them on the walkway round the pass's end, the one
//! way between the two sides, so each hazard is something the team plans its crossings round.

use super::layout::{Cell, Frame};
use super::options::HazardKind;

/// One hazard, in canonical cells (see `layout`), with its fixed timetable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Planned {
    /// Oil on the serving side of the walkway: from 20 s, lies 15 s, back every 45 s.
    Spill(Vec<Cell>),
    /// Ice on the cooking side of the walkway, for good.
    Ice(Vec<Cell>),
    /// A trolley shuttling three cells on the serving side, one tile a second.
    Cart(Vec<Cell>),
    /// Fire from burnt pans; the extinguisher stand hangs beside the stoves.
    Fire,
    /// The walkway under the pass drops into void 10 s in every 30: pass over the counter.
    Shift(Vec<Cell>),
}

/// The hazards for `kinds` (each once, in `HazardKind` order).
pub fn plan(frame: &Frame, kinds: &[HazardKind]) -> Vec<Planned> {
    let mut kinds = kinds.to_vec();
    kinds.sort();
    kinds.dedup();
    let (d, h) = (frame.pass_x, frame.bottom_row());
    kinds
        .into_iter()
        .map(|kind| match kind {
            HazardKind::Spill => Planned::Spill(vec![(d + 1, h), (d + 2, h)]),
            HazardKind::Ice => Planned::Ice(vec![(d - 2, h), (d - 1, h)]),
            HazardKind::Cart => {
                Planned::Cart(vec![(d + 1, h - 1), (d + 2, h - 1), (d + 3, h - 1), (d + 2, h - 1)])
            }
            HazardKind::Fire => Planned::Fire,
            HazardKind::Shift => Planned::Shift(vec![(d, h - 1), (d, h)]),
        })
        .collect()
}

/// Floor cells a hazard lies on: no spawn goes there.
pub fn covered(hazards: &[Planned]) -> Vec<Cell> {
    let mut cells = Vec::new();
    for h in hazards {
        match h {
            Planned::Spill(c) | Planned::Ice(c) | Planned::Cart(c) | Planned::Shift(c) => {
                cells.extend_from_slice(c)
            }
            Planned::Fire => {}
        }
    }
    cells
}

/// Whether the kitchen needs an extinguisher stand.
pub fn needs_extinguisher(hazards: &[Planned]) -> bool {
    hazards.iter().any(|h| matches!(h, Planned::Fire))
}

/// Whether the walkway under the pass comes and goes (the wall cell below it stays a wall,
/// so no fixture is cut off while it is gone).
pub fn shifts_walkway(hazards: &[Planned]) -> bool {
    hazards.iter().any(|h| matches!(h, Planned::Shift(_)))
}
