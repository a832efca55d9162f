//! Input frames and a room's queue of them: the gate that admits (or merges) a frame, and the
//! per-tick intent stage 1 resolves each cook's frame into (the stage itself is `resolve.rs`).
//!
//! The network, the local keyboard, the bots and the replay harness all write a room's
//! [`InputQueue`] and nothing else.

use super::ids::Seat;
use super::kinds::Dir4;
use serde::{Deserialize, Serialize};

/// One input frame for one seat, as every source produces it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct InputFrame {
    /// Sequence number (the tie-break after the tick; lower wins). Live sources number their own
    /// frames; a replay uses the frame's index in its script.
    pub seq: u32,
    /// The tick this frame is meant for.
    pub tick: u32,
    /// Stick, −1000..=1000 per axis (clamped again by the sim).
    pub mv: (i16, i16),
    /// The one action button, down or up.
    pub action: bool,
    /// An explicit facing (d-pad), which wins over the stick's.
    pub face: Option<Dir4>,
    /// The second button: dash, or throw while holding a raw or chopped ingredient. Absent in
    /// scripts and logs written before it existed, so it defaults to up.
    #[serde(default)]
    pub dash: bool,
}

/// A frame waiting in a room's queue, with its arrival order (the last tie-break).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueuedFrame {
    pub seat: Seat,
    pub frame: InputFrame,
    pub arrival: u64,
}

/// A room's pending frames, and the one gate every live source admits its frames through.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InputQueue {
    pub frames: Vec<QueuedFrame>,
    next_arrival: u64,
    /// The gate's arrival counter: the `seq` of the next admitted frame.
    next_seq: u32,
    /// Every admitted frame as `(room tick at admission, seat, frame)`, when recording: the
    /// log that replays a live round bit for bit.
    log: Option<Vec<(u32, Seat, InputFrame)>>,
}

/// What the gate did with a frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Admitted {
    /// The frame as it will be resolved: the gate's `seq`, the tick it is resolved on, and
    /// (when merged) the controls of both frames.
    pub frame: InputFrame,
    /// It was meant for a tick the room had already simulated: moved to the room's next tick
    /// instead of being thrown away.
    pub late: bool,
    /// The seat already had a frame queued for that tick (two late frames arriving together,
    /// or a late one meeting the on-time one): the two became one frame, the buttons held if
    /// either held them and the newer stick, so a press is never lost and time never stretches.
    pub merged: bool,
}

/// Why the gate refused a frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GateRefusal {
    /// Stamped more than the allowed window ahead of the room.
    #[error("more than {window} ticks ahead of the room")]
    TooFarAhead { window: u32 },
}

impl InputQueue {
    /// Queue a frame exactly as stamped, past the gate: no window, no late move, no merge, not
    /// logged. It is resolved on the first tick ≥ `frame.tick`, ranked by its own `seq` (then
    /// arrival). Callers that own the stamping use it: the gate itself once it has stamped a
    /// frame, replays of what a gate admitted (bundles, `replay::admitted`, scripts), a
    /// client's own prediction, and offline sources that number their own frames (random
    /// cooks, authored errands, the bench and soak rounds, the sim tests). A live peer's frame
    /// never does: it goes through [`InputQueue::admit`].
    pub fn queue_stamped(&mut self, seat: Seat, frame: InputFrame) {
        let arrival = self.next_arrival;
        self.next_arrival += 1;
        self.frames.push(QueuedFrame { seat, frame, arrival });
    }

    /// The one input gate (local players, hosted players, server and local bots, the bot
    /// harnesses): the frame's tick becomes `max(frame.tick, now)` (`now` is the room's next
    /// tick, so a late frame is applied at once instead of thrown away), its `seq` the room's
    /// arrival counter (no source wins an arbitration by its own numbering), and a second
    /// frame for the same seat and tick is merged into the first ([`Admitted::merged`]). The
    /// result is recorded in the log when recording and queued. `window` bounds how far
    /// ahead of the room a frame may be stamped.
    pub fn admit(
        &mut self,
        now: u32,
        seat: Seat,
        frame: InputFrame,
        window: u32,
    ) -> Result<Admitted, GateRefusal> {
        if frame.tick > now.saturating_add(window) {
            return Err(GateRefusal::TooFarAhead { window });
        }
        let tick = frame.tick.max(now);
        let late = tick > frame.tick;
        if let Some(q) = self.frames.iter_mut().find(|q| q.seat == seat && q.frame.tick == tick) {
            let merged = InputFrame {
                mv: frame.mv,
                action: q.frame.action || frame.action,
                face: frame.face.or(q.frame.face),
                dash: q.frame.dash || frame.dash,
                ..q.frame
            };
            q.frame = merged;
            if let Some(entry) = self.log.as_mut().and_then(|log| {
                log.iter_mut().rev().find(|(_, s, f)| *s == seat && f.seq == merged.seq)
            }) {
                entry.2 = merged;
            }
            return Ok(Admitted { frame: merged, late, merged: true });
        }
        let seq = self.next_seq;
        self.next_seq = self.next_seq.wrapping_add(1);
        let stamped = InputFrame { seq, tick, ..frame };
        if let Some(log) = self.log.as_mut() {
            log.push((now, seat, stamped));
        }
        self.queue_stamped(seat, stamped);
        Ok(Admitted { frame: stamped, late, merged: false })
    }

    /// Start keeping the admitted log (a hosted round's replay bundle reads it).
    pub fn record(&mut self) {
        self.log.get_or_insert_with(Vec::new);
    }

    /// The admitted log: `(room tick at admission, seat, frame)` in admission order.
    pub fn log(&self) -> &[(u32, Seat, InputFrame)] {
        self.log.as_deref().unwrap_or(&[])
    }

    pub fn len(&self) -> usize {
        self.frames.len()
    }

    pub fn is_empty(&self) -> bool {
        self.frames.is_empty()
    }
}

/// A cook's intent for the current tick. `rank` is the arbitration key (tick, seq); a cook that
/// sent no frame this tick has `rank: None` and never loses an arbitration it did not enter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ResolvedInput {
    /// Clamped stick, length ≤ 1000.
    pub mv: (i32, i32),
    pub action: bool,
    pub face: Option<Dir4>,
    /// The second button (dash / throw), down or up.
    pub dash: bool,
    pub rank: Option<(u32, u32)>,
}
