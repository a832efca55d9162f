//! The app-wide system sets: where one module's systems must run relative to another's, both
//! join a set here, and the sets are ordered here once ([`SystemOrderPlugin`]), so no module
//! orders itself against another module's functions.

use crate::sim::SimSystems;
use bevy::prelude::*;

/// A tick's systems around the sim's own stages ([`SimSystems`], ordered by `SimPlugin`).
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TickSystems {
    /// `FixedUpdate`: the window's local players sampled into the outbox.
    Collect,
    /// `FixedUpdate`: this tick's frames pushed into each room's input queue (the local host's
    /// players and bots, a server's bots), before the sim resolves its inputs.
    Host,
    /// `FixedPostUpdate`: each room written onto its views (`project::project_rooms`).
    Project,
    /// `FixedPostUpdate`: what reads the fresh views and the tick's facts: the server's round
    /// lifecycle, input acks and tick events; the client's record of each cook's tick.
    Publish,
}

/// A display frame's client systems in `Update`.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FrameSystems {
    /// A control waiting for its new key takes the press before the menus read it.
    Listen,
    /// The menus read the keys.
    Steer,
    /// Text fields, after the steering: the Esc that ends typing must not also leave a screen.
    Type,
    /// Menu lines that show a live value (a volume, a key, a typed field) rewrite their words.
    Relabel,
    /// The menus paint the cursor's line and every line's words.
    Paint,
    /// A round's facts come in (the server's Tandem ticks into the window's stream), before
    /// what sounds or draws them.
    Hear,
    /// The online cook's predicted position, which the blend draws it at.
    Predict,
    /// Every cook placed between its last two ticks (the first of the measured frame).
    Blend,
    /// The kitchen and the HUD from the blended cooks (the last of the measured frame).
    Draw,
    /// After the drawing: screenshots and the measured frame's end.
    Capture,
}

/// Orders the sets, one chain per schedule. [`crate::clock::TickClockPlugin`] adds it, so
/// every app that ticks has the order.
pub struct SystemOrderPlugin;

impl Plugin for SystemOrderPlugin {
    fn build(&self, app: &mut App) {
        app.configure_sets(
            FixedUpdate,
            (TickSystems::Collect, TickSystems::Host).chain().before(SimSystems::ResolveInput),
        );
        app.configure_sets(FixedPostUpdate, (TickSystems::Project, TickSystems::Publish).chain());
        app.configure_sets(
            Update,
            (
                (
                    FrameSystems::Listen,
                    FrameSystems::Steer,
                    FrameSystems::Type,
                    FrameSystems::Relabel,
                    FrameSystems::Paint,
                )
                    .chain(),
                (
                    FrameSystems::Hear,
                    FrameSystems::Predict,
                    FrameSystems::Blend,
                    FrameSystems::Draw,
                    FrameSystems::Capture,
                )
                    .chain(),
            ),
        );
    }
}
