//! Tandem (Moving Day) in the desktop client: the setup screen (couch or porter partner, the
//! seed), the run stepped at the mode's 24 Hz from each seat's stick, the course and couch
//! drawn in the kitchen's style, the HUD with felt strain and the results, and (native) the
//! run's replay bundle. The rules are `crate::tandem` (read only). This file only declares
//! the modules.

pub mod hud;
#[cfg(not(target_arch = "wasm32"))]
pub mod record;
pub mod run;
pub mod scene;
pub mod setup;
