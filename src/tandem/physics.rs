//! Step 4 of a tick: one substep (1/96 s) of the rigid body, in the seed's order: contacts →
//! sum of forces → semi-implicit Euler with drag → pose → felt strain. Integers throughout:
//! forces mN, lengths µm, velocity µm/tick, spin Q20 turns/tick, torque mN·m.

use super::body::{COG_GRAMS, DISCS, INERTIA_MILLI_KG_M2, TOTAL_MASS_GRAMS, cog_disc};
use super::control::{Motion, clamp_len, point_velocity};
use super::geom::{Pt, Rect};
use super::trig::{TURN, isqrt, rotate};

/// Substeps a tick.
pub const SUBSTEPS: i64 = 4;
/// Contact law: Fn = 200·δ + 29·max(0, −v_n), clamped to 0..=40 000 000 mN.
pub const CONTACT_K: i64 = 200;
pub const CONTACT_C: i64 = 29;
pub const CONTACT_MAX: i64 = 40_000_000;
/// Friction: |Ft| ≤ 354/1024 of Fn, and ≤ 200 mN per µm/tick of sliding.
pub const FRICTION_Q10: i64 = 354;
pub const FRICTION_C: i64 = 200;
/// Δv = F·10⁶ / (120 000 · 96 · 24): the divisor, mN per (µm/tick) a substep.
pub const DV_DIV: i64 = TOTAL_MASS_GRAMS * 96 * 24;
/// Linear drag a substep: v −= v·171/4096; angular: spin −= spin·341/4096.
pub const DRAG_Q12: i64 = 171;
pub const SPIN_DRAG_Q12: i64 = 341;
/// |v| ≤ 145 833 µm/tick (3.5 m/s).
pub const MAX_SPEED: i64 = 145_833;
/// |spin| ≤ 68 in the seed's 4096-a-turn unit (2.5 rad/s); ours has 8 more bits.
pub const MAX_SPIN: i64 = 68 << 8;
/// Δspin = τ·28 294 / (139 050 · 100 000), in the seed's unit; ours ×256.
pub const SPIN_NUM: i64 = 28_294 * 256;
pub const SPIN_DEN: i64 = INERTIA_MILLI_KG_M2 * 100_000;

/// What one disc met in one substep.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DiscContact {
    pub touching: bool,
    /// Largest approach speed (−v_n) and sliding speed met, µm/tick.
    pub approach: i64,
    pub slide: i64,
    /// Where the deepest contact touched, world µm.
    pub at: Pt,
    depth: i64,
}

/// The contact of one disc (centre `p`, radius `radius`, offset `r` from the body centre)
/// against one rect: the force on the body (mN) and its torque (mN·m), or `None`.
fn disc_rect(
    m: &Motion,
    p: Pt,
    radius: i32,
    r: (i32, i32),
    rect: &Rect,
    seen: &mut DiscContact,
) -> Option<((i64, i64), i64)> {
    let q = rect.nearest(p);
    // The outward normal in Q12 and the penetration δ, µm.
    let (n, delta) = if q == p {
        let faces = [
            (p.x - rect.x0, (-4096, 0)),
            (rect.x1 - p.x, (4096, 0)),
            (p.y - rect.y0, (0, -4096)),
            (rect.y1 - p.y, (0, 4096)),
        ];
        let (depth, n) = faces.iter().copied().min_by_key(|f| f.0).unwrap_or((0, (0, 4096)));
        (n, radius as i64 + depth as i64)
    } else {
        let (dx, dy) = ((p.x - q.x) as i64, (p.y - q.y) as i64);
        let d2 = dx * dx + dy * dy;
        if d2 >= radius as i64 * radius as i64 {
            return None;
        }
        let d = isqrt(d2 as u64) as i64;
        if d == 0 {
            return None;
        }
        ((dx * 4096 / d, dy * 4096 / d), radius as i64 - d)
    };
    // The contact point: the disc's surface along −n.
    let rc = (r.0 as i64 - n.0 * radius as i64 / 4096, r.1 as i64 - n.1 * radius as i64 / 4096);
    let v = point_velocity(m, (rc.0 as i32, rc.1 as i32));
    let vn = (v.0 * n.0 + v.1 * n.1) / 4096;
    let t = (-n.1, n.0);
    let vt = (v.0 * t.0 + v.1 * t.1) / 4096;
    let fn_ = (CONTACT_K * delta + CONTACT_C * (-vn).max(0)).clamp(0, CONTACT_MAX);
    let ft = (FRICTION_Q10 * fn_ / 1024).min(vt.abs() * FRICTION_C) * -vt.signum();
    let f = ((fn_ * n.0 + ft * t.0) / 4096, (fn_ * n.1 + ft * t.1) / 4096);
    let torque = ((rc.0 as i128 * f.1 as i128 - rc.1 as i128 * f.0 as i128) / 1_000_000) as i64;
    seen.touching = true;
    seen.approach = seen.approach.max(-vn);
    seen.slide = seen.slide.max(vt.abs());
    if delta > seen.depth {
        seen.depth = delta;
        seen.at = Pt::new(
            p.x - (n.0 * radius as i64 / 4096) as i32,
            p.y - (n.1 * radius as i64 / 4096) as i32,
        );
    }
    Some((f, torque))
}

/// One substep. `seat_forces` are the compiled seat forces (constant over the tick);
/// `contacts` gathers what each disc met; `strain_sum` gains each seat's felt strain.
pub fn substep<'a>(
    m: &mut Motion,
    solids: impl Iterator<Item = &'a Rect> + Clone,
    seat_forces: [(i32, i32); 2],
    contacts: &mut [DiscContact; 7],
    strain_sum: &mut [(i64, i64); 2],
) {
    // Contacts.
    let mut fc = (0i64, 0i64);
    let mut tc = 0i64;
    for (i, d) in DISCS.iter().enumerate() {
        let r = rotate((d.x, d.y), m.angle);
        let p = Pt::new(m.x + r.0, m.y + r.1);
        for rect in solids.clone() {
            // Cheap reject before the exact test.
            if p.x + d.radius < rect.x0
                || p.x - d.radius > rect.x1
                || p.y + d.radius < rect.y0
                || p.y - d.radius > rect.y1
            {
                continue;
            }
            if let Some((f, t)) = disc_rect(m, p, d.radius, r, rect, &mut contacts[i]) {
                fc = (fc.0 + f.0, fc.1 + f.1);
                tc += t;
            }
        }
    }
    // Sum of forces and torques.
    let mut f = fc;
    let mut tau = 0i128;
    let mut arms = [(0i32, 0i32); 2];
    for (s, sf) in seat_forces.iter().enumerate() {
        let d = &DISCS[cog_disc(s)];
        let r = rotate((d.x, d.y), m.angle);
        arms[s] = r;
        f = (f.0 + sf.0 as i64, f.1 + sf.1 as i64);
        tau += r.0 as i128 * sf.1 as i128 - r.1 as i128 * sf.0 as i128;
    }
    let tau = (tau / 1_000_000) as i64 + tc;
    // Semi-implicit Euler with drag, then the clamps.
    let (mut vx, mut vy) = (m.vx as i64, m.vy as i64);
    vx += f.0 * 1_000_000 / DV_DIV;
    vy += f.1 * 1_000_000 / DV_DIV;
    vx -= vx * DRAG_Q12 / 4096;
    vy -= vy * DRAG_Q12 / 4096;
    let (vx, vy) = clamp_len((vx, vy), MAX_SPEED);
    let mut spin = m.spin as i64 + (tau as i128 * SPIN_NUM as i128 / SPIN_DEN as i128) as i64;
    spin -= spin * SPIN_DRAG_Q12 / 4096;
    let spin = spin.clamp(-MAX_SPIN, MAX_SPIN);
    m.vx = vx as i32;
    m.vy = vy as i32;
    m.spin = spin as i32;
    // Pose.
    m.x += (vx / SUBSTEPS) as i32;
    m.y += (vy / SUBSTEPS) as i32;
    m.angle = (m.angle + (spin / SUBSTEPS) as i32) & (TURN - 1);
    // Felt strain: H_i = m_cog · a_i − F_i, with a_i = F/M + α × r_i (the floor's drag is not
    // in anyone's hands).
    for s in 0..2 {
        let r = arms[s];
        let lin = (f.0 * COG_GRAMS / TOTAL_MASS_GRAMS, f.1 * COG_GRAMS / TOTAL_MASS_GRAMS);
        let k = COG_GRAMS as i128 * tau as i128;
        let den = INERTIA_MILLI_KG_M2 as i128 * 1_000_000;
        let rot = ((-(r.1 as i128) * k / den) as i64, (r.0 as i128 * k / den) as i64);
        let h = (lin.0 + rot.0 - seat_forces[s].0 as i64, lin.1 + rot.1 - seat_forces[s].1 as i64);
        strain_sum[s] = (strain_sum[s].0 + h.0, strain_sum[s].1 + h.1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open() -> Vec<Rect> {
        Vec::new()
    }

    #[test]
    fn a_push_accelerates_by_the_seed_formula_and_drag_bites() {
        let mut m = Motion::default();
        let mut c = [DiscContact::default(); 7];
        let mut s = [(0, 0); 2];
        // 276 480 mN on the centre line: Δv = 1000 µm/tick, then drag 1000·171/4096 = 41.
        substep(&mut m, open().iter(), [(138_240, 0), (138_240, 0)], &mut c, &mut s);
        assert_eq!(m.vx, 1000 - 41);
        assert_eq!(m.spin, 0, "equal pushes at both handles turn nothing");
        assert_eq!(m.x, (1000 - 41) / 4);
        // Each cog feels m_cog/M of the total minus its own push: 69 120 − 138 240.
        assert_eq!(s[0], (-69_120, 0));
    }

    #[test]
    fn speed_and_spin_are_clamped() {
        let mut m = Motion { vx: 10_000_000, spin: 1 << 20, ..Motion::default() };
        let mut c = [DiscContact::default(); 7];
        let mut s = [(0, 0); 2];
        substep(&mut m, open().iter(), [(0, 0), (0, 0)], &mut c, &mut s);
        assert_eq!(m.vx as i64, MAX_SPEED);
        assert_eq!(m.spin as i64, MAX_SPIN);
    }

    #[test]
    fn a_wall_pushes_back_with_the_contact_law() {
        // The fore cog's disc 0.1 mm into a wall ahead, at rest.
        let wall = [Rect::new(10_000_000 + 1_699_900, 0, 20_000_000, 20_000_000)];
        let mut m = Motion { x: 10_000_000, y: 10_000_000, ..Motion::default() };
        let mut c = [DiscContact::default(); 7];
        let mut s = [(0, 0); 2];
        substep(&mut m, wall.iter(), [(0, 0), (0, 0)], &mut c, &mut s);
        assert!(c[5].touching && !c[4].touching);
        assert_eq!(m.spin, 0, "a push along the axis turns nothing");
        // Fn = 200 · 100 µm = 20 000 mN toward −x: Δv = −20 000·10⁶/276 480 000 = −72.
        assert_eq!(m.vx, -72 - (-72 * 171 / 4096));
    }
}
