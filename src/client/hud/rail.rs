//! The ticket rail: every open order as a ticket across the top of the window, in arrival
//! order, with its dish and ingredient icons and a timer bar that shifts from green through
//! amber to red as it runs out. A new ticket slides in from the right; a served one slides up
//! and away; a missed one flashes red before it drops. Read from `RoomView`, `RoomClock` and
//! the `RoomTick` facts (which order was served, which missed). A versus round has two rails,
//! one lane each, tagged with its team's letter and colour (A above B).

use crate::client::settings::access::Accessibility;
use crate::client::settings::palette::{Palette, PaletteKind};
use crate::client::state::{AppState, BackdropRoom};
use crate::client::theme::{
    CARD_TEXT, DEADLINE_LATE, DEADLINE_OK, DEADLINE_SOON, DEADLINE_TRACK, GOLD, ICON_PAN_RIM,
    ICON_TEXT, INK, PANEL, PLATE_ICON, TEAM_COLORS, TICKET_MISSED, TICKET_SERVED, ingredient_color,
    label, part_color,
};
use crate::project::RoomTick;
use crate::protocol::{OrderView, RoomClock, RoomView};
use crate::schedule::FrameSystems;
use crate::sim::events::SimEvent;
use crate::sim::kinds::{Form, Ingredient};
use crate::sim::versus::Team;
use bevy::color::Mix;
use bevy::prelude::*;

/// Seconds a new ticket takes to slide in, a served one to leave, a missed one to flash out.
const ENTER_SECS: f32 = 0.35;
const SERVED_SECS: f32 = 0.6;
const MISSED_SECS: f32 = 1.0;

/// How many recent outcomes are remembered (far more than a rail ever holds).
const OUTCOMES_KEPT: usize = 64;

/// The ticket rail's root node (top left).
#[derive(Component)]
pub struct RailRoot;

/// One lane of the rail: a co-op round's only one is A's (its orders have no team); a versus
/// round fills both.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
struct RailLane(Team);

/// A lane's team tag ("A" / "B"), shown in a versus round only.
#[derive(Component, Clone, Copy, Debug)]
struct LaneTag;

/// How a ticket left the rail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Leave {
    Served,
    Missed,
    /// Gone without a fact seen (a restart): removed at once.
    Gone,
}

/// One ticket: its order, how long it has been up, and how it is leaving.
#[derive(Component, Clone, Copy, Debug)]
struct Ticket {
    /// The room it belongs to: a restarted round numbers its orders afresh.
    room: Entity,
    id: u32,
    age: f32,
    leaving: Option<(Leave, f32)>,
}

/// A ticket's timer bar.
#[derive(Component, Clone, Copy, Debug)]
struct TimerFill(u32);

/// The orders recently served and missed, by id (from the tick facts).
#[derive(Resource, Default, Debug)]
struct Outcomes {
    served: Vec<(Entity, u32)>,
    missed: Vec<(Entity, u32)>,
}

/// The rail at the top of the round's window.
pub struct RailPlugin;

impl Plugin for RailPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Outcomes>();
        app.add_systems(OnEnter(AppState::Playing), spawn_rail);
        app.add_systems(
            Update,
            (note_outcomes, sync_tickets, show_lane_tags, run_timers, animate_tickets)
                .chain()
                .in_set(FrameSystems::Draw),
        );
    }
}

fn spawn_rail(mut commands: Commands, mut outcomes: ResMut<Outcomes>) {
    *outcomes = Outcomes::default();
    commands
        .spawn((
            RailRoot,
            DespawnOnExit(AppState::Playing),
            Node {
                position_type: PositionType::Absolute,
                top: px(8),
                left: px(8),
                row_gap: px(6),
                flex_direction: FlexDirection::Column,
                align_items: AlignItems::Start,
                ..default()
            },
        ))
        .with_children(|rail| {
            for team in Team::BOTH {
                rail.spawn((
                    RailLane(team),
                    Node {
                        column_gap: px(8),
                        flex_direction: FlexDirection::Row,
                        align_items: AlignItems::Start,
                        ..default()
                    },
                ))
                .with_children(|lane| {
                    lane.spawn((
                        LaneTag,
                        label(team.as_str().to_uppercase(), 28.0, CARD_TEXT),
                        BackgroundColor(TEAM_COLORS[team.index()]),
                        Node {
                            display: Display::None,
                            padding: UiRect::axes(px(10), px(4)),
                            border_radius: BorderRadius::all(px(8)),
                            align_self: AlignSelf::Center,
                            ..default()
                        },
                    ));
                });
            }
        });
}

/// The lanes' team tags show while the round is a versus round.
fn show_lane_tags(
    rooms: Query<&RoomView, Without<BackdropRoom>>,
    mut tags: Query<&mut Node, With<LaneTag>>,
) {
    let versus = rooms.iter().next().is_some_and(|v| v.versus.is_some());
    let want = if versus { Display::Flex } else { Display::None };
    for mut node in &mut tags {
        if node.display != want {
            node.display = want;
        }
    }
}

fn remember(list: &mut Vec<(Entity, u32)>, id: (Entity, u32)) {
    list.push(id);
    if list.len() > OUTCOMES_KEPT {
        list.remove(0);
    }
}

/// Which orders were served and which missed, from the round's tick facts.
fn note_outcomes(
    mut ticks: MessageReader<RoomTick>,
    backdrops: Query<(), With<BackdropRoom>>,
    mut outcomes: ResMut<Outcomes>,
) {
    for tick in ticks.read().filter(|t| !backdrops.contains(t.room)) {
        for event in &tick.events {
            match event {
                SimEvent::Served { order_id, .. } => {
                    remember(&mut outcomes.served, (tick.room, *order_id))
                }
                SimEvent::OrderMissed { order_id, .. } => {
                    remember(&mut outcomes.missed, (tick.room, *order_id))
                }
                _ => {}
            }
        }
    }
}

/// New orders get a ticket at the end of the rail (arrival order); a ticket whose order has
/// gone starts leaving, the way its fact says.
fn sync_tickets(
    mut commands: Commands,
    rooms: Query<(Entity, &RoomView, Option<&RoomClock>), Without<BackdropRoom>>,
    lanes: Query<(Entity, &RailLane)>,
    mut tickets: Query<&mut Ticket>,
    outcomes: Res<Outcomes>,
) {
    let lane_of = |team: Team| lanes.iter().find(|(_, l)| l.0 == team).map(|(e, _)| e);
    let Some((room, view, clock)) = rooms.iter().next() else { return };
    let tick = clock.map_or(0, |c| c.tick);
    let mut shown = Vec::new();
    for mut t in &mut tickets {
        let live = t.room == room && view.orders.iter().any(|o| o.id == t.id);
        if t.room == room {
            shown.push(t.id);
        }
        if t.leaving.is_none() && !live {
            let key = (t.room, t.id);
            let how = if outcomes.served.contains(&key) {
                Leave::Served
            } else if outcomes.missed.contains(&key) {
                Leave::Missed
            } else {
                Leave::Gone
            };
            t.leaving = Some((how, 0.0));
        }
    }
    for order in view.orders.iter().filter(|o| !shown.contains(&o.id)) {
        // A co-op order (no team) goes on the first lane.
        let Some(lane) = lane_of(order.team.unwrap_or(Team::A)) else { return };
        let ticket = spawn_ticket(&mut commands, room, order, tick);
        commands.entity(lane).add_child(ticket);
    }
}

/// The timer bar's colour at fraction `f` of its time left in `palette`: the colour-blind-safe
/// one steps through its own three (`PaletteKind::timer`), the standard one blends green,
/// through amber, to red.
fn palette_timer_color(palette: PaletteKind, f: f32) -> Color {
    let pct = (f.clamp(0.0, 1.0) * 100.0) as u32;
    palette.timer(pct).unwrap_or_else(|| timer_color(f))
}

/// The standard timer bar's colour at fraction `f` of its time left: green, through amber, to
/// red.
fn timer_color(f: f32) -> Color {
    let f = f.clamp(0.0, 1.0);
    let (a, b, k) = if f > 0.5 {
        (DEADLINE_SOON, DEADLINE_OK, (f - 0.5) / 0.5)
    } else {
        (DEADLINE_LATE, DEADLINE_SOON, f / 0.5)
    };
    a.mix(&b, k)
}

/// Each frame: timer bars against the room clock.
fn run_timers(
    palette: Option<Res<Palette>>,
    rooms: Query<(&RoomView, Option<&RoomClock>), Without<BackdropRoom>>,
    mut fills: Query<(&TimerFill, &mut Node, &mut BackgroundColor)>,
) {
    let Some((view, clock)) = rooms.iter().next() else { return };
    let tick = clock.map_or(0, |c| c.tick);
    for (fill, mut node, mut bg) in &mut fills {
        if let Some(o) = view.orders.iter().find(|o| o.id == fill.0) {
            let f = o.ticks_left(tick) as f32 / o.ticks_total.max(1) as f32;
            node.width = percent(100.0 * f.clamp(0.0, 1.0));
            bg.0 =
                palette_timer_color(palette.as_deref().map_or(PaletteKind::Standard, |p| p.0), f);
        }
    }
}

/// Each frame: tickets slide in; served ones slide up and away, missed ones flash red, and
/// both go when their time is up.
fn animate_tickets(
    time: Res<Time<Real>>,
    access: Option<Res<Accessibility>>,
    mut commands: Commands,
    mut tickets: Query<(Entity, &mut Ticket, &mut UiTransform, &mut BackgroundColor)>,
) {
    let dt = time.delta_secs();
    // Reduced motion (Settings): a missed ticket turns red and stays red, no flashing.
    let steady = access.is_some_and(|a| a.reduced_motion);
    for (e, mut t, mut ui, mut bg) in &mut tickets {
        t.age += dt;
        let Some((how, since)) = t.leaving else {
            let k = (t.age / ENTER_SECS).min(1.0);
            ui.translation = Val2::px(240.0 * (1.0 - k) * (1.0 - k), 0.0);
            continue;
        };
        let since = since + dt;
        t.leaving = Some((how, since));
        match how {
            Leave::Gone => {
                commands.entity(e).despawn();
            }
            Leave::Served if since >= SERVED_SECS => {
                commands.entity(e).despawn();
            }
            Leave::Served => {
                let k = since / SERVED_SECS;
                bg.0 = TICKET_SERVED;
                ui.translation = Val2::px(0.0, -160.0 * k * k);
                ui.scale = Vec2::splat(1.0 - 0.3 * k);
            }
            Leave::Missed if since >= MISSED_SECS => {
                commands.entity(e).despawn();
            }
            Leave::Missed => {
                let flash_on = steady || (since * 7.0).fract() < 0.5;
                bg.0 = if flash_on { TICKET_MISSED } else { PANEL };
                // The last third: it drops and shrinks away.
                let k = ((since / MISSED_SECS - 0.66) / 0.34).max(0.0);
                ui.translation = Val2::px(0.0, 60.0 * k);
                ui.scale = Vec2::splat(1.0 - 0.5 * k);
            }
        }
    }
}

/// Two letters naming an ingredient on its icon, so the icon never relies on colour alone.
fn initials(i: Ingredient) -> String {
    i.name().chars().take(2).collect()
}

/// The word under an ingredient icon for its form.
fn form_word(f: Form) -> &'static str {
    match f {
        Form::Raw => "raw",
        Form::Chopped => "chop",
        Form::Cooked => "fry",
        Form::Boiled => "boil",
        Form::Burnt => "burnt",
    }
}

/// One ingredient icon: its colour, two letters, and a shape by form — whole food round,
/// chopped food square, fried food square in a dark pan rim, boiled food round in a white
/// bowl rim — with the form's word under it.
fn spawn_icon(p: &mut ChildSpawnerCommands, i: Ingredient, f: Form) {
    let (radius, rim, rim_px) = match f {
        Form::Raw => (BorderRadius::MAX, Color::NONE, 0),
        Form::Chopped => (BorderRadius::all(px(3)), Color::NONE, 0),
        Form::Cooked => (BorderRadius::all(px(5)), ICON_PAN_RIM, 3),
        Form::Boiled => (BorderRadius::MAX, Color::WHITE, 3),
        Form::Burnt => (BorderRadius::all(px(2)), Color::BLACK, 2),
    };
    p.spawn(Node {
        flex_direction: FlexDirection::Column,
        align_items: AlignItems::Center,
        row_gap: px(1),
        ..default()
    })
    .with_children(|col| {
        col.spawn((
            Node {
                width: px(30),
                height: px(30),
                border: UiRect::all(px(rim_px)),
                border_radius: radius,
                justify_content: JustifyContent::Center,
                align_items: AlignItems::Center,
                ..default()
            },
            BackgroundColor(ingredient_color(i)),
            BorderColor::all(rim),
        ))
        .with_child(label(initials(i), 13.0, ICON_TEXT));
        col.spawn(label(form_word(f), 11.0, CARD_TEXT));
    });
}

/// The dish icon: a plate with a dot of each part's colour on it.
fn spawn_dish_icon(p: &mut ChildSpawnerCommands, order: &OrderView) {
    p.spawn((
        Node {
            width: px(26),
            height: px(26),
            border: UiRect::all(px(2)),
            border_radius: BorderRadius::MAX,
            justify_content: JustifyContent::Center,
            align_items: AlignItems::Center,
            column_gap: px(1),
            ..default()
        },
        BackgroundColor(Color::WHITE),
        BorderColor::all(PLATE_ICON),
    ))
    .with_children(|plate| {
        for (i, f) in order.parts.iter().take(4) {
            plate.spawn((
                Node { width: px(6), height: px(6), border_radius: BorderRadius::MAX, ..default() },
                BackgroundColor(part_color(*i, *f)),
            ));
        }
    });
}

/// A ticket: dish icon, name and value; the ingredient icons; the timer bar.
fn spawn_ticket(commands: &mut Commands, room: Entity, order: &OrderView, tick: u32) -> Entity {
    let f = order.ticks_left(tick) as f32 / order.ticks_total.max(1) as f32;
    commands
        .spawn((
            Ticket { room, id: order.id, age: 0.0, leaving: None },
            Node {
                min_width: px(132),
                padding: UiRect::all(px(7)),
                flex_direction: FlexDirection::Column,
                row_gap: px(5),
                border_radius: BorderRadius::all(px(8)),
                ..default()
            },
            BackgroundColor(PANEL),
            UiTransform::from_translation(Val2::px(240.0, 0.0)),
        ))
        .with_children(|card| {
            card.spawn(Node { column_gap: px(6), align_items: AlignItems::Center, ..default() })
                .with_children(|row| {
                    spawn_dish_icon(row, order);
                    row.spawn(label(order.name.clone(), 17.0, INK));
                    row.spawn(Node { flex_grow: 1.0, ..default() });
                    row.spawn(label(format!("{}", order.value), 15.0, GOLD));
                });
            card.spawn(Node { column_gap: px(5), ..default() }).with_children(|row| {
                for (i, f) in &order.parts {
                    spawn_icon(row, *i, *f);
                }
            });
            card.spawn((
                Node {
                    height: px(8),
                    width: percent(100),
                    border_radius: BorderRadius::all(px(4)),
                    ..default()
                },
                BackgroundColor(DEADLINE_TRACK),
            ))
            .with_child((
                TimerFill(order.id),
                Node {
                    height: percent(100),
                    width: percent(100.0 * f.clamp(0.0, 1.0)),
                    border_radius: BorderRadius::all(px(4)),
                    ..default()
                },
                BackgroundColor(timer_color(f)),
            ));
        })
        .id()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_timer_runs_green_to_amber_to_red() {
        assert_eq!(timer_color(1.0).to_srgba(), DEADLINE_OK.to_srgba());
        assert_eq!(timer_color(0.5).to_srgba(), DEADLINE_SOON.to_srgba());
        assert_eq!(timer_color(0.0).to_srgba(), DEADLINE_LATE.to_srgba());
        // Out of range clamps rather than extrapolating past the ends.
        assert_eq!(timer_color(-3.0).to_srgba(), DEADLINE_LATE.to_srgba());
    }

    #[test]
    fn the_colour_blind_safe_timer_uses_its_own_three_colours() {
        let safe = PaletteKind::ColourBlindSafe;
        for f in [1.0, 0.6, 0.3, 0.1, 0.0] {
            let pct = (f * 100.0) as u32;
            assert_eq!(palette_timer_color(safe, f), safe.timer(pct).unwrap());
            assert_eq!(palette_timer_color(PaletteKind::Standard, f), timer_color(f));
        }
        assert_ne!(palette_timer_color(safe, 1.0), palette_timer_color(safe, 0.0));
    }

    #[test]
    fn every_ingredient_icon_has_distinct_letters() {
        let mut seen: Vec<String> = Ingredient::ALL.iter().map(|i| initials(*i)).collect();
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), Ingredient::ALL.len());
    }
}
