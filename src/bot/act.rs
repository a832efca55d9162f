//! One bot action at a fixture — walk to a cell beside it, face it, then press, hold or wait —
//! turned into one input frame per tick, with the outcome read back from the room's events.

use super::errand::Intent;
use super::nav::{FAR, distances, path_avoiding, steer, walkable};
use crate::sim::cook::Cook;
use crate::sim::events::{DeniedReason, DeniedWhy, SimEvent};
use crate::sim::flight::Flight;
use crate::sim::flights::{FlightEnd, predict};
use crate::sim::ids::Seat;
use crate::sim::item::ItemKind;
use crate::sim::kinds::{Dir4, Tile};
use crate::sim::room::Room;
use crate::sim::station::StationState;
use crate::sim::units::{Cell, RADIUS, TILE};
use crate::sim::v2::V2;

/// When a held (or awaited) action is finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Until {
    /// The fixture's state is `Ready` (a chop done, a stove done).
    Ready,
    /// The fixture is no longer `Dirty` (an in-place wash done).
    Clean,
    /// The sink's dirty stack is empty, or there are this many clean plates.
    Plates(u32),
    /// The hand is empty (the trash fired).
    HandEmpty,
    /// The fixture is no longer on fire (the extinguisher's spray finished).
    Unblocked,
}

impl Until {
    pub fn met(self, room: &Room, seat: Seat, station: usize) -> bool {
        let st = &room.stations[station];
        match self {
            Until::Ready => st.state == StationState::Ready,
            Until::Clean => st.state != StationState::Dirty,
            Until::Plates(n) => room.plates_dirty == 0 || room.plates_clean >= n,
            Until::HandEmpty => room.cook_index(seat).is_none_or(|c| room.cooks[c].held.is_none()),
            Until::Unblocked => st.state != StationState::Blocked,
        }
    }
}

/// What to do once in front of the fixture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// One press (and its release).
    Press,
    /// Press and keep the button down until the condition holds (or `max` ticks).
    Hold { until: Until, max: u32 },
    /// Stand facing the fixture until the condition holds (or `max` ticks), then press once.
    AwaitThenPress { until: Until, max: u32 },
    /// Walk to this cell and stop (stepping out of a teammate's way); `station` is unused.
    GoTo(Cell),
    /// Walk to `from`, face `dir` and press the second button: the held food flies onto the
    /// fixture (`bot::throwing` chose the cell; the press waits until the sim's own flight
    /// from where the cook stands comes down there).
    Throw { from: Cell, dir: Dir4 },
    /// Walk to `from`, face `dir` and wait (up to `max` ticks) until the held food, thrown,
    /// would end in teammate `to`'s hand (the sim's own flight, run ahead); then throw it.
    Pass { from: Cell, dir: Dir4, to: Seat, max: u32 },
    /// Walk to `at`, face `dir` and stand (up to `max` ticks) until something is in hand (a
    /// teammate's pass was caught).
    Catch { at: Cell, dir: Dir4, max: u32 },
}

/// A whole action: a fixture, what to do there, and a label for the trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Act {
    pub station: usize,
    pub mode: Mode,
    pub label: String,
}

/// How an action ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Done,
    /// The press was refused, with the sim's reason.
    Denied(DeniedReason, Option<DeniedWhy>),
    /// The walk made no headway, or the wait ran out: re-plan.
    Stuck,
}

/// Ticks without headway before a walk gives up and the planner re-plans.
pub const STUCK_TICKS: u32 = 40;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Approach,
    /// The press went out on the previous tick; `n` ticks of the action so far.
    Acting(u32),
    Waiting(u32),
}

/// An action in progress.
#[derive(Clone, Debug)]
pub struct Exec {
    pub act: Act,
    phase: Phase,
    stand: Option<(Cell, Dir4)>,
    /// Ticks without getting closer.
    stalled: u32,
    best: (u32, i64),
    /// Ticks from emitting a frame to seeing its outcome in the room read by [`Exec::step`]:
    /// 1 when the bot plans from the room it feeds (the sim-side bots); more for a remote bot,
    /// whose view trails the tick its frames are stamped for (`bot::remote`, named, not
    /// linked: remote drives the planner, which steps this).
    latency: u32,
    /// Whether the walk may dash on a long straight run (`BotTeam::dash`).
    dash: bool,
    /// Cells of cooks this walk has routed around, kept while a cook still stands there.
    avoided: Vec<Cell>,
}

impl Exec {
    /// One more tick of waiting on the stand, still, or `Stuck` once `max` ticks have gone.
    fn wait_longer(&mut self, n: u32, max: u32, hold_still: Intent) -> Result<Intent, Outcome> {
        if n >= max {
            return Err(Outcome::Stuck);
        }
        self.phase = Phase::Waiting(n + 1);
        Ok(hold_still)
    }

    pub fn new(act: Act) -> Exec {
        Exec::with_latency(act, 1)
    }

    /// An action whose press outcome shows `latency` (≥ 1) reads after the press frame.
    pub fn with_latency(act: Act, latency: u32) -> Exec {
        Exec {
            act,
            phase: Phase::Approach,
            stand: None,
            stalled: 0,
            best: (FAR, i64::MAX),
            latency: latency.max(1),
            dash: true,
            avoided: Vec::new(),
        }
    }

    /// The same action, walked without dashing when `dash` is false (a walking-only team, to
    /// measure what the dash buys).
    pub fn dashing(mut self, dash: bool) -> Exec {
        self.dash = dash;
        self
    }

    /// This tick's intent, or the outcome once the action is over. `pressed_last` says whether
    /// the bot's previous frame had the button down (a new press needs a release first).
    pub fn step(&mut self, room: &Room, seat: Seat, pressed_last: bool) -> Result<Intent, Outcome> {
        let Some(ci) = room.cook_index(seat) else { return Err(Outcome::Stuck) };
        let cook = &room.cooks[ci];
        let station = self.act.station;
        if let Mode::GoTo(cell) = self.act.mode {
            if cook.pos.cell() == cell {
                return Err(Outcome::Done);
            }
            self.stand = Some((cell, cook.facing));
        } else if let Mode::Throw { from, dir } | Mode::Pass { from, dir, .. } = self.act.mode {
            self.stand = Some((from, dir));
        } else if let Mode::Catch { at, dir, .. } = self.act.mode {
            self.stand = Some((at, dir));
        } else if self.stand.is_none() {
            self.stand = stand_spot(room, seat, station);
        }
        let Some((stand, dir)) = self.stand else { return Err(Outcome::Stuck) };
        let hold_still =
            Intent { mv: settle(cook, stand), action: false, face: Some(dir), dash: false };
        match self.phase {
            Phase::Acting(n) => {
                if n == self.latency
                    && let Some((reason, why)) = denial(room, seat)
                {
                    return Err(Outcome::Denied(reason, why));
                }
                match self.act.mode {
                    Mode::Hold { until, max } => {
                        if until.met(room, seat, station) || n >= max {
                            Err(Outcome::Done)
                        } else {
                            self.phase = Phase::Acting(n + 1);
                            Ok(Intent { action: true, ..hold_still })
                        }
                    }
                    // The press is not in the room read yet: release and keep still until it is.
                    _ if n < self.latency => {
                        self.phase = Phase::Acting(n + 1);
                        Ok(hold_still)
                    }
                    _ => Err(Outcome::Done),
                }
            }
            Phase::Waiting(n) => match self.act.mode {
                Mode::AwaitThenPress { until, max } => {
                    // A dish that burnt (or vanished) while we waited: re-plan.
                    let gone = room.stations[station].state == StationState::Dirty
                        || room.items_on(station).next().is_none();
                    if gone {
                        return Err(Outcome::Stuck);
                    }
                    if until.met(room, seat, station) && !pressed_last {
                        self.phase = Phase::Acting(1);
                        Ok(Intent { action: true, ..hold_still })
                    } else {
                        self.wait_longer(n, max, hold_still)
                    }
                }
                // The thrower waits on its cell until the flight would end in the catcher's
                // hand (it walks there, turns to face us, has a free hand).
                Mode::Pass { to, max, .. } => {
                    if cook.held.is_none() {
                        Err(Outcome::Stuck)
                    } else if throw_ends(room, cook) == Some(FlightEnd::Caught(to)) {
                        self.phase = Phase::Acting(1);
                        Ok(Intent { dash: true, ..hold_still })
                    } else {
                        self.wait_longer(n, max, hold_still)
                    }
                }
                Mode::Catch { max, .. } => {
                    if cook.held.is_some() {
                        Err(Outcome::Done)
                    } else {
                        self.wait_longer(n, max, hold_still)
                    }
                }
                _ => Err(Outcome::Stuck),
            },
            Phase::Approach => {
                if cook.pos.cell() == stand && cook.facing == dir {
                    if pressed_last {
                        return Ok(hold_still);
                    }
                    match self.act.mode {
                        Mode::AwaitThenPress { .. } | Mode::Pass { .. } | Mode::Catch { .. } => {
                            self.phase = Phase::Waiting(0);
                            return self.step(room, seat, pressed_last);
                        }
                        Mode::Throw { .. } => {
                            // Only a certain landing: the kitchen may have changed since the
                            // plan (a teammate stepped into the line facing us, the fixture
                            // filled).
                            if throw_ends(room, cook) != Some(FlightEnd::Station(station)) {
                                return Err(Outcome::Stuck);
                            }
                            self.phase = Phase::Acting(1);
                            return Ok(Intent { dash: true, ..hold_still });
                        }
                        _ => {}
                    }
                    self.phase = Phase::Acting(1);
                    return Ok(Intent { action: true, ..hold_still });
                }
                self.walk(room, cook, stand, dir)
            }
        }
    }

    fn walk(
        &mut self,
        room: &Room,
        cook: &Cook,
        stand: Cell,
        dir: Dir4,
    ) -> Result<Intent, Outcome> {
        let here = cook.pos.cell();
        // Only cooks close by are obstacles: a far one will have moved by the time we get
        // there, and routing around it makes the route flip back and forth as it walks. A cook
        // once routed around stays an obstacle while it stands on that cell within three cells
        // of us: the step around it takes us three cells from it, where the plain route runs
        // back through it, and the walk flipped between those two cells until it gave up
        // (catch_yard: a teammate resting below the pot's one working cell, the onion burnt).
        let mates: Vec<Cell> =
            room.cooks.iter().filter(|c| c.seat != cook.seat).map(|c| c.pos.cell()).collect();
        let within = |c: &Cell, n: i32| (c.0 - here.0).abs() + (c.1 - here.1).abs() <= n;
        self.avoided.retain(|c| mates.contains(c) && within(c, 3));
        for &c in &mates {
            if within(&c, 2) && !self.avoided.contains(&c) {
                self.avoided.push(c);
            }
        }
        let others = self.avoided.clone();
        let flip = room.team_of_seat(cook.seat) == Some(crate::sim::versus::Team::B);
        let route =
            path_avoiding(&room.level, here, stand, &others, flip).unwrap_or_else(|| vec![stand]);
        // Headway: fewer cells to go, or nearer the next cell's centre.
        let next = route.get(1).copied().unwrap_or(stand);
        let c = V2::centre_of(next);
        let off = (c.x - cook.pos.x).abs() as i64 + (c.y - cook.pos.y).abs() as i64;
        let left = route.len() as u32;
        if (left, off) < self.best && (left < self.best.0 || off + 20_000 < self.best.1) {
            self.best = (left, off);
            self.stalled = 0;
        } else {
            self.stalled += 1;
            if self.stalled >= STUCK_TICKS {
                return Err(Outcome::Stuck);
            }
        }
        // The next cell is another cook's: wait for it to clear rather than shove into it.
        if route.len() > 1 && others.contains(&next) && self.stalled < STUCK_TICKS / 2 {
            return Ok(Intent { mv: settle(cook, here), ..Intent::default() });
        }
        let face = (here == stand).then_some(dir);
        let dash = self.dash && should_dash(room, cook, &route);
        Ok(Intent { mv: steer(cook, &route), action: false, face, dash })
    }
}

/// Straight route cells a bot wants ahead before it dashes: the burst covers 2.275 tiles and
/// the cook walks out of it, so five leave room to brake without overshooting a turn.
const DASH_RUN_CELLS: usize = 5;

/// Route cells ahead a teammate blocks a dash in. Further down a long aisle (dash_diner's, back
/// from the window) a teammate walking out on the same route is no obstacle: checking the whole
/// route there kept the bots from dashing at all (docs/BOTS.md, "Dashing").
const DASH_CLEAR_CELLS: usize = 12;

/// Dash on a long straight run: an empty hand (a carried raw ingredient would be thrown, and
/// anything else refuses the button), the dash ready, already moving along the run and facing
/// it, centred in the corridor, and no other cook on the route's next cells.
fn should_dash(room: &Room, cook: &Cook, route: &[Cell]) -> bool {
    if cook.held.is_some() || cook.stun > 0 || cook.dash_cooldown > 0 || cook.dash > 0 {
        return false;
    }
    if route.len() < 2 {
        return false;
    }
    let here = cook.pos.cell();
    if route[0] != here {
        return false;
    }
    let step = (route[1].0 - here.0, route[1].1 - here.1);
    let run = route.windows(2).take_while(|w| (w[1].0 - w[0].0, w[1].1 - w[0].1) == step).count();
    if run < DASH_RUN_CELLS || cook.facing.delta() != step {
        return false;
    }
    let centre = V2::centre_of(here);
    let (off, speed) = if step.0 != 0 {
        (centre.y - cook.pos.y, cook.vel.x * step.0)
    } else {
        (centre.x - cook.pos.x, cook.vel.y * step.1)
    };
    // Nobody on the near part of the route, nor beside its straight run: a dash must not meet
    // a teammate head-on in a corridor (dish_pit's way to the sink). A teammate further down
    // the route will have moved on by the time we get there.
    let near = |a: Cell, b: Cell| (a.0 - b.0).abs() + (a.1 - b.1).abs() <= 1;
    let on_route = &route[..route.len().min(DASH_CLEAR_CELLS + 1)];
    let beside = &route[..=run.min(DASH_CLEAR_CELLS)];
    let clear = room.cooks.iter().filter(|c| c.seat != cook.seat).all(|c| {
        let at = c.pos.cell();
        !on_route.contains(&at) && !beside.iter().any(|&r| near(r, at))
    });
    off.abs() <= (TILE / 2 - RADIUS) / 4 && speed > 0 && clear
}

/// How the food `cook` holds would end, thrown from where it stands along its facing (the
/// sim's own flight, run ahead on the room as it is); None when it holds no food.
fn throw_ends(room: &Room, cook: &Cook) -> Option<FlightEnd> {
    let Some(ItemKind::Food(g, f)) = cook.held.and_then(|id| room.item(id)).map(|i| &i.kind) else {
        return None;
    };
    let flight = Flight::thrown(&room.level, cook.seat, cook.pos, cook.facing);
    Some(predict(room, (*g, *f), flight))
}

/// The stick that keeps a cook on its cell's centre (easing, never overshooting).
fn settle(cook: &Cook, cell: Cell) -> (i16, i16) {
    steer(cook, &[cell])
}

/// The refusal this seat got on the previous tick, if any.
fn denial(room: &Room, seat: Seat) -> Option<(DeniedReason, Option<DeniedWhy>)> {
    room.events.iter().find_map(|e| match e {
        SimEvent::Denied { seat: s, reason, why } if *s == seat => Some((*reason, *why)),
        _ => None,
    })
}

/// The cell to stand on to work a fixture, and the facing: the nearest walkable neighbour,
/// plain floor before the walk-on fixtures, a free cell before one another cook stands on.
pub fn stand_spot(room: &Room, seat: Seat, station: usize) -> Option<(Cell, Dir4)> {
    let cook = &room.cooks[room.cook_index(seat)?];
    let dist = distances(&room.level, &[cook.pos.cell()], &|_| false);
    let w = room.level.width as usize;
    let cell = room.stations[station].cell;
    // Team B of a versus kitchen reads its side as A's mirror image: right before left, so its
    // equal spots break as A's do (`view::own_x`); in co-op the order is as ever.
    let mirrored = room.team_of_seat(seat) == Some(crate::sim::versus::Team::B);
    let (near, far) = if mirrored { (Dir4::Right, Dir4::Left) } else { (Dir4::Left, Dir4::Right) };
    [Dir4::Up, Dir4::Down, near, far]
        .into_iter()
        .filter_map(|d| {
            let (dx, dy) = d.delta();
            // Stand on the far side of the fixture from where we look: face the opposite way.
            let spot = (cell.0 - dx, cell.1 - dy);
            if !walkable(&room.level, spot) {
                return None;
            }
            let d0 = dist[spot.1 as usize * w + spot.0 as usize];
            if d0 == FAR {
                return None;
            }
            let floor = room.tile(spot) == Tile::Floor;
            let taken = room.cooks.iter().any(|c| c.seat != seat && c.pos.cell() == spot);
            let cost = d0 + if floor { 0 } else { 20 } + if taken { 8 } else { 0 };
            Some((cost, spot, d))
        })
        .min_by_key(|(cost, _, _)| *cost)
        .map(|(_, spot, d)| (spot, d))
}
