//! Versus, a level's two teams: which spawns (so which seats) and which serving windows belong
//! to each team, and each team's score, streak and tallies. Plain data and integer rules (no
//! Room, so the Room and the compiled level can hold it): the stages that use it are
//! `orders` (one seeded stream fed to both rails), `scoring` (a window scores for its own
//! team) and `round` (no early win; the buzzer names the winner or a draw). Hashed only when a
//! level has teams (`hash::walk`), so every co-op round hashes exactly as before.

use super::ids::Seat;
use super::verdict::Verdict;
use serde::{Deserialize, Serialize};

/// One side of a versus kitchen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Team {
    A,
    B,
}

impl Team {
    /// Both teams, A first: the order every per-team loop (spawns, hash, payload) uses.
    pub const BOTH: [Team; 2] = [Team::A, Team::B];

    /// 0 for A, 1 for B: the team's slot in per-team arrays and its hashed code.
    pub fn index(self) -> usize {
        match self {
            Team::A => 0,
            Team::B => 1,
        }
    }

    /// The other team.
    pub fn rival(self) -> Team {
        match self {
            Team::A => Team::B,
            Team::B => Team::A,
        }
    }

    /// The name a player and a payload read: `"a"` or `"b"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Team::A => "a",
            Team::B => "b",
        }
    }
}

/// A versus level's teams, compiled (`level::teams` validates them): every spawn and every
/// serving window belongs to exactly one team.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct TeamsSpec {
    /// The team of each spawn, in spawn order (`Level.spawns`): seat `s` plays for
    /// `spawn_team[s % len]`, as it spawns at `spawns[s % len]`.
    pub spawn_team: Vec<Team>,
    /// The serving windows as (station index, team), in station order.
    pub windows: Vec<(u16, Team)>,
}

impl TeamsSpec {
    /// The team seat `seat` plays for (its spawn's team). A spec with no spawns (none compiles)
    /// puts everyone on A.
    pub fn team_of_seat(&self, seat: Seat) -> Team {
        let len = self.spawn_team.len().max(1);
        self.spawn_team.get(seat as usize % len).copied().unwrap_or(Team::A)
    }

    /// The team a serving window scores for; `None` for a station that is no team's window.
    pub fn team_of_window(&self, station: usize) -> Option<Team> {
        self.windows.iter().find(|(s, _)| *s as usize == station).map(|&(_, t)| t)
    }
}

/// One team's round: its score (floored at zero like a co-op score), its streak and tallies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TeamTally {
    pub score: i32,
    /// Consecutive serves since the team's last miss.
    pub streak: u32,
    pub longest_streak: u32,
    /// Dishes the team's windows took.
    pub served: u32,
    /// The team's rail's expired orders.
    pub missed: u32,
}

/// A versus round's two tallies (`Room.versus`, `Some` only on a level with teams), A then B.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct VersusTally {
    pub teams: [TeamTally; 2],
}

impl VersusTally {
    pub fn team(&self, team: Team) -> &TeamTally {
        &self.teams[team.index()]
    }

    pub fn team_mut(&mut self, team: Team) -> &mut TeamTally {
        &mut self.teams[team.index()]
    }

    /// Both scores, A then B.
    pub fn scores(&self) -> [i32; 2] {
        [self.teams[0].score, self.teams[1].score]
    }

    /// The buzzer's verdict: the higher score wins; equal scores are a draw.
    pub fn verdict(&self) -> Verdict {
        let [a, b] = self.scores();
        match a.cmp(&b) {
            std::cmp::Ordering::Greater => Verdict::TeamA,
            std::cmp::Ordering::Less => Verdict::TeamB,
            std::cmp::Ordering::Equal => Verdict::Draw,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_play_for_their_spawns_team() {
        let spec =
            TeamsSpec { spawn_team: vec![Team::A, Team::B, Team::A, Team::B], windows: [].into() };
        assert_eq!(
            [0, 1, 2, 3].map(|s| spec.team_of_seat(s)),
            [Team::A, Team::B, Team::A, Team::B]
        );
        let two = TeamsSpec { spawn_team: vec![Team::B, Team::A], windows: vec![(3, Team::B)] };
        assert_eq!(two.team_of_seat(2), Team::B, "seat 2 stacks on spawn 1, so on its team");
        assert_eq!(two.team_of_window(3), Some(Team::B));
        assert_eq!(two.team_of_window(4), None);
    }

    #[test]
    fn the_buzzer_names_the_higher_score_or_a_draw() {
        let mut tally = VersusTally::default();
        assert_eq!(tally.verdict(), Verdict::Draw, "no serves either side is a draw");
        tally.team_mut(Team::B).score = 33;
        assert_eq!(tally.verdict(), Verdict::TeamB);
        tally.team_mut(Team::A).score = 34;
        assert_eq!(tally.verdict(), Verdict::TeamA);
        tally.team_mut(Team::B).score = 34;
        assert_eq!(tally.verdict(), Verdict::Draw);
        assert_eq!(Team::A.rival(), Team::B);
    }
}
