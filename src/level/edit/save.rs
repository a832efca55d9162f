//! Saving a kitchen: its text written whole (a temporary file renamed over the old one, so
//! hot reload never reads half a file), and never an invalid kitchen over a valid file —
//! that goes to `NAME.draft.ron` beside it, which level folders do not load.

use std::path::{Path, PathBuf};

use super::document::KitchenDoc;
use crate::level::compile::parse_level;

/// Where a save went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Saved {
    /// The kitchen is in its file.
    File(PathBuf),
}

/// Why a save did not reach its file.
#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    /// The kitchen has problems and the file holds a valid level: the edit went to the
    /// draft instead, and the file is untouched.
    #[error(
        "{}: {problems} problem(s) in the kitchen and the file on disk is a valid level; saved as the draft {} instead",
        file.display(),
        draft.display()
    )]
    WouldBreakValidFile { file: PathBuf, draft: PathBuf, problems: usize },
    #[error("{}: cannot write: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// `levels/x.ron` → `levels/x.draft.ron`.
pub fn draft_path(file: &Path) -> PathBuf {
    let stem = file.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    file.with_file_name(format!("{stem}.draft.ron"))
}

/// Whether a path names a draft (`*.draft.ron`), which level folders skip.
pub fn is_draft(path: &Path) -> bool {
    path.file_name().is_some_and(|n| n.to_string_lossy().ends_with(".draft.ron"))
}

/// Writes the kitchen to `file`, or to its draft when it is invalid and `file` is valid.
pub fn save_doc(doc: &KitchenDoc, file: &Path) -> Result<Saved, SaveError> {
    let problems = doc.problems().len();
    if problems > 0 && holds_valid_level(doc, file) {
        let draft = draft_path(file);
        write_whole(&draft, doc.text())?;
        return Err(SaveError::WouldBreakValidFile { file: file.to_path_buf(), draft, problems });
    }
    write_whole(file, doc.text())?;
    Ok(Saved::File(file.to_path_buf()))
}

fn holds_valid_level(doc: &KitchenDoc, file: &Path) -> bool {
    let Ok(bytes) = std::fs::read(file) else { return false };
    parse_level(&bytes, &file.display().to_string(), doc.book()).is_ok()
}

fn write_whole(path: &Path, text: &str) -> Result<(), SaveError> {
    let io = |source| SaveError::Io { path: path.to_path_buf(), source };
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = path.with_file_name(format!(".{name}.tmp"));
    std::fs::write(&tmp, text).map_err(io)?;
    std::fs::rename(&tmp, path).map_err(io)
}
