//! The main menu: play (alone, with a bot, Moving Day), the daily and a random generated
//! kitchen and saving the random one (native), the level select, the kitchen workshop, Play
//! online, Host and Join (native), the results board (native, with `--board`), settings and
//! quit; the cooks who joined on it, and why a round or a hosted game
//! could not start. Back on it, the window plays locally again.

use crate::client::args::Options;
use crate::client::input::Lineup;
use crate::client::local::generated::{
    GeneratedKitchen, SavedNote, draw_daily, draw_random, save_into,
};
use crate::client::local::{HostError, MenuBots, SelectedLevel};
#[cfg(not(target_arch = "wasm32"))]
use crate::client::online::leave_online;
use crate::client::screens::nav::{Cursor, MenuAction, MenuChoice, spawn_item};
use crate::client::settings::config::{Bindings, Control, Slot};
use crate::client::settings::device::Device;
use crate::client::state::AppState;
#[cfg(not(target_arch = "wasm32"))]
use crate::client::state::Online;
use crate::client::theme::{ERROR, OVER_KITCHEN, PLAIN, label, paragraph, screen, title};
use crate::schedule::FrameSystems;
use bevy::prelude::*;

/// The main menu's line for why a local round or a hosted game could not start.
#[derive(Component)]
struct ErrorText;

/// The main menu's line on the saved random kitchen.
#[derive(Component)]
struct SavedText;

/// The main menu's line on the cooks who joined, and how more join.
#[derive(Component)]
struct LineupText;

/// The main menu, its lines' answers, and leaving online play on the way back to it.
pub struct MainMenuPlugin;

impl Plugin for MainMenuPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<SavedNote>();
        app.add_observer(answer_main_menu);
        app.add_systems(OnEnter(AppState::Menu), spawn_main_menu);
        // Back on the menu, the window plays locally again (and stops hosting).
        #[cfg(not(target_arch = "wasm32"))]
        app.add_systems(OnEnter(AppState::Menu), leave_online.run_if(resource_exists::<Online>));
        app.add_systems(
            Update,
            (paint_error, paint_saved, paint_lineup)
                .in_set(FrameSystems::Paint)
                .run_if(in_state(AppState::Menu)),
        );
    }
}

/// The main menu holds up to 14 lines (the generated kitchens' three, the kitchen workshop and
/// the results board among them): tighter than the other screens' so the title, every line and
/// the notes under them fit a 720p window.
const MAIN_MENU_TEXT: f32 = 21.0;
const MAIN_MENU_GAP: f32 = 6.0;

fn spawn_main_menu(
    mut commands: Commands,
    mut cursor: ResMut<Cursor>,
    error: Res<HostError>,
    kitchen: Option<Res<GeneratedKitchen>>,
    saved: Res<SavedNote>,
    options: Res<Options>,
) {
    cursor.0 = 0;
    let mut items = vec![
        (MenuAction::Play, "Play".into()),
        (MenuAction::PlayWithBot, "Solo with a bot partner".into()),
        (MenuAction::Tandem, "Moving Day (Tandem)".into()),
    ];
    #[cfg(not(target_arch = "wasm32"))]
    {
        use crate::client::local::generated::KitchenKind;
        items.push((MenuAction::DailyKitchen, "Daily kitchen".into()));
        items.push((MenuAction::RandomKitchen, "Random kitchen".into()));
        let random = |k: &&Res<GeneratedKitchen>| matches!(k.kind, KitchenKind::Random(_));
        if let Some(k) = kitchen.as_ref().filter(random) {
            let line = format!("Save {} ({}) to levels/", k.level.name, k.level.id);
            items.push((MenuAction::SaveKitchen, line));
        }
    }
    #[cfg(target_arch = "wasm32")]
    let _ = (&kitchen, &options);
    items.push((MenuAction::LevelSelect, "Level select".into()));
    #[cfg(not(target_arch = "wasm32"))]
    items.extend([
        (MenuAction::Workshop, "Kitchen workshop".into()),
        (MenuAction::PlayOnline, "Play online".into()),
        (MenuAction::Host, "Host a LAN game".into()),
        (MenuAction::Join, "Join a game".into()),
    ]);
    // The results board, when this window was given one (`--board URL`).
    #[cfg(not(target_arch = "wasm32"))]
    if options.0.board.is_some() {
        items.push((MenuAction::ResultsBoard, "Results board".into()));
    }
    items.extend([(MenuAction::Settings, "Settings".into()), (MenuAction::Quit, "Quit".into())]);
    // See-through: the live kitchen (`backdrop`) cooks on behind the menu.
    let over = BackgroundColor(OVER_KITCHEN);
    // (Inserted over the screen's own background: one bundle may not name a component twice.)
    commands.spawn(screen(AppState::Menu, MAIN_MENU_GAP)).insert(over).with_children(|p| {
        p.spawn(title("UNDERCOOKED", 48.0));
        for (index, (action, line)) in items.into_iter().enumerate() {
            spawn_item(p, index, action, line, (px(420), MAIN_MENU_TEXT));
        }
        p.spawn((SavedText, paragraph(saved.0.clone().unwrap_or_default(), 16.0, PLAIN)));
        p.spawn((LineupText, paragraph("", 18.0, PLAIN)));
        p.spawn((ErrorText, label(error.0.clone().unwrap_or_default(), 16.0, ERROR)));
    });
}

/// The main menu's lines (Host is the Host screen's: hosting opens it).
#[allow(clippy::too_many_arguments)]
fn answer_main_menu(
    choice: On<MenuChoice>,
    mut next: ResMut<NextState<AppState>>,
    mut commands: Commands,
    mut exit: MessageWriter<AppExit>,
    options: Res<Options>,
    mut error: ResMut<HostError>,
    kitchen: Option<Res<GeneratedKitchen>>,
    mut saved: ResMut<SavedNote>,
) {
    let o = &options.0;
    match choice.action {
        MenuAction::DailyKitchen | MenuAction::RandomKitchen => {
            let drawn = if choice.action == MenuAction::DailyKitchen {
                draw_daily(None, &o.recipes)
            } else {
                draw_random(&o.recipes)
            };
            match drawn {
                Ok(k) => {
                    // The log names the kitchen a player was given (a bug report can quote it).
                    info!("main menu: kitchen `{}` drawn", k.level.id);
                    commands.remove_resource::<MenuBots>();
                    commands.insert_resource(SelectedLevel(k.level.id.clone()));
                    commands.insert_resource(k);
                    saved.0 = None;
                    next.set(AppState::Playing);
                }
                Err(e) => error.0 = Some(format!("no kitchen drawn: {e}")),
            }
        }
        MenuAction::SaveKitchen => {
            let Some(k) = kitchen else { return };
            saved.0 = Some(save_into(&k, &o.levels).unwrap_or_else(|e| format!("not saved: {e}")));
        }
        MenuAction::Play => {
            commands.remove_resource::<MenuBots>();
            next.set(AppState::Playing);
        }
        MenuAction::PlayWithBot => {
            commands.insert_resource(MenuBots(1));
            next.set(AppState::Playing);
        }
        MenuAction::Tandem => next.set(AppState::TandemSetup),
        MenuAction::LevelSelect => next.set(AppState::LevelSelect),
        MenuAction::Workshop => next.set(AppState::Workshop),
        MenuAction::Settings => next.set(AppState::Settings),
        MenuAction::Join => next.set(AppState::Join),
        MenuAction::PlayOnline => next.set(AppState::PlayOnline),
        MenuAction::ResultsBoard => next.set(AppState::Board),
        MenuAction::Quit => {
            exit.write(AppExit::Success);
        }
        _ => {}
    }
}

/// The main menu's error line follows [`HostError`] (a failed Host sets it while on the menu).
fn paint_error(error: Res<HostError>, mut text: Query<&mut Text, With<ErrorText>>) {
    if !error.is_changed() {
        return;
    }
    for mut t in &mut text {
        t.0 = error.0.clone().unwrap_or_default();
    }
}

/// The saved-kitchen line follows [`SavedNote`].
fn paint_saved(saved: Res<SavedNote>, mut text: Query<&mut Text, With<SavedText>>) {
    if !saved.is_changed() {
        return;
    }
    for mut t in &mut text {
        t.0 = saved.0.clone().unwrap_or_default();
    }
}

/// The joined cooks, each with the device it plays, and the buttons that join more.
fn paint_lineup(
    lineup: Res<Lineup>,
    bindings: Res<Bindings>,
    mut text: Query<&mut Text, With<LineupText>>,
) {
    let Ok(mut t) = text.single_mut() else { return };
    let cooks: Vec<String> = lineup
        .0
        .iter()
        .enumerate()
        .map(|(k, d)| format!("P{} {}", k + 1, bindings.device_label(*d)))
        .collect();
    let joined = if cooks.is_empty() {
        format!("no cooks yet (P1 plays {})", bindings.device_label(Device::KeyboardLeft))
    } else {
        cooks.join("   ")
    };
    let acts = |slot| bindings.label(slot, Control::Act);
    let text = format!(
        "Cooks: {joined}\nPress your action button to join: {}, {}, or gamepad {}",
        acts(Slot::Keyboard1),
        acts(Slot::Keyboard2),
        acts(Slot::Gamepad)
    );
    if t.0 != text {
        t.0 = text;
    }
}
