//! Undercooked: module tree and feature gates only.

pub mod level;
pub mod sim;
