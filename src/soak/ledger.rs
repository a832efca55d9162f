//! The soak's event ledger: the round's score and tallies rebuilt from the events alone, tick
//! by tick, and compared with what the room says.
//!
//! `sim::invariants` can only check a state against itself; this checks a state against its
//! history, which is how a score that moved without a serve, a miss or a trash would show, or
//! a plate that vanished other than into a fire or a falling floor (the exact plate law).

use super::team_ledger::{TeamDrift, TeamLedger};
use crate::sim::events::SimEvent;
use crate::sim::ids::ItemId;
use crate::sim::item::ItemKind;
use crate::sim::room::Room;
use crate::sim::survival::{SURVIVAL_CAP_TICKS, SURVIVAL_START_TICKS};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// A tally the room disagrees with its own events about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Drift {
    /// The score rebuilt from serves, misses and trashes (each floored at zero, in event order).
    Score { expected: i32, actual: i32 },
    /// `counters.served` against the `Served` events.
    Served { expected: u32, actual: u32 },
    /// `counters.missed` against the `OrderMissed` events.
    Missed { expected: u32, actual: u32 },
    /// `counters.trashed` against the `Trashed` events.
    Trashed { expected: u32, actual: u32 },
    /// One cook's score against the points of that seat's `Served` events.
    CookScore { seat: u8, expected: i32, actual: i32 },
    /// Rack + plate items + sink stack + plates a hazard wasted is not the level's plates.
    Plates { clean: u32, items: u32, dirty: u32, lost: u32, total: u32 },
    /// Survival: the clock (or one of its tallies, `what`) against the one rebuilt from the
    /// start, the `Clock` events and one tick spent per undecided tick.
    Clock { what: &'static str, expected: u32, actual: u32 },
    /// Versus: a team's score, serves or misses against its events (`team_ledger`).
    Team(TeamDrift),
}

impl fmt::Display for Drift {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Drift::Score { expected, actual } => {
                write!(f, "score {actual}, but the events add up to {expected}")
            }
            Drift::Served { expected, actual } => {
                write!(f, "counters.served {actual}, but {expected} Served events")
            }
            Drift::Missed { expected, actual } => {
                write!(f, "counters.missed {actual}, but {expected} OrderMissed events")
            }
            Drift::Trashed { expected, actual } => {
                write!(f, "counters.trashed {actual}, but {expected} Trashed events")
            }
            Drift::CookScore { seat, expected, actual } => {
                write!(f, "seat {seat} scored {actual}, but its serves add up to {expected}")
            }
            Drift::Plates { clean, items, dirty, lost, total } => write!(
                f,
                "plates: {clean} clean + {items} items + {dirty} dirty + {lost} wasted by hazards != {total}"
            ),
            Drift::Clock { what, expected, actual } => {
                write!(f, "survival {what} {actual}, but the events and ticks make {expected}")
            }
            Drift::Team(d) => write!(f, "versus: {d}"),
        }
    }
}

/// One round's running totals, fed one tick's events at a time.
#[derive(Clone, Debug, Default)]
pub struct Ledger {
    score: i32,
    served: u32,
    missed: u32,
    trashed: u32,
    /// Points by seat.
    cook_scores: BTreeMap<u8, i32>,
    /// The plate items alive after the previous tick (a `Wasted` event names a destroyed id).
    plates: BTreeSet<ItemId>,
    /// Plates destroyed as `Wasted` (a fire or a falling floor took them).
    plates_lost: u32,
    /// Survival: the clock, ticks added and taken, as the events and ticks rebuild them
    /// (`None` until the first survival tick).
    clock: Option<(u32, u32, u32)>,
    /// Had the round a verdict before this tick (its clock frozen)?
    decided: bool,
    /// Versus: the teams' own totals (the co-op `score` stays 0 there).
    teams: TeamLedger,
}

impl Ledger {
    /// Fold in the events of the tick just stepped, then compare with the room.
    pub fn after_tick(&mut self, room: &Room) -> Result<(), Drift> {
        // In versus the points are the teams' (`team_ledger`); the co-op score never moves.
        let coop = room.versus.is_none();
        let floor = |s: i32| if coop { s.max(crate::sim::scoring::MIN_SCORE_FLOOR) } else { 0 };
        for event in &room.events {
            match event {
                SimEvent::Served { seat, points, .. } => {
                    self.served += 1;
                    *self.cook_scores.entry(*seat).or_default() += points;
                    self.score = floor(self.score + points);
                }
                SimEvent::OrderMissed { .. } => {
                    self.missed += 1;
                    self.score = floor(self.score - room.level.orders.miss_penalty);
                }
                SimEvent::Trashed { score_delta, .. } => {
                    self.trashed += 1;
                    self.score = floor(self.score + score_delta);
                }
                SimEvent::Wasted { item, .. } if self.plates.contains(item) => {
                    self.plates_lost += 1;
                }
                _ => {}
            }
        }
        if room.survival.is_some() {
            self.check_clock(room)?;
        }
        self.teams.after_tick(room).map_err(Drift::Team)?;
        self.decided = room.result.is_some();
        self.plates = room
            .items
            .iter()
            .filter(|i| matches!(i.kind, ItemKind::Plate { .. }))
            .map(|i| i.id)
            .collect();
        let (clean, dirty, total) = (room.plates_clean, room.plates_dirty, room.level.props.plates);
        let (items, lost) = (self.plates.len() as u32, self.plates_lost);
        if clean as u64 + items as u64 + dirty as u64 + lost as u64 != total as u64 {
            return Err(Drift::Plates { clean, items, dirty, lost, total });
        }
        let c = &room.counters;
        if self.score != room.score {
            return Err(Drift::Score { expected: self.score, actual: room.score });
        }
        if self.served != c.served {
            return Err(Drift::Served { expected: self.served, actual: c.served });
        }
        if self.missed != c.missed {
            return Err(Drift::Missed { expected: self.missed, actual: c.missed });
        }
        if self.trashed != c.trashed {
            return Err(Drift::Trashed { expected: self.trashed, actual: c.trashed });
        }
        for cook in &room.cooks {
            let expected = self.cook_scores.get(&cook.seat).copied().unwrap_or(0);
            if expected != cook.score {
                return Err(Drift::CookScore { seat: cook.seat, expected, actual: cook.score });
            }
        }
        Ok(())
    }

    /// Survival's clock rebuilt: the start, each `Clock` event's delta (its `time_left` must be
    /// the result), then the tick stage 7 spends unless the round was already decided; the
    /// tallies are the events' sums, and a decided round has its length.
    fn check_clock(&mut self, room: &Room) -> Result<(), Drift> {
        let Some(s) = room.survival else { return Ok(()) };
        let (mut left, mut added, mut taken) = self.clock.unwrap_or((SURVIVAL_START_TICKS, 0, 0));
        let drift = |what, expected, actual| Err(Drift::Clock { what, expected, actual });
        for event in &room.events {
            if let SimEvent::Clock { delta, time_left } = *event {
                let step = delta.unsigned_abs();
                if delta >= 0 {
                    left = left.saturating_add(step);
                    added += step;
                } else {
                    left = left.saturating_sub(step);
                    taken += step;
                }
                if left != time_left || left > SURVIVAL_CAP_TICKS {
                    return drift("Clock event time_left", left, time_left);
                }
            }
        }
        if !self.decided {
            left = left.saturating_sub(1);
        }
        self.clock = Some((left, added, taken));
        if left != room.time_left {
            return drift("time_left", left, room.time_left);
        }
        if (added, taken) != (s.added, s.taken) {
            let (what, e, a) = if added != s.added {
                ("added", added, s.added)
            } else {
                ("taken", taken, s.taken)
            };
            return drift(what, e, a);
        }
        if room.result.is_some() && s.survived == 0 {
            return drift("survived at the verdict", room.tick, 0);
        }
        Ok(())
    }
}
