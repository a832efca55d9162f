//! One bot cook as the planner keeps it: its seat, the dish it is making ([`Job`]), the action
//! in progress and the little memory between plans (refusals, back-off, a plate shortage).

use super::act::Exec;
use crate::sim::ids::{ItemId, Seat};

/// The dish a bot is making: for which ticket, with which plate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    /// The claimed ticket (None once it left the rail and no other ticket of the recipe was free:
    /// the dish is finished anyway and served to the next matching ticket).
    pub order: Option<u32>,
    /// Recipe-book index.
    pub recipe: usize,
    /// The bot's plate, once it has taken one from the rack.
    pub plate: Option<ItemId>,
}

/// One bot cook: its seat, its job, the action in progress and the memory the planner keeps.
#[derive(Clone, Debug)]
pub struct Bot {
    pub seat: Seat,
    pub job: Option<Job>,
    pub(super) exec: Option<Exec>,
    pub(super) seq: u32,
    pub(super) pressed_last: bool,
    /// Set by a `NothingHere { NoPlate }` refusal: wash plates before anything else.
    pub(super) wash_plates: bool,
    /// Refusals or stalls in a row (backs the bot off, then drops the job).
    pub(super) fails: u32,
    /// Ticks left standing still before planning again.
    pub(super) idle: u32,
    /// Set when a walk jammed against a lower seat: step out of the way before re-planning.
    pub(super) give_way: bool,
    /// The tick on which an action last completed, or the current job was taken (the no-stall
    /// tests read it).
    pub last_progress: u32,
    /// The label of the current action ("" when idle).
    pub plan: String,
}

impl Bot {
    pub fn new(seat: Seat) -> Bot {
        Bot {
            seat,
            job: None,
            exec: None,
            seq: 0,
            pressed_last: false,
            wash_plates: false,
            fails: 0,
            idle: 0,
            give_way: false,
            last_progress: 0,
            plan: String::new(),
        }
    }
}
