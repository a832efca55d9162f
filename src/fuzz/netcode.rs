//! The netcode target: the real `renetcode::NetcodeServer` and `renet::RenetServer`, driven as
//! renet_netcode's `NetcodeServerTransport` drives them (process a datagram, hand a payload to
//! renet, add and remove connections), with the UDP socket replaced by in-memory delivery.
//!
//! Datagrams come (a) from an address the server has never seen, (b) from a client whose real
//! connection request (a real `NetcodeClient` with a real `ConnectToken` sealed with the
//! server's key) is pending, and (c) from a client that completed the handshake in process.
//! Each is a mutation of a real datagram one of those clients sent. An input's first byte says
//! which address it comes from, so the printed hex is the whole input.

use super::mutate::mutate;
use super::target::{Outcome, Target};
use crate::net::wire::tokens::{Admission, PROTOCOL_ID};
use crate::sim::rng::SplitMix64;
use bevy_replicon_renet::renet::{ConnectionConfig, RenetServer};
use renetcode::{
    ClientAuthentication, ConnectToken, NETCODE_MAX_PACKET_BYTES, NetcodeClient, NetcodeServer,
    ServerAuthentication, ServerConfig, ServerResult,
};
use std::net::SocketAddr;
use std::time::Duration;

/// The server's address in tokens (nothing is bound: delivery is in memory).
const SERVER_ADDR: SocketAddr =
    SocketAddr::new(std::net::IpAddr::V4(std::net::Ipv4Addr::new(127, 0, 0, 1)), 7777);
/// A fixed start of the server's clock (unix seconds), so tokens and timeouts are seeded too.
const EPOCH: Duration = Duration::from_secs(1_800_000_000);
/// Virtual time each step advances: netcode's keep-alives and timeouts still happen.
const STEP: Duration = Duration::from_millis(10);
/// Most datagrams kept per corpus.
const CORPUS_MAX: usize = 64;

/// Where a datagram comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sender {
    Unknown,
    Pending,
    Connected,
}

impl Sender {
    fn from_byte(b: u8) -> Sender {
        match b % 3 {
            0 => Sender::Unknown,
            1 => Sender::Pending,
            _ => Sender::Connected,
        }
    }
}

/// An error's text without its numbers: the same refusal reads the same every time.
pub fn without_digits(text: &str) -> String {
    text.chars().filter(|c| !c.is_ascii_digit()).collect::<String>().trim().to_string()
}

/// What the server did with a datagram (the transport's branches).
fn result_kind(r: &ServerResult<'_, '_>) -> &'static str {
    match r {
        ServerResult::None => "none",
        ServerResult::PacketToSend { .. } => "reply",
        ServerResult::Payload { .. } => "payload",
        ServerResult::ClientConnected { .. } => "connected",
        ServerResult::ClientDisconnected { .. } => "disconnected",
    }
}

/// The server pair and a connected (and a pending) client, all in memory.
pub struct Link {
    pub server: NetcodeServer,
    pub renet: RenetServer,
    key: [u8; 32],
    rng: SplitMix64,
    client: NetcodeClient,
    client_addr: SocketAddr,
    pending: NetcodeClient,
    pending_addr: SocketAddr,
    next_port: u16,
    next_id: u64,
    /// Real datagrams the clients sent, the mutator's bases.
    pub sent: Vec<Vec<u8>>,
}

impl Link {
    pub fn new(seed: u64) -> Result<Link, String> {
        let mut rng = SplitMix64::new(seed).fork(0x11E7);
        let mut key = [0u8; 32];
        key.iter_mut().for_each(|b| *b = rng.next_u64() as u8);
        let server = NetcodeServer::new(ServerConfig {
            current_time: EPOCH,
            max_clients: 64,
            protocol_id: PROTOCOL_ID,
            public_addresses: vec![SERVER_ADDR],
            authentication: ServerAuthentication::Secure { private_key: key },
        });
        // renet's default channels: the receive path (packet parsing, slices, acks) is the same
        // code whatever channels a game configures.
        let renet = RenetServer::new(ConnectionConfig::default());
        let placeholder = |addr| -> Result<NetcodeClient, String> {
            let token =
                ConnectToken::generate(EPOCH, PROTOCOL_ID, 60, 0, 10, vec![addr], None, &[0; 32])
                    .map_err(|e| e.to_string())?;
            NetcodeClient::new(EPOCH, ClientAuthentication::Secure { connect_token: token })
                .map_err(|e| e.to_string())
        };
        let mut link = Link {
            server,
            renet,
            key,
            rng,
            client: placeholder(SERVER_ADDR)?,
            client_addr: SERVER_ADDR,
            pending: placeholder(SERVER_ADDR)?,
            pending_addr: SERVER_ADDR,
            next_port: 20_000,
            next_id: 1,
            sent: Vec::new(),
        };
        link.connect()?;
        link.refresh_pending()?;
        Ok(link)
    }

    fn fresh_addr(&mut self) -> SocketAddr {
        self.next_port = self.next_port.wrapping_add(1).max(20_000);
        SocketAddr::new([127, 0, 0, 2].into(), self.next_port)
    }

    /// A new client with a real token the server's key sealed (the game's user-data layout).
    fn new_client(&mut self) -> Result<NetcodeClient, String> {
        let now = self.server.current_time();
        let admission =
            Admission { code: "ACDEF".into(), name: "Fuzz".into(), secret: [7; 16] }.encode();
        let id = self.next_id;
        self.next_id += 1;
        let token = ConnectToken::generate(
            now,
            PROTOCOL_ID,
            60,
            id,
            10,
            vec![SERVER_ADDR],
            Some(&admission),
            &self.key,
        )
        .map_err(|e| e.to_string())?;
        NetcodeClient::new(now, ClientAuthentication::Secure { connect_token: token })
            .map_err(|e| e.to_string())
    }

    fn remember(&mut self, datagram: &[u8]) {
        if self.sent.len() >= CORPUS_MAX {
            let i = self.rng.index(self.sent.len());
            self.sent[i] = datagram.to_vec();
        } else {
            self.sent.push(datagram.to_vec());
        }
    }

    /// Complete a handshake for a fresh connected client.
    pub fn connect(&mut self) -> Result<(), String> {
        self.client = self.new_client()?;
        self.client_addr = self.fresh_addr();
        for _ in 0..400 {
            self.step();
            if self.client.is_connected()
                && self.server.is_client_connected(self.client.client_id())
            {
                return Ok(());
            }
        }
        Err("the in-memory handshake did not complete".into())
    }

    /// A fresh pending client: its real connection request delivered, the challenge answered.
    pub fn refresh_pending(&mut self) -> Result<(), String> {
        self.pending = self.new_client()?;
        self.pending_addr = self.fresh_addr();
        if let Some((packet, _)) = self.pending.update(STEP) {
            let mut d = packet.to_vec();
            self.remember(&d);
            let addr = self.pending_addr;
            self.deliver(addr, &mut d);
        }
        Ok(())
    }

    /// The connected client's address.
    pub fn client_addr(&self) -> SocketAddr {
        self.client_addr
    }

    /// The connected client's id on both layers.
    pub fn client_id(&self) -> u64 {
        self.client.client_id()
    }

    pub fn is_connected(&self) -> bool {
        self.client.is_connected()
            && self.server.is_client_connected(self.client.client_id())
            && self.renet.is_connected(self.client.client_id())
    }

    /// Reconnect when the last input (or renet) ended the connection.
    pub fn ensure_connected(&mut self) -> Result<(), String> {
        if self.is_connected() { Ok(()) } else { self.connect() }
    }

    /// A well-formed encrypted payload packet from the connected client carrying `payload`.
    pub fn seal(&mut self, payload: &[u8]) -> Option<Vec<u8>> {
        self.client.generate_payload_packet(payload).ok().map(|(_, p)| p.to_vec())
    }

    /// One datagram into the server, the transport's handling of the result, replies to our
    /// own clients delivered to them. The result's kind, and a refusal logged on the way.
    pub fn deliver(&mut self, from: SocketAddr, datagram: &mut [u8]) -> String {
        let mut reply: Option<(SocketAddr, Vec<u8>)> = None;
        let mut payload: Option<(u64, Vec<u8>)> = None;
        let kind = {
            // The typed path the server's own transport (net::server::udp) takes, without its screen:
            // netcode itself must survive what the screen would have dropped.
            let r = match self.server.process_packet_internal(from, datagram) {
                Ok(r) => r,
                Err(e) => return format!("refused: {}", without_digits(&e.to_string())),
            };
            let kind = result_kind(&r);
            match r {
                ServerResult::None => {}
                ServerResult::PacketToSend { addr, payload: p } => reply = Some((addr, p.to_vec())),
                ServerResult::Payload { client_id, payload: p } => {
                    payload = Some((client_id, p.to_vec()))
                }
                ServerResult::ClientConnected { client_id, addr, payload: p, .. } => {
                    self.renet.add_connection(client_id);
                    reply = Some((addr, p.to_vec()));
                }
                ServerResult::ClientDisconnected { client_id, addr, payload: p } => {
                    self.renet.remove_connection(client_id);
                    reply = p.map(|p| (addr, p.to_vec()));
                }
            }
            kind
        };
        if let Some((id, p)) = payload
            && self.renet.process_packet_from(&p, id).is_err()
        {
            return "payload for an unknown client".into();
        }
        if let Some((addr, mut p)) = reply {
            if addr == self.client_addr {
                self.client.process_packet(&mut p);
            } else if addr == self.pending_addr {
                self.pending.process_packet(&mut p);
            }
        }
        kind.to_string()
    }

    /// Advance both sides by one step: timers, keep-alives, renet's acks and resends, and the
    /// connected client's own packets to the server (recorded for the corpus).
    pub fn step(&mut self) {
        self.server.update(STEP);
        for id in self.server.clients_id() {
            let r = self.server.update_client(id);
            let out = match r {
                ServerResult::PacketToSend { addr, payload } => Some((addr, payload.to_vec())),
                ServerResult::ClientDisconnected { client_id, .. } => {
                    self.renet.remove_connection(client_id);
                    None
                }
                _ => None,
            };
            if let Some((addr, mut p)) = out
                && addr == self.client_addr
            {
                self.client.process_packet(&mut p);
            }
        }
        self.renet.update(STEP);
        for id in self.renet.clients_id() {
            for packet in self.renet.get_packets_to_send(id).unwrap_or_default() {
                if let Ok((addr, p)) = self.server.generate_payload_packet(id, &packet)
                    && addr == self.client_addr
                {
                    let mut p = p.to_vec();
                    self.client.process_packet(&mut p);
                }
            }
        }
        // A connection renet ended is closed at netcode and then removed from renet, as the
        // transport does (a removal left out would keep every ended connection in renet).
        for id in self.renet.disconnections_id() {
            let _ = self.server.disconnect(id);
            self.renet.remove_connection(id);
        }
        if let Some((packet, _)) = self.client.update(STEP) {
            let mut d = packet.to_vec();
            self.remember(&d);
            let addr = self.client_addr;
            self.deliver(addr, &mut d);
        }
    }
}

/// Mutated real datagrams from the three kinds of address.
pub struct NetcodeTarget {
    link: Link,
    unknown: SocketAddr,
    fed: u64,
}

impl NetcodeTarget {
    pub fn new(seed: u64) -> Result<NetcodeTarget, String> {
        let mut link = Link::new(seed)?;
        // A few real payload packets for the corpus, beside the handshake's datagrams.
        for n in 0..8u8 {
            if let Some(p) = link.seal(&vec![n; 1 + 40 * n as usize]) {
                link.sent.push(p);
            }
        }
        let unknown = SocketAddr::new([10, 9, 8, 7].into(), 4242);
        Ok(NetcodeTarget { link, unknown, fed: 0 })
    }
}

impl Target for NetcodeTarget {
    fn input(&mut self, rng: &mut SplitMix64) -> Vec<u8> {
        // Fresh encryption now and then, so the connected path sees new valid sequences too.
        if rng.index(8) == 0 {
            let n = rng.index(NETCODE_MAX_PACKET_BYTES);
            let payload: Vec<u8> = (0..n).map(|_| rng.next_u64() as u8).collect();
            if let Some(p) = self.link.seal(&payload) {
                self.link.remember(&p);
            }
        }
        let base = self.link.sent[rng.index(self.link.sent.len())].clone();
        let mut out = vec![rng.index(3) as u8];
        out.extend(mutate(rng, &base, &self.link.sent));
        out
    }

    fn feed(&mut self, input: &[u8]) -> Outcome {
        let Some((&which, datagram)) = input.split_first() else { return "empty".into() };
        let from = match Sender::from_byte(which) {
            Sender::Unknown => self.unknown,
            Sender::Pending => self.link.pending_addr,
            Sender::Connected => self.link.client_addr,
        };
        let mut d = datagram.to_vec();
        let kind = self.link.deliver(from, &mut d);
        self.link.step();
        self.fed += 1;
        if self.fed.is_multiple_of(256) && self.link.refresh_pending().is_err() {
            return "pending client refused".into();
        }
        if self.link.ensure_connected().is_err() {
            return "reconnect refused".into();
        }
        kind
    }

    fn still_serving(&mut self) -> Result<(), String> {
        self.link.connect()
    }
}
