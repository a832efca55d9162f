//! Quick match's rule (docs/NETWORK.md, "Quick match"), a pure function for the native client
//! and the browser alike: from the directory's servers and the round trip the client measured to
//! each, [`pick`] names where the players sit: a public kitchen lobby with enough free seats on
//! the nearest server; else a public room in play with enough seats (its newcomers watch until
//! its next round); else a new public room on the least loaded server near the nearest.

use crate::net::wire::directory::ServerEntry;
use crate::net::wire::error::NetError;
use crate::net::wire::tokens::PROTOCOL_ID;
use std::time::Duration;

/// Servers measured at most (the directory lists more only on a big fleet; the first these
/// many are enough to find a seat, and a client must not flood every server it hears of).
pub const MAX_MEASURED: usize = 32;
/// A server this much slower than the nearest still counts as near when quick match makes a
/// room: the least loaded of the near ones gets it.
pub const NEAR_SLACK: Duration = Duration::from_millis(30);
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
                .filter(|r| r.fits_quick(seats) && (r.phase != LOBBY) == in_play)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::wire::directory::RoomEntry;

    const KITCHEN: &str = "Cooking";

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
                game_server: None,
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
}
