//! Bevy asset loaders for level files and the recipe book, and the plugin that registers them.
//!
//! A loaded asset holds the validator's *result*, not just a good level: a broken edit must
//! reach the game as named errors (logged, shown to the designer) while the last good level
//! keeps running, and a loader error would carry only an opaque message. [`LastGoodLevels`]
//! is that "keep the last good one" memory, updated on every asset event.
//!
//! The level loader validates against the recipe book by reading the book's bytes itself
//! (`LevelLoaderSettings::recipes`, default `recipes.ron` in the default `assets/` source).
//! Bevy records that read as a loader dependency, so with file watching on, an edit to the
//! book reloads every level too. Both loaders claim `.ron`; Bevy picks by the requested asset
//! type (`asset_server.load::<LevelAsset>(..)`), so always load with the type named.

use bevy::asset::io::{AssetSourceBuilder, Reader};
use bevy::asset::{AssetApp, AssetLoader, LoadContext};
use bevy::log::{error, info};
use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use super::compile::parse_level;
use super::error::LevelError;
use super::recipes::parse_recipes;
use crate::sim::kitchen::Level;
use crate::sim::recipe_book::RecipeBook;

/// The asset source name under which the repository's `levels/` folder is mounted:
/// `asset_server.load::<LevelAsset>("levels://tutorial.ron")`.
pub const LEVELS_SOURCE: &str = "levels";

/// A level file as loaded: the compiled level, or every problem the validator found.
#[derive(Asset, TypePath, Clone, Debug)]
pub struct LevelAsset {
    pub file: String,
    pub result: Result<Level, Vec<LevelError>>,
}

impl LevelAsset {
    pub fn level(&self) -> Option<&Level> {
        self.result.as_ref().ok()
    }
}

/// The recipe book as loaded.
#[derive(Asset, TypePath, Clone, Debug)]
pub struct RecipeBookAsset {
    pub file: String,
    pub result: Result<RecipeBook, Vec<LevelError>>,
}

/// Why a loader produced no asset at all: the bytes could not be read. (Invalid content is
/// not a loader error; it is an asset whose `result` is `Err`.)
#[derive(Debug, thiserror::Error)]
pub enum LevelLoadError {
    #[error("cannot read {file}: {source}")]
    Io {
        file: String,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot read the recipe book {path} for {file}: {reason}")]
    Recipes { file: String, path: String, reason: String },
}

/// Which recipe book a level is validated against.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct LevelLoaderSettings {
    /// An asset path, e.g. `recipes.ron` (default source) or `other://book.ron`.
    pub recipes: String,
}

impl Default for LevelLoaderSettings {
    fn default() -> Self {
        LevelLoaderSettings { recipes: "recipes.ron".into() }
    }
}

async fn read_all(reader: &mut dyn Reader, file: &str) -> Result<Vec<u8>, LevelLoadError> {
    let mut bytes = Vec::new();
    reader
        .read_to_end(&mut bytes)
        .await
        .map_err(|source| LevelLoadError::Io { file: file.to_string(), source })?;
    Ok(bytes)
}

/// Loads `.ron` level files into [`LevelAsset`].
#[derive(Default, TypePath)]
pub struct LevelLoader;

impl AssetLoader for LevelLoader {
    type Asset = LevelAsset;
    type Settings = LevelLoaderSettings;
    type Error = LevelLoadError;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        settings: &Self::Settings,
        load_context: &mut LoadContext<'_>,
    ) -> Result<LevelAsset, LevelLoadError> {
        let file = load_context.path().to_string();
        let bytes = read_all(reader, &file).await?;
        let book_bytes =
            load_context.read_asset_bytes(settings.recipes.clone()).await.map_err(|e| {
                LevelLoadError::Recipes {
                    file: file.clone(),
                    path: settings.recipes.clone(),
                    reason: e.to_string(),
                }
            })?;
        // A broken book makes every level unverifiable: report the book's own errors.
        let result = parse_recipes(&book_bytes, &settings.recipes)
            .and_then(|book| parse_level(&bytes, &file, &book));
        Ok(LevelAsset { file, result })
    }

    fn extensions(&self) -> &[&str] {
        &["ron"]
    }
}

/// Loads the recipe book into [`RecipeBookAsset`].
#[derive(Default, TypePath)]
pub struct RecipeBookLoader;

impl AssetLoader for RecipeBookLoader {
    type Asset = RecipeBookAsset;
    type Settings = ();
    type Error = LevelLoadError;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        _settings: &(),
        load_context: &mut LoadContext<'_>,
    ) -> Result<RecipeBookAsset, LevelLoadError> {
        let file = load_context.path().to_string();
        let bytes = read_all(reader, &file).await?;
        let result = parse_recipes(&bytes, &file);
        Ok(RecipeBookAsset { file, result })
    }

    fn extensions(&self) -> &[&str] {
        &["ron"]
    }
}

/// The last valid version of every loaded level, by asset. A broken edit leaves its entry
/// untouched, which is what lets a running room keep its kitchen.
#[derive(Resource, Default, Debug)]
pub struct LastGoodLevels {
    pub by_asset: HashMap<AssetId<LevelAsset>, Level>,
}

impl LastGoodLevels {
    pub fn get(&self, id: impl Into<AssetId<LevelAsset>>) -> Option<&Level> {
        self.by_asset.get(&id.into())
    }
}

/// Registers the level and recipe book assets, their loaders, and [`LastGoodLevels`].
/// Add it after `AssetPlugin`; mount the levels folder first with [`register_levels_source`].
pub struct LevelPlugin;

impl Plugin for LevelPlugin {
    fn build(&self, app: &mut App) {
        app.init_asset::<LevelAsset>()
            .init_asset::<RecipeBookAsset>()
            .register_asset_loader(LevelLoader)
            .register_asset_loader(RecipeBookLoader)
            .init_resource::<LastGoodLevels>()
            .add_systems(Update, track_level_loads);
    }
}

/// Mounts a folder (normally `levels`) as the `levels://` asset source. Must run before
/// `AssetPlugin` is added (Bevy builds sources then).
pub fn register_levels_source(app: &mut App, dir: &str) {
    app.register_asset_source(LEVELS_SOURCE, AssetSourceBuilder::platform_default(dir, None));
}

/// Records each valid (re)load and logs each invalid one with its named errors.
fn track_level_loads(
    mut events: MessageReader<AssetEvent<LevelAsset>>,
    assets: Res<Assets<LevelAsset>>,
    mut good: ResMut<LastGoodLevels>,
) {
    for event in events.read() {
        match *event {
            AssetEvent::Added { id } | AssetEvent::Modified { id } => {
                let Some(asset) = assets.get(id) else { continue };
                match &asset.result {
                    Ok(level) => {
                        info!("level `{}` loaded from {}", level.id, asset.file);
                        good.by_asset.insert(id, level.clone());
                    }
                    Err(errors) => {
                        for e in errors {
                            error!("{e}");
                        }
                        let kept = if good.by_asset.contains_key(&id) {
                            "keeping the last good version"
                        } else {
                            "no good version yet"
                        };
                        error!("{} is invalid ({} problem(s)); {kept}", asset.file, errors.len());
                    }
                }
            }
            AssetEvent::Removed { id } => {
                good.by_asset.remove(&id);
            }
            AssetEvent::Unused { .. } | AssetEvent::LoadedWithDependencies { .. } => {}
        }
    }
}
