//! The Play online screen (native builds): the directory's servers (name, region, the round
//! trip this window measured, players, rooms) and their public kitchen rooms with free seats
//! (level, mode, phase, seats), each a line that joins it, and Quick match, which seats every
//! cook at this screen where `net::client::quick` picks. The directory is `play --directory URL`
//! or the one saved in Settings; with none the screen says what to set, and Join a game (address
//! and code) works as before. Every directory and server call runs on a thread: a slow or dead
//! server never freezes the window. All lines are menu lines, so a gamepad alone reads and
//! steers it.

use crate::client::args::{Options, Screen};
use crate::client::input::Lineup;
use crate::client::online::{go_online, leave_online, local_players};
use crate::client::screens::nav::{Cursor, MenuAction, MenuChoice, spawn_item};
use crate::client::settings::config::Bindings;
use crate::client::state::{AppState, ServerListShown};
use crate::client::theme::{PLAIN, WARNING, paragraph, screen, title};
use crate::net::client::quick::{Measured, QuickError, QuickPick, survey, take_seat};
use crate::net::client::session::JoinReply;
use crate::net::wire::directory::RoomEntry;
use crate::net::wire::error::NetError;
use crate::schedule::FrameSystems;
use bevy::prelude::*;
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, TryRecvError, channel};

/// Room lines shown at most (the fullest lobbies on the nearest servers first).
const MAX_ROOM_LINES: usize = 8;
/// The gap between the screen's lines (tighter than the other menus: it lists more).
const GAP: f32 = 8.0;

/// What the screen shows: the directory asked, its last answer, and the last word on a join.
#[derive(Resource, Default)]
struct Board {
    directory: Option<String>,
    servers: Option<Vec<Measured>>,
    status: String,
    /// `--screen play-online --autoplay`: quick match has been asked once.
    auto_asked: bool,
}

/// The directory's answer, measured, on its way from the survey's thread.
#[derive(Resource)]
struct PendingSurvey(Mutex<Receiver<Result<Vec<Measured>, QuickError>>>);

/// A seat request (quick match, or a listed room) on its way from its thread.
#[derive(Resource)]
struct PendingSeat(Mutex<Receiver<Result<(QuickPick, JoinReply), QuickError>>>);

/// The screen's root, rebuilt when the directory's answer arrives.
#[derive(Component)]
struct BoardRoot;

/// The status line (what is being asked, or why it failed).
#[derive(Component)]
struct StatusText;

/// The Play online screen: the list, its lines' answers, and the seat that follows.
pub struct PlayOnlineScreenPlugin;

impl Plugin for PlayOnlineScreenPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Board>();
        app.add_observer(answer_play_online);
        app.add_systems(OnEnter(AppState::PlayOnline), open_board);
        app.add_systems(OnExit(AppState::PlayOnline), |mut c: Commands| {
            c.remove_resource::<ServerListShown>();
        });
        let here = || in_state(AppState::PlayOnline);
        app.add_systems(
            Update,
            (receive_survey, autoplay_quick_match, receive_seat)
                .chain()
                .in_set(FrameSystems::Type)
                .run_if(here()),
        );
        app.add_systems(Update, paint_status.in_set(FrameSystems::Paint).run_if(here()));
    }
}

/// The directory this window asks: `--directory`, else Settings' (blank counts as none).
pub fn directory_of(options: &Options, bindings: &Bindings) -> Option<String> {
    let given = options.0.directory.as_deref().or(bindings.directory.as_deref());
    given.map(str::trim).filter(|d| !d.is_empty()).map(str::to_string)
}

fn open_board(world: &mut World) {
    let directory = directory_of(world.resource::<Options>(), world.resource::<Bindings>());
    let mut board = world.resource_mut::<Board>();
    board.directory = directory.clone();
    board.servers = None;
    board.status = match &directory {
        Some(d) => format!("asking {d} for its servers..."),
        None => String::new(),
    };
    world.resource_mut::<Cursor>().0 = 0;
    match directory {
        Some(d) => world.insert_resource(start_survey(d)),
        // Nothing to wait for: the screen says what to set.
        None => world.insert_resource(ServerListShown),
    }
    world.commands().queue(spawn_board);
}

fn start_survey(directory: String) -> PendingSurvey {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let _ = tx.send(survey(&directory));
    });
    PendingSurvey(Mutex::new(rx))
}

/// Asks for the seats on a thread: quick match's pick (when `listed` is `None`), or the
/// listed room `listed` (its server's web address, its code).
fn start_seat(directory: String, listed: Option<(String, String)>, seats: u8) -> PendingSeat {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let pick = match listed {
            Some((address, code)) => {
                Ok(QuickPick::Join { address, server: String::new(), code, in_play: false })
            }
            None => survey(&directory).and_then(|s| crate::net::client::quick::pick(&s, seats)),
        };
        let seated = pick.and_then(|p| take_seat(&p, "Cook", seats).map(|r| (p, r)));
        let _ = tx.send(seated);
    });
    PendingSeat(Mutex::new(rx))
}

/// The public kitchen rooms with a free seat, nearest server first, fullest room first.
fn open_rooms(servers: &[Measured]) -> Vec<(&Measured, &RoomEntry)> {
    let mut near: Vec<&Measured> = servers.iter().filter(|m| m.rtt.is_some()).collect();
    near.sort_by_key(|m| m.rtt);
    let mut rooms = Vec::new();
    for m in near {
        let mut here: Vec<&RoomEntry> =
            m.server.public_rooms.iter().filter(|r| r.seats_free > 0).collect();
        here.sort_by(|a, b| b.seats_taken.cmp(&a.seats_taken).then_with(|| a.code.cmp(&b.code)));
        rooms.extend(here.into_iter().map(|r| (m, r)));
    }
    rooms
}

/// A listed room's line: code, level, mode, phase, seats, and its server.
pub fn room_line(server: &str, r: &RoomEntry) -> String {
    let total = u16::from(r.seats_taken) + u16::from(r.seats_free);
    format!(
        "{}  {}  {}  {}  {}/{} seats  on {server}",
        r.code, r.level, r.mode, r.phase, r.seats_taken, total
    )
}

/// A server's line of the table: name, region, round trip, players, rooms.
pub fn server_line(m: &Measured) -> String {
    let rtt = match m.rtt {
        Some(d) => format!("{} ms", d.as_millis()),
        None => "no answer".into(),
    };
    let s = &m.server;
    let players = if s.players == 1 { "1 player".into() } else { format!("{} players", s.players) };
    format!("{}  ({})   {rtt}   {players}   {}/{} rooms", s.name, s.region, s.rooms, s.capacity)
}

/// Builds the screen from [`Board`] (again when the directory's answer arrives).
fn spawn_board(world: &mut World) {
    let old: Vec<Entity> = world.query_filtered::<Entity, With<BoardRoot>>().iter(world).collect();
    for e in old {
        world.entity_mut(e).despawn();
    }
    let players = local_players(&world.resource::<Options>().0, world.resource::<Lineup>());
    let board = world.resource::<Board>();
    let mut lines: Vec<(MenuAction, String, f32)> = Vec::new();
    let mut table = String::new();
    let heading = match &board.directory {
        None => {
            lines.push((MenuAction::Settings, "Settings (set the directory)".into(), 24.0));
            lines.push((MenuAction::Join, "Join a game (address and code)".into(), 24.0));
            "No directory set. Type one in Settings (Directory), or start the game with\n\
             `undercooked play --directory http://HOST:PORT`. Join a game works with an address and a code."
                .to_string()
        }
        Some(d) => {
            let cooks = if players == 1 { "1 cook".into() } else { format!("{players} cooks") };
            lines.push((MenuAction::QuickMatch, format!("Quick match ({cooks})"), 26.0));
            if let Some(servers) = &board.servers {
                for (m, r) in open_rooms(servers).into_iter().take(MAX_ROOM_LINES) {
                    let web = m.server.address.clone();
                    let action = MenuAction::JoinListed { web, code: r.code.clone() };
                    lines.push((action, room_line(&m.server.name, r), 18.0));
                }
                table = servers.iter().map(server_line).collect::<Vec<_>>().join("\n");
            }
            lines.push((MenuAction::RefreshServers, "Refresh".into(), 22.0));
            format!("Directory: {d}")
        }
    };
    lines.push((MenuAction::Back, "Back".into(), 22.0));
    let status = board.status.clone();
    let listed = board.servers.as_ref().map(|s| {
        let rooms = open_rooms(s).len();
        format!("{} servers, {rooms} public rooms with free seats", s.len())
    });
    let mut commands = world.commands();
    let root = commands.spawn((BoardRoot, screen(AppState::PlayOnline, GAP))).id();
    commands.entity(root).with_children(|p| {
        p.spawn(title("Play online", 40.0));
        p.spawn(paragraph(heading, 18.0, PLAIN));
        if let Some(listed) = listed {
            p.spawn(paragraph(format!("Servers ({listed})"), 20.0, PLAIN));
            let shown = if table.is_empty() { "none listed".into() } else { table };
            p.spawn(paragraph(shown, 16.0, PLAIN));
        }
        for (i, (action, line, size)) in lines.into_iter().enumerate() {
            spawn_item(p, i, action, line, (px(720), size));
        }
        p.spawn((StatusText, paragraph(status, 18.0, WARNING)));
        p.spawn(paragraph(
            "Quick match seats every cook at this screen in the fullest public lobby with room on\nthe nearest server (a room in play when no lobby has room: you watch until its next\nround), or makes a public room on the least loaded nearby server. Choose a room to join it.",
            15.0,
            PLAIN,
        ));
    });
}

/// Quick match, Refresh and a listed room (Settings and Join are the main menu's lines).
fn answer_play_online(choice: On<MenuChoice>, mut commands: Commands) {
    let listed = match &choice.action {
        MenuAction::QuickMatch => None,
        MenuAction::JoinListed { web, code } => Some((web.clone(), code.clone())),
        MenuAction::RefreshServers => {
            commands.queue(|w: &mut World| {
                if w.contains_resource::<PendingSurvey>() {
                    return;
                }
                let Some(d) = w.resource::<Board>().directory.clone() else { return };
                w.resource_mut::<Board>().status = format!("asking {d} again...");
                w.insert_resource(start_survey(d));
            });
            return;
        }
        // Settings, Join and Back are answered where every screen's are.
        _ => return,
    };
    commands.queue(move |w: &mut World| ask_for_seats(w, listed));
}

fn ask_for_seats(world: &mut World, listed: Option<(String, String)>) {
    if world.contains_resource::<PendingSeat>() {
        return;
    }
    let Some(directory) = world.resource::<Board>().directory.clone() else { return };
    let seats = local_players(&world.resource::<Options>().0, world.resource::<Lineup>());
    world.resource_mut::<Board>().status = match &listed {
        Some((_, code)) => format!("asking for {seats} seat(s) in room {code}..."),
        None => format!("quick match: looking for {seats} seat(s)..."),
    };
    world.insert_resource(start_seat(directory, listed, seats));
}

/// `--screen play-online --autoplay`: quick match once the list is in (automated looking and
/// the window test).
fn autoplay_quick_match(world: &mut World) {
    let options = &world.resource::<Options>().0;
    let automated = options.autoplay.is_some() && options.screen == Some(Screen::PlayOnline);
    let board = world.resource::<Board>();
    if automated && board.servers.is_some() && !board.auto_asked {
        world.resource_mut::<Board>().auto_asked = true;
        ask_for_seats(world, None);
    }
}

/// A thread's answer, if it has come (`None`: still waiting).
fn take_answer<T>(rx: &Mutex<Receiver<Result<T, QuickError>>>) -> Option<Result<T, QuickError>> {
    let Ok(rx) = rx.lock() else {
        return Some(Err(QuickError::Seat(NetError::Thread("the request failed".into()))));
    };
    match rx.try_recv() {
        Ok(answer) => Some(answer),
        Err(TryRecvError::Empty) => None,
        Err(TryRecvError::Disconnected) => {
            Some(Err(QuickError::Seat(NetError::Thread("the request ended unanswered".into()))))
        }
    }
}

fn receive_survey(world: &mut World) {
    let Some(answer) = world.get_resource::<PendingSurvey>().and_then(|p| take_answer(&p.0)) else {
        return;
    };
    world.remove_resource::<PendingSurvey>();
    match answer {
        Ok(servers) => {
            let rooms = open_rooms(&servers).len();
            info!("play online: {} servers, {rooms} public rooms", servers.len());
            let mut board = world.resource_mut::<Board>();
            board.servers = Some(servers);
            board.status = String::new();
        }
        Err(e) => world.resource_mut::<Board>().status = format!("cannot list servers: {e}"),
    }
    world.insert_resource(ServerListShown);
    spawn_board(world);
}

/// The seats' answer: connect and go to the kitchen, or say why not.
fn receive_seat(world: &mut World) {
    let Some(answer) = world.get_resource::<PendingSeat>().and_then(|p| take_answer(&p.0)) else {
        return;
    };
    world.remove_resource::<PendingSeat>();
    let result = answer.and_then(|(pick, reply)| {
        go_online(world, &reply).map_err(QuickError::Seat).map(|()| (pick, reply))
    });
    match result {
        Ok((pick, reply)) => {
            let how = match pick {
                QuickPick::Join { in_play: true, .. } => {
                    " (in play: watching until its next round)"
                }
                QuickPick::Join { .. } => "",
                QuickPick::Create { .. } => " (a new public room)",
            };
            info!(
                "quick match: joined room {} at {} seats {:?}{how}",
                reply.code,
                pick.address(),
                reply.seats
            );
            world.resource_mut::<NextState<AppState>>().set(AppState::Playing);
        }
        Err(e) => {
            leave_online(world);
            world.resource_mut::<Board>().status = format!("cannot join: {e}");
        }
    }
}

fn paint_status(board: Res<Board>, mut text: Query<&mut Text, With<StatusText>>) {
    if !board.is_changed() {
        return;
    }
    for mut t in &mut text {
        if t.0 != board.status {
            t.0.clone_from(&board.status);
        }
    }
}
