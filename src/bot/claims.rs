//! The per-room claim table: which bot is after which order, fixture or item, so two bots never
//! chase the same onion, fill the same pot or plate the same ticket.

use crate::sim::ids::{ItemId, Seat};
use crate::sim::recipe_book::Part;
use std::collections::BTreeMap;

/// Something only one bot may be after at a time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Claim {
    /// A ticket on the rail, by order id.
    Order(u32),
    /// A fixture by level index: a board being chopped on, a stove cooking a bot's food, the
    /// counter a bot's plate is parked on, the sink a bot is washing at.
    Station(usize),
    /// A plate (or other item) a bot owns.
    Item(ItemId),
    /// A catch a thrower asked of the claim's owner (`bot::pass`): stand on `at` facing the
    /// thrower's cell `from`, catch its food and take it to fixture `station`.
    Catch { thrower: Seat, station: usize, at: (i32, i32), from: (i32, i32) },
    /// Caught food the owner is taking to `thrower`'s fixture `station`.
    Carry { thrower: Seat, station: usize },
    /// A feeder (`bot::feed`, the owner, named again as `feeder` so each has one) is fetching
    /// `part` for `cook`'s dish: a second feeder leaves that part to it until the food is in
    /// its hand.
    Feeding { feeder: Seat, cook: Seat, part: Part },
}

/// One owner per claim. A BTreeMap, so iteration (and therefore every decision that walks the
/// table) is in key order on every machine.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClaimTable {
    owners: BTreeMap<Claim, Seat>,
}

impl ClaimTable {
    /// Who holds `claim`, if anyone.
    pub fn owner(&self, claim: Claim) -> Option<Seat> {
        self.owners.get(&claim).copied()
    }

    /// Free, or already this seat's.
    pub fn open_to(&self, claim: Claim, seat: Seat) -> bool {
        self.owner(claim).is_none_or(|s| s == seat)
    }

    /// Is it this seat's?
    pub fn mine(&self, claim: Claim, seat: Seat) -> bool {
        self.owner(claim) == Some(seat)
    }

    /// Take a claim; false (and nothing changes) when another seat holds it.
    pub fn claim(&mut self, claim: Claim, seat: Seat) -> bool {
        match self.owners.get(&claim) {
            Some(&s) => s == seat,
            None => {
                self.owners.insert(claim, seat);
                true
            }
        }
    }

    /// Let go of one claim (only its owner can).
    pub fn release(&mut self, claim: Claim, seat: Seat) {
        if self.mine(claim, seat) {
            self.owners.remove(&claim);
        }
    }

    /// Let go of everything a seat holds (its job ended or was abandoned).
    pub fn release_all(&mut self, seat: Seat) {
        self.owners.retain(|_, s| *s != seat);
    }

    /// Everything one seat holds, in key order.
    pub fn held_by(&self, seat: Seat) -> Vec<Claim> {
        self.owners.iter().filter(|(_, s)| **s == seat).map(|(c, _)| *c).collect()
    }

    /// Every (claim, owner) pair, in key order.
    pub fn iter(&self) -> impl Iterator<Item = (Claim, Seat)> + '_ {
        self.owners.iter().map(|(c, s)| (*c, *s))
    }

    /// Stations a seat holds, in index order.
    pub fn stations_of(&self, seat: Seat) -> Vec<usize> {
        self.owners
            .iter()
            .filter_map(|(c, s)| match c {
                Claim::Station(i) if *s == seat => Some(*i),
                _ => None,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_owner_per_claim() {
        let mut t = ClaimTable::default();
        assert!(t.claim(Claim::Station(3), 0));
        assert!(!t.claim(Claim::Station(3), 1));
        assert!(t.claim(Claim::Station(3), 0));
        t.release(Claim::Station(3), 1);
        assert_eq!(t.owner(Claim::Station(3)), Some(0));
        t.release_all(0);
        assert!(t.claim(Claim::Station(3), 1));
    }
}
