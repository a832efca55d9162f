//! Undercooked: module tree and feature gates only.

pub mod clock;
pub mod level;
pub mod sim;
