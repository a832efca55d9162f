//! The server's input gate for the wire, and its answer: every `InputBatch` a seated client
//! sends is unpacked, its repeats dropped, its frames clamped and admitted through the room's
//! one gate (`InputQueue::admit`: a late frame is applied at the next tick, never refused),
//! and every tick each client gets an `InputAck` saying what arrived, how early, and what was
//! applied (docs/NETWORK.md, "Input over a real link").

use crate::clock::TICK;
use crate::net::server::hosted::{HostedRoom, RoundOf};
use crate::net::server::peer::Peer;
use crate::protocol::{InputAck, InputBatch, LobbyPhase, MAX_BATCH};
use crate::sim::input::{GateRefusal, InputFrame};
use crate::sim::room::Room;
use crate::sim::units::MOVE_UNIT;
use bevy::prelude::*;
use bevy_replicon::prelude::*;
use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// A frame may be stamped at most this many ticks ahead of the room (2 s): a client on a
/// 1.5 s round trip still fits, and a seat's queue stays bounded.
pub const TICK_WINDOW: u32 = 40;
/// At most this many new frames per seat are taken per room tick (one full batch: a client
/// catching up after a burst of loss sends that many at once); the rest are `flood`.
pub const MAX_FRAMES_PER_TICK: u32 = MAX_BATCH as u32;
/// How many admitted-but-not-applied frames a link remembers for its acks.
const AWAITING_CAP: usize = 4 * TICK_WINDOW as usize;

/// What became of one client's frames (or, in [`FrameTally`], of every client's).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct FrameCounts {
    /// Queued for the sim as a frame of its own (late ones included): one line of the round's
    /// admitted log each.
    pub admitted: u64,
    /// Admitted for a tick the room had already simulated: applied at the room's next tick.
    pub late: u64,
    /// Merged into a frame already queued for the same seat and tick (taken, not refused).
    pub merged: u64,
    /// Repeats of frames already received (every batch repeats the unacknowledged ones).
    pub duplicate: u64,
    /// Frames that never arrived: gaps in the seqs longer than the repeats covered.
    pub lost: u64,
    /// Admitted, but with the stick clamped to ±[`MOVE_UNIT`].
    pub clamped: u64,
    /// Refused: stamped more than [`TICK_WINDOW`] ticks ahead.
    pub future: u64,
    /// Refused: over [`MAX_FRAMES_PER_TICK`] new frames in one tick.
    pub flood: u64,
    /// Refused: no live round to play into (lobby, results, spectator seat).
    pub no_round: u64,
    /// Refused: a batch that does not unpack (too long, seqs or ticks below zero), counted
    /// once per batch.
    pub malformed: u64,
    /// Refused: a batch for a local slot the connection holds no seat for, counted once per
    /// batch (on the connection's first link).
    pub no_seat: u64,
}

impl FrameCounts {
    /// Frames refused (never reached a room).
    pub fn refused(&self) -> u64 {
        self.future + self.flood + self.no_round + self.malformed + self.no_seat
    }

    /// Adds what changed between `before` and `after` (one link's counters over one batch;
    /// from `FrameCounts::default()`, a whole link's).
    pub fn add_change(&mut self, before: &FrameCounts, after: &FrameCounts) {
        self.admitted += after.admitted - before.admitted;
        self.late += after.late - before.late;
        self.merged += after.merged - before.merged;
        self.duplicate += after.duplicate - before.duplicate;
        self.lost += after.lost - before.lost;
        self.clamped += after.clamped - before.clamped;
        self.future += after.future - before.future;
        self.flood += after.flood - before.flood;
        self.no_round += after.no_round - before.no_round;
        self.malformed += after.malformed - before.malformed;
        self.no_seat += after.no_seat - before.no_seat;
    }
}

/// Every input frame the gate saw, server-wide since start (a link's counts end with its
/// connection; metrics need totals that never go back).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FrameTally(pub FrameCounts);

/// One seated connection's input links, one per seat it holds (by local slot): beside its
/// [`Peer`].
#[derive(Component, Debug, Default)]
pub struct InputLinks(pub Vec<InputLink>);

impl InputLinks {
    /// One fresh link per seat.
    pub fn for_seats(seats: usize) -> InputLinks {
        InputLinks((0..seats.max(1)).map(|_| InputLink::default()).collect())
    }
}

/// What the gate did with every seated connection's frames, per seat, in seat order (the
/// bench's and the tests' reading of a server world).
pub fn seat_frame_counts(world: &mut World) -> Vec<(u8, FrameCounts)> {
    let mut q = world.query::<(&Peer, &InputLinks)>();
    let mut v: Vec<(u8, FrameCounts)> = q
        .iter(world)
        .flat_map(|(p, l)| p.seats.iter().zip(&l.0).map(|(s, l)| (*s, l.counts)))
        .collect();
    v.sort_by_key(|(s, _)| *s);
    v
}

/// What the gate did with one seat's frames.
#[derive(Debug, Default)]
pub struct InputLink {
    pub counts: FrameCounts,
    /// The newest client seq received, and when.
    last_seq: Option<u32>,
    received_at: Option<Instant>,
    /// How early that frame arrived (ms before its tick's step; negative: late).
    slack_ms: i16,
    /// Admitted frames not applied yet: (gate seq, client seq, tick), for the acks' `applied`.
    awaiting: VecDeque<(u32, u32, u32)>,
    /// The round the awaiting frames belong to.
    round: Option<Entity>,
    /// New frames taken during `tick_seen` (the flood bound).
    in_tick: u32,
    tick_seen: u32,
    last_log: Option<Instant>,
}

/// When the rooms last stepped: a frame's arrival slack is measured against the next step.
#[derive(Resource, Clone, Copy, Debug)]
pub struct LastStep(pub Instant);

impl Default for LastStep {
    fn default() -> Self {
        LastStep(Instant::now())
    }
}

/// The gate's world side: the tally, the step clock and the acks. [`admit_inputs`] itself is
/// placed by `connections::ServerNetPlugin`, in its chain after seating.
pub struct InputGatePlugin;

impl Plugin for InputGatePlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<FrameTally>().init_resource::<LastStep>();
        app.add_systems(
            FixedPostUpdate,
            (note_step, send_acks.in_set(crate::schedule::TickSystems::Publish)),
        );
    }
}

fn note_step(mut last: ResMut<LastStep>) {
    last.0 = Instant::now();
}

/// Milliseconds from `now` until the step of `tick`, when the room's next tick is `next` and
/// the last step ran at `last_step` (negative: that step has run).
fn slack_ms(tick: u32, next: u32, last_step: Instant, now: Instant) -> i16 {
    let ahead = (tick as i64 - next as i64) * TICK.as_millis() as i64;
    let until_next =
        TICK.as_millis() as i64 - now.saturating_duration_since(last_step).as_millis() as i64;
    (ahead + until_next).clamp(i16::MIN as i64, i16::MAX as i64) as i16
}

/// The gate between the wire and the sim: seat from the connection, repeats dropped by seq,
/// the tick window, the flood bound, the clamped stick, then the room's own gate (which
/// stamps the server's `seq` and applies a late frame at the next tick). Every refusal is
/// counted on the link and logged (at most once a second per client).
pub fn admit_inputs(
    mut batches: MessageReader<FromClient<InputBatch>>,
    mut peers: Query<(&Peer, &mut InputLinks)>,
    lobbies: Query<&HostedRoom>,
    mut rounds: Query<&mut Room>,
    last_step: Res<LastStep>,
    mut tally: ResMut<FrameTally>,
) {
    let now = Instant::now();
    for FromClient { client_id, message } in batches.read() {
        let Some((peer, mut links)) = client_id.entity().and_then(|e| peers.get_mut(e).ok()) else {
            continue;
        };
        let slot = message.slot;
        let Some(seat) = seat_of_slot(peer, &mut links, slot, &mut tally) else { continue };
        let link = &mut links.0[slot as usize];
        let before = link.counts;
        let frames = match message.unpack() {
            Ok(frames) => frames,
            Err(_) => {
                link.counts.malformed += 1;
                finish_batch(peer, seat, link, &before, &mut tally);
                continue;
            }
        };
        // Only frames this link has not seen: every batch repeats the unacknowledged ones.
        let fresh: Vec<InputFrame> = frames
            .into_iter()
            .filter(|f| {
                let new = link.last_seq.is_none_or(|l| f.seq > l);
                if !new {
                    link.counts.duplicate += 1;
                }
                new
            })
            .collect();
        let Some(newest) = fresh.last().copied() else {
            finish_batch(peer, seat, link, &before, &mut tally);
            continue;
        };
        if let Some(l) = link.last_seq {
            link.counts.lost += (fresh[0].seq - l - 1) as u64;
        }
        link.last_seq = Some(newest.seq);
        link.received_at = Some(now);
        let live = lobbies
            .get(peer.lobby)
            .ok()
            .filter(|h| h.phase == LobbyPhase::Round)
            .and_then(|h| h.round)
            .and_then(|r| Some((r, rounds.get_mut(r).ok()?)));
        let Some((round, mut room)) = live.filter(|(_, room)| room.cook_index(seat).is_some())
        else {
            // No round, or seated after it began: a spectator until the next one.
            link.counts.no_round += fresh.len() as u64;
            finish_batch(peer, seat, link, &before, &mut tally);
            continue;
        };
        link.slack_ms = slack_ms(newest.tick, room.tick, last_step.0, now);
        if link.round != Some(round) {
            link.round = Some(round);
            link.awaiting.clear();
        }
        if link.tick_seen != room.tick {
            link.tick_seen = room.tick;
            link.in_tick = 0;
        }
        for frame in fresh {
            if link.in_tick >= MAX_FRAMES_PER_TICK {
                link.counts.flood += 1;
                continue;
            }
            link.in_tick += 1;
            let unit = MOVE_UNIT as i16;
            let mv = (frame.mv.0.clamp(-unit, unit), frame.mv.1.clamp(-unit, unit));
            if mv != frame.mv {
                link.counts.clamped += 1;
            }
            let now_tick = room.tick;
            match room.inputs.admit(now_tick, seat, InputFrame { mv, ..frame }, TICK_WINDOW) {
                Ok(a) => {
                    link.counts.late += a.late as u64;
                    if a.merged {
                        link.counts.merged += 1;
                        // The merged frame is applied under the first one's gate seq: its ack
                        // names the newer client seq.
                        if let Some(w) = link.awaiting.iter_mut().find(|w| w.0 == a.frame.seq) {
                            w.1 = frame.seq;
                        }
                    } else {
                        link.counts.admitted += 1;
                        if link.awaiting.len() >= AWAITING_CAP {
                            link.awaiting.pop_front();
                        }
                        link.awaiting.push_back((a.frame.seq, frame.seq, a.frame.tick));
                    }
                }
                Err(GateRefusal::TooFarAhead { .. }) => link.counts.future += 1,
            }
        }
        finish_batch(peer, seat, link, &before, &mut tally);
    }
}

/// The seat a message's `slot` names on this connection; a slot the token gave no seat is
/// named (`no_seat`), counted on the first link and dropped (`None`). Cooking frames and Tandem
/// orders share it.
pub(super) fn seat_of_slot(
    peer: &Peer,
    links: &mut InputLinks,
    slot: u8,
    tally: &mut FrameTally,
) -> Option<u8> {
    match peer.seat(slot) {
        Some(seat) if usize::from(slot) < links.0.len() => Some(seat),
        _ => {
            if let Some(link) = links.0.first_mut() {
                let before = link.counts;
                link.counts.no_seat += 1;
                finish_batch(peer, 0, link, &before, tally);
            }
            None
        }
    }
}

/// Adds a batch's counts to the tally and logs its refusals (at most once a second).
pub(super) fn finish_batch(
    peer: &Peer,
    seat: u8,
    link: &mut InputLink,
    before: &FrameCounts,
    tally: &mut FrameTally,
) {
    tally.0.add_change(before, &link.counts);
    if link.counts.refused() == before.refused() {
        return;
    }
    let now = Instant::now();
    if link.last_log.is_some_and(|t| now.duration_since(t) < Duration::from_secs(1)) {
        return;
    }
    link.last_log = Some(now);
    warn!(room = %peer.code, seat, counts = ?link.counts, "input frames refused");
}

/// After each tick, every seated client of every round gets its [`InputAck`]. (Not driven
/// by `RoomTick`, which the projection writes only for ticks with events.)
fn send_acks(
    rounds: Query<(&RoundOf, &Room)>,
    lobbies: Query<&HostedRoom>,
    mut links: Query<(&Peer, &mut InputLinks)>,
    mut out: MessageWriter<ToClients<InputAck>>,
) {
    let now = Instant::now();
    for (of, room) in &rounds {
        let Ok(hosted) = lobbies.get(of.0) else { continue };
        // One client may hold several seats: each connection once, each of its seats an ack.
        let mut clients: Vec<Entity> =
            hosted.seats.iter().flatten().filter_map(|s| s.client).collect();
        clients.sort();
        clients.dedup();
        for client in clients {
            let Ok((peer, mut links)) = links.get_mut(client) else { continue };
            for (slot, (seat, link)) in peer.seats.iter().zip(links.0.iter_mut()).enumerate() {
                let applied = room
                    .cook_index(*seat)
                    .and_then(|c| room.cooks[c].input.rank)
                    .and_then(|(_, gate_seq)| link.awaiting.iter().find(|w| w.0 == gate_seq))
                    .map(|w| w.1);
                // Frames for ticks simulated are applied (named or not): forget them.
                link.awaiting.retain(|w| w.2 >= room.tick);
                let held =
                    link.received_at.map_or(0, |r| now.saturating_duration_since(r).as_millis());
                out.write(ToClients {
                    targets: SendTargets::Single(ClientId::Client(client)),
                    message: InputAck {
                        slot: slot as u8,
                        tick: room.tick,
                        received: link.last_seq,
                        held_ms: held.min(u16::MAX as u128) as u16,
                        slack_ms: link.slack_ms,
                        applied,
                        late: link.counts.late.min(u32::MAX as u64) as u32,
                    },
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slack_counts_whole_ticks_and_the_time_to_the_next_step() {
        let step = Instant::now();
        let at = |ms| step + Duration::from_millis(ms);
        // The next tick, 20 ms after the last step: 30 ms early.
        assert_eq!(slack_ms(10, 10, step, at(20)), 30);
        // Two ticks further: 130 ms early.
        assert_eq!(slack_ms(12, 10, step, at(20)), 130);
        // A tick already simulated: late.
        assert_eq!(slack_ms(9, 10, step, at(20)), -20);
    }
}
