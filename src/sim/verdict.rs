//! How a round ended.

/// How a round ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Verdict {
    Won,
    Lost,
    /// Ended by the host (a fault, everyone left); never emits ROUND_END.
    Aborted,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Won => "won",
            Verdict::Lost => "lost",
            Verdict::Aborted => "aborted",
        }
    }
}
