//! The planner's policy: the one next action for a bot from the kitchen as it is. Fires come
//! first, then the bot's dish (`dish`), else chores; a bot with nothing to do steps out of the
//! way, and cooks past the kitchen's count help without taking tickets.

use super::act::{Act, Mode, Until};
use super::claims::{Claim, ClaimTable};
use super::cook::{Bot, Job};
use super::dish::plan_job;
use super::feed::plan_feed;
use super::nav::{Distances, FAR, distances, walkable};
use super::pass::{carried_for, catch_duty, drop_stale, pass_station};
use super::reach::{awaited_stoves, is_feeder, makeable};
use super::throwing::in_flight;
use super::tuning::BotTuning;
use super::view::{
    View, act, is_heat, own_x, plate_parts, press, process_kind, remove_one, trash_held, wash,
    wash_plates,
};
use crate::sim::dishes::is_submultiset;
use crate::sim::ids::Seat;
use crate::sim::item::ItemKind;
use crate::sim::kinds::{StationKind, Tile, Vessel};
use crate::sim::recipe_book::Part;
use crate::sim::room::Room;
use crate::sim::station::StationState;

/// Choose the one next action for `bot` (None = nothing useful to do right now).
pub(super) fn plan(
    bot: &mut Bot,
    room: &Room,
    claims: &mut ClaimTable,
    dist: &Distances,
    tuning: BotTuning,
    mates: &[(Seat, Job)],
) -> Option<Act> {
    let seat = bot.seat;
    let cook = &room.cooks[room.cook_index(seat)?];
    let v = View {
        room,
        seat,
        cell: cook.pos.cell(),
        held: cook.held.and_then(|id| room.item(id)),
        dist,
        throws: tuning.throws,
        team: room.team_of_seat(seat),
    };
    drop_stale(&v, claims);
    // A catch a teammate asked of us comes before taking a ticket (we were idle when asked);
    // only a fire outranks it.
    if let Some(catch) = catch_duty(&v, claims) {
        return fight_fire(&v, claims).or(Some(catch));
    }
    // A cook on a bank with no serve window feeds the dishes across the water instead.
    if is_feeder(room, dist, seat) {
        bot.job = None;
        release_idle_claims(&v, claims, &[]);
        return fight_fire(&v, claims).or_else(|| plan_feed(&v, claims, mates));
    }
    sync_job(bot, &v, claims);
    let awaited = bot.job.as_ref().map_or_else(Vec::new, |j| awaited_stoves(&v, claims, j.recipe));
    release_idle_claims(&v, claims, &awaited);
    // A fire outranks every ticket: a kitchen that burns down loses the round.
    if let Some(fight) = fight_fire(&v, claims) {
        return Some(fight);
    }
    let next = match bot.job.clone() {
        Some(job) => plan_job(bot, &v, claims, &job),
        None => plan_chores(bot, &v, claims),
    };
    next.or_else(|| step_aside(&v))
}

/// Walk to the nearest resting cell away from every other cook (jam resolution).
pub(super) fn give_way(room: &Room, seat: Seat, dist: &Distances) -> Option<Act> {
    let here = room.cooks[room.cook_index(seat)?].pos.cell();
    let near_other = |c: (i32, i32)| {
        room.cooks.iter().any(|k| {
            let o = k.pos.cell();
            k.seat != seat && (o.0 - c.0).abs() + (o.1 - c.1).abs() <= 1
        })
    };
    let others: Vec<_> =
        room.cooks.iter().filter(|k| k.seat != seat).map(|k| k.pos.cell()).collect();
    let d = distances(&room.level, &[here], &|c| others.contains(&c));
    let w = room.level.width as usize;
    let at = |c: (i32, i32)| d[c.1 as usize * w + c.0 as usize];
    let cell = dist
        .rest
        .iter()
        .copied()
        .filter(|&c| c != here && !near_other(c) && at(c) != FAR)
        .min_by_key(|&c| (at(c), c.1, own_x(room, seat, c.0)))?;
    act(0, Mode::GoTo(cell), format!("give way: step to {cell:?}"))
}

/// Nothing to do: if we stand where fixtures are worked, walk to the nearest free resting cell
/// so a busy teammate's way stays clear.
fn step_aside(v: &View) -> Option<Act> {
    let room = v.room;
    if is_helper(room, v.seat)
        && v.held.is_none()
        && let Some(rest) = helper_rest(v)
    {
        return rest.filter(|a| a.mode != Mode::GoTo(v.cell));
    }
    let beside_work = [(0, -1), (0, 1), (-1, 0), (1, 0)]
        .into_iter()
        .any(|(dx, dy)| room.level.station_at((v.cell.0 + dx, v.cell.1 + dy)).is_some());
    if !beside_work || v.held.is_some() {
        return None;
    }
    let taken = |c: (i32, i32)| room.cooks.iter().any(|k| k.seat != v.seat && k.pos.cell() == c);
    let dist = distances(&room.level, &[v.cell], &|_| false);
    let w = room.level.width as usize;
    let cell = v
        .dist
        .rest
        .iter()
        .copied()
        .filter(|&c| !taken(c) && dist[c.1 as usize * w + c.0 as usize] != FAR)
        .min_by_key(|&c| (dist[c.1 as usize * w + c.0 as usize], c.1, own_x(room, v.seat, c.0)))?;
    act(0, Mode::GoTo(cell), format!("step aside to {cell:?}"))
}

/// A helper with nothing to do waits on the nearest floor cell no route between two working
/// cells crosses, not taken by another cook: `Some(act)` (a walk there, or staying when it is
/// already on one), `None` when the kitchen has no such cell (then it steps aside as any bot).
fn helper_rest(v: &View) -> Option<Option<Act>> {
    let room = v.room;
    let level = &room.level;
    let w = level.width.max(1) as usize;
    let at = |c: (i32, i32)| c.1 as usize * w + c.0 as usize;
    let taken = |c: (i32, i32)| room.cooks.iter().any(|k| k.seat != v.seat && k.pos.cell() == c);
    let dist = distances(level, &[v.cell], &|_| false);
    let quiet = |c: (i32, i32)| v.dist.traffic(c);
    let cell = (0..level.height)
        .flat_map(|y| (0..level.width).map(move |x| (x, y)))
        .filter(|&c| level.tile(c) == Tile::Floor)
        .filter(|&c| {
            let open = [(0, -1), (0, 1), (-1, 0), (1, 0)]
                .into_iter()
                .filter(|(dx, dy)| walkable(level, (c.0 + dx, c.1 + dy)))
                .count();
            open >= 3 && (c == v.cell || (!taken(c) && dist[at(c)] != FAR))
        })
        .min_by_key(|&c| (quiet(c), dist[at(c)], c.1, own_x(room, v.seat, c.0)))?;
    Some(Some(Act {
        station: 0,
        mode: Mode::GoTo(cell),
        label: format!("helper: wait at {cell:?}"),
    }))
}

/// Keep the job true to the kitchen: adopt a fresh plate, end the job once the plate is served,
/// follow the ticket when it leaves the rail, take a new ticket when idle.
fn sync_job(bot: &mut Bot, v: &View, claims: &mut ClaimTable) {
    let seat = bot.seat;
    if let Some(job) = &mut bot.job {
        if job.plate.is_none()
            && let Some(item) = v.held
            && plate_parts(item).is_some()
        {
            job.plate = Some(item.id);
            claims.claim(Claim::Item(item.id), seat);
        }
        if job.plate.is_some_and(|p| v.room.item(p).is_none()) {
            // Served (or lost): the job is over.
            bot.job = None;
            claims.release_all(seat);
        }
    }
    if let Some(job) = &mut bot.job
        && let Some(id) = job.order
        && !v.rail().any(|o| o.id == id)
    {
        claims.release(Claim::Order(id), seat);
        job.order = v
            .rail()
            .find(|o| o.recipe as usize == job.recipe && claims.open_to(Claim::Order(o.id), seat))
            .map(|o| o.id);
        if let Some(id) = job.order {
            claims.claim(Claim::Order(id), seat);
        }
    }
    // A ticket-less job that has not started is dropped; one with work in it is finished. So
    // is a ticket we cannot start for want of a clean plate (no heat part to begin, the rack
    // empty): holding it only starved the bot while a faster teammate took every plate
    // (dish_pit seed 1 with dashing bots: 976 ticks with a job and no progress).
    if let Some(job) = &bot.job
        && (job.order.is_none() || !plate_startable(v, job.recipe))
        && job.plate.is_none()
        && v.held.is_none()
        && in_flight(v.room, seat).is_empty()
        && carried_for(v.room, claims, seat).is_empty()
        && claims.stations_of(seat).iter().all(|&s| v.room.items_on(s).next().is_none())
    {
        bot.job = None;
        claims.release_all(seat);
    }
    if bot.job.is_none() {
        bot.job = choose_order(v, claims);
        // A job's headway is counted from when it was taken, not from the bot's last act
        // before it: a bot that idled ticket-less for 960 ticks (dish_pit seed 1, a dashing
        // teammate serving every ticket alone) otherwise "stalled" the moment it took one.
        if bot.job.is_some() {
            bot.last_progress = v.room.tick;
        }
    }
}

/// Is this seat's cook past the kitchen's cook count (its spawns), in seat order? Such a bot
/// takes no tickets: it does chores and keeps out of the way (three or four cooks in a
/// kitchen drawn for two jammed its corridors; docs/BOTS.md).
pub(super) fn is_helper(room: &Room, seat: Seat) -> bool {
    room.cooks
        .iter()
        .position(|c| c.seat == seat)
        .is_some_and(|r| r >= room.level.spawns.len().max(1))
}

/// The oldest ticket nobody has claimed, preferring one with time left to make it.
fn choose_order(v: &View, claims: &mut ClaimTable) -> Option<Job> {
    let room = v.room;
    // A plate already in hand decides the dish.
    let in_hand = v.held.and_then(plate_parts);
    // No more cooks on tickets than the kitchen was drawn for (its spawns): the cooks past
    // that, in seat order, do chores and keep out of the way instead of crowding corridors.
    if in_hand.is_none() && is_helper(room, v.seat) {
        return None;
    }
    let open: Vec<_> = v
        .rail()
        .filter(|o| claims.open_to(Claim::Order(o.id), v.seat))
        .filter(|o| {
            let parts = &room.book.recipes[o.recipe as usize].parts;
            // Only what the plate in hand still lacks has to be startable: a finished dish
            // needs no stove at all. (Asking for a free stove for every part left a bot that
            // had dropped its job idling with a finished soup while both pots were busy —
            // on the only cell a teammate could wash one from: drawbridge, seed 3.)
            let mut left = parts.clone();
            for p in in_hand.unwrap_or(&[]) {
                remove_one(&mut left, *p);
            }
            in_hand.is_none_or(|p| is_submultiset(p, parts))
                && left.iter().all(|&p| makeable(v, p))
                && startable(v, claims, &left)
                && (in_hand.is_some() || plate_startable(v, o.recipe as usize))
        })
        .collect();
    let roomy = open.iter().find(|o| o.deadline.saturating_sub(room.tick) >= 500);
    let order = roomy.or(open.first())?;
    claims.claim(Claim::Order(order.id), v.seat);
    let plate = v.held.filter(|i| plate_parts(i).is_some()).map(|i| i.id);
    if let Some(p) = plate {
        claims.claim(Claim::Item(p), v.seat);
    }
    Some(Job { order: Some(order.id), recipe: order.recipe as usize, plate })
}

/// Can a job with no plate yet make headway on this recipe now: a clean plate on the rack, or
/// a heat part to start (it cooks while the plates are washed)?
fn plate_startable(v: &View, recipe: usize) -> bool {
    v.room.plates_clean > 0
        || v.room.book.recipes[recipe].parts.iter().any(|&p| process_kind(p).is_some_and(is_heat))
}

/// Can a new job start this recipe's slow parts now (a stove free for each heat ingredient)?
/// A ticket we could only wait on is left for later rather than claimed and sat on.
fn startable(v: &View, claims: &ClaimTable, parts: &[Part]) -> bool {
    let mut used: Vec<usize> = Vec::new();
    for &p in parts {
        let Some(kind) = process_kind(p).filter(|k| is_heat(*k)) else { continue };
        let free = (0..v.room.stations.len()).find(|&s| {
            v.kind(s) == kind
                && claims.owner(Claim::Station(s)).is_none()
                && v.room.items_on(s).next().is_none()
                && v.room.stations[s].worker.is_none()
                && (!used.contains(&s) || kind == StationKind::Stove(Vessel::Pot))
        });
        match free {
            Some(s) => used.push(s),
            None => return false,
        }
    }
    true
}

/// Let go of fixtures that hold nothing of ours any more (emptied boards, served stoves,
/// counters a plate was lifted from): a teammate may need them. A fixture our thrown food is
/// flying to is kept.
fn release_idle_claims(v: &View, claims: &mut ClaimTable, awaited: &[usize]) {
    let mut landing: Vec<usize> =
        in_flight(v.room, v.seat).into_iter().filter_map(|(_, s)| s).collect();
    landing.extend_from_slice(awaited);
    landing.extend(pass_station(claims, v.seat));
    landing.extend(carried_for(v.room, claims, v.seat).into_iter().map(|(_, s)| s));
    for s in claims.stations_of(v.seat) {
        let st = &v.room.stations[s];
        let empty = v.room.items_on(s).next().is_none();
        let working = st.worker == Some(v.seat);
        if empty && !working && !landing.contains(&s) {
            claims.release(Claim::Station(s), v.seat);
        }
    }
}

/// The stations ablaze (a fire blocks its station; nothing else does).
fn burning(v: &View) -> Vec<usize> {
    (0..v.room.stations.len()).filter(|&s| v.state(s) == StationState::Blocked).collect()
}

/// Firefighting: a bot holding the extinguisher sprays the nearest fire; a free-handed bot
/// fetches the extinguisher when no teammate has claimed it. Bots busy with food leave it to
/// the others (a hand can hold one thing).
fn fight_fire(v: &View, claims: &mut ClaimTable) -> Option<Act> {
    let fires = burning(v);
    if fires.is_empty() {
        return None;
    }
    match v.held.map(|i| &i.kind) {
        Some(ItemKind::Extinguisher) => {
            let fire = v.nearest(|s| fires.contains(&s))?;
            act(
                fire,
                Mode::Hold { until: Until::Unblocked, max: 200 },
                format!("spray the fire at #{fire}"),
            )
        }
        None => {
            let stand = v.nearest(|s| {
                v.kind(s) == StationKind::ExtinguisherStand
                    && v.room.items_on(s).any(|i| matches!(i.kind, ItemKind::Extinguisher))
            })?;
            if claims.owner(Claim::Station(stand)).is_some_and(|o| o != v.seat) {
                return None;
            }
            claims.claim(Claim::Station(stand), v.seat);
            press(stand, format!("fetch the extinguisher from #{stand}"))
        }
        Some(_) => None,
    }
}

/// Put the extinguisher back on a free stand once the fires are out.
fn return_extinguisher(v: &View) -> Option<Act> {
    let stand = v.nearest(|s| {
        v.kind(s) == StationKind::ExtinguisherStand && v.room.items_on(s).next().is_none()
    })?;
    press(stand, format!("return the extinguisher to #{stand}"))
}

/// No ticket to work: wash dirty stoves and plates, clear the hand.
fn plan_chores(bot: &mut Bot, v: &View, claims: &mut ClaimTable) -> Option<Act> {
    let room = v.room;
    if let Some(item) = v.held {
        return match &item.kind {
            ItemKind::Food(..) => trash_held(v, "stray food"),
            // An empty plate goes back on the rack; a dish waits for its ticket.
            ItemKind::Plate { parts } if parts.is_empty() => {
                let rack = v.nearest(|s| v.kind(s) == StationKind::PlateRack)?;
                press(rack, format!("return plate to #{rack}"))
            }
            ItemKind::Plate { .. } => None,
            ItemKind::Extinguisher => return_extinguisher(v),
        };
    }
    if let Some(s) = v.nearest(|s| {
        is_heat(v.kind(s))
            && v.state(s) == StationState::Dirty
            && room.stations[s].worker.is_none()
            && claims.owner(Claim::Station(s)).is_none()
    }) {
        claims.claim(Claim::Station(s), v.seat);
        return wash(s, format!("chore: wash {} #{s}", v.kind(s).label()));
    }
    if room.plates_dirty > 0 && (room.plates_clean < 2 || bot.wash_plates) {
        bot.wash_plates = false;
        return wash_plates(v, claims);
    }
    None
}
