//! Making one dish: the next action for a bot with a [`Job`], one function per thing in its
//! hand — its own plate (collect, then serve, or park it), an ingredient (into its fixture or
//! onto the parked plate), or nothing (start the slow work, chop, fetch, lift the plate).

use super::act::{Act, Mode, Until};
use super::claims::{Claim, ClaimTable};
use super::cook::{Bot, Job};
use super::nav::FAR;
use super::pass::{carried_for, deliver, pass_station};
use super::reach::{fed, lands_from_feeder};
use super::throwing::{in_flight, landed_form, throw_reach, throwable};
use super::view::{
    View, act, is_heat, plate_parts, press, process_kind, remove_one, sorted, trash_held, wash,
    wash_plates,
};
use crate::sim::dishes::{is_submultiset, recipe_of};
use crate::sim::item::{Item, ItemKind, Place};
use crate::sim::kinds::{Form, Ingredient, StationKind, Vessel};
use crate::sim::recipe_book::Part;
use crate::sim::station::StationState;
use crate::sim::stations::{POT_CAPACITY, transition, work_ticks};

/// What one plan reads about the dish: the parts the plate still lacks, those of them nobody
/// has started, the plate itself, and the tag every label of the job ends with.
struct Dish<'a> {
    needs: Vec<Part>,
    unstarted: Vec<Part>,
    tag: String,
    plate: Option<&'a Item>,
}

/// The next action for a bot making a dish.
pub(super) fn plan_job(bot: &mut Bot, v: &View, claims: &mut ClaimTable, job: &Job) -> Option<Act> {
    let room = v.room;
    let recipe = &room.book.recipes[job.recipe];
    let (needs, unstarted) = needs_of(v, claims, job);
    let tag = format!("{} (order {})", recipe.id, job.order.map_or("-".into(), |o| o.to_string()));
    let d = Dish { needs, unstarted, tag, plate: job.plate.and_then(|p| room.item(p)) };
    match v.held {
        Some(item) if Some(item.id) == job.plate => plate_in_hand(v, claims, &d, item),
        Some(item) => ingredient_in_hand(v, claims, &d, item),
        None => free_hand(bot, v, claims, &d),
    }
}

/// Our plate in hand: serve it when complete, else take a ready part, else wait at the stove
/// due first (when no hand work is left), else park it near the next part's source.
fn plate_in_hand(v: &View, claims: &mut ClaimTable, d: &Dish, item: &Item) -> Option<Act> {
    if d.needs.is_empty() {
        return serve(v, d, item);
    }
    if let Some(take) = take_ready_part(v, claims, d) {
        return Some(take);
    }
    if let Some(wait) = wait_for_stove(v, claims, d) {
        return Some(wait);
    }
    park_plate(v, claims, d)
}

/// A finished dish goes to the serve window, or waits (in hand) for its ticket.
fn serve(v: &View, d: &Dish, item: &Item) -> Option<Act> {
    let room = v.room;
    let parts = plate_parts(item).unwrap_or(&[]);
    let dish = recipe_of(&room.book, parts);
    let ticket = v.rail().any(|o| Some(o.recipe as usize) == dish);
    if !ticket {
        return None;
    }
    let serve = v.nearest(|s| v.is_window(s))?;
    press(serve, format!("serve {} at #{serve}", d.tag))
}

/// Something ready to put on the plate right now: a shelf part, or a finished one of ours.
fn take_ready_part(v: &View, claims: &ClaimTable, d: &Dish) -> Option<Act> {
    for &part in &d.needs {
        match process_kind(part) {
            None => {
                if let Some(shelf) = v.shelf(part.0) {
                    let what = part.0.name();
                    return press(shelf, format!("plate {what} from shelf #{shelf} for {}", d.tag));
                }
            }
            Some(kind) => {
                let ready = v.nearest(|s| {
                    v.kind(s) == kind
                        && claims.mine(Claim::Station(s), v.seat)
                        && v.state(s) == StationState::Ready
                        && {
                            let foods = v.foods_on(s);
                            !foods.is_empty() && is_submultiset(&sorted(foods), &d.needs)
                        }
                });
                if let Some(s) = ready {
                    return press(s, format!("plate {} from #{s} for {}", part.0.name(), d.tag));
                }
            }
        }
    }
    None
}

/// With no hand work left, wait with the plate at the stove of ours due first.
fn wait_for_stove(v: &View, claims: &ClaimTable, d: &Dish) -> Option<Act> {
    let room = v.room;
    let hand_work =
        d.unstarted.iter().any(|p| process_kind(*p).is_some()) || my_raw_board(v, claims).is_some();
    if hand_work {
        return None;
    }
    let due = claims
        .stations_of(v.seat)
        .into_iter()
        .filter(|&s| is_heat(v.kind(s)) && v.state(s) == StationState::Working)
        .min_by_key(|&s| {
            (work_ticks(room, s).saturating_sub(room.stations[s].progress), v.own_rank(s))
        })?;
    act(
        due,
        Mode::AwaitThenPress { until: Until::Ready, max: 600 },
        format!("wait at #{due} to plate for {}", d.tag),
    )
}

/// Hands needed elsewhere: put the plate on a free counter near where the next part comes from.
fn park_plate(v: &View, claims: &mut ClaimTable, d: &Dish) -> Option<Act> {
    let room = v.room;
    let anchor = anchor_of(v, claims, &d.unstarted);
    // A throwing team counts a counter a throw away from the next part's fixture as near it
    // (the part can fly onto the plate): a river between them then costs nothing.
    let thrown = d.unstarted.iter().copied().find(|p| throwable(*p)).filter(|_| v.throws);
    // A part a feeder throws across the water onto the plate: park where that throw lands.
    let fed_part =
        d.unstarted.iter().copied().find(|&p| !process_kind(p).is_some_and(is_heat) && fed(v, p));
    let spot = room
        .stations
        .iter()
        .enumerate()
        .filter(|(s, st)| {
            matches!(st.kind, StationKind::Counter | StationKind::Prep)
                && room.items_on(*s).next().is_none()
                && claims.owner(Claim::Station(*s)).is_none()
                && v.cost(*s) != FAR
                && fed_part.is_none_or(|food| lands_from_feeder(v, food, *s))
        })
        .map(|(s, _)| s)
        .min_by_key(|&s| {
            let extra = anchor.map_or(0, |a| {
                let walk = v.dist.between(&room.level, s, a);
                thrown.map_or(walk, |food| walk.min(throw_reach(v, food, a, s)))
            });
            (v.cost(s).saturating_add(extra), v.own_rank(s))
        })?;
    claims.claim(Claim::Station(spot), v.seat);
    press(spot, format!("park plate on #{spot} for {}", d.tag))
}

/// An ingredient in hand goes into its fixture, or onto the parked plate; anything else is
/// trashed.
fn ingredient_in_hand(v: &View, claims: &mut ClaimTable, d: &Dish, item: &Item) -> Option<Act> {
    let ItemKind::Food(ing, form) = item.kind else {
        // Someone else's plate in our hand: put it down somewhere free.
        return trash_held(v, "a stray plate");
    };
    if form == Form::Raw
        && let Some(part) = part_for_raw(&d.unstarted, ing)
        && let Some(kind) = process_kind(part)
        && let Some((s, false)) = station_for(v, claims, ing, kind)
    {
        claims.claim(Claim::Station(s), v.seat);
        let (what, tag) = (ing.name(), &d.tag);
        let label = format!("put {what} in {} #{s} for {tag}", kind.label());
        // A board wants our hands next (the chop), so a throw there only moves the walk; a
        // stove works alone, so its food may fly.
        if is_heat(kind) {
            return deliver(v, claims, (ing, form), s, label);
        }
        return press(s, label);
    }
    let parked = d.plate.and_then(|p| match p.place {
        Place::Station(s) => Some(s as usize),
        Place::Hand(_) | Place::Floor(_) | Place::Air(_) => None,
    });
    if d.unstarted.contains(&(ing, form))
        && let Some(spot) = parked
    {
        let label = format!("add {} to plate on #{spot} for {}", ing.name(), d.tag);
        return deliver(v, claims, (ing, form), spot, label);
    }
    trash_held(v, ing.name())
}

/// A free hand: wash our burnt fixture, start the slow heat, chop, get a plate; once the plate
/// is parked, fill it ([`fill_parked_plate`]).
fn free_hand(bot: &mut Bot, v: &View, claims: &mut ClaimTable, d: &Dish) -> Option<Act> {
    let room = v.room;
    let tag = &d.tag;
    // Burnt leftovers on a fixture of ours: wash them out.
    if let Some(s) =
        claims.stations_of(v.seat).into_iter().find(|&s| v.state(s) == StationState::Dirty)
    {
        return wash(s, format!("wash burnt #{s}"));
    }
    // Start the slow heat first: it cooks while we do the rest.
    for &part in &d.unstarted {
        let Some(kind) = process_kind(part).filter(|k| is_heat(*k)) else { continue };
        if let Some((s, dirty)) = station_for(v, claims, part.0, kind) {
            claims.claim(Claim::Station(s), v.seat);
            if dirty {
                return wash(s, format!("wash {} #{s} for {tag}", kind.label()));
            }
            // A shelf across the water: the stove stays ours, a feeder throws the food in.
            let Some(shelf) = v.shelf(part.0) else { continue };
            return press(shelf, format!("fetch {} for #{s} ({tag})", part.0.name()));
        }
    }
    if let Some(board) = my_raw_board(v, claims) {
        return act(
            board,
            Mode::Hold { until: Until::Ready, max: 40 },
            format!("chop at #{board} for {tag}"),
        );
    }
    let Some(plate) = d.plate else {
        if room.plates_clean == 0 || bot.wash_plates {
            if room.plates_dirty > 0 {
                bot.wash_plates = false;
                return wash_plates(v, claims);
            }
            return None;
        }
        let rack = v.nearest(|s| v.kind(s) == StationKind::PlateRack)?;
        return press(rack, format!("take a plate from #{rack} for {tag}"));
    };
    let Place::Station(spot) = plate.place else { return None };
    fill_parked_plate(v, claims, d, spot as usize)
}

/// The plate waits on fixture `spot`: carry finished hand work to it, fetch what nobody has
/// started, and lift it once only pot work (poured by the plate) or nothing is left.
fn fill_parked_plate(v: &View, claims: &mut ClaimTable, d: &Dish, spot: usize) -> Option<Act> {
    let tag = &d.tag;
    // Finished hand work to carry over to the plate.
    for &part in &d.needs {
        let Some(kind) = process_kind(part).filter(|k| *k != StationKind::Stove(Vessel::Pot))
        else {
            continue;
        };
        if let Some(s) = v.nearest(|s| {
            v.kind(s) == kind
                && claims.mine(Claim::Station(s), v.seat)
                && v.state(s) == StationState::Ready
                && v.foods_on(s).contains(&part)
        }) {
            return press(s, format!("take {} from #{s} for {tag}", part.0.name()));
        }
    }
    for &part in &d.unstarted {
        match process_kind(part) {
            Some(kind) if !is_heat(kind) => {
                if let Some((s, _)) = station_for(v, claims, part.0, kind)
                    && let Some(shelf) = v.shelf(part.0)
                {
                    claims.claim(Claim::Station(s), v.seat);
                    return press(shelf, format!("fetch {} for #{s} ({tag})", part.0.name()));
                }
            }
            // A shelf across the water: a feeder throws it onto the plate.
            None => {
                let Some(shelf) = v.shelf(part.0) else { continue };
                return press(shelf, format!("fetch {} for the plate ({tag})", part.0.name()));
            }
            Some(_) => {}
        }
    }
    let pot_left =
        d.needs.iter().any(|p| process_kind(*p) == Some(StationKind::Stove(Vessel::Pot)));
    let cooking = claims.stations_of(v.seat).into_iter().any(|s| {
        is_heat(v.kind(s)) && matches!(v.state(s), StationState::Working | StationState::Ready)
    });
    if d.needs.is_empty() || (pot_left && cooking && d.unstarted.is_empty()) {
        return press(spot, format!("lift plate from #{spot} for {tag}"));
    }
    None
}

/// What the plate still lacks, and of that what nobody has started (not on one of our
/// fixtures, not in our hand).
pub(super) fn needs_of(v: &View, claims: &ClaimTable, job: &Job) -> (Vec<Part>, Vec<Part>) {
    let mut needs = v.room.book.recipes[job.recipe].parts.clone();
    if let Some(parts) = job.plate.and_then(|p| v.room.item(p)).and_then(plate_parts) {
        for p in parts {
            remove_one(&mut needs, *p);
        }
    }
    let mut unstarted = needs.clone();
    for s in claims.stations_of(v.seat) {
        let kind = v.kind(s);
        for (g, f) in v.foods_on(s) {
            let target = transition(kind, g, f).map_or(f, |t| t.0);
            remove_one(&mut unstarted, (g, target));
        }
    }
    // Food we threw is started: it is on its way to a fixture or the plate, or to a
    // teammate's hand that takes it on (a pass), or in that hand.
    let passed = pass_station(claims, v.seat);
    for (food, end) in in_flight(v.room, v.seat) {
        remove_one(&mut unstarted, landed_form(v.room, food, end.or(passed)));
    }
    for (food, s) in carried_for(v.room, claims, v.seat) {
        remove_one(&mut unstarted, landed_form(v.room, food, Some(s)));
    }
    (needs, unstarted)
}

/// The part a held raw ingredient is for, among the unstarted ones.
fn part_for_raw(unstarted: &[Part], ing: Ingredient) -> Option<Part> {
    unstarted.iter().copied().find(|p| p.0 == ing && process_kind(*p).is_some())
}

/// A fixture to put a raw `ing` in for a part made by `kind`: one of ours with room first,
/// then a free clean one, then a free dirty one (wash it first). Returns (station, dirty).
pub(super) fn station_for(
    v: &View,
    claims: &ClaimTable,
    ing: Ingredient,
    kind: StationKind,
) -> Option<(usize, bool)> {
    let room = v.room;
    let has_room = |s: usize| {
        let st = &room.stations[s];
        if st.state == StationState::Dirty || st.worker.is_some_and(|w| w != v.seat) {
            return false;
        }
        let foods = v.foods_on(s);
        match kind {
            StationKind::Stove(Vessel::Pot) => {
                let same = foods.iter().all(|(g, _)| *g == ing);
                let unmarked = room.items_on(s).all(|i| i.mark.is_none());
                same && unmarked
                    && foods.len() < POT_CAPACITY
                    && (!foods.is_empty() || room.pots_clean > 0)
            }
            // A rotted leftover on a board is pushed out by a new input.
            StationKind::ChopBoard => foods.iter().all(|(_, f)| *f == Form::Burnt),
            _ => foods.is_empty() && room.items_on(s).next().is_none(),
        }
    };
    let of_kind = |s: usize| room.stations[s].kind == kind;
    if let Some(s) =
        v.nearest(|s| of_kind(s) && claims.mine(Claim::Station(s), v.seat) && has_room(s))
    {
        return Some((s, false));
    }
    let free = |s: usize| of_kind(s) && claims.owner(Claim::Station(s)).is_none();
    if let Some(s) = v.nearest(|s| {
        free(s)
            && has_room(s)
            && v.room.items_on(s).next().is_none()
            && v.state(s) != StationState::Working
    }) {
        return Some((s, false));
    }
    let dirty = |s: usize| v.state(s) == StationState::Dirty && room.stations[s].worker.is_none();
    v.nearest(|s| {
        free(s)
            && dirty(s)
            && (kind != StationKind::Stove(Vessel::Pot) || room.pots_clean + room.pots_dirty > 0)
    })
    .map(|s| (s, true))
}

/// One of our boards holding an unchopped raw ingredient (the chop still to do).
pub(super) fn my_raw_board(v: &View, claims: &ClaimTable) -> Option<usize> {
    claims.stations_of(v.seat).into_iter().find(|&s| {
        v.kind(s) == StationKind::ChopBoard
            && v.state(s) != StationState::Ready
            && v.room
                .items_on(s)
                .any(|i| matches!(i.kind, ItemKind::Food(_, Form::Raw)) && i.mark.is_none())
    })
}

/// Where the next hand-carried part will come from (to park the plate near it).
fn anchor_of(v: &View, claims: &ClaimTable, unstarted: &[Part]) -> Option<usize> {
    if let Some(b) = my_raw_board(v, claims) {
        return Some(b);
    }
    for &part in unstarted {
        match process_kind(part) {
            Some(kind) if !is_heat(kind) => {
                if let Some((s, _)) = station_for(v, claims, part.0, kind) {
                    return Some(s);
                }
            }
            None => return v.shelf(part.0),
            Some(_) => {}
        }
    }
    claims.stations_of(v.seat).into_iter().find(|&s| v.kind(s) == StationKind::Stove(Vessel::Pan))
}
