//! Cook motion between ticks: each cook keeps its last two tick positions, and every display
//! frame draws it between them by how far the fixed clock has run into the next tick.

use crate::protocol::{CookMotion, CookView, InRoom, RoomClock};
use crate::schedule::{FrameSystems, TickSystems};
use bevy::prelude::*;

/// µtiles per world unit (1 tile = 1 world unit).
pub const UTILE: f32 = 1_000_000.0;

/// A cook's last two tick positions, in µtiles, and the tick the newer one belongs to.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct Trail {
    pub prev: (i32, i32),
    pub curr: (i32, i32),
    pub tick: u32,
}

impl Trail {
    pub fn new(pos: (i32, i32), tick: u32) -> Self {
        Trail { prev: pos, curr: pos, tick }
    }

    /// A new tick's position: the newer one becomes the older.
    pub fn push(&mut self, pos: (i32, i32), tick: u32) {
        if tick != self.tick {
            self.prev = self.curr;
            self.tick = tick;
        }
        self.curr = pos;
    }

    /// Where to draw the cook, in tiles, `alpha` (0..=1) of the way from `prev` to `curr`.
    pub fn at(&self, alpha: f32) -> Vec2 {
        lerp_utiles(self.prev, self.curr, alpha)
    }
}

/// Linear blend of two µtile positions, in tiles.
pub fn lerp_utiles(a: (i32, i32), b: (i32, i32), alpha: f32) -> Vec2 {
    let a = Vec2::new(a.0 as f32, a.1 as f32) / UTILE;
    let b = Vec2::new(b.0 as f32, b.1 as f32) / UTILE;
    a.lerp(b, alpha.clamp(0.0, 1.0))
}

/// Where a cook is drawn this frame (tiles, x right and y down), for everything that follows
/// a cook: the carried item, the name tag, nudges.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq)]
pub struct DrawnAt(pub Vec2);

/// Cooks drawn between their last two ticks.
pub struct InterpPlugin;

impl Plugin for InterpPlugin {
    fn build(&self, app: &mut App) {
        app.add_observer(start_trail);
        // After the projection (local play), and in `PreUpdate` for views that arrive from
        // elsewhere; both are idempotent for a tick already recorded.
        app.add_systems(FixedPostUpdate, record_cook_ticks.in_set(TickSystems::Publish));
        app.add_systems(PreUpdate, record_cook_ticks);
        app.add_systems(Update, blend_cooks.in_set(FrameSystems::Blend));
    }
}

/// A cook's motion arrived (the projection writes it beside `CookView`): start its trail.
fn start_trail(add: On<Add, CookMotion>, cooks: Query<&CookMotion>, mut commands: Commands) {
    if let Ok(motion) = cooks.get(add.entity) {
        commands.entity(add.entity).insert((Trail::new(motion.pos, 0), DrawnAt::default()));
    }
}

/// Record each cook's position once per room tick. Every cook shifts on every tick, changed or
/// not: a cook that stopped must stop being drawn between two old positions.
pub fn record_cook_ticks(
    rooms: Query<&RoomClock>,
    mut cooks: Query<(&CookMotion, &InRoom, &mut Trail)>,
) {
    for (motion, room, mut trail) in &mut cooks {
        let tick = rooms.get(room.0).map_or(trail.tick, |c| c.tick);
        if tick != trail.tick || trail.curr != motion.pos {
            trail.push(motion.pos, tick);
        }
    }
}

/// Where this window's own cook is drawn instead of between its views, when online play
/// predicts it (`client::online`): its seat and the position (tiles).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PredictedCook {
    pub seat: u8,
    pub at: Vec2,
}

/// This window's own cooks online (one per local player), drawn from their predictions.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct PredictedCooks(pub Vec<PredictedCook>);

/// Every display frame: each cook's drawn position between its last two ticks, or, for the
/// predicted cook, where the prediction has it.
pub fn blend_cooks(
    time: Res<Time<Fixed>>,
    predicted: Option<Res<PredictedCooks>>,
    mut cooks: Query<(&Trail, &mut DrawnAt, Option<&CookView>)>,
) {
    let alpha = time.overstep_fraction();
    for (trail, mut drawn, view) in &mut cooks {
        let own =
            predicted.as_ref().zip(view).and_then(|(p, v)| p.0.iter().find(|c| c.seat == v.seat));
        drawn.0 = match own {
            Some(p) => p.at,
            None => trail.at(alpha),
        };
    }
}

/// Where a cook is drawn this frame, on the floor: its [`DrawnAt`] (its transform is written
/// from that point after the HUD runs, so at a low frame rate the transform trailed by a tile
/// or more), else its transform.
pub fn cook_floor_point(drawn: Option<&DrawnAt>, tf: &GlobalTransform) -> Vec3 {
    drawn.map_or_else(|| tf.translation(), |d| Vec3::new(d.0.x, 0.0, d.0.y))
}
