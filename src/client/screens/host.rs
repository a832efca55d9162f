//! The Host screen (native builds): choosing Host opens a hosted server to the LAN on a thread
//! of this process (`online::host_lan`), seats this window in a new room and shows the address,
//! room code and join link while friends join, and the room's assists. "Start cooking" goes to
//! the kitchen on the server's replicated views (`online::go_online`); the main menu takes the
//! window back to local play.

use crate::client::args::{Options, Screen};
use crate::client::input::Lineup;
use crate::client::local::assist_menu::{AssistOption, RoundAssist, assist_label};
use crate::client::local::{HostError, SelectedLevel};
use crate::client::online::{Hosting, go_online, host_lan, leave_online, local_players};
use crate::client::save::host_data_dir;
use crate::client::screens::nav::{Cursor, MenuAction, MenuChoice, spawn_item};
use crate::client::state::AppState;
use crate::client::theme::{MENU_GAP, PLAIN, paragraph, screen, title};
use crate::protocol::LobbyView;
use crate::schedule::FrameSystems;
use bevy::prelude::*;

/// The Host screen's live text: address, code, link and the seats.
#[derive(Component)]
struct HostInfo;

/// Hosting from the menu, and the Host screen.
pub struct HostScreenPlugin;

impl Plugin for HostScreenPlugin {
    fn build(&self, app: &mut App) {
        app.add_observer(answer_host);
        app.add_systems(OnEnter(AppState::Host), spawn_host_screen);
        app.add_systems(
            Update,
            (paint_host_info.in_set(FrameSystems::Paint), autoplay_start_cooking)
                .run_if(in_state(AppState::Host)),
        );
    }
}

/// `--screen host --autoplay ...`: the host goes on into the kitchen once its room's lobby has
/// arrived, as if "Start cooking" were chosen (automated looking at a hosted round).
fn autoplay_start_cooking(
    options: Res<Options>,
    lobbies: Query<&LobbyView>,
    mut next: ResMut<NextState<AppState>>,
) {
    let automated = options.0.autoplay.is_some() && options.0.screen == Some(Screen::Host);
    if automated && !lobbies.is_empty() {
        next.set(AppState::Playing);
    }
}

/// The main menu's Host line hosts; the Host screen's "Start cooking" goes to the kitchen.
fn answer_host(choice: On<MenuChoice>, mut commands: Commands) {
    match choice.action {
        MenuAction::Host => commands.queue(start_hosting),
        MenuAction::StartHosted => commands.queue(|w: &mut World| {
            w.resource_mut::<NextState<AppState>>().set(AppState::Playing);
        }),
        _ => {}
    }
}

/// Open the LAN server, seat this window, connect, and show the Host screen; a failure is
/// said on the main menu.
fn start_hosting(world: &mut World) {
    let options = world.resource::<Options>().0.clone();
    let level = world.get_resource::<SelectedLevel>().map(|s| s.0.clone());
    let players = local_players(&options, world.resource::<Lineup>());
    match host_lan(&options.levels, level.as_deref(), "Host", players, host_data_dir()) {
        Ok((hosting, reply)) => {
            info!("hosting room {} at {}", hosting.code, hosting.web);
            world.insert_resource(hosting);
            if let Err(e) = go_online(world, &reply) {
                leave_online(world);
                world.resource_mut::<HostError>().0 = Some(format!("cannot host: {e}"));
                return;
            }
            world.resource_mut::<HostError>().0 = None;
            world.resource_mut::<NextState<AppState>>().set(AppState::Host);
        }
        Err(e) => {
            warn!("cannot host: {e}");
            world.resource_mut::<HostError>().0 = Some(format!("cannot host: {e}"));
        }
    }
}

fn spawn_host_screen(
    mut commands: Commands,
    mut cursor: ResMut<Cursor>,
    options: Res<Options>,
    assist: Option<Res<RoundAssist>>,
) {
    cursor.0 = 0;
    // The host's assist choice for the room's rounds (sent by `lobby_assist`; F6 / F7 later).
    let assist = assist.map_or_else(|| options.0.assist(), |a| a.0);
    commands.spawn(screen(AppState::Host, MENU_GAP)).with_children(|p| {
        p.spawn(title("Hosting on your network", 44.0));
        p.spawn((HostInfo, paragraph("opening the server...", 22.0, PLAIN)));
        spawn_item(p, 0, MenuAction::StartHosted, "Start cooking".into(), (px(420), 26.0));
        for (k, option) in AssistOption::ALL.into_iter().enumerate() {
            let line = assist_label(&assist, option);
            spawn_item(p, 1 + k, MenuAction::Assist(option), line, (px(420), 22.0));
        }
        let back = 1 + AssistOption::ALL.len();
        spawn_item(p, back, MenuAction::Back, "Stop hosting".into(), (px(420), 26.0));
        p.spawn(paragraph(
            "Friends join from their menu (Join a game) with the address and code, or the link.\nThe round starts once everyone in the kitchen is ready.",
            16.0,
            PLAIN,
        ));
    });
}

/// The Host screen's words: where to join, and who has.
pub fn host_lines(hosting: &Hosting, lobby: Option<&LobbyView>) -> String {
    let mut text = format!(
        "Address: {}\nRoom code: {}\nJoin link: {}\nor: undercooked join {} --room {}",
        hosting.web,
        hosting.code,
        hosting.link(),
        hosting.web,
        hosting.code
    );
    match lobby {
        Some(lobby) => {
            text.push_str(&format!("\n\nLevel: {}   Cooks:", lobby.level_id));
            for s in &lobby.seats {
                let away = if s.connected { "" } else { " (away)" };
                text.push_str(&format!("  P{} {}{away}", s.seat + 1, s.name));
            }
        }
        None => text.push_str("\n\nconnecting to your own server..."),
    }
    text
}

fn paint_host_info(
    hosting: Option<Res<Hosting>>,
    lobbies: Query<&LobbyView>,
    mut info: Query<&mut Text, With<HostInfo>>,
) {
    let Some(hosting) = hosting else { return };
    let text = host_lines(&hosting, lobbies.iter().next());
    for mut t in &mut info {
        if t.0 != text {
            t.0 = text.clone();
        }
    }
}
