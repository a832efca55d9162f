//! Sound cues synthesised at start-up (no audio files): each cue is a short sample buffer
//! played through Bevy's audio as a custom `Decodable` source, chosen from `RoomTick` facts
//! (a Tandem run's ticks and the emotes ask through [`PlayCue`]: `client::tandem::beats`,
//! `client::hud::emotes`).

use super::hud::pops::refused_serve;
use super::local::RoundPhase;
use super::save::SaveData;
use super::state::BackdropRoom;
use crate::project::RoomTick;
use crate::protocol::emote::Emote;
use crate::protocol::{InRoom, StationView};
use crate::sim::events::SimEvent;
use bevy::audio::{AddAudioSource, ChannelCount, Decodable, SampleRate, Source, Volume};
use bevy::prelude::*;
use std::sync::Arc;
use std::time::Duration;

const RATE: u32 = 22_050;

/// A mono sample buffer.
#[derive(Asset, TypePath, Clone)]
pub struct Synth(Arc<[f32]>);

pub struct SynthDecoder {
    samples: Arc<[f32]>,
    at: usize,
}

impl Iterator for SynthDecoder {
    type Item = f32;
    fn next(&mut self) -> Option<f32> {
        let s = self.samples.get(self.at).copied();
        self.at += 1;
        s
    }
}

impl Source for SynthDecoder {
    fn current_span_len(&self) -> Option<usize> {
        Some(self.samples.len().saturating_sub(self.at))
    }
    fn channels(&self) -> ChannelCount {
        ChannelCount::new(1).expect("one channel")
    }
    fn sample_rate(&self) -> SampleRate {
        SampleRate::new(RATE).expect("a positive rate")
    }
    fn total_duration(&self) -> Option<Duration> {
        Some(Duration::from_secs_f32(self.samples.len() as f32 / RATE as f32))
    }
}

impl Decodable for Synth {
    type Decoder = SynthDecoder;
    fn decoder(&self) -> SynthDecoder {
        SynthDecoder { samples: self.0.clone(), at: 0 }
    }
}

/// The cues.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cue {
    Chop,
    Sizzle,
    Burn,
    Serve,
    Miss,
    Denied,
    Beep,
    Go,
    RoundEnd,
    Ignite,
    Extinguish,
    Knock,
    /// The burn warning's beep: food on the heat is done and will burn if left.
    Warn,
    /// A star lit on the round-end screen (0, 1, 2: each a step higher).
    Star(u8),
    /// A serve refused at the hatch (a burnt, wrong or unfinished dish).
    Refused,
    /// A cook threw an ingredient: a rising whoosh.
    Throw,
    /// A flight caught in a free hand: a bright pop.
    Catch,
    /// A cook dashed: a short low rush.
    Dash,
    /// Tandem: the couch hit something (a knock, brighter than the kitchen's).
    Bump,
    /// Tandem: the couch scraping along a wall (a short hiss).
    Scrape,
    /// Tandem: the couch dropped (a heavy low thud).
    Drop,
    /// Tandem: a doorway passed (a rising two-note chime).
    Doorway,
    /// A cook's emote: a short call, its own tune for each of the four.
    Emote(Emote),
}

/// Every cue, in the order they are made at start-up.
pub const ALL_CUES: [Cue; 29] = [
    Cue::Chop,
    Cue::Sizzle,
    Cue::Burn,
    Cue::Serve,
    Cue::Miss,
    Cue::Denied,
    Cue::Beep,
    Cue::Go,
    Cue::RoundEnd,
    Cue::Ignite,
    Cue::Extinguish,
    Cue::Knock,
    Cue::Warn,
    Cue::Star(0),
    Cue::Star(1),
    Cue::Star(2),
    Cue::Star(3),
    Cue::Refused,
    Cue::Throw,
    Cue::Catch,
    Cue::Dash,
    Cue::Bump,
    Cue::Scrape,
    Cue::Drop,
    Cue::Doorway,
    Cue::Emote(Emote::Here),
    Cue::Emote(Emote::Help),
    Cue::Emote(Emote::Thanks),
    Cue::Emote(Emote::Hurry),
];

/// A cue asked for by a screen rather than by a tick fact (the round end's stars).
#[derive(Message, Clone, Copy, Debug)]
pub struct PlayCue(pub Cue);

#[derive(Resource)]
struct Cues(Vec<(Cue, Handle<Synth>)>);

/// A tiny deterministic noise source for the synth (no OS randomness needed for hiss).
fn noise(k: usize) -> f32 {
    let mut x = (k as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    x ^= x >> 29;
    x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x ^= x >> 32;
    (x as u32 as f32 / u32::MAX as f32) * 2.0 - 1.0
}

/// Tones as (frequency Hz, seconds) in sequence, with a decaying envelope each; `hiss` mixes
/// in noise (0 = pure tone, 1 = pure noise).
fn render(notes: &[(f32, f32)], hiss: f32, decay: f32) -> Synth {
    let mut out = Vec::new();
    for &(freq, secs) in notes {
        let n = (secs * RATE as f32) as usize;
        for k in 0..n {
            let t = k as f32 / RATE as f32;
            let env = (-t * decay).exp() * (k as f32 / 60.0).min(1.0);
            let tone = (std::f32::consts::TAU * freq * t).sin();
            let s = tone * (1.0 - hiss) + noise(out.len()) * hiss;
            out.push(s * env * 0.5);
        }
    }
    Synth(out.into())
}

/// Every cue's samples.
pub fn synthesise(cue: Cue) -> Synth {
    match cue {
        Cue::Chop => render(&[(180.0, 0.07)], 0.7, 40.0),
        Cue::Sizzle => render(&[(900.0, 0.45)], 0.95, 5.0),
        Cue::Burn => render(&[(220.0, 0.2), (150.0, 0.35)], 0.4, 4.0),
        Cue::Serve => render(&[(660.0, 0.09), (880.0, 0.09), (1320.0, 0.22)], 0.0, 6.0),
        Cue::Miss => render(&[(330.0, 0.15), (247.0, 0.3)], 0.05, 5.0),
        Cue::Denied => render(&[(140.0, 0.12)], 0.1, 12.0),
        Cue::Beep => render(&[(600.0, 0.12)], 0.0, 10.0),
        Cue::Go => render(&[(1200.0, 0.3)], 0.0, 6.0),
        Cue::Ignite => render(&[(110.0, 0.5)], 0.85, 3.0),
        Cue::Extinguish => render(&[(2000.0, 0.6)], 1.0, 4.0),
        Cue::Knock => render(&[(90.0, 0.1), (70.0, 0.15)], 0.3, 18.0),
        Cue::Warn => render(&[(1400.0, 0.07), (0.0, 0.04), (1400.0, 0.07)], 0.0, 14.0),
        // A bright chime, each star a step up the scale; the last a little longer.
        Cue::Star(k) => {
            let steps = [784.0, 988.0, 1175.0, 1568.0];
            let f = steps[(k as usize).min(steps.len() - 1)];
            render(&[(f, 0.12), (f * 2.0, 0.35)], 0.0, 7.0)
        }
        Cue::Throw => render(&[(500.0, 0.05), (750.0, 0.08)], 0.6, 10.0),
        Cue::Catch => render(&[(1050.0, 0.04), (1575.0, 0.06)], 0.05, 20.0),
        Cue::Dash => render(&[(160.0, 0.16)], 0.8, 14.0),
        Cue::Bump => render(&[(130.0, 0.07), (95.0, 0.12)], 0.35, 16.0),
        Cue::Scrape => render(&[(320.0, 0.18)], 0.9, 12.0),
        Cue::Drop => render(&[(70.0, 0.12), (52.0, 0.3)], 0.5, 6.0),
        Cue::Doorway => render(&[(880.0, 0.08), (1318.0, 0.22)], 0.0, 8.0),
        Cue::Refused => render(&[(200.0, 0.1), (150.0, 0.22)], 0.15, 8.0),
        // Two quick notes shaped like the words: up for "Here!", a fall for "Help!", a warm
        // rise for "Thanks!", a fast repeat for "Hurry!".
        Cue::Emote(Emote::Here) => render(&[(700.0, 0.07), (1050.0, 0.12)], 0.0, 12.0),
        Cue::Emote(Emote::Help) => render(&[(1000.0, 0.08), (660.0, 0.16)], 0.0, 10.0),
        Cue::Emote(Emote::Thanks) => render(&[(523.0, 0.09), (784.0, 0.18)], 0.0, 8.0),
        Cue::Emote(Emote::Hurry) => render(
            &[(900.0, 0.05), (0.0, 0.03), (900.0, 0.05), (0.0, 0.03), (900.0, 0.06)],
            0.0,
            18.0,
        ),
        Cue::RoundEnd => {
            render(&[(523.0, 0.15), (659.0, 0.15), (784.0, 0.15), (1046.0, 0.4)], 0.0, 3.0)
        }
    }
}

/// The cue a fact sounds, if any.
pub fn cue_for(event: &SimEvent) -> Option<Cue> {
    Some(match event {
        SimEvent::WorkStarted { .. } | SimEvent::Chopped { .. } => Cue::Chop,
        SimEvent::Cooked { .. } => Cue::Sizzle,
        SimEvent::Burnt { .. } => Cue::Burn,
        SimEvent::Served { .. } => Cue::Serve,
        SimEvent::OrderMissed { .. } => Cue::Miss,
        SimEvent::Denied { reason, .. } if refused_serve(*reason) => Cue::Refused,
        SimEvent::Denied { .. } => Cue::Denied,
        SimEvent::RoundEnd { .. } | SimEvent::VersusEnd { .. } => Cue::RoundEnd,
        SimEvent::Ignited { .. } | SimEvent::Spread { .. } => Cue::Ignite,
        SimEvent::Extinguished { .. } => Cue::Extinguish,
        SimEvent::Knocked { .. } => Cue::Knock,
        SimEvent::Thrown { .. } => Cue::Throw,
        SimEvent::Caught { .. } => Cue::Catch,
        SimEvent::Dashed { .. } => Cue::Dash,
        _ => return None,
    })
}

/// The synthesised cues, played from the tick facts and the countdown.
pub struct SoundPlugin;

impl Plugin for SoundPlugin {
    fn build(&self, app: &mut App) {
        app.add_audio_source::<Synth>();
        app.add_systems(Startup, make_cues);
        app.add_message::<PlayCue>();
        app.add_systems(
            Update,
            (play_tick_cues, play_countdown_cues, play_asked_cues, beep_burn_warnings),
        );
    }
}

fn make_cues(mut commands: Commands, mut assets: ResMut<Assets<Synth>>) {
    commands
        .insert_resource(Cues(ALL_CUES.iter().map(|c| (*c, assets.add(synthesise(*c)))).collect()));
}

fn play(commands: &mut Commands, cues: &Cues, cue: Cue, volume: f32) {
    if volume <= 0.0 {
        return;
    }
    if let Some((_, h)) = cues.0.iter().find(|(c, _)| *c == cue) {
        commands.spawn((
            AudioPlayer(h.clone()),
            PlaybackSettings::DESPAWN.with_volume(Volume::Linear(volume)),
        ));
    }
}

/// One sound per kind of fact per tick (four cooks chopping at once is one chop).
fn play_tick_cues(
    mut commands: Commands,
    mut ticks: MessageReader<RoomTick>,
    backdrops: Query<(), With<BackdropRoom>>,
    cues: Option<Res<Cues>>,
    save: Res<SaveData>,
) {
    let Some(cues) = cues else { return };
    // The title's live kitchen plays silently behind the menu.
    for tick in ticks.read().filter(|t| !backdrops.contains(t.room)) {
        let mut played: Vec<Cue> = Vec::new();
        for cue in tick.events.iter().filter_map(cue_for) {
            if !played.contains(&cue) {
                played.push(cue);
                play(&mut commands, &cues, cue, save.volume);
            }
        }
    }
}

/// A beep per countdown second and a higher one on GO.
fn play_countdown_cues(
    mut commands: Commands,
    phase: Res<RoundPhase>,
    mut last: Local<Option<u32>>,
    cues: Option<Res<Cues>>,
    save: Res<SaveData>,
) {
    let Some(cues) = cues else { return };
    let now = match *phase {
        RoundPhase::Countdown(left) => Some(left.ceil() as u32),
        _ => None,
    };
    if now != *last {
        match (now, *last) {
            (Some(_), _) => play(&mut commands, &cues, Cue::Beep, save.volume),
            (None, Some(_)) => play(&mut commands, &cues, Cue::Go, save.volume),
            _ => {}
        }
        *last = now;
    }
}

/// Cues the screens ask for.
fn play_asked_cues(
    mut commands: Commands,
    mut asked: MessageReader<PlayCue>,
    cues: Option<Res<Cues>>,
    save: Res<SaveData>,
) {
    let Some(cues) = cues else { return };
    for PlayCue(cue) in asked.read() {
        play(&mut commands, &cues, *cue, save.volume);
    }
}

/// Heat (ticks before burning) under which the warning beeps faster; the kitchen's warning
/// grows and flashes faster at the same point.
const URGENT_HEAT: u32 = 40;

/// While any food on the heat is done and will burn, a double beep: every 0.9 s, every 0.4 s
/// once it is close. One beep for the whole kitchen however many stoves warn.
fn beep_burn_warnings(
    mut commands: Commands,
    time: Res<Time<Real>>,
    stations: Query<(&StationView, &InRoom)>,
    backdrops: Query<(), With<BackdropRoom>>,
    cues: Option<Res<Cues>>,
    save: Res<SaveData>,
    mut since: Local<f32>,
) {
    let Some(cues) = cues else { return };
    let hottest = stations
        .iter()
        .filter(|(st, room)| st.heat > 0 && !backdrops.contains(room.0))
        .map(|(st, _)| st.heat)
        .min();
    let Some(heat) = hottest else {
        // Nothing warns: the next warning beeps at once.
        *since = f32::MAX;
        return;
    };
    if *since != f32::MAX {
        *since += time.delta_secs();
    }
    let every = if heat < URGENT_HEAT { 0.4 } else { 0.9 };
    if *since >= every {
        *since = 0.0;
        play(&mut commands, &cues, Cue::Warn, save.volume);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_cue_is_made_once_and_sounds() {
        for (k, cue) in ALL_CUES.iter().enumerate() {
            assert!(!ALL_CUES[..k].contains(cue), "{cue:?} twice");
            let Synth(samples) = synthesise(*cue);
            assert!(samples.iter().any(|s| s.abs() > 0.05), "{cue:?} is silent");
        }
        // Each star a step higher than the last: its chime's first zero crossings come sooner.
        let crossings = |cue| {
            let Synth(s) = synthesise(cue);
            s.windows(2).take(2000).filter(|w| (w[0] < 0.0) != (w[1] < 0.0)).count()
        };
        assert!(crossings(Cue::Star(0)) < crossings(Cue::Star(1)));
        assert!(crossings(Cue::Star(1)) < crossings(Cue::Star(2)));
    }

    #[test]
    fn the_second_button_is_heard() {
        use crate::sim::ids::ItemId;
        let item = ItemId(4);
        assert_eq!(cue_for(&SimEvent::Thrown { seat: 0, item }), Some(Cue::Throw));
        assert_eq!(cue_for(&SimEvent::Caught { seat: 1, item, from: 0 }), Some(Cue::Catch));
        assert_eq!(cue_for(&SimEvent::Dashed { seat: 0 }), Some(Cue::Dash));
    }
}
