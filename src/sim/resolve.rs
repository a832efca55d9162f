//! Stage 1, input resolve: one frame per seat per tick, chosen the same way on every machine,
//! turning a room's [`InputQueue`](super::input::InputQueue) into each cook's
//! [`ResolvedInput`].

use super::events::{InputError, SimEvent};
use super::ids::Seat;
use super::input::{QueuedFrame, ResolvedInput};
use super::room::Room;
use super::units::clamp_move;
use smallvec::SmallVec;

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
                    dash: q.frame.dash,
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
