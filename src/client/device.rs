//! What a local player plays with: the cook's two controls (a leafwing action) and the
//! physical devices that drive them. Both the bindings (`config`) and the seats (`input`) speak
//! of these, so they sit below both.

use bevy::prelude::*;
use leafwing_input_manager::prelude::*;

/// What a cook can do: walk and press the one action button.
#[derive(Actionlike, PartialEq, Eq, Clone, Copy, Hash, Debug, Reflect)]
pub enum CookAction {
    #[actionlike(DualAxis)]
    Move,
    Act,
}

/// A physical way to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Device {
    /// Keyboard 1: WASD + Space / E unless rebound (the Settings' bindings).
    KeyboardLeft,
    /// Keyboard 2: arrows + Enter / Right Ctrl unless rebound.
    KeyboardRight,
    /// A gamepad entity: left stick or d-pad + South (A / Cross) unless rebound.
    Gamepad(Entity),
}
