//! One look at a levels folder, shared by every world of the process that polls the same folder
//! within a moment: a server's shards each follow the folder for hot reload, and fifty of them
//! each reading every file four times a second was a fifth of an idle shard's CPU
//! (docs/PERFORMANCE.md, "Capacity").
//!
//! Contents, not timestamps, still decide what changed (`watch::LevelLibrary`): a read is only
//! reused while it is younger than the caller's window, so an edit is seen at most that much
//! later, and a window of zero (tests, which poll on every update) always reads afresh.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use super::files::{INDEX_FILE, level_files};

/// What one look at a folder found: its level files, and the bytes of each of them, of its
/// index and of the recipe book (a file that could not be read is absent).
#[derive(Debug)]
pub struct FolderRead {
    taken: Instant,
    /// The level files (`files::level_files`), sorted; empty when the folder is unreadable.
    pub level_files: Vec<PathBuf>,
    bytes: BTreeMap<PathBuf, Vec<u8>>,
}

impl FolderRead {
    /// The bytes of `path` as read, if it is one of the read files and was readable.
    pub fn bytes(&self, path: &Path) -> Option<&[u8]> {
        self.bytes.get(path).map(Vec::as_slice)
    }

    fn take(dir: &Path, recipes: Option<&Path>) -> FolderRead {
        // An unreadable folder (mid-rename, say) is a look with nothing in it, not an error.
        let level_files = level_files(dir).unwrap_or_default();
        let index = dir.join(INDEX_FILE);
        let bytes = level_files
            .iter()
            .map(PathBuf::as_path)
            .chain([index.as_path()])
            .chain(recipes)
            .filter_map(|p| Some((p.to_path_buf(), std::fs::read(p).ok()?)))
            .collect();
        FolderRead { taken: Instant::now(), level_files, bytes }
    }
}

/// The folders read lately in this process, by (folder, recipe book).
type Reads = BTreeMap<(PathBuf, Option<PathBuf>), Arc<FolderRead>>;

static READS: Mutex<Reads> = Mutex::new(BTreeMap::new());

/// `dir`'s level files, its index and `recipes` as read at most `within` ago by any caller of
/// this process, else read now.
pub fn read_folder(dir: &Path, recipes: Option<&Path>, within: Duration) -> Arc<FolderRead> {
    let key = (dir.to_path_buf(), recipes.map(Path::to_path_buf));
    // A poisoned lock only means a reader panicked mid-read: the map holds whole reads.
    let mut reads = READS.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(read) = reads.get(&key).filter(|r| r.taken.elapsed() < within) {
        return read.clone();
    }
    let read = Arc::new(FolderRead::take(dir, recipes));
    reads.insert(key, read.clone());
    read
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_read_is_shared_within_its_window_and_taken_afresh_after() {
        let dir = std::env::temp_dir().join(format!("uc-folder-read-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("a.ron");
        std::fs::write(&file, "one").unwrap();
        let first = read_folder(&dir, None, Duration::from_secs(60));
        assert_eq!(first.level_files, vec![file.clone()]);
        assert_eq!(first.bytes(&file), Some(&b"one"[..]));
        assert_eq!(first.bytes(&dir.join(INDEX_FILE)), None, "no index: absent");
        std::fs::write(&file, "two").unwrap();
        // Within the window every caller gets the same look.
        let shared = read_folder(&dir, None, Duration::from_secs(60));
        assert!(Arc::ptr_eq(&first, &shared));
        // A window of zero always reads: the edit is there.
        let fresh = read_folder(&dir, None, Duration::ZERO);
        assert_eq!(fresh.bytes(&file), Some(&b"two"[..]));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
