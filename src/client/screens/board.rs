//! The results board screen (native builds, `play --board URL`): the levels the board ranks,
//! the daily kitchens first, and for each team size its best entries — rank, score, cooks,
//! length in ticks and time — each a menu line (Up / Down, keyboard or gamepad). Confirming one
//! fetches its bundle, checks it as `play --bundle` does, and plays it back; Escape there comes
//! back here, Escape here goes to the main menu. Every read runs on a thread (`board_read`): a
//! slow or dead board shows "Loading…" or its error by name, never a frozen window. With
//! `--screen board --autoplay` the first entry is played once listed (the window test).

use crate::client::args::{Options, Screen};
use crate::client::local::bundle_playback::{BoardPlayback, PlaybackBundle};
use crate::client::local::{MenuBots, SelectedLevel};
use crate::client::screens::board_read::{
    Listed, Pending, entry_line, group_heading, read_board, read_entry_bundle,
};
use crate::client::screens::nav::{Cursor, MenuAction, MenuChoice, spawn_item};
use crate::client::state::{AppState, ServerListShown};
use crate::client::theme::{DIM, GOLD, PLAIN, WARNING, paragraph, screen, title};
use crate::replay::bundle::Bundle;
use crate::schedule::FrameSystems;
use bevy::prelude::*;

/// Entry lines shown at most (the groups' tops, in the board's order): with the headings they
/// fill a 720p window and no more.
const MAX_ENTRY_LINES: usize = 12;
/// The gap between the screen's lines (it lists more than the other menus).
const GAP: f32 = 4.0;

/// What the screen shows: the board asked, its listings once read, and the status line.
#[derive(Resource, Default)]
struct BoardScreen {
    url: Option<String>,
    listed: Option<Vec<Listed>>,
    status: String,
}

/// The board's listings on their way from their thread.
#[derive(Resource)]
struct PendingListing(Pending<Vec<Listed>>);

/// A chosen entry's bundle on its way from its thread.
#[derive(Resource)]
struct PendingBundle(Pending<Bundle>);

/// The screen's root, rebuilt when the board's answer arrives.
#[derive(Component)]
struct BoardRoot;

/// The status line (loading, fetching an entry, or why not).
#[derive(Component)]
struct StatusText;

/// The results board screen: its listings, its entry lines' answers, and the playback.
pub struct BoardScreenPlugin;

impl Plugin for BoardScreenPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<BoardScreen>();
        app.add_observer(answer_board);
        app.add_systems(OnEnter(AppState::Board), open_board);
        app.add_systems(OnExit(AppState::Board), |mut c: Commands| {
            c.remove_resource::<ServerListShown>();
            c.remove_resource::<PendingListing>();
            c.remove_resource::<PendingBundle>();
        });
        let here = || in_state(AppState::Board);
        app.add_systems(
            Update,
            (receive_listing, receive_bundle).chain().in_set(FrameSystems::Type).run_if(here()),
        );
        app.add_systems(Update, paint_status.in_set(FrameSystems::Paint).run_if(here()));
        app.add_systems(Last, print_board_on_exit.run_if(here()));
    }
}

fn open_board(world: &mut World) {
    let url = world.resource::<Options>().0.board.clone();
    let mut board = world.resource_mut::<BoardScreen>();
    board.url = url.clone();
    board.listed = None;
    board.status = match &url {
        Some(_) => "Loading…".into(),
        None => {
            "No board set: start the game with `undercooked play --board http://HOST:PORT`.".into()
        }
    };
    world.resource_mut::<Cursor>().0 = 0;
    match url {
        Some(url) => {
            let read = Pending::start("undercooked-board-list", move || read_board(&url));
            world.insert_resource(PendingListing(read));
        }
        // Nothing to wait for: the screen says what to set.
        None => world.insert_resource(ServerListShown),
    }
    world.commands().queue(spawn_board);
}

/// Builds the screen from [`BoardScreen`] (again when the board's answer arrives).
fn spawn_board(world: &mut World) {
    let old: Vec<Entity> = world.query_filtered::<Entity, With<BoardRoot>>().iter(world).collect();
    for e in old {
        world.entity_mut(e).despawn();
    }
    let board = world.resource::<BoardScreen>();
    let heading = board.url.as_ref().map(|u| format!("Board: {u}")).unwrap_or_default();
    let status = board.status.clone();
    // Each group's heading, then its entries as lines; the cursor counts only the lines.
    let mut rows: Vec<(Option<MenuAction>, String)> = Vec::new();
    let mut shown = 0;
    let listed = board.listed.clone();
    for g in listed.iter().flatten() {
        if shown >= MAX_ENTRY_LINES {
            break;
        }
        rows.push((None, group_heading(g)));
        for e in g.entries.iter().take(MAX_ENTRY_LINES - shown) {
            rows.push((Some(MenuAction::WatchEntry(e.id)), entry_line(e)));
            shown += 1;
        }
    }
    let empty = listed.as_ref().is_some_and(|l| l.is_empty());
    let mut commands = world.commands();
    // Opaque, like Play online: the entries read plainly over no kitchen.
    let root = commands.spawn((BoardRoot, screen(AppState::Board, GAP))).id();
    commands.entity(root).with_children(|p| {
        p.spawn(title("Results board", 40.0));
        p.spawn(paragraph(heading, 18.0, PLAIN));
        p.spawn((StatusText, paragraph(status, 20.0, WARNING)));
        if empty {
            p.spawn(paragraph("No entries yet: B on a round's end submits one.", 20.0, PLAIN));
        }
        let mut index = 0;
        for (action, line) in rows {
            match action {
                None => {
                    p.spawn(paragraph(line, 20.0, GOLD));
                }
                Some(action) => {
                    spawn_item(p, index, action, line, (px(560), 19.0));
                    index += 1;
                }
            }
        }
        spawn_item(p, index, MenuAction::Back, "Back".into(), (px(560), 19.0));
        p.spawn(paragraph(
            "Up / Down choose an entry, Enter (or your action button) plays it back; Esc: menu",
            15.0,
            DIM,
        ));
    });
}

/// An entry line chosen: fetch its bundle.
fn answer_board(choice: On<MenuChoice>, mut commands: Commands) {
    let MenuAction::WatchEntry(id) = choice.action else { return };
    commands.queue(move |w: &mut World| fetch_entry(w, id));
}

/// Entry `id`'s bundle asked for on a thread (one at a time).
fn fetch_entry(world: &mut World, id: u64) {
    if world.contains_resource::<PendingBundle>() {
        return;
    }
    let Some(url) = world.resource::<BoardScreen>().url.clone() else { return };
    world.resource_mut::<BoardScreen>().status = format!("Fetching entry {id}…");
    let read = Pending::start("undercooked-board-bundle", move || read_entry_bundle(&url, id));
    world.insert_resource(PendingBundle(read));
}

fn receive_listing(world: &mut World) {
    let Some(answer) = world.get_resource::<PendingListing>().and_then(|p| p.0.take()) else {
        return;
    };
    world.remove_resource::<PendingListing>();
    let mut board = world.resource_mut::<BoardScreen>();
    match answer {
        Ok(listed) => {
            let entries: usize = listed.iter().map(|g| g.entries.len()).sum();
            info!("results board: {} listings, {entries} entries", listed.len());
            board.listed = Some(listed);
            board.status = String::new();
        }
        Err(e) => {
            warn!("results board: {e}");
            board.status = e;
        }
    }
    world.insert_resource(ServerListShown);
    spawn_board(world);
    // `--screen board --autoplay`: the first entry is watched, as if chosen (the window test).
    let o = &world.resource::<Options>().0;
    let automated = o.autoplay.is_some() && o.screen == Some(Screen::Board);
    let first = world.resource::<BoardScreen>().listed.iter().flatten().next();
    if let Some(e) = first.and_then(|g| g.entries.first()).filter(|_| automated) {
        fetch_entry(world, e.id);
    }
}

/// The entry's bundle, checked: into the playback (the local host plays it on entering the
/// kitchen), or the reason on the status line.
fn receive_bundle(world: &mut World) {
    let Some(answer) = world.get_resource::<PendingBundle>().and_then(|p| p.0.take()) else {
        return;
    };
    world.remove_resource::<PendingBundle>();
    match answer {
        Ok(bundle) => {
            info!(
                "bundle playback: `{}`, {} ticks (from the board)",
                bundle.level_id, bundle.ticks
            );
            world.remove_resource::<MenuBots>();
            world.insert_resource(SelectedLevel(bundle.level_id.clone()));
            world.insert_resource(PlaybackBundle(bundle));
            world.insert_resource(BoardPlayback);
            world.resource_mut::<NextState<AppState>>().set(AppState::Playing);
        }
        Err(e) => {
            warn!("results board: {e}");
            world.resource_mut::<BoardScreen>().status = e;
        }
    }
}

fn paint_status(board: Res<BoardScreen>, mut text: Query<&mut Text, With<StatusText>>) {
    if !board.is_changed() {
        return;
    }
    for mut t in &mut text {
        if t.0 != board.status {
            t.0.clone_from(&board.status);
        }
    }
}

/// What the screen shows, printed once when a screenshot run exits on it (`board screen: …`,
/// its texts top to bottom joined by ` | `): a window test reads it from the UI itself.
fn print_board_on_exit(
    mut exits: MessageReader<AppExit>,
    options: Res<Options>,
    roots: Query<Entity, With<BoardRoot>>,
    children: Query<&Children>,
    texts: Query<&Text>,
    mut done: Local<bool>,
) {
    if exits.read().next().is_none() || *done || options.0.screenshot.is_none() {
        return;
    }
    *done = true;
    let Ok(root) = roots.single() else { return };
    let shown: Vec<String> = children
        .iter_descendants_depth_first(root)
        .filter_map(|e| texts.get(e).ok())
        .map(|t| t.0.replace('\n', " "))
        .filter(|t| !t.is_empty())
        .collect();
    println!("board screen: {}", shown.join(" | "));
}
