//! A Tandem room: the whole state of one run (course, body, grip, damage, progress, orders,
//! the hash chain), built from a `Course` and stepped by `step.rs`. Plain data a Bevy
//! component or a server's room can own; the views a client draws are in `view.rs`.

use super::body::HULL;
use super::control::{Motion, Seat, SeatOrder};
use super::course::{Course, generate};
use super::events::{Phase, TandemEvent};
use super::progress::cumulative;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Ticks a second.
pub const TICK_HZ: u32 = 24;
/// The longest run: 100 s.
pub const MAX_TICKS: u32 = 2_400;
/// The seed's decision turn, and live control (the default for people).
pub const TURN_TICKS_DECISION: u32 = 48;
pub const TURN_TICKS_LIVE: u32 = 1;

/// How often orders are installed: the two values a course may be played at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TurnTicks {
    /// Every tick: people steering live.
    Live,
    /// Every 48 ticks (2 s): the seed's decision turns.
    Decision,
}

impl TurnTicks {
    pub fn ticks(self) -> u32 {
        match self {
            TurnTicks::Live => TURN_TICKS_LIVE,
            TurnTicks::Decision => TURN_TICKS_DECISION,
        }
    }

    /// The turn of this many ticks, if it is one a course may be played at.
    pub fn of_ticks(ticks: u32) -> Option<TurnTicks> {
        match ticks {
            TURN_TICKS_LIVE => Some(TurnTicks::Live),
            TURN_TICKS_DECISION => Some(TurnTicks::Decision),
            _ => None,
        }
    }
}

/// One installed order: the replay record, and the one path an order takes into a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct OrderRecord {
    pub tick: u32,
    pub seat: Seat,
    pub order: SeatOrder,
}

/// The spectator's tallies (step 8): never scored, never hashed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stats {
    /// Ticks with any disc touching, and with any hull disc scraping.
    pub contact_ticks: u32,
    pub scrape_ticks: u32,
    pub impacts: u32,
    pub drops: u32,
    /// The largest felt strain either seat felt, mN.
    pub peak_strain: i32,
    /// Damage blamed on each seat (the nearer handle).
    pub blame: [i32; 2],
}

/// One hull disc's contact memory across ticks (impacts need "first contact", scrapes
/// "continuing contact" and their event throttle).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct HullMemory {
    pub touching: bool,
    /// No scrape event before this tick.
    pub quiet_until: u32,
    /// Scrape damage accrued since the last scrape event (for that event only).
    pub unreported: u16,
}

/// One run of Tandem.
#[derive(Clone, Debug)]
pub struct TandemRoom {
    pub course: Arc<Course>,
    /// The route's length to each of `course.route_pts`, µm.
    pub route_cum: Arc<Vec<i64>>,
    pub turn_ticks: TurnTicks,
    /// Ticks run so far; the next `step` runs tick `tick`.
    pub tick: u32,
    pub phase: Phase,
    pub motion: Motion,
    pub damage: i32,
    pub slip: [i32; 2],
    /// Each seat's felt strain, mN (world axes): the mean over the tick's substeps.
    pub strain: [(i32, i32); 2],
    /// The seat forces compiled this tick, mN.
    pub forces: [(i32, i32); 2],
    pub regrip_until: u32,
    pub best_progress_permille: i32,
    /// The route segment the best progress lies on.
    pub best_segment: u32,
    /// Bit `i`: doorway `i` beaten.
    pub doorways_passed: u32,
    /// The tick count when the couch was delivered.
    pub delivery_tick: Option<u32>,
    /// Orders collected since the last turn boundary, and those in force.
    pub pending: [SeatOrder; 2],
    pub active: [SeatOrder; 2],
    pub hulls: [HullMemory; HULL],
    pub stats: Stats,
    /// The chain head: the hash of the last tick run (the course digest before tick 0).
    pub hash: u64,
    /// Every order installed that differs from the one it replaced (a replay's script).
    pub order_log: Vec<OrderRecord>,
    /// This tick's events (cleared by `step`).
    pub events: Vec<TandemEvent>,
}

impl TandemRoom {
    /// A run on the course of `seed`.
    pub fn new(seed: u64, turn_ticks: TurnTicks) -> Self {
        TandemRoom::on_course(Arc::new(generate(seed)), turn_ticks)
    }

    /// A run on a given (expanded) course: a replay plays the course it carries.
    pub fn on_course(course: Arc<Course>, turn_ticks: TurnTicks) -> Self {
        let motion = Motion {
            x: course.start.x,
            y: course.start.y,
            angle: course.start_angle,
            ..Motion::default()
        };
        TandemRoom {
            route_cum: Arc::new(cumulative(&course)),
            hash: course.digest,
            course,
            turn_ticks,
            tick: 0,
            phase: Phase::Carrying,
            motion,
            damage: 0,
            slip: [0; 2],
            strain: [(0, 0); 2],
            forces: [(0, 0); 2],
            regrip_until: 0,
            best_progress_permille: 0,
            best_segment: 0,
            doorways_passed: 0,
            delivery_tick: None,
            pending: [SeatOrder::HOLD; 2],
            active: [SeatOrder::HOLD; 2],
            hulls: [HullMemory::default(); HULL],
            stats: Stats::default(),
            order_log: Vec::new(),
            events: Vec::new(),
        }
    }

    /// Installs an order record: the one path, live (from `step` at a turn boundary) and in
    /// playback. Logged when it changes the seat's order.
    pub fn install(&mut self, record: OrderRecord) {
        let order = record.order.quantised();
        let seat = record.seat.index();
        if self.active[seat] != order {
            self.active[seat] = order;
            self.order_log.push(OrderRecord { order, ..record });
            self.events.push(TandemEvent::OrderInstalled { seat: record.seat });
        }
    }

    /// The outcome, once the run has ended.
    pub fn outcome(&self) -> Option<super::events::Outcome> {
        match self.phase {
            Phase::Ended(o) => Some(o),
            _ => None,
        }
    }
}
