//! The Tandem camera: it follows the couch at the kitchen's tilt, close enough that the couch
//! and the next doorway fill the screen (the whole 44 × 25 m warehouse in view left a 3.4 m
//! couch a few dozen pixels long), and stops following where the window would show more than
//! half a cell past the route's outer cells. One framing for a local run and an online round:
//! it reads only the [`TandemScreen`] either fills.

use super::scene::TandemCamera;
use super::screen::TandemScreen;
use crate::tandem::course::{Course, cell_rect};
use crate::tandem::view::{CENTRE_X, CENTRE_Y};
use bevy::prelude::*;
use bevy::window::PrimaryWindow;

/// The camera's distance from the point it looks at, m (about 20 m of floor across a 16:9
/// window).
pub const FOLLOW_DISTANCE: f32 = 15.0;
/// The direction from the point looked at to the camera: high above, tipped toward the
/// player like the kitchen's camera.
const TILT: Vec3 = Vec3::new(0.0, 40.0, 16.5);
/// Half the vertical field of view (Bevy's default 45°), radians.
const HALF_FOV: f32 = std::f32::consts::PI / 8.0;
/// How far past the route's outer cells the window may show, m (half a cell).
const PAST_EDGE: f32 = 2.4;
/// How fast the camera catches up with the couch (per second; 1 − e^(−k·dt) of the way a frame).
const CATCH_UP: f32 = 5.0;

/// A view point in millimetres (origin at the world centre, y up) on the ground plane the
/// scene is drawn on (x right, z down the screen), metres.
fn ground(mm: (i32, i32)) -> Vec3 {
    Vec3::new(mm.0 as f32 / 1000.0, 0.0, -mm.1 as f32 / 1000.0)
}

/// The route's outer edges on the ground plane: (min x, min z), (max x, max z).
pub fn route_bounds(course: &Course) -> (Vec2, Vec2) {
    let mut lo = Vec2::splat(f32::MAX);
    let mut hi = Vec2::splat(f32::MIN);
    for cell in &course.route {
        let r = cell_rect(*cell);
        let (x0, z0) = ((r.x0 - CENTRE_X) as f32 / 1e6, (r.y0 - CENTRE_Y) as f32 / 1e6);
        let (x1, z1) = ((r.x1 - CENTRE_X) as f32 / 1e6, (r.y1 - CENTRE_Y) as f32 / 1e6);
        lo = lo.min(Vec2::new(x0, z0));
        hi = hi.max(Vec2::new(x1, z1));
    }
    (lo, hi)
}

/// The floor the window shows around the point looked at, m: half its width across that point
/// (a window `aspect` wide for its height), and how far it reaches up the screen (−z, the far
/// side) and down it (+z, the near side), which differ under the tilt.
pub fn visible(aspect: f32) -> (f32, f32, f32) {
    let pitch = TILT.z.atan2(TILT.y);
    let (height, back) = (FOLLOW_DISTANCE * pitch.cos(), FOLLOW_DISTANCE * pitch.sin());
    let up = height * (pitch + HALF_FOV).tan() - back;
    let down = back - height * (pitch - HALF_FOV).tan();
    (FOLLOW_DISTANCE * HALF_FOV.tan() * aspect, up, down)
}

/// Where the camera looks for the couch at `centre_mm` in a window of `aspect` (width over
/// height): the couch itself, held back from the route's edges so that the window shows at
/// most [`PAST_EDGE`] beyond them (centred on the route along an axis it shows all of).
pub fn focus(course: &Course, centre_mm: (i32, i32), aspect: f32) -> Vec3 {
    let (lo, hi) = route_bounds(course);
    let (half_x, up, down) = visible(aspect);
    let c = ground(centre_mm);
    // The range the point looked at may take; when the route is smaller than the window
    // along an axis, the range is empty and its middle frames the route.
    let axis = |v: f32, lo: f32, hi: f32| if lo > hi { (lo + hi) / 2.0 } else { v.clamp(lo, hi) };
    let x = axis(c.x, lo.x + half_x - PAST_EDGE, hi.x - half_x + PAST_EDGE);
    let z = axis(c.z, lo.y + up - PAST_EDGE, hi.y - down + PAST_EDGE);
    Vec3::new(x, 0.0, z)
}

/// The camera's place looking at `target`.
pub fn eye(target: Vec3) -> Vec3 {
    target + TILT.normalize() * FOLLOW_DISTANCE
}

pub struct TandemCameraPlugin;

impl Plugin for TandemCameraPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(PostUpdate, follow_couch.before(TransformSystems::Propagate));
    }
}

/// Every frame: the camera eases toward the couch (snapping to it on a new course).
fn follow_couch(
    screen: Option<Res<TandemScreen>>,
    time: Res<Time<Real>>,
    windows: Query<&Window, With<PrimaryWindow>>,
    mut cams: Query<&mut Transform, With<TandemCamera>>,
    mut looked: Local<Option<(u64, Vec3)>>,
) {
    let Some(screen) = screen else {
        *looked = None;
        return;
    };
    let aspect = windows.iter().next().map_or(16.0 / 9.0, |w| w.width() / w.height().max(1.0));
    let want = focus(&screen.course, screen.view.centre_mm, aspect);
    let target = match *looked {
        Some((digest, at)) if digest == screen.course.digest => {
            at.lerp(want, 1.0 - (-CATCH_UP * time.delta_secs()).exp())
        }
        _ => want,
    };
    *looked = Some((screen.course.digest, target));
    for mut t in &mut cams {
        *t = Transform::from_translation(eye(target)).looking_at(target, Vec3::Y);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tandem::course::generate;
    use crate::tandem::room::{TandemRoom, TurnTicks};

    #[test]
    fn the_camera_follows_the_couch_and_shows_little_past_the_route() {
        let (half_x, up, down) = visible(16.0 / 9.0);
        // The tilt shows more floor up the screen than down it; ~20 m across at 16:9.
        assert!(up > down && down > 4.0 && (10.0..12.0).contains(&half_x), "{half_x} {up} {down}");
        for seed in 1..=20 {
            let room = TandemRoom::new(seed, TurnTicks::Live);
            let course = generate(seed);
            let (lo, hi) = route_bounds(&course);
            assert!(hi.x - lo.x > 40.0, "a route spans the columns: {lo} {hi}");
            let couch = ground(room.view().centre_mm);
            let at = focus(&course, room.view().centre_mm, 16.0 / 9.0);
            // The couch at the start (the west end) is on screen, the window at most half a
            // cell past the route's west edge.
            assert!(couch.x - at.x >= -half_x && couch.x - at.x <= half_x, "seed {seed}");
            assert!(couch.z - at.z >= -up && couch.z - at.z <= down, "seed {seed}");
            assert!(at.x - half_x >= lo.x - PAST_EDGE - 1e-3, "seed {seed}: {at}");
        }
        // In the middle of a long route the camera is on the couch.
        let course = generate(2);
        let (lo, hi) = route_bounds(&course);
        let mid = ((lo + hi) / 2.0 * 1000.0).as_ivec2();
        let at = focus(&course, (mid.x, -mid.y), 16.0 / 9.0);
        assert!((at.x - mid.x as f32 / 1000.0).abs() < 1e-3, "{at}");
        assert!(((eye(at) - at).length() - FOLLOW_DISTANCE).abs() < 1e-3);
    }
}
