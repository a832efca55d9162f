//! Table-driven tests of the kernel stages, mirroring the rulebook's "What proves it".
//!
//! They live under `level/`, not `sim/`, because they build their kitchens with level's sketch
//! grids and the shipped recipe book, and the rules import nothing from `level/`.

mod arbitration;
mod carry;
mod hazards;
mod kitchen;
mod kitchen_props;
mod movement;
mod moves;
mod survival;
mod targeting;
mod verbs;
mod versus;

use crate::level::recipes::builtin_recipes;
use crate::level::sketch::sketch_level;
use crate::sim::input::InputFrame;
use crate::sim::kinds::Dir4;
use crate::sim::open::SeatSpec;
use crate::sim::room::Room;
use crate::sim::step_room;
use crate::sim::v2::V2;
use std::sync::Arc;

/// A room on a sketched grid with `seats` cooks.
pub fn room(rows: &[&str], seats: u8) -> Room {
    Room::new(
        Arc::new(sketch_level("test", rows)),
        Arc::new(builtin_recipes().expect("the built-in recipe book is valid")),
        1,
        &SeatSpec::numbered(seats),
    )
}

/// Queue a frame for the room's next tick.
pub fn send(room: &mut Room, seat: u8, mv: (i16, i16), action: bool, face: Option<Dir4>) {
    let tick = room.tick;
    room.inputs.queue_stamped(seat, InputFrame { seq: tick, tick, mv, action, face, dash: false });
}

/// Send the same frame to one seat for `n` ticks, stepping each.
pub fn hold(room: &mut Room, seat: u8, mv: (i16, i16), action: bool, n: u32) {
    for _ in 0..n {
        send(room, seat, mv, action, None);
        step_room(room);
    }
}

/// Put a cook at an exact spot, facing a way, at rest.
pub fn place(room: &mut Room, seat: u8, x: i32, y: i32, facing: Dir4) {
    let c = room.cook_index(seat).expect("seat");
    room.cooks[c].pos = V2::new(x, y);
    room.cooks[c].vel = V2::ZERO;
    room.cooks[c].facing = facing;
}
