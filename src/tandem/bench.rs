//! `undercooked bench sim --mode tandem`: Tandem's tick throughput, one room and a batch of
//! rooms spread over the cores, with seeded random seats; and the porter's cost per tick.
//!
//! Wall-clock time (and float arithmetic for the printed rates) is used here and only here:
//! this measures the rules, it is not part of them.

use super::control::Seat;
use super::control::SeatOrder;
use super::porter::Porter;
use super::rng::CourseRng;
use super::room::{TandemRoom, TurnTicks};
use std::time::{Duration, Instant};

/// Seeded random seats: a new stick every 8 ticks (full pushes, part pushes, rests), a yield
/// now and then, so runs crash, scrape, drop and regrip as well as carry.
pub struct RandomSeats {
    rng: CourseRng,
    orders: [SeatOrder; 2],
}

impl RandomSeats {
    pub fn new(seed: u64) -> Self {
        RandomSeats { rng: CourseRng::new(seed ^ 0x5EED), orders: [SeatOrder::HOLD; 2] }
    }

    /// The orders for tick `tick`.
    pub fn orders(&mut self, tick: u32) -> [SeatOrder; 2] {
        if tick.is_multiple_of(8) {
            for o in &mut self.orders {
                let r = self.rng.next_u64();
                let axis = |b: u64| (b % 2001) as i32 - 1000;
                let y = if (r >> 40).is_multiple_of(5) { 1000 } else { 0 };
                *o = SeatOrder::new(axis(r), axis(r >> 16), y);
            }
        }
        self.orders
    }
}

/// Steps `rooms` (restarting each with the next seed when its run ends) for `ticks` ticks.
fn step_rooms(rooms: &mut [(TandemRoom, RandomSeats)], ticks: u32, next_seed: &mut u64) {
    for _ in 0..ticks {
        for (room, seats) in rooms.iter_mut() {
            if room.outcome().is_some() {
                *next_seed += 1;
                *room = TandemRoom::new(*next_seed, TurnTicks::Live);
            }
            let orders = seats.orders(room.tick);
            let _ = room.step(orders);
        }
    }
}

/// One measurement: rooms × ticks in a time.
pub struct TandemMeasured {
    pub rooms: u32,
    pub ticks: u32,
    pub threads: u32,
    pub elapsed: Duration,
}

impl TandemMeasured {
    pub fn room_ticks_per_s(&self) -> f64 {
        self.rooms as f64 * self.ticks as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// `rooms` rooms for `ticks` ticks on `threads` threads, each stepping its own share (the rooms
/// are independent, as a server's are).
pub fn run_batch(seed: u64, rooms: u32, ticks: u32, threads: u32) -> TandemMeasured {
    let threads = threads.clamp(1, rooms.max(1));
    let mut all: Vec<(TandemRoom, RandomSeats)> = (0..rooms as u64)
        .map(|r| (TandemRoom::new(seed + r, TurnTicks::Live), RandomSeats::new(seed + r)))
        .collect();
    let chunk = (all.len()).div_ceil(threads as usize).max(1);
    let start = Instant::now();
    std::thread::scope(|s| {
        for (i, part) in all.chunks_mut(chunk).enumerate() {
            s.spawn(move || {
                let mut next = seed + 1_000_000 * (i as u64 + 1);
                step_rooms(part, ticks, &mut next);
            });
        }
    });
    TandemMeasured { rooms, ticks, threads, elapsed: start.elapsed() }
}

/// Two porters carrying on seeds from `seed` for `ticks` ticks: (their time, the sim's time).
pub fn time_porters(seed: u64, ticks: u32) -> (Duration, Duration) {
    let (mut plan, mut sim) = (Duration::ZERO, Duration::ZERO);
    let mut s = seed;
    let mut room = TandemRoom::new(s, TurnTicks::Live);
    let mut bots = Seat::BOTH.map(|s| Porter::new(s, &room.course, room.turn_ticks));
    for _ in 0..ticks {
        if room.outcome().is_some() {
            s += 1;
            room = TandemRoom::new(s, TurnTicks::Live);
            bots = Seat::BOTH.map(|s| Porter::new(s, &room.course, room.turn_ticks));
        }
        let t = Instant::now();
        let orders = [bots[0].order(&room), bots[1].order(&room)];
        let t2 = Instant::now();
        let _ = room.step(orders);
        let t3 = Instant::now();
        plan += t2 - t;
        sim += t3 - t2;
    }
    (plan, sim)
}

/// Runs the Tandem bench; prints the numbers (and one JSON line with `json`).
pub fn run(seed: u64, rooms: u32, ticks: u32, single_ticks: u32, json: bool) -> u8 {
    let profile = if cfg!(debug_assertions) { "debug" } else { "release" };
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()) as u32;
    println!("bench sim --mode tandem: seed {seed}, random seats, live turns, {profile} build");
    let t = Instant::now();
    let course_runs = 1000u64;
    for s in 0..course_runs {
        std::hint::black_box(super::course::generate(seed + s));
    }
    let course_us = t.elapsed().as_secs_f64() * 1e6 / course_runs as f64;
    println!("course:     {course_us:.1} µs to generate (mean of {course_runs})");
    let single = run_batch(seed, 1, single_ticks, 1);
    println!(
        "one room:   {} ticks in {:.3} s = {:.0} ticks/s ({:.2} µs/tick)",
        single.ticks,
        single.elapsed.as_secs_f64(),
        single.room_ticks_per_s(),
        1e6 / single.room_ticks_per_s()
    );
    let batch = run_batch(seed, rooms, ticks, threads);
    println!(
        "batch:      {} rooms × {} ticks on {} threads in {:.3} s = {:.0} room-ticks/s ({:.3} µs/room-tick)",
        batch.rooms,
        batch.ticks,
        batch.threads,
        batch.elapsed.as_secs_f64(),
        batch.room_ticks_per_s(),
        1e6 / batch.room_ticks_per_s()
    );
    let porter_ticks = single_ticks.max(1);
    let (plan, sim) = time_porters(seed, porter_ticks);
    let plan_us = plan.as_secs_f64() * 1e6 / (2.0 * porter_ticks as f64);
    let sim_us = sim.as_secs_f64() * 1e6 / porter_ticks as f64;
    println!(
        "porters:    {plan_us:.2} µs per porter per tick, the sim {sim_us:.2} µs per tick while carrying"
    );
    if json {
        let j = serde_json::json!({
            "bench": "sim",
            "mode": "tandem",
            "seed": seed,
            "profile": profile,
            "course_us": (course_us * 10.0).round() / 10.0,
            "single_room_ticks": single.ticks,
            "single_room_ticks_per_s": single.room_ticks_per_s().round(),
            "threads": batch.threads,
            "rooms": batch.rooms,
            "ticks": batch.ticks,
            "batch_room_ticks_per_s": batch.room_ticks_per_s().round(),
            "porter_us_per_tick": (plan_us * 100.0).round() / 100.0,
        });
        println!("{j}");
    }
    0
}
