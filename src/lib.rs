//! Undercooked: module tree and feature gates only.

pub mod bench;
pub mod bot;
#[cfg(feature = "client")]
pub mod client;
pub mod clock;
pub mod level;
pub mod net;
pub mod project;
pub mod protocol;
pub mod replay;
pub mod report;
pub mod sim;
