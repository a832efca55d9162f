//! Undercooked: module tree and feature gates only.

pub mod bench;
#[cfg(not(target_arch = "wasm32"))]
pub mod board;
pub mod bot;
pub mod caught;
#[cfg(feature = "client")]
pub mod client;
pub mod clock;
#[cfg(not(target_arch = "wasm32"))]
pub mod directory;
#[cfg(not(target_arch = "wasm32"))]
pub mod fuzz;
pub mod level;
pub mod net;
pub mod project;
pub mod protocol;
pub mod replay;
pub mod report;
pub mod schedule;
pub mod sim;
pub mod soak;
pub mod stdout;
pub mod tandem;
