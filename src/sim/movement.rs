//! Stage 3, movement: stun, dash, intent → velocity, the per-axis swept AABB, the soft push
//! (a dash's shove), facing.
//!
//! Velocity comes from intent and position from velocity, never mixed. Terrain is resolved on
//! the way out (the sweep) and cooks afterwards (the push), because a push must never shove a
//! cook into a wall. Bodies are half-open squares `[c − R, c + R)`, so integer geometry is
//! exact: a body flush with a wall touches it and does not overlap it.

use super::cook::{Cook, CookState};
use super::events::SimEvent;
use super::kinds::Dir4;
use super::kitchen::Level;
use super::pinned;
use super::room::Room;
use super::units::{
    ACCEL, DASH_SPEED, DASH_TICKS, DECEL, MAX_COOKS, MAX_SPEED, MOVE_UNIT, PUSH_ITERATIONS,
    PUSH_SLOP, RADIUS, STUN_TICKS, TILE, cell_of,
};
use super::v2::V2;
use smallvec::SmallVec;

/// An axis of the grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Axis {
    X,
    Y,
}

/// Does any cell in the column/row span block a body?
fn span_blocked(level: &Level, axis: Axis, line: i32, from: i32, to: i32) -> bool {
    (from..=to).any(|k| {
        let cell = match axis {
            Axis::X => (line, k),
            Axis::Y => (k, line),
        };
        level.tile(cell).blocks_body()
    })
}

/// Move a body centred at `pos` by `delta` along `axis`, stopping flush at the first blocked
/// cell it would newly overlap anywhere across its cross-axis span. Cells the body already
/// overlaps are never re-tested, so a body that starts somewhere impossible is not wedged.
/// Returns the distance actually moved.
pub fn sweep_axis(level: &Level, pos: V2, axis: Axis, delta: i32) -> i32 {
    if delta == 0 {
        return 0;
    }
    let (along, cross) = match axis {
        Axis::X => (pos.x, pos.y),
        Axis::Y => (pos.y, pos.x),
    };
    let cross_from = cell_of(cross - RADIUS);
    let cross_to = cell_of(cross + RADIUS - 1);
    if delta > 0 {
        let first = cell_of(along + RADIUS - 1) + 1;
        let last = cell_of(along + delta + RADIUS - 1);
        for line in first..=last {
            if span_blocked(level, axis, line, cross_from, cross_to) {
                return (line * TILE - RADIUS - along).max(0);
            }
        }
    } else {
        let first = cell_of(along - RADIUS) - 1;
        let last = cell_of(along + delta - RADIUS);
        let mut line = first;
        while line >= last {
            if span_blocked(level, axis, line, cross_from, cross_to) {
                return ((line + 1) * TILE + RADIUS - along).min(0);
            }
            line -= 1;
        }
    }
    delta
}

/// Move a body by `delta` along `axis` through the sweep; returns the moved distance.
fn slide(level: &Level, cook: &mut Cook, axis: Axis, delta: i32) -> i32 {
    let moved = sweep_axis(level, cook.pos, axis, delta);
    match axis {
        Axis::X => cook.pos.x += moved,
        Axis::Y => cook.pos.y += moved,
    }
    moved
}

fn scale(v: i32, ppm: u32) -> i32 {
    (v as i64 * ppm as i64 / 1_000_000) as i32
}

/// Step `vel` toward `target` by at most `step` (vector length, integer).
fn approach(vel: V2, target: V2, step: i32) -> V2 {
    let dx = (target.x - vel.x) as i64;
    let dy = (target.y - vel.y) as i64;
    // `isqrt(d²) <= step` exactly when `d² < (step + 1)²`: decide on squares first, so the
    // common ticks (at rest, or at full speed toward the stick) take no square root.
    let reach = step as i64 + 1;
    if dx * dx + dy * dy < reach * reach {
        return target;
    }
    let len = super::units::length(dx, dy);
    if len <= step as i64 {
        target
    } else {
        V2::new(vel.x + (dx * step as i64 / len) as i32, vel.y + (dy * step as i64 / len) as i32)
    }
}

/// The velocity a cook's intent asks for this tick (accelerate toward it; brake when centred,
/// unless the floor slides).
pub fn desired_velocity(cook: &Cook) -> V2 {
    let (mx, my) = cook.input.mv;
    let m = cook.modifiers;
    if mx == 0 && my == 0 {
        if m.slide {
            return cook.vel;
        }
        return approach(cook.vel, V2::ZERO, scale(DECEL, m.accel_ppm).max(1));
    }
    let top = scale(MAX_SPEED, m.speed_ppm) as i64;
    let target = V2::new(
        (mx as i64 * top / MOVE_UNIT as i64) as i32,
        (my as i64 * top / MOVE_UNIT as i64) as i32,
    );
    approach(cook.vel, target, scale(ACCEL, m.accel_ppm).max(1))
}

/// Facing is about intent: an explicit face wins, else the stick's dominant axis (ties go
/// horizontal), else unchanged. Being pushed never turns a cook.
pub fn facing_for(cook: &Cook) -> Dir4 {
    if let Some(face) = cook.input.face {
        return face;
    }
    let (mx, my) = cook.input.mv;
    if mx == 0 && my == 0 {
        return cook.facing;
    }
    if mx.abs() >= my.abs() {
        if mx > 0 { Dir4::Right } else { Dir4::Left }
    } else if my > 0 {
        Dir4::Down
    } else {
        Dir4::Up
    }
}

/// One tick of a dash: the burst's first tick takes this tick's facing (so a stick pushed with
/// the press aims it), the rest keep it; the stick is ignored. Every tick but the last goes at
/// `DASH_SPEED`; the last at walking speed, so the cook comes out of the burst at the speed it
/// walks and brakes from.
fn step_dash(cook: &mut Cook) {
    if cook.dash == DASH_TICKS {
        cook.facing = facing_for(cook);
    }
    cook.dash -= 1;
    let top = if cook.dash == 0 { MAX_SPEED } else { DASH_SPEED };
    let speed = scale(top, cook.modifiers.speed_ppm);
    let (dx, dy) = cook.facing.delta();
    cook.vel = V2::new(dx * speed, dy * speed);
}

/// Stun bookkeeping at the top of the stage: one `Stunned` event on entry, no motion while it
/// lasts, idle again on the tick it has run out. Returns whether the cook is held still.
fn apply_stun(cook: &mut Cook, events: &mut Vec<SimEvent>) -> bool {
    if cook.stun > 0 {
        if cook.state != CookState::Stunned {
            cook.state = CookState::Stunned;
            events.push(SimEvent::Stunned { seat: cook.seat, ticks: cook.stun });
        }
        cook.stun -= 1;
        cook.vel = V2::ZERO;
        return true;
    }
    if cook.state == CookState::Stunned {
        cook.state = CookState::Idle;
    }
    false
}

/// Knock a cook down for STUN_TICKS (the hazards stage is the caller).
pub fn stun(cook: &mut Cook) {
    cook.stun = STUN_TICKS;
}

/// Overlap of two bodies along each axis (positive = overlapping).
fn overlap(a: V2, b: V2) -> (i32, i32) {
    (2 * RADIUS - (a.x - b.x).abs(), 2 * RADIUS - (a.y - b.y).abs())
}

/// Push two overlapping cooks apart along `axis` by `need`, symmetric: each takes half, and
/// what one cannot take (a wall behind it) the other takes. A dashing cook meeting one that is
/// not dashing shoves it: the other takes the whole separation, the dasher only what walls
/// leave. Returns the separation achieved and, for a shove, how far the shoved cook moved.
fn separate_pair(
    level: &Level,
    cooks: &mut [Cook],
    (i, j): (usize, usize),
    axis: Axis,
    need: i32,
    dashing: &[bool],
) -> (i32, i32) {
    let (pi, pj) = (cooks[i].pos, cooks[j].pos);
    let (ai, aj) = match axis {
        Axis::X => (pi.x, pj.x),
        Axis::Y => (pi.y, pj.y),
    };
    // The lower seat goes negative on an exact tie, so the push is the same on every machine.
    let sign_i = if ai <= aj { -1 } else { 1 };
    if dashing[i] != dashing[j] {
        let (shoved, dasher, away) = if dashing[i] { (j, i, -sign_i) } else { (i, j, sign_i) };
        let moved = slide(level, &mut cooks[shoved], axis, away * need).abs();
        let back = if moved < need {
            slide(level, &mut cooks[dasher], axis, -away * (need - moved))
        } else {
            0
        };
        return (moved + back.abs(), moved);
    }
    let half = need / 2;
    let mut moved_i = slide(level, &mut cooks[i], axis, sign_i * half).abs();
    let moved_j = slide(level, &mut cooks[j], axis, -sign_i * (need - moved_i)).abs();
    if moved_i + moved_j < need {
        moved_i += slide(level, &mut cooks[i], axis, sign_i * (need - moved_i - moved_j)).abs();
    }
    (moved_i + moved_j, 0)
}

/// Can the pair still gain any separation along `axis` (a 1 µtile probe of each body)?
fn can_separate(level: &Level, a: V2, b: V2, axis: Axis) -> bool {
    let (pa, pb) = match axis {
        Axis::X => (a.x, b.x),
        Axis::Y => (a.y, b.y),
    };
    let sign_a = if pa <= pb { -1 } else { 1 };
    sweep_axis(level, a, axis, sign_a) != 0 || sweep_axis(level, b, axis, -sign_a) != 0
}

/// The pairs left overlapping after the push (the real deadlocks), and the shoves a dash made
/// as (dasher, shoved) indices, each pair once.
type PushOutcome = (SmallVec<[(usize, usize); 4]>, SmallVec<[(usize, usize); 4]>);

/// The soft push: PUSH_ITERATIONS passes over every pair in seat order, positional only.
/// Returns the pairs left overlapping that terrain keeps from separating on either axis: the
/// real deadlocks (a jam that could still separate is a queue and drains on later ticks), and
/// the dash shoves.
fn push_apart(level: &Level, cooks: &mut [Cook], dashing: &[bool]) -> PushOutcome {
    let mut shoves: SmallVec<[(usize, usize); 4]> = SmallVec::new();
    for _ in 0..PUSH_ITERATIONS {
        for i in 0..cooks.len() {
            for j in i + 1..cooks.len() {
                let (ox, oy) = overlap(cooks[i].pos, cooks[j].pos);
                if ox <= PUSH_SLOP || oy <= PUSH_SLOP {
                    continue;
                }
                let (first, need1, second, need2) =
                    if ox <= oy { (Axis::X, ox, Axis::Y, oy) } else { (Axis::Y, oy, Axis::X, ox) };
                let (gained, mut shoved) =
                    separate_pair(level, cooks, (i, j), first, need1, dashing);
                if gained == 0 {
                    shoved = separate_pair(level, cooks, (i, j), second, need2, dashing).1;
                }
                let pair = if dashing[i] { (i, j) } else { (j, i) };
                if shoved > 0 && !shoves.contains(&pair) {
                    shoves.push(pair);
                }
            }
        }
    }
    let mut stuck = SmallVec::new();
    for i in 0..cooks.len() {
        for j in i + 1..cooks.len() {
            let (a, b) = (cooks[i].pos, cooks[j].pos);
            let (ox, oy) = overlap(a, b);
            if ox > PUSH_SLOP
                && oy > PUSH_SLOP
                && !can_separate(level, a, b, Axis::X)
                && !can_separate(level, a, b, Axis::Y)
            {
                stuck.push((i, j));
            }
        }
    }
    (stuck, shoves)
}

/// Stage 3 for one room.
pub fn move_room_cooks(room: &mut Room) {
    // Borrow the level beside the cooks instead of cloning the `Arc`: every room of a batch
    // shares one level, and its refcount's cache line was bounced between threads each tick.
    let Room { level, cooks, events, .. } = room;
    let level: &Level = level;
    let mut starts: SmallVec<[(V2, Dir4); MAX_COOKS]> = SmallVec::new();
    let mut dashing: SmallVec<[bool; MAX_COOKS]> = SmallVec::new();
    for cook in cooks.iter_mut() {
        cook.dash_cooldown = cook.dash_cooldown.saturating_sub(1);
        let held = apply_stun(cook, events);
        starts.push((cook.pos, cook.facing));
        dashing.push(!held && cook.dash > 0);
        if held {
            // A knock ends a dash.
            cook.dash = 0;
            continue;
        }
        if cook.dash > 0 {
            step_dash(cook);
        } else {
            cook.facing = facing_for(cook);
            cook.vel = desired_velocity(cook);
        }
        let moved_x = slide(level, cook, Axis::X, cook.vel.x);
        let moved_y = slide(level, cook, Axis::Y, cook.vel.y);
        // A wall stops the velocity on that axis, so a cook does not keep pressing into it.
        if moved_x != cook.vel.x {
            cook.vel.x = moved_x;
        }
        if moved_y != cook.vel.y {
            cook.vel.y = moved_y;
        }
        cook.state = if cook.vel == V2::ZERO { CookState::Idle } else { CookState::Moving };
    }
    // The pinned pocket (§6.5): while the push leaves a pair deeper than a walking tick and than
    // the tick found it, with a third body touching it, the cluster's driver loses its whole
    // input and the push runs again from the moved positions. Each round reverts a different
    // cook, so it ends.
    let start_pos: SmallVec<[V2; MAX_COOKS]> = starts.iter().map(|s| s.0).collect();
    let mut premove: SmallVec<[V2; MAX_COOKS]> = cooks.iter().map(|c| c.pos).collect();
    let mut reverted = 0u32;
    let (stuck, shoves) = loop {
        let outcome = push_apart(level, cooks, &dashing);
        let Some(d) = pinned::driver(cooks, &start_pos, &premove, reverted) else {
            break outcome;
        };
        reverted |= 1 << d;
        premove[d] = start_pos[d];
        for (cook, &at) in cooks.iter_mut().zip(&premove) {
            cook.pos = at;
        }
        revert(&mut cooks[d], starts[d]);
        // A dash that drove into a pinned pair is over, as a knock ends one: the rest of the
        // burst would otherwise run on along the facing the revert restored.
        cooks[d].dash = 0;
        dashing[d] = false;
    };
    for (by, shoved) in shoves {
        events.push(SimEvent::Shoved { by: cooks[by].seat, seat: cooks[shoved].seat });
    }
    // A real deadlock (no separation on either axis): drop the later-received input and put
    // that cook back where the tick started. A cook with no frame never loses.
    for (i, j) in stuck {
        let rank = |c: &Cook| c.input.rank.map(|(t, s)| (t, s, c.seat));
        let loser = match (rank(&cooks[i]), rank(&cooks[j])) {
            (Some(a), Some(b)) => Some(if a > b { i } else { j }),
            (Some(_), None) => Some(i),
            (None, Some(_)) => Some(j),
            (None, None) => None,
        };
        if let Some(l) = loser {
            revert(&mut cooks[l], starts[l]);
        }
    }
}

/// Drop a cook's whole input for the tick: position and facing as the tick found them, at rest.
fn revert(cook: &mut Cook, (pos, facing): (V2, Dir4)) {
    cook.pos = pos;
    cook.vel = V2::ZERO;
    cook.facing = facing;
    cook.state = CookState::Idle;
}
