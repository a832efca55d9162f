//! Plain integer geometry of the course: points and axis-aligned rects in µm, and the exact
//! squared distances the generator and the progress tracker need (i128 where a product of two
//! squared lengths could pass i64).

use serde::{Deserialize, Serialize};

/// A point in world µm (origin top-left, y down).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pt {
    pub x: i32,
    pub y: i32,
}

impl Pt {
    pub const fn new(x: i32, y: i32) -> Self {
        Pt { x, y }
    }
}

/// An axis-aligned rect in world µm, `x0 < x1`, `y0 < y1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Rect {
    pub x0: i32,
    pub y0: i32,
    pub x1: i32,
    pub y1: i32,
}

impl Rect {
    pub const fn new(x0: i32, y0: i32, x1: i32, y1: i32) -> Self {
        Rect { x0, y0, x1, y1 }
    }

    /// The square of side `side` centred on `c`.
    pub const fn square(c: Pt, side: i32) -> Self {
        Rect::new(c.x - side / 2, c.y - side / 2, c.x + side / 2, c.y + side / 2)
    }

    /// This rect shrunk by `d` on every side.
    pub const fn inset(self, d: i32) -> Self {
        Rect::new(self.x0 + d, self.y0 + d, self.x1 - d, self.y1 - d)
    }

    /// Whether `p` lies inside or on the edge.
    pub const fn contains(&self, p: Pt) -> bool {
        p.x >= self.x0 && p.x <= self.x1 && p.y >= self.y0 && p.y <= self.y1
    }

    pub const fn corners(&self) -> [Pt; 4] {
        [
            Pt::new(self.x0, self.y0),
            Pt::new(self.x1, self.y0),
            Pt::new(self.x1, self.y1),
            Pt::new(self.x0, self.y1),
        ]
    }

    /// The rect's point nearest `p` (`p` itself when inside).
    pub fn nearest(&self, p: Pt) -> Pt {
        Pt::new(p.x.clamp(self.x0, self.x1), p.y.clamp(self.y0, self.y1))
    }
}

/// Squared distance between two points.
pub fn dist2(a: Pt, b: Pt) -> i64 {
    let (dx, dy) = ((a.x - b.x) as i64, (a.y - b.y) as i64);
    dx * dx + dy * dy
}

/// Squared distance from `p` to the segment `a`–`b`, rounded down.
pub fn point_segment_dist2(p: Pt, a: Pt, b: Pt) -> i64 {
    let (abx, aby) = ((b.x - a.x) as i64, (b.y - a.y) as i64);
    let (apx, apy) = ((p.x - a.x) as i64, (p.y - a.y) as i64);
    let len2 = abx * abx + aby * aby;
    let dot = apx * abx + apy * aby;
    if len2 == 0 || dot <= 0 {
        return dist2(p, a);
    }
    if dot >= len2 {
        return dist2(p, b);
    }
    let cross = (apx * aby - apy * abx) as i128;
    (cross * cross / len2 as i128) as i64
}

/// Whether segments `a`–`b` and `c`–`d` cross or touch.
fn segments_meet(a: Pt, b: Pt, c: Pt, d: Pt) -> bool {
    let orient = |p: Pt, q: Pt, r: Pt| -> i64 {
        let v = (q.x - p.x) as i64 * (r.y - p.y) as i64 - (q.y - p.y) as i64 * (r.x - p.x) as i64;
        v.signum()
    };
    let on = |p: Pt, q: Pt, r: Pt| {
        r.x >= p.x.min(q.x) && r.x <= p.x.max(q.x) && r.y >= p.y.min(q.y) && r.y <= p.y.max(q.y)
    };
    let (o1, o2, o3, o4) = (orient(a, b, c), orient(a, b, d), orient(c, d, a), orient(c, d, b));
    (o1 != o2 && o3 != o4)
        || (o1 == 0 && on(a, b, c))
        || (o2 == 0 && on(a, b, d))
        || (o3 == 0 && on(c, d, a))
        || (o4 == 0 && on(c, d, b))
}

/// Squared distance between the segment `a`–`b` and a rect: zero when they meet; otherwise
/// the nearest pair involves a segment end or a rect corner (both are convex).
pub fn segment_rect_dist2(a: Pt, b: Pt, r: &Rect) -> i64 {
    if r.contains(a) || r.contains(b) {
        return 0;
    }
    let c = r.corners();
    if (0..4).any(|i| segments_meet(a, b, c[i], c[(i + 1) % 4])) {
        return 0;
    }
    let ends = dist2(a, r.nearest(a)).min(dist2(b, r.nearest(b)));
    c.iter().map(|&k| point_segment_dist2(k, a, b)).fold(ends, i64::min)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn point_to_segment() {
        let (a, b) = (Pt::new(0, 0), Pt::new(10, 0));
        assert_eq!(point_segment_dist2(Pt::new(5, 3), a, b), 9);
        assert_eq!(point_segment_dist2(Pt::new(-3, 4), a, b), 25);
        assert_eq!(point_segment_dist2(Pt::new(13, 4), a, b), 25);
    }

    #[test]
    fn segment_to_rect() {
        let r = Rect::new(0, 0, 10, 10);
        assert_eq!(segment_rect_dist2(Pt::new(-5, 5), Pt::new(15, 5), &r), 0);
        assert_eq!(segment_rect_dist2(Pt::new(-5, 20), Pt::new(15, 20), &r), 100);
        assert_eq!(segment_rect_dist2(Pt::new(13, 14), Pt::new(20, 20), &r), 25);
    }
}
