//! The renet target: renet packets (real ones a `RenetClient` wrote, hand-built hostile ones,
//! and mutations of both) sealed as well-formed netcode payload packets with the connected
//! client's key, so every input gets past the encryption into renet's parser, its slice
//! reassembly and its ack handling.
//!
//! The hand-built packets aim where renet's parser trusts its input: slices whose index is at
//! or past their count, one message id's slices disagreeing about the count, slices of the
//! wrong size, acks with huge or inverted ranges, and message counts far beyond the bytes.

use super::mutate::mutate;
use super::netcode::Link;
use super::target::{Outcome, Target};
use crate::sim::rng::SplitMix64;
use bevy_replicon_renet::renet::{ConnectionConfig, RenetClient};
use std::time::Duration;

/// renet's slice size (`renet::packet::SLICE_SIZE`, private there).
const SLICE_SIZE: usize = 1200;
/// renet's packet type bytes.
const SMALL_RELIABLE: u8 = 0;
const SMALL_UNRELIABLE: u8 = 1;
const RELIABLE_SLICE: u8 = 2;
const UNRELIABLE_SLICE: u8 = 3;
const ACK: u8 = 4;

/// A QUIC variable-length integer, as renet (through `octets`) writes one.
pub fn varint(out: &mut Vec<u8>, v: u64) {
    match v {
        0..=63 => out.push(v as u8),
        64..=16_383 => out.extend(((v as u16) | 0x4000).to_be_bytes()),
        16_384..=1_073_741_823 => out.extend(((v as u32) | 0x8000_0000).to_be_bytes()),
        _ => out.extend((v.min((1 << 62) - 1) | 0xc000_0000_0000_0000).to_be_bytes()),
    }
}

/// A slice packet (reliable or not) with the given header and `len` payload bytes.
fn slice(
    reliable: bool,
    seq: u64,
    channel: u8,
    id: u64,
    index: u64,
    count: u64,
    len: usize,
) -> Vec<u8> {
    let mut p = vec![if reliable { RELIABLE_SLICE } else { UNRELIABLE_SLICE }];
    varint(&mut p, seq);
    p.push(channel);
    varint(&mut p, id);
    varint(&mut p, index);
    varint(&mut p, count);
    varint(&mut p, len as u64);
    p.extend(std::iter::repeat_n(0xAB, len));
    p
}

/// One hand-built hostile renet packet.
fn hostile(rng: &mut SplitMix64, seq: u64) -> Vec<u8> {
    let channel = rng.index(3) as u8;
    let reliable = channel != 2 && rng.index(4) != 0;
    // A few message ids only, so successive inputs' slices meet in one reassembly.
    let id = rng.index(4) as u64;
    match rng.index(7) {
        // Index at or past the count.
        0 => {
            let count = 1 + rng.index(4) as u64;
            slice(reliable, seq, channel, id, count + rng.index(3) as u64, count, SLICE_SIZE)
        }
        // The count disagrees with the message's earlier slices.
        1 => {
            let count = 2 + rng.index(6) as u64;
            slice(reliable, seq, channel, id, rng.index(count as usize) as u64, count, SLICE_SIZE)
        }
        // A last slice of any size, or a middle one that is short.
        2 => {
            let count = 2 + rng.index(3) as u64;
            slice(
                reliable,
                seq,
                channel,
                id,
                rng.index(count as usize) as u64,
                count,
                1 + rng.index(SLICE_SIZE),
            )
        }
        // Huge counts.
        3 => slice(reliable, seq, channel, id, rng.next_u64() >> 2, rng.next_u64() >> 2, 16),
        // An ack with huge, inverted or many ranges.
        4 => {
            let mut p = vec![ACK];
            varint(&mut p, seq);
            varint(&mut p, rng.next_u64() >> (2 + rng.index(60)));
            varint(&mut p, rng.next_u64() >> (2 + rng.index(60)));
            let ranges = rng.index(40) as u64;
            varint(&mut p, ranges);
            for _ in 0..ranges {
                varint(&mut p, rng.next_u64() >> (2 + rng.index(60)));
                varint(&mut p, rng.next_u64() >> (2 + rng.index(60)));
            }
            p
        }
        // A message count far beyond the bytes that follow.
        5 => {
            let mut p = vec![if rng.index(2) == 0 { SMALL_RELIABLE } else { SMALL_UNRELIABLE }];
            varint(&mut p, seq);
            p.push(channel);
            p.extend(u16::MAX.to_be_bytes());
            varint(&mut p, 1);
            varint(&mut p, 3);
            p.extend([1, 2, 3]);
            p
        }
        // A small reliable message with a message id far ahead of the window.
        _ => {
            let mut p = vec![SMALL_RELIABLE];
            varint(&mut p, seq);
            p.push(rng.index(256) as u8);
            p.extend(1u16.to_be_bytes());
            varint(&mut p, rng.next_u64() >> 2);
            let n = rng.index(64);
            varint(&mut p, n as u64);
            p.extend(std::iter::repeat_n(7, n));
            p
        }
    }
}

/// Renet packets into the connected client's encrypted stream.
pub struct RenetTarget {
    link: Link,
    client: RenetClient,
    /// Real packets the renet client wrote.
    real: Vec<Vec<u8>>,
    seq: u64,
}

impl RenetTarget {
    pub fn new(seed: u64) -> Result<RenetTarget, String> {
        let link = Link::new(seed)?;
        let mut t = RenetTarget {
            link,
            client: RenetClient::new(ConnectionConfig::default()),
            real: Vec::new(),
            seq: 0,
        };
        let mut rng = SplitMix64::new(seed).fork(0x2E7E7);
        for _ in 0..8 {
            t.refill(&mut rng);
        }
        Ok(t)
    }

    /// Have the renet client write real packets: messages small and large (sliced), on every
    /// channel, plus its acks.
    fn refill(&mut self, rng: &mut SplitMix64) {
        for channel in 0..3u8 {
            let len =
                if rng.index(3) == 0 { 1 + rng.index(4 * SLICE_SIZE) } else { 1 + rng.index(200) };
            self.client.send_message(channel, vec![rng.next_u64() as u8; len]);
        }
        self.client.update(Duration::from_millis(10));
        for p in self.client.get_packets_to_send() {
            if self.real.len() >= 64 {
                let i = rng.index(self.real.len());
                self.real[i] = p;
            } else {
                self.real.push(p);
            }
        }
    }
}

impl Target for RenetTarget {
    fn input(&mut self, rng: &mut SplitMix64) -> Vec<u8> {
        self.seq += 1;
        if rng.index(32) == 0 {
            self.refill(rng);
        }
        match rng.index(4) {
            0 => hostile(rng, self.seq),
            1 => self.real[rng.index(self.real.len())].clone(),
            2 => {
                let base = hostile(rng, self.seq);
                mutate(rng, &base, &self.real)
            }
            _ => {
                let base = self.real[rng.index(self.real.len())].clone();
                mutate(rng, &base, &self.real)
            }
        }
    }

    fn feed(&mut self, input: &[u8]) -> Outcome {
        let Some(mut sealed) = self.link.seal(input) else {
            return "too large to seal".into();
        };
        let from = self.link.client_addr();
        let id = self.link.client_id();
        let kind = self.link.deliver(from, &mut sealed);
        // renet refuses a packet by ending the connection; its reason is the input's kind.
        let reason = self.link.renet.disconnect_reason(id);
        self.link.step();
        if self.link.ensure_connected().is_err() {
            return "reconnect refused".into();
        }
        match reason {
            Some(r) => {
                let reason = super::netcode::without_digits(&format!("{r:?}"));
                format!("{kind}: renet disconnected the client ({reason})")
            }
            None => kind,
        }
    }

    fn still_serving(&mut self) -> Result<(), String> {
        self.link.connect()
    }
}
