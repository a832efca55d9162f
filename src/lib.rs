//! Undercooked: module tree and feature gates only.

pub mod bench;
pub mod bot;
pub mod clock;
pub mod level;
pub mod project;
pub mod protocol;
pub mod replay;
pub mod report;
pub mod sim;
