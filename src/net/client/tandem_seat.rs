//! A headless connection's seat in a Tandem round (`undercooked join … --headless` in a room
//! playing Tandem): while a round is live and this connection's seat carries a handle, it sends
//! that seat's order once for every Tandem tick it sees: the porter's, planned from the
//! replicated view as the server's porter plans from the room (`--inputs bot`: two such seats
//! are a bot pair online), a wandering stick (`random`), a still hold (`idle`); `manual` sends
//! nothing (tests send by hand). Every mode keeps the facts the server tells the room
//! ([`TandemEvents`]), each tick once. The game window's `--autoplay` drives its seats online
//! with the same [`TandemSeat::answer`] (`client::tandem::online`).

use crate::net::client::session::SendPace;
use crate::protocol::tandem::{Carrier, TandemEvents, TandemLive, TandemOrder, TandemRoundInfo};
use crate::tandem::control::{Seat, SeatOrder};
use crate::tandem::course::generate;
use crate::tandem::events::{Phase, TandemEvent};
use crate::tandem::porter::{Porter, Sight};
use bevy::prelude::*;

/// Ticks a random stick is held before the next is drawn (1 s).
const RANDOM_HOLD: u32 = 24;

/// What drives a headless seat's handle (`--inputs bot`, `random`, `idle`, `manual`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatDriver {
    Porter,
    Random,
    Hold,
    Manual,
}

/// This connection's Tandem seat: what it sends and what it has heard.
#[derive(Resource, Debug)]
pub struct TandemSeat {
    mode: SeatDriver,
    /// The room seat this connection holds (its slot 0's).
    seat: Option<u8>,
    /// The round being followed (its course seed), and its porter when `--inputs bot` carries.
    seed: Option<u64>,
    porter: Option<Porter>,
    /// The view tick last answered with an order.
    answered: Option<u32>,
    /// The last order seq sent (rising for the whole connection: the server keeps the newest).
    pub seq: u32,
    pub orders_sent: u64,
    /// The round's facts the server told this connection, `(tick, event)`, each tick once.
    pub heard: Vec<(u32, TandemEvent)>,
    /// Messages dropped as a tick already heard.
    pub repeats: u32,
    rng: u64,
    stick: SeatOrder,
}

impl TandemSeat {
    pub fn new(mode: SeatDriver, seat: Option<u8>) -> TandemSeat {
        TandemSeat {
            mode,
            seat,
            seed: None,
            porter: None,
            answered: None,
            seq: 0,
            orders_sent: 0,
            heard: Vec::new(),
            repeats: 0,
            rng: 0x9E37_79B9_7F4A_7C15,
            stick: SeatOrder::HOLD,
        }
    }

    /// A new round: forget the last one's porter, ticks and facts.
    pub fn follow(&mut self, info: &TandemRoundInfo) {
        if self.seed == Some(info.seed) {
            return;
        }
        let seat = self.seat;
        self.seed = Some(info.seed);
        self.answered = None;
        self.heard.clear();
        let carries =
            seat.filter(|&s| matches!(info.carriers.get(s as usize), Some(Carrier::Player(_))));
        self.porter = match (self.mode, carries) {
            (SeatDriver::Porter, Some(s)) => {
                let course = generate(info.seed);
                // Another build's rules would plan another course: hold rather than steer.
                (course.digest == info.digest)
                    .then(|| Porter::new(Seat::BOTH[s as usize], &course, info.turn_ticks))
            }
            _ => None,
        };
    }

    /// A fact message: kept unless its tick was heard already.
    pub fn hear(&mut self, message: &TandemEvents) {
        if self.heard.last().is_some_and(|(tick, _)| message.tick <= *tick) {
            self.repeats += 1;
            return;
        }
        self.heard.extend(message.events.iter().map(|e| (message.tick, *e)));
    }

    /// This seat's order for a view it has not answered yet, when its seat carries and the run
    /// is on (call [`TandemSeat::follow`] with the round first).
    pub fn answer(&mut self, info: &TandemRoundInfo, live: &TandemLive) -> Option<SeatOrder> {
        let mine = self.seat?;
        let carries = matches!(info.carriers.get(mine as usize), Some(Carrier::Player(_)));
        if !carries || matches!(live.0.phase, Phase::Ended(_)) || self.answered == Some(live.0.tick)
        {
            return None;
        }
        let order = self.order(info, live)?;
        self.answered = Some(live.0.tick);
        Some(order)
    }

    /// The order this seat sends after seeing `live`, if it sends one.
    fn order(&mut self, info: &TandemRoundInfo, live: &TandemLive) -> Option<SeatOrder> {
        match self.mode {
            SeatDriver::Manual => None,
            SeatDriver::Hold => Some(SeatOrder::HOLD),
            SeatDriver::Porter => {
                let seen = Sight::of_view(&live.0, info.turn_ticks);
                Some(self.porter.as_mut().map_or(SeatOrder::HOLD, |p| p.order_at(seen)))
            }
            SeatDriver::Random => {
                if live.0.tick.is_multiple_of(RANDOM_HOLD) || self.answered.is_none() {
                    // xorshift64*: variety, not quality.
                    self.rng ^= self.rng >> 12;
                    self.rng ^= self.rng << 25;
                    self.rng ^= self.rng >> 27;
                    let r = self.rng.wrapping_mul(0x2545_F491_4F6C_DD1D);
                    let axis = |v: u64| ((v % 3) as i32 - 1) * 1000;
                    self.stick =
                        SeatOrder::from_stick(axis(r), axis(r >> 8), (r >> 16).is_multiple_of(8));
                }
                Some(self.stick)
            }
        }
    }
}

/// Follows the room's Tandem round: hears its facts, and answers each new view with this
/// seat's order when the seat carries.
pub fn play_tandem_seat(
    rounds: Query<(&TandemRoundInfo, &TandemLive)>,
    mut told: MessageReader<TandemEvents>,
    mut seat: ResMut<TandemSeat>,
    mut pace: ResMut<SendPace>,
    mut out: MessageWriter<TandemOrder>,
) {
    let round = rounds.iter().next();
    if let Some((info, _)) = round {
        seat.follow(info);
    }
    for message in told.read() {
        seat.hear(message);
    }
    let Some((info, live)) = round else { return };
    let Some(order) = seat.answer(info, live) else { return };
    seat.seq += 1;
    seat.orders_sent += 1;
    out.write(TandemOrder { slot: 0, seq: seat.seq, order });
    pace.due = true;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tandem::room::{TandemRoom, TurnTicks};

    fn info(room: &TandemRoom) -> TandemRoundInfo {
        TandemRoundInfo {
            seed: room.course.seed,
            digest: room.course.digest,
            turn_ticks: room.turn_ticks,
            carriers: [Carrier::Player("A".into()), Carrier::Porter],
        }
    }

    #[test]
    fn a_bot_seat_answers_each_view_with_the_servers_porter_order() {
        let mut room = TandemRoom::new(4, TurnTicks::Live);
        let mut seat = TandemSeat::new(SeatDriver::Porter, Some(0));
        seat.follow(&info(&room));
        let mut server = Porter::new(Seat::BOTH[0], &room.course, room.turn_ticks);
        let mut aft = Porter::new(Seat::BOTH[1], &room.course, room.turn_ticks);
        for _ in 0..120 {
            let live = TandemLive(room.view());
            let mine = seat.answer(&info(&room), &live).unwrap();
            assert_eq!(seat.answer(&info(&room), &live), None, "one answer a view");
            assert_eq!(mine, server.order(&room), "tick {}", room.tick);
            let other = aft.order(&room);
            room.step([mine, other]).unwrap();
        }
        // A seat the porter holds on the server has no porter here.
        let mut watcher = TandemSeat::new(SeatDriver::Porter, Some(1));
        watcher.follow(&info(&room));
        assert!(watcher.porter.is_none());
        assert_eq!(watcher.answer(&info(&room), &TandemLive(room.view())), None);
    }

    #[test]
    fn each_tick_is_heard_once_and_a_new_round_starts_afresh() {
        let room = TandemRoom::new(4, TurnTicks::Live);
        let mut seat = TandemSeat::new(SeatDriver::Manual, Some(0));
        seat.follow(&info(&room));
        let beat =
            |tick, index| TandemEvents { tick, events: vec![TandemEvent::DoorwayBeat { index }] };
        seat.hear(&beat(10, 0));
        seat.hear(&beat(10, 0));
        seat.hear(&beat(9, 0));
        seat.hear(&beat(30, 1));
        assert_eq!(seat.heard.len(), 2);
        assert_eq!(seat.repeats, 2);
        assert_eq!(seat.answer(&info(&room), &TandemLive(room.view())), None, "manual sends none");
        seat.follow(&info(&TandemRoom::new(5, TurnTicks::Live)));
        assert!(seat.heard.is_empty());
    }
}
