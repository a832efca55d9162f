//! The hazard tools at the cursor (`level::edit::hazards` does the editing): paint a cell into
//! the spill, ice, cart track or shifting floor being painted (or a new one), take it out,
//! remove the whole hazard under the cursor, start a new one, and switch fire on or off — each
//! change one undo step, its outcome on stdout and in the panel.

use super::doc::EditorDoc;
use crate::level::edit::hazards::{
    HazardKind, HazardStroke, cells_of, erase_hazard_cell, paint_hazard, remove_hazard_at,
};
use crate::level::edit::{Edit, EditError};

/// The tool's paint at the cursor.
pub(super) fn paint_hazard_here(ed: &mut EditorDoc, kind: HazardKind) {
    let stroke = paint_hazard(ed.doc.file(), ed.painting, kind, ed.cursor);
    take(ed, stroke, kind);
}

/// The cursor's cell taken out of the tool's kind of hazard (the fire tool: fire off).
pub(super) fn erase_hazard_here(ed: &mut EditorDoc, kind: HazardKind) {
    let stroke = erase_hazard_cell(ed.doc.file(), ed.painting, kind, ed.cursor);
    take(ed, stroke, kind);
}

/// The hazard on the cursor's cell (the last listed, drawn on top) removed whole.
pub(super) fn remove_hazard_here(ed: &mut EditorDoc) {
    let before = ed.doc.file().hazards.clone();
    let stroke = remove_hazard_at(ed.doc.file(), ed.painting, ed.cursor);
    let gone = match &stroke {
        Ok(HazardStroke { edit: Some(Edit::SetHazards(after)), .. }) => {
            before.iter().enumerate().find(|(i, h)| after.get(*i) != Some(*h))
        }
        _ => None,
    };
    let said = gone.map(|(i, h)| format!("removed hazard {} ({})", i + 1, h.name()));
    apply_stroke(ed, stroke);
    ed.status = said.unwrap_or_else(|| "no hazard on this cell to remove".into());
}

/// The next hazard paint starts a new spill, ice zone, track or shifting floor.
pub(super) fn start_new_hazard(ed: &mut EditorDoc) {
    ed.painting = None;
    ed.status = "the next hazard paint starts a new one".into();
}

/// A stroke applied (one edit) and the hazard being painted after it, said in the panel.
fn take(ed: &mut EditorDoc, stroke: Result<HazardStroke, EditError>, kind: HazardKind) {
    if !apply_stroke(ed, stroke) {
        return;
    }
    let file = ed.doc.file();
    ed.status = if kind == HazardKind::Fire {
        let on = file.hazards.iter().any(|h| HazardKind::of(h) == HazardKind::Fire);
        if on { "fire rules on (timings: Tab)" } else { "fire rules off" }.to_string()
    } else {
        match ed.painting.and_then(|i| Some((i, file.hazards.get(i)?))) {
            Some((i, h)) => format!(
                "painting hazard {} ({}, {} cell(s)); N / L3 starts a new one",
                i + 1,
                h.name(),
                cells_of(h).len()
            ),
            None => "no hazard of this kind here".into(),
        }
    };
}

/// Applies the stroke's edit and keeps its painted hazard; `false` when it was refused.
fn apply_stroke(ed: &mut EditorDoc, stroke: Result<HazardStroke, EditError>) -> bool {
    match stroke {
        Ok(HazardStroke { edit, painting }) => {
            if let Some(edit) = edit {
                ed.apply(&edit);
            }
            ed.painting = painting;
            true
        }
        Err(e) => {
            ed.status = e.to_string();
            println!("editor: refused: {e}");
            false
        }
    }
}
