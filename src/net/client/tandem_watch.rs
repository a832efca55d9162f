//! What a headless client saw of a live Tandem round (`undercooked join … --stats`): the couch's
//! place when first seen and how far it got from there, progress, damage, doorways, the score,
//! and per seat who carries, the orders the server put in force (how many views showed a push,
//! the last push) and the most strain felt. Read from the replicated `TandemRoundInfo` and
//! `TandemLive`, so it is what the server ran, not what a player's page says it sent:
//! web/e2e.sh's Tandem run checks the browser's seat pushed and the couch moved with it.

use crate::protocol::tandem::{Carrier, TandemRoundInfo};
use crate::tandem::control::SeatOrder;
use crate::tandem::trig::length;
use crate::tandem::view::TandemView;
use bevy::prelude::Entity;
use serde_json::{Value, json};

/// One seat of the round as watched.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SeatTrack {
    /// The order in force at the newest view.
    pub order: SeatOrder,
    /// Views whose order for this seat pushed (a non-zero stick).
    pub pushing_views: u64,
    /// The newest order with a push, if any view showed one.
    pub last_push: Option<SeatOrder>,
    /// The most felt strain seen (meter, permille of twice the grip limit).
    pub strain_meter_max: i32,
    /// The most slip seen (permille of the drop).
    pub slip_max_permille: i32,
}

/// The round being watched: where the couch was first seen, where it is, how far it got.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TandemTrack {
    /// The round's replicated entity (a new one is a new round).
    pub round: Entity,
    pub info: TandemRoundInfo,
    /// Distinct ticks seen (the view is replicated each tick it runs; a client may skip some).
    pub views: u64,
    pub first_tick: u32,
    pub first_centre_mm: (i32, i32),
    pub view: TandemView,
    /// The farthest the couch's centre got from where it was first seen, mm.
    pub farthest_mm: i64,
    pub seats: [SeatTrack; 2],
}

/// Every Tandem round a client saw: how many, and the newest in full.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TandemWatch {
    pub rounds: u32,
    pub last: Option<TandemTrack>,
}

impl TandemWatch {
    /// Takes in the round's view as replicated now; a view of a tick already taken is skipped.
    pub fn see(&mut self, round: Entity, info: &TandemRoundInfo, view: &TandemView) {
        let fresh = match &self.last {
            Some(t) if t.round == round => {
                if t.view.tick == view.tick {
                    return;
                }
                false
            }
            _ => true,
        };
        if fresh {
            self.rounds += 1;
            self.last = Some(TandemTrack {
                round,
                info: info.clone(),
                views: 0,
                first_tick: view.tick,
                first_centre_mm: view.centre_mm,
                view: view.clone(),
                farthest_mm: 0,
                seats: Default::default(),
            });
        }
        let Some(t) = self.last.as_mut() else { return };
        t.views += 1;
        t.view = view.clone();
        let (dx, dy) = (
            i64::from(view.centre_mm.0 - t.first_centre_mm.0),
            i64::from(view.centre_mm.1 - t.first_centre_mm.1),
        );
        t.farthest_mm = t.farthest_mm.max(length(dx, dy));
        for (seat, seen) in t.seats.iter_mut().zip(&view.seats) {
            seat.order = seen.order;
            if seen.order.push_x != 0 || seen.order.push_y != 0 {
                seat.pushing_views += 1;
                seat.last_push = Some(seen.order);
            }
            seat.strain_meter_max = seat.strain_meter_max.max(seen.strain_meter);
            seat.slip_max_permille = seat.slip_max_permille.max(seen.slip_permille);
        }
    }

    /// The `--stats` object (`null` when no Tandem round was seen).
    pub fn stats(&self) -> Value {
        let Some(t) = &self.last else { return Value::Null };
        let v = &t.view;
        let order = |o: SeatOrder| json!([o.push_x, o.push_y, o.yield_permille]);
        let seats: Vec<Value> = t
            .seats
            .iter()
            .zip(&t.info.carriers)
            .enumerate()
            .map(|(i, (s, carrier))| {
                let (name, porter) = match carrier {
                    Carrier::Player(name) => (name.as_str(), false),
                    Carrier::Porter => ("Porter", true),
                };
                json!({
                    "seat": i,
                    "name": name,
                    "porter": porter,
                    "order": order(s.order),
                    "pushing_views": s.pushing_views,
                    "last_push": s.last_push.map(order),
                    "strain_meter_max": s.strain_meter_max,
                    "slip_max_permille": s.slip_max_permille,
                })
            })
            .collect();
        json!({
            "rounds_seen": self.rounds,
            "seed": t.info.seed,
            "turn_ticks": format!("{:?}", t.info.turn_ticks),
            "views": t.views,
            "first_tick": t.first_tick,
            "tick": v.tick,
            "phase": format!("{:?}", v.phase),
            "first_centre_mm": [t.first_centre_mm.0, t.first_centre_mm.1],
            "centre_mm": [v.centre_mm.0, v.centre_mm.1],
            "farthest_mm": t.farthest_mm,
            "heading_deg": v.heading_deg,
            "progress_permille": v.progress_permille,
            "damage": v.damage,
            "doorways_passed": v.doorways_passed,
            "doorways": v.doorways,
            "score": v.score.score,
            "seats": seats,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tandem::room::{TandemRoom, TurnTicks};

    /// A run where only the aft seat pushes: the watch sees the couch move, the aft seat's
    /// pushes and none from the fore seat; a repeated tick is not counted twice; a new round
    /// entity starts a new track.
    #[test]
    fn a_watch_sees_who_pushed_and_how_far_the_couch_went() {
        let mut room = TandemRoom::new(3, TurnTicks::Live);
        let info = TandemRoundInfo {
            seed: 3,
            digest: room.course.digest,
            turn_ticks: TurnTicks::Live,
            carriers: [Carrier::Player("Watcher".into()), Carrier::Player("Browser".into())],
        };
        let round = Entity::from_raw_u32(7).expect("a valid index");
        let mut watch = TandemWatch::default();
        assert_eq!(watch.stats(), Value::Null);
        watch.see(round, &info, &room.view());
        let east = SeatOrder::from_stick(1000, 0, false);
        for _ in 0..72 {
            room.step([SeatOrder::HOLD, east]).expect("the run goes on");
            watch.see(round, &info, &room.view());
            watch.see(round, &info, &room.view());
        }
        let t = watch.last.as_ref().expect("a round seen");
        assert_eq!(t.views, 73, "one view per tick");
        assert!(t.farthest_mm > 100, "the couch moved: {} mm", t.farthest_mm);
        assert_eq!(t.seats[0].pushing_views, 0);
        assert!(t.seats[1].pushing_views >= 71, "{:?}", t.seats[1]);
        assert_eq!(t.seats[1].last_push, Some(east));
        let stats = watch.stats();
        assert_eq!(stats["seats"][1]["name"], "Browser");
        assert_eq!(stats["seats"][0]["porter"], false);
        assert_eq!(stats["farthest_mm"], t.farthest_mm);
        let next = Entity::from_raw_u32(8).expect("a valid index");
        watch.see(next, &info, &TandemRoom::new(3, TurnTicks::Live).view());
        assert_eq!((watch.rounds, watch.last.as_ref().map(|t| t.views)), (2, Some(1)));
    }
}
