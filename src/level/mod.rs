//! Levels and the recipe book: RON schema, compile + validate, and the Bevy asset loader.

pub mod model;
