//! The camera over the kitchen and the light it sees by: tilted over the grid and fitted so the
//! whole kitchen (every tile and counter, walls to their tops) sits inside the window with a
//! margin, below the ticket rail — refitted whenever the grid, the window's size or the UI
//! scale changes, at any aspect from 4:3 to 21:9 and beyond.

use crate::protocol::GridView;
use bevy::camera::CameraProjection;
use bevy::core_pipeline::tonemapping::Tonemapping;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;

/// The camera over the kitchen.
#[derive(Component)]
pub struct KitchenCamera;

/// How far down the camera looks (degrees below the horizon): the counters' fronts and the
/// cooks' faces still read, and rows far from the camera are not squashed.
const PITCH_DEG: f32 = 55.0;
/// The tallest thing a tile holds (a wall is 1.2 high): the fit keeps its top inside too.
pub const TILE_TOP: f32 = 1.2;
/// The band at the top of the window the ticket rail covers, in logical pixels at UI scale 1
/// (it grows with `UiScale`): the kitchen is framed below it.
pub const RAIL_BAND_PX: f32 = 100.0;
/// The margin kept free on the other three sides, as a share of the window's smaller side.
pub const MARGIN_SHARE: f32 = 0.03;

/// The part of the window the kitchen may use, in logical pixels from the top-left corner.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SafeArea {
    pub left: f32,
    pub right: f32,
    pub top: f32,
    pub bottom: f32,
}

impl SafeArea {
    /// The safe area of a `w`×`h` (logical) window at UI scale `ui_scale`. The rail band never
    /// takes more than a third of a short window.
    pub fn of_window(w: f32, h: f32, ui_scale: f32) -> SafeArea {
        let margin = MARGIN_SHARE * w.min(h);
        let rail = (RAIL_BAND_PX * ui_scale).min(h / 3.0).max(margin);
        SafeArea { left: margin, right: w - margin, top: rail, bottom: h - margin }
    }

    /// Is a viewport point inside (with `slack` pixels of rounding allowed)?
    pub fn holds(&self, p: Vec2, slack: f32) -> bool {
        p.x >= self.left - slack
            && p.x <= self.right + slack
            && p.y >= self.top - slack
            && p.y <= self.bottom + slack
    }
}

/// The camera (aimed at a default grid until one arrives) and the sun.
pub(super) fn spawn_camera(mut commands: Commands) {
    commands.spawn((
        Camera3d::default(),
        // Bevy's default curve (TonyMcMapface) reads a lookup table the client does not ship
        // (Cargo.toml: no `tonemapping_luts`, ~1 MB of the browser download); this one is
        // computed in the shader and looks close to it.
        Tonemapping::SomewhatBoringDisplayTransform,
        KitchenCamera,
        fit_camera(9.0, 5.0, 1280.0, 720.0, 1.0),
    ));
    commands.spawn((
        DirectionalLight { illuminance: 9_000.0, shadow_maps_enabled: false, ..default() },
        Transform::from_xyz(2.0, 10.0, 6.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
}

/// What the last fit was made for: the grid's size, the window's logical size, the UI scale.
#[derive(Default, PartialEq, Clone, Copy, Debug)]
pub(super) struct FittedFor(Option<(i32, i32, u32, u32, u32)>);

/// Refit the camera whenever the grid's size, the window's size or the UI scale differs from
/// what the last fit was made for (a resize, a new level, a settings change). Cheap to ask every
/// frame; the fit itself (a few thousand projections) runs only on a change.
pub(super) fn frame_kitchen(
    grids: Query<&GridView>,
    windows: Query<&Window, With<PrimaryWindow>>,
    ui_scale: Option<Res<UiScale>>,
    mut camera: Query<&mut Transform, With<KitchenCamera>>,
    mut fitted: Local<FittedFor>,
) {
    let (Some(grid), Ok(window)) = (grids.iter().next(), windows.single()) else { return };
    let (w, h) = (window.width(), window.height());
    if w < 1.0 || h < 1.0 {
        return; // minimised
    }
    let scale = ui_scale.map_or(1.0, |s| s.0);
    let key = FittedFor(Some((grid.width, grid.height, w.to_bits(), h.to_bits(), scale.to_bits())));
    if *fitted == key {
        return;
    }
    if let Ok(mut cam) = camera.single_mut() {
        *cam = fit_camera(grid.width as f32, grid.height as f32, w, h, scale);
        *fitted = key;
    }
}

/// The camera transform that frames a `gw`×`gh` grid (world x 0..gw, z 0..gh, up to
/// [`TILE_TOP`]) inside the safe area of a `w`×`h` window, as Bevy's default perspective
/// projection sees it. The kitchen is centred in the safe area and as large as it can be.
///
/// Numeric rather than closed-form, so it stays exact for the perspective's uneven rows: for a
/// trial distance, the aim point slides along the grid's depth until the kitchen's projection
/// is vertically centred in the safe area (bisection), and the distance itself is bisected to
/// the smallest one at which the kitchen fits.
pub fn fit_camera(gw: f32, gh: f32, w: f32, h: f32, ui_scale: f32) -> Transform {
    let projection = PerspectiveProjection { aspect_ratio: w / h, ..default() };
    let clip_from_view = projection.get_clip_from_view();
    let safe = SafeArea::of_window(w, h, ui_scale);
    // The safe area in normalised device coordinates (y up).
    let ndc = |px: f32, size: f32| px / size * 2.0 - 1.0;
    let (x_lo, x_hi) = (ndc(safe.left, w), ndc(safe.right, w));
    let (y_lo, y_hi) = (-ndc(safe.bottom, h), -ndc(safe.top, h));
    let y_mid = (y_lo + y_hi) / 2.0;
    let corners: Vec<Vec3> = [0.0, gw]
        .into_iter()
        .flat_map(|x| [0.0, gh].map(move |z| (x, z)))
        .flat_map(|(x, z)| [0.0, TILE_TOP].map(move |y| Vec3::new(x, y, z)))
        .collect();
    let pitch = PITCH_DEG.to_radians();
    let place = |aim_z: f32, dist: f32| {
        let target = Vec3::new(gw / 2.0, 0.0, aim_z);
        Transform::from_translation(target + Vec3::new(0.0, pitch.sin(), pitch.cos()) * dist)
            .looking_at(target, Vec3::Y)
    };
    // The kitchen's projected bounds (x_min, x_max, y_min, y_max) from a camera placement;
    // `None` when a corner is behind the camera.
    let bounds = |t: &Transform| {
        let view_from_world = t.to_matrix().inverse();
        let mut b = (f32::MAX, f32::MIN, f32::MAX, f32::MIN);
        for c in &corners {
            let v = view_from_world.transform_point3(*c);
            if v.z > -projection.near {
                return None;
            }
            let p = clip_from_view.project_point3(v);
            b = (b.0.min(p.x), b.1.max(p.x), b.2.min(p.y), b.3.max(p.y));
        }
        Some(b)
    };
    let span = gw.max(gh).max(1.0);
    // For a distance: the aim that centres the kitchen vertically (its centre rises on screen
    // as the aim moves toward the camera, +z).
    let centred = |dist: f32| {
        let (mut lo, mut hi) = (-2.0 * span, gh + 2.0 * span);
        for _ in 0..40 {
            let mid = (lo + hi) / 2.0;
            // A corner behind the camera: the aim is so far back that the camera has passed
            // the front row, so it must come forward, as when the kitchen sits too low.
            match bounds(&place(mid, dist)) {
                Some(b) if (b.2 + b.3) / 2.0 >= y_mid => hi = mid,
                _ => lo = mid,
            }
        }
        place((lo + hi) / 2.0, dist)
    };
    let fits = |t: &Transform| {
        bounds(t).is_some_and(|b| b.0 >= x_lo && b.1 <= x_hi && b.2 >= y_lo && b.3 <= y_hi)
    };
    let (mut near, mut far) = (0.5, 40.0 * span + 20.0);
    for _ in 0..40 {
        let mid = (near + far) / 2.0;
        if fits(&centred(mid)) {
            far = mid;
        } else {
            near = mid;
        }
    }
    centred(far)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every corner of the kitchen's box, projected the way `Camera::world_to_viewport` does
    /// (NDC to pixels, y down), lies in the safe area.
    fn inside(gw: f32, gh: f32, w: f32, h: f32, scale: f32) -> bool {
        let t = fit_camera(gw, gh, w, h, scale);
        let clip = PerspectiveProjection { aspect_ratio: w / h, ..default() }.get_clip_from_view();
        let safe = SafeArea::of_window(w, h, scale);
        let view = t.to_matrix().inverse();
        [0.0, gw].iter().all(|&x| {
            [0.0, gh].iter().all(|&z| {
                [0.0, TILE_TOP].iter().all(|&y| {
                    let p = clip.project_point3(view.transform_point3(Vec3::new(x, y, z)));
                    let px = Vec2::new((p.x + 1.0) / 2.0 * w, (1.0 - p.y) / 2.0 * h);
                    safe.holds(px, 0.5)
                })
            })
        })
    }

    #[test]
    fn every_grid_fits_at_every_aspect_and_scale() {
        for (gw, gh) in [(9.0, 5.0), (16.0, 9.0), (5.0, 12.0), (20.0, 4.0), (1.0, 1.0)] {
            for (w, h) in [(960.0, 720.0), (1280.0, 720.0), (1680.0, 720.0), (640.0, 360.0)] {
                for scale in [0.75, 1.0, 2.0] {
                    assert!(inside(gw, gh, w, h, scale), "{gw}x{gh} in {w}x{h} at {scale}");
                }
            }
        }
    }

    #[test]
    fn the_fit_uses_the_room_it_has() {
        // The kitchen is as large as the safe area allows: it spans (nearly) all of the safe
        // width or all of the safe height, whichever limits it, and is centred on the grid.
        for (gw, gh, w, h) in
            [(16.0, 5.0, 1680.0, 720.0), (30.0, 3.0, 1280.0, 720.0), (6.0, 9.0, 960.0, 720.0)]
        {
            let t = fit_camera(gw, gh, w, h, 1.0);
            let clip =
                PerspectiveProjection { aspect_ratio: w / h, ..default() }.get_clip_from_view();
            let view = t.to_matrix().inverse();
            let pts: Vec<Vec2> = [0.0, gw]
                .iter()
                .flat_map(|&x| [0.0, gh].map(move |z| (x, z)))
                .flat_map(|(x, z)| [0.0, TILE_TOP].map(move |y| Vec3::new(x, y, z)))
                .map(|c| {
                    let p = clip.project_point3(view.transform_point3(c));
                    Vec2::new((p.x + 1.0) / 2.0 * w, (1.0 - p.y) / 2.0 * h)
                })
                .collect();
            let lo = pts.iter().fold(Vec2::splat(f32::MAX), |a, p| a.min(*p));
            let hi = pts.iter().fold(Vec2::splat(f32::MIN), |a, p| a.max(*p));
            let safe = SafeArea::of_window(w, h, 1.0);
            let wide = (hi.x - lo.x) / (safe.right - safe.left);
            let tall = (hi.y - lo.y) / (safe.bottom - safe.top);
            assert!(
                wide.max(tall) > 0.99,
                "{gw}x{gh} in {w}x{h}: {wide} of the width, {tall} of the height"
            );
            assert!((t.translation.x - gw / 2.0).abs() < 1e-3, "centred: {}", t.translation.x);
        }
    }

    #[test]
    fn the_rail_band_grows_with_the_ui_scale_but_never_past_a_third() {
        assert_eq!(SafeArea::of_window(1280.0, 720.0, 1.0).top, RAIL_BAND_PX);
        assert_eq!(SafeArea::of_window(1280.0, 720.0, 2.0).top, 2.0 * RAIL_BAND_PX);
        assert_eq!(SafeArea::of_window(640.0, 360.0, 2.0).top, 120.0);
    }
}
