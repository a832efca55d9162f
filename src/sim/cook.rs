//! One cook's row in a room: body, hands, this tick's input, traction and tallies.

use super::ids::{ItemId, Seat};
use super::input::ResolvedInput;
use super::kinds::Dir4;
use super::v2::V2;

/// What a cook's body is doing, for clients and the stun rule.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum CookState {
    #[default]
    Idle,
    Moving,
    Stunned,
}

/// The traction seam the hazards stage feeds: a spill scales speed and grip, ice slides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveModifiers {
    /// Scales the speed ceiling, ppm (1 000 000 = normal).
    pub speed_ppm: u32,
    /// Scales acceleration and braking, ppm.
    pub accel_ppm: u32,
    /// True removes braking (not throttle): the cook keeps sliding when the stick centres.
    pub slide: bool,
}

impl Default for MoveModifiers {
    fn default() -> Self {
        MoveModifiers { speed_ppm: 1_000_000, accel_ppm: 1_000_000, slide: false }
    }
}

/// One cook, by seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cook {
    pub seat: Seat,
    /// Display name (sanitised by whoever seated the cook; never authoritative).
    pub name: String,
    pub pos: V2,
    pub vel: V2,
    pub facing: Dir4,
    pub state: CookState,
    /// Ticks of stun left.
    pub stun: u32,
    pub held: Option<ItemId>,
    /// Ticks the action button has been down in the current hold (1 on the press tick, 0 up).
    pub action_ticks: u32,
    /// Ticks of the current hold spent at the trash (voided when the cook turns away).
    pub trash_hold: u32,
    /// Ticks of dash burst left (0 = not dashing).
    pub dash: u32,
    /// Ticks until the second button may dash again (0 = ready).
    pub dash_cooldown: u32,
    /// The second button was down on the previous tick (its press is the rising edge).
    pub dash_down: bool,
    /// This tick's resolved frame (neutral when the seat sent none).
    pub input: ResolvedInput,
    pub modifiers: MoveModifiers,
    /// Points this cook's serves earned (display only, never competitive).
    pub score: i32,
    pub dishes_served: u32,
}
