//! The browser's F3 overlay: the lines of [`PERF_LINES`] as plain text in a corner panel
//! (`bevy_perf_ui` stays on the desktop: with it the browser build measured 15,078,713 bytes,
//! over its 15 MB budget, docs/PERFORMANCE.md).

use crate::client::perf::readings::{PERF_LINES, PerfOverlay, PerfReadings};
use bevy::prelude::*;

/// Keeps the text panel in step with the readings.
pub struct PerfTextPlugin;

impl Plugin for PerfTextPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Update, write_lines.run_if(resource_changed::<PerfReadings>));
    }
}

/// The panel's text.
#[derive(Component, Debug)]
struct PerfText;

/// The panel (bottom right, above the HUD, as on the desktop), filled on the next refresh.
pub fn spawn_overlay(mut commands: Commands) {
    commands
        .spawn((
            PerfOverlay,
            Node {
                position_type: PositionType::Absolute,
                right: px(8),
                bottom: px(8),
                padding: UiRect::all(px(6)),
                ..default()
            },
            BackgroundColor(Color::srgba(0.0, 0.0, 0.0, 0.7)),
            GlobalZIndex(90),
        ))
        .with_child((PerfText, Text::new(""), TextFont::from_font_size(14.0)));
}

/// "Label: value" a line, "-" where there is nothing to show yet.
fn write_lines(readings: Res<PerfReadings>, mut texts: Query<&mut Text, With<PerfText>>) {
    for mut text in &mut texts {
        text.0 = PERF_LINES
            .iter()
            .map(|(label, value)| format!("{label}: {}", value(&readings).unwrap_or("-".into())))
            .collect::<Vec<_>>()
            .join("\n");
    }
}
