//! The host's offered levels follow the published index without a restart: when the watcher
//! reads a changed `index.ron` ([`CampaignChanged`]), [`HostLevels`] becomes the new play order
//! of the levels the library holds, and every room keeps the level it was on (its position is
//! looked up again by id), or the first one when its level left the index.

use bevy::prelude::*;

use crate::level::{CampaignChanged, LevelLibrary};
use crate::net::server::hosted::{HostLevels, HostedRoom};

/// Adds [`follow_index_edits`]; needs `LevelWatchPlugin`.
pub struct OfferedPlugin;

impl Plugin for OfferedPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Update, follow_index_edits);
    }
}

/// Rebuilds the offered list from the new index order and re-points each room by level id.
fn follow_index_edits(
    mut changed: MessageReader<CampaignChanged>,
    lib: Res<LevelLibrary>,
    levels: Option<ResMut<HostLevels>>,
    mut rooms: Query<&mut HostedRoom>,
) {
    let Some(newest) = changed.read().last() else { return };
    let Some(mut levels) = levels else { return };
    let offered: Vec<_> = newest.ids.iter().filter_map(|id| lib.level(id)).collect();
    if offered.is_empty() {
        warn!("campaign index reloaded, but none of its levels is published here: kept the old list");
        return;
    }
    let old = levels.ids();
    for mut room in &mut rooms {
        let id = old.get(room.level);
        room.level = id.and_then(|id| offered.iter().position(|l| l.id == *id)).unwrap_or(0);
    }
    info!("offering {} level(s) from the reloaded index", offered.len());
    levels.levels = offered;
    levels.book = lib.book.clone();
}
