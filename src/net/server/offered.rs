//! The host's offered levels follow the play order without a restart: when the watcher reads a
//! changed `index.ron`, or a folder without one gains or loses a level ([`CampaignChanged`]),
//! [`HostLevels`] becomes the new play order of the levels the library holds, and every room
//! keeps the level it was on (its position is looked up again by id), or the first one when
//! its level left the order.

use bevy::prelude::*;

use crate::level::{CampaignChanged, LevelLibrary};
use crate::net::server::daily::DailyKitchen;
use crate::net::server::hosted::{HostLevels, HostedRoom};

/// Adds [`follow_index_edits`] and logs the [`StartNotes`]; needs `LevelWatchPlugin`.
pub struct OfferedPlugin;

impl Plugin for OfferedPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<StartNotes>()
            .add_systems(Startup, say_start_notes)
            .add_systems(Update, follow_index_edits);
    }
}

/// What the host decided about its levels while it was being built, before its log was up:
/// said at startup.
#[derive(Resource, Clone, Debug, Default)]
pub struct StartNotes {
    /// `level refused: …` lines (errors).
    pub refused: Vec<String>,
    /// Plain notes (no index, designer mode).
    pub said: Vec<String>,
}

fn say_start_notes(notes: Res<StartNotes>) {
    notes.refused.iter().for_each(|line| error!("{line}"));
    notes.said.iter().for_each(|line| info!("{line}"));
}

/// Rebuilds the offered list from the new index order and re-points each room by level id.
fn follow_index_edits(
    mut changed: MessageReader<CampaignChanged>,
    lib: Res<LevelLibrary>,
    levels: Option<ResMut<HostLevels>>,
    daily: Option<Res<DailyKitchen>>,
    mut rooms: Query<&mut HostedRoom>,
) {
    let Some(newest) = changed.read().last() else { return };
    let Some(mut levels) = levels else { return };
    // A kitchen with teams is versus's (`--versus-levels`), never a co-op room's.
    let mut offered: Vec<_> =
        newest.ids.iter().filter_map(|id| lib.level(id)).filter(|l| l.teams.is_none()).collect();
    if offered.is_empty() {
        warn!(
            "campaign index reloaded, but none of its levels is published here: kept the old list"
        );
        return;
    }
    // The daily kitchen is the host's own, not the index's: it stays offered.
    offered.extend(daily.map(|d| d.level.clone()));
    let old = levels.ids();
    // A versus room's level is in the versus list, which an index edit of `--levels` leaves be.
    for mut room in rooms.iter_mut().filter(|r| !r.mode.plays_versus()) {
        let id = old.get(room.level);
        room.level = id.and_then(|id| offered.iter().position(|l| l.id == *id)).unwrap_or(0);
    }
    info!("offering {} level(s) from the reloaded play order", offered.len());
    levels.levels = offered;
    levels.book = lib.book.clone();
}
