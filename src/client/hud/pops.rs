//! Pops over the kitchen: a gold "+points" rising off the serving hatch when a dish is served,
//! and a red cross over the hatch when a serve is refused (burnt, wrong or unfinished dish).
//! Read from the `RoomTick` facts, placed in the world and projected onto the window each
//! frame.

use crate::client::kitchen::KitchenCamera;
use crate::client::state::BackdropRoom;
use crate::client::theme::{GOLD, POP_PLATE, REFUSED, label};
use crate::project::RoomTick;
use crate::protocol::{CookView, InRoom, StationView};
use crate::schedule::FrameSystems;
use crate::sim::events::{DeniedReason, SimEvent};
use crate::sim::kinds::StationKind;
use bevy::color::Alpha;
use bevy::prelude::*;

/// Seconds a pop stays up.
const POP_SECS: f32 = 1.4;

/// A serve refusal: what the hatch turns away (the dish, not the cook's reach or hands).
pub fn refused_serve(reason: DeniedReason) -> bool {
    matches!(
        reason,
        DeniedReason::Burnt
            | DeniedReason::NoTarget
            | DeniedReason::NoOrders
            | DeniedReason::WrongRecipe
            | DeniedReason::Incomplete
    )
}

/// One pop: where in the world it starts and how old it is.
#[derive(Component, Clone, Copy, Debug)]
struct Pop {
    at: Vec3,
    age: f32,
    /// Rises (points) or stays and throbs (a refusal).
    rises: bool,
}

/// The serve and refusal pops.
pub struct PopPlugin;

impl Plugin for PopPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Update, (spawn_pops, move_pops).chain().in_set(FrameSystems::Draw));
    }
}

/// The serving hatch nearest a seat's cook (where a serve by that cook happened), or the cook
/// itself when the room has no hatch in view.
fn serve_spot(
    room: Entity,
    seat: u8,
    cooks: &Query<(&CookView, &InRoom, &GlobalTransform)>,
    stations: &Query<(&StationView, &InRoom)>,
) -> Option<Vec3> {
    let cook = cooks
        .iter()
        .find(|(c, r, _)| r.0 == room && c.seat == seat)
        .map(|(_, _, tf)| tf.translation())?;
    let hatch = stations
        .iter()
        .filter(|(st, r)| r.0 == room && st.kind == StationKind::Serve)
        .map(|(st, _)| Vec3::new(st.cell.0 as f32 + 0.5, 0.0, st.cell.1 as f32 + 0.5))
        .min_by(|a, b| a.distance_squared(cook).total_cmp(&b.distance_squared(cook)));
    Some(hatch.unwrap_or(cook) + Vec3::Y * 1.5)
}

fn spawn_pops(
    mut commands: Commands,
    mut ticks: MessageReader<RoomTick>,
    backdrops: Query<(), With<BackdropRoom>>,
    cooks: Query<(&CookView, &InRoom, &GlobalTransform)>,
    stations: Query<(&StationView, &InRoom)>,
) {
    for tick in ticks.read().filter(|t| !backdrops.contains(t.room)) {
        for event in &tick.events {
            let (seat, text, color, rises) = match event {
                SimEvent::Served { seat, points, .. } => (*seat, format!("+{points}"), GOLD, true),
                SimEvent::Denied { seat, reason, .. } if refused_serve(*reason) => {
                    (*seat, "X".to_string(), REFUSED, false)
                }
                _ => continue,
            };
            let Some(at) = serve_spot(tick.room, seat, &cooks, &stations) else { continue };
            let plate = if rises { POP_PLATE } else { Color::WHITE };
            commands.spawn((
                Pop { at, age: 0.0, rises },
                label(text, if rises { 34.0 } else { 40.0 }, color),
                BackgroundColor(plate),
                BorderColor::all(color),
                Node {
                    position_type: PositionType::Absolute,
                    padding: UiRect::axes(px(10), px(0)),
                    border: UiRect::all(px(3)),
                    border_radius: BorderRadius::all(px(if rises { 10 } else { 30 })),
                    ..default()
                },
                Visibility::Hidden,
            ));
        }
    }
}

/// Each frame: pops over their spot, points rising and fading, a refusal throbbing; gone
/// after [`POP_SECS`].
fn move_pops(
    time: Res<Time<Real>>,
    mut commands: Commands,
    camera: Query<(&Camera, &GlobalTransform), With<KitchenCamera>>,
    mut pops: Query<(
        Entity,
        &mut Pop,
        &mut Node,
        &mut Visibility,
        &ComputedNode,
        &mut TextColor,
        &mut UiTransform,
    )>,
) {
    let Ok((cam, cam_tf)) = camera.single() else { return };
    for (e, mut pop, mut node, mut vis, size, mut color, mut ui) in &mut pops {
        pop.age += time.delta_secs();
        if pop.age >= POP_SECS {
            commands.entity(e).despawn();
            continue;
        }
        let Ok(s) = cam.world_to_viewport(cam_tf, pop.at) else { continue };
        let k = pop.age / POP_SECS;
        let half = size.size() * size.inverse_scale_factor() / 2.0;
        let rise = if pop.rises { 70.0 * k } else { 0.0 };
        node.left = px(s.x - half.x);
        node.top = px(s.y - half.y - rise);
        // Points pop in big and settle; a refusal throbs twice.
        let scale = if pop.rises {
            1.0 + 0.4 * (1.0 - (k * 6.0).min(1.0))
        } else {
            1.0 + 0.2 * (k * std::f32::consts::TAU * 2.0).sin().abs()
        };
        ui.scale = Vec2::splat(scale);
        if pop.rises && k > 0.6 {
            color.0.set_alpha(1.0 - (k - 0.6) / 0.4);
        }
        vis.set_if_neq(Visibility::Inherited);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_hatch_turning_a_dish_away_is_a_refused_serve() {
        let refused: Vec<DeniedReason> =
            DeniedReason::ALL.into_iter().filter(|r| refused_serve(*r)).collect();
        assert_eq!(
            refused,
            [
                DeniedReason::Burnt,
                DeniedReason::NoTarget,
                DeniedReason::NoOrders,
                DeniedReason::WrongRecipe,
                DeniedReason::Incomplete
            ]
        );
    }
}
