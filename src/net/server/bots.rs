//! `--bots-fill`: planner bots take the empty seats of a hosted round and cook beside the players.
//!
//! A bot is just another input source; in a versus round each side's bots are their own team. When a round starts, [`fill_seats`] picks the empty seat
//! indices to give to bots; the round entity then carries a [`RoundBots`] team, and
//! [`drive_round_bots`] runs every tick *before* the sim resolves inputs, pushing each bot's
//! frame into `room.inputs` — never touching sim state. Bot frames go through the same
//! restamping (`seq` from the room's arrival counter) and the same `admitted` record as a
//! player's, so a round with bots replays from its admitted frames like any other.

use crate::bot::planner::BotTeam;
use crate::net::server::seats::MAX_SEATS;
use crate::schedule::TickSystems;
use crate::sim::ids::Seat;
use crate::sim::room::Room;
use crate::sim::versus::Team;
use bevy::prelude::*;
use std::str::FromStr;

/// How many cooks a round is topped up to with bots.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BotsFill {
    /// As many cooks as the level has spawns (the team the designer drew the kitchen for).
    Spawns,
    /// This many cooks in all (players + bots), 1..=4. Players are never displaced: a room with
    /// more players than this gets no bots.
    Team(u8),
}

impl FromStr for BotsFill {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        if s == "spawns" {
            return Ok(BotsFill::Spawns);
        }
        match s.parse::<u8>() {
            Ok(n) if (1..=MAX_SEATS as u8).contains(&n) => Ok(BotsFill::Team(n)),
            _ => Err(format!("expected a team size 1..={MAX_SEATS} or `spawns`, got `{s}`")),
        }
    }
}

impl BotsFill {
    /// The team size for a level with `spawns` spawn cells, at most [`MAX_SEATS`].
    pub fn team(self, spawns: usize) -> usize {
        match self {
            BotsFill::Spawns => spawns.max(1),
            BotsFill::Team(n) => usize::from(n),
        }
        .min(MAX_SEATS)
    }
}

/// The server's fill policy (absent: no bots).
#[derive(Resource, Clone, Copy, Debug)]
pub struct BotsFillPolicy(pub BotsFill);

/// Bot names by seat: fixed, so a seat's bot is recognisable across rounds and in results, and
/// always starting with "Bot " so every view (lobby list, cook label, results) says what it is.
pub const BOT_NAMES: [&str; MAX_SEATS] = ["Bot Basil", "Bot Sage", "Bot Thyme", "Bot Clove"];

/// The name a bot on `seat` plays under.
pub fn bot_name(seat: Seat) -> &'static str {
    BOT_NAMES[usize::from(seat) % MAX_SEATS]
}

/// The seats bots take: the lowest empty seat indices until the team has `team` cooks.
/// `occupied[i]` is true when a player holds seat `i` (connected or not).
pub fn fill_seats(occupied: &[bool; MAX_SEATS], team: usize) -> Vec<Seat> {
    let players = occupied.iter().filter(|o| **o).count();
    (0..MAX_SEATS)
        .filter(|i| !occupied[*i])
        .take(team.saturating_sub(players))
        .map(|i| i as Seat)
        .collect()
}

/// The bot teams of one live round (on its round entity, so it ends with the round): one for a
/// co-op round, one a side for a versus round ([`bot_teams`]).
#[derive(Component, Debug)]
pub struct RoundBots(pub Vec<BotTeam>);

/// The planner teams for a round's bot seats: all of them one team in a co-op round; in a
/// versus round one team a side (each plans on its own team's rail and windows, with its own
/// claims, as `bot prove --mode versus` plays), a side without a bot left out.
pub fn bot_teams(room: &Room, bots: &[Seat]) -> Vec<BotTeam> {
    if room.versus.is_none() {
        return vec![BotTeam::new(room, bots)];
    }
    Team::BOTH
        .iter()
        .map(|&team| bots.iter().copied().filter(|&s| room.team_of_seat(s) == Some(team)).collect())
        .filter(|side: &Vec<Seat>| !side.is_empty())
        .map(|side| BotTeam::new(room, &side))
        .collect()
}

/// Runs the bots of every hosted round each tick, before the sim reads inputs.
pub struct ServerBotsPlugin;

impl Plugin for ServerBotsPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(FixedUpdate, drive_round_bots.in_set(TickSystems::Host));
    }
}

/// One frame per bot per tick through its room's input gate, as a player's frame goes (the
/// gate stamps the room's arrival seq: a bot never wins an arbitration by its own numbering).
fn drive_round_bots(mut rounds: Query<(&mut Room, &mut RoundBots)>) {
    for (mut room, mut bots) in &mut rounds {
        // A decided round is frozen for its settle: nothing to press.
        if room.result.is_none() {
            bots.0.iter_mut().for_each(|team| team.drive(&mut room));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_fill() {
        assert_eq!("spawns".parse::<BotsFill>(), Ok(BotsFill::Spawns));
        assert_eq!("3".parse::<BotsFill>(), Ok(BotsFill::Team(3)));
        assert!("0".parse::<BotsFill>().is_err());
        assert!("5".parse::<BotsFill>().is_err());
        assert_eq!(BotsFill::Spawns.team(2), 2);
        assert_eq!(BotsFill::Spawns.team(9), MAX_SEATS);
        assert_eq!(BotsFill::Team(3).team(2), 3);
        // One player on seat 1: bots take seats 0 and 2 for a team of three.
        assert_eq!(fill_seats(&[false, true, false, false], 3), vec![0, 2]);
        // Players beyond the team size are never displaced.
        assert!(fill_seats(&[true, true, true, false], 2).is_empty());
    }
}
