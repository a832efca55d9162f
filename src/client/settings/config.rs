//! Key bindings: which keys (or gamepad buttons) each local slot uses for the cook's actions,
//! changed on the Settings screen by pressing the new key, and kept in a RON config file next
//! to the save file (`config.ron`) together with the accessibility options (`access.rs`). A
//! config that does not parse, that binds one key twice, or whose option is out of range, is
//! refused by name: the game starts on the defaults and the file is kept as `config.ron.bad`
//! so a hand edit is never lost silently.

use crate::client::save::{save_path, write_atomic};
use crate::client::settings::access::Accessibility;
use crate::client::settings::device::{CookAction, Device};
use bevy::prelude::*;
use leafwing_input_manager::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The bindable ways to play: the two keyboard halves and (every) gamepad.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Slot {
    Keyboard1,
    Keyboard2,
    Gamepad,
}

impl Slot {
    pub const ALL: [Slot; 3] = [Slot::Keyboard1, Slot::Keyboard2, Slot::Gamepad];

    pub fn name(self) -> &'static str {
        match self {
            Slot::Keyboard1 => "Keyboard 1",
            Slot::Keyboard2 => "Keyboard 2",
            Slot::Gamepad => "Gamepad",
        }
    }
}

/// One bindable control of a slot: the four directions of `CookAction::Move`, the
/// `CookAction::Act` button (a main and an optional second binding), the `CookAction::Dash`
/// button (dash, or throw while holding an ingredient) and the `CookAction::Emote` button (held
/// with a direction: an emote).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Control {
    Up,
    Down,
    Left,
    Right,
    Act,
    AltAct,
    Dash,
    Emote,
}

impl Control {
    pub const ALL: [Control; 8] = [
        Control::Up,
        Control::Down,
        Control::Left,
        Control::Right,
        Control::Act,
        Control::AltAct,
        Control::Dash,
        Control::Emote,
    ];

    /// A control a player may leave unbound (Backspace in Settings): the second action and the
    /// emote button; a cook needs the others to play.
    pub fn clearable(self) -> bool {
        matches!(self, Control::AltAct | Control::Emote)
    }

    pub fn name(self) -> &'static str {
        match self {
            Control::Up => "Up",
            Control::Down => "Down",
            Control::Left => "Left",
            Control::Right => "Right",
            Control::Act => "Action",
            Control::AltAct => "Action 2",
            Control::Dash => "Dash / throw",
            Control::Emote => "Emote",
        }
    }
}

/// A pressed key or button, as offered to [`Bindings::rebind`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Press {
    Key(KeyCode),
    Button(GamepadButton),
}

/// One device's controls: the four directions and the action, plus an optional second action
/// key, and the second button. The same shape for a keyboard half ([`KeySet`]) and for the
/// gamepads ([`PadSet`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ControlSet<B> {
    pub up: B,
    pub down: B,
    pub left: B,
    pub right: B,
    pub act: B,
    pub alt_act: Option<B>,
    /// The second button. `None` only in a file from before it existed (it reads as absent and
    /// [`Bindings::fill_missing_dash`] gives it its default key) or when that default was taken.
    #[serde(default = "unbound")]
    pub dash: Option<B>,
    /// The emote button, held with a direction (docs/NETWORK.md, "Emotes"). `None` in a file
    /// from before it existed (it then gets its default like `dash`), or cleared by the player.
    #[serde(default = "unbound")]
    pub emote: Option<B>,
}

/// A control absent from the file (`#[serde(default)]` would ask every key type for `Default`).
fn unbound<B>() -> Option<B> {
    None
}

/// One keyboard half.
pub type KeySet = ControlSet<KeyCode>;

/// Every gamepad (each joins as its own cook, all with the same buttons). The left stick
/// always moves too; these are the d-pad directions and the action buttons.
pub type PadSet = ControlSet<GamepadButton>;

/// The whole config file: the keys, and the accessibility options saved with them (a file
/// from before they existed reads as the default options).
#[derive(Resource, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bindings {
    pub keyboard_1: KeySet,
    pub keyboard_2: KeySet,
    pub gamepad: PadSet,
    #[serde(default)]
    pub accessibility: Accessibility,
    /// The directory Play online asks (`http://HOST:PORT`), typed in Settings; `play
    /// --directory URL` overrides it. Absent in a file from before it existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub directory: Option<String>,
}

impl Default for Bindings {
    fn default() -> Self {
        Bindings {
            keyboard_1: KeySet {
                up: KeyCode::KeyW,
                down: KeyCode::KeyS,
                left: KeyCode::KeyA,
                right: KeyCode::KeyD,
                act: KeyCode::Space,
                alt_act: Some(KeyCode::KeyE),
                dash: Some(KeyCode::ShiftLeft),
                emote: Some(KeyCode::KeyQ),
            },
            keyboard_2: KeySet {
                up: KeyCode::ArrowUp,
                down: KeyCode::ArrowDown,
                left: KeyCode::ArrowLeft,
                right: KeyCode::ArrowRight,
                act: KeyCode::Enter,
                alt_act: Some(KeyCode::ControlRight),
                dash: Some(KeyCode::ShiftRight),
                emote: Some(KeyCode::Slash),
            },
            gamepad: PadSet {
                up: GamepadButton::DPadUp,
                down: GamepadButton::DPadDown,
                left: GamepadButton::DPadLeft,
                right: GamepadButton::DPadRight,
                act: GamepadButton::South,
                alt_act: None,
                dash: Some(GamepadButton::West),
                emote: Some(GamepadButton::North),
            },
            accessibility: Accessibility::default(),
            directory: None,
        }
    }
}

/// Keys the game itself answers to, which no cook may take.
const RESERVED_KEYS: [(KeyCode, &str); 9] = [
    (KeyCode::Escape, "Esc goes back and pauses"),
    (KeyCode::KeyP, "P pauses a round"),
    (KeyCode::KeyR, "R restarts a paused round"),
    (KeyCode::KeyM, "M leaves a paused round"),
    (KeyCode::F2, "F2 is the designer's grid"),
    (KeyCode::F3, "F3 is the performance overlay"),
    (KeyCode::F5, "F5 re-seeds a designer round"),
    (KeyCode::F6, "F6 steps the order timers' assist in an online lobby"),
    (KeyCode::F7, "F7 turns the longer round's assist on or off in an online lobby"),
];

const RESERVED_BUTTONS: [(GamepadButton, &str); 2] = [
    (GamepadButton::Start, "Start pauses a round"),
    (GamepadButton::East, "B / Circle goes back on the menus"),
];

/// A key's name for the screen: `KeyW` is "W", `ArrowUp` "Arrow Up".
pub fn key_label(key: KeyCode) -> String {
    let side = |s: &str| match s {
        "ControlLeft" => Some("Left Ctrl"),
        "ControlRight" => Some("Right Ctrl"),
        "ShiftLeft" => Some("Left Shift"),
        "ShiftRight" => Some("Right Shift"),
        "AltLeft" => Some("Left Alt"),
        "AltRight" => Some("Right Alt"),
        _ => None,
    };
    if let Some(name) = side(&format!("{key:?}")) {
        return name.to_string();
    }
    let raw = format!("{key:?}");
    let raw = raw.strip_prefix("Key").filter(|r| r.len() == 1).unwrap_or(&raw);
    let raw = raw.strip_prefix("Digit").filter(|r| r.len() == 1).unwrap_or(raw);
    spaced(raw)
}

/// A gamepad button's name for the screen.
pub fn button_label(button: GamepadButton) -> String {
    match button {
        GamepadButton::South => "A / Cross".into(),
        GamepadButton::East => "B / Circle".into(),
        GamepadButton::West => "X / Square".into(),
        GamepadButton::North => "Y / Triangle".into(),
        GamepadButton::DPadUp => "D-pad Up".into(),
        GamepadButton::DPadDown => "D-pad Down".into(),
        GamepadButton::DPadLeft => "D-pad Left".into(),
        GamepadButton::DPadRight => "D-pad Right".into(),
        other => spaced(&format!("{other:?}")),
    }
}

fn press_label(press: Press) -> String {
    match press {
        Press::Key(k) => key_label(k),
        Press::Button(b) => button_label(b),
    }
}

/// "ControlRight" → "Control Right".
fn spaced(s: &str) -> String {
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && c.is_uppercase() {
            out.push(' ');
        }
        out.push(c);
    }
    out
}

impl<B: Buttonlike + Copy> ControlSet<B> {
    fn get(&self, c: Control) -> Option<B> {
        match c {
            Control::Up => Some(self.up),
            Control::Down => Some(self.down),
            Control::Left => Some(self.left),
            Control::Right => Some(self.right),
            Control::Act => Some(self.act),
            Control::AltAct => self.alt_act,
            Control::Dash => self.dash,
            Control::Emote => self.emote,
        }
    }

    fn set(&mut self, c: Control, input: Option<B>) {
        match (c, input) {
            (Control::AltAct, b) => self.alt_act = b,
            (Control::Emote, b) => self.emote = b,
            (_, None) => {}
            (Control::Up, Some(b)) => self.up = b,
            (Control::Down, Some(b)) => self.down = b,
            (Control::Left, Some(b)) => self.left = b,
            (Control::Right, Some(b)) => self.right = b,
            (Control::Act, Some(b)) => self.act = b,
            (Control::Dash, Some(b)) => self.dash = Some(b),
        }
    }

    /// The action inputs (for the menu's join and confirm).
    pub fn act_inputs(&self) -> Vec<B> {
        std::iter::once(self.act).chain(self.alt_act).collect()
    }

    /// The bound directions as a d-pad and the action inputs, added to `map`.
    fn bind_into(&self, map: InputMap<CookAction>) -> InputMap<CookAction> {
        let mut map = map
            .with_dual_axis(
                CookAction::Move,
                VirtualDPad::new(self.up, self.down, self.left, self.right),
            )
            .with(CookAction::Act, self.act);
        if let Some(b) = self.alt_act {
            map.insert(CookAction::Act, b);
        }
        if let Some(b) = self.dash {
            map.insert(CookAction::Dash, b);
        }
        if let Some(b) = self.emote {
            map.insert(CookAction::Emote, b);
        }
        map
    }
}

impl KeySet {
    fn map(&self) -> InputMap<CookAction> {
        self.bind_into(InputMap::default())
    }
}

impl PadSet {
    /// The stick always moves; the d-pad directions are the bound buttons.
    fn map(&self) -> InputMap<CookAction> {
        self.bind_into(InputMap::default().with_dual_axis(CookAction::Move, GamepadStick::LEFT))
    }
}

impl Bindings {
    fn keys(&self, slot: Slot) -> Option<&KeySet> {
        match slot {
            Slot::Keyboard1 => Some(&self.keyboard_1),
            Slot::Keyboard2 => Some(&self.keyboard_2),
            Slot::Gamepad => None,
        }
    }

    /// What `slot`'s `control` is bound to, if anything.
    pub fn get(&self, slot: Slot, control: Control) -> Option<Press> {
        match self.keys(slot) {
            Some(set) => set.get(control).map(Press::Key),
            None => self.gamepad.get(control).map(Press::Button),
        }
    }

    /// The binding's name for the screen ("-" for an empty second action).
    pub fn label(&self, slot: Slot, control: Control) -> String {
        self.get(slot, control).map_or_else(|| "-".to_string(), press_label)
    }

    /// A device's short description for the lineup ("W A S D + Space").
    pub fn device_label(&self, device: Device) -> String {
        let slot = match device {
            Device::KeyboardLeft => Slot::Keyboard1,
            Device::KeyboardRight => Slot::Keyboard2,
            Device::Gamepad(_) => return format!("Gamepad + {}", button_label(self.gamepad.act)),
        };
        let l = |c| self.label(slot, c);
        let dirs = [Control::Up, Control::Left, Control::Down, Control::Right].map(l);
        format!("{} + {}", dirs.join(" "), l(Control::Act))
    }

    /// The action map of one device.
    pub fn map(&self, device: Device) -> InputMap<CookAction> {
        match device {
            Device::KeyboardLeft => self.keyboard_1.map(),
            Device::KeyboardRight => self.keyboard_2.map(),
            Device::Gamepad(pad) => self.gamepad.map().with_gamepad(pad),
        }
    }

    /// Every key of both halves, and every gamepad binding, on one map (online: one cook per
    /// window, played with whichever device is at hand).
    pub fn solo_map(&self) -> InputMap<CookAction> {
        let mut map = self.keyboard_1.map();
        map.merge(&self.keyboard_2.map());
        map.merge(&self.gamepad.map());
        map
    }

    /// Bind `slot`'s `control` to `press` (`None` clears the second action). Refused, with the
    /// reason in words, when the press is the wrong kind of device for the slot, is reserved by
    /// the game, or already belongs to another control (the two keyboard halves share one
    /// keyboard, so a key can be in only one of them).
    pub fn rebind(
        &mut self,
        slot: Slot,
        control: Control,
        press: Option<Press>,
    ) -> Result<(), String> {
        let Some(press) = press else {
            if !control.clearable() {
                return Err(format!(
                    "{} needs a binding; only Action 2 and Emote can be cleared",
                    control.name()
                ));
            }
            match slot {
                Slot::Keyboard1 => self.keyboard_1.set(control, None),
                Slot::Keyboard2 => self.keyboard_2.set(control, None),
                Slot::Gamepad => self.gamepad.set(control, None),
            }
            return Ok(());
        };
        match (slot, press) {
            (Slot::Gamepad, Press::Key(k)) => {
                return Err(format!("{} is a key: the gamepad takes a button", key_label(k)));
            }
            (Slot::Keyboard1 | Slot::Keyboard2, Press::Button(b)) => {
                return Err(format!(
                    "{} is a gamepad button: {} takes a key",
                    button_label(b),
                    slot.name()
                ));
            }
            _ => {}
        }
        if let Some(why) = reserved(press) {
            return Err(format!("{} is reserved: {why}", press_label(press)));
        }
        for other_slot in Slot::ALL {
            for other in Control::ALL {
                if (other_slot, other) != (slot, control)
                    && self.get(other_slot, other) == Some(press)
                {
                    return Err(format!(
                        "{} is already {}'s {}",
                        press_label(press),
                        other_slot.name(),
                        other.name()
                    ));
                }
            }
        }
        match (slot, press) {
            (Slot::Keyboard1, Press::Key(k)) => self.keyboard_1.set(control, Some(k)),
            (Slot::Keyboard2, Press::Key(k)) => self.keyboard_2.set(control, Some(k)),
            (Slot::Gamepad, Press::Button(b)) => self.gamepad.set(control, Some(b)),
            _ => unreachable!("device kinds checked above"),
        }
        Ok(())
    }

    /// A file from before the second button existed: each slot without one gets its default
    /// (Left Shift, Right Shift, X / Square) unless that press is already bound to something
    /// else there, in which case it stays unbound ("-" in Settings) until the player binds it.
    pub fn fill_missing_dash(&mut self) {
        self.fill_missing(Control::Dash);
    }

    /// A file from before the emote button existed: each slot gets its default (Q, Slash,
    /// Y / Triangle) on the same terms as [`Bindings::fill_missing_dash`]. Only for such a
    /// file ([`parse_bindings`] asks): in a newer one, `emote: None` is a player's choice.
    pub fn fill_missing_emote(&mut self) {
        self.fill_missing(Control::Emote);
    }

    fn fill_missing(&mut self, control: Control) {
        let defaults = Bindings::default();
        for slot in Slot::ALL {
            if self.get(slot, control).is_some() {
                continue;
            }
            let Some(press) = defaults.get(slot, control) else { continue };
            let taken = Slot::ALL
                .into_iter()
                .any(|s| Control::ALL.into_iter().any(|c| self.get(s, c) == Some(press)));
            if !taken {
                self.rebind(slot, control, Some(press))
                    .expect("a default press that no control holds binds");
            }
        }
    }

    /// The first problem of a set of bindings (a hand-edited file): a reserved key or a key
    /// bound twice.
    pub fn check(&self) -> Result<(), String> {
        let mut seen: Vec<(Press, Slot, Control)> = Vec::new();
        for slot in Slot::ALL {
            for control in Control::ALL {
                let Some(press) = self.get(slot, control) else { continue };
                if let Some(why) = reserved(press) {
                    return Err(format!(
                        "{}'s {} is {}, which is reserved: {why}",
                        slot.name(),
                        control.name(),
                        press_label(press)
                    ));
                }
                if let Some((_, s, c)) = seen.iter().find(|(p, _, _)| *p == press) {
                    return Err(format!(
                        "{} is bound twice: {}'s {} and {}'s {}",
                        press_label(press),
                        s.name(),
                        c.name(),
                        slot.name(),
                        control.name()
                    ));
                }
                seen.push((press, slot, control));
            }
        }
        Ok(())
    }
}

fn reserved(press: Press) -> Option<&'static str> {
    match press {
        Press::Key(k) => RESERVED_KEYS.iter().find(|(r, _)| *r == k).map(|(_, why)| *why),
        Press::Button(b) => RESERVED_BUTTONS.iter().find(|(r, _)| *r == b).map(|(_, why)| *why),
    }
}

/// Why a config file was not used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// Not RON of the config's shape.
    #[error("CONFIG_MALFORMED: {file}:{line}:{col}: {message}")]
    Malformed { file: String, line: usize, col: usize, message: String },
    /// Well-formed, but binds a reserved key or one key twice.
    #[error("CONFIG_CONFLICT: {file}: {reason}")]
    Conflict { file: String, reason: String },
    /// Well-formed, but an option's value is out of its range (`field` names it).
    #[error("CONFIG_BAD_VALUE: {file}: {field}: {reason}")]
    BadValue { file: String, field: String, reason: String },
    /// The file exists but cannot be read.
    #[error("CONFIG_UNREADABLE: {file}: {message}")]
    Unreadable { file: String, message: String },
}

impl ConfigError {
    /// The error's name, as it opens the message.
    pub fn code(&self) -> &'static str {
        match self {
            ConfigError::Malformed { .. } => "CONFIG_MALFORMED",
            ConfigError::Conflict { .. } => "CONFIG_CONFLICT",
            ConfigError::BadValue { .. } => "CONFIG_BAD_VALUE",
            ConfigError::Unreadable { .. } => "CONFIG_UNREADABLE",
        }
    }
}

/// Parse a config file's text (`file` names it in errors).
pub fn parse_bindings(text: &str, file: &str) -> Result<Bindings, ConfigError> {
    let mut bindings: Bindings = ron::from_str(text).map_err(|e| ConfigError::Malformed {
        file: file.to_string(),
        line: e.span.start.line,
        col: e.span.start.col,
        message: e.code.to_string(),
    })?;
    bindings.accessibility.check().map_err(|(field, reason)| ConfigError::BadValue {
        file: file.to_string(),
        field: format!("accessibility.{field}"),
        reason,
    })?;
    bindings.fill_missing_dash();
    // Every file the game wrote since the emote button has an `emote:` line per device; one
    // without any is older, and a `None` in a newer one was cleared on purpose.
    if !text.contains("emote:") {
        bindings.fill_missing_emote();
    }
    bindings.check().map_err(|reason| ConfigError::Conflict { file: file.to_string(), reason })?;
    Ok(bindings)
}

/// The text of a config file.
pub fn bindings_text(bindings: &Bindings) -> String {
    let body = ron::ser::to_string_pretty(bindings, ron::ser::PrettyConfig::new())
        .expect("bindings are plain data");
    format!(
        "// Undercooked key bindings and accessibility options: edit here or in Settings (the game\n\
         // rewrites this file).\n\
         // A file that does not parse is kept as config.ron.bad and the defaults are used.\n{body}\n"
    )
}

/// Where the config file lives: `config.ron` beside the save file.
pub fn config_path() -> Option<PathBuf> {
    Some(save_path()?.with_file_name("config.ron"))
}

/// The copy a refused config is kept as.
pub fn bad_copy_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".bad");
    path.with_file_name(name)
}

/// The bindings in `path`: the defaults when there is no file; the defaults and the reason
/// when there is one the game cannot use — after copying it to `config.ron.bad`, since the next
/// save from Settings overwrites `config.ron`.
pub fn load_bindings(path: &Path) -> (Bindings, Option<ConfigError>) {
    let file = path.display().to_string();
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return (Bindings::default(), None),
        Err(e) => {
            let error = ConfigError::Unreadable { file, message: e.to_string() };
            return (Bindings::default(), Some(error));
        }
    };
    match parse_bindings(&text, &file) {
        Ok(b) => (b, None),
        Err(e) => {
            if let Err(copy) = std::fs::copy(path, bad_copy_path(path)) {
                warn!("cannot keep a copy of the refused config {file}: {copy}");
            }
            (Bindings::default(), Some(e))
        }
    }
}

/// Write `bindings` to `path` atomically (a crash mid-write leaves the old file).
pub fn store_bindings(path: &Path, bindings: &Bindings) -> std::io::Result<()> {
    write_atomic(path, bindings_text(bindings).as_bytes())
}

/// Where this run reads and writes its config (`None`: nowhere, e.g. no home folder).
#[derive(Resource, Clone, Debug)]
pub struct ConfigFile(pub Option<PathBuf>);

/// Why the config file was refused at start, for the Settings screen.
#[derive(Resource, Clone, Debug, Default)]
pub struct ConfigWarning(pub Option<String>);

/// The most characters of a refusal the Settings screen shows: with the pointer to the log,
/// 120 characters of the 16 px UI font (~9.6 px each), one line inside a 1280 px window.
const WARNING_CHARS: usize = 83;

/// The Settings screen's line for a refusal: one line, cut at [`WARNING_CHARS`] with a pointer
/// to the log, which has it whole. A RON message (a path, then the parser's words and a note
/// on the kept copy) wrapped onto several lines and pushed the screen's title off the top of
/// a 1280×720 window.
pub fn warning_line(full: &str) -> String {
    let one = full.split_whitespace().collect::<Vec<_>>().join(" ");
    if one.chars().count() <= WARNING_CHARS {
        return one;
    }
    let cut: String = one.chars().take(WARNING_CHARS).collect();
    // Three dots, not '…': the UI font has no glyph for it.
    format!("{}... (the whole message is in the log)", cut.trim_end())
}
