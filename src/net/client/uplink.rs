//! The client's half of input over a real link, the same natively and in the browser: a clock
//! synced to the server's ticks, frames stamped for the tick at which they will arrive, every
//! unacknowledged frame repeated in each packet, and the measurements the F3 overlay and
//! `bench net` print (docs/NETWORK.md, "Input over a real link").
//!
//! Pure bookkeeping over times the caller passes in (a `Duration` since any fixed start), so
//! it runs the same under a real clock, a test's made-up one, and on wasm32. Client-side
//! timing only: nothing here reaches the simulation, which sees only the stamped frames.
//!
//! The model. Server time is measured in ms on the tick grid: the step of tick `k` happens at
//! `k × 50`. Each observation "the room's next tick is `k`" (a replicated `RoomClock`, or an
//! [`InputAck`]) leaves the server just after the step of `k − 1`, so `(k − 1) × 50 − received`
//! is the server's clock ahead of ours minus the trip down; the largest of the last two
//! seconds (the least delayed) is the offset. A frame for tick `T` must reach the server before
//! `T × 50`: the server reports each newest frame's `slack_ms`, from which the client learns
//! the transit (estimated server time at sending → arrival), and it sends frame `T` once its
//! estimate of the server clock plus the worst transit of the last two seconds plus a small
//! margin reaches `T × 50`: as late as possible, arriving just in time, with the jitter of the
//! last two seconds covered.

use crate::protocol::{InputAck, InputBatch, MAX_BATCH, PackedInput};
use crate::sim::input::InputFrame;
use std::collections::VecDeque;
use std::time::Duration;

/// One tick in ms.
const TICK_MS: f64 = 50.0;
/// How long the offset and transit samples are remembered.
const WINDOW: Duration = Duration::from_secs(2);
/// Aim for frames to arrive this long before their tick's step (the server reads its sockets
/// every 10 ms, so a frame can wait that long unread).
const TARGET_SLACK_MS: f64 = 10.0;
/// The round trip assumed before any is measured.
const FIRST_RTT_MS: f64 = 100.0;
/// Ticks whose application the acks reported, remembered (6 s).
const ON_TIME_KEEP: usize = 128;
/// Sent frames remembered for round trips and latencies (4 s of ticks).
const SENT_KEEP: usize = 80;

/// What one sent frame was, for the measurements its acks close.
#[derive(Clone, Copy, Debug)]
struct Sent {
    seq: u32,
    tick: u32,
    at: Duration,
    /// The estimated server time when it was sent (ms).
    server_ms: f64,
    /// It began a press (the button went down or the stick moved).
    press: bool,
    controls: PackedInput,
}

/// The link's numbers, as the overlay and `bench net` print them.
#[derive(Clone, Debug, Default)]
pub struct LinkStats {
    pub frames_sent: u64,
    /// Round trip, smoothed (ms), and its mean deviation (the jitter seen).
    pub rtt_ms: Option<f64>,
    pub jitter_ms: f64,
    /// Frames the server applied late, as its latest ack says.
    pub late: u32,
    /// Press (the button going down or the stick moving) → the server applying it, per press
    /// (ms): from the ack naming it applied, placed
    /// on the server's clock (`applied tick × 50`) and taken from the press's own estimated
    /// server time plus half the smallest round trip (the trip down the offset leaves out).
    pub press_to_applied_ms: Vec<f64>,
}

/// The client side of the input link.
#[derive(Clone, Debug, Default)]
pub struct Uplink {
    /// The local player slot this link sends for (its batches name it; acks for other slots
    /// of the same connection are not its own).
    slot: u8,
    next_seq: u32,
    /// The next tick a frame goes out for (None until the clock is known).
    next_tick: Option<u32>,
    /// Frames the server has not acknowledged receiving, oldest first.
    unacked: VecDeque<InputFrame>,
    sent: VecDeque<Sent>,
    /// (when observed, server clock ahead of ours in ms).
    offsets: VecDeque<(Duration, f64)>,
    /// (when learnt, arrival on the server's clock − departure on ours, ms) of the frames the
    /// server reported.
    transits: VecDeque<(Duration, f64)>,
    rtt_min: Option<f64>,
    last_received: Option<u32>,
    last_applied: Option<u32>,
    last_tick_seen: Option<u32>,
    /// Per simulated tick (as the acks reported it): was the frame this client stamped for it
    /// applied at it?
    on_time: VecDeque<(u32, bool)>,
    /// The newest tick an ack has reported.
    acked_tick: Option<u32>,
    /// The replicated clock's tick last followed.
    clock_tick: Option<u32>,
    /// The controls of the last frame sent (a change is a press).
    controls_were: PackedInput,
    pub stats: LinkStats,
}

impl Uplink {
    pub fn new() -> Uplink {
        Uplink::default()
    }

    /// The link of local player `slot` (a window seating several players on one connection
    /// keeps one per slot).
    pub fn for_slot(slot: u8) -> Uplink {
        Uplink { slot, ..Uplink::default() }
    }

    /// A new round (its ticks start again): the clock and the frames in flight are forgotten,
    /// the round trip is kept.
    pub fn reset_round(&mut self) {
        self.next_tick = None;
        self.unacked.clear();
        self.sent.clear();
        self.offsets.clear();
        self.transits.clear();
        self.last_tick_seen = None;
        self.last_applied = None;
        self.on_time.clear();
        self.acked_tick = None;
        self.clock_tick = None;
        self.controls_were = PackedInput::default();
    }

    /// What one client frame brought: the acks that arrived, then the room's replicated
    /// clock. Answers whether the clock shows a tick not seen before: a new authoritative
    /// state, for the prediction to rebuild from.
    pub fn follow<'a>(
        &mut self,
        now: Duration,
        acks: impl IntoIterator<Item = &'a InputAck>,
        tick: u32,
    ) -> bool {
        let slot = self.slot;
        for ack in acks.into_iter().filter(|a| a.slot == slot) {
            self.on_ack(now, ack);
        }
        if self.clock_tick == Some(tick) {
            return false;
        }
        self.clock_tick = Some(tick);
        self.observe_clock(now, tick);
        true
    }

    /// The room's next tick is `tick`, as seen at `now` (a replicated clock or an ack).
    pub fn observe_clock(&mut self, now: Duration, tick: u32) {
        if self.last_tick_seen.is_some_and(|t| tick + 2 * TICK_WINDOW_GUESS < t) {
            // The ticks went back: a new round.
            self.reset_round();
        }
        self.last_tick_seen = Some(self.last_tick_seen.map_or(tick, |t| t.max(tick)));
        let server_ms = (tick.saturating_sub(1)) as f64 * TICK_MS;
        self.offsets.push_back((now, server_ms - ms(now)));
        forget_before(&mut self.offsets, now);
    }

    /// The server's ack: the clock, the round trip, the arrival slack, what was applied.
    pub fn on_ack(&mut self, now: Duration, ack: &InputAck) {
        self.observe_clock(now, ack.tick);
        self.acked_tick = Some(self.acked_tick.map_or(ack.tick, |t| t.max(ack.tick)));
        self.stats.late = ack.late;
        if let Some(received) = ack.received {
            while self.unacked.front().is_some_and(|f| f.seq <= received) {
                self.unacked.pop_front();
            }
            if self.last_received.is_none_or(|r| received > r)
                && let Some(s) = self.sent.iter().find(|s| s.seq == received).copied()
            {
                self.last_received = Some(received);
                let rtt = (ms(now) - ms(s.at) - ack.held_ms as f64).max(0.0);
                self.note_rtt(rtt);
                // Where on the server's clock the frame arrived, against when (on ours) it
                // left: the clock offset and the trip up in one number, with no need to split
                // them (the offset alone moves as its samples age out; this does not).
                let arrival = s.tick as f64 * TICK_MS - ack.slack_ms as f64;
                self.transits.push_back((now, arrival - ms(s.at)));
            }
        }
        forget_before(&mut self.transits, now);
        let simulated = ack.tick.saturating_sub(1);
        if self.on_time.back().is_none_or(|(t, _)| *t < simulated) {
            let stamped =
                ack.applied.and_then(|a| self.sent.iter().find(|s| s.seq == a)).map(|s| s.tick);
            self.on_time.push_back((simulated, stamped == Some(simulated)));
            if self.on_time.len() > ON_TIME_KEEP {
                self.on_time.pop_front();
            }
        }
        if let Some(applied) = ack.applied
            && self.last_applied.is_none_or(|a| applied > a)
        {
            self.last_applied = Some(applied);
            let down = self.rtt_min.unwrap_or(FIRST_RTT_MS) / 2.0;
            for s in self.sent.iter_mut().filter(|s| s.seq <= applied && s.press) {
                // The named frame was applied at the tick just simulated; an earlier one
                // whose ack was lost, at its own tick (it was not reported late).
                let tick = if s.seq == applied { ack.tick.saturating_sub(1) } else { s.tick };
                let at_ms = tick as f64 * TICK_MS;
                let latency = (at_ms - s.server_ms - down).max(0.0);
                push_sample(&mut self.stats.press_to_applied_ms, latency);
                s.press = false;
            }
        }
    }

    fn note_rtt(&mut self, rtt: f64) {
        self.rtt_min = Some(self.rtt_min.map_or(rtt, |m| m.min(rtt)));
        match self.stats.rtt_ms {
            None => self.stats.rtt_ms = Some(rtt),
            Some(mean) => {
                // RFC 6298's smoothing: 1/8 for the mean, 1/4 for the deviation.
                self.stats.jitter_ms += ((rtt - mean).abs() - self.stats.jitter_ms) / 4.0;
                self.stats.rtt_ms = Some(mean + (rtt - mean) / 8.0);
            }
        }
    }

    /// The estimated server time at `now` (ms on the tick grid), once a clock was seen.
    pub fn server_ms(&self, now: Duration) -> Option<f64> {
        let offset = self.offsets.iter().map(|(_, o)| *o).reduce(f64::max)?;
        Some(ms(now) + offset)
    }

    /// Where on the server's clock a frame sent now would arrive, at the latest (ms): our
    /// clock plus the worst (clock offset + trip up) of the last two seconds, or before any
    /// was measured, the offset seen from the clock plus a round trip. None before any clock.
    fn arrival_ms(&self, now: Duration) -> Option<f64> {
        let at = match self.transits.iter().map(|(_, t)| *t).reduce(f64::max) {
            Some(worst) => ms(now) + worst,
            None => self.server_ms(now)? + self.stats.rtt_ms.unwrap_or(FIRST_RTT_MS),
        };
        // No margin for loss: a lost packet's frame comes a tick late in the next packet (the
        // repeats) and is applied a tick late, which costs that frame one tick; a margin
        // against it would cost every frame that tick.
        Some(at)
    }

    /// The input delay, in ticks: how far ahead of the server's current tick (as estimated
    /// from its clock) frames are stamped.
    pub fn input_delay_ticks(&self, now: Duration) -> f64 {
        match (self.arrival_ms(now), self.server_ms(now)) {
            (Some(arrival), Some(server)) => (arrival + TARGET_SLACK_MS - server) / TICK_MS,
            _ => 0.0,
        }
    }

    /// Sends every frame due at `now` (usually none or one; more after a stall or when the
    /// lead grew), each with the controls `controls` gives for its tick, and returns the
    /// batch to send: the due frames and every earlier one not acknowledged yet.
    pub fn send_due(
        &mut self,
        now: Duration,
        controls: impl FnMut(u32) -> PackedInput,
    ) -> Option<InputBatch> {
        self.send_until(now, false, controls)
    }

    /// Like [`Uplink::send_due`], but the next frame goes out now even if it is not due yet
    /// (at most one tick ahead of time): a press is on its way, and predicted, the moment it
    /// happens rather than at the next tick boundary. It arrives early and waits its tick.
    pub fn send_now(
        &mut self,
        now: Duration,
        controls: impl FnMut(u32) -> PackedInput,
    ) -> Option<InputBatch> {
        self.send_until(now, true, controls)
    }

    /// The controls of the newest frame sent.
    pub fn last_sent_controls(&self) -> Option<PackedInput> {
        self.sent.back().map(|s| s.controls)
    }

    fn send_until(
        &mut self,
        now: Duration,
        now_too: bool,
        mut controls: impl FnMut(u32) -> PackedInput,
    ) -> Option<InputBatch> {
        let server = self.server_ms(now)?;
        let (mut next, due_until) = self.due_range(now, now_too)?;
        let mut sent_any = false;
        while next <= due_until {
            let p = controls(next);
            let frame = InputFrame {
                seq: self.next_seq,
                tick: next,
                mv: p.mv,
                action: p.action,
                face: p.face,
                dash: p.dash,
            };
            // A press is anything the player did: the button going down, the stick moving.
            let press = (p.action && !self.controls_were.action) || p.mv != self.controls_were.mv;
            self.controls_were = p;
            self.sent.push_back(Sent {
                seq: frame.seq,
                tick: next,
                at: now,
                server_ms: server,
                press,
                controls: p,
            });
            if self.sent.len() > SENT_KEEP {
                self.sent.pop_front();
            }
            self.unacked.push_back(frame);
            if self.unacked.len() > MAX_BATCH {
                self.unacked.pop_front();
            }
            self.next_seq = self.next_seq.wrapping_add(1);
            self.stats.frames_sent += 1;
            next += 1;
            sent_any = true;
        }
        self.next_tick = Some(next);
        if !sent_any {
            return None;
        }
        InputBatch::pack(self.slot, self.unacked.make_contiguous())
    }

    /// The ticks whose frames [`Uplink::send_due`] would send at `now` (empty when none is
    /// due; None before the clock is known): what a planner fills in ahead of the send.
    pub fn due_ticks(&self, now: Duration) -> Option<std::ops::RangeInclusive<u32>> {
        self.server_ms(now)?;
        let (first, last) = self.due_range(now, false)?;
        Some(first..=last)
    }

    /// The first tick the next send stamps and the last one due at `now` (`now_too`: the next
    /// frame even if not due yet). The first is past the last when nothing is due.
    fn due_range(&self, now: Duration, now_too: bool) -> Option<(u32, u32)> {
        let horizon = self.arrival_ms(now)? + TARGET_SLACK_MS;
        let due = (horizon / TICK_MS).floor().max(0.0) as u32;
        // Sending now: the next frame, whether due or not (and no more than that).
        let due_until = if now_too { due.max(self.next_tick.unwrap_or(due)) } else { due };
        let next = match self.next_tick {
            // After a stall, frames older than a batch would only arrive late: skip them.
            Some(t) if t + MAX_BATCH as u32 > due_until => t,
            _ => due_until,
        };
        Some((next, due_until))
    }

    /// How long from `now` until the next frame is due (zero: now; None before the clock is
    /// known).
    pub fn until_due(&self, now: Duration) -> Option<Duration> {
        let horizon = self.arrival_ms(now)? + TARGET_SLACK_MS;
        let Some(next) = self.next_tick else { return Some(Duration::ZERO) };
        let wait = next as f64 * TICK_MS - horizon;
        Some(Duration::from_secs_f64(wait.max(0.0) / 1000.0))
    }

    /// The newest tick an ack has reported (None before the first ack of the round).
    pub fn acked_tick(&self) -> Option<u32> {
        self.acked_tick
    }

    /// Whether every tick in `from..to` applied the frame this client stamped for it (what a
    /// prediction across those ticks assumed): `Some(false)` when one did not (the frame came
    /// late or not at all), `None` while an ack for one of them is missing.
    pub fn applied_on_time(&self, from: u32, to: u32) -> Option<bool> {
        let mut all = true;
        for tick in from..to {
            match self.on_time.iter().find(|(t, _)| *t == tick) {
                Some((_, true)) => {}
                Some((_, false)) => return Some(false),
                None => all = false,
            }
        }
        all.then_some(true)
    }

    /// The frames sent for `tick` and later, in tick order, with their controls (what the
    /// prediction replays on top of an authoritative tick).
    pub fn sent_from(&self, tick: u32) -> Vec<(u32, PackedInput)> {
        self.sent.iter().filter(|s| s.tick >= tick).map(|s| (s.tick, s.controls)).collect()
    }

    /// Frames sent and not acknowledged yet.
    pub fn unacked(&self) -> usize {
        self.unacked.len()
    }
}

/// Ticks back that still count as the same round (a tick that far behind the newest seen
/// means the round restarted).
const TICK_WINDOW_GUESS: u32 = 20;

/// Samples a measurement keeps: the newest 4,096 (over three minutes of presses, ticks or
/// corrections), so a window left online for hours does not grow.
pub const SAMPLES_KEEP: usize = 4096;

/// Appends `x`, dropping the older half when [`SAMPLES_KEEP`] is reached.
pub fn push_sample<T>(samples: &mut Vec<T>, x: T) {
    if samples.len() >= SAMPLES_KEEP {
        samples.drain(..SAMPLES_KEEP / 2);
    }
    samples.push(x);
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn forget_before(samples: &mut VecDeque<(Duration, f64)>, now: Duration) {
    while samples.front().is_some_and(|(at, _)| now.saturating_sub(*at) > WINDOW) {
        samples.pop_front();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::rng::SplitMix64;
    use std::collections::BTreeMap;

    /// A link and a server, simulated millisecond by millisecond: one-way delay `delay_ms`
    /// ± `jitter_ms` (uniform), `loss_pct` of packets lost each way, the server stepping every
    /// 50 ms at a phase and clock of its own. Answers, over the last `measure_s` seconds:
    /// frames applied late, ticks with no frame applied, and the mean arrival slack (ms).
    fn run_link(
        delay_ms: u64,
        jitter_ms: u64,
        loss_pct: u64,
        seconds: u64,
        measure_s: u64,
    ) -> (u32, u32, f64) {
        let mut rng = SplitMix64::new(7);
        let trip = |rng: &mut SplitMix64| -> Option<u64> {
            if rng.next_u64() % 100 < loss_pct {
                return None;
            }
            let j = rng.next_u64() % (2 * jitter_ms + 1);
            Some(delay_ms - jitter_ms + j)
        };
        let mut up = Uplink::new();
        // Server time = client time + 987_654 ms + 17 ms of phase: unrelated clocks.
        let skew = 987_671u64;
        let mut to_server: BTreeMap<(u64, u32), InputBatch> = BTreeMap::new();
        let mut to_client: BTreeMap<(u64, u32), InputAck> = BTreeMap::new();
        let mut n = 0u32;
        let (mut newest, mut newest_at, mut newest_slack) = (None::<u32>, 0u64, 0i16);
        let mut queued: BTreeMap<u32, u32> = BTreeMap::new(); // tick -> client seq
        let (mut late, mut gaps, mut slack_sum, mut slack_n) = (0u32, 0u32, 0f64, 0u32);
        let mut late_total = 0u32;
        let measure_from = (seconds - measure_s) * 1000;
        for t in 0..seconds * 1000 {
            let server_t = t + skew;
            // The server: frames that arrived by now, then (on the grid) a step and its ack.
            while let Some(entry) = to_server.first_entry() {
                if entry.key().0 > t {
                    break;
                }
                let batch = entry.remove();
                // The next step is at or after now (a step due this millisecond runs after
                // the frames that arrived in it).
                let next_tick = server_t.div_ceil(50) as u32;
                for f in batch.unpack().unwrap() {
                    if newest.is_some_and(|s| f.seq <= s) {
                        continue;
                    }
                    newest = Some(f.seq);
                    newest_at = server_t;
                    newest_slack = (f.tick as i64 * 50 - server_t as i64) as i16;
                    let tick = f.tick.max(next_tick);
                    if tick > f.tick {
                        late_total += 1;
                        if t >= measure_from {
                            late += 1;
                        }
                    }
                    queued.entry(tick).or_insert(f.seq);
                    if t >= measure_from {
                        slack_sum += newest_slack as f64;
                        slack_n += 1;
                    }
                }
            }
            if server_t.is_multiple_of(50) {
                let k = (server_t / 50) as u32;
                let applied = queued.remove(&k);
                if applied.is_none() && t >= measure_from {
                    gaps += 1;
                }
                let ack = InputAck {
                    slot: 0,
                    tick: k + 1,
                    received: newest,
                    held_ms: (server_t - newest_at) as u16,
                    slack_ms: newest_slack,
                    applied,
                    late: late_total,
                };
                if let Some(d) = trip(&mut rng) {
                    n += 1;
                    to_client.insert((t + d, n), ack);
                }
            }
            // The client.
            let now = Duration::from_millis(t);
            while let Some(entry) = to_client.first_entry() {
                if entry.key().0 > t {
                    break;
                }
                let ack = entry.remove();
                up.on_ack(now, &ack);
            }
            if let Some(batch) = up.send_due(now, |_| PackedInput::default())
                && let Some(d) = trip(&mut rng)
            {
                n += 1;
                to_server.insert((t + d, n), batch);
            }
        }
        (late, gaps, slack_sum / slack_n.max(1) as f64)
    }

    #[test]
    fn at_200_ms_with_jitter_and_loss_only_lost_packets_frames_are_late() {
        // 20 s measured, 400 ticks, 5 % lost: a frame is late (by a tick, in the repeat) only
        // when its own packet was lost.
        let (late, gaps, slack) = run_link(100, 10, 5, 30, 20);
        assert!(late <= 40, "{late} late frames of 400");
        // A tick is empty only where its frame came late (give or take the window's edges).
        assert!(gaps <= late + 2, "{gaps} empty ticks, {late} late frames");
        // Just in time: within the margin and the jitter band, not a round trip early.
        assert!(slack > 0.0 && slack < 50.0, "mean arrival slack {slack} ms");
    }

    #[test]
    fn without_loss_no_frame_is_late_at_any_delay() {
        for (delay, jitter) in [(0, 0), (25, 5), (50, 5), (150, 15)] {
            let (late, gaps, slack) = run_link(delay, jitter, 0, 20, 10);
            assert_eq!((late, gaps), (0, 0), "delay {delay} ms: slack {slack}");
            assert!(slack < 40.0, "delay {delay} ms: mean arrival slack {slack} ms");
        }
    }

    #[test]
    fn at_300_ms_with_loss_only_lost_packets_frames_are_late() {
        let (late, _, slack) = run_link(150, 15, 2, 30, 20);
        assert!(late <= 16, "{late} late frames of 400 (slack {slack})");
    }

    #[test]
    fn a_batch_repeats_what_was_not_acknowledged_and_unpacks_to_the_frames_sent() {
        let mut up = Uplink::new();
        up.observe_clock(Duration::ZERO, 100);
        let mut last = None;
        for i in 0..10u64 {
            if let Some(b) = up.send_due(Duration::from_millis(i * 50), |t| PackedInput {
                mv: (t as i16, 0),
                action: t % 2 == 0,
                face: None,
                dash: false,
            }) {
                last = Some(b);
            }
        }
        let frames = last.expect("frames went out").unpack().unwrap();
        assert!(frames.len() >= 10, "nothing acknowledged, so every frame repeats");
        assert!(frames.windows(2).all(|w| w[1].seq == w[0].seq + 1 && w[1].tick == w[0].tick + 1));
        assert!(frames.iter().all(|f| f.mv.0 == f.tick as i16 && f.action == (f.tick % 2 == 0)));
        // An ack of the first five drops them from the next batch.
        let received = frames[4].seq;
        up.on_ack(
            Duration::from_millis(500),
            &InputAck { tick: 110, received: Some(received), ..Default::default() },
        );
        assert_eq!(up.unacked(), frames.len() - 5);
    }

    #[test]
    fn a_held_run_packs_to_one_count_and_unpacks_exactly() {
        let f = |seq, tick, mv| InputFrame { seq, tick, mv: (mv, 0), ..InputFrame::default() };
        // Oldest first: a frame, a gap of three ticks, a change, then a held stick.
        let frames =
            vec![f(1, 10, 5), f(2, 13, 7), f(3, 14, 9), f(4, 15, 9), f(5, 16, 9), f(6, 17, 9)];
        let b = InputBatch::pack(2, &frames).unwrap();
        assert_eq!((b.slot, b.held, b.older.len()), (2, 3, 2), "{b:?}");
        assert_eq!(b.unpack().unwrap(), frames);
        // A held run too long for a batch is refused whole, as a long batch is.
        let long = InputBatch { held: MAX_BATCH as u8, ..b };
        assert!(long.unpack().is_err());
    }
}
