//! Step 9: the per-tick game hash, chained. FNV-1a over 64-bit words (one xor and one
//! multiply a field) in one fixed field order, starting from the previous tick's hash.
//! Everything a later tick reads is in it; events, stats and blame (spectator data) are not.

use super::room::TandemRoom;

const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// The canonical field walk of a room after a tick, in hash order.
pub fn walk(room: &TandemRoom, out: &mut impl FnMut(&'static str, i64)) {
    let m = &room.motion;
    out("tick", room.tick as i64);
    out("turn_ticks", room.turn_ticks.ticks() as i64);
    out("phase", room.phase.code());
    out("x", m.x as i64);
    out("y", m.y as i64);
    out("angle", m.angle as i64);
    out("vx", m.vx as i64);
    out("vy", m.vy as i64);
    out("spin", m.spin as i64);
    out("damage", room.damage as i64);
    for s in 0..2 {
        out("slip", room.slip[s] as i64);
        out("strain_x", room.strain[s].0 as i64);
        out("strain_y", room.strain[s].1 as i64);
        out("force_x", room.forces[s].0 as i64);
        out("force_y", room.forces[s].1 as i64);
        let o = room.active[s];
        out("order_push_x", o.push_x as i64);
        out("order_push_y", o.push_y as i64);
        out("order_yield", o.yield_permille as i64);
    }
    out("regrip_until", room.regrip_until as i64);
    out("best_progress_permille", room.best_progress_permille as i64);
    out("best_segment", room.best_segment as i64);
    out("doorways_passed", room.doorways_passed as i64);
    out("delivery_tick", room.delivery_tick.map_or(-1, |t| t as i64));
    for h in &room.hulls {
        out("hull_touching", h.touching as i64);
        out("hull_quiet_until", h.quiet_until as i64);
    }
    out("course_digest", room.course.digest as i64);
}

/// The hash of the tick just run, chained on `prev`.
pub fn tick_hash(prev: u64, room: &TandemRoom) -> u64 {
    let mut h = prev;
    walk(room, &mut |_, v| h = (h ^ v as u64).wrapping_mul(FNV_PRIME));
    // A final avalanche so neighbouring states do not give neighbouring hashes.
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^ (h >> 33)
}
