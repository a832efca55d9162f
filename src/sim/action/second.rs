//! The second button, spent in the action gate: a throw of the carried raw or chopped
//! ingredient, else a dash; each refusal named.
//!
//! The button means one thing by what the hand holds: a throwable ingredient flies, anything
//! else carried is a named `CannotThrow` (so a press meant as a throw never lurches the cook
//! into a dash), and an empty hand dashes.

use crate::sim::cook::CookState;
use crate::sim::events::{DeniedReason, DeniedWhy, SimEvent};
use crate::sim::flight::Flight;
use crate::sim::item::{ItemKind, Place};
use crate::sim::kinds::Form;
use crate::sim::room::Room;
use crate::sim::units::{DASH_COOLDOWN_TICKS, DASH_TICKS};

/// What the second button does for a cook right now, or the one named reason it does nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SecondUse {
    Throw,
    Dash,
}

/// Decide the second button's press for `c` against the current state.
pub fn decide_second(
    room: &Room,
    c: usize,
) -> Result<SecondUse, (DeniedReason, Option<DeniedWhy>)> {
    let cook = &room.cooks[c];
    if cook.stun > 0 || cook.state == CookState::Stunned {
        return Err((DeniedReason::Stunned, None));
    }
    match cook.held.and_then(|id| room.item(id)).map(|i| &i.kind) {
        Some(ItemKind::Food(_, Form::Raw | Form::Chopped)) => Ok(SecondUse::Throw),
        Some(ItemKind::Food(_, Form::Cooked | Form::Boiled | Form::Burnt)) => {
            Err((DeniedReason::CannotThrow, Some(DeniedWhy::Cooked)))
        }
        Some(ItemKind::Plate { .. }) => Err((DeniedReason::CannotThrow, Some(DeniedWhy::Plate))),
        Some(ItemKind::Extinguisher) => Err((DeniedReason::CannotThrow, Some(DeniedWhy::Tool))),
        None if cook.dash_cooldown > 0 => Err((DeniedReason::DashCooling, None)),
        None => Ok(SecondUse::Dash),
    }
}

/// The second button for every cook, in seat order, after the action presses: the rising
/// edge is the press; the button's level is remembered for the next tick's edge.
pub fn gate_second_button(room: &mut Room) {
    for c in 0..room.cooks.len() {
        let cook = &mut room.cooks[c];
        let (down, was) = (cook.input.dash, cook.dash_down);
        cook.dash_down = down;
        if !down {
            continue;
        }
        room.moves_seen = true;
        if was {
            continue;
        }
        let seat = room.cooks[c].seat;
        match decide_second(room, c) {
            Ok(SecondUse::Throw) => throw_held(room, c),
            Ok(SecondUse::Dash) => {
                let cook = &mut room.cooks[c];
                cook.dash = DASH_TICKS;
                cook.dash_cooldown = DASH_COOLDOWN_TICKS;
                room.events.push(SimEvent::Dashed { seat });
            }
            Err((reason, why)) => room.events.push(SimEvent::Denied { seat, reason, why }),
        }
    }
}

/// The carried item leaves the hand along the facing, from the cook's centre: stage 3b flies
/// it from this tick on.
fn throw_held(room: &mut Room, c: usize) {
    let cook = &mut room.cooks[c];
    let Some(id) = cook.held.take() else { return };
    let (seat, dir, pos) = (cook.seat, cook.facing, cook.pos);
    let flight = Flight::thrown(&room.level, seat, pos, dir);
    if let Some(i) = room.item_index(id) {
        let item = &mut room.items[i];
        item.place = Place::Air(flight);
        item.mark = None;
    }
    room.events.push(SimEvent::Thrown { seat, item: id });
}
