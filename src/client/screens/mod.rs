//! The menu screens, a file each: the title, the main menu, settings, level select, Host, Join,
//! Play online, the kitchen workshop's chooser and the results board (native; `board_read` its
//! network reads), and the loading screen; `nav` steers them all, `join_form` is the Join
//! screen's form, `paste` its clipboard. [`MenuScreensPlugin`] adds every menu screen (the
//! loading screen is added first, on its own, by the app).

#[cfg(not(target_arch = "wasm32"))]
pub mod board;
#[cfg(not(target_arch = "wasm32"))]
pub mod board_read;
#[cfg(not(target_arch = "wasm32"))]
pub mod host;
#[cfg(not(target_arch = "wasm32"))]
pub mod join;
pub mod join_form;
pub mod level_select;
pub mod loading;
pub mod main_menu;
pub mod nav;
#[cfg(not(target_arch = "wasm32"))]
pub mod paste;
#[cfg(not(target_arch = "wasm32"))]
pub mod play_online;
pub mod settings;
pub mod title;
#[cfg(not(target_arch = "wasm32"))]
pub mod workshop;

use bevy::prelude::*;

/// The menu screens and their steering: a new screen adds its plugin here.
pub struct MenuScreensPlugin;

impl Plugin for MenuScreensPlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins((
            nav::MenuNavPlugin,
            title::TitlePlugin,
            main_menu::MainMenuPlugin,
            settings::SettingsScreenPlugin,
            level_select::LevelSelectPlugin,
        ));
        #[cfg(not(target_arch = "wasm32"))]
        app.add_plugins((
            host::HostScreenPlugin,
            join::JoinScreenPlugin,
            play_online::PlayOnlineScreenPlugin,
            workshop::WorkshopPlugin,
            board::BoardScreenPlugin,
        ));
    }
}
