//! Why a bot stands idle, for `--trace`: a bot that plans nothing says which of the few reasons
//! it has (a feeder with nothing wanted, food with nowhere across to put it, a cook waiting for
//! fed parts, no ticket it can start), so an idle team reads as a cause, not a blank.

use super::cook::Job;
use super::nav::Distances;
use super::reach::is_feeder;
use crate::sim::ids::Seat;
use crate::sim::item::ItemKind;
use crate::sim::recipe_book::Part;
use crate::sim::room::Room;
use std::fmt;

/// The reason a bot planned nothing this time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IdleReason {
    /// A feeder (no serve window on its bank) whose cooks wait for nothing it can make.
    NothingToFeed,
    /// A feeder holding food a cook wants, with no fixture to hand it over on yet (the cook's
    /// plate is still in its hand, or parked where this bank cannot reach or throw).
    NowhereToHandOver(Part),
    /// A cook with a dish whose next steps are all someone else's (fed parts, a stove).
    WaitingOnDish,
    /// A cook with no dish: no ticket up that it can start (a stove, a plate, a part it or a
    /// feeder can make).
    NoStartableTicket,
}

impl fmt::Display for IdleReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IdleReason::NothingToFeed => {
                write!(f, "feeder (no serve window on its side): no cook waits for a part it makes")
            }
            IdleReason::NowhereToHandOver((g, form)) => write!(
                f,
                "feeder holding {} {}: no plate or stove of the cook's it can reach or throw onto yet",
                form.name().to_lowercase(),
                g.name().to_lowercase()
            ),
            IdleReason::WaitingOnDish => write!(f, "waiting on its dish (fed parts, the heat)"),
            IdleReason::NoStartableTicket => write!(f, "no ticket it can start"),
        }
    }
}

/// Why the bot on `seat` (with `job`) planned nothing.
pub(super) fn idle_reason(
    room: &Room,
    dist: &Distances,
    seat: Seat,
    job: Option<&Job>,
) -> IdleReason {
    if is_feeder(room, dist, seat) {
        let held = room
            .cook_index(seat)
            .and_then(|c| room.cooks[c].held)
            .and_then(|id| room.item(id))
            .map(|i| &i.kind);
        return match held {
            Some(ItemKind::Food(g, form)) => IdleReason::NowhereToHandOver((*g, *form)),
            _ => IdleReason::NothingToFeed,
        };
    }
    if job.is_some() { IdleReason::WaitingOnDish } else { IdleReason::NoStartableTicket }
}
