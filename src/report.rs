//! Plain-JSON views of a room for the world outside the sim: the round's result payload.
//!
//! Lives outside `sim/` because it renders ticks as seconds for people; every number it reads
//! is the sim's integer state, so the payload is a function of the state at the verdict alone.

use crate::sim::room::Room;
use crate::sim::round::stars;
use crate::sim::units::TICK_HZ;
use crate::sim::verdict::Verdict;
use crate::sim::versus::Team;
use serde_json::{Value, json};

/// Ticks as seconds (exact: a tick is 0.05 s).
pub fn ticks_to_seconds(ticks: u32) -> f64 {
    ticks as f64 / TICK_HZ as f64
}

/// The result payload, with exactly the rulebook's keys: result, score, target, stars,
/// time_left, counters{served, missed, wasted}, longest_streak, players[{id, name, score,
/// dishes_served, missed_contrib}], level_id, seed, ticks. `missed_contrib` is the round's
/// misses spread evenly over the seats (floor): an estimate for display, never a gate. An
/// assisted round adds `assisted: true` and `assist{order_time, longer_round}`; a survival round
/// `mode: "survival"` and `survival{dishes_served, ticks_survived, seconds_survived,
/// seconds_added, seconds_taken}`; a versus round `mode: "versus"` and `versus{teams[{team,
/// seats, score, served, missed, longest_streak}], winner}` (`"a"`, `"b"`, `"draw"`, or null
/// before the buzzer).
pub fn result_payload(room: &Room) -> Value {
    let seats = room.cooks.len() as u32;
    let missed_each = room.counters.missed.checked_div(seats).unwrap_or(0);
    let mut payload = json!({
        "result": room.result.map(|v| v.as_str()),
        "score": room.score,
        "target": room.level.target_score,
        "stars": stars(room),
        "time_left": ticks_to_seconds(room.time_left),
        "counters": {
            "served": room.counters.served,
            "missed": room.counters.missed,
            "wasted": room.counters.wasted,
        },
        "longest_streak": room.longest_streak,
        "players": room.cooks.iter().map(|c| json!({
            "id": c.seat,
            "name": c.name,
            "score": c.score,
            "dishes_served": c.dishes_served,
            "missed_contrib": missed_each,
        })).collect::<Vec<_>>(),
        "level_id": room.level.id,
        "seed": room.seed,
        "ticks": room.tick,
    });
    // An assisted round says so (and how): its stars were earned with more time.
    if room.assist.is_on() {
        payload["assisted"] = json!(true);
        payload["assist"] = json!({
            "order_time": room.assist.order_time.label(),
            "longer_round": room.assist.longer_round,
        });
    }
    // A survival round says so, with its result: the dishes served and the time survived.
    if let Some(s) = &room.survival {
        let survived = s.ticks_survived(room.tick);
        payload["mode"] = json!("survival");
        payload["survival"] = json!({
            "dishes_served": room.counters.served,
            "ticks_survived": survived,
            "seconds_survived": ticks_to_seconds(survived),
            "seconds_added": ticks_to_seconds(s.added),
            "seconds_taken": ticks_to_seconds(s.taken),
        });
    }
    // A versus round says so, with each team's tallies and seats and the buzzer's winner.
    if let Some(v) = &room.versus {
        payload["mode"] = json!("versus");
        let team = |t: Team| {
            let tally = v.team(t);
            let seats: Vec<u8> = room
                .cooks
                .iter()
                .map(|c| c.seat)
                .filter(|&s| room.team_of_seat(s) == Some(t))
                .collect();
            json!({
                "team": t.as_str(),
                "seats": seats,
                "score": tally.score,
                "served": tally.served,
                "missed": tally.missed,
                "longest_streak": tally.longest_streak,
            })
        };
        payload["versus"] = json!({
            "teams": Team::BOTH.map(team),
            "winner": match room.result {
                Some(Verdict::TeamA) => json!("a"),
                Some(Verdict::TeamB) => json!("b"),
                Some(Verdict::Draw) => json!("draw"),
                _ => Value::Null,
            },
        });
    }
    payload
}
