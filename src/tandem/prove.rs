//! `undercooked bot prove --mode tandem [--turn 1|48]`: a porter pair carries the couch on
//! seeds 1..=N and the command says how many deliver. Wall-clock time is read here only to
//! report it.

use super::porter::play_pair;
use super::room::{TandemRoom, TurnTicks};
use crate::stdout::{OutputError, print_line};
use std::time::Instant;

/// Plays seeds `1..=seeds` at turns of `turn`; exit 0 when most (more than half) deliver, 1
/// when not, 2 when standard output closed (its reader gone: named, not a panic).
pub fn run(seeds: u64, turn: TurnTicks) -> u8 {
    match prove(seeds, turn) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}

fn prove(seeds: u64, turn: TurnTicks) -> Result<u8, OutputError> {
    let started = Instant::now();
    let mut delivered = 0;
    let turns = match turn {
        TurnTicks::Live => "live turns",
        TurnTicks::Decision => "decision turns (48 ticks)",
    };
    print_line(&format!("tandem — two porters, seeds 1..={seeds}, {turns}"), "the title line")?;
    for seed in 1..=seeds {
        let t = Instant::now();
        let room = play_pair(TandemRoom::new(seed, turn));
        let s = room.score();
        delivered += s.delivered as u64;
        print_line(
            &format!(
                "  seed {seed:>2}: {:<10} score {:>4} ticks {:>4} par {:>4} damage {:>4} progress \
                 {:>4} drops {} ({} ms)",
                room.outcome().map_or("none".to_string(), |o| format!("{o:?}")),
                s.score,
                room.tick,
                room.course.par_ticks,
                room.damage,
                room.best_progress_permille,
                room.stats.drops,
                t.elapsed().as_millis()
            ),
            "a seed line",
        )?;
    }
    let verdict = if delivered * 2 > seeds { "MOSTLY DELIVERED" } else { "NOT MOSTLY DELIVERED" };
    print_line(&format!("  {verdict}: delivered {delivered}/{seeds}"), "the verdict line")?;
    print_line(&format!("proved in {} ms", started.elapsed().as_millis()), "the closing line")?;
    Ok(if delivered * 2 > seeds { 0 } else { 1 })
}
