//! Seat orders and the control law: what a seat asks for (a push and a yield) and the force
//! its cog then puts into its handle. `seat_force` is a pure integer function of the body, the
//! seat's order and its felt strain, inside the determinism boundary (a viewer runs it too).

use super::body::{DISCS, cog_disc};
use super::trig::{isqrt, rotate};
use serde::{Deserialize, Serialize};

/// Full stick asks the handle for this speed, µm/tick (1.8 m/s).
pub const CARRY_TOP: i64 = 75_000;
/// A cog pushes at most this hard, mN (700 N).
pub const MAX_SEAT_FORCE: i64 = 700_000;
/// Feed-forward per µm/tick of wanted speed: half the body's drag at that speed, mN·1024
/// (drag removes v·171/4096 a substep; holding v takes F = v·171/4096 · M·96·24/10⁶ mN, half
/// of it per seat: ≈ 5.77 mN per µm/tick).
pub const FEED_FORWARD_Q10: i64 = 5_906;
/// Gain on the handle's speed error, mN per µm/tick.
pub const TRACK_GAIN: i64 = 16;
/// A yielding cog leans into a quarter of the strain it feels.
pub const LEAN_DIV: i64 = 4;

/// A seat: which handle its cog holds. Seat 0 is fore, seat 1 aft; the rules treat them alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Seat {
    Fore,
    Aft,
}

impl Seat {
    pub const BOTH: [Seat; 2] = [Seat::Fore, Seat::Aft];

    pub const fn index(self) -> usize {
        match self {
            Seat::Fore => 0,
            Seat::Aft => 1,
        }
    }
}

/// One seat's order, quantised: where to push (view frame: +x right, +y up; permille of a
/// full stick, length at most 1000) and how much to yield (permille: 0 holds its line, 1000
/// goes along with whatever moves the couch).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SeatOrder {
    pub push_x: i16,
    pub push_y: i16,
    pub yield_permille: u16,
}

impl SeatOrder {
    /// No push, no yield: the cog brakes the couch toward standing still.
    pub const HOLD: SeatOrder = SeatOrder { push_x: 0, push_y: 0, yield_permille: 0 };

    /// An order from any integers: the push scaled back onto the unit disc (direction kept),
    /// the yield clamped to 0..=1000. This is the quantisation every path goes through.
    pub fn new(push_x: i32, push_y: i32, yield_permille: i32) -> Self {
        let (x, y) = (push_x.clamp(-1000, 1000) as i64, push_y.clamp(-1000, 1000) as i64);
        let len = isqrt((x * x + y * y) as u64) as i64;
        let (x, y) = if len > 1000 { (x * 1000 / len, y * 1000 / len) } else { (x, y) };
        SeatOrder {
            push_x: x as i16,
            push_y: y as i16,
            yield_permille: yield_permille.clamp(0, 1000) as u16,
        }
    }

    /// A person's order: a stick (permille, view frame) and the hold button (full yield).
    pub fn from_stick(x_permille: i32, y_permille: i32, hold: bool) -> Self {
        SeatOrder::new(x_permille, y_permille, if hold { 1000 } else { 0 })
    }

    /// This order as it would be installed (already-quantised orders are unchanged).
    pub fn quantised(self) -> Self {
        SeatOrder::new(self.push_x as i32, self.push_y as i32, self.yield_permille as i32)
    }
}

/// What the control law reads of the body: pose and velocity.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Motion {
    /// Centre, µm (world: y down).
    pub x: i32,
    pub y: i32,
    /// Heading, Q20 turns (the fore handle's direction).
    pub angle: i32,
    /// Velocity, µm/tick.
    pub vx: i32,
    pub vy: i32,
    /// Spin, Q20 turns a tick (the seed's 4096-a-turn unit with 8 more bits).
    pub spin: i32,
}

/// 2π in Q10 (6.2832), for spin (turns) to radians.
pub const TWO_PI_Q10: i64 = 6_434;

/// The velocity of a point at body offset `r` (µm, world axes), µm/tick: v + ω × r.
pub fn point_velocity(m: &Motion, r: (i32, i32)) -> (i64, i64) {
    // ω in rad/tick = spin · 2π / 2²⁰; ω × r = ω · (−r_y, r_x).
    let w = m.spin as i64 * TWO_PI_Q10;
    (m.vx as i64 - r.1 as i64 * w / (1 << 30), m.vy as i64 + r.0 as i64 * w / (1 << 30))
}

/// Scales a vector back to length `max` if longer.
pub fn clamp_len(v: (i64, i64), max: i64) -> (i64, i64) {
    let len = isqrt((v.0 * v.0 + v.1 * v.1) as u64) as i64;
    if len > max { (v.0 * max / len, v.1 * max / len) } else { v }
}

/// The force (mN, world axes) seat `seat`'s cog puts into its handle this tick.
///
/// Holding its line (yield 0), a cog drives its handle toward the stick's velocity: a
/// feed-forward of its half of the drag plus a gain on the error. Yielding, it instead
/// carries its half of whatever the handle is already doing and leans into the strain it
/// feels, so the partner leads. Orders between blend the two; the result is capped at
/// `MAX_SEAT_FORCE`.
pub fn seat_force(m: &Motion, seat: usize, order: SeatOrder, strain: (i32, i32)) -> (i32, i32) {
    let d = &DISCS[cog_disc(seat)];
    let r = rotate((d.x, d.y), m.angle);
    let (hx, hy) = point_velocity(m, r);
    // View y is up, world y is down.
    let want = (order.push_x as i64 * CARRY_TOP / 1000, -(order.push_y as i64) * CARRY_TOP / 1000);
    let track = (
        want.0 * FEED_FORWARD_Q10 / 1024 + TRACK_GAIN * (want.0 - hx),
        want.1 * FEED_FORWARD_Q10 / 1024 + TRACK_GAIN * (want.1 - hy),
    );
    let follow = (
        hx * FEED_FORWARD_Q10 / 1024 + strain.0 as i64 / LEAN_DIV,
        hy * FEED_FORWARD_Q10 / 1024 + strain.1 as i64 / LEAN_DIV,
    );
    let y = order.yield_permille as i64;
    let f = (
        (track.0 * (1000 - y) + follow.0 * y) / 1000,
        (track.1 * (1000 - y) + follow.1 * y) / 1000,
    );
    let f = clamp_len(f, MAX_SEAT_FORCE);
    (f.0 as i32, f.1 as i32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_are_quantised_onto_the_unit_disc() {
        let o = SeatOrder::new(5000, 5000, 2000);
        assert_eq!((o.push_x, o.push_y, o.yield_permille), (707, 707, 1000));
        assert_eq!(
            SeatOrder::new(-300, 400, -5),
            SeatOrder { push_x: -300, push_y: 400, yield_permille: 0 }
        );
        assert_eq!(o.quantised(), o);
    }

    #[test]
    fn the_force_is_capped_and_points_where_the_stick_does() {
        let m = Motion::default();
        let f = seat_force(&m, 0, SeatOrder::new(1000, 0, 0), (0, 0));
        assert_eq!(f, (MAX_SEAT_FORCE as i32, 0));
        // View up is world −y.
        let f = seat_force(&m, 1, SeatOrder::new(0, 200, 0), (0, 0));
        assert!(f.1 < 0 && f.0 == 0, "{f:?}");
        // A full yield at rest with no strain does nothing.
        assert_eq!(seat_force(&m, 0, SeatOrder::new(1000, 0, 1000), (0, 0)), (0, 0));
    }
}
