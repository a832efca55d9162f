//! The kitchen on the editor's bench: the document, its file, the cursor and the tool, and
//! every change said on stdout (the tests read it) and in the panel.

use crate::level::edit::{Edit, KitchenDoc, SaveError, Saved, Tool, save_doc};
use bevy::prelude::*;
use std::path::PathBuf;

/// The kitchen on the editor's bench: the document, its file, the cursor and the tool.
#[derive(Resource, Debug)]
pub struct EditorDoc {
    pub doc: KitchenDoc,
    pub path: PathBuf,
    pub cursor: (usize, usize),
    /// The tool: an index into [`Tool::palette`].
    pub brush: usize,
    /// The hazard the hazard tools are painting (an index into the file's list; `None`: the
    /// next hazard paint starts a new one).
    pub painting: Option<usize>,
    /// The last save's or refusal's words for the panel.
    pub status: String,
    /// Bumped by every change of the kitchen (not of the cursor or tool): the scene redraws.
    pub revision: u64,
    /// Bots beside the designer in a Playtest (0–3).
    pub bots: u8,
    /// The text last saved (or opened): leaving with another asks first.
    clean: String,
    /// Escape was pressed once with unsaved changes: a second press leaves without saving.
    pub warned: bool,
}

impl EditorDoc {
    pub fn new(doc: KitchenDoc, path: PathBuf, bots: u8) -> Self {
        let (w, h) = doc.size();
        let name = path.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let status = format!("editing {name} ({w}x{h}); Ctrl+S saves it");
        EditorDoc {
            path,
            cursor: (w / 2, h / 2),
            brush: 0,
            painting: None,
            status,
            revision: 0,
            bots: bots.min(3),
            clean: doc.text().to_string(),
            warned: false,
            doc,
        }
    }

    pub fn tool(&self) -> Tool {
        let palette = Tool::palette();
        palette[self.brush % palette.len()]
    }

    /// One edit, its outcome said on stdout (the tests read it) and in the panel.
    pub fn apply(&mut self, edit: &Edit) {
        match self.doc.apply(edit) {
            Ok(true) => self.changed("edit"),
            Ok(false) => {}
            Err(e) => {
                self.status = e.to_string();
                println!("editor: refused: {e}");
            }
        }
    }

    pub fn undo(&mut self) {
        if self.doc.undo() {
            self.changed("undo");
        }
    }

    pub fn redo(&mut self) {
        if self.doc.redo() {
            self.changed("redo");
        }
    }

    /// Whether the kitchen differs from what was last saved or opened (a draft counts).
    pub fn unsaved(&self) -> bool {
        self.doc.text() != self.clean
    }

    /// After a publish rewrote the file's target: the same target set in the kitchen (one
    /// undoable edit, so edits made while the bots proved stay), and the kitchen counts as
    /// saved when it now matches the file.
    pub fn adopt_published(&mut self) -> Result<(), String> {
        let bytes = std::fs::read(&self.path).map_err(|e| e.to_string())?;
        let label = self.path.display().to_string();
        let on_disk =
            KitchenDoc::from_text(&bytes, &label, self.doc.book().clone()).map_err(|errors| {
                errors.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")
            })?;
        self.apply(&Edit::SetTarget(on_disk.file().target_score));
        if self.doc.text() == on_disk.text() {
            self.clean = on_disk.text().to_string();
        }
        Ok(())
    }

    pub fn save(&mut self) {
        let kept = self.doc.text().to_string();
        self.status = match save_doc(&self.doc, &self.path) {
            Ok(Saved::File(path)) => {
                self.clean = kept;
                format!("saved {}", path.display())
            }
            Err(e @ SaveError::WouldBreakValidFile { .. }) => {
                self.clean = kept;
                e.to_string()
            }
            Err(e) => format!("not saved: {e}"),
        };
        println!("editor: {}", self.status);
    }

    fn changed(&mut self, what: &str) {
        self.revision += 1;
        self.warned = false;
        let problems = self.doc.problems();
        let listed: Vec<String> = problems
            .iter()
            .map(|p| match p.cell {
                Some((x, y)) => format!("{}@{x},{y}", p.code),
                None => p.code.to_string(),
            })
            .collect();
        println!("editor: {what}: {} problem(s) {}", problems.len(), listed.join(" "));
    }
}
