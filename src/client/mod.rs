//! The desktop client: window, states, and the plugins that draw, hear and steer the kitchen.
//!
//! Everything under here reads only the view components of `protocol.rs` and the `RoomTick`
//! messages, so online play can reuse it; the one exception is `local`, the embedded server of
//! a local game, which spawns rooms and feeds them input frames. `join` is the window on a
//! hosted room: the same presentation, fed by replicon (`online`) instead of the local host.
//! This file only declares the modules: shared types live in files of their own (`state`,
//! `args`), so no child imports its parent.

pub mod app;
pub mod args;
pub mod audio;
pub mod capture;
#[cfg(not(target_arch = "wasm32"))]
pub mod editor;
pub mod hud;
pub mod input;
pub mod kitchen;
pub mod local;
pub mod online;
pub mod perf;
pub mod presentation;
pub mod save;
pub mod screens;
pub mod settings;
pub mod state;
pub mod tandem;
pub mod theme;
#[cfg(target_arch = "wasm32")]
pub mod web;
pub mod window;
