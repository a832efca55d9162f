//! Facts out: the typed events the simulation emits each tick (sound, nudges, effects, tests).
//!
//! A refusal is always exactly one `Denied` event for the press that caused it, never silence
//! and never one per tick.

use super::room::{ItemId, Seat};
use serde::{Deserialize, Serialize};

/// Why a press did nothing. Every refusal names itself; the client shows it as a nudge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DeniedReason {
    Stunned,
    NothingHere,
    OutOfReach,
    NotFacing,
    HandsFull,
    HandsEmpty,
    WrongItem,
    StationDirty,
    StationBusy,
    InvalidState,
    ContestedLost,
}

impl DeniedReason {
    pub const ALL: [DeniedReason; 11] = [
        DeniedReason::Stunned,
        DeniedReason::NothingHere,
        DeniedReason::OutOfReach,
        DeniedReason::NotFacing,
        DeniedReason::HandsFull,
        DeniedReason::HandsEmpty,
        DeniedReason::WrongItem,
        DeniedReason::StationDirty,
        DeniedReason::StationBusy,
        DeniedReason::InvalidState,
        DeniedReason::ContestedLost,
    ];

    /// The rulebook's wire string.
    pub fn as_str(self) -> &'static str {
        match self {
            DeniedReason::Stunned => "stunned",
            DeniedReason::NothingHere => "nothing_here",
            DeniedReason::OutOfReach => "out_of_reach",
            DeniedReason::NotFacing => "not_facing",
            DeniedReason::HandsFull => "hands_full",
            DeniedReason::HandsEmpty => "hands_empty",
            DeniedReason::WrongItem => "wrong_item",
            DeniedReason::StationDirty => "station_dirty",
            DeniedReason::StationBusy => "station_busy",
            DeniedReason::InvalidState => "invalid_state",
            DeniedReason::ContestedLost => "contested_lost",
        }
    }

    /// The nudge a player reads.
    pub fn nudge(self) -> &'static str {
        match self {
            DeniedReason::Stunned => "dazed!",
            DeniedReason::NothingHere => "nothing here",
            DeniedReason::OutOfReach => "too far",
            DeniedReason::NotFacing => "face it first",
            DeniedReason::HandsFull => "hands full",
            DeniedReason::HandsEmpty => "hands empty",
            DeniedReason::WrongItem => "wrong item",
            DeniedReason::StationDirty => "station dirty",
            DeniedReason::StationBusy => "station busy",
            DeniedReason::InvalidState => "can't use that now",
            DeniedReason::ContestedLost => "someone got there first",
        }
    }
}

/// The detail a zero-stock refusal carries (`NothingHere` with a why).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DeniedWhy {
    NoPlate,
    NoPot,
}

/// Why an input frame was refused before it reached a cook.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum InputError {
    /// The frame names a seat that has no cook in this room.
    UnknownSeat,
}

/// One fact the simulation emits. Positions are where the client should play the effect.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SimEvent {
    /// A frame for a seat that is not in the room.
    InputRejected {
        seat: Seat,
        seq: u32,
        reason: InputError,
    },
    Denied {
        seat: Seat,
        reason: DeniedReason,
        why: Option<DeniedWhy>,
    },
    /// A free hand took an item (off a fixture, or new stock off a shelf / rack).
    Picked {
        seat: Seat,
        item: ItemId,
        station: u16,
    },
    /// A pick that lifted another cook's set-down inside the hand-off window.
    HandedOff {
        from: Seat,
        to: Seat,
        item: ItemId,
        station: u16,
    },
    /// A carried item was set down on a fixture.
    Dropped {
        seat: Seat,
        item: ItemId,
        station: u16,
    },
    /// The long-press trash destroyed the carried item.
    Trashed {
        seat: Seat,
        item: ItemId,
        score_delta: i32,
    },
    /// The trash threshold was met with an empty hand.
    TrashedAlreadyEmpty {
        seat: Seat,
    },
    /// A cook entered a stun.
    Stunned {
        seat: Seat,
        ticks: u32,
    },
}
