//! A designer run's exit report (`play --designer`): when the app exits, what the window shows
//! is printed from the game state, one `designer report:` line a fact — where each station's
//! drawn body stands and as what, whether the running kitchen is published, the round's
//! verdict, and whether the error list covers the ticket rail or the clock. Tests read these
//! lines instead of pixels; a designer reads them in the terminal.

use crate::client::args::Options;
use crate::client::hud::ScorePanel;
use crate::client::hud::rail::RailRoot;
use crate::client::kitchen::DressedAs;
use crate::client::local::LocalGame;
use crate::client::local::designer::{DesignerOverlay, running_published};
use crate::level::watch::LevelLibrary;
use crate::protocol::{InRoom, RoomView, StationView};
use crate::sim::verdict::Verdict;
use bevy::ecs::query::QueryFilter;
use bevy::prelude::*;
use bevy::ui::{ComputedNode, UiGlobalTransform};

/// Prints the report once, on the way out of a `--designer` run.
pub struct DesignerReportPlugin;

impl Plugin for DesignerReportPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Last, report_on_exit);
    }
}

/// A node's rectangle on screen (physical pixels): min corner and max corner.
type Rect2 = (Vec2, Vec2);

fn rect_of(node: &ComputedNode, at: &UiGlobalTransform) -> Rect2 {
    let half = node.size / 2.0;
    (at.translation - half, at.translation + half)
}

/// The laid-out boxes of a query's nodes (a node with no size covers nothing and proves
/// nothing, so it is left out).
fn boxes<F: QueryFilter>(q: &Query<(&ComputedNode, &UiGlobalTransform), F>) -> Vec<Rect2> {
    q.iter().filter(|(c, _)| c.size.min_element() > 0.0).map(|(c, t)| rect_of(c, t)).collect()
}

fn overlaps(a: Rect2, b: Rect2) -> bool {
    a.0.x < b.1.x && b.0.x < a.1.x && a.0.y < b.1.y && b.0.y < a.1.y
}

fn yes_no(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

#[allow(clippy::type_complexity, clippy::too_many_arguments)]
fn report_on_exit(
    mut exits: MessageReader<AppExit>,
    options: Option<Res<Options>>,
    game: Option<Res<LocalGame>>,
    lib: Option<Res<LevelLibrary>>,
    stations: Query<(&StationView, &InRoom, &DressedAs, &Transform)>,
    views: Query<&RoomView>,
    overlay: Query<(&Node, &ComputedNode, &UiGlobalTransform), With<DesignerOverlay>>,
    rail: Query<(&ComputedNode, &UiGlobalTransform), With<RailRoot>>,
    clock: Query<(&ComputedNode, &UiGlobalTransform), With<ScorePanel>>,
    mut done: Local<bool>,
) {
    if exits.read().next().is_none() || *done || !options.is_some_and(|o| o.0.designer) {
        return;
    }
    *done = true;
    let Some(game) = game else {
        println!("designer report: no round running");
        return;
    };
    let published = running_published(Some(&game), lib.as_deref());
    let verdict = match views.get(game.room).ok().and_then(|v| v.result.map(|r| (r, v.stars))) {
        None => "live".to_string(),
        Some((Verdict::Won, stars)) => format!("won {stars} stars"),
        Some((Verdict::Lost, _)) => "lost".to_string(),
        Some((Verdict::Aborted, _)) => "aborted".to_string(),
        Some((versus, _)) => versus.as_str().to_string(),
    };
    println!(
        "designer report: level `{}`, {}, round {verdict}",
        game.level.id,
        if published == Some(true) { "published" } else { "unpublished" }
    );
    // The drawn body of every station, by index: the kind it was dressed as and the cell its
    // transform stands on (a tile's centre is its cell + 0.5).
    let mut drawn: Vec<(u16, String)> = stations
        .iter()
        .filter(|(_, room, ..)| room.0 == game.room)
        .map(|(view, _, as_drawn, tf)| {
            let (x, y) = ((tf.translation.x - 0.5).round(), (tf.translation.z - 0.5).round());
            (view.index, format!("#{} {:?} {},{}", view.index, as_drawn.kind, x as i32, y as i32))
        })
        .collect();
    drawn.sort();
    let drawn: Vec<String> = drawn.into_iter().map(|(_, s)| s).collect();
    println!("designer report: drawn stations: {}", drawn.join("; "));
    for (node, computed, at) in &overlay {
        if node.display == Display::None {
            println!("designer report: error list hidden");
            continue;
        }
        let list = rect_of(computed, at);
        let (rail, clock) = (boxes(&rail), boxes(&clock));
        let covers = |of: &[Rect2]| yes_no(of.iter().any(|b| overlaps(list, *b)));
        println!(
            "designer report: error list shown at y {:.0}..{:.0}; rail {} box(es); clock {} \
             box(es); covers rail: {}; covers clock: {}",
            list.0.y,
            list.1.y,
            rail.len(),
            clock.len(),
            covers(&rail),
            covers(&clock)
        );
    }
}
