//! The Tandem HUD: each seat's felt strain as a meter (and a gamepad rumble when it runs
//! high), damage, progress, doorways and time left, the newest beat called out (a doorway, a
//! bump, a drop: `beats.rs`, local and online alike); the results with the integer score
//! when the run ends, then back to the menu (Enter / South, or Esc at any time) — or, online,
//! to the room's lobby, which comes by itself. It reads only the [`TandemScreen`].

use super::beats::BeatLine;
use super::run::{TANDEM_HZ, TandemRun};
use super::screen::TandemScreen;
use crate::client::state::AppState;
use crate::client::theme::{BAR_BACK, GOLD, PANEL, PLAIN, label, seat_color};
use crate::tandem::events::{Outcome, Phase};
use crate::tandem::room::MAX_TICKS;
use bevy::input::gamepad::{GamepadRumbleIntensity, GamepadRumbleRequest};
use bevy::prelude::*;
use std::time::Duration;

/// A seat's strain meter fill.
#[derive(Component)]
struct StrainFill(usize);
/// The status line (damage, progress, doorways, time).
#[derive(Component)]
struct StatusText;
/// The results line (empty until the run ends).
#[derive(Component)]
struct ResultText;
/// The beat line (the newest doorway, bump or drop, for a moment).
#[derive(Component)]
struct BeatText;
/// The HUD's root (it lives as long as a run is on screen).
#[derive(Component)]
struct TandemHudRoot;

/// Strain meter permille above which a gamepad rumbles.
const RUMBLE_FROM: i32 = 400;

pub struct TandemHudPlugin;

impl Plugin for TandemHudPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Update, (sync_hud, paint_hud, rumble_strain).chain());
        app.add_systems(Update, leave_run.run_if(in_state(AppState::Tandem)));
    }
}

/// The HUD follows the screen: up while a run is on it (local or online), gone with it.
fn sync_hud(
    mut commands: Commands,
    screen: Option<Res<TandemScreen>>,
    roots: Query<Entity, With<TandemHudRoot>>,
) {
    match (screen.is_some(), roots.iter().next()) {
        (true, None) => spawn_hud(&mut commands, screen.map_or([false; 2], |s| s.mine)),
        (false, Some(_)) => roots.iter().for_each(|r| commands.entity(r).despawn()),
        _ => {}
    }
}

fn spawn_hud(commands: &mut Commands, mine: [bool; 2]) {
    commands
        .spawn((
            TandemHudRoot,
            Node {
                position_type: PositionType::Absolute,
                top: px(8),
                left: px(8),
                padding: UiRect::all(px(10)),
                flex_direction: FlexDirection::Column,
                row_gap: px(6),
                border_radius: BorderRadius::all(px(8)),
                ..default()
            },
            // The kitchen's panel: the couch-following camera puts bright floor under the
            // text, where plain white lettering on nothing was hard to read.
            BackgroundColor(PANEL),
        ))
        .with_children(|p| {
            for (seat, mine) in mine.into_iter().enumerate() {
                p.spawn(Node { column_gap: px(8), align_items: AlignItems::Center, ..default() })
                    .with_children(|row| {
                        let name = if seat == 0 { "fore" } else { "aft" };
                        let you = if mine { " (you)" } else { "" };
                        let line = format!("P{} {name}{you} strain", seat + 1);
                        row.spawn(label(line, 16.0, PLAIN));
                        row.spawn((
                            Node { width: px(180), height: px(14), ..default() },
                            BackgroundColor(BAR_BACK),
                        ))
                        .with_child((
                            StrainFill(seat),
                            Node { width: percent(0), height: percent(100), ..default() },
                            BackgroundColor(seat_color(seat as u8)),
                        ));
                    });
            }
            p.spawn((StatusText, label("", 18.0, PLAIN)));
            p.spawn((BeatText, label("", 24.0, GOLD)));
            p.spawn((ResultText, label("", 28.0, GOLD)));
        });
}

type OnlyStatus = (With<StatusText>, Without<ResultText>, Without<BeatText>);
type OnlyResult = (With<ResultText>, Without<StatusText>, Without<BeatText>);
type OnlyBeat = (With<BeatText>, Without<StatusText>, Without<ResultText>);

fn paint_hud(
    screen: Option<Res<TandemScreen>>,
    beat: Res<BeatLine>,
    time: Res<Time<Real>>,
    mut fills: Query<(&StrainFill, &mut Node)>,
    mut status: Query<&mut Text, OnlyStatus>,
    mut result: Query<&mut Text, OnlyResult>,
    mut beats: Query<&mut Text, OnlyBeat>,
) {
    let Some(screen) = screen else { return };
    let showing = time.elapsed_secs() < beat.until;
    set_text(&mut beats, if showing { beat.line.clone() } else { String::new() });
    let v = &screen.view;
    for (fill, mut node) in &mut fills {
        node.width = percent(v.seats[fill.0].strain_meter as f32 / 10.0);
    }
    let left_s = MAX_TICKS.saturating_sub(v.tick) / TANDEM_HZ;
    let dropped = if v.phase == Phase::Regrip { "   DROPPED: regripping" } else { "" };
    let line = format!(
        "damage {}/1000   progress {}.{}%   doorways {}/{}   time left {}:{:02}{dropped}",
        v.damage,
        v.progress_permille / 10,
        v.progress_permille % 10,
        v.doorways_passed,
        v.doorways,
        left_s / 60,
        left_s % 60
    );
    set_text(&mut status, line);
    let verdict = match v.phase {
        Phase::Ended(Outcome::Delivered) => "Delivered!",
        Phase::Ended(Outcome::Wrecked) => "Wrecked",
        Phase::Ended(Outcome::OutOfTime) => "Out of time",
        Phase::Ended(Outcome::SimFault) => "Stopped (rules fault)",
        _ => "",
    };
    let line = if verdict.is_empty() {
        String::new()
    } else {
        let s = v.score;
        let next = if screen.online { "the lobby is next" } else { "Enter: back to the menu" };
        format!(
            "{verdict}   score {}   (speed {}, condition {}, progress {})\n{next}",
            s.score, s.speed, s.condition, s.progress
        )
    };
    set_text(&mut result, line);
}

fn set_text<F: bevy::ecs::query::QueryFilter>(q: &mut Query<&mut Text, F>, line: String) {
    for mut t in q.iter_mut() {
        if t.0 != line {
            t.0 = line.clone();
        }
    }
}

/// A gamepad player feels the strain in the hands: a short rumble each tick it runs high,
/// stronger the closer the grip is to slipping.
fn rumble_strain(
    screen: Option<Res<TandemScreen>>,
    mut last_tick: Local<u32>,
    mut rumble: MessageWriter<GamepadRumbleRequest>,
) {
    let Some(screen) = screen else { return };
    let v = &screen.view;
    if v.tick == *last_tick {
        return;
    }
    *last_tick = v.tick;
    for (seat, pad) in screen.pads.iter().enumerate() {
        let Some(pad) = pad else { continue };
        let meter = v.seats[seat].strain_meter;
        if meter < RUMBLE_FROM {
            continue;
        }
        let strength = (meter - RUMBLE_FROM) as f32 / (1000 - RUMBLE_FROM) as f32;
        rumble.write(GamepadRumbleRequest::Add {
            gamepad: *pad,
            duration: Duration::from_millis(1000 / TANDEM_HZ as u64 + 10),
            intensity: GamepadRumbleIntensity {
                strong_motor: strength,
                weak_motor: strength.max(0.3),
            },
        });
    }
}

/// Esc leaves at any time; after the results, Enter (or a gamepad's South) too.
fn leave_run(
    run: Option<Res<TandemRun>>,
    keys: Res<ButtonInput<KeyCode>>,
    pads: Query<&Gamepad>,
    mut next: ResMut<NextState<AppState>>,
) {
    let ended = run.is_some_and(|r| r.room.outcome().is_some());
    let confirm = keys.just_pressed(KeyCode::Enter)
        || pads.iter().any(|g| g.just_pressed(GamepadButton::South));
    if keys.just_pressed(KeyCode::Escape) || (ended && confirm) {
        next.set(AppState::Menu);
    }
}
