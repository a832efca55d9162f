//! Emote bubbles: each emote heard (`net::client::emotes::EmoteHeard`, online or in a local
//! game) is drawn over its cook for [`EMOTE_SECS`] with its sound; a newer one of the same
//! cook replaces it. Other players' are left out when Settings hides them. An emote held back
//! (too many too fast) is a nudge over the player's own cook.

use crate::client::audio::{Cue, PlayCue};
use crate::client::hud::nudges::nudge;
use crate::client::kitchen::KitchenCamera;
use crate::client::kitchen::interp::{DrawnAt, cook_floor_point};
use crate::client::settings::access::Accessibility;
use crate::client::state::{AppState, BackdropRoom};
use crate::client::theme::{EMOTE_BUBBLE, NAME_TAG_DARK, label, seat_color};
use crate::net::client::emotes::{EmoteHeard, EmoteHeldBack, EmoteSource};
use crate::protocol::emote::Emote;
use crate::protocol::{CookView, InRoom};
use crate::schedule::FrameSystems;
use bevy::prelude::*;

/// Seconds an emote stays over its cook.
pub const EMOTE_SECS: f32 = 2.0;

/// One emote over one cook (by seat: the view entity may change when a round restarts).
#[derive(Component, Clone, Debug)]
pub struct EmoteBubble {
    pub seat: u8,
    pub emote: Emote,
    /// Seconds left.
    pub ttl: f32,
}

/// Draws the emotes heard over their cooks.
pub struct EmoteBubblePlugin;

impl Plugin for EmoteBubblePlugin {
    fn build(&self, app: &mut App) {
        app.add_message::<EmoteHeard>().add_message::<EmoteHeldBack>().add_message::<PlayCue>();
        app.add_systems(
            Update,
            (show_emotes, tell_held_back, age_bubbles, place_bubbles)
                .chain()
                .in_set(FrameSystems::Draw)
                .run_if(in_state(AppState::Playing)),
        );
    }
}

/// Whether a window shows an emote from `source` (Settings' "Others' emotes").
pub fn shows(access: Option<&Accessibility>, source: EmoteSource) -> bool {
    source == EmoteSource::ThisWindow || !access.is_some_and(|a| a.hide_emotes)
}

/// Each emote heard becomes its cook's bubble, with its sound.
fn show_emotes(
    mut commands: Commands,
    mut heard: MessageReader<EmoteHeard>,
    access: Option<Res<Accessibility>>,
    bubbles: Query<(Entity, &EmoteBubble)>,
    mut cues: MessageWriter<PlayCue>,
) {
    for h in heard.read() {
        if !shows(access.as_deref(), h.source) {
            continue;
        }
        for (e, b) in &bubbles {
            if b.seat == h.seat {
                commands.entity(e).despawn();
            }
        }
        info!(seat = h.seat, emote = h.emote.name(), source = ?h.source, "emote shown");
        cues.write(PlayCue(Cue::Emote(h.emote)));
        commands.spawn((
            EmoteBubble { seat: h.seat, emote: h.emote, ttl: EMOTE_SECS },
            label(h.emote.words(), 22.0, NAME_TAG_DARK),
            BackgroundColor(EMOTE_BUBBLE),
            BorderColor::all(seat_color(h.seat)),
            Node {
                position_type: PositionType::Absolute,
                padding: UiRect::axes(px(10), px(3)),
                border: UiRect::all(px(3)),
                border_radius: BorderRadius::all(px(12)),
                ..default()
            },
            // Over the name tags and nudges, under the round-end panel.
            GlobalZIndex(5),
            Visibility::Hidden,
            DespawnOnExit(AppState::Playing),
        ));
    }
}

/// An emote held back is said where the player looks: over their own cook.
fn tell_held_back(
    mut commands: Commands,
    mut held: MessageReader<EmoteHeldBack>,
    cooks: Query<(&CookView, &InRoom)>,
    backdrops: Query<(), With<BackdropRoom>>,
) {
    for h in held.read() {
        let cook = cooks.iter().find(|(c, r)| c.seat == h.seat && !backdrops.contains(r.0));
        if let Some((_, room)) = cook {
            commands.spawn(nudge(room.0, h.seat, "Too many emotes"));
        }
    }
}

fn age_bubbles(
    time: Res<Time<Real>>,
    mut commands: Commands,
    mut bubbles: Query<(Entity, &mut EmoteBubble)>,
) {
    for (e, mut b) in &mut bubbles {
        b.ttl -= time.delta_secs();
        if b.ttl <= 0.0 {
            commands.entity(e).despawn();
        }
    }
}

/// Each bubble over its cook's head (above where a nudge goes), hidden while its cook is not
/// in view.
fn place_bubbles(
    camera: Query<(&Camera, &GlobalTransform), With<KitchenCamera>>,
    cooks: Query<(&CookView, &InRoom, &GlobalTransform, Option<&DrawnAt>)>,
    backdrops: Query<(), With<BackdropRoom>>,
    mut bubbles: Query<(&EmoteBubble, &mut Node, &mut Visibility, &ComputedNode)>,
) {
    let Ok((cam, cam_tf)) = camera.single() else { return };
    for (b, mut node, mut vis, size) in &mut bubbles {
        let cook = cooks.iter().find(|(c, r, _, _)| c.seat == b.seat && !backdrops.contains(r.0));
        // Centred over the feet, not over the head's own projection: the camera's perspective
        // pushes a point above the floor outward from the middle of the screen, and a bubble
        // over a cook near the edge drifted off to the side.
        let at = cook.and_then(|(_, _, tf, drawn)| {
            let feet3 = cook_floor_point(drawn, tf);
            let feet = cam.world_to_viewport(cam_tf, feet3).ok()?;
            let head = cam.world_to_viewport(cam_tf, feet3 + Vec3::Y * 2.1).ok()?;
            Some(Vec2::new(feet.x, head.y))
        });
        let Some(s) = at else {
            vis.set_if_neq(Visibility::Hidden);
            continue;
        };
        let w = size.size().x * size.inverse_scale_factor();
        let h = size.size().y * size.inverse_scale_factor();
        node.left = px(s.x - w / 2.0);
        node.top = px(s.y - h - 6.0);
        vis.set_if_neq(Visibility::Inherited);
    }
}
