//! The Level Select screen: the round's assists (assist mode, before the round) and mode
//! (standard or survival), the campaign in play order with each level's best stars (and
//! whether they were assisted) and best survival, locked levels
//! naming what opens them, and assist mode's "skip level". Steered like every menu screen
//! (`nav`); how stars open the campaign ([`unlocked`]) is written here too.

use crate::client::args::Options;
use crate::client::local::assist_menu::{AssistOption, RoundAssist, assist_label, skip_target};
use crate::client::local::survival_menu::{RoundSurvival, survival_label, survival_text};
use crate::client::local::{MenuBots, SelectedLevel};
use crate::client::save::SaveData;
use crate::client::screens::loading::{GameAssets, campaign_from_assets};
use crate::client::screens::nav::{Cursor, MenuAction, MenuChoice, spawn_item, spawn_two_columns};
use crate::client::state::AppState;
use crate::client::theme::{ERROR, label, screen, title};
use crate::level::{LevelAsset, load_campaign, load_recipes_file};
use bevy::prelude::*;

/// The Level Select screen, spawned as it opens, and its lines' answers.
pub struct LevelSelectPlugin;

impl Plugin for LevelSelectPlugin {
    fn build(&self, app: &mut App) {
        app.add_observer(answer_level_select);
        app.add_systems(OnEnter(AppState::LevelSelect), spawn_level_select);
    }
}

/// The first three campaign levels are always open.
pub const ALWAYS_OPEN: usize = 3;

/// Star progress gates the campaign: level `index` opens once the level before it has at
/// least one star or was skipped (assist mode); the first [`ALWAYS_OPEN`] are always open.
pub fn unlocked(
    index: usize,
    ids: &[String],
    best_stars: &std::collections::BTreeMap<String, u8>,
    skipped: &std::collections::BTreeSet<String>,
) -> bool {
    index < ALWAYS_OPEN
        || ids.get(index - 1).is_some_and(|prev| {
            best_stars.get(prev).copied().unwrap_or(0) >= 1 || skipped.contains(prev)
        })
}

/// A level picked (into its kitchen, no bot partner), or skipped (the screen again, the next
/// level open); a locked one does nothing (its line says what opens it).
fn answer_level_select(
    choice: On<MenuChoice>,
    mut save: ResMut<SaveData>,
    mut next: ResMut<NextState<AppState>>,
    mut commands: Commands,
) {
    match &choice.action {
        MenuAction::PickLevel(id) => {
            commands.remove_resource::<MenuBots>();
            commands.insert_resource(SelectedLevel(id.clone()));
            next.set(AppState::Playing);
        }
        MenuAction::SkipLevel(id) => {
            if save.skip(id) {
                save.store();
            }
            // The screen again, with the next level open.
            next.set(AppState::LevelSelect);
        }
        _ => {}
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
    survival: Option<Res<RoundSurvival>>,
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
    let survival = survival.is_some_and(|s| s.0);
    let assists: Vec<(MenuAction, String)> = AssistOption::ALL
        .into_iter()
        .map(|o| (MenuAction::Assist(o), assist_label(&assist, o)))
        .chain([(MenuAction::Survival, survival_label(survival))])
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
                // The best survival beside the stars (survival is played on open levels only).
                let best = save.best_survival.get(&l.id).map(survival_text);
                let best = best.map_or_else(String::new, |b| format!("  survived {b}"));
                if open(k) {
                    rows.push((
                        MenuAction::PickLevel(l.id.clone()),
                        format!("{}. {}  [{}]{mark}{best}", k + 1, l.name, stars_text(stars)),
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
                spawn_item(row, index, action, line, (px(380), 20.0));
                index += 1;
            }
        });
        if let Some(e) = error {
            p.spawn(label(e, 16.0, ERROR));
        }
        index = spawn_two_columns(p, index, rows, px(1180));
        for (action, line) in tail {
            spawn_item(p, index, action, line, (px(600), 20.0));
            index += 1;
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[test]
    fn stars_open_the_campaign_one_level_at_a_time() {
        let ids: Vec<String> = (0..6).map(|i| format!("l{i}")).collect();
        let mut best = BTreeMap::new();
        let none = std::collections::BTreeSet::new();
        let open = |best: &BTreeMap<String, u8>| {
            (0..6).filter(|&i| unlocked(i, &ids, best, &none)).count()
        };
        assert_eq!(open(&best), 3, "the first three are always open");
        best.insert("l2".to_string(), 0);
        assert_eq!(open(&best), 3, "a zero-star finish opens nothing");
        best.insert("l2".to_string(), 1);
        assert_eq!(open(&best), 4);
        best.insert("l3".to_string(), 3);
        best.insert("l4".to_string(), 2);
        assert_eq!(open(&best), 6);
        // A skipped level opens the next one as a star would.
        let skipped: std::collections::BTreeSet<String> = ["l2".to_string()].into();
        let best = BTreeMap::new();
        assert!(unlocked(3, &ids, &best, &skipped) && !unlocked(4, &ids, &best, &skipped));
    }
}
