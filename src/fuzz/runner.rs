//! The fuzz run: which targets exist, feeding one its inputs from a seed until a panic, and the
//! report `undercooked fuzz` prints.

use super::target::Target;
use super::{capture, http, loaders, netcode, relay, renet};
use crate::sim::rng::SplitMix64;
use clap::{Args, ValueEnum};
use std::collections::BTreeSet;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::{Duration, Instant};

/// A place inputs are fed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, ValueEnum)]
pub enum TargetId {
    /// The netcode server's receive path: unknown addresses, pending and connected clients.
    Netcode,
    /// Renet's packet parser and channels, behind a connected client's real encryption.
    Renet,
    /// The WebSocket relay on the web port, frame by frame.
    Relay,
    /// The web port's HTTP API, request by request over raw TCP.
    Http,
    /// Level, recipe, replay-script, bundle, Tandem bundle (and, in client builds, config.ron)
    /// loaders.
    Loaders,
    /// Every target in turn.
    All,
}

impl TargetId {
    /// The concrete targets, in the order `all` runs them.
    pub const EACH: [TargetId; 5] =
        [TargetId::Netcode, TargetId::Renet, TargetId::Relay, TargetId::Http, TargetId::Loaders];

    pub fn name(self) -> &'static str {
        match self {
            TargetId::Netcode => "netcode",
            TargetId::Renet => "renet",
            TargetId::Relay => "relay",
            TargetId::Http => "http",
            TargetId::Loaders => "loaders",
            TargetId::All => "all",
        }
    }

    /// The iterations `fuzz` runs by default for this target: the socket targets pay a TCP
    /// round trip per input, the in-process ones do not.
    pub fn default_iterations(self) -> u64 {
        match self {
            TargetId::Relay | TargetId::Http => 2_000,
            _ => 100_000,
        }
    }
}

/// Options of `undercooked fuzz`.
#[derive(Args, Debug, Clone)]
pub struct FuzzArgs {
    #[arg(long, value_enum, default_value = "all")]
    pub target: TargetId,
    /// Inputs per target (default: 100 000 in process, 2 000 over sockets).
    #[arg(long)]
    pub iterations: Option<u64>,
    /// Seed of every target's input stream.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// A panic a target met.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    pub seed: u64,
    /// The input's index in the run (0-based).
    pub iteration: u64,
    pub input_hex: String,
    pub message: String,
}

/// One target's run.
#[derive(Clone, Debug)]
pub struct Report {
    pub target: TargetId,
    pub seed: u64,
    pub inputs: u64,
    pub elapsed: Duration,
    pub kinds: BTreeSet<String>,
    pub panic: Option<Found>,
    /// Set when the target stopped serving after the run.
    pub unhealthy: Option<String>,
}

impl Report {
    pub fn per_second(&self) -> f64 {
        self.inputs as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    pub fn clean(&self) -> bool {
        self.panic.is_none() && self.unhealthy.is_none()
    }
}

/// Build one target (its servers, its corpus).
pub fn open(target: TargetId, seed: u64) -> Result<Box<dyn Target>, String> {
    Ok(match target {
        TargetId::Netcode => Box::new(netcode::NetcodeTarget::new(seed)?),
        TargetId::Renet => Box::new(renet::RenetTarget::new(seed)?),
        TargetId::Relay => Box::new(relay::RelayTarget::new()?),
        TargetId::Http => Box::new(http::HttpTarget::new()?),
        TargetId::Loaders => Box::new(loaders::LoadersTarget::new()?),
        TargetId::All => return Err("`all` is not one target".into()),
    })
}

/// Run `iterations` inputs into `target`, stopping at the first panic.
pub fn run_target(target: TargetId, iterations: u64, seed: u64) -> Result<Report, String> {
    let quiet = capture::Quiet::start();
    let mut t = open(target, seed)?;
    // Each target's stream is its own fork of the seed, so `--target X` replays `all`'s X.
    let mut rng = SplitMix64::new(seed).fork(target as u64 + 1);
    let mut report = Report {
        target,
        seed,
        inputs: 0,
        elapsed: Duration::ZERO,
        kinds: BTreeSet::new(),
        panic: None,
        unhealthy: None,
    };
    let start = Instant::now();
    for iteration in 0..iterations {
        let input = t.input(&mut rng);
        let fed = catch_unwind(AssertUnwindSafe(|| t.feed(&input)));
        report.inputs += 1;
        let panics = quiet.take();
        match fed {
            Ok(kind) if panics.is_empty() => {
                report.kinds.insert(kind);
            }
            _ => {
                let message = panics.join("; ");
                report.panic = Some(Found {
                    seed,
                    iteration,
                    input_hex: crate::replay::hex::hex_bytes(&input),
                    message,
                });
                // The target may be half-updated after an unwind: nothing more is fed to it.
                break;
            }
        }
    }
    report.elapsed = start.elapsed();
    if report.panic.is_none() {
        report.unhealthy = t.still_serving().err();
        let late = quiet.take();
        if !late.is_empty() {
            report.unhealthy = Some(format!("panicked after the run: {}", late.join("; ")));
        }
    }
    Ok(report)
}

/// Print one report the way `fuzz` does.
pub fn print_report(r: &Report) {
    println!(
        "{:<8} {:>9} inputs  {:>9.0} inputs/s  {:>3} kinds: {}",
        r.target.name(),
        r.inputs,
        r.per_second(),
        r.kinds.len(),
        r.kinds.iter().cloned().collect::<Vec<_>>().join(", ")
    );
    if let Some(p) = &r.panic {
        println!(
            "PANIC in {} (seed {}, input #{}): {}\n  input hex: {}",
            r.target.name(),
            p.seed,
            p.iteration,
            p.message,
            p.input_hex
        );
    }
    if let Some(why) = &r.unhealthy {
        println!("NOT SERVING after {}: {why}", r.target.name());
    }
}

/// `undercooked fuzz`; the exit code: 0 no panic, 1 a panic or a dead server, 2 a target
/// failed to start.
pub fn run(args: &FuzzArgs) -> u8 {
    let targets: Vec<TargetId> = match args.target {
        TargetId::All => TargetId::EACH.to_vec(),
        t => vec![t],
    };
    let profile = if cfg!(debug_assertions) { "debug" } else { "release" };
    println!("fuzz: seed {}, {profile} build", args.seed);
    let mut code = 0;
    for t in targets {
        let n = args.iterations.unwrap_or(t.default_iterations());
        match run_target(t, n, args.seed) {
            Ok(r) => {
                print_report(&r);
                if !r.clean() {
                    code = 1;
                }
            }
            Err(e) => {
                println!("{}: could not start: {e}", t.name());
                return 2;
            }
        }
    }
    code
}
