//! The planner bot: reads a Room, picks an order, decomposes its recipe into actions at
//! fixtures (fetch, chop, cook, plate, serve, wash) and emits input frames — never sim state.
//!
//! The planner is receding-horizon: whenever a bot's current action ends (done, refused or
//! stuck) it looks at the kitchen as it is now and chooses the one next action. Nothing it
//! believes can go stale for long, which is what keeps a bot from stalling when a teammate,
//! the rail or the heat changes the kitchen under it. Every choice iterates stations, orders
//! and items by their stable ids and breaks ties by index, so a bot is a pure function of the
//! room's state and its own small memory.

use super::act::{Act, Exec, Mode, Outcome, Until, stand_spot};
use super::claims::{Claim, ClaimTable};
use super::errand::Intent;
use super::nav::{FAR, distances, walkable};
use crate::level::model::{Level, Part};
use crate::sim::dishes::{is_submultiset, recipe_of};
use crate::sim::events::{DeniedReason, DeniedWhy};
use crate::sim::input::InputFrame;
use crate::sim::kinds::{Form, Ingredient, StationKind, Vessel};
use crate::sim::room::{Item, ItemId, ItemKind, Place, Room, Seat, StationState};
use crate::sim::stations::{POT_CAPACITY, transition, work_ticks};

/// The dish a bot is making: for which ticket, with which plate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    /// The claimed ticket (None once it left the rail and no other ticket of the recipe was free:
    /// the dish is finished anyway and served to the next matching ticket).
    pub order: Option<u32>,
    /// Recipe-book index.
    pub recipe: usize,
    /// The bot's plate, once it has taken one from the rack.
    pub plate: Option<ItemId>,
}

/// One bot cook: its seat, its job, the action in progress and the memory the planner keeps.
#[derive(Clone, Debug)]
pub struct Bot {
    pub seat: Seat,
    pub job: Option<Job>,
    exec: Option<Exec>,
    seq: u32,
    pressed_last: bool,
    /// Set by a `NothingHere { NoPlate }` refusal: wash plates before anything else.
    wash_plates: bool,
    /// Refusals or stalls in a row (backs the bot off, then drops the job).
    fails: u32,
    /// Ticks left standing still before planning again.
    idle: u32,
    /// Set when a walk jammed against a lower seat: step out of the way before re-planning.
    give_way: bool,
    /// The tick on which an action last completed (the no-stall tests read it).
    pub last_progress: u32,
    /// The label of the current action ("" when idle).
    pub plan: String,
}

impl Bot {
    pub fn new(seat: Seat) -> Bot {
        Bot {
            seat,
            job: None,
            exec: None,
            seq: 0,
            pressed_last: false,
            wash_plates: false,
            fails: 0,
            idle: 0,
            give_way: false,
            last_progress: 0,
            plan: String::new(),
        }
    }
}

/// Walking distance from every cell to each fixture's working cells, computed once per level.
#[derive(Clone, Debug)]
pub struct Distances {
    width: usize,
    /// Per station, row-major distances to the nearest cell it can be worked from.
    maps: Vec<Vec<u32>>,
    /// Floor cells beside no fixture and not in a one-tile passage (at least three walkable
    /// neighbours): where an idle bot waits without blocking anyone's work or way. A bot that
    /// rested in a corridor to a far sink blocked every trip to it (levels/dish_pit.ron).
    pub rest: Vec<(i32, i32)>,
    /// Per cell, row-major: how many routes between two working cells cross it. A helper waits
    /// on the quietest cell it can reach.
    traffic: Vec<u32>,
}

impl Distances {
    pub fn new(level: &Level) -> Distances {
        let maps = level
            .stations
            .iter()
            .map(|s| {
                let spots: Vec<_> = [(0, -1), (0, 1), (-1, 0), (1, 0)]
                    .into_iter()
                    .map(|(dx, dy)| (s.cell.0 + dx, s.cell.1 + dy))
                    .filter(|&c| walkable(level, c))
                    .collect();
                distances(level, &spots, &|_| false)
            })
            .collect();
        let mut rest = Vec::new();
        for y in 0..level.height {
            for x in 0..level.width {
                let beside = [(0, -1), (0, 1), (-1, 0), (1, 0)]
                    .into_iter()
                    .any(|(dx, dy)| level.station_at((x + dx, y + dy)).is_some());
                let open = [(0, -1), (0, 1), (-1, 0), (1, 0)]
                    .into_iter()
                    .filter(|(dx, dy)| walkable(level, (x + dx, y + dy)))
                    .count();
                if level.tile((x, y)) == crate::sim::kinds::Tile::Floor && !beside && open >= 3 {
                    rest.push((x, y));
                }
            }
        }
        // How many routes between working cells cross each cell (one shortest path per pair).
        let w = level.width.max(1) as usize;
        let mut traffic = vec![0u32; w * level.height.max(1) as usize];
        let mut work: Vec<(i32, i32)> = level
            .stations
            .iter()
            .flat_map(|s| {
                [(0, -1), (0, 1), (-1, 0), (1, 0)].map(|(dx, dy)| (s.cell.0 + dx, s.cell.1 + dy))
            })
            .filter(|&c| walkable(level, c))
            .collect();
        work.sort_unstable();
        work.dedup();
        for (k, &a) in work.iter().enumerate() {
            for &b in &work[k + 1..] {
                for c in super::nav::path(level, a, b).unwrap_or_default() {
                    traffic[c.1 as usize * w + c.0 as usize] += 1;
                }
            }
        }
        Distances { width: w, maps, rest, traffic }
    }

    /// Cells from `cell` to a working cell of `station` (FAR when none is reachable).
    pub fn to(&self, station: usize, cell: (i32, i32)) -> u32 {
        if cell.0 < 0 || cell.1 < 0 {
            return FAR;
        }
        self.maps
            .get(station)
            .and_then(|m| m.get(cell.1 as usize * self.width + cell.0 as usize))
            .copied()
            .unwrap_or(FAR)
    }

    /// Fixture to fixture: from the best working cell of `a` to `b`.
    pub fn between(&self, level: &Level, a: usize, b: usize) -> u32 {
        let c = level.stations[a].cell;
        [(0, -1), (0, 1), (-1, 0), (1, 0)]
            .into_iter()
            .map(|(dx, dy)| (c.0 + dx, c.1 + dy))
            .filter(|&n| walkable(level, n))
            .map(|n| self.to(b, n))
            .min()
            .unwrap_or(FAR)
    }
}

/// A team of bots in one room, with the room's claim table.
#[derive(Clone, Debug)]
pub struct BotTeam {
    pub bots: Vec<Bot>,
    pub claims: ClaimTable,
    dist: Distances,
    /// Collect a line per plan change in `trace` (the `--trace` option).
    pub tracing: bool,
    pub trace: Vec<String>,
    /// Ticks from a frame to its outcome in the room the team reads: 1 when it reads the room
    /// it feeds; a remote bot reads replicated views that trail its frames (`bot::remote`).
    pub latency: u32,
}

impl BotTeam {
    /// Bots for these seats of `room` (seats without a cook are ignored).
    pub fn new(room: &Room, seats: &[Seat]) -> BotTeam {
        let mut seats: Vec<Seat> =
            seats.iter().copied().filter(|s| room.cook_index(*s).is_some()).collect();
        seats.sort_unstable();
        seats.dedup();
        BotTeam {
            bots: seats.into_iter().map(Bot::new).collect(),
            claims: ClaimTable::default(),
            dist: Distances::new(&room.level),
            tracing: false,
            trace: Vec::new(),
            latency: 1,
        }
    }

    /// This tick's frame for every bot, in seat order. Reads the room only.
    pub fn frames(&mut self, room: &Room) -> Vec<(Seat, InputFrame)> {
        (0..self.bots.len())
            .map(|i| {
                let intent = self.think(i, room);
                let bot = &mut self.bots[i];
                bot.seq += 1;
                let frame = InputFrame {
                    seq: bot.seq,
                    tick: room.tick,
                    mv: intent.mv,
                    action: intent.action,
                    face: intent.face,
                };
                (bot.seat, frame)
            })
            .collect()
    }

    /// Admit this tick's frames through the room's input gate — the only thing a bot writes.
    pub fn drive(&mut self, room: &mut Room) {
        let now = room.tick;
        for (seat, frame) in self.frames(room) {
            // Stamped for `now`, so always inside the window.
            let _ = room.inputs.admit(now, seat, frame, 0);
        }
    }

    fn log(&mut self, tick: u32, seat: Seat, line: String) {
        if self.tracing {
            self.trace.push(format!("{tick:>5} bot{seat}: {line}"));
        }
    }

    fn think(&mut self, i: usize, room: &Room) -> Intent {
        let seat = self.bots[i].seat;
        if room.result.is_some() || room.cook_index(seat).is_none() {
            return Intent::default();
        }
        for _ in 0..4 {
            if self.bots[i].exec.is_none() {
                if self.bots[i].idle > 0 {
                    self.bots[i].idle -= 1;
                    self.bots[i].pressed_last = false;
                    return Intent::default();
                }
                let act = if std::mem::take(&mut self.bots[i].give_way) {
                    give_way(room, seat, &self.dist)
                        .or_else(|| plan(&mut self.bots[i], room, &mut self.claims, &self.dist))
                } else {
                    plan(&mut self.bots[i], room, &mut self.claims, &self.dist)
                };
                let label = act.as_ref().map_or_else(|| "idle".to_string(), |a| a.label.clone());
                if label != self.bots[i].plan {
                    self.log(room.tick, seat, label.clone());
                    self.bots[i].plan = label;
                }
                match act {
                    Some(a) => self.bots[i].exec = Some(Exec::with_latency(a, self.latency)),
                    None => {
                        self.bots[i].idle = 8;
                        continue;
                    }
                }
            }
            let bot = &mut self.bots[i];
            let Some(exec) = bot.exec.as_mut() else { continue };
            match exec.step(room, seat, bot.pressed_last) {
                Ok(intent) => {
                    bot.pressed_last = intent.action;
                    return intent;
                }
                Err(outcome) => {
                    bot.exec = None;
                    self.finish(i, room, outcome);
                }
            }
        }
        self.bots[i].pressed_last = false;
        Intent::default()
    }

    /// Book-keeping when an action ends: progress, refusals, back-off.
    fn finish(&mut self, i: usize, room: &Room, outcome: Outcome) {
        let seat = self.bots[i].seat;
        match outcome {
            Outcome::Done => {
                let bot = &mut self.bots[i];
                bot.fails = 0;
                bot.last_progress = room.tick;
                return;
            }
            Outcome::Denied(DeniedReason::NothingHere, Some(DeniedWhy::NoPlate)) => {
                self.bots[i].wash_plates = true;
            }
            _ => {}
        }
        let what = match outcome {
            Outcome::Denied(r, _) => format!("refused: {}", r.as_str()),
            _ => "stuck".to_string(),
        };
        self.log(room.tick, seat, what);
        // A jam with a lower seat close by (a head-on meeting in a one-tile corridor): the
        // higher seat gives way, so the pair never mirrors each other forever.
        if outcome == Outcome::Stuck
            && let Some(me) = room.cook_index(seat)
        {
            let here = room.cooks[me].pos.cell();
            let near = |s: Seat| {
                room.cook_index(s).is_some_and(|c| {
                    let at = room.cooks[c].pos.cell();
                    (at.0 - here.0).abs() + (at.1 - here.1).abs() <= 2
                })
            };
            self.bots[i].give_way = room.cooks.iter().any(|c| c.seat < seat && near(c.seat));
            // A helper (a cook past the kitchen's count, who takes no tickets) standing idle in
            // the way steps aside whatever its seat: it has nowhere to be.
            for j in 0..self.bots.len() {
                let other = &mut self.bots[j];
                if j != i && other.exec.is_none() && is_helper(room, other.seat) && near(other.seat)
                {
                    other.give_way = true;
                    other.idle = 0;
                }
            }
        }
        let bot = &mut self.bots[i];
        bot.fails += 1;
        // Back off a little (longer for higher seats, so two blocked bots desynchronise), and
        // after repeated failures give the job up: re-planning from scratch never stalls.
        bot.idle = 3 + 4 * u32::from(seat) + 2 * bot.fails;
        if bot.fails >= 6 {
            bot.fails = 0;
            bot.job = None;
            self.claims.release_all(seat);
            self.log(room.tick, seat, "gave up the job".into());
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The policy: one next action from the kitchen as it is.

/// What a part needs done to a raw ingredient: the fixture kind whose transition yields it.
fn process_kind(part: Part) -> Option<StationKind> {
    let (ing, form) = part;
    if form == Form::Raw {
        return None;
    }
    [StationKind::ChopBoard, StationKind::Stove(Vessel::Pan), StationKind::Stove(Vessel::Pot)]
        .into_iter()
        .find(|k| transition(*k, ing, Form::Raw).is_some_and(|(out, _)| out == form))
}

fn remove_one(parts: &mut Vec<Part>, p: Part) -> bool {
    match parts.iter().position(|q| *q == p) {
        Some(i) => {
            parts.remove(i);
            true
        }
        None => false,
    }
}

fn is_heat(kind: StationKind) -> bool {
    matches!(kind, StationKind::Stove(_))
}

/// Everything the planner reads about one bot's situation this tick.
struct View<'a> {
    room: &'a Room,
    seat: Seat,
    cell: (i32, i32),
    held: Option<&'a Item>,
    dist: &'a Distances,
}

impl<'a> View<'a> {
    fn cost(&self, station: usize) -> u32 {
        self.dist.to(station, self.cell)
    }

    /// The nearest station satisfying `keep`, ties to the lower index.
    fn nearest(&self, keep: impl Fn(usize) -> bool) -> Option<usize> {
        (0..self.room.stations.len())
            .filter(|&s| keep(s) && self.cost(s) != FAR)
            .min_by_key(|&s| (self.cost(s), s))
    }

    fn kind(&self, s: usize) -> StationKind {
        self.room.stations[s].kind
    }

    fn state(&self, s: usize) -> StationState {
        self.room.stations[s].state
    }

    fn foods_on(&self, s: usize) -> Vec<Part> {
        self.room
            .items_on(s)
            .filter_map(|i| match i.kind {
                ItemKind::Food(g, f) => Some((g, f)),
                ItemKind::Plate { .. } | ItemKind::Extinguisher => None,
            })
            .collect()
    }

    fn shelf(&self, ing: Ingredient) -> Option<usize> {
        self.nearest(|s| self.kind(s) == StationKind::Shelf(ing))
    }

    fn trash(&self) -> Option<usize> {
        self.nearest(|s| self.kind(s) == StationKind::Trash)
    }
}

fn act(station: usize, mode: Mode, label: String) -> Option<Act> {
    Some(Act { station, mode, label })
}

fn press(station: usize, label: String) -> Option<Act> {
    act(station, Mode::Press, label)
}

/// The plate's parts, if the item is a plate.
fn plate_parts(item: &Item) -> Option<&[Part]> {
    match &item.kind {
        ItemKind::Plate { parts } => Some(parts),
        ItemKind::Food(..) | ItemKind::Extinguisher => None,
    }
}

/// Choose the one next action for `bot` (None = nothing useful to do right now).
fn plan(bot: &mut Bot, room: &Room, claims: &mut ClaimTable, dist: &Distances) -> Option<Act> {
    let seat = bot.seat;
    let cook = &room.cooks[room.cook_index(seat)?];
    let v = View {
        room,
        seat,
        cell: cook.pos.cell(),
        held: cook.held.and_then(|id| room.item(id)),
        dist,
    };
    sync_job(bot, &v, claims);
    release_idle_claims(&v, claims);
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
fn give_way(room: &Room, seat: Seat, dist: &Distances) -> Option<Act> {
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
        .min_by_key(|&c| (at(c), c.1, c.0))?;
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
        .min_by_key(|&c| (dist[c.1 as usize * w + c.0 as usize], c.1, c.0))?;
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
    let quiet = |c: (i32, i32)| v.dist.traffic.get(at(c)).copied().unwrap_or(u32::MAX);
    let cell = (0..level.height)
        .flat_map(|y| (0..level.width).map(move |x| (x, y)))
        .filter(|&c| level.tile(c) == crate::sim::kinds::Tile::Floor)
        .filter(|&c| {
            let open = [(0, -1), (0, 1), (-1, 0), (1, 0)]
                .into_iter()
                .filter(|(dx, dy)| walkable(level, (c.0 + dx, c.1 + dy)))
                .count();
            open >= 3 && (c == v.cell || (!taken(c) && dist[at(c)] != FAR))
        })
        .min_by_key(|&c| (quiet(c), dist[at(c)], c.1, c.0))?;
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
        && !v.room.orders.iter().any(|o| o.id == id)
    {
        claims.release(Claim::Order(id), seat);
        job.order = v
            .room
            .orders
            .iter()
            .find(|o| o.recipe as usize == job.recipe && claims.open_to(Claim::Order(o.id), seat))
            .map(|o| o.id);
        if let Some(id) = job.order {
            claims.claim(Claim::Order(id), seat);
        }
    }
    // A ticket-less job that has not started is dropped; one with work in it is finished.
    if let Some(job) = &bot.job
        && job.order.is_none()
        && job.plate.is_none()
        && v.held.is_none()
        && claims.stations_of(seat).iter().all(|&s| v.room.items_on(s).next().is_none())
    {
        bot.job = None;
        claims.release_all(seat);
    }
    if bot.job.is_none() {
        bot.job = choose_order(v, claims);
    }
}

/// Is this seat's cook past the kitchen's cook count (its spawns), in seat order? Such a bot
/// takes no tickets: it does chores and keeps out of the way (three or four cooks in a
/// kitchen drawn for two jammed its corridors; docs/BOTS.md).
fn is_helper(room: &Room, seat: Seat) -> bool {
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
    let open: Vec<_> = room
        .orders
        .iter()
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
            in_hand.is_none_or(|p| is_submultiset(p, parts)) && startable(v, claims, &left)
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
/// counters a plate was lifted from): a teammate may need them.
fn release_idle_claims(v: &View, claims: &mut ClaimTable) {
    for s in claims.stations_of(v.seat) {
        let st = &v.room.stations[s];
        let empty = v.room.items_on(s).next().is_none();
        let working = st.worker == Some(v.seat);
        if empty && !working {
            claims.release(Claim::Station(s), v.seat);
        }
    }
}

/// What the plate still lacks, and of that what nobody has started (not on one of our
/// fixtures, not in our hand).
fn needs_of(v: &View, claims: &ClaimTable, job: &Job) -> (Vec<Part>, Vec<Part>) {
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
    (needs, unstarted)
}

/// The part a held raw ingredient is for, among the unstarted ones.
fn part_for_raw(unstarted: &[Part], ing: Ingredient) -> Option<Part> {
    unstarted.iter().copied().find(|p| p.0 == ing && process_kind(*p).is_some())
}

/// A fixture to put a raw `ing` in for a part made by `kind`: one of ours with room first,
/// then a free clean one, then a free dirty one (wash it first). Returns (station, dirty).
fn station_for(
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

fn wash(s: usize, label: String) -> Option<Act> {
    act(s, Mode::Hold { until: Until::Clean, max: 60 }, label)
}

fn wash_plates(v: &View, claims: &mut ClaimTable) -> Option<Act> {
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

fn trash_held(v: &View, what: &str) -> Option<Act> {
    let t = v.trash()?;
    act(t, Mode::Hold { until: Until::HandEmpty, max: 14 }, format!("trash {what} at #{t}"))
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

/// The next action for a bot making a dish.
fn plan_job(bot: &mut Bot, v: &View, claims: &mut ClaimTable, job: &Job) -> Option<Act> {
    let room = v.room;
    let recipe = &room.book.recipes[job.recipe];
    let (needs, unstarted) = needs_of(v, claims, job);
    let tag = format!("{} (order {})", recipe.id, job.order.map_or("-".into(), |o| o.to_string()));
    let plate = job.plate.and_then(|p| room.item(p));
    let parked = plate.and_then(|p| match p.place {
        Place::Station(s) => Some(s as usize),
        Place::Hand(_) => None,
    });

    match v.held {
        // ---- A: the plate in hand collects, then serves.
        Some(item) if Some(item.id) == job.plate => {
            if needs.is_empty() {
                let parts = plate_parts(item).unwrap_or(&[]);
                let dish = recipe_of(&room.book, parts);
                let ticket = room.orders.iter().any(|o| Some(o.recipe as usize) == dish);
                if !ticket {
                    return None; // a finished dish waits (in hand) for its ticket
                }
                let serve = v.nearest(|s| v.kind(s) == StationKind::Serve)?;
                return press(serve, format!("serve {tag} at #{serve}"));
            }
            // Something ready to take right now?
            for &part in &needs {
                match process_kind(part) {
                    None => {
                        if let Some(shelf) = v.shelf(part.0) {
                            return press(
                                shelf,
                                format!("plate {} from shelf #{shelf} for {tag}", part.0.name()),
                            );
                        }
                    }
                    Some(kind) => {
                        let ready = v.nearest(|s| {
                            v.kind(s) == kind
                                && claims.mine(Claim::Station(s), v.seat)
                                && v.state(s) == StationState::Ready
                                && {
                                    let foods = v.foods_on(s);
                                    !foods.is_empty() && is_submultiset(&sorted(foods), &needs)
                                }
                        });
                        if let Some(s) = ready {
                            return press(
                                s,
                                format!("plate {} from #{s} for {tag}", part.0.name()),
                            );
                        }
                    }
                }
            }
            // Hands needed elsewhere? Park the plate. Otherwise wait at the stove due first.
            let hand_work = unstarted.iter().any(|p| process_kind(*p).is_some())
                || my_raw_board(v, claims).is_some();
            if !hand_work {
                let due = claims
                    .stations_of(v.seat)
                    .into_iter()
                    .filter(|&s| is_heat(v.kind(s)) && v.state(s) == StationState::Working)
                    .min_by_key(|&s| {
                        (work_ticks(room, s).saturating_sub(room.stations[s].progress), s)
                    });
                if let Some(s) = due {
                    return act(
                        s,
                        Mode::AwaitThenPress { until: Until::Ready, max: 600 },
                        format!("wait at #{s} to plate for {tag}"),
                    );
                }
            }
            let anchor = anchor_of(v, claims, &unstarted);
            let spot = v
                .room
                .stations
                .iter()
                .enumerate()
                .filter(|(s, st)| {
                    matches!(st.kind, StationKind::Counter | StationKind::Prep)
                        && room.items_on(*s).next().is_none()
                        && claims.owner(Claim::Station(*s)).is_none()
                        && v.cost(*s) != FAR
                })
                .map(|(s, _)| s)
                .min_by_key(|&s| {
                    let extra = anchor.map_or(0, |a| v.dist.between(&room.level, s, a));
                    (v.cost(s).saturating_add(extra), s)
                })?;
            claims.claim(Claim::Station(spot), v.seat);
            press(spot, format!("park plate on #{spot} for {tag}"))
        }
        // ---- B: an ingredient in hand goes into its fixture, or onto the parked plate.
        Some(item) => {
            let ItemKind::Food(ing, form) = item.kind else {
                // Someone else's plate in our hand: put it down somewhere free.
                return trash_held(v, "a stray plate");
            };
            if form == Form::Raw
                && let Some(part) = part_for_raw(&unstarted, ing)
                && let Some(kind) = process_kind(part)
                && let Some((s, false)) = station_for(v, claims, ing, kind)
            {
                claims.claim(Claim::Station(s), v.seat);
                return press(s, format!("put {} in {} #{s} for {tag}", ing.name(), kind.label()));
            }
            if unstarted.contains(&(ing, form))
                && let Some(spot) = parked
            {
                return press(spot, format!("add {} to plate on #{spot} for {tag}", ing.name()));
            }
            trash_held(v, ing.name())
        }
        // ---- C: a free hand.
        None => {
            // Burnt leftovers on a fixture of ours: wash them out.
            if let Some(s) =
                claims.stations_of(v.seat).into_iter().find(|&s| v.state(s) == StationState::Dirty)
            {
                return wash(s, format!("wash burnt #{s}"));
            }
            // Start the slow heat first: it cooks while we do the rest.
            for &part in &unstarted {
                let Some(kind) = process_kind(part).filter(|k| is_heat(*k)) else { continue };
                if let Some((s, dirty)) = station_for(v, claims, part.0, kind) {
                    claims.claim(Claim::Station(s), v.seat);
                    if dirty {
                        return wash(s, format!("wash {} #{s} for {tag}", kind.label()));
                    }
                    let shelf = v.shelf(part.0)?;
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
            let Some(plate) = plate else {
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
            let spot = spot as usize;
            // Finished hand work to carry over to the plate.
            for &part in &needs {
                let Some(kind) =
                    process_kind(part).filter(|k| *k != StationKind::Stove(Vessel::Pot))
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
            for &part in &unstarted {
                match process_kind(part) {
                    Some(kind) if !is_heat(kind) => {
                        if let Some((s, _)) = station_for(v, claims, part.0, kind) {
                            claims.claim(Claim::Station(s), v.seat);
                            let shelf = v.shelf(part.0)?;
                            return press(
                                shelf,
                                format!("fetch {} for #{s} ({tag})", part.0.name()),
                            );
                        }
                    }
                    None => {
                        let shelf = v.shelf(part.0)?;
                        return press(
                            shelf,
                            format!("fetch {} for the plate ({tag})", part.0.name()),
                        );
                    }
                    Some(_) => {}
                }
            }
            // Only pot work (poured by the plate) or nothing left: lift the plate.
            let pot_left =
                needs.iter().any(|p| process_kind(*p) == Some(StationKind::Stove(Vessel::Pot)));
            let cooking = claims.stations_of(v.seat).into_iter().any(|s| {
                is_heat(v.kind(s))
                    && matches!(v.state(s), StationState::Working | StationState::Ready)
            });
            if needs.is_empty() || (pot_left && cooking && unstarted.is_empty()) {
                return press(spot, format!("lift plate from #{spot} for {tag}"));
            }
            None
        }
    }
}

fn sorted(mut v: Vec<Part>) -> Vec<Part> {
    v.sort();
    v
}

/// One of our boards holding an unchopped raw ingredient (the chop still to do).
fn my_raw_board(v: &View, claims: &ClaimTable) -> Option<usize> {
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

/// Used by tests and the trace: where a bot would stand to work a fixture.
pub fn spot_for(
    room: &Room,
    seat: Seat,
    station: usize,
) -> Option<((i32, i32), crate::sim::kinds::Dir4)> {
    stand_spot(room, seat, station)
}
