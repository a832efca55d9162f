//! The replay core: a room stepped from the log its gate admitted. Written once for every
//! reader of such a log — a hosted round's bundle (`bundle.rs`), the live proof
//! (`net::server::rooms::replay_live`), the fuzz corpus' sample bundle — so they all queue
//! each frame at the same point. Imports only the rules.

use crate::sim::ids::Seat;
use crate::sim::input::InputFrame;
use crate::sim::room::Room;
use crate::sim::step_room;

/// One entry of an admitted log, as [`crate::sim::input::InputQueue::log`] keeps it: (the
/// room's tick when the gate admitted it, seat, the frame as the gate stamped it).
pub type AdmittedFrame = (u32, Seat, InputFrame);

/// Steps `room` from its tick up to tick `upto`. Before each tick `t`, every frame admitted at
/// `t` is queued as stamped, in log order (the order the gate admitted them), which is
/// exactly what the live room's queue held when it stepped `t`; frames admitted before the
/// room's tick are skipped. `after` sees the room after each step (a recorder's hook).
///
/// The log is read in its order: a frame listed after a later tick's frames is never queued,
/// as a live gate never writes one.
pub fn run_admitted(
    room: &mut Room,
    log: &[AdmittedFrame],
    upto: u32,
    mut after: impl FnMut(&Room),
) {
    let start = room.tick;
    let mut next = log.iter().skip_while(|(at, _, _)| *at < start).peekable();
    for t in start..upto {
        while let Some((_, seat, frame)) = next.next_if(|(at, _, _)| *at == t) {
            room.inputs.queue_stamped(*seat, *frame);
        }
        step_room(room);
        after(room);
    }
}
