//! Where an ended round is recorded: `results.jsonl` (one fsynced line per round) and the
//! replay-bundle writer's thread, with the level and recipe sources bundles carry. Apart from
//! the room lifecycle that feeds them, so a hosted room can hold a [`Source`] without the
//! lifecycle and the room state depending on each other.

use crate::replay::bundle::{Bundle, content_hash};
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

/// A job for the writer's thread (the room lifecycle queues each ended round's bundle).
pub(super) enum BundleJob {
    Write(Box<Bundle>),
    Flush(std::sync::mpsc::SyncSender<()>),
}

/// Writes `DATA_DIR/bundles/<code>-<n>.ron` on its own thread: a round's bundle is ~0.5 MB of
/// RON, and serialising and fsyncing it inside a tick would stall every other room.
/// [`BundleWriter::flush`] waits for everything queued (the shutdown path).
#[derive(Resource)]
pub struct BundleWriter {
    pub dir: PathBuf,
    /// Level id → source, for every level the host offers.
    pub levels: HashMap<String, Source>,
    pub recipes: Source,
    pub(super) jobs: std::sync::mpsc::Sender<BundleJob>,
}

impl BundleWriter {
    pub fn start(dir: PathBuf, levels: HashMap<String, Source>, recipes: Source) -> BundleWriter {
        let (jobs, rx) = std::sync::mpsc::channel::<BundleJob>();
        let out = dir.clone();
        std::thread::Builder::new()
            .name("undercooked-bundles".into())
            .spawn(move || {
                for job in rx {
                    match job {
                        BundleJob::Write(b) => match b.write_to(&out) {
                            Ok(path) => info!(room = %b.room, path = %path.display(), frames = b.frames.len(), "bundle written"),
                            Err(e) => error!(room = %b.room, error = %e, "bundle write failed"),
                        },
                        BundleJob::Flush(done) => {
                            let _ = done.send(());
                        }
                    }
                }
            })
            .expect("a thread for the bundle writer");
        BundleWriter { dir, levels, recipes, jobs }
    }

    /// Blocks until every bundle queued so far is on disk.
    pub fn flush(&self) {
        let (tx, rx) = std::sync::mpsc::sync_channel(1);
        if self.jobs.send(BundleJob::Flush(tx)).is_ok() {
            let _ = rx.recv();
        }
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
