//! The menu's Host and Join screens (native builds). Host opens a hosted server to the LAN on
//! a thread of this process (`online::host_lan`), seats this window in a new room and shows the
//! address, room code and join link while friends join; Join takes an address and a room code,
//! or a join link, asks the host's web port for a seat off the main thread, and connects. Both
//! end in the kitchen on the server's replicated views (`online::go_online`); the menu takes the
//! window back to local play (`online::leave_online`).

use crate::client::args::{Options, Screen};
use crate::client::input::Lineup;
use crate::client::local::assist_menu::{AssistOption, RoundAssist, assist_label};
use crate::client::local::{HostError, SelectedLevel};
use crate::client::online::{
    Hosting, PendingJoin, go_online, host_data_dir, host_lan, join_target, leave_online,
    local_players, start_join,
};
use crate::client::screens::menu::{
    Cursor, JoinField, JoinForm, MENU_GAP, MenuAction, NetChoice, field_label, spawn_item,
};
use crate::client::screens::paste::{clipboard_text, first_line};
use crate::client::state::{AppState, Online};
use crate::client::theme::{PLAIN, WARNING, paragraph, screen, title};
use crate::net::wire::error::NetError;
use crate::protocol::LobbyView;
use crate::schedule::FrameSystems;
use bevy::input::ButtonState;
use bevy::input::keyboard::{Key, KeyboardInput};
use bevy::prelude::*;

/// The Join screen's status line (what the join is doing, or why it failed).
#[derive(Component)]
struct StatusText;

/// The Join screen's line on the cooks at this screen: each takes a seat of its own.
#[derive(Component)]
struct CooksText;

/// The Host screen's live text: address, code, link and the seats.
#[derive(Component)]
struct HostInfo;

/// The Host and Join screens, and leaving online play on the way back to the menu.
pub struct NetMenuPlugin;

impl Plugin for NetMenuPlugin {
    fn build(&self, app: &mut App) {
        app.add_observer(on_net_choice);
        app.add_systems(OnEnter(AppState::Host), spawn_host_screen);
        app.add_systems(OnEnter(AppState::Join), spawn_join_screen);
        // Back on the menu, the window plays locally again (and stops hosting).
        app.add_systems(OnEnter(AppState::Menu), leave_online.run_if(resource_exists::<Online>));
        app.add_systems(
            Update,
            // After the menu's steering, which stands still while a field is being typed into: the
            // Esc that ends typing must not also leave the screen.
            (type_into_field, poll_join, paint_status, paint_cooks)
                .chain()
                .in_set(FrameSystems::Type)
                .run_if(in_state(AppState::Join)),
        );
        app.add_systems(
            Update,
            (paint_host_info, autoplay_start_cooking).run_if(in_state(AppState::Host)),
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

fn on_net_choice(choice: On<NetChoice>, mut commands: Commands) {
    match choice.0 {
        MenuAction::Host => commands.queue(start_hosting),
        MenuAction::Join => commands.queue(|w: &mut World| {
            w.resource_mut::<NextState<AppState>>().set(AppState::Join);
        }),
        MenuAction::Connect => commands.queue(connect_from_form),
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

fn spawn_join_screen(
    mut commands: Commands,
    mut cursor: ResMut<Cursor>,
    mut form: ResMut<JoinForm>,
) {
    cursor.0 = 0;
    form.editing = None;
    form.status = None;
    commands.spawn(screen(AppState::Join, MENU_GAP)).with_children(|p| {
        p.spawn(title("Join a game", 44.0));
        for (i, field) in [JoinField::Address, JoinField::Code].into_iter().enumerate() {
            let label = field_label(&form, field);
            spawn_item(p, i, MenuAction::EditField(field), label, (px(640), 24.0));
        }
        spawn_item(p, 2, MenuAction::Connect, "Connect".into(), (px(420), 26.0));
        spawn_item(p, 3, MenuAction::Back, "Back".into(), (px(420), 26.0));
        p.spawn((StatusText, paragraph("", 18.0, WARNING)));
        p.spawn((CooksText, paragraph("", 18.0, PLAIN)));
        p.spawn(paragraph(
            "The host's screen shows its address (HOST:PORT), the room code and a join link.\nChoose a field and type or paste (Ctrl+V); Enter, Tab or Esc ends typing. A join link needs no code.",
            16.0,
            PLAIN,
        ));
    });
}

/// While a field is chosen: typed text goes into it, Backspace deletes, Ctrl+V (or
/// Shift+Insert) pastes the clipboard's first line, Enter / Tab / Esc end.
fn type_into_field(
    mut typed: MessageReader<KeyboardInput>,
    keys: Res<ButtonInput<KeyCode>>,
    mut form: ResMut<JoinForm>,
) {
    let Some(field) = form.editing else {
        typed.clear();
        return;
    };
    if !form.armed {
        // The press that chose the field is not typed into it.
        typed.clear();
        form.armed = true;
        return;
    }
    let ctrl = keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]);
    let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    for key in typed.read() {
        if key.state != ButtonState::Pressed {
            continue;
        }
        let paste =
            (ctrl && key.key_code == KeyCode::KeyV) || (shift && key.key_code == KeyCode::Insert);
        if paste {
            match clipboard_text(None, std::time::Duration::from_millis(500)) {
                Ok(text) => {
                    form.field_mut(field).push_str(&first_line(&text));
                    form.status = None;
                }
                Err(why) => form.status = Some(format!("cannot paste: {why}")),
            }
            continue;
        }
        if ctrl {
            continue; // other shortcuts type nothing
        }
        match &key.logical_key {
            Key::Enter | Key::Tab | Key::Escape => {
                form.editing = None;
                return;
            }
            Key::Backspace => {
                form.field_mut(field).pop();
            }
            _ => {
                if let Some(text) = &key.text {
                    let clean: String = text.chars().filter(|c| !c.is_control()).collect();
                    form.field_mut(field).push_str(&clean);
                }
            }
        }
    }
}

fn connect_from_form(world: &mut World) {
    if world.contains_resource::<PendingJoin>() {
        return;
    }
    let form = world.resource::<JoinForm>().clone();
    match join_target(&form.address, &form.code) {
        Ok((web, code)) => {
            world.resource_mut::<JoinForm>().status =
                Some(format!("asking {web} for a seat in room {code}..."));
            let players = local_players(&world.resource::<Options>().0, world.resource::<Lineup>());
            world.insert_resource(start_join(web, code, "Cook".into(), players));
        }
        Err(why) => world.resource_mut::<JoinForm>().status = Some(why),
    }
}

/// The web port's answer: connect and go to the kitchen, or say why not.
fn poll_join(world: &mut World) {
    let Some(pending) = world.get_resource::<PendingJoin>() else { return };
    let answer = match pending.0.lock() {
        Ok(rx) => match rx.try_recv() {
            Ok(answer) => answer,
            Err(std::sync::mpsc::TryRecvError::Empty) => return,
            Err(std::sync::mpsc::TryRecvError::Disconnected) => {
                Err(NetError::Thread("the join request ended without an answer".into()))
            }
        },
        Err(_) => Err(NetError::Thread("the join request failed".into())),
    };
    world.remove_resource::<PendingJoin>();
    let result = answer.and_then(|reply| go_online(world, &reply).map(|()| reply));
    match result {
        Ok(reply) => {
            info!("joined room {}", reply.code);
            world.resource_mut::<NextState<AppState>>().set(AppState::Playing);
        }
        Err(e) => {
            leave_online(world);
            world.resource_mut::<JoinForm>().status = Some(format!("cannot join: {e}"));
        }
    }
}

/// How many seats a join asks for: the cooks who joined on the title (or `--players`).
fn paint_cooks(
    options: Res<Options>,
    lineup: Res<Lineup>,
    mut text: Query<&mut Text, With<CooksText>>,
) {
    let n = local_players(&options.0, &lineup);
    let words = match n {
        1 => "1 cook on this screen (more join on the title with their action button)".to_string(),
        n => format!("{n} cooks on this screen: each takes a seat of its own"),
    };
    for mut t in &mut text {
        if t.0 != words {
            t.0.clone_from(&words);
        }
    }
}

fn paint_status(form: Res<JoinForm>, mut text: Query<&mut Text, With<StatusText>>) {
    if !form.is_changed() {
        return;
    }
    let status = form.status.clone().unwrap_or_default();
    for mut t in &mut text {
        if t.0 != status {
            t.0 = status.clone();
        }
    }
}
