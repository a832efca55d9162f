//! The porter: the bot that drives a seat nobody took (the seed's no-show rule), and a bot pair
//! for `bot prove --mode tandem`. It reads only what a seat may see (the course and the couch's
//! pose and motion, both public) and answers that seat's order; two porters agree without
//! talking because they plan from the same view the same way.
//!
//! The plan: a path of waypoints (the start cell's centre, then before, in and after every
//! doorway, lined up with its normal, then the goal pad's centre), each with the heading the
//! couch should have there. Each tick it wants the centre to move toward the current waypoint
//! and the body to turn toward its heading, slower when the heading is off or a door is near;
//! its own handle's share of that motion is its stick. When progress stalls it backs off.

use super::body::{DISCS, cog_disc};
use super::control::{CARRY_TOP, Seat, SeatOrder};
use super::course::{Course, Doorway, cell_centre, cell_rect, step_angle};
use super::geom::{Pt, Rect, dist2};
use super::room::{TandemRoom, TurnTicks};
use super::route::Step;
use super::trig::{ONE, TURN, angle_delta, brads_of_vector, cos_q12, isqrt, rotate, sin_q12};
use super::view::TandemView;

/// Waypoints this far before and after a doorway's plane, µm: far enough that the whole
/// assembly (1.70 m from centre to a cog's back) is clear of the door before it turns.
pub const DOOR_LEAD: i32 = 2_000_000;
/// A turn cell's pivot moves this far from its centre on each axis away from a pillar in it
/// (the turning assembly reaches 1.70 m from its centre; a pillar's corner is 1.41 m from
/// the cell's), µm.
pub const PIVOT_SHIFT: i32 = 450_000;
/// The assembly's back behind its centre (a cog's offset and radius, and 0.10 m to spare) and
/// its half width with a margin, µm; a lead before a door is at least `MIN_LEAD`.
pub const TAIL: i32 = 1_800_000;
pub const SIDE: i32 = 550_000;
pub const MIN_LEAD: i32 = 1_200_000;
/// Within this of a doorway's centre the porter slows to `DOOR_SPEED`, µm.
pub const DOOR_NEAR: i64 = 1_300_000;
/// A waypoint is reached this close, µm.
pub const REACH: i64 = 350_000;
/// Speeds asked for, µm/tick: in the open, lined up on a door, and reversing.
pub const CRUISE: i64 = 72_000;
pub const DOOR_SPEED: i64 = 30_000;
pub const BACK_SPEED: i64 = 20_000;
/// Ticks without reaching a waypoint before backing off, and how long a back-off lasts.
pub const STALL_TICKS: u32 = 96;
/// The porter keeps its stick until the one it wants differs by more than this (permille,
/// either axis): steadier hands, and a replay script of a few hundred records, not thousands.
pub const STEADY: i32 = 60;
pub const BACK_TICKS: u32 = 24;
/// Decision turns (`turn_order`): speeds asked for in the open and with a door in the
/// stretch, µm/tick; within this of a door's centre is "a door in the stretch", µm.
pub const TURN_CRUISE: i64 = 60_000;
pub const TURN_DOOR_SPEED: i64 = 40_000;
pub const TURN_DOOR_NEAR: i64 = 2_500_000;
/// The most the couch is turned in one decision turn (60°), and the heading error within
/// which it counts as lined up (10°).
pub const TURN_STEP: i32 = TURN / 6;
pub const ALIGNED: i32 = TURN / 36;
/// While turning in place the centre still creeps this far toward the waypoint, µm.
pub const CREEP: i64 = 300_000;
/// Ticks the tracking takes to settle at the start of a turn (not counted as travel).
pub const TURN_LAG: u32 = 3;
/// At decision turns a waypoint the centre is past (toward the next one) counts as reached
/// within this, µm.
pub const TURN_PASSED: i64 = 1_500_000;
/// Turns without reaching a waypoint before a backing-off turn, and how far it backs, µm.
pub const STALL_TURNS: u32 = 4;
pub const BACK_OFF: i64 = 500_000;

/// One waypoint: where the centre should pass, the heading there, whether it is door work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Waypoint {
    pub at: Pt,
    pub heading: i32,
    pub door: bool,
}

/// A point `d` µm along a step's direction from `p`.
fn along(p: Pt, s: Step, d: i32) -> Pt {
    match s {
        Step::East => Pt::new(p.x + d, p.y),
        Step::North => Pt::new(p.x, p.y - d),
        Step::South => Pt::new(p.x, p.y + d),
    }
}

/// How far before doorway `d` the centre may line up with it so that the assembly (its
/// back reaches `TAIL` behind the centre, `SIDE` to each side) stays clear of pillar `p`.
fn lead_clear_of(d: &Doorway, p: &Rect) -> i32 {
    let (behind, lateral, lo, hi) = match d.step {
        Step::East => (d.centre.x - p.x1, d.centre.y, p.y0, p.y1),
        Step::North => (p.y0 - d.centre.y, d.centre.x, p.x0, p.x1),
        Step::South => (d.centre.y - p.y1, d.centre.x, p.x0, p.x1),
    };
    if behind <= 0 || lateral <= lo - SIDE || lateral >= hi + SIDE {
        return DOOR_LEAD;
    }
    (behind - TAIL).clamp(MIN_LEAD, DOOR_LEAD)
}

/// The porter's path over a course, for turns of `turn`.
pub fn plan(course: &Course, turn: TurnTicks) -> Vec<Waypoint> {
    let mut path = Vec::new();
    for (i, d) in course.doorways.iter().enumerate() {
        let h = step_angle(d.step);
        // A turn cell: pass its centre first, heading for the next door. On live turns the
        // centre is shifted away from a pillar in the cell (so the turning assembly sweeps
        // clear of it) and the couch lines up for the door no further back than the pillar
        // allows (seed 8's wedge, docs/TANDEM.md). On decision turns the plain centre and
        // lead do better: the 2 s open-loop moves onto the shortened approach graze the pillar.
        let mut lead = DOOR_LEAD;
        if i > 0 && course.doorways[i - 1].step != d.step {
            let mut c = cell_centre(d.from);
            if turn == TurnTicks::Live {
                let cell = cell_rect(d.from);
                let inside =
                    |p: &&Rect| cell.contains(Pt::new((p.x0 + p.x1) / 2, (p.y0 + p.y1) / 2));
                for p in course.pillars.iter().filter(inside) {
                    c.x += if (p.x0 + p.x1) / 2 < c.x { PIVOT_SHIFT } else { -PIVOT_SHIFT };
                    c.y += if (p.y0 + p.y1) / 2 < c.y { PIVOT_SHIFT } else { -PIVOT_SHIFT };
                    lead = lead.min(lead_clear_of(d, p));
                }
            }
            path.push(Waypoint { at: c, heading: h, door: false });
        }
        path.push(Waypoint { at: along(d.centre, d.step, -lead), heading: h, door: false });
        path.push(Waypoint { at: d.centre, heading: h, door: true });
        path.push(Waypoint { at: along(d.centre, d.step, DOOR_LEAD), heading: h, door: false });
    }
    let g = &course.goal_pad;
    let last = course.doorways.last().map_or(0, |d| step_angle(d.step));
    path.push(Waypoint {
        at: Pt::new((g.x0 + g.x1) / 2, (g.y0 + g.y1) / 2),
        heading: last,
        door: false,
    });
    path
}

/// What a porter plans from: the tick, the turn and the couch's pose (world µm, Q20 turns).
/// A room gives it ([`Sight::of_room`]), and so does a replicated view exactly
/// ([`Sight::of_view`]), so a porter driving a remote seat plans as the server's would.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sight {
    pub tick: u32,
    pub turn_ticks: TurnTicks,
    pub x: i32,
    pub y: i32,
    pub angle: i32,
}

impl Sight {
    pub fn of_room(room: &TandemRoom) -> Sight {
        let m = &room.motion;
        Sight { tick: room.tick, turn_ticks: room.turn_ticks, x: m.x, y: m.y, angle: m.angle }
    }

    /// A run's replicated view, played at turns of `turn` (the round's info carries it).
    pub fn of_view(view: &TandemView, turn: TurnTicks) -> Sight {
        let p = view.pose;
        Sight { tick: view.tick, turn_ticks: turn, x: p.x_um, y: p.y_um, angle: p.angle_q20 }
    }
}

/// One seat's porter.
#[derive(Clone, Debug)]
pub struct Porter {
    pub seat: Seat,
    path: Vec<Waypoint>,
    next: usize,
    /// When `next` last advanced.
    advanced_at: u32,
    back_until: u32,
    held: SeatOrder,
}

impl Porter {
    /// A porter for `seat` on a course played at turns of `turn`.
    pub fn new(seat: Seat, course: &Course, turn: TurnTicks) -> Self {
        Porter {
            seat,
            path: plan(course, turn),
            next: 0,
            advanced_at: 0,
            back_until: 0,
            held: SeatOrder::HOLD,
        }
    }

    /// The waypoint it is heading for.
    pub fn target(&self) -> Option<&Waypoint> {
        self.path.get(self.next)
    }

    /// This seat's order for the room's next tick.
    pub fn order(&mut self, room: &TandemRoom) -> SeatOrder {
        self.order_at(Sight::of_room(room))
    }

    /// This seat's order for the tick after what it sees (a room, or a replicated view).
    pub fn order_at(&mut self, seen: Sight) -> SeatOrder {
        self.advance(seen);
        match seen.turn_ticks {
            TurnTicks::Live => self.live_order(seen),
            TurnTicks::Decision => self.turn_order(seen),
        }
    }

    /// Advance past reached waypoints (and ones already behind on the way to the next).
    /// A waypoint the centre has passed (toward the next one) counts within `2·REACH` at live
    /// turns, within `TURN_PASSED` at decision turns (a 2 s move overshoots further).
    fn advance(&mut self, room: Sight) {
        let c = Pt::new(room.x, room.y);
        let passed = match room.turn_ticks {
            TurnTicks::Live => 2 * REACH,
            TurnTicks::Decision => TURN_PASSED,
        };
        while self.next + 1 < self.path.len() {
            let (w, n) = (self.path[self.next].at, self.path[self.next + 1].at);
            let behind = (c.x - w.x) as i64 * (n.x - w.x) as i64
                + (c.y - w.y) as i64 * (n.y - w.y) as i64
                > 0;
            let near = dist2(c, w) < REACH * REACH;
            if near || (behind && dist2(c, w) < passed * passed) {
                self.next += 1;
                self.advanced_at = room.tick;
            } else {
                break;
            }
        }
    }

    /// Live turns: steer every tick toward the current waypoint.
    fn live_order(&mut self, room: Sight) -> SeatOrder {
        let m = room;
        let c = Pt::new(m.x, m.y);
        if room.tick >= self.advanced_at + STALL_TICKS && room.tick >= self.back_until {
            self.back_until = room.tick + BACK_TICKS;
            self.advanced_at = room.tick + BACK_TICKS;
        }
        let Some(wp) = self.path.get(self.next).copied() else {
            self.held = SeatOrder::HOLD;
            return self.held;
        };
        let err = angle_delta(m.angle, wp.heading);
        // The centre's wanted velocity (µm/tick, world).
        let (dx, dy) = ((wp.at.x - c.x) as i64, (wp.at.y - c.y) as i64);
        let dist = isqrt((dx * dx + dy * dy) as u64) as i64;
        let backing = room.tick < self.back_until;
        let want = if backing {
            // Back toward the previous waypoint (or straight back at the start).
            let back = match self.next.checked_sub(1).and_then(|i| self.path.get(i)) {
                Some(p) => brads_of_vector((p.at.x - c.x) as i64, (p.at.y - c.y) as i64),
                None => (m.angle + TURN / 2) & (TURN - 1),
            };
            (
                BACK_SPEED * cos_q12(back) as i64 / ONE as i64,
                BACK_SPEED * sin_q12(back) as i64 / ONE as i64,
            )
        } else {
            let near_door = self.path
                [self.next.saturating_sub(1)..(self.next + 2).min(self.path.len())]
                .iter()
                .any(|w| w.door && dist2(c, w.at) < DOOR_NEAR * DOOR_NEAR);
            let top = if near_door { DOOR_SPEED } else { CRUISE };
            // Slow when the heading is off (nothing at 40° or more) or the point is near.
            let off = (err.abs() as i64 * 1000 / (TURN as i64 / 9)).min(1000);
            let speed = (top * (1000 - off) / 1000).max(top / 6).min(dist / 6 + 4_000);
            if dist == 0 { (0, 0) } else { (dx * speed / dist, dy * speed / dist) }
        };
        // The wanted turn rate: err over ~0.75 s, capped; as the handle's sideways speed.
        let spin = if backing {
            0
        } else {
            (err as i64 / 18).clamp(-(TURN as i64) / 160, TURN as i64 / 160)
        };
        let d = &DISCS[cog_disc(self.seat.index())];
        let r = rotate((d.x, d.y), m.angle);
        // ω × r with ω in Q20 turns/tick: 2π·spin/2²⁰ rad/tick.
        let w = spin * 6_434;
        let hx = want.0 - r.1 as i64 * w / (1 << 30);
        let hy = want.1 + r.0 as i64 * w / (1 << 30);
        // The stick: the handle's wanted velocity over full stick, view frame (y up).
        let want =
            SeatOrder::new((hx * 1000 / CARRY_TOP) as i32, (-hy * 1000 / CARRY_TOP) as i32, 0);
        let moved = (want.push_x as i32 - self.held.push_x as i32).abs() > STEADY
            || (want.push_y as i32 - self.held.push_y as i32).abs() > STEADY
            || (want.push_x == 0 && want.push_y == 0);
        if moved {
            self.held = want;
        }
        self.held
    }
}

impl Porter {
    /// Decision turns: the order is installed for the whole turn (2 s), so on each boundary
    /// the porter plans the pose the couch should reach by the next one and asks its handle
    /// for the constant velocity that carries it there (the control law's tracking settles
    /// in a few ticks). The pose: along the path by a turn's worth of travel, stopping at a
    /// waypoint where the heading changes (the couch turns there, in place, at most
    /// `TURN_STEP` a turn), slower when a door is in the stretch.
    fn turn_order(&mut self, room: Sight) -> SeatOrder {
        let turn = room.turn_ticks.ticks();
        if !room.tick.is_multiple_of(turn) {
            return self.held;
        }
        let m = room;
        let c = Pt::new(m.x, m.y);
        let backing = room.tick >= self.advanced_at + STALL_TURNS * turn;
        if backing {
            self.advanced_at = room.tick;
        }
        let (goal, heading) = if backing {
            // Back off half a metre toward the previous waypoint, heading kept.
            let prev = self.path.get(self.next.saturating_sub(1)).map_or(c, |w| w.at);
            (toward(c, prev, BACK_OFF), m.angle)
        } else {
            self.carrot(c, m.angle, turn as i64)
        };
        let step = angle_delta(m.angle, heading).clamp(-TURN_STEP, TURN_STEP);
        let then = m.angle.wrapping_add(step);
        let d = &DISCS[cog_disc(self.seat.index())];
        let (now, later) = (rotate((d.x, d.y), m.angle), rotate((d.x, d.y), then));
        let ticks = (turn - TURN_LAG) as i64;
        let hx = ((goal.x + later.0) as i64 - (c.x + now.0) as i64) / ticks;
        let hy = ((goal.y + later.1) as i64 - (c.y + now.1) as i64) / ticks;
        self.held =
            SeatOrder::new((hx * 1000 / CARRY_TOP) as i32, (-hy * 1000 / CARRY_TOP) as i32, 0);
        self.held
    }

    /// Where the centre should be a turn from now, and the heading it should have.
    fn carrot(&self, c: Pt, angle: i32, turn: i64) -> (Pt, i32) {
        let Some(first) = self.path.get(self.next) else { return (c, angle) };
        // Not lined up with the next waypoint's heading: turn (almost) in place first.
        if angle_delta(angle, first.heading).abs() > ALIGNED {
            return (toward(c, first.at, CREEP), first.heading);
        }
        let near_door = |p: Pt| {
            self.path[self.next.saturating_sub(1)..]
                .iter()
                .take(4)
                .any(|w| w.door && dist2(p, w.at) < TURN_DOOR_NEAR * TURN_DOOR_NEAR)
        };
        let speed = if near_door(c) { TURN_DOOR_SPEED } else { TURN_CRUISE };
        let mut budget = speed * turn;
        let mut at = c;
        for w in &self.path[self.next..] {
            let d = isqrt(dist2(at, w.at) as u64) as i64;
            if d >= budget {
                return (toward(at, w.at, budget), w.heading);
            }
            budget -= d;
            at = w.at;
            if angle_delta(w.heading, first.heading) != 0 {
                // Arrived early at a turn: start turning there.
                return (at, w.heading);
            }
        }
        (at, first.heading)
    }
}

/// The point `d` µm from `a` toward `b` (or `b` when nearer).
fn toward(a: Pt, b: Pt, d: i64) -> Pt {
    let (dx, dy) = ((b.x - a.x) as i64, (b.y - a.y) as i64);
    let len = isqrt((dx * dx + dy * dy) as u64) as i64;
    if len <= d || len == 0 {
        return b;
    }
    Pt::new(a.x + (dx * d / len) as i32, a.y + (dy * d / len) as i32)
}

/// Two porters playing a whole run; returns the room at its end.
pub fn play_pair(mut room: TandemRoom) -> TandemRoom {
    let mut bots = Seat::BOTH.map(|s| Porter::new(s, &room.course, room.turn_ticks));
    while room.outcome().is_none() {
        let orders = [bots[0].order(&room), bots[1].order(&room)];
        if room.step(orders).is_err() {
            break;
        }
    }
    room
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_porter_plans_the_same_from_a_replicated_view_as_from_the_room() {
        let mut room = TandemRoom::new(2, TurnTicks::Live);
        let mut by_room = Seat::BOTH.map(|s| Porter::new(s, &room.course, room.turn_ticks));
        let mut by_view = by_room.clone();
        for _ in 0..600 {
            let seen = Sight::of_view(&room.view(), room.turn_ticks);
            assert_eq!(seen, Sight::of_room(&room));
            let orders = [by_room[0].order(&room), by_room[1].order(&room)];
            assert_eq!(orders, [by_view[0].order_at(seen), by_view[1].order_at(seen)]);
            if room.step(orders).is_err() {
                break;
            }
        }
        assert!(room.best_progress_permille > 100, "the pair carried it: {room:?}");
    }
}
