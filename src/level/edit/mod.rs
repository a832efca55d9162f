//! The kitchen editor's model, with no window: a level file as the designer edits it.
//!
//! The document is the level file's own schema (`schema::LevelFile`), changed only by
//! [`command::Edit`]s (each one undoable), checked by the same `parse_level` as `validate`
//! after every change with each problem placed on its cell (`problems.rs`), and written back
//! as the RON a person writes, in one field order (`write.rs`), never invalid over a valid
//! file (`save.rs`). The window's editor (`client::editor`) draws and steers it.

pub mod brush;
pub mod command;
pub mod document;
pub mod hazards;
pub mod problems;
pub mod save;
pub mod settings;
pub mod tool;
pub mod write;

#[cfg(test)]
mod tests;

pub use brush::Brush;
pub use command::{Edge, Edit, EditError};
pub use document::{KitchenDoc, NewKitchenError};
pub use hazards::{HazardKind, HazardStroke};
pub use problems::Problem;
pub use save::{SaveError, Saved, draft_path, save_doc};
pub use settings::{Setting, Timing, settings_of};
pub use tool::Tool;
