//! Tandem (Moving Day) in the client: the setup screen (couch or porter partner, the seed),
//! the local run stepped at the mode's 24 Hz from each seat's stick, an online room's round
//! followed from the server's replication with this window's seat sent each tick, the course
//! and couch drawn in the kitchen's style under a camera that follows the couch, the sounds
//! and HUD beats of each tick's facts, the HUD with felt strain and the results, and
//! (native) a local run's replay bundle; the scene and HUD read the [`screen::TandemScreen`]
//! either way fills. The rules are `crate::tandem` (read only). This file only declares the
//! modules.

pub mod beats;
pub mod camera;
pub mod hud;
pub mod online;
#[cfg(not(target_arch = "wasm32"))]
pub mod record;
pub mod run;
pub mod scene;
pub mod screen;
pub mod setup;
