//! The Join screen (native builds): an address and a room code, or a join link, typed or
//! pasted, or a room code alone when a directory is set (`--directory` or Settings: it says
//! which server holds the room); Connect asks the host's web port for a seat off the main thread (one for each cook
//! at this screen) and connects, and the kitchen follows on the server's replicated views
//! (`online::go_online`); the main menu takes the window back to local play.

use crate::client::args::Options;
use crate::client::input::Lineup;
use crate::client::online::{
    PendingJoin, go_online, join_target, leave_online, local_players, start_join,
    start_join_by_code,
};
use crate::client::screens::join_form::{JoinField, JoinForm};
use crate::client::screens::nav::{Cursor, MenuAction, MenuChoice, MenuItem, spawn_item};
use crate::client::screens::paste::{clipboard_text, first_line};
use crate::client::screens::play_online::directory_of;
use crate::client::settings::config::Bindings;
use crate::client::state::AppState;
use crate::client::theme::{MENU_GAP, PLAIN, WARNING, paragraph, screen, title};
use crate::net::wire::directory::parse_directory_link;
use crate::net::wire::error::NetError;
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

/// The Join screen: typing (here and into Settings' directory), asking for a seat, and its
/// answer.
pub struct JoinScreenPlugin;

impl Plugin for JoinScreenPlugin {
    fn build(&self, app: &mut App) {
        app.add_observer(answer_join);
        app.add_systems(OnEnter(AppState::Join), spawn_join_screen);
        let here = || in_state(AppState::Join);
        // After the menu's steering, which stands still while a field is being typed into: the
        // Esc that ends typing must not also leave the screen.
        // Typing serves every screen with a field (Settings' directory too).
        let typing = || here().or_else(in_state(AppState::Settings));
        app.add_systems(
            Update,
            (type_into_field.run_if(typing()), poll_join.run_if(here()))
                .chain()
                .in_set(FrameSystems::Type),
        );
        app.add_systems(Update, relabel_fields.in_set(FrameSystems::Relabel).run_if(here()));
        app.add_systems(
            Update,
            (paint_status, paint_cooks).in_set(FrameSystems::Paint).run_if(here()),
        );
    }
}

/// A field chosen takes the keys; Connect asks for a seat.
fn answer_join(choice: On<MenuChoice>, mut form: ResMut<JoinForm>, mut commands: Commands) {
    match choice.action {
        MenuAction::EditField(field) => {
            form.editing = Some(field);
            form.armed = false;
        }
        MenuAction::Connect => commands.queue(connect_from_form),
        _ => {}
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
            let label = form.field_label(field);
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
    let players = local_players(&world.resource::<Options>().0, world.resource::<Lineup>());
    // A directory's join link (`http://DIRECTORY/join/CODE`): the directory says which server
    // holds the room.
    if let Some((directory, code)) = parse_directory_link(&form.address) {
        world.resource_mut::<JoinForm>().status =
            Some(format!("finding room {code} through {directory}..."));
        world.insert_resource(start_join_by_code(directory, code, "Cook".into(), players));
        return;
    }
    // A code alone, with a directory: the directory says which server holds the room.
    let directory = directory_of(world.resource::<Options>(), world.resource::<Bindings>());
    if let (true, false, Some(directory)) =
        (form.address.trim().is_empty(), form.code.trim().is_empty(), directory)
    {
        let code = form.code.trim().to_uppercase();
        world.resource_mut::<JoinForm>().status =
            Some(format!("finding room {code} through {directory}..."));
        world.insert_resource(start_join_by_code(directory, code, "Cook".into(), players));
        return;
    }
    match join_target(&form.address, &form.code) {
        Ok((web, code)) => {
            world.resource_mut::<JoinForm>().status =
                Some(format!("asking {web} for a seat in room {code}..."));
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

/// Each field's line as typed, with a caret while it takes the keys.
fn relabel_fields(form: Res<JoinForm>, mut items: Query<&mut MenuItem>) {
    for mut item in &mut items {
        if let MenuAction::EditField(field) = item.action {
            item.label = form.field_label(field);
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
