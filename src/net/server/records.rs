//! Where an ended round is recorded: `results.jsonl` (one fsynced line per round) and the
//! replay-bundle writer (its thread is `replay::writer`'s), with the level and recipe sources
//! bundles carry. Apart from the room lifecycle that feeds them, so a hosted room can hold a
//! [`Source`] without the lifecycle and the room state depending on each other.

use crate::replay::bundle::content_hash;
use crate::replay::writer::BundleThread;
use bevy::prelude::*;
use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;

/// A level's source text and its content hash, for bundles.
#[derive(Clone, Debug)]
pub struct Source {
    pub hash: String,
    pub text: Arc<str>,
}

impl Source {
    pub fn new(text: String) -> Source {
        Source { hash: content_hash(&text), text: text.into() }
    }
}

/// Writes `DATA_DIR/bundles/<code>-<n>.ron` on its own thread (`replay::writer`), with the
/// sources every bundle carries. [`BundleWriter::flush`] waits for everything queued (the
/// shutdown path).
#[derive(Resource)]
pub struct BundleWriter {
    pub dir: PathBuf,
    /// Level id → source, for every level the host offers.
    pub levels: HashMap<String, Source>,
    pub recipes: Source,
    pub thread: BundleThread,
}

impl BundleWriter {
    pub fn start(dir: PathBuf, levels: HashMap<String, Source>, recipes: Source) -> BundleWriter {
        let thread = BundleThread::start(dir.clone()).expect("a thread for the bundle writer");
        BundleWriter { dir, levels, recipes, thread }
    }

    /// Blocks until every bundle queued so far is on disk.
    pub fn flush(&self) {
        self.thread.flush();
    }
}

/// `DATA_DIR/results.jsonl`, appended and fsynced once per finished or aborted round.
#[derive(Resource)]
pub struct ResultsLog {
    pub path: PathBuf,
    file: File,
}

impl ResultsLog {
    pub fn open(path: PathBuf) -> std::io::Result<ResultsLog> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let file = OpenOptions::new().create(true).append(true).open(&path)?;
        Ok(ResultsLog { path, file })
    }

    /// One line, then `fsync`: a round counts as recorded only once this returns.
    pub fn append(&mut self, line: &serde_json::Value) -> std::io::Result<()> {
        let mut text = line.to_string();
        text.push('\n');
        self.file.write_all(text.as_bytes())?;
        self.file.sync_data()
    }
}
