//! `bot prove --mode versus`: planner bots on both sides of a versus kitchen, each side its
//! own team (its own claims, its team's rail and windows: `View::rail`, `View::is_window`),
//! over seeds; it reports wins per side and draws, to show a mirrored kitchen is fair.

use super::planner::BotTeam;
use super::tuning::BotTuning;
use crate::sim::ids::Seat;
use crate::sim::kitchen::Level;
use crate::sim::open::SeatSpec;
use crate::sim::recipe_book::RecipeBook;
use crate::sim::room::Room;
use crate::sim::round::SETTLE_TICKS;
use crate::sim::step_room;
use crate::sim::verdict::Verdict;
use crate::sim::versus::Team;
use crate::stdout::{OutputError, print_line};
use std::sync::Arc;

/// Why a versus round could not be played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VersusError {
    /// The level has no `teams` block.
    #[error("level `{0}` has no teams: `--mode versus` plays versus kitchens (levels_versus/)")]
    NotVersus(String),
    /// The bots asked for leave a side empty.
    #[error("{bots} bots on `{level}` leave team {team} without a cook; use at least 2")]
    EmptySide { level: String, bots: u8, team: &'static str },
}

/// How one versus round went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VersusOutcome {
    pub seed: u64,
    /// `TeamA`, `TeamB` or `Draw` at the buzzer (`None` only if the cap came first).
    pub verdict: Option<Verdict>,
    /// A's score, B's.
    pub scores: [i32; 2],
    pub served: [u32; 2],
    pub missed: [u32; 2],
    pub ticks: u32,
    pub hash: u64,
}

/// Play one versus round with `bots` planner bots (seats 0..bots, each on its spawn's team),
/// one `BotTeam` a side, from tick 0 to the buzzer and its verdict.
pub fn play_versus_round(
    level: Arc<Level>,
    book: Arc<RecipeBook>,
    seed: u64,
    bots: u8,
    tuning: BotTuning,
) -> Result<VersusOutcome, VersusError> {
    let mut room = Room::new(level, book, seed, &SeatSpec::numbered(bots));
    if room.versus.is_none() {
        return Err(VersusError::NotVersus(room.level.id.clone()));
    }
    let mut sides = Vec::with_capacity(2);
    for team in Team::BOTH {
        let seats: Vec<Seat> = (0..bots).filter(|&s| room.team_of_seat(s) == Some(team)).collect();
        if seats.is_empty() {
            let level = room.level.id.clone();
            return Err(VersusError::EmptySide { level, bots, team: team.as_str() });
        }
        let mut side = BotTeam::new(&room, &seats);
        side.tuning = tuning;
        sides.push(side);
    }
    let cap = room.level.time_limit + SETTLE_TICKS + 1;
    while room.result.is_none() && room.tick < cap {
        for side in &mut sides {
            side.drive(&mut room);
        }
        step_room(&mut room);
    }
    let tally = room.versus.unwrap_or_default();
    let per =
        |f: fn(&crate::sim::versus::TeamTally) -> u32| [f(&tally.teams[0]), f(&tally.teams[1])];
    Ok(VersusOutcome {
        seed,
        verdict: room.result,
        scores: tally.scores(),
        served: per(|t| t.served),
        missed: per(|t| t.missed),
        ticks: room.tick,
        hash: room.hash,
    })
}

/// Wins per side and draws over a level's seeds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VersusTally {
    pub a: u32,
    pub b: u32,
    pub draws: u32,
    /// Summed scores, A's and B's (for the means).
    pub points: [i64; 2],
    pub rounds: u32,
}

impl VersusTally {
    pub fn add(&mut self, o: &VersusOutcome) {
        match o.verdict {
            Some(Verdict::TeamA) => self.a += 1,
            Some(Verdict::TeamB) => self.b += 1,
            _ => self.draws += 1,
        }
        self.points[0] += i64::from(o.scores[0]);
        self.points[1] += i64::from(o.scores[1]);
        self.rounds += 1;
    }

    /// `team A won 6, team B won 4, draws 0 of 10 (mean score A 120, B 114)`.
    pub fn line(&self) -> String {
        let mean = |p: i64| p / i64::from(self.rounds.max(1));
        format!(
            "team A won {}, team B won {}, draws {} of {} (mean score A {}, B {})",
            self.a,
            self.b,
            self.draws,
            self.rounds,
            mean(self.points[0]),
            mean(self.points[1])
        )
    }
}

/// `bot prove --mode versus` on `levels`, seeds 1..=`seeds`: a line a seed, one a level, and
/// the whole run's line. `Ok(2)` when a level is no versus kitchen or a side has no bot.
pub fn prove_versus(
    levels: Vec<Level>,
    book: Arc<RecipeBook>,
    seeds: u64,
    bots: u8,
    tuning: BotTuning,
) -> Result<u8, OutputError> {
    let mut all = VersusTally::default();
    for level in levels {
        let level = Arc::new(level);
        let head = format!("{} — versus, {bots} bots, {} s", level.id, level.time_limit / 20);
        print_line(&head, "a level line")?;
        let mut tally = VersusTally::default();
        for seed in 1..=seeds {
            let o = match play_versus_round(level.clone(), book.clone(), seed, bots, tuning) {
                Ok(o) => o,
                Err(e) => {
                    eprintln!("error: {e}");
                    return Ok(2);
                }
            };
            tally.add(&o);
            all.add(&o);
            print_line(
                &format!(
                    "  seed {seed}: {:<6} score A {:>4} B {:>4} served {:>2}/{:<2} missed {:>2}/{:<2} ticks {}",
                    o.verdict.map_or("none", |v| v.as_str()),
                    o.scores[0],
                    o.scores[1],
                    o.served[0],
                    o.served[1],
                    o.missed[0],
                    o.missed[1],
                    o.ticks
                ),
                "a seed line",
            )?;
        }
        print_line(&format!("  {}", tally.line()), "a level's tally")?;
    }
    print_line(&format!("all: {}", all.line()), "the closing line")?;
    Ok(0)
}
