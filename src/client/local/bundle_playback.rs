//! Watching a recorded round in the window (`play --bundle FILE`): a hosted round's replay
//! bundle (a results board's entry, or a server's `bundles/` file) plays back in the local
//! kitchen — the bundle's own level and recipe sources, seed, seats, assists and survival make
//! the room, and every admitted frame is queued at the tick the server admitted it, exactly as
//! `replay check` does, so the window shows the round as it was played. P pauses, - and +
//! change the speed (¼× to 8×), R starts it over; at the recording's last tick the sim stops and
//! the bar says whether the room's hash is the bundle's final hash. The results board screen
//! plays an entry the same way ([`BoardPlayback`]): Escape (or M) goes back to the board.

use crate::client::args::{Options, PLAYBACK_SPEEDS as SPEEDS};
use crate::client::state::AppState;
use crate::client::theme::{HINT, INK, LOST, PANEL, WON, label};
use crate::replay::admitted::AdmittedFrame;
use crate::replay::bundle::{Bundle, bundle_room, unpack_frames};
use crate::replay::bundle_read::read_bundle;
use crate::replay::hex::hex;
use crate::schedule::FrameSystems;
use crate::sim::open::SeatSpec;
use crate::sim::room::Room;
use bevy::prelude::*;
use std::path::Path;

/// The bundle `--bundle` named, read at the title (its round is started by the local host).
#[derive(Resource, Clone, Debug)]
pub struct PlaybackBundle(pub Bundle);

/// The bundle being played is a results board entry the board screen opened: leaving the
/// playback goes back to the board, and the bundle and the playback speed go with it.
#[derive(Resource, Clone, Copy, Debug)]
pub struct BoardPlayback;

/// The recorded round being played: its admitted log, how far it has been queued, and the
/// room it drives (set by the local host once spawned).
#[derive(Resource, Clone, Debug)]
pub struct BundlePilot {
    pub log: Vec<AdmittedFrame>,
    /// The next log entry to queue.
    pub next: usize,
    /// Ticks the recorded round ran: the sim stops there.
    pub ticks: u32,
    pub final_hash: String,
    pub seats: Vec<SeatSpec>,
    pub room: Entity,
    /// "room ABCD, round 3" for the bar.
    pub title: String,
    /// Set at the last tick: did the room's hash come out as the bundle's final hash?
    pub matched: Option<bool>,
}

/// Index into [`SPEEDS`] (starts at 1×).
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlaybackSpeed(pub usize);

impl Default for PlaybackSpeed {
    fn default() -> Self {
        PlaybackSpeed(2)
    }
}

impl PlaybackSpeed {
    /// One step slower (`-1`) or faster (`+1`), held at the ends.
    pub fn step(self, by: i32) -> PlaybackSpeed {
        let at = self.0 as i32 + by;
        PlaybackSpeed(at.clamp(0, SPEEDS.len() as i32 - 1) as usize)
    }

    pub fn factor(self) -> f32 {
        SPEEDS[self.0]
    }
}

/// The bar along the bottom of a playback.
#[derive(Component)]
struct PlaybackBar;

/// Reads a bundle file, whatever known version wrote it; the error names the file and why.
pub fn read_bundle_file(path: &Path) -> Result<Bundle, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read bundle {}: {e}", path.display()))?;
    read_bundle(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// A bundle file that can be played: read, and its room built once to check its sources (the
/// error says which file and why).
pub fn open_bundle(path: &Path) -> Result<Bundle, String> {
    let bundle = read_bundle_file(path)?;
    bundle_room(&bundle).map_err(|e| format!("{}: invalid bundle: {e}", path.display()))?;
    Ok(bundle)
}

/// The room of the bundle being played and its pilot; `None` when no bundle is being played,
/// `Err` (in words) when the bundle is invalid (an edited source, a version this build does
/// not read).
pub fn bundle_round(world: &World) -> Option<Result<(Room, BundlePilot), String>> {
    let bundle = &world.get_resource::<PlaybackBundle>()?.0;
    Some(bundle_room(bundle).map(|room| {
        let pilot = BundlePilot {
            log: unpack_frames(&bundle.frames),
            next: 0,
            ticks: bundle.ticks,
            final_hash: bundle.final_hash.clone(),
            seats: bundle.seats.iter().map(|(s, n)| SeatSpec::new(*s, n.clone())).collect(),
            room: Entity::PLACEHOLDER,
            title: format!("room {}, round {}", bundle.room, bundle.round),
            matched: None,
        };
        (room, pilot)
    }))
}

/// Each tick, before the sim resolves input: the frames the server admitted at this tick, in
/// the order it admitted them (`replay::admitted::run_admitted`'s rule).
pub fn push_bundle_frames(pilot: Option<ResMut<BundlePilot>>, mut rooms: Query<&mut Room>) {
    let Some(mut pilot) = pilot else { return };
    let Ok(mut room) = rooms.get_mut(pilot.room) else { return };
    let now = room.tick;
    while let Some((at, seat, frame)) = pilot.log.get(pilot.next).copied() {
        if at > now {
            break;
        }
        // A frame listed before this tick was never queued live either (a replay starts at 0).
        if at == now {
            room.inputs.queue_stamped(seat, frame);
        }
        pilot.next += 1;
    }
}

/// Whether the local sim may step: not past the recording's last tick.
pub fn bundle_unfinished(pilot: Option<Res<BundlePilot>>, rooms: Query<&Room>) -> bool {
    let Some(pilot) = pilot else { return true };
    rooms.get(pilot.room).map_or(true, |r| r.tick < pilot.ticks)
}

/// At the recording's last tick: the room's hash against the bundle's, said once in the log.
fn check_final_hash(pilot: Option<ResMut<BundlePilot>>, rooms: Query<&Room>) {
    let Some(mut pilot) = pilot else { return };
    if pilot.matched.is_some() {
        return;
    }
    let Ok(room) = rooms.get(pilot.room) else { return };
    if room.tick < pilot.ticks {
        return;
    }
    let got = hex(room.hash);
    let matched = got == pilot.final_hash;
    if matched {
        info!("bundle playback: tick {} final hash {got} matches the bundle", room.tick);
    } else {
        warn!(
            "bundle playback: tick {} final hash {got}, the bundle says {}: this build plays \
             the round differently (`replay check` names the first divergent tick)",
            room.tick, pilot.final_hash
        );
    }
    pilot.matched = Some(matched);
}

/// - slower, + (or =) faster: the virtual clock that the fixed ticks follow.
fn change_speed(
    keys: Res<ButtonInput<KeyCode>>,
    mut speed: ResMut<PlaybackSpeed>,
    mut time: ResMut<Time<Virtual>>,
) {
    let by = if keys.any_just_pressed([KeyCode::Minus, KeyCode::NumpadSubtract]) {
        -1
    } else if keys.any_just_pressed([KeyCode::Equal, KeyCode::NumpadAdd]) {
        1
    } else {
        0
    };
    let next = speed.step(by);
    if next != *speed || time.relative_speed() != next.factor() {
        *speed = next;
        time.set_relative_speed(next.factor());
    }
}

/// On entering a playback (the pilot may not be in yet: the local host starts the round on the
/// same state change).
fn spawn_playback_bar(mut commands: Commands) {
    commands.spawn((
        PlaybackBar,
        DespawnOnExit(AppState::Playing),
        label("", 18.0, INK),
        BackgroundColor(PANEL),
        Node {
            position_type: PositionType::Absolute,
            bottom: px(8),
            left: px(8),
            padding: UiRect::axes(px(10), px(4)),
            border_radius: BorderRadius::all(px(6)),
            ..default()
        },
    ));
}

/// The bar's words: which round, where in it, the speed and the keys; at the end, the check.
pub fn bar_text(
    pilot: &BundlePilot,
    tick: u32,
    (speed, paused): (PlaybackSpeed, bool),
    from_board: bool,
) -> String {
    // R and M answer only while paused or over (`local::restart_or_leave`).
    let (state, keys) = match (pilot.matched, paused) {
        (Some(true), _) => ("end of the recording: final hash matches".into(), "R replay  M menu"),
        (Some(false), _) => ("end of the recording: final hash DIFFERS".into(), "R replay  M menu"),
        (None, true) => ("paused".into(), "P resume  R restart  M menu"),
        (None, false) => (format!("x{}", speed.factor()), "P pause  -/+ speed"),
    };
    if from_board {
        let keys = keys.replace("M menu", "M board").replace("P pause", "Esc board  P pause");
        return format!(
            "Replay {}   tick {tick} / {}   {state}   {keys}",
            pilot.title, pilot.ticks
        );
    }
    format!("Replay {}   tick {tick} / {}   {state}   {keys}", pilot.title, pilot.ticks)
}

fn paint_playback_bar(
    pilot: Option<Res<BundlePilot>>,
    from_board: Option<Res<BoardPlayback>>,
    speed: Res<PlaybackSpeed>,
    time: Res<Time<Virtual>>,
    rooms: Query<&Room>,
    mut bar: Query<(&mut Text, &mut TextColor), With<PlaybackBar>>,
) {
    let Some(pilot) = pilot else { return };
    let Ok((mut text, mut color)) = bar.single_mut() else { return };
    let tick = rooms.get(pilot.room).map_or(0, |r| r.tick);
    let words = bar_text(&pilot, tick, (*speed, time.is_paused()), from_board.is_some());
    if text.0 != words {
        text.0 = words;
    }
    color.0 = match pilot.matched {
        Some(true) => WON,
        Some(false) => LOST,
        None if time.is_paused() => HINT,
        None => INK,
    };
}

/// Escape (or a gamepad's East) in a board entry's playback: back to the board screen (M does
/// the same while paused or over: `local::restart_or_leave`).
fn leave_board_playback(
    keys: Res<ButtonInput<KeyCode>>,
    pads: Query<&Gamepad>,
    mut next: ResMut<NextState<AppState>>,
) {
    if keys.just_pressed(KeyCode::Escape)
        || pads.iter().any(|g| g.just_pressed(GamepadButton::East))
    {
        next.set(AppState::Board);
    }
}

/// Out of a board entry's playback: the bundle goes (a later Play plays a kitchen, not it) and
/// the clock runs at 1x again.
fn drop_board_playback(mut commands: Commands, mut time: ResMut<Time<Virtual>>) {
    commands.remove_resource::<PlaybackBundle>();
    commands.remove_resource::<BoardPlayback>();
    commands.insert_resource(PlaybackSpeed::default());
    time.set_relative_speed(1.0);
}

/// A bundle's playback (`play --bundle`, or a board entry): the speed keys, the bar and the
/// end-of-recording check; a board entry's way back to the board.
pub struct BundlePlaybackPlugin;

impl Plugin for BundlePlaybackPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<PlaybackSpeed>();
        if let Some(options) = app.world().get_resource::<Options>()
            && options.0.bundle.is_some()
        {
            let start = SPEEDS.iter().position(|s| *s == options.0.speed).unwrap_or(2);
            app.insert_resource(PlaybackSpeed(start));
        }
        let playing = || resource_exists::<PlaybackBundle>;
        let from_board = || resource_exists::<BoardPlayback>;
        app.add_systems(OnEnter(AppState::Playing), spawn_playback_bar.run_if(playing()));
        app.add_systems(OnExit(AppState::Playing), drop_board_playback.run_if(from_board()));
        app.add_systems(
            Update,
            (change_speed, check_final_hash, paint_playback_bar)
                .chain()
                .in_set(FrameSystems::Draw)
                .run_if(in_state(AppState::Playing).and_then(playing())),
        );
        app.add_systems(
            Update,
            leave_board_playback.run_if(in_state(AppState::Playing).and_then(from_board())),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_speed_steps_through_its_range_and_holds_at_the_ends() {
        let s = PlaybackSpeed::default();
        assert_eq!(s.factor(), 1.0);
        assert_eq!(s.step(1).factor(), 2.0);
        assert_eq!(s.step(-1).step(-1).step(-1).factor(), 0.25);
        assert_eq!(s.step(10).factor(), 8.0);
    }
}
