//! Where the editor's grid sits in the window: the part left of the side panel, every cell a
//! square of the same size, seen straight down through an orthographic camera. One pure map
//! both ways (pixel → cell for the pointer, cell → pixel for the marks' labels and the input
//! script), and the camera that draws the world that way.

use bevy::camera::ScalingMode;
use bevy::prelude::*;

/// The side panel's width, logical pixels.
pub const PANEL_PX: f32 = 380.0;
/// The margin round the grid, and the band above it for the file's line.
const MARGIN_PX: f32 = 16.0;
const TOP_PX: f32 = 44.0;

/// The grid's place in a window: its top-left corner and one cell's side, logical pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GridLayout {
    pub origin: Vec2,
    pub cell_px: f32,
    pub size: (usize, usize),
    pub window: Vec2,
}

impl GridLayout {
    /// The largest square cells that fit a `size` grid in a `window` (logical pixels) beside
    /// the panel, the grid centred in that space.
    pub fn fit(size: (usize, usize), window: Vec2) -> GridLayout {
        let (gw, gh) = (size.0.max(1) as f32, size.1.max(1) as f32);
        let room = Vec2::new(
            (window.x - PANEL_PX - 2.0 * MARGIN_PX).max(32.0),
            (window.y - TOP_PX - MARGIN_PX).max(32.0),
        );
        let cell_px = (room.x / gw).min(room.y / gh).max(1.0);
        let used = Vec2::new(gw, gh) * cell_px;
        let origin = Vec2::new(MARGIN_PX, TOP_PX) + (room - used) / 2.0;
        GridLayout { origin, cell_px, size, window }
    }

    /// The cell under a pointer position, if it is on the grid.
    pub fn cell_at(&self, px: Vec2) -> Option<(usize, usize)> {
        let at = (px - self.origin) / self.cell_px;
        if at.x < 0.0 || at.y < 0.0 {
            return None;
        }
        let (x, y) = (at.x as usize, at.y as usize);
        (x < self.size.0 && y < self.size.1).then_some((x, y))
    }

    /// The centre of a cell, logical pixels.
    pub fn centre_of(&self, (x, y): (usize, usize)) -> Vec2 {
        self.origin + (Vec2::new(x as f32, y as f32) + 0.5) * self.cell_px
    }

    /// The top-left corner of a cell, logical pixels.
    pub fn corner_of(&self, (x, y): (usize, usize)) -> Vec2 {
        self.origin + Vec2::new(x as f32, y as f32) * self.cell_px
    }

    /// The camera that draws world `(x, z)` (one tile a unit, rows toward +z) at this layout's
    /// pixels: straight down from above, screen-up along −z, one pixel `1 / cell_px` units.
    pub fn camera(&self) -> (Transform, Projection) {
        let centre_px = self.window / 2.0;
        let world = (centre_px - self.origin) / self.cell_px;
        let transform = Transform::from_xyz(world.x, 40.0, world.y)
            .looking_at(Vec3::new(world.x, 0.0, world.y), Vec3::NEG_Z);
        let projection = Projection::Orthographic(OrthographicProjection {
            scaling_mode: ScalingMode::WindowSize,
            scale: 1.0 / self.cell_px,
            near: 0.0,
            far: 100.0,
            ..OrthographicProjection::default_3d()
        });
        (transform, projection)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pixels_and_cells_map_both_ways() {
        let layout = GridLayout::fit((9, 7), Vec2::new(1280.0, 720.0));
        for cell in [(0, 0), (8, 6), (4, 3)] {
            assert_eq!(layout.cell_at(layout.centre_of(cell)), Some(cell));
        }
        assert_eq!(layout.cell_at(layout.origin - Vec2::ONE), None);
        let beyond = layout.origin + Vec2::new(9.0, 1.0) * layout.cell_px + Vec2::ONE;
        assert_eq!(layout.cell_at(beyond), None);
        assert!(layout.origin.x + 9.0 * layout.cell_px <= 1280.0 - PANEL_PX);
    }
}
