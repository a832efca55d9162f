//! What the Tandem scene and HUD draw: one resource, [`TandemScreen`], that either the local
//! run (`run.rs`, stepping its own `TandemRoom`) or an online room's replicated round
//! (`online.rs`) fills. The scene and the HUD read only this, so both ways draw alike.

use crate::tandem::course::Course;
use crate::tandem::view::TandemView;
use bevy::prelude::*;
use std::ops::DerefMut;
use std::sync::Arc;

/// The run on screen: its course, its newest view, and who plays it at this window.
#[derive(Resource, Clone, Debug)]
pub struct TandemScreen {
    pub course: Arc<Course>,
    pub view: TandemView,
    /// By seat: the gamepad of a player at this window (it rumbles with the strain).
    pub pads: [Option<Entity>; 2],
    /// By seat: played at this window (the HUD marks it).
    pub mine: [bool; 2],
    /// An online room's round: its results give way to the room's lobby, not to the menu.
    pub online: bool,
}

impl TandemScreen {
    /// Replaces the view when the run has moved (a resource changed only when it changes).
    pub fn show(screen: &mut impl DerefMut<Target = TandemScreen>, view: &TandemView) {
        if screen.view != *view {
            screen.view = view.clone();
        }
    }
}
