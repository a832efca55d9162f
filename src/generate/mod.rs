//! `undercooked level generate`: a kitchen drawn from a seed — layout, stations, dish pool,
//! hazards — written as an ordinary level file, its target set from what bots score on it.
//!
//! Integer-only and seeded by `sim::rng::SplitMix64`: the same seed and options give the same
//! bytes on every machine (docs/LEVELS.md, "Generated kitchens").

pub mod cli;
mod dishes;
mod hazards;
mod layout;
mod options;
mod run;
mod stations;
pub mod targets;
mod writer;

pub use dishes::DishPool;
pub use layout::Frame;
pub use options::{
    GenerateError, GenerateOptions, Generated, HazardKind, MAX_ATTEMPTS, Size, level_id,
};
pub use run::generate;
pub use targets::Measured;
