//! The wire of Tandem in a hosted room: the mode a room plays ([`GameMode`], the host's
//! choice in the lobby), the live round's replicated state ([`TandemRoundInfo`] once a round,
//! [`TandemLive`] every tick it moves), the facts of each tick a client sounds and shows
//! ([`TandemEvents`], server → client) and a seat's order ([`TandemOrder`], client → server)
//! with the check every order passes before it reaches a round ([`TandemOrder::checked`]).
//! Plain serde data over `crate::tandem`'s own types; the rules stay in `src/tandem/`.

use crate::tandem::control::SeatOrder;
use crate::tandem::events::TandemEvent;
use crate::tandem::room::TurnTicks;
use crate::tandem::view::TandemView;
use bevy::prelude::*;
use serde::{Deserialize, Serialize};

/// What a hosted room's next round plays: the kitchen, or Tandem (seed 003's couch).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameMode {
    #[default]
    Cooking,
    /// The kitchen on the survival clock (`sim::survival`): no target, the round lasts until
    /// its clock runs out.
    Survival,
    /// Two seats carry one couch (seats 0 fore and 1 aft; seats 2–3 watch): docs/TANDEM.md.
    Tandem,
    /// Two teams in a versus kitchen (the host's `--versus-levels`), each seat on its spawn's
    /// team; the buzzer names the winner or a draw (docs/SIMULATION.md §2.4c).
    Versus,
}

impl GameMode {
    /// The name a lobby shows.
    pub fn label(self) -> &'static str {
        match self {
            GameMode::Cooking => "cooking",
            GameMode::Survival => "survival",
            GameMode::Tandem => "tandem (moving day)",
            GameMode::Versus => "versus",
        }
    }

    /// Does this mode play a versus kitchen (a level with teams)? The others that play a
    /// kitchen play a co-op one.
    pub fn plays_versus(self) -> bool {
        self == GameMode::Versus
    }

    /// The next mode a host without versus kitchens may choose (versus skipped unless
    /// `versus` says the host offers some): what the host's key steps to.
    pub fn next_offered(self, versus: bool) -> GameMode {
        match self.next() {
            GameMode::Versus if !versus => GameMode::Versus.next(),
            next => next,
        }
    }

    /// `--mode`'s words (`cooking`, `survival`, `tandem`, `versus`), refused by name otherwise.
    pub fn parse(s: &str) -> Result<GameMode, String> {
        match s {
            "cooking" => Ok(GameMode::Cooking),
            "survival" => Ok(GameMode::Survival),
            "tandem" => Ok(GameMode::Tandem),
            "versus" => Ok(GameMode::Versus),
            _ => Err(format!("unknown mode `{s}`: cooking, survival, tandem or versus")),
        }
    }

    /// The other mode (the host's key steps through them).
    pub fn next(self) -> GameMode {
        match self {
            GameMode::Cooking => GameMode::Survival,
            GameMode::Survival => GameMode::Tandem,
            GameMode::Tandem => GameMode::Versus,
            GameMode::Versus => GameMode::Cooking,
        }
    }
}

/// The seats that carry in a Tandem round: seat 0 the fore handle, seat 1 the aft. A room's
/// other seats watch.
pub const TANDEM_SEATS: [u8; 2] = [0, 1];

/// Who holds a handle in a live Tandem round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Carrier {
    /// A player's seat (the name the lobby shows).
    Player(String),
    /// Nobody took the seat: the porter bot drives it (seed 003's no-show rule).
    Porter,
}

/// On a live Tandem round's entity, sent once per round: the course by its seed (every client
/// generates it with the same integer code, and checks the digest), the turn, who carries.
#[derive(Component, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TandemRoundInfo {
    pub seed: u64,
    /// The course digest the server's run started from (`Course::digest`).
    pub digest: u64,
    pub turn_ticks: TurnTicks,
    /// By seat: fore, aft.
    pub carriers: [Carrier; 2],
}

/// On the same entity: the run's view (`TandemRoom::view`), replaced every tick it runs.
#[derive(Component, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TandemLive(pub TandemView);

/// The most events one tick's message carries. The rules make at most 17 in a tick (two
/// drops, a regrip, five impacts and five scrapes, a doorway beat, the end, two orders), and
/// orders are never sent, so this bounds a message without ever cutting one.
pub const MAX_TICK_EVENTS: usize = 16;

/// Server → client (the round's room only, reliable and ordered): what tick `tick` of a live
/// Tandem round did that a player hears or sees: bumps, scrapes, drops, regrips, doorway
/// beats, the end. Sent only for a tick that has one; a client plays each tick once (a tick
/// not above the last it played is dropped), so a repeat never sounds twice.
#[derive(Message, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TandemEvents {
    /// The tick that ran (the view after it shows `tick + 1`).
    pub tick: u32,
    pub events: Vec<TandemEvent>,
}

impl TandemEvents {
    /// The facts of tick `tick` a player is told of (installed orders are not: the view shows
    /// each seat's order), bounded by [`MAX_TICK_EVENTS`]; `None` when there are none.
    pub fn of(tick: u32, events: &[TandemEvent]) -> Option<TandemEvents> {
        let events: Vec<TandemEvent> = events
            .iter()
            .filter(|e| !matches!(e, TandemEvent::OrderInstalled { .. }))
            .take(MAX_TICK_EVENTS)
            .copied()
            .collect();
        (!events.is_empty()).then_some(TandemEvents { tick, events })
    }
}

/// Client → server: the order of one of the sender's seats in a live Tandem round: its local
/// player `slot` (the seat is the connection's `Welcome.seats[slot]`, never a payload's
/// claim). Sent every Tandem tick; the newest `seq` wins, an older or repeated one is dropped.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TandemOrder {
    pub slot: u8,
    /// The client's own number (rising per slot).
    pub seq: u32,
    pub order: SeatOrder,
}

/// Why a [`TandemOrder`] is refused before it reaches a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OrderRefusal {
    /// A push past ±1000 permille on an axis, a push longer than a full stick, or a yield
    /// past 1000: no honest client sends it (`SeatOrder::from_stick` never makes one).
    #[error("order {0:?} is out of range (push within the unit disc, yield 0..=1000)")]
    OutOfRange(SeatOrder),
}

impl TandemOrder {
    /// The order, if it is one the rules' own quantisation leaves as it is.
    pub fn checked(&self) -> Result<SeatOrder, OrderRefusal> {
        let o = self.order;
        // `unsigned_abs`: `i16::MIN.abs()` would overflow, and a peer may send it.
        let in_box = o.push_x.unsigned_abs() <= 1000
            && o.push_y.unsigned_abs() <= 1000
            && o.yield_permille <= 1000;
        if in_box && o.quantised() == o { Ok(o) } else { Err(OrderRefusal::OutOfRange(o)) }
    }
}

/// Why a lobby command was not applied (named in the server's log and counted).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum LobbyRefusal {
    /// Only the host (the connection holding seat 0) chooses the mode and the assists.
    #[error("only the host (seat 0) may choose that")]
    NotHost,
    /// Choices and ready flags are taken in the lobby and its countdown only.
    #[error("not now: the room is not in its lobby")]
    WrongPhase,
    /// A kitchen of the other kind: a versus room plays only versus kitchens (levels with
    /// teams), a co-op room only co-op kitchens.
    #[error("LEVEL_WRONG_MODE: that kitchen is not one this room's mode plays")]
    LevelWrongMode,
    /// Versus asked of a host that offers no versus kitchen.
    #[error("NO_VERSUS_KITCHENS: this host offers no published versus kitchen")]
    NoVersusKitchens,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_orders_the_rules_would_keep_pass() {
        let order = |x, y, yld| TandemOrder {
            slot: 0,
            seq: 1,
            order: SeatOrder { push_x: x, push_y: y, yield_permille: yld },
        };
        let good = SeatOrder::from_stick(707, -707, true);
        assert_eq!(order(good.push_x, good.push_y, good.yield_permille).checked(), Ok(good));
        for (x, y, yld) in
            [(1001, 0, 0), (0, -1001, 0), (900, 900, 0), (0, 0, 1001), (i16::MIN, 0, 0)]
        {
            let o = order(x, y, yld);
            assert_eq!(o.checked(), Err(OrderRefusal::OutOfRange(o.order)), "{x} {y} {yld}");
        }
    }

    #[test]
    fn a_ticks_message_leaves_out_orders_and_is_small() {
        use crate::tandem::control::Seat;
        use crate::tandem::events::Outcome;
        let installed = TandemEvent::OrderInstalled { seat: Seat::BOTH[0] };
        assert_eq!(TandemEvents::of(5, &[installed]), None, "nothing to tell");
        let bump = TandemEvent::Impact { disc: 2, damage: 40, blame: Seat::BOTH[1] };
        let beat = TandemEvent::DoorwayBeat { index: 3 };
        let m = TandemEvents::of(9, &[installed, bump, beat]).unwrap();
        assert_eq!(m.events, vec![bump, beat]);
        let mut buf = [0u8; 64];
        let bytes = postcard::to_slice(&m, &mut buf).unwrap();
        assert!(bytes.len() <= 10, "{} bytes", bytes.len());
        assert_eq!(postcard::from_bytes::<TandemEvents>(bytes).unwrap(), m);
        let flood = vec![TandemEvent::Ended { outcome: Outcome::Wrecked }; 40];
        assert_eq!(TandemEvents::of(1, &flood).unwrap().events.len(), MAX_TICK_EVENTS);
    }

    #[test]
    fn the_mode_steps_and_crosses_the_wire() {
        assert_eq!(GameMode::default().next(), GameMode::Survival);
        assert_eq!(GameMode::Survival.next(), GameMode::Tandem);
        assert_eq!(GameMode::Tandem.next(), GameMode::Versus);
        assert_eq!(GameMode::Versus.next(), GameMode::Cooking);
        let mut buf = [0u8; 4];
        let bytes = postcard::to_slice(&GameMode::Tandem, &mut buf).unwrap();
        assert_eq!(postcard::from_bytes::<GameMode>(bytes).unwrap(), GameMode::Tandem);
        assert!(postcard::from_bytes::<GameMode>(&[7]).is_err(), "an unknown mode is refused");
        assert_eq!(GameMode::parse("versus"), Ok(GameMode::Versus));
        assert_eq!(GameMode::Tandem.next_offered(false), GameMode::Cooking);
        assert_eq!(GameMode::Tandem.next_offered(true), GameMode::Versus);
        assert!(GameMode::parse("duel").is_err());
    }
}
