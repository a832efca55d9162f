//! The speed half of `bench compare`: `bench sim` (both modes) run by each build in its own
//! process, the builds interleaved round by round (base first on even rounds, head first on
//! odd ones, so neither always runs on a warmer or cooler machine), each measure's medians,
//! spread and ratio.

use super::compare_error::CompareError;
use super::trees::Side;
use std::process::Command;

/// Which of `bench sim`'s runs a measure comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SimRun {
    Kitchen,
    Tandem,
}

/// One number `bench sim --json` prints, and which way is better.
#[derive(Clone, Copy, Debug)]
pub struct Measure {
    pub name: &'static str,
    pub run: SimRun,
    /// The key of `bench sim --json`'s object.
    pub key: &'static str,
    pub higher_is_better: bool,
}

/// Every measure compared, in the order printed.
pub const MEASURES: [Measure; 7] = [
    Measure {
        name: "kitchen one room, ticks/s",
        run: SimRun::Kitchen,
        key: "single_room_ticks_per_s",
        higher_is_better: true,
    },
    Measure {
        name: "kitchen batch, room-ticks/s",
        run: SimRun::Kitchen,
        key: "batch_room_ticks_per_s",
        higher_is_better: true,
    },
    Measure {
        name: "kitchen inputs, ns/room-tick",
        run: SimRun::Kitchen,
        key: "input_ns_per_room_tick",
        higher_is_better: false,
    },
    Measure {
        name: "tandem one room, ticks/s",
        run: SimRun::Tandem,
        key: "single_room_ticks_per_s",
        higher_is_better: true,
    },
    Measure {
        name: "tandem batch, room-ticks/s",
        run: SimRun::Tandem,
        key: "batch_room_ticks_per_s",
        higher_is_better: true,
    },
    Measure {
        name: "tandem course, µs",
        run: SimRun::Tandem,
        key: "course_us",
        higher_is_better: false,
    },
    Measure {
        name: "tandem porter, µs/tick",
        run: SimRun::Tandem,
        key: "porter_us_per_tick",
        higher_is_better: false,
    },
];

/// Median, lowest and highest of one side's samples.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Spread {
    pub median: f64,
    pub min: f64,
    pub max: f64,
}

impl Spread {
    /// The spread of `samples` (none: all zero).
    pub fn of(samples: &[f64]) -> Spread {
        let mut s: Vec<f64> = samples.to_vec();
        s.sort_by(f64::total_cmp);
        let median = match s.len() {
            0 => 0.0,
            n if n % 2 == 1 => s[n / 2],
            n => (s[n / 2 - 1] + s[n / 2]) / 2.0,
        };
        Spread {
            median,
            min: s.first().copied().unwrap_or(0.0),
            max: s.last().copied().unwrap_or(0.0),
        }
    }
}

/// One measure, both sides.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Compared {
    pub name: &'static str,
    pub higher_is_better: bool,
    pub base: Spread,
    pub head: Spread,
    /// head median / base median (1.0 when the base's is zero).
    pub ratio: f64,
}

/// `bench sim`'s sizes: the defaults, or a quick look (`--quick`).
fn sim_args(run: SimRun, quick: bool) -> Vec<&'static str> {
    let mut args = vec!["bench", "sim", "--json"];
    if run == SimRun::Tandem {
        args.extend(["--mode", "tandem"]);
    }
    if quick {
        args.extend(["--rooms", "32", "--ticks", "40", "--single-ticks", "400"]);
    }
    args
}

/// Runs one `bench sim` of `side` and reads the JSON object on its last line.
fn run_once(side: &Side, run: SimRun, quick: bool) -> Result<serde_json::Value, CompareError> {
    let args = sim_args(run, quick);
    let command = format!("undercooked {}", args.join(" "));
    let out =
        Command::new(&side.bin).current_dir(&side.tree).args(&args).output().map_err(|e| {
            CompareError::Run {
                label: side.label.clone(),
                command: command.clone(),
                reason: e.to_string(),
            }
        })?;
    if !out.status.success() {
        return Err(CompareError::Run {
            label: side.label.clone(),
            command,
            reason: format!("{}: {}", out.status, String::from_utf8_lossy(&out.stderr).trim()),
        });
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    let last = stdout.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("");
    serde_json::from_str(last).map_err(|e| CompareError::Output {
        label: side.label.clone(),
        command,
        reason: format!("{e}: {last:?}"),
    })
}

/// Every measure of `rounds` interleaved rounds of both sides.
pub fn compare_speed(
    base: &Side,
    head: &Side,
    rounds: u32,
    quick: bool,
) -> Result<Vec<Compared>, CompareError> {
    let mut samples = vec![(Vec::new(), Vec::new()); MEASURES.len()];
    for round in 0..rounds {
        let order = if round % 2 == 0 { [(base, 0), (head, 1)] } else { [(head, 1), (base, 0)] };
        for (side, which) in order {
            for run in [SimRun::Kitchen, SimRun::Tandem] {
                eprintln!("bench compare: round {} of {rounds}, {} {run:?}", round + 1, side.label);
                let json = run_once(side, run, quick)?;
                for (m, (b, h)) in MEASURES.iter().zip(samples.iter_mut()) {
                    if m.run != run {
                        continue;
                    }
                    if let Some(v) = json.get(m.key).and_then(serde_json::Value::as_f64) {
                        if which == 0 { b.push(v) } else { h.push(v) }
                    }
                }
            }
        }
    }
    Ok(MEASURES
        .iter()
        .zip(samples)
        .filter(|(_, (b, h))| !b.is_empty() && !h.is_empty())
        .map(|(m, (b, h))| {
            let (base, head) = (Spread::of(&b), Spread::of(&h));
            let ratio = if base.median == 0.0 { 1.0 } else { head.median / base.median };
            Compared { name: m.name, higher_is_better: m.higher_is_better, base, head, ratio }
        })
        .collect())
}
