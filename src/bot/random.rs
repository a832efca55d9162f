//! Seeded random cooks: an input source beside the bots and the scripts, one frame per seat
//! per tick from one draw; the bench's load, the soak's chaos and the stress tests' walks.

use crate::sim::input::InputFrame;
use crate::sim::kinds::Dir4;
use crate::sim::rng::SplitMix64;
use crate::sim::room::Room;

/// One seat's walk: the stick it holds and how many more ticks the button stays down.
#[derive(Clone, Copy, Debug, Default)]
struct SeatWalk {
    mv: (i16, i16),
    hold: u32,
    seq: u32,
}

/// Seeded random cooks: one frame per seat per tick from one [`SplitMix64`] draw per seat.
///
/// A stick is held for about 8 ticks (so cooks travel and collide instead of jittering), a
/// press is held 1–12 ticks (so the 8-tick trash hold and the rising edge both happen), and a
/// d-pad facing turns up now and then, and the second button (dash / throw) is pressed now and
/// then. Sticks include hostile out-of-range values, which the
/// sim must clamp. The stream depends only on the seed, so a walk replays exactly.
#[derive(Clone, Debug)]
pub struct RandomCooks {
    rng: SplitMix64,
    seats: Vec<SeatWalk>,
}

impl RandomCooks {
    /// Walks for seats `0..seats` (the seats of [`crate::sim::open::SeatSpec::numbered`]).
    pub fn new(seed: u64, seats: u8) -> Self {
        RandomCooks { rng: SplitMix64::new(seed), seats: vec![SeatWalk::default(); seats as usize] }
    }

    /// The next frame of seat index `s` for `tick`.
    pub fn frame(&mut self, s: usize, tick: u32) -> InputFrame {
        let r = self.rng.next_u64();
        let w = &mut self.seats[s];
        if r & 7 == 0 {
            w.mv = stick(r >> 3);
        }
        let action = if w.hold > 0 {
            w.hold -= 1;
            true
        } else if (r >> 20).is_multiple_of(6) {
            w.hold = ((r >> 24) % 12) as u32;
            true
        } else {
            false
        };
        let face = ((r >> 40) & 15 == 0).then_some(match (r >> 44) & 3 {
            0 => Dir4::Up,
            1 => Dir4::Down,
            2 => Dir4::Left,
            _ => Dir4::Right,
        });
        // The second button about once a second and a half: dashes, and throws of whatever
        // raw or chopped food the cook happens to carry.
        let dash = (r >> 48).is_multiple_of(30);
        w.seq += 1;
        InputFrame { seq: w.seq, tick, mv: w.mv, action, face, dash }
    }

    /// Queue this tick's frame for every seat of the room.
    pub fn push_frames(&mut self, room: &mut Room) {
        let tick = room.tick;
        for s in 0..self.seats.len() {
            let frame = self.frame(s, tick);
            room.inputs.queue_stamped(s as u8, frame);
        }
    }
}

/// A stick from random bits: a quarter of the time centred, half the time a full cardinal, else
/// any in-range vector or a hostile one far outside the wire's range.
fn stick(bits: u64) -> (i16, i16) {
    let axis = |b: u64| ((b % 2001) as i32 - 1000) as i16;
    let hostile = |b: u64| if b & 1 == 0 { i16::MAX } else { i16::MIN };
    match bits & 7 {
        0 | 1 => (0, 0),
        2 => (1000, 0),
        3 => (-1000, 0),
        4 => (0, 1000),
        5 => (0, -1000),
        6 => (axis(bits >> 3), axis(bits >> 14)),
        _ => (hostile(bits >> 3), hostile(bits >> 4)),
    }
}
