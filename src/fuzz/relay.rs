//! The relay target: WebSocket frames to the web port's relay (`/ws`), against a real server.
//! Each input is one connection: a valid upgrade, then frames tungstenite built (binary
//! messages carrying a real netcode connection request or random datagrams, pings, closes,
//! text, fragments), masked as a client must, and then mutated as one byte stream, so the
//! frame headers' opcodes, mask bits and length fields are all hit. After the run the server
//! must still answer `/api/health` and play.

use super::live::{LiveServer, status_line};
use super::mutate::mutate;
use super::target::{Outcome, Target};
use crate::net::client::ws::WS_PATH;
use crate::sim::rng::SplitMix64;
use base64::Engine;
use renetcode::{ClientAuthentication, ConnectToken, NetcodeClient};
use std::io::Write;
use std::net::TcpStream;
use tungstenite::protocol::frame::Frame;
use tungstenite::protocol::frame::coding::{Data, OpCode};

/// A real netcode connection request for a room on `server`, as a browser would relay it.
fn connection_request(server: &LiveServer) -> Result<Vec<u8>, String> {
    let reply = crate::net::client::api::api_create(&server.web.to_string(), "Relay", None)?;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(reply.token.as_bytes())
        .map_err(|e| e.to_string())?;
    let token = ConnectToken::read(&mut bytes.as_slice()).map_err(|e| e.to_string())?;
    let now = crate::net::wire::tokens::unix_now();
    let mut client = NetcodeClient::new(now, ClientAuthentication::Secure { connect_token: token })
        .map_err(|e| e.to_string())?;
    let (packet, _) = client.update(std::time::Duration::ZERO).ok_or("no connection request")?;
    Ok(packet.to_vec())
}

/// One client frame, masked.
fn frame(mask: u64, opcode: OpCode, payload: Vec<u8>, fin: bool) -> Vec<u8> {
    let mut f = Frame::message(payload, opcode, fin);
    f.header_mut().mask = Some((mask as u32).to_le_bytes());
    let mut out = Vec::new();
    let _ = f.format(&mut out);
    out
}

/// A ping, masked (control frames have their own constructor and a 125-byte limit, which a
/// mutation may then break).
fn ping(mask: u64, payload: Vec<u8>) -> Vec<u8> {
    let mut f = Frame::ping(payload);
    f.header_mut().mask = Some((mask as u32).to_le_bytes());
    let mut out = Vec::new();
    let _ = f.format(&mut out);
    out
}

pub struct RelayTarget {
    server: LiveServer,
    datagrams: Vec<Vec<u8>>,
    corpus: Vec<Vec<u8>>,
}

impl RelayTarget {
    pub fn new() -> Result<RelayTarget, String> {
        let server = LiveServer::start("relay")?;
        server.healthy()?;
        let datagrams = vec![connection_request(&server)?, vec![0u8; 18], vec![0x94; 18]];
        let mut rng = SplitMix64::new(0x2E1A7);
        let mut corpus = Vec::new();
        for d in &datagrams {
            corpus.push(frame(rng.next_u64(), OpCode::Data(Data::Binary), d.clone(), true));
        }
        corpus.push(frame(rng.next_u64(), OpCode::Data(Data::Text), b"hello".to_vec(), true));
        corpus.push(frame(rng.next_u64(), OpCode::Data(Data::Binary), vec![1; 2000], true));
        Ok(RelayTarget { server, datagrams, corpus })
    }

    /// The upgrade request a native client sends (no Origin).
    fn upgrade(&self) -> String {
        format!(
            "GET {WS_PATH} HTTP/1.1\r\nHost: {}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
            self.server.web
        )
    }
}

impl Target for RelayTarget {
    fn input(&mut self, rng: &mut SplitMix64) -> Vec<u8> {
        let mut stream = Vec::new();
        for _ in 0..1 + rng.index(3) {
            let (mask, fin, n) = (rng.next_u64(), rng.index(2) == 0, rng.index(1500));
            let bytes = match rng.index(6) {
                0 | 1 => {
                    let d = self.datagrams[rng.index(self.datagrams.len())].clone();
                    frame(mask, OpCode::Data(Data::Binary), d, true)
                }
                2 => {
                    let d = (0..n).map(|_| rng.next_u64() as u8).collect();
                    frame(mask, OpCode::Data(Data::Binary), d, fin)
                }
                3 => ping(mask, vec![9; n % 126]),
                4 => frame(mask, OpCode::Data(Data::Continue), vec![3; n % 40], fin),
                _ => self.corpus[rng.index(self.corpus.len())].clone(),
            };
            stream.extend(bytes);
        }
        mutate(rng, &stream, &self.corpus)
    }

    fn feed(&mut self, input: &[u8]) -> Outcome {
        let Ok(mut s) = TcpStream::connect(self.server.web) else {
            return "connect refused".into();
        };
        let _ = s.set_read_timeout(Some(super::live::ANSWER_WAIT));
        if s.write_all(self.upgrade().as_bytes()).is_err() {
            return "upgrade cut off".into();
        }
        let answer = status_line(&mut s);
        if answer != "HTTP 101" {
            return format!("upgrade refused: {answer}");
        }
        if s.write_all(input).is_err() {
            return "frames cut off".into();
        }
        let _ = s.shutdown(std::net::Shutdown::Write);
        // What the relay sent back: a datagram from netcode, a close, or nothing.
        let mut buf = [0u8; 2];
        match std::io::Read::read(&mut s, &mut buf) {
            Ok(0) => "closed".into(),
            Ok(_) => format!("frame opcode {:#x}", buf[0] & 0x0f),
            Err(_) => "silent".into(),
        }
    }

    fn still_serving(&mut self) -> Result<(), String> {
        self.server.healthy()?;
        self.server.plays()
    }
}
