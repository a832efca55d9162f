//! The course generator (steps 2–7 after the route): doorways, blocks, pillars, the route
//! polyline and par, the goal pad and the course digest. Everything is drawn from one seeded
//! stream at tick 0; the expanded `Course` is plain serde data, so a replay can carry it and
//! play it back without regenerating.

use super::geom::{Pt, Rect, dist2, segment_rect_dist2};
use super::rng::CourseRng;
use super::route::{COLS, Cell, ROWS, Step, draw_route};
use super::trig::{QUARTER, TURN, isqrt};
use serde::{Deserialize, Serialize};

/// A grid cell's side, µm.
pub const CELL: i32 = 4_800_000;
/// The outer wall ring's thickness, µm.
pub const RING: i32 = 600_000;
/// The world box, µm.
pub const WORLD_W: i32 = 44_400_000;
pub const WORLD_H: i32 = 25_200_000;
/// How far the ring's rects overhang the world box, so a disc resolved from inside one is
/// always pushed toward the interior.
pub const OVERHANG: i32 = 2_000_000;
/// Internal walls' thickness, µm (centred on the cell boundary).
pub const WALL: i32 = 300_000;
/// Doorway widths, µm.
pub const DOOR_WIDTHS: [i32; 5] = [1_050_000, 1_200_000, 1_400_000, 1_700_000, 2_200_000];
/// A doorway centre's offset range from the face's middle, µm.
pub const DOOR_OFFSET: i32 = 1_200_000;
/// A gap edge stays at least this far inside its face, µm.
pub const DOOR_EDGE: i32 = 200_000;
/// A door this narrow or narrower is tight: it adds `TIGHT_DOOR_TICKS` to par.
pub const TIGHT_DOOR: i32 = 1_200_000;
pub const TIGHT_DOOR_TICKS: u32 = 36;
/// Pillars: chance in percent, side, offset from the cell centre, clearance from the
/// through-line, all µm.
pub const PILLAR_PERCENT: i64 = 45;
pub const PILLAR: i32 = 800_000;
pub const PILLAR_OFFSET: i32 = 1_400_000;
pub const PILLAR_CLEAR: i32 = 1_300_000;
/// The goal pad's inset from the goal cell's edges: half a wall plus the seed's 0.10 m.
pub const GOAL_INSET: i32 = WALL / 2 + 100_000;
/// The reference carry for par, mm/s.
pub const PAR_SPEED_MM_S: i64 = 1_600;

/// A doorway between two consecutive route cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Doorway {
    pub from: Cell,
    pub to: Cell,
    /// The direction of travel through it.
    pub step: Step,
    /// The gap's centre, on the shared face.
    pub centre: Pt,
    pub width: i32,
}

impl Doorway {
    /// Whether `p` lies past this doorway's plane in the direction of travel.
    pub fn is_past(&self, p: Pt) -> bool {
        match self.step {
            Step::East => p.x > self.centre.x,
            Step::North => p.y < self.centre.y,
            Step::South => p.y > self.centre.y,
        }
    }
}

/// The expanded course: all any tick reads.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Course {
    pub seed: u64,
    pub route: Vec<Cell>,
    /// Walks the route took, and whether it is the monotone fallback.
    pub walks: u32,
    pub fallback: bool,
    pub doorways: Vec<Doorway>,
    /// Every solid rect but the pillars: the outer ring, off-route cells, walls and stubs.
    pub blocks: Vec<Rect>,
    pub pillars: Vec<Rect>,
    /// Cell centres and doorway centres, interleaved in traversal order.
    pub route_pts: Vec<Pt>,
    pub route_len_mm: i32,
    pub narrow_doors: u32,
    pub par_ticks: u32,
    pub goal_pad: Rect,
    /// Where the couch starts: the start cell's centre, facing the first doorway.
    pub start: Pt,
    pub start_angle: i32,
    /// FNV-1a over the fields above (`Course::digest_of`).
    pub digest: u64,
}

/// A cell's rect in world µm.
pub fn cell_rect(c: Cell) -> Rect {
    let (x0, y0) = (RING + c.col as i32 * CELL, RING + c.row as i32 * CELL);
    Rect::new(x0, y0, x0 + CELL, y0 + CELL)
}

/// A cell's centre.
pub fn cell_centre(c: Cell) -> Pt {
    let r = cell_rect(c);
    Pt::new((r.x0 + r.x1) / 2, (r.y0 + r.y1) / 2)
}

/// The angle of travel through a step (Q20, y down: north is three quarters).
pub fn step_angle(s: Step) -> i32 {
    match s {
        Step::East => 0,
        Step::South => QUARTER,
        Step::North => TURN - QUARTER,
    }
}

/// The shared face between `a` and the next cell `b` in direction `s`: its fixed coordinate
/// and its extent along the face.
fn face(a: Cell, s: Step) -> (i32, i32, i32) {
    let r = cell_rect(a);
    match s {
        Step::East => (r.x1, r.y0, r.y1),
        Step::North => (r.y0, r.x0, r.x1),
        Step::South => (r.y1, r.x0, r.x1),
    }
}

/// The wall rect along a face with fixed coordinate `at` from `lo` to `hi`, for a step `s`.
fn wall_along(s: Step, at: i32, lo: i32, hi: i32) -> Rect {
    match s {
        Step::East => Rect::new(at - WALL / 2, lo, at + WALL / 2, hi),
        Step::North | Step::South => Rect::new(lo, at - WALL / 2, hi, at + WALL / 2),
    }
}

/// Builds the course of `seed` (steps 1–7 of the seed's generator, in its draw order).
pub fn generate(seed: u64) -> Course {
    let mut rng = CourseRng::new(seed);
    let route = draw_route(&mut rng);
    let cells = route.cells;

    // 2. Doorways. The last is forced to the narrowest width, centred; it draws nothing.
    let mut doorways = Vec::with_capacity(cells.len() - 1);
    for (i, w) in cells.windows(2).enumerate() {
        let step = Step::between(w[0], w[1]).unwrap_or(Step::East);
        let (at, lo, hi) = face(w[0], step);
        let mid = (lo + hi) / 2;
        let (width, offset) = if i + 2 == cells.len() {
            (DOOR_WIDTHS[0], 0)
        } else {
            let width = DOOR_WIDTHS[rng.range(0, DOOR_WIDTHS.len() as i64 - 1) as usize];
            let offset = rng.range(-DOOR_OFFSET as i64, DOOR_OFFSET as i64) as i32;
            let room = CELL / 2 - DOOR_EDGE - width / 2;
            (width, offset.clamp(-room, room))
        };
        let centre = match step {
            Step::East => Pt::new(at, mid + offset),
            Step::North | Step::South => Pt::new(mid + offset, at),
        };
        doorways.push(Doorway { from: w[0], to: w[1], step, centre, width });
    }

    // 3. Blocks: the ring, every off-route cell, every boundary between route cells.
    let mut blocks = vec![
        Rect::new(-OVERHANG, -OVERHANG, WORLD_W + OVERHANG, RING),
        Rect::new(-OVERHANG, WORLD_H - RING, WORLD_W + OVERHANG, WORLD_H + OVERHANG),
        Rect::new(-OVERHANG, -OVERHANG, RING, WORLD_H + OVERHANG),
        Rect::new(WORLD_W - RING, -OVERHANG, WORLD_W + OVERHANG, WORLD_H + OVERHANG),
    ];
    for row in 0..ROWS {
        for col in 0..COLS {
            let c = Cell { col, row };
            if !cells.contains(&c) {
                blocks.push(cell_rect(c));
            }
        }
    }
    for (i, &a) in cells.iter().enumerate() {
        for step in [Step::East, Step::South] {
            let Some(b) = step.from(a) else { continue };
            let Some(j) = cells.iter().position(|&c| c == b) else { continue };
            let (at, lo, hi) = face(a, step);
            let door = if j == i + 1 {
                Some(doorways[i])
            } else if i == j + 1 {
                Some(doorways[j])
            } else {
                None
            };
            match door {
                None => blocks.push(wall_along(step, at, lo, hi)),
                Some(d) => {
                    let along = match step {
                        Step::East => d.centre.y,
                        _ => d.centre.x,
                    };
                    blocks.push(wall_along(step, at, lo, along - d.width / 2));
                    blocks.push(wall_along(step, at, along + d.width / 2, hi));
                }
            }
        }
    }

    // 4. Pillars in intermediate cells, clear of the line between the cell's two doorways.
    let mut pillars = Vec::new();
    for i in 1..cells.len().saturating_sub(1) {
        if rng.range(0, 99) >= PILLAR_PERCENT {
            continue;
        }
        let sx = if rng.range(0, 1) == 0 { -1 } else { 1 };
        let sy = if rng.range(0, 1) == 0 { -1 } else { 1 };
        let c = cell_centre(cells[i]);
        let pillar =
            Rect::square(Pt::new(c.x + sx * PILLAR_OFFSET, c.y + sy * PILLAR_OFFSET), PILLAR);
        let (a, b) = (doorways[i - 1].centre, doorways[i].centre);
        if segment_rect_dist2(a, b, &pillar) >= PILLAR_CLEAR as i64 * PILLAR_CLEAR as i64 {
            pillars.push(pillar);
        }
    }

    // 5. The route polyline and par.
    let mut route_pts = Vec::with_capacity(cells.len() * 2);
    for (i, &c) in cells.iter().enumerate() {
        route_pts.push(cell_centre(c));
        if let Some(d) = doorways.get(i) {
            route_pts.push(d.centre);
        }
    }
    let route_len_um: i64 =
        route_pts.windows(2).map(|w| isqrt(dist2(w[0], w[1]) as u64) as i64).sum();
    let route_len_mm = (route_len_um / 1000) as i32;
    let narrow_doors = doorways.iter().filter(|d| d.width <= TIGHT_DOOR).count() as u32;
    let par_ticks =
        (route_len_mm as i64 * 24 / PAR_SPEED_MM_S) as u32 + TIGHT_DOOR_TICKS * narrow_doors;

    // 6. The goal pad.
    let goal_pad = cell_rect(cells[cells.len() - 1]).inset(GOAL_INSET);

    let mut course = Course {
        seed,
        start: cell_centre(cells[0]),
        start_angle: step_angle(doorways[0].step),
        route: cells,
        walks: route.walks,
        fallback: route.fallback,
        doorways,
        blocks,
        pillars,
        route_pts,
        route_len_mm,
        narrow_doors,
        par_ticks,
        goal_pad,
        digest: 0,
    };
    // 7. The digest.
    course.digest = course.digest_of();
    course
}

/// FNV-1a, 64-bit.
const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

impl Course {
    /// The course's serialisation for the digest: every field but the digest, as
    /// little-endian i64s in declaration order (lists prefixed with their length).
    pub fn walk(&self, out: &mut impl FnMut(i64)) {
        out(self.seed as i64);
        out(self.route.len() as i64);
        for c in &self.route {
            out(c.col as i64);
            out(c.row as i64);
        }
        out(self.walks as i64);
        out(self.fallback as i64);
        out(self.doorways.len() as i64);
        for d in &self.doorways {
            out(d.step as i64);
            out(d.centre.x as i64);
            out(d.centre.y as i64);
            out(d.width as i64);
        }
        for list in [&self.blocks, &self.pillars] {
            out(list.len() as i64);
            for r in list {
                for v in [r.x0, r.y0, r.x1, r.y1] {
                    out(v as i64);
                }
            }
        }
        out(self.route_pts.len() as i64);
        for p in &self.route_pts {
            out(p.x as i64);
            out(p.y as i64);
        }
        for v in [self.route_len_mm as i64, self.narrow_doors as i64, self.par_ticks as i64] {
            out(v);
        }
        for v in [self.goal_pad.x0, self.goal_pad.y0, self.goal_pad.x1, self.goal_pad.y1] {
            out(v as i64);
        }
        out(self.start.x as i64);
        out(self.start.y as i64);
        out(self.start_angle as i64);
    }

    /// FNV-1a over [`Course::walk`]'s bytes.
    pub fn digest_of(&self) -> u64 {
        let mut h = FNV_OFFSET;
        self.walk(&mut |v| {
            for b in v.to_le_bytes() {
                h = (h ^ b as u64).wrapping_mul(FNV_PRIME);
            }
        });
        h
    }

    /// Every solid rect: blocks, then pillars.
    pub fn solids(
        &self,
    ) -> std::iter::Chain<std::slice::Iter<'_, Rect>, std::slice::Iter<'_, Rect>> {
        self.blocks.iter().chain(self.pillars.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tandem::geom::segment_rect_dist2;
    use crate::tandem::route::ROUTE_LEN;

    #[test]
    fn routes_fit_or_fall_back_and_the_last_door_is_tight_and_centred() {
        let mut fallbacks = 0;
        for seed in 0..2000u64 {
            let c = generate(seed);
            assert!(ROUTE_LEN.contains(&c.route.len()) || c.fallback, "seed {seed}");
            fallbacks += c.fallback as u32;
            let last = c.doorways[c.doorways.len() - 1];
            assert_eq!(last.width, 1_050_000, "seed {seed}");
            let mid = match last.step {
                Step::East => (cell_rect(last.from).y0 + cell_rect(last.from).y1) / 2,
                _ => (cell_rect(last.from).x0 + cell_rect(last.from).x1) / 2,
            };
            let along = if last.step == Step::East { last.centre.y } else { last.centre.x };
            assert_eq!(along, mid, "seed {seed}: the last doorway is centred");
            for d in &c.doorways {
                let m = match d.step {
                    Step::East => (cell_rect(d.from).y0 + cell_rect(d.from).y1) / 2,
                    _ => (cell_rect(d.from).x0 + cell_rect(d.from).x1) / 2,
                };
                let along = if d.step == Step::East { d.centre.y } else { d.centre.x };
                assert!((along - m).abs() + d.width / 2 <= CELL / 2 - DOOR_EDGE, "seed {seed}");
            }
            assert_eq!(c.digest, c.digest_of());
            assert_eq!(c.par_ticks, c.route_len_mm as u32 * 24 / 1600 + 36 * c.narrow_doors);
        }
        assert!(fallbacks < 2000, "the walk usually fits");
    }

    #[test]
    fn every_pillar_is_clear_of_its_through_line() {
        let mut pillars = 0;
        for seed in 0..2000u64 {
            let c = generate(seed);
            for p in &c.pillars {
                pillars += 1;
                // Its cell: the intermediate route cell holding its centre.
                let centre = Pt::new((p.x0 + p.x1) / 2, (p.y0 + p.y1) / 2);
                let i = c.route.iter().position(|&k| cell_rect(k).contains(centre)).unwrap();
                assert!(i > 0 && i + 1 < c.route.len(), "seed {seed}: a pillar in an end cell");
                let (a, b) = (c.doorways[i - 1].centre, c.doorways[i].centre);
                let d2 = segment_rect_dist2(a, b, p);
                assert!(d2 >= PILLAR_CLEAR as i64 * PILLAR_CLEAR as i64, "seed {seed}");
            }
        }
        assert!(pillars > 500, "pillars are drawn ({pillars})");
    }

    #[test]
    fn the_digest_is_stable_across_runs() {
        // Pinned: a change here changes every Tandem course and golden (docs/TANDEM.md).
        let digests: Vec<String> =
            (1..=3).map(|s| format!("{:016x}", generate(s).digest)).collect();
        assert_eq!(digests, PINNED_DIGESTS);
        assert_eq!(generate(7), generate(7));
        assert_ne!(generate(7).digest, generate(8).digest);
    }

    const PINNED_DIGESTS: [&str; 3] = ["6dbe99d26d8b7ab3", "d91fc20588142864", "34e4b497247c71d2"];

    #[test]
    fn the_couch_starts_clear_of_every_solid() {
        use crate::tandem::body::{DISCS, disc_world};
        for seed in 0..500u64 {
            let c = generate(seed);
            for (i, disc) in DISCS.iter().enumerate() {
                let (p, _) = disc_world(i, (c.start.x, c.start.y), c.start_angle);
                let p = Pt::new(p.0, p.1);
                for r in c.solids() {
                    let q = r.nearest(p);
                    let r2 = disc.radius as i64 * disc.radius as i64;
                    assert!(dist2(p, q) >= r2, "seed {seed}: disc {i} starts inside {r:?}");
                }
            }
        }
    }
}
