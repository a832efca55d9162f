//! The load generator's lean connection (`join --rooms N --lean`): netcode and renet spoken
//! directly, with no Bevy app, so one process can drive a thousand seats and the server, not
//! the generator, is what a capacity run measures.
//!
//! To the server it is a player's client: it passes replicon's protocol check, marks its seat
//! ready whenever no round is live, sends one input frame per tick (random stick, stamped for
//! the tick after the one the server's `InputAck` names) and acknowledges every mutate message,
//! so the server's per-client cost — receive, the gate, replicon's change collection against
//! its acks, the send — is the one a full client causes (checked side by side in
//! docs/PERFORMANCE.md, "Capacity"). What it skips is the client's own work: it reads only the
//! mutate messages' index and the acks, never applies the world, predicts or draws.

use crate::net::client::headless::protocol_app;
use crate::net::client::headless_inputs::RandomStick;
use crate::net::client::session::JoinReply;
use crate::net::wire::error::NetError;
use crate::net::wire::tokens::{read_token, unix_now};
use crate::protocol::{InputAck, InputBatch, LobbyCommand};
use bevy_replicon::postcard_utils;
use bevy_replicon::prelude::RepliconChannels;
use bevy_replicon::shared::backend::channels::{ClientChannel, ServerChannel};
use bevy_replicon::shared::message::registry::RemoteMessageRegistry;
use bevy_replicon::shared::protocol::ProtocolHash;
use bevy_replicon_renet::RenetClient;
use bevy_replicon_renet::netcode::{ClientAuthentication, NetcodeClientTransport};
use bevy_replicon_renet::renet::ConnectionConfig;
use serde_json::{Value, json};
use std::net::UdpSocket;
use std::time::{Duration, Instant};

/// How long without an ack before a seat counts as out of a live round.
const ROUND_QUIET: Duration = Duration::from_secs(1);
/// How often a seat out of a round asks to be ready again: the real client resends on the
/// lobby's view; this one sees no views, so it asks on a timer until acks arrive, slower than
/// the 3 s countdown so that a request is not refused during one.
const READY_EVERY: Duration = Duration::from_secs(5);

/// The wire facts every lean connection shares, read once from the protocol's own
/// registration (the same plugins a client builds), so they cannot drift from the game's.
#[derive(Clone)]
pub struct LeanWire {
    config: ConnectionConfig,
    server_channels: u8,
    hash: Vec<u8>,
    hash_channel: u8,
    inputs_channel: u8,
    lobby_channel: u8,
    ack_channel: u8,
}

impl LeanWire {
    /// Builds a client's protocol registration and reads the channels and the hash from it.
    pub fn new() -> Result<LeanWire, NetError> {
        let app = protocol_app();
        let world = app.world();
        let registry = world.resource::<RemoteMessageRegistry>();
        let channel = |c: Option<usize>, what: &'static str| {
            c.and_then(|c| u8::try_from(c).ok()).ok_or(NetError::Usage(what))
        };
        let channels = world.resource::<RepliconChannels>();
        let hash = encode(world.resource::<ProtocolHash>())
            .ok_or(NetError::Usage("the protocol hash does not serialize"))?;
        Ok(LeanWire {
            config: crate::net::wire::channels::connection_config(channels),
            server_channels: channels.server_channels().len() as u8,
            hash,
            hash_channel: channel(
                registry.client_event_channel::<ProtocolHash>(),
                "the protocol hash has no channel",
            )?,
            inputs_channel: channel(
                registry.client_message_channel::<InputBatch>(),
                "input batches have no channel",
            )?,
            lobby_channel: channel(
                registry.client_message_channel::<LobbyCommand>(),
                "lobby commands have no channel",
            )?,
            ack_channel: channel(
                registry.server_message_channel::<InputAck>(),
                "input acks have no channel",
            )?,
        })
    }
}

/// A message's bytes as replicon's default serialization writes them (`default_serialize`).
fn encode<T: serde::Serialize>(value: &T) -> Option<Vec<u8>> {
    let mut bytes = Vec::new();
    postcard_utils::to_extend_mut(value, &mut bytes).ok()?;
    Some(bytes)
}

/// One lean connection: the netcode transport on its own UDP socket, renet on top, and what
/// it counts for `--stats`.
pub struct LeanClient {
    wire: LeanWire,
    client: RenetClient,
    transport: NetcodeClientTransport,
    probe: UdpSocket,
    last_step: Instant,
    hash_sent: bool,
    last_ready: Option<Instant>,
    last_ack: Option<Instant>,
    stick: RandomStick,
    seq: u32,
    /// The newest tick an ack named, so each tick is answered with one frame.
    answered: Option<u32>,
    /// When each recent frame went out, by seq, to time the server applying it.
    sent: std::collections::VecDeque<(u32, Instant)>,
    ticks: u64,
    mutate_acks: u64,
    applied_ms: Vec<f64>,
    down: Vec<f64>,
    up: Vec<f64>,
    error: Option<String>,
}

impl LeanClient {
    /// Connects with `reply`'s token over UDP.
    pub fn connect(wire: &LeanWire, reply: &JoinReply, seed: u64) -> Result<LeanClient, NetError> {
        let token = read_token(&reply.token)?;
        let socket = UdpSocket::bind(("0.0.0.0", 0))?;
        let probe = socket.try_clone()?;
        let transport = NetcodeClientTransport::new(
            unix_now(),
            ClientAuthentication::Secure { connect_token: token },
            socket,
        )
        .map_err(|e| NetError::BadToken(e.to_string()))?;
        Ok(LeanClient {
            wire: wire.clone(),
            client: RenetClient::new(wire.config.clone()),
            transport,
            probe,
            last_step: Instant::now(),
            hash_sent: false,
            last_ready: None,
            last_ack: None,
            stick: RandomStick::new(seed),
            seq: 0,
            answered: None,
            sent: Default::default(),
            ticks: 0,
            mutate_acks: 0,
            applied_ms: Vec::new(),
            down: Vec::new(),
            up: Vec::new(),
            error: None,
        })
    }

    /// The socket to poll for waiting packets.
    pub fn probe(&self) -> &UdpSocket {
        &self.probe
    }

    /// Receives what waits, answers it, and sends: one step of the connection.
    pub fn step(&mut self) {
        let now = Instant::now();
        let dt = now.saturating_duration_since(self.last_step);
        self.last_step = now;
        if let Err(e) = self.transport.update(dt, &mut self.client) {
            self.error.get_or_insert_with(|| e.to_string());
        }
        self.client.update(dt);
        if self.client.is_connected() {
            self.answer(now);
        }
        if let Err(e) = self.transport.send_packets(&mut self.client) {
            self.error.get_or_insert_with(|| e.to_string());
        }
    }

    fn answer(&mut self, now: Instant) {
        let (server_channels, ack_channel) = (self.wire.server_channels, self.wire.ack_channel);
        if !self.hash_sent {
            self.client.send_message(self.wire.hash_channel, self.wire.hash.clone());
            self.hash_sent = true;
        }
        // A mutate message starts with its flags (one byte) and its index (u16, fixed-width
        // little endian): the index is the whole ack (bevy_replicon's `buffer_mutate_message`).
        let mut acks = Vec::new();
        while let Some(m) = self.client.receive_message(ServerChannel::Mutations as u8) {
            if let Some(index) = m.get(1..3) {
                acks.extend_from_slice(index);
                self.mutate_acks += 1;
            }
        }
        if !acks.is_empty() {
            self.client.send_message(ClientChannel::MutationAcks as u8, acks);
        }
        let mut newest = None;
        for channel in 0..server_channels {
            while let Some(m) = self.client.receive_message(channel) {
                if channel == ack_channel
                    && let Ok(ack) = postcard_utils::from_buf::<InputAck, _>(&mut m.clone())
                {
                    newest = newest.max(Some(ack.tick));
                    self.time_applied(ack.applied, now);
                }
            }
        }
        if let Some(tick) = newest.filter(|t| self.answered.is_none_or(|a| *t > a)) {
            self.answered = Some(tick);
            self.last_ack = Some(now);
            self.ticks += 1;
            self.send_frame(tick + 1, now);
            let info = self.client.network_info();
            self.down.push(info.bytes_received_per_second);
            self.up.push(info.bytes_sent_per_second);
        }
        let in_round = self.last_ack.is_some_and(|t| now.duration_since(t) < ROUND_QUIET);
        if !in_round && self.last_ready.is_none_or(|t| now.duration_since(t) >= READY_EVERY) {
            self.last_ready = Some(now);
            if let Some(bytes) = encode(&LobbyCommand::Ready(true)) {
                self.client.send_message(self.wire.lobby_channel, bytes);
            }
        }
    }

    fn send_frame(&mut self, tick: u32, now: Instant) {
        self.seq += 1;
        let batch = InputBatch {
            slot: 0,
            seq: self.seq,
            tick,
            newest: self.stick.frame(tick),
            held: 0,
            older: Vec::new(),
        };
        if let Some(bytes) = encode(&batch) {
            self.client.send_message(self.wire.inputs_channel, bytes);
        }
        if self.sent.len() >= 64 {
            self.sent.pop_front();
        }
        self.sent.push_back((self.seq, now));
    }

    fn time_applied(&mut self, applied: Option<u32>, now: Instant) {
        let Some(seq) = applied else { return };
        if let Some(i) = self.sent.iter().position(|(s, _)| *s == seq) {
            let (_, at) = self.sent[i];
            self.applied_ms.push(now.duration_since(at).as_secs_f64() * 1000.0);
            self.sent.drain(..=i);
        }
    }

    /// Disconnects cleanly (netcode's disconnect packets go out now).
    pub fn disconnect(&mut self) {
        self.transport.disconnect();
    }

    /// The `--stats` object of this connection, in the headless client's field names where
    /// the two measure the same thing.
    pub fn stats(&self) -> Value {
        use crate::net::client::headless::{mean, percentile};
        json!({
            "ticks_received": self.ticks,
            "frames_sent": self.seq,
            "mutate_acks": self.mutate_acks,
            "down_bytes_per_s": mean(&self.down).round(),
            "up_bytes_per_s": mean(&self.up).round(),
            "rtt_ms": (self.client.rtt() * 1000.0).round(),
            "press_to_applied_ms_p99": percentile(&self.applied_ms, 99),
            "error": self.error,
        })
    }
}
