//! Stage 7, the round: the clock, the early win, the buzzer, exactly one ROUND_END (versus:
//! one VERSUS_END, at the buzzer only), the settle freeze, the stars and the abort seam.

use super::events::SimEvent;
use super::room::Room;
use super::verdict::Verdict;

/// The host keeps a decided round ticking this long (1 s) so the verdict's events land.
pub const SETTLE_TICKS: u32 = 20;

/// Stage 7 for one room: spend a tick of clock, then judge.
pub fn step_room_round(room: &mut Room) {
    if room.result.is_some() {
        return; // the settle: the clock is frozen at the verdict
    }
    room.time_left = room.time_left.saturating_sub(1);
    // Survival has no target: the round lasts until its clock runs out (or the kitchen burns
    // down), and what it survived is its result.
    if let Some(clock) = &mut room.survival {
        if room.time_left == 0 || room.hazards.burnt_down {
            clock.survived = room.tick + 1;
            decide(room, Verdict::Lost);
        }
        return;
    }
    // Versus has no target and no early win: the buzzer (or a burnt-down kitchen) names the
    // team with the higher score, or a draw.
    if let Some(versus) = room.versus {
        if room.time_left == 0 || room.hazards.burnt_down {
            let result = versus.verdict();
            room.result = Some(result);
            room.events.push(SimEvent::VersusEnd { result, scores: versus.scores() });
        }
        return;
    }
    let won = room.score >= room.level.target_score;
    // A kitchen burnt down (stage 6: every flammable fixture ablaze) is lost on the spot.
    if won || room.time_left == 0 || room.hazards.burnt_down {
        decide(room, if won { Verdict::Won } else { Verdict::Lost });
    }
}

fn decide(room: &mut Room, verdict: Verdict) {
    room.result = Some(verdict);
    let stars = stars(room);
    room.events.push(SimEvent::RoundEnd {
        result: verdict,
        score: room.score,
        target: room.level.target_score,
        stars,
    });
}

/// 0 unless won; 1 for a win with under 25 % of the clock left (or no clock); 2 from 25 %;
/// 3 from 50 % — boundaries inclusive, compared exactly in integers.
pub fn stars(room: &Room) -> u8 {
    if room.result != Some(Verdict::Won) {
        return 0;
    }
    let (left, limit) = (room.time_left as u64, room.level.time_limit as u64);
    if limit == 0 {
        1
    } else if 2 * left >= limit {
        3
    } else if 4 * left >= limit {
        2
    } else {
        1
    }
}

/// End a round from outside (a fault, an empty room): ABORTED unless a verdict already stands,
/// and never a ROUND_END.
pub fn abort(room: &mut Room) {
    if room.result.is_none() {
        room.result = Some(Verdict::Aborted);
    }
}

/// Is the round decided (the settle freeze is on)?
pub fn settled(room: &Room) -> bool {
    room.result.is_some()
}
