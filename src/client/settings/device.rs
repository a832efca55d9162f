//! What a local player plays with: the cook's controls (a leafwing action) and the
//! physical devices that drive them. Both the bindings (`config`) and the seats (`input`) speak
//! of these, so they sit below both.

use bevy::prelude::*;
use leafwing_input_manager::prelude::*;

/// What a cook can do: walk, press the action button, and press the second button (a dash,
/// or a throw while holding a raw or chopped ingredient); and, never part of the rules, hold
/// the emote button and pick an emote with a direction.
#[derive(Actionlike, PartialEq, Eq, Clone, Copy, Hash, Debug, Reflect)]
pub enum CookAction {
    #[actionlike(DualAxis)]
    Move,
    Act,
    Dash,
    Emote,
}

/// A physical way to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Device {
    /// Keyboard 1: WASD + Space / E, Left Shift to dash, Q to emote, unless rebound (the
    /// Settings' bindings).
    KeyboardLeft,
    /// Keyboard 2: arrows + Enter / Right Ctrl, Right Shift to dash, Slash to emote, unless
    /// rebound.
    KeyboardRight,
    /// A gamepad entity: left stick or d-pad + South (A / Cross), West (X / Square) to dash,
    /// North (Y / Triangle) to emote, unless rebound.
    Gamepad(Entity),
}
