//! A round's tallies (created, destroyed, served, missed …), kept for the ledger and results.

/// Round-long tallies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Counters {
    /// Items destroyed by the long-press trash.
    pub trashed: u32,
    /// Items ever created (shelf and rack picks, pre-placed items).
    pub created: u32,
    /// Items ever destroyed (trash, plates returned to the rack, dishes served, waste).
    pub destroyed: u32,
    /// Dishes served.
    pub served: u32,
    /// Orders that expired on the rail.
    pub missed: u32,
    /// Food destroyed by the kitchen (pushed off a board, washed out of a burnt pot).
    pub wasted: u32,
}
