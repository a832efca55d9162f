//! Who may connect, and as whom: room codes, display names, the server's private key and the
//! netcode connect tokens whose encrypted user data carries room code, name and seat secret.
//!
//! The token is sealed with the server's private key, so a client can read neither the seat
//! secret of another player nor forge a token for a room it was not admitted to; the server
//! derives the seat from this user data when the connection arrives, never from a payload.

use crate::net::wire::error::NetError;
use bevy_replicon_renet::netcode::{
    ConnectToken, NETCODE_KEY_BYTES, NETCODE_USER_DATA_BYTES, generate_random_bytes,
};
use std::net::SocketAddr;
use std::path::Path;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Identifies this game's wire format to netcode; a different build refuses the token.
// v2: a connection holds several seats (`Welcome.seats`, a local `slot` in `InputBatch` and
// `InputAck`), so a v1 build is refused at connect rather than misreading them; and renet
// packs several packets into one datagram (patches/README.md), which stock renet would
// read only the first of.
// v3: renet writes a packet's message count as a varint, replicon's mutation acks ride an
// unreliable channel (`net::wire::channels`), and a frame's buttons are one byte
// (`protocol::PackedInput`): a v2 build would misread all three.
// v4: emotes (`protocol::emote`) appended to the protocol: a v3 build is refused at connect (and
// quick match passes over its servers) instead of at replicon's protocol check after a token.
pub const PROTOCOL_ID: u64 = 0x5543_4b44_0000_0004; // "UCKD" v4
/// How long an issued connect token may be used.
pub const TOKEN_EXPIRE_SECS: u64 = 60;
/// Netcode's silence timeout for a connection made with our tokens.
pub const TOKEN_TIMEOUT_SECS: i32 = 10;
/// Room codes use no 0/O, 1/I/L, 2/Z, 5/S or 8/B: read aloud or typed, nothing is ambiguous.
pub const CODE_ALPHABET: &[u8] = b"ACDEFGHJKMNPQRTUVWXY34679";
/// Codes are this long (the issue allows 4–6; five gives 9.7 M codes).
pub const CODE_LEN: usize = 5;
/// Display names are cut to this many characters.
pub const NAME_MAX_CHARS: usize = 16;
/// A seat secret: what a reconnect proves.
pub type Secret = [u8; 16];

/// Current user-data layout version (byte 0).
const USER_DATA_VERSION: u8 = 1;
const CODE_FIELD: usize = 6;

/// A fresh room code from OS randomness (outside the simulation, so no determinism concern).
/// Bytes at or above the alphabet's largest multiple under 256 are drawn again (rejection
/// sampling): `byte % 25` alone would make six letters 1/10 likelier than the other nineteen.
pub fn new_code() -> String {
    let n = CODE_ALPHABET.len();
    let fair = (256 / n * n) as u8;
    let mut code = String::with_capacity(CODE_LEN);
    while code.len() < CODE_LEN {
        let bytes: [u8; 16] = generate_random_bytes();
        for b in bytes.into_iter().filter(|b| *b < fair).take(CODE_LEN - code.len()) {
            code.push(CODE_ALPHABET[b as usize % n] as char);
        }
    }
    code
}

/// Normalises a code a person typed: upper case, and only a well-formed code passes.
pub fn parse_code(text: &str) -> Option<String> {
    let code = text.trim().to_ascii_uppercase();
    let ok =
        (4..=CODE_FIELD).contains(&code.len()) && code.bytes().all(|b| CODE_ALPHABET.contains(&b));
    ok.then_some(code)
}

/// A display name fit to show other players: printable, single-spaced, at most
/// [`NAME_MAX_CHARS`] characters, never empty.
pub fn sanitise_name(raw: &str) -> String {
    let mut out = String::new();
    for c in raw.chars() {
        if out.chars().count() >= NAME_MAX_CHARS {
            break;
        }
        if c.is_alphanumeric() || matches!(c, '-' | '_' | '.' | '\'') {
            out.push(c);
        } else if (c.is_whitespace() || c == ' ') && !out.is_empty() && !out.ends_with(' ') {
            out.push(' ');
        }
    }
    let out = out.trim_end().to_string();
    if out.is_empty() { "Cook".to_string() } else { out }
}

/// A fresh seat secret.
pub fn new_secret() -> Secret {
    generate_random_bytes()
}

/// Parses a secret's hex (`replay::hex::hex_bytes`, as the welcome sends it) back.
pub fn parse_secret(text: &str) -> Option<Secret> {
    let text = text.trim();
    if text.len() != 32 {
        return None;
    }
    let mut out = [0u8; 16];
    for (i, o) in out.iter_mut().enumerate() {
        *o = u8::from_str_radix(text.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    Some(out)
}

/// What the server sealed into a token: the room, the name and the seat's secret.
#[derive(Clone, PartialEq, Eq)]
pub struct Admission {
    pub code: String,
    pub name: String,
    pub secret: Secret,
}

/// Written without the seat secret: an admission reaches the log when a seat is refused, and
/// the secret is what a reconnect proves.
impl std::fmt::Debug for Admission {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Admission")
            .field("code", &self.code)
            .field("name", &self.name)
            .field("secret", &"<redacted>")
            .finish()
    }
}

impl Admission {
    /// Layout: version, code (6 bytes, zero-padded), secret (16), name length, name (UTF-8).
    pub fn encode(&self) -> [u8; NETCODE_USER_DATA_BYTES] {
        let mut out = [0u8; NETCODE_USER_DATA_BYTES];
        out[0] = USER_DATA_VERSION;
        let code = self.code.as_bytes();
        out[1..1 + code.len().min(CODE_FIELD)].copy_from_slice(&code[..code.len().min(CODE_FIELD)]);
        out[7..23].copy_from_slice(&self.secret);
        let name = self.name.as_bytes();
        let n = name.len().min(NETCODE_USER_DATA_BYTES - 24);
        out[23] = n as u8;
        out[24..24 + n].copy_from_slice(&name[..n]);
        out
    }

    /// The inverse of [`Admission::encode`]; `None` for any other layout.
    pub fn decode(data: &[u8; NETCODE_USER_DATA_BYTES]) -> Option<Admission> {
        if data[0] != USER_DATA_VERSION {
            return None;
        }
        let code_bytes: Vec<u8> = data[1..7].iter().copied().take_while(|b| *b != 0).collect();
        let code = parse_code(std::str::from_utf8(&code_bytes).ok()?)?;
        let mut secret = [0u8; 16];
        secret.copy_from_slice(&data[7..23]);
        let n = data[23] as usize;
        let name = std::str::from_utf8(data.get(24..24 + n)?).ok()?;
        Some(Admission { code, name: sanitise_name(name), secret })
    }
}

/// Seconds since the Unix epoch, as netcode wants its clock.
pub fn unix_now() -> Duration {
    SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default()
}

/// A connect token for `admission`, serialised and base64-encoded for JSON.
pub fn connect_token(
    key: &[u8; NETCODE_KEY_BYTES],
    servers: &[SocketAddr],
    admission: &Admission,
) -> Result<String, NetError> {
    use base64::Engine;
    let client_id = u64::from_le_bytes(generate_random_bytes());
    let token = ConnectToken::generate(
        unix_now(),
        PROTOCOL_ID,
        TOKEN_EXPIRE_SECS,
        client_id,
        TOKEN_TIMEOUT_SECS,
        servers.to_vec(),
        Some(&admission.encode()),
        key,
    )
    .map_err(|e| NetError::TokenMint(e.to_string()))?;
    let mut bytes = Vec::new();
    token.write(&mut bytes).map_err(|e| NetError::TokenMint(e.to_string()))?;
    Ok(base64::engine::general_purpose::STANDARD.encode(bytes))
}

/// Reads a base64 token back (the client's side).
pub fn read_token(text: &str) -> Result<ConnectToken, NetError> {
    use base64::Engine;
    let bad = |e: &dyn std::fmt::Display| NetError::BadToken(e.to_string());
    let bytes =
        base64::engine::general_purpose::STANDARD.decode(text.trim()).map_err(|e| bad(&e))?;
    ConnectToken::read(&mut bytes.as_slice()).map_err(|e| bad(&e))
}

/// The server's private key: `DATA_DIR/server.key` when it holds one (so tokens issued before a
/// restart stay valid), else a fresh random key written there (mode 0600 on Unix).
pub fn load_or_create_key(data_dir: &Path) -> std::io::Result<[u8; NETCODE_KEY_BYTES]> {
    let path = data_dir.join("server.key");
    if let Ok(bytes) = std::fs::read(&path)
        && bytes.len() == NETCODE_KEY_BYTES
    {
        let mut key = [0u8; NETCODE_KEY_BYTES];
        key.copy_from_slice(&bytes);
        return Ok(key);
    }
    let key: [u8; NETCODE_KEY_BYTES] = generate_random_bytes();
    std::fs::create_dir_all(data_dir)?;
    std::fs::write(&path, key)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600))?;
    }
    Ok(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_data_round_trips_and_names_are_sanitised() {
        let a = Admission {
            code: "ACDE7".into(),
            name: sanitise_name("  Bob\n\t<x> "),
            secret: [7; 16],
        };
        assert_eq!(a.name, "Bob x");
        assert_eq!(Admission::decode(&a.encode()), Some(a));
        assert_eq!(sanitise_name("\u{0}\u{7}"), "Cook");
        assert_eq!(sanitise_name(&"x".repeat(100)).len(), NAME_MAX_CHARS);
    }

    #[test]
    fn codes_are_from_the_alphabet() {
        for _ in 0..50 {
            let c = new_code();
            assert_eq!(parse_code(&c.to_lowercase()), Some(c));
        }
        assert_eq!(parse_code("AB0"), None);
        assert_eq!(parse_code("OOOOO"), None);
    }

    #[test]
    fn secrets_round_trip_through_hex() {
        let s = new_secret();
        assert_eq!(parse_secret(&crate::replay::hex::hex_bytes(&s)), Some(s));
    }
}
