//! Stage 2b, the action gate: the rising-edge press, contested arbitration, the second button
//! (dash / throw), the long-press trash.

pub mod hands;
pub mod ladder;
pub mod reach;
pub mod second;

use crate::sim::cook::CookState;
use crate::sim::events::{DeniedReason, SimEvent};
use crate::sim::ids::ItemId;
use crate::sim::kinds::StationKind;
use crate::sim::room::Room;
use crate::sim::units::TRASH_HOLD_TICKS;
use ladder::{ClaimKey, Denial, Verb, claim_of, select_verb};
use std::collections::BTreeMap;

/// What a press resolves to against a given state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    Act {
        station: usize,
        verb: Verb,
    },
    /// A free hand takes an item lying on the floor.
    PickUp(ItemId),
    Deny(Denial),
}

/// Target and verb for one cook's press, or the reason there is none. Stun is checked before
/// the target is read: "you got hit" outranks every other nudge.
pub fn decide(room: &Room, cook_index: usize) -> Decision {
    let cook = &room.cooks[cook_index];
    if cook.stun > 0 || cook.state == CookState::Stunned {
        return Decision::Deny((DeniedReason::Stunned, None));
    }
    match reach::select_aim(room, cook) {
        Err(reason) => Decision::Deny((reason, None)),
        Ok(reach::Aim::Floor(id)) => Decision::PickUp(id),
        Ok(reach::Aim::Station(station)) => match select_verb(room, cook_index, station) {
            Ok(verb) => Decision::Act { station, verb },
            Err(denial) => Decision::Deny(denial),
        },
    }
}

/// Is the cook's current target the trash? (The trash hold is re-derived every tick.)
fn aims_at_trash(room: &Room, cook_index: usize) -> bool {
    let cook = &room.cooks[cook_index];
    cook.stun == 0
        && reach::select_target(room, cook)
            .is_ok_and(|s| room.stations[s].kind == StationKind::Trash)
}

/// The gate for one room: hold counters, presses (arbitrated against the pre-action state),
/// and trash holds, all in seat order.
pub fn gate_room_actions(room: &mut Room) {
    let n = room.cooks.len();
    let mut presses: Vec<usize> = Vec::new();
    for c in 0..n {
        let cook = &mut room.cooks[c];
        if !cook.input.action {
            cook.action_ticks = 0;
            cook.trash_hold = 0;
            continue;
        }
        cook.action_ticks += 1;
        if cook.action_ticks == 1 {
            presses.push(c);
        }
    }

    // Claims are judged on the kitchen as it was before anyone acted: rank is (tick, seq, seat).
    let mut claims: BTreeMap<ClaimKey, ((u32, u32, u8), usize)> = BTreeMap::new();
    let mut pre: Vec<(usize, Decision, Option<ClaimKey>)> = Vec::with_capacity(presses.len());
    for &c in &presses {
        let decision = decide(room, c);
        let claim = match decision {
            Decision::Act { station, verb } => claim_of(room, verb, station),
            Decision::PickUp(id) => Some(ClaimKey::Item(id)),
            Decision::Deny(_) => None,
        };
        if let Some(key) = claim {
            let cook = &room.cooks[c];
            let (t, s) = cook.input.rank.unwrap_or((u32::MAX, u32::MAX));
            let rank = (t, s, cook.seat);
            let entry = claims.entry(key).or_insert((rank, c));
            if rank < entry.0 {
                *entry = (rank, c);
            }
        }
        pre.push((c, decision, claim));
    }

    for (c, pre_decision, claim) in pre {
        let seat = room.cooks[c].seat;
        if let Some(key) = claim
            && claims.get(&key).is_some_and(|&(_, winner)| winner != c)
        {
            room.events.push(SimEvent::Denied {
                seat,
                reason: DeniedReason::ContestedLost,
                why: None,
            });
            continue;
        }
        // Earlier seats may have changed the kitchen: re-decide on the current state.
        let decision = if claim.is_some() { pre_decision } else { decide(room, c) };
        // Only a TRASH press starts the hold: an empty-handed press at the can is its one
        // HANDS_EMPTY and nothing more.
        let at_trash = matches!(decision, Decision::Act { verb: Verb::Trash, .. });
        match decision {
            Decision::Act { station, verb } => {
                crate::sim::stations::release_other_work(room, seat, station);
                hands::apply_verb(room, c, station, verb);
            }
            Decision::PickUp(id) => {
                // The hand acts at no fixture, so any work slot it held is let go.
                crate::sim::stations::release_other_work(room, seat, usize::MAX);
                hands::pick_up(room, c, id);
            }
            Decision::Deny((reason, why)) => {
                room.events.push(SimEvent::Denied { seat, reason, why })
            }
        }
        room.cooks[c].trash_hold = u32::from(at_trash);
    }

    // The second button, on the kitchen the action presses left.
    second::gate_second_button(room);

    // Holds: the trash counts only while the cook keeps aiming at the can.
    for c in 0..n {
        let cook = &room.cooks[c];
        if cook.action_ticks < 2 || cook.trash_hold == 0 {
            continue;
        }
        if aims_at_trash(room, c) {
            room.cooks[c].trash_hold += 1;
            if room.cooks[c].trash_hold == TRASH_HOLD_TICKS {
                fire_trash(room, c);
            }
        } else {
            room.cooks[c].trash_hold = 0;
        }
    }
}

fn fire_trash(room: &mut Room, c: usize) {
    hands::trash_held(room, c);
    room.cooks[c].trash_hold = 0;
}
