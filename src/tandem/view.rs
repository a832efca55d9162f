//! What a client draws and a server replicates of a Tandem run: one serde snapshot a tick in
//! the seed's view coordinates (metres as mm, origin at the world centre, y up; degrees ccw
//! from +X), with each seat's felt strain as a meter. The course itself is `Course` (serde),
//! sent once.

use super::body::DISCS;
use super::control::SeatOrder;
use super::events::Phase;
use super::room::TandemRoom;
use super::score::Score;
use super::step::{GRIP_LIMIT, SLIP_DROP};
use super::trig::{TURN, length};
use serde::{Deserialize, Serialize};

/// The world centre, µm.
pub const CENTRE_X: i32 = 22_200_000;
pub const CENTRE_Y: i32 = 12_600_000;

/// A world point (µm, y down) in view millimetres (origin at the centre, y up).
pub fn view_mm(x: i32, y: i32) -> (i32, i32) {
    ((x - CENTRE_X) / 1000, (CENTRE_Y - y) / 1000)
}

/// A Q20 world angle (y down) as whole degrees counter-clockwise from +X in the view, 0..360.
pub fn view_degrees(angle: i32) -> i32 {
    let cw = ((angle & (TURN - 1)) as i64 * 360 + TURN as i64 / 2) / TURN as i64;
    ((360 - cw) % 360) as i32
}

/// One seat as drawn: its cog's place, what it asks for and what it feels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatView {
    pub cog_mm: (i32, i32),
    pub order: SeatOrder,
    /// |felt strain|, mN, and as a meter: permille of twice the grip limit (1000 = slipping
    /// fast), for a bar and a gamepad's rumble.
    pub strain_mn: i32,
    pub strain_meter: i32,
    /// Slip as permille of the drop.
    pub slip_permille: i32,
}

/// The couch's exact pose in the rules' own units (world µm, y down; Q20 turns): what a porter
/// driving a remote seat plans from (`porter::Sight::of_view`), where the drawing's rounded
/// millimetres and degrees would plan another run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorldPose {
    pub x_um: i32,
    pub y_um: i32,
    pub angle_q20: i32,
}

/// One tick of a run, as drawn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TandemView {
    pub tick: u32,
    pub phase: Phase,
    pub pose: WorldPose,
    pub centre_mm: (i32, i32),
    pub heading_deg: i32,
    /// The five hull discs' centres (the couch), view mm.
    pub hull_mm: Vec<(i32, i32)>,
    pub seats: [SeatView; 2],
    pub damage: i32,
    pub progress_permille: i32,
    pub doorways_passed: u32,
    pub doorways: u32,
    pub score: Score,
}

impl TandemRoom {
    /// The view of this run now.
    pub fn view(&self) -> TandemView {
        let m = &self.motion;
        let disc = |i: usize| {
            let (p, _) = super::body::disc_world(i, (m.x, m.y), m.angle);
            view_mm(p.0, p.1)
        };
        let seat = |s: usize| {
            let h = length(self.strain[s].0 as i64, self.strain[s].1 as i64);
            SeatView {
                cog_mm: disc(super::body::cog_disc(s)),
                order: self.active[s],
                strain_mn: h as i32,
                strain_meter: (h * 1000 / (2 * GRIP_LIMIT)).min(1000) as i32,
                slip_permille: (self.slip[s] * 1000 / SLIP_DROP).min(1000),
            }
        };
        TandemView {
            tick: self.tick,
            phase: self.phase,
            pose: WorldPose { x_um: m.x, y_um: m.y, angle_q20: m.angle },
            centre_mm: view_mm(m.x, m.y),
            heading_deg: view_degrees(m.angle),
            hull_mm: (0..super::body::HULL).map(disc).collect(),
            seats: [seat(0), seat(1)],
            damage: self.damage,
            progress_permille: self.best_progress_permille,
            doorways_passed: self.doorways_passed.count_ones(),
            doorways: self.course.doorways.len() as u32,
            score: self.score(),
        }
    }
}

/// Seven discs a drawing needs the radii of, mm.
pub fn disc_radii_mm() -> [i32; 7] {
    std::array::from_fn(|i| DISCS[i].radius / 1000)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tandem::room::TurnTicks;
    use crate::tandem::trig::QUARTER;

    #[test]
    fn view_coordinates_are_the_seeds() {
        assert_eq!(view_mm(22_200_000, 12_600_000), (0, 0));
        assert_eq!(view_mm(23_200_000, 11_600_000), (1000, 1000), "y up");
        assert_eq!(view_degrees(0), 0);
        // A quarter turn in the world (y down) is screen-south: 270° ccw in the view.
        assert_eq!(view_degrees(QUARTER), 270);
        assert_eq!(view_degrees(3 * QUARTER), 90);
    }

    #[test]
    fn the_exact_pose_costs_about_a_dozen_bytes_of_a_ticks_view() {
        let mut room = TandemRoom::new(3, TurnTicks::Live);
        let mut porters = crate::tandem::control::Seat::BOTH
            .map(|s| crate::tandem::porter::Porter::new(s, &room.course, room.turn_ticks));
        for _ in 0..240 {
            let orders = [porters[0].order(&room), porters[1].order(&room)];
            room.step(orders).unwrap();
        }
        let v = room.view();
        let (mut all, mut pose) = ([0u8; 512], [0u8; 32]);
        let all = postcard::to_slice(&v, &mut all).unwrap().len();
        let pose = postcard::to_slice(&v.pose, &mut pose).unwrap().len();
        eprintln!("a tick's view: {all} bytes (postcard), of which the exact pose {pose}");
        assert!(pose <= 12 && all < 160, "view {all} bytes, of which the pose {pose}");
    }

    #[test]
    fn a_view_round_trips_through_serde() {
        let room = TandemRoom::new(3, TurnTicks::Live);
        let v = room.view();
        assert_eq!(v.hull_mm.len(), 5);
        let back: TandemView = serde_json::from_str(&serde_json::to_string(&v).unwrap()).unwrap();
        assert_eq!(back, v);
        assert_eq!(disc_radii_mm()[0], 450);
    }
}
