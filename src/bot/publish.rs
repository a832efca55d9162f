//! `undercooked level publish FILE`: validate a kitchen, prove it with 1–4 planner bots over
//! seeds (the rounds of `bot prove`, [`play_round`]), set its target by the rule of
//! docs/LEVELS.md ("Publishing"), and write its entry — content hash, target, proof, build —
//! into the folder's `index.ron`. A kitchen two bots do not win on every seed is refused, by
//! team size and seed. A versus kitchen (one with `teams`) gets the versus proof instead
//! (`publish_versus.rs`): its entry has no target, and its file is not rewritten.

use clap::Args;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::prove::{RoundOutcome, play_round, recipe_book};
use super::publish_versus::prove_versus_for_publish;
use crate::level::files::INDEX_FILE;
use crate::level::index::index_header;
use crate::level::{IndexEntry, Proof, PublishedIndex, TeamProof, file_hash, parse_index};
use crate::level::{LevelError, parse_level};
use crate::sim::kitchen::Level;
use crate::sim::recipe_book::RecipeBook;
use crate::sim::verdict::Verdict;

/// Options of `level publish`.
#[derive(Args, Debug, Clone)]
pub struct PublishArgs {
    /// The level file to publish.
    pub file: PathBuf,
    /// Seeds 1..=N for every team size.
    #[arg(long, default_value_t = PUBLISH_SEEDS, value_parser = clap::value_parser!(u64).range(1..=100))]
    pub seeds: u64,
    /// The index to write (default: `index.ron` beside the file).
    #[arg(long)]
    pub index: Option<PathBuf>,
}

/// The seeds (1..=N) a publish plays by default; `level generate` proves with the same.
pub const PUBLISH_SEEDS: u64 = 5;

/// The team sizes a kitchen is proved with.
pub const TEAMS: [u8; 4] = [1, 2, 3, 4];

/// What the bots showed and the target the rule set: [`prove_for_publish`]'s answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Publication {
    /// Two bots' score at the end of the full clock, per seed (the rule's input).
    pub full_clock: Vec<i32>,
    pub target: i32,
    /// Per team size, each seed's round with the new target.
    pub rounds: Vec<(u8, Vec<RoundOutcome>)>,
}

impl Publication {
    /// The seeds a team of `bots` lost.
    pub fn lost(&self, bots: u8) -> Vec<u64> {
        let rounds = self.rounds.iter().find(|(b, _)| *b == bots).map(|(_, r)| r.as_slice());
        let lost = rounds.unwrap_or_default().iter().filter(|o| o.verdict != Some(Verdict::Won));
        lost.map(|o| o.seed).collect()
    }

    /// Team size → wins/seeds and median ticks to the verdict.
    pub fn proof(&self) -> Proof {
        let teams = self
            .rounds
            .iter()
            .map(|(bots, rounds)| TeamProof {
                bots: *bots,
                wins: rounds.iter().filter(|o| o.verdict == Some(Verdict::Won)).count() as u32,
                median_ticks: median(rounds.iter().map(|o| o.ticks as i64).collect()) as u32,
            })
            .collect();
        Proof { seeds: self.full_clock.len() as u32, teams }
    }
}

/// The lower median (the middle value; of two middles the smaller), 0 for none.
fn median(mut v: Vec<i64>) -> i64 {
    v.sort_unstable();
    v.get(v.len().saturating_sub(1) / 2).copied().unwrap_or(0)
}

/// The publishing rule (docs/LEVELS.md, "The target rule"): a third of two bots' median
/// full-clock score, rounded down to a multiple of 10, at least 10.
pub fn target_rule(full_clock: &[i32]) -> i32 {
    let m = median(full_clock.iter().map(|&s| i64::from(s)).collect());
    let third = (m / 3 / 10 * 10).max(10);
    i32::try_from(third).unwrap_or(i32::MAX)
}

/// Every round a publish plays: two bots over the whole clock (target out of reach), then each
/// team size against the target the rule sets. Each round is a pure function of level, seed
/// and team, so the answer does not depend on how [`map_rounds`] spreads them.
pub fn prove_for_publish(level: &Level, book: &Arc<RecipeBook>, seeds: u64) -> Publication {
    let mut open = level.clone();
    open.target_score = i32::MAX;
    let open = Arc::new(open);
    let full_clock: Vec<i32> = map_rounds((1..=seeds).collect(), |seed| {
        play_round(open.clone(), book.clone(), seed, 2, false, |_, _| {}).score
    })
    .into_iter()
    .map(|s| s.unwrap_or(0))
    .collect();
    let target = target_rule(&full_clock);
    let mut aimed = level.clone();
    aimed.target_score = target;
    let aimed = Arc::new(aimed);
    let rounds = map_rounds(TEAMS.to_vec(), |bots| {
        let one = |seed| play_round(aimed.clone(), book.clone(), seed, bots, false, |_, _| {});
        (bots, (1..=seeds).map(one).collect::<Vec<_>>())
    });
    Publication { full_clock, target, rounds: rounds.into_iter().flatten().collect() }
}

/// `f` over `items`, answers in their order (`None` for one that panicked): on scoped threads
/// natively, one after another on wasm32, which has none.
fn map_rounds<I: Send, T: Send>(items: Vec<I>, f: impl Fn(I) -> T + Sync) -> Vec<Option<T>> {
    #[cfg(target_arch = "wasm32")]
    {
        items.into_iter().map(|i| Some(f(i))).collect()
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let f = &f;
        std::thread::scope(|s| {
            let runs: Vec<_> = items.into_iter().map(|i| s.spawn(move || f(i))).collect();
            runs.into_iter().map(|h| h.join().ok()).collect()
        })
    }
}

/// The file's text with its `target_score:` line set to `target` (the rest byte for byte).
pub fn with_target(text: &str, target: i32) -> Option<String> {
    let mut done = false;
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let body = line.trim_start();
        if !done && body.starts_with("target_score:") {
            let indent = &line[..line.len() - body.len()];
            let rest = body["target_score:".len()..].trim_start();
            let tail = rest.trim_start_matches(|c: char| c.is_ascii_digit() || c == '-');
            out.push_str(&format!("{indent}target_score: {target}{tail}"));
            done = true;
        } else {
            out.push_str(line);
        }
    }
    done.then_some(out)
}

/// Why a publish stopped: the exit code and what to print.
#[derive(Debug)]
pub enum PublishError {
    /// Unreadable file or index, unwritable output: exit 2.
    Io(String),
    /// The file or the index is invalid: exit 1, each problem on its line.
    Invalid(Vec<LevelError>),
    /// The bots' proof refused it: exit 1.
    Refused(String),
}

/// `level publish`: prints the proof and writes the file (its target) and the index.
pub fn run(args: &PublishArgs) -> u8 {
    match publish(args) {
        Ok(lines) => {
            lines.iter().for_each(|l| println!("{l}"));
            0
        }
        Err(PublishError::Io(e)) => {
            eprintln!("error: {e}");
            2
        }
        Err(PublishError::Invalid(errors)) => {
            errors.iter().for_each(|e| println!("{e}"));
            1
        }
        Err(PublishError::Refused(why)) => {
            println!("{why}");
            1
        }
    }
}

fn read(path: &Path) -> Result<Vec<u8>, PublishError> {
    std::fs::read(path).map_err(|e| PublishError::Io(format!("{}: {e}", path.display())))
}

fn write(path: &Path, text: &str) -> Result<(), PublishError> {
    std::fs::write(path, text).map_err(|e| PublishError::Io(format!("{}: {e}", path.display())))
}

/// The folder's index and its comment header; a new one (no file yet) is empty, with a header
/// that says what the folder is (the campaign, or versus kitchens).
fn read_index(index_path: &Path, versus: bool) -> Result<(PublishedIndex, String), PublishError> {
    match std::fs::read(index_path) {
        Ok(b) => {
            let file = index_path.display().to_string();
            let index = parse_index(&b, &file).map_err(PublishError::Invalid)?;
            Ok((index, index_header(&String::from_utf8_lossy(&b))))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let head = if versus {
                "// The versus kitchens a host offers, each as `undercooked level publish` \
                 proved it (docs/LEVELS.md).\n"
            } else {
                "// The campaign in play order, each level as `undercooked level publish` \
                 proved it (docs/LEVELS.md).\n"
            };
            Ok((PublishedIndex::default(), head.to_string()))
        }
        Err(e) => Err(PublishError::Io(format!("{}: {e}", index_path.display()))),
    }
}

/// Validates, proves and writes; the lines to print on success.
pub fn publish(args: &PublishArgs) -> Result<Vec<String>, PublishError> {
    let book = Arc::new(recipe_book().map_err(PublishError::Io)?);
    let label = args.file.display().to_string();
    let bytes = read(&args.file)?;
    let level = parse_level(&bytes, &label, &book).map_err(PublishError::Invalid)?;
    let index_path = match &args.index {
        Some(p) => p.clone(),
        None => args.file.parent().unwrap_or(Path::new(".")).join(INDEX_FILE),
    };
    let versus = level.teams.is_some();
    let (mut index, header) = read_index(&index_path, versus)?;
    // One index, one kind: a campaign index lists co-op kitchens, a versus folder's versus
    // kitchens (a host offers each folder to its own mode).
    if let Some(other) =
        index.levels.iter().find(|e| e.versus.is_some() != versus && e.id != level.id)
    {
        let (this, that) = if versus { ("versus", "co-op") } else { ("co-op", "versus") };
        return Err(PublishError::Refused(format!(
            "PUBLISH_REFUSED: {label}: `{}` is a {this} kitchen and {} lists {that} kitchens \
             (`{}`); publish it into its own folder's index (versus: levels_versus/)",
            level.id,
            index_path.display(),
            other.id
        )));
    }
    // A versus round has no target and no win (the buzzer names a team): it gets the versus
    // proof (`publish_versus`), and its file is left as it is (no target to set).
    if versus {
        let p = prove_versus_for_publish(&level, &book, args.seeds)
            .map_err(|e| PublishError::Refused(format!("PUBLISH_REFUSED: {label}: {e}")))?;
        let mut lines = p.lines(&level.id);
        if let Some(why) = p.refusal(&label, &level.id) {
            lines.push(why);
            return Err(PublishError::Refused(lines.join("\n")));
        }
        let entry = p.entry(&level.id, &bytes);
        lines.push(format!(
            "published versus `{}`: hash {} -> {}",
            entry.id,
            entry.hash,
            index_path.display()
        ));
        index.upsert(entry);
        write(&index_path, &index.to_text(&header))?;
        return Ok(lines);
    }
    let p = prove_for_publish(&level, &book, args.seeds);
    let mut lines = vec![format!(
        "{}: two bots over the whole {} s clock scored {:?} (seeds 1..={}); target {} -> {}",
        level.id,
        level.time_limit / 20,
        p.full_clock,
        args.seeds,
        level.target_score,
        p.target
    )];
    for t in &p.proof().teams {
        let lost = p.lost(t.bots);
        lines.push(format!(
            "  {} bot(s): won {}/{}, median {} ticks{}",
            t.bots,
            t.wins,
            args.seeds,
            t.median_ticks,
            if lost.is_empty() { String::new() } else { format!(", lost seeds {lost:?}") }
        ));
    }
    let lost_by_two = p.lost(2);
    if !lost_by_two.is_empty() {
        let teams: Vec<String> = TEAMS
            .iter()
            .map(|&b| (b, p.lost(b)))
            .filter(|(_, lost)| !lost.is_empty())
            .map(|(b, lost)| format!("{b} bot(s) lost seeds {lost:?}"))
            .collect();
        lines.push(format!(
            "PUBLISH_REFUSED: {label}: a team of two does not win `{}` at target {} on every \
             seed: {}",
            level.id,
            p.target,
            teams.join("; ")
        ));
        return Err(PublishError::Refused(lines.join("\n")));
    }
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let text = with_target(&text, p.target).ok_or_else(|| {
        PublishError::Io(format!("{label}: no `target_score:` line to set the target on"))
    })?;
    let check = parse_level(text.as_bytes(), &label, &book).map_err(PublishError::Invalid)?;
    if check.target_score != p.target {
        return Err(PublishError::Io(format!("{label}: the target line did not take")));
    }
    if text.as_bytes() != bytes.as_slice() {
        write(&args.file, &text)?;
    }
    let entry = IndexEntry {
        id: level.id.clone(),
        hash: file_hash(text.as_bytes()),
        target: p.target,
        proof: p.proof(),
        versus: None,
        build: format!("undercooked {}", env!("CARGO_PKG_VERSION")),
    };
    lines.push(format!(
        "published `{}`: hash {}, target {} -> {}",
        entry.id,
        entry.hash,
        entry.target,
        index_path.display()
    ));
    index.upsert(entry);
    write(&index_path, &index.to_text(&header))?;
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rule_takes_a_third_of_the_median_down_to_ten() {
        assert_eq!(target_rule(&[300, 330, 360, 400, 200]), 110);
        assert_eq!(target_rule(&[0, 0, 5]), 10);
        assert_eq!(target_rule(&[95, 91]), 30);
    }

    #[test]
    fn the_target_line_is_rewritten_in_place() {
        let text = "Level(\n    time_limit: 60.0,\n    target_score: 100, // ok\n)\n";
        let out = with_target(text, 70).expect("a target line");
        assert_eq!(out, "Level(\n    time_limit: 60.0,\n    target_score: 70, // ok\n)\n");
        assert_eq!(with_target("Level()", 1), None);
    }
}
