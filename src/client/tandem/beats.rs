//! What a Tandem run's ticks sound like and the beats the HUD calls out: one stream of
//! [`TandemTick`] messages that the local run (`run.rs`, each tick it steps) or an online round
//! (`online.rs`, each tick the server told of, once) writes, read here into the cues
//! (`audio::PlayCue`) and the HUD's beat line ([`BeatLine`]), so a run sounds and reads the same
//! however it is played.

use super::screen::TandemScreen;
use crate::client::audio::{Cue, PlayCue};
use crate::protocol::tandem::TandemEvents;
use crate::schedule::FrameSystems;
use crate::tandem::control::Seat;
use crate::tandem::events::{Outcome, TandemEvent};
use bevy::prelude::*;

/// One tick's facts on screen (installed orders left out, as the wire leaves them out).
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct TandemTick(pub TandemEvents);

/// Seconds a beat stays on the HUD.
const BEAT_SECS: f32 = 1.6;

/// The HUD's beat line: the newest beat and until when (seconds of real time) it shows.
#[derive(Resource, Debug, Default)]
pub struct BeatLine {
    pub line: String,
    pub until: f32,
    /// Beats heard since the app started (tests and the exit report read it).
    pub heard: u32,
}

pub struct TandemBeatsPlugin;

impl Plugin for TandemBeatsPlugin {
    fn build(&self, app: &mut App) {
        app.add_message::<TandemTick>().add_message::<PlayCue>().init_resource::<BeatLine>();
        // With the HUD, after the facts came in (`FrameSystems::Hear`): a beat heard is called
        // out the same frame.
        app.add_systems(Update, sound_and_call_out.in_set(FrameSystems::Draw));
    }
}

/// The cue a fact sounds, if any.
pub fn cue_of(event: &TandemEvent) -> Option<Cue> {
    Some(match event {
        TandemEvent::Impact { .. } => Cue::Bump,
        TandemEvent::Scrape { .. } => Cue::Scrape,
        TandemEvent::Drop { .. } => Cue::Drop,
        TandemEvent::Regrip => Cue::Catch,
        TandemEvent::DoorwayBeat { .. } => Cue::Doorway,
        TandemEvent::Ended { outcome: Outcome::Delivered } => Cue::RoundEnd,
        TandemEvent::Ended { outcome: Outcome::Wrecked } => Cue::Burn,
        TandemEvent::Ended { .. } => Cue::Miss,
        TandemEvent::OrderInstalled { .. } => return None,
    })
}

fn handle(seat: Seat) -> &'static str {
    match seat {
        Seat::Fore => "fore",
        Seat::Aft => "aft",
    }
}

/// What the HUD calls out for a fact (`doorways`: the course's count), if anything. Scrapes
/// only sound: they come every few ticks along a wall.
pub fn line_of(event: &TandemEvent, doorways: u32) -> Option<String> {
    Some(match event {
        TandemEvent::Impact { damage, blame, .. } => {
            format!("BUMP  -{damage}  ({} handle)", handle(*blame))
        }
        TandemEvent::Drop { seat, damage } => {
            format!("DROPPED by the {} handle  -{damage}", handle(*seat))
        }
        TandemEvent::Regrip => "Regripped: lift!".to_string(),
        TandemEvent::DoorwayBeat { index } => {
            format!("DOORWAY {} of {doorways}", u32::from(*index) + 1)
        }
        _ => return None,
    })
}

/// Each tick's facts: its cues (one of each kind a tick: five discs bumping at once are one
/// knock) and the HUD's newest beat.
fn sound_and_call_out(
    mut ticks: MessageReader<TandemTick>,
    screen: Option<Res<TandemScreen>>,
    time: Res<Time<Real>>,
    mut line: ResMut<BeatLine>,
    mut cues: MessageWriter<PlayCue>,
) {
    let doorways = screen.map_or(0, |s| s.view.doorways);
    for TandemTick(tick) in ticks.read() {
        let mut played: Vec<Cue> = Vec::new();
        for event in &tick.events {
            if let Some(cue) = cue_of(event)
                && !played.contains(&cue)
            {
                played.push(cue);
                cues.write(PlayCue(cue));
            }
            if let Some(text) = line_of(event, doorways) {
                line.line = text;
                line.until = time.elapsed_secs() + BEAT_SECS;
                line.heard += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_fact_a_player_is_told_sounds_and_the_beats_are_called_out() {
        let events = [
            TandemEvent::Impact { disc: 0, damage: 12, blame: Seat::Aft },
            TandemEvent::Scrape { disc: 1, damage: 2, blame: Seat::Fore },
            TandemEvent::Drop { seat: Seat::Fore, damage: 80 },
            TandemEvent::Regrip,
            TandemEvent::DoorwayBeat { index: 2 },
            TandemEvent::Ended { outcome: Outcome::Delivered },
            TandemEvent::Ended { outcome: Outcome::OutOfTime },
        ];
        for e in events {
            assert!(cue_of(&e).is_some(), "{e:?}");
        }
        assert_eq!(cue_of(&TandemEvent::OrderInstalled { seat: Seat::Fore }), None);
        assert_eq!(line_of(&events[4], 13).as_deref(), Some("DOORWAY 3 of 13"));
        assert!(line_of(&events[0], 13).unwrap().contains("-12"));
        assert!(line_of(&events[2], 13).unwrap().contains("fore"));
        assert_eq!(line_of(&events[1], 13), None, "scrapes only sound");
    }
}
