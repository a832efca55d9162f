//! A connection seated after its room's round began has no cook (or couch handle) in that
//! round: the server drops its frames (`no_round` in `net::inputs`) and it watches until the
//! next round. Both clients say so to the player (the window's lobby panel, the headless
//! client's stderr) from what they already see: the lobby's phase and who is in the round.

use crate::protocol::tandem::{Carrier, TandemRoundInfo};
use crate::protocol::{LobbyPhase, LobbyView};

/// What a player who watches the round is told.
pub const WATCHING: &str = "you joined mid-round: watching this one, you play from the next";

/// Whether this connection's `seats` watch the live round whose players hold `in_round`: the
/// lobby is in its round, the round has players (its views have arrived) and none of them is
/// one of these seats.
pub fn watching_round(lobby: &LobbyView, seats: &[u8], in_round: &[u8]) -> bool {
    lobby.phase == LobbyPhase::Round
        && !seats.is_empty()
        && !in_round.is_empty()
        && !in_round.iter().any(|s| seats.contains(s))
}

/// The seats a live round is played by: each kitchen cook's seat, or the Tandem seats a player
/// carries (a porter bot carries the others).
pub fn round_seats<'a>(
    cooks: impl IntoIterator<Item = u8>,
    tandem: impl IntoIterator<Item = &'a TandemRoundInfo>,
) -> Vec<u8> {
    let mut seats: Vec<u8> = cooks.into_iter().collect();
    for info in tandem {
        let players = info.carriers.iter().enumerate();
        seats
            .extend(players.filter(|(_, c)| matches!(c, Carrier::Player(_))).map(|(s, _)| s as u8));
    }
    seats
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lobby(phase: LobbyPhase) -> LobbyView {
        LobbyView { phase, ..Default::default() }
    }

    #[test]
    fn a_seat_with_no_cook_in_the_live_round_watches() {
        let round = lobby(LobbyPhase::Round);
        assert!(watching_round(&round, &[2], &[0, 1]));
        assert!(!watching_round(&round, &[1], &[0, 1]), "seated in the round");
        assert!(!watching_round(&round, &[2], &[]), "the round's views not here yet");
        assert!(!watching_round(&lobby(LobbyPhase::Lobby), &[2], &[0, 1]), "no round on");
        assert!(!watching_round(&lobby(LobbyPhase::Countdown), &[2], &[]));
    }
}
