//! What a server world tells the directory (`net::server::announce`, through the web port's router):
//! its rooms as announced, and the re-code of a room whose code another server in the
//! directory holds. A re-coded room keeps its old code as an alias for the connect tokens
//! already minted with it, so a player who joined by the old code is still seated.

use super::hosted::HostedRoom;
use super::rooms::RoomIndex;
use super::seats::MAX_SEATS;
use crate::net::wire::directory::RoomEntry;
use crate::protocol::LobbyView;
use serde_json::{Value, json};

/// Every live room of this world, as its heartbeat carries it, by code.
pub fn room_entries<'a>(
    rooms: impl Iterator<Item = (&'a HostedRoom, &'a LobbyView)>,
) -> Vec<RoomEntry> {
    let mut out: Vec<RoomEntry> = rooms
        .map(|(hosted, view)| {
            let taken = view.seats.len().min(MAX_SEATS);
            RoomEntry {
                code: hosted.code.clone(),
                level: view.level_id.clone(),
                mode: format!("{:?}", view.mode),
                phase: format!("{:?}", view.phase),
                seats_taken: taken as u8,
                seats_free: (MAX_SEATS - taken) as u8,
                public: hosted.public,
            }
        })
        .collect();
    out.sort_by(|a, b| a.code.cmp(&b.code));
    out
}

/// The answer to the router's room list: `{"rooms": [RoomEntry…]}`.
pub fn rooms_answer(entries: Vec<RoomEntry>) -> (u16, Value) {
    (200, json!({"rooms": entries}))
}

/// Gives the room `hosted` (whose code is `old`) a fresh code no room of this world holds or
/// held, and returns it.
pub fn recode(index: &mut RoomIndex, hosted: &mut HostedRoom, old: &str) -> String {
    let new = loop {
        let c = crate::net::wire::tokens::new_code();
        if !index.by_code.contains_key(&c) && !index.aliases.contains_key(&c) {
            break c;
        }
    };
    if let Some(e) = index.by_code.remove(old) {
        index.by_code.insert(new.clone(), e);
    }
    // Earlier aliases of this room follow it to the new code.
    for target in index.aliases.values_mut().filter(|t| t.as_str() == old) {
        *target = new.clone();
    }
    index.aliases.insert(old.to_string(), new.clone());
    hosted.code = new.clone();
    bevy::log::info!(old, new = %new, "room re-coded: the directory holds its code for another server");
    new
}
