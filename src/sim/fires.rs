//! The fire map: the few stations that burn or smoulder, kept sparse and sorted by index.
//!
//! A kitchen has dozens of stations and, at any moment, almost never more than a handful on
//! fire, so stage 6 and the hash walk visit only these entries. The dense per-station table
//! this replaces cost a pass over every station each tick and three hash values per station
//! even with no fire anywhere (docs/PERFORMANCE.md, "cost of stage 6").

use smallvec::SmallVec;

/// One station's fire bookkeeping. All zero (the default) is "calm", and calm is not stored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FireState {
    pub burning: bool,
    /// Ticks a burnt dish has sat on this stove (ignites past the level's delay, so it never
    /// gets near 2^31 and fits its 31 bits of `packed`).
    pub smoulder: u32,
    /// The tick on which a burning station next tries to spread.
    pub next_spread: u32,
}

impl FireState {
    /// The hash value of one entry: `burning | smoulder << 1 | next_spread << 32`, one word
    /// instead of three (docs/SIMULATION.md §8).
    pub fn packed(self) -> i64 {
        (self.burning as u64 | (self.smoulder as u64) << 1 | (self.next_spread as u64) << 32) as i64
    }

    fn is_calm(self) -> bool {
        self == FireState::default()
    }
}

/// Stations with a fire state that is not calm, sorted by station index, each at most once.
/// Four entries live inline in the room, so a quiet kitchen's map costs no memory access.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Fires {
    entries: SmallVec<[(u16, FireState); 4]>,
}

impl Fires {
    /// Station `s`'s state (calm when it has no entry).
    pub fn get(&self, s: usize) -> FireState {
        self.find(s).map_or(FireState::default(), |i| self.entries[i].1)
    }

    /// Is station `s` on fire?
    pub fn burning(&self, s: usize) -> bool {
        self.get(s).burning
    }

    /// Set station `s`'s state: a calm state removes its entry, so the map stays canonical
    /// (the same state always has the same entries, which the hash relies on).
    pub fn set(&mut self, s: usize, state: FireState) {
        match (self.find(s), state.is_calm()) {
            (Ok(i), true) => {
                self.entries.remove(i);
            }
            (Ok(i), false) => self.entries[i].1 = state,
            (Err(_), true) => {}
            (Err(i), false) => self.entries.insert(i, (s as u16, state)),
        }
    }

    /// Is any station on fire?
    pub fn any_burning(&self) -> bool {
        self.entries.iter().any(|(_, f)| f.burning)
    }

    /// The stations on fire, in index order.
    pub fn burning_stations(&self) -> impl Iterator<Item = usize> + '_ {
        self.entries.iter().filter(|(_, f)| f.burning).map(|&(s, _)| s as usize)
    }

    /// Every entry, in station index order.
    pub fn iter(&self) -> impl Iterator<Item = (usize, FireState)> + '_ {
        self.entries.iter().map(|&(s, f)| (s as usize, f))
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// `Ok(position)` of station `s`'s entry, or `Err(where it would go)`.
    fn find(&self, s: usize) -> Result<usize, usize> {
        self.entries.binary_search_by_key(&s, |&(k, _)| k as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIT: FireState = FireState { burning: true, smoulder: 0, next_spread: 40 };

    #[test]
    fn the_map_stays_sorted_and_drops_calm_entries() {
        let mut f = Fires::default();
        f.set(9, LIT);
        f.set(2, FireState { smoulder: 3, ..FireState::default() });
        f.set(30, LIT);
        f.set(5, FireState::default());
        assert_eq!(f.iter().map(|(s, _)| s).collect::<Vec<_>>(), [2, 9, 30]);
        assert_eq!(f.burning_stations().collect::<Vec<_>>(), [9, 30]);
        assert!(f.burning(9) && !f.burning(2) && !f.burning(5));
        assert_eq!(f.get(2).smoulder, 3);
        f.set(9, FireState::default());
        f.set(30, FireState::default());
        assert!(!f.any_burning());
        f.set(2, FireState::default());
        assert!(f.is_empty());
        assert_eq!(f, Fires::default(), "emptied is the same as never lit");
    }

    #[test]
    fn packing_keeps_each_field_apart() {
        assert_eq!(FireState::default().packed(), 0);
        assert_eq!(LIT.packed(), 1 | 40 << 32);
        assert_eq!(FireState { smoulder: 7, ..FireState::default() }.packed(), 14);
        let max = FireState { burning: true, smoulder: u32::MAX >> 1, next_spread: u32::MAX };
        assert_eq!(max.packed(), -1);
    }
}
