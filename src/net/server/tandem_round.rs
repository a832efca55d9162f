//! A hosted room's Tandem round (docs/TANDEM.md, "Online"): a `TandemRoom` on the round's
//! entity, stepped at the mode's 24 Hz on its own accumulator in the server's clock (ticks are
//! counted; the orders decide the run, so it stays the deterministic function of them), each
//! seat's order from its player's [`TandemOrder`] messages or, for a seat nobody took, the
//! porter's (seed 003's no-show rule). The run's view is replicated to the room every tick it
//! moves ([`TandemLive`]), and each tick's facts a player hears or sees go to the room's
//! clients as a [`TandemEvents`] message (as the kitchen's `TickEvents`); its end writes one line to the results log the kitchen's rounds use
//! ([`end_tandem_round`], the one place a Tandem round ends) and the lobby returns.

use crate::net::server::hosted::{
    HostedRoom, RoomPolicy, RoundFaults, RoundOf, to_results, unix_ms,
};
use crate::net::server::inputs::{FrameTally, InputLinks, finish_batch, seat_of_slot};
use crate::net::server::peer::Peer;
use crate::net::server::records::{BundleWriter, ResultsLog};
use crate::protocol::LobbyPhase;
use crate::protocol::tandem::{
    Carrier, TANDEM_SEATS, TandemEvents, TandemLive, TandemOrder, TandemRoundInfo,
};
use crate::tandem::control::{Seat, SeatOrder};
use crate::tandem::porter::Porter;
use crate::tandem::recorder::TandemRecorder;
use crate::tandem::room::{TICK_HZ, TandemRoom, TurnTicks};
use bevy::prelude::*;
use bevy_replicon::prelude::*;
use serde_json::json;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::{Duration, Instant};

/// One Tandem tick of real time.
pub const TANDEM_TICK: Duration = Duration::from_nanos(1_000_000_000 / TICK_HZ as u64);
/// Ticks one server frame may catch up at most (a stalled host does not fast-forward a run).
const MAX_CATCH_UP: u32 = 4;
/// How long an ended run stays up (its last view replicated) before the results screen.
pub const SETTLE: Duration = Duration::from_secs(2);

/// The live Tandem round of a hosted room, on its round entity beside the replicated
/// [`TandemRoundInfo`] and [`TandemLive`].
#[derive(Component, Debug)]
pub struct TandemRound {
    pub room: TandemRoom,
    /// By seat: the porter driving a seat nobody took when the round started.
    pub porters: [Option<Porter>; 2],
    /// Each player seat's newest order (held until a newer one arrives; HOLD while away).
    pub wanted: [SeatOrder; 2],
    /// The newest order seq taken per seat (older and repeated ones are dropped).
    pub last_seq: [Option<u32>; 2],
    /// The round's order log: both seats' orders as each tick was stepped (index = tick).
    /// `room.order_log` holds the installed changes only (a replay script's form).
    pub orders: Vec<[SeatOrder; 2]>,
    pub info: TandemRoundInfo,
    /// The run's replay bundle in the making (the kitchen's rounds keep a `ChainRecorder`).
    pub recorder: TandemRecorder,
    /// The facts of the ticks stepped since the room's clients were last sent them.
    pub outbox: Vec<TandemEvents>,
    /// Ticks whose facts were sent, and how many facts, this round (the tests' and a log's
    /// tally of what the clients should have heard).
    pub told: (u32, u32),
    /// Real time not yet stepped.
    carry: Duration,
    started: Instant,
    /// When the rules ended the run (the settle runs from here).
    ended_at: Option<Instant>,
}

impl TandemRound {
    /// A live-control run on the course of `seed`, the porter in every seat nobody carries;
    /// recorded for its bundle as round `number` of room `code`.
    pub fn new(seed: u64, carriers: [Carrier; 2], code: &str, number: u32) -> TandemRound {
        let room = TandemRoom::new(seed, TurnTicks::Live);
        let seats = (0..2u8)
            .map(|s| {
                let who = match &carriers[usize::from(s)] {
                    Carrier::Player(name) => format!("player {name}"),
                    Carrier::Porter => "porter".to_string(),
                };
                (s, who)
            })
            .collect();
        let recorder = TandemRecorder::start(&room, code, number, seats);
        let porters = std::array::from_fn(|s| {
            (carriers[s] == Carrier::Porter)
                .then(|| Porter::new(Seat::BOTH[s], &room.course, room.turn_ticks))
        });
        let info = TandemRoundInfo {
            seed,
            digest: room.course.digest,
            turn_ticks: room.turn_ticks,
            carriers,
        };
        TandemRound {
            room,
            porters,
            wanted: [SeatOrder::HOLD; 2],
            last_seq: [None; 2],
            orders: Vec::new(),
            info,
            recorder,
            outbox: Vec::new(),
            told: (0, 0),
            carry: Duration::ZERO,
            started: Instant::now(),
            ended_at: None,
        }
    }

    /// Steps every whole Tandem tick in `carry + dt` (at most [`MAX_CATCH_UP`]); `present` says
    /// which player seats have a connection (an away player's cog holds). `Err` when the rules
    /// or the porter panicked (the round is then stopped and recorded as a fault).
    pub fn advance(&mut self, dt: Duration, present: [bool; 2]) -> Result<u32, String> {
        self.carry = (self.carry + dt).min(TANDEM_TICK * MAX_CATCH_UP);
        let mut ran = 0;
        while self.carry >= TANDEM_TICK && self.room.outcome().is_none() {
            self.carry -= TANDEM_TICK;
            let (room, porters, wanted) = (&mut self.room, &mut self.porters, self.wanted);
            let stepped = catch_unwind(AssertUnwindSafe(|| {
                let orders: [SeatOrder; 2] = std::array::from_fn(|s| match &mut porters[s] {
                    Some(porter) => porter.order(room),
                    None if present[s] => wanted[s],
                    None => SeatOrder::HOLD,
                });
                room.step(orders).map(|_| orders)
            }));
            match stepped {
                Ok(Ok(orders)) => {
                    self.recorder.after_step(&self.room);
                    let tick = self.room.tick - 1;
                    self.outbox.extend(TandemEvents::of(tick, &self.room.events));
                    self.orders.push(orders);
                    ran += 1;
                }
                Ok(Err(_ended)) => break,
                Err(_) => return Err(format!("tandem step panicked at tick {}", self.room.tick)),
            }
        }
        if self.room.outcome().is_some() {
            self.ended_at.get_or_insert_with(Instant::now);
        }
        Ok(ran)
    }

    /// Why the round should end now, if it should: the rules ended it (after the settle), or
    /// it ran past the server's wall-clock limit.
    pub fn due_end(&self, wall_limit: Duration) -> Option<&'static str> {
        if self.ended_at.is_some_and(|t| t.elapsed() >= SETTLE) {
            Some("finished")
        } else if self.started.elapsed() >= wall_limit {
            Some("time limit")
        } else {
            None
        }
    }

    /// The round's result as the lobby and the results log carry it.
    pub fn payload(&self) -> serde_json::Value {
        let room = &self.room;
        let carriers: Vec<serde_json::Value> = (0..2)
            .map(|s| match &self.info.carriers[s] {
                Carrier::Player(name) => json!({"seat": s, "name": name, "porter": false}),
                Carrier::Porter => json!({"seat": s, "name": "Porter", "porter": true}),
            })
            .collect();
        json!({
            "mode": "tandem",
            "seed": self.info.seed,
            "course_digest": crate::replay::hex::hex(room.course.digest),
            "turn_ticks": room.turn_ticks,
            "outcome": room.outcome(),
            "score": room.score(),
            "ticks": room.tick,
            "damage": room.damage,
            "progress_permille": room.best_progress_permille,
            "doorways_passed": room.doorways_passed.count_ones(),
            "doorways": room.course.doorways.len(),
            "stats": room.stats,
            "carriers": carriers,
        })
    }
}

/// Starts `hosted`'s Tandem round on a fresh course: seats 0 and 1 carry, a seat nobody holds
/// goes to the porter; the room is in its round.
pub fn start_tandem_round(commands: &mut Commands, lobby: Entity, hosted: &mut HostedRoom) {
    // The course seed comes from the OS: the run is deterministic given it, and it is logged.
    let seed = u64::from_le_bytes(bevy_replicon_renet::netcode::generate_random_bytes());
    let carriers = TANDEM_SEATS.map(|s| match &hosted.seats[s as usize] {
        Some(slot) => Carrier::Player(slot.name.clone()),
        None => Carrier::Porter,
    });
    let round = TandemRound::new(seed, carriers, &hosted.code, hosted.rounds + 1);
    let (info, live) = (round.info.clone(), TandemLive(round.room.view()));
    let entity = commands.spawn((round, info, live, hosted.key, Replicated, RoundOf(lobby))).id();
    info!(room = %hosted.code, seed, "tandem round started");
    hosted.rounds += 1;
    hosted.bots.clear();
    hosted.round = Some(entity);
    hosted.round_started = Some(std::time::SystemTime::now());
    hosted.verdict_tick = None;
    hosted.phase = LobbyPhase::Round;
    hosted.countdown = 0;
}

/// The one place a Tandem round ends (finished, stopped at the wall-clock limit, an empty
/// room, a fault, shutdown): one fsynced line in the results log, the result on the lobby, the
/// round entity gone and the room on its results screen, and the run's replay bundle queued on
/// the writer's thread (`DATA_DIR/bundles/<code>-<n>.tandem-bundle.ron`, as kitchen rounds').
pub fn end_tandem_round(
    commands: &mut Commands,
    hosted: &mut HostedRoom,
    round: &TandemRound,
    reason: &str,
    log: &mut ResultsLog,
    bundles: &BundleWriter,
) {
    // A run the rules ended names its outcome; one stopped first names why ("time limit",
    // "empty", "fault: …", a shutdown's reason).
    let bundle = round.recorder.clone().finish(&round.room, reason);
    bundles.thread.write(Box::new(bundle));
    let payload = round.payload();
    let line = json!({
        "room": hosted.code,
        "mode": "tandem",
        "reason": reason,
        "started_at_ms": hosted.round_started.map(unix_ms),
        "ended_at_ms": unix_ms(std::time::SystemTime::now()),
        "final_hash": crate::replay::hex::hex(round.room.hash),
        "orders_installed": round.room.order_log.len(),
        "payload": payload,
    });
    match log.append(&line) {
        Ok(()) => {
            info!(room = %hosted.code, reason, outcome = ?round.room.outcome(), "tandem round recorded")
        }
        Err(e) => error!(room = %hosted.code, error = %e, "results.jsonl write failed"),
    }
    hosted.last_result = payload.to_string();
    to_results(commands, hosted);
}

/// Steps every live Tandem round and ends those that are done.
pub struct TandemRoundsPlugin;

impl Plugin for TandemRoundsPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Update, step_rounds);
    }
}

fn step_rounds(
    time: Res<Time>,
    mut commands: Commands,
    mut rounds: Query<(Entity, &mut TandemRound, &mut TandemLive, &RoundOf)>,
    mut lobbies: Query<&mut HostedRoom>,
    policy: Res<RoomPolicy>,
    mut log: ResMut<ResultsLog>,
    mut faults: ResMut<RoundFaults>,
    bundles: Res<BundleWriter>,
    mut out: MessageWriter<ToClients<TandemEvents>>,
) {
    for (entity, mut round, mut live, of) in &mut rounds {
        let Ok(mut hosted) = lobbies.get_mut(of.0) else { continue };
        if hosted.round != Some(entity) || hosted.phase != LobbyPhase::Round {
            continue;
        }
        let present = TANDEM_SEATS
            .map(|s| hosted.seats[s as usize].as_ref().is_some_and(|slot| slot.client.is_some()));
        let reason = match round.advance(time.delta(), present) {
            Ok(_) => round.due_end(policy.tandem_wall_limit).map(str::to_string),
            Err(fault) => {
                error!(room = %hosted.code, %fault, "tandem round aborted");
                faults.panics += 1;
                Some(format!("fault: {fault}"))
            }
        };
        if live.0.tick != round.room.tick {
            live.0 = round.room.view();
        }
        tell_clients(&mut round, &hosted, &mut out);
        if let Some(reason) = reason {
            end_tandem_round(&mut commands, &mut hosted, &round, &reason, &mut log, &bundles);
        }
    }
}

/// The facts of the ticks just stepped go to every client seated in the room (watchers too),
/// one message a tick that has any, as `connections::forward_tick_events` sends the kitchen's.
fn tell_clients(
    round: &mut TandemRound,
    hosted: &HostedRoom,
    out: &mut MessageWriter<ToClients<TandemEvents>>,
) {
    // A connection holding two seats (two players at one window) is told once.
    let clients = hosted.clients();
    for message in std::mem::take(&mut round.outbox) {
        round.told.0 += 1;
        round.told.1 += message.events.len() as u32;
        for &client in &clients {
            out.write(ToClients {
                targets: SendTargets::Single(ClientId::Client(client)),
                message: message.clone(),
            });
        }
    }
}

/// The gate for Tandem orders, beside the cooking gate and counted in the same links and tally:
/// a slot without a seat is `no_seat`, an order out of range `malformed` (refused by name,
/// [`crate::protocol::tandem::OrderRefusal`]), an order with no round to carry in (lobby,
/// results, a kitchen round, a watching seat, a seat the porter took) `no_round`, an old or
/// repeated seq `duplicate`; the rest is `admitted` and becomes the seat's order.
pub fn admit_orders(
    mut orders: MessageReader<FromClient<TandemOrder>>,
    mut peers: Query<(&Peer, &mut InputLinks)>,
    lobbies: Query<&HostedRoom>,
    mut rounds: Query<&mut TandemRound>,
    mut tally: ResMut<FrameTally>,
) {
    for FromClient { client_id, message } in orders.read() {
        let Some((peer, mut links)) = client_id.entity().and_then(|e| peers.get_mut(e).ok()) else {
            continue;
        };
        let Some(seat) = seat_of_slot(peer, &mut links, message.slot, &mut tally) else {
            continue;
        };
        let link = &mut links.0[message.slot as usize];
        let before = link.counts;
        let live = lobbies
            .get(peer.lobby)
            .ok()
            .filter(|h| h.phase == LobbyPhase::Round)
            .and_then(|h| h.round)
            .and_then(|r| rounds.get_mut(r).ok());
        let carried = (seat as usize) < 2;
        match (message.checked(), live) {
            (Err(refusal), _) => {
                debug!(room = %peer.code, seat, %refusal, "tandem order refused");
                link.counts.malformed += 1;
            }
            (Ok(_), Some(round)) if !carried || round.porters[seat as usize].is_some() => {
                link.counts.no_round += 1;
            }
            (Ok(_), None) => link.counts.no_round += 1,
            (Ok(order), Some(mut round)) => {
                let s = seat as usize;
                if round.last_seq[s].is_some_and(|last| message.seq <= last) {
                    link.counts.duplicate += 1;
                } else {
                    round.last_seq[s] = Some(message.seq);
                    round.wanted[s] = order;
                    link.counts.admitted += 1;
                }
            }
        }
        finish_batch(peer, seat, link, &before, &mut tally);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tandem::events::TandemEvent;

    #[test]
    fn a_round_steps_whole_ticks_of_real_time_and_logs_both_seats() {
        let mut round =
            TandemRound::new(2, [Carrier::Player("Ann".into()), Carrier::Porter], "ROOM", 1);
        round.wanted[0] = SeatOrder::from_stick(600, 0, false);
        assert_eq!(round.advance(TANDEM_TICK * 3 + TANDEM_TICK / 2, [true, false]), Ok(3));
        assert_eq!(round.advance(TANDEM_TICK / 2, [true, false]), Ok(1), "the carry is kept");
        assert_eq!(round.room.tick, 4);
        assert_eq!(round.orders.len(), 4);
        assert!(round.orders.iter().all(|o| o[0] == round.wanted[0]), "the player's order");
        // A stalled host catches up a few ticks, not the whole stall.
        assert_eq!(round.advance(Duration::from_secs(5), [true, false]), Ok(MAX_CATCH_UP));
        // An away player's cog holds.
        round.advance(TANDEM_TICK, [false, false]).unwrap();
        assert_eq!(round.orders.last().unwrap()[0], SeatOrder::HOLD);
        assert_eq!(round.payload()["carriers"][1]["porter"], true);
        assert_eq!(round.due_end(Duration::from_secs(3600)), None);
        assert_eq!(round.due_end(Duration::ZERO), Some("time limit"));
    }

    #[test]
    fn the_same_orders_make_the_same_run_whatever_the_frame_timing() {
        let porters = || TandemRound::new(5, [Carrier::Porter, Carrier::Porter], "ROOM", 1);
        let mut even = porters();
        for _ in 0..300 {
            even.advance(TANDEM_TICK, [false, false]).unwrap();
        }
        // 2.5 ticks, then half a tick: three ticks a pair of frames, bunched.
        let mut bunched = porters();
        for _ in 0..100 {
            bunched.advance(TANDEM_TICK * 2 + TANDEM_TICK / 2, [false, false]).unwrap();
            bunched.advance(TANDEM_TICK / 2, [false, false]).unwrap();
        }
        assert_eq!((even.room.tick, bunched.room.tick), (300, 300));
        assert_eq!(even.orders, bunched.orders);
        // The facts the clients are told: the same ticks however the frames fell, each a tick
        // the run stepped, a doorway passed among them.
        assert_eq!(even.outbox, bunched.outbox);
        assert!(even.outbox.windows(2).all(|w| w[0].tick < w[1].tick));
        let beats = even.outbox.iter().flat_map(|m| &m.events);
        assert!(
            beats.clone().any(|e| matches!(e, TandemEvent::DoorwayBeat { .. })),
            "{:?}",
            even.outbox
        );
        assert_eq!(even.room.hash, bunched.room.hash, "ticks are counted, frames never matter");
    }
}
