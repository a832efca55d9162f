//! The planner's switches: choices a team can be told to leave out, so a measurement can
//! compare a team with and without them on the same rounds.

/// How a [`crate::bot::planner::BotTeam`] plays. The default is the full planner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BotTuning {
    /// Deliver held food by throwing it when that is the faster way (`bot::throwing`); off,
    /// every ingredient is walked to its fixture (the dash stays on).
    pub throws: bool,
    /// Dash on long straight empty-handed runs (`act::should_dash`); off, a walking-only team:
    /// the baseline `bot prove --no-dash` measures a kitchen's dash against (errands' own dash
    /// steps and throws are untouched).
    pub dash: bool,
}

impl Default for BotTuning {
    fn default() -> BotTuning {
        BotTuning { throws: true, dash: true }
    }
}
