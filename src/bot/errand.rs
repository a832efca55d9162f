//! Errands: a scripted cook's to-do list (walk to a cell, face, press, hold, wait) turned into
//! one input frame per tick from the room's state — the same frames a player would send.

use super::nav::{arrived, path, steer};
use crate::sim::ids::Seat;
use crate::sim::kinds::Dir4;
use crate::sim::room::Room;
use crate::sim::units::Cell;
use std::collections::VecDeque;

/// One thing to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Walk to the centre of a cell and stop there.
    GoTo(Cell),
    /// Turn to face a direction (one tick).
    Face(Dir4),
    /// Press and release the button (two ticks).
    Press,
    /// Hold the button for this many ticks, then release (one more tick).
    Hold(u32),
    /// Stand still for this many ticks.
    Wait(u32),
    /// Press and release the second button (two ticks): a dash, or a throw of the carried
    /// raw or chopped ingredient.
    Dash,
}

/// The frame a step produces this tick.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Intent {
    pub mv: (i16, i16),
    pub action: bool,
    pub face: Option<Dir4>,
    /// The second button (dash / throw).
    pub dash: bool,
}

/// A cook's queue of steps and the progress of the current one.
#[derive(Clone, Debug, Default)]
pub struct Errands {
    steps: VecDeque<Step>,
    /// Ticks spent in the current step.
    elapsed: u32,
}

/// A walk that has not arrived after this long re-plans nothing — it gives up on the step, so
/// a blocked errand can never stall a script forever.
const GIVE_UP_TICKS: u32 = 400;

impl Errands {
    pub fn new(steps: impl IntoIterator<Item = Step>) -> Self {
        Errands { steps: steps.into_iter().collect(), elapsed: 0 }
    }

    pub fn is_done(&self) -> bool {
        self.steps.is_empty()
    }

    fn finish_step(&mut self) {
        self.steps.pop_front();
        self.elapsed = 0;
    }

    /// This tick's intent for `seat`, or `None` once every step is done.
    pub fn next_intent(&mut self, room: &Room, seat: Seat) -> Option<Intent> {
        let cook = &room.cooks[room.cook_index(seat)?];
        loop {
            let step = *self.steps.front()?;
            let t = self.elapsed;
            let intent = match step {
                Step::GoTo(goal) => {
                    if arrived(cook, goal) || t >= GIVE_UP_TICKS {
                        None
                    } else {
                        let route =
                            path(&room.level, cook.pos.cell(), goal).unwrap_or_else(|| vec![goal]);
                        Some(Intent { mv: steer(cook, &route), ..Intent::default() })
                    }
                }
                Step::Face(dir) => {
                    (t == 0).then_some(Intent { face: Some(dir), ..Intent::default() })
                }
                Step::Press => (t < 2).then_some(Intent { action: t == 0, ..Intent::default() }),
                Step::Hold(n) => (t <= n).then_some(Intent { action: t < n, ..Intent::default() }),
                Step::Wait(n) => (t < n).then_some(Intent::default()),
                Step::Dash => (t < 2).then_some(Intent { dash: t == 0, ..Intent::default() }),
            };
            match intent {
                Some(i) => {
                    self.elapsed += 1;
                    return Some(i);
                }
                None => self.finish_step(),
            }
        }
    }
}
