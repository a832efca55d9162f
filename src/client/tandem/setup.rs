//! The Tandem setup screen: who carries the other end (a second local player or the porter
//! bot) and the course seed (random, or typed digit by digit), then into the run.

use crate::client::args::{Options, Partner};
use crate::client::state::AppState;
use crate::client::theme::{DIM, GOLD, PLAIN, label, paragraph, screen, title};

/// Pixels between the setup screen's lines (the main menu's gap).
const GAP: f32 = 14.0;
use bevy::prelude::*;

impl Partner {
    fn label(self) -> &'static str {
        match self {
            Partner::Couch => "couch: two players (WASD+Space / arrows+Enter, or gamepads)",
            Partner::Porter => "solo: you and the porter bot",
        }
    }
}

/// The run the setup screen (or `play --mode tandem`) asks for.
#[derive(Resource, Clone, Debug, PartialEq, Eq)]
pub struct TandemSetup {
    pub partner: Partner,
    /// The seed as typed (digits only); empty means a random one at start.
    pub seed_text: String,
}

impl TandemSetup {
    /// The seed to play: the typed one, or one drawn from `entropy` (the clock's nanoseconds:
    /// choosing a course is not a rule, the run itself is deterministic from the seed).
    pub fn seed(&self, entropy: u64) -> u64 {
        self.seed_text.parse().unwrap_or(entropy % 1_000_000)
    }
}

/// The setup screen's lines.
#[derive(Component)]
struct SetupText;

pub struct TandemSetupPlugin;

impl Plugin for TandemSetupPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(TandemSetup { partner: Partner::Porter, seed_text: String::new() });
        app.add_systems(OnEnter(AppState::Title), skip_to_tandem);
        app.add_systems(OnEnter(AppState::TandemSetup), spawn_setup);
        app.add_systems(
            Update,
            (steer_setup, paint_setup).chain().run_if(in_state(AppState::TandemSetup)),
        );
    }
}

/// `play --mode tandem`: straight into a run with the command line's partner and seed.
fn skip_to_tandem(
    options: Res<Options>,
    mut setup: ResMut<TandemSetup>,
    mut next: ResMut<NextState<AppState>>,
) {
    let o = &options.0;
    if o.mode == Some(crate::client::args::PlayMode::Tandem) {
        *setup = TandemSetup { partner: o.partner, seed_text: o.seed.to_string() };
        next.set(AppState::Tandem);
    }
}

fn spawn_setup(mut commands: Commands) {
    commands.spawn(screen(AppState::TandemSetup, GAP)).with_children(|p| {
        p.spawn(title("MOVING DAY", 48.0));
        p.spawn(label("two cooks, one couch, no talking: feel the strain", 20.0, DIM));
        p.spawn((SetupText, paragraph("", 22.0, PLAIN)));
        p.spawn(label(
            "Left/Right: partner   digits: seed   Backspace: clear (random)   Enter: start   Esc: back",
            16.0,
            GOLD,
        ));
    });
}

fn steer_setup(
    keys: Res<ButtonInput<KeyCode>>,
    pads: Query<&Gamepad>,
    mut setup: ResMut<TandemSetup>,
    mut next: ResMut<NextState<AppState>>,
) {
    let pad = |b| pads.iter().any(|g| g.just_pressed(b));
    if keys.any_just_pressed([
        KeyCode::ArrowLeft,
        KeyCode::ArrowRight,
        KeyCode::KeyA,
        KeyCode::KeyD,
    ]) || pad(GamepadButton::DPadLeft)
        || pad(GamepadButton::DPadRight)
    {
        setup.partner = match setup.partner {
            Partner::Couch => Partner::Porter,
            Partner::Porter => Partner::Couch,
        };
    }
    const DIGITS: [KeyCode; 10] = [
        KeyCode::Digit0,
        KeyCode::Digit1,
        KeyCode::Digit2,
        KeyCode::Digit3,
        KeyCode::Digit4,
        KeyCode::Digit5,
        KeyCode::Digit6,
        KeyCode::Digit7,
        KeyCode::Digit8,
        KeyCode::Digit9,
    ];
    for (d, key) in DIGITS.iter().enumerate() {
        // At most 18 digits: every such number fits a u64.
        if keys.just_pressed(*key) && setup.seed_text.len() < 18 {
            setup.seed_text.push(char::from(b'0' + d as u8));
        }
    }
    if keys.just_pressed(KeyCode::Backspace) {
        setup.seed_text.clear();
    }
    if keys.just_pressed(KeyCode::Enter) || pad(GamepadButton::South) {
        next.set(AppState::Tandem);
    } else if keys.just_pressed(KeyCode::Escape) || pad(GamepadButton::East) {
        next.set(AppState::Menu);
    }
}

fn paint_setup(setup: Res<TandemSetup>, mut text: Query<&mut Text, With<SetupText>>) {
    let seed = if setup.seed_text.is_empty() { "random" } else { &setup.seed_text };
    let line = format!("Partner: < {} >\nSeed: {seed}", setup.partner.label());
    for mut t in &mut text {
        if t.0 != line {
            t.0 = line.clone();
        }
    }
}
