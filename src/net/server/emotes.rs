//! A seated connection's emotes: each passed on to the room's other connections, or refused to
//! the sender by name ([`EmoteRefusal`]) when its seat is past its pace or the slot names no seat
//! of its. Counted for the metrics and tests ([`EmoteTally`]); never part of a round's inputs.

use crate::net::server::hosted::HostedRoom;
use crate::net::server::peer::Peer;
use crate::protocol::emote::{EmotePace, EmoteRefusal, EmoteRefused, EmoteSaid, EmoteShown};
use bevy::prelude::*;
use bevy_replicon::prelude::*;
use std::collections::HashMap;

/// Seats' allowances kept before the ones of rooms that are gone are dropped.
const PACES_KEPT: usize = 1024;

/// Emotes since the server started, by outcome.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EmoteTally {
    /// Passed on to the room's other connections.
    pub shown: u64,
    pub too_fast: u64,
    pub no_seat: u64,
}

impl EmoteTally {
    fn count(&mut self, refusal: EmoteRefusal) {
        match refusal {
            EmoteRefusal::TooFast => self.too_fast += 1,
            EmoteRefusal::NoSeat => self.no_seat += 1,
        }
    }
}

/// Each seat's emote allowance, by its room's lobby entity and seat: a seat's, not a
/// connection's, so reconnecting does not refill it.
#[derive(Resource, Debug, Default)]
pub struct EmotePaces(HashMap<(Entity, u8), EmotePace>);

/// Every emote of a seated connection, shown to the room's other connections or refused to it.
pub fn admit_emotes(
    mut said: MessageReader<FromClient<EmoteSaid>>,
    peers: Query<&Peer>,
    lobbies: Query<&HostedRoom>,
    time: Res<Time<Real>>,
    mut paces: ResMut<EmotePaces>,
    mut tally: ResMut<EmoteTally>,
    mut shown: MessageWriter<ToClients<EmoteShown>>,
    mut refused: MessageWriter<ToClients<EmoteRefused>>,
) {
    let now = time.elapsed();
    for FromClient { client_id, message } in said.read() {
        let Some(client) = client_id.entity() else { continue };
        let Ok(peer) = peers.get(client) else { continue };
        let Ok(hosted) = lobbies.get(peer.lobby) else { continue };
        let verdict = match peer.seat(message.slot) {
            None => Err(EmoteRefusal::NoSeat),
            Some(seat) => {
                let pace =
                    paces.0.entry((peer.lobby, seat)).or_insert_with(|| EmotePace::full(now));
                if pace.take(now) { Ok(seat) } else { Err(EmoteRefusal::TooFast) }
            }
        };
        match verdict {
            Ok(seat) => {
                tally.shown += 1;
                let others = hosted.clients().into_iter().filter(|c| *c != client);
                for other in others {
                    shown.write(ToClients {
                        targets: SendTargets::Single(ClientId::Client(other)),
                        message: EmoteShown { seat, emote: message.emote },
                    });
                }
            }
            Err(reason) => {
                tally.count(reason);
                // An eager player is refused often and honestly: that is counted in the
                // metrics, not logged line by line. A slot of no seat is a lying peer.
                match reason {
                    EmoteRefusal::TooFast => {
                        debug!(room = %hosted.code, client = %client, %reason, "emote refused")
                    }
                    EmoteRefusal::NoSeat => {
                        warn!(room = %hosted.code, client = %client, slot = message.slot, %reason, "emote refused")
                    }
                }
                refused.write(ToClients {
                    targets: SendTargets::Single(ClientId::Client(client)),
                    message: EmoteRefused { slot: message.slot, emote: message.emote, reason },
                });
            }
        }
    }
    if paces.0.len() > PACES_KEPT {
        paces.0.retain(|(lobby, _), _| lobbies.contains(*lobby));
    }
}
