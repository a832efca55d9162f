//! Levels and the recipe book: RON schema, compile + validate, and the Bevy asset loader.
//!
//! One parse + validate path (`compile`, `recipes`, `files`) serves the asset loader, the
//! `validate` CLI and the tests; they compile into `sim::kitchen`, the form
//! of a level the simulation reads.

pub mod cli;
pub mod compile;
pub mod edit;
pub mod error;
pub mod files;
pub mod folder_read;
pub mod generate;

mod grid;
mod hazards;
pub mod index;
pub mod limits;
pub mod loader;
pub mod recipes;
pub mod schema;
pub mod sketch;
pub mod source_map;
mod teams;
mod text;
pub mod watch;

#[cfg(test)]
mod tests;

pub use compile::parse_level;
pub use error::{ErrorCode, LevelError, LoadError, Pos};
pub use files::{
    KnownLevel, Offered, Trust, check_campaign, check_level_set, find_level, load_campaign,
    load_level_file, load_published, load_recipes_file,
};
pub use index::{
    IndexEntry, Proof, PublishedIndex, TeamProof, VersusProof, VersusSideProof, file_hash,
    parse_index,
};
pub use loader::{LastGoodLevels, LevelAsset, LevelPlugin, RecipeBookAsset};
pub use recipes::{builtin_recipes, parse_recipes};
pub use watch::{
    CampaignChanged, DesignerPlugin, LevelLibrary, LevelRejected, LevelReloaded, LevelWatchConfig,
    LevelWatchPlugin, TrustPublished,
};
