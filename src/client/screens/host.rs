//! The Host screen (native builds): choosing Host opens a hosted server to the LAN on a thread
//! of this process (`online::host_lan`), seats this window in a new room and shows the address,
//! room code and join link while friends join, the room's assists, and Public or Private
//! (private by default: only who has the code joins; public: listed in the directory the window
//! is set to, for Play online and quick match, which the LAN server then announces to).
//! "Start cooking" goes to the kitchen on the server's replicated views (`online::go_online`);
//! the main menu takes the window back to local play.

use crate::client::args::{Options, Screen};
use crate::client::input::Lineup;
use crate::client::local::assist_menu::{AssistOption, RoundAssist, assist_label};
use crate::client::local::{HostError, SelectedLevel};
use crate::client::online::hosting::set_room_public;
use crate::client::online::{Hosting, go_online, host_lan, leave_online, local_players};
use crate::client::save::host_data_dir;
use crate::client::screens::nav::{Cursor, MenuAction, MenuChoice, MenuItem, spawn_item};
use crate::client::screens::play_online::directory_of;
use crate::client::settings::config::Bindings;
use crate::client::state::AppState;
use crate::client::theme::{MENU_GAP, PLAIN, paragraph, screen, title};
use crate::protocol::LobbyView;
use crate::schedule::FrameSystems;
use bevy::prelude::*;

/// The Host screen's live text: address, code, link and the seats.
#[derive(Component)]
struct HostInfo;

/// The hosted room is listed in the directory (the Host screen's Public / Private line).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RoomPublic(pub bool);

/// The Public / Private line's words.
pub fn visibility_label(public: RoomPublic, directory: Option<&str>) -> String {
    match (public.0, directory) {
        (false, _) => "Room: Private (only who has the code joins)".into(),
        (true, Some(_)) => "Room: Public (listed in Play online)".into(),
        (true, None) => "Room: Public (set a directory in Settings to list it)".into(),
    }
}

/// Hosting from the menu, and the Host screen.
pub struct HostScreenPlugin;

impl Plugin for HostScreenPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<RoomPublic>();
        app.add_observer(answer_host);
        app.add_systems(OnEnter(AppState::Host), spawn_host_screen);
        app.add_systems(
            Update,
            (
                paint_host_info.in_set(FrameSystems::Paint),
                relabel_visibility.in_set(FrameSystems::Relabel),
                autoplay_start_cooking,
            )
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
        MenuAction::RoomVisibility => commands.queue(toggle_visibility),
        _ => {}
    }
}

/// Open the LAN server, seat this window, connect, and show the Host screen; a failure is
/// said on the main menu.
fn start_hosting(world: &mut World) {
    let options = world.resource::<Options>().0.clone();
    let level = world.get_resource::<SelectedLevel>().map(|s| s.0.clone());
    let players = local_players(&options, world.resource::<Lineup>());
    let directory = directory_of(world.resource::<Options>(), world.resource::<Bindings>());
    // A new room starts private; the Host screen's line makes it public.
    world.insert_resource(RoomPublic(false));
    let dirs = (host_data_dir(), directory);
    match host_lan(&options.levels, level.as_deref(), "Host", players, dirs) {
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

/// Public / Private, set on the hosted room itself (the server's next heartbeat tells the
/// directory).
fn toggle_visibility(world: &mut World) {
    let want = RoomPublic(!world.resource::<RoomPublic>().0);
    let done = world.get_resource::<Hosting>().is_some_and(|h| set_room_public(h, want.0));
    if done {
        info!("hosted room is now {}", if want.0 { "public" } else { "private" });
        world.insert_resource(want);
    }
}

fn relabel_visibility(
    public: Res<RoomPublic>,
    options: Res<Options>,
    bindings: Res<Bindings>,
    mut items: Query<&mut MenuItem>,
) {
    let directory = directory_of(&options, &bindings);
    for mut item in &mut items {
        if item.action == MenuAction::RoomVisibility {
            item.label = visibility_label(*public, directory.as_deref());
        }
    }
}

fn spawn_host_screen(
    mut commands: Commands,
    mut cursor: ResMut<Cursor>,
    options: Res<Options>,
    assist: Option<Res<RoundAssist>>,
    public: Res<RoomPublic>,
    bindings: Res<Bindings>,
) {
    cursor.0 = 0;
    // The host's assist choice for the room's rounds (sent by `lobby_assist`; F6 / F7 later).
    let assist = assist.map_or_else(|| options.0.assist(), |a| a.0);
    commands.spawn(screen(AppState::Host, MENU_GAP)).with_children(|p| {
        p.spawn(title("Hosting on your network", 44.0));
        p.spawn((HostInfo, paragraph("opening the server...", 22.0, PLAIN)));
        spawn_item(p, 0, MenuAction::StartHosted, "Start cooking".into(), (px(420), 26.0));
        let directory = directory_of(&options, &bindings);
        let line = visibility_label(*public, directory.as_deref());
        spawn_item(p, 1, MenuAction::RoomVisibility, line, (px(560), 22.0));
        for (k, option) in AssistOption::ALL.into_iter().enumerate() {
            let line = assist_label(&assist, option);
            spawn_item(p, 2 + k, MenuAction::Assist(option), line, (px(420), 22.0));
        }
        let back = 2 + AssistOption::ALL.len();
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
