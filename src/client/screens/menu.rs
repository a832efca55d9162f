//! Title, main menu and settings (the level select is `level_select.rs`). Keyboard halves and gamepads steer them;
//! pressing a device's action button the first time joins it as the next cook.

use crate::client::args::{Options, Screen};
use crate::client::input::Lineup;
use crate::client::local::assist_menu::{AssistChoice, AssistOption, RoundAssist, assist_label};
use crate::client::local::{HostError, MenuBots, SelectedLevel};
use crate::client::save::SaveData;
use crate::client::settings::access::{AccessOption, Accessibility};
use crate::client::settings::access_sync::AccessChoice;
use crate::client::settings::config::{
    Bindings, ConfigFile, ConfigWarning, Control, Rebinding, Slot, capture_rebind, store_bindings,
    warning_line,
};
use crate::client::settings::device::Device;
use crate::client::state::AppState;
use crate::client::theme::{
    BUTTON, BUTTON_LIT, DIM, ERROR, GOLD, OVER_KITCHEN, OVER_KITCHEN_LIGHT, PLAIN, TITLE_PLATE,
    WARNING, label, paragraph, screen, title,
};
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
    /// Level select: assist mode's "skip level" on this level (the next one opens).
    SkipLevel(String),
    /// Main menu: host a LAN game (native builds).
    Host,
    /// Main menu: join a game (native builds).
    Join,
    /// Join screen: type into a field.
    EditField(JoinField),
    /// Join screen: ask the host for a seat.
    Connect,
    /// Host screen: into the kitchen (the round starts when every seat is ready).
    StartHosted,
    Back,
}

/// A text field of the Join screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JoinField {
    Address,
    Code,
}

/// The Join screen's fields, which one is being typed into, and the last word on the join.
#[derive(Resource, Clone, Debug, Default)]
pub struct JoinForm {
    pub address: String,
    pub code: String,
    pub editing: Option<JoinField>,
    /// The press that chose the field is not typed into it.
    pub armed: bool,
    pub status: Option<String>,
}

impl JoinForm {
    pub fn field(&self, f: JoinField) -> &str {
        match f {
            JoinField::Address => &self.address,
            JoinField::Code => &self.code,
        }
    }

    pub fn field_mut(&mut self, f: JoinField) -> &mut String {
        match f {
            JoinField::Address => &mut self.address,
            JoinField::Code => &mut self.code,
        }
    }
}

/// A menu choice for the network screens (`netmenu`, native), which need the world.
#[derive(Event, Clone, Debug)]
pub struct NetChoice(pub MenuAction);

/// The first three campaign levels are always open.
pub const ALWAYS_OPEN: usize = 3;

/// Star progress gates the campaign: level `index` opens once the level before it has at
/// least one star or was skipped (assist mode); the first [`ALWAYS_OPEN`] are always open.
pub fn unlocked(
    index: usize,
    ids: &[String],
    best_stars: &std::collections::BTreeMap<String, u8>,
    skipped: &std::collections::BTreeSet<String>,
) -> bool {
    index < ALWAYS_OPEN
        || ids.get(index - 1).is_some_and(|prev| {
            best_stars.get(prev).copied().unwrap_or(0) >= 1 || skipped.contains(prev)
        })
}

/// One line of the current menu.
#[derive(Component, Clone, Debug)]
pub(super) struct MenuItem {
    index: usize,
    action: MenuAction,
    label: String,
}

/// The highlighted line.
#[derive(Resource, Default, Debug)]
pub(super) struct Cursor(pub usize);

/// The main menu's line for why a local round or a hosted game could not start.
#[derive(Component)]
pub(super) struct ErrorText;

#[derive(Component)]
struct LineupText;

/// The Settings screen's line under the key table: what rebinding waits for, its last answer,
/// or why the config file was refused at start.
#[derive(Component)]
struct RebindText;

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

/// Pixels between the lines of a menu screen.
pub(crate) const MENU_GAP: f32 = 14.0;

/// The title, main menu, level select and settings screens.
pub struct MenuPlugin;

impl Plugin for MenuPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Cursor>().init_resource::<JoinForm>();
        // After the Loading state: `--level` passes the title by.
        app.add_systems(OnEnter(AppState::Title), (skip_to_level, open_screen));
        app.add_systems(OnEnter(AppState::Title), spawn_title);
        app.add_systems(OnEnter(AppState::Menu), spawn_main_menu);
        app.add_systems(OnEnter(AppState::Settings), spawn_settings);
        app.add_systems(Update, leave_title.run_if(in_state(AppState::Title)));
        app.add_systems(OnExit(AppState::Settings), |mut r: ResMut<Rebinding>| *r = default());
        app.add_systems(
            Update,
            (capture_rebind, steer_menu.in_set(FrameSystems::Steer), paint_menu).chain().run_if(
                |s: Res<State<AppState>>| {
                    matches!(
                        s.get(),
                        AppState::Menu
                            | AppState::LevelSelect
                            | AppState::Settings
                            | AppState::Host
                            | AppState::Join
                    )
                },
            ),
        );
        app.add_systems(Update, paint_error.run_if(in_state(AppState::Menu)));
    }
}

/// `--level` goes straight to the kitchen.
fn skip_to_level(
    options: Res<Options>,
    mut commands: Commands,
    mut next: ResMut<NextState<AppState>>,
) {
    if let Some(level) = &options.0.level {
        commands.insert_resource(SelectedLevel(level.clone()));
        next.set(AppState::Playing);
    }
}

fn spawn_title(mut commands: Commands) {
    // See-through, over the live kitchen (`backdrop`), the words on a plate of their own.
    commands
        .spawn(screen(AppState::Title, MENU_GAP))
        .insert(BackgroundColor(OVER_KITCHEN_LIGHT))
        .with_children(|p| {
            p.spawn((
                Node {
                    flex_direction: FlexDirection::Column,
                    align_items: AlignItems::Center,
                    row_gap: px(MENU_GAP),
                    padding: UiRect::axes(px(48), px(28)),
                    border_radius: BorderRadius::all(px(18)),
                    ..default()
                },
                BackgroundColor(TITLE_PLATE),
            ))
            .with_children(|plate| {
                plate.spawn(title("UNDERCOOKED", 84.0));
                plate.spawn(label("a co-op kitchen for one to four cooks", 22.0, PLAIN));
                plate.spawn(label("press any key", 18.0, DIM));
            });
        });
}

/// Any key, click or gamepad button (or two seconds) opens the main menu.
fn leave_title(
    options: Res<Options>,
    keys: Res<ButtonInput<KeyCode>>,
    mouse: Res<ButtonInput<MouseButton>>,
    pads: Query<&Gamepad>,
    time: Res<Time<Real>>,
    mut since: Local<f32>,
    mut next: ResMut<NextState<AppState>>,
) {
    *since += time.delta_secs();
    let pressed = keys.get_just_pressed().next().is_some()
        || mouse.get_just_pressed().next().is_some()
        || pads.iter().any(|g| g.get_just_pressed().next().is_some());
    // `--screen title` holds the title (for its screenshot) until a key.
    let holds = options.0.screen == Some(Screen::Title);
    if pressed || (*since > 2.0 && !holds) {
        next.set(AppState::Menu);
    }
}

/// `--screen`: past the title straight to one menu screen (Host by hosting, as its menu line
/// does).
fn open_screen(
    options: Res<Options>,
    mut commands: Commands,
    mut next: ResMut<NextState<AppState>>,
) {
    match options.0.screen {
        Some(Screen::Host) => commands.trigger(NetChoice(MenuAction::Host)),
        Some(Screen::Title) => {}
        Some(screen) => next.set(screen.state()),
        None => {}
    }
}

pub(super) fn spawn_items(p: &mut ChildSpawnerCommands, items: Vec<(MenuAction, String)>) {
    for (index, (action, label)) in items.into_iter().enumerate() {
        spawn_item(p, index, action, label, (px(420), 26.0));
    }
}

/// One menu line at cursor position `index`, `size` = (width, font size).
pub(super) fn spawn_item(
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

fn spawn_main_menu(mut commands: Commands, mut cursor: ResMut<Cursor>, error: Res<HostError>) {
    cursor.0 = 0;
    // See-through: the live kitchen (`backdrop`) cooks on behind the menu.
    let over = BackgroundColor(OVER_KITCHEN);
    // (Inserted over the screen's own background: one bundle may not name a component twice.)
    commands.spawn(screen(AppState::Menu, MENU_GAP)).insert(over).with_children(|p| {
        p.spawn(title("UNDERCOOKED", 56.0));
        spawn_items(
            p,
            vec![
                (MenuAction::Play, "Play".into()),
                (MenuAction::PlayWithBot, "Solo with a bot partner".into()),
                (MenuAction::Tandem, "Moving Day (Tandem)".into()),
                (MenuAction::LevelSelect, "Level select".into()),
                #[cfg(not(target_arch = "wasm32"))]
                (MenuAction::Host, "Host a LAN game".into()),
                #[cfg(not(target_arch = "wasm32"))]
                (MenuAction::Join, "Join a game".into()),
                (MenuAction::Settings, "Settings".into()),
                (MenuAction::Quit, "Quit".into()),
            ],
        );
        p.spawn((LineupText, paragraph("", 18.0, PLAIN)));
        p.spawn((ErrorText, label(error.0.clone().unwrap_or_default(), 16.0, ERROR)));
    });
}

/// The main menu's error line follows [`HostError`] (a failed Host sets it while on the menu).
fn paint_error(error: Res<HostError>, mut text: Query<&mut Text, With<ErrorText>>) {
    if !error.is_changed() {
        return;
    }
    for mut t in &mut text {
        t.0 = error.0.clone().unwrap_or_default();
    }
}

fn volume_label(v: f32) -> String {
    format!("Volume  < {:>3}% >", (v * 100.0).round() as u32)
}

/// A Join field's line: its name, its text, and a caret while typing.
pub(super) fn field_label(form: &JoinForm, field: JoinField) -> String {
    let name = match field {
        JoinField::Address => "Address or link",
        JoinField::Code => "Room code",
    };
    let text = form.field(field);
    if form.editing == Some(field) {
        format!("{name}: {text}_")
    } else if text.is_empty() {
        format!("{name}: (choose to type)")
    } else {
        format!("{name}: {text}")
    }
}

fn rebind_label(
    bindings: &Bindings,
    rebinding: &Rebinding,
    slot: Slot,
    control: Control,
) -> String {
    if rebinding.target == Some((slot, control)) {
        format!("{}: press...", control.name())
    } else {
        format!("{}: {}", control.name(), bindings.label(slot, control))
    }
}

fn spawn_settings(
    mut commands: Commands,
    mut cursor: ResMut<Cursor>,
    save: Res<SaveData>,
    bindings: Res<Bindings>,
    warning: Res<ConfigWarning>,
) {
    cursor.0 = 0;
    let rebinding = Rebinding::default();
    commands.spawn(screen(AppState::Settings, MENU_GAP)).with_children(|p| {
        p.spawn(title("Settings", 44.0));
        spawn_items(p, vec![(MenuAction::Volume, volume_label(save.volume))]);
        // The key table: one column per slot, one cell per control (index 1 + column * 6 + row).
        p.spawn(Node { flex_direction: FlexDirection::Row, column_gap: px(16), ..default() })
            .with_children(|table| {
                for (col, slot) in Slot::ALL.into_iter().enumerate() {
                    table
                        .spawn(Node {
                            flex_direction: FlexDirection::Column,
                            align_items: AlignItems::Center,
                            row_gap: px(6),
                            ..default()
                        })
                        .with_children(|column| {
                            column.spawn(title(slot.name(), 20.0));
                            for (row, control) in Control::ALL.into_iter().enumerate() {
                                let label = rebind_label(&bindings, &rebinding, slot, control);
                                spawn_item(
                                    column,
                                    1 + col * Control::ALL.len() + row,
                                    MenuAction::Rebind(slot, control),
                                    label,
                                    (px(250), 18.0),
                                );
                            }
                        });
                }
            });
        let first = 1 + Slot::ALL.len() * Control::ALL.len();
        // The accessibility options, one row under the key table.
        p.spawn(Node { flex_direction: FlexDirection::Row, column_gap: px(12), ..default() })
            .with_children(|row| {
                for (k, option) in AccessOption::ALL.into_iter().enumerate() {
                    let line = bindings.accessibility.label(option);
                    spawn_item(row, first + k, MenuAction::Access(option), line, (px(230), 16.0));
                }
            });
        let first = first + AccessOption::ALL.len();
        let reset = "Reset keys to defaults".into();
        spawn_item(p, first, MenuAction::ResetKeys, reset, (px(420), 22.0));
        spawn_item(p, first + 1, MenuAction::Back, "Back".into(), (px(420), 22.0));
        let refusal = warning.0.as_deref().map(warning_line).unwrap_or_default();
        p.spawn((RebindText, paragraph(refusal, 16.0, WARNING)));
        p.spawn(paragraph(
            "Choose a control, then press its new key (or gamepad button). The left stick always moves.\nIn a round: P / Esc / Start pauses, then R restarts and M leaves; F3 shows the performance overlay",
            15.0,
            PLAIN,
        ));
    });
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

pub(super) fn steer_menu(
    keys: Res<ButtonInput<KeyCode>>,
    pads: Query<(Entity, &Gamepad)>,
    mut lineup: ResMut<Lineup>,
    mut cursor: ResMut<Cursor>,
    items: Query<(&MenuItem, &Interaction)>,
    state: Res<State<AppState>>,
    mut next: ResMut<NextState<AppState>>,
    mut save: ResMut<SaveData>,
    mut bindings: ResMut<Bindings>,
    mut rebinding: ResMut<Rebinding>,
    file: Res<ConfigFile>,
    mut form: ResMut<JoinForm>,
    mut commands: Commands,
    mut exit: MessageWriter<AppExit>,
) {
    // A control waiting for its key, or a field being typed into, takes every press
    // (`capture_rebind`, `netmenu::type_into_field`).
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
    for (item, interaction) in &items {
        match interaction {
            Interaction::Pressed => chosen = Some(item.action.clone()),
            Interaction::Hovered => cursor.0 = item.index,
            Interaction::None => {}
        }
        let steps = matches!(
            item.action,
            MenuAction::Volume | MenuAction::Access(_) | MenuAction::Assist(_)
        );
        if item.index == cursor.0 && (p.confirm || (steps && (p.left || p.right))) {
            chosen = Some(item.action.clone());
        }
    }
    if p.back && *state.get() != AppState::Menu {
        next.set(AppState::Menu);
    }
    let Some(action) = chosen else { return };
    match action {
        MenuAction::Play => {
            commands.remove_resource::<MenuBots>();
            next.set(AppState::Playing);
        }
        MenuAction::PlayWithBot => {
            commands.insert_resource(MenuBots(1));
            next.set(AppState::Playing);
        }
        MenuAction::Tandem => next.set(AppState::TandemSetup),
        MenuAction::LevelSelect => next.set(AppState::LevelSelect),
        MenuAction::Settings => next.set(AppState::Settings),
        MenuAction::Quit => {
            exit.write(AppExit::Success);
        }
        MenuAction::PickLevel(id) => {
            commands.remove_resource::<MenuBots>();
            commands.insert_resource(SelectedLevel(id));
            next.set(AppState::Playing);
        }
        MenuAction::Locked => {}
        MenuAction::Volume => {
            let step = if p.left { -0.1 } else { 0.1 };
            let v = save.volume + step;
            // Confirm and Right go up and wrap to mute after full; Left goes down.
            save.volume = if v > 1.05 { 0.0 } else { v.clamp(0.0, 1.0) };
            save.store();
        }
        MenuAction::Rebind(slot, control) => rebinding.start(slot, control),
        MenuAction::Access(option) => {
            commands.trigger(AccessChoice { option, up: !p.left });
        }
        MenuAction::Assist(option) => commands.trigger(AssistChoice { option, up: !p.left }),
        MenuAction::SkipLevel(id) => {
            if save.skip(&id) {
                save.store();
            }
            // The screen again, with the next level open.
            next.set(AppState::LevelSelect);
        }
        MenuAction::ResetKeys => {
            // Only the keys: the accessibility options saved beside them stay.
            *bindings = Bindings { accessibility: bindings.accessibility, ..default() };
            rebinding.message = Some(match &file.0 {
                Some(path) => match store_bindings(path, &bindings) {
                    Ok(()) => format!("Default keys restored (saved to {})", path.display()),
                    Err(e) => format!("Default keys restored, NOT saved: {e}"),
                },
                None => "Default keys restored".into(),
            });
        }
        MenuAction::EditField(field) => {
            form.editing = Some(field);
            form.armed = false;
        }
        MenuAction::Host | MenuAction::Join | MenuAction::Connect | MenuAction::StartHosted => {
            commands.trigger(NetChoice(action));
        }
        MenuAction::Back => next.set(AppState::Menu),
    }
}

/// Highlight the cursor's line, refresh the volume label and the joined cooks.
fn paint_menu(
    cursor: Res<Cursor>,
    save: Res<SaveData>,
    lineup: Res<Lineup>,
    bindings: Res<Bindings>,
    rebinding: Res<Rebinding>,
    form: Res<JoinForm>,
    access: Res<Accessibility>,
    (options, assist): (Option<Res<Options>>, Option<Res<RoundAssist>>),
    mut items: Query<(&mut MenuItem, &Children, &mut BackgroundColor)>,
    mut texts: Query<(&mut Text, &mut TextColor), (Without<LineupText>, Without<RebindText>)>,
    mut lineup_text: Query<&mut Text, (With<LineupText>, Without<RebindText>)>,
    mut rebind_text: Query<&mut Text, (With<RebindText>, Without<LineupText>)>,
) {
    for (mut item, children, mut bg) in &mut items {
        let on = item.index == cursor.0;
        bg.0 = if on { BUTTON_LIT } else { BUTTON };
        match item.action {
            MenuAction::Volume => item.label = volume_label(save.volume),
            MenuAction::Rebind(slot, control) => {
                item.label = rebind_label(&bindings, &rebinding, slot, control);
            }
            MenuAction::EditField(field) => item.label = field_label(&form, field),
            MenuAction::Access(option) => item.label = access.label(option),
            MenuAction::Assist(option) => {
                let from_args = || options.as_ref().map_or(Assist::OFF, |o| o.0.assist());
                let a = assist.as_ref().map_or_else(from_args, |a| a.0);
                item.label = assist_label(&a, option);
            }
            _ => {}
        }
        for c in children.iter() {
            if let Ok((mut t, mut color)) = texts.get_mut(c) {
                if t.0 != item.label {
                    t.0 = item.label.clone();
                }
                color.0 = if on { GOLD } else { PLAIN };
            }
        }
    }
    if let Ok(mut t) = lineup_text.single_mut() {
        let cooks: Vec<String> = lineup
            .0
            .iter()
            .enumerate()
            .map(|(k, d)| format!("P{} {}", k + 1, bindings.device_label(*d)))
            .collect();
        let joined = if cooks.is_empty() {
            format!("no cooks yet (P1 plays {})", bindings.device_label(Device::KeyboardLeft))
        } else {
            cooks.join("   ")
        };
        let acts = |slot| bindings.label(slot, Control::Act);
        let text = format!(
            "Cooks: {joined}\nPress your action button to join: {}, {}, or gamepad {}",
            acts(Slot::Keyboard1),
            acts(Slot::Keyboard2),
            acts(Slot::Gamepad)
        );
        if t.0 != text {
            t.0 = text;
        }
    }
    if let Ok(mut t) = rebind_text.single_mut()
        && let Some(message) = &rebinding.message
        && t.0 != *message
    {
        t.0 = message.clone();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[test]
    fn stars_open_the_campaign_one_level_at_a_time() {
        let ids: Vec<String> = (0..6).map(|i| format!("l{i}")).collect();
        let mut best = BTreeMap::new();
        let none = std::collections::BTreeSet::new();
        let open = |best: &BTreeMap<String, u8>| {
            (0..6).filter(|&i| unlocked(i, &ids, best, &none)).count()
        };
        assert_eq!(open(&best), 3, "the first three are always open");
        best.insert("l2".to_string(), 0);
        assert_eq!(open(&best), 3, "a zero-star finish opens nothing");
        best.insert("l2".to_string(), 1);
        assert_eq!(open(&best), 4);
        best.insert("l3".to_string(), 3);
        best.insert("l4".to_string(), 2);
        assert_eq!(open(&best), 6);
        // A skipped level opens the next one as a star would.
        let skipped: std::collections::BTreeSet<String> = ["l2".to_string()].into();
        let best = BTreeMap::new();
        assert!(unlocked(3, &ids, &best, &skipped) && !unlocked(4, &ids, &best, &skipped));
    }
}
