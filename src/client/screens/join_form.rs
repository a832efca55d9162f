//! The typed fields of the menus: the Join screen's two (address, code) and Settings' directory,
//! which one is being typed into, and the last word on the join. Its own file, under the
//! screens that type and the menu steering (which stands still while a field takes the keys),
//! so none imports another.

use bevy::prelude::*;

/// A text field of the Join screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JoinField {
    Address,
    Code,
    /// Settings: the directory Play online asks.
    Directory,
}

/// The Join screen's fields, which one is being typed into, and the last word on the join.
#[derive(Resource, Clone, Debug, Default)]
pub struct JoinForm {
    pub address: String,
    pub code: String,
    /// Settings' directory field while it is typed (saved to config.ron when typing ends).
    pub directory: String,
    pub editing: Option<JoinField>,
    /// The press that chose the field is not typed into it.
    pub armed: bool,
    pub status: Option<String>,
}

impl JoinForm {
    pub fn field(&self, f: JoinField) -> &str {
        match f {
            JoinField::Address => &self.address,
            JoinField::Code => &self.code,
            JoinField::Directory => &self.directory,
        }
    }

    pub fn field_mut(&mut self, f: JoinField) -> &mut String {
        match f {
            JoinField::Address => &mut self.address,
            JoinField::Code => &mut self.code,
            JoinField::Directory => &mut self.directory,
        }
    }

    /// A field's line: its name, its text, and a caret while typing.
    pub fn field_label(&self, field: JoinField) -> String {
        let name = match field {
            JoinField::Address => "Address or link",
            JoinField::Code => "Room code",
            JoinField::Directory => "Directory",
        };
        let text = self.field(field);
        if self.editing == Some(field) {
            format!("{name}: {text}_")
        } else if text.is_empty() {
            format!("{name}: (choose to type)")
        } else {
            format!("{name}: {text}")
        }
    }
}
