//! The editor's words: the file's line above the grid, and beside it the tools (the current
//! one marked), the validator's problems numbered with code, cell and message, the last save's
//! outcome and the keys; each problem's number also sits on its cell.

use super::doc::EditorDoc;
use super::layout::{GridLayout, PANEL_PX};
use crate::client::state::AppState;
use crate::client::theme::{DIM, GOLD, INK, PLAIN, font};
use crate::level::edit::hazards::cells_of;
use crate::level::edit::{Problem, Tool};
use bevy::prelude::*;
use bevy::window::PrimaryWindow;

/// The panel's texts, each rewritten when what it shows changes.
#[derive(Component, Clone, Copy, PartialEq, Eq)]
pub(super) enum PanelText {
    Header,
    Tools,
    Problems,
    Status,
}

/// A problem's number on its cell.
#[derive(Component)]
pub(super) struct CellTag;

const BACK: Color = Color::srgba(0.06, 0.07, 0.1, 0.92);
/// Problems listed in the panel; the rest are counted.
const LISTED: usize = 12;
const KEYS: &str = "Arrows/WASD or mouse: cursor   Space/click: paint   Del/right-click: erase\n\
Q/E: tool   Ctrl+Z undo   Ctrl+Y redo   Ctrl+S save   Esc: menu\n\
Shift+arrow: add a line at that edge   Alt+arrow: remove it\n\
Hazards: N new zone/track   Shift+Del remove the hazard here\n\
Tab: settings   P: Playtest (Esc back)   B: bots beside you   Ctrl+P: publish\n\
Pad: d-pad/stick, A paint, B erase, LB/RB tool, X undo, Y redo, Select save, Start Playtest,\n\
LT+d-pad add a line, RT+d-pad remove one, L3 new hazard, RT+B remove the hazard here,\n\
R3 settings, LT+Start publish, LT+Select menu";

pub(super) fn spawn_panel(mut commands: Commands) {
    // The texts are new and empty: what they showed before is forgotten, so the first frame
    // writes them (on every entry: from the chooser, and back from a Playtest).
    commands.insert_resource(Shown::default());
    let scope = DespawnOnExit(AppState::Editor);
    commands.spawn((
        Node { position_type: PositionType::Absolute, left: px(16.0), top: px(12.0), ..default() },
        Text::new(""),
        font(18.0),
        TextColor(GOLD),
        PanelText::Header,
        scope.clone(),
    ));
    let column = Node {
        position_type: PositionType::Absolute,
        right: px(0.0),
        top: px(0.0),
        bottom: px(0.0),
        width: px(PANEL_PX),
        flex_direction: FlexDirection::Column,
        padding: UiRect::all(px(12.0)),
        row_gap: px(10.0),
        ..default()
    };
    commands.spawn((column, BackgroundColor(BACK), scope)).with_children(|p| {
        for (which, size, color) in [
            (PanelText::Tools, 13.0, PLAIN),
            (PanelText::Problems, 13.0, INK),
            (PanelText::Status, 13.0, GOLD),
        ] {
            p.spawn((Text::new(""), font(size), TextColor(color), which));
        }
        p.spawn((Text::new(KEYS), font(11.0), TextColor(DIM)));
    });
}

/// What the panel last showed: the kitchen's revision, the tool, the hazard painted, the
/// cursor, the status, the window.
#[derive(Resource, Default, PartialEq)]
pub(super) struct Shown(Option<(u64, usize, Option<usize>, (usize, usize), String, u32, u32)>);

pub(super) fn paint_panel(
    ed: Res<EditorDoc>,
    windows: Query<&Window, With<PrimaryWindow>>,
    mut texts: Query<(&PanelText, &mut Text)>,
    tags: Query<Entity, With<CellTag>>,
    mut shown: ResMut<Shown>,
    mut commands: Commands,
) {
    let Ok(window) = windows.single() else { return };
    let now = Shown(Some((
        ed.revision,
        ed.brush,
        ed.painting,
        ed.cursor,
        ed.status.clone(),
        window.width().to_bits(),
        window.height().to_bits(),
    )));
    if *shown == now {
        return;
    }
    *shown = now;
    for (which, mut text) in &mut texts {
        let line = header(&ed);
        if *which == PanelText::Header && text.0 != line {
            // Said on stdout too: the tests see the editor drawn on every entry.
            println!("editor: showing {line}");
        }
        text.0 = match which {
            PanelText::Header => line,
            PanelText::Tools => tools(&ed),
            PanelText::Problems => problems(&ed),
            PanelText::Status => ed.status.clone(),
        };
    }
    for e in &tags {
        commands.entity(e).despawn();
    }
    let layout = GridLayout::fit(ed.doc.size(), Vec2::new(window.width(), window.height()));
    for (i, p) in ed.doc.problems().iter().enumerate() {
        let Some(cell) = p.cell else { continue };
        let at = layout.corner_of(cell);
        commands.spawn((
            Node {
                position_type: PositionType::Absolute,
                left: px(at.x + 2.0),
                top: px(at.y + 2.0),
                padding: UiRect::horizontal(px(3.0)),
                ..default()
            },
            BackgroundColor(Color::srgb(0.6, 0.0, 0.0)),
            Text::new(format!("{}", i + 1)),
            font(12.0),
            TextColor(Color::WHITE),
            CellTag,
            DespawnOnExit(AppState::Editor),
        ));
    }
}

fn header(ed: &EditorDoc) -> String {
    let (w, h) = ed.doc.size();
    let file = ed.doc.file();
    let verdict = if ed.doc.problems().is_empty() { "valid" } else { "not valid yet" };
    let name = ed
        .path
        .file_name()
        .map_or_else(|| ed.path.display().to_string(), |n| n.to_string_lossy().into_owned());
    format!("Kitchen workshop - {name} - \"{}\" ({w}x{h}) - {verdict}", file.name)
}

fn tools(ed: &EditorDoc) -> String {
    let palette = Tool::palette();
    let current = ed.brush % palette.len();
    let mut s = format!(
        "Tool: {}   (cursor {:?})   Playtest bots: {}\n",
        palette[current].label(),
        ed.cursor,
        ed.bots
    );
    let names: Vec<String> = palette
        .iter()
        .enumerate()
        .map(|(i, b)| if i == current { format!("[{}]", b.label()) } else { b.label() })
        .collect();
    s.push_str(&names.join(" | "));
    s.push_str(&hazards(ed));
    s
}

/// The kitchen's hazards, numbered as on the grid and in the settings panel, the one being
/// painted marked.
fn hazards(ed: &EditorDoc) -> String {
    let all = &ed.doc.file().hazards;
    if all.is_empty() {
        return "\nHazards: none".into();
    }
    let each: Vec<String> = all
        .iter()
        .enumerate()
        .map(|(i, h)| {
            let n = cells_of(h).len();
            let what = if n == 0 { "on".to_string() } else { format!("{n} cell(s)") };
            let mark = if ed.painting == Some(i) { " *painting*" } else { "" };
            format!("{} {} ({what}){mark}", i + 1, h.name())
        })
        .collect();
    format!("\nHazards: {}", each.join(", "))
}

/// The problems in two groups: those of the whole kitchen first (no cell shows them), then
/// those on a cell, each with the number its cell carries.
fn problems(ed: &EditorDoc) -> String {
    let all = ed.doc.problems();
    if all.is_empty() {
        return "No problems: the kitchen is valid.".into();
    }
    let numbered: Vec<(usize, &Problem)> =
        all.iter().enumerate().map(|(i, p)| (i + 1, p)).collect();
    let (whole, placed): (Vec<_>, Vec<_>) =
        numbered.into_iter().partition(|(_, p)| p.cell.is_none());
    let mut s = format!("{} problem(s):", all.len());
    let mut listed = 0;
    for (heading, group) in [("The whole kitchen:", whole), ("On the grid:", placed)] {
        if group.is_empty() || listed >= LISTED {
            continue;
        }
        s.push_str(&format!("\n{heading}"));
        for (n, p) in group.iter().take(LISTED - listed) {
            let at = p.cell.map(|(x, y)| format!(" ({x}, {y})")).unwrap_or_default();
            s.push_str(&format!("\n{n}. {}{at}: {}", p.code, p.message));
            listed += 1;
        }
    }
    if all.len() > listed {
        s.push_str(&format!("\n... and {} more", all.len() - listed));
    }
    s
}
