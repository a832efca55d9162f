//! Emotes in a local game: every seat is this window's, so what its players say is drawn over
//! their cooks at once, kept to the same pace a server keeps (`protocol::emote::EmotePace`).
//! Nothing reaches the embedded host's room: emotes are never inputs.

use crate::client::state::local_play;
use crate::net::client::emotes::{EmoteHeard, EmoteHeldBack, EmotePaces, EmoteSource};
use crate::net::client::outbox::Outbox;
use crate::protocol::emote::EmoteRefusal;
use bevy::prelude::*;

/// The local game's emotes: from the outbox to the HUD and sound.
pub struct LocalEmotesPlugin;

impl Plugin for LocalEmotesPlugin {
    fn build(&self, app: &mut App) {
        app.add_message::<EmoteHeard>().add_message::<EmoteHeldBack>();
        app.init_resource::<EmotePaces>();
        app.add_systems(Update, show_local_emotes.run_if(local_play));
    }
}

/// The outbox's emotes, each seat kept to its pace, shown over their cooks.
fn show_local_emotes(
    mut outbox: ResMut<Outbox>,
    time: Res<Time<Real>>,
    mut paces: ResMut<EmotePaces>,
    mut heard: MessageWriter<EmoteHeard>,
    mut held: MessageWriter<EmoteHeldBack>,
) {
    for (seat, emote) in std::mem::take(&mut outbox.emotes) {
        if paces.take(seat as usize, time.elapsed()) {
            heard.write(EmoteHeard { seat, emote, source: EmoteSource::ThisWindow });
        } else {
            held.write(EmoteHeldBack { seat, reason: EmoteRefusal::TooFast });
        }
    }
}
