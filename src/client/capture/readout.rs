//! What a `--screenshot` run's HUD said, printed on the way out: the score line and, when the
//! round has ended, the round end panel's texts in order (`screenshot: score line: …`,
//! `screenshot: round end: … | …`). Window tests read these lines to check what the player was
//! shown (a versus round's two scores and its winner) from the UI itself, not from the rules.

use crate::client::args::Options;
use crate::client::hud::{RoundEndPanel, ScoreText};
use bevy::prelude::*;

/// Prints the HUD's texts once, when a screenshot run exits.
pub struct HudReadoutPlugin;

impl Plugin for HudReadoutPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Last, print_hud_on_exit);
    }
}

fn print_hud_on_exit(
    mut exits: MessageReader<AppExit>,
    options: Res<Options>,
    score: Query<&Text, With<ScoreText>>,
    panel: Query<(Entity, &Node), With<RoundEndPanel>>,
    children: Query<&Children>,
    texts: Query<&Text>,
    mut done: Local<bool>,
) {
    if exits.read().next().is_none() || *done || options.0.screenshot.is_none() {
        return;
    }
    *done = true;
    if let Ok(line) = score.single() {
        println!("screenshot: score line: {}", one_line(&line.0));
    }
    let Ok((panel, node)) = panel.single() else { return };
    if node.display == Display::None {
        println!("screenshot: round end: not shown");
        return;
    }
    // Depth first is the order the panel lays its rows out in, top to bottom.
    let said: Vec<String> = children
        .iter_descendants_depth_first(panel)
        .filter_map(|e| texts.get(e).ok())
        .map(|t| one_line(&t.0))
        .filter(|t| !t.is_empty())
        .collect();
    println!("screenshot: round end: {}", said.join(" | "));
}

/// A text's lines joined by " / " so each readout stays one line of output.
fn one_line(text: &str) -> String {
    text.lines().map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>().join(" / ")
}
