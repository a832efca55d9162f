//! Your own cook, predicted: the client runs the sim's own input resolve and movement stage
//! (the same integer functions, `sim::input` and `sim::movement`, not a copy) on the round as
//! the views last showed it, replaying the frames the server has not simulated yet, so the
//! cook answers a press at once while the server stays the authority. When an authoritative
//! tick arrives the prediction is rebuilt from it (reconciliation), and the difference from
//! what was drawn becomes an offset that fades over a few frames instead of a snap.
//!
//! Only the cook's motion is shown from the prediction: station actions (picks, chops, serves)
//! stay authoritative and are drawn from the views.
//! Other cooks are not in the prediction (they are drawn from the views, interpolated).

use crate::bot::remote::{RemoteBotError, Views, compile_round, snapshot};
use crate::net::client::seen::{SeenRound, with_views};
use crate::net::client::uplink::{Uplink, push_sample};
use crate::protocol::{PackedInput, RoundSource};
use crate::sim::action::gate_room_actions;
use crate::sim::ids::Seat;
use crate::sim::input::InputFrame;
use crate::sim::kitchen::Level;
use crate::sim::movement::move_room_cooks;
use crate::sim::recipe_book::RecipeBook;
use crate::sim::resolve::resolve_room_inputs;
use crate::sim::room::Room;
use crate::sim::units::TILE;
use crate::sim::v2::V2;
use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;

/// How long a correction takes to fade to a tenth (the drawn cook glides, never jumps).
const SMOOTHING: Duration = Duration::from_millis(100);
/// Predicted positions remembered, by tick, to compare with the authoritative ones.
const PATH_KEEP: usize = 64;

/// What reconciliation found, for the F3 overlay and `bench net`.
#[derive(Clone, Debug, Default)]
pub struct PredictStats {
    /// Rebuilds from an authoritative tick.
    pub reconciles: u64,
    /// Rebuilds that moved the newest prediction, and the newest sizes (tiles).
    pub corrected: u64,
    pub corrections: Vec<f64>,
    /// |predicted − authoritative| at each authoritative tick whose prediction the server's
    /// acks confirm was made from the frames it applied, each at its own tick (tiles): the same
    /// inputs through the same integer code give the same position, so these are zero unless
    /// something else (another cook, a hazard) touched the cook.
    pub errors: Vec<f64>,
    /// Comparisons left out of `errors`: one of the frames predicted was applied late or not
    /// at all, or its ack never came.
    pub spoilt: u64,
    /// Per stick press (the stick leaving centre): predicted ticks until the cook moved (0:
    /// the press's own tick, drawn in the same display frame it was sent in).
    pub press_to_move_ticks: Vec<u32>,
}

impl std::fmt::Debug for Predictor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Predictor")
            .field("seat", &self.seat)
            .field("next_tick", &self.next_tick())
            .field("stats", &self.stats)
            .field("error", &self.error)
            .finish()
    }
}

/// The round a prediction runs on.
struct Round {
    key: u64,
    level: Arc<Level>,
    book: Arc<RecipeBook>,
}

/// One seat's prediction.
pub struct Predictor {
    seat: Seat,
    round: Option<Round>,
    /// The predicted room after the newest frame (its `tick` is the next to predict).
    current: Option<Room>,
    /// Own cook's predicted position after each predicted tick, keyed by the room tick after
    /// it (as `RoomClock.tick` would show it), with the authoritative tick it was predicted
    /// from.
    path: VecDeque<(u32, V2, u32)>,
    /// The authoritative tick the current prediction started from.
    base: u32,
    /// The drawn offset still fading out (µtiles), and when it was last decayed.
    offset: (f64, f64),
    decayed_at: Option<Duration>,
    /// Comparisons (tick, tiles, the tick their prediction started from) waiting for the acks
    /// to say whether the frames predicted were applied as predicted.
    unsettled: VecDeque<(u32, f64, u32)>,
    /// The stick of the last frame extended, and a stick press not yet seen moving the cook.
    last_mv: (i16, i16),
    move_press: Option<(u32, Option<V2>)>,
    pub stats: PredictStats,
    /// Why the last rebuild failed, if it did (the cook is then drawn from the views).
    pub error: Option<RemoteBotError>,
}

impl Predictor {
    pub fn new(seat: Seat) -> Predictor {
        Predictor {
            seat,
            round: None,
            current: None,
            path: VecDeque::new(),
            base: 0,
            offset: (0.0, 0.0),
            decayed_at: None,
            unsettled: VecDeque::new(),
            last_mv: (0, 0),
            move_press: None,
            stats: PredictStats::default(),
            error: None,
        }
    }

    /// An authoritative tick arrived (`views.clock.tick` is the room's next tick): compare the
    /// prediction for it (sorted later against `link`'s late reports, see `settle`), rebuild
    /// from it, and replay `frames` (tick, controls) of this seat stamped for that tick or
    /// later, in tick order.
    pub fn reconcile(
        &mut self,
        key: u64,
        source: &RoundSource,
        views: &Views,
        frames: &[(u32, PackedInput)],
        link: &Uplink,
    ) {
        let tick = views.clock.tick;
        self.settle(link);
        if let Some(actual) =
            views.cooks.iter().find(|(c, _)| c.seat == self.seat).map(|(_, m)| m.pos)
            && let Some(entry) = self.path.iter().find(|(t, _, _)| *t == tick)
        {
            let (_, predicted, base) = *entry;
            self.unsettled.push_back((
                tick,
                tiles(predicted.x - actual.0, predicted.y - actual.1),
                base,
            ));
        }
        let before = self.newest();
        match self.rebuild(key, source, views, frames) {
            Ok(()) => self.error = None,
            Err(e) => {
                self.error = Some(e);
                self.current = None;
                self.path.clear();
                return;
            }
        }
        self.stats.reconciles += 1;
        if let (Some(old), Some(new)) = (before, self.newest())
            && old != new
        {
            self.stats.corrected += 1;
            push_sample(&mut self.stats.corrections, tiles(old.x - new.x, old.y - new.y));
            self.offset.0 += (old.x - new.x) as f64;
            self.offset.1 += (old.y - new.y) as f64;
        }
    }

    /// Sorts the comparisons the acks can judge: those whose predicted frames were all applied
    /// at their own ticks count, the rest are spoilt. (The view of a tick can arrive before
    /// the acks of the ticks behind it: they travel on different channels.)
    fn settle(&mut self, link: &Uplink) {
        let Some(acked) = link.acked_tick() else { return };
        while let Some(&(tick, error, base)) = self.unsettled.front() {
            let verdict = link.applied_on_time(base, tick);
            // Wait for the acks of those ticks; give up on one that never came after a second.
            if verdict.is_none() && tick + 20 > acked {
                break;
            }
            self.unsettled.pop_front();
            if verdict == Some(true) {
                push_sample(&mut self.stats.errors, error);
            } else {
                self.stats.spoilt += 1;
            }
        }
    }

    fn rebuild(
        &mut self,
        key: u64,
        source: &RoundSource,
        views: &Views,
        frames: &[(u32, PackedInput)],
    ) -> Result<(), RemoteBotError> {
        if self.round.as_ref().is_none_or(|r| r.key != key) {
            let (level, book) = compile_round(source)?;
            self.round = Some(Round { key, level, book });
            self.path.clear();
            self.offset = (0.0, 0.0);
        }
        let Some(round) = self.round.as_ref() else { return Ok(()) };
        let mut room = snapshot(&round.level, &round.book, views)?;
        room.events.clear();
        // This cook alone: the others' views are half a round trip old and their inputs
        // unknown; measured with four bot players at 100 ms (`bench net`), predicting them
        // (standing or dead-reckoned) made corrections more frequent and larger (4.7/s, mean
        // 0.087 tile) than leaving them out (2.6/s, 0.051): a bump is corrected either way.
        // A cook standing still (at a board, a sink, a pass) is kept where it stands: it will
        // most likely still be there for the few ticks ahead, and walking into it is the bump
        // to foresee.
        room.cooks.retain(|c| c.seat == self.seat || c.vel == V2::ZERO);
        let from = room.tick;
        self.path.retain(|(t, _, _)| *t <= from);
        self.base = from;
        self.current = Some(room);
        for &(tick, controls) in frames.iter().filter(|(t, _)| *t >= from) {
            self.step(tick, controls);
        }
        Ok(())
    }

    /// Predicts every frame `link` has sent since the prediction's newest tick (the frames
    /// just sent), on top of the newest prediction.
    pub fn catch_up(&mut self, link: &Uplink) {
        let Some(next) = self.next_tick() else { return };
        for (tick, controls) in link.sent_from(next) {
            self.extend(tick, controls);
        }
    }

    /// A frame was just sent: predict its tick on top of the newest prediction.
    pub fn extend(&mut self, tick: u32, controls: PackedInput) {
        let pressed = controls.mv != (0, 0) && self.last_mv == (0, 0);
        self.last_mv = controls.mv;
        if pressed {
            self.move_press = Some((tick, self.newest()));
        }
        self.step(tick, controls);
        if let Some((at, before)) = self.move_press
            && let Some(now) = self.newest()
        {
            if Some(now) != before {
                push_sample(&mut self.stats.press_to_move_ticks, tick.saturating_sub(at));
                self.move_press = None;
            } else if tick > at + 1 {
                // Pushed into a counter or a wall: there is no move to show.
                self.move_press = None;
            }
        }
    }

    fn step(&mut self, tick: u32, controls: PackedInput) {
        let seat = self.seat;
        let Some(room) = self.current.as_mut() else { return };
        // Ticks with no frame of ours (a gap in what was sent) are stepped with no input.
        while room.tick < tick {
            advance(room);
            push_path(&mut self.path, room, seat, self.base);
        }
        if room.tick > tick {
            return;
        }
        let frame = InputFrame {
            seq: 0,
            tick,
            mv: controls.mv,
            action: controls.action,
            face: controls.face,
            dash: controls.dash,
        };
        room.inputs.queue_stamped(seat, frame);
        advance(room);
        push_path(&mut self.path, room, seat, self.base);
    }

    /// The next tick the prediction would step (None without a prediction).
    pub fn next_tick(&self) -> Option<u32> {
        self.current.as_ref().map(|r| r.tick)
    }

    /// The newest predicted position of the cook (µtiles).
    pub fn newest(&self) -> Option<V2> {
        self.path.back().map(|(_, p, _)| *p)
    }

    /// Where to draw the cook at `now` (µtiles, the fading correction added), or None when
    /// there is no prediction (draw the views).
    pub fn drawn(&mut self, now: Duration) -> Option<(f64, f64)> {
        let dt = self.decayed_at.map_or(Duration::ZERO, |t| now.saturating_sub(t));
        self.decayed_at = Some(now);
        // A tenth left after SMOOTHING.
        let keep = 0.1f64.powf(dt.as_secs_f64() / SMOOTHING.as_secs_f64());
        self.offset = (self.offset.0 * keep, self.offset.1 * keep);
        let p = self.newest()?;
        Some((p.x as f64 + self.offset.0, p.y as f64 + self.offset.1))
    }
}

/// One predicted tick: stages 1–3 of the sim (input resolve, the action gate, movement),
/// then the clock. The gate runs because it holds a cook still (a chop, a wash, a spray) and
/// turns it; what it does to fixtures and items is thrown away with the predicted room at the
/// next authoritative tick. The later stages are the server's to run.
fn advance(room: &mut Room) {
    resolve_room_inputs(room);
    gate_room_actions(room);
    move_room_cooks(room);
    room.events.clear();
    room.tick += 1;
}

fn push_path(path: &mut VecDeque<(u32, V2, u32)>, room: &Room, seat: Seat, base: u32) {
    if let Some(c) = room.cook_index(seat) {
        path.push_back((room.tick, room.cooks[c].pos, base));
        if path.len() > PATH_KEEP {
            path.pop_front();
        }
    }
}

fn tiles(dx: i32, dy: i32) -> f64 {
    ((dx as f64).powi(2) + (dy as f64).powi(2)).sqrt() / TILE as f64
}

/// Rebuilds `predictor` from the round as the client sees it now (its newest authoritative
/// tick), replaying the frames `link` sent for that tick and later. Nothing happens before
/// the round's grid and sources have arrived.
pub fn reconcile_seen(predictor: &mut Predictor, link: &Uplink, seen: &SeenRound) {
    let Some((room, clock, view, Some(grid))) = seen.rooms.iter().next() else { return };
    let Ok(source) = seen.sources.get(room) else { return };
    let frames = link.sent_from(clock.tick);
    with_views(seen, room, *clock, view, grid, &[], |views| {
        predictor.reconcile(room.to_bits(), source, views, &frames, link);
    });
}
