//! Facts out: the typed events the simulation emits each tick (sound, nudges, effects, tests).
//!
//! A refusal is always exactly one `Denied` event for the press that caused it, never silence
//! and never one per tick.

use super::ids::{ItemId, Seat};

use super::verdict::Verdict;
use super::versus::Team;
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
    /// Serve: the dish is burnt (quality zero or a burnt part).
    Burnt,
    /// Serve: an empty plate is not a dish.
    NoTarget,
    /// Serve: the rail is empty.
    NoOrders,
    /// Serve: matches no live order and is not part of one.
    WrongRecipe,
    /// Serve: part of a live order's recipe, but not all of it.
    Incomplete,
    /// Plating: the plate could no longer become any recipe.
    NoRecipe,
    /// The fixture is ablaze: only the extinguisher does anything there.
    OnFire,
    /// The second button while the last dash is still cooling down.
    DashCooling,
    /// The second button while holding something that is never thrown (the why names it).
    CannotThrow,
}

impl DeniedReason {
    pub const ALL: [DeniedReason; 20] = [
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
        DeniedReason::Burnt,
        DeniedReason::NoTarget,
        DeniedReason::NoOrders,
        DeniedReason::WrongRecipe,
        DeniedReason::Incomplete,
        DeniedReason::NoRecipe,
        DeniedReason::OnFire,
        DeniedReason::DashCooling,
        DeniedReason::CannotThrow,
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
            DeniedReason::Burnt => "burnt",
            DeniedReason::NoTarget => "no_target",
            DeniedReason::NoOrders => "no_orders",
            DeniedReason::WrongRecipe => "wrong_recipe",
            DeniedReason::Incomplete => "incomplete",
            DeniedReason::NoRecipe => "no_recipe",
            DeniedReason::OnFire => "on_fire",
            DeniedReason::DashCooling => "dash_cooling",
            DeniedReason::CannotThrow => "cannot_throw",
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
            DeniedReason::Burnt => "it's burnt!",
            DeniedReason::NoTarget => "that's an empty plate",
            DeniedReason::NoOrders => "no orders yet",
            DeniedReason::WrongRecipe => "nobody ordered that",
            DeniedReason::Incomplete => "not finished yet",
            DeniedReason::NoRecipe => "that's not a dish",
            DeniedReason::OnFire => "it's on fire! get the extinguisher",
            DeniedReason::DashCooling => "catching your breath",
            DeniedReason::CannotThrow => "you can't throw that",
        }
    }
}

/// The detail a refusal carries: zero stock (`NothingHere`), or what cannot be thrown
/// (`CannotThrow`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DeniedWhy {
    NoPlate,
    NoPot,
    /// A plate (empty or a dish) is carried, never thrown: it would not survive the landing.
    Plate,
    /// Cooked, boiled or burnt food: only raw and chopped ingredients fly.
    Cooked,
    /// The extinguisher is a tool.
    Tool,
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
    /// A cook started (or resumed) working a fixture.
    WorkStarted {
        seat: Seat,
        station: u16,
    },
    /// A chop finished.
    Chopped {
        station: u16,
        item: ItemId,
    },
    /// A stove finished cooking (pan or pot).
    Cooked {
        station: u16,
    },
    /// A fixture's output is ready to take.
    Ready {
        station: u16,
    },
    /// A plate (sink) or a dirty fixture (in place) was washed clean.
    Washed {
        station: u16,
    },
    /// Food burnt on the heat or rotted on a board.
    Burnt {
        station: u16,
    },
    /// Food the kitchen destroyed (pushed off a board, washed out of a burnt pot).
    Wasted {
        item: ItemId,
        station: u16,
    },
    /// An ingredient went onto a plate.
    Plated {
        seat: Seat,
        plate: ItemId,
    },
    /// A dish filled an order.
    Served {
        seat: Seat,
        order_id: u32,
        points: i32,
        quality: u32,
        streak: u32,
    },
    /// The score moved (serve, miss penalty, trash).
    Score {
        delta: i32,
        score: i32,
    },
    /// An order expired on the rail.
    OrderMissed {
        order_id: u32,
        recipe: u16,
    },
    /// A spill (or ice, `ice: true`) patch appeared on the floor (hazard patch index).
    Spilled {
        patch: u16,
        ice: bool,
    },
    /// A burnt dish set its stove alight.
    Ignited {
        station: u16,
    },
    /// Fire jumped from one fixture to its neighbour.
    Spread {
        from: u16,
        to: u16,
    },
    /// A cook's spraying put a fire out.
    Extinguished {
        seat: Seat,
        station: u16,
    },
    /// A shifting floor group will go in `ticks` ticks (the client flashes its cells).
    ShiftWarning {
        group: u16,
        ticks: u32,
    },
    /// A shifting floor group went (`gone: true`) or came back.
    Shifted {
        group: u16,
        gone: bool,
    },
    /// A cart ran into a cook: stunned (the movement stage's STUNNED follows) and shoved clear.
    Knocked {
        seat: Seat,
        cart: u16,
    },
    /// A cook whose floor vanished (or who could not be shoved clear of a cart) was set down
    /// on the nearest safe tile.
    Rescued {
        seat: Seat,
        cell: (i32, i32),
    },
    /// A cook started a dash.
    Dashed {
        seat: Seat,
    },
    /// A dashing cook shoved another one (once per pair per tick).
    Shoved {
        by: Seat,
        seat: Seat,
    },
    /// A cook threw the ingredient it carried.
    Thrown {
        seat: Seat,
        item: ItemId,
    },
    /// A cook facing a flight with a free hand caught it.
    Caught {
        seat: Seat,
        item: ItemId,
        from: Seat,
    },
    /// A flight came down: on a fixture that took it (`station`), else on the floor.
    Landed {
        item: ItemId,
        station: Option<u16>,
    },
    /// A free hand took an item off the floor.
    PickedUp {
        seat: Seat,
        item: ItemId,
    },
    /// An item fell into a hole (a throw that came down over the void, or the floor it lay on
    /// went): destroyed and counted as wasted.
    Fell {
        item: ItemId,
    },
    /// The verdict landed (exactly once per round; never for an abort).
    RoundEnd {
        result: Verdict,
        score: i32,
        target: i32,
        stars: u8,
    },
    /// Versus only, in place of `Score`: a team's score moved (a serve at its window, a miss
    /// on its rail, a trash by one of its cooks).
    TeamScore {
        team: Team,
        delta: i32,
        score: i32,
    },
    /// Versus only, in place of `RoundEnd` (exactly once per round; never for an abort): the
    /// buzzer's verdict (`TeamA`, `TeamB` or `Draw`) and both scores, A then B.
    VersusEnd {
        result: Verdict,
        scores: [i32; 2],
    },
    /// Survival only: the round clock moved by `delta` ticks (a serve added, a miss took) and
    /// now holds `time_left` (the stage-7 tick it spends is not counted here).
    Clock {
        delta: i32,
        time_left: u32,
    },
}
