//! Writing replay bundles: the numbered, fsynced file (`<room>-<n>.<ext>`, the first free
//! `n`), and the writer's thread that serialises and writes them off the tick (a kitchen
//! round's bundle is ~0.5 MB of RON; serialising and fsyncing it inside a tick would stall
//! every other room). Shared by the server's kitchen rounds (`net/server/records.rs`) and the
//! desktop client's Tandem rounds (`client/tandem/record.rs`).

use bevy::log::{error, info};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Sender, SyncSender};

/// Writes `dir/<stem>-<n>.<ext>` with the first free `n` ≥ `first` (room codes are unique
/// among live rooms only, so an earlier server's file may hold the name), fsynced; returns
/// the path.
pub fn write_numbered(
    dir: &Path,
    stem: &str,
    first: u32,
    ext: &str,
    text: &str,
) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let mut n = first;
    loop {
        let path = dir.join(format!("{stem}-{n}.{ext}"));
        match std::fs::OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(mut f) => {
                f.write_all(text.as_bytes())?;
                f.sync_all()?;
                return Ok(path);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => n += 1,
            Err(e) => return Err(e),
        }
    }
}

/// A bundle the writer's thread can put on disk.
pub trait BundleFile: Send + 'static {
    /// Serialise and write it into `dir`; the path written.
    fn write_into(&self, dir: &Path) -> std::io::Result<PathBuf>;
    /// The room it came from (for the log line).
    fn room(&self) -> &str;
    /// How many inputs it carries (frames or orders; for the log line).
    fn inputs(&self) -> usize;
}

/// A job for the writer's thread.
enum Job {
    Write(Box<dyn BundleFile>),
    Flush(SyncSender<()>),
}

/// The writer's thread: bundles queued with [`BundleThread::write`] land in its folder, one
/// log line each (`bundle written` with the path, or `bundle write failed`).
pub struct BundleThread {
    pub dir: PathBuf,
    jobs: Sender<Job>,
}

impl BundleThread {
    /// Starts the thread; `Err` when the OS gives no thread.
    pub fn start(dir: PathBuf) -> std::io::Result<BundleThread> {
        let (jobs, rx) = std::sync::mpsc::channel::<Job>();
        let out = dir.clone();
        std::thread::Builder::new().name("undercooked-bundles".into()).spawn(move || {
            for job in rx {
                match job {
                    Job::Write(b) => match b.write_into(&out) {
                        Ok(path) => info!(room = %b.room(), path = %path.display(), inputs = b.inputs(), "bundle written"),
                        Err(e) => error!(room = %b.room(), error = %e, "bundle write failed"),
                    },
                    Job::Flush(done) => {
                        let _ = done.send(());
                    }
                }
            }
        })?;
        Ok(BundleThread { dir, jobs })
    }

    /// Queues a bundle; false when the thread is gone (the bundle is lost, and logged so).
    pub fn write(&self, bundle: Box<dyn BundleFile>) -> bool {
        let room = bundle.room().to_string();
        let sent = self.jobs.send(Job::Write(bundle)).is_ok();
        if !sent {
            error!(room = %room, "bundle writer gone: bundle lost");
        }
        sent
    }

    /// Blocks until every bundle queued so far is on disk.
    pub fn flush(&self) {
        let (tx, rx) = std::sync::mpsc::sync_channel(1);
        if self.jobs.send(Job::Flush(tx)).is_ok() {
            let _ = rx.recv();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Note(&'static str);

    impl BundleFile for Note {
        fn write_into(&self, dir: &Path) -> std::io::Result<PathBuf> {
            write_numbered(dir, "ROOM", 1, "txt", self.0)
        }
        fn room(&self) -> &str {
            "ROOM"
        }
        fn inputs(&self) -> usize {
            1
        }
    }

    #[test]
    fn the_thread_writes_numbered_files_without_overwriting() {
        let dir = std::env::temp_dir().join(format!("uc-writer-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let thread = BundleThread::start(dir.clone()).expect("a thread");
        assert!(thread.write(Box::new(Note("one"))));
        assert!(thread.write(Box::new(Note("two"))));
        thread.flush();
        assert_eq!(std::fs::read_to_string(dir.join("ROOM-1.txt")).unwrap(), "one");
        assert_eq!(std::fs::read_to_string(dir.join("ROOM-2.txt")).unwrap(), "two");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
