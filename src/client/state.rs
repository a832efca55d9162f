//! The window's states: which screen is up, and whether it is connected to a server.

use bevy::prelude::*;

/// The screens of the game.
#[derive(States, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum AppState {
    /// The content loads (`loading`): a progress bar, then the title.
    #[default]
    Loading,
    Title,
    Menu,
    LevelSelect,
    Settings,
    /// Hosting a LAN game (native): the address, room code and join link, and who has joined.
    Host,
    /// Joining a game (native): address and room code, or a join link.
    Join,
    /// Play online (native): the directory's servers and public rooms, and Quick match.
    PlayOnline,
    /// The results board (native, with `play --board URL`): its levels' entries, each one a
    /// line that plays its bundle.
    Board,
    Playing,
    /// Tandem's setup: couch or porter partner, and the seed (`client::tandem::setup`).
    TandemSetup,
    /// A Tandem run (`client::tandem`).
    Tandem,
    /// The kitchen workshop's chooser (`screens::workshop`): a new kitchen or a level file.
    Workshop,
    /// The kitchen workshop (`client::editor`): a level file edited on a top-down grid.
    Editor,
}

/// The window is connected to a server (the menu's Host or Join): the local host stands down —
/// no local room, no sim stage runs — and the kitchen shows the server's replicated views.
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct Online;

/// No server connection: the window plays locally ([`Online`] absent).
pub fn local_play(online: Option<Res<Online>>) -> bool {
    online.is_none()
}

/// The room of the live kitchen behind the title and menus (`backdrop`): drawn like any room,
/// but silent, untagged, and never the round the HUD reports.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct BackdropRoom;

/// The Play online screen shows the directory's answer, or the results board screen the board's
/// (an automated screenshot of either waits for it, not for a count of frames).
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct ServerListShown;
