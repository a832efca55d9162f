//! A scratch folder and a levels folder of the tutorial alone with a short round, for the test
//! binaries that host real rounds to their end (`tests/drain.rs`, `tests/agones.rs`; `#[path]`).
//! No index.ron: an edited file is unpublished, and a folder without an index serves every valid
//! level in it (docs/LEVELS.md "What runs").

use std::path::{Path, PathBuf};

/// A fresh folder for one test of `binary` (`uc-BINARY-NAME-PID` under the temp dir).
pub fn scratch(binary: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("uc-{binary}-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `dir/levels` with the shipped tutorial, its round `seconds` long.
pub fn short_levels(dir: &Path, seconds: u32) -> PathBuf {
    let levels = dir.join("levels");
    std::fs::create_dir_all(&levels).unwrap();
    let text = std::fs::read_to_string("levels/tutorial.ron").unwrap();
    assert!(text.contains("time_limit: 180.0"), "the tutorial's length moved: update this test");
    let text = text.replace("time_limit: 180.0", &format!("time_limit: {seconds}.0"));
    std::fs::write(levels.join("tutorial.ron"), text).unwrap();
    levels
}
