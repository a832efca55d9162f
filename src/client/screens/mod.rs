//! The menu screens: title, main menu and settings, level select, Host and Join (native), the
//! loading screen, and the Join screen's clipboard paste.

pub mod level_select;
pub mod loading;
pub mod menu;
#[cfg(not(target_arch = "wasm32"))]
pub mod netmenu;
#[cfg(not(target_arch = "wasm32"))]
pub mod paste;
