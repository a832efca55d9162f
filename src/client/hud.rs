//! The HUD (bevy UI): order rail, score / target, streak, clock, countdown and pause banners,
//! name tags and nudges that follow cooks, and the round-end screen. Reads views and
//! `RoomTick` messages only.

use super::kitchen::KitchenCamera;
use super::local::{LocalGame, RoundPhase};
use super::theme::{
    CARD_TEXT, DEADLINE_LATE, DEADLINE_OK, DEADLINE_SOON, DEADLINE_TRACK, GOLD, HINT, INK, LOST,
    NAME_TAG, NUDGE, NUDGE_TEXT, PANEL, ROUND_END_PANEL, STAR_UNLIT, WON, label, part_color,
    seat_color,
};
use super::{AppState, Online, PresentSystems};
use crate::project::RoomTick;
use crate::protocol::{CookView, InRoom, OrderView, RoomClock, RoomView};
use crate::sim::events::SimEvent;
use crate::sim::units::TICK_HZ;
use crate::sim::verdict::Verdict;
use bevy::prelude::*;

/// Seconds a nudge stays up.
pub const NUDGE_SECS: f32 = 1.6;

/// The font lives in `theme`; `perf`, `online` and the web build still reach it here.
pub use super::theme::font;

/// A short refusal shown next to a cook ("station busy").
#[derive(Component, Clone, Debug)]
pub struct Nudge {
    pub room: Entity,
    pub seat: u8,
    pub text: String,
    /// Seconds left.
    pub ttl: f32,
}

/// A label that follows a cook (by its view entity).
#[derive(Component, Clone, Copy, Debug)]
struct NameTag(Entity);

#[derive(Component)]
struct RailRoot;
#[derive(Component)]
struct OrderCard(u32);
#[derive(Component)]
struct DeadlineFill(u32);
#[derive(Component)]
struct ScoreText;
#[derive(Component)]
struct ClockText;
#[derive(Component)]
struct Banner;

/// The level's name and one-line hint, shown under the countdown before the round.
#[derive(Component)]
struct HintText;
#[derive(Component)]
struct RoundEndPanel;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(OnEnter(AppState::Playing), spawn_hud);
    app.add_observer(tag_cook);
    app.add_systems(
        Update,
        (
            spawn_nudges,
            age_nudges,
            follow_cooks,
            update_rail,
            update_scoreboard,
            update_clock,
            update_banner,
            show_round_end,
        )
            .chain()
            .after(super::interp::blend_cooks)
            .in_set(PresentSystems),
    );
}

fn spawn_hud(mut commands: Commands) {
    let scope = DespawnOnExit(AppState::Playing);
    commands.spawn((
        RailRoot,
        scope.clone(),
        Node {
            position_type: PositionType::Absolute,
            top: px(8),
            left: px(8),
            column_gap: px(8),
            flex_direction: FlexDirection::Row,
            ..default()
        },
    ));
    commands
        .spawn((
            scope.clone(),
            Node {
                position_type: PositionType::Absolute,
                top: px(8),
                right: px(8),
                padding: UiRect::all(px(10)),
                flex_direction: FlexDirection::Column,
                align_items: AlignItems::End,
                border_radius: BorderRadius::all(px(8)),
                ..default()
            },
            BackgroundColor(PANEL),
        ))
        .with_children(|p| {
            p.spawn((ClockText, label("3:00", 30.0, INK)));
            p.spawn((ScoreText, label("0 / 0", 20.0, GOLD)));
        });
    commands.spawn((
        Banner,
        scope.clone(),
        label("", 72.0, GOLD),
        TextLayout::justify(Justify::Center),
        Node {
            position_type: PositionType::Absolute,
            width: percent(100),
            top: percent(40),
            justify_content: JustifyContent::Center,
            ..default()
        },
    ));
    commands.spawn((
        HintText,
        scope.clone(),
        label("", 22.0, INK),
        TextLayout::justify(Justify::Center),
        Node {
            position_type: PositionType::Absolute,
            width: percent(100),
            top: percent(62),
            justify_content: JustifyContent::Center,
            ..default()
        },
    ));
    commands.spawn((
        RoundEndPanel,
        scope,
        Node {
            display: Display::None,
            position_type: PositionType::Absolute,
            left: percent(25),
            width: percent(50),
            top: percent(18),
            padding: UiRect::all(px(20)),
            flex_direction: FlexDirection::Column,
            align_items: AlignItems::Center,
            row_gap: px(8),
            border_radius: BorderRadius::all(px(12)),
            ..default()
        },
        BackgroundColor(ROUND_END_PANEL),
    ));
}

/// A cook appeared: its name tag, in its seat colour.
fn tag_cook(add: On<Add, CookView>, cooks: Query<&CookView>, mut commands: Commands) {
    let Ok(cook) = cooks.get(add.entity) else { return };
    commands.spawn((
        NameTag(add.entity),
        label(cook.name.clone(), 14.0, seat_color(cook.seat)),
        BackgroundColor(NAME_TAG),
        Node {
            position_type: PositionType::Absolute,
            padding: UiRect::axes(px(5), px(1)),
            border_radius: BorderRadius::all(px(5)),
            ..default()
        },
        Visibility::Hidden,
    ));
}

/// One nudge per `Denied` fact, next to the refused cook (a newer one replaces an older one).
pub fn spawn_nudges(
    mut commands: Commands,
    mut ticks: MessageReader<RoomTick>,
    existing: Query<(Entity, &Nudge)>,
) {
    for tick in ticks.read() {
        for event in &tick.events {
            let SimEvent::Denied { seat, reason, .. } = event else { continue };
            for (e, n) in &existing {
                if n.room == tick.room && n.seat == *seat {
                    commands.entity(e).despawn();
                }
            }
            let text = reason.nudge().to_string();
            commands.spawn((
                Nudge { room: tick.room, seat: *seat, text: text.clone(), ttl: NUDGE_SECS },
                label(text, 18.0, NUDGE_TEXT),
                BackgroundColor(NUDGE),
                Node {
                    position_type: PositionType::Absolute,
                    padding: UiRect::axes(px(6), px(2)),
                    border_radius: BorderRadius::all(px(6)),
                    ..default()
                },
                Visibility::Hidden,
            ));
        }
    }
}

fn age_nudges(
    time: Res<Time<Real>>,
    mut commands: Commands,
    mut nudges: Query<(Entity, &mut Nudge)>,
) {
    for (e, mut n) in &mut nudges {
        n.ttl -= time.delta_secs();
        if n.ttl <= 0.0 {
            commands.entity(e).despawn();
        }
    }
}

/// Name tags under and nudges over their cooks, projected from the world to the window.
fn follow_cooks(
    mut commands: Commands,
    camera: Query<(&Camera, &GlobalTransform), With<KitchenCamera>>,
    cooks: Query<(Entity, &CookView, &InRoom, &GlobalTransform)>,
    mut tags: Query<(Entity, &NameTag, &mut Node, &mut Visibility, &ComputedNode), Without<Nudge>>,
    mut nudges: Query<(&Nudge, &mut Node, &mut Visibility, &ComputedNode), Without<NameTag>>,
) {
    let Ok((cam, cam_tf)) = camera.single() else { return };
    let screen = |p: Vec3| cam.world_to_viewport(cam_tf, p).ok();
    for (e, tag, mut node, mut vis, size) in &mut tags {
        let Ok((_, _, _, tf)) = cooks.get(tag.0) else {
            commands.entity(e).despawn();
            continue;
        };
        if let Some(s) = screen(tf.translation() - Vec3::Y * 0.05) {
            let w = size.size().x * size.inverse_scale_factor();
            node.left = px(s.x - w / 2.0);
            node.top = px(s.y + 2.0);
            vis.set_if_neq(Visibility::Inherited);
        }
    }
    for (n, mut node, mut vis, size) in &mut nudges {
        let cook = cooks.iter().find(|(_, c, r, _)| r.0 == n.room && c.seat == n.seat);
        let Some((_, _, _, tf)) = cook else { continue };
        if let Some(s) = screen(tf.translation() + Vec3::Y * 1.6) {
            let w = size.size().x * size.inverse_scale_factor();
            let rise = (NUDGE_SECS - n.ttl) * 14.0;
            node.left = px(s.x - w / 2.0);
            node.top = px(s.y - 30.0 - rise);
            vis.set_if_neq(Visibility::Inherited);
        }
    }
}

/// mm:ss of a tick count.
pub fn clock_text(ticks: u32) -> String {
    let secs = ticks.div_ceil(TICK_HZ);
    format!("{}:{:02}", secs / 60, secs % 60)
}

/// The rail: one card per live order; rebuilt when the set of orders changes, otherwise only
/// the deadline bars move (against the room clock, which ticks without touching `RoomView`).
#[allow(clippy::type_complexity)]
fn update_rail(
    mut commands: Commands,
    rooms: Query<(&RoomView, Option<&RoomClock>), Or<(Changed<RoomView>, Changed<RoomClock>)>>,
    rail: Query<(Entity, Option<&Children>), With<RailRoot>>,
    cards: Query<&OrderCard>,
    mut fills: Query<(&DeadlineFill, &mut Node, &mut BackgroundColor)>,
) {
    let Some((view, clock)) = rooms.iter().next() else { return };
    let tick = clock.map_or(0, |c| c.tick);
    let Ok((rail, children)) = rail.single() else { return };
    let shown: Vec<u32> =
        children.into_iter().flatten().filter_map(|c| cards.get(*c).ok()).map(|c| c.0).collect();
    let live: Vec<u32> = view.orders.iter().map(|o| o.id).collect();
    if shown != live {
        for c in children.into_iter().flatten() {
            commands.entity(*c).despawn();
        }
        commands.entity(rail).with_children(|p| {
            for order in &view.orders {
                spawn_card(p, order, tick);
            }
        });
        return;
    }
    for (fill, mut node, mut bg) in &mut fills {
        if let Some(o) = view.orders.iter().find(|o| o.id == fill.0) {
            let f = o.ticks_left(tick) as f32 / o.ticks_total.max(1) as f32;
            node.width = percent(100.0 * f.clamp(0.0, 1.0));
            bg.0 = deadline_color(f);
        }
    }
}

fn deadline_color(f: f32) -> Color {
    if f > 0.5 {
        DEADLINE_OK
    } else if f > 0.25 {
        DEADLINE_SOON
    } else {
        DEADLINE_LATE
    }
}

fn spawn_card(p: &mut ChildSpawnerCommands, order: &OrderView, tick: u32) {
    let f = order.ticks_left(tick) as f32 / order.ticks_total.max(1) as f32;
    p.spawn((
        OrderCard(order.id),
        Node {
            width: px(150),
            padding: UiRect::all(px(8)),
            flex_direction: FlexDirection::Column,
            row_gap: px(4),
            border_radius: BorderRadius::all(px(8)),
            ..default()
        },
        BackgroundColor(PANEL),
    ))
    .with_children(|card| {
        card.spawn(Node { justify_content: JustifyContent::SpaceBetween, ..default() })
            .with_children(|row| {
                row.spawn(label(order.name.clone(), 18.0, INK));
                row.spawn(label(format!("{}", order.value), 16.0, GOLD));
            });
        for (i, f) in &order.parts {
            card.spawn(Node { column_gap: px(6), align_items: AlignItems::Center, ..default() })
                .with_children(|row| {
                    row.spawn((
                        Node {
                            width: px(12),
                            height: px(12),
                            border_radius: BorderRadius::all(px(3)),
                            ..default()
                        },
                        BackgroundColor(part_color(*i, *f)),
                    ));
                    let text = format!("{} {}", f.name().to_lowercase(), i.name().to_lowercase());
                    row.spawn(label(text, 13.0, CARD_TEXT));
                });
        }
        card.spawn((
            Node { height: px(6), width: percent(100), ..default() },
            BackgroundColor(DEADLINE_TRACK),
        ))
        .with_child((
            DeadlineFill(order.id),
            Node { height: percent(100), width: percent(100.0 * f.clamp(0.0, 1.0)), ..default() },
            BackgroundColor(deadline_color(f)),
        ));
    });
}

fn update_scoreboard(
    rooms: Query<&RoomView, Changed<RoomView>>,
    mut score: Query<&mut Text, (With<ScoreText>, Without<ClockText>)>,
) {
    let Some(view) = rooms.iter().next() else { return };
    if let Ok(mut t) = score.single_mut() {
        let streak =
            if view.streak > 1 { format!("   streak x{}", view.streak) } else { String::new() };
        t.0 = format!("score {} / {}{streak}", view.score, view.target);
    }
}

/// The round clock: its own component, changed every tick.
fn update_clock(
    rooms: Query<&RoomClock, Changed<RoomClock>>,
    mut clock: Query<&mut Text, (With<ClockText>, Without<ScoreText>)>,
) {
    let Some(room) = rooms.iter().next() else { return };
    if let Ok(mut t) = clock.single_mut() {
        let text = clock_text(room.time_left);
        if t.0 != text {
            t.0 = text;
        }
    }
}

fn update_banner(
    phase: Res<RoundPhase>,
    mut banner: Query<&mut Text, (With<Banner>, Without<HintText>)>,
    mut hint: Query<&mut Text, (With<HintText>, Without<Banner>)>,
    rooms: Query<&RoomView>,
) {
    if let Ok(mut h) = hint.single_mut() {
        // The level's name and hint while the countdown runs: the designer's one line of advice.
        let text = match (*phase, rooms.iter().next()) {
            (RoundPhase::Countdown(_), Some(view)) if !view.hint.is_empty() => {
                format!("{}\n{}", view.level_name, view.hint)
            }
            _ => String::new(),
        };
        if h.0 != text {
            h.0 = text;
        }
    }
    let Ok(mut t) = banner.single_mut() else { return };
    let text = match *phase {
        RoundPhase::Countdown(left) if left > 0.4 => format!("{}", left.ceil() as u32),
        RoundPhase::Countdown(_) => "GO!".to_string(),
        RoundPhase::Paused => "PAUSED\nP: resume   R: restart   M: menu".to_string(),
        _ => String::new(),
    };
    if t.0 != text {
        t.0 = text;
    }
}

/// The verdict is in: result, stars, score, and each cook's part.
fn show_round_end(
    mut commands: Commands,
    rooms: Query<(Entity, &RoomView), Changed<RoomView>>,
    cooks: Query<(&CookView, &InRoom)>,
    mut panel: Query<(Entity, &mut Node, Option<&Children>), With<RoundEndPanel>>,
    local: Option<Res<LocalGame>>,
    from_menu: Option<Res<Online>>,
) {
    let Some((room, view)) = rooms.iter().next() else { return };
    // Locally R restarts and Esc leaves; online the server's lobby starts the next round.
    let keys_line = match (local.is_some(), from_menu.is_some()) {
        (true, _) => "R: play again    Esc: menu",
        (false, true) => "The next round starts from the lobby    M: menu",
        (false, false) => "The next round starts from the lobby",
    };
    let Ok((panel, mut node, children)) = panel.single_mut() else { return };
    let Some(result) = view.result else {
        node.display = Display::None;
        return;
    };
    if node.display != Display::None && children.is_some_and(|c| !c.is_empty()) {
        return;
    }
    node.display = Display::Flex;
    let mut cooks: Vec<&CookView> =
        cooks.iter().filter(|(_, r)| r.0 == room).map(|(c, _)| c).collect();
    cooks.sort_by_key(|c| c.seat);
    let (title, color) = match result {
        Verdict::Won => ("Kitchen cleared!", WON),
        Verdict::Lost => ("Out of time", LOST),
        Verdict::Aborted => ("Round aborted", INK),
    };
    commands.entity(panel).with_children(|p| {
        p.spawn(label(view.level_name.clone(), 20.0, INK));
        p.spawn(label(title, 40.0, color));
        p.spawn(Node { column_gap: px(14), ..default() }).with_children(|row| {
            for k in 0..3u8 {
                let lit = k < view.stars;
                row.spawn((
                    Node {
                        width: px(36),
                        height: px(36),
                        border_radius: BorderRadius::MAX,
                        ..default()
                    },
                    BackgroundColor(if lit { GOLD } else { STAR_UNLIT }),
                ));
            }
        });
        p.spawn((label(
            format!(
                "score {} / {}    served {}    missed {}",
                view.score, view.target, view.served, view.missed
            ),
            20.0,
            GOLD,
        ),));
        for c in &cooks {
            p.spawn((label(
                format!("{:<16} {:>4} pts  {:>2} dishes", c.name, c.score, c.dishes_served),
                18.0,
                seat_color(c.seat),
            ),));
        }
        p.spawn(label(keys_line, 16.0, HINT));
    });
}
