//! The hands: pick and set-down, the inclusive hand-off window, the long-press trash.

use super::{hold, place, room, send};
use crate::sim::events::SimEvent;
use crate::sim::item::Place;
use crate::sim::kinds::Dir4;
use crate::sim::room::Room;
use crate::sim::step_room;
use crate::sim::units::cell_centre;

/// Two cooks either side of a counter at (2,1); an onion shelf above cook 0; trash above cook 1.
fn pass_kitchen() -> Room {
    let mut r = room(&["#o#T#", "#1-2#", "#####"], 2);
    place(&mut r, 0, cell_centre(1), cell_centre(1), Dir4::Up);
    place(&mut r, 1, cell_centre(3), cell_centre(1), Dir4::Left);
    r
}

/// Cook 0 takes an onion from the shelf and sets it on the counter; returns the set-down tick.
fn set_down_onion(r: &mut Room) -> u32 {
    hold(r, 0, (0, 0), true, 1); // pick from shelf (facing up)
    hold(r, 0, (0, 0), false, 1);
    r.cooks[0].facing = Dir4::Right;
    let placed = r.tick;
    hold(r, 0, (0, 0), true, 1);
    hold(r, 0, (0, 0), false, 1);
    assert!(matches!(r.items[0].place, Place::Station(_)));
    placed
}

fn pick_after(r: &mut Room, seat: u8, wait: u32) -> Vec<SimEvent> {
    for _ in 0..wait {
        step_room(r);
    }
    send(r, seat, (0, 0), true, None);
    step_room(r);
    r.events.clone()
}

#[test]
fn handoff_window_is_inclusive_at_20_ticks() {
    for (age, pass) in [(0u32, true), (20, true), (21, false)] {
        let mut r = pass_kitchen();
        let placed = set_down_onion(&mut r);
        // set_down_onion stepped one tick after the placing tick.
        let wait = (placed + age).saturating_sub(r.tick);
        let events = pick_after(&mut r, 1, wait);
        let handed = events.iter().any(|e| matches!(e, SimEvent::HandedOff { from: 0, to: 1, .. }));
        let picked = events.iter().any(|e| matches!(e, SimEvent::Picked { seat: 1, .. }));
        if age == 0 {
            // Zero-age pass: same-tick place-then-pick is exercised below.
            continue;
        }
        assert_eq!(handed, pass, "age {age}");
        assert_eq!(picked, !pass, "age {age}");
    }
}

#[test]
fn same_tick_place_then_pick_is_a_pass() {
    let mut r = pass_kitchen();
    hold(&mut r, 0, (0, 0), true, 1);
    hold(&mut r, 0, (0, 0), false, 1);
    r.cooks[0].facing = Dir4::Right;
    // Seat 0 places and seat 1 presses in the same tick: seat order resolves the place first.
    send(&mut r, 0, (0, 0), true, None);
    send(&mut r, 1, (0, 0), true, None);
    step_room(&mut r);
    assert!(r.events.iter().any(|e| matches!(e, SimEvent::HandedOff { from: 0, to: 1, .. })));
    assert_eq!(r.cooks[1].held, Some(r.items[0].id));
}

#[test]
fn a_self_pick_is_a_plain_pick() {
    let mut r = pass_kitchen();
    set_down_onion(&mut r);
    let events = pick_after(&mut r, 0, 0);
    assert!(events.iter().any(|e| matches!(e, SimEvent::Picked { seat: 0, .. })));
    assert!(!events.iter().any(|e| matches!(e, SimEvent::HandedOff { .. })));
}

/// Cook 1 holds an onion facing the trash above it.
fn at_trash() -> Room {
    let mut r = pass_kitchen();
    set_down_onion(&mut r);
    pick_after(&mut r, 1, 0);
    hold(&mut r, 1, (0, 0), false, 1);
    r.cooks[1].facing = Dir4::Up;
    r
}

#[test]
fn trash_fires_on_the_8th_tick_not_the_7th() {
    let mut r = at_trash();
    for n in 1..=8 {
        send(&mut r, 1, (0, 0), true, None);
        step_room(&mut r);
        let trashed = r.events.iter().any(|e| matches!(e, SimEvent::Trashed { seat: 1, .. }));
        assert_eq!(trashed, n == 8, "tick {n} of the hold");
    }
    assert_eq!(r.cooks[1].held, None);
    assert!(r.items.is_empty());
    assert_eq!(r.counters.trashed, 1);
}

#[test]
fn a_release_resets_the_trash_hold() {
    let mut r = at_trash();
    hold(&mut r, 1, (0, 0), true, 7);
    hold(&mut r, 1, (0, 0), false, 1);
    hold(&mut r, 1, (0, 0), true, 7);
    assert!(r.cooks[1].held.is_some(), "two short presses trash nothing");
}

#[test]
fn turning_away_voids_the_hold() {
    let mut r = at_trash();
    hold(&mut r, 1, (0, 0), true, 4);
    // Keep the button down but face the counter instead of the can.
    send(&mut r, 1, (0, 0), true, Some(Dir4::Left));
    step_room(&mut r);
    // Movement turns the cook after the gate, so the next tick's gate sees the new facing.
    hold(&mut r, 1, (0, 0), true, 1);
    assert_eq!(r.cooks[1].trash_hold, 0);
    hold(&mut r, 1, (0, 0), true, 6);
    assert!(r.cooks[1].held.is_some());
}

#[test]
fn an_empty_handed_press_at_the_can_is_one_refusal() {
    let mut r = pass_kitchen();
    r.cooks[1].facing = Dir4::Up;
    let mut events = Vec::new();
    for _ in 0..10 {
        send(&mut r, 1, (0, 0), true, None);
        step_room(&mut r);
        events.extend(r.events.clone());
    }
    assert_eq!(
        events,
        vec![SimEvent::Denied {
            seat: 1,
            reason: crate::sim::events::DeniedReason::HandsEmpty,
            why: None
        }]
    );
}

#[test]
fn a_hand_emptied_mid_hold_is_named_at_the_threshold() {
    let mut r = at_trash();
    hold(&mut r, 1, (0, 0), true, 3);
    // Something outside the hands (a future hazard, a host fault) takes the item mid-hold.
    let id = r.cooks[1].held.expect("holding");
    r.destroy_item(id);
    let mut saw = false;
    for _ in 0..5 {
        send(&mut r, 1, (0, 0), true, None);
        step_room(&mut r);
        saw |= r.events.contains(&SimEvent::TrashedAlreadyEmpty { seat: 1 });
    }
    assert!(saw);
}
