//! The server's UDP transport: renetcode's netcode server behind a receive loop of our own.
//!
//! It takes the place of renet_netcode's `NetcodeServerTransport` (bevy_renet's systems for that
//! resource never run: it is never inserted) for what a host on the open internet meets:
//! - every datagram is screened before netcode parses it, and processed inside `catch_unwind`:
//!   a panic in a dependency on one peer's bytes ends that peer's connection, is logged with
//!   its address and counted, and every other room goes on;
//! - connection requests (the one packet a sender without a session can make the server spend
//!   crypto on) are rate-limited per source address and in all, and one frame reads at most
//!   [`MAX_DATAGRAMS_PER_FRAME`] datagrams, so a flood delays the world by a bounded amount
//!   (the rest wait in the kernel's buffer, which drops what overflows);
//! - refusals are counted by kind ([`Refusal`]) and logged as one summary line at most every
//!   [`LOG_EVERY`], instead of netcode's one ERROR line per bad datagram.

use crate::net::server::limiter::{RateLimit, RequestLimiter};
use bevy::prelude::*;
use bevy_replicon_renet::renet::ClientId;
use bevy_replicon_renet::{RenetReceive, RenetSend, RenetServer, RenetServerPlugin};
use renetcode::{NETCODE_MAX_PACKET_BYTES, NETCODE_USER_DATA_BYTES, NetcodeError, NetcodeServer};
use renetcode::{ServerConfig, ServerResult};
use std::net::{SocketAddr, UdpSocket};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::{Duration, Instant};

/// The most datagrams one frame reads; the rest wait for the next frame.
pub const MAX_DATAGRAMS_PER_FRAME: usize = 4096;
/// The refusal summary is logged at most this often.
pub const LOG_EVERY: Duration = Duration::from_secs(10);
/// The smallest datagram netcode can parse: a prefix byte, a sequence byte, the 16-byte MAC.
const MIN_DATAGRAM: usize = 2 + 16;
/// Netcode's packet types are 0 (connection request) ..= 6 (disconnect).
const MAX_PACKET_TYPE: u8 = 6;
/// A sequence number is at most 8 bytes long.
const MAX_SEQUENCE_BYTES: u8 = 8;

/// Why a datagram was not processed, or what netcode answered it with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Refusal {
    /// Shorter than any netcode packet.
    TooSmall,
    /// Longer than netcode's largest packet.
    Oversized,
    /// A prefix byte naming no packet type or more than 8 sequence bytes.
    BadPrefix,
    /// A connection request over its source address's rate.
    SourceRate,
    /// A connection request over the server's rate for all sources together.
    GlobalRate,
    /// Netcode could not parse it.
    Malformed,
    /// Decryption failed: forged, or sealed for another key.
    Forged,
    /// A packet sequence already received (a replay).
    Replayed,
    /// A connect token past its expiry.
    Expired,
    /// A token for another game or version.
    WrongProtocol,
    /// A token that does not name this server.
    WrongServer,
    /// A session packet from an address with no session.
    NoSession,
}

impl Refusal {
    pub const ALL: [Refusal; 12] = [
        Refusal::TooSmall,
        Refusal::Oversized,
        Refusal::BadPrefix,
        Refusal::SourceRate,
        Refusal::GlobalRate,
        Refusal::Malformed,
        Refusal::Forged,
        Refusal::Replayed,
        Refusal::Expired,
        Refusal::WrongProtocol,
        Refusal::WrongServer,
        Refusal::NoSession,
    ];

    /// The name logs and metrics use.
    pub fn name(self) -> &'static str {
        match self {
            Refusal::TooSmall => "too_small",
            Refusal::Oversized => "oversized",
            Refusal::BadPrefix => "bad_prefix",
            Refusal::SourceRate => "source_rate",
            Refusal::GlobalRate => "global_rate",
            Refusal::Malformed => "malformed",
            Refusal::Forged => "forged",
            Refusal::Replayed => "replayed",
            Refusal::Expired => "expired",
            Refusal::WrongProtocol => "wrong_protocol",
            Refusal::WrongServer => "wrong_server",
            Refusal::NoSession => "no_session",
        }
    }

    fn of(e: &NetcodeError) -> Refusal {
        match e {
            NetcodeError::InvalidPacketType
            | NetcodeError::PacketTooSmall
            | NetcodeError::PayloadAboveLimit
            | NetcodeError::IoError(_)
            | NetcodeError::TokenGenerationError(_) => Refusal::Malformed,
            NetcodeError::CryptoError => Refusal::Forged,
            NetcodeError::DuplicatedSequence => Refusal::Replayed,
            NetcodeError::Expired => Refusal::Expired,
            NetcodeError::InvalidProtocolID | NetcodeError::InvalidVersion => {
                Refusal::WrongProtocol
            }
            NetcodeError::NotInHostList | NetcodeError::NoMoreServers => Refusal::WrongServer,
            NetcodeError::UnavailablePrivateKey
            | NetcodeError::Disconnected(_)
            | NetcodeError::ClientNotFound
            | NetcodeError::ClientNotConnected => Refusal::NoSession,
        }
    }
}

/// What the transport counted since it started (never reset: metrics read rates from them).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UdpStats {
    pub datagrams_in: u64,
    pub bytes_in: u64,
    pub datagrams_out: u64,
    pub bytes_out: u64,
    /// Indexed like [`Refusal::ALL`].
    pub refused: [u64; Refusal::ALL.len()],
    /// Panics caught while processing one peer's datagram (its connection was ended).
    pub panics: u64,
    /// Frames that stopped reading at [`MAX_DATAGRAMS_PER_FRAME`].
    pub saturated_frames: u64,
    /// Datagrams the socket refused to send.
    pub send_errors: u64,
}

impl UdpStats {
    pub fn refused(&self, r: Refusal) -> u64 {
        self.refused[Refusal::ALL.iter().position(|x| *x == r).unwrap_or(0)]
    }

    fn count(&mut self, r: Refusal) {
        if let Some(i) = Refusal::ALL.iter().position(|x| *x == r) {
            self.refused[i] += 1;
        }
    }

    pub fn refused_total(&self) -> u64 {
        self.refused.iter().sum()
    }
}

/// The netcode server, its socket and what guards them.
#[derive(Resource)]
pub struct HostTransport {
    socket: UdpSocket,
    netcode: NetcodeServer,
    /// One byte longer than netcode's largest packet, so an oversized datagram is seen as such
    /// rather than silently truncated by the kernel.
    buffer: Box<[u8; NETCODE_MAX_PACKET_BYTES + 1]>,
    limiter: RequestLimiter,
    pub stats: UdpStats,
    logged: UdpStats,
    last_log: Option<Instant>,
}

impl HostTransport {
    pub fn new(config: ServerConfig, socket: UdpSocket) -> std::io::Result<Self> {
        socket.set_nonblocking(true)?;
        Ok(HostTransport {
            socket,
            netcode: NetcodeServer::new(config),
            buffer: Box::new([0; NETCODE_MAX_PACKET_BYTES + 1]),
            limiter: RequestLimiter::default(),
            stats: UdpStats::default(),
            logged: UdpStats::default(),
            last_log: None,
        })
    }

    /// The user data sealed in a connected client's token.
    pub fn user_data(&self, client: ClientId) -> Option<[u8; NETCODE_USER_DATA_BYTES]> {
        self.netcode.user_data(client)
    }

    pub fn client_addr(&self, client: ClientId) -> Option<SocketAddr> {
        self.netcode.client_addr(client)
    }

    pub fn connected_clients(&self) -> usize {
        self.netcode.connected_clients()
    }

    pub fn max_clients(&self) -> usize {
        self.netcode.max_clients()
    }

    /// Advances netcode's clock, reads this frame's datagrams and runs netcode's per-client
    /// upkeep (keep-alives, timeouts, requested disconnects).
    pub fn receive(&mut self, dt: Duration, server: &mut RenetServer) {
        self.netcode.update(dt);
        let now = Instant::now();
        let mut read = 0;
        while read < MAX_DATAGRAMS_PER_FRAME {
            let (len, addr) = match self.socket.recv_from(&mut self.buffer[..]) {
                Ok(v) => v,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break,
                // An ICMP "port unreachable" for an earlier send surfaces here on some systems.
                Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => continue,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    warn!(error = %e, "udp receive failed");
                    break;
                }
            };
            read += 1;
            self.stats.datagrams_in += 1;
            self.stats.bytes_in += len as u64;
            let datagram = &mut self.buffer[..len];
            if let Err(r) = screen(datagram) {
                self.stats.count(r);
                continue;
            }
            if is_connection_request(datagram[0])
                && let Err(limit) = self.limiter.admit(addr.ip(), now)
            {
                self.stats.count(match limit {
                    RateLimit::Source => Refusal::SourceRate,
                    RateLimit::Global => Refusal::GlobalRate,
                });
                continue;
            }
            let (netcode, socket, stats) = (&mut self.netcode, &self.socket, &mut self.stats);
            let outcome = catch_unwind(AssertUnwindSafe(|| {
                match netcode.process_packet_internal(addr, datagram) {
                    Ok(result) => {
                        apply(result, socket, server, stats);
                        None
                    }
                    Err(e) => Some(Refusal::of(&e)),
                }
            }));
            match outcome {
                Ok(None) => {}
                Ok(Some(r)) => self.stats.count(r),
                Err(panic) => {
                    self.end_after_panic(addr, crate::caught::panic_message(panic.as_ref()), server)
                }
            }
        }
        if read == MAX_DATAGRAMS_PER_FRAME {
            self.stats.saturated_frames += 1;
        }
        for client in self.netcode.clients_id() {
            let result = self.netcode.update_client(client);
            apply(result, &self.socket, server, &mut self.stats);
        }
        for client in server.disconnections_id() {
            let result = self.netcode.disconnect(client);
            apply(result, &self.socket, server, &mut self.stats);
        }
        self.log_refusals(now);
    }

    /// Encrypts and sends every connected client's pending packets.
    pub fn send(&mut self, server: &mut RenetServer) {
        for client in server.clients_id() {
            let Ok(packets) = server.get_packets_to_send(client) else { continue };
            for packet in packets {
                match self.netcode.generate_payload_packet(client, &packet) {
                    Ok((addr, payload)) => {
                        if self.socket.send_to(payload, addr).is_err() {
                            self.stats.send_errors += 1;
                            break;
                        }
                        self.stats.datagrams_out += 1;
                        self.stats.bytes_out += payload.len() as u64;
                    }
                    Err(_) => {
                        self.stats.send_errors += 1;
                        break;
                    }
                }
            }
        }
    }

    /// Tells every client the server is going away (on exit).
    pub fn disconnect_all(&mut self, server: &mut RenetServer) {
        for client in self.netcode.clients_id() {
            let result = self.netcode.disconnect(client);
            apply(result, &self.socket, server, &mut self.stats);
        }
    }

    /// A datagram from `addr` made a dependency panic: that peer's session (if it has one) is
    /// ended, the panic logged with the peer and counted.
    fn end_after_panic(&mut self, addr: SocketAddr, what: String, server: &mut RenetServer) {
        self.stats.panics += 1;
        let client = self
            .netcode
            .clients_id()
            .into_iter()
            .find(|c| self.netcode.client_addr(*c) == Some(addr));
        error!(peer = %addr, client = ?client, panic = %what, "panic while processing a datagram; peer's connection ended");
        if let Some(client) = client {
            let result = self.netcode.disconnect(client);
            apply(result, &self.socket, server, &mut self.stats);
            // The renet connection may be the part that panicked: drop it whatever netcode did.
            server.remove_connection(client);
        }
    }

    /// One summary line of what was refused since the last one, at most every [`LOG_EVERY`].
    fn log_refusals(&mut self, now: Instant) {
        if self.stats.refused_total() == self.logged.refused_total()
            || self.last_log.is_some_and(|t| now.duration_since(t) < LOG_EVERY)
        {
            return;
        }
        let mut kinds = String::new();
        for (i, r) in Refusal::ALL.iter().enumerate() {
            let n = self.stats.refused[i] - self.logged.refused[i];
            if n > 0 {
                kinds.push_str(&format!(" {}={n}", r.name()));
            }
        }
        warn!(refused = %kinds.trim_start(), "udp datagrams refused since the last summary");
        self.logged = self.stats.clone();
        self.last_log = Some(now);
    }
}

/// What can be refused by looking at the bytes alone, before netcode parses anything.
pub fn screen(datagram: &[u8]) -> Result<(), Refusal> {
    if datagram.len() < MIN_DATAGRAM {
        return Err(Refusal::TooSmall);
    }
    if datagram.len() > NETCODE_MAX_PACKET_BYTES {
        return Err(Refusal::Oversized);
    }
    let prefix = datagram[0];
    if prefix & 0xF > MAX_PACKET_TYPE || prefix >> 4 > MAX_SEQUENCE_BYTES {
        return Err(Refusal::BadPrefix);
    }
    Ok(())
}

/// Netcode's connection request is packet type 0 (and carries no sequence).
fn is_connection_request(prefix: u8) -> bool {
    prefix == 0
}

/// Carries out what netcode answered (as renet_netcode's transport does): a reply to send, a
/// payload for renet, a connection made or ended.
fn apply(result: ServerResult, socket: &UdpSocket, server: &mut RenetServer, stats: &mut UdpStats) {
    let mut send = |payload: &[u8], addr: SocketAddr| {
        if socket.send_to(payload, addr).is_ok() {
            stats.datagrams_out += 1;
            stats.bytes_out += payload.len() as u64;
        } else {
            stats.send_errors += 1;
        }
    };
    match result {
        ServerResult::None => {}
        ServerResult::PacketToSend { payload, addr } => send(payload, addr),
        ServerResult::Payload { client_id, payload } => {
            // Only "client not found", for a payload racing its own disconnect.
            let _ = server.process_packet_from(payload, client_id);
        }
        ServerResult::ClientConnected { client_id, addr, payload, .. } => {
            server.add_connection(client_id);
            send(payload, addr);
        }
        ServerResult::ClientDisconnected { client_id, addr, payload } => {
            server.remove_connection(client_id);
            if let Some(payload) = payload {
                send(payload, addr);
            }
        }
    }
}

/// Drives [`HostTransport`] where bevy_renet would drive its own netcode transport.
pub struct HostTransportPlugin;

impl Plugin for HostTransportPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            PreUpdate,
            receive_datagrams
                .in_set(RenetReceive)
                .run_if(resource_exists::<HostTransport>)
                .run_if(resource_exists::<RenetServer>)
                .after(RenetServerPlugin::update_system)
                .before(RenetServerPlugin::emit_server_events_system),
        );
        app.add_systems(
            PostUpdate,
            send_datagrams
                .in_set(RenetSend)
                .run_if(resource_exists::<HostTransport>)
                .run_if(resource_exists::<RenetServer>),
        );
        app.add_systems(
            Last,
            disconnect_on_exit
                .run_if(resource_exists::<HostTransport>)
                .run_if(resource_exists::<RenetServer>),
        );
    }
}

fn receive_datagrams(
    mut transport: ResMut<HostTransport>,
    mut server: ResMut<RenetServer>,
    time: Res<Time<Real>>,
) {
    transport.receive(time.delta(), &mut server);
}

fn send_datagrams(mut transport: ResMut<HostTransport>, mut server: ResMut<RenetServer>) {
    transport.send(&mut server);
}

fn disconnect_on_exit(
    exit: MessageReader<AppExit>,
    mut transport: ResMut<HostTransport>,
    mut server: ResMut<RenetServer>,
) {
    if !exit.is_empty() {
        transport.disconnect_all(&mut server);
    }
}
