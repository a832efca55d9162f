//! `undercooked bot prove --mode tandem [--turn 1|48]`: a porter pair carries the couch on
//! seeds 1..=N and the command says how many deliver. Wall-clock time is read here only to
//! report it.

use super::porter::play_pair;
use super::room::{TandemRoom, TurnTicks};
use std::time::Instant;

/// Plays seeds `1..=seeds` at turns of `turn`; exit 0 when most (more than half) deliver.
pub fn run(seeds: u64, turn: TurnTicks) -> u8 {
    let started = Instant::now();
    let mut delivered = 0;
    let turns = match turn {
        TurnTicks::Live => "live turns",
        TurnTicks::Decision => "decision turns (48 ticks)",
    };
    println!("tandem — two porters, seeds 1..={seeds}, {turns}");
    for seed in 1..=seeds {
        let t = Instant::now();
        let room = play_pair(TandemRoom::new(seed, turn));
        let s = room.score();
        delivered += s.delivered as u64;
        println!(
            "  seed {seed:>2}: {:<10} score {:>4} ticks {:>4} par {:>4} damage {:>4} progress {:>4} drops {} ({} ms)",
            room.outcome().map_or("none".to_string(), |o| format!("{o:?}")),
            s.score,
            room.tick,
            room.course.par_ticks,
            room.damage,
            room.best_progress_permille,
            room.stats.drops,
            t.elapsed().as_millis()
        );
    }
    let verdict = if delivered * 2 > seeds { "MOSTLY DELIVERED" } else { "NOT MOSTLY DELIVERED" };
    println!("  {verdict}: delivered {delivered}/{seeds}");
    println!("proved in {} ms", started.elapsed().as_millis());
    if delivered * 2 > seeds { 0 } else { 1 }
}
