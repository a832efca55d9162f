//! `undercooked bench compare [BASE]`: this change against its parent (or any commit), the
//! way seed 004 measures a change — both trees built and run side by side, `bench sim`'s
//! numbers per build with their medians, spread and ratio, and every golden plus seeded random
//! rounds replayed on both builds: "no rules change", or the first tick and field where the
//! rounds part. docs/PERFORMANCE.md says how to read it.

use super::compare_error::CompareError;
use super::measures::{Compared, compare_speed};
use super::rules::{FieldChange, Verdict, record, rounds, verdict};
use super::trees::{Side, base_side, cache_dir, checkout_root, head_side, resolve};
use clap::Args;
use std::path::PathBuf;

/// Options of `bench compare`.
#[derive(Args, Debug, Clone)]
pub struct CompareArgs {
    /// The commit to measure against: a commit id, branch or tag (default: HEAD's parent).
    #[arg(default_value = "HEAD~1", conflicts_with = "base_bin")]
    pub base: String,
    /// Interleaved rounds of `bench sim` per build (the medians are over these).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=50))]
    pub rounds: u32,
    /// Seeded random rounds per campaign level replayed on both builds.
    #[arg(long, default_value_t = 2)]
    pub seeds: u32,
    /// Ticks of each random round.
    #[arg(long, default_value_t = 1200, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub random_ticks: u32,
    /// Small `bench sim` runs (32 rooms × 40 ticks, 400 single-room ticks): a quick look, not
    /// numbers to quote.
    #[arg(long)]
    pub quick: bool,
    /// End with one JSON object on the last line (for CI).
    #[arg(long)]
    pub json: bool,
    /// Compare two builds already made instead of building: the base's binary (with
    /// `--base-tree`, `--head-bin`, `--head-tree`).
    #[arg(long, requires_all = ["base_tree", "head_bin", "head_tree"])]
    pub base_bin: Option<PathBuf>,
    /// The tree the base binary runs in (its levels, recipes and goldens).
    #[arg(long, requires = "base_bin")]
    pub base_tree: Option<PathBuf>,
    /// The head's binary.
    #[arg(long, requires = "base_bin")]
    pub head_bin: Option<PathBuf>,
    /// The tree the head binary runs in.
    #[arg(long, requires = "base_bin")]
    pub head_tree: Option<PathBuf>,
}

/// One round's outcome, named.
#[derive(Clone, Debug, serde::Serialize)]
pub struct RoundOutcome {
    pub round: String,
    #[serde(flatten)]
    pub verdict: Verdict,
}

/// `bench compare`; the exit code: 0 compared (a rules change is a finding, not a failure),
/// 2 it could not compare.
pub fn run_compare(args: &CompareArgs) -> u8 {
    match compare(args) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("bench compare: {e}");
            2
        }
    }
}

/// The two sides: given as binaries, or built from BASE and the working tree.
fn sides(args: &CompareArgs) -> Result<(Side, Side), CompareError> {
    if let (Some(bb), Some(bt), Some(hb), Some(ht)) =
        (&args.base_bin, &args.base_tree, &args.head_bin, &args.head_tree)
    {
        let side = |label: &str, bin: &PathBuf, tree: &PathBuf| Side {
            label: format!("{label} {}", tree.display()),
            tree: tree.clone(),
            bin: bin.clone(),
        };
        return Ok((side("base", bb, bt), side("head", hb, ht)));
    }
    let root = checkout_root()?;
    let sha = resolve(&root, &args.base)?;
    let cache = cache_dir();
    Ok((base_side(&root, &sha, &cache)?, head_side(&root, &cache)?))
}

fn compare(args: &CompareArgs) -> Result<(), CompareError> {
    let (base, head) = sides(args)?;
    let speed = compare_speed(&base, &head, args.rounds, args.quick)?;
    let scratch = std::env::temp_dir().join(format!("undercooked-compare-{}", std::process::id()));
    let played = play_rounds(&base, &head, &scratch, args);
    let _ = std::fs::remove_dir_all(&scratch);
    let outcomes = played?;
    print_report(&base, &head, args, &speed, &outcomes);
    Ok(())
}

/// Every round recorded by both builds and held side by side.
fn play_rounds(
    base: &Side,
    head: &Side,
    scratch: &std::path::Path,
    args: &CompareArgs,
) -> Result<Vec<RoundOutcome>, CompareError> {
    let list = rounds(&head.tree, scratch, args.seeds, args.random_ticks)?;
    let mut out = Vec::with_capacity(list.len());
    for (i, round) in list.iter().enumerate() {
        eprintln!("bench compare: round {} of {}: {}", i + 1, list.len(), round.name);
        let b = record(base, round, &scratch.join("base").join(i.to_string()));
        let h = record(head, round, &scratch.join("head").join(i.to_string()));
        let verdict = match (b, h) {
            (Ok(b), Ok(h)) => verdict(&b, &h),
            (Err(reason), _) => Verdict::Unplayable { side: base.label.clone(), reason },
            (_, Err(reason)) => Verdict::Unplayable { side: head.label.clone(), reason },
        };
        out.push(RoundOutcome { round: round.name.clone(), verdict });
    }
    Ok(out)
}

fn show(v: Option<i64>) -> String {
    v.map_or_else(|| "absent".into(), |v| v.to_string())
}

fn print_fields(fields: &[FieldChange]) -> String {
    let shown: Vec<String> = fields
        .iter()
        .take(6)
        .map(|f| format!("{}: base {}, head {}", f.field, show(f.base), show(f.head)))
        .collect();
    let more = fields.len().saturating_sub(shown.len());
    let tail = if more > 0 { format!("; and {more} more") } else { String::new() };
    format!("{}{tail}", shown.join("; "))
}

fn print_report(
    base: &Side,
    head: &Side,
    args: &CompareArgs,
    speed: &[Compared],
    outcomes: &[RoundOutcome],
) {
    let size = if args.quick { "quick" } else { "default" };
    println!(
        "bench compare: {} vs {}, {} interleaved rounds of bench sim ({size} sizes)",
        base.label, head.label, args.rounds
    );
    println!(
        "{:<30} {:>30} {:>30} {:>10}",
        "measure", "base median (min–max)", "head median (min–max)", "head/base"
    );
    for c in speed {
        let cell =
            |s: &super::measures::Spread| format!("{:.1} ({:.1}–{:.1})", s.median, s.min, s.max);
        let better = if c.higher_is_better { "higher is better" } else { "lower is better" };
        println!(
            "{:<30} {:>30} {:>30} {:>10.3}  {better}",
            c.name,
            cell(&c.base),
            cell(&c.head),
            c.ratio
        );
    }
    let parted: Vec<&RoundOutcome> =
        outcomes.iter().filter(|o| matches!(o.verdict, Verdict::Parted { .. })).collect();
    let unplayable: Vec<&RoundOutcome> =
        outcomes.iter().filter(|o| matches!(o.verdict, Verdict::Unplayable { .. })).collect();
    let same = outcomes.len() - parted.len() - unplayable.len();
    if parted.is_empty() {
        println!(
            "rules: no rules change ({same} of {} rounds replay the same, every tick)",
            outcomes.len()
        );
    } else {
        println!("rules: RULES CHANGE: {} of {} rounds part", parted.len(), outcomes.len());
    }
    for o in &parted {
        if let Verdict::Parted { tick, fields_tick, fields } = &o.verdict {
            match fields_tick {
                Some(at) => println!(
                    "  {}: parts at tick {tick}; fields at tick {at}: {}",
                    o.round,
                    print_fields(fields)
                ),
                None => println!("  {}: parts at tick {tick}; no logged field differs", o.round),
            }
        }
    }
    for o in &unplayable {
        if let Verdict::Unplayable { side, reason } = &o.verdict {
            println!("  {}: {side} cannot play it: {reason}", o.round);
        }
    }
    if args.json {
        let json = serde_json::json!({
            "bench": "compare",
            "base": base.label,
            "head": head.label,
            "rounds": args.rounds,
            "quick": args.quick,
            "measures": speed,
            "rules_change": !parted.is_empty(),
            "replayed": outcomes.len(),
            "same": same,
            "outcomes": outcomes.iter().filter(|o| !matches!(o.verdict, Verdict::Same { .. })).collect::<Vec<_>>(),
        });
        println!("{json}");
    }
}
