//! Nudges: a short refusal ("station busy", "Too many emotes") shown over the refused cook for
//! a moment, one per cook at a time. The HUD places them over their cooks each frame.

use crate::client::state::BackdropRoom;
use crate::client::theme::{NUDGE, NUDGE_TEXT, label};
use crate::project::RoomTick;
use crate::sim::events::SimEvent;
use bevy::prelude::*;

/// Seconds a nudge stays up.
pub const NUDGE_SECS: f32 = 1.6;

/// A short refusal shown next to a cook ("station busy").
#[derive(Component, Clone, Debug)]
pub struct Nudge {
    pub room: Entity,
    pub seat: u8,
    pub text: String,
    /// Seconds left.
    pub ttl: f32,
}

/// One nudge per `Denied` fact, next to the refused cook (a newer one replaces an older one).
pub fn spawn_nudges(
    mut commands: Commands,
    mut ticks: MessageReader<RoomTick>,
    existing: Query<(Entity, &Nudge)>,
    backdrops: Query<(), With<BackdropRoom>>,
) {
    for tick in ticks.read().filter(|t| !backdrops.contains(t.room)) {
        for event in &tick.events {
            let SimEvent::Denied { seat, reason, .. } = event else { continue };
            for (e, n) in &existing {
                if n.room == tick.room && n.seat == *seat {
                    commands.entity(e).despawn();
                }
            }
            commands.spawn(nudge(tick.room, *seat, reason.nudge()));
        }
    }
}

/// A nudge's entity: `text` next to `room`'s cook in `seat`, placed by the HUD's `follow_cooks`.
pub fn nudge(room: Entity, seat: u8, text: &str) -> impl Bundle {
    (
        Nudge { room, seat, text: text.to_string(), ttl: NUDGE_SECS },
        label(text.to_string(), 18.0, NUDGE_TEXT),
        BackgroundColor(NUDGE),
        Node {
            position_type: PositionType::Absolute,
            padding: UiRect::axes(px(6), px(2)),
            border_radius: BorderRadius::all(px(6)),
            ..default()
        },
        Visibility::Hidden,
    )
}

pub fn age_nudges(
    time: Res<Time<Real>>,
    mut commands: Commands,
    mut nudges: Query<(Entity, &mut Nudge)>,
) {
    for (e, mut n) in &mut nudges {
        n.ttl -= time.delta_secs();
        if n.ttl <= 0.0 {
            commands.entity(e).despawn();
        }
    }
}
