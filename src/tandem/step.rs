//! One Tandem tick, the seed's ten steps in their order: turn boundary, regrip gate, control
//! compile, four substeps, damage, grip, progress and delivery, stats, hash, end checks.

use super::body::{DISCS, HULL, cog_disc, disc_world};
use super::control::{Seat, SeatOrder, seat_force};
use super::course::{OVERHANG, WORLD_H, WORLD_W};
use super::events::{Outcome, Phase, StepRefusal, TandemEvent};
use super::geom::{Pt, dist2};
use super::hash::tick_hash;
use super::physics::{DiscContact, MAX_SPEED, MAX_SPIN, SUBSTEPS, substep};
use super::progress::{delivered, doorway_passed, project};
use super::room::{MAX_TICKS, OrderRecord, TandemRoom};
use super::trig::length;

/// Grip: strain beyond this (mN) makes a cog slip.
pub const GRIP_LIMIT: i64 = 100_000;
/// slip += max(0, (|H| − GRIP_LIMIT) / SLIP_DIV) − SLIP_RECOVER a tick, floored at 0.
pub const SLIP_DIV: i64 = 100_000;
pub const SLIP_RECOVER: i32 = 4;
/// Slip at which the couch is dropped.
pub const SLIP_DROP: i32 = 240;
/// A drop's damage: this, plus up to `DROP_SPEED_DAMAGE` in proportion to speed.
pub const DROP_DAMAGE: i32 = 60;
pub const DROP_SPEED_DAMAGE: i64 = 40;
/// Ticks the couch stays down after a drop.
pub const REGRIP_TICKS: u32 = 48;
/// Impacts: above 250 mm/s approach, (mm/s − 250)·40/1000, at most 200.
pub const IMPACT_FLOOR_MM_S: i64 = 250;
pub const IMPACT_MAX: i64 = 200;
/// Scrapes: above 50 mm/s sliding, mm/s / 800 clamped to 1..=4 a tick; one event per disc
/// per 6 ticks.
pub const SCRAPE_FLOOR_MM_S: i64 = 50;
pub const SCRAPE_EVERY: u32 = 6;
/// Damage that wrecks the couch.
pub const WRECK_DAMAGE: i32 = 1000;

/// µm/tick to mm/s.
pub const fn mm_s(um_per_tick: i64) -> i64 {
    um_per_tick * 24 / 1000
}

/// An impact's damage at an approach speed, mm/s.
pub fn impact_damage(approach_mm_s: i64) -> i64 {
    ((approach_mm_s - IMPACT_FLOOR_MM_S) * 40 / 1000).clamp(0, IMPACT_MAX)
}

/// A scraping tick's damage at a sliding speed, mm/s (call only above the floor).
pub fn scrape_damage(slide_mm_s: i64) -> i64 {
    (slide_mm_s / 800).clamp(1, 4)
}

/// A drop's damage at a speed, µm/tick.
pub fn drop_damage(speed: i64) -> i32 {
    DROP_DAMAGE + (speed.min(MAX_SPEED) * DROP_SPEED_DAMAGE / MAX_SPEED) as i32
}

impl TandemRoom {
    /// Runs one tick with each seat's latest order (collected; installed at turn boundaries)
    /// and returns its events. A run that has ended refuses.
    pub fn step(&mut self, orders: [SeatOrder; 2]) -> Result<&[TandemEvent], StepRefusal> {
        if let Phase::Ended(o) = self.phase {
            return Err(StepRefusal::Ended(o));
        }
        let t = self.tick;
        self.events.clear();
        self.pending = orders;

        // 1. Turn boundary.
        if t.is_multiple_of(self.turn_ticks.ticks()) {
            for seat in Seat::BOTH {
                let order = self.pending[seat.index()];
                self.install(OrderRecord { tick: t, seat, order });
            }
        }

        // 2. Regrip gate.
        let mut held = false;
        if self.phase == Phase::Regrip {
            if t < self.regrip_until {
                held = true;
                self.forces = [(0, 0); 2];
                self.motion.vx = 0;
                self.motion.vy = 0;
                self.motion.spin = 0;
            } else {
                self.phase = Phase::Carrying;
                self.slip = [0; 2];
                self.strain = [(0, 0); 2];
                self.events.push(TandemEvent::Regrip);
            }
        }

        if !held {
            // 3. Control compile, seat 0 then 1.
            for s in 0..2 {
                self.forces[s] = seat_force(&self.motion, s, self.active[s], self.strain[s]);
            }
            // 4. Four substeps.
            let mut contacts = [DiscContact::default(); 7];
            let mut strain_sum = [(0i64, 0i64); 2];
            let course = self.course.clone();
            for _ in 0..SUBSTEPS {
                substep(
                    &mut self.motion,
                    course.solids(),
                    self.forces,
                    &mut contacts,
                    &mut strain_sum,
                );
            }
            for (strain, sum) in self.strain.iter_mut().zip(strain_sum) {
                *strain = ((sum.0 / SUBSTEPS) as i32, (sum.1 / SUBSTEPS) as i32);
            }
            // 5. Damage.
            self.apply_damage(t, &contacts);
            // 6. Grip.
            self.apply_grip(t);
        }

        // 7. Progress and delivery.
        let hulls = self.hull_centres();
        let centre = Pt::new(self.motion.x, self.motion.y);
        let (seg, along) =
            project(&self.course, &self.route_cum, centre, self.best_segment as usize);
        let total = *self.route_cum.last().unwrap_or(&1);
        let permille = (along * 1000 / total.max(1)) as i32;
        if permille > self.best_progress_permille {
            self.best_progress_permille = permille;
        }
        if seg as u32 > self.best_segment {
            self.best_segment = seg as u32;
        }
        for i in 0..self.course.doorways.len() {
            if self.doorways_passed & (1 << i) == 0 && doorway_passed(&self.course, i, &hulls) {
                self.doorways_passed |= 1 << i;
                self.events.push(TandemEvent::DoorwayBeat { index: i as u8 });
            }
        }
        if self.delivery_tick.is_none() && delivered(&self.course, &hulls) {
            self.delivery_tick = Some(t + 1);
            self.best_progress_permille = 1000;
        }

        // 8. Stats.
        for s in 0..2 {
            let h = length(self.strain[s].0 as i64, self.strain[s].1 as i64) as i32;
            self.stats.peak_strain = self.stats.peak_strain.max(h);
        }

        // 9. Hash.
        self.tick = t + 1;
        self.hash = tick_hash(self.hash, self);

        // 10. End checks, in order.
        let end = if self.delivery_tick.is_some() {
            Some(Outcome::Delivered)
        } else if self.damage >= WRECK_DAMAGE {
            Some(Outcome::Wrecked)
        } else if !self.invariants_hold() {
            Some(Outcome::SimFault)
        } else if self.tick >= MAX_TICKS {
            Some(Outcome::OutOfTime)
        } else {
            None
        };
        if let Some(outcome) = end {
            self.phase = Phase::Ended(outcome);
            self.events.push(TandemEvent::Ended { outcome });
        }
        Ok(&self.events)
    }

    /// The five hull discs' centres, world µm.
    pub fn hull_centres(&self) -> [Pt; HULL] {
        let m = &self.motion;
        std::array::from_fn(|i| {
            let (p, _) = disc_world(i, (m.x, m.y), m.angle);
            Pt::new(p.0, p.1)
        })
    }

    /// The seat whose handle is nearer `p` (fore on a tie).
    fn blame_for(&self, p: Pt) -> Seat {
        let m = &self.motion;
        let handle = |s: Seat| {
            let (c, _) = disc_world(cog_disc(s.index()), (m.x, m.y), m.angle);
            dist2(p, Pt::new(c.0, c.1))
        };
        if handle(Seat::Aft) < handle(Seat::Fore) { Seat::Aft } else { Seat::Fore }
    }

    /// Step 5: impacts and scrapes of the hull discs (the cogs bruise, the couch scuffs).
    fn apply_damage(&mut self, t: u32, contacts: &[DiscContact; 7]) {
        let (mut any_contact, mut any_scrape) = (contacts.iter().any(|c| c.touching), false);
        for (i, c) in contacts.iter().take(HULL).enumerate() {
            let was = self.hulls[i].touching;
            self.hulls[i].touching = c.touching;
            if !c.touching {
                continue;
            }
            let blame = self.blame_for(c.at);
            if !was {
                let dmg = impact_damage(mm_s(c.approach));
                if dmg > 0 {
                    self.damage += dmg as i32;
                    self.stats.impacts += 1;
                    self.stats.blame[blame.index()] += dmg as i32;
                    self.events.push(TandemEvent::Impact {
                        disc: i as u8,
                        damage: dmg as u16,
                        blame,
                    });
                }
            } else if mm_s(c.slide) > SCRAPE_FLOOR_MM_S {
                let dmg = scrape_damage(mm_s(c.slide)) as i32;
                any_scrape = true;
                self.damage += dmg;
                self.stats.blame[blame.index()] += dmg;
                let h = &mut self.hulls[i];
                h.unreported = h.unreported.saturating_add(dmg as u16);
                if t >= h.quiet_until {
                    let damage = std::mem::take(&mut h.unreported);
                    h.quiet_until = t + SCRAPE_EVERY;
                    self.events.push(TandemEvent::Scrape { disc: i as u8, damage, blame });
                }
            }
        }
        any_contact |= any_scrape;
        self.stats.contact_ticks += any_contact as u32;
        self.stats.scrape_ticks += any_scrape as u32;
    }

    /// Step 6: slip from strain over the grip limit; a drop at `SLIP_DROP`.
    fn apply_grip(&mut self, t: u32) {
        for s in 0..2 {
            let h = length(self.strain[s].0 as i64, self.strain[s].1 as i64);
            let gain = ((h - GRIP_LIMIT) / SLIP_DIV).max(0) as i32;
            self.slip[s] = (self.slip[s] + gain - SLIP_RECOVER).max(0);
        }
        let Some(seat) = Seat::BOTH.into_iter().find(|s| self.slip[s.index()] >= SLIP_DROP) else {
            return;
        };
        let m = &mut self.motion;
        let dmg = drop_damage(length(m.vx as i64, m.vy as i64));
        m.vx = 0;
        m.vy = 0;
        m.spin = 0;
        self.damage += dmg;
        self.stats.drops += 1;
        self.stats.blame[seat.index()] += dmg;
        self.phase = Phase::Regrip;
        self.regrip_until = t + 1 + REGRIP_TICKS;
        self.events.push(TandemEvent::Drop { seat, damage: dmg as u16 });
    }

    /// The invariant guard: the body inside the world, speeds within their clamps, the
    /// counters non-negative, every disc's centre inside the ring's outer overhang.
    pub fn invariants_hold(&self) -> bool {
        let m = &self.motion;
        let inside = |x: i32, y: i32| {
            x > -OVERHANG && x < WORLD_W + OVERHANG && y > -OVERHANG && y < WORLD_H + OVERHANG
        };
        (0..DISCS.len()).all(|i| {
            let (p, _) = disc_world(i, (m.x, m.y), m.angle);
            inside(p.0, p.1)
        }) && (0..=WORLD_W).contains(&m.x)
            && (0..=WORLD_H).contains(&m.y)
            && length(m.vx as i64, m.vy as i64) <= MAX_SPEED + 1
            && (m.spin as i64).abs() <= MAX_SPIN
            && self.damage >= 0
            && self.slip.iter().all(|&s| s >= 0)
    }
}
