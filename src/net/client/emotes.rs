//! A client's emotes: what its local players say goes out (each slot kept to the server's pace,
//! so an honest player is told "slow down" at once, not a round trip later) and is drawn at once
//! over its own cook; what the room's other players said, and what the server refused, comes
//! in. Both end as plain messages ([`EmoteHeard`], [`EmoteHeldBack`]) that the window's HUD and
//! sound read, and as counts ([`EmoteCounts`]) that `--stats` prints. Front ends that show or
//! count emotes add [`ClientEmotesPlugin`] beside the session.

use crate::net::client::outbox::Outbox;
use crate::net::client::seats::{ClientSession, SessionSystems};
use crate::net::client::session::SendPace;
use crate::protocol::emote::{Emote, EmotePace, EmoteRefusal, EmoteRefused, EmoteSaid, EmoteShown};
use bevy::prelude::*;
use bevy_replicon_renet::RenetClient;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::time::Duration;

/// Whose emote a window is about to draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EmoteSource {
    /// One of this window's own players (a local game's every seat).
    ThisWindow,
    /// Another player in the room (what the "hide other players' emotes" option hides).
    OtherPlayer,
}

/// A cook made an emote: drawn over it, with its sound.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct EmoteHeard {
    pub seat: u8,
    pub emote: Emote,
    pub source: EmoteSource,
}

/// One of this window's players' emotes went to nobody (too many too fast): told over its cook.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct EmoteHeldBack {
    pub seat: u8,
    pub reason: EmoteRefusal,
}

/// What a connection's emotes came to, for `--stats`.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct EmoteCounts {
    /// Sent to the server.
    pub sent: u64,
    /// Kept back here: the slot was past its pace (never sent).
    pub held_back: u64,
    /// The server refused, by reason.
    pub refused: BTreeMap<String, u64>,
    /// Other players' emotes shown to this connection, by emote.
    pub seen: BTreeMap<Emote, u64>,
}

impl EmoteCounts {
    /// The `emotes` object of `--stats`.
    pub fn stats(&self) -> Value {
        let seen: BTreeMap<&str, u64> = self.seen.iter().map(|(e, n)| (e.name(), *n)).collect();
        json!({
            "sent": self.sent,
            "held_back": self.held_back,
            "refused": self.refused,
            "seen": self.seen.values().sum::<u64>(),
            "seen_by_emote": seen,
        })
    }
}

/// Each local slot's (or, in a local game, seat's) emote pace, on one clock.
#[derive(Resource, Debug, Default)]
pub struct EmotePaces {
    paces: Vec<Option<EmotePace>>,
}

impl EmotePaces {
    /// Takes one emote of `slot`'s allowance at `now` (a first emote starts a full one).
    pub fn take(&mut self, slot: usize, now: Duration) -> bool {
        if self.paces.len() <= slot {
            self.paces.resize(slot + 1, None);
        }
        self.paces[slot].get_or_insert_with(|| EmotePace::full(now)).take(now)
    }
}

/// The online side of emotes: out through the session, in from the server.
pub struct ClientEmotesPlugin;

impl Plugin for ClientEmotesPlugin {
    fn build(&self, app: &mut App) {
        app.add_message::<EmoteHeard>().add_message::<EmoteHeldBack>();
        app.init_resource::<EmoteCounts>().init_resource::<EmotePaces>();
        app.add_systems(
            Update,
            (hear_emotes.in_set(SessionSystems::Follow), say_emotes.in_set(SessionSystems::Send))
                .run_if(resource_exists::<RenetClient>),
        );
    }
}

/// The outbox's emotes go out, each slot kept to its pace; a sent one is drawn over its own
/// cook at once (the server passes it to everyone else).
fn say_emotes(
    mut outbox: ResMut<Outbox>,
    session: Res<ClientSession>,
    time: Res<Time<Real>>,
    mut paces: ResMut<EmotePaces>,
    mut counts: ResMut<EmoteCounts>,
    mut pace: ResMut<SendPace>,
    mut out: MessageWriter<EmoteSaid>,
    mut heard: MessageWriter<EmoteHeard>,
    mut held: MessageWriter<EmoteHeldBack>,
) {
    let said = std::mem::take(&mut outbox.emotes);
    let seats = session.seats();
    for (slot, emote) in said {
        let Some(&seat) = seats.get(slot as usize) else { continue };
        if !paces.take(slot as usize, time.elapsed()) {
            counts.held_back += 1;
            held.write(EmoteHeldBack { seat, reason: EmoteRefusal::TooFast });
            continue;
        }
        out.write(EmoteSaid { slot, emote });
        pace.due = true;
        counts.sent += 1;
        heard.write(EmoteHeard { seat, emote, source: EmoteSource::ThisWindow });
    }
}

/// The room's other players' emotes, and the server's refusals of this connection's.
fn hear_emotes(
    mut shown: MessageReader<EmoteShown>,
    mut refused: MessageReader<EmoteRefused>,
    session: Res<ClientSession>,
    mut counts: ResMut<EmoteCounts>,
    mut heard: MessageWriter<EmoteHeard>,
    mut held: MessageWriter<EmoteHeldBack>,
) {
    for s in shown.read() {
        *counts.seen.entry(s.emote).or_default() += 1;
        heard.write(EmoteHeard { seat: s.seat, emote: s.emote, source: EmoteSource::OtherPlayer });
    }
    let seats = session.seats();
    for r in refused.read() {
        *counts.refused.entry(format!("{:?}", r.reason)).or_default() += 1;
        if let Some(&seat) = seats.get(r.slot as usize) {
            held.write(EmoteHeldBack { seat, reason: r.reason });
        }
    }
}
