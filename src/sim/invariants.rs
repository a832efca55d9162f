//! The state invariants every tick must keep: a pure check over one [`Room`], naming the ids
//! involved when one breaks.
//!
//! The server runs it after every tick of every hosted room (`net::server::rooms::broken_invariant`,
//! which ends a broken round as a fault) and `undercooked soak` after every tick of its runs.
//! It only reads the room, so a healthy room's hash chain and goldens are untouched by it.
//! Each law here is one docs/SIMULATION.md states: items in exactly one place (§5.4), the
//! prop stock's conservation (§2.1), the tallies' arithmetic (§2.3).

use super::ids::{ItemId, Seat};
use super::item::{ItemKind, Place};
use super::kinds::{StationKind, Tile, Vessel};
use super::room::Room;
use super::stations::POT_CAPACITY;
use super::verdict::Verdict;

/// One broken law, with what it involves.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Violation {
    /// A survival clock over its cap, or a decided survival round without its length.
    #[error(
        "survival clock {time_left} ticks (cap {cap}), survived {survived} with result {result:?}"
    )]
    SurvivalClock { time_left: u32, cap: u32, survived: u32, result: Option<Verdict> },
    /// `items` is not in strictly increasing id order (an id twice, or out of order).
    #[error("item {id:?} follows item {previous:?}: ids not strictly increasing")]
    ItemOrder { previous: ItemId, id: ItemId },
    /// An item's id was never handed out (`next_item` is past every id).
    #[error("item {id:?} is at or past next_item {next_item}")]
    ItemIdUnissued { id: ItemId, next_item: u32 },
    /// An item says a hand holds it, but that hand holds something else (or there is no cook).
    #[error("item {item:?} claims seat {seat}'s hand, which holds {held:?}")]
    HandDisowns { item: ItemId, seat: Seat, held: Option<ItemId> },
    /// A hand holds an item that is not there (gone, or in another place).
    #[error("seat {seat} holds item {item:?}, which is at {place:?}")]
    HeldElsewhere { seat: Seat, item: ItemId, place: Option<Place> },
    /// An item lies on a station the level does not have.
    #[error("item {item:?} on missing station {station}")]
    MissingStation { item: ItemId, station: u16 },
    /// An item lies on the floor of a cell that is not floor (a wall, a hole, a fixture).
    #[error("item {item:?} lies on the floor at {cell:?}, which is not floor")]
    FloorItemOffFloor { item: ItemId, cell: (i32, i32) },
    /// A thrown item flew into a wall (flights stop at the last open cell).
    #[error("item {item:?} is flying inside a wall at {cell:?}")]
    FlightInWall { item: ItemId, cell: (i32, i32) },
    /// A station holds more items than its kind can.
    #[error("station {station} ({kind:?}) holds {count} items (at most {capacity})")]
    Overfull { station: u16, kind: StationKind, count: usize, capacity: usize },
    /// A cook stands inside a wall or another blocking tile.
    #[error("seat {seat} is inside a blocking tile at {cell:?}")]
    CookInWall { seat: Seat, cell: (i32, i32) },
    /// Rack stock + plate items + the sink's dirty stack exceeds the level's plate count (a
    /// plate from nowhere). Fewer is allowed here: a fire or a falling floor destroys a plate
    /// lying in it (§6), which the state does not remember; `soak::ledger` counts those and
    /// checks the exact sum.
    #[error("plates: {clean} clean + {items} items + {dirty} dirty > {total} in the level")]
    PlatesNotConserved { clean: u32, items: u32, dirty: u32, total: u32 },
    /// Clean + dirty pots is not the level's pot count.
    #[error("pots: {clean} clean + {dirty} dirty != {total} in the level")]
    PotsNotConserved { clean: u32, dirty: u32, total: u32 },
    /// Items ever created − items ever destroyed is not the number alive.
    #[error("items: {created} created − {destroyed} destroyed != {alive} alive")]
    ItemsNotCounted { created: u32, destroyed: u32, alive: usize },
    /// `next_item` did not advance exactly once per created item.
    #[error("next_item {next_item} after {created} items created")]
    NextItemDrift { next_item: u32, created: u32 },
    /// The round's serve tally differs from the cooks' own.
    #[error("counters.served {served} != {by_cooks} dishes served by the cooks")]
    ServedNotCounted { served: u32, by_cooks: u32 },
    /// A sub-tally exceeds `destroyed`, which every removal also counts.
    #[error(
        "counters: trashed {trashed} + wasted {wasted} + served {served} > destroyed {destroyed}"
    )]
    RemovalsNotCounted { trashed: u32, wasted: u32, served: u32, destroyed: u32 },
    /// The score fell below its floor of zero.
    #[error("score {score} is below zero")]
    NegativeScore { score: i32 },
    /// The streak record is below the running streak.
    #[error("longest_streak {longest} < streak {streak}")]
    StreakRecord { longest: u32, streak: u32 },
    /// The rail is not in id order, or holds an id not yet issued.
    #[error("order {id} on the rail out of order (next id {next_id})")]
    OrderRail { id: u32, next_id: u32 },
    /// Versus (`versus.rs`) broken: an order on no team's rail (or a co-op order with a team),
    /// a team's tallies off the round's (serves, misses, a negative score, a streak over its
    /// record), the co-op score moving, or a co-op verdict.
    #[error("versus: {what}")]
    Versus { what: &'static str },
}

/// How many items station `kind` can hold at once, where the rules bound it (SIMULATION.md
/// §5.4's dispatch table): a pot up to [`POT_CAPACITY`]; a counter, the prep, a board, a pan
/// and an extinguisher stand one. A shelf takes any set-down on top of what lies there, and
/// the serve window, sink, trash and rack never keep what a hand brings, so they have no bound.
fn capacity(kind: StationKind) -> Option<usize> {
    match kind {
        StationKind::Stove(Vessel::Pot) => Some(POT_CAPACITY),
        StationKind::Stove(Vessel::Pan)
        | StationKind::Counter
        | StationKind::Prep
        | StationKind::ChopBoard
        | StationKind::ExtinguisherStand => Some(1),
        StationKind::Shelf(_)
        | StationKind::Serve
        | StationKind::Sink
        | StationKind::Trash
        | StationKind::PlateRack => None,
    }
}

/// The first broken invariant of `room`, or `None` when every law holds.
pub fn check(room: &Room) -> Option<Violation> {
    check_items(room)
        .or_else(|| check_cooks(room))
        .or_else(|| check_stock(room))
        .or_else(|| check_tallies(room))
}

/// Ids, places and station loads.
fn check_items(room: &Room) -> Option<Violation> {
    let mut load = vec![0usize; room.stations.len()];
    let mut previous: Option<ItemId> = None;
    for item in &room.items {
        if let Some(p) = previous
            && p >= item.id
        {
            return Some(Violation::ItemOrder { previous: p, id: item.id });
        }
        previous = Some(item.id);
        if item.id.0 >= room.next_item {
            return Some(Violation::ItemIdUnissued { id: item.id, next_item: room.next_item });
        }
        match item.place {
            Place::Hand(seat) => {
                let held = room.cooks.iter().find(|c| c.seat == seat).and_then(|c| c.held);
                if held != Some(item.id) {
                    return Some(Violation::HandDisowns { item: item.id, seat, held });
                }
            }
            Place::Station(s) => match load.get_mut(s as usize) {
                Some(n) => *n += 1,
                None => return Some(Violation::MissingStation { item: item.id, station: s }),
            },
            Place::Floor(at) => {
                if room.tile(at.cell()) != Tile::Floor {
                    return Some(Violation::FloorItemOffFloor { item: item.id, cell: at.cell() });
                }
            }
            Place::Air(f) => {
                if room.tile(f.pos.cell()) == Tile::Wall {
                    return Some(Violation::FlightInWall { item: item.id, cell: f.pos.cell() });
                }
            }
        }
    }
    load.iter().zip(&room.stations).enumerate().find_map(|(s, (&count, station))| {
        let capacity = capacity(station.kind)?;
        (count > capacity).then_some(Violation::Overfull {
            station: s as u16,
            kind: station.kind,
            count,
            capacity,
        })
    })
}

/// Hands and bodies.
fn check_cooks(room: &Room) -> Option<Violation> {
    for cook in &room.cooks {
        if let Some(id) = cook.held {
            let place = room.item(id).map(|i| i.place);
            if place != Some(Place::Hand(cook.seat)) {
                return Some(Violation::HeldElsewhere { seat: cook.seat, item: id, place });
            }
        }
        if room.tile(cook.pos.cell()).blocks_body() {
            return Some(Violation::CookInWall { seat: cook.seat, cell: cook.pos.cell() });
        }
    }
    None
}

/// The prop stock: every plate is in the rack, in play or on the sink's stack (trashed and
/// served plates come back to one of the stocks) or was lost to a hazard; every pot is clean
/// or dirty.
fn check_stock(room: &Room) -> Option<Violation> {
    let items =
        room.items.iter().filter(|i| matches!(i.kind, ItemKind::Plate { .. })).count() as u32;
    let (clean, dirty, total) = (room.plates_clean, room.plates_dirty, room.level.props.plates);
    if clean as u64 + items as u64 + dirty as u64 > total as u64 {
        return Some(Violation::PlatesNotConserved { clean, items, dirty, total });
    }
    let (clean, dirty, total) = (room.pots_clean, room.pots_dirty, room.level.props.pots);
    if clean as u64 + dirty as u64 != total as u64 {
        return Some(Violation::PotsNotConserved { clean, dirty, total });
    }
    None
}

/// The round's counters, score and rail.
fn check_tallies(room: &Room) -> Option<Violation> {
    let c = &room.counters;
    if c.created as i64 - c.destroyed as i64 != room.items.len() as i64 {
        return Some(Violation::ItemsNotCounted {
            created: c.created,
            destroyed: c.destroyed,
            alive: room.items.len(),
        });
    }
    if room.next_item as u64 != c.created as u64 + 1 {
        return Some(Violation::NextItemDrift { next_item: room.next_item, created: c.created });
    }
    let by_cooks: u32 = room.cooks.iter().map(|k| k.dishes_served).sum();
    if c.served != by_cooks {
        return Some(Violation::ServedNotCounted { served: c.served, by_cooks });
    }
    if c.trashed as u64 + c.wasted as u64 + c.served as u64 > c.destroyed as u64 {
        return Some(Violation::RemovalsNotCounted {
            trashed: c.trashed,
            wasted: c.wasted,
            served: c.served,
            destroyed: c.destroyed,
        });
    }
    if let Some(s) = &room.survival {
        let cap = super::survival::SURVIVAL_CAP_TICKS;
        let unmeasured = room.result == Some(Verdict::Lost) && s.survived == 0;
        if room.time_left > cap || unmeasured || room.result == Some(Verdict::Won) {
            return Some(Violation::SurvivalClock {
                time_left: room.time_left,
                cap,
                survived: s.survived,
                result: room.result,
            });
        }
    }
    if let Some(what) = versus_broken(room) {
        return Some(Violation::Versus { what });
    }
    if room.score < 0 {
        return Some(Violation::NegativeScore { score: room.score });
    }
    if room.longest_streak < room.streak {
        return Some(Violation::StreakRecord { longest: room.longest_streak, streak: room.streak });
    }
    let mut last = 0;
    for order in &room.orders {
        if order.id <= last || order.id >= room.next_order_id {
            return Some(Violation::OrderRail { id: order.id, next_id: room.next_order_id });
        }
        last = order.id;
    }
    None
}

/// The first broken versus law of `room`, if any (a co-op room only needs its orders teamless).
fn versus_broken(room: &Room) -> Option<&'static str> {
    let Some(v) = &room.versus else {
        return room.orders.iter().any(|o| o.team.is_some()).then_some("a co-op order with a team");
    };
    if room.orders.iter().any(|o| o.team.is_none()) {
        return Some("an order on no team's rail");
    }
    let served: u32 = v.teams.iter().map(|t| t.served).sum();
    let missed: u32 = v.teams.iter().map(|t| t.missed).sum();
    if served != room.counters.served || missed != room.counters.missed {
        return Some("the teams' serves or misses are not the round's");
    }
    if v.teams.iter().any(|t| t.score < 0 || t.longest_streak < t.streak) {
        return Some("a team's score below zero or its streak over its record");
    }
    if room.score != 0 || room.streak != 0 {
        return Some("the co-op score moved in a versus round");
    }
    let versus_verdict =
        matches!(room.result, Some(Verdict::TeamA | Verdict::TeamB | Verdict::Draw));
    if room.result.is_some() && room.result != Some(Verdict::Aborted) && !versus_verdict {
        return Some("a co-op verdict in a versus round");
    }
    None
}
