//! `level publish` on a versus kitchen: the versus proof instead of the co-op one. Planner bots
//! play both teams (`bot::versus::play_versus_round`, one `BotTeam` a side) over seeds 1..=N,
//! one a side and two a side; both teams must score on every seed, or the kitchen is refused
//! naming the size, the team and the seeds. The entry records wins per side, draws and the
//! median ticks for each size, and no target (the buzzer names a team, nothing is "won").
//! `level publish` (`publish.rs`) reads and writes the folder's index around this.

use std::sync::Arc;

use super::tuning::BotTuning;
use super::versus::{VersusOutcome, play_versus_round};
use crate::level::{IndexEntry, Proof, VersusProof, VersusSideProof, file_hash};
use crate::sim::kitchen::Level;
use crate::sim::recipe_book::RecipeBook;
use crate::sim::verdict::Verdict;
use crate::sim::versus::Team;

/// The round sizes a versus kitchen is proved with: one bot a side, then two a side (bots are
/// seated 0..N and play for their spawn's team, so a mirrored kitchen's even seats face its odd).
pub const VERSUS_SIZES: [u8; 2] = [2, 4];

/// Every versus round a publish played, by size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VersusPublication {
    pub rounds: Vec<(u8, Vec<VersusOutcome>)>,
    pub seeds: u64,
}

/// Why a versus kitchen could not be proved at all (a side without a cook, no teams).
pub type VersusProofError = super::versus::VersusError;

/// Plays every size over seeds 1..=`seeds`, with the default bot tuning (the one
/// `bot prove --mode versus` uses), one round after another: each is a pure function of level,
/// seed and size.
pub fn prove_versus_for_publish(
    level: &Level,
    book: &Arc<RecipeBook>,
    seeds: u64,
) -> Result<VersusPublication, VersusProofError> {
    let level = Arc::new(level.clone());
    let mut rounds = Vec::with_capacity(VERSUS_SIZES.len());
    for bots in VERSUS_SIZES {
        let one =
            |seed| play_versus_round(level.clone(), book.clone(), seed, bots, BotTuning::default());
        rounds.push((bots, (1..=seeds).map(one).collect::<Result<Vec<_>, _>>()?));
    }
    Ok(VersusPublication { rounds, seeds })
}

/// The lower median (of two middles the smaller), 0 for none: the co-op proof's rule.
fn lower_median(mut v: Vec<u32>) -> u32 {
    v.sort_unstable();
    v.get(v.len().saturating_sub(1) / 2).copied().unwrap_or(0)
}

impl VersusPublication {
    /// The seeds of a size's rounds on which `team` scored nothing.
    pub fn scoreless(&self, bots: u8, team: Team) -> Vec<u64> {
        let rounds = self.rounds.iter().find(|(b, _)| *b == bots).map(|(_, r)| r.as_slice());
        let dry = rounds.unwrap_or_default().iter().filter(|o| o.scores[team.index()] <= 0);
        dry.map(|o| o.seed).collect()
    }

    /// Size → wins per side, draws and the median ticks to the verdict.
    pub fn proof(&self) -> VersusProof {
        let sizes = self
            .rounds
            .iter()
            .map(|(bots, rounds)| {
                let count = |v: Verdict| rounds.iter().filter(|o| o.verdict == Some(v)).count();
                VersusSideProof {
                    bots: *bots,
                    a_wins: count(Verdict::TeamA) as u32,
                    b_wins: count(Verdict::TeamB) as u32,
                    draws: count(Verdict::Draw) as u32,
                    median_ticks: lower_median(rounds.iter().map(|o| o.ticks).collect()),
                }
            })
            .collect();
        VersusProof { seeds: self.seeds as u32, sizes }
    }

    /// A line a size: wins per side, draws, median ticks, and any seed a team scored nothing.
    pub fn lines(&self, id: &str) -> Vec<String> {
        let mut lines = vec![format!("{id}: versus, seeds 1..={}", self.seeds)];
        for s in &self.proof().sizes {
            let mut line = format!(
                "  {} bots ({} a side): team A won {}, team B won {}, draws {}, median {} ticks",
                s.bots,
                s.bots / 2,
                s.a_wins,
                s.b_wins,
                s.draws,
                s.median_ticks
            );
            for team in Team::BOTH {
                let dry = self.scoreless(s.bots, team);
                if !dry.is_empty() {
                    line.push_str(&format!(
                        ", team {} scored nothing on seeds {dry:?}",
                        team.as_str()
                    ));
                }
            }
            lines.push(line);
        }
        lines
    }

    /// `Some(why)` when a team failed to score on some seed of some size (each named).
    pub fn refusal(&self, label: &str, id: &str) -> Option<String> {
        let dry: Vec<String> = VERSUS_SIZES
            .iter()
            .flat_map(|&b| Team::BOTH.map(|t| (b, t, self.scoreless(b, t))))
            .filter(|(_, _, seeds)| !seeds.is_empty())
            .map(|(b, t, seeds)| format!("{b} bots: team {} seeds {seeds:?}", t.as_str()))
            .collect();
        (!dry.is_empty()).then(|| {
            format!(
                "PUBLISH_REFUSED: {label}: both teams must score on every seed of versus \
                 `{id}`; scored nothing: {}",
                dry.join("; ")
            )
        })
    }

    /// The index entry for the file's `bytes`: its hash, the versus proof, no target.
    pub fn entry(&self, id: &str, bytes: &[u8]) -> IndexEntry {
        IndexEntry {
            id: id.to_string(),
            hash: file_hash(bytes),
            target: 0,
            proof: Proof::default(),
            versus: Some(self.proof()),
            build: format!("undercooked {}", env!("CARGO_PKG_VERSION")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(seed: u64, verdict: Verdict, scores: [i32; 2], ticks: u32) -> VersusOutcome {
        VersusOutcome {
            seed,
            verdict: Some(verdict),
            scores,
            served: [0, 0],
            missed: [0, 0],
            ticks,
            hash: 0,
        }
    }

    #[test]
    fn the_proof_counts_each_side_and_a_dry_team_is_refused_by_seed() {
        let p = VersusPublication {
            seeds: 3,
            rounds: vec![
                (
                    2,
                    vec![
                        outcome(1, Verdict::TeamA, [40, 20], 3620),
                        outcome(2, Verdict::Draw, [20, 20], 3610),
                        outcome(3, Verdict::TeamB, [0, 20], 3630),
                    ],
                ),
                (4, vec![outcome(1, Verdict::TeamB, [10, 30], 3600)]),
            ],
        };
        let proof = p.proof();
        assert_eq!(
            proof.sizes[0],
            VersusSideProof { bots: 2, a_wins: 1, b_wins: 1, draws: 1, median_ticks: 3620 }
        );
        assert_eq!(proof.sizes[1].b_wins, 1);
        assert_eq!(p.scoreless(2, Team::A), vec![3]);
        assert!(p.scoreless(2, Team::B).is_empty());
        let why = p.refusal("v.ron", "v").expect("team a scored nothing on seed 3");
        assert!(why.contains("PUBLISH_REFUSED") && why.contains("2 bots: team a seeds [3]"));
        let entry = p.entry("v", b"text");
        assert_eq!((entry.target, entry.versus), (0, Some(proof)));
    }
}
