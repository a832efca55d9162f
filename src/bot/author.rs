//! Authoring scripts from errands: run scripted cooks through the kernel and write down the
//! frames they sent, so a golden's script is plain data anyone can read and edit.

use super::errand::{Errands, Intent};
use crate::replay::script::{InputScript, ScriptFrame};
use crate::sim::input::InputFrame;
use crate::sim::kitchen::Level;
use crate::sim::open::SeatSpec;
use crate::sim::recipe_book::RecipeBook;
use crate::sim::room::Room;
use crate::sim::step_room;
use std::sync::Arc;

/// What to author: where, with which seed, and each seat's errands (index = seat).
pub struct Authoring {
    pub name: String,
    /// The level reference the script will carry (an id or a path).
    pub level_ref: String,
    pub seed: u64,
    pub errands: Vec<Errands>,
    /// Ticks to keep running after the errands are done (or the round is decided).
    pub tail: u32,
    /// Hard stop.
    pub max_ticks: u32,
}

/// Run the errands and return the script of the frames they produced (consecutive identical
/// frames of a seat folded into one with `repeat`).
pub fn author(level: Arc<Level>, book: Arc<RecipeBook>, mut spec: Authoring) -> InputScript {
    let seats = spec.errands.len() as u8;
    let mut room = Room::new(level, book, spec.seed, &SeatSpec::numbered(seats));
    let mut frames: Vec<ScriptFrame> = Vec::new();
    let mut tail_left = spec.tail;
    while room.tick < spec.max_ticks {
        let tick = room.tick;
        let mut busy = false;
        for (seat, errands) in spec.errands.iter_mut().enumerate() {
            let seat = seat as u8;
            let Some(Intent { mv, action, face, dash }) = errands.next_intent(&room, seat) else {
                continue;
            };
            busy = true;
            let seq = frames.len() as u32;
            room.inputs.queue_stamped(seat, InputFrame { seq, tick, mv, action, face, dash });
            push_folded(&mut frames, ScriptFrame { tick, seat, mv, action, face, dash, repeat: 1 });
        }
        step_room(&mut room);
        if !busy || room.result.is_some() {
            if tail_left == 0 {
                break;
            }
            tail_left -= 1;
        }
    }
    InputScript {
        name: spec.name,
        level: spec.level_ref,
        seed: spec.seed,
        seats: Some(seats),
        record_every: 1,
        ticks: Some(room.tick),
        items: Vec::new(),
        frames,
        assist: Default::default(),
        survival: false,
    }
}

/// Append a frame, extending the seat's previous frame when it is the same input on the very
/// next tick.
fn push_folded(frames: &mut Vec<ScriptFrame>, f: ScriptFrame) {
    if let Some(prev) = frames.iter_mut().rev().find(|p| p.seat == f.seat)
        && prev.tick + prev.repeat == f.tick
        && (prev.mv, prev.action, prev.face, prev.dash) == (f.mv, f.action, f.face, f.dash)
    {
        prev.repeat += 1;
        return;
    }
    frames.push(f);
}
