//! Play online in the browser (wasm32): the directory's servers and public rooms with free seats
//! on the page's menu, and Quick match, as the window's Play online screen has them. The
//! directory is `?directory=URL` on the page, else the one the page's own server announces to
//! (`GET /api/directory`); with none, the menu says so and making or joining a room by code works
//! as before.
//!
//! A room on this page's server is joined in place; a room on another server is joined by going
//! to that server's page with the room, name and players in its link (`?room=CODE`), and a
//! quick match that makes a room on another server goes to that server's page with `?quick=1`,
//! which asks it for the quick seat on load. So the page never needs another server's API, only
//! the directory's lists (which it answers to any origin) and the round trips it times.

use crate::net::client::browser::{self, get_json, round_trip};
use crate::net::client::quick_pick::{MAX_MEASURED, Measured, QuickPick, pick};
use crate::net::wire::directory::{
    QUICK_PATH, ROOMS_PATH, SERVERS_PATH, ServerList, directory_link,
};
use crate::net::wire::error::NetError;
use bevy::prelude::*;
use std::sync::{Arc, Mutex, PoisonError};

/// Room lines listed at most on the page's menu.
pub const MAX_LISTED: usize = 6;
/// Server lines shown at most under the directory's line.
const MAX_SERVER_LINES: usize = 3;
/// How often the list is asked again while the menu is open.
const REFRESH_SECS: f32 = 10.0;

/// What the page's server should seat these players in (read by the page's menu, which owns
/// the seat request): a listed room by code, or a quick seat (a public lobby with room, else a
/// new public room).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeatHere {
    Room(String),
    Quick,
}

/// One public room line: what it shows and where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listed {
    pub label: String,
    address: String,
    code: String,
}

/// What an async survey or quick match hands back to the frame loop.
enum Arrived {
    Directory(Option<String>),
    /// A code's server (`None`: the directory does not know it, so this page's server is asked).
    Resolved(String, Option<String>),
    Survey(Result<Vec<Measured>, NetError>),
    Quick(Result<QuickPick, String>),
}

/// The page's directory, its last survey and what it says on the menu.
#[derive(Resource, Default)]
pub struct WebDirectory {
    url: Option<String>,
    /// Asked of the page's server and answered (with or without a directory).
    known: bool,
    inbox: Arc<Mutex<Vec<Arrived>>>,
    busy: bool,
    since: f32,
    /// The public rooms with free seats, nearest server first.
    pub listed: Vec<Listed>,
    /// Bumped whenever `listed` changes, so the menu rebuilds its lines.
    pub generation: u32,
    /// The directory's line on the menu.
    pub status: String,
    /// Set when a pick lands on this page's server: the menu asks it for the seats.
    pub seat_here: Option<SeatHere>,
    /// Players and name of the quick match in flight (for the link to another server).
    pending: Option<(u8, String)>,
}

/// `http://HOST:PORT` from a directory as a person wrote it.
fn base_url(text: &str) -> String {
    let t = text.trim().trim_end_matches('/');
    match t.starts_with("http://") || t.starts_with("https://") {
        true => t.to_string(),
        false => format!("http://{t}"),
    }
}

/// The directory's `path` as a server list, or its named refusal.
async fn ask_list(url: String) -> Result<ServerList, NetError> {
    let (status, v) = get_json(&url).await?;
    if status != 200 {
        let name = v["error"].as_str().unwrap_or("unknown");
        return Err(NetError::Http { status, message: format!("{name}: {}", v["detail"]) });
    }
    serde_json::from_value(v).map_err(|_| NetError::BadReply("a directory's server list"))
}

/// Times each listed server from this page (at most [`MAX_MEASURED`]).
async fn measure(list: ServerList) -> Vec<Measured> {
    let mut out = Vec::new();
    for server in list.servers.into_iter().take(MAX_MEASURED) {
        let rtt = round_trip(&server.address).await;
        out.push(Measured { server, rtt });
    }
    out
}

impl WebDirectory {
    /// Where the directory is: the page's `?directory=`, else asks the page's server.
    fn find_url(&mut self) {
        if let Some(url) = browser::page_param("directory") {
            self.url = Some(base_url(&url));
            self.known = true;
            return;
        }
        self.busy = true;
        let inbox = self.inbox.clone();
        wasm_bindgen_futures::spawn_local(async move {
            let url = match get_json("/api/directory").await {
                Ok((200, v)) => v["directory"].as_str().map(base_url),
                _ => None,
            };
            inbox.lock().unwrap_or_else(PoisonError::into_inner).push(Arrived::Directory(url));
        });
    }

    /// Asks the directory for its servers and times each.
    fn survey(&mut self) {
        let Some(dir) = self.url.clone() else { return };
        self.busy = true;
        let inbox = self.inbox.clone();
        wasm_bindgen_futures::spawn_local(async move {
            let answer = match ask_list(format!("{dir}{SERVERS_PATH}")).await {
                Ok(list) => Ok(measure(list).await),
                Err(e) => Err(e),
            };
            inbox.lock().unwrap_or_else(PoisonError::into_inner).push(Arrived::Survey(answer));
        });
    }

    /// Quick match for `players` players named `name`: the directory's candidates, timed,
    /// then [`pick`]; the outcome is acted on by [`follow_directory`].
    pub fn quick(&mut self, players: u8, name: String) {
        let Some(dir) = self.url.clone() else {
            self.status =
                "Quick match needs a directory: open this page with ?directory=URL".into();
            return;
        };
        if self.pending.is_some() {
            return;
        }
        self.pending = Some((players, name));
        self.status = "Quick match: finding the nearest room...".into();
        let inbox = self.inbox.clone();
        wasm_bindgen_futures::spawn_local(async move {
            let answer = match ask_list(format!("{dir}{QUICK_PATH}?players={players}")).await {
                Ok(list) => pick(&measure(list).await, players).map_err(|e| e.to_string()),
                Err(e) => Err(format!("directory: {e}")),
            };
            inbox.lock().unwrap_or_else(PoisonError::into_inner).push(Arrived::Quick(answer));
        });
    }

    /// The link friends open to join room `code`: through the directory when there is one
    /// (`http://DIRECTORY/join/CODE`, which sends each to the room's server wherever it is),
    /// else this page's server's own room link (`origin`/?room=CODE).
    pub fn invite_link(&self, origin: &str, code: &str) -> String {
        match &self.url {
            Some(dir) => directory_link(dir, code),
            None => format!("{origin}/?room={code}"),
        }
    }

    /// A directory is known: codes are resolved through it and quick match can run.
    pub fn has_directory(&self) -> bool {
        self.url.is_some()
    }

    /// Room `code` wherever the directory says it is (this page's server when it does not
    /// know the code: a server that announces nowhere still seats by code).
    pub fn join_code(&mut self, code: String, players: u8, name: String) {
        let Some(dir) = self.url.clone() else { return };
        if self.pending.is_some() {
            return;
        }
        self.pending = Some((players, name));
        self.status = format!("Finding room {code}...");
        let inbox = self.inbox.clone();
        wasm_bindgen_futures::spawn_local(async move {
            let address = match get_json(&format!("{dir}{ROOMS_PATH}/{code}")).await {
                Ok((200, v)) => v["address"].as_str().map(str::to_string),
                _ => None,
            };
            let arrived = Arrived::Resolved(code, address);
            inbox.lock().unwrap_or_else(PoisonError::into_inner).push(arrived);
        });
    }

    /// Sits `players` players named `name` in listed room `index`: here, or on its server's page.
    pub fn join_listed(&mut self, index: usize, players: u8, name: &str) {
        let Some(room) = self.listed.get(index).cloned() else { return };
        self.go(&room.address, Some(&room.code), players, name);
    }

    /// A room at `address` (a new quick seat when `code` is `None`): in place when it is this
    /// page's server, else that server's page, which joins it on load.
    fn go(&mut self, address: &str, code: Option<&str>, players: u8, name: &str) {
        if browser::page_host().is_ok_and(|host| host == address) {
            self.seat_here = Some(code.map_or(SeatHere::Quick, |c| SeatHere::Room(c.to_string())));
            return;
        }
        let seat = match code {
            Some(code) => format!("room={code}"),
            None => "quick=1".to_string(),
        };
        let directory = self.url.as_deref().map(encode).unwrap_or_default();
        let url = format!(
            "http://{address}/?{seat}&name={}&players={players}&directory={directory}",
            encode(name)
        );
        if let Err(e) = browser::navigate(&url) {
            self.status = format!("could not open {address}: {e}");
        }
    }

    fn arrive(&mut self, what: Arrived) {
        match what {
            Arrived::Directory(url) => {
                self.busy = false;
                self.known = true;
                self.url = url;
            }
            Arrived::Survey(Err(e)) => {
                self.busy = false;
                self.status = format!("Directory {}: {e}", self.url.as_deref().unwrap_or("?"));
            }
            Arrived::Survey(Ok(servers)) => {
                self.busy = false;
                let listed = list_rooms(&servers);
                self.status = format!(
                    "Directory {}: {}, {}{}",
                    self.url.as_deref().unwrap_or("?"),
                    count(servers.len(), "server", "servers"),
                    count(listed.len(), "public room with seats", "public rooms with seats"),
                    server_lines(&servers)
                );
                if listed != self.listed {
                    self.listed = listed;
                    self.generation = self.generation.wrapping_add(1);
                }
            }
            Arrived::Resolved(code, address) => {
                let Some((players, name)) = self.pending.take() else { return };
                match address {
                    Some(address) => self.go(&address, Some(&code), players, &name),
                    None => self.seat_here = Some(SeatHere::Room(code)),
                }
            }
            Arrived::Quick(answer) => {
                let Some((players, name)) = self.pending.take() else { return };
                match answer {
                    Ok(QuickPick::Join { address, code, .. }) => {
                        self.status = format!("Quick match: room {code}");
                        self.go(&address, Some(&code), players, &name);
                    }
                    Ok(QuickPick::Create { address, server }) => {
                        self.status = format!("Quick match: a new public room on {server}");
                        self.go(&address, None, players, &name);
                    }
                    Err(e) => self.status = format!("Quick match: {e}"),
                }
            }
        }
    }
}

/// "1 server", "2 servers".
fn count(n: usize, one: &str, many: &str) -> String {
    match n {
        1 => format!("1 {one}"),
        _ => format!("{n} {many}"),
    }
}

/// A query value as a link carries it (letters, digits and `-_.~` kept, the rest %XX).
fn encode(text: &str) -> String {
    let mut out = String::new();
    for b in text.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// The nearest few servers, a line each: name, region, the page's round trip, players, rooms.
fn server_lines(servers: &[Measured]) -> String {
    let mut by_rtt: Vec<&Measured> = servers.iter().collect();
    // Unanswered servers last (`None` sorts first, so it is flipped).
    by_rtt.sort_by_key(|m| (m.rtt.is_none(), m.rtt));
    let mut out = String::new();
    for m in by_rtt.iter().take(MAX_SERVER_LINES) {
        let rtt = m.rtt.map_or("no answer".to_string(), |d| format!("{} ms", d.as_millis()));
        let s = &m.server;
        out.push_str(&format!(
            "\n{} ({}) | {rtt} | {} players | {}/{} rooms",
            s.name, s.region, s.players, s.rooms, s.capacity
        ));
    }
    out
}

/// The public kitchen rooms with a free seat, nearest answering server first, fullest first on
/// one server (the window's Play online orders them the same way).
fn list_rooms(servers: &[Measured]) -> Vec<Listed> {
    let mut near: Vec<&Measured> = servers.iter().filter(|m| m.rtt.is_some()).collect();
    near.sort_by(|a, b| a.rtt.cmp(&b.rtt).then_with(|| a.server.id.cmp(&b.server.id)));
    let mut out = Vec::new();
    for m in near {
        let mut rooms: Vec<_> = m.server.public_rooms.iter().filter(|r| r.fits_quick(1)).collect();
        rooms.sort_by(|a, b| b.seats_taken.cmp(&a.seats_taken).then_with(|| a.code.cmp(&b.code)));
        for r in rooms {
            let ms = m.rtt.map_or(0, |d| d.as_millis());
            out.push(Listed {
                label: format!(
                    "{} | {} | {}/{} | {} ({ms} ms)",
                    r.level,
                    r.phase,
                    r.seats_taken,
                    r.seats_taken + r.seats_free,
                    m.server.name
                ),
                address: m.server.address.clone(),
                code: r.code.clone(),
            });
        }
    }
    out.truncate(MAX_LISTED);
    out
}

/// Finds the directory, surveys it every [`REFRESH_SECS`] and takes what arrived.
pub fn follow_directory(mut dir: ResMut<WebDirectory>, time: Res<Time<Real>>) {
    let arrived: Vec<Arrived> =
        std::mem::take(&mut *dir.inbox.lock().unwrap_or_else(PoisonError::into_inner));
    for what in arrived {
        dir.arrive(what);
    }
    if dir.busy {
        return;
    }
    if !dir.known {
        dir.find_url();
        return;
    }
    if dir.url.is_none() {
        dir.status = "No directory: open this page with ?directory=URL to list public rooms \
                      and quick match (a room code works as before)"
            .into();
        return;
    }
    dir.since -= time.delta_secs();
    if dir.since <= 0.0 {
        dir.since = REFRESH_SECS;
        dir.survey();
    }
}

/// Holds the page's directory; the menu (`client::web`) adds [`follow_directory`] while open.
pub struct WebDirectoryPlugin;

impl Plugin for WebDirectoryPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<WebDirectory>();
    }
}
