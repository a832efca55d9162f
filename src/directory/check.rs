//! What an announce must be before the directory looks further: labels without control
//! characters and within length, a literal `IP:PORT` address, a protocol this directory lists,
//! at most as many rooms as the server says it holds (and [`MAX_ANNOUNCED_ROOMS`]), each room
//! with a well-formed code and seats that add up. Each refusal is named.

use super::error::{DirError, DirRefusal};
use crate::net::server::seats::MAX_SEATS;
use crate::net::wire::directory::{Announce, MAX_ANNOUNCED_ROOMS, MAX_LABEL_CHARS, RoomEntry};
use crate::net::wire::tokens::{PROTOCOL_ID, parse_code, parse_secret};
use std::collections::HashSet;
use std::net::SocketAddr;

/// A room's level, mode or phase: at most this many characters of `a-z A-Z 0-9 _ -`.
const MAX_WORD: usize = 64;

fn label(what: &str, text: &str) -> Result<(), DirRefusal> {
    let n = text.chars().count();
    if n == 0 || n > MAX_LABEL_CHARS || text.chars().any(char::is_control) {
        return Err(DirRefusal::new(
            DirError::BadLabel,
            format!("{what}: 1 to {MAX_LABEL_CHARS} characters, none a control character"),
        ));
    }
    Ok(())
}

fn word(text: &str) -> bool {
    !text.is_empty()
        && text.len() <= MAX_WORD
        && text.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

fn room(r: &RoomEntry) -> Result<(), DirRefusal> {
    let bad = |why: String| Err(DirRefusal::new(DirError::BadRoom, why));
    if parse_code(&r.code).as_deref() != Some(r.code.as_str()) {
        return bad(format!("room code `{}`: not a room code", r.code.escape_debug()));
    }
    if !(word(&r.level) && word(&r.mode) && word(&r.phase)) {
        return bad(format!(
            "room {}: level, mode and phase are words of a-z, 0-9, _ and -",
            r.code
        ));
    }
    if usize::from(r.seats_taken) + usize::from(r.seats_free) > MAX_SEATS {
        return bad(format!("room {}: more than {MAX_SEATS} seats", r.code));
    }
    Ok(())
}

/// The claimed address, or the named refusal.
pub fn address(text: &str) -> Result<SocketAddr, DirRefusal> {
    text.parse::<SocketAddr>()
        .ok()
        .filter(|a| a.port() != 0 && !a.ip().is_unspecified())
        .ok_or_else(|| {
            DirRefusal::new(DirError::BadAddress, "address: IP:PORT of the server's web port")
        })
}

/// Every check an announce passes before the store is asked.
pub fn announce(a: &Announce) -> Result<SocketAddr, DirRefusal> {
    label("name", &a.name)?;
    label("region", &a.region)?;
    let addr = address(&a.address)?;
    if a.protocol != PROTOCOL_ID {
        return Err(DirRefusal::new(
            DirError::UnknownProtocol,
            format!("protocol {:#x}: this directory lists {PROTOCOL_ID:#x}", a.protocol),
        ));
    }
    let most = (a.capacity as usize).min(MAX_ANNOUNCED_ROOMS);
    if a.rooms.len() > most {
        return Err(DirRefusal::new(
            DirError::TooManyRooms,
            format!(
                "{} rooms: at most {most} (capacity, and {MAX_ANNOUNCED_ROOMS})",
                a.rooms.len()
            ),
        ));
    }
    let mut seen = HashSet::new();
    for r in &a.rooms {
        room(r)?;
        if !seen.insert(r.code.as_str()) {
            return Err(DirRefusal::new(DirError::BadRoom, format!("room {} twice", r.code)));
        }
    }
    for (what, v) in [("id", &a.id), ("secret", &a.secret)] {
        if v.as_deref().is_some_and(|s| parse_secret(s).is_none()) {
            return Err(DirRefusal::new(DirError::BadSecret, format!("{what}: 32 hex digits")));
        }
    }
    if a.id.is_some() != a.secret.is_some() {
        return Err(DirRefusal::new(DirError::BadSecret, "a renewal carries both id and secret"));
    }
    Ok(addr)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok() -> Announce {
        Announce {
            id: None,
            secret: None,
            fleet: None,
            address: "127.0.0.1:7780".into(),
            name: "Kitchen".into(),
            region: "eu".into(),
            protocol: PROTOCOL_ID,
            capacity: 2,
            draining: false,
            game_server: None,
            rooms: vec![RoomEntry {
                code: "ACDE7".into(),
                level: "level_01".into(),
                mode: "Cooking".into(),
                phase: "Lobby".into(),
                seats_taken: 1,
                seats_free: 3,
                public: true,
            }],
        }
    }

    #[test]
    fn lies_are_refused_by_name() {
        let err = |f: &dyn Fn(&mut Announce)| {
            let mut a = ok();
            f(&mut a);
            announce(&a).unwrap_err().error
        };
        assert!(announce(&ok()).is_ok());
        assert_eq!(err(&|a| a.name = "a\u{7}b".into()), DirError::BadLabel);
        assert_eq!(err(&|a| a.region = "x".repeat(49)), DirError::BadLabel);
        assert_eq!(err(&|a| a.address = "example.org:80".into()), DirError::BadAddress);
        assert_eq!(err(&|a| a.address = "0.0.0.0:80".into()), DirError::BadAddress);
        assert_eq!(err(&|a| a.protocol = 7), DirError::UnknownProtocol);
        assert_eq!(err(&|a| a.capacity = 0), DirError::TooManyRooms);
        assert_eq!(err(&|a| a.rooms[0].seats_free = 4), DirError::BadRoom);
        assert_eq!(err(&|a| a.rooms[0].code = "acde7".into()), DirError::BadRoom);
        assert_eq!(err(&|a| a.rooms.push(a.rooms[0].clone())), DirError::BadRoom);
        assert_eq!(err(&|a| a.id = Some("00".repeat(16))), DirError::BadSecret);
    }
}
