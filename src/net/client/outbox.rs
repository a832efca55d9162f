//! The outbox: the frames a client's input sources produced, by local seat, waiting for
//! whoever takes them (and their emotes) — the embedded host in local play (`client::local`), the uplink online
//! (`net::client::seats`). Every input source writes here and nowhere else: the window's
//! devices and its autopilot (`client::input`), the headless client's `--inputs` and tests'
//! scripted frames.

use crate::protocol::PackedInput;
use crate::protocol::emote::Emote;
use crate::sim::ids::Seat;
use crate::sim::input::InputFrame;
use bevy::prelude::*;

/// Frames waiting to be taken, by local seat (online: the connection's slot; local player `n`
/// plays slot `n`).
#[derive(Resource, Default, Debug)]
pub struct Outbox {
    /// Controls as of now (a device, the autopilot, a test): the local host stamps each for
    /// its next tick; online each slot's uplink keeps the newest as the level it sends (a press
    /// between two sends is kept) until the next one.
    pub frames: Vec<(Seat, InputFrame)>,
    /// Controls planned for one tick (the headless client's bot and random inputs plan the
    /// very ticks the uplink is about to stamp): sent as that tick's frame.
    pub planned: Vec<(Seat, u32, PackedInput)>,
    /// Emotes made since the last take, by local seat: never frames, never the rules'
    /// (`net::client::emotes` online, the local game's host offline).
    pub emotes: Vec<(Seat, Emote)>,
    next_seq: u32,
}

impl Outbox {
    /// Queue a frame for `seat` (stick, action button, second button), numbering it (the host
    /// stamps the tick).
    pub fn send(&mut self, seat: Seat, mv: (i16, i16), action: bool, dash: bool) {
        let seq = self.next_seq;
        self.next_seq = self.next_seq.wrapping_add(1);
        let frame = InputFrame { seq, tick: 0, mv, action, dash, ..InputFrame::default() };
        self.frames.push((seat, frame));
    }

    /// Queue `seat`'s emote.
    pub fn say(&mut self, seat: Seat, emote: Emote) {
        self.emotes.push((seat, emote));
    }

    /// Queue `controls` as `seat`'s frame for `tick`.
    pub fn plan(&mut self, seat: Seat, tick: u32, controls: PackedInput) {
        self.planned.push((seat, tick, controls));
    }
}
