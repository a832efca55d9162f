//! The feeder: a bot on a bank no serve window can be walked to (`bot::reach`) takes no
//! ticket. It reads its teammates' dishes — what each plate still lacks that its cook cannot
//! make on its own bank — fetches the ingredient, chops it when the recipe wants it chopped,
//! and throws it across: chopped (or raw) food onto the cook's parked plate, raw food into the
//! stove the cook claimed for it. Where a throw ends is the sim's own answer
//! (`flights::predict`, through `bot::throwing`), so a feeder throws only onto a fixture that
//! takes the food; with nowhere to throw yet (the plate still in hand) it waits holding the
//! food — food on the floor rots.

use super::act::{Act, Mode, Until};
use super::claims::{Claim, ClaimTable};
use super::cook::Job;
use super::dish::{my_raw_board, needs_of, station_for};
use super::reach::{fed, feeds, is_feeder, reaches};
use super::throwing::{in_flight, landed_form, throw_onto};
use super::view::{View, act, is_heat, plate_parts, press, process_kind, trash_held};
use crate::sim::ids::Seat;
use crate::sim::item::{ItemKind, Place};
use crate::sim::kinds::{Form, StationKind, Vessel};
use crate::sim::recipe_book::Part;
use crate::sim::station::StationState;
use crate::sim::stations::POT_CAPACITY;

/// One part a cook across the water waits for: whose dish, which part, and the fixture it
/// must come down on (None while there is none yet: the plate is in the cook's hand).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Want {
    cook: Seat,
    part: Part,
    target: Option<usize>,
}

/// Does food `have` (coming down on `landing`, if known) answer `want`? Raw food answers any
/// form a fixture makes of it (a board chops it, a stove cooks it); a landing must be the
/// want's fixture.
fn answers(have: Part, landing: Option<usize>, want: &Want) -> bool {
    let form_ok =
        have.1 == want.part.1 || (have.1 == Form::Raw && process_kind(want.part).is_some());
    have.0 == want.part.0 && form_ok && landing.is_none_or(|s| want.target == Some(s))
}

/// Take the first want `have` answers off the list; false when none.
fn strike(wants: &mut Vec<Want>, have: Part, landing: Option<usize>) -> bool {
    match wants.iter().position(|w| answers(have, landing, w)) {
        Some(i) => {
            wants.remove(i);
            true
        }
        None => false,
    }
}

/// The fixture a fed `part` of `cook`'s dish must come down on: a stove of the right kind the
/// cook claimed with room for it, or the cook's parked plate.
fn target_of(v: &View, claims: &ClaimTable, cook: Seat, job: &Job, part: Part) -> Option<usize> {
    let room = v.room;
    match process_kind(part) {
        Some(kind) if is_heat(kind) => claims.stations_of(cook).into_iter().find(|&s| {
            let st = &room.stations[s];
            let foods = v.foods_on(s);
            st.kind == kind
                && st.state != StationState::Dirty
                && match kind {
                    StationKind::Stove(Vessel::Pot) => {
                        foods.iter().all(|(g, _)| *g == part.0)
                            && foods.len() < POT_CAPACITY
                            && room.items_on(s).all(|i| i.mark.is_none())
                            && (!foods.is_empty() || room.pots_clean > 0)
                    }
                    _ => room.items_on(s).next().is_none(),
                }
        }),
        _ => job.plate.and_then(|p| room.item(p)).and_then(|p| match p.place {
            Place::Station(s) if plate_parts(p).is_some() => Some(s as usize),
            _ => None,
        }),
    }
}

/// What the cooks across the water still wait for, in seat order then part order: each
/// cook's unstarted parts (by its own claims) that it cannot make and this feeder can.
fn wants(v: &View, claims: &ClaimTable, mates: &[(Seat, Job)]) -> Vec<Want> {
    let room = v.room;
    let mut out = Vec::new();
    for (cook, job) in mates {
        let Some(c) = room.cook_index(*cook) else { continue };
        if *cook == v.seat || is_feeder(room, v.dist, *cook) {
            continue;
        }
        let k = &room.cooks[c];
        let mv = View {
            room,
            seat: *cook,
            cell: k.pos.cell(),
            held: k.held.and_then(|id| room.item(id)),
            dist: v.dist,
            throws: v.throws,
            team: v.team,
        };
        let (_, unstarted) = needs_of(&mv, claims, job);
        for part in unstarted {
            if fed(&mv, part) && feeds(room, v.dist, v.cell, part) {
                let target = target_of(v, claims, *cook, job, part);
                out.push(Want { cook: *cook, part, target });
            }
        }
    }
    out
}

/// Strike off what feeders already have under way: every other feeder's hand, and every
/// feeder's food in the air and on its claimed boards (this bot's hand is its own choice).
fn strike_supply(v: &View, claims: &ClaimTable, wants: &mut Vec<Want>) {
    let room = v.room;
    for cook in &room.cooks {
        let seat = cook.seat;
        if !is_feeder(room, v.dist, seat) {
            continue;
        }
        for (food, end) in in_flight(room, seat) {
            strike(wants, landed_form(room, food, end), end);
        }
        for s in claims.stations_of(seat) {
            if room.stations[s].kind == StationKind::ChopBoard {
                for (g, f) in v.foods_on(s) {
                    if f != Form::Burnt {
                        strike(wants, (g, Form::Chopped), None);
                    }
                }
            }
        }
        for claim in claims.held_by(seat) {
            if let Claim::Feeding { part, .. } = claim
                && seat != v.seat
            {
                strike(wants, part, None);
            }
        }
        if seat != v.seat
            && let Some(ItemKind::Food(g, f)) =
                cook.held.and_then(|id| room.item(id)).map(|i| &i.kind)
        {
            strike(wants, (*g, *f), None);
        }
    }
}

/// The feeder's next action (None: nothing to feed now; it waits, holding what it holds).
pub(super) fn plan_feed(v: &View, claims: &mut ClaimTable, mates: &[(Seat, Job)]) -> Option<Act> {
    // The fetch we set out on is over (the food is in hand, or it failed): plan afresh.
    for claim in claims.held_by(v.seat) {
        if matches!(claim, Claim::Feeding { .. }) {
            claims.release(claim, v.seat);
        }
    }
    let mut wants = wants(v, claims, mates);
    strike_supply(v, claims, &mut wants);
    match v.held.map(|i| &i.kind) {
        Some(ItemKind::Food(g, f)) => feed_held(v, claims, &wants, (*g, *f)),
        Some(ItemKind::Plate { .. }) => trash_held(v, "a stray plate"),
        Some(ItemKind::Extinguisher) => None,
        None => feed_free(v, claims, &wants),
    }
}

/// Food in hand: onto our board when it wants a chop, else thrown to its fixture across the
/// water; with no fixture there yet, wait holding it; food nobody waits for is binned.
fn feed_held(v: &View, claims: &mut ClaimTable, wants: &[Want], food: Part) -> Option<Act> {
    let Some(want) = wants.iter().find(|w| answers(food, None, w)) else {
        return trash_held(v, "food nobody waits for");
    };
    let name = food.0.name();
    if food.1 == Form::Raw && process_kind(want.part) == Some(StationKind::ChopBoard) {
        let (board, _) = station_for(v, claims, food.0, StationKind::ChopBoard)?;
        claims.claim(Claim::Station(board), v.seat);
        return press(
            board,
            format!("feed: put {name} in chop board #{board} for bot{}", want.cook),
        );
    }
    let s = want.target?;
    // A fixture both banks touch (the plate parked on a pass counter, a stove in the counter
    // row): set the food down by hand, the cook picks it up with the plate or from the stove.
    if reaches(v.dist, v.cell, s) {
        return press(s, format!("feed: hand {name} over on #{s} for bot{}", want.cook));
    }
    throw_onto(v, food, s, format!("feed: {name} to #{s} for bot{}", want.cook))
}

/// A free hand: take a chopped part off our board, chop what lies on it, else fetch what the
/// first want we can start needs (claiming a board first when it is to be chopped).
fn feed_free(v: &View, claims: &mut ClaimTable, wants: &[Want]) -> Option<Act> {
    if let Some(board) = claims.stations_of(v.seat).into_iter().find(|&s| {
        v.kind(s) == StationKind::ChopBoard
            && v.state(s) == StationState::Ready
            && v.foods_on(s).iter().any(|(_, f)| *f == Form::Chopped)
    }) {
        return press(board, format!("feed: take the chopped food from #{board}"));
    }
    if let Some(board) = my_raw_board(v, claims) {
        return act(
            board,
            Mode::Hold { until: Until::Ready, max: 40 },
            format!("feed: chop at #{board}"),
        );
    }
    // The first want we can start: a chop needs a board free for us (another feeder may hold
    // them all), anything else only its shelf.
    let (want, board) = wants.iter().find_map(|w| {
        if process_kind(w.part) != Some(StationKind::ChopBoard) {
            return Some((w, None));
        }
        station_for(v, claims, w.part.0, StationKind::ChopBoard).map(|(b, _)| (w, Some(b)))
    })?;
    if let Some(board) = board {
        claims.claim(Claim::Station(board), v.seat);
    }
    let ing = want.part.0;
    let shelf = v.shelf(ing)?;
    claims.claim(Claim::Feeding { feeder: v.seat, cook: want.cook, part: want.part }, v.seat);
    press(shelf, format!("feed: fetch {} for bot{}", ing.name(), want.cook))
}
