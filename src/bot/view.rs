//! What the planner reads about one bot this tick ([`View`]) and the words its choices are
//! made of: the acts (press, hold to wash, trash), a plate's parts, and which fixture turns a
//! raw ingredient into a part.

use super::act::{Act, Mode, Until};
use super::claims::{Claim, ClaimTable};
use super::nav::{Distances, FAR};
use crate::sim::ids::Seat;
use crate::sim::item::{Item, ItemKind};
use crate::sim::kinds::{Dir4, Form, Ingredient, StationKind, Vessel};
use crate::sim::order::Order;
use crate::sim::recipe_book::Part;
use crate::sim::room::Room;
use crate::sim::station::StationState;
use crate::sim::stations::transition;
use crate::sim::versus::Team;

/// Everything the planner reads about one bot's situation this tick.
pub(super) struct View<'a> {
    pub(super) room: &'a Room,
    pub(super) seat: Seat,
    pub(super) cell: (i32, i32),
    pub(super) held: Option<&'a Item>,
    pub(super) dist: &'a Distances,
    /// The team throws (`BotTuning::throws`): deliveries may fly (`bot::throwing`).
    pub(super) throws: bool,
    /// Versus: the bot's team, whose rail it takes tickets from and whose windows it serves
    /// at (`None` in a co-op kitchen: the one rail, every window).
    pub(super) team: Option<Team>,
}

impl<'a> View<'a> {
    pub(super) fn cost(&self, station: usize) -> u32 {
        self.dist.to(station, self.cell)
    }

    /// The nearest station satisfying `keep`, ties to the lower index as read from the bot's
    /// own side ([`View::own_rank`]).
    pub(super) fn nearest(&self, keep: impl Fn(usize) -> bool) -> Option<usize> {
        (0..self.room.stations.len())
            .filter(|&s| keep(s) && self.cost(s) != FAR)
            .min_by_key(|&s| (self.cost(s), self.own_rank(s)))
    }

    /// Station `s`'s place in the order this bot breaks ties in: row-major as read from its own
    /// side (`own_x`), so in co-op (and for team A) exactly the index order — stations are
    /// numbered in reading order — and for team B the mirror image of it. Every tie between
    /// stations goes by this, never by the bare index, or the two sides of a mirrored kitchen
    /// choose different fixtures from mirrored spots.
    pub(super) fn own_rank(&self, s: usize) -> (i32, i32) {
        let (x, y) = self.room.stations[s].cell;
        (y, own_x(self.room, self.seat, x))
    }

    /// The tickets this bot plays: its team's rail in versus, the one rail in co-op.
    pub(super) fn rail(&self) -> impl Iterator<Item = &'a Order> + '_ {
        self.room.orders.iter().filter(move |o| o.team == self.team)
    }

    /// Is station `s` a serving window this bot's dishes score at (its team's, in versus)?
    pub(super) fn is_window(&self, s: usize) -> bool {
        self.kind(s) == StationKind::Serve
            && self.room.level.teams.as_ref().is_none_or(|t| t.team_of_window(s) == self.team)
    }

    pub(super) fn kind(&self, s: usize) -> StationKind {
        self.room.stations[s].kind
    }

    pub(super) fn state(&self, s: usize) -> StationState {
        self.room.stations[s].state
    }

    pub(super) fn foods_on(&self, s: usize) -> Vec<Part> {
        self.room
            .items_on(s)
            .filter_map(|i| match i.kind {
                ItemKind::Food(g, f) => Some((g, f)),
                ItemKind::Plate { .. } | ItemKind::Extinguisher => None,
            })
            .collect()
    }

    pub(super) fn shelf(&self, ing: Ingredient) -> Option<usize> {
        self.nearest(|s| self.kind(s) == StationKind::Shelf(ing))
    }

    pub(super) fn trash(&self) -> Option<usize> {
        self.nearest(|s| self.kind(s) == StationKind::Trash)
    }
}

/// What a part needs done to a raw ingredient: the fixture kind whose transition yields it.
pub(super) fn process_kind(part: Part) -> Option<StationKind> {
    let (ing, form) = part;
    if form == Form::Raw {
        return None;
    }
    [StationKind::ChopBoard, StationKind::Stove(Vessel::Pan), StationKind::Stove(Vessel::Pot)]
        .into_iter()
        .find(|k| transition(*k, ing, Form::Raw).is_some_and(|(out, _)| out == form))
}

/// Take one `p` out of `parts`; false when there was none.
pub(super) fn remove_one(parts: &mut Vec<Part>, p: Part) -> bool {
    match parts.iter().position(|q| *q == p) {
        Some(i) => {
            parts.remove(i);
            true
        }
        None => false,
    }
}

/// Stoves: slow work that cooks on while the bot does other things.
pub(super) fn is_heat(kind: StationKind) -> bool {
    matches!(kind, StationKind::Stove(_))
}

/// An act at `station` (always `Some`: the planner's choices are `Option<Act>`).
pub(super) fn act(station: usize, mode: Mode, label: String) -> Option<Act> {
    Some(Act { station, mode, label })
}

/// One press of the action at `station`.
pub(super) fn press(station: usize, label: String) -> Option<Act> {
    act(station, Mode::Press, label)
}

/// The plate's parts, if the item is a plate.
pub(super) fn plate_parts(item: &Item) -> Option<&[Part]> {
    match &item.kind {
        ItemKind::Plate { parts } => Some(parts),
        ItemKind::Food(..) | ItemKind::Extinguisher => None,
    }
}

/// Hold the action at fixture `s` until it is clean.
pub(super) fn wash(s: usize, label: String) -> Option<Act> {
    act(s, Mode::Hold { until: Until::Clean, max: 60 }, label)
}

/// Claim the nearest open sink and wash every dirty plate.
pub(super) fn wash_plates(v: &View, claims: &mut ClaimTable) -> Option<Act> {
    let room = v.room;
    let sink =
        v.nearest(|s| v.kind(s) == StationKind::Sink && claims.open_to(Claim::Station(s), v.seat))?;
    claims.claim(Claim::Station(sink), v.seat);
    let want = room.plates_clean + room.plates_dirty;
    let max = 24 * room.plates_dirty + 12;
    act(
        sink,
        Mode::Hold { until: Until::Plates(want), max },
        format!("wash {} plates at #{sink}", room.plates_dirty),
    )
}

/// Hold the held item over the nearest trash until the hand is empty.
pub(super) fn trash_held(v: &View, what: &str) -> Option<Act> {
    let t = v.trash()?;
    act(t, Mode::Hold { until: Until::HandEmpty, max: 14 }, format!("trash {what} at #{t}"))
}

/// `v` in order (for multiset comparisons).
pub(super) fn sorted(mut v: Vec<Part>) -> Vec<Part> {
    v.sort();
    v
}

/// Column `x` as seat `seat` reads it: from the right wall for team B of a versus kitchen (the
/// mirror image of team A's side), else as it is. Tie-breaks keyed on it treat the two sides of
/// a mirrored kitchen alike; in co-op they are unchanged.
pub(super) fn own_x(room: &Room, seat: Seat, x: i32) -> i32 {
    if room.team_of_seat(seat) == Some(Team::B) { room.level.width - 1 - x } else { x }
}

/// The four facings in the order seat `seat` tries them: up, down, then the side nearer its own
/// wall first (left for team A and co-op, right for team B of a versus kitchen).
pub(super) fn own_dirs(room: &Room, seat: Seat) -> [Dir4; 4] {
    if room.team_of_seat(seat) == Some(Team::B) {
        [Dir4::Up, Dir4::Down, Dir4::Right, Dir4::Left]
    } else {
        [Dir4::Up, Dir4::Down, Dir4::Left, Dir4::Right]
    }
}
