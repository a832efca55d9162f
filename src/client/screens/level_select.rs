//! The Level Select screen: the round's assists (assist mode, before the round), the campaign
//! in play order with each level's best stars (and whether they were assisted), locked levels
//! naming what opens them, and assist mode's "skip level". Steered like every menu screen
//! (`menu::steer_menu`); its own file so the menu's stays one screen's worth of each.

use crate::client::args::Options;
use crate::client::local::assist_menu::{AssistOption, RoundAssist, assist_label, skip_target};
use crate::client::save::SaveData;
use crate::client::screens::loading::{GameAssets, campaign_from_assets};
use crate::client::screens::menu::{Cursor, MenuAction, spawn_item, unlocked};
use crate::client::state::AppState;
use crate::client::theme::{ERROR, label, screen, title};
use crate::level::{LevelAsset, load_campaign, load_recipes_file};
use bevy::prelude::*;

/// The Level Select screen, spawned as it opens.
pub struct LevelSelectPlugin;

impl Plugin for LevelSelectPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(OnEnter(AppState::LevelSelect), spawn_level_select);
    }
}

/// "**-" for one star of three.
fn stars_text(stars: u8) -> String {
    (0..3).map(|k| if k < stars { '*' } else { '-' }).collect()
}

fn spawn_level_select(
    mut commands: Commands,
    mut cursor: ResMut<Cursor>,
    options: Res<Options>,
    save: Res<SaveData>,
    assist: Option<Res<RoundAssist>>,
    assets: Option<Res<GameAssets>>,
    loaded: Res<Assets<LevelAsset>>,
) {
    let assist = assist.map_or_else(|| options.0.assist(), |a| a.0);
    cursor.0 = 0;
    // From the Loading state's assets; straight from the folder if that load failed.
    let levels = match assets {
        Some(assets) => campaign_from_assets(&assets, &loaded, &options.0.levels),
        None => load_recipes_file(&options.0.recipes)
            .and_then(|b| load_campaign(&options.0.levels, &b))
            .map_err(|e| e.to_string()),
    };
    // The assists first (chosen before the round), then the campaign in two columns (play
    // order runs down the left, then the right: Up/Down walk it in order), then skip and Back.
    // Compact rows, so all fifteen levels and the assists fit a 1280x720 window.
    let assists: Vec<(MenuAction, String)> = AssistOption::ALL
        .into_iter()
        .map(|o| (MenuAction::Assist(o), assist_label(&assist, o)))
        .collect();
    let mut rows: Vec<(MenuAction, String)> = Vec::new();
    let mut tail: Vec<(MenuAction, String)> = Vec::new();
    let mut error = None;
    match levels {
        Ok(levels) => {
            let ids: Vec<String> = levels.iter().map(|l| l.id.clone()).collect();
            let open = |k: usize| unlocked(k, &ids, &save.best_stars, &save.skipped);
            for (k, l) in levels.iter().enumerate() {
                let stars = save.best_stars.get(&l.id).copied().unwrap_or(0);
                let mark = match (save.assisted.contains(&l.id), save.skipped.contains(&l.id)) {
                    (true, _) => "  (assisted)",
                    (false, true) if stars == 0 => "  (skipped)",
                    _ => "",
                };
                if open(k) {
                    rows.push((
                        MenuAction::PickLevel(l.id.clone()),
                        format!("{}. {}  [{}]{mark}", k + 1, l.name, stars_text(stars)),
                    ));
                } else {
                    let line = format!(
                        "{}. {}  (locked: a star on {})",
                        k + 1,
                        l.name,
                        levels[k - 1].name
                    );
                    rows.push((MenuAction::Locked, line));
                }
            }
            if let Some(k) = skip_target(&ids, &save.best_stars, &save.skipped, open) {
                let line =
                    format!("Assist: skip {} (opens {})", levels[k].name, levels[k + 1].name);
                tail.push((MenuAction::SkipLevel(ids[k].clone()), line));
            }
        }
        Err(e) => error = Some(format!("cannot read the campaign: {e}")),
    }
    tail.push((MenuAction::Back, "Back".into()));
    commands.spawn(screen(AppState::LevelSelect, 8.0)).with_children(|p| {
        p.spawn(title("Level select", 40.0));
        let mut index = 0;
        p.spawn(Node { column_gap: px(12), ..default() }).with_children(|row| {
            for (action, line) in assists {
                spawn_item(row, index, action, line, (px(400), 20.0));
                index += 1;
            }
        });
        if let Some(e) = error {
            p.spawn(label(e, 16.0, ERROR));
        }
        let split = rows.len().div_ceil(2);
        p.spawn(Node { column_gap: px(12), width: percent(94), max_width: px(1180), ..default() })
            .with_children(|cols| {
                let mut left = rows;
                let right = left.split_off(split);
                for column in [left, right] {
                    cols.spawn(Node {
                        flex_direction: FlexDirection::Column,
                        row_gap: px(6),
                        width: percent(50),
                        ..default()
                    })
                    .with_children(|c| {
                        for (action, line) in column {
                            spawn_item(c, index, action, line, (percent(100), 17.0));
                            index += 1;
                        }
                    });
                }
            });
        for (action, line) in tail {
            spawn_item(p, index, action, line, (px(600), 20.0));
            index += 1;
        }
    });
}
