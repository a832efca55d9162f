//! The desktop client: window, states, and the plugins that draw, hear and steer the kitchen.
//!
//! Everything under here reads only the view components of `protocol.rs` and the `RoomTick`
//! messages, so online play can reuse it; the one exception is `local`, the embedded server of
//! a local game, which spawns rooms and feeds them input frames. `join` is the window on a
//! hosted room: the same presentation, fed by replicon (`online`) instead of the local host.
//! This file only declares the modules: shared types live in files of their own (`state`,
//! `args`), so no child imports its parent.

pub mod access;
pub mod access_sync;
pub mod app;
pub mod args;
pub mod assist_menu;
pub mod audio;
pub mod backdrop;
pub mod config;
pub mod designer;
pub mod device;
pub mod framing;
pub mod hud;
pub mod input;
pub mod interp;
#[cfg(not(target_arch = "wasm32"))]
pub mod join;
pub mod kitchen;
pub mod level_select;
pub mod loading;
pub mod lobby_assist;
pub mod lobby_mode;
pub mod local;
pub mod menu;
#[cfg(not(target_arch = "wasm32"))]
pub mod netmenu;
pub mod online;
pub mod palette;
#[cfg(not(target_arch = "wasm32"))]
pub mod paste;
pub mod perf;
#[cfg(not(target_arch = "wasm32"))]
pub mod perf_panel;
pub mod perf_readings;
#[cfg(target_arch = "wasm32")]
pub mod perf_text;
pub mod pops;
pub mod presentation;
pub mod rail;
pub mod save;
pub mod scripted;
pub mod shot;
pub mod state;
pub mod tandem;
pub mod theme;
#[cfg(target_arch = "wasm32")]
pub mod web;
pub mod window;
