//! Who yields in a jam: the order a bot's seat stands in among the cooks it could block, used
//! for the back-off after a stall and for "the higher one gives way". In co-op that order is
//! the seat number, as it always was; in versus it is the seat's rank within its own team, so
//! two mirrored teams stall and give way alike (a bare seat number made team B, whose seats
//! are 1 and 3, always wait four ticks longer than team A's 0 and 2, and yield to A's cooks
//! across the wall).

use super::nav::{FAR, distances};
use crate::sim::ids::Seat;
use crate::sim::room::Room;

/// The seat's rank in jams: its seat number in co-op; in versus, how many of its teammates
/// have a lower seat (0 for the team's first cook, 1 for its second).
pub(super) fn jam_rank(room: &Room, seat: Seat) -> u32 {
    let Some(team) = room.team_of_seat(seat) else { return u32::from(seat) };
    room.cooks.iter().filter(|c| c.seat < seat && room.team_of_seat(c.seat) == Some(team)).count()
        as u32
}

/// Does the stalled bot `seat` give way to `other`, a cook standing close by? In co-op (and
/// to a teammate) when `other` ranks lower. A rival (versus) is only in the way when it can
/// be walked to within two steps — not across the wall or the gap between the halves — and
/// then the lower rank stands; on equal ranks the side that yields alternates with the tick
/// (team A on even ticks, team B on odd), so neither team always has the right of way.
pub(super) fn gives_way_to(room: &Room, seat: Seat, other: Seat) -> bool {
    let (mine, theirs) = (room.team_of_seat(seat), room.team_of_seat(other));
    let (me, them) = (jam_rank(room, seat), jam_rank(room, other));
    if mine == theirs {
        return them < me;
    }
    let (Some(a), Some(b)) = (room.cook_index(seat), room.cook_index(other)) else {
        return false;
    };
    let (here, there) = (room.cooks[a].pos.cell(), room.cooks[b].pos.cell());
    let steps = distances(&room.level, &[here], &|_| false);
    let w = room.level.width as usize;
    let walk = steps.get(there.1 as usize * w + there.0 as usize).copied().unwrap_or(FAR);
    if walk > 2 {
        return false;
    }
    let my_turn = mine.map_or(0, |t| t.index()) as u32 == room.tick % 2;
    them < me || (them == me && my_turn)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::{builtin_recipes, parse_level};
    use crate::sim::open::SeatSpec;
    use crate::sim::v2::V2;
    use std::sync::Arc;

    /// Four seats on the shipped Split Salad, with its text passed through `edit` first.
    fn room(edit: impl Fn(String) -> String) -> Room {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/levels_versus/split_salad.ron");
        let text = edit(std::fs::read_to_string(path).expect("the shipped kitchen"));
        let book = builtin_recipes().expect("book");
        let level = parse_level(text.as_bytes(), "split_salad.ron", &book).expect("a level");
        Room::new(Arc::new(level), Arc::new(book), 1, &SeatSpec::numbered(4))
    }

    /// Put each seat's cook at the centre of a cell.
    fn stand(room: &mut Room, cells: [(i32, i32); 4]) {
        for (cook, cell) in room.cooks.iter_mut().zip(cells) {
            cook.pos = V2::centre_of(cell);
        }
    }

    #[test]
    fn a_seat_ranks_within_its_team_in_versus_and_by_number_in_co_op() {
        let versus = room(|t| t);
        assert_eq!([0, 1, 2, 3].map(|s| jam_rank(&versus, s)), [0, 0, 1, 1]);
        let coop = room(|t| t[..t.find("    teams:").expect("a teams block")].to_string() + ")\n");
        assert!(coop.versus.is_none());
        assert_eq!([0, 1, 2, 3].map(|s| jam_rank(&coop, s)), [0, 1, 2, 3]);
        // Co-op keeps "the higher seat gives way" to any cook.
        assert!(gives_way_to(&coop, 1, 0) && !gives_way_to(&coop, 0, 1));
        assert!(gives_way_to(&coop, 3, 2));
    }

    #[test]
    fn mirrored_teams_yield_alike_and_never_across_the_wall() {
        let mut r = room(|t| t);
        // Each team's first cook by the wall, its second behind it: A's on cells 6 and 5,
        // B's on the mirror cells 8 and 9 (two cells from A's first, through the wall).
        stand(&mut r, [(6, 2), (8, 2), (5, 2), (9, 2)]);
        for tick in [0, 1] {
            r.tick = tick;
            assert!(gives_way_to(&r, 2, 0) && gives_way_to(&r, 3, 1), "second cooks yield");
            assert!(!gives_way_to(&r, 0, 2) && !gives_way_to(&r, 1, 3));
            // Seat 1 gave way to seat 0 across the wall before jams were ranked in the team.
            assert!(!gives_way_to(&r, 1, 0) && !gives_way_to(&r, 0, 1), "a wall is no jam");
        }
    }

    #[test]
    fn equal_rivals_on_one_floor_take_turns_to_yield() {
        let open = |t: String| {
            t.replace("\"#......#......#\"", "\"#.............#\"")
                .replace("\"W..1...#...2..W\"", "\"W..1.......2..W\"")
                .replace("\"P..3...#...4..P\"", "\"P..3.......4..P\"")
        };
        let mut r = room(open);
        stand(&mut r, [(6, 2), (8, 2), (2, 2), (12, 2)]);
        r.tick = 10;
        assert!(gives_way_to(&r, 0, 1) && !gives_way_to(&r, 1, 0), "A yields on even ticks");
        r.tick = 11;
        assert!(gives_way_to(&r, 1, 0) && !gives_way_to(&r, 0, 1), "B yields on odd ticks");
        // A rival's second cook yields to the other team's first, whatever the tick.
        stand(&mut r, [(6, 2), (12, 2), (2, 2), (8, 2)]);
        assert!(gives_way_to(&r, 3, 0) && !gives_way_to(&r, 0, 3));
    }
}
