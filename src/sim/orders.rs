//! Stage 5, the ticket rail: seeded spawns (exactly two draws each), the concurrency cap, the
//! full-rail retry that spends no draw, and deadlines to the tick. In versus one seeded stream
//! feeds both teams' rails: a spawn puts the same ticket on every rail with room.

use super::events::SimEvent;
use super::order::Order;
use super::room::Room;
use super::scoring::apply_miss;
use super::versus::Team;

/// The first order arrives 1.5 s into the round.
pub const FIRST_ORDER_DELAY_TICKS: u32 = 30;
/// A due tick that finds the rail full retries 1 s later, without drawing.
pub const MIN_RETRY_TICKS: u32 = 20;

/// Stage 5 for one room: expire what is due (rail order), then spawn if due.
pub fn step_room_orders(room: &mut Room) {
    expire_orders(room);
    spawn_order(room);
}

/// Orders whose deadline is this tick leave the rail: counted, named, penalised.
fn expire_orders(room: &mut Room) {
    let now = room.tick;
    let mut i = 0;
    while i < room.orders.len() {
        if room.orders[i].deadline <= now {
            let order = room.orders.remove(i);
            room.counters.missed += 1;
            room.events.push(SimEvent::OrderMissed { order_id: order.id, recipe: order.recipe });
            apply_miss(room, order.team);
            // Survival: a miss takes its seconds off the clock.
            if let Some(mut clock) = room.survival {
                let delta = clock.shorten(&mut room.time_left);
                room.survival = Some(clock);
                if delta > 0 {
                    let time_left = room.time_left;
                    room.events.push(SimEvent::Clock { delta: -(delta as i32), time_left });
                }
            }
        } else {
            i += 1;
        }
    }
}

/// A due tick spawns (two draws: the recipe, then the gap), retries on a full rail (no draw),
/// or does nothing with an empty pool.
fn spawn_order(room: &mut Room) {
    let now = room.tick;
    if now < room.next_order_at || room.pool.is_empty() {
        return;
    }
    let spec = &room.level.orders;
    let cap = spec.concurrent as usize;
    // The rails this ticket goes to: the one co-op rail, or each versus team's with room.
    let rails: Vec<Option<Team>> = if room.versus.is_some() {
        Team::BOTH
            .into_iter()
            .filter(|&t| room.orders.iter().filter(|o| o.team == Some(t)).count() < cap)
            .map(Some)
            .collect()
    } else if room.orders.len() < cap {
        vec![None]
    } else {
        Vec::new()
    };
    if rails.is_empty() {
        room.next_order_at = now + MIN_RETRY_TICKS;
        return;
    }
    let (lo, hi, deadline) = (spec.interval_min, spec.interval_max, spec.deadline.max(1));
    let recipe = room.pool[room.rng.index(room.pool.len())];
    let gap = room.rng.range_inclusive(lo, hi).max(1);
    let value = room.book.recipes.get(recipe as usize).map_or(0, |r| r.base_score);
    // Each rail's copy is its own order (its own id, A's before B's), so a serve or a miss
    // names exactly one.
    for team in rails {
        let id = room.next_order_id;
        room.next_order_id += 1;
        room.orders.push(Order { id, recipe, value, deadline: now + deadline, team });
    }
    room.next_order_at = now + gap;
}
