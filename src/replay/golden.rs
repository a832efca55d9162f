//! Goldens: a script's recorded hash chain plus a field log, so a mismatch names the first
//! divergent tick and exactly which fields differ (golden value vs replayed value).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The state at one recorded tick, as changes against the previous recorded tick.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FieldDelta {
    pub tick: u32,
    /// Fields that appeared or changed value.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub set: BTreeMap<String, i64>,
    /// Fields that disappeared (an item destroyed).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub removed: Vec<String>,
}

/// One committed golden.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Golden {
    pub name: String,
    pub level: String,
    pub seed: u64,
    pub seats: u8,
    pub ticks: u32,
    pub record_every: u32,
    /// The chain head after the last tick, as 16 hex digits.
    pub final_hash: String,
    /// (tick, chain head as hex) at every recorded tick, tick 0 (the built state) first.
    pub hashes: Vec<(u32, String)>,
    /// The field log: the first entry is the full state at tick 0.
    pub fields: Vec<FieldDelta>,
}

/// Build the field log from full snapshots.
pub fn field_log(snapshots: &[(u32, Vec<(String, i64)>)]) -> Vec<FieldDelta> {
    let mut prev: BTreeMap<String, i64> = BTreeMap::new();
    let mut log = Vec::with_capacity(snapshots.len());
    for (tick, fields) in snapshots {
        let now: BTreeMap<String, i64> = fields.iter().cloned().collect();
        let set = now
            .iter()
            .filter(|(k, v)| prev.get(*k) != Some(*v))
            .map(|(k, v)| (k.clone(), *v))
            .collect();
        let removed = prev.keys().filter(|k| !now.contains_key(*k)).cloned().collect();
        log.push(FieldDelta { tick: *tick, set, removed });
        prev = now;
    }
    log
}

/// The golden's full field map at `tick` (the log replayed up to and including it).
pub fn fields_at(log: &[FieldDelta], tick: u32) -> BTreeMap<String, i64> {
    let mut map = BTreeMap::new();
    for delta in log.iter().take_while(|d| d.tick <= tick) {
        for k in &delta.removed {
            map.remove(k);
        }
        for (k, v) in &delta.set {
            map.insert(k.clone(), *v);
        }
    }
    map
}

/// One field that differs at the first divergent tick.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldDiff {
    pub field: String,
    pub golden: Option<i64>,
    pub replayed: Option<i64>,
}

/// What a check found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckOutcome {
    Match { ticks: u32, final_hash: u64 },
    Mismatch { tick: u32, golden: String, replayed: String, fields: Vec<FieldDiff> },
}

/// Every field whose value differs between two maps, in name order.
pub fn diff_fields(
    golden: &BTreeMap<String, i64>,
    replayed: &BTreeMap<String, i64>,
) -> Vec<FieldDiff> {
    let mut names: Vec<&String> = golden.keys().chain(replayed.keys()).collect();
    names.sort();
    names.dedup();
    names
        .into_iter()
        .filter(|n| golden.get(*n) != replayed.get(*n))
        .map(|n| FieldDiff {
            field: n.clone(),
            golden: golden.get(n).copied(),
            replayed: replayed.get(n).copied(),
        })
        .collect()
}
