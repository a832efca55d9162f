//! The soak ledger's versus half: each team's score, serves and misses rebuilt from the events
//! alone (a serve's team is its order's rail, a miss's too, a trash's the trashing cook's), and
//! compared with the room's `versus` tallies. A score that moved for the wrong side, or a dish
//! served off the other side's rail, shows here.

use crate::sim::events::SimEvent;
use crate::sim::room::Room;
use crate::sim::scoring::MIN_SCORE_FLOOR;
use crate::sim::versus::Team;
use std::collections::BTreeMap;
use std::fmt;

/// A team tally the room disagrees with its own events about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TeamDrift {
    pub team: Team,
    pub what: &'static str,
    pub expected: i64,
    pub actual: i64,
}

impl fmt::Display for TeamDrift {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (team, what) = (self.team.as_str(), self.what);
        write!(f, "team {team} {what} {}, but the events make {}", self.actual, self.expected)
    }
}

/// Both teams' running totals, and the rail each live order was on after the last tick.
#[derive(Clone, Debug, Default)]
pub struct TeamLedger {
    scores: [i32; 2],
    served: [u32; 2],
    missed: [u32; 2],
    /// Order id → its rail's team, as the rails stood after the previous tick (a serve or a
    /// miss names an order that was on a rail then: spawns come after the serves in a tick).
    rails: BTreeMap<u32, Team>,
}

impl TeamLedger {
    /// Fold in a versus room's tick (its events, then its rails), then compare.
    pub fn after_tick(&mut self, room: &Room) -> Result<(), TeamDrift> {
        let Some(versus) = room.versus else { return Ok(()) };
        let penalty = room.level.orders.miss_penalty;
        for event in &room.events {
            let (team, delta) = match event {
                SimEvent::Served { order_id, points, .. } => {
                    let Some(&team) = self.rails.get(order_id) else {
                        return Err(drift(
                            Team::A,
                            "serve of an order on no rail",
                            0,
                            *order_id as i64,
                        ));
                    };
                    self.served[team.index()] += 1;
                    (team, *points)
                }
                SimEvent::OrderMissed { order_id, .. } => {
                    let Some(&team) = self.rails.get(order_id) else {
                        return Err(drift(
                            Team::A,
                            "miss of an order on no rail",
                            0,
                            *order_id as i64,
                        ));
                    };
                    self.missed[team.index()] += 1;
                    (team, -penalty)
                }
                SimEvent::Trashed { seat, score_delta, .. } => {
                    (room.team_of_seat(*seat).unwrap_or(Team::A), *score_delta)
                }
                _ => continue,
            };
            let s = &mut self.scores[team.index()];
            *s = (*s + delta).max(MIN_SCORE_FLOOR);
        }
        self.rails = room.orders.iter().filter_map(|o| Some((o.id, o.team?))).collect();
        for team in Team::BOTH {
            let (i, t) = (team.index(), versus.team(team));
            let checks = [
                ("score", self.scores[i] as i64, t.score as i64),
                ("served", self.served[i] as i64, t.served as i64),
                ("missed", self.missed[i] as i64, t.missed as i64),
            ];
            for (what, expected, actual) in checks {
                if expected != actual {
                    return Err(drift(team, what, expected, actual));
                }
            }
        }
        if room.score != 0 || room.streak != 0 {
            return Err(drift(
                Team::A,
                "co-op score (must stay 0 in versus)",
                0,
                room.score as i64,
            ));
        }
        Ok(())
    }
}

fn drift(team: Team, what: &'static str, expected: i64, actual: i64) -> TeamDrift {
    TeamDrift { team, what, expected, actual }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::recipes::builtin_recipes;
    use crate::level::sketch::sketch_level;
    use crate::sim::open::SeatSpec;
    use crate::sim::step_room;
    use crate::sim::versus::TeamsSpec;
    use std::sync::Arc;

    fn versus_room() -> Room {
        let mut level = sketch_level("t", &["#######", "#W1.2W#", "#######"]);
        level.orders.pool = vec!["salad".into()];
        level.orders.concurrent = 2;
        level.orders.interval_min = 20;
        level.orders.interval_max = 20;
        level.orders.deadline = 40;
        level.orders.miss_penalty = 5;
        level.teams = Some(TeamsSpec {
            spawn_team: vec![Team::A, Team::B],
            windows: vec![(0, Team::A), (1, Team::B)],
        });
        let book = Arc::new(builtin_recipes().expect("book"));
        Room::new(Arc::new(level), book, 1, &SeatSpec::numbered(2))
    }

    #[test]
    fn misses_rebuild_and_a_point_on_the_wrong_side_is_named() {
        let mut room = versus_room();
        let mut ledger = TeamLedger::default();
        for _ in 0..80 {
            step_room(&mut room);
            ledger.after_tick(&room).expect("a clean round");
        }
        assert_eq!(ledger.missed, [1, 1], "ticket pair 1-2 missed at tick 70");
        // A point moved onto B's tally without an event: the next tick names it.
        if let Some(v) = room.versus.as_mut() {
            v.team_mut(Team::B).score += 1;
        }
        step_room(&mut room);
        let d = ledger.after_tick(&room).expect_err("a drift");
        assert_eq!((d.team, d.what, d.expected, d.actual), (Team::B, "score", 0, 1));
    }
}
