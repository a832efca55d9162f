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
