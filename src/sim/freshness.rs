//! Stage 4b, freshness: the burn countdown on a ready stove, rot on a chop board, and half-rate
//! decay in the hand. The board, the hand and the heat are the only clocks.

use super::events::SimEvent;
use super::item::{ItemKind, Place};
use super::kinds::{Form, StationKind};
use super::room::Room;
use super::station::StationState;
use super::units::{QUALITY_FULL, secs};

/// A finished dish left on the heat burns on the 160th tick of its countdown (8 s); the ready
/// flip's own tick is the countdown's first.
pub const BURN_TICKS: u32 = secs(8);
/// Food left on a chop board rots linearly to nothing over 20 s.
pub const ROT_TICKS: u32 = secs(20);
/// Quality lost per tick on a board: 1 000 000 ppm / 400 ticks.
pub const ROT_PER_TICK: u32 = QUALITY_FULL / ROT_TICKS;
/// Prepared food in the hand decays at half the board's rate.
pub const CARRY_DECAY_PER_TICK: u32 = ROT_PER_TICK / 2;

/// Stage 4b for one room, in item id order.
pub fn step_room_freshness(room: &mut Room) {
    let mut burnt_stations: Vec<usize> = Vec::new();
    for i in 0..room.items.len() {
        let item = &room.items[i];
        let ItemKind::Food(ingredient, form) = item.kind else { continue };
        match item.place {
            Place::Station(s) => {
                let st = &room.stations[s as usize];
                match st.kind {
                    StationKind::Stove(_) if st.state == StationState::Ready && item.heat > 0 => {
                        let item = &mut room.items[i];
                        item.heat -= 1;
                        if item.heat == 0 {
                            item.kind = ItemKind::Food(ingredient, Form::Burnt);
                            item.quality = 0;
                            if !burnt_stations.contains(&(s as usize)) {
                                burnt_stations.push(s as usize);
                            }
                        }
                    }
                    StationKind::ChopBoard if matches!(form, Form::Raw | Form::Chopped) => {
                        let item = &mut room.items[i];
                        item.quality = item.quality.saturating_sub(ROT_PER_TICK);
                        if item.quality == 0 {
                            item.kind = ItemKind::Food(ingredient, Form::Burnt);
                            room.events.push(SimEvent::Burnt { station: s });
                        }
                    }
                    _ => {}
                }
            }
            Place::Hand(_) if matches!(form, Form::Chopped | Form::Cooked | Form::Boiled) => {
                let item = &mut room.items[i];
                item.quality = item.quality.saturating_sub(CARRY_DECAY_PER_TICK);
            }
            // The hand is the only decaying carry; the floor keeps food like a counter does,
            // and a flight is too short to count.
            Place::Hand(_) | Place::Floor(_) | Place::Air(_) => {}
        }
    }
    // A burnt dish sticks its pan or pot: the stove is dirty on the same tick.
    for s in burnt_stations {
        let st = &mut room.stations[s];
        st.state = StationState::Dirty;
        st.progress = 0;
        room.events.push(SimEvent::Burnt { station: s as u16 });
    }
}
