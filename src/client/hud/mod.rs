//! The HUD (bevy UI): score / target, streak, clock, countdown and pause banners,
//! name tags and nudges that follow cooks, and the round-end screen with its star reveal;
//! the ticket rail (`rail`), the serve pops (`pops`) and the emote bubbles (`emotes`) are its
//! plugins. Reads views, `RoomTick` messages and the emotes heard only.

pub mod emotes;
pub mod nudges;
pub mod pops;
pub mod rail;

use super::audio::{Cue, PlayCue};
use super::hud::emotes::EmoteBubblePlugin;
use super::hud::nudges::{NUDGE_SECS, Nudge, age_nudges, spawn_nudges};
use super::hud::pops::PopPlugin;
use super::hud::rail::RailPlugin;
use super::kitchen::KitchenCamera;
use super::kitchen::interp::{DrawnAt, cook_floor_point};
use super::local::{BoardLine, LocalGame, RoundPhase};
use super::state::{AppState, BackdropRoom, Online};
use super::theme::{
    GOLD, HINT, INK, LOST, NAME_TAG_DARK, NAME_TAG_EDGE, PANEL, ROUND_END_PANEL, STAR_UNLIT,
    TEAM_COLORS, WON, label, seat_color,
};
use crate::protocol::{CookView, InRoom, RoomClock, RoomView};
use crate::schedule::FrameSystems;
use crate::sim::units::TICK_HZ;
use crate::sim::verdict::Verdict;
use crate::sim::versus::Team;
use bevy::prelude::*;

/// The font lives in `theme`; `perf`, `online` and the web build still reach it here.
pub use super::theme::font;

/// A label that follows a cook (by its view entity).
#[derive(Component, Clone, Copy, Debug)]
struct NameTag(Entity);

/// The score line under the clock (`capture::readout` prints it for tests).
#[derive(Component)]
pub struct ScoreText;
#[derive(Component)]
struct ClockText;
#[derive(Component)]
struct Banner;

/// The clock-and-score panel: shown only while a kitchen round's view is here (an online
/// Tandem round runs in the same state and has its own HUD: `client/tandem/hud.rs`).
#[derive(Component)]
pub struct ScorePanel;

/// Under the score while the round is assisted: which assists are on (a player sees that the
/// kitchen has more time, and the stars it earns are marked assisted).
#[derive(Component)]
struct AssistBadge;

/// The level's name and one-line hint, shown under the countdown before the round.
#[derive(Component)]
struct HintText;
/// The round end's panel: title, tally and each cook's part (`capture::readout` prints it).
#[derive(Component)]
pub struct RoundEndPanel;

/// The round end's star reveal: seconds since the verdict, stars earned, stars lit so far.
#[derive(Component, Clone, Copy, Debug)]
struct StarReveal {
    age: f32,
    earned: u8,
    lit: u8,
}

/// One of the three stars (its index), and the two squares it is drawn with.
#[derive(Component, Clone, Copy, Debug)]
struct StarSlot(u8);
#[derive(Component, Clone, Copy, Debug)]
struct StarPoint(u8);

/// Seconds after the verdict the first star lights, and between stars.
const STAR_FIRST_SECS: f32 = 0.8;
const STAR_STEP_SECS: f32 = 0.7;

/// The in-round HUD: rail, scoreboard, clock, banner, nudges and the round-end panel.
pub struct HudPlugin;

impl Plugin for HudPlugin {
    fn build(&self, app: &mut App) {
        app.add_message::<PlayCue>();
        app.add_plugins((RailPlugin, PopPlugin, EmoteBubblePlugin));
        app.add_systems(OnEnter(AppState::Playing), spawn_hud);
        app.add_observer(tag_cook);
        app.add_systems(
            Update,
            (
                spawn_nudges,
                age_nudges,
                follow_cooks,
                show_score_panel,
                update_scoreboard,
                update_clock,
                update_banner,
                show_round_end,
                reveal_stars,
            )
                .chain()
                .in_set(FrameSystems::Draw),
        );
    }
}

fn spawn_hud(mut commands: Commands) {
    let scope = DespawnOnExit(AppState::Playing);
    commands
        .spawn((
            ScorePanel,
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
            p.spawn((
                AssistBadge,
                label("", 16.0, HINT),
                Node { display: Display::None, ..default() },
            ));
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
        // Over the name tags and nudges that follow the cooks under it.
        GlobalZIndex(10),
    ));
}

/// A cook appeared: its name tag, a plate in its seat colour with dark text and a light
/// outline, readable over any floor.
fn tag_cook(
    add: On<Add, CookView>,
    cooks: Query<(&CookView, Option<&InRoom>)>,
    backdrops: Query<(), With<BackdropRoom>>,
    mut commands: Commands,
) {
    let Ok((cook, room)) = cooks.get(add.entity) else { return };
    // The title's live kitchen goes untagged: its cooks are scenery.
    if room.is_some_and(|r| backdrops.contains(r.0)) {
        return;
    }
    let plate = seat_color(cook.seat);
    commands.spawn((
        NameTag(add.entity),
        label(cook.name.clone(), 15.0, tag_text_color(plate)),
        BackgroundColor(plate),
        BorderColor::all(NAME_TAG_EDGE),
        Node {
            position_type: PositionType::Absolute,
            padding: UiRect::axes(px(6), px(1)),
            border: UiRect::all(px(2)),
            border_radius: BorderRadius::all(px(6)),
            ..default()
        },
        Visibility::Hidden,
    ));
}

/// Dark text on a light plate, white on a dark one (whichever contrasts more).
fn tag_text_color(plate: Color) -> Color {
    let c = plate.to_linear();
    let luminance = 0.2126 * c.red + 0.7152 * c.green + 0.0722 * c.blue;
    if luminance > 0.18 { NAME_TAG_DARK } else { Color::WHITE }
}

/// Name tags under and nudges over their cooks, projected from the world to the window.
fn follow_cooks(
    mut commands: Commands,
    camera: Query<(&Camera, &GlobalTransform), With<KitchenCamera>>,
    cooks: Query<(Entity, &CookView, &InRoom, &GlobalTransform, Option<&DrawnAt>)>,
    mut tags: Query<(Entity, &NameTag, &mut Node, &mut Visibility, &ComputedNode), Without<Nudge>>,
    mut nudges: Query<(&Nudge, &mut Node, &mut Visibility, &ComputedNode), Without<NameTag>>,
) {
    let Ok((cam, cam_tf)) = camera.single() else { return };
    let screen = |p: Vec3| cam.world_to_viewport(cam_tf, p).ok();
    for (e, tag, mut node, mut vis, size) in &mut tags {
        let Ok((_, _, _, tf, drawn)) = cooks.get(tag.0) else {
            commands.entity(e).despawn();
            continue;
        };
        if let Some(s) = screen(cook_floor_point(drawn, tf) - Vec3::Y * 0.05) {
            let w = size.size().x * size.inverse_scale_factor();
            node.left = px(s.x - w / 2.0);
            node.top = px(s.y + 2.0);
            vis.set_if_neq(Visibility::Inherited);
        }
    }
    for (n, mut node, mut vis, size) in &mut nudges {
        let cook = cooks.iter().find(|(_, c, r, _, _)| r.0 == n.room && c.seat == n.seat);
        let Some((_, _, _, tf, drawn)) = cook else { continue };
        if let Some(s) = screen(cook_floor_point(drawn, tf) + Vec3::Y * 1.6) {
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

#[allow(clippy::type_complexity)]
fn update_scoreboard(
    rooms: Query<&RoomView, (Changed<RoomView>, Without<BackdropRoom>)>,
    mut score: Query<&mut Text, (With<ScoreText>, Without<ClockText>, Without<AssistBadge>)>,
    mut badge: Query<(&mut Text, &mut Node), (With<AssistBadge>, Without<ScoreText>)>,
) {
    let Some(view) = rooms.iter().next() else { return };
    if let Ok(mut t) = score.single_mut() {
        let streak =
            if view.streak > 1 { format!("   streak x{}", view.streak) } else { String::new() };
        t.0 = score_line(view, &streak);
    }
    if let Ok((mut t, mut node)) = badge.single_mut() {
        let (text, display) = if view.assist.is_on() {
            (format!("ASSIST: {}", view.assist.summary()), Display::Flex)
        } else {
            (String::new(), Display::None)
        };
        if t.0 != text {
            t.0 = text;
        }
        if node.display != display {
            node.display = display;
        }
    }
}

/// Under the clock: the score against the target, or in a survival round (which has no target:
/// the clock is the goal) the dishes served that kept it running.
fn score_line(view: &RoomView, streak: &str) -> String {
    if let Some(v) = view.versus {
        // Both teams, A then B, each with its own streak (the co-op score stays 0 in versus).
        let side = |t: Team| {
            let s = v.team(t);
            let streak = if s.streak > 1 { format!(" x{}", s.streak) } else { String::new() };
            format!("{} {}{streak}", t.as_str().to_uppercase(), s.score)
        };
        format!("{}   vs   {}", side(Team::A), side(Team::B))
    } else if view.survival.is_some() {
        format!("dishes {}   score {}{streak}", view.served, view.score)
    } else {
        format!("score {} / {}{streak}", view.score, view.target)
    }
}

/// The round end's headline and its colour: a survival round names how long the kitchen lasted
/// (its clock always runs out, so "Out of time" would say nothing); otherwise won or lost.
fn round_end_title(view: &RoomView, result: Verdict) -> (String, Color) {
    match (result, view.survival) {
        (Verdict::Aborted, _) => ("Round aborted".into(), INK),
        // Versus: the buzzer's verdict, in the winner's colour.
        (Verdict::TeamA, _) => ("Team A wins!".into(), TEAM_COLORS[0]),
        (Verdict::TeamB, _) => ("Team B wins!".into(), TEAM_COLORS[1]),
        (Verdict::Draw, _) => ("A draw".into(), INK),
        (_, Some(s)) => (format!("Survived {}", clock_span(s.survived)), WON),
        (Verdict::Won, None) => ("Kitchen cleared!".into(), WON),
        (Verdict::Lost, None) => ("Out of time".into(), LOST),
    }
}

/// The round end's tally line: score against target, a survival round's dishes, or versus's
/// two teams side by side.
fn round_end_tally(view: &RoomView) -> String {
    if let Some(v) = view.versus {
        let side = |t: Team| {
            let s = v.team(t);
            format!(
                "Team {} {} ({} served, {} missed)",
                t.as_str().to_uppercase(),
                s.score,
                s.served,
                s.missed
            )
        };
        // A line a team: side by side they wrap in the panel's width.
        return format!("{}\n{}", side(Team::A), side(Team::B));
    }
    match view.survival {
        Some(_) => format!(
            "dishes served {}    missed {}    score {}",
            view.served, view.missed, view.score
        ),
        None => format!(
            "score {} / {}    served {}    missed {}",
            view.score, view.target, view.served, view.missed
        ),
    }
}

/// m:ss of a span of ticks, rounded down (a survived time: "2:35").
fn clock_span(ticks: u32) -> String {
    let secs = ticks / TICK_HZ;
    format!("{}:{:02}", secs / 60, secs % 60)
}

/// The clock and score only over a kitchen round (not over an online Tandem round's HUD).
fn show_score_panel(
    rooms: Query<(), (With<RoomView>, Without<BackdropRoom>)>,
    mut panel: Query<&mut Node, With<ScorePanel>>,
) {
    let want = if rooms.is_empty() { Display::None } else { Display::Flex };
    for mut node in &mut panel {
        if node.display != want {
            node.display = want;
        }
    }
}

/// The round clock: its own component, changed every tick.
fn update_clock(
    rooms: Query<&RoomClock, (Changed<RoomClock>, Without<BackdropRoom>)>,
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
    rooms: Query<&RoomView, Without<BackdropRoom>>,
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

/// The verdict is in: result, stars (revealed one at a time by [`reveal_stars`]), score, and
/// each cook's part.
#[allow(clippy::type_complexity)]
fn show_round_end(
    mut commands: Commands,
    rooms: Query<(Entity, &RoomView), (Changed<RoomView>, Without<BackdropRoom>)>,
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
    commands.entity(panel).insert(StarReveal { age: 0.0, earned: view.stars.min(3), lit: 0 });
    let mut cooks: Vec<&CookView> =
        cooks.iter().filter(|(_, r)| r.0 == room).map(|(c, _)| c).collect();
    cooks.sort_by_key(|c| c.seat);
    let (title, color) = round_end_title(view, result);
    commands.entity(panel).with_children(|p| {
        p.spawn(label(view.level_name.clone(), 20.0, INK));
        p.spawn(label(title, 40.0, color));
        // A survival round earns no stars (its clock always runs out): its time is the result;
        // nor does a versus round: the other team is the measure.
        if view.survival.is_none() && view.versus.is_none() {
            p.spawn(Node { column_gap: px(18), padding: UiRect::all(px(6)), ..default() })
                .with_children(|row| {
                    for k in 0..3u8 {
                        spawn_star(row, k);
                    }
                });
        }
        p.spawn((label(round_end_tally(view), 20.0, GOLD),));
        if view.assist.is_on() {
            // The save marks these stars assisted too (`save.rs`); say so where they are earned.
            p.spawn(label(format!("Assisted round: {}", view.assist.summary()), 16.0, HINT));
        }
        for c in &cooks {
            p.spawn((label(
                format!("{:<16} {:>4} pts  {:>2} dishes", c.name, c.score, c.dishes_served),
                18.0,
                seat_color(c.seat),
            ),));
        }
        // A local round's bundle and the board's answer (`local::board_submit` writes it).
        if local.is_some() {
            p.spawn((label(String::new(), 16.0, HINT), BoardLine));
        }
        p.spawn(label(keys_line, 16.0, HINT));
    });
}

/// One star of the round end: two squares, one turned 45°, make an eight-point star (unlit
/// until [`reveal_stars`] reaches it).
fn spawn_star(row: &mut ChildSpawnerCommands, k: u8) {
    row.spawn((
        StarSlot(k),
        Node {
            width: px(48),
            height: px(48),
            justify_content: JustifyContent::Center,
            align_items: AlignItems::Center,
            ..default()
        },
    ))
    .with_children(|star| {
        for turn in [0.0f32, std::f32::consts::FRAC_PI_4] {
            star.spawn((
                StarPoint(k),
                Node {
                    position_type: PositionType::Absolute,
                    width: px(34),
                    height: px(34),
                    border_radius: BorderRadius::all(px(4)),
                    ..default()
                },
                BackgroundColor(STAR_UNLIT),
                UiTransform::from_rotation(Rot2::radians(turn)),
            ));
        }
    });
}

/// Each frame after a verdict: the earned stars light one at a time, each with a chime a step
/// higher than the last and a pop in size.
fn reveal_stars(
    time: Res<Time<Real>>,
    mut panels: Query<&mut StarReveal>,
    mut slots: Query<(&StarSlot, &mut UiTransform)>,
    mut points: Query<(&StarPoint, &mut BackgroundColor)>,
    mut cues: MessageWriter<PlayCue>,
) {
    for mut reveal in &mut panels {
        reveal.age += time.delta_secs();
        while reveal.lit < reveal.earned
            && reveal.age >= STAR_FIRST_SECS + STAR_STEP_SECS * reveal.lit as f32
        {
            let k = reveal.lit;
            for (point, mut bg) in &mut points {
                if point.0 == k {
                    bg.0 = GOLD;
                }
            }
            cues.write(PlayCue(Cue::Star(k)));
            reveal.lit += 1;
        }
        for (slot, mut ui) in &mut slots {
            if slot.0 >= reveal.lit {
                continue;
            }
            // Lit at `at`: it pops to 1.6× and settles back over a quarter second.
            let at = STAR_FIRST_SECS + STAR_STEP_SECS * slot.0 as f32;
            let k = ((reveal.age - at) / 0.25).clamp(0.0, 1.0);
            ui.scale = Vec2::splat(1.0 + 0.6 * (1.0 - k));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::assist::Assist;
    use crate::sim::survival::SurvivalClock;

    fn view(survival: Option<SurvivalClock>) -> RoomView {
        RoomView {
            level_id: "tutorial".into(),
            level_name: "First Shift".into(),
            hint: String::new(),
            time_limit: 3600,
            score: 140,
            target: 200,
            streak: 0,
            result: Some(Verdict::Lost),
            stars: 0,
            orders: Vec::new(),
            plates_clean: 0,
            plates_dirty: 0,
            pots_clean: 0,
            served: 7,
            missed: 2,
            assist: Assist::default(),
            survival,
            versus: None,
        }
    }

    #[test]
    fn a_survival_round_shows_dishes_and_time_not_a_target() {
        let clock = SurvivalClock { added: 0, taken: 0, survived: 3119 };
        let survival = view(Some(clock));
        assert_eq!(score_line(&survival, ""), "dishes 7   score 140");
        assert_eq!(round_end_title(&survival, Verdict::Lost).0, "Survived 2:35");
        assert_eq!(round_end_tally(&survival), "dishes served 7    missed 2    score 140");
        let plain = view(None);
        assert_eq!(score_line(&plain, "   streak x2"), "score 140 / 200   streak x2");
        assert_eq!(round_end_title(&plain, Verdict::Lost).0, "Out of time");
        assert_eq!(round_end_title(&plain, Verdict::Won).0, "Kitchen cleared!");
        // An aborted survival round says so rather than how long it lasted.
        assert_eq!(round_end_title(&survival, Verdict::Aborted).0, "Round aborted");
        assert_eq!(round_end_tally(&plain), "score 140 / 200    served 7    missed 2");
        // A versus round's verdict names the team (or the draw).
        assert_eq!(round_end_title(&plain, Verdict::TeamB).0, "Team B wins!");
        assert_eq!(round_end_title(&plain, Verdict::Draw).0, "A draw");
    }

    #[test]
    fn a_versus_round_shows_both_teams_scores_and_no_target() {
        use crate::sim::versus::{TeamTally, VersusTally};
        let a = TeamTally { score: 120, streak: 3, longest_streak: 3, served: 5, missed: 1 };
        let b = TeamTally { score: 95, streak: 0, longest_streak: 2, served: 4, missed: 2 };
        let versus = RoomView { versus: Some(VersusTally { teams: [a, b] }), ..view(None) };
        assert_eq!(score_line(&versus, ""), "A 120 x3   vs   B 95");
        assert_eq!(
            round_end_tally(&versus),
            "Team A 120 (5 served, 1 missed)\nTeam B 95 (4 served, 2 missed)"
        );
        assert_eq!(
            round_end_title(&versus, Verdict::TeamA),
            ("Team A wins!".into(), TEAM_COLORS[0])
        );
    }
}
