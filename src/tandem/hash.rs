//! Step 9: the per-tick game hash, chained. FNV-1a over 64-bit words (one xor and one
//! multiply a field) in one fixed field order, starting from the previous tick's hash.
//! Everything a later tick reads is in it; events, stats and blame (spectator data) are not.

use super::room::TandemRoom;

const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// The canonical field walk of a room after a tick, in hash order.
/// `out` gets each field's name lazily (only the golden's field log asks for it).
pub fn walk(room: &TandemRoom, out: &mut impl FnMut(&dyn Fn() -> String, i64)) {
    let m = &room.motion;
    put(out, "tick", room.tick as i64);
    put(out, "turn_ticks", room.turn_ticks.ticks() as i64);
    put(out, "phase", room.phase.code());
    put(out, "x", m.x as i64);
    put(out, "y", m.y as i64);
    put(out, "angle", m.angle as i64);
    put(out, "vx", m.vx as i64);
    put(out, "vy", m.vy as i64);
    put(out, "spin", m.spin as i64);
    put(out, "damage", room.damage as i64);
    for s in 0..2 {
        let o = room.active[s];
        let seat = [
            ("slip", room.slip[s] as i64),
            ("strain_x", room.strain[s].0 as i64),
            ("strain_y", room.strain[s].1 as i64),
            ("force_x", room.forces[s].0 as i64),
            ("force_y", room.forces[s].1 as i64),
            ("order_push_x", o.push_x as i64),
            ("order_push_y", o.push_y as i64),
            ("order_yield", o.yield_permille as i64),
        ];
        for (name, v) in seat {
            put_indexed(out, "seat", s, name, v);
        }
    }
    put(out, "regrip_until", room.regrip_until as i64);
    put(out, "best_progress_permille", room.best_progress_permille as i64);
    put(out, "best_segment", room.best_segment as i64);
    put(out, "doorways_passed", room.doorways_passed as i64);
    put(out, "delivery_tick", room.delivery_tick.map_or(-1, |t| t as i64));
    for (i, h) in room.hulls.iter().enumerate() {
        put_indexed(out, "hull", i, "touching", h.touching as i64);
        put_indexed(out, "hull", i, "quiet_until", h.quiet_until as i64);
    }
    put(out, "course_digest", room.course.digest as i64);
}

/// A plain field.
fn put(out: &mut impl FnMut(&dyn Fn() -> String, i64), name: &'static str, v: i64) {
    out(&|| name.to_string(), v);
}

/// A field of an indexed part (`seat1.slip`).
fn put_indexed(
    out: &mut impl FnMut(&dyn Fn() -> String, i64),
    part: &'static str,
    i: usize,
    name: &'static str,
    v: i64,
) {
    out(&|| format!("{part}{i}.{name}"), v);
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
