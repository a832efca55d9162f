//! The ids rooms share: a seat, and an item's per-room monotonic id.

/// A seat index (0..=3 in play; the wire carries a byte).
pub type Seat = u8;

/// A per-room monotonic item id: items are created in id order and iterated in id order.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct ItemId(pub u32);
