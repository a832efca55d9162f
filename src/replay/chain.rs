//! A live run's hash chain and field log at a bundle's cadence, recorded incrementally (deltas
//! only, not full snapshots). Ruleset-free: the kitchen's bundle feeds it the room's named
//! fields (`bundle.rs`), Tandem's the couch room's walk (`tandem/bundle.rs`).

use super::golden::FieldDelta;
use std::collections::BTreeMap;

/// The chain head and the changed fields at each recorded tick.
#[derive(Clone, Debug, Default)]
pub struct ChainRecorder {
    pub hashes: Vec<(u32, u64)>,
    pub fields: Vec<FieldDelta>,
    last: BTreeMap<String, i64>,
}

impl ChainRecorder {
    /// Record one tick: its chain head and every named field (once per tick; a repeat of the
    /// last recorded tick is ignored).
    pub fn record_fields(
        &mut self,
        tick: u32,
        hash: u64,
        fields: impl IntoIterator<Item = (String, i64)>,
    ) {
        if self.hashes.last().is_some_and(|(t, _)| *t == tick) {
            return;
        }
        self.hashes.push((tick, hash));
        let now: BTreeMap<String, i64> = fields.into_iter().collect();
        let set = now
            .iter()
            .filter(|(k, v)| self.last.get(*k) != Some(*v))
            .map(|(k, v)| (k.clone(), *v))
            .collect();
        let removed = self.last.keys().filter(|k| !now.contains_key(*k)).cloned().collect();
        self.fields.push(FieldDelta { tick, set, removed });
        self.last = now;
    }

    /// The recorded heads as a bundle carries them: (tick, 16 hex digits).
    pub fn hex_hashes(&self) -> Vec<(u32, String)> {
        self.hashes.iter().map(|(t, h)| (*t, super::hex::hex(*h))).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tick_keeps_only_what_changed_and_a_repeat_is_ignored() {
        let mut c = ChainRecorder::default();
        c.record_fields(0, 7, [("a".to_string(), 1), ("b".to_string(), 2)]);
        c.record_fields(0, 9, [("a".to_string(), 5)]);
        c.record_fields(24, 8, [("a".to_string(), 1), ("c".to_string(), 3)]);
        assert_eq!(c.hashes, vec![(0, 7), (24, 8)]);
        assert_eq!(c.fields[1].set, vec![("c".to_string(), 3)].into_iter().collect());
        assert_eq!(c.fields[1].removed, vec!["b".to_string()]);
        assert_eq!(c.hex_hashes()[1], (24, "0000000000000008".to_string()));
    }
}
