//! Seeded property tests of the kitchen: random serves, random order specs, and a 2,000-tick
//! worst-case kitchen whose props are conserved on every tick. All randomness is the sim's own
//! SplitMix64, so a failure names a seed that reproduces it.

use super::kitchen::room_with;
use super::{place, send};
use crate::sim::events::{DeniedReason, SimEvent};
use crate::sim::item::{ItemKind, Place};
use crate::sim::kinds::{Dir4, Form, Ingredient, StationKind, Vessel};
use crate::sim::order::Order;
use crate::sim::recipe_book::Part;
use crate::sim::rng::SplitMix64;
use crate::sim::room::Room;
use crate::sim::scoring::points;
use crate::sim::station::StationState;
use crate::sim::stations::WASH_TICKS;
use crate::sim::step_room;
use crate::sim::units::{QUALITY_FULL, cell_centre};
use std::collections::BTreeSet;

fn chance(rng: &mut SplitMix64, percent: u32) -> bool {
    rng.range_inclusive(0, 99) < percent
}

// ---------------------------------------------------------------------------------------------
// 500 random serves
// ---------------------------------------------------------------------------------------------

#[test]
fn five_hundred_random_serves() {
    let mut rng = SplitMix64::new(0x5E_4E5);
    let mut r = room_with(&["#####", "#1W2#", "#####"], 2, |l| {
        l.orders.deadline = 1200;
        l.time_limit = 1_000_000;
        l.target_score = i32::MAX;
    });
    place(&mut r, 0, cell_centre(1), cell_centre(1), Dir4::Right);
    place(&mut r, 1, cell_centre(3), cell_centre(1), Dir4::Left);
    let n_recipes = r.book.recipes.len();
    let mut served_ids = BTreeSet::new();
    let mut served_count = 0;
    let forms = [Form::Raw, Form::Chopped, Form::Cooked, Form::Boiled];
    for round in 0..500u32 {
        // Keep the rail stocked with random orders, their deadlines spread over the span.
        while r.orders.len() < 4 && chance(&mut rng, 70) {
            let recipe = rng.index(n_recipes);
            let id = r.next_order_id;
            r.next_order_id += 1;
            let left = rng.range_inclusive(0, 1500);
            r.orders.push(Order {
                id,
                recipe: recipe as u16,
                value: r.book.recipes[recipe].base_score,
                deadline: r.tick + left,
                team: None,
            });
        }
        // A random dish: an ordered recipe, any recipe, part of one, random parts, or empty.
        let mut parts: Vec<Part> = match rng.range_inclusive(0, 9) {
            0..=3 if !r.orders.is_empty() => {
                let o = r.orders[rng.index(r.orders.len())];
                r.book.recipes[o.recipe as usize].parts.clone()
            }
            0..=4 => r.book.recipes[rng.index(n_recipes)].parts.clone(),
            5 | 6 => {
                let mut p = r.book.recipes[rng.index(n_recipes)].parts.clone();
                p.remove(rng.index(p.len()));
                p
            }
            7 | 8 => (0..rng.range_inclusive(1, 3))
                .map(|_| (Ingredient::ALL[rng.index(8)], forms[rng.index(4)]))
                .collect(),
            _ => Vec::new(),
        };
        parts.sort();
        let quality = if chance(&mut rng, 10) { 0 } else { rng.range_inclusive(1, QUALITY_FULL) };
        let seat = (round % 2) as u8;
        let dish = r.create_item(ItemKind::Plate { parts }, Place::Hand(seat));
        let i = r.item_index(dish).unwrap();
        r.items[i].quality = quality;
        let c = r.cook_index(seat).unwrap();
        r.cooks[c].held = Some(dish);

        let rail_before: Vec<Order> = r.orders.clone();
        let (served_before, streak_before, score_before) = (r.counters.served, r.streak, r.score);
        let missed_before = r.counters.missed;
        let tick = r.tick;
        send(&mut r, seat, (0, 0), true, None);
        step_room(&mut r);
        let served: Vec<(u32, i32, u32)> = r
            .events
            .iter()
            .filter_map(|e| match e {
                SimEvent::Served { order_id, points, streak, .. } => {
                    Some((*order_id, *points, *streak))
                }
                _ => None,
            })
            .collect();
        // An order on its deadline tick that was not served expires in the same tick.
        let removed = (rail_before.len() - r.orders.len()) as u32;
        let missed = r.counters.missed - missed_before;
        assert_eq!(r.counters.served - served_before, removed - missed, "round {round}");
        assert_eq!(r.counters.served - served_before, served.len() as u32, "round {round}");
        // What a refusal must leave: the rail less what expired on this tick.
        let rail_kept: Vec<Order> =
            rail_before.iter().filter(|o| o.deadline > tick).copied().collect();
        match served.as_slice() {
            [] => {
                assert_eq!(r.orders, rail_kept, "round {round}: a refusal keeps the rail");
                assert_eq!(r.cooks[c].held, Some(dish), "round {round}: the dish stays in hand");
                if missed == 0 {
                    assert_eq!(r.score, score_before);
                }
                assert!(
                    r.events.iter().any(|e| matches!(e, SimEvent::Denied { .. })),
                    "round {round}: a refusal is named"
                );
                r.destroy_item(dish);
            }
            [(order_id, pts, streak)] => {
                assert!(*pts >= 0, "round {round}: negative points");
                assert!(
                    served_ids.insert(*order_id),
                    "round {round}: order {order_id} served twice"
                );
                let order = rail_before.iter().find(|o| o.id == *order_id).expect("a live order");
                assert!(!r.orders.iter().any(|o| o.id == *order_id));
                // FIFO: no older live order of the same recipe was passed over.
                assert!(
                    !rail_before.iter().any(|o| o.recipe == order.recipe && o.id < order.id),
                    "round {round}: FIFO"
                );
                assert_eq!(*streak, streak_before + 1);
                let expect = points(order.value, quality, *streak, order.deadline - tick, 1200);
                assert_eq!(*pts, expect, "round {round}");
                // The multiplier never passes its cap: base × 1.5 × 1.5 at the very most.
                assert!(4 * *pts <= 9 * order.value + 4, "round {round}: {pts} past the cap");
                if missed == 0 {
                    assert_eq!(r.score, score_before + pts);
                }
                assert_eq!(r.cooks[c].held, None);
                served_count += 1;
            }
            more => panic!("round {round}: one press served {more:?}"),
        }
        step_room(&mut r); // release
    }
    assert_eq!(r.counters.served, served_count);
    let total: i32 = r.cooks.iter().map(|c| c.score).sum();
    assert_eq!(total, r.score, "per-cook contributions sum to the score");
    assert!(served_count > 100, "the generator serves often enough ({served_count})");
}

// ---------------------------------------------------------------------------------------------
// 20 random order specs × 300 simulated seconds
// ---------------------------------------------------------------------------------------------

#[test]
fn twenty_random_order_specs_for_300_seconds() {
    const TICKS: u32 = 300 * 20;
    let ids = [
        "salad",
        "onion_soup",
        "tomato_soup",
        "mushroom_soup",
        "burger",
        "plain_burger",
        "fish_rice",
    ];
    for spec in 0..20u64 {
        let mut g = SplitMix64::new(0x0DE4_0000 + spec);
        let pool: Vec<String> = if spec == 7 {
            Vec::new()
        } else {
            let p: Vec<String> =
                ids.iter().filter(|_| chance(&mut g, 50)).map(|s| s.to_string()).collect();
            if p.is_empty() { vec![ids[g.index(ids.len())].to_string()] } else { p }
        };
        let concurrent = g.range_inclusive(1, 5);
        let lo = g.range_inclusive(0, 100);
        let hi = lo + g.range_inclusive(0, 300);
        let deadline = g.range_inclusive(1, 1200);
        let penalty = g.range_inclusive(0, 10) as i32;
        let busy = chance(&mut g, 50);
        let empty_pool = pool.is_empty();
        let mut r = room_with(&["###", "#1#", "###"], 1, move |l| {
            l.orders.pool = pool;
            l.orders.concurrent = concurrent;
            l.orders.interval_min = lo;
            l.orders.interval_max = hi;
            l.orders.deadline = deadline;
            l.orders.miss_penalty = penalty;
            l.time_limit = TICKS + 10;
            l.target_score = i32::MAX;
        });
        r.rng = SplitMix64::new(spec * 7919);
        let mut seen = BTreeSet::new();
        let mut max_id = 0;
        let mut removed_by_hand = 0;
        let name = format!("spec {spec}: c={concurrent} {lo}..={hi} d={deadline} busy={busy}");
        for _ in 0..TICKS {
            let t = r.tick;
            step_room(&mut r);
            assert!(r.orders.len() <= concurrent as usize, "{name}: rail over its cap at {t}");
            for o in &r.orders {
                let left = o.deadline.checked_sub(r.tick);
                assert!(left.is_some(), "{name}: order {} past its deadline at {t}", o.id);
                assert!(o.deadline - r.tick < deadline, "{name}: more time than the span");
                if seen.insert(o.id) {
                    assert!(o.id > max_id, "{name}: id {} not fresh", o.id);
                    max_id = o.id;
                }
            }
            assert!(r.orders.windows(2).all(|w| w[0].id < w[1].id), "{name}: rail out of order");
            if !empty_pool {
                assert!(r.next_order_at > t, "{name}: next spawn in the past at {t}");
                assert!(r.next_order_at - t <= hi.max(30), "{name}: gap too long at {t}");
            }
            assert_eq!(r.time_left, TICKS + 10 - r.tick, "{name}: the clock");
            assert_eq!(r.result, None, "{name}");
            // A busy kitchen serves now and then: the order just leaves the rail.
            if busy && !r.orders.is_empty() && chance(&mut g, 3) {
                let i = g.index(r.orders.len());
                r.orders.remove(i);
                removed_by_hand += 1;
            }
        }
        let spawned = r.next_order_id - 1;
        assert_eq!(
            spawned,
            r.counters.missed + removed_by_hand + r.orders.len() as u32,
            "{name}: every order is live, missed or served"
        );
        assert_eq!(spawned as usize, seen.len(), "{name}");
        if empty_pool {
            assert_eq!(spawned, 0);
        } else {
            assert!(spawned > 0, "{name}: nothing spawned in 300 s");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The dirty loop: conservation on every tick, and one wash always restores a plate
// ---------------------------------------------------------------------------------------------

/// clean + dirty == the level's limit, for plates (rack stock + plate items + sink stack) and
/// pots (clean + dirty), and every item in exactly the hand that says it holds it.
fn assert_conserved(r: &Room) {
    let plate_items =
        r.items.iter().filter(|i| matches!(i.kind, ItemKind::Plate { .. })).count() as u32;
    assert_eq!(
        r.plates_clean + plate_items + r.plates_dirty,
        r.level.props.plates,
        "plates at tick {}: rack {} + items {plate_items} + sink {}",
        r.tick,
        r.plates_clean,
        r.plates_dirty
    );
    assert_eq!(r.pots_clean + r.pots_dirty, r.level.props.pots, "pots at tick {}", r.tick);
    for item in &r.items {
        if let Place::Hand(seat) = item.place {
            let c = r.cook_index(seat).unwrap();
            assert_eq!(r.cooks[c].held, Some(item.id), "tick {}", r.tick);
        }
    }
    for c in &r.cooks {
        if let Some(id) = c.held {
            assert_eq!(r.item(id).map(|i| i.place), Some(Place::Hand(c.seat)));
        }
    }
}

fn step_checked(r: &mut Room) {
    step_room(r);
    assert_conserved(r);
}

/// The worst-case kitchen: cook 0 stands at A (2,2) or B (4,2).
/// A: up bun shelf, left patty shelf, right pan, down sink.
/// B: up plate rack, left pan, right serve window, down counter.
const WORST: [&str; 5] = ["#######", "##b#R##", "#p1F.W#", "##S#-##", "#######"];
const A: i32 = 2;
const B: i32 = 4;
const PAN: usize = 3;

/// Stand at column `x` of row 2 facing `face`, hold the button `ticks` ticks, then let go.
fn press(r: &mut Room, x: i32, face: Dir4, ticks: u32) {
    place(r, 0, cell_centre(x), cell_centre(2), face);
    for _ in 0..ticks {
        send(r, 0, (0, 0), true, None);
        step_checked(r);
    }
    step_checked(r);
}

fn held_kind(r: &Room) -> Option<ItemKind> {
    r.cooks[0].held.and_then(|id| r.item(id)).map(|i| i.kind.clone())
}

#[test]
fn a_worst_case_kitchen_conserves_its_props_for_2000_ticks() {
    let mut r = room_with(&WORST, 1, |l| {
        l.orders.pool = vec!["plain_burger".into()];
        l.orders.concurrent = 3;
        l.orders.interval_min = 30;
        l.orders.interval_max = 60;
        l.orders.deadline = 1500;
        l.time_limit = 100_000;
        l.target_score = i32::MAX;
    });
    assert_eq!(r.stations[PAN].kind, StationKind::Stove(Vessel::Pan));
    assert_conserved(&r);
    let (mut served, mut washes, mut pan_washes) = (0, 0, 0);
    while r.tick < 2000 {
        // The pan is stuck with the last patty's grease: forced to wash it in place.
        if r.stations[PAN].state == StationState::Dirty {
            press(&mut r, A, Dir4::Right, WASH_TICKS);
            assert_eq!(r.stations[PAN].state, StationState::Idle);
            pan_washes += 1;
        }
        // The rack is empty: forced to the sink, and one wash restores exactly one plate.
        if r.plates_clean == 0 {
            assert!(r.plates_dirty > 0, "no plate anywhere at tick {}", r.tick);
            let dirty = r.plates_dirty;
            press(&mut r, A, Dir4::Down, WASH_TICKS);
            assert_eq!((r.plates_clean, r.plates_dirty), (1, dirty - 1), "one wash, one plate");
            washes += 1;
        }
        press(&mut r, B, Dir4::Up, 1); // a plate off the rack
        assert_eq!(held_kind(&r), Some(ItemKind::Plate { parts: vec![] }));
        press(&mut r, A, Dir4::Up, 1); // a bun straight onto it
        press(&mut r, B, Dir4::Down, 1); // the plate onto the counter
        press(&mut r, A, Dir4::Left, 1); // a raw patty
        press(&mut r, A, Dir4::Right, 1); // into the pan: it cooks on its own
        assert_eq!(r.stations[PAN].state, StationState::Working);
        while r.stations[PAN].state != StationState::Ready {
            step_checked(&mut r);
        }
        press(&mut r, B, Dir4::Down, 1); // the plate back
        press(&mut r, B, Dir4::Left, 1); // the patty onto it: the pan is left dirty
        let mut burger = vec![(Ingredient::Bun, Form::Raw), (Ingredient::Patty, Form::Cooked)];
        burger.sort();
        assert_eq!(held_kind(&r), Some(ItemKind::Plate { parts: burger }));
        assert_eq!(r.stations[PAN].state, StationState::Dirty);
        loop {
            press(&mut r, B, Dir4::Right, 1);
            if r.cooks[0].held.is_none() {
                served += 1;
                break;
            }
            for _ in 0..10 {
                step_checked(&mut r);
            }
        }
    }
    assert!(served >= 10, "served {served}");
    // Not `washes == served - 4`: the sink keeps its worker slot between plates of the stack,
    // so the presses this cook makes near the sink advance a wash too (see the ignored
    // `a_press_at_another_fixture_does_not_work_the_sink` below).
    assert!(washes >= 1 && washes <= served - 4, "{washes} washes, {served} served");
    assert_eq!(pan_washes, served - 1);
    assert_eq!(r.counters.served, served);
}

/// Two cooks pressing at random all over a full kitchen for 2,000 ticks (four seeds): the props
/// are conserved on every tick whatever they do (trash plates, pour soups, burn pans).
#[test]
fn random_cooks_never_break_prop_conservation() {
    const FULL: [&str; 6] =
        ["#########", "#oRtlKFU#", "#.1...2.#", "#.......#", "#-SPWTbp#", "#########"];
    let mut activity = 0;
    for seed in 0..4u64 {
        let mut r = room_with(&FULL, 2, |l| {
            l.orders.pool = vec!["salad".into(), "onion_soup".into(), "plain_burger".into()];
            l.orders.concurrent = 3;
            l.orders.interval_min = 20;
            l.orders.interval_max = 60;
            l.orders.deadline = 600;
            l.orders.miss_penalty = 3;
            l.time_limit = 100_000;
            l.target_score = i32::MAX;
        });
        let mut g = SplitMix64::new(0xF022 + seed);
        let mut frames = [((0i16, 0i16), false, None::<Dir4>, 0u32); 2];
        for _ in 0..2000 {
            for (seat, f) in frames.iter_mut().enumerate() {
                if f.3 == 0 {
                    let dirs = [(0, 0), (0, 0), (1000, 0), (-1000, 0), (0, 1000), (0, -1000)];
                    let mv = dirs[g.index(dirs.len())];
                    let face = [
                        None,
                        Some(Dir4::Up),
                        Some(Dir4::Down),
                        Some(Dir4::Left),
                        Some(Dir4::Right),
                    ][g.index(5)];
                    *f = (mv, chance(&mut g, 50), face, g.range_inclusive(1, 30));
                }
                f.3 -= 1;
                // Re-press often: a hold that ends and restarts is a new press.
                let action = f.1 && !(chance(&mut g, 10) && f.0 == (0, 0));
                send(&mut r, seat as u8, f.0, action, f.2);
            }
            step_checked(&mut r);
        }
        activity += r.counters.created + r.counters.trashed;
        assert!(r.items.len() as u32 <= r.counters.created);
    }
    assert!(activity > 20, "the random cooks did something ({activity})");
}

#[test]
fn a_refused_serve_in_the_worst_case_kitchen_is_named() {
    // The window before any order: no_orders, and the dish stays in the hand.
    let mut r = room_with(&WORST, 1, |l| {
        l.time_limit = 100_000;
        l.target_score = i32::MAX;
    });
    let id = r.create_item(
        ItemKind::Plate {
            parts: vec![(Ingredient::Bun, Form::Raw), (Ingredient::Patty, Form::Cooked)],
        },
        Place::Hand(0),
    );
    r.cooks[0].held = Some(id);
    place(&mut r, 0, cell_centre(B), cell_centre(2), Dir4::Right);
    send(&mut r, 0, (0, 0), true, None);
    step_room(&mut r);
    assert_eq!(
        r.events,
        vec![SimEvent::Denied { seat: 0, reason: DeniedReason::NoOrders, why: None }]
    );
    assert_eq!(r.cooks[0].held, Some(id));
}

/// The sink keeps washing its stack for the cook who holds the button, and keeps that cook as its
/// worker between plates. A cook who lets go and then presses another fixture within reach of
/// the sink (the shelf beside it) is not washing plates with that press: acting at another
/// fixture releases the cook's worker slot (`stations::release_other_work`).
#[test]
fn a_press_at_another_fixture_does_not_work_the_sink() {
    let mut r = room_with(&WORST, 1, |l| {
        l.time_limit = 100_000;
        l.target_score = i32::MAX;
    });
    r.plates_clean = 2;
    r.plates_dirty = 2;
    press(&mut r, A, Dir4::Down, WASH_TICKS); // one plate; the sink keeps cook 0 as its worker
    assert_eq!((r.plates_clean, r.plates_dirty), (3, 1));
    for _ in 0..WASH_TICKS {
        press(&mut r, A, Dir4::Up, 1); // a bun off the shelf (next to the sink) ...
        if let Some(id) = r.cooks[0].held {
            r.destroy_item(id); // ... handed away
        }
    }
    assert_eq!((r.plates_clean, r.plates_dirty), (3, 1), "bun presses washed a plate");
}
