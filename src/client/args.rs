//! The command line of `undercooked play`, and the resource that hands it to every plugin.

use super::state::AppState;
use crate::sim::assist::{Assist, OrderTime};
use crate::sim::units::MAX_COOKS;
use bevy::prelude::*;
use std::path::PathBuf;

/// `undercooked play` (and `undercooked` with no arguments).
#[derive(clap::Args, Clone, Debug)]
pub struct PlayArgs {
    /// Start this level directly (an id from the levels folder, or a path to a level file).
    /// Without it the game opens on the title screen.
    #[arg(long)]
    pub level: Option<String>,
    /// Start the daily kitchen: the day's generated kitchen, the same for everyone
    /// (docs/LEVELS.md, "The daily kitchen").
    #[arg(long, conflicts_with_all = ["level", "screen"])]
    pub daily: bool,
    /// With `--daily`: this day's kitchen (YYYY-MM-DD) instead of today's (UTC).
    #[arg(long, requires = "daily")]
    pub date: Option<String>,
    /// Local cooks (1–4): keyboard halves first, then gamepads.
    #[arg(
        long,
        default_value_t = 1,
        value_parser = clap::value_parser!(u8).range(1..=MAX_COOKS as i64)
    )]
    pub players: u8,
    /// Drive every cook by a generator instead of the devices (for automated looking).
    #[arg(long, value_enum)]
    pub autoplay: Option<Autoplay>,
    /// Planner bots seated after the local players (0–3; the kitchen holds four cooks).
    #[arg(
        long,
        default_value_t = 0,
        value_parser = clap::value_parser!(u8).range(0..=MAX_COOKS as i64 - 1)
    )]
    pub bots: u8,
    /// Designer mode (with `--level`): a saved edit of the level restarts it at once, a broken
    /// edit is listed on screen; F2 shows grid coordinates and station indices, F5 re-seeds.
    #[arg(long, requires = "level")]
    pub designer: bool,
    /// Save a screenshot here and exit 0 (after `--after-ticks` sim ticks, or after
    /// `--after-frames` frames on the menu when no level is given).
    #[arg(long)]
    pub screenshot: Option<PathBuf>,
    #[arg(long, default_value_t = 60)]
    pub after_ticks: u32,
    /// Frames on the menu before its screenshot (the first few come out black while the
    /// renderer compiles its pipelines).
    #[arg(long, default_value_t = 60)]
    pub after_frames: u32,
    /// With `--screenshot` in a round: wait for the verdict and the round end's star reveal
    /// instead of counting ticks (for the round-end screenshot).
    #[arg(long, requires = "screenshot")]
    pub at_round_end: bool,
    /// Open this menu screen instead of the main menu (for screenshots of it; `host` hosts a
    /// LAN game, and with `--autoplay` goes on into its kitchen, `--after-ticks` counting there).
    #[arg(long, value_enum, conflicts_with = "level")]
    pub screen: Option<Screen>,
    /// The directory (`http://HOST:PORT`, `undercooked directory`) Play online and quick match
    /// ask, over the one saved in Settings (config.ron).
    #[arg(long, value_name = "URL")]
    pub directory: Option<String>,
    /// A results board (`http://HOST:PORT`: a game server's web port with `--board`, or a
    /// directory with `--board`): the round end offers B to submit a rankable round's bundle,
    /// and the main menu opens the board's listings.
    #[arg(long, value_name = "URL")]
    pub board: Option<String>,
    /// Window size in physical pixels, WxH.
    #[arg(long, default_value = "1280x720", value_parser = parse_size)]
    pub size: (u32, u32),
    /// Override the level's round length (seconds): short rounds for testing the round end.
    #[arg(long)]
    pub round_seconds: Option<u32>,
    /// Play a replay script (`goldens/scripts/*.ron`) in the local round: its level (which
    /// `--level` must name too), seed, seats and items, its frames on every seat (no devices).
    #[arg(long, requires = "level", conflicts_with_all = ["autoplay", "bots"])]
    pub script: Option<PathBuf>,
    /// Timed input events (an `EditorScript`, `client::editor::script`: keys, pointer, mouse
    /// and gamepad buttons) fed to the window as if typed, from the title on, then exit: how
    /// the tests walk the menus into the kitchen workshop and back.
    #[arg(long, value_name = "FILE")]
    pub input_script: Option<PathBuf>,
    /// Watch a hosted round's replay bundle (a server's `bundles/*.ron`, a board entry) in the
    /// window: its own level, seed and seats, every frame as the server admitted it; P pauses,
    /// - and + change the speed, R starts it over.
    #[arg(long, conflicts_with_all = ["level", "script", "autoplay", "bots", "mode", "daily", "screen"])]
    pub bundle: Option<PathBuf>,
    /// `--bundle`: the speed it starts at (0.25, 0.5, 1, 2, 4 or 8; - and + change it).
    #[arg(long, requires = "bundle", default_value = "1", value_parser = parse_speed)]
    pub speed: f32,
    /// Stop the local sim once the room reaches this tick (the window keeps drawing it): with
    /// `--script` and `--screenshot`, a picture of exactly that tick.
    #[arg(long, requires = "script")]
    pub hold_at_tick: Option<u32>,
    /// Assist mode: order timers x1, x1.5 or x2 (the Level Select screen changes it too).
    #[arg(long, default_value = "x1", value_parser = parse_order_time)]
    pub assist_orders: OrderTime,
    /// Assist mode: the round's clock +50 %.
    #[arg(long)]
    pub assist_round: bool,
    /// Survival (`sim::survival`): the clock starts short, each dish served buys time, a missed
    /// order takes some; the round lasts until it runs out (Level Select's mode line too).
    #[arg(long, conflicts_with_all = ["mode", "script"])]
    pub survival: bool,
    /// The room's seed (orders and the random autoplay derive from it).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print start-up time and the client systems' CPU time per frame when the app exits.
    #[arg(long)]
    pub measure: bool,
    /// Open with the F3 performance overlay shown (FPS, frame time, sim tick, network).
    #[arg(long)]
    pub perf: bool,
    /// Walk every campaign level at 4:3, 16:9 and 21:9 in this one window, checking from the
    /// camera that every kitchen tile lies inside the window's safe area; one line per case,
    /// exit 0 when all hold, 1 when any does not.
    #[arg(long, conflicts_with_all = ["level", "screen", "screenshot"])]
    pub check_framing: bool,
    /// Exit after this many sim ticks (with `--measure`: a timed run without a screenshot).
    #[arg(long)]
    pub exit_after_ticks: Option<u32>,
    /// Folder of level files (and `index.ron`).
    #[arg(long, default_value = "levels")]
    pub levels: PathBuf,
    /// Which game: the kitchen (default) or `tandem` (Moving Day, straight into a run with
    /// `--partner` and `--seed`; `--autoplay bot` seats the porter at both handles).
    #[arg(long, value_enum, conflicts_with_all = ["level", "screen"])]
    pub mode: Option<PlayMode>,
    /// Tandem: who holds the aft handle.
    #[arg(long, value_enum, default_value = "porter")]
    pub partner: Partner,
    /// The recipe book.
    #[arg(long, default_value = "assets/recipes.ron")]
    pub recipes: PathBuf,
}

impl Default for PlayArgs {
    fn default() -> Self {
        PlayArgs {
            level: None,
            daily: false,
            date: None,
            players: 1,
            autoplay: None,
            bots: 0,
            designer: false,
            screenshot: None,
            after_ticks: 60,
            after_frames: 60,
            at_round_end: false,
            screen: None,
            directory: None,
            board: None,
            size: (1280, 720),
            round_seconds: None,
            script: None,
            input_script: None,
            bundle: None,
            speed: 1.0,
            hold_at_tick: None,
            assist_orders: OrderTime::Normal,
            assist_round: false,
            survival: false,
            seed: 1,
            measure: false,
            perf: false,
            exit_after_ticks: None,
            check_framing: false,
            levels: PathBuf::from("levels"),
            recipes: PathBuf::from("assets/recipes.ron"),
            mode: None,
            partner: Partner::Porter,
        }
    }
}

/// The menu screens `--screen` opens.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Screen {
    /// The title over the live kitchen (it stays up: no two-second hop to the menu).
    Title,
    Menu,
    LevelSelect,
    Settings,
    Host,
    Join,
    /// Play online: the directory's servers and public rooms, and Quick match (with
    /// `--autoplay`, quick match once the list is in).
    PlayOnline,
    /// The results board (with `--board URL`): its levels' entries, once the board answered
    /// (with `--autoplay`, its first entry played back, `--after-ticks` counting there).
    Board,
}

impl Screen {
    pub fn state(self) -> AppState {
        match self {
            Screen::Title => AppState::Title,
            Screen::Menu => AppState::Menu,
            Screen::LevelSelect => AppState::LevelSelect,
            Screen::Settings => AppState::Settings,
            Screen::Host => AppState::Host,
            Screen::Join => AppState::Join,
            Screen::PlayOnline => AppState::PlayOnline,
            Screen::Board => AppState::Board,
        }
    }
}

/// Who holds the aft handle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Partner {
    /// Two local players: the two keyboard halves (or gamepads), one a seat.
    Couch,
    /// One player at the fore handle, the porter bot at the aft.
    #[default]
    Porter,
}

/// The game modes `--mode` starts.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayMode {
    Kitchen,
    Tandem,
}

/// Input generators for automated runs.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Autoplay {
    /// Seeded SplitMix64 stick and button presses for every seat.
    Random,
    /// Every seat is a planner bot (`bot::planner::BotTeam`) that cooks for real.
    Bot,
}

impl PlayArgs {
    /// The round's assists the command line asks for.
    pub fn assist(&self) -> Assist {
        Assist { order_time: self.assist_orders, longer_round: self.assist_round }
    }
}

/// The speeds a bundle plays at (`--speed`, and - / + in the window).
pub const PLAYBACK_SPEEDS: [f32; 6] = [0.25, 0.5, 1.0, 2.0, 4.0, 8.0];

fn parse_speed(s: &str) -> Result<f32, String> {
    let speed: f32 = s.parse().map_err(|_| format!("`{s}` is not a number"))?;
    if PLAYBACK_SPEEDS.contains(&speed) {
        Ok(speed)
    } else {
        Err(format!("{speed} is not one of the playback speeds {PLAYBACK_SPEEDS:?}"))
    }
}

fn parse_order_time(s: &str) -> Result<OrderTime, String> {
    OrderTime::ALL
        .into_iter()
        .find(|o| o.label() == s)
        .ok_or_else(|| format!("`{s}`: order timers are x1, x1.5 or x2"))
}

fn parse_size(s: &str) -> Result<(u32, u32), String> {
    let (w, h) = s.split_once('x').ok_or("expected WxH, e.g. 1280x720")?;
    let w: u32 = w.parse().map_err(|e| format!("width: {e}"))?;
    let h: u32 = h.parse().map_err(|e| format!("height: {e}"))?;
    if w < 64 || h < 64 {
        return Err("the window must be at least 64x64".into());
    }
    Ok((w, h))
}

/// The command line, for every plugin that needs it.
#[derive(Resource, Clone, Debug)]
pub struct Options(pub PlayArgs);
