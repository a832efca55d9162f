//! The online client: the game window connected to a hosted room (`undercooked join HOST:PORT
//! --room CODE` without `--headless`, the menu's Host and Join, the browser). It gets its
//! connect token and its replicon/renet connection from `net::client::api` and
//! `net::client::transport`, and drives the session core every client shares
//! (`net::client::seats`) from `session`; it never simulates — the kitchen, HUD and audio read
//! the views the server replicates, exactly as they read the embedded server's views in local
//! play. A file per idea: the session's window front end (`session`), the lobby panel
//! (`lobby_panel`), hosting a LAN game (`hosting`), joining from the menu (`join_flow`), the
//! `join` command's window (`join`), and the host's lobby choices (`lobby_assist`,
//! `lobby_mode`), and the browser's Play online (`web_directory`). Hosting and joining from the
//! menu are native only.

#[cfg(not(target_arch = "wasm32"))]
pub mod hosting;
#[cfg(not(target_arch = "wasm32"))]
pub mod join;
#[cfg(not(target_arch = "wasm32"))]
pub mod join_flow;
pub mod lobby_assist;
pub mod lobby_mode;
pub mod lobby_panel;
pub mod session;
#[cfg(target_arch = "wasm32")]
pub mod web_directory;

// The paths the screens, the app and the tests name (`client::online::…`).
#[cfg(not(target_arch = "wasm32"))]
pub use hosting::{Hosting, host_lan, lan_ip, local_players};
#[cfg(not(target_arch = "wasm32"))]
pub use join_flow::{
    PendingJoin, WindowedOnlinePlugin, go_online, join_target, leave_online, start_join,
    start_join_by_code,
};
pub use lobby_panel::{InviteLink, LobbyPanelPlugin, lobby_lines};
pub use session::OnlinePlugin;
#[cfg(not(target_arch = "wasm32"))]
pub use session::connect;
