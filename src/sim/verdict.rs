//! How a round ended.

/// How a round ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Verdict {
    Won,
    Lost,
    /// Ended by the host (a fault, everyone left); never emits ROUND_END.
    Aborted,
    /// Versus (`versus.rs`): team A had the higher score at the buzzer.
    TeamA,
    /// Versus: team B had the higher score at the buzzer.
    TeamB,
    /// Versus: both teams had the same score at the buzzer.
    Draw,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Won => "won",
            Verdict::Lost => "lost",
            Verdict::Aborted => "aborted",
            Verdict::TeamA => "team_a",
            Verdict::TeamB => "team_b",
            Verdict::Draw => "draw",
        }
    }
}
