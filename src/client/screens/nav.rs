//! How every menu screen is steered: its lines (`MenuItem`), the cursor, the keyboard halves
//! and gamepads that move it (a device's first action press joins it as the next cook
//! instead), and the choice a confirmed line makes ([`MenuChoice`]), which the screen that
//! owns the line acts on. The lines several screens share are answered here: Back, and the
//! round's assists (Level Select and Host).

use crate::client::args::Options;
use crate::client::input::Lineup;
use crate::client::local::assist_menu::{AssistChoice, AssistOption, RoundAssist, assist_label};
use crate::client::local::survival_menu::{RoundSurvival, SurvivalFlip, survival_label};
use crate::client::screens::join_form::{JoinField, JoinForm};
use crate::client::settings::access::AccessOption;
use crate::client::settings::config::{Bindings, Control, Slot};
use crate::client::settings::device::Device;
use crate::client::settings::rebind::Rebinding;
use crate::client::state::AppState;
use crate::client::theme::{BUTTON, BUTTON_LIT, GOLD, PLAIN, label};
use crate::schedule::FrameSystems;
use crate::sim::assist::Assist;
use bevy::prelude::*;

/// What a menu line does.
#[derive(Clone, Debug, PartialEq)]
pub enum MenuAction {
    Play,
    /// Play with one planner bot seated after the local cooks.
    PlayWithBot,
    /// Moving Day: the Tandem setup screen.
    Tandem,
    LevelSelect,
    Settings,
    Quit,
    PickLevel(String),
    /// A campaign level still locked: choosing it only says what opens it.
    Locked,
    Volume,
    /// Settings: wait for the new key of one slot's control.
    Rebind(Slot, Control),
    /// Settings: every slot back to its default keys.
    ResetKeys,
    /// Settings: step an accessibility option (Left / Right, or confirm for the next value).
    Access(AccessOption),
    /// Level select: step a round assist (Left / Right, or confirm).
    Assist(AssistOption),
    /// Level select: the round's mode, standard or survival (Left / Right, or confirm).
    Survival,
    /// Level select: assist mode's "skip level" on this level (the next one opens).
    SkipLevel(String),
    /// Main menu: the day's generated kitchen (native builds).
    DailyKitchen,
    /// Main menu: a generated kitchen from a fresh seed (native builds).
    RandomKitchen,
    /// Main menu: save the random kitchen last played into the levels folder (native builds).
    SaveKitchen,
    /// Main menu: the kitchen workshop's chooser (native builds).
    Workshop,
    /// Workshop: a new kitchen (Left / Right step its size; confirmed, the editor on it).
    NewKitchen,
    /// Workshop: the editor on this level file (or draft).
    EditKitchen(std::path::PathBuf),
    /// Main menu: host a LAN game (native builds).
    Host,
    /// Main menu: join a game (native builds).
    Join,
    /// Main menu: the Play online screen (native builds).
    PlayOnline,
    /// Main menu: the results board screen (native builds, with `--board`).
    ResultsBoard,
    /// Results board: fetch this entry's bundle and play it back.
    WatchEntry(u64),
    /// Play online: seat every cook at this screen in the best public room (or a new one).
    QuickMatch,
    /// Play online: ask the directory again and measure the round trips anew.
    RefreshServers,
    /// Play online: take seats in this listed public room (its server's web address, its code).
    JoinListed {
        web: String,
        code: String,
    },
    /// Join screen: type into a field.
    EditField(JoinField),
    /// Join screen: ask the host for a seat.
    Connect,
    /// Host screen: into the kitchen (the round starts when every seat is ready).
    StartHosted,
    /// Host screen: the room public (listed in the directory) or private (code only).
    RoomVisibility,
    Back,
}

/// A confirmed menu line (or one stepped with Left / Right): each screen's observer acts on
/// the actions of its own lines.
#[derive(Event, Clone, Debug)]
pub struct MenuChoice {
    pub action: MenuAction,
    /// Left was pressed: a stepping line (volume, an option) steps down.
    pub left: bool,
    /// Left or Right stepped the line (not a confirm): the workshop's new-kitchen size line
    /// steps then and opens the editor when confirmed.
    pub stepped: bool,
}

impl MenuChoice {
    /// A line chosen by confirming it (a click, the action button, `--screen`).
    pub fn of(action: MenuAction) -> Self {
        Self { action, left: false, stepped: false }
    }
}

/// One line of the current menu.
#[derive(Component, Clone, Debug)]
pub struct MenuItem {
    pub index: usize,
    pub action: MenuAction,
    /// Its words, which [`paint_menu`] writes into its text.
    pub label: String,
}

/// The highlighted line.
#[derive(Resource, Default, Debug)]
pub struct Cursor(pub usize);

/// Menu presses this frame, after joins took theirs.
#[derive(Default, Debug, Clone, Copy)]
struct Presses {
    up: bool,
    down: bool,
    left: bool,
    right: bool,
    confirm: bool,
    back: bool,
}

/// Whether the menu screens are up (the states [`steer_menu`] and [`paint_menu`] run in).
pub fn in_menu(state: Res<State<AppState>>) -> bool {
    matches!(
        state.get(),
        AppState::Menu
            | AppState::LevelSelect
            | AppState::Settings
            | AppState::Host
            | AppState::Join
            | AppState::PlayOnline
            | AppState::Workshop
            | AppState::Board
    )
}

/// The menus' steering and painting, and the lines several screens share.
pub struct MenuNavPlugin;

impl Plugin for MenuNavPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Cursor>().init_resource::<JoinForm>();
        app.add_observer(answer_shared_lines);
        app.add_systems(Update, steer_menu.in_set(FrameSystems::Steer).run_if(in_menu));
        app.add_systems(Update, relabel_assists.in_set(FrameSystems::Relabel).run_if(in_menu));
        app.add_systems(Update, paint_menu.in_set(FrameSystems::Paint).run_if(in_menu));
    }
}

/// A screen's lines, one under the other, at cursor positions 0, 1, ...
pub fn spawn_items(p: &mut ChildSpawnerCommands, items: Vec<(MenuAction, String)>) {
    for (index, (action, label)) in items.into_iter().enumerate() {
        spawn_item(p, index, action, label, (px(420), 26.0));
    }
}

/// One menu line at cursor position `index`, `size` = (width, font size).
pub fn spawn_item(
    p: &mut ChildSpawnerCommands,
    index: usize,
    action: MenuAction,
    line: String,
    (width, text): (Val, f32),
) {
    let pad = if text < 24.0 { px(5) } else { px(8) };
    p.spawn((
        MenuItem { index, action, label: line.clone() },
        Button,
        Node {
            width,
            padding: UiRect::axes(px(16), pad),
            justify_content: JustifyContent::Center,
            border_radius: BorderRadius::all(px(8)),
            ..default()
        },
        BackgroundColor(BUTTON),
    ))
    .with_child(label(line, text, PLAIN));
}

/// A long list of lines in two columns side by side (the first half on the left), at cursor
/// positions from `index` on, within `max_width`; returns the next free cursor position.
pub fn spawn_two_columns(
    p: &mut ChildSpawnerCommands,
    mut index: usize,
    rows: Vec<(MenuAction, String)>,
    max_width: Val,
) -> usize {
    let mut left = rows;
    let right = left.split_off(left.len().div_ceil(2));
    p.spawn(Node { column_gap: px(12), width: percent(94), max_width, ..default() }).with_children(
        |cols| {
            for column in [left, right] {
                cols.spawn(Node {
                    flex_direction: FlexDirection::Column,
                    row_gap: px(6),
                    width: percent(50),
                    ..default()
                })
                .with_children(|c| {
                    for (action, line) in column {
                        spawn_item(c, index, action, line, (percent(100), 17.0));
                        index += 1;
                    }
                });
            }
        },
    );
    index
}

/// Read the menu keys (each slot's bound directions and action); a device's first action
/// press joins it instead of confirming.
fn read_presses(
    keys: &ButtonInput<KeyCode>,
    pads: &Query<(Entity, &Gamepad)>,
    bindings: &Bindings,
    lineup: &mut Lineup,
) -> Presses {
    let (k1, k2, pad_set) = (&bindings.keyboard_1, &bindings.keyboard_2, &bindings.gamepad);
    let mut p = Presses {
        up: keys.any_just_pressed([k1.up, k2.up]),
        down: keys.any_just_pressed([k1.down, k2.down]),
        left: keys.any_just_pressed([k1.left, k2.left]),
        right: keys.any_just_pressed([k1.right, k2.right]),
        back: keys.just_pressed(KeyCode::Escape),
        ..default()
    };
    let left_act = keys.any_just_pressed(k1.act_inputs());
    let right_act = keys.any_just_pressed(k2.act_inputs());
    p.confirm |= left_act && !lineup.join(Device::KeyboardLeft);
    p.confirm |= right_act && !lineup.join(Device::KeyboardRight);
    for (e, pad) in pads {
        p.up |= pad.just_pressed(pad_set.up);
        p.down |= pad.just_pressed(pad_set.down);
        p.left |= pad.just_pressed(pad_set.left);
        p.right |= pad.just_pressed(pad_set.right);
        p.back |= pad.just_pressed(GamepadButton::East);
        if pad.any_just_pressed(pad_set.act_inputs()) {
            p.confirm |= !lineup.join(Device::Gamepad(e));
        }
    }
    p
}

/// Move the cursor, and say which line was chosen ([`MenuChoice`]); Esc or the pad's East
/// button goes back to the main menu.
pub fn steer_menu(
    keys: Res<ButtonInput<KeyCode>>,
    pads: Query<(Entity, &Gamepad)>,
    mut lineup: ResMut<Lineup>,
    mut cursor: ResMut<Cursor>,
    items: Query<(&MenuItem, &Interaction)>,
    state: Res<State<AppState>>,
    mut next: ResMut<NextState<AppState>>,
    bindings: Res<Bindings>,
    rebinding: Res<Rebinding>,
    form: Res<JoinForm>,
    mut commands: Commands,
) {
    // A control waiting for its key, or a field being typed into, takes every press
    // (`capture_rebind` in Settings, `join::type_into_field`).
    if rebinding.target.is_some() || form.editing.is_some() {
        return;
    }
    let p = read_presses(&keys, &pads, &bindings, &mut lineup);
    let count = items.iter().count().max(1);
    if p.up {
        cursor.0 = (cursor.0 + count - 1) % count;
    }
    if p.down {
        cursor.0 = (cursor.0 + 1) % count;
    }
    // In the key table, left and right move between the slots' columns.
    let in_table = items
        .iter()
        .any(|(i, _)| i.index == cursor.0 && matches!(i.action, MenuAction::Rebind(..)));
    let column = Control::ALL.len();
    if in_table && p.left && cursor.0 > column {
        cursor.0 -= column;
    } else if in_table && p.right && cursor.0 + column <= Slot::ALL.len() * column {
        cursor.0 += column;
    }
    let mut chosen = None;
    let mut stepped = false;
    for (item, interaction) in &items {
        match interaction {
            Interaction::Pressed => chosen = Some(item.action.clone()),
            Interaction::Hovered => cursor.0 = item.index,
            Interaction::None => {}
        }
        let steps = matches!(
            item.action,
            MenuAction::Volume
                | MenuAction::Access(_)
                | MenuAction::Assist(_)
                | MenuAction::Survival
                | MenuAction::NewKitchen
        );
        if item.index == cursor.0 && (p.confirm || (steps && (p.left || p.right))) {
            chosen = Some(item.action.clone());
            stepped = !p.confirm;
        }
    }
    if p.back && *state.get() != AppState::Menu {
        next.set(AppState::Menu);
    }
    if let Some(action) = chosen {
        commands.trigger(MenuChoice { action, left: p.left, stepped });
    }
}

/// Back, and a round assist stepped (Level Select's lines and the Host screen's).
fn answer_shared_lines(
    choice: On<MenuChoice>,
    mut next: ResMut<NextState<AppState>>,
    mut commands: Commands,
) {
    match choice.action {
        MenuAction::Back => next.set(AppState::Menu),
        MenuAction::Assist(option) => {
            commands.trigger(AssistChoice { option, up: !choice.left });
        }
        MenuAction::Survival => commands.trigger(SurvivalFlip),
        _ => {}
    }
}

/// The assist lines follow the round's assist (chosen here, or `--assist-*`), and the survival
/// line the round's mode.
fn relabel_assists(
    options: Option<Res<Options>>,
    assist: Option<Res<RoundAssist>>,
    survival: Option<Res<RoundSurvival>>,
    mut items: Query<&mut MenuItem>,
) {
    for mut item in &mut items {
        if item.action == MenuAction::Survival {
            item.label = survival_label(survival.as_ref().is_some_and(|s| s.0));
        }
        if let MenuAction::Assist(option) = item.action {
            let from_args = || options.as_ref().map_or(Assist::OFF, |o| o.0.assist());
            let a = assist.as_ref().map_or_else(from_args, |a| a.0);
            item.label = assist_label(&a, option);
        }
    }
}

/// Highlight the cursor's line and write every line's words.
pub fn paint_menu(
    cursor: Res<Cursor>,
    mut items: Query<(&MenuItem, &Children, &mut BackgroundColor)>,
    mut texts: Query<(&mut Text, &mut TextColor)>,
) {
    for (item, children, mut bg) in &mut items {
        let on = item.index == cursor.0;
        bg.0 = if on { BUTTON_LIT } else { BUTTON };
        for c in children.iter() {
            if let Ok((mut t, mut color)) = texts.get_mut(c) {
                if t.0 != item.label {
                    t.0 = item.label.clone();
                }
                color.0 = if on { GOLD } else { PLAIN };
            }
        }
    }
}
