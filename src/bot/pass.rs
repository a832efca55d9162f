//! The pass: a bot holding food for a fixture it can neither throw onto nor reach soon asks an
//! idle teammate to catch it. The two agree through the claim table: the thrower claims
//! `Claim::Catch` *for the catcher* (where to stand, whom to face, which fixture the food is
//! for); the catcher stands on the line facing the thrower with a free hand, catches, and
//! carries (or throws) the food on to the fixture; the thrower presses only when the sim's own
//! flight, run ahead, ends in that hand.

use super::act::{Act, Mode};
use super::claims::{Claim, ClaimTable};
use super::nav::{FAR, distances, walkable};
use super::throwing::{THROW_MARGIN, in_flight, range_cells, throw_or_press, throwable};
use super::view::{View, own_dirs, own_x};
use crate::sim::flights::flight_step;
use crate::sim::ids::Seat;
use crate::sim::item::{Item, ItemKind};
use crate::sim::kinds::Dir4;
use crate::sim::recipe_book::Part;
use crate::sim::room::Room;
use crate::sim::units::{Cell, TILE};
use crate::sim::v2::V2;

/// Ticks a catcher waits on its cell for the throw, and a thrower for its catcher, before the
/// pass is given up and both re-plan.
pub const PASS_WAIT: u32 = 120;

/// A catch asked of a teammate: the catcher's seat and the claim.
fn catch_of(claims: &ClaimTable, pred: impl Fn(&Claim, Seat) -> bool) -> Option<(Claim, Seat)> {
    claims.iter().find(|(c, s)| matches!(c, Claim::Catch { .. }) && pred(c, *s))
}

/// The facing that looks from `at` toward `from` along their shared row or column.
fn facing(at: Cell, from: Cell) -> Dir4 {
    match ((from.0 - at.0).signum(), (from.1 - at.1).signum()) {
        (1, _) => Dir4::Right,
        (-1, _) => Dir4::Left,
        (_, -1) => Dir4::Up,
        _ => Dir4::Down,
    }
}

/// The food a seat holds, if any.
fn held_food(room: &Room, seat: Seat) -> Option<(&Item, Part)> {
    let cook = &room.cooks[room.cook_index(seat)?];
    let item = room.item(cook.held?)?;
    match item.kind {
        ItemKind::Food(g, f) => Some((item, (g, f))),
        ItemKind::Plate { .. } | ItemKind::Extinguisher => None,
    }
}

/// Is `seat` free to catch: no claims at all (no job, no chore) and an empty hand?
fn idle(room: &Room, claims: &ClaimTable, seat: Seat) -> bool {
    claims.held_by(seat).is_empty()
        && room.cook_index(seat).is_some_and(|c| room.cooks[c].held.is_none())
}

/// The food teammates hold for `thrower` after catching it, with the fixture it is for: the
/// thrower's job counts it as started, and keeps its claim on that fixture.
pub(super) fn carried_for(room: &Room, claims: &ClaimTable, thrower: Seat) -> Vec<(Part, usize)> {
    claims
        .iter()
        .filter_map(|(c, catcher)| match c {
            Claim::Catch { thrower: t, station, .. } | Claim::Carry { thrower: t, station }
                if t == thrower =>
            {
                held_food(room, catcher).map(|(_, food)| (food, station))
            }
            _ => None,
        })
        .collect()
}

/// The fixture of the catch `thrower` has asked for, if one stands: where its food in the
/// air is going, by way of the catcher's hand.
pub(super) fn pass_station(claims: &ClaimTable, thrower: Seat) -> Option<usize> {
    claims.iter().find_map(|(c, _)| match c {
        Claim::Catch { thrower: t, station, .. } if t == thrower => Some(station),
        _ => None,
    })
}

/// Forget catches that no longer happen (nothing of the thrower's in the air, the catcher's
/// hand empty): asked by this seat while it holds food again (it re-plans the delivery now),
/// or held by this seat while the thrower's hand is empty (it threw elsewhere, or the food
/// was lost); and carries whose hand is empty (delivered).
pub(super) fn drop_stale(v: &View, claims: &mut ClaimTable) {
    let room = v.room;
    let empty = |s: Seat| room.cook_index(s).is_none_or(|i| room.cooks[i].held.is_none());
    let stale: Vec<(Claim, Seat)> = claims
        .iter()
        .filter(|(c, catcher)| match c {
            Claim::Catch { thrower, .. } => {
                let airborne = !in_flight(room, *thrower).is_empty();
                // A catch waits while the thrower's food is in the air: the catcher's hand is
                // still empty then, and a second pass to it would find a full hand.
                !airborne
                    && empty(*catcher)
                    && ((*thrower == v.seat && v.held.is_some())
                        || (*catcher == v.seat && empty(*thrower)))
            }
            // Delivered (or lost): the hand that carried it is empty.
            Claim::Carry { .. } => *catcher == v.seat && empty(*catcher),
            _ => false,
        })
        .collect();
    for (c, s) in stale {
        claims.release(c, s);
    }
}

/// A catch asked of this bot: stand on the line facing the thrower until the food is in hand,
/// then take it on to its fixture (the catch becomes a carry until the hand is empty).
pub(super) fn catch_duty(v: &View, claims: &mut ClaimTable) -> Option<Act> {
    let carry = claims.iter().find_map(|(c, s)| match c {
        Claim::Carry { thrower, station } if s == v.seat => Some((c, thrower, station)),
        _ => None,
    });
    let (thrower, station) = match (carry, held_food(v.room, v.seat)) {
        (Some((_, thrower, station)), Some(_)) => (thrower, station),
        _ => {
            let (claim, _) = catch_of(claims, |_, s| s == v.seat)?;
            let Claim::Catch { thrower, station, at, from } = claim else { return None };
            if v.held.is_none() {
                return Some(Act {
                    station,
                    mode: Mode::Catch { at, dir: facing(at, from), max: PASS_WAIT },
                    label: format!("catch for bot{thrower} at {at:?}"),
                });
            }
            held_food(v.room, v.seat)?;
            claims.release(claim, v.seat);
            claims.claim(Claim::Carry { thrower, station }, v.seat);
            (thrower, station)
        }
    };
    let (_, food) = held_food(v.room, v.seat)?;
    let label = format!("take bot{thrower}'s {} to #{station}", food.0.name());
    throw_or_press(v, food, station, label)
}

/// Throw `food` for fixture `s` to an idle teammate when that gets it there sooner than our
/// own walk (by [`THROW_MARGIN`]): the thrower's cell and the catcher's lie on one row or
/// column at most a throw apart with no wall between, the food reaches the fixture when the
/// later of the two walks plus the catcher's walk on is done. Claims the catch for the
/// teammate and returns the thrower's act; None when no teammate is idle or it does not pay.
pub(super) fn pass(v: &View, claims: &mut ClaimTable, food: Part, s: usize) -> Option<Act> {
    // A pass costs the thrower a turn and the catcher its walk: never for a short carry.
    if !v.throws || !throwable(food) || v.cost(s) <= 2 * THROW_MARGIN {
        return None;
    }
    let room = v.room;
    // A teammate: in versus only a cook of our own team (its idleness is our claims' say).
    let team = room.team_of_seat(v.seat);
    let mate = room
        .cooks
        .iter()
        .map(|c| c.seat)
        .find(|&m| m != v.seat && room.team_of_seat(m) == team && idle(room, claims, m))?;
    let mate_cell = room.cooks[room.cook_index(mate)?].pos.cell();
    let w = room.level.width as usize;
    let mine = distances(&room.level, &[v.cell], &|_| false);
    let theirs = distances(&room.level, &[mate_cell], &|_| false);
    let at = |d: &[u32], c: Cell| d[c.1 as usize * w + c.0 as usize];
    let range = range_cells();
    let mut best: Option<(u32, Cell, Cell, Dir4)> = None;
    for y in 0..room.level.height {
        // Columns from the bot's own wall, so mirrored sides break ties alike (`own_x`).
        for col in 0..room.level.width {
            let x = own_x(room, v.seat, col);
            let from = (x, y);
            if !walkable(&room.level, from) || at(&mine, from) == FAR {
                continue;
            }
            for dir in own_dirs(room, v.seat) {
                let (dx, dy) = dir.delta();
                for k in 2..=range {
                    let to = (x + k * dx, y + k * dy);
                    if !walkable(&room.level, to) || at(&theirs, to) == FAR {
                        continue;
                    }
                    let (_, walled) =
                        flight_step(&room.level, V2::centre_of(from), (dx, dy), k * TILE);
                    let on = v.dist.to(s, to);
                    if walled || on == FAR {
                        continue;
                    }
                    let arrive = at(&mine, from).max(at(&theirs, to)).saturating_add(on);
                    if best.is_none_or(|b| arrive < b.0) {
                        best = Some((arrive, from, to, dir));
                    }
                }
            }
        }
    }
    let (arrive, from, to, dir) = best?;
    if arrive.saturating_add(THROW_MARGIN) >= v.cost(s) {
        return None;
    }
    claims.claim(Claim::Catch { thrower: v.seat, station: s, at: to, from }, mate);
    Some(Act {
        station: s,
        mode: Mode::Pass { from, dir, to: mate, max: PASS_WAIT },
        label: format!("pass {} to bot{mate} at {to:?} for #{s}", food.0.name()),
    })
}

/// Deliver the held `food` to fixture `s`: thrown onto it when that is the faster way, else
/// passed to an idle teammate when that is, else carried there.
pub(super) fn deliver(
    v: &View,
    claims: &mut ClaimTable,
    food: Part,
    s: usize,
    label: String,
) -> Option<Act> {
    let act = throw_or_press(v, food, s, label)?;
    if act.mode != Mode::Press {
        return Some(act);
    }
    pass(v, claims, food, s).or(Some(act))
}
