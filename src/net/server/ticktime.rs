//! Server tick timing, measured inside the server: how long each frame that ran a simulation
//! tick took, split by phase, with p50/p99 logged every 10 s and summarised at exit. The
//! capacity numbers in docs/PERFORMANCE.md come from here.
//!
//! Phases (marker schedules inserted into the main schedule order, so they bracket every
//! system of the phase whatever its set): `receive` = First..PreUpdate (netcode receive,
//! replicon receive, seating, the input gate); `tick` = RunFixedMainLoop (the sim stages,
//! projection, lifecycle, event fan-out); `send` = PostUpdate and Last (replicon's
//! `collect_changes` and messages, renet/netcode send). `total` is the whole frame, HTTP and
//! the rest included; `cpu` is the CPU time the world's thread spent in it, so that a frame
//! longer than its CPU time says it waited for a core (other shards, other processes).

use crate::net::server::peer::Peer;
use crate::net::server::rooms::HostedRoom;
use bevy::app::MainScheduleOrder;
use bevy::ecs::schedule::ScheduleLabel;
use bevy::prelude::*;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
struct FrameStart;
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
struct ReceiveDone;
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
struct TickDone;
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
struct SendStart;
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
struct FrameEnd;

/// How often the window's percentiles are logged.
const LOG_EVERY: Duration = Duration::from_secs(10);
/// Samples kept for the exit summary (~14 h at 20 Hz): bounded memory on a long-lived host.
const KEEP: usize = 1_000_000;

/// One frame that ran at least one tick, in µs: total, receive, tick, send, thread CPU.
type Sample = [u32; 5];

/// The measurements (a resource of the server app).
#[derive(Resource)]
pub struct TickTimes {
    marks: [Option<Instant>; 4],
    /// The thread's CPU clock at the frame's start.
    cpu_start: Duration,
    ticked: bool,
    window: Vec<Sample>,
    window_start: Instant,
    /// Every sample since start (up to [`KEEP`]).
    pub all: Vec<Sample>,
    /// Frames that ticked since start, and the last one's sample (what /metrics publishes, with
    /// no bound on how long the host runs).
    pub recorded: u64,
    pub last: Option<Sample>,
}

impl Default for TickTimes {
    fn default() -> Self {
        TickTimes {
            marks: [None; 4],
            cpu_start: Duration::ZERO,
            ticked: false,
            window: Vec::new(),
            window_start: Instant::now(),
            all: Vec::new(),
            recorded: 0,
            last: None,
        }
    }
}

fn micros(a: Option<Instant>, b: Instant) -> u32 {
    a.map_or(0, |a| b.duration_since(a).as_micros().min(u32::MAX as u128) as u32)
}

/// p50, p99 and max of one column, in ms.
fn column(samples: &[Sample], i: usize) -> Value {
    let mut v: Vec<u32> = samples.iter().map(|s| s[i]).collect();
    v.sort_unstable();
    let at = |q: usize| v.get((v.len() * q).div_ceil(100).saturating_sub(1)).copied();
    let ms = |x: Option<u32>| x.map(|x| (x as f64 / 10.0).round() / 100.0);
    json!({"p50": ms(at(50)), "p99": ms(at(99)), "max": ms(v.last().copied())})
}

/// Percentiles of every phase over `samples`.
pub fn summary(samples: &[Sample]) -> Value {
    json!({
        "ticks": samples.len(),
        "total_ms": column(samples, 0),
        "receive_ms": column(samples, 1),
        "tick_ms": column(samples, 2),
        "send_ms": column(samples, 3),
        "cpu_ms": column(samples, 4),
    })
}

/// CPU time the calling thread has used (a vDSO read, ~tens of ns).
fn thread_cpu() -> Duration {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// Resident memory of this process in MB (Linux; 0 elsewhere).
pub fn rss_mb() -> f64 {
    std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| s.split_whitespace().nth(1)?.parse::<f64>().ok())
        .map_or(0.0, |pages| pages * 4096.0 / 1e6)
}

/// Adds the timing to the server app.
pub struct TickTimePlugin;

impl Plugin for TickTimePlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<TickTimes>();
        for label in [FrameStart.intern(), ReceiveDone.intern(), TickDone.intern()] {
            app.init_schedule(label);
        }
        app.init_schedule(SendStart);
        app.init_schedule(FrameEnd);
        let mut order = app.world_mut().resource_mut::<MainScheduleOrder>();
        order.insert_before(First, FrameStart);
        order.insert_after(PreUpdate, ReceiveDone);
        order.insert_after(RunFixedMainLoop, TickDone);
        order.insert_before(PostUpdate, SendStart);
        order.insert_after(Last, FrameEnd);
        app.add_systems(FrameStart, |mut t: ResMut<TickTimes>| {
            t.marks = [Some(Instant::now()), None, None, None];
            t.cpu_start = thread_cpu();
            t.ticked = false;
        });
        app.add_systems(ReceiveDone, |mut t: ResMut<TickTimes>| t.marks[1] = Some(Instant::now()));
        app.add_systems(FixedFirst, |mut t: ResMut<TickTimes>| t.ticked = true);
        app.add_systems(TickDone, |mut t: ResMut<TickTimes>| t.marks[2] = Some(Instant::now()));
        app.add_systems(SendStart, |mut t: ResMut<TickTimes>| t.marks[3] = Some(Instant::now()));
        app.add_systems(FrameEnd, end_frame);
    }
}

fn end_frame(mut t: ResMut<TickTimes>, rooms: Query<&HostedRoom>, peers: Query<&Peer>) {
    let now = Instant::now();
    if t.ticked {
        let [start, received, ticked, send] = t.marks;
        let sample = [
            micros(start, now),
            micros(start, received.unwrap_or(now)),
            micros(received, ticked.unwrap_or(now)),
            micros(send, now),
            (thread_cpu().saturating_sub(t.cpu_start).as_micros()).min(u32::MAX as u128) as u32,
        ];
        t.window.push(sample);
        t.recorded += 1;
        t.last = Some(sample);
        if t.all.len() < KEEP {
            t.all.push(sample);
        }
    }
    if now.duration_since(t.window_start) >= LOG_EVERY {
        let s = summary(&t.window);
        let live = rooms.iter().filter(|r| r.round.is_some()).count();
        info!(
            rooms = rooms.iter().count(),
            live_rounds = live,
            clients = peers.iter().count(),
            rss_mb = format!("{:.1}", rss_mb()),
            times = %s,
            "tick time"
        );
        t.window.clear();
        t.window_start = now;
    }
}
