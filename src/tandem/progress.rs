//! Step 7 of a tick: progress along the route polyline, doorway beats and delivery.

use super::course::{Course, cell_rect};
use super::geom::{Pt, point_segment_dist2};
use super::route::Step;
use super::trig::isqrt;

/// Segments ahead of the best one that a projection may land on: the route can run back past
/// itself one column over, and the couch must not be credited with the far leg.
pub const LOOKAHEAD_SEGMENTS: usize = 2;

/// The route's length to each point, µm (`cum[0] = 0`).
pub fn cumulative(course: &Course) -> Vec<i64> {
    let mut cum = Vec::with_capacity(course.route_pts.len());
    let mut sum = 0i64;
    cum.push(0);
    for w in course.route_pts.windows(2) {
        sum += isqrt(super::geom::dist2(w[0], w[1]) as u64) as i64;
        cum.push(sum);
    }
    cum
}

/// Projects `p` onto the route (segments `0..=best_seg + LOOKAHEAD_SEGMENTS`; the nearest,
/// first on ties): (segment, distance along the route µm).
pub fn project(course: &Course, cum: &[i64], p: Pt, best_seg: usize) -> (usize, i64) {
    let pts = &course.route_pts;
    let last = (best_seg + LOOKAHEAD_SEGMENTS).min(pts.len().saturating_sub(2));
    let mut best = (i64::MAX, 0usize, 0i64);
    for i in 0..=last {
        let (a, b) = (pts[i], pts[i + 1]);
        let d2 = point_segment_dist2(p, a, b);
        if d2 < best.0 {
            let (abx, aby) = ((b.x - a.x) as i64, (b.y - a.y) as i64);
            let len = cum[i + 1] - cum[i];
            let dot = (p.x - a.x) as i64 * abx + (p.y - a.y) as i64 * aby;
            let along = if len == 0 { 0 } else { (dot / len).clamp(0, len) };
            best = (d2, i, cum[i] + along);
        }
    }
    (best.1, best.2)
}

/// Whether a doorway is passed by all of `hulls`: past its plane and inside the next cell's
/// span along the face (a plane runs across the whole map; only this doorway's part counts).
pub fn doorway_passed(course: &Course, index: usize, hulls: &[Pt]) -> bool {
    let d = &course.doorways[index];
    let to = cell_rect(d.to);
    hulls.iter().all(|&p| {
        d.is_past(p)
            && match d.step {
                Step::East => p.y >= to.y0 && p.y <= to.y1,
                Step::North | Step::South => p.x >= to.x0 && p.x <= to.x1,
            }
    })
}

/// Whether all of `hulls` lie inside the goal pad.
pub fn delivered(course: &Course, hulls: &[Pt]) -> bool {
    hulls.iter().all(|&p| course.goal_pad.contains(p))
}
