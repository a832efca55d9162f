//! One ticket on the rail (stage 5 spawns and expires them).

use super::versus::Team;

/// One ticket on the rail.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Order {
    /// Monotonic from 1: rail order is id order (FIFO).
    pub id: u32,
    /// Index into the room's recipe book.
    pub recipe: u16,
    /// Points before quality, streak and time bonus (the recipe's base score at spawn).
    pub value: i32,
    /// The absolute tick on which the order expires.
    pub deadline: u32,
    /// Versus: the team whose rail holds it (`None` in a co-op round; hashed only in versus).
    pub team: Option<Team>,
}
