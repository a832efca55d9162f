//! Quick match (docs/NETWORK.md, "Quick match"): from the directory's server list and the round
//! trip this client measures to each server, the room to sit in. [`pick`] is the rule, a pure
//! function: a public kitchen lobby with enough free seats on the nearest server; else a public
//! room in play with enough seats (its newcomers watch until its next round); else a new public
//! room on the least loaded server near the nearest. [`measure`] times each server's web port
//! (`GET /healthz`, the median of a few), [`find`] runs the lot and [`take_seat`] asks the
//! chosen server for the seats, exactly as a join by code or a create does.

use crate::net::client::api::{create_room, request_seat};
use crate::net::client::directory::list_servers;
use crate::net::client::session::JoinReply;
use crate::net::wire::directory::{RoomEntry, ServerEntry};
use crate::net::wire::error::NetError;
use crate::net::wire::tokens::PROTOCOL_ID;
use std::time::{Duration, Instant};

/// Timed requests per server; the round trip is their median.
const PINGS: usize = 3;
/// How long one timed request may take before the server counts as unreachable.
const PING_WAIT_SECS: u64 = 2;
/// Servers measured at most (the directory lists more only on a big fleet; the first these
/// many are enough to find a seat, and a client must not flood every server it hears of).
pub const MAX_MEASURED: usize = 32;
/// A server this much slower than the nearest still counts as near when quick match makes a
/// room: the least loaded of the near ones gets it.
pub const NEAR_SLACK: Duration = Duration::from_millis(30);
/// Quick match seats players only in kitchen rooms (a Tandem room is two friends' couch game).
const KITCHEN: &str = "Cooking";
const LOBBY: &str = "Lobby";

/// Where quick match seats the players.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QuickPick {
    /// A listed public room with enough free seats: join it by its code. `in_play`: its round
    /// is on, so the newcomers watch until the next one.
    Join { address: String, server: String, code: String, in_play: bool },
    /// No public room has the seats: make a public one on this server.
    Create { address: String, server: String },
}

impl QuickPick {
    /// The web address (`HOST:PORT`) of the server picked.
    pub fn address(&self) -> &str {
        match self {
            QuickPick::Join { address, .. } | QuickPick::Create { address, .. } => address,
        }
    }
}

/// Why quick match found nowhere to sit, or could not ask.
#[derive(Debug, thiserror::Error)]
pub enum QuickError {
    /// The directory did not answer its server list.
    #[error("directory: {0}")]
    Directory(NetError),
    /// No listed server speaks this protocol and answered its round-trip requests.
    #[error("no_server: no listed server of this version answered")]
    NoServer,
    /// Every reachable server is full: no public room has the seats and none may make a room.
    #[error("all_full: no public room has {0} free seats and no server may make another room")]
    AllFull(u8),
    /// The chosen server refused the seats (a race with other players; ask again).
    #[error("seat: {0}")]
    Seat(NetError),
}

/// The server list's entry with the round trip this client measured to it (`None`: no answer).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Measured {
    pub server: ServerEntry,
    pub rtt: Option<Duration>,
}

/// A room that can take `seats` more players now.
fn has_seats(room: &RoomEntry, seats: u8) -> bool {
    room.public && room.mode == KITCHEN && room.seats_free >= seats
}

/// The rule: where `seats` players sit, from the servers and their measured round trips.
/// Servers of another protocol or that did not answer are passed over; the nearer server wins,
/// and on one server the fullest room with the seats (players meet players); ties go to the
/// lower id and code, so two clients that see the same list pick the same room.
pub fn pick(servers: &[Measured], seats: u8) -> Result<QuickPick, QuickError> {
    let mut usable: Vec<(&ServerEntry, Duration)> = servers
        .iter()
        .filter(|m| m.server.protocol == PROTOCOL_ID)
        .filter_map(|m| m.rtt.map(|rtt| (&m.server, rtt)))
        .collect();
    if usable.is_empty() {
        return Err(QuickError::NoServer);
    }
    usable.sort_by(|a, b| a.1.cmp(&b.1).then_with(|| a.0.id.cmp(&b.0.id)));
    for in_play in [false, true] {
        for (server, _) in &usable {
            let room = server
                .public_rooms
                .iter()
                .filter(|r| has_seats(r, seats) && (r.phase != LOBBY) == in_play)
                .min_by(|a, b| b.seats_taken.cmp(&a.seats_taken).then_with(|| a.code.cmp(&b.code)));
            if let Some(room) = room {
                return Ok(QuickPick::Join {
                    address: server.address.clone(),
                    server: server.name.clone(),
                    code: room.code.clone(),
                    in_play,
                });
            }
        }
    }
    let room_left: Vec<&(&ServerEntry, Duration)> =
        usable.iter().filter(|(s, _)| s.rooms < s.capacity).collect();
    let Some(nearest) = room_left.first().map(|(_, rtt)| *rtt) else {
        return Err(QuickError::AllFull(seats));
    };
    // Least loaded: the smallest share of its rooms in use (a / b < c / d as a·d < c·b), then
    // fewer players, then nearer.
    let chosen = room_left
        .iter()
        .filter(|(_, rtt)| *rtt <= nearest + NEAR_SLACK)
        .min_by(|(a, ra), (b, rb)| {
            let load_a = u64::from(a.rooms) * u64::from(b.capacity);
            let load_b = u64::from(b.rooms) * u64::from(a.capacity);
            load_a.cmp(&load_b).then(a.players.cmp(&b.players)).then(ra.cmp(rb))
        })
        .map(|(s, _)| *s)
        .ok_or(QuickError::AllFull(seats))?;
    Ok(QuickPick::Create { address: chosen.address.clone(), server: chosen.name.clone() })
}

/// The round trip to the web port at `address`: the median of [`PINGS`] timed
/// `GET /healthz` (each a fresh connection, as a seat request is), `None` when none answered.
pub fn round_trip(address: &str) -> Option<Duration> {
    let url = format!("http://{address}/healthz");
    let mut times: Vec<Duration> = (0..PINGS)
        .filter_map(|_| {
            let start = Instant::now();
            let resp = minreq::get(&url).with_timeout(PING_WAIT_SECS).send().ok()?;
            (resp.status_code == 200).then(|| start.elapsed())
        })
        .collect();
    times.sort();
    times.get(times.len() / 2).copied()
}

/// Each server's round trip, measured at once on a thread per server (at most
/// [`MAX_MEASURED`]; the rest are left out).
pub fn measure(servers: Vec<ServerEntry>) -> Vec<Measured> {
    let threads: Vec<_> = servers
        .into_iter()
        .take(MAX_MEASURED)
        .map(|server| {
            let address = server.address.clone();
            (server, std::thread::spawn(move || round_trip(&address)))
        })
        .collect();
    threads
        .into_iter()
        .map(|(server, t)| Measured { server, rtt: t.join().ok().flatten() })
        .collect()
}

/// The directory's servers, measured: what Play online shows and quick match picks from.
pub fn survey(directory: &str) -> Result<Vec<Measured>, QuickError> {
    let list = list_servers(directory).map_err(QuickError::Directory)?;
    Ok(measure(list.servers))
}

/// Asks the directory, measures, and picks where `seats` players sit.
pub fn find(directory: &str, seats: u8) -> Result<QuickPick, QuickError> {
    pick(&survey(directory)?, seats)
}

/// The seats at `pick`: a join by its code, or a new public room (the caller's name on each).
pub fn take_seat(pick: &QuickPick, name: &str, seats: u8) -> Result<JoinReply, QuickError> {
    match pick {
        QuickPick::Join { address, code, .. } => {
            request_seat(address, Some(code), name, None, seats)
        }
        QuickPick::Create { address, .. } => create_room(address, name, None, seats, true),
    }
    .map_err(QuickError::Seat)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn room(code: &str, phase: &str, taken: u8, public: bool) -> RoomEntry {
        RoomEntry {
            code: code.into(),
            level: "tutorial".into(),
            mode: KITCHEN.into(),
            phase: phase.into(),
            seats_taken: taken,
            seats_free: 4 - taken,
            public,
        }
    }

    fn server(id: &str, rtt_ms: Option<u64>, rooms: Vec<RoomEntry>) -> Measured {
        Measured {
            server: ServerEntry {
                id: id.into(),
                address: format!("{id}:7780"),
                name: id.into(),
                region: "test".into(),
                protocol: PROTOCOL_ID,
                capacity: 4,
                players: rooms.iter().map(|r| u32::from(r.seats_taken)).sum(),
                rooms: rooms.len() as u32,
                public_rooms: rooms.into_iter().filter(|r| r.public).collect(),
            },
            rtt: rtt_ms.map(Duration::from_millis),
        }
    }

    fn joined(p: Result<QuickPick, QuickError>) -> (String, bool) {
        match p {
            Ok(QuickPick::Join { code, in_play, .. }) => (code, in_play),
            other => panic!("expected a join, got {other:?}"),
        }
    }

    #[test]
    fn the_lobby_on_the_nearest_server_wins() {
        let far = server("far", Some(100), vec![room("FARAA", LOBBY, 3, true)]);
        let near = server("near", Some(5), vec![room("NEARA", LOBBY, 1, true)]);
        assert_eq!(joined(pick(&[far, near], 1)), ("NEARA".into(), false));
    }

    #[test]
    fn a_lobby_without_enough_seats_is_passed_over_for_a_farther_one() {
        let near = server("near", Some(5), vec![room("NEARA", LOBBY, 3, true)]);
        let far = server("far", Some(100), vec![room("FARAA", LOBBY, 1, true)]);
        assert_eq!(joined(pick(&[near.clone(), far.clone()], 2)), ("FARAA".into(), false));
        assert_eq!(joined(pick(&[near, far], 1)), ("NEARA".into(), false));
    }

    #[test]
    fn on_one_server_the_fullest_lobby_with_seats_and_then_the_lower_code() {
        let s = server(
            "s",
            Some(5),
            vec![
                room("BBBBB", LOBBY, 1, true),
                room("CCCCC", LOBBY, 2, true),
                room("DDDDD", LOBBY, 2, true),
            ],
        );
        assert_eq!(joined(pick(&[s], 1)), ("CCCCC".into(), false));
    }

    #[test]
    fn private_tandem_and_full_rooms_are_never_picked() {
        let mut tandem = room("TTTTT", LOBBY, 1, true);
        tandem.mode = "Tandem".into();
        let s = server(
            "s",
            Some(5),
            vec![room("PPPPP", LOBBY, 1, false), tandem, room("FFFFF", LOBBY, 4, true)],
        );
        assert!(matches!(pick(&[s], 1), Ok(QuickPick::Create { .. })));
    }

    #[test]
    fn a_room_in_play_only_when_no_lobby_anywhere_has_room() {
        let near = server("near", Some(5), vec![room("PLAYS", "Round", 1, true)]);
        let far = server("far", Some(100), vec![room("LOBBY", LOBBY, 1, true)]);
        assert_eq!(joined(pick(&[near.clone(), far], 1)), ("LOBBY".into(), false));
        assert_eq!(joined(pick(&[near], 1)), ("PLAYS".into(), true));
    }

    #[test]
    fn a_new_room_goes_to_the_least_loaded_near_server() {
        let busy = server(
            "busy",
            Some(5),
            vec![room("AAAAA", LOBBY, 4, true), room("BBBBB", "Round", 4, false)],
        );
        let idle_near = server("idle", Some(20), vec![]);
        let idle_far = server("away", Some(200), vec![]);
        match pick(&[busy.clone(), idle_near, idle_far.clone()], 1) {
            Ok(QuickPick::Create { server, .. }) => assert_eq!(server, "idle"),
            other => panic!("{other:?}"),
        }
        // The only idle server is far: the near busy one (with rooms left) still gets it.
        match pick(&[busy, idle_far], 1) {
            Ok(QuickPick::Create { server, .. }) => assert_eq!(server, "busy"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn silent_and_foreign_servers_are_passed_over_and_full_ones_refused_by_name() {
        let silent = server("silent", None, vec![room("SSSSS", LOBBY, 1, true)]);
        let mut foreign = server("foreign", Some(1), vec![room("OOOOO", LOBBY, 1, true)]);
        foreign.server.protocol = PROTOCOL_ID ^ 1;
        assert!(matches!(pick(&[silent, foreign], 1), Err(QuickError::NoServer)));
        assert!(matches!(pick(&[], 1), Err(QuickError::NoServer)));
        let rooms = (0..4).map(|i| room(&format!("FULL{i}"), LOBBY, 4, true)).collect();
        assert!(matches!(pick(&[server("full", Some(5), rooms)], 1), Err(QuickError::AllFull(1))));
    }

    #[test]
    fn a_measured_round_trip_is_none_where_nothing_answers() {
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        assert_eq!(round_trip(&format!("127.0.0.1:{port}")), None);
    }
}
