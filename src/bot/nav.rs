//! Grid navigation for bot cooks: shortest walkable paths, a steering law that turns a path
//! into stick input without clipping wall corners or overshooting the goal, and the kitchen's
//! map ([`Distances`]): how far every cell is from each fixture, where to rest, where the
//! traffic runs.

use crate::sim::cook::Cook;
use crate::sim::kinds::Tile;
use crate::sim::kitchen::Level;
use crate::sim::units::Cell;
use crate::sim::units::{MOVE_UNIT, RADIUS, TILE};
use crate::sim::v2::V2;
use std::collections::VecDeque;

/// Can a body stand in this cell?
pub fn walkable(level: &Level, cell: Cell) -> bool {
    !level.tile(cell).blocks_body()
}

/// The shortest 4-neighbour path of walkable cells from `from` to `to` (both included), or
/// `None` when `to` cannot be reached. Neighbours are tried in a fixed order (right, down,
/// left, up), so the path is the same on every machine.
pub fn path(level: &Level, from: Cell, to: Cell) -> Option<Vec<Cell>> {
    path_sided(level, from, to, false)
}

/// The four neighbour steps in the order a path tries them: right, down, left, up — or, for a
/// bot reading its kitchen from the right wall (`flip`: team B of a versus kitchen, the mirror
/// image of team A's side), left, down, right, up, so mirrored sides walk mirrored paths.
fn steps(flip: bool) -> [Cell; 4] {
    let s = if flip { -1 } else { 1 };
    [(s, 0), (0, 1), (-s, 0), (0, -1)]
}

/// [`path`], its neighbour order read from the right when `flip` (see [`steps`]).
pub fn path_sided(level: &Level, from: Cell, to: Cell, flip: bool) -> Option<Vec<Cell>> {
    if !walkable(level, to) {
        return None;
    }
    let w = level.width.max(1) as usize;
    let idx = |c: Cell| c.1 as usize * w + c.0 as usize;
    let inside = |c: Cell| c.0 >= 0 && c.1 >= 0 && c.0 < level.width && c.1 < level.height;
    if !inside(from) || !inside(to) {
        return None;
    }
    let mut prev: Vec<Option<Cell>> = vec![None; w * level.height.max(1) as usize];
    let mut seen = vec![false; prev.len()];
    let mut queue = VecDeque::from([from]);
    seen[idx(from)] = true;
    while let Some(c) = queue.pop_front() {
        if c == to {
            let mut out = vec![c];
            let mut at = c;
            while let Some(p) = prev[idx(at)] {
                out.push(p);
                at = p;
            }
            out.reverse();
            return Some(out);
        }
        for (dx, dy) in steps(flip) {
            let n = (c.0 + dx, c.1 + dy);
            if inside(n) && !seen[idx(n)] && walkable(level, n) {
                seen[idx(n)] = true;
                prev[idx(n)] = Some(c);
                queue.push_back(n);
            }
        }
    }
    None
}

/// Close enough to a goal centre to count as arrived (µtiles).
pub const ARRIVE_TOLERANCE: i32 = 60_000;
/// Slow enough to count as stopped (µtiles per tick).
pub const STOP_SPEED: i32 = 25_000;

/// Has the cook arrived (and settled) at the centre of `goal`?
pub fn arrived(cook: &Cook, goal: Cell) -> bool {
    let c = V2::centre_of(goal);
    (c.x - cook.pos.x).abs() <= ARRIVE_TOLERANCE
        && (c.y - cook.pos.y).abs() <= ARRIVE_TOLERANCE
        && cook.vel.x.abs() <= STOP_SPEED
        && cook.vel.y.abs() <= STOP_SPEED
}

/// Proportional speed toward an offset: full stick from 0.3 tile out, easing in below that so
/// the cook brakes onto the point instead of overshooting it.
fn ease(offset: i32) -> i32 {
    (offset as i64 * MOVE_UNIT as i64 / 300_000).clamp(-(MOVE_UNIT as i64), MOVE_UNIT as i64) as i32
}

/// The stick that walks `cook` along `route` (a path whose first cell is the cook's cell)
/// toward its last cell: along the step's axis, while centring on the other axis so corners
/// are never clipped.
pub fn steer(cook: &Cook, route: &[Cell]) -> (i16, i16) {
    let here = cook.pos.cell();
    let goal = *route.last().unwrap_or(&here);
    let next = route.iter().position(|c| *c == here).and_then(|i| route.get(i + 1)).copied();
    let Some(next) = next else {
        // In the goal cell (or off the route): ease onto the goal's centre.
        let c = V2::centre_of(goal);
        return (ease(c.x - cook.pos.x) as i16, ease(c.y - cook.pos.y) as i16);
    };
    let (dx, dy) = (next.0 - here.0, next.1 - here.1);
    let centre = V2::centre_of(here);
    // Within the body's slack of the corridor centre, push on; otherwise re-centre first.
    let slack = (TILE / 2 - RADIUS) / 2;
    let (mx, my) = if dx != 0 {
        let off = centre.y - cook.pos.y;
        let along = if off.abs() > slack { 0 } else { dx * MOVE_UNIT };
        (along, ease(off))
    } else {
        let off = centre.x - cook.pos.x;
        let along = if off.abs() > slack { 0 } else { dy * MOVE_UNIT };
        (ease(off), along)
    };
    (mx as i16, my as i16)
}

/// Sentinel distance for a cell no walk reaches.
pub const FAR: u32 = u32::MAX;

/// Walking distance (in cells) from the nearest of `sources` to every cell of the level,
/// row-major; `FAR` where unreachable. Cells `blocked` returns true for are never entered (a
/// source is always kept). Breadth-first in a fixed neighbour order, so deterministic.
pub fn distances(level: &Level, sources: &[Cell], blocked: &dyn Fn(Cell) -> bool) -> Vec<u32> {
    let w = level.width.max(1) as usize;
    let n = w * level.height.max(1) as usize;
    let inside = |c: Cell| c.0 >= 0 && c.1 >= 0 && c.0 < level.width && c.1 < level.height;
    let idx = |c: Cell| c.1 as usize * w + c.0 as usize;
    let mut dist = vec![FAR; n];
    let mut queue = VecDeque::new();
    for &s in sources {
        if inside(s) && dist[idx(s)] == FAR {
            dist[idx(s)] = 0;
            queue.push_back(s);
        }
    }
    while let Some(c) = queue.pop_front() {
        let d = dist[idx(c)];
        for (dx, dy) in [(1, 0), (0, 1), (-1, 0), (0, -1)] {
            let m = (c.0 + dx, c.1 + dy);
            if inside(m) && dist[idx(m)] == FAR && walkable(level, m) && !blocked(m) {
                dist[idx(m)] = d + 1;
                queue.push_back(m);
            }
        }
    }
    dist
}

/// The shortest path from `from` to `to` that avoids the `avoid` cells (other cooks), or the
/// plain shortest path when avoiding them leaves no way through.
pub fn path_avoiding(
    level: &Level,
    from: Cell,
    to: Cell,
    avoid: &[Cell],
    flip: bool,
) -> Option<Vec<Cell>> {
    if avoid.is_empty() {
        return path_sided(level, from, to, flip);
    }
    let w = level.width.max(1) as usize;
    let idx = |c: Cell| c.1 as usize * w + c.0 as usize;
    let inside = |c: Cell| c.0 >= 0 && c.1 >= 0 && c.0 < level.width && c.1 < level.height;
    if !inside(from) || !inside(to) || !walkable(level, to) {
        return None;
    }
    // Distances back from the goal, then walk downhill from the start: same result as a
    // forward search, and the tie-break stays the fixed neighbour order.
    let blocked = |c: Cell| c != from && c != to && avoid.contains(&c);
    let dist = distances(level, &[to], &blocked);
    if dist[idx(from)] == FAR {
        return path_sided(level, from, to, flip);
    }
    let mut out = vec![from];
    let mut at = from;
    while at != to {
        let d = dist[idx(at)];
        let next = steps(flip)
            .into_iter()
            .map(|(dx, dy)| (at.0 + dx, at.1 + dy))
            .find(|&m| inside(m) && dist[idx(m)] != FAR && dist[idx(m)] + 1 == d)?;
        out.push(next);
        at = next;
    }
    Some(out)
}

/// Walking distance from every cell to each fixture's working cells, computed once per level.
#[derive(Clone, Debug)]
pub struct Distances {
    width: usize,
    /// Per station, row-major distances to the nearest cell it can be worked from.
    maps: Vec<Vec<u32>>,
    /// Floor cells beside no fixture and not in a one-tile passage (at least three walkable
    /// neighbours): where an idle bot waits without blocking anyone's work or way. A bot that
    /// rested in a corridor to a far sink blocked every trip to it (levels/dish_pit.ron).
    pub rest: Vec<(i32, i32)>,
    /// Per cell, row-major: how many routes between two working cells cross it. A helper waits
    /// on the quietest cell it can reach.
    traffic: Vec<u32>,
}

impl Distances {
    pub fn new(level: &Level) -> Distances {
        let maps = level
            .stations
            .iter()
            .map(|s| {
                let spots: Vec<_> = [(0, -1), (0, 1), (-1, 0), (1, 0)]
                    .into_iter()
                    .map(|(dx, dy)| (s.cell.0 + dx, s.cell.1 + dy))
                    .filter(|&c| walkable(level, c))
                    .collect();
                distances(level, &spots, &|_| false)
            })
            .collect();
        let mut rest = Vec::new();
        for y in 0..level.height {
            for x in 0..level.width {
                let beside = [(0, -1), (0, 1), (-1, 0), (1, 0)]
                    .into_iter()
                    .any(|(dx, dy)| level.station_at((x + dx, y + dy)).is_some());
                let open = [(0, -1), (0, 1), (-1, 0), (1, 0)]
                    .into_iter()
                    .filter(|(dx, dy)| walkable(level, (x + dx, y + dy)))
                    .count();
                if level.tile((x, y)) == Tile::Floor && !beside && open >= 3 {
                    rest.push((x, y));
                }
            }
        }
        // How many routes between working cells cross each cell (one shortest path per pair).
        let w = level.width.max(1) as usize;
        let mut traffic = vec![0u32; w * level.height.max(1) as usize];
        let mut work: Vec<(i32, i32)> = level
            .stations
            .iter()
            .flat_map(|s| {
                [(0, -1), (0, 1), (-1, 0), (1, 0)].map(|(dx, dy)| (s.cell.0 + dx, s.cell.1 + dy))
            })
            .filter(|&c| walkable(level, c))
            .collect();
        work.sort_unstable();
        work.dedup();
        for (k, &a) in work.iter().enumerate() {
            for &b in &work[k + 1..] {
                for c in path(level, a, b).unwrap_or_default() {
                    traffic[c.1 as usize * w + c.0 as usize] += 1;
                }
            }
        }
        Distances { width: w, maps, rest, traffic }
    }

    /// Cells from `cell` to a working cell of `station` (FAR when none is reachable).
    pub fn to(&self, station: usize, cell: (i32, i32)) -> u32 {
        if cell.0 < 0 || cell.1 < 0 {
            return FAR;
        }
        self.maps
            .get(station)
            .and_then(|m| m.get(cell.1 as usize * self.width + cell.0 as usize))
            .copied()
            .unwrap_or(FAR)
    }

    /// Fixture to fixture: from the best working cell of `a` to `b`.
    pub fn between(&self, level: &Level, a: usize, b: usize) -> u32 {
        let c = level.stations[a].cell;
        [(0, -1), (0, 1), (-1, 0), (1, 0)]
            .into_iter()
            .map(|(dx, dy)| (c.0 + dx, c.1 + dy))
            .filter(|&n| walkable(level, n))
            .map(|n| self.to(b, n))
            .min()
            .unwrap_or(FAR)
    }

    /// How many routes between two working cells cross `cell` (`u32::MAX` off the grid).
    pub fn traffic(&self, cell: Cell) -> u32 {
        self.traffic
            .get(cell.1 as usize * self.width + cell.0 as usize)
            .copied()
            .unwrap_or(u32::MAX)
    }
}
