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
use super::course::{Course, cell_centre, step_angle};
use super::geom::{Pt, dist2};
use super::room::TandemRoom;
use super::route::Step;
use super::trig::{ONE, TURN, angle_delta, brads_of_vector, cos_q12, isqrt, rotate, sin_q12};

/// Waypoints this far before and after a doorway's plane, µm: far enough that the whole
/// assembly (1.70 m from centre to a cog's back) is clear of the door before it turns.
pub const DOOR_LEAD: i32 = 2_000_000;
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

/// The porter's path over a course.
pub fn plan(course: &Course) -> Vec<Waypoint> {
    let mut path = Vec::new();
    for (i, d) in course.doorways.iter().enumerate() {
        let h = step_angle(d.step);
        // A turn cell: pass its centre first, heading for the next door.
        if i > 0 && course.doorways[i - 1].step != d.step {
            let c = cell_centre(d.from);
            path.push(Waypoint { at: c, heading: h, door: false });
        }
        path.push(Waypoint { at: along(d.centre, d.step, -DOOR_LEAD), heading: h, door: false });
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
    pub fn new(seat: Seat, course: &Course) -> Self {
        Porter {
            seat,
            path: plan(course),
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
        let m = room.motion;
        let c = Pt::new(m.x, m.y);
        // Advance past reached waypoints (and ones already behind on the way to the next).
        while self.next + 1 < self.path.len() {
            let (w, n) = (self.path[self.next].at, self.path[self.next + 1].at);
            let behind = (c.x - w.x) as i64 * (n.x - w.x) as i64
                + (c.y - w.y) as i64 * (n.y - w.y) as i64
                > 0;
            let near = dist2(c, w) < REACH * REACH;
            if near || (behind && dist2(c, w) < 4 * REACH * REACH) {
                self.next += 1;
                self.advanced_at = room.tick;
            } else {
                break;
            }
        }
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

/// Two porters playing a whole run; returns the room at its end.
pub fn play_pair(mut room: TandemRoom) -> TandemRoom {
    let mut bots = [Porter::new(Seat::Fore, &room.course), Porter::new(Seat::Aft, &room.course)];
    while room.outcome().is_none() {
        let orders = [bots[0].order(&room), bots[1].order(&room)];
        if room.step(orders).is_err() {
            break;
        }
    }
    room
}
