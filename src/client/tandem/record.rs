//! Tandem runs in the window write replay bundles, as hosted kitchen rounds do: the run's
//! `TandemRecorder` (`tandem/recorder.rs`, stepped with the room) becomes a
//! `*.tandem-bundle.ron` in the folder a window-hosted game's kitchen rounds write theirs
//! (`host_data_dir()/bundles`), through the shared writer thread (`replay/writer.rs`), which
//! logs the path. When the run ends, when the player leaves it, and when the app quits
//! mid-run (then it waits for the file). `undercooked replay check FILE` re-plays it.

use super::run::{TandemRun, end_run, step_run};
use crate::client::state::AppState;
use crate::replay::writer::BundleThread;
use bevy::prelude::*;
use std::path::PathBuf;

/// The window's bundle writer, started on the first bundle.
#[derive(Resource, Default)]
pub struct TandemBundles {
    thread: Option<BundleThread>,
}

/// Where the window's bundles go: beside a window-hosted server's (`host_data_dir()/bundles`).
pub fn bundle_dir() -> PathBuf {
    crate::client::save::host_data_dir().join("bundles")
}

impl TandemBundles {
    /// Finishes a run's recording and queues its bundle (once: the recorder is taken).
    fn write(&mut self, run: &mut TandemRun, reason: &str) {
        let Some(recorder) = run.recorder.take() else { return };
        if self.thread.is_none() {
            match BundleThread::start(bundle_dir()) {
                Ok(t) => self.thread = Some(t),
                Err(e) => {
                    error!(error = %e, "tandem: no bundle writer: bundle lost");
                    return;
                }
            }
        }
        if let Some(thread) = &self.thread {
            thread.write(Box::new(recorder.finish(&run.room, reason)));
        }
    }
}

pub struct TandemRecordPlugin;

impl Plugin for TandemRecordPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<TandemBundles>();
        app.add_systems(
            Update,
            write_when_ended.after(step_run).run_if(in_state(AppState::Tandem)),
        );
        app.add_systems(OnExit(AppState::Tandem), write_when_left.before(end_run));
        app.add_systems(Last, write_on_app_exit);
    }
}

fn write_when_ended(run: Option<ResMut<TandemRun>>, mut bundles: ResMut<TandemBundles>) {
    let Some(mut run) = run else { return };
    if run.room.outcome().is_some() {
        bundles.write(&mut run, "ended");
    }
}

/// Back to the menu mid-run: the bundle of what was played (before `end_run` drops the run).
pub fn write_when_left(run: Option<ResMut<TandemRun>>, mut bundles: ResMut<TandemBundles>) {
    if let Some(mut run) = run {
        bundles.write(&mut run, "left");
    }
}

/// The app quits mid-run: write the bundle and wait for it (the process is about to end).
fn write_on_app_exit(
    mut exits: MessageReader<AppExit>,
    run: Option<ResMut<TandemRun>>,
    mut bundles: ResMut<TandemBundles>,
) {
    if exits.read().next().is_none() {
        return;
    }
    if let Some(mut run) = run {
        bundles.write(&mut run, "quit");
    }
    if let Some(thread) = &bundles.thread {
        thread.flush();
    }
}
