//! The title screen over the live kitchen: any key opens the main menu; `--level`, `--daily`
//! and `--bundle` pass it by into the kitchen and `--screen` to one menu screen.

use crate::client::args::{Options, Screen};
use crate::client::local::bundle_playback::PlaybackBundle;
use crate::client::local::generated::draw_daily;
use crate::client::local::{HostError, SelectedLevel};
use crate::client::screens::nav::{MenuAction, MenuChoice};
use crate::client::state::AppState;
use crate::client::theme::{
    DIM, MENU_GAP, OVER_KITCHEN_LIGHT, PLAIN, TITLE_PLATE, label, screen, title,
};
use bevy::prelude::*;

/// The title screen, and where the window goes past it.
pub struct TitlePlugin;

impl Plugin for TitlePlugin {
    fn build(&self, app: &mut App) {
        // After the Loading state: `--level` passes the title by.
        app.add_systems(OnEnter(AppState::Title), (skip_to_level, open_screen));
        app.add_systems(OnEnter(AppState::Title), spawn_title);
        app.add_systems(Update, leave_title.run_if(in_state(AppState::Title)));
    }
}

/// `--level` and `--daily` go straight to the kitchen (a daily kitchen that cannot be drawn
/// says why on the menu).
fn skip_to_level(
    options: Res<Options>,
    mut commands: Commands,
    mut error: ResMut<HostError>,
    mut next: ResMut<NextState<AppState>>,
    playback: Option<Res<PlaybackBundle>>,
) {
    if let Some(level) = &options.0.level {
        commands.insert_resource(SelectedLevel(level.clone()));
        next.set(AppState::Playing);
    }
    // `--bundle` (read and checked before the window opened: `app::run`).
    if let Some(b) = playback {
        info!("bundle playback: `{}`, {} ticks", b.0.level_id, b.0.ticks);
        commands.insert_resource(SelectedLevel(b.0.level_id.clone()));
        next.set(AppState::Playing);
    }
    if options.0.daily {
        match draw_daily(options.0.date.as_deref(), &options.0.recipes) {
            Ok(kitchen) => {
                info!("daily kitchen: `{}`, {}", kitchen.level.id, kitchen.level.name);
                commands.insert_resource(SelectedLevel(kitchen.level.id.clone()));
                commands.insert_resource(kitchen);
                next.set(AppState::Playing);
            }
            Err(e) => {
                error!("daily kitchen: {e}");
                error.0 = Some(format!("no daily kitchen: {e}"));
            }
        }
    }
}

fn spawn_title(mut commands: Commands) {
    // See-through, over the live kitchen (`backdrop`), the words on a plate of their own.
    commands
        .spawn(screen(AppState::Title, MENU_GAP))
        .insert(BackgroundColor(OVER_KITCHEN_LIGHT))
        .with_children(|p| {
            p.spawn((
                Node {
                    flex_direction: FlexDirection::Column,
                    align_items: AlignItems::Center,
                    row_gap: px(MENU_GAP),
                    padding: UiRect::axes(px(48), px(28)),
                    border_radius: BorderRadius::all(px(18)),
                    ..default()
                },
                BackgroundColor(TITLE_PLATE),
            ))
            .with_children(|plate| {
                plate.spawn(title("UNDERCOOKED", 84.0));
                plate.spawn(label("a co-op kitchen for one to four cooks", 22.0, PLAIN));
                plate.spawn(label("press any key", 18.0, DIM));
            });
        });
}

/// Any key, click or gamepad button (or two seconds) opens the main menu.
fn leave_title(
    options: Res<Options>,
    keys: Res<ButtonInput<KeyCode>>,
    mouse: Res<ButtonInput<MouseButton>>,
    pads: Query<&Gamepad>,
    time: Res<Time<Real>>,
    mut since: Local<f32>,
    mut next: ResMut<NextState<AppState>>,
) {
    *since += time.delta_secs();
    let pressed = keys.get_just_pressed().next().is_some()
        || mouse.get_just_pressed().next().is_some()
        || pads.iter().any(|g| g.get_just_pressed().next().is_some());
    // `--screen title` holds the title (for its screenshot) until a key.
    let holds = options.0.screen == Some(Screen::Title);
    if pressed || (*since > 2.0 && !holds) {
        next.set(AppState::Menu);
    }
}

/// `--screen`: past the title straight to one menu screen (Host by hosting, as its menu line
/// does).
fn open_screen(
    options: Res<Options>,
    mut commands: Commands,
    mut next: ResMut<NextState<AppState>>,
) {
    match options.0.screen {
        Some(Screen::Host) => commands.trigger(MenuChoice::of(MenuAction::Host)),
        Some(Screen::Title) => {}
        Some(screen) => next.set(screen.state()),
        None => {}
    }
}
