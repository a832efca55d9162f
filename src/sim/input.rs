//! Stage 1, input resolve: one frame per seat per tick, chosen the same way on every machine.
//!
//! The network, the local keyboard, the bots and the replay harness all write a room's
//! [`InputQueue`] and nothing else; this stage turns it into each cook's [`ResolvedInput`].

use super::events::{InputError, SimEvent};
use super::kinds::Dir4;
use super::room::{Room, Seat};
use super::units::clamp_move;
use serde::{Deserialize, Serialize};
use smallvec::SmallVec;

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
}

/// A frame waiting in a room's queue, with its arrival order (the last tie-break).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueuedFrame {
    pub seat: Seat,
    pub frame: InputFrame,
    pub arrival: u64,
}

/// A room's pending frames.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InputQueue {
    pub frames: Vec<QueuedFrame>,
    next_arrival: u64,
}

impl InputQueue {
    /// Queue a frame; it is resolved on the first tick ≥ `frame.tick`.
    pub fn push(&mut self, seat: Seat, frame: InputFrame) {
        let arrival = self.next_arrival;
        self.next_arrival += 1;
        self.frames.push(QueuedFrame { seat, frame, arrival });
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
    pub rank: Option<(u32, u32)>,
}

/// Resolve the due frames of a room: per seat, the earliest tick, then the lowest seq, then the
/// first seen. Every due frame is consumed; frames for later ticks wait. A due frame for a seat
/// with no cook is one `InputRejected` event.
pub fn resolve_room_inputs(room: &mut Room) {
    let now = room.tick;
    for cook in &mut room.cooks {
        cook.input = ResolvedInput::default();
    }
    if room.inputs.frames.is_empty() {
        return;
    }
    let mut due: SmallVec<[QueuedFrame; 8]> = SmallVec::new();
    room.inputs.frames.retain(|q| {
        if q.frame.tick <= now {
            due.push(*q);
            false
        } else {
            true
        }
    });
    due.sort_by_key(|q| (q.seat, q.frame.tick, q.frame.seq, q.arrival));
    let mut last_seat: Option<Seat> = None;
    for q in due {
        if last_seat == Some(q.seat) {
            continue;
        }
        last_seat = Some(q.seat);
        match room.cook_index(q.seat) {
            Some(c) => {
                room.cooks[c].input = ResolvedInput {
                    mv: clamp_move(q.frame.mv.0 as i32, q.frame.mv.1 as i32),
                    action: q.frame.action,
                    face: q.frame.face,
                    rank: Some((q.frame.tick, q.frame.seq)),
                };
            }
            None => room.events.push(SimEvent::InputRejected {
                seat: q.seat,
                seq: q.frame.seq,
                reason: InputError::UnknownSeat,
            }),
        }
    }
}
