//! The browser client (wasm32): the game in the page's canvas (`#undercooked`, WebGL2), joined
//! to a room of the web port that served the page.
//!
//! `/?room=CODE&name=NAME&players=N` joins that room at once and opens on its lobby
//! (web/index.html asks for the name when the link has none). Without a room the page opens on
//! a small online menu: make a room (private, or public: listed in the server's directory),
//! join one by its code, and how many players sit at this screen (couch co-op online: each local player its own seat, keyboard half or gamepad, all on
//! one connection). Offline play is not offered: it needs the embedded server and the level
//! files, which only the desktop game has.
//!
//! The seat comes from the web port's API over `fetch` and the connection is the page's
//! WebSocket to the relay (`net::client::browser`); from there on it is the native online client's app
//! (`online::OnlinePlugin`, the presentation plugins), as `undercooked join` builds it.
//!
//! For the end-to-end test (web/e2e.sh) the page logs a few fixed lines to the console:
//! `undercooked: first frame`, `undercooked: joined room CODE seat N`, `undercooked: lobby
//! phase PHASE` on each change, `undercooked: directory lists N public rooms` when Play online's
//! list changes, and every 5 s `undercooked: traffic in=B out=B secs=S
//! frames=F` (netcode bytes over the WebSocket and frames drawn since it opened).

use super::args::{Options, PlayArgs};
use super::hud::font;
use super::local::assist_menu::{AssistOption, RoundAssist, assist_label, step_assist};
use super::online::web_directory::{
    MAX_LISTED, SeatHere, WebDirectory, WebDirectoryPlugin, follow_directory,
};
use super::online::{InviteLink, LobbyPanelPlugin, OnlinePlugin};
use super::presentation::PresentationPlugin;
use super::state::AppState;
use super::tandem::online::TandemOnlinePlugin;
use super::window::GamePlugins;
use crate::net::client::browser;
use crate::net::client::seats::ClientSession;
use crate::net::client::session::{BadRoomCode, ClientNetPlugin, JoinReply, insert_client};
use crate::net::client::ws::{WsClientPlugin, WsClientTransport};
use crate::net::wire::error::NetError;
use crate::protocol::{LobbyPhase, LobbyView, RoomClock};
use crate::sim::units::MAX_COOKS;
use bevy::asset::AssetMetaCheck;
use bevy::platform::time::Instant;
use bevy::prelude::*;
use std::sync::{Arc, Mutex, PoisonError};

/// The canvas web/index.html gives the game.
pub const CANVAS: &str = "#undercooked";
/// How often the traffic line is logged.
const TRAFFIC_EVERY_SECS: f32 = 5.0;

/// A seat request in flight, and what the menu says about it.
#[derive(Resource, Default)]
struct Joining {
    /// Filled by the fetch when it ends.
    answer: Arc<Mutex<Option<Result<JoinReply, NetError>>>>,
    busy: bool,
    /// Shown on the menu: progress, or why the last try failed.
    status: Option<String>,
    /// The cook's name (from the link, or asked once).
    name: Option<String>,
    /// A room made here is public: listed in the server's directory (private by default).
    public: bool,
}

impl Joining {
    /// Asks the web port for quick match's seats: a public lobby with room, else a new
    /// public room (a quick match that picked this server, or a `?quick=1` link).
    fn start_quick(&mut self, name: String, players: u8) {
        self.busy = true;
        self.status = Some("quick match: taking a seat...".to_string());
        let slot = self.answer.clone();
        wasm_bindgen_futures::spawn_local(async move {
            let answer = browser::quick_seat(&name, players).await;
            *slot.lock().unwrap_or_else(PoisonError::into_inner) = Some(answer);
        });
    }

    /// Asks the web port for `players` seats in `code` (a new room when `None`).
    fn start(&mut self, code: Option<String>, name: String, players: u8) {
        self.busy = true;
        self.status = Some(match &code {
            Some(c) => format!("joining room {c}..."),
            None => "making a room...".to_string(),
        });
        let slot = self.answer.clone();
        let public = self.public;
        wasm_bindgen_futures::spawn_local(async move {
            let answer = browser::request_seat(code.as_deref(), &name, players, public).await;
            *slot.lock().unwrap_or_else(PoisonError::into_inner) = Some(answer);
        });
    }
}

fn console(line: &str) {
    web_sys::console::log_1(&line.into());
}

/// The browser's `main`: builds the app on the page's canvas and starts it (on the web Bevy's
/// runner hands the loop to the browser and returns at once).
pub fn run() {
    let mut app = App::new();
    app.add_plugins(
        GamePlugins
            .set(WindowPlugin {
                primary_window: Some(Window {
                    title: "Undercooked".into(),
                    canvas: Some(CANVAS.into()),
                    fit_canvas_to_parent: true,
                    ..default()
                }),
                ..default()
            })
            // No asset has a .meta file: asking the server for each would be 404s.
            .set(AssetPlugin { meta_check: AssetMetaCheck::Never, ..default() }),
    );
    app.insert_resource(super::capture::shot::StartedAt(Instant::now()));
    let mut args = PlayArgs::default();
    app.insert_state(AppState::Menu);
    app.add_plugins(PresentationPlugin);
    app.add_plugins(ClientNetPlugin);
    app.add_plugins((WsClientPlugin, OnlinePlugin, LobbyPanelPlugin));
    app.add_plugins(super::online::lobby_assist::LobbyAssistPlugin);
    // The host's mode choice (F8) and an online Tandem round, as in the window.
    app.add_plugins((super::online::lobby_mode::LobbyModePlugin, TandemOnlinePlugin));
    let mut joining = Joining::default();
    match browser::page_query() {
        Ok(query) => {
            joining.name = query.name;
            args.players = query.players.unwrap_or(args.players);
            let name = joining.name.clone().unwrap_or_else(|| "Cook".into());
            if let Some(room) = query.room {
                joining.start(Some(room), name, args.players);
            } else if browser::page_param("quick").is_some() {
                // Quick match picked this server from another page: take the seat at once.
                joining.start_quick(name, args.players);
            }
        }
        Err(e) => joining.status = Some(format!("{e}")),
    }
    app.insert_resource(Options(args));
    app.insert_resource(joining);
    app.init_resource::<Cursor>();
    app.add_systems(OnEnter(AppState::Menu), spawn_menu);
    app.add_plugins(WebDirectoryPlugin);
    app.add_systems(
        Update,
        (follow_directory, list_rooms, steer_menu, paint_menu, seat_where_picked)
            .chain()
            .run_if(in_state(AppState::Menu)),
    );
    app.add_systems(Update, finish_join);
    app.add_systems(Last, (first_frame, first_tick, report_phase, report_traffic));
    app.run();
}

/// When the seat answer has come: connect and go to the room, or say why not on the menu.
fn finish_join(world: &mut World) {
    let answer = {
        let joining = world.resource::<Joining>();
        joining.answer.lock().unwrap_or_else(PoisonError::into_inner).take()
    };
    let Some(answer) = answer else { return };
    match answer.and_then(|reply| browser::connect(&reply).map(|t| (reply, t))) {
        Ok((reply, transport)) => {
            insert_client(world, transport);
            world.resource_mut::<ClientSession>().code = reply.code.clone();
            if let Ok(origin) = browser::page_origin() {
                // With a directory the link carries it, not this server's address.
                let link = world.resource::<WebDirectory>().invite_link(&origin, &reply.code);
                world.insert_resource(InviteLink(link));
            }
            let mut joining = world.resource_mut::<Joining>();
            joining.busy = false;
            joining.status = None;
            let seats: Vec<String> = reply.seats.iter().map(u8::to_string).collect();
            console(&format!(
                "undercooked: joined room {} seat {} (seats {})",
                reply.code,
                seats[0],
                seats.join(",")
            ));
            world.resource_mut::<NextState<AppState>>().set(AppState::Playing);
        }
        Err(e) => {
            console(&format!("undercooked: could not join: {e}"));
            let mut joining = world.resource_mut::<Joining>();
            joining.busy = false;
            joining.status = Some(format!("could not join: {e}"));
        }
    }
}

fn first_frame(mut done: Local<bool>) {
    if !*done {
        *done = true;
        console("undercooked: first frame");
    }
}

fn first_tick(clocks: Query<&RoomClock>, mut done: Local<bool>) {
    if !*done && let Some(clock) = clocks.iter().next() {
        *done = true;
        console(&format!("undercooked: room clock at tick {}", clock.tick));
    }
}

fn report_phase(lobbies: Query<&LobbyView>, mut last: Local<Option<LobbyPhase>>) {
    let Some(lobby) = lobbies.iter().next() else { return };
    if *last != Some(lobby.phase) {
        *last = Some(lobby.phase);
        console(&format!("undercooked: lobby phase {:?}", lobby.phase));
    }
}

fn report_traffic(
    transport: Option<Res<WsClientTransport>>,
    time: Res<Time<Real>>,
    mut since: Local<f32>,
    mut total: Local<f32>,
    mut frames: Local<u64>,
) {
    let Some(t) = transport else { return };
    *since += time.delta_secs();
    *total += time.delta_secs();
    *frames += 1;
    if *since >= TRAFFIC_EVERY_SECS {
        *since = 0.0;
        console(&format!(
            "undercooked: traffic in={} out={} secs={:.1} frames={}",
            t.bytes_in, t.bytes_out, *total, *frames
        ));
    }
}

/// What a line of the online menu does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum WebAction {
    Create,
    Join,
    /// Cycles the players at this screen, 1 to 4.
    Players,
    /// A room made here: private (reached by its code) or public (listed in a directory).
    Public,
    /// Steps an assist of the room made here (its host's choice, sent from the lobby).
    Assist(AssistOption),
    /// Quick match through the page's directory.
    QuickMatch,
    /// A public room the directory lists (its line on the menu).
    Listed(usize),
}

#[derive(Component)]
struct WebItem {
    index: usize,
    action: WebAction,
}

#[derive(Component)]
struct StatusText;

/// The directory's line on the menu.
#[derive(Component)]
struct DirectoryText;

/// Holds the listed rooms' lines (rebuilt when the directory's list changes).
#[derive(Component)]
struct ListedLines;

/// A menu line's text size: small enough that the fixed lines, the directory's rooms and the
/// help fit a 540-pixel-high page (the end-to-end test's window) without scrolling.
const ITEM_FONT: f32 = 20.0;
/// The gap between the menu's lines.
const MENU_GAP: f32 = 6.0;

/// Fixed lines of the menu before the listed rooms.
const FIXED_ITEMS: usize = 7;

#[derive(Resource, Default)]
struct Cursor(usize);

const HIGHLIGHT: Color = Color::srgb(1.0, 0.8, 0.15);
const PLAIN: Color = Color::srgb(0.85, 0.86, 0.9);

/// The Public / Private item's words.
fn public_label(public: bool) -> String {
    match public {
        false => "Room: Private (only who has the code joins)".to_string(),
        true => "Room: Public (listed in the server's directory)".to_string(),
    }
}

/// The players item's words.
fn players_label(players: u8) -> String {
    match players {
        1 => "Players on this screen: 1".to_string(),
        n => format!("Players on this screen: {n} (couch co-op)"),
    }
}

/// One menu line: a button with its words.
fn spawn_item(p: &mut ChildSpawnerCommands, index: usize, action: WebAction, label: String) {
    p.spawn((
        WebItem { index, action },
        Button,
        Node {
            width: px(640),
            padding: UiRect::axes(px(14), px(5)),
            justify_content: JustifyContent::Center,
            border_radius: BorderRadius::all(px(8)),
            ..default()
        },
        BackgroundColor(Color::srgb(0.13, 0.14, 0.2)),
    ))
    .with_child((Text::new(label), font(ITEM_FONT), TextColor(PLAIN)));
}

/// The listed rooms' lines, rebuilt when the directory's list changes (after the fixed lines).
fn list_rooms(
    mut commands: Commands,
    dir: Res<WebDirectory>,
    holders: Query<Entity, With<ListedLines>>,
    mut texts: Query<&mut Text, With<DirectoryText>>,
    mut built: Local<Option<u32>>,
) {
    if let Ok(mut t) = texts.single_mut()
        && t.0 != dir.status
    {
        t.0 = dir.status.clone();
    }
    let Ok(holder) = holders.single() else { return };
    if *built == Some(dir.generation) {
        return;
    }
    *built = Some(dir.generation);
    commands.entity(holder).despawn_related::<Children>();
    if dir.has_directory() {
        console(&format!("undercooked: directory lists {} public rooms", dir.listed.len()));
    }
    let lines: Vec<String> = dir.listed.iter().take(MAX_LISTED).map(|l| l.label.clone()).collect();
    commands.entity(holder).with_children(|p| {
        for (i, label) in lines.into_iter().enumerate() {
            spawn_item(p, FIXED_ITEMS + i, WebAction::Listed(i), format!("Join: {label}"));
        }
    });
}

/// A directory pick that landed on this page's server: ask it for the seats.
fn seat_where_picked(mut seats: MenuSeats, options: Res<Options>) {
    if seats.joining.busy {
        return;
    }
    let Some(seat) = seats.dir.seat_here.take() else { return };
    let name = seats.joining.name.clone().unwrap_or_else(|| "Cook".into());
    match seat {
        SeatHere::Room(code) => seats.joining.start(Some(code), name, options.0.players),
        SeatHere::Quick => seats.joining.start_quick(name, options.0.players),
    }
}

/// The seat request in flight and the directory's picks, which steer it.
#[derive(bevy::ecs::system::SystemParam)]
struct MenuSeats<'w> {
    joining: ResMut<'w, Joining>,
    dir: ResMut<'w, WebDirectory>,
}

/// The cook's name: from the link, else asked once.
fn cook_name(joining: &mut Joining) -> Option<String> {
    if joining.name.is_none() {
        joining.name = Some(browser::prompt("Your cook's name?", "Cook")?);
    }
    joining.name.clone()
}

fn spawn_menu(mut commands: Commands, options: Res<Options>) {
    commands.spawn(super::theme::screen(AppState::Menu, MENU_GAP)).with_children(|p| {
        p.spawn((Text::new("UNDERCOOKED"), font(40.0), TextColor(HIGHLIGHT)));
        let assist = options.0.assist();
        let items = [
            (WebAction::Create, "Make a room".to_string()),
            (WebAction::Join, "Join a room by code".to_string()),
            (WebAction::QuickMatch, "Quick match (public rooms, nearest server)".to_string()),
            (WebAction::Players, players_label(options.0.players)),
            (WebAction::Public, public_label(false)),
            (
                WebAction::Assist(AssistOption::OrderTime),
                assist_label(&assist, AssistOption::OrderTime),
            ),
            (
                WebAction::Assist(AssistOption::LongerRound),
                assist_label(&assist, AssistOption::LongerRound),
            ),
        ];
        for (index, (action, label)) in items.into_iter().enumerate() {
            spawn_item(p, index, action, label);
        }
        p.spawn((DirectoryText, Text::new(""), font(16.0), TextColor(PLAIN)));
        p.spawn((
            ListedLines,
            Node { flex_direction: FlexDirection::Column, row_gap: px(MENU_GAP), ..default() },
        ));
        p.spawn((
            Text::new(
                "Offline play needs the desktop game: the browser has no embedded \
                     server.\nFriends join your room from its link; friends on this screen \
                     each take a seat too.\nKeys: WASD + Space/E, Arrows + Enter, or a \
                     gamepad (one each with several players)",
            ),
            font(14.0),
            TextColor(PLAIN),
            TextLayout::justify(Justify::Center),
        ));
        p.spawn((StatusText, Text::new(""), font(18.0), TextColor(Color::srgb(1.0, 0.55, 0.4))));
    });
}

fn steer_menu(
    keys: Res<ButtonInput<KeyCode>>,
    pads: Query<&Gamepad>,
    items: Query<(&WebItem, &Interaction)>,
    mut cursor: ResMut<Cursor>,
    mut seats: MenuSeats,
    mut options: ResMut<Options>,
    mut commands: Commands,
) {
    let MenuSeats { joining, dir } = &mut seats;
    let count = items.iter().count().max(1);
    let pad = |b: GamepadButton| pads.iter().any(|g| g.just_pressed(b));
    if keys.any_just_pressed([KeyCode::KeyW, KeyCode::ArrowUp]) || pad(GamepadButton::DPadUp) {
        cursor.0 = (cursor.0 + count - 1) % count;
    }
    if keys.any_just_pressed([KeyCode::KeyS, KeyCode::ArrowDown]) || pad(GamepadButton::DPadDown) {
        cursor.0 = (cursor.0 + 1) % count;
    }
    let confirm = keys.any_just_pressed([KeyCode::Enter, KeyCode::Space, KeyCode::KeyE])
        || pad(GamepadButton::South);
    let mut chosen = None;
    for (item, interaction) in &items {
        match interaction {
            Interaction::Pressed => chosen = Some(item.action),
            Interaction::Hovered => cursor.0 = item.index,
            Interaction::None => {}
        }
        if confirm && item.index == cursor.0 {
            chosen = Some(item.action);
        }
    }
    let Some(action) = chosen else { return };
    if joining.busy {
        return;
    }
    let code = match action {
        WebAction::Players => {
            options.0.players = options.0.players % MAX_COOKS as u8 + 1;
            return;
        }
        WebAction::Public => {
            joining.public = !joining.public;
            return;
        }
        WebAction::Assist(option) => {
            let mut assist = options.0.assist();
            step_assist(&mut assist, option, true);
            options.0.assist_orders = assist.order_time;
            options.0.assist_round = assist.longer_round;
            // The room made from here starts with it (`lobby_assist` sends the host's choice).
            commands.insert_resource(RoundAssist(assist));
            return;
        }
        WebAction::QuickMatch => {
            let Some(name) = cook_name(joining) else { return };
            dir.quick(options.0.players, name);
            return;
        }
        WebAction::Listed(i) => {
            let Some(name) = cook_name(joining) else { return };
            dir.join_listed(i, options.0.players, &name);
            return;
        }
        WebAction::Create => None,
        WebAction::Join => {
            let Some(text) = browser::prompt("Room code?", "") else { return };
            match crate::net::wire::tokens::parse_code(&text) {
                // With a directory, the code finds its server wherever it is.
                Some(code) if dir.has_directory() => {
                    let Some(name) = cook_name(joining) else { return };
                    dir.join_code(code, options.0.players, name);
                    return;
                }
                Some(code) => Some(code),
                None => {
                    joining.status = Some(BadRoomCode(text).to_string());
                    return;
                }
            }
        }
    };
    let Some(name) = cook_name(joining) else { return };
    joining.start(code, name, options.0.players);
}

fn paint_menu(
    cursor: Res<Cursor>,
    joining: Res<Joining>,
    options: Res<Options>,
    mut items: Query<(&WebItem, &Children, &mut BackgroundColor)>,
    mut labels: Query<(&mut Text, &mut TextColor), Without<StatusText>>,
    mut status: Query<&mut Text, With<StatusText>>,
) {
    for (item, children, mut bg) in &mut items {
        let on = item.index == cursor.0;
        bg.0 = if on { Color::srgb(0.25, 0.22, 0.12) } else { Color::srgb(0.13, 0.14, 0.2) };
        for c in children.iter() {
            if let Ok((mut text, mut color)) = labels.get_mut(c) {
                color.0 = if on { HIGHLIGHT } else { PLAIN };
                let label = match item.action {
                    WebAction::Players => Some(players_label(options.0.players)),
                    WebAction::Public => Some(public_label(joining.public)),
                    WebAction::Assist(o) => Some(assist_label(&options.0.assist(), o)),
                    _ => None,
                };
                if let Some(label) = label
                    && text.0 != label
                {
                    text.0 = label;
                }
            }
        }
    }
    if let Ok(mut t) = status.single_mut() {
        let text = joining.status.clone().unwrap_or_default();
        if t.0 != text {
            t.0 = text;
        }
    }
}
