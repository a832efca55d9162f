//! The planner bot's team loop: reads a Room, picks an order, decomposes its recipe into
//! actions at fixtures (fetch, chop, cook, plate, serve, wash) and emits input frames — never
//! sim state. The choices themselves are `policy` (and `dish`); this file runs them per bot,
//! steps the action in progress and keeps the book on refusals, jams and back-off.
//!
//! The planner is receding-horizon: whenever a bot's current action ends (done, refused or
//! stuck) it looks at the kitchen as it is now and chooses the one next action. Nothing it
//! believes can go stale for long, which is what keeps a bot from stalling when a teammate,
//! the rail or the heat changes the kitchen under it. Every choice iterates stations, orders
//! and items by their stable ids and breaks ties by index, so a bot is a pure function of the
//! room's state and its own small memory.

use super::act::{Exec, Outcome, stand_spot};
use super::claims::ClaimTable;
use super::cook::{Bot, Job};
use super::errand::Intent;
use super::idle::idle_reason;
use super::jam::{gives_way_to, jam_rank};
use super::nav::Distances;
use super::policy::{give_way, is_helper, plan};
pub use super::tuning::BotTuning;
use crate::sim::events::{DeniedReason, DeniedWhy};
use crate::sim::ids::Seat;
use crate::sim::input::InputFrame;
use crate::sim::kinds::Dir4;
use crate::sim::room::Room;

/// A team of bots in one room, with the room's claim table.
#[derive(Clone, Debug)]
pub struct BotTeam {
    pub bots: Vec<Bot>,
    pub claims: ClaimTable,
    dist: Distances,
    /// Collect a line per plan change in `trace` (the `--trace` option).
    pub tracing: bool,
    pub trace: Vec<String>,
    /// Ticks from a frame to its outcome in the room the team reads: 1 when it reads the room
    /// it feeds; a remote bot reads replicated views that trail its frames (`bot::remote`).
    pub latency: u32,
    /// The planner's switches (throwing on or off).
    pub tuning: BotTuning,
}

impl BotTeam {
    /// Bots for these seats of `room` (seats without a cook are ignored).
    pub fn new(room: &Room, seats: &[Seat]) -> BotTeam {
        let mut seats: Vec<Seat> =
            seats.iter().copied().filter(|s| room.cook_index(*s).is_some()).collect();
        seats.sort_unstable();
        seats.dedup();
        BotTeam {
            bots: seats.into_iter().map(Bot::new).collect(),
            claims: ClaimTable::default(),
            dist: Distances::new(&room.level),
            tracing: false,
            trace: Vec::new(),
            latency: 1,
            tuning: BotTuning::default(),
        }
    }

    /// This tick's frame for every bot, in seat order. Reads the room only.
    pub fn frames(&mut self, room: &Room) -> Vec<(Seat, InputFrame)> {
        (0..self.bots.len())
            .map(|i| {
                let intent = self.think(i, room);
                let bot = &mut self.bots[i];
                bot.seq += 1;
                let frame = InputFrame {
                    seq: bot.seq,
                    tick: room.tick,
                    mv: intent.mv,
                    action: intent.action,
                    face: intent.face,
                    dash: intent.dash,
                };
                (bot.seat, frame)
            })
            .collect()
    }

    /// Admit this tick's frames through the room's input gate — the only thing a bot writes.
    pub fn drive(&mut self, room: &mut Room) {
        let now = room.tick;
        for (seat, frame) in self.frames(room) {
            // Stamped for `now`, so always inside the window.
            let _ = room.inputs.admit(now, seat, frame, 0);
        }
    }

    fn log(&mut self, tick: u32, seat: Seat, line: String) {
        if self.tracing {
            self.trace.push(format!("{tick:>5} bot{seat}: {line}"));
        }
    }

    fn think(&mut self, i: usize, room: &Room) -> Intent {
        let seat = self.bots[i].seat;
        if room.result.is_some() || room.cook_index(seat).is_none() {
            return Intent::default();
        }
        for _ in 0..4 {
            if self.bots[i].exec.is_none() {
                if self.bots[i].idle > 0 {
                    self.bots[i].idle -= 1;
                    self.bots[i].pressed_last = false;
                    return Intent::default();
                }
                let tuning = self.tuning;
                // Teammates' dishes: what a feeder across the water reads (`bot::feed`).
                let mates: Vec<(Seat, Job)> =
                    self.bots.iter().filter_map(|b| Some((b.seat, b.job.clone()?))).collect();
                let bot = &mut self.bots[i];
                let act = if std::mem::take(&mut bot.give_way) {
                    give_way(room, seat, &self.dist)
                        .or_else(|| plan(bot, room, &mut self.claims, &self.dist, tuning, &mates))
                } else {
                    plan(bot, room, &mut self.claims, &self.dist, tuning, &mates)
                };
                let label = act.as_ref().map_or_else(
                    || format!("idle: {}", idle_reason(room, &self.dist, seat, bot.job.as_ref())),
                    |a| a.label.clone(),
                );
                if label != self.bots[i].plan {
                    self.log(room.tick, seat, label.clone());
                    self.bots[i].plan = label;
                }
                match act {
                    Some(a) => {
                        self.bots[i].exec =
                            Some(Exec::with_latency(a, self.latency).dashing(self.tuning.dash));
                    }
                    None => {
                        self.bots[i].idle = 8;
                        continue;
                    }
                }
            }
            let bot = &mut self.bots[i];
            let Some(exec) = bot.exec.as_mut() else { continue };
            match exec.step(room, seat, bot.pressed_last) {
                Ok(intent) => {
                    bot.pressed_last = intent.action;
                    return intent;
                }
                Err(outcome) => {
                    bot.exec = None;
                    self.finish(i, room, outcome);
                }
            }
        }
        self.bots[i].pressed_last = false;
        Intent::default()
    }

    /// Book-keeping when an action ends: progress, refusals, back-off.
    fn finish(&mut self, i: usize, room: &Room, outcome: Outcome) {
        let seat = self.bots[i].seat;
        match outcome {
            Outcome::Done => {
                let bot = &mut self.bots[i];
                bot.fails = 0;
                bot.last_progress = room.tick;
                return;
            }
            Outcome::Denied(DeniedReason::NothingHere, Some(DeniedWhy::NoPlate)) => {
                self.bots[i].wash_plates = true;
            }
            _ => {}
        }
        let what = match outcome {
            Outcome::Denied(r, _) => format!("refused: {}", r.as_str()),
            _ => "stuck".to_string(),
        };
        self.log(room.tick, seat, what);
        // A jam with a lower seat close by (a head-on meeting in a one-tile corridor): the
        // higher seat gives way, so the pair never mirrors each other forever (in versus the
        // higher rank in its team, `jam::gives_way_to`).
        if outcome == Outcome::Stuck
            && let Some(me) = room.cook_index(seat)
        {
            let here = room.cooks[me].pos.cell();
            let near = |s: Seat| {
                room.cook_index(s).is_some_and(|c| {
                    let at = room.cooks[c].pos.cell();
                    (at.0 - here.0).abs() + (at.1 - here.1).abs() <= 2
                })
            };
            self.bots[i].give_way = room
                .cooks
                .iter()
                .any(|c| c.seat != seat && near(c.seat) && gives_way_to(room, seat, c.seat));
            // A helper (a cook past the kitchen's count, who takes no tickets) standing idle in
            // the way steps aside whatever its seat: it has nowhere to be.
            for j in 0..self.bots.len() {
                let other = &mut self.bots[j];
                if j != i && other.exec.is_none() && is_helper(room, other.seat) && near(other.seat)
                {
                    other.give_way = true;
                    other.idle = 0;
                }
            }
        }
        let bot = &mut self.bots[i];
        bot.fails += 1;
        // Back off a little (longer for higher seats — in versus, the higher rank in the team —
        // so two blocked bots desynchronise), and after repeated failures give the job up:
        // re-planning from scratch never stalls.
        bot.idle = 3 + 4 * jam_rank(room, seat) + 2 * bot.fails;
        if bot.fails >= 6 {
            bot.fails = 0;
            bot.job = None;
            self.claims.release_all(seat);
            self.log(room.tick, seat, "gave up the job".into());
        }
    }
}

/// Used by tests and the trace: where a bot would stand to work a fixture.
pub fn spot_for(room: &Room, seat: Seat, station: usize) -> Option<((i32, i32), Dir4)> {
    stand_spot(room, seat, station)
}
