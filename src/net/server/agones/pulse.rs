//! Each world's pulse for Agones: every tick (the world's `FixedUpdate`) bumps its slot's tick
//! count, and when the world's rooms or seated players changed, writes them there. The link
//! reads the counts (a world whose count stands still is wedged: no health ping) and the
//! rooms (the `rooms` List, the `players` Counter). Plain atomics and a mutex held for a copy:
//! a world never waits on the SDK.

use crate::net::server::hosted::HostedRoom;
use crate::net::server::seats::MAX_SEATS;
use crate::protocol::LobbyView;
use bevy::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// What one world holds: its room codes (sorted) and the seats taken in them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Load {
    pub codes: Vec<String>,
    pub players: u64,
}

#[derive(Debug, Default)]
struct Slot {
    ticks: AtomicU64,
    load: Mutex<Load>,
}

/// One slot per world of the host (shard index = slot index).
#[derive(Clone, Debug)]
pub struct Pulses(Arc<[Slot]>);

impl Pulses {
    pub fn new(worlds: usize) -> Pulses {
        Pulses((0..worlds.max(1)).map(|_| Slot::default()).collect())
    }

    /// Each world's tick count, by shard.
    pub fn ticks(&self) -> Vec<u64> {
        self.0.iter().map(|s| s.ticks.load(Ordering::Relaxed)).collect()
    }

    /// All worlds' rooms together: codes sorted, players summed.
    pub fn load(&self) -> Load {
        let mut all = Load::default();
        for slot in self.0.iter() {
            if let Ok(l) = slot.load.lock() {
                all.codes.extend(l.codes.iter().cloned());
                all.players += l.players;
            }
        }
        all.codes.sort();
        all
    }
}

/// Beats the slot of world `shard` in `pulses`.
pub struct PulsePlugin {
    pub pulses: Pulses,
    pub shard: usize,
}

#[derive(Resource)]
struct Pulse {
    pulses: Pulses,
    shard: usize,
    last: Load,
}

impl Plugin for PulsePlugin {
    fn build(&self, app: &mut App) {
        let shard = self.shard.min(self.pulses.0.len() - 1);
        app.insert_resource(Pulse { pulses: self.pulses.clone(), shard, last: Load::default() });
        app.add_systems(FixedUpdate, beat_pulse);
    }
}

fn beat_pulse(mut pulse: ResMut<Pulse>, rooms: Query<(&HostedRoom, &LobbyView)>) {
    let Pulse { pulses, shard, last } = &mut *pulse;
    let slot = &pulses.0[*shard];
    slot.ticks.fetch_add(1, Ordering::Relaxed);
    // Borrowed codes: a tick that changed nothing allocates no strings.
    let mut codes: Vec<&str> = Vec::with_capacity(last.codes.len());
    let mut players = 0;
    for (hosted, view) in &rooms {
        codes.push(&hosted.code);
        players += view.seats.len().min(MAX_SEATS) as u64;
    }
    codes.sort_unstable();
    if players == last.players && codes.iter().eq(last.codes.iter()) {
        return;
    }
    let now = Load { codes: codes.into_iter().map(str::to_owned).collect(), players };
    if let Ok(mut l) = slot.load.lock() {
        *l = now.clone();
    }
    *last = now;
}
