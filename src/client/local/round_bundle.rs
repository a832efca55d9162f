//! A local round ends in a replay bundle, as a hosted one does: the room keeps its admitted
//! log from the start, and the tick its verdict comes in the round is taken
//! (`replay::local_round`) and handed to a thread that replays it for the chain and writes
//! `DATA_DIR/bundles/local-LEVEL-N.ron` beside the save. Whether the round may go to a board
//! (the daily kitchen, or a level the levels folder's index publishes at this text's hash; not
//! assisted or survival rounds) is decided at the start, with the reason when not.

use crate::client::args::Options;
use crate::level::files::INDEX_FILE;
use crate::level::index::parse_index;
use crate::replay::bundle::content_hash;
use crate::replay::local_round::LocalRound;
use crate::sim::room::Room;
use bevy::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Where the level a local round plays came from (what its bundle can carry).
#[derive(Clone, Debug)]
pub enum RoundOrigin {
    /// A level file found by id in the levels folder.
    File(String),
    /// A generated kitchen: its text, and whether it is the daily kitchen.
    Generated { text: String, daily: bool },
    /// The kitchen under edit (designer mode, a Playtest): no file text is the round's.
    UnderEdit,
    /// A replay script's round.
    Scripted,
}

/// May this round's bundle go to a board?
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ranking {
    Ranked,
    /// Why not, in a line.
    NotRanked(String),
}

/// Where the round's bundle is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BundleState {
    /// The round is on.
    Playing,
    /// Replaying and writing, off the main thread.
    Writing,
    Written(PathBuf),
    /// No bundle, and why.
    None(String),
}

/// The running local round's bundle: how to make it, whether it may be ranked, and where it is.
#[derive(Resource, Clone, Debug)]
pub struct RoundRecord {
    /// The round's room.
    pub room: Entity,
    pub(super) level_source: Option<String>,
    pub(super) recipes_source: String,
    pub ranking: Ranking,
    pub state: Arc<Mutex<BundleState>>,
}

impl RoundRecord {
    /// The bundle's state now.
    pub fn state(&self) -> BundleState {
        self.state.lock().map(|s| s.clone()).unwrap_or(BundleState::Playing)
    }
}

/// Where local rounds' bundles go: `bundles/` beside the save (`UNDERCOOKED_SAVE` moves both).
pub fn local_bundle_dir() -> PathBuf {
    crate::client::save::save_path()
        .and_then(|p| p.parent().map(|d| d.join("bundles")))
        .unwrap_or_else(|| std::env::temp_dir().join("undercooked-bundles"))
}

/// The text of level `id`'s file in `levels` (`ID.ron`, as `find_level` looks first).
fn level_text(levels: &Path, id: &str) -> Result<String, String> {
    let path = levels.join(format!("{id}.ron"));
    std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))
}

/// Is `text` the published version of level `id` in `levels`' index?
fn published(levels: &Path, id: &str, text: &str) -> Ranking {
    let path = levels.join(INDEX_FILE);
    let Ok(bytes) = std::fs::read(&path) else {
        return Ranking::NotRanked(format!("{} has no published index", levels.display()));
    };
    let Ok(index) = parse_index(&bytes, &path.display().to_string()) else {
        return Ranking::NotRanked(format!("{} does not parse", path.display()));
    };
    match index.levels.iter().find(|e| e.id == id) {
        Some(e) if e.hash == content_hash(text) => Ranking::Ranked,
        Some(_) => Ranking::NotRanked(format!("`{id}` was edited since it was published")),
        None => Ranking::NotRanked(format!("`{id}` is not published (undercooked level publish)")),
    }
}

/// The record of a round about to start on `room` (whose log it turns on), from `origin`; the
/// room's entity is set once it is spawned.
pub fn record_round(room: &mut Room, origin: RoundOrigin, options: &Options) -> RoundRecord {
    let o = &options.0;
    let recipes =
        std::fs::read_to_string(&o.recipes).map_err(|e| format!("{}: {e}", o.recipes.display()));
    let source = match origin {
        _ if o.round_seconds.is_some() => Err("--round-seconds changed the round's length".into()),
        RoundOrigin::UnderEdit => Err("a kitchen under edit is no published level".into()),
        RoundOrigin::Scripted => Err("a scripted round is a replay already".into()),
        RoundOrigin::Generated { text, daily } => Ok((text, daily)),
        RoundOrigin::File(id) => level_text(&o.levels, &id).map(|t| (t, false)),
    };
    let (level_source, recipes_source, ranking, state) = match (source, recipes) {
        (Ok((text, daily)), Ok(recipes)) => {
            room.inputs.record();
            let ranking = if room.assist.is_on() {
                Ranking::NotRanked("assisted rounds are not ranked".into())
            } else if room.survival.is_some() {
                Ranking::NotRanked("survival rounds are not ranked".into())
            } else if daily {
                Ranking::Ranked
            } else {
                // A random kitchen is in no index until saved and published: said the same way.
                published(&o.levels, &room.level.id, &text)
            };
            (Some(text), recipes, ranking, BundleState::Playing)
        }
        (Err(why), _) | (_, Err(why)) => {
            (None, String::new(), Ranking::NotRanked(why.clone()), BundleState::None(why))
        }
    };
    let state = Arc::new(Mutex::new(state));
    RoundRecord { room: Entity::PLACEHOLDER, level_source, recipes_source, ranking, state }
}

/// The tick the verdict comes in: the round taken from the room and handed to a thread that
/// replays it for the chain and writes the bundle.
pub fn bundle_decided_round(rooms: Query<&Room>, record: Option<Res<RoundRecord>>) {
    let Some(record) = record else { return };
    let Ok(room) = rooms.get(record.room) else { return };
    if room.result.is_none() || record.state() != BundleState::Playing {
        return;
    }
    let Some(level_source) = record.level_source.as_deref() else { return };
    let label = format!("local-{}", room.level.id);
    let round = LocalRound::from_room(room, &label, level_source, &record.recipes_source);
    let state = record.state.clone();
    set(&state, BundleState::Writing);
    let spawned = std::thread::Builder::new().name("undercooked-round-bundle".into()).spawn({
        let state = state.clone();
        move || {
            let written = round.into_bundle().and_then(|b| {
                b.write_to(&local_bundle_dir()).map_err(|e| format!("writing it: {e}"))
            });
            match written {
                Ok(path) => {
                    info!(path = %path.display(), "round bundle written");
                    set(&state, BundleState::Written(path));
                }
                Err(why) => {
                    error!(%why, "no round bundle");
                    set(&state, BundleState::None(why));
                }
            }
        }
    });
    if let Err(e) = spawned {
        set(&state, BundleState::None(format!("no thread to write it: {e}")));
    }
}

fn set(state: &Mutex<BundleState>, to: BundleState) {
    if let Ok(mut s) = state.lock() {
        *s = to;
    }
}
